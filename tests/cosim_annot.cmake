# SPDX-License-Identifier: MIT
# The co-simulation reads the kernel's shared analyses (issue 11; cosim/cosim_regpat.c): its full
# register context is the count the timing model uses, its liveness the annotation store's.
if(NOT TARGET heddle)
  return()
endif()
add_test(NAME cosim_regs_count_sgemm
         COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=sgemm -DA=36 -DB=40
                 -P ${CMAKE_CURRENT_LIST_DIR}/cosim/regs_count.cmake
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cosim_regs_count_sgemm PROPERTIES TIMEOUT 120)

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
