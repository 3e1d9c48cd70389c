# SPDX-License-Identifier: MIT
# Issue 26, the last footprint rows and paper inputs (workloads/README.md, "Lin thesis Table 2.2 and
# Shieh Table 4.2" and "Paper-length inputs"; tests/workloads.cmake defines workload_<NAME> at small
# size for each of them: ci for the new base histo1024, full for the variants).
# - workload_<NAME>_medium (timing model) and workload_<NAME>_large (functional), full tier, for the
#   new workloads histo1024 and sradv1 and the variants bfs_k2_tb512, cfd_lin22, histo1024_lin22,
#   sradv1_lin22;
# - workload_<NAME>_paper (functional), full tier: the four drivers with their own paper input
#   (barneshut, chase, montecarlo, nqueens) verify at paper size too;
# stress500_/stress5000_/stress_flush_<NAME> (tests/context.cmake) cover the new ones like every
# workload. Every name below must be registered (a missing one is a configure error).

set(hd_wl26c_sized histo1024 sradv1 bfs_k2_tb512 cfd_lin22 histo1024_lin22 sradv1_lin22)
set(hd_wl26c_paper barneshut chase montecarlo nqueens)

get_property(hd_wl26c_registered GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  foreach(wl IN LISTS hd_wl26c_sized hd_wl26c_paper)
    if(NOT wl IN_LIST hd_wl26c_registered)
      message(FATAL_ERROR "tests/workloads_26c.cmake: workload ${wl} is not registered")
    endif()
  endforeach()
  foreach(wl IN LISTS hd_wl26c_sized)
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
  foreach(wl IN LISTS hd_wl26c_paper)
    add_test(NAME workload_${wl}_paper
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size paper --functional
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(workload_${wl}_paper PROPERTIES LABELS "workloads;full" TIMEOUT 600
                         PASS_REGULAR_EXPRESSION "${wl} \\(paper, [^)]*\\): VERIFIED"
                         FAIL_REGULAR_EXPRESSION "WRONG RESULT|FAILED|internal:")
  endforeach()
endif()

# Flush and restart (as tests/context.cmake's stress_flush_<NAME>): the two-kernel BFS, sradv1 and the
# histogram keep verifying when CTAs are flushed and re-run.
if(TARGET heddle)
  foreach(wl bfs_k2_tb512 histo1024 sradv1)
    add_test(NAME stress_flush_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set context.stress_flush=true
                     --set context.stress_period=1000 --set context.stress_fraction=0.25
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(stress_flush_${wl} PROPERTIES LABELS "full;stress" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED.*contexts .* [1-9][0-9]* flushed"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
endif()
