# SPDX-License-Identifier: MIT
# The new workloads of issue 26, part B (workloads/README.md, "New stand-ins (issue 26, part B)";
# included by tests/CMakeLists.txt after tests/workloads.cmake, whose workload_<NAME> tests this
# file labels). Tiers: `ci` = the quick tier, `full` = the long tier.
# - workload_<NAME> (defined by tests/workloads.cmake, small size): labelled ci as well;
# - workload_<NAME>_medium (timing model, 5-40 s) and workload_<NAME>_large (functional model:
#   the timing model takes minutes per workload there), full tier; each verifies its output
#   against the CPU reference;
# - stress500_<NAME>, stress5000_<NAME> (tests/context.cmake) cover these workloads in stress mode.
# Every workload and variant below must be registered (a missing one is a configure error).

set(hd_wl26b_bases fwt haar1d fft inlinemath mvt scalarprod estimatepi quasirandom asianoption)
set(hd_wl26b_variants estimatepi_r24 asianoption_r24 quasirandom_r32)

get_property(hd_wl26b_registered GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  foreach(wl IN LISTS hd_wl26b_bases hd_wl26b_variants)
    if(NOT wl IN_LIST hd_wl26b_registered)
      message(FATAL_ERROR "tests/workloads_26b.cmake: workload ${wl} is not registered")
    endif()
    set_tests_properties(workload_${wl} PROPERTIES LABELS "workloads;ci")
    foreach(size medium large)
      set(mode "")
      if(size STREQUAL "large")
        set(mode --functional)
      endif()
      add_test(NAME workload_${wl}_${size}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size ${size} ${mode}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(workload_${wl}_${size} PROPERTIES LABELS "workloads;full" TIMEOUT 600
                           PASS_REGULAR_EXPRESSION ": VERIFIED"
                           FAIL_REGULAR_EXPRESSION "WRONG RESULT|FAILED|internal:")
    endforeach()
  endforeach()
endif()

# The references catch a wrong kernel: one operand changed in one PTX instruction of fwt, mvt and
# quasirandom gives WRONG RESULT (HD_WL_MISMATCH) with the first differing element located.
if(TARGET hd_workloads)
  add_executable(wl_mutant_26b ${CMAKE_CURRENT_LIST_DIR}/wl_mutant_26b.c)
  target_link_libraries(wl_mutant_26b PRIVATE hd_testutil hd_workloads hd_runtime)
  add_test(NAME wl_mutant_26b COMMAND wl_mutant_26b WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(wl_mutant_26b PROPERTIES LABELS "workloads;ci" TIMEOUT 120)
endif()

# Item 5: the measured kernel classes. list_classes (ci): `heddle list --classes` shows the
# recorded classes (GPUDuet, CCBP, Gong) of part B's workloads. classes_recorded (full): re-measuring three workloads
# gives the classes workloads/classes.ini records (fails when a timing-model change moved a class:
# rerun scripts/measure-classes.py).
if(TARGET heddle)
  add_test(NAME list_classes
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> "-DARGS=list|--classes" -DRC=0
                   "-DREGEX=WORKLOAD +GPUDUET +CCBP +NOC +DRAM +THRO +GONG +LLSTALL\n.*\nfft +[a-z+2]+ +(LS|NBI|DBI) +[0-9.]+ +[0-9.]+ +[0-9.]+ +(M|N) +[0-9.]+\n.*\nfwt +[a-z+2]+ +(LS|NBI|DBI) .*\nscalarprod +[a-z+2]+ +(LS|NBI|DBI) +[0-9.]+ +[0-9.]+ +[0-9.]+ +(M|N) +[0-9.]+\n"
                   -P ${CMAKE_CURRENT_LIST_DIR}/cli/check.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(list_classes PROPERTIES LABELS "workloads;ci;cli" TIMEOUT 60)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_FOUND)
    add_test(NAME classes_recorded
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/measure-classes.py
                     $<TARGET_FILE:heddle> --check --max-cycles 1000000 fwt scalarprod inlinemath
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(classes_recorded PROPERTIES LABELS "workloads;full" TIMEOUT 900)
  endif()
endif()
