# SPDX-License-Identifier: MIT
# Atomic outputs (issue 17, data safety; included by tests/CMakeLists.txt): outfile_check kills
# writers with SIGKILL in the middle of a write (a FILE* output such as the co-simulation record,
# an FST window with its .gtkw) and checks that the old file survives, that a completed write
# replaces it whole and leaves no temporary file; links, directories, /dev/null (< 1 s).
add_executable(hd_outfile_check ${CMAKE_CURRENT_SOURCE_DIR}/cosim/outfile_check.c)
target_link_libraries(hd_outfile_check PRIVATE hd_cosim)
add_test(NAME outfile_atomic
         COMMAND hd_outfile_check ${CMAKE_CURRENT_BINARY_DIR}/outfile_scratch)
set_tests_properties(outfile_atomic PROPERTIES LABELS robust TIMEOUT 60)

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
