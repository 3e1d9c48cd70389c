# SPDX-License-Identifier: MIT
# The new workloads of issue 26, part B (workloads/README.md, "New stand-ins (issue 26, part B)";
# included by tests/CMakeLists.txt after tests/workloads.cmake, whose workload_<NAME> tests this
# file labels). Tiers: `ci` = the quick tier, `full` = the long tier.
# - workload_<NAME> (defined by tests/workloads.cmake, small size): labelled ci as well;
# - workload_<NAME>_medium (timing model, 5-40 s) and workload_<NAME>_large (functional model:
#   the timing model takes minutes per workload there), full tier; each verifies its output
#   against the CPU reference;
# - stress500_<NAME>, stress5000_<NAME> (tests/context.cmake) cover these workloads in stress mode.
# Every workload and variant below must be registered (a missing one is a configure error).

set(hd_wl26b_bases fwt haar1d fft inlinemath mvt scalarprod estimatepi quasirandom asianoption)
set(hd_wl26b_variants estimatepi_r24 asianoption_r24 quasirandom_r32)

get_property(hd_wl26b_registered GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  foreach(wl IN LISTS hd_wl26b_bases hd_wl26b_variants)
    if(NOT wl IN_LIST hd_wl26b_registered)
      message(FATAL_ERROR "tests/workloads_26b.cmake: workload ${wl} is not registered")
    endif()
    set_tests_properties(workload_${wl} PROPERTIES LABELS "workloads;ci")
    foreach(size medium large)
      set(mode "")
      if(size STREQUAL "large")
        set(mode --functional)
      endif()
      add_test(NAME workload_${wl}_${size}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size ${size} ${mode}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(workload_${wl}_${size} PROPERTIES LABELS "workloads;full" TIMEOUT 600
                           PASS_REGULAR_EXPRESSION ": VERIFIED"
                           FAIL_REGULAR_EXPRESSION "WRONG RESULT|FAILED|internal:")
    endforeach()
  endforeach()
endif()

# The references catch a wrong kernel: one operand changed in one PTX instruction of fwt, mvt and
# quasirandom gives WRONG RESULT (HD_WL_MISMATCH) with the first differing element located.
if(TARGET hd_workloads)
  add_executable(wl_mutant_26b ${CMAKE_CURRENT_LIST_DIR}/wl_mutant_26b.c)
  target_link_libraries(wl_mutant_26b PRIVATE hd_testutil hd_workloads hd_runtime)
  add_test(NAME wl_mutant_26b COMMAND wl_mutant_26b WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(wl_mutant_26b PROPERTIES LABELS "workloads;ci" TIMEOUT 120)
endif()
