# SPDX-License-Identifier: MIT
# The Shieh-family preemption policies in the whole GPU ([context] preempt_policy = shieh,
# chimera, chimera_plus; model/mech/shieh/preempt_shieh.c, preempt_chimera.c; issue 14 item 3):
# - shieh_policy_persistent_<p>: persistent+vecadd, vecadd arriving at priority 1: every request
#   within its bound, both outputs verified, and no flush asked of a CTA whose flush bit refuses
#   it (persistent writes global memory: the SM counters show 0 refused, no record names a
#   refused flush).
# - shieh_policy_preempter_<p>: pathfinder+preempter (Shieh's synthetic preempting task, §5.2)
#   arriving at cycle 4000 with L_c = 3000 cycles: the policies pick the SMs whose victims leave
#   within the bound (two pathfinder CTAs switched, 2,176 cycles) where the `sm` policy's first
#   SMs (three CTAs each) miss it (shieh_policy_preempter_sm_misses: reported MISSED).
# - shieh_policy_flush_<p>: the same at cycle 16000, when pathfinder's CTAs still have their flush
#   bit: they are flushed (fastest, no bytes), none refused, both verified.
# - shieh_policy_drain_shieh: reduction+backprop, backprop at priority 1: reduction's finished
#   CTAs give the drain estimate, and shieh drains (nothing saved) where sm switches every CTA.
# - shieh_policy_dual_kernel: shieh with dual-kernel SMs (aligned allocator, concurrent kernels)
#   switches out one persistent CTA per request (the final victim set for one preempting CTA).
# - shieh_policy_determinism_<p>: the preempter mix twice and without idle-cycle skipping: same
#   cycles, context counters and records (their JSON too: utilisation and drain timings).
# - shieh_policy_records: the records' Fig 4.2 / 4.4 fields (tests/shieh_policy/records.cmake):
#   drained CTAs with both drain estimates and their true drain time, the utilisation window
#   [signal, freed); finished-TB statistics per kernel (pathfinder's first launch) let
#   chimera_plus drain in the second launch's only wave, per launch ([context]
#   kstats_per_launch) it cannot estimate and switches.
set(HD_TEST_MECHANISM shieh) # docs/testing.md: Shieh's budget
if(TARGET heddle)
  set(hd_sp_refused "FAILED|MISSED|internal:|flush refused|\\([1-9][0-9]* refused\\)")
  foreach(p shieh chimera chimera_plus)
    add_test(NAME shieh_policy_persistent_${p}
             COMMAND $<TARGET_FILE:heddle> run --mix persistent+vecadd --arrive vecadd@20000:1
                     --set context.latency_bound=20000 --set context.preempt_policy=${p}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(shieh_policy_persistent_${p} PROPERTIES LABELS "mixes" TIMEOUT 300
      PASS_REGULAR_EXPRESSION "0 flushed \\(0 refused\\).*preemption +SM [0-9]+ for vecadd .*within its bound of 20000.*VERIFIED \\(2 of 2"
      FAIL_REGULAR_EXPRESSION "${hd_sp_refused}")
    add_test(NAME shieh_policy_preempter_${p}
             COMMAND $<TARGET_FILE:heddle> run --mix pathfinder+preempter --arrive preempter@4000:1
                     --set context.latency_bound=3000 --set context.preempt_policy=${p}
                     --set sm.allocator=aligned
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(shieh_policy_preempter_${p} PROPERTIES LABELS "mixes" TIMEOUT 300
      PASS_REGULAR_EXPRESSION "preemption +SM [0-9]+ for pe_seam_rows .*within its bound of 3000.*VERIFIED \\(2 of 2"
      FAIL_REGULAR_EXPRESSION "${hd_sp_refused}")
    add_test(NAME shieh_policy_flush_${p}
             COMMAND $<TARGET_FILE:heddle> run --mix pathfinder+preempter --arrive preempter@16000:1
                     --set context.latency_bound=3000 --set context.preempt_policy=${p}
                     --set sm.allocator=aligned
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(shieh_policy_flush_${p} PROPERTIES LABELS "mixes" TIMEOUT 300
      PASS_REGULAR_EXPRESSION "[1-9][0-9]* flushed \\(0 refused\\).*by flush of pf_dynproc .*within its bound of 3000.*VERIFIED \\(2 of 2"
      FAIL_REGULAR_EXPRESSION "${hd_sp_refused}")
    add_test(NAME shieh_policy_determinism_${p}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DPOLICY=${p}
                     -DOUT=${CMAKE_CURRENT_BINARY_DIR}
                     -P ${CMAKE_CURRENT_LIST_DIR}/shieh_policy/determinism.cmake
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(shieh_policy_determinism_${p} PROPERTIES LABELS "mixes" TIMEOUT 300)
  endforeach()
  add_test(NAME shieh_policy_records
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DOUT=${CMAKE_CURRENT_BINARY_DIR}
                   -P ${CMAKE_CURRENT_LIST_DIR}/shieh_policy/records.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_policy_records PROPERTIES LABELS "mixes" TIMEOUT 300)
  add_test(NAME shieh_policy_preempter_sm_misses
           COMMAND $<TARGET_FILE:heddle> run --mix pathfinder+preempter --arrive preempter@4000:1
                   --set context.latency_bound=3000 --set context.preempt_policy=sm
                   --set sm.allocator=aligned
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_policy_preempter_sm_misses PROPERTIES LABELS "mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "MISSED its latency bound of 3000 cycles.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "FAILED|internal:")
  # With finished CTAs the predictor knows the drain time: shieh drains reduction's CTAs (no
  # instruction lost) where sm switches them (89 drained, 1 flushed, 0 bytes vs 90 switched).
  add_test(NAME shieh_policy_drain_shieh
           COMMAND $<TARGET_FILE:heddle> run --mix reduction+backprop --arrive backprop@3000:1
                   --set context.latency_bound=50000 --set context.preempt_policy=shieh
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_policy_drain_shieh PROPERTIES LABELS "mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "0 saved \\(evicted\\).*by drain of reduce_sum at cycle 30[0-9][0-9] \\(0 switched, 6 drained.*within its bound of 50000.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "${hd_sp_refused}")
  add_test(NAME shieh_policy_dual_kernel
           COMMAND $<TARGET_FILE:heddle> run --mix persistent+vecadd --arrive vecadd@20000:1
                   --set context.latency_bound=20000 --set context.preempt_policy=shieh
                   --set sm.allocator=aligned --set sm.concurrent_kernels=true
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_policy_dual_kernel PROPERTIES LABELS "mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "by switch of pt_worker at cycle [0-9]+ \\(1 switched, 0 drained, 0 flushed.*within its bound of 20000.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "${hd_sp_refused}")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "_shieh$" "^shieh_policy_(records|preempter_sm_misses|dual_kernel)$")
