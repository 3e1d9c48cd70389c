# SPDX-License-Identifier: MIT
# The one-way layering of the model (style rule C10): scripts/check-layering.sh greps every
# `#include` of each layer against the layers below it (included by tests/CMakeLists.txt).
find_program(HD_BASH bash)
if(HD_BASH)
  add_test(NAME layering COMMAND ${HD_BASH} ${CMAKE_SOURCE_DIR}/scripts/check-layering.sh
           ${CMAKE_SOURCE_DIR})
  set_tests_properties(layering PROPERTIES LABELS lint TIMEOUT 120)
endif()
if(HD_BASH)
  # each rule of the core/mechanism split, planted once in a copy of the tree (docs/mechanisms.md)
  add_test(NAME layering_planted COMMAND ${HD_BASH} ${CMAKE_CURRENT_LIST_DIR}/layering/planted.sh
           ${CMAKE_SOURCE_DIR})
  set_tests_properties(layering_planted PROPERTIES LABELS "ci;lint" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "every planted violation caught")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
