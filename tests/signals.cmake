# SPDX-License-Identifier: MIT
# Signals for policies, kernel identity, admission and hints (issue 25 items 6 and 7;
# docs/hooks.md, docs/monitor.md, docs/admission.md; included by tests/CMakeLists.txt). Each
# runs tests/signals/signals.py MODE through the signals probe (model/mech/probe):
# - signals_hitmiss: loads that hit and loads that missed the L1D are told apart at the SM (the
#   hooks' load and stall events), none hits with bypass_global or the fixed memory model,
#   barrier stall events = barrier_waits, the probe changes no cycle.
# - signals_window: the monitor's windows are the differences of the cumulative counters
#   (one-cycle windows sum to the totals per measure, kernel and class; 2000-cycle windows'
#   issue = the samples' differences).
# - signals_admit: [timing] admit = launch_quota / kernel_quota change placement.
# - signals_hint: heddle run --hint reaches the CTA distributor (cta_dist = sm_mask).
# - signals_tail: a launch's last_place_cycle (the start of its tail) and the caches' hit-port
#   cycles (Lin Sec. 3.4.1; docs/monitor.md), session 19.
# - signals_repeat: every --repeat instance of a kernel has one stable kernel id (the launch
#   hook) and its analyses are made once (one per-line record per kernel).
# The unit test of the admission query's residency and the CTA-left callback is
# tests/unit/test_policy_admit.c.
if(TARGET heddle)
  foreach(m hitmiss window admit hint repeat tail)
    add_test(NAME signals_${m}
             COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/signals/signals.py $<TARGET_FILE:heddle> ${m}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(signals_${m} PROPERTIES LABELS "ci;signals" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "signals ${m} ok")
  endforeach()
endif()
