# Fuzzing of the input formats (included from tests/CMakeLists.txt): the PTX front end, the INI
# configuration with --set, the GPGPU-Sim importer, and the compiler passes on fuzzer-made PTX.
#
# Always: fuzz_ptx_replay, the libFuzzer target linked with a plain main(), and the CTest
# `ptx_fuzz_replay` that runs it over the seed corpus (tests/ptx/good, tests/ptx/bad) and the saved
# regression inputs (tests/fuzz/regress). With -DHD_FUZZ=ON (needs clang and libFuzzer, Debian
# package libclang-rt-14-dev): fuzz_ptx, the libFuzzer binary, with the front end compiled into it
# under -fsanitize=fuzzer,address,undefined. scripts/fuzz-ptx.sh builds and runs it.
set(HD_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)

add_executable(fuzz_ptx_replay ${HD_FUZZ_DIR}/fuzz_ptx.c ${HD_FUZZ_DIR}/fuzz_replay.c)
target_link_libraries(fuzz_ptx_replay PRIVATE hd_ptx)
add_test(NAME ptx_fuzz_replay
         COMMAND fuzz_ptx_replay ${CMAKE_SOURCE_DIR}/tests/ptx/good ${CMAKE_SOURCE_DIR}/tests/ptx/bad
                 ${HD_FUZZ_DIR}/regress)

# The configuration targets (INI and --set: fuzz_config.c; GPGPU-Sim importer: fuzz_gpgpusim.c),
# replayed the same way over their seeds (scripts/fuzz-config.sh fuzzes them with libFuzzer).
add_executable(fuzz_config_replay ${HD_FUZZ_DIR}/fuzz_config.c ${HD_FUZZ_DIR}/fuzz_replay.c)
target_link_libraries(fuzz_config_replay PRIVATE hd_config)
add_test(NAME config_fuzz_replay
         COMMAND fuzz_config_replay ${HD_FUZZ_DIR}/config_seeds ${CMAKE_SOURCE_DIR}/configs
                 ${CMAKE_SOURCE_DIR}/tests/cli/bad.ini)
add_executable(fuzz_gpgpusim_replay ${HD_FUZZ_DIR}/fuzz_gpgpusim.c ${HD_FUZZ_DIR}/fuzz_replay.c)
target_link_libraries(fuzz_gpgpusim_replay PRIVATE hd_config)
add_test(NAME gpgpusim_fuzz_replay
         COMMAND fuzz_gpgpusim_replay ${HD_FUZZ_DIR}/gpgpusim_seeds ${CMAKE_SOURCE_DIR}/tests/config)
set_tests_properties(config_fuzz_replay gpgpusim_fuzz_replay PROPERTIES LABELS "fuzz;config")
# The compiler passes on fuzzer-made PTX (fuzz_compile.c; scripts/fuzz-compile.sh).
add_executable(fuzz_compile_replay ${HD_FUZZ_DIR}/fuzz_compile.c ${HD_FUZZ_DIR}/fuzz_replay.c)
target_link_libraries(fuzz_compile_replay PRIVATE hd_compiler hd_ptx)
add_test(NAME compile_fuzz_replay
         COMMAND fuzz_compile_replay ${HD_FUZZ_DIR}/compile_seeds ${CMAKE_SOURCE_DIR}/tests/ptx/good
                 ${HD_FUZZ_DIR}/regress)
set_tests_properties(compile_fuzz_replay PROPERTIES LABELS "fuzz;compiler")
# Functional execution of fuzzer-made kernels, bounded by max_instrs (fuzz_exec.c).
add_executable(fuzz_exec_replay ${HD_FUZZ_DIR}/fuzz_exec.c ${HD_FUZZ_DIR}/fuzz_replay.c)
target_link_libraries(fuzz_exec_replay PRIVATE hd_func hd_compiler hd_ptx m)
add_test(NAME exec_fuzz_replay
         COMMAND fuzz_exec_replay ${HD_FUZZ_DIR}/compile_seeds ${CMAKE_SOURCE_DIR}/tests/ptx/good
                 ${HD_FUZZ_DIR}/regress)
set_tests_properties(exec_fuzz_replay PROPERTIES LABELS "fuzz;func")

if(HD_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "HD_FUZZ=ON needs clang (configure with CC=clang)")
  endif()
  file(GLOB HD_FUZZ_PTX_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/model/ptx/*.c)
  add_executable(fuzz_ptx ${HD_FUZZ_DIR}/fuzz_ptx.c ${HD_FUZZ_PTX_SOURCES})
  target_include_directories(fuzz_ptx PRIVATE ${CMAKE_SOURCE_DIR}/model/ptx)
  set(HD_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer -g)
  target_compile_options(fuzz_ptx PRIVATE ${HD_FUZZ_FLAGS})
  target_link_options(fuzz_ptx PRIVATE ${HD_FUZZ_FLAGS})
endif()
# The timing model on fuzzer-made kernels through the runtime (fuzz_timing.c;
# scripts/fuzz-timing.sh fuzzes it with libFuzzer), replayed over the compile seeds.
add_executable(fuzz_timing_replay ${HD_FUZZ_DIR}/fuzz_timing.c ${HD_FUZZ_DIR}/fuzz_replay.c)
target_link_libraries(fuzz_timing_replay PRIVATE hd_runtime hd_ptx)
add_test(NAME timing_fuzz_replay
         COMMAND fuzz_timing_replay ${HD_FUZZ_DIR}/timing_seeds ${HD_FUZZ_DIR}/compile_seeds)
set_tests_properties(timing_fuzz_replay PROPERTIES LABELS "fuzz;timing")
if(HD_FUZZ_TIMING)
  # a build whose every library has libFuzzer's coverage (scripts/fuzz-timing.sh sets the flags)
  add_executable(fuzz_timing ${HD_FUZZ_DIR}/fuzz_timing.c)
  target_link_libraries(fuzz_timing PRIVATE hd_runtime hd_ptx)
  target_link_options(fuzz_timing PRIVATE -fsanitize=fuzzer,address,undefined)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
