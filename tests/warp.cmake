# SPDX-License-Identifier: MIT
# Warp-granular residency tests (issue 25 items 1, 2, 8; model/timing/sm_residency.c,
# docs/timing.md "Warp-granular residency"; included by tests/CMakeLists.txt).
#
# - warp_stress<P>_<NAME>: every workload and variant at small size in the warp stress mode
#   ([sm] warp_stress_period P = 500 and 3000: each SM switches a random present warp, or every
#   4th time its whole CTA, out on chip every 1..2P cycles and back after 1..2P cycles); the
#   output must verify. The CI tier runs the CI sample (HD_CI_WORKLOADS), the full tier the rest.
# - warp_absent_load: chase_dram (one thread walking a cold 32 MiB chain: every load misses L1
#   and L2) under warp stress: loads complete while their warp is absent, are applied to its
#   saved scoreboard (warp_absent_loads > 0), and the chase verifies: each warp resumed with the
#   value its load returned while it was out.
# - warp_barrier_absent: reduction under warp stress: barriers complete with a warp absent
#   (warp_absent_bar_releases > 0) and the sums verify.
# - warp_logical_warps, warp_logical_ctas: 12 physical warp slots (max_threads = 384) under 32
#   logical warps, and 1 physical CTA slot under 3 logical ones: CTAs are placed with warps
#   beyond the physical slots absent (warp_placed_absent > 0); each runs to completion once a
#   slot frees (every warp placed absent came back) and the outputs verify.
# - warp_tb_inactivation(_count): Virtual Thread's coarse case: 2 physical CTA slots under 4
#   logical ones and warp stress (every 4th point a whole CTA): CTAs are inactivated on chip
#   (warp_cta_switch_outs) and their physical CTA slot serves another CTA (warp_cta_slot_given);
#   reduction verifies.
# - warp_ctx_stress_<NAME>: warp stress together with the context stress mode (compressed saves,
#   selective points): CTAs with a warp off its slot are not suspended, the rest are switched,
#   and the output verifies (sgemm segfaulted before a drained warp kept its slot while its CTA
#   was suspending).
# - warp_determinism (reduction, sgemm; CI) and warp_determinism_bfs (full): the same seed gives
#   the same cycles, memory statistics and warp counters twice and without idle-cycle skipping;
#   another seed gives others.
# - warp_logical_config: logical capacities with the context stress mode are refused (exit 2).
# - test_warp_residency (tests/unit): a warp switched out while its load is in flight gets it
#   while absent, a barrier completes with a warp absent, the mover seam and the hooks.

get_property(hd_warp_workloads GLOBAL PROPERTY HD_WORKLOADS)

