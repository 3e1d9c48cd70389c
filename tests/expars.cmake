# SPDX-License-Identifier: MIT
# EXPARS (issue 33; docs/expars.md; model/mech/expars).
# - test_expars_calc (tests/unit): the maximum-CTA calculator against the digest's Appendix A
#   (the 14 Table 3 kernels, every column, and the paper's averages).
# - expars_<sched>_<W>: workload W at small size with [sm] allocator = expars under the LRR,
#   GTO or two-level scheduler (6 active warps, the experiment's) and LTLWS over LRR or GTO, the
#   checker on (the default: every operand read through the operand cache compared with the
#   functional model's register value, docs/expars.md "Checker"): it must verify. The CI sample runs the base
#   workloads on an SM of 16,384 registers, where they are register-bound, so mix CTAs hold
#   registers in the scratchpad and operands are filled into the operand cache (checked by the
#   summary's operand-location line); quasirandom_r32 (Table 3 QUA) runs on the Fermi SM as it
#   is. The full tier runs every workload and variant on the Fermi SM.
# - expars_fault, expars_fault_demand: [expars] fault = N corrupts the Nth fill of a written
#   register on each SM (by the prefetcher; by a demand fill): the checker must stop the run with
#   a located error naming the lane and the two values.
# - expars_war: haar1d on the register-bound SM, where a demand fill's read is overtaken by a
#   later instruction's write of the same register unless the warp pool holds it (the
#   write-after-read interlock, expars_val.h): verified, values compared, war_holds > 0 (without
#   the interlock the checker stopped it). expars_partial: btree under LTLWS-GTO, whose
#   diverged writes leave lines holding some lanes only, merged by fills (partial_fills > 0);
#   it also stopped with the watchdog before LTLWS's phase 2 refreshed its active set
#   (policy/sm_sched_ltlws.c), as did fwt (expars_rb_ltlws_gto_fwt, full tier).
# - expars_prefetch_log: the register prefetcher and warp pool held warps and prefetched lines
#   ([expars] log), and the output verifies.
# - expars_pref_spad: the same with [expars] pref_spad: the prefetcher's transfers took
#   scratchpad passes (pref_passes > 0), the output verifies.
set(HD_TEST_MECHANISM expars)
if(TEST test_expars_calc)
  set_property(TEST test_expars_calc APPEND PROPERTY LABELS expars)
endif()
# test_expars_maxwell (tests/unit): the calculator on the §4.6 Maxwell SM (the study's kernels
# by hand; a grid of footprints against an exhaustive search).
if(TEST test_expars_maxwell)
  set_property(TEST test_expars_maxwell APPEND PROPERTY LABELS expars)
endif()

