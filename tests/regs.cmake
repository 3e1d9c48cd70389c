# SPDX-License-Identifier: MIT
# Register counts as the real compiler allocates them (issue 15; [sm] regs_source,
# model/config/regs_source.h; included by tests/CMakeLists.txt). The unit test
# tests/unit/test_regs_source.c covers the parser, the choice and the runtime API. Here, through the
# CLI:
# - regs_list_occupancy[_kepler]: the occupancy of `heddle list` (every workload's row and every
#   launched kernel of --kernels) equals a hand calculation from workloads/*/*.ptxas.txt and the
#   configuration's limits (tests/regs/list_occupancy_check.py); full tier: each runs all 175
#   workloads twice (list, list --kernels), about 26 CPU-seconds, 85 test-seconds in CI;
# - regs_list_occupancy_sample[_kepler] (CI): the same check on HD_REGS_LIST_SAMPLE (`heddle list
#   NAME...`): the 8 CI workloads and 14 more chosen so that every limit (and tie of limits) the
#   whole list shows on Fermi and on Kepler appears at least once, with multi-kernel workloads
#   (asianoption, mst, lud, scan) and dynamic shared memory (reduction);
# - heddle launch reads NAME.ptxas.txt beside the PTX, --regs N wins, a PTX with no summary
#   (tests/regs/nosum.ptx, a copy of tests/occupancy/beside.ptx without one) warns and counts
#   ours; bad input (--regs 0, 300, above the configuration's limit, a malformed summary, a bad
#   regs_source) is an error naming the limit or the file and line;
# - regs_source = regalloc and = N in runs, and the run summary and stats JSON name the source.
# Together < 15 s of CPU.

if(NOT TARGET heddle)
  return()
endif()
if(NOT COMMAND hd_cli_test)
  include(${CMAKE_CURRENT_LIST_DIR}/cli.cmake)
endif()

