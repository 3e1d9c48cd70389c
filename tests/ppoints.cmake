# SPDX-License-Identifier: MIT
# Lin's selective preemption points (issue 13 items 1 and 5; docs/context.md "Preemption
# points"; included by tests/CMakeLists.txt). The unit test is tests/unit/test_ppoints.c; the
# decoder's lint, port check, smoke synthesis and SystemC testbench come with every block
# (tests/cosim.cmake).
# - ppoints_stress_<W>: small size, [context] points = selective, stress-mode switches: output
#   verified, warps stopped at decoded points, no wait bounded, two runs identical.
# - ppoints_timeout_<W>: pp_wait_limit = 1: every wait is bounded and reported, output verified.
# - ppoints_ptx_info_*: heddle ptx-info lists the points with their live sets and words.
# - ppoints_baseline: points = any leaves cycles alone; selective adds only the pp fetch and issue
#   cost.
# - ppoints_issue_slots_<W>: a pp point's pp and dummy take exactly two issue slots each time a
#   warp issues the instruction at the point; bar.pp none (tests/ppoints/issue_slots.py).
# - ppoints_cosim_<W> / ppoints_drive_rtl_<W>: pp_decode's RTL in the timing loop, 0
#   mismatches; the RTL driving gives the same cycles.
set(HD_TEST_MECHANISM lin) # docs/testing.md: Lin's budget
if(TARGET heddle)
  foreach(w reduction sgemm bfs histogram nw backprop)
    add_test(NAME ppoints_stress_${w}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/ppoints/stress.sh $<TARGET_FILE:heddle> 2000 0.25 ${w}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(ppoints_stress_${w} PROPERTIES LABELS "stress;ppoints" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "deterministic")
  endforeach()
  foreach(w vecadd sgemm)
    add_test(NAME ppoints_timeout_${w}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/ppoints/stress.sh $<TARGET_FILE:heddle> 2000 0.25 ${w} 1
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(ppoints_timeout_${w} PROPERTIES LABELS "stress;ppoints" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "[1-9][0-9]* waits bounded.*deterministic")
  endforeach()
  add_test(NAME ppoints_ptx_info_loop_barrier COMMAND $<TARGET_FILE:heddle> ptx-info reduction
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ppoints_ptx_info_loop_barrier PROPERTIES LABELS "ppoints;cli"
    PASS_REGULAR_EXPRESSION "preemption points \\(Lin §2.5, K = 1000\\): [1-9].*PC [0-9]+ \\(line [0-9]+\\): bar.pp, innermost loop, its barrier \\(loop at PC [0-9]+\\); live [0-9]+ words.*bar.pp +0xfc8[0-9a-f]+ +live \\{R")
  add_test(NAME ppoints_ptx_info_pp COMMAND $<TARGET_FILE:heddle> ptx-info bfs
           --set context.pp_k=100 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ppoints_ptx_info_pp PROPERTIES LABELS "ppoints;cli"
    PASS_REGULAR_EXPRESSION "K = 100\\): [1-9].*pp \\+ dummy, innermost loop, fewest live words \\(loop at PC [0-9]+\\).*pp +0xfc0[0-9a-f]+ +live \\{R[^}]*\\} \\([0-9]+ registers\\).*dummy +0xfc4[0-9a-f]+ +live \\{R")
  add_test(NAME ppoints_ptx_info_bad_k COMMAND $<TARGET_FILE:heddle> ptx-info reduction
           --set context.pp_k=50 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ppoints_ptx_info_bad_k PROPERTIES LABELS "ppoints;cli" WILL_FAIL FALSE
    PASS_REGULAR_EXPRESSION "pp_k")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    foreach(w bfs reduction)
      add_test(NAME ppoints_issue_slots_${w}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/ppoints/issue_slots.py
                       $<TARGET_FILE:heddle> ${w}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(ppoints_issue_slots_${w} PROPERTIES LABELS "ppoints" TIMEOUT 300
                           PASS_REGULAR_EXPRESSION "${w}: [0-9]+ pp points")
    endforeach()
  endif()
  add_test(NAME ppoints_baseline
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/ppoints/baseline.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ppoints_baseline PROPERTIES LABELS "ppoints" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "baseline.sh: ok")
endif()
if(TARGET hd_cosim_vl)
  foreach(w reduction bfs)
    add_test(NAME ppoints_cosim_${w}
             COMMAND heddle cosim --blocks pp ${w} --in-loop)
    set_tests_properties(ppoints_cosim_${w} PROPERTIES LABELS "ppoints;cosim" TIMEOUT 300
      PASS_REGULAR_EXPRESSION "verified.*blocks in the timing loop: [1-9][0-9]* instances \\([1-9][0-9]* against RTL.*\\([1-9][0-9]* against RTL\\), 0 mismatches"
      FAIL_REGULAR_EXPRESSION "MISMATCH")
  endforeach()
  add_test(NAME ppoints_fst
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks pp bfs --in-loop --fst ${CMAKE_CURRENT_BINARY_DIR}/pp.fst --window 0:20000 && test -s ${CMAKE_CURRENT_BINARY_DIR}/pp.fst && grep -q pp_decode.ref.live_o ${CMAKE_CURRENT_BINARY_DIR}/pp.gtkw")
  set_tests_properties(ppoints_fst PROPERTIES LABELS "ppoints;cosim" TIMEOUT 300)
  foreach(w sgemm reduction)
    add_test(NAME ppoints_drive_rtl_${w}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=${w} -DSTRESS=500
                     -P ${CMAKE_CURRENT_LIST_DIR}/ppoints/driveloop.cmake)
    set_tests_properties(ppoints_drive_rtl_${w} PROPERTIES LABELS "ppoints;cosim" TIMEOUT 300)
  endforeach()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^ppoints_stress_(reduction|sgemm)$"
        "^ppoints_timeout_vecadd$"
        "^ppoints_ptx_info_"
        "^ppoints_issue_slots_bfs$"
        "^ppoints_baseline$"
        "^ppoints_cosim_reduction$"
        "^ppoints_drive_rtl_sgemm$")
