# SPDX-License-Identifier: MIT
# Timing-model tests through `heddle run` (included by tests/CMakeLists.txt): the summary of a
# timed run, --functional, --stats FILE.json, --sample/--series, usage errors, and determinism
# (two runs of a workload give byte-identical JSON reports apart from the wall time).

if(NOT TARGET heddle)
  return()
endif()

set(HD_TIMING_CHECK ${CMAKE_SOURCE_DIR}/tests/cli/check.cmake)

function(hd_timing_cli name rc regex)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME timing_${name}
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> "-DARGS=${args}" -DRC=${rc}
                   "-DREGEX=${regex}" -P ${HD_TIMING_CHECK}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(timing_${name} PROPERTIES LABELS timing TIMEOUT 300)
endfunction()

# the default run is timed and prints the timing summary
hd_timing_cli(run_summary 0 "VERIFIED.*timing \\(cycle model\\):.*cycles +[1-9].*IPC.*scheduler cycles +issued"
              run vecadd --quiet)
# the two-level scheduler with a small active set never fills it with warps that wait at a
# barrier while their CTAs' other warps are pending (hotspot_r36 at 4 CTAs/SM, 6 active warps:
# it stopped with the watchdog before the active set was refreshed, policy/sm_sched.c)
hd_timing_cli(two_level_barrier 0 "VERIFIED.*cycles +[1-9]"
              run hotspot_r36 --quiet --set sm.registers=36864 --set sm.scheduler=two_level
              --set sm.sched_active_warps=6)
# --functional: no timing section
add_test(NAME timing_run_functional
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> "-DARGS=run|vecadd|--quiet|--functional"
                 -DRC=0 "-DREGEX=VERIFIED" "-DNOT_REGEX=timing \\(cycle model\\)" -P ${HD_TIMING_CHECK}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(timing_run_functional PROPERTIES LABELS timing TIMEOUT 300)
# usage errors
hd_timing_cli(sample_bad 2 "--sample wants a positive cycle count" run vecadd --sample 0)
hd_timing_cli(series_alone 2 "--series needs --sample N" run vecadd --series x.csv)
hd_timing_cli(functional_sample 2 "need the timing model" run vecadd --functional --sample 100)
# --stats FILE.json with samples; --series writes CSV
add_test(NAME timing_run_json
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle>
                 "-DARGS=run|sgemm|--quiet|--sample|500|--stats|${CMAKE_BINARY_DIR}/timing_run.json"
                 -DRC=0 -DFILE=${CMAKE_BINARY_DIR}/timing_run.json
                 "-DFILE_REGEX=^\\{\n\"run\": \\{\"workload\": \"sgemm\", \"size\": \"small\", \"verified\": true.*\"timing\": \\{.*\"config\": \\{.*\"launches\": \\[.*\"kernel\": \"sgemm.*\"sms\": \\[.*\"schedulers\": \\[.*\"lines\": \\[.*\"samples\": \\{\"every\": 500, .*\\[500, "
                 -P ${HD_TIMING_CHECK}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(timing_run_json PROPERTIES LABELS timing TIMEOUT 300)
add_test(NAME timing_run_series
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle>
                 "-DARGS=run|vecadd|--quiet|--sample|200|--series|${CMAKE_BINARY_DIR}/timing_run.csv"
                 -DRC=0 -DFILE=${CMAKE_BINARY_DIR}/timing_run.csv
                 "-DFILE_REGEX=cycle,ipc,warp_instrs,active_warps,active_ctas,running_launches,ctas_done\n0,.*\n200,"
                 -P ${HD_TIMING_CHECK}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(timing_run_series PROPERTIES LABELS timing TIMEOUT 300)
# determinism: two runs, identical reports but for the wall time
foreach(wl sgemm bfs)
  add_test(NAME timing_deterministic_${wl}
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> -DWORKLOAD=${wl}
                   -DOUT=${CMAKE_BINARY_DIR}/timing_det_${wl}
                   -P ${CMAKE_SOURCE_DIR}/tests/timing/deterministic.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(timing_deterministic_${wl} PROPERTIES LABELS timing TIMEOUT 600)
endforeach()
# [pipeline] unit_*: GPGPU-Sim 3.x's SFU_OP / ALU_SFU_OP issue (tests/timing/sfu_issue.py)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME timing_pipeline_sfu_issue
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/timing/sfu_issue.py
                   $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(timing_pipeline_sfu_issue PROPERTIES LABELS "timing;pipeline" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "sfu_issue: all checks passed")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
