# SPDX-License-Identifier: MIT
# CCBP (Lin thesis ch.4, issue 29; model/mech/ccbp, docs/blocks/ccbp.md; included by
# tests/CMakeLists.txt). tests/ccbp/ccbp_test.py MODE at small size on configs/maxwell-ccbp.ini,
# every workload of the pair re-executed until a 100,000-cycle budget (--repeat all):
# - ccbp_irc: the acceptance two-kernel test (pathfinder LS + lbm bandwidth-hungry): CCBP
#   attached without quota or priority leaves the cycles unchanged; with the IRC on the LS
#   kernel's slowdown falls, the BI kernel's requests per SM-window stay within its quota of 4
#   (the IRC's count = the memory statistics' miss-queue departures of its launches), both verify.
# - ccbp_verify: backprop+cfd and cfd+fdtd2d under CTA combinations and quotas, and Algorithm 1
#   from a profile: every instance verifies, quotas hold.
# - ccbp_base: the baselines' gates (SMK's time quotas, Dai18's load limit) on pathfinder+lbm:
#   no change while they cannot bind, quotas and limits hold, every instance verifies.
# - ccbp_pair: one pair added with the rest of the Table 4.2 stand-ins (bfs+spmv) co-run under
#   Algorithm 1 from its committed experiment profile: both verify, the quotas hold.
# - ccbp_ws: Warped-Slicer's online form ([ccbp] ws_online, model/mech/ccbp/ccbp_ws.c) on
#   btree+sad: a sampling phase, one curve per application from the SMs' points, a combination
#   that fits one SM and is the rule's on the logged curves (water-filling and sum), both verify.
# - ccbp_wsmil: Dai18's limit on Warped-Slicer's online form (ws_online with mil, mil_epoch;
#   session 31) on btree+sad: a limit too high to bind changes nothing, the dynamic limit holds
#   and adapts, the phase still chooses; SMK's quotas or ctas with ws_online are refused.
# - ccbp_dmil (full tier): Dai18's dynamic memory-instruction limit adapts (halved, raised) and
#   both verify.
# - ccbp_lat2x: the LS test's doubled-latency settings double the pointer chase's L2 and DRAM hops.
# test_ccbp_alg1 (tests/unit) checks Algorithm 1 against a hand trace; test_ccbp_ctrl the
# controller block (its C reference, the model's Algorithm 1) against it.
set(HD_TEST_MECHANISM ccbp)
if(TARGET heddle)
  foreach(m irc verify base pair ws wsmil)
    add_test(NAME ccbp_${m}
             COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/ccbp/ccbp_test.py $<TARGET_FILE:heddle> ${m}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(ccbp_${m} PROPERTIES LABELS "ccbp" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "ccbp ${m} ok")
  endforeach()
  # Dai18's dynamic memory-instruction limit ([ccbp] mil_epoch; full tier)
  add_test(NAME ccbp_dmil
           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/ccbp/ccbp_test.py $<TARGET_FILE:heddle> dmil
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ccbp_dmil PROPERTIES LABELS "ccbp" TIMEOUT 600
                       PASS_REGULAR_EXPRESSION "ccbp dmil ok")
  # every point of experiments/ccbp.toml (every scheme, Dai18 limit and oracle combination) at
  # small size: both workloads verify (full tier)
  add_test(NAME ccbp_schemes_small
           COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/ccbp/ccbp_test.py $<TARGET_FILE:heddle> schemes
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ccbp_schemes_small PROPERTIES LABELS "ccbp" TIMEOUT 2400
                       PASS_REGULAR_EXPRESSION "ccbp schemes ok")
  # the LS test's doubled-latency settings: the pointer chase's L2 and DRAM hops at x2 (within 2 %)
  # after experiments/ccbp.py's calibration (docs/blocks/ccbp.md "The LS test"; a few seconds)
  add_test(NAME ccbp_lat2x
           COMMAND python3 ${CMAKE_SOURCE_DIR}/experiments/ccbp.py lat2x $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(ccbp_lat2x PROPERTIES LABELS "ccbp" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "ccbp lat2x ok")
endif()
# the class rules of experiments/ccbp.py (§2.15's rank, the 50 % thresholds) on hand-made profiles
add_test(NAME ccbp_classify
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/ccbp/classify_test.py
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(ccbp_classify PROPERTIES LABELS "ccbp" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "ccbp classify ok")
hd_tier(ci "^ccbp_(irc|verify|base|pair|ws|wsmil|lat2x|classify)$")
hd_tier(full "^ccbp_schemes_small$" "^ccbp_dmil$")
