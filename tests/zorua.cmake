# SPDX-License-Identifier: MIT
# Zorua (issue 32; model/mech/zorua, docs/zorua.md): the allocators zorua and wlm in the whole GPU
# on the Zorua specification grid (workloads/zorua-grid.toml) with the Table 2 configurations.
#
# - zorua_points_<gen>_<scheme> (<gen> fermi, kepler, maxwell; <scheme> baseline, wlm, zorua): the
#   grid's sample (first, middle and last point of each of the eight applications) at small size
#   verifies, does its base's work and counts the specified registers
#   (scripts/zorua-grid-run.py --sample --config configs/zorua-<gen>.ini); a point no CTA of
#   fits runs on the Kepler file. CI: Fermi, WLM and Zorua on reduction and nqueens, Baseline on
#   nqueens; full: all.
# - zorua_oversubscribe: scalarprod at 8 KB and 512 threads on Fermi: Zorua places register sets
#   in swap (zorua_reg_sets_swapped > 0), reads them back with SWAP-class loads
#   (zorua_rf_swap_reads > 0, oloc_fills_mem > 0), moves hot sets on chip (zorua_lfu_swaps > 0),
#   runs the o_thresh controller (zorua_epochs > 0), raises phase events from the phase pass
#   (zorua_phase_events > 0) and verifies.
# - zorua_smem_oversubscribe (session 16): scalarprod at 8 KB x 128 threads on Fermi (8 of the 48
#   scratchpad sets per CTA: 6 CTAs fit physically, the scratchpad is the limit): a seventh CTA
#   is admitted on an SM (zorua_smem_sets_swapped > 0 can only come from sets beyond the 48 of
#   six others), its swapped sets are looked up (zorua_smem_swap_lookups > 0) and read and
#   written through the memory system (smem_swap_instrs > 0, smem_swap_requests > 0:
#   SWAP-class), hot sets move on chip (zorua_smem_lfu_swaps > 0), and it verifies.
# - zorua_smem_untouched (full): nqueens at 26,240 B x 160 threads, --size waves (26 sets per CTA:
#   one fits, two need 52 = 48 + o_thresh's 4 at 10 %): second CTAs are admitted with their top
#   sets in swap (zorua_smem_sets_swapped > 0), which the waves input's 4-row stacks never touch
#   (zorua_smem_swap_lookups = 0: no swap traffic at all).
# - zorua_wlm_partial: WLM on the same point: partial CTAs admitted (warp_placed_absent > 0),
#   nothing swapped, no mapping-table lookup (zorua_rf_reads = 0), no phase-specifier fetch
#   cycles (fetch_extra_cycles = 0: WLM has no phases; session 17, they were paid before).
# - zorua_determinism: reduction at 24 x 1024 (register cliff, oversubscribed) gives the same
#   cycles, Zorua counters and DRAM reads with and without idle-cycle skipping.
# - zorua_smem_determinism (session 16): the same with scalarprod 8 KB x 128 (scratchpad sets in
#   swap, SWAP-class shared accesses).
# - zorua_needs_logical: allocator = zorua without logical capacities is refused (exit 2).
# - zorua_barrier_slots (full): scan 36 x 512 at --size waves on Fermi under Zorua, which hit the
#   livelock watchdog while warps waiting at barriers kept every thread slot (docs/zorua.md "The
#   Fermi barrier livelock"): it verifies and barriers complete with absent warps
#   (warp_absent_bar_releases > 0).
# - zorua_phases_<w>: `heddle ptx-info` lists the phases the pass (model/compiler/zphase.c) finds:
#   nqueens 3 (kernel start, the scratchpad search, the exit; 2 specifiers), dct8x8's kernels 10
#   each (7 specifiers, 2 barriers, each in its specifier's group), scan 34 (13 specifiers; a
#   barrier's phase in the group of the specifier before it, session 17).
# - zorua_barrier_phases (session 17): scan 32 x 1024 at small size: a warp raises a phase event
#   per group, not per barrier (zorua_phase_events < 8000; 11,544 before).
# - zorua_request_virtual, zorua_request_logical (ci, session 19, docs/zorua.md "Session 19: the
#   decisions"): scan 32 x 1024 at small size on 2 SMs (5 blocks of 32 warps each): with
#   [zorua] request_virtual (the default) a second 32-warp block is not asked for on 48 slots
#   (32 + 32 > 48 + o_thresh), so nothing is forced past the virtual space and no register word
#   is read from swap; with it false (free logical warps) both happen.
# - zorua_watchdog_report (ci, session 25): a stuck run's report shows the coordinator's queues,
#   free and swapped units and o_thresh per SM.
# - test_zorua_tables, test_zorua_coord (tests/unit): the tables by hand and Figure 11.
set(HD_TEST_MECHANISM zorua)
hd_tier(ci "^zorua_points_fermi_(baseline|wlm|zorua)_ci$" "^zorua_oversubscribe$" "^zorua_phases_"
        "^zorua_barrier_phases$"
        "^zorua_smem_oversubscribe$" "^zorua_smem_determinism$"
        "^zorua_determinism$"
        "^zorua_wlm_partial$" "^zorua_needs_logical$" "^zorua_request_" "^zorua_watchdog_report$")
