# SPDX-License-Identifier: MIT
# HAWS's shadow SIMT stack and warp controller blocks (issue 30 item 4; rtl/haws_shadow_stack,
# rtl/haws_warp_ctl, tables/haws_shadow_stack.c, tables/haws_warp_ctl.c; docs/blocks/haws.md
# "Shadow stack and warp controller blocks"; included by tests/CMakeLists.txt).
#
# - rtl_{config,lint,ports}_haws_*, tb_haws_* (tests/cosim.cmake, CI): the blocks' contract
#   checks and SystemC testbenches (RTL against the C reference, every coverage bin);
#   rtl_synth_haws_*, the [si]/[small] configurations' lint, synthesis and testbenches, and the
#   mutation subsets mutation_haws_* (ci_mutation = 0): full tier.
# - haws_blocks_agree: the two C references driven by the functional model's own run-ahead
#   events (model/func/exec_ahead.c on model/mech/haws's hints, sm_ahead.c's walk and return)
#   on sgemm_tiled, mvt_rows, bsearch_keys and a divergent kernel: the shadow-stack reference
#   equals the model's shadow stack after every walk cycle, the warp controller records every
#   run-ahead issue with the model's step and rename bit and its fetch filter commits exactly the
#   model's entries; outputs equal the in-order run's, bit for bit (tests/haws/haws_blocks_agree.c).
set(HD_TEST_MECHANISM haws) # docs/testing.md: HAWS's budget
add_executable(hd_haws_blocks_agree ${CMAKE_CURRENT_SOURCE_DIR}/haws/haws_blocks_agree.c
                                    ${CMAKE_SOURCE_DIR}/model/mech/haws/haws_hints.c)
target_include_directories(hd_haws_blocks_agree PRIVATE ${CMAKE_SOURCE_DIR}/model/mech/haws
                                                        ${CMAKE_SOURCE_DIR}/model/policy)
target_link_libraries(hd_haws_blocks_agree PRIVATE hd_func hd_compiler hd_ptx hd_tables m)
add_test(NAME haws_blocks_agree COMMAND hd_haws_blocks_agree ${CMAKE_SOURCE_DIR})
set_tests_properties(haws_blocks_agree PROPERTIES LABELS "haws;blocks" TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "haws_blocks_agree: [0-9]+ checks, 0 disagreements"
                     FAIL_REGULAR_EXPRESSION "FAILED|DISAGREE")

# Tiers (tests/CMakeLists.txt, docs/testing.md): CI keeps only the blocks' lint, config and port
# checks and default testbenches (tests/cosim.cmake); the agreement test (0.3 s) is in the full
# tier with everything else (issue 30's CI budget).
hd_tier(full "^haws_blocks_agree$")
