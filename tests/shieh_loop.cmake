# SPDX-License-Identifier: MIT
# Shieh's four tables in the GPU timing loop (model/mech/shieh/shieh_loop.h; issue 14 item 5;
# docs/blocks/shieh.md "In the GPU"): the preemption policies decide from the tables' reads.
# - shieh_loop_drive_<p>: pathfinder+preempter (the synthetic preempting task at cycle 4000,
#   L_c = 3000, aligned allocator) under heddle cosim --blocks shieh --in-loop, C references and
#   RTL in lockstep then the RTL driving: both verified, 0 mismatches, same cycles, block steps
#   and preemption records (tests/shieh_loop/driveloop.cmake). shieh: all four tables; chimera,
#   chimera_plus: the Running TB Status.
# - shieh_loop_drive_dual_kernel: persistent+vecadd on dual-kernel SMs (concurrent kernels):
#   the candidate rows read back from the victim sets choose one persistent CTA per SM.
# - shieh_loop_fst: an FST window around the request holds the 46 table instances (15 SMs x 3 +
#   the GPU's allocation status; 66 scopes with the codec and controller blocks the saves make),
#   the status, rows and issued reads visible in the .gtkw.
# - shieh_loop_bad_config: a GPU with more CTAs per SM than the tables are built for is refused
#   with a message naming the key and the table (its numbers are the default sizing's; a tree
#   built with the kepler tables runs tests/shieh_kepler.cmake's instead).
set(HD_TEST_MECHANISM shieh) # docs/testing.md: Shieh's budget
if(TARGET heddle AND TARGET hd_cosim_vl)
  set(hd_sl_pf "--arrive;preempter@4000:1;--set;context.latency_bound=3000;--set;sm.allocator=aligned")
  foreach(p shieh chimera chimera_plus)
    add_test(NAME shieh_loop_drive_${p}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DMIX=pathfinder+preempter
                     "-DARGS=${hd_sl_pf};--set;context.preempt_policy=${p}"
                     -P ${CMAKE_CURRENT_LIST_DIR}/shieh_loop/driveloop.cmake
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(shieh_loop_drive_${p} PROPERTIES LABELS "cosim;mixes" TIMEOUT 300)
  endforeach()
  add_test(NAME shieh_loop_drive_dual_kernel
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DMIX=persistent+vecadd
                   "-DARGS=--arrive;vecadd@20000:1;--set;context.latency_bound=20000;--set;sm.allocator=aligned;--set;sm.concurrent_kernels=true"
                   -P ${CMAKE_CURRENT_LIST_DIR}/shieh_loop/driveloop.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_loop_drive_dual_kernel PROPERTIES LABELS "cosim;mixes" TIMEOUT 300)
  add_test(NAME shieh_loop_fst
           COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks shieh --in-loop --mix pathfinder+preempter --arrive preempter@4000:1 --set context.latency_bound=3000 --set sm.allocator=aligned --fst ${CMAKE_CURRENT_BINARY_DIR}/shieh_loop.fst --window 3990:4100 && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/shieh_loop.fst --instances 66 && test $(grep -o '[a-z0-9]*_shieh_[a-z_]*[.]rtl[.]' ${CMAKE_CURRENT_BINARY_DIR}/shieh_loop.gtkw | sort -u | wc -l) -eq 46 && grep -q gpu_shieh_alloc_status.rtl.rd_issued_o ${CMAKE_CURRENT_BINARY_DIR}/shieh_loop.gtkw && grep -q sm14_shieh_victim_sets.rtl.rd_bits_o ${CMAKE_CURRENT_BINARY_DIR}/shieh_loop.gtkw && grep -q sm0_shieh_tb_status.rtl.rd_instr_o ${CMAKE_CURRENT_BINARY_DIR}/shieh_loop.gtkw"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_loop_fst PROPERTIES LABELS "cosim;mixes" TIMEOUT 300)
endif()
if(TARGET heddle AND NOT "${HD_RTL_CONFIG_shieh_tb_status}" STREQUAL "kepler")
  add_test(NAME shieh_loop_bad_config
           COMMAND $<TARGET_FILE:heddle> run --mix pathfinder+preempter --set sm.max_ctas=16
                   --set context.preempt_policy=chimera
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_loop_bad_config PROPERTIES LABELS "mixes" TIMEOUT 60
    WILL_FAIL TRUE)
  add_test(NAME shieh_loop_bad_config_message
           COMMAND $<TARGET_FILE:heddle> run --mix pathfinder+preempter --set sm.max_ctas=16
                   --set context.preempt_policy=chimera
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_loop_bad_config_message PROPERTIES LABELS "mixes" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "key 'preempt_policy': the Running TB Status table is built for 8 CTAs per SM and 2 issue ports .*max_ctas = 16")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^shieh_loop_drive_shieh$" "^shieh_loop_bad_config")