if(TARGET heddle)
  foreach(wl IN LISTS hd_warp_workloads)
    if(wl IN_LIST HD_CI_WORKLOADS)
      set(tier ci)
    else()
      set(tier full)
    endif()
    foreach(period 500 3000)
      add_test(NAME warp_stress${period}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
                       --set sm.warp_stress_period=${period}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(warp_stress${period}_${wl} PROPERTIES LABELS "${tier};warp" TIMEOUT 300
                           PASS_REGULAR_EXPRESSION "VERIFIED"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
    endforeach()
  endforeach()
  set(hd_wc sh ${CMAKE_CURRENT_LIST_DIR}/warp/counter.sh $<TARGET_FILE:heddle>)
  add_test(NAME warp_absent_load
           COMMAND ${hd_wc} chase_dram warp_absent_loads 1 --set sm.warp_stress_period=500
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME warp_barrier_absent
           COMMAND ${hd_wc} reduction warp_absent_bar_releases 1 --set sm.warp_stress_period=500
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME warp_logical_warps
           COMMAND ${hd_wc} reduction warp_placed_absent 1 --set sm.max_threads=384
                   --set sm.logical_warps=32
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME warp_logical_ctas
           COMMAND ${hd_wc} vecadd warp_placed_absent 1 --set sm.max_threads=384
                   --set sm.logical_warps=32 --set sm.max_ctas=1 --set sm.logical_ctas=3
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME warp_logical_stress
           COMMAND ${hd_wc} sgemm warp_placed_absent 1 --set sm.max_threads=384
                   --set sm.logical_warps=32 --set sm.warp_stress_period=500
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME warp_tb_inactivation
           COMMAND ${hd_wc} reduction warp_cta_slot_given 1 --set sm.max_ctas=2
                   --set sm.logical_ctas=4 --set sm.logical_warps=96 --set sm.warp_stress_period=300
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME warp_tb_inactivation_count
           COMMAND ${hd_wc} reduction warp_cta_switch_outs 1 --set sm.max_ctas=2
                   --set sm.logical_ctas=4 --set sm.logical_warps=96 --set sm.warp_stress_period=300
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  foreach(wl sgemm reduction)
    add_test(NAME warp_ctx_stress_${wl}
             COMMAND ${hd_wc} ${wl} warp_switch_outs 1 --set sm.warp_stress_period=500
                     --set context.stress_period=2000 --set context.stress_fraction=0.25
                     --set context.points=selective --set context.save=compressed
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  endforeach()
  set_tests_properties(warp_absent_load warp_barrier_absent warp_logical_warps warp_logical_ctas
                       warp_logical_stress warp_ctx_stress_sgemm warp_ctx_stress_reduction
                       warp_tb_inactivation warp_tb_inactivation_count
                       PROPERTIES LABELS "ci;warp" TIMEOUT 300)
  # CI: reduction (two launches, barriers) and sgemm; bfs (11 host-synchronized launches, 63 %
  # of the CPU) in the full tier (session 24)
  add_test(NAME warp_determinism
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/warp/determinism.sh $<TARGET_FILE:heddle> 500
                   reduction sgemm
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(warp_determinism PROPERTIES LABELS "ci;warp" TIMEOUT 600)
  add_test(NAME warp_determinism_bfs
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/warp/determinism.sh $<TARGET_FILE:heddle> 500 bfs
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(warp_determinism_bfs PROPERTIES LABELS "full;warp" TIMEOUT 600)
  add_test(NAME warp_logical_config
           COMMAND $<TARGET_FILE:heddle> run vecadd --set sm.logical_warps=96
                   --set context.stress_period=1000)
  set_tests_properties(warp_logical_config PROPERTIES LABELS "ci;warp" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "logical_warps.*cannot be combined with \\[context\\] stress_period")
endif()

# - warp_mover_<MOVER>_<NAME> ([sm] warp_mover = onchip, swap; model/ctx/ctx_wmove.c,
#   docs/mover.md "Warps switched out through the mover"): the CI sample under warp stress at
#   period 500 with each switched-out warp's bytes moved through the on-chip context mover into
#   the L1D context region (mover_l1d_ways = 3; spilling to the swap engine when full) or through
#   the swap engine; the output must verify.
# - warp_mover_predict, warp_mover_swap_bytes, warp_mover_determinism (tests/warp/wmover.py):
#   a warp's move bytes and cycles through the mover predicted by hand (within 2 %, the
#   pipeline's contention counted), SWAP-class bytes equal to the swapped warps' bytes, the same
#   seed giving the same cycles (the on-chip mover; warp_mover_determinism_swap, full tier: the
#   swap engine).
# - warp_mover_vstress_move, warp_mover_vstress_swap: warp stress through the mover or the swap
#   engine together with the mover's / swap engine's own stress mode (which skips CTAs with a
#   warp off its slot: it segfaulted on such a CTA before): pieces of both kinds go away and
#   back, every warp returns, and the output verifies.
if(TARGET heddle)
  foreach(wl IN LISTS HD_CI_WORKLOADS)
    foreach(mover onchip swap)
      add_test(NAME warp_mover_${mover}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
                       --set sm.warp_stress_period=500 --set sm.warp_mover=${mover}
                       --set context.mover_l1d_ways=3
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      # sgemm's run is warp_mover_predict's (onchip) and warp_mover_swap_bytes's (swap), the
      # same command with --stats, checked the same way by wmover.py: full tier. The swap
      # engine's spmv and nw (its two slowest, 9 and 8 test-seconds in session 23's CI run) are
      # full tier too; CI has them through the on-chip mover (session 24).
      set(tier ci)
      if(wl STREQUAL "sgemm" OR (mover STREQUAL "swap" AND wl MATCHES "^(spmv|nw)$"))
        set(tier full)
      endif()
      set_tests_properties(warp_mover_${mover}_${wl} PROPERTIES LABELS "${tier};warp" TIMEOUT 300
                           PASS_REGULAR_EXPRESSION "VERIFIED"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
    endforeach()
  endforeach()
  # warp_mover_determinism is the on-chip mover's in CI (session 24); the swap engine's runs (80 %
  # of its CPU) are warp_mover_determinism_swap's, full tier (vstress_determinism keeps the swap
  # engine's own determinism in CI)
  foreach(m predict swap determinism)
    set(extra "")
    if(m STREQUAL "swap")
      set(name warp_mover_swap_bytes)
    else()
      set(name warp_mover_${m})
      if(m STREQUAL "determinism")
        set(extra onchip)
      endif()
    endif()
    add_test(NAME ${name}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/warp/wmover.py
                     $<TARGET_FILE:heddle> ${m} ${extra}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(${name} PROPERTIES LABELS "ci;warp" TIMEOUT 600)
  endforeach()
  add_test(NAME warp_mover_determinism_swap
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/warp/wmover.py
                   $<TARGET_FILE:heddle> determinism swap
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(warp_mover_determinism_swap PROPERTIES LABELS "full;warp" TIMEOUT 600)
  add_test(NAME warp_mover_vstress_move
           COMMAND ${hd_wc} sgemm vstress_moves 1 --set sm.warp_stress_period=500
                   --set sm.warp_mover=onchip --set context.mover_l1d_ways=3
                   --set context.move_stress_period=1000 --set context.vstress_fraction=0.3
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME warp_mover_vstress_swap
           COMMAND ${hd_wc} reduction vstress_swaps 1 --set sm.warp_stress_period=500
                   --set sm.warp_mover=swap --set context.swap_stress_period=1000
                   --set context.vstress_fraction=0.3
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(warp_mover_vstress_move warp_mover_vstress_swap
                       PROPERTIES LABELS "ci;warp" TIMEOUT 300)
  add_test(NAME warp_mover_config
           COMMAND $<TARGET_FILE:heddle> run vecadd --set sm.warp_mover=onchip)
  set_tests_properties(warp_mover_config PROPERTIES LABELS "ci;warp" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "warp_mover.*mover_l1d_ways >= 1")
endif()

# tests/unit/test_warp_residency.c (a CTest of its own, ci;unit): the API driven step by step.
if(TEST test_warp_residency)
  set_property(TEST test_warp_residency APPEND PROPERTY LABELS warp)
endif()
