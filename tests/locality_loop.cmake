# SPDX-License-Identifier: MIT
# Gong ch.6's blocks in the timing loop (issue 31 item 6; model/mech/locality/locality_loop.h;
# docs/blocks/locality.md "In the loop"; tests/locality/locality_loop.py):
# - locality_loop_ci: transpose (hint 1) at small size on Table 6.3's Kepler GPU with the
#   locality distributor and group scheduler, both blocks' RTL in lockstep under heddle cosim
#   --blocks locality --in-loop: verified, 0 mismatches, and the same cycles with --drive rtl and
#   with the blocks off (CI)
# - locality_loop_fault: a wrong decision on the policies' side ([locality] fault_grant,
#   fault_pick) stops the run with a located error; the blocks on (C references) change no cycle
#   (CI; no RTL needed)
# - locality_loop_standins: every Table 6.2 stand-in of experiments/locality.toml at small size,
#   each with its own hint (1: sgemm mm2 transpose, 2: stencil2d conv2d, 3: the rest) (full)
# - locality_loop_keep: the same with [timing] cta_dist_order = keep (each SM keeps its range of
#   CTAs across waves; the block's range registers and pick_cta_o) (full)
# - locality_loop_grid: the experiment's 160 locality runs (16 and 8 MSHR entries, scheduler
#   locality and lrr, cta_dist_order keep and linear) with the blocks' C references in the
#   loop: cycles unchanged (full)
# - locality_loop_fst: --fst over cycles 200-400 of transpose's loop: 56 group tables and the
#   distributor in the waveform (full)
set(HD_TEST_MECHANISM locality) # docs/testing.md: this mechanism's budget
if(TARGET heddle)
  set(hd_ll python3 ${CMAKE_CURRENT_SOURCE_DIR}/locality/locality_loop.py $<TARGET_FILE:heddle>)
  add_test(NAME locality_loop_fault COMMAND ${hd_ll} fault WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(locality_loop_fault PROPERTIES LABELS "locality" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "locality fault ok")
  add_test(NAME locality_loop_grid
           COMMAND ${hd_ll} grid small sgemm mm2 transpose stencil2d conv2d histogram scan fwt
                   bitonic mvt
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(locality_loop_grid PROPERTIES LABELS "locality" TIMEOUT 3600
                       PASS_REGULAR_EXPRESSION "locality loop ok")
  if(TARGET hd_cosim_vl)
    add_test(NAME locality_loop_ci COMMAND ${hd_ll} loop small transpose
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    add_test(NAME locality_loop_standins
             COMMAND ${hd_ll} loop small sgemm mm2 transpose stencil2d conv2d histogram scan fwt
                     bitonic mvt
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(locality_loop_ci PROPERTIES LABELS "locality;cosim" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "locality loop ok")
    set_tests_properties(locality_loop_standins PROPERTIES LABELS "locality;cosim" TIMEOUT 3600
                         PASS_REGULAR_EXPRESSION "locality loop ok")
    add_test(NAME locality_loop_keep
             COMMAND ${hd_ll} loop small order=keep sgemm mm2 transpose stencil2d conv2d histogram
                     scan fwt bitonic mvt
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(locality_loop_keep PROPERTIES LABELS "locality;cosim" TIMEOUT 3600
                         PASS_REGULAR_EXPRESSION "locality loop ok")
    # FST on request: a window of transpose's loop holds the 57 instances (56 group tables, the
    # distributor), their grants and picks in the .gtkw
    add_test(NAME locality_loop_fst
             COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks locality --in-loop transpose --config configs/kepler-gk110.ini --set timing.workload_hint=true --fst ${CMAKE_CURRENT_BINARY_DIR}/locality_loop.fst --window 200:400 && test $(grep -o '[a-z0-9_]*locality_group_sched[.]rtl[.]grant_warp_o' ${CMAKE_CURRENT_BINARY_DIR}/locality_loop.gtkw | sort -u | wc -l) -eq 56 && grep -q gpu_locality_cta_dist.rtl.pick_sm_o ${CMAKE_CURRENT_BINARY_DIR}/locality_loop.gtkw"
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(locality_loop_fst PROPERTIES LABELS "locality;cosim" TIMEOUT 300)
  endif()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): the fault test and transpose in CI, the
# stand-ins in the full tier.
hd_tier(ci "^locality_loop_ci$" "^locality_loop_fault$")
