# SPDX-License-Identifier: MIT
# The HAWS blocks in the timing loop (issue 30 item 4; model/mech/haws/haws_loop.h;
# docs/blocks/haws.md "The blocks in the loop"; tests/haws/haws_loop.py): the RCU, the rename
# table, the shadow SIMT stack and the warp controller, one each per warp slot.
# - haws_loop_ci: sgemm at small size on the Kepler configuration cut to 2 SMs with HAWS on, the
#   four blocks' RTL in lockstep under heddle cosim --blocks haws --in-loop --drive rtl: verified,
#   0 mismatches, the same cycles as with the blocks off; then the fault runs (each of the four
#   blocks stops a run with a located mismatch) (CI)
# - haws_loop_<W>: each base workload at small size the same way (full)
# - haws_loop_grid: every workload at small size with the blocks' C references in the loop under
#   GTO, LRR and warped pre-execution: verified, 0 mismatches, cycles unchanged (full)
# - haws_loop_fst: --fst over a window of sgemm's loop (2 SMs): the four blocks' instances in the
#   waveform (full)
# - haws_loop_backedge: with back-edge windows ([haws] back_edges, the experiment's setting) the
#   three experiment stand-ins that have them (bsearch, fwt, scalarprod) at small size, in the loop
#   and with --drive rtl: 0 mismatches, cycles unchanged (full; the warp controller's window
#   first PC, trig_first_i)
# - haws_loop_grid_backedge: the experiment's 13 stand-ins (experiments/haws.toml) with back-edge
#   windows, the blocks' C references in the loop under GTO, LRR and warped pre-execution (full)
set(HD_TEST_MECHANISM haws) # docs/testing.md: HAWS's budget
get_property(hd_hl_workloads GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  set(hd_hl python3 ${CMAKE_CURRENT_SOURCE_DIR}/haws/haws_loop.py $<TARGET_FILE:heddle>)
  add_test(NAME haws_loop_fault COMMAND ${hd_hl} fault sgemm WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(haws_loop_fault PROPERTIES LABELS "haws" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "haws fault ok")
  add_test(NAME haws_loop_grid COMMAND ${hd_hl} grid small ${hd_hl_workloads}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(haws_loop_grid PROPERTIES LABELS "haws" TIMEOUT 7200
                       PASS_REGULAR_EXPRESSION "haws loop ok")
  add_test(NAME haws_loop_grid_backedge
           COMMAND ${hd_hl} grid small bsearch bitonic dct8x8 haar1d fft fwt sgemm transpose scan
                   reduction conv2d scalarprod inlinemath -- --set haws.back_edges=true
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(haws_loop_grid_backedge PROPERTIES LABELS "haws" TIMEOUT 1800
                       PASS_REGULAR_EXPRESSION "haws loop ok")
  if(TARGET hd_cosim_vl)
    add_test(NAME haws_loop_ci
             COMMAND sh -c "python3 ${CMAKE_CURRENT_SOURCE_DIR}/haws/haws_loop.py $<TARGET_FILE:heddle> rtl small sgemm -- --set gpu.num_sms=2 && python3 ${CMAKE_CURRENT_SOURCE_DIR}/haws/haws_loop.py $<TARGET_FILE:heddle> fault sgemm -- --set gpu.num_sms=2"
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(haws_loop_ci PROPERTIES LABELS "haws;cosim" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "haws fault ok")
    foreach(wl sgemm mvt reduction vecadd transpose scalarprod)
      add_test(NAME haws_loop_${wl} COMMAND ${hd_hl} loop small ${wl}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(haws_loop_${wl} PROPERTIES LABELS "haws;cosim" TIMEOUT 1800
                           PASS_REGULAR_EXPRESSION "haws loop ok")
    endforeach()
    add_test(NAME haws_loop_fst
             COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks haws --in-loop sgemm --size small --config configs/kepler-gk110.ini --set gpu.num_sms=2 --set haws.enable=true --fst ${CMAKE_CURRENT_BINARY_DIR}/haws_loop.fst --window 0:2000 && grep -q 'haws_rcu[.]rtl[.]count_o' ${CMAKE_CURRENT_BINARY_DIR}/haws_loop.gtkw && grep -q 'haws_rename[.]rtl[.]rd_hit_o' ${CMAKE_CURRENT_BINARY_DIR}/haws_loop.gtkw && grep -q 'haws_shadow_stack[.]rtl[.]top_pc_o' ${CMAKE_CURRENT_BINARY_DIR}/haws_loop.gtkw && grep -q 'haws_warp_ctl[.]rtl[.]mode_o' ${CMAKE_CURRENT_BINARY_DIR}/haws_loop.gtkw"
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(haws_loop_fst PROPERTIES LABELS "haws;cosim" TIMEOUT 600)
    add_test(NAME haws_loop_backedge
             COMMAND ${hd_hl} loop small bsearch fwt scalarprod -- --set haws.back_edges=true
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(haws_loop_backedge PROPERTIES LABELS "haws;cosim" TIMEOUT 1800
                         PASS_REGULAR_EXPRESSION "haws loop ok")
  endif()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): one --drive rtl run and the fault run in CI.
hd_tier(ci "^haws_loop_ci$")
