# SPDX-License-Identifier: MIT
# expars_blocks.cmake - EXPARS's RTL blocks of the arithmetic and scheduling side (issue 33 item
# 5; docs/blocks/expars_units.md): expars_cta_calc, the maximum-CTA calculator, and expars_arb,
# the bank arbitrator (its CTests likewise come from its folder: rtl_*_expars_arb and tb_expars_arb
# in CI; mutation_expars_arb[.c] and tb_expars_arb_fermi in the full tier).
# The block's own CTests come from its folder (tests/cosim.cmake: rtl_config_, rtl_lint_,
# rtl_ports_, rtl_synth_ and tb_expars_cta_calc in CI; mutation_expars_cta_calc[.c] and the other
# named configurations' lint and testbench in the full tier, configs/rtl/expars_cta_calc.ini
# ci_mutation = 0). test_expars_calc (tests/unit, tests/expars.cmake) runs the model's calculator,
# which is the block's C reference, against Appendix A and checks its latency by hand.
# Added here, full tier only:
# - expars_blocks_cta_calc_seeds: the testbench's random launches at two more seeds, 100,000
#   cycles each (about 700 calculations each), every output against the reference every cycle.
set(HD_TEST_MECHANISM expars)
if(TARGET tb_expars_cta_calc)
  add_test(NAME expars_blocks_cta_calc_seeds
           COMMAND sh -c "$<TARGET_FILE:tb_expars_cta_calc> --seed 7 --cycles 100000 && $<TARGET_FILE:tb_expars_cta_calc> --seed 11 --cycles 100000")
  set_tests_properties(expars_blocks_cta_calc_seeds PROPERTIES TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "seed 11, 0 mismatching ports"
                       FAIL_REGULAR_EXPRESSION "MISMATCH|COVERAGE FAILED|wrong")
endif()
# - expars_blocks_pref_seeds: expars_pref's testbench (the register prefetcher, issue 33 item 5;
#   docs/blocks/expars_units.md "expars_pref") at two more seeds, 100,000 cycles each.
if(TARGET tb_expars_pref)
  add_test(NAME expars_blocks_pref_seeds
           COMMAND sh -c "$<TARGET_FILE:tb_expars_pref> --seed 7 --cycles 100000 && $<TARGET_FILE:tb_expars_pref> --seed 11 --cycles 100000")
  set_tests_properties(expars_blocks_pref_seeds PROPERTIES TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "seed 11, 0 mismatching ports"
                       FAIL_REGULAR_EXPRESSION "MISMATCH|COVERAGE FAILED|wrong")
endif()
hd_tier(full "^expars_blocks_")
