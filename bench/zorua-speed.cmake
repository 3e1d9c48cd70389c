# SPDX-License-Identifier: MIT
# Simulation speed of the Zorua study's paper-size runs (included by bench/CMakeLists.txt; issue
# 32, docs/zorua.md "Session 25: simulation speed on the paper-size runs"):
# `cmake --build B --target bench_zorua_run` runs bench/run-bench-zorua.sh on heddle (SSSP r24 x
# 512 at --size waves3 on Kepler under Baseline, WLM and Zorua; POINTS=waves or all in the
# environment for more), CPU seconds and KIPS per run, writes bench/results-zorua.json. Two
# binaries (bench/run-bench-zorua.sh NEW OLD) are run back to back and must give the same
# statistics. Not a test: it only reports.
if(TARGET heddle)
  add_custom_target(bench_zorua_run
                    COMMAND ${CMAKE_CURRENT_LIST_DIR}/run-bench-zorua.sh $<TARGET_FILE:heddle>
                    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                    DEPENDS heddle
                    USES_TERMINAL
                    COMMENT "Zorua paper-size simulation speed (bench/results-zorua.json)")
  if(NOT TARGET bench)
    add_custom_target(bench)
  endif()
  add_dependencies(bench bench_zorua_run)
endif()
