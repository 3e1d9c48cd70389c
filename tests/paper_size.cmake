# SPDX-License-Identifier: MIT
# Paper-length inputs (issue 26 item 4; workloads/README.md, "Paper-length inputs"; included by
# tests/CMakeLists.txt).
# - paper_size_alias (ci): `--size paper` runs (vecadd: its large input, functionally) and the
#   summary names the size paper;
# - paper_size_<NAME> (full): for every base workload, scripts/check-paper-size.py: at paper size
#   the main kernel launches >= 2 CTA waves on fermi-gtx480's 15 SMs in one launch and the run
#   reaches 100,000 cycles (timing model, stopped at 150,000 cycles).

get_property(hd_ps_workloads GLOBAL PROPERTY HD_WORKLOADS)
find_package(Python3 COMPONENTS Interpreter)
if(TARGET heddle)
  add_test(NAME paper_size_alias
           COMMAND $<TARGET_FILE:heddle> run vecadd --size paper --functional
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(paper_size_alias PROPERTIES LABELS "ci;workloads" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "vecadd \\(paper, [^)]*\\): VERIFIED")
  if(Python3_FOUND)
    foreach(wl IN LISTS hd_ps_workloads)
      if(NOT EXISTS ${CMAKE_SOURCE_DIR}/workloads/${wl}/) # variants share their base's length
        continue()
      endif()
      add_test(NAME paper_size_${wl}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/check-paper-size.py
                       $<TARGET_FILE:heddle> ${wl}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(paper_size_${wl} PROPERTIES LABELS "full;workloads" TIMEOUT 900
                           PASS_REGULAR_EXPRESSION "1 of 1 long enough|0 of 1 long enough at paper size, 1 known short")
    endforeach()
  endif()
endif()
