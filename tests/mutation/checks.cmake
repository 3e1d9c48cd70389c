# SPDX-License-Identifier: MIT
# checks.cmake - a block's mutation checks, defined once for tests/mutation.cmake (generated
# mutants) and tests/mutation_manual.cmake (hand-written ones): the testbench's random run, plus
# the replay of the recorded vectors for the regpat blocks.
include_guard(GLOBAL)
function(hd_mutation_checks block out)
  set(checks --check "--seed 1 --cycles 20000")
  if(block MATCHES "^regpat_")
    list(APPEND checks --check
         "--seed 7 --cycles 2000 --replay ${CMAKE_SOURCE_DIR}/testbenches/vectors/regpat_replay.txt")
  endif()
  set(${out} "${checks}" PARENT_SCOPE)
endfunction()
