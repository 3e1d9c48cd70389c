# SPDX-License-Identifier: MIT
# Lin's allocation tables (issue 13 items 3, 5; docs/blocks/alloc_table.md; included by
# tests/CMakeLists.txt). Unit tests: test_alloc_table (the block's C reference, Fig 2.4 by hand,
# brute-force minimum), test_alloc_tables_policy (the lin_tables allocator, the tables in the
# loop, a wrong answer located). Here:
# - alloc_table_stress_<NAME>: [sm] allocator = lin_tables in stress mode (every 500 cycles each
#   resident CTA is switched out with probability 0.05 and resumed elsewhere, through the
#   tables' free and alloc): the output verifies. Small sizes, a few seconds each.
# - alloc_table_determinism: same seed twice and without idle-cycle skipping: same cycles and
#   context counters.
# - alloc_table_preempt_switch: the persistent+vecadd preemption mix on lin_tables (every request
#   through the C reference instances in the loop); alloc_table_preempt_inplace: the same mix with
#   [context] preempt_policy = inplace, whose victims are the tables' spill query (1 CTA leaves).
# - alloc_table_in_loop_<NAME> (RTL): the tables' RTL in lockstep, 0 mismatches, the RTL driving
#   gives the same cycles, the tables change no cycle (tests/alloc_table/loopcheck.cmake);
#   alloc_table_fst: an FST window holds both tables of every SM, reference and RTL;
#   alloc_table_in_loop_inplace: in-place preemption whose victims are the RTL's spill-query
#   answers (--drive rtl), the same cycles as the C reference deciding
#   (tests/alloc_table/inplace_loop.cmake).
set(HD_TEST_MECHANISM lin) # docs/testing.md: Lin's budget
if(TARGET heddle)
  foreach(wl sgemm reduction bfs histogram nw backprop)
    add_test(NAME alloc_table_stress_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set sm.allocator=lin_tables
                     --set context.stress_period=500 --set context.stress_fraction=0.05
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(alloc_table_stress_${wl} PROPERTIES LABELS "stress" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED.*contexts +[1-9][0-9]* suspended"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
  add_test(NAME alloc_table_determinism
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=reduction
                   -P ${CMAKE_CURRENT_LIST_DIR}/alloc_table/determinism.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(alloc_table_determinism PROPERTIES LABELS "stress" TIMEOUT 300)
  add_test(NAME alloc_table_preempt_switch
           COMMAND $<TARGET_FILE:heddle> run --mix persistent+vecadd --arrive vecadd@20000:1
                   --set context.latency_bound=20000 --set sm.allocator=lin_tables --quiet
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(alloc_table_preempt_switch PROPERTIES LABELS "stress;mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "preemption +SM 0 for vecadd .*by switch of pt_worker .*within its bound of 20000.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "MISSED|internal:")
  # In-place switching on the tables (Lin 2.2; the lead's [context] preempt_policy = inplace asks
  # the allocator's plan_victims, here the tables' spill query): one pt_worker CTA leaves SM 0,
  # the others stay beside vecadd; both verify.
  add_test(NAME alloc_table_preempt_inplace
           COMMAND $<TARGET_FILE:heddle> run --mix persistent+vecadd --arrive vecadd@20000:1
                   --set context.latency_bound=20000 --set context.preempt_policy=inplace
                   --set sm.concurrent_kernels=true --set sm.allocator=lin_tables
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(alloc_table_preempt_inplace PROPERTIES LABELS "stress;preempt;mixes"
    TIMEOUT 300
    PASS_REGULAR_EXPRESSION "preemption +SM 0 for vecadd .*by switch of pt_worker at cycle 2000[0-9] \\(1 switched, 0 drained, 0 flushed, [0-9]+ bytes saved\\): freed after [0-9]+ cycles.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "MISSED|took no CTA there|\\([2-9] switched|internal:")
endif()
if(TARGET hd_cosim_vl)
  foreach(wl sgemm reduction)
    add_test(NAME alloc_table_in_loop_${wl}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DWORKLOAD=${wl} -DSTRESS=500
                     -P ${CMAKE_CURRENT_LIST_DIR}/alloc_table/loopcheck.cmake)
    set_tests_properties(alloc_table_in_loop_${wl} PROPERTIES TIMEOUT 300)
  endforeach()
  # The FST of a window: both tables of all 15 SMs, reference and RTL sides.
  add_test(NAME alloc_table_fst
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks alloc_table vecadd --in-loop --fst ${CMAKE_CURRENT_BINARY_DIR}/atab.fst --window 0:2000 && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/atab.fst --instances 30 && grep -q sm14_smem_alloc_table.rtl.victims_o ${CMAKE_CURRENT_BINARY_DIR}/atab.gtkw")
  set_tests_properties(alloc_table_fst PROPERTIES TIMEOUT 300)
  add_test(NAME alloc_table_in_loop_inplace
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle>
                   -P ${CMAKE_CURRENT_LIST_DIR}/alloc_table/inplace_loop.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(alloc_table_in_loop_inplace PROPERTIES TIMEOUT 300)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^alloc_table_stress_(sgemm|reduction)$"
        "^alloc_table_preempt_(switch|inplace)$"
        "^alloc_table_in_loop_sgemm$")