hd_tier(full "^zorua_")
if(TARGET heddle)
  set(zgrid ${CMAKE_SOURCE_DIR}/scripts/zorua-grid-run.py)
  foreach(gen fermi kepler maxwell)
    if(gen STREQUAL "fermi")
      set(lw 64)
    else()
      set(lw 96)
    endif()
    foreach(scheme baseline wlm zorua)
      if(scheme STREQUAL "baseline")
        set(sets "")
      else()
        set(sets --set sm.allocator=${scheme} --set sm.logical_warps=${lw}
                 --set sm.logical_ctas=16)
      endif()
      add_test(NAME zorua_points_${gen}_${scheme}
               COMMAND ${Python3_EXECUTABLE} ${zgrid} $<TARGET_FILE:heddle> --sample
                       --config configs/zorua-${gen}.ini --wide configs/zorua-kepler.ini ${sets}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(zorua_points_${gen}_${scheme} PROPERTIES TIMEOUT 900
                           PASS_REGULAR_EXPRESSION "24 of 24 points pass")
      if(gen STREQUAL "fermi")
        if(scheme STREQUAL "baseline") # (the baseline allocator is tested elsewhere)
          set(apps --app nqueens)
          set(npts 3)
        else()
          set(apps --app reduction --app nqueens)
          set(npts 6)
        endif()
        add_test(NAME zorua_points_${gen}_${scheme}_ci
                 COMMAND ${Python3_EXECUTABLE} ${zgrid} $<TARGET_FILE:heddle> --sample ${apps}
                         --config configs/zorua-${gen}.ini ${sets}
                 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
        set_tests_properties(zorua_points_${gen}_${scheme}_ci PROPERTIES TIMEOUT 300
                             PASS_REGULAR_EXPRESSION "${npts} of ${npts} points pass")
      endif()
    endforeach()
  endforeach()
  set(zl --config configs/zorua-fermi.ini --set sm.logical_warps=64 --set sm.logical_ctas=16)
  add_test(NAME zorua_oversubscribe
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/zorua/zorua_check.py
                   $<TARGET_FILE:heddle> ${CMAKE_CURRENT_BINARY_DIR}/zorua_over.json --
                   scalarprod_z_sp8192_tb512 --size small ${zl} --set sm.allocator=zorua --
                   zorua_reg_sets_swapped>0 zorua_rf_swap_reads>0 oloc_fills_mem>0
                   zorua_lfu_swaps>0 zorua_epochs>0 zorua_admitted>0 zorua_phase_events>0
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_oversubscribe PROPERTIES PASS_REGULAR_EXPRESSION
                       "all conditions hold")
  foreach(rv virtual logical)
    if(rv STREQUAL "virtual")
      set(rvset true)
      set(rvcond zorua_forced=0 zorua_rf_swap_reads=0)
    else()
      set(rvset false)
      set(rvcond zorua_forced>0 zorua_rf_swap_reads>0)
    endif()
    add_test(NAME zorua_request_${rv}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/zorua/zorua_check.py
                     $<TARGET_FILE:heddle> ${CMAKE_CURRENT_BINARY_DIR}/zorua_req_${rv}.json --
                     scan_z_r32_tb1024 --size small ${zl} --set sm.allocator=zorua
                     --set gpu.num_sms=2 --set zorua.request_virtual=${rvset} --
                     ${rvcond} zorua_admitted>0
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_request_${rv} PROPERTIES PASS_REGULAR_EXPRESSION
                         "all conditions hold" TIMEOUT 120)
  endforeach()
  add_test(NAME zorua_smem_oversubscribe
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/zorua/zorua_check.py
                   $<TARGET_FILE:heddle> ${CMAKE_CURRENT_BINARY_DIR}/zorua_smem.json --
                   scalarprod_z_sp8192_tb128 --size small ${zl} --set sm.allocator=zorua --
                   zorua_smem_sets_swapped>0 zorua_smem_swap_lookups>0 smem_swap_instrs>0
                   smem_swap_requests>0 zorua_smem_lfu_swaps>0 zorua_smem_lookups>0
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_smem_oversubscribe PROPERTIES PASS_REGULAR_EXPRESSION
                       "all conditions hold" TIMEOUT 300)
  add_test(NAME zorua_smem_untouched
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/zorua/zorua_check.py
                   $<TARGET_FILE:heddle> ${CMAKE_CURRENT_BINARY_DIR}/zorua_smem_nq.json --
                   nqueens_z_sp26240_tb160 --size waves ${zl} --set sm.allocator=zorua --
                   zorua_smem_sets_swapped>0 zorua_smem_swap_lookups=0 zorua_smem_lookups>0
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_smem_untouched PROPERTIES PASS_REGULAR_EXPRESSION
                       "all conditions hold" TIMEOUT 300)
  add_test(NAME zorua_wlm_partial
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/zorua/zorua_check.py
                   $<TARGET_FILE:heddle> ${CMAKE_CURRENT_BINARY_DIR}/zorua_wlm.json --
                   scalarprod_z_sp8192_tb512 --size small ${zl} --set sm.allocator=wlm --
                   warp_placed_absent>0 zorua_reg_sets_swapped=0 zorua_rf_reads=0
                   zorua_admitted>0 fetch_extra_cycles=0
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_wlm_partial PROPERTIES PASS_REGULAR_EXPRESSION "all conditions hold")
  add_test(NAME zorua_phases_nqueens COMMAND $<TARGET_FILE:heddle> ptx-info nqueens
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_phases_nqueens PROPERTIES PASS_REGULAR_EXPRESSION
    "Zorua phases [^\n]*: 3, 2 phase specifiers\n    phase 0: PC 0-9 [^\n]*kernel start[^\n]*scratchpad none\n    phase 1: PC 10-81 [^\n]*scratchpad live")
  add_test(NAME zorua_phases_dct8x8 COMMAND $<TARGET_FILE:heddle> ptx-info dct8x8
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_phases_dct8x8 PROPERTIES PASS_REGULAR_EXPRESSION
    "Zorua phases [^\n]*: 10, 7 phase specifiers\n    phase 0[^\n]*\n    phase 1[^\n]*\n    phase 2[^\n]*\n    phase 3: [^\n]*, barrier \\(group of phase 2\\). live")
  # session 17: a barrier begins a phase without a specifier (L314): it is in the group of the
  # specifier before it, and rule (i) is measured from that specifier's phase
  add_test(NAME zorua_phases_scan COMMAND $<TARGET_FILE:heddle> ptx-info scan_z_r32_tb1024
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_phases_scan PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
    "Zorua phases [^\n]*: 34, 13 phase specifiers\n[^\n]*\n[^\n]*\n[^\n]*\n[^\n]*\n    phase 4: PC 38-47 [^\n]*, barrier \\(group of phase 3\\)[^\n]*\n    phase 5: PC 48-53 [^\n]*, phase specifier[^\n]*")
  # ... and no phase event: scan's 352 warps of scan_block at small size raise one per group
  # (about 16 each: 5,560 with scan_add's), not one per barrier (11,544 before session 17)
  add_test(NAME zorua_barrier_phases
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/zorua/zorua_check.py
                   $<TARGET_FILE:heddle> ${CMAKE_CURRENT_BINARY_DIR}/zorua_barph.json --
                   scan_z_r32_tb1024 --size small ${zl} --set sm.allocator=zorua --
                   zorua_phase_events>0 zorua_phase_events<8000 fetch_extra_cycles>0
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_barrier_phases PROPERTIES PASS_REGULAR_EXPRESSION
                       "all conditions hold" TIMEOUT 300)
  # the same cycles, Zorua counters and memory statistics with and without idle-cycle skipping
  # (the o_thresh epochs are allocator timers the skipping respects)
  add_test(NAME zorua_determinism
           COMMAND sh -c "for s in true false; do $<TARGET_FILE:heddle> run reduction_z_r24_tb1024 --size small --config configs/zorua-fermi.ini --set sm.allocator=zorua --set sm.logical_warps=64 --set sm.logical_ctas=16 --set timing.skip_idle=$s --stats ${CMAKE_CURRENT_BINARY_DIR}/zdet_$s.json >/dev/null || exit 1; grep -o '\"\\(cycles\\|zorua_[a-z_]*\\|dram_reads\\)\": [0-9]*' ${CMAKE_CURRENT_BINARY_DIR}/zdet_$s.json > ${CMAKE_CURRENT_BINARY_DIR}/zdet_$s.txt; done; cmp ${CMAKE_CURRENT_BINARY_DIR}/zdet_true.txt ${CMAKE_CURRENT_BINARY_DIR}/zdet_false.txt && grep -c zorua_phase_events ${CMAKE_CURRENT_BINARY_DIR}/zdet_true.txt && echo zorua deterministic"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_determinism PROPERTIES PASS_REGULAR_EXPRESSION "zorua deterministic")
  # session 16: the same with scratchpad sets in swap (SWAP-class shared accesses sent after the
  # SMT lookup: the SM is ticked while they wait)
  add_test(NAME zorua_smem_determinism
           COMMAND sh -c "for s in true false; do $<TARGET_FILE:heddle> run scalarprod_z_sp8192_tb128 --size small --config configs/zorua-fermi.ini --set sm.allocator=zorua --set sm.logical_warps=64 --set sm.logical_ctas=16 --set timing.skip_idle=$s --stats ${CMAKE_CURRENT_BINARY_DIR}/zsdet_$s.json >/dev/null || exit 1; grep -o '\"\\(cycles\\|zorua_[a-z_]*\\|smem_swap_[a-z_]*\\|dram_reads\\)\": [0-9]*' ${CMAKE_CURRENT_BINARY_DIR}/zsdet_$s.json > ${CMAKE_CURRENT_BINARY_DIR}/zsdet_$s.txt; done; cmp ${CMAKE_CURRENT_BINARY_DIR}/zsdet_true.txt ${CMAKE_CURRENT_BINARY_DIR}/zsdet_false.txt && grep -c smem_swap_bytes ${CMAKE_CURRENT_BINARY_DIR}/zsdet_true.txt && echo zorua smem deterministic"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_smem_determinism PROPERTIES PASS_REGULAR_EXPRESSION
                       "zorua smem deterministic" TIMEOUT 120)
  add_test(NAME zorua_needs_logical
           COMMAND $<TARGET_FILE:heddle> run vecadd --size small --set sm.allocator=zorua
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_needs_logical PROPERTIES WILL_FAIL FALSE
                       PASS_REGULAR_EXPRESSION "wlm and zorua admit partial CTAs")
  # session 15: the Fermi barrier livelock (docs/zorua.md): scan at --size waves, where more
  # warps than the 48 slots share an SM; it verifies only when waiting warps give their thread
  # slot to schedulable warps whose slot is in swap (barriers then complete with absent warps).
  # Session 19: with request_virtual false (blocks asked for while logical warps are free), where
  # the livelock was (407 absent barrier releases; 5 with the default)
  add_test(NAME zorua_barrier_slots
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/zorua/zorua_check.py
                   $<TARGET_FILE:heddle> ${CMAKE_CURRENT_BINARY_DIR}/zorua_barslots.json --
                   scan_z_r36_tb512 --size waves ${zl} --set sm.allocator=zorua
                   --set zorua.request_virtual=false --
                   warp_absent_bar_releases>0 zorua_admitted>0
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_barrier_slots PROPERTIES PASS_REGULAR_EXPRESSION
                       "all conditions hold" TIMEOUT 300)
  # session 25: a stuck run's watchdog report gives each shown SM's coordinator state (its
  # queues, free and swapped units per table, o_thresh; sm_alloc.h describe). A 40-cycle
  # watchdog stops the run at its first loads.
  add_test(NAME zorua_watchdog_report
           COMMAND $<TARGET_FILE:heddle> run reduction_z_r24_tb1024 --size small
                   --config configs/zorua-fermi.ini --set sm.allocator=zorua
                   --set sm.logical_warps=64 --set sm.logical_ctas=16 --set timing.watchdog_cycles=40
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_watchdog_report PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                       "no progress for 40 cycles.* SM 0: .*zorua: logical warps: [0-9]+ waiting for a warp slot, [0-9]+ for scratchpad, [0-9]+ for registers, [1-9][0-9]* schedulable; free on chip / in swap: slots [0-9]+ / [0-9]+, .*o_thresh [0-9]+ %.* memory system: ")
endif()
