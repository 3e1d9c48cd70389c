# SPDX-License-Identifier: MIT
# mutation.cmake - mutation testing CTests (issue 16 item 1, scripts/mutate.py). mutation_<b>
# runs the 5 hardest-to-kill mutants of the last full run (testbenches/mutants/<b>.ci, killed
# by the fewest checks, latest) and 5 seeded others (10 seeded without a .ci file; never those
# in the reviewed list testbenches/mutants/<b>.equiv, nor the known survivors <b>.open of a block
# below the bar, which the full run still counts)
# through tb_<b>_mut (testbenches/mutants.cmake) with the block's CTest checks (those of
# tests/cosim.cmake): every one must be killed, so a weakened testbench fails CI. For the blocks
# whose C reference is mutated too (HD_MUT_C_BLOCKS in testbenches/mutants.cmake),
# mutation_<b>.c does the same with the C reference's mutants. The full run:
# scripts/mutation-run.sh BUILD (docs/verification.md, Mutation testing).
set(HD_MUT_DIR ${CMAKE_BINARY_DIR}/mutants)
set(HD_MUT_LIST "")
find_package(Python3 COMPONENTS Interpreter QUIET)
include(${CMAKE_CURRENT_LIST_DIR}/mutation/checks.cmake)
foreach(b ${HD_BLOCKS})
  if(NOT TARGET tb_${b}_mut)
    continue()
  endif()
  hd_mutation_checks(${b} checks)
  set(ci "")
  set(nsample 10)
  if(EXISTS ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.ci) # the 5 hardest of the last full run
    set(ci --ci ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.ci)
    set(nsample 5)
  endif()
  add_test(NAME mutation_${b}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/mutate.py run ${b}
            --tb $<TARGET_FILE:tb_${b}_mut> --mutants ${HD_MUT_DIR}/${b}.mutants
            --equiv ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.equiv
            --open ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.open ${ci} --sample ${nsample}
            --seed 1 --jobs 2 ${checks})
  set_tests_properties(mutation_${b} PROPERTIES TIMEOUT 120)
  string(REPLACE ";" "|" cl "${checks}")
  string(APPEND HD_MUT_LIST "${b}|$<TARGET_FILE:tb_${b}_mut>|${cl}\n")
  get_target_property(cmut tb_${b}_mut HD_MUT_C)
  if(cmut) # the C reference's mutants (scripts/mutate_c.py, testbenches/mutants.cmake)
    set(ci "")
    set(nsample 10)
    if(EXISTS ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.c.ci)
      set(ci --ci ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.c.ci)
      set(nsample 5)
    endif()
    # The subset's checks: the block's, shorter where the full run showed that a short run kills
    # every C mutant it kills (alloc_table.c: the same 151 at --cycles 1000 as at 20000; a 20000-
    # cycle run of its -O0 mutant testbench takes 4 s; docs/verification.md)
    set(cchecks ${checks})
    if(b STREQUAL "alloc_table")
      set(cchecks --check "--seed 1 --cycles 2000")
    endif()
    get_target_property(mc tb_${b}_mut HD_MUT_MEMCHECK) # ASan/UBSan, for the .c.ci entries it kills
    set(mem "")
    if(mc)
      set(mem --memcheck-tb $<TARGET_FILE:${mc}>)
    endif()
    add_test(NAME mutation_${b}.c
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/mutate.py run ${b}.c
              --tb $<TARGET_FILE:tb_${b}_mut> --mutants ${HD_MUT_DIR}/${b}.c.mutants ${mem}
              --equiv ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.c.equiv
              --open ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.c.open ${ci} --sample ${nsample}
              --seed 1 --jobs 2 ${cchecks})
    set_tests_properties(mutation_${b}.c PROPERTIES TIMEOUT 120)
    string(APPEND HD_MUT_LIST "${b}.c|$<TARGET_FILE:tb_${b}_mut>|${cl}\n")
  endif()
endforeach()
# The full run's inputs (scripts/mutation-run.sh): block|mutant testbench|--check|ARGS|...
if(HD_MUT_LIST)
  file(GENERATE OUTPUT ${HD_MUT_DIR}/blocks.txt CONTENT "${HD_MUT_LIST}")
endif()
