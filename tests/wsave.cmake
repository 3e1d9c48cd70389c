# SPDX-License-Identifier: MIT
# The per-warp save pipeline ([context] save_order = warp; Lin Fig 2.13 step 5; issue 24;
# model/ctx/ctx_wsave.[ch], docs/context.md "Save order"), tests/preempt/lin_wsave.py:
# - preempt_lin_wsave_order: the same signalled run (hotspot small, selective points, live+cp,
#   drained warps) in tb and warp order: both verify, warps are queued early only in warp
#   order, Lin's per-warp spill latency is shorter there, and each record's Fig 2.14 time parts
#   agree with its bytes (and, in tb order, fit in its spill time).
# - preempt_lin_wsave_modes_<W>: warp order under stress mode with every save mode (Occup,
#   live, live+cp) and selective points: every run verifies, warps leave early, contexts come
#   back.
# - stress_wsave_<W>: warp order, live+cp, selective points, stress every 2,000 cycles at 0.25.
# - preempt_lin_wsave_loop_<W>_<HOW>: warp order with the context blocks in the timing loop
#   (heddle cosim --blocks regpat --in-loop: compressor, decompressor, packer, unpacker,
#   preemption controller, point decoder of every SM against their RTL) on a signalled run
#   (signal), under stress evictions (stress) or on the lin-ch2-faithful setup (faithful,
#   medium): the RTL driving gives the C-reference run's cycles with 0 mismatches (and, but in
#   CI, --drive ref the same cycles and block steps).
set(HD_TEST_MECHANISM lin) # docs/testing.md: Lin's budget
find_package(Python3 COMPONENTS Interpreter QUIET)
if(TARGET heddle AND Python3_Interpreter_FOUND)
  add_test(NAME preempt_lin_wsave_order
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/preempt/lin_wsave.py
                   $<TARGET_FILE:heddle> order hotspot
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_lin_wsave_order PROPERTIES LABELS "preempt;lin" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "^order: ")
  foreach(wl sgemm backprop)
    add_test(NAME preempt_lin_wsave_modes_${wl}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/preempt/lin_wsave.py
                     $<TARGET_FILE:heddle> modes ${wl}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(preempt_lin_wsave_modes_${wl} PROPERTIES LABELS "stress;lin" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "^modes: ")
  endforeach()
endif()
if(TARGET hd_cosim_vl AND Python3_Interpreter_FOUND)
  # WORKLOAD SIZE HOW [ref]
  foreach(c "hotspot;small;signal" "sgemm;small;stress;ref" "bfs;small;signal;ref"
            "histogram;small;signal;ref" "pathfinder;small;stress;ref"
            "backprop;medium;faithful;ref")
    list(GET c 0 wl)
    list(GET c 2 how)
    add_test(NAME preempt_lin_wsave_loop_${wl}_${how}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/preempt/lin_wsave.py
                     $<TARGET_FILE:heddle> loop ${c}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(preempt_lin_wsave_loop_${wl}_${how} PROPERTIES LABELS "preempt;lin;cosim"
                         TIMEOUT 600 PASS_REGULAR_EXPRESSION "^loop: ")
  endforeach()
endif()
if(TARGET heddle)
  foreach(wl sgemm reduction bfs histogram hotspot pathfinder)
    add_test(NAME stress_wsave_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set context.save=compressed
                     --set context.points=selective --set context.save_order=warp
                     --set context.stress_period=2000 --set context.stress_fraction=0.25
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(stress_wsave_${wl} PROPERTIES LABELS "stress;lin" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED.*contexts +[0-9]+ suspended, [1-9][0-9]* saved"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:|differs")
  endforeach()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^preempt_lin_wsave_order$" "^stress_wsave_(sgemm|reduction)$"
        "^preempt_lin_wsave_loop_hotspot_signal$")
