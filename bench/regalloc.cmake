# SPDX-License-Identifier: MIT
# Compiler-pass speed (included by bench/CMakeLists.txt): `cmake --build B --target bench_regalloc_run`
# times CFG + liveness + register allocation on every workload kernel and on kernels of a few
# thousand instructions made by chaining copies of the largest ones. Not a test: it only reports.

add_executable(bench_regalloc ${CMAKE_CURRENT_LIST_DIR}/bench_regalloc.c)
target_include_directories(bench_regalloc PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit)
target_link_libraries(bench_regalloc PRIVATE hd_compiler hd_ptx)
add_custom_target(bench_regalloc_run
                  COMMAND bench_regalloc
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  DEPENDS bench_regalloc
                  COMMENT "compiler passes: time per kernel")
if(NOT TARGET bench)
  add_custom_target(bench)
endif()
add_dependencies(bench bench_regalloc_run)
