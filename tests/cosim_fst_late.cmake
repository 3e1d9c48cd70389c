# SPDX-License-Identifier: MIT
# Regression (issue 11): `heddle cosim --in-loop --fst F` in stress mode declared the context
# codecs' instances (made at their SM's first save) after the window's first dumped cycle; fstapi
# then dropped its value maps and fstWriterClose read them as NULL (segfault). cosim_fst.c emits
# a value change after a late declaration; the file must hold every instance and be readable.
if(NOT TARGET heddle OR NOT TARGET hd_cosim_vl)
  return()
endif()
add_test(NAME cosim_fst_late_instances
         COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat sgemm --in-loop --stress 500 --fst ${CMAKE_CURRENT_BINARY_DIR}/late.fst --window 1000:3000 && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/late.fst --instances 75 && grep -q sm14_ctx_packer ${CMAKE_CURRENT_BINARY_DIR}/late.gtkw")
set_tests_properties(cosim_fst_late_instances PROPERTIES TIMEOUT 300)

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
