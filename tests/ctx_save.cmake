# SPDX-License-Identifier: MIT
# Lin's save path (issue 13; docs/context.md "what a switch writes", docs/blocks/ctx_packer.md):
# - ctx_save_modes_<W>: Occup, live and live+cp under stress mode verify, live+cp is
#   deterministic, and (sgemm) they write fewer bytes per save in that order, in the thesis's
#   layout.
# - cosim_in_loop_drive_rtl_<W> (more workloads than tests/cosim.cmake's): the regpat blocks,
#   the packer and the unpacker of every SM in the timing loop against their RTL; the RTL driving
#   gives the same cycles and block steps, 0 mismatches.
# - ctx_save_tb_<W>: save = compressed_tb (TB-level compression at barrier points, Lin 2.3.3,
#   ctx_tb.c) under stress mode with selective points verifies (every TB-level restore
#   rebuilds its global registers bit for bit), some saves are TB-level and their TB parts are
#   smaller than the warp-level records they replace (tests/context/save_tb.py).
# - cosim_in_loop_tb_<W>: the same with the regpat blocks, the packer, the unpacker and each SM's
#   TB-level classifier in the loop against their RTL (90 instances): the RTL driving gives the
#   same cycles and block steps, 0 mismatches.
set(HD_TEST_MECHANISM lin) # docs/testing.md: Lin's budget
if(TARGET heddle)
  foreach(w sgemm reduction)
    set(order "")
    if(w STREQUAL "sgemm")
      set(order ordered)
    endif()
    add_test(NAME ctx_save_modes_${w}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/context/save_modes.sh $<TARGET_FILE:heddle> ${w} ${order}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(ctx_save_modes_${w} PROPERTIES LABELS "stress" TIMEOUT 300)
  endforeach()
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    foreach(w sgemm reduction backprop hotspot)
      add_test(NAME ctx_save_tb_${w}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/context/save_tb.py
                       $<TARGET_FILE:heddle> ${w} --expect-tb
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(ctx_save_tb_${w} PROPERTIES LABELS "stress" TIMEOUT 300
                           PASS_REGULAR_EXPRESSION "${w}: VERIFIED, [0-9]+ saves .* [1-9][0-9]* TB-level")
    endforeach()
  endif()
endif()
if(TARGET hd_cosim_vl)
  foreach(w histogram nw)
    add_test(NAME cosim_in_loop_drive_rtl_${w}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=${w} -DSTRESS=500
                     -P ${CMAKE_CURRENT_LIST_DIR}/cosim/driveloop.cmake)
    set_tests_properties(cosim_in_loop_drive_rtl_${w} PROPERTIES TIMEOUT 300)
  endforeach()
  add_test(NAME cosim_in_loop_tb_sgemm
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=sgemm -DSTRESS=500
                   "-DEXTRA=--set;context.save=compressed_tb;--set;context.points=selective"
                   -DINSTANCES=105 -P ${CMAKE_CURRENT_LIST_DIR}/cosim/driveloop.cmake)
  set_tests_properties(cosim_in_loop_tb_sgemm PROPERTIES TIMEOUT 300)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "_sgemm$")
