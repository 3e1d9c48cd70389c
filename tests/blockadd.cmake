# SPDX-License-Identifier: MIT
# blockadd.cmake - adding a block touches no shared file (issue 23 item 3): the throwaway block
# tests/blockadd/block/ (zz_probe) is added to a copy of the tree, which is configured, and every
# list (registries, family table, synthesis discovery, targets, mutation list, CTests and their
# tiers) must name it while no file but the block's own changed (tests/blockadd/blockadd.sh). A
# configure of the whole tree, with Verilator's per-model runs: ~1-2 minutes, full tier.
add_test(NAME blockadd_no_shared_file
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/blockadd/blockadd.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/blockadd
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(blockadd_no_shared_file PROPERTIES LABELS "full;blocks" TIMEOUT 900
                     SKIP_RETURN_CODE 77 PASS_REGULAR_EXPRESSION "files touched: [0-9]+ new, 0 shared")
