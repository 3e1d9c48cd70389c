# SPDX-License-Identifier: MIT
# Energy-model cost (included by bench/CMakeLists.txt): `cmake --build B --target
# bench_power_run` (or the umbrella target `bench`) runs bench/run-bench-power.py, which times
# heddle run with [power] enabled = true and false (CPU time, fastest of 3) on sgemm and bfs at
# medium and stream at small, prints a table and writes bench/results-power.json. Target of
# issue 27: < 5 % with power on. Not a test: it only reports.
if(TARGET heddle)
  add_custom_target(bench_power_run
                    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/run-bench-power.py
                            $<TARGET_FILE:heddle>
                    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                    DEPENDS heddle
                    USES_TERMINAL
                    COMMENT "energy model cost: heddle run with [power] on and off")
  if(NOT TARGET bench)
    add_custom_target(bench)
  endif()
  add_dependencies(bench bench_power_run)
endif()
