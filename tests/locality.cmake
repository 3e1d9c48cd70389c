# SPDX-License-Identifier: MIT
# Gong ch.6 locality-aware scheduling (issue 31; docs/locality.md), end to end through heddle run
# (tests/locality/locality_check.py; the unit test is tests/unit/test_locality.c):
# - locality_verify_<W>: W verifies under the locality distributor + group scheduler with each
#   Table 6.1 hint (0-3; hint 2 also in column order, hint 1 with keep) and under cta_aware
#   and mascar (Kepler, size small): the cheapest (transpose) in CI, every registered workload in the full tier
# - locality_hint0: hint 0 gives round_robin + lrr's statistics exactly: sgemm in CI, four more
#   workloads in full (locality_hint0_more)
# - locality_list: heddle list shows the Table 6.2 stand-ins' hints (CI)
# - locality_class: the stand-ins' measured sharing (cross-SM duplicate MSHR allocations under
#   the round-robin baseline) agrees with their Table 6.2 class (full)
set(HD_TEST_MECHANISM locality) # docs/testing.md: this mechanism's budget
if(TARGET heddle)
  set(hd_loc python3 ${CMAKE_CURRENT_SOURCE_DIR}/locality/locality_check.py
      $<TARGET_FILE:heddle>)
  get_property(hd_loc_workloads GLOBAL PROPERTY HD_WORKLOADS)
  foreach(wl IN LISTS hd_loc_workloads)
    add_test(NAME locality_verify_${wl} COMMAND ${hd_loc} verify ${wl}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(locality_verify_${wl} PROPERTIES TIMEOUT 600
                         PASS_REGULAR_EXPRESSION "locality verify ok")
  endforeach()
  add_test(NAME locality_hint0 COMMAND ${hd_loc} hint0 sgemm WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME locality_hint0_more COMMAND ${hd_loc} hint0 transpose stencil2d conv2d mvt
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME locality_list COMMAND ${hd_loc} list WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME locality_class COMMAND ${hd_loc} class WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(locality_hint0 locality_hint0_more PROPERTIES
                       PASS_REGULAR_EXPRESSION "locality hint0 ok")
  set_tests_properties(locality_list PROPERTIES PASS_REGULAR_EXPRESSION "locality list ok")
  set_tests_properties(locality_class PROPERTIES PASS_REGULAR_EXPRESSION "locality class ok"
                       TIMEOUT 1200) # the experiment's default sizes: about 40 CPU-seconds
endif()

# The experiment (experiments/locality.py; docs/locality.md "Experiment"):
# experiments_locality_tiny (CI) runs its analysis on tests/sweep/locality-tiny.toml (transpose
# and scan at small, 16 MSHR entries, 16 runs) and checks the report's tables and figures;
# experiments_locality (full) is the default-size sweep, experiments/locality.toml (156 runs,
# 20 CPU-minutes), into the build tree.
if(TARGET heddle)
  set(hd_loc_tiny ${CMAKE_CURRENT_BINARY_DIR}/locality-tiny)
  add_test(NAME experiments_locality_tiny
           COMMAND bash -c "rm -rf \"$1\" && python3 experiments/sweep.py tests/sweep/locality-tiny.toml -j 2 --heddle \"$2\" --out \"$1\" && test -s \"$1/speedup.png\" && test -s \"$1/average.png\" && test -s \"$1/mshr.png\" && grep -q '^| MT (transpose) | 1 | small | 1 | 104 | 3 | 2.5 |' \"$1/report.md\" && grep -q '^| duplicates, GEMM and 2MM | up to 90 % | - | L1245 |' \"$1/report.md\" && grep -q '^| SC (scan) | 16 | ' \"$1/report.md\" && echo 'locality tiny: report written'"
                   _ ${hd_loc_tiny} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(experiments_locality_tiny PROPERTIES LABELS "experiments" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "locality tiny: report written")
  set(hd_loc_full ${CMAKE_CURRENT_BINARY_DIR}/locality-default)
  add_test(NAME experiments_locality
           COMMAND bash -c "rm -rf \"$1\" && python3 experiments/sweep.py experiments/locality.toml -j 2 --heddle \"$2\" --out \"$1\" && test -s \"$1/speedup.png\" && test -s \"$1/mshr.png\" && grep -q '^| MVT (mvt) | 3 | medium | 2 | 12 |' \"$1/report.md\" && echo 'locality default: report written'"
                   _ ${hd_loc_full} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(experiments_locality PROPERTIES LABELS "experiments" TIMEOUT 3600
                       PASS_REGULAR_EXPRESSION "locality default: report written")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI (with test_locality about 25
# test-seconds on the loaded machine, 3 CPU-seconds), the rest in the full tier.
hd_tier(ci "^locality_verify_transpose$" "^locality_hint0$" "^locality_list$"
        "^experiments_locality_tiny$")
