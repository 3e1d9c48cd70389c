# SPDX-License-Identifier: MIT
# Workload tests (included by tests/CMakeLists.txt).
#
# - workloads_check: the generated registry and the embedded PTX are consistent, every workload's
#   PTX parses, and the recorded ptxas summaries match the kernels (no kernel is executed).
# - workload_<NAME>: `heddle run NAME --size small` for every registered workload (the list comes
#   from workloads/CMakeLists.txt through the global property HD_WORKLOADS, so a new folder gets
#   its test without an edit here). The run verifies the output against the driver's CPU
#   reference and fails on any mismatch or runtime error.
# Whether the committed PTX matches its .cu is checked by `scripts/regen-ptx.sh --check`, by hand,
# since nvcc is not available in CI.

get_property(hd_test_workloads GLOBAL PROPERTY HD_WORKLOADS)
# the input-length variants (workloads/CMakeLists.txt) verify here too, in the full tier
get_property(hd_test_input_variants GLOBAL PROPERTY HD_INPUT_VARIANTS)
list(APPEND hd_test_workloads ${hd_test_input_variants})

if(TARGET hd_workloads AND TARGET hd_ptx)
  add_executable(workloads_check ${CMAKE_CURRENT_LIST_DIR}/workloads_check.c)
  target_link_libraries(workloads_check PRIVATE hd_testutil hd_workloads hd_runtime hd_ptx)
  add_test(NAME workloads_check COMMAND workloads_check WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(workloads_check PROPERTIES LABELS "workloads" TIMEOUT 60)
endif()

if(TARGET heddle)
  foreach(wl IN LISTS hd_test_workloads)
    add_test(NAME workload_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    # Small sizes run in well under a second functionally; the timeout only catches hangs.
    # every workload in CI, its resource-specification variants in the full tier
    # (and the variants that are another kernel rather than another resource specification:
    # lbm_parboil, Parboil's own lbm layout, session 22; bucketsort_rod_ccbp, Rodinia's bucketsort
    # scatter alone, Lin's SRT in the CCBP experiment, and lavamd_rod, lavamd_rod_ccbp, Rodinia's
    # lavaMD kernel, session 25: under a second each at small)
    if(EXISTS ${CMAKE_SOURCE_DIR}/workloads/${wl}/
       OR wl MATCHES "^(lbm_parboil|bucketsort_rod_ccbp|lavamd_rod|lavamd_rod_ccbp)$")
      set(tier ci)
    else()
      set(tier full)
    endif()
    set_tests_properties(workload_${wl} PROPERTIES LABELS "${tier};workloads" TIMEOUT 120)
  endforeach()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^workloads_check$")
