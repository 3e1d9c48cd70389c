# SPDX-License-Identifier: MIT
# EXPARS (issue 33; docs/expars.md; model/mech/expars).
# - test_expars_calc (tests/unit): the maximum-CTA calculator against the digest's Appendix A
#   (the 14 Table 3 kernels, every column, and the paper's averages).
# - expars_<sched>_<W>: workload W at small size with [sm] allocator = expars under the LRR or
#   GTO scheduler (and LTLWS over either), the checker on (the default): it must verify. The CI sample runs the base
#   workloads on an SM of 16,384 registers, where they are register-bound, so mix CTAs hold
#   registers in the scratchpad and operands are filled into the operand cache (checked by the
#   summary's operand-location line); quasirandom_r32 (Table 3 QUA) runs on the Fermi SM as it
#   is. The full tier runs every workload and variant on the Fermi SM.
# - expars_fault, expars_fault_demand: [expars] fault = N corrupts the Nth fill of a written
#   register on each SM (by the prefetcher; by a demand fill): the checker must stop the run with
#   a located error.
# - expars_prefetch_log: the register prefetcher and warp pool held warps and prefetched lines
#   ([expars] log), and the output verifies.
# - expars_pref_spad: the same with [expars] pref_spad: the prefetcher's transfers took
#   scratchpad passes (pref_passes > 0), the output verifies.
set(HD_TEST_MECHANISM expars)
if(TEST test_expars_calc)
  set_property(TEST test_expars_calc APPEND PROPERTY LABELS expars)
endif()

get_property(hd_expars_workloads GLOBAL PROPERTY HD_WORKLOADS)
set(hd_expars_fill "operand locations +[0-9]+ policy-port reads; fills [1-9][0-9]* from ports")
if(TARGET heddle)
  foreach(s lrr gto ltlws_lrr ltlws_gto)
    foreach(wl IN LISTS hd_expars_workloads)
      add_test(NAME expars_${s}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set sm.allocator=expars
                       --set sm.scheduler=${s}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(expars_${s}_${wl} PROPERTIES PASS_REGULAR_EXPRESSION "VERIFIED"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:|expars checker")
    endforeach()
    foreach(wl vecadd reduction stencil2d)
      add_test(NAME expars_rb_${s}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set sm.allocator=expars
                       --set sm.scheduler=${s} --set sm.registers=16384
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
  # the prefetcher's fills (default) and demand fills ([expars] prefetch = false)
  add_test(NAME expars_fault
           COMMAND $<TARGET_FILE:heddle> run quasirandom_r32 --size small
                   --set sm.allocator=expars --set expars.fault=1
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME expars_fault_demand
           COMMAND $<TARGET_FILE:heddle> run quasirandom_r32 --size small
                   --set sm.allocator=expars --set expars.fault=5 --set expars.prefetch=false
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_fault expars_fault_demand PROPERTIES PASS_REGULAR_EXPRESSION
    "expars checker: SM [0-9]+ warp slot [0-9]+ \\(CTA slot [0-9]+\\) register [0-9]+ at PC [0-9]+, cycle [0-9]+: the operand cache line [0-9]+ holds version [0-9]+, the register's newest is [0-9]+.*FAILED")
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

# Tiers (tests/CMakeLists.txt, docs/testing.md): about 20-25 test-seconds in CI.
hd_tier(ci "^test_expars_calc$" "^expars_rb_(lrr|gto)_(vecadd|reduction)$"
        "^expars_rb_ltlws_(lrr|gto)_reduction$"
        "^expars_(lrr|gto)_quasirandom_r32$" "^expars_fault(_demand)?$" "^expars_prefetch_log$"
        "^expars_pref_spad$")

# `heddle ptx-info` prints EXPARS's plan and bundles with [sm] allocator = expars: MQ's compute_q
# at 256 threads, 25 registers (ptxas): 4 RF + 2 mix CTAs, Start_Reg 14, and its bundles.
if(TARGET heddle)
  add_test(NAME expars_ptx_info
           COMMAND $<TARGET_FILE:heddle> ptx-info mriq_r28 --kernel compute_q --threads 256
                   --set sm.allocator=expars
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(expars_ptx_info PROPERTIES PASS_REGULAR_EXPRESSION
    "CTA_RF 4 \\+ CTA_Mix 2 = 6 CTAs \\(48 warps; baseline 5 CTAs, 40 warps\\); Start_CTA 4, Start_Reg 14, Max_Reg 24.*SBR 37888 26624.*EXPARS bundles: [1-9][0-9]* over [0-9]+ instructions.*bundle 0: PC [0-9]+")
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
