# SPDX-License-Identifier: MIT
# CCBP's issue-rate controllers (one per SM) and bandwidth monitor (one per GPU) stepped in the
# timing loop in lockstep with the model (model/mech/ccbp/ccbp_loop.h; issue 29 item 6;
# docs/blocks/ccbp.md "In the loop"); tests/ccbp/loop.sh, CCBP pairs at small size with
# Algorithm 1 re-run every 5,000 cycles:
# - ccbp_loop_ci: pathfinder+lbm under heddle cosim --blocks ccbp --in-loop --drive rtl: verified,
#   0 mismatches, the cycles of the run without the blocks, selections and snapshot reads
#   checked; and the fault ([ccbp] blocks_fault: the IRC blocks see wrong queue positions)
#   reported as a located mismatch.
# - ccbp_loop_pairs (full tier): the twelve CCBP pairs (the eight of session 14, HG's
#   histo1024_lin22+fdtd2d_ccbp, session 16, BP_1's backprop_ccbp+cfd_ccbp, session 17, and LAV
#   and SRT in Rodinia's form, lavamd_rod_ccbp+bucketsort_rod_ccbp and srtrod's
#   lavamd+bucketsort_rod_ccbp, session 25), --drive ref and --drive rtl.
# - ccbp_loop_fst (full tier): an FST window of the 18 instances (16 IRCs, the monitor, the
#   controller).
set(HD_TEST_MECHANISM ccbp)
if(TARGET heddle AND TARGET hd_cosim_vl)
  add_test(NAME ccbp_loop_ci
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/ccbp/loop.sh $<TARGET_FILE:heddle> ci
                   pathfinder+lbm
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ccbp_loop_ci PROPERTIES LABELS "cosim" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
  add_test(NAME ccbp_loop_pairs
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/ccbp/loop.sh $<TARGET_FILE:heddle> full
                   pathfinder+lbm backprop+cfd btree+sad histogram+fdtd2d cfd+fdtd2d
                   bfs+spmv lavamd+bucketsort kmeans+lbm histo1024_lin22+fdtd2d_ccbp
                   backprop_ccbp+cfd_ccbp lavamd+bucketsort_rod_ccbp
                   lavamd_rod_ccbp+bucketsort_rod_ccbp
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ccbp_loop_pairs PROPERTIES LABELS "cosim" TIMEOUT 3600
    PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
endif()
# (hd_fstcheck is made by tests/cosim.cmake, read after this module: named, not tested)
if(TARGET heddle AND TARGET hd_cosim_vl)
  add_test(NAME ccbp_loop_fst
           COMMAND sh -c "$<TARGET_FILE:heddle> cosim --blocks ccbp --in-loop --mix pathfinder+lbm --size small --config configs/maxwell-ccbp.ini --set ccbp.profile=tests/ccbp/loop_prof.txt --set ccbp.period=5000 --fst ${CMAKE_CURRENT_BINARY_DIR}/ccbp_loop.fst --window 4900:5100 && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/ccbp_loop.fst --instances 18 && test $(grep -o 'sm[0-9]*_ccbp_irc[.]rtl[.]sel_idx_o' ${CMAKE_CURRENT_BINARY_DIR}/ccbp_loop.gtkw | sort -u | wc -l) -eq 16 && grep -q gpu_ccbp_monitor.rtl.rd_cnt_o ${CMAKE_CURRENT_BINARY_DIR}/ccbp_loop.gtkw && grep -q gpu_ccbp_ctrl.rtl.rd_data_o ${CMAKE_CURRENT_BINARY_DIR}/ccbp_loop.gtkw"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ccbp_loop_fst PROPERTIES LABELS "cosim" TIMEOUT 300)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): the --drive rtl run with the fault in CI, the
# pairs and the FST window in the full tier.
hd_tier(ci "^ccbp_loop_ci$")
