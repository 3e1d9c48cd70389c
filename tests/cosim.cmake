# Co-simulation and RTL tests (issue 6): Verilator lint, the port check of every block's .sv
# against its ports.def, a smoke synthesis (Yosys, no latches), full-GPU co-simulation of small
# workloads with 0 mismatches, and the fault build (HD_FAULT_REGPAT_FLIP) caught with its FST.
# CI cost: the latch check stops Yosys after proc (HD_NOLATCH below: proc has made every latch a
# $dlatch by then; the full mapped synthesis is synth/'s flow, which took 3 min for
# regpat_decomp's 32 multipliers); every workload runs in lockstep (scripts/cosim-sweep.sh).
add_executable(hd_portlist ${CMAKE_CURRENT_SOURCE_DIR}/cosim/portlist.c)
target_link_libraries(hd_portlist PRIVATE hd_hw_ref)

set(HD_RTL ${CMAKE_SOURCE_DIR}/rtl)
find_program(HD_VERILATOR verilator)
find_program(HD_YOSYS yosys)
include(${CMAKE_SOURCE_DIR}/cosim/rtl_config.cmake)
# Tiers (tests/CMakeLists.txt, docs/testing.md): a block's checks in its built configuration and
# the lint of the others in CI, the other configurations' elaborations in the full tier.
# GPUDuet's two big tables elaborate in 10-25 s each (Yosys proc/opt on 128 x 27 and 32 x 45 flat
# vectors): their port check and no-latch synthesis run in the full tier (issue 28's CI budget);
# so do Zorua's coordinator and mapping table's no-latch synthesis (8 s each; their port checks
# stay in CI); HAWS's shadow stack and warp controller's and EXPARS's CTA calculator's (issues 30
# and 33: a new block keeps its lint, config and port checks and its default testbench in CI,
# docs/testing.md; the calculator's multipliers take 17-20 s of Yosys on a loaded machine; the
# bank arbitrator's likewise, session 12); CCBP's controller's (Algorithm 1's multipliers and its
# profile tables, issue 29).
hd_tier(full "^rtl_(ports|synth)_gpuduet_(wct|tbct)$" "^rtl_synth_gpuduet_csl$"
        "^rtl_(lint|synth)_pw(64|256)_gpuduet_csl$" "^rtl_synth_zorua_(coord|map)$"
        "^rtl_synth_haws_(shadow_stack|warp_ctl)$" "^rtl_synth_expars_(cta_calc|arb|ltlws)$"
        "^rtl_synth_ccbp_ctrl$" "^rtl_synth_expars_pref$")
hd_tier(ci "^rtl_(config|lint|ports|synth)_" "^cosim_(reduction|functional_drive_rtl|fst_window)$"
        "^cosim_(fault|sva|in_loop_sva)_caught$" "^cosim_in_loop_drive_rtl_sgemm$" "^cosim_ctx_codec$"
        "^regpat_context_(sgemm|reduction)$")
