# SPDX-License-Identifier: MIT
# Robustness regression tests (included by tests/CMakeLists.txt): each case of
# tests/cli/robust.sh is one test, labelled cli and robust (ctest -L robust). The cases are the
# reproducers of the robustness issue: outputs that would clobber inputs, atomic writes under
# SIGKILL, SIGTERM, checks that compare nothing, read caps and large generated inputs.

if(NOT TARGET heddle)
  return()
endif()
find_program(HD_BASH bash)
find_program(HD_TIMEOUT_PROG timeout)
if(NOT HD_BASH OR NOT HD_TIMEOUT_PROG)
  return()
endif()

set(HD_ROBUST_CASES
    dump_over_ptx stats_over_config series_over_stats dump_twice dump_over_fill
    expect_reads_dump dump_roundtrip expect_pieces cosim_record_over_config mix_stats_over_config dump_sigkill stats_sigkill
    stats_symlink sigterm_stats mix_stats_json cosim_every_zero cosim_sms_outside
    cosim_in_loop_save_named
    stats_measured_nothing
    config_like_run ptx_read_cap live_regs_20k params_100k max_cycles ran_past_end
    watchdog_derived local_memory spill_timing local_occupancy_agrees config_line liveness_cap
    stats_is_dir dump_full dump_no_dir ptx_is_dir print_beyond)
foreach(c ${HD_ROBUST_CASES})
  add_test(NAME cli_robust_${c}
           COMMAND ${HD_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/cli/robust.sh ${c}
                   $<TARGET_FILE:heddle> ${CMAKE_SOURCE_DIR})
  set_tests_properties(cli_robust_${c} PROPERTIES LABELS "cli;robust" TIMEOUT 120)
endforeach()
# outputs of the co-simulation (--record, --fst): need the Verilated RTL
if(TARGET hd_cosim_vl)
  foreach(c cosim_record_atomic cosim_fst_atomic)
    add_test(NAME cli_robust_${c}
             COMMAND ${HD_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/cli/robust.sh ${c}
                     $<TARGET_FILE:heddle> ${CMAKE_SOURCE_DIR})
    set_tests_properties(cli_robust_${c} PROPERTIES LABELS "cli;robust" TIMEOUT 120)
  endforeach()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
