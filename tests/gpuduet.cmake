# SPDX-License-Identifier: MIT
# GPUDuet, GPUDuet_TB and Virtual Thread (issue 28; Lin thesis ch.3; model/mech/gpuduet,
# docs/gpuduet.md; included by tests/CMakeLists.txt).
#
# - test_gpuduet (tests/unit): Table 3.3's classes at the thresholds, the ME controller's
#   trajectory on hand-built counter traces (docs/gpuduet.md's worked examples), the plans of
#   eight kernel shapes on Table 3.1's SM (session 27: registers leave when the RF has no room
#   for the extra TBs), the queues, and the allocator deciding from the
#   allocation bitmap block: a TB placed in exactly the cycles the block takes for its
#   allocations, at the bases it answered; a switch-in waiting for its registers; the WCT / TBCT
#   blocks as the model's tables (gpuduet_tab.h): the view with writes in flight, one write per
#   entry per edge in the order made, the view from the blocks' reads, the fault's mismatch.
# - gpuduet_accept: issue 28's acceptance run (tests/gpuduet/accept.sh): hotspot at ME 4 on
#   maxwell-gpuduet with 32 warp slots (max_threads 1024, so that TBs wait for room at small
#   size): warps switched out at the first use of a missed load, loads landing while their warp
#   is absent, swaps with ready warps, warps switched out at barriers and barriers completing
#   with warps absent (§2.9 option 2), every warp back, the static compressed register size
#   never below the regpat compressor's on the switched-out warps, the output verified.
# - gpuduet_verify_ci / gpuduet_verify_me<N> / gpuduet_verify_slots32_me<N>: workloads verify
#   with gpuduet, vt and gpuduet_tb (CI: six workloads, mm2_poly among them, at ME 2 with 32
#   warp slots, so that TBs wait for room and warps are switched at small size; full tier: every
#   workload at ME 1 and 4, on Table 3.1's SM and with 32 warp slots).
# - gpuduet_dynamic: the throughput monitor and ME controller classify bfs underutilised and raise
#   ME (windows of 2,000 cycles; full tier).
# - gpuduet_tb_dynamic: GPUDuet_TB with the dynamic ME on sgemm at medium (register-limited, TB
#   level) verifies and raises ME (session 20's livelock; session 21) (ci).
# - gpuduet_tb_phase: the same at large size with 10,000-cycle windows verifies; before session
#   24 the two TB queues' rotations phase-locked there and it livelocked (full).
# - gpuduet_tb_whole: GPUDuet_TB's TBs are present or absent as a whole: the same run's log
#   counts no warp issuing while a warp of its TB is absent (tb_part = 0; session 26) (ci).
# - gpuduet_l1d_rule: §2.10's L1D context store turned on (a constructed SM: a quarter of the
#   register file, 16 KB of shared memory, loads bypassing the L1D) and the ME bound raised (ci).
# - gpuduet_config: logical capacities refused with an allocator that cannot place partial CTAs.
# - gpuduet_limit_rise: the extra TBs an ME update allows are placed at once, not at the next TB's
#   end (tests/gpuduet/limit_rise.sh; session 19) (ci).
# - gpuduet_extra_tbs: every extra TB the controller allows is resident in the first wave at TB
#   level, and a TB swap exchanges context spaces (tests/gpuduet/extra_tbs.sh; session 20) (ci).
# - gpuduet_regsize: each launch's plan (R, live and reduced register units per warp, switch-out
#   points) is in the run's statistics as the log gives it, 0 in a baseline run (session 27) (ci).
# - gpuduet_bt28_footprint: btree_r28 (Lin ch.3's BT footprint, session 28) is counted at its
#   pinned 28 registers, verifies with GPUDuet, plans MC 8 by the warp slots with ME bound 8, and
#   VT's bound is the thesis's 1 (tests/gpuduet/bt28.sh) (ci).
# - gpuduet_nothing_to_switch: hotspot_r31 on 2 SMs, VT with its ME bound 0 (no switch) and
#   GPUDuet at ME 0 issue per scheduler index what the baseline issues, and the partitioned
#   allocator with 128 logical warps runs the baseline's cycles (tests/gpuduet/nothing.sh;
#   session 28) (ci).
# - gpuduet_window: `heddle run --window W`, Lin's first-W-cycles measurement: exit 0 with the
#   statistics, labelled a window and not verified, exactly W cycles, and the uncapped run's
#   instructions at its sample of cycle W (tests/gpuduet/window.sh; session 21) (ci).
# - gpuduet_paper_verify_<W>_<base|gpuduet>: Table 3.2's inputs (`--size paper`, the inputs of
#   experiments/gpuduet-paper.toml, which only measures their first cycles) verify in complete
#   runs on maxwell-gpuduet, the baseline and GPUDuet with Lin's controller (session 21) (full);
#   gpuduet_paper_functional_<W>: all nine, bfs and mm2_poly included, functionally (full).
# - gpuduet_report_ref: experiments/gpuduet.py normalises a point whose L1D was bypassed to the
#   baseline with the L1D bypassed (Lin's DWT_2 method), or gives it no speedup (session 24) (ci).
# - gpuduet_watchdog_report: a stuck run's report names GPUDuet's queues and counters per SM and
#   is not cut short (session 25) (ci).
set(HD_TEST_MECHANISM gpuduet)
get_property(hd_gd_workloads GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  add_test(NAME gpuduet_accept
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/accept.sh $<TARGET_FILE:heddle> hotspot 4
                   --set sm.max_threads=1024
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_accept PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION "accept.sh: OK")
  add_test(NAME gpuduet_verify_ci
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/verify.sh $<TARGET_FILE:heddle> 2
                   gpuduet,vt,gpuduet_tb --set sm.max_threads=1024 --
                   vecadd sgemm reduction hotspot backprop mm2_poly
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_verify_ci PROPERTIES TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "verify.sh: all verified")
  foreach(me 1 4)
    add_test(NAME gpuduet_verify_me${me}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/verify.sh $<TARGET_FILE:heddle> ${me}
                     gpuduet,vt,gpuduet_tb ${hd_gd_workloads}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    # the same with 32 warp slots: TBs wait for room at small size, so warps are switched
    add_test(NAME gpuduet_verify_slots32_me${me}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/verify.sh $<TARGET_FILE:heddle> ${me}
                     gpuduet,vt,gpuduet_tb --set sm.max_threads=1024 -- ${hd_gd_workloads}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_verify_me${me} gpuduet_verify_slots32_me${me} PROPERTIES
                         TIMEOUT 3600 PASS_REGULAR_EXPRESSION "verify.sh: all verified")
  endforeach()
  set(hd_gdl sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/logcheck.sh $<TARGET_FILE:heddle>)
  # the controller classifies bfs (underutilised) and raises ME to its bound (some launch: since
  # session 17 a launch whose TBs have all left takes no window, and bfs's first launch ends
  # before the first one closes)
  add_test(NAME gpuduet_dynamic
           COMMAND ${hd_gdl} bfs "^me [0-9]+ [0-9]+ under [1-9]" --set sm.allocator=gpuduet
                   --set sm.logical_warps=128 --set gpuduet.warmup=2000 --set gpuduet.window=2000
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  # §2.10: sgemm with a quarter of the register file and 16 KB of shared memory (registers
  # limit: MC 1; the RF and shared memory hold 4 extra TBs) and loads already bypassing the L1D
  # (its utilisation < 3 %): at the controller's first window (underutilised, ME 4, the bound
  # without the L1D) the L1D becomes a context store of 256 units and the bound and ME rise to
  # 7 (shared memory's own room for the TBs' 2 KB; session 24: with 8 KB the L1D adds no TB, and
  # the rule no longer hands it over)
  add_test(NAME gpuduet_l1d_rule
           COMMAND ${hd_gdl} sgemm "^l1d 0 bypass units=256 me_ub=7" --set sm.allocator=gpuduet
                   --set sm.logical_warps=128 --set sm.registers=16384
                   --set sm.shared_mem_bytes=16K --set l1d.bypass_global=true
                   --set gpuduet.warmup=2000 --set gpuduet.window=2000
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  # session 21: GPUDuet_TB with the dynamic ME on a register-limited kernel (sgemm at medium: TB
  # level, ME bound 10) verifies and its controller raises ME above 0 (session 20's rule that
  # warps placed absent wait for the CSL, applied to gpuduet_tb, hit the livelock watchdog at
  # cycle 323,584 here: the CSL never takes sgemm's placed-absent warps back; about 4 s)
  add_test(NAME gpuduet_tb_dynamic
           COMMAND ${hd_gdl} sgemm "^me [0-9]+ [0-9]+ [a-z]+ [1-9]" --size medium
                   --set sm.allocator=gpuduet_tb --set sm.logical_warps=128
                   --set gpuduet.dynamic=true --set gpuduet.warmup=2000 --set gpuduet.window=2000
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_tb_dynamic PROPERTIES TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "logcheck.sh: OK")
  # session 26: GPUDuet_TB keeps its TBs present or absent as a whole: the same run switches
  # TBs out (tb_outs > 0) and no warp issues while another warp of its TB is absent and not on its
  # way in (the log's tb_part = 0). On main 0ea85f19 (the SM returning placed-absent warps one
  # by one) the count is 34,335; with the SM's return off but the CSL switching TBs in warp by
  # warp the run livelocks; without this session's placement and swap rules 11,355 and 120
  add_test(NAME gpuduet_tb_whole
           COMMAND ${hd_gdl} sgemm "^total .* tb_outs=[1-9][0-9]* .* tb_part=0 " --size medium
                   --set sm.allocator=gpuduet_tb --set sm.logical_warps=128
                   --set gpuduet.dynamic=true --set gpuduet.warmup=2000 --set gpuduet.window=2000
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_tb_whole PROPERTIES TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "logcheck.sh: OK")
  # session 24: the same at large size with Lin's 10,000-cycle windows (the MMS point of
  # experiments/gpuduet-paper.toml, smaller) livelocked at cycle 3,473,408 before the CSL's
  # stalled TB waited for an unknown ready-TB head (gd_queues_unknown): the two TB queues'
  # rotations phase-locked and no TB swapped; now it verifies and the wait is taken
  # (tb_blind > 0 in the log's total); about 30 CPU-seconds (full tier)
  add_test(NAME gpuduet_tb_phase
           COMMAND ${hd_gdl} sgemm "^total .* tb_blind=[1-9]" --size large
                   --set sm.allocator=gpuduet_tb --set sm.logical_warps=128
                   --set gpuduet.dynamic=true --set gpuduet.warmup=10000 --set gpuduet.window=10000
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_tb_phase PROPERTIES TIMEOUT 900
                       PASS_REGULAR_EXPRESSION "logcheck.sh: OK")
  set_tests_properties(gpuduet_dynamic gpuduet_l1d_rule PROPERTIES TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "logcheck.sh: OK")
  # session 27 (§2.10, the limiting context is the one that must leave to host the ME extra
  # TBs): btree's findRangeK is warp-slot-limited (MC 8) and the RF holds only 2 more of its TBs
  # at 24 units per warp, so its registers leave at the reduced 6 units and the bound is the
  # warp context table's 8 (on main: registers stay, me_ub=2, no leave= field); at ME 8 fixed
  # it verifies. hotspot, whose RF has room, keeps its registers (leave=meta, me_ub=8).
  add_test(NAME gpuduet_regs_room
           COMMAND ${hd_gdl} btree "^plan 1 1 n=8 R=24 r=6 .* level=warp me_ub=8 leave=regs-room$"
                   --set sm.allocator=gpuduet --set sm.logical_warps=128
                   --set gpuduet.dynamic=false --set gpuduet.me=8
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME gpuduet_regs_stay
           COMMAND ${hd_gdl} hotspot "^plan 0 0 n=8 R=16 r=4 .* level=warp me_ub=8 leave=meta$"
                   --set sm.allocator=gpuduet --set sm.logical_warps=128
                   --set gpuduet.dynamic=false --set gpuduet.me=8
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_regs_room gpuduet_regs_stay PROPERTIES TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "logcheck.sh: OK")
  # session 28: btree_r28, Lin ch.3's BT footprint (28 registers per thread pinned, ptxas needs
  # fewer): verifies with GPUDuet at ME 8, both kernels plan R=28 MC=8 by the warp slots alone,
  # ME bound 8 with registers leaving; VT's bound 1, the thesis's one extra TB (L1815-L1816)
  add_test(NAME gpuduet_bt28_footprint
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/bt28.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_bt28_footprint PROPERTIES TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "bt28.sh: OK")
  # session 28: a scheme with nothing to switch keeps the baseline's warp-to-scheduler mapping
  # (a finished warp's slot stays with its TB while no warp is absent)
  add_test(NAME gpuduet_nothing_to_switch
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/nothing.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_nothing_to_switch PROPERTIES TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "nothing.sh: OK")
  # session 19: the extra TBs the controller allows are placed when it allows them, not when
  # the next TB finishes (histo1024_r10 on 2 SMs: more than MC x SMs TBs resident before any
  # TB of the kernel is done)
  add_test(NAME gpuduet_limit_rise
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/limit_rise.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_limit_rise PROPERTIES TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "limit_rise.sh: OK")
  # session 20: every extra TB the controller allows is placed in the first wave (histo1024_r10
  # at medium on 16 SMs, to cycle 45,000: more than MC + 1 TBs per SM), and a TB swap takes the
  # ready TB's context space with no per-warp meta-data reservation
  add_test(NAME gpuduet_extra_tbs
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/extra_tbs.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_extra_tbs PROPERTIES TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "extra_tbs.sh: OK")
  # session 27: the register allocation size after liveness and compression (§3.6.6) in the
  # statistics JSON, per launch (backprop at small, GPUDuet at ME 2, and the baseline; < 2 s)
  add_test(NAME gpuduet_regsize
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/regsize.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_regsize PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION "regsize.sh: OK")
  # session 21: the window measurement (sgemm at small, the controller's 2,000-cycle windows)
  add_test(NAME gpuduet_window
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/window.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_window PROPERTIES TIMEOUT 180 PASS_REGULAR_EXPRESSION "window.sh: OK")
  # session 21: the paper inputs the window measures, verified by complete runs (the baseline and
  # GPUDuet with Lin's controller). Not bfs (16 M nodes) and mm2_poly (2048^2): a complete run is
  # hours to days of simulation (docs/gpuduet.md "Session 21"); their kernels and references
  # verify at every other size.
  foreach(wl sgemm conv2d spmv spmv_jds cfd kmeans lbm fdtd2d)
    add_test(NAME gpuduet_paper_verify_${wl}_base
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size paper
                     --config configs/maxwell-gpuduet.ini --quiet
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    add_test(NAME gpuduet_paper_verify_${wl}_gpuduet
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size paper
                     --config configs/maxwell-gpuduet.ini --set sm.allocator=gpuduet
                     --set sm.logical_warps=128 --set gpuduet.dynamic=true
                     --set gpuduet.warmup=10000 --set gpuduet.window=10000 --quiet
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_paper_verify_${wl}_base gpuduet_paper_verify_${wl}_gpuduet
                         PROPERTIES TIMEOUT 3600
                         PASS_REGULAR_EXPRESSION "${wl} \\(paper, [^)]*\\): VERIFIED")
  endforeach()
  # the nine paper inputs (bfs and mm2_poly too) against their CPU references, functionally
  # (MM is mm2_poly since session 22, Polybench/GPU 2MM's own kernels)
  foreach(wl bfs sgemm conv2d mm2_poly spmv spmv_jds cfd kmeans lbm fdtd2d)
    add_test(NAME gpuduet_paper_functional_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size paper --functional --quiet
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_paper_functional_${wl} PROPERTIES TIMEOUT 1800
                         PASS_REGULAR_EXPRESSION "${wl} \\(paper, [^)]*\\): VERIFIED")
  endforeach()
endif()
# session 24: gpuduet.py normalises a point whose L1D the §2.10 rule bypassed to the baseline with
# the L1D bypassed, as Lin does for DWT_2 (tests/gpuduet/report_ref.py; no simulation, < 1 s)
find_program(HD_GD_PYTHON NAMES python3)
if(HD_GD_PYTHON)
  add_test(NAME gpuduet_report_ref
           COMMAND ${HD_GD_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/gpuduet/report_ref.py
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_report_ref PROPERTIES LABELS "gpuduet_report" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "report_ref.py: OK")
endif()
# session 25: a stuck run's watchdog report shows the first busy SMs' warps with the GPUDuet
# allocator's own state (units held, the CSL's four queues, the switching counters: sm_alloc.h
# describe) and still ends with the memory system's whole per-SM list (the message used to be
# cut at 512 bytes, before any SM). A 40-cycle watchdog stops sgemm at its first loads.
if(TARGET heddle)
  add_test(NAME gpuduet_watchdog_report
           COMMAND $<TARGET_FILE:heddle> run sgemm --size small --config configs/maxwell-gpuduet.ini
                   --set sm.allocator=gpuduet --set sm.logical_warps=128 --set gpuduet.me=2
                   --set timing.watchdog_cycles=40
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_watchdog_report PROPERTIES TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "no progress for 40 cycles.* SM 0: [0-9]+ CTAs.*gpuduet: [0-9]+ TBs, units held RF [0-9]+.*queues stalled warps [0-9]+, ready warps [0-9]+, stalled TBs [0-9]+, ready TBs [0-9]+.*switched out [0-9]+ .TBs [0-9]+., in .*blind [0-9]+.*warp 0 .sgemm_tiled.* memory system: .*SM 15: [0-9]+ requests pending")
endif()
hd_tier(ci "^gpuduet_accept$" "^gpuduet_verify_ci$" "^gpuduet_l1d_rule$" "^gpuduet_limit_rise$"
        "^gpuduet_extra_tbs$" "^gpuduet_tb_dynamic$" "^gpuduet_tb_whole$" "^gpuduet_window$"
        "^gpuduet_report_ref$" "^gpuduet_watchdog_report$" "^gpuduet_regsize$"
        "^gpuduet_regs_room$" "^gpuduet_regs_stay$" "^gpuduet_bt28_footprint$"
        "^gpuduet_nothing_to_switch$")