# The no-latch check of rtl_synth_*: after elaboration, proc turns every inferred latch into a
# $dlatch ($dlatchsr / $sr with set or reset; Yosys 0.23 makes a latch with a reset a $dlatch and
# logic too, later Yosys an $adlatch, matched as well), opt_expr and opt_clean drop what drives
# nothing, and
# any latch left fails. Until session 24 this ran `synth -run :fine`, i.e. also the coarse passes
# after proc (opt, fsm, wreduce, alumacc, share, memory -nomap), which remove latches but never
# add one: a block that passes here passes there (all 24 CI blocks do both; 21.4 -> 6.8
# CPU-seconds together). The complete synthesis of every block is synth_smoke (full tier).
set(HD_NOLATCH "proc; opt_expr; opt_clean; select -assert-none t:$_DLATCH* t:$dlatch* t:$adlatch* t:$_SR* t:$sr*")
foreach(b ${HD_BLOCKS}) # every block found by model/hw/hw_blocks.cmake
  hd_rtl_config(${b} params) # configs/rtl/<block>.ini (rule R4): -G list and Yosys chparam
  add_test(NAME rtl_config_${b}
           COMMAND ${CMAKE_COMMAND} -DINI=${CMAKE_SOURCE_DIR}/configs/rtl/${b}.ini
                   -DSV=${HD_RTL}/${b}/${b}.sv -DBLOCK=${b}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cosim/configcheck.cmake)
  if(HD_VERILATOR)
    add_test(NAME rtl_lint_${b}
             COMMAND ${HD_VERILATOR} --lint-only -Wall --assert -I${HD_RTL}/include ${params}
                     ${HD_RTL}/lint/${b}.vlt ${HD_RTL}/${b}/${b}.sv)
  endif()
  if(HD_YOSYS)
    add_test(NAME rtl_ports_${b}
             COMMAND ${CMAKE_COMMAND} -DYOSYS=${HD_YOSYS} -DPORTLIST=$<TARGET_FILE:hd_portlist>
                     -DBLOCK=${b} -DSV=${HD_RTL}/${b}/${b}.sv -DINC=${HD_RTL}/include
                     -DOUT=${CMAKE_CURRENT_BINARY_DIR}/${b}_ports.json "-DCHPARAM=${params_CHPARAM}"
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/cosim/portcheck.cmake)
    add_test(NAME rtl_synth_${b}
             COMMAND ${HD_YOSYS} -q -p "read_verilog -sv -I${HD_RTL}/include ${HD_RTL}/${b}/${b}.sv; ${params_CHPARAM}; hierarchy -check -top ${b}; ${HD_NOLATCH}")
    set_tests_properties(rtl_synth_${b} PROPERTIES TIMEOUT 300)
  endif()
  # Every other named configuration (issue 16 item 3: reset_all, kepler, ...): lint (-Wall,
  # assertions on) and the no-latch elaboration, whatever configuration this tree is built with;
  # the elaborations (up to 25-45 s each under load) are in the full tier (docs/testing.md).
  hd_rtl_config_names(${b} cfgs)
  foreach(cfg ${cfgs})
    if(cfg STREQUAL HD_RTL_CONFIG_${b})
      continue()
    endif()
    hd_rtl_config_named(${b} ${cfg} cp)
    if(HD_VERILATOR)
      add_test(NAME rtl_lint_${cfg}_${b}
               COMMAND ${HD_VERILATOR} --lint-only -Wall --assert -I${HD_RTL}/include ${cp}
                       ${HD_RTL}/lint/${b}.vlt ${HD_RTL}/${b}/${b}.sv)
    endif()
    if(HD_YOSYS AND cp_CHPARAM)
      add_test(NAME rtl_synth_${cfg}_${b}
               COMMAND ${HD_YOSYS} -q -p "read_verilog -sv -I${HD_RTL}/include ${HD_RTL}/${b}/${b}.sv; ${cp_CHPARAM}; hierarchy -check -top ${b}; ${HD_NOLATCH}")
      set_tests_properties(rtl_synth_${cfg}_${b} PROPERTIES LABELS "full;cosim" TIMEOUT 300)
    endif()
    hd_test_owner(${b} rtl_lint_${cfg}_${b} rtl_synth_${cfg}_${b})
  endforeach()
  hd_test_owner(${b} rtl_config_${b} rtl_lint_${b} rtl_ports_${b} rtl_synth_${b})
endforeach()

# Context sizes (Lin Fig 2.8): live <= full and compressed <= live (C references only).
foreach(w sgemm bfs montecarlo reduction)
  add_test(NAME regpat_context_${w}
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=${w}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cosim/ctxcheck.cmake)
  set_tests_properties(regpat_context_${w} PROPERTIES TIMEOUT 300)
endforeach()

