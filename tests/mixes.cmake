# SPDX-License-Identifier: MIT
# Tests of multi-kernel mixes and resource-specification variants (included by
# tests/CMakeLists.txt; label "mixes").
#
# - mix_<NAME>: `heddle run --mix NAME --quiet` for every mix of workloads/mixes.ini at small
#   size (the list is read from the file, so a new mix gets its test without an edit here):
#   every workload of the mix must verify its own output while they run concurrently.
# - mix_twice_*: a mix run twice gives identical totals, per workload and per kernel
#   (tests/mix/twice.cmake compares the --stats reports and the summaries).
# - mix_cli_*: `heddle list --mixes`, `--variants`, --mixes-file, the summary and --stats report,
#   and the located errors of malformed mixes files (tests/mix/*.ini) and bad command lines.
# The variants themselves run as workload_<NAME> tests (tests/workloads.cmake) like every
# registered workload; tests/variants_check.c checks their flags against ptx.flags and ptxas.

if(NOT TARGET heddle)
  return()
endif()

set(HD_MIX_CHECK ${CMAKE_CURRENT_LIST_DIR}/cli/check.cmake)
set(HD_MIX_DIR ${CMAKE_CURRENT_LIST_DIR}/mix)

# hd_mix_test(NAME RC REGEX ARGS...): run `heddle ARGS...`, expect exit status RC and REGEX.
function(hd_mix_test name rc regex)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> "-DARGS=${args}" -DRC=${rc}
                   "-DREGEX=${regex}" -P ${HD_MIX_CHECK}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS mixes TIMEOUT 180)
endfunction()

# {==== every mix of workloads/mixes.ini ====
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/workloads/mixes.ini)
file(STRINGS ${CMAKE_SOURCE_DIR}/workloads/mixes.ini hd_mix_headers REGEX "^\\[[a-z0-9_+]+\\]")
foreach(h IN LISTS hd_mix_headers)
  string(REGEX MATCH "^\\[([a-z0-9_+]+)\\]" m "${h}")
  set(mix ${CMAKE_MATCH_1})
  string(REPLACE "+" "_" id "${mix}")
  string(REPLACE "+" "\\+" re "${mix}")
  hd_mix_test(mix_${id} 0 "mix ${re} \\(small, [^)]*\\): VERIFIED \\([2-4] of [2-4] workloads"
              run --mix ${mix} --quiet)
endforeach()
# }====

# {==== determinism ====
foreach(mix sgemm+vecadd bfs+sgemm)
  string(REPLACE "+" "_" id "${mix}")
  add_test(NAME mix_twice_${id}
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> -DMIX=${mix}
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/mix-twice -P ${HD_MIX_DIR}/twice.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mix_twice_${id} PROPERTIES LABELS mixes TIMEOUT 240)
endforeach()
# }====

# {==== the command line ====
hd_mix_test(mix_cli_list 0 "MIX +WORKLOADS +KIND +WHY.*sgemm\\+vecadd +sgemm vecadd +compute\\+memory.*\\([0-9]+ mixes from workloads/mixes.ini"
            list --mixes)
hd_mix_test(mix_cli_list_names 0 "^sgemm\\+vecadd\n" list --mixes --names)
hd_mix_test(mix_cli_help 0 "Usage: heddle run --mix NAME" run --mix --help)
hd_mix_test(mix_cli_run_help_mentions 0 "heddle run --mix NAME" run --help)
hd_mix_test(mix_cli_list_help 0 "--variants.*--mixes" list --help)
hd_mix_test(mix_cli_summary 0
            "\\[sgemm\\] sgemm: m=.*\\[vecadd\\] vecadd: .*WORKLOAD +RESULT.*sgemm +VERIFIED +1 +56 .*vecadd +VERIFIED.*per kernel:.*sgemm +sgemm_tiled +1 +56 .*batches +1\n"
            run --mix sgemm+vecadd)
