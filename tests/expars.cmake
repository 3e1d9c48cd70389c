# SPDX-License-Identifier: MIT
# EXPARS (issue 33; docs/expars.md; model/mech/expars).
# - test_expars_calc (tests/unit): the maximum-CTA calculator against the digest's Appendix A
#   (the 14 Table 3 kernels, every column, and the paper's averages).
set(HD_TEST_MECHANISM expars)
if(TEST test_expars_calc)
  set_property(TEST test_expars_calc APPEND PROPERTY LABELS expars)
endif()
hd_tier(ci "^test_expars_calc$")
