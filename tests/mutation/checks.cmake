# SPDX-License-Identifier: MIT
# checks.cmake - a block's mutation checks, defined once for tests/mutation.cmake (generated
# mutants) and tests/mutation_manual.cmake (hand-written ones): the testbench's random run, plus
# the replay of the recorded vectors for the regpat blocks.
include_guard(GLOBAL)
include(${CMAKE_SOURCE_DIR}/cosim/block_meta.cmake)
function(hd_mutation_checks block out)
  set(checks --check "--seed 1 --cycles 20000")
  hd_block_meta(${block} replay replay) # configs/rtl/<b>.ini [block] (cosim/block_meta.cmake)
  if(replay)
    list(APPEND checks --check "--seed 7 --cycles 2000 --replay ${CMAKE_SOURCE_DIR}/${replay}")
  endif()
  set(${out} "${checks}" PARENT_SCOPE)
endfunction()
