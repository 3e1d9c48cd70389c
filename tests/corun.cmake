# SPDX-License-Identifier: MIT
# Tests of open-ended co-running (issue 11 item 3; model/cli/cli_mix_repeat.c, heddle_mix.h's open
# clients, gpu_launch.c's launches added while the GPU runs); label "mixes".
#
# - corun_bfs_vecadd: vecadd is relaunched while bfs runs its 11 host-synchronized levels: more
#   than 11 vecadd launches, every instance verified, the per-instance table; everything in one
#   batch (bfs's levels too resume inside the running batch, issue 24 item 1: before, each of
#   them ended a batch, 11 in all).
# - corun_until: --repeat-until stops the relaunches early (a cycle budget).
# - corun_alone: with --alone the repeated workload's slowdown is its mean instance's.
# - corun_functional: the functional executor repeats at batch granularity, still verified.
# - corun_twice: the same co-run twice gives identical reports and summaries (determinism), and
#   its first run prints what corun_bfs_vecadd and mix_bfs_vecadd (tests/mixes.cmake) ask of the
#   same command (their regular expressions, HD_CORUN_BFS_VECADD_RE); those two run it once more
#   each, so they are in the full tier and corun_twice covers them in CI (session 24).
# - corun_stats_json: the instances in the --stats JSON.
# - corun_*_error: located errors for a bad --repeat, --repeat-until and a bad `repeat` key.
# The runtime's open clients themselves: tests/unit/test_mix_open.c.

if(NOT TARGET heddle)
  return()
endif()

function(hd_corun_test name rc regex)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> "-DARGS=${args}" -DRC=${rc}
                   "-DREGEX=${regex}" -P ${CMAKE_CURRENT_LIST_DIR}/cli/check.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS mixes TIMEOUT 180)
endfunction()

set(HD_CORUN_BFS_VECADD_RE
  "mix bfs\\+vecadd \\(small, [^)]*\\): VERIFIED \\(2 of 2 workloads.*bfs +VERIFIED +11 .* 1 \\(1\\).*vecadd +VERIFIED +(1[2-9]|[2-9][0-9]) .* 1 \\(1\\).*vecadd repeated: ([0-9]+) instances, [0-9]+ verified, [0-9]+ started while the others ran.*INSTANCE +RESULT +LAUNCHES +CTAS +START +END +CYCLES\n +1 +VERIFIED +1 +256 .*\n +2 +VERIFIED +1 +256 ")
hd_corun_test(corun_bfs_vecadd 0 "${HD_CORUN_BFS_VECADD_RE}" run --mix bfs+vecadd --quiet)
hd_corun_test(corun_until 0
  "vecadd repeated: [2-6] instances, [2-6] verified"
  run --mix bfs+vecadd --quiet --repeat-until 20000)
hd_corun_test(corun_option 0
  "sgemm repeated: [2-9] instances, [2-9] verified.*sgemm +sgemm_tiled +[2-9] "
  run --mix bfs+sgemm --quiet --repeat sgemm --repeat-until 60000)
hd_corun_test(corun_alone 0
  "vecadd +VERIFIED .* [0-9.]+  \\(mean instance\\)\n.*STP +[0-9.]+ .*ANTT +[0-9.]+ .*vs one by one +[0-9.]+x"
  run --mix bfs+vecadd --quiet --alone)
hd_corun_test(corun_functional 0
  "functional\\): VERIFIED \\(2 of 2.*vecadd repeated: (1[1-9]|[2-9][0-9]) instances, (1[1-9]|[2-9][0-9]) verified\n"
  run --mix bfs+vecadd --quiet --functional)
add_test(NAME corun_twice
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> -DMIX=bfs+vecadd
                 -DOUT=${CMAKE_CURRENT_BINARY_DIR}/corun-twice "-DREGEX=${HD_CORUN_BFS_VECADD_RE}"
                 -P ${CMAKE_CURRENT_LIST_DIR}/mix/twice.cmake
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(corun_twice PROPERTIES LABELS mixes TIMEOUT 240)
hd_corun_test(corun_bad_repeat_error 2
  "--repeat 'nosuch': no workload of that name in mix sgemm\\+vecadd"
  run --mix sgemm+vecadd --repeat nosuch)
hd_corun_test(corun_until_error 2 "--repeat-until 'x': wants a cycle count from 1 to 1000000000000000"
  run --mix bfs+vecadd --repeat-until x)
hd_corun_test(corun_until_alone_error 2 "--repeat-until needs a workload to repeat"
  run --mix sgemm+vecadd --repeat-until 1000)
hd_corun_test(corun_bad_key_error 1
  "tests/mix/bad_repeat.ini:4: mix \\[sgemm\\+vecadd\\]: repeat = bfs is not one of its workloads"
  list --mixes --mixes-file tests/mix/bad_repeat.ini)
add_test(NAME corun_stats_json
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle>
                 "-DARGS=run|--mix|bfs+vecadd|--quiet|--repeat-until|15000|--stats|${CMAKE_CURRENT_BINARY_DIR}/corun-stats.json"
                 -DRC=0 -DFILE=${CMAKE_CURRENT_BINARY_DIR}/corun-stats.json
                 "-DFILE_REGEX=\"instances\": \\[\n  {\"workload\": 1, \"instance\": 1, \"verified\": true, \"launches\": 1, \"ctas\": 256, \"warp_instrs\": [0-9]+, \"start_cycle\": [0-9]+, \"end_cycle\": [0-9]+, \"cycles\": [0-9]+},\n  {\"workload\": 1, \"instance\": 2, \"verified\": true"
                 -P ${CMAKE_CURRENT_LIST_DIR}/cli/check.cmake
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(corun_stats_json PROPERTIES LABELS mixes TIMEOUT 180)

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^corun_(until|option|alone|twice|stats_json)$" "_error$")