find_program(HD_REGS_PYTHON NAMES python3)
if(HD_REGS_PYTHON)
  add_test(NAME regs_list_occupancy
           COMMAND ${HD_REGS_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/regs/list_occupancy_check.py
                   $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME regs_list_occupancy_kepler
           COMMAND ${HD_REGS_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/regs/list_occupancy_check.py
                   $<TARGET_FILE:heddle> configs/kepler-gk110.ini
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  # the limits on fermi-gtx480 / kepler-gk110 (heddle list, session 24): nqueens shared memory /
  # shared memory; montecarlo, nw CTA slots / shared memory; sgemm_c4 registers+CTA slots;
  # histogram_s8 shared memory+threads; dct8x8_tb128 registers+CTA slots / shared memory+threads+
  # CTA slots; mst registers / registers+threads; lud registers / registers+shared memory+threads;
  # scan registers / registers+shared memory; lbm registers; reduction_tb128 CTA slots /
  # threads+CTA slots; histogram_tb64 CTA slots / shared memory+CTA slots; asianoption registers /
  # threads; pathfinder threads / shared memory+threads; chase CTA slots / CTA slots; bfs
  # registers+threads / threads; the rest registers or threads
  set(HD_REGS_LIST_SAMPLE ${HD_CI_WORKLOADS} nqueens montecarlo sgemm_c4 histogram_s8
      dct8x8_tb128 mst lud scan lbm reduction_tb128 histogram_tb64 asianoption pathfinder chase)
  string(REPLACE ";" "," hd_regs_sample "${HD_REGS_LIST_SAMPLE}")
  add_test(NAME regs_list_occupancy_sample
           COMMAND ${HD_REGS_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/regs/list_occupancy_check.py
                   $<TARGET_FILE:heddle> --only ${hd_regs_sample}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME regs_list_occupancy_sample_kepler
           COMMAND ${HD_REGS_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/regs/list_occupancy_check.py
                   $<TARGET_FILE:heddle> configs/kepler-gk110.ini --only ${hd_regs_sample}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(regs_list_occupancy regs_list_occupancy_kepler regs_list_occupancy_sample
                       regs_list_occupancy_sample_kepler PROPERTIES
                       LABELS "regs;cli" TIMEOUT 180)
endif()

set(HD_REGS_VECADD --grid 4 --block 256 --arg buf:a:4K:seq-f32 --arg buf:b:4K:const-f32:0.5
    --arg buf:c:4K:zero --arg s32:1000
    --print c:f32:2)
# ptxas's count beside the PTX (workloads/vecadd/vecadd.ptxas.txt: 12)
hd_cli_test(regs_launch_ptxas 0 "registers: 12 per thread \\(ptxas\\)"
            launch workloads/vecadd/vecadd.ptx vecadd ${HD_REGS_VECADD})
hd_cli_test(regs_launch_given 0 "registers: 40 per thread \\(given\\), 3 CTAs per SM"
            launch workloads/vecadd/vecadd.ptx vecadd --regs 40 ${HD_REGS_VECADD})
hd_cli_test(regs_launch_fallback 0 "warning: vecadd: no register count recorded by ptxas.*and no --regs; occupancy counted Heddle's register allocator's [0-9]+ per thread"
            launch tests/regs/nosum.ptx vecadd ${HD_REGS_VECADD})
hd_cli_test(regs_launch_fallback_given 0 "registers: 24 per thread \\(given\\)"
            launch tests/regs/nosum.ptx vecadd --regs 24 ${HD_REGS_VECADD})
hd_cli_test(regs_launch_zero 2 "--regs 0: a kernel uses at least 1 register per thread \\(1 .. 63 on fermi-gtx480, \\[sm\\] max_regs_per_thread\\)"
            launch tests/regs/nosum.ptx vecadd --regs 0 ${HD_REGS_VECADD})
hd_cli_test(regs_launch_300 2 "--regs 300: more than the 63 registers per thread one thread may use on fermi-gtx480 \\(\\[sm\\] max_regs_per_thread\\)"
            launch tests/regs/nosum.ptx vecadd --regs 300 ${HD_REGS_VECADD})
hd_cli_test(regs_launch_above_limit 2 "--regs 64: more than the 63 registers per thread"
            launch tests/regs/nosum.ptx vecadd --regs 64 ${HD_REGS_VECADD})
hd_cli_test(regs_launch_above_limit_kepler 0 "registers: 64 per thread \\(given\\)"
            launch tests/regs/nosum.ptx vecadd --regs 64 --config configs/kepler-gk110.ini
            ${HD_REGS_VECADD})
hd_cli_test(regs_launch_not_a_count 2 "--regs wants a register count, not 'many'"
            launch tests/regs/nosum.ptx vecadd --regs many ${HD_REGS_VECADD})
hd_cli_test(regs_launch_bad_summary 1 "tests/regs/badsum.ptxas.txt:2: not a number: 'registers=forty'"
            launch tests/regs/badsum.ptx vecadd ${HD_REGS_VECADD})
hd_cli_test(regs_config_bad 2 "key 'regs_source': 64: more than the 63 registers per thread"
            config --set sm.regs_source=64)
hd_cli_test(regs_config_word 2 "key 'regs_source': 'ptx' is not ptxas, regalloc or a register count \\(1..63"
            config --set sm.regs_source=ptx)
# runs: the summary names the source; a fixed count and our allocator's verify too
hd_cli_test(regs_run_ptxas 0 "VERIFIED.*sgemm_tiled .* 3 \\(registers\\) +40 \\(ptxas\\)"
            run sgemm)
hd_cli_test(regs_run_regalloc 0 "VERIFIED.*sgemm_tiled .* 6 \\(registers\\+threads\\) +20 \\(regalloc\\)"
            run sgemm --set sm.regs_source=regalloc)
hd_cli_test(regs_run_config 0 "VERIFIED.*sgemm_tiled .* 2 \\(registers\\) +63 \\(config\\)"
            run sgemm --set sm.regs_source=63)
# the stats JSON: each launch's count, its source and our allocator's count
add_test(NAME cli_regs_stats_json
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle>
                 "-DARGS=run|vecadd|--quiet|--stats|${CMAKE_CURRENT_BINARY_DIR}/regs_vecadd.json"
                 -DRC=0 -DREGEX=VERIFIED -DFILE=${CMAKE_CURRENT_BINARY_DIR}/regs_vecadd.json
                 "-DFILE_REGEX=\"regs_source\": \"ptxas\".*\"regs_per_thread\": 12, \"regs_source\": \"ptxas\", \"regs_regalloc\": [0-9]+"
                 -P ${HD_CLI_CHECK}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_regs_stats_json cli_regs_launch_ptxas cli_regs_launch_given cli_regs_launch_fallback
                     cli_regs_launch_fallback_given cli_regs_launch_zero cli_regs_launch_300
                     cli_regs_launch_above_limit cli_regs_launch_above_limit_kepler
                     cli_regs_launch_not_a_count cli_regs_launch_bad_summary cli_regs_config_bad
                     cli_regs_config_word cli_regs_run_ptxas cli_regs_run_regalloc
                     cli_regs_run_config PROPERTIES LABELS "regs;cli")

# Tiers (tests/CMakeLists.txt, docs/testing.md): the whole list's checks in full (the samples
# cover them in CI), the rest in CI.
hd_tier(full "^regs_list_occupancy(_kepler)?$")
hd_tier(ci ".")