get_property(hd_expars_workloads GLOBAL PROPERTY HD_WORKLOADS)
set(hd_expars_fill "operand locations +[0-9]+ policy-port reads; fills [1-9][0-9]* from ports")
if(TARGET heddle)
  foreach(s lrr gto two_level ltlws_lrr ltlws_gto)
    foreach(wl IN LISTS hd_expars_workloads)
      add_test(NAME expars_${s}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set sm.allocator=expars
                       --set sm.scheduler=${s} --set sm.sched_active_warps=6
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(expars_${s}_${wl} PROPERTIES PASS_REGULAR_EXPRESSION "VERIFIED"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:|expars checker")
    endforeach()
    foreach(wl vecadd reduction stencil2d btree fwt)
      add_test(NAME expars_rb_${s}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set sm.allocator=expars
                       --set sm.scheduler=${s} --set sm.registers=16384
                       --set sm.sched_active_warps=6
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(expars_rb_${s}_${wl} PROPERTIES
                           PASS_REGULAR_EXPRESSION "VERIFIED.*${hd_expars_fill}"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:|expars checker")
    endforeach()
  endforeach()
  if(TEST expars_gto_quasirandom_r32)
    set_tests_properties(expars_lrr_quasirandom_r32 expars_gto_quasirandom_r32 PROPERTIES
                         PASS_REGULAR_EXPRESSION "VERIFIED.*${hd_expars_fill}")
  endif()
  # the prefetcher's fills (default) and demand fills ([expars] prefetch = false). The prefetched
  # one runs with physical register numbers (renumber = false): renumbered, QUA's scratchpad
  # registers are the coldest and the first 30-odd corrupted prefetched fills are of registers
  # the bundle overwrites before any read (the checker compares reads), the 40th is read.
  add_test(NAME expars_fault
           COMMAND $<TARGET_FILE:heddle> run quasirandom_r32 --size small
                   --set sm.allocator=expars --set expars.fault=1 --set expars.renumber=false
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME expars_fault_demand
           COMMAND $<TARGET_FILE:heddle> run quasirandom_r32 --size small
                   --set sm.allocator=expars --set expars.fault=5 --set expars.prefetch=false
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_fault expars_fault_demand PROPERTIES PASS_REGULAR_EXPRESSION
    "expars checker: SM [0-9]+ warp slot [0-9]+ \\(CTA slot [0-9]+\\) register [0-9]+ \\(%[a-z]+[0-9]+ word [01]\\) at PC [0-9]+, cycle [0-9]+: lane [0-9]+: the operand cache line [0-9]+ holds 0x[0-9a-f]+, the functional model's value is 0x[0-9a-f]+.*FAILED")
  # the write-after-read interlock and the lane-masked lines (expars_val.h)
  add_test(NAME expars_war
           COMMAND sh -c "$<TARGET_FILE:heddle> run haar1d --size small --set sm.allocator=expars --set sm.registers=16384 --set expars.log=${CMAKE_CURRENT_BINARY_DIR}/expars_war.log && cat ${CMAKE_CURRENT_BINARY_DIR}/expars_war.log"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_war PROPERTIES PASS_REGULAR_EXPRESSION
    "VERIFIED.*values_checked [1-9][0-9]* values_unchecked [0-9]+ partial_fills [0-9]+ war_holds [1-9]"
    FAIL_REGULAR_EXPRESSION "FAILED|expars checker")
  add_test(NAME expars_partial
           COMMAND sh -c "$<TARGET_FILE:heddle> run btree --size small --set sm.allocator=expars --set sm.registers=16384 --set sm.scheduler=ltlws_gto --set expars.log=${CMAKE_CURRENT_BINARY_DIR}/expars_partial.log && cat ${CMAKE_CURRENT_BINARY_DIR}/expars_partial.log"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_partial PROPERTIES PASS_REGULAR_EXPRESSION
    "VERIFIED.*values_checked [1-9][0-9]* values_unchecked [0-9]+ partial_fills [1-9]"
    FAIL_REGULAR_EXPRESSION "FAILED|expars checker")
  # the prefetcher and warp pool at work: prefetches, fills and holds in the log, output verified
  add_test(NAME expars_prefetch_log
           COMMAND sh -c "$<TARGET_FILE:heddle> run reduction --size small --set sm.allocator=expars --set sm.registers=16384 --set expars.log=${CMAKE_CURRENT_BINARY_DIR}/expars_prefetch.log && cat ${CMAKE_CURRENT_BINARY_DIR}/expars_prefetch.log"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_prefetch_log PROPERTIES PASS_REGULAR_EXPRESSION
    "VERIFIED.*sm 0 ctas_rf [0-9]+ ctas_mix [1-9][0-9]* reads_oc [1-9][0-9]* fills [0-9]+ pref_fills [1-9][0-9]* pref_hits [0-9]+ pref_writebacks [0-9]+ prefetches [1-9][0-9]* holds [1-9][0-9]*.*checked [1-9]"
    FAIL_REGULAR_EXPRESSION "FAILED|expars checker")
  # [expars] pref_spad: the prefetcher's transfers took scratchpad passes (docs/oloc.md "Own
  # passes"); the output verifies with the checker on.
  add_test(NAME expars_pref_spad
           COMMAND sh -c "$<TARGET_FILE:heddle> run reduction --size small --set sm.allocator=expars --set sm.registers=16384 --set expars.pref_spad=true --set expars.log=${CMAKE_CURRENT_BINARY_DIR}/expars_pref_spad.log && cat ${CMAKE_CURRENT_BINARY_DIR}/expars_pref_spad.log"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_pref_spad PROPERTIES PASS_REGULAR_EXPRESSION
    "VERIFIED.*sm 0 .*prefetches [1-9][0-9]*.* pref_passes [1-9][0-9]* pref_pass_waits [0-9]+"
    FAIL_REGULAR_EXPRESSION "FAILED|expars checker")
endif()

# expars_renumber (tests/expars/renumber.sh): [expars] renumber, the paper's register re-ordering
# (L115): QUA verifies with the registers renumbered by static weight and with the physical
# numbers, every operand read through the operand cache compared, and the renumbered run reads
# fewer operands through the cache (the coldest registers are the scratchpad's). About 0.6 s.
if(TARGET heddle)
  add_test(NAME expars_renumber
           COMMAND sh tests/expars/renumber.sh $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/expars-renumber
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_renumber PROPERTIES LABELS "expars" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "renumber: ok")
endif()

# expars_pool_sched (tests/expars/pool_sched.sh): [expars] pool_sched, the warp pool under
# two-level (L226): the register-bound reduction verifies with and without, and the cycles
# differ (the hook's pooled answer reaches the two-level refresh). About 1 s.
if(TARGET heddle)
  add_test(NAME expars_pool_sched
           COMMAND sh tests/expars/pool_sched.sh $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/expars-pool-sched
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_pool_sched PROPERTIES LABELS "expars" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "pool_sched: ok")
endif()

# expars_ideal (tests/expars/ideal.sh): [expars] ideal, the experiment's bound: EXPARS's CTAs
# with every register in the register file verifies, places EXPARS's CTAs, reads nothing through
# the operand cache; refused with the blocks in the loop. About 1 s.
if(TARGET heddle)
  add_test(NAME expars_ideal
           COMMAND sh tests/expars/ideal.sh $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/expars-ideal
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_ideal PROPERTIES LABELS "expars" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "ideal: ok")
endif()

# expars_tail (tests/expars/tail.py): why EXPARS beats its bound under LRR (docs/expars.md "Why
# EXPARS beats the bound on MQ and MC (session 18)"): montecarlo_w4 under LRR with Baseline, the
# bound and EXPARS; the bound's CTAs land unevenly on the SMs at the launch's end (LRR's lockstep
# waves), EXPARS's evenly, and the SM-cycles per CTA of the three agree within 3 %. About 20
# CPU-s (full tier).
if(TARGET heddle)
  add_test(NAME expars_tail
           COMMAND python3 tests/expars/tail.py $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/expars-tail
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_tail PROPERTIES LABELS "expars" TIMEOUT 600
                       PASS_REGULAR_EXPRESSION "tail: ok")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): about 20-25 test-seconds in CI.
hd_tier(ci "^test_expars_calc$" "^test_expars_maxwell$" "^expars_rb_(lrr|gto)_(vecadd|reduction)$"
        "^expars_rb_ltlws_(lrr|gto)_reduction$" "^expars_rb_two_level_reduction$"
        "^expars_war$" "^expars_partial$"
        "^expars_(lrr|gto)_quasirandom_r32$" "^expars_fault(_demand)?$" "^expars_prefetch_log$"
        "^expars_pref_spad$" "^expars_renumber$" "^expars_pool_sched$" "^expars_ideal$")

# `heddle ptx-info` prints EXPARS's plan and bundles with [sm] allocator = expars: MQ's compute_q
# at 256 threads, 25 registers (ptxas): 4 RF + 2 mix CTAs, Start_Reg 14, the static metrics
# (worked by hand: RF 5 x 6,400 / 32,768 = 97.66 %; Warpman's 768 spare registers hold no warp
# of 800; EXPARS's scratchpad 2 x 11 x 256 x 4 = 22,528 B = 45.83 %, overall 153,600 / 180,224
# = 85.23 %), and its bundles.
if(TARGET heddle)
  add_test(NAME expars_ptx_info
           COMMAND $<TARGET_FILE:heddle> ptx-info mriq_r28 --kernel compute_q --threads 256
                   --set sm.allocator=expars
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_ptx_info PROPERTIES PASS_REGULAR_EXPRESSION
    "CTA_RF 4 \\+ CTA_Mix 2 = 6 CTAs \\(48 warps; baseline 5 CTAs, 40 warps\\); Start_CTA 4, Start_Reg 14, Max_Reg 24.*SBR 37888 26624.*static: baseline 5 CTAs 40 warps RF 97.6562% SPM 0.0000% overall 71.0227%; warpman 5 CTAs 40 warps RF 97.6562% SPM 0.0000% overall 71.0227%; expars 6 CTAs 48 warps RF 100.0000% SPM 45.8333% overall 85.2273%.*EXPARS bundles: [1-9][0-9]* over [0-9]+ instructions.*bundle 0: PC [0-9]+")
endif()
hd_tier(ci "^expars_ptx_info$")

# test_sched_ltlws (tests/unit): the lazy two-level scheduler's phases and W_Opt (eq. 14).
if(TEST test_sched_ltlws)
  set_property(TEST test_sched_ltlws APPEND PROPERTY LABELS expars)
endif()
hd_tier(ci "^test_sched_ltlws$")

# test_expars_oc (tests/unit): the operand cache's mapping, replacement and write-back hand-off.
if(TEST test_expars_oc)
  set_property(TEST test_expars_oc APPEND PROPERTY LABELS expars)
endif()
hd_tier(ci "^test_expars_oc$")

# test_expars_val (tests/unit): the values the operand cache and scratchpad registers carry (fills,
# lane-masked writes, write-backs, merges) and the checker's comparison and located message.
if(TEST test_expars_val)
  set_property(TEST test_expars_val APPEND PROPERTY LABELS expars)
endif()
hd_tier(ci "^test_expars_val$")

# expars_energy_events (tests/power/check_expars_energy.py): EXPARS's energy events on Table 3's
# QUA at small size: the JSON's per-SM counters equal the mechanism's [expars] log, the power
# events and the shared-memory and added-RTL energies follow from them (docs/power.md), the
# kernels add up to the run, and the baseline has none of them. About 3 s.
if(TARGET heddle)
  add_test(NAME expars_energy_events
           COMMAND python3 tests/power/check_expars_energy.py $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/expars-energy
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_energy_events PROPERTIES LABELS "expars_energy" TIMEOUT 120)
endif()
hd_tier(ci "^expars_energy_events$")

# experiments_expars_tiny (full): experiments/expars.py on tests/sweep/expars-tiny.toml (QUA and
# HS at small, LRR: Baseline, iso-storage, EXPARS, Warpman): the report's table of the issue's numbers
# (static, energy, Maxwell rows), its energy and static sections and every PNG are written.
# HEDDLE names the binary for the calculator's ptx-info calls (the store's identity).
if(TARGET heddle)
  add_test(NAME experiments_expars_tiny
           COMMAND bash -c "rm -rf \"$1\" && HEDDLE=\"$2\" python3 experiments/sweep.py tests/sweep/expars-tiny.toml -j 2 --heddle \"$2\" --out \"$1\" && for f in speedup warps energy static maxwell_tlp maxwell_util; do test -s \"$1/$f.png\" || exit 1; done && grep -q '^| CTAs per SM, EXPARS / Baseline (ratio of means) | 1.[0-9][0-9] | 1.28 |' \"$1/report.md\" && grep -q '^| energy vs Baseline, lrr (amean / gmean) | [-+][0-9.]* / [-+][0-9.]* % |' \"$1/report.md\" && grep -q '^| Warpman performance vs Baseline, lrr (amean / gmean) | [-+][0-9.]* / [-+][0-9.]* % |' \"$1/report.md\" && grep -q '^| EXPARS energy vs Warpman, lrr (amean / gmean) | [-+][0-9.]* / [-+][0-9.]* % |' \"$1/report.md\" && grep -q '^| Maxwell, Parboil register-sensitive: TLP EXPARS / Baseline (amean) | 1.[0-9][0-9] | 1.21 |' \"$1/report.md\" && grep -q '^| QUA | qrng_generate | 384 / 0 / 32 | 2 / 3 / 3 |' \"$1/report.md\" && echo 'expars tiny: report written'"
                   _ ${CMAKE_CURRENT_BINARY_DIR}/expars-tiny $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(experiments_expars_tiny PROPERTIES LABELS "expars;experiments" TIMEOUT 900
                       PASS_REGULAR_EXPRESSION "expars tiny: report written")
endif()
