# SPDX-License-Identifier: MIT
# mutation_manual.cmake - the hand-written mutants' CTests (issue 16 acceptance: "all 14 mutants
# described above are killed (a CTest replays them)"). testbenches/mutants/<b>.manual and
# <b>.c.manual hold plausible bugs written by hand (scripts/mutate_manual.py), instrumented into
# the block's mutant testbench tb_<b>_mut beside the generated mutants (testbenches/mutants.cmake).
# mutation_manual_<b> (RTL), mutation_manual_<b>.c (C reference) and mutation_manual_<b>_<cfg>
# (the RTL list in another named configuration, testbenches/mutants_manual.cmake) run every one of
# them through the block's CTest checks (those of tests/mutation.cmake): each must be killed.
# docs/verification.md, "The issue's 14 hand-made mutants".
set(HD_MUT_DIR ${CMAKE_BINARY_DIR}/mutants)
find_package(Python3 COMPONENTS Interpreter QUIET)
include(${CMAKE_CURRENT_LIST_DIR}/mutation/checks.cmake)
foreach(b ${HD_BLOCKS})
  if(NOT TARGET tb_${b}_mut)
    continue()
  endif()
  hd_mutation_checks(${b} checks)
  set(runs "")
  if(EXISTS ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.manual)
    list(APPEND runs "mutation_manual_${b}|${b}|tb_${b}_mut|${HD_MUT_DIR}/${b}.manual.mutants")
    get_target_property(cfgs tb_${b}_mut HD_MUT_MANUAL_CFGS)
    if(cfgs)
      foreach(cfg ${cfgs})
        list(APPEND runs
             "mutation_manual_${b}_${cfg}|${b}|tb_${b}_mut_${cfg}|${HD_MUT_DIR}/cfg_${cfg}/${b}.manual.mutants")
      endforeach()
    endif()
  endif()
  get_target_property(cmut tb_${b}_mut HD_MUT_C)
  if(cmut AND EXISTS ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.c.manual)
    list(APPEND runs "mutation_manual_${b}.c|${b}.c|tb_${b}_mut|${HD_MUT_DIR}/${b}.c.manual.mutants")
  endif()
  foreach(r ${runs})
    string(REPLACE "|" ";" r "${r}")
    list(GET r 0 name)
    list(GET r 1 blk)
    list(GET r 2 tb)
    list(GET r 3 list)
    add_test(NAME ${name}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/mutate.py run ${blk}
              --tb $<TARGET_FILE:${tb}> --mutants ${list} --min-ratio 1 --jobs 2 -v ${checks})
    set_tests_properties(${name} PROPERTIES LABELS "full;mutation" TIMEOUT 120)
    hd_test_owner(${b} ${name})
  endforeach()
endforeach()
