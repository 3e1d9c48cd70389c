# SPDX-License-Identifier: MIT
# Context lifecycle tests (issue 11; docs/context.md; included by tests/CMakeLists.txt).
#
# - stress500_<NAME>, stress5000_<NAME>: every registered workload and variant at small size in
#   stress mode: every 500 cycles each resident CTA is context-switched out with probability
#   0.05 (every 5,000 cycles: 0.25) and resumed on another SM; the output must still verify
#   against the CPU reference, and the run prints its eviction and resume counts. Label "stress".
# - context_determinism: the same stress seed gives the same cycles, memory statistics and
#   context counters twice, and again without idle-cycle skipping.

get_property(hd_ctx_workloads GLOBAL PROPERTY HD_WORKLOADS)

if(TARGET heddle)
  foreach(wl IN LISTS hd_ctx_workloads)
    foreach(period 500 5000)
      if(period EQUAL 500)
        set(frac 0.05)
      else()
        set(frac 0.25)
      endif()
      add_test(NAME stress${period}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
                       --set context.stress_period=${period} --set context.stress_fraction=${frac}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(stress${period}_${wl} PROPERTIES LABELS "stress" TIMEOUT 300
                           PASS_REGULAR_EXPRESSION "VERIFIED"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
    endforeach()
  endforeach()
  add_test(NAME context_determinism
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/context/determinism.sh $<TARGET_FILE:heddle> 500
                   reduction bfs sgemm
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_determinism PROPERTIES LABELS "stress" TIMEOUT 600)
endif()

# Preemption of persistent (every SM held by CTAs that never finish before the queue is empty,
# and that write memory) by a high-priority vecadd arriving at cycle 20,000, latency bound
# 20,000 cycles: a context switch frees the SMs within the bound and both outputs verify; drain
# misses the bound and says so; flush is refused for the CTAs that wrote global memory.
if(TARGET heddle)
  set(hd_pre run --mix persistent+vecadd --arrive vecadd@20000:1 --set context.latency_bound=20000 --quiet)
  add_test(NAME context_preempt_switch COMMAND $<TARGET_FILE:heddle> ${hd_pre} --set context.preempt=switch
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_preempt_switch PROPERTIES LABELS "stress;mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "contexts +60 suspended, 60 saved.*preemption +SM 0 for vecadd .*by switch of pt_worker at cycle 2000[0-9] \\([1-9][0-9]* switched, 0 drained, 0 flushed, [0-9]+ bytes saved\\): freed after [0-9]+ cycles; within its bound of 20000.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "MISSED|took no CTA there")
  add_test(NAME context_preempt_drain COMMAND $<TARGET_FILE:heddle> ${hd_pre} --set context.preempt=drain
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_preempt_drain PROPERTIES LABELS "stress;mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "preemption +SM 0 for vecadd .*by drain of pt_worker.*MISSED its latency bound of 20000 cycles.*VERIFIED \\(2 of 2")
  add_test(NAME context_preempt_flush COMMAND $<TARGET_FILE:heddle> ${hd_pre} --set context.preempt=flush
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_preempt_flush PROPERTIES LABELS "stress;mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "by flush of pt_worker.*flush refused for [1-9][0-9]* CTAs \\(they wrote global memory\\).*VERIFIED \\(2 of 2")
  add_test(NAME context_arrive_usage COMMAND $<TARGET_FILE:heddle> run --mix persistent+vecadd --arrive nosuch@5)
  set_tests_properties(context_arrive_usage PROPERTIES LABELS "stress;cli" WILL_FAIL FALSE
    PASS_REGULAR_EXPRESSION "--arrive 'nosuch@5': no workload of that name in the mix")
endif()

# A warp suspended with a load in flight gets its data after it resumed on another SM (the
# pointer chase, stress mode on every CTA); the save latency of a one-CTA context matches the
# hand computation (stores x flits per store + the path's fixed latency) within 5 %.
if(TARGET heddle)
  foreach(w chase chase_l2)
    add_test(NAME context_forward_${w}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/context/forward.sh $<TARGET_FILE:heddle> ${w} 2000
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(context_forward_${w} PROPERTIES LABELS "stress" TIMEOUT 300)
  endforeach()
  add_test(NAME context_save_latency
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/context/save_latency.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_save_latency PROPERTIES LABELS "stress" TIMEOUT 300)
endif()

# Context traffic at low priority: a co-running kernel's loads wait less than at equal priority.
if(TARGET heddle)
  add_test(NAME context_traffic_priority
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/context/priority.sh $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_traffic_priority PROPERTIES LABELS "stress;memory" TIMEOUT 300)
endif()

# What a switch writes ([context] save): live registers, and live registers through the regpat
# codec in the loop (every restored register is checked bit for bit against the saved value).
if(TARGET heddle)
  foreach(mode live compressed)
    foreach(wl sgemm bfs reduction nw histogram montecarlo)
      add_test(NAME stress_${mode}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set context.save=${mode}
                       --set context.stress_period=2000 --set context.stress_fraction=0.25
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(stress_${mode}_${wl} PROPERTIES LABELS "stress" TIMEOUT 300
                           PASS_REGULAR_EXPRESSION "VERIFIED.*contexts +[0-9]+ suspended, [1-9][0-9]* saved"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:|differs")
    endforeach()
  endforeach()
endif()

# A context saved with finished warps whose last stores are still in flight, restored through the
# compressed path (long: unpacker and decompressor) while those stores complete: the CTA must not
# retire (its context freed and reused by the next CTA, its slot taken) before the engine is done
# restoring it. Before the fix the engine then "saved" the new CTA, the context was placed a
# second time from the old saved state, an in-flight count wrapped and the run hit the watchdog.
if(TARGET heddle)
  add_test(NAME stress_compressed_restore_drain_backprop_tb64
           COMMAND $<TARGET_FILE:heddle> run backprop_tb64 --size small --set context.save=compressed
                   --set context.points=selective --set context.stress_period=2000
                   --set context.stress_fraction=0.25 --set context.stress_seed=1
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(stress_compressed_restore_drain_backprop_tb64 PROPERTIES LABELS "stress"
                       TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "VERIFIED.*contexts +[0-9]+ suspended, [1-9][0-9]* saved"
                       FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:|watchdog")
endif()

# heddle launch takes the launch attributes (a launch arriving at cycle 5000 still verifies).
if(TARGET heddle)
  add_test(NAME context_launch_arrive
           COMMAND $<TARGET_FILE:heddle> launch workloads/vecadd/vecadd.ptx vecadd --grid 4 --block 256
                   --arg buf:a:4K:zero --arg buf:b:4K:const-f32:0.5 --arg buf:c:4K:zero
                   --arg s32:1024 --arrive 5000 --priority 3 --latency-bound 100 --hint 7
                   --expect c:const-f32:0.5
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_launch_arrive PROPERTIES LABELS "stress;cli" TIMEOUT 60)
  add_test(NAME context_launch_priority_usage
           COMMAND $<TARGET_FILE:heddle> launch workloads/vecadd/vecadd.ptx vecadd --grid 1 --block 32
                   --priority high
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_launch_priority_usage PROPERTIES LABELS "stress;cli" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "--priority 'high': wants an integer priority from -1000000 to 1000000")
endif()

# Flush and restart: stress mode flushes every chosen CTA whose flush bit allows it (no global
# store or atomic yet) and switches the others; the outputs must verify and flushes must happen.
if(TARGET heddle)
  foreach(wl sgemm reduction histogram nw backprop stencil2d)
    add_test(NAME stress_flush_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set context.stress_flush=true
                     --set context.stress_period=1000 --set context.stress_fraction=0.25
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(stress_flush_${wl} PROPERTIES LABELS "stress" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED.*contexts .* [1-9][0-9]* flushed"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
# context_determinism (three workloads twice under stress, ~20 s) and context_traffic_priority
# (~10 s) are in full since session 10
# (CI at 18.7 of its 20 minutes); mem_, warp_, oloc_ and vstress_determinism stay in CI.
hd_tier(full "^context_(determinism|traffic_priority)$")
hd_tier(ci "^stress500_(${HD_CI_WORKLOADS_RE})$"
        "^stress5000_(sgemm|bfs)$"
        "^context_"
        "^stress_(live|compressed)_(sgemm|reduction)$"
        "^stress_compressed_restore_drain_backprop_tb64$"
        "^stress_flush_sgemm$")
