# SPDX-License-Identifier: MIT
# Simulation speed (included by bench/CMakeLists.txt): `cmake --build B --target bench_sim_run`
# (or the umbrella target `bench`) runs bench/run-bench.sh, which measures KIPS (thousand warp
# instructions per second of simulation time) of sgemm, bfs and stencil2d on fermi-gtx480 in
# timing and functional mode and peak memory, prints a table and writes bench/results.json.
# Not a test: it only reports. bench_sim times only the runtime's synchronizing calls, which it
# wraps at link time (see bench_sim.c).

add_executable(bench_sim ${CMAKE_CURRENT_LIST_DIR}/bench_sim.c)
target_link_libraries(bench_sim PRIVATE hd_workloads hd_runtime hd_timing hd_func hd_compiler
                      hd_ptx hd_config m)
target_link_options(bench_sim PRIVATE
                    "LINKER:--wrap=hd_synchronize" "LINKER:--wrap=hd_stream_synchronize")
add_custom_target(bench_sim_run
                  COMMAND ${CMAKE_CURRENT_LIST_DIR}/run-bench.sh $<TARGET_FILE:bench_sim>
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  DEPENDS bench_sim
                  USES_TERMINAL
                  COMMENT "simulation speed: KIPS and peak memory (bench/results.json)")
if(NOT TARGET bench)
  add_custom_target(bench)
endif()
add_dependencies(bench bench_sim_run)