add_test(NAME mix_cli_stats
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle>
                 "-DARGS=run|--mix|sgemm+vecadd|--quiet|--stats|${CMAKE_CURRENT_BINARY_DIR}/mix-stats.ini"
                 -DRC=0 -DFILE=${CMAKE_CURRENT_BINARY_DIR}/mix-stats.ini
                 "-DFILE_REGEX=^# Heddle statistics report: heddle run --mix sgemm\\+vecadd.*\\[mix\\]\nname = sgemm\\+vecadd\nsize = small\nmode = cycle\nworkloads = sgemm vecadd\nverified = true.*\\[workload.1\\]\nname = vecadd\nverified = true.*\\[kernel.0\\]\nworkload = 0\nkernel = sgemm_tiled.*\\[totals\\]\nkernels = 2\n"
                 -P ${HD_MIX_CHECK}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(mix_cli_stats PROPERTIES LABELS mixes TIMEOUT 180)
hd_mix_test(mix_cli_custom_file 0 "\\[vecadd#1\\] vecadd: .*\\[vecadd#2\\] vecadd: .*VERIFIED \\(2 of 2"
            run --mix vecadd+vecadd --mixes-file tests/mix/custom.ini)
hd_mix_test(mix_cli_alone 0
            "sgemm +VERIFIED .* 1 \\(1\\) +[0-9,]+ +[0-9,]+ +[0-9.]+\n.*STP +[0-9.]+ .*ANTT +[0-9.]+ "
            run --mix sgemm+vecadd --alone --quiet)
hd_mix_test(mix_cli_functional 0 "mix bfs\\+sgemm \\(small, [^)]*, functional\\): VERIFIED.*bfs +VERIFIED +11 .*batches +11\n"
            run --mix bfs+sgemm --functional --quiet)
hd_mix_test(mix_cli_alone_functional 2 "--alone compares cycles" run --mix sgemm+vecadd --alone --functional)
hd_mix_test(mix_cli_unknown_mix 2 "heddle run: unknown mix 'nope' \\(see heddle list --mixes\\)"
            run --mix nope)
hd_mix_test(mix_cli_mix_and_workload 2 "'sgemm' is not expected" run sgemm --mix sgemm+vecadd)
hd_mix_test(mix_cli_two_mixes 2 "one mix at a time" run --mix sgemm+vecadd --mix bfs+sgemm)
hd_mix_test(mix_cli_bad_size 2 "--size must be small, medium or large" run --mix sgemm+vecadd --size x)
hd_mix_test(mix_cli_missing_file 1 "nonexistent.ini: cannot read"
            run --mix a --mixes-file nonexistent.ini)
hd_mix_test(mix_cli_bad_key 1 "tests/mix/bad_key.ini:5: mix \\[sgemm\\+vecadd\\]: unknown key 'color'"
            list --mixes --mixes-file tests/mix/bad_key.ini)
hd_mix_test(mix_cli_bad_workload 1 "tests/mix/bad_workload.ini:3: mix \\[a\\+b\\]: unknown workload 'nosuchkernel'"
            run --mix a+b --mixes-file tests/mix/bad_workload.ini)
hd_mix_test(mix_cli_missing_key 1 "tests/mix/missing_key.ini:2: mix \\[sgemm\\+vecadd\\] has no 'why' key"
            list --mixes --mixes-file tests/mix/missing_key.ini)
hd_mix_test(mix_cli_one_workload 1 "tests/mix/one_workload.ini:3: mix \\[solo\\]: a mix has 2 to 4 workloads"
            list --mixes --mixes-file tests/mix/one_workload.ini)
hd_mix_test(mix_cli_twice_defined 1 "tests/mix/twice_defined.ini:7: mix \\[pair\\] is defined twice"
            list --mixes --mixes-file tests/mix/twice_defined.ini)
# }====

# {==== Ctrl-C during a mix: every client stops, the summary is printed, exit status 130 ====
# (SIGINT after 5 s: the large mix runs ~20 s of CPU, and on a loaded machine 1 s could land
# before cycle 0, with no warp instruction yet)
find_program(HD_MIX_TIMEOUT timeout)
if(HD_MIX_TIMEOUT)
  add_test(NAME mix_cli_interrupt
           COMMAND ${CMAKE_COMMAND} -DPROG=${HD_MIX_TIMEOUT}
                   "-DARGS=--preserve-status|-s|INT|5|$<TARGET_FILE:heddle>|run|--mix|sgemm+vecadd|--size|large|--quiet"
                   -DRC=130 "-DREGEX=NOT VERIFIED.*sgemm +INTERRUPTED .*vecadd +INTERRUPTED .*warp instructions +[1-9]"
                   -P ${HD_MIX_CHECK}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mix_cli_interrupt PROPERTIES LABELS mixes TIMEOUT 120)
endif()
# }====

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
# mix_bfs_vecadd is full: corun_twice (tests/corun.cmake) runs the same command in CI and checks
# its output against this test's expression and more (session 24).
hd_tier(ci "^mix_cli_"
        "^mix_(sgemm_vecadd|persistent_vecadd|reduction_backprop|pathfinder_preempter|bfs_preempter|hotspot_lbm|sgemm_vecadd_bsearch)$"
        "^mix_twice_sgemm_vecadd$")
