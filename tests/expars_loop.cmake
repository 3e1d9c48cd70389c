# SPDX-License-Identifier: MIT
# EXPARS's blocks in the timing loop (issue 33 item 5; model/mech/expars/expars_loop.h;
# docs/blocks/expars.md "In the loop"; tests/expars/expars_loop.py). The blocks' own checks
# (rtl_config/lint/ports/synth_expars_*, tb_expars_*, mutation_expars_*) come from
# tests/cosim.cmake and testbenches/ like every block's.
# - expars_loop_ci: vecadd at small size on an SM of 16,384 registers under `heddle cosim
#   --blocks expars --in-loop --drive rtl`: verified, 0 mismatches, the plain run's cycles; then
#   [expars] blocks_fault stops the RTL run with a located error (CI)
# - expars_loop_fault: blocks_fault on both blocks' comparisons (C references), located errors;
#   the blocks on change no cycle (full)
# - expars_loop_runs: the base workloads and the Table 3 stand-ins at small size: plain, in the
#   loop against the RTL and with --drive rtl, the same cycles, 0 mismatches (full)
# - expars_loop_grid: the experiment's EXPARS runs (experiments/expars.toml: 13 stand-ins x lrr,
#   gto, ltlws_lrr, ltlws_gto, two_level) with the blocks' C references in the loop: cycles
#   unchanged (full)
# - expars_loop_experiment_<S>: the experiment's own EXPARS runs (the wN inputs, its flags)
#   under scheduler S with --drive rtl: plain cycles, 0 mismatches, the committed cycles (full)
# - expars_loop_fst: --fst over cycles 500-700 of vecadd's loop: the 15 SMs' RAT and tag arrays
#   in the waveform (full)
# - expars_loop_ltlws: expars_loop_runs's workloads under ltlws_lrr and ltlws_gto, whose LTLWS
#   counters (expars_ltlws) join the loop: the same cycles, 0 mismatches (full); expars_loop_ci
#   also runs vecadd under ltlws_gto with --drive rtl and a fault on the counters
set(HD_TEST_MECHANISM expars)
if(TARGET heddle)
  set(hd_el python3 ${CMAKE_CURRENT_SOURCE_DIR}/expars/expars_loop.py $<TARGET_FILE:heddle>)
  set(hd_el_standins lbm_r36 stencil3d_r28 mriq_r28 sgemm_c2_r44 hotspot_r36 leukocyte_tb192_r24
      montecarlo convsep_tb192_r24 estimatepi_r24 mergesort_tb512_r24 quasirandom_r32
      asianoption_r24 asianoption)
  add_test(NAME expars_loop_fault COMMAND ${hd_el} fault WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_loop_fault PROPERTIES LABELS "expars" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "expars fault ok")
  add_test(NAME expars_loop_grid COMMAND ${hd_el} grid small ${hd_el_standins}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_loop_grid PROPERTIES LABELS "expars" TIMEOUT 3600
                       PASS_REGULAR_EXPRESSION "expars loop ok")
  if(TARGET hd_cosim_vl)
    add_test(NAME expars_loop_ci COMMAND ${hd_el} ci WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(expars_loop_ci PROPERTIES LABELS "expars;cosim" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "expars loop ok")
    add_test(NAME expars_loop_runs
             COMMAND ${hd_el} loop small vecadd reduction stencil2d ${hd_el_standins}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(expars_loop_runs PROPERTIES LABELS "expars;cosim" TIMEOUT 3600
                         PASS_REGULAR_EXPRESSION "expars loop ok")
    add_test(NAME expars_loop_fst
             COMMAND sh -c "$<TARGET_FILE:heddle> cosim --blocks expars --in-loop vecadd --size small --set sm.registers=16384 --fst ${CMAKE_CURRENT_BINARY_DIR}/expars_loop.fst --window 500:700 && test $(grep -o '[a-z0-9_]*expars_oc_tags[.]rtl[.]hit_o' ${CMAKE_CURRENT_BINARY_DIR}/expars_loop.gtkw | sort -u | wc -l) -eq 15 && test $(grep -o '[a-z0-9_]*expars_rat[.]rtl[.]q_spm_o' ${CMAKE_CURRENT_BINARY_DIR}/expars_loop.gtkw | sort -u | wc -l) -eq 15"
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(expars_loop_fst PROPERTIES LABELS "expars;cosim" TIMEOUT 300)
    # the LTLWS counters (expars_ltlws, one per warp scheduler) under both LTLWS schedulers
    add_test(NAME expars_loop_ltlws
             COMMAND ${hd_el} loop small sched=ltlws_lrr sched=ltlws_gto vecadd reduction
                     stencil2d ${hd_el_standins}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(expars_loop_ltlws PROPERTIES LABELS "expars;cosim" TIMEOUT 7200
                         PASS_REGULAR_EXPRESSION "expars loop ok")
    # expars_loop_experiment_<S>: the experiment's EXPARS runs under scheduler S as
    # experiments/expars.toml makes them (the wN stand-ins at small size, configs/fermi-gtx480.ini,
    # 32,768 registers, 6 active warps) with --drive rtl: the plain run's cycles, 0 mismatches,
    # and the committed experiment's cycles (experiments/results/expars/points.csv). About 45
    # CPU-minutes per scheduler (the RTL costs about 11 times the plain run) (full)
    set(hd_el_wn lbm_r36_w4 stencil3d_r28_w5 mriq_r28_w5 sgemm_c2_r44_w5 hotspot_r36_w4
        leukocyte_tb192_r24_w4 montecarlo_w4 convsep_tb192_r24_w4 estimatepi_r24_w4
        mergesort_tb512_r24_w5 quasirandom_r32_w5 asianoption_r24_w4 asianoption_w5)
    foreach(s lrr gto two_level ltlws_lrr ltlws_gto)
      add_test(NAME expars_loop_experiment_${s}
               COMMAND ${hd_el} experiment small sched=${s} ${hd_el_wn}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(expars_loop_experiment_${s} PROPERTIES LABELS "expars;cosim"
                           TIMEOUT 14400 PASS_REGULAR_EXPRESSION "expars loop ok")
    endforeach()
    # [expars] pref_spad with --drive rtl: the prefetcher's own scratchpad passes go through
    # the bank arbitrator block (spad_arb) and the prefetcher block; 0 mismatches (full)
    add_test(NAME expars_loop_pref_spad
             COMMAND $<TARGET_FILE:heddle> cosim --blocks expars --in-loop reduction --size small --set sm.allocator=expars --set sm.registers=16384 --set expars.pref_spad=true --drive rtl
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(expars_loop_pref_spad PROPERTIES LABELS "expars;cosim" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "verified .*[1-9][0-9]* block steps .* 0 mismatches")
  endif()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): one RTL run with its fault in CI (about 1 s of
# CPU), the rest in the full tier.
hd_tier(ci "^expars_loop_ci$")
hd_tier(full "^expars_loop_pref_spad$")
