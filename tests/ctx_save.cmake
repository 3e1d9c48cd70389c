# SPDX-License-Identifier: MIT
# Lin's save path (issue 13; docs/context.md "what a switch writes", docs/blocks/ctx_packer.md):
# - ctx_save_modes_<W>: Occup, live and live+cp under stress mode verify, live+cp is
#   deterministic, and (sgemm) they write fewer bytes per save in that order, in the thesis's
#   layout.
# - cosim_in_loop_drive_rtl_<W> (more workloads than tests/cosim.cmake's): the regpat blocks,
#   the packer and the unpacker of every SM in the timing loop against their RTL; the RTL driving
#   gives the same cycles and block steps, 0 mismatches.
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
endif()
if(TARGET hd_cosim_vl)
  foreach(w histogram nw)
    add_test(NAME cosim_in_loop_drive_rtl_${w}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=${w} -DSTRESS=500
                     -P ${CMAKE_CURRENT_LIST_DIR}/cosim/driveloop.cmake)
    set_tests_properties(cosim_in_loop_drive_rtl_${w} PROPERTIES TIMEOUT 300)
  endforeach()
endif()
