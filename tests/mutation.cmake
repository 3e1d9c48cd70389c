# SPDX-License-Identifier: MIT
# mutation.cmake - mutation testing CTests (issue 16 item 1, scripts/mutate.py). mutation_<b>
# runs the 5 hardest-to-kill mutants of the last full run (testbenches/mutants/<b>.ci, killed
# by the fewest checks, latest) and 5 seeded others (10 seeded without a .ci file; never those
# in the reviewed list testbenches/mutants/<b>.equiv, nor the known survivors <b>.open of a block
# below the bar, which the full run still counts)
# through tb_<b>_mut (testbenches/mutants.cmake) with the block's CTest checks (those of
# tests/cosim.cmake): every one must be killed, so a weakened testbench fails CI. For the blocks
# whose C reference is mutated too (configs/rtl/<b>.ini [block] mutate_c = 1),
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
  # CI: the blocks whose configs/rtl/<b>.ini [block] says ci_mutation = 1 (docs/testing.md)
  hd_block_meta(${b} ci_mutation cim 0)
  set(tier full)
  if(cim)
    set(tier ci)
  endif()
  set_tests_properties(mutation_${b} PROPERTIES LABELS "${tier};mutation" TIMEOUT 120)
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
    # The subset's checks: the block's, or shorter where the full run showed that a short run
    # kills every C mutant it kills (configs/rtl/<b>.ini [block] mutation_c_check; alloc_table.c:
    # the same 151 at --cycles 1000 as at 20000; docs/verification.md)
    set(cchecks ${checks})
    hd_block_meta(${b} mutation_c_check cc)
    if(cc)
      set(cchecks --check "${cc}")
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
    set_tests_properties(mutation_${b}.c PROPERTIES LABELS "${tier};mutation" TIMEOUT 120)
    string(APPEND HD_MUT_LIST "${b}.c|$<TARGET_FILE:tb_${b}_mut>|${cl}\n")
  endif()
  hd_test_owner(${b} mutation_${b} mutation_${b}.c)
endforeach()
# The full run's inputs (scripts/mutation-run.sh): block|mutant testbench|--check|ARGS|...
if(HD_MUT_LIST)
  file(GENERATE OUTPUT ${HD_MUT_DIR}/blocks.txt CONTENT "${HD_MUT_LIST}")
endif()
