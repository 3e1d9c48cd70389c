# SPDX-License-Identifier: MIT
# Robustness of the new surfaces (issue 34), included by tests/CMakeLists.txt:
# - tests/cli/robust_surfaces.sh, one CTest per case: late arrivals, the instruction watchdog
#   (stress livelock), outputs over the running binary or a file the run reads, one parser of
#   launch attributes, oracle profiles, cosim windows, configuration exit codes;
# - tests/sweep/robust.py, one CTest per case: the sweep runner's keys, interrupted points,
#   signals, timeouts, broken stores, bounded statistics, claims.
# Labels: ci (quick: each case takes seconds) and robust (ctest -L robust).

if(NOT TARGET heddle)
  return()
endif()
find_program(HD_BASH bash)
find_program(HD_TIMEOUT_PROG timeout)
if(HD_BASH AND HD_TIMEOUT_PROG)
  set(HD_SURFACE_CASES
      late_arrival_launch late_arrival_mix late_arrival_far late_arrival_no_skip
      finished_stays_verified stress_livelock fst_over_binary output_over_profile arrive_values
      oracle_profile_checks config_rule_exit help_texts window_bounds)
  foreach(c ${HD_SURFACE_CASES})
    add_test(NAME robust_${c}
             COMMAND ${HD_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/cli/robust_surfaces.sh ${c}
                     $<TARGET_FILE:heddle> ${CMAKE_SOURCE_DIR})
    set_tests_properties(robust_${c} PROPERTIES LABELS "ci;robust" TIMEOUT 120)
  endforeach()
endif()

find_program(HD_SWEEP_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT HD_SWEEP_PYTHON)
  find_program(HD_SWEEP_PYTHON NAMES python3)
endif()
if(HD_SWEEP_PYTHON)
  foreach(c key_files interrupted signal timeout_group timeouts stores stats checks claims
            edited)
    add_test(NAME sweep_robust_${c}
             COMMAND ${HD_SWEEP_PYTHON} ${CMAKE_SOURCE_DIR}/tests/sweep/robust.py ${c}
                     $<TARGET_FILE:heddle>
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(sweep_robust_${c} PROPERTIES LABELS "ci;robust;sweep" TIMEOUT 120
                         PASS_REGULAR_EXPRESSION "PASS sweep-robust ${c}")
  endforeach()
endif()