if(TARGET hd_cosim_vl)
  # Every workload at small, all SMs against the RTL (30 s on the 2 cores when idle, ~4 min
  # under load 10); plus denser sampling (--every 500) of a warp-level and a TB-level-heavy one.
  add_test(NAME cosim_all_small COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/cosim-sweep.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(cosim_all_small PROPERTIES TIMEOUT 900 FAIL_REGULAR_EXPRESSION "MISMATCH")
  foreach(w reduction nw)
    add_test(NAME cosim_${w} COMMAND heddle cosim --blocks regpat ${w} --every 500)
    set_tests_properties(cosim_${w} PROPERTIES TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "0 mismatches" FAIL_REGULAR_EXPRESSION "MISMATCH")
  endforeach()
  add_test(NAME cosim_functional_drive_rtl
           COMMAND heddle cosim --blocks regpat sgemm --drive rtl --sms 0,1 --set timing.mode=functional)
  set_tests_properties(cosim_functional_drive_rtl PROPERTIES TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "verified.*0 mismatches")
  # a window that starts after cycle 0 and ends before the run does; 200 cycles of the 45
  # instances (1 MB of FST, 1.7 CPU-seconds; 1000:3000 wrote 7.9 MB in 6.2, session 24)
  add_test(NAME cosim_fst_window
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat reduction --fst ${CMAKE_CURRENT_BINARY_DIR}/win.fst --window 1000:1200 && test -s ${CMAKE_CURRENT_BINARY_DIR}/win.fst && grep -q regpat_comp.ref.pat_o ${CMAKE_CURRENT_BINARY_DIR}/win.gtkw")
  # Every instance is in the FST: a 30-SM GPU has 90 (the writer used to drop those past 64).
  add_test(NAME cosim_fst_30sm
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat vecadd --set gpu.num_sms=30 --sms 0 --fst ${CMAKE_CURRENT_BINARY_DIR}/sm30.fst --window 0:2000 && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/sm30.fst --instances 90")
  set_tests_properties(cosim_fst_30sm PROPERTIES TIMEOUT 300)
  if(TARGET hd_cosim_vl_fault) # HD_COSIM_FAULT
    # The fault build: the same tool with regpat_comp verilated with -DHD_FAULT_REGPAT_FLIP.
    get_target_property(HD_CLI_SRC heddle SOURCES)
    get_target_property(HD_CLI_DIR heddle SOURCE_DIR)
    get_target_property(HD_CLI_LIBS heddle LINK_LIBRARIES)
    list(REMOVE_ITEM HD_CLI_LIBS hd_cosim_all)
    list(TRANSFORM HD_CLI_SRC PREPEND ${HD_CLI_DIR}/ REGEX "^[^/]")
    add_executable(heddle_fault ${HD_CLI_SRC})
    target_include_directories(heddle_fault PRIVATE ${HD_CLI_DIR})
    target_link_libraries(heddle_fault PRIVATE ${HD_CLI_LIBS} hd_cosim hd_cosim_vl_fault)
    set_target_properties(heddle_fault PROPERTIES LINKER_LANGUAGE C)
    add_test(NAME cosim_fault_caught
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle_fault> -DFST=${CMAKE_CURRENT_BINARY_DIR}/fault.fst
                     -DFSTCHECK=$<TARGET_FILE:hd_fstcheck> -P ${CMAKE_CURRENT_SOURCE_DIR}/cosim/faultcheck.cmake)
    # A firing assertion (regpat_decomp's HD_FAULT_SVA, outputs unchanged) fails the run with the
    # assertion's name, the instance and the cycle (issue 16 item 4).
    add_test(NAME cosim_sva_caught
             COMMAND $<TARGET_FILE:heddle_fault> cosim --blocks regpat vecadd --rtl-plusarg +hd_fault_sva
                     --fail-fst ${CMAKE_CURRENT_BINARY_DIR}/sva.fst)
    set_tests_properties(cosim_sva_caught PROPERTIES TIMEOUT 300 WILL_FAIL OFF
                         PASS_REGULAR_EXPRESSION "cycle=[0-9]+ gcycle=[0-9]+ model=[0-9]+ inst=sm[0-9]+\\.regpat_decomp block=regpat_decomp SVA assertion HdRegpatDecompFaultSva \\([^)]*regpat_decomp.sv:[0-9]+\\) failed")
    add_test(NAME cosim_in_loop_sva_caught
             COMMAND $<TARGET_FILE:heddle_fault> cosim --blocks regpat vecadd --in-loop --stress 500
                     --rtl-plusarg +hd_fault_sva --fail-fst ${CMAKE_CURRENT_BINARY_DIR}/sva_loop.fst)
    set_tests_properties(cosim_in_loop_sva_caught PROPERTIES TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "cycle=[0-9]+ gcycle=[0-9]+ model=[0-9]+ inst=sm[0-9]+\\.regpat_decomp block=regpat_decomp SVA assertion HdRegpatDecompFaultSva \\([^)]*regpat_decomp.sv:[0-9]+\\) failed")
  endif()
  # The blocks in the timing loop: every workload with stress-mode evictions every 500 cycles and
  # compressed context saves (each saved register through its SM's regpat_comp, each restored one
  # through regpat_decomp, RTL in lockstep); the RTL driving gives the same cycles; a firing
  # assertion in the loop fails the run with its name, instance and cycle.
  add_test(NAME cosim_in_loop_small
           COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/cosim-sweep.sh ${CMAKE_BINARY_DIR} --in-loop --stress 500)
  set_tests_properties(cosim_in_loop_small PROPERTIES TIMEOUT 900 FAIL_REGULAR_EXPRESSION "MISMATCH")
  foreach(w sgemm reduction)
    add_test(NAME cosim_in_loop_drive_rtl_${w}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=${w} -DSTRESS=500
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/cosim/driveloop.cmake)
    set_tests_properties(cosim_in_loop_drive_rtl_${w} PROPERTIES TIMEOUT 300)
  endforeach()
  # The context codec with its blocks co-simulated (cosim/cosim_hw.h), reference and drive-rtl.
  add_executable(hd_codec_cosim ${CMAKE_CURRENT_SOURCE_DIR}/cosim/codec_cosim.c)
  target_link_libraries(hd_codec_cosim PRIVATE hd_timing hd_cosim hd_cosim_vl)
  set_target_properties(hd_codec_cosim PROPERTIES LINKER_LANGUAGE C)
  add_test(NAME cosim_ctx_codec COMMAND hd_codec_cosim 20000)
  set_tests_properties(cosim_ctx_codec PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "MISMATCH"
                       PASS_REGULAR_EXPRESSION "same cycles and packed results")
  add_executable(hd_fstcheck ${CMAKE_CURRENT_SOURCE_DIR}/cosim/fstcheck.c)
  target_link_libraries(hd_fstcheck PRIVATE hd_cosim)
endif()

# SystemC testbenches: seeded random + directed, and replay of vectors recorded from a model run.
foreach(b ${HD_BLOCKS})
  hd_block_meta(${b} replay replay) # cosim/block_meta.cmake
  if(TARGET tb_${b})
    add_test(NAME tb_${b} COMMAND tb_${b} --seed 1 --cycles 20000)
    set_tests_properties(tb_${b} PROPERTIES LABELS "ci;testbench" TIMEOUT 300)
    if(replay) # vectors recorded from a model run (configs/rtl/<b>.ini [block] replay)
      add_test(NAME tb_${b}_replay COMMAND tb_${b} --seed 7 --cycles 2000
               --replay ${CMAKE_SOURCE_DIR}/${replay})
      set_tests_properties(tb_${b}_replay PROPERTIES LABELS "ci;testbench" TIMEOUT 300)
    endif()
  endif()
  # The same in every other named configuration built (testbenches/CMakeLists.txt: tb_<b>_<cfg>)
  hd_rtl_config_names(${b} cfgs)
  hd_block_meta(${b} ci_configs ci_cfgs)
  string(REPLACE "," ";" ci_cfgs "${ci_cfgs}")
  string(REPLACE " " "" ci_cfgs "${ci_cfgs}")
  foreach(cfg ${cfgs})
    set(tier full)
    if(cfg IN_LIST ci_cfgs)
      set(tier ci)
    endif()
    if(TARGET tb_${b}_${cfg})
      add_test(NAME tb_${b}_${cfg} COMMAND tb_${b}_${cfg} --seed 1 --cycles 20000)
      set_tests_properties(tb_${b}_${cfg} PROPERTIES LABELS "${tier};testbench" TIMEOUT 300)
      if(replay)
        add_test(NAME tb_${b}_${cfg}_replay COMMAND tb_${b}_${cfg} --seed 7 --cycles 2000
                 --replay ${CMAKE_SOURCE_DIR}/${replay})
        set_tests_properties(tb_${b}_${cfg}_replay PROPERTIES LABELS "${tier};testbench" TIMEOUT 300)
      endif()
    endif()
    hd_test_owner(${b} tb_${b}_${cfg} tb_${b}_${cfg}_replay)
  endforeach()
  hd_test_owner(${b} tb_${b} tb_${b}_replay)
endforeach()
