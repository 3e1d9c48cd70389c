# SPDX-License-Identifier: MIT
# Shieh's four tables (issue 14; docs/blocks/shieh.md) at their second sizing, the [kepler]
# configuration of configs/rtl/<block>.ini (Table 3.1's Kepler-class SM: 16 TBs, 64 positions):
# linted and elaborated by tests/cosim.cmake's loop over every named configuration
# (rtl_lint_kepler_<b>, rtl_synth_kepler_<b>), its testbench built by testbenches/CMakeLists.txt.

# The four tables in a cycle loop (tests/cosim/shieh_cosim.c): 15 Fermi SMs preempted by the
# synthetic kernel, the block scheduler's decisions taken from the tables' outputs, C reference
# and RTL in lockstep (0 mismatches), every read checked against the model, the same decisions
# with the RTL driving, and an FST of all 46 instances around the request.
set(HD_TEST_MECHANISM shieh) # docs/testing.md: Shieh's budget
if(TARGET hd_cosim_vl AND TARGET hd_fstcheck)
  add_executable(hd_shieh_cosim ${CMAKE_CURRENT_SOURCE_DIR}/cosim/shieh_cosim.c)
  target_link_libraries(hd_shieh_cosim PRIVATE hd_timing hd_cosim hd_cosim_vl m)
  set_target_properties(hd_shieh_cosim PROPERTIES LINKER_LANGUAGE C)
  add_test(NAME cosim_shieh_tables
           COMMAND sh -c "$<TARGET_FILE:hd_shieh_cosim> --fst ${CMAKE_CURRENT_BINARY_DIR}/shieh.fst && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/shieh.fst --instances 46")
  set_tests_properties(cosim_shieh_tables PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "MISMATCH"
                       PASS_REGULAR_EXPRESSION "same decisions, placements and cycles with --drive rtl")
endif()

# [sm] allocator = aligned (model/mech/shieh/shieh_alloc_aligned.c) in the whole GPU: stress-mode
# switching (CTAs suspended and resumed through the allocator) with verified outputs, and the
# persistent+vecadd preemption mix with vecadd arriving at a higher priority on dual-kernel SMs.
if(TARGET heddle)
  foreach(wl sgemm nw)
    add_test(NAME shieh_aligned_stress_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set sm.allocator=aligned
                     --set context.stress_period=500 --set context.stress_fraction=0.05
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(shieh_aligned_stress_${wl} PROPERTIES LABELS "stress" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED.*contexts +[1-9][0-9]* suspended"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
  add_test(NAME shieh_aligned_preempt
           COMMAND $<TARGET_FILE:heddle> run --mix persistent+vecadd --arrive vecadd@20000:1
                   --set context.latency_bound=20000 --set sm.allocator=aligned --quiet
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_aligned_preempt PROPERTIES LABELS "stress;mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "preemption +SM 0 for vecadd .*within its bound of 20000.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "MISSED|FAILED|internal:")
  # Dual-kernel SMs: the arriving kernel's CTAs go to aligned positions beside the running ones.
  add_test(NAME shieh_aligned_dual_kernel
           COMMAND $<TARGET_FILE:heddle> run --mix persistent+vecadd --arrive vecadd@20000:1
                   --set context.latency_bound=20000 --set sm.allocator=aligned
                   --set sm.concurrent_kernels=true --quiet
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_aligned_dual_kernel PROPERTIES LABELS "mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "VERIFIED \\(2 of 2" FAIL_REGULAR_EXPRESSION "MISSED|FAILED|internal:")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^cosim_shieh_tables$"
        "^shieh_aligned_stress_sgemm$"
        "^shieh_aligned_(preempt|dual_kernel)$")
