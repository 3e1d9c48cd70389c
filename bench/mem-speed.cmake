# SPDX-License-Identifier: MIT
# Simulation speed with the full memory system (included by bench/CMakeLists.txt):
# `cmake --build B --target bench_mem_run` runs bench/run-bench-mem.sh (sgemm, bfs, stencil2d on
# fermi-gtx480 with [mem] model = fixed and = full; writes bench/results-mem.json). Not a test.
# (bench_sim comes from sim-speed.cmake, included after this file: targets resolve at generation.)
add_custom_target(bench_mem_run
                  COMMAND ${CMAKE_CURRENT_LIST_DIR}/run-bench-mem.sh $<TARGET_FILE:bench_sim>
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  DEPENDS bench_sim
                  USES_TERMINAL
                  COMMENT "simulation speed with the full memory system (bench/results-mem.json)")
if(NOT TARGET bench)
  add_custom_target(bench)
endif()
add_dependencies(bench bench_mem_run)
