# SPDX-License-Identifier: MIT
# Resource-specification variants (workloads/README.md, "Variants"; included by
# tests/CMakeLists.txt). Every variant is a registered workload, so tests/workloads.cmake already
# runs each at small size (workload_<NAME>, which verifies its output). Here:
# - variants_check: flags, folders, ptx.flags lines, ptxas headers and .maxnreg of every variant
#   agree (tests/variants_check.c), and no ptx.flags output is left unregistered;
# - variants_list: `heddle list --variants` groups them under their base with ptxas's resources.

if(TARGET hd_workloads AND TARGET hd_ptx)
  add_executable(variants_check ${CMAKE_CURRENT_LIST_DIR}/variants_check.c)
  target_link_libraries(variants_check PRIVATE hd_testutil hd_workloads hd_runtime hd_ptx)
  add_test(NAME variants_check COMMAND variants_check WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(variants_check PROPERTIES LABELS "workloads;variants" TIMEOUT 60)
endif()

if(TARGET heddle)
  add_test(NAME variants_list
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> "-DARGS=list|--variants" -DRC=0
                   "-DREGEX=VARIANT +OF +FLAGS +KERNEL +REGS +SHARED +LOCAL +PAPER ROW\n.*sgemm +\\(base\\) +sgemm_tiled +[0-9]+/40 +2048 +0\n.*sgemm_t32_r32 +sgemm +-DTILE=32 -DMAXREG=32 +sgemm_tiled +[0-9]+/32 +8192 +0\n.*sgemm_t8 +sgemm +-DTILE=8 +sgemm_tiled +[0-9]+/37 +512 +0\n.*\\([0-9]+ variants of [0-9]+ workloads"
                   -P ${CMAKE_CURRENT_LIST_DIR}/cli/check.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(variants_list PROPERTIES LABELS "variants" TIMEOUT 60)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
