# SPDX-License-Identifier: MIT
# The on-chip context mover, the swap engine and their stress mode (issue 25 items 3, 4, 8;
# docs/mover.md; included by tests/CMakeLists.txt).
#
# - test_ctx_mover (tests/unit): hand-worked moves, the unified space, reserved tag ways.
# - mover_predict_{swap,move}: one CTA of sgemm (one SM, one CTA, a piece forced at a cycle):
#   the bytes and cycles computed by hand from the configuration and the kernel's allocation
#   (tests/mover/predict.py) against the run's statistics, within 2 %, with the pipeline's
#   contention counted; SWAP-class bytes in the memory statistics.
# - test_l1_reserve (tests/unit): half the L1D ways reserved halve a cache-sized working set's
#   hits and given back restore them; dirty lines of reserved ways are written back (CONTEXT).
# - vstress_{swap,move}{250,2000}_<NAME>: every base workload at small size verifies under
#   swap stress and move stress at two rates; vstress_determinism: the same seed gives the same
#   cycles and counters twice, and again without idle-cycle skipping (reduction, sgemm);
#   vstress_lifecycle_{sgemm,reduction}: both modes with the lifecycle's stress (switches) and
#   selective preemption points at once (a held CTA told to switch waits for its piece).

if(TEST test_ctx_mover)
  set_property(TEST test_ctx_mover APPEND PROPERTY LABELS mover)
endif()

get_property(hd_mv_workloads GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  foreach(wl IN LISTS hd_mv_workloads)
    foreach(kind swap move)
      foreach(period 250 2000)
        if(period EQUAL 250)
          set(frac 0.05)
        else()
          set(frac 0.5)
        endif()
        add_test(NAME vstress_${kind}${period}_${wl}
                 COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
                         --set context.${kind}_stress_period=${period}
                         --set context.vstress_fraction=${frac} --set context.mover_l1d_ways=2
                 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
        set_tests_properties(vstress_${kind}${period}_${wl} PROPERTIES LABELS "mover" TIMEOUT 300
                             PASS_REGULAR_EXPRESSION "VERIFIED"
                             FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
      endforeach()
    endforeach()
  endforeach()
  foreach(wl sgemm reduction) # with the lifecycle's stress and selective points at once
    add_test(NAME vstress_lifecycle_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
                     --set context.stress_period=500 --set context.stress_fraction=0.1
                     --set context.points=selective --set context.swap_stress_period=300
                     --set context.move_stress_period=700 --set context.mover_l1d_ways=1
                     --set context.vstress_fraction=0.3
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(vstress_lifecycle_${wl} PROPERTIES LABELS "mover" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED.*contexts +[1-9].*mover and swap +[1-9]"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
  add_test(NAME vstress_determinism
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/mover/determinism.sh $<TARGET_FILE:heddle>
                   reduction sgemm
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(vstress_determinism PROPERTIES LABELS "mover" TIMEOUT 300)
  foreach(kind swap move)
    add_test(NAME mover_predict_${kind}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mover/predict.py
                     $<TARGET_FILE:heddle> ${kind}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(mover_predict_${kind} PROPERTIES LABELS "mover" TIMEOUT 120)
  endforeach()
endif()

hd_tier(ci "^vstress_(swap|move)(250|2000)_(${HD_CI_WORKLOADS_RE})$"
        "^vstress_determinism$"
        "^vstress_lifecycle_"
        "^mover_")
if(TEST test_l1_reserve)
  set_property(TEST test_l1_reserve APPEND PROPERTY LABELS mover)
endif()
