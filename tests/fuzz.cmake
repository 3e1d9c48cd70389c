# PTX front-end fuzzing (included from tests/CMakeLists.txt).
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
