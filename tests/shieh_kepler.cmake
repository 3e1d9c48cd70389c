# SPDX-License-Identifier: MIT
# Shieh's four tables in their `kepler` configuration (configs/rtl/shieh_*.ini [kepler], Table
# 3.1's Kepler-class sizing: 15 SMs, 16 TBs and 16 candidate rows per SM, 64 positions, 4 issue
# ports) co-simulated with the whole GPU (issue 16 item 3; docs/verification.md, "Every named
# RTL configuration"). Registered only in a tree configured with all four tables at kepler
# (scripts/rtl-config-cosim.sh BUILD kepler), since the timing model's shieh loop takes the
# tables' sizes from the same hd_rtl_params.h: the GPU is then a Kepler-class one sized to match.
# - shieh_kepler_drive_<p>: pathfinder+preempter as tests/shieh_loop.cmake runs it, on
#   configs/kepler-gk110.ini with Table 3.1's 15 SMs and 48 KB of shared memory and single issue
#   per scheduler (4 schedulers x 1 = the tables' 4 issue ports); C references and RTL in
#   lockstep, then the RTL driving: both verified, 0 mismatches, same cycles and records.
# - shieh_kepler_drive_dual_kernel: persistent+vecadd on dual-kernel SMs, the same GPU.
# - shieh_kepler_drive_slots: sgemm_c4+preempter at medium size (64-thread CTAs: 16 per SM, so
#   the Running TB Status rows 8-15 and candidate bits 8-15 that the default sizing lacks are
#   written, read and steer the choice; 14 CTAs switched per preempted SM). About 45 s.
# - shieh_kepler_bad_config_message: the unmodified kepler-gk110 (4 schedulers x dual issue =
#   8 issue ports) is refused with a message naming the table's and the GPU's numbers.
set(HD_TEST_MECHANISM shieh) # docs/testing.md: Shieh's budget
set(hd_sk_all TRUE)
foreach(b shieh_tb_status shieh_alloc_pos shieh_alloc_status shieh_victim_sets)
  if(NOT "${HD_RTL_CONFIG_${b}}" STREQUAL "kepler")
    set(hd_sk_all FALSE)
  endif()
endforeach()
if(hd_sk_all AND TARGET heddle AND TARGET hd_cosim_vl)
  set(hd_sk_gpu "--config;configs/kepler-gk110.ini;--set;gpu.num_sms=15;--set;sm.shared_mem_bytes=48K;--set;pipeline.issue_width=1")
  set(hd_sk_pf "${hd_sk_gpu};--arrive;preempter@4000:1;--set;context.latency_bound=3000;--set;sm.allocator=aligned")
  foreach(p shieh chimera chimera_plus)
    add_test(NAME shieh_kepler_drive_${p}
             COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DMIX=pathfinder+preempter
                     "-DARGS=${hd_sk_pf};--set;context.preempt_policy=${p}"
                     -P ${CMAKE_CURRENT_LIST_DIR}/shieh_loop/driveloop.cmake
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(shieh_kepler_drive_${p} PROPERTIES LABELS "cosim;mixes" TIMEOUT 300)
  endforeach()
  add_test(NAME shieh_kepler_drive_dual_kernel
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DMIX=persistent+vecadd
                   "-DARGS=${hd_sk_gpu};--arrive;vecadd@20000:1;--set;context.latency_bound=20000;--set;sm.allocator=aligned;--set;sm.concurrent_kernels=true"
                   -P ${CMAKE_CURRENT_LIST_DIR}/shieh_loop/driveloop.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_kepler_drive_dual_kernel PROPERTIES LABELS "cosim;mixes" TIMEOUT 300)
  add_test(NAME shieh_kepler_drive_slots
           COMMAND ${CMAKE_COMMAND} -DHEDDLE=$<TARGET_FILE:heddle> -DMIX=sgemm_c4+preempter
                   "-DARGS=--size;medium;${hd_sk_pf};--set;context.preempt_policy=shieh"
                   -DMIN_SWITCHED=9
                   -P ${CMAKE_CURRENT_LIST_DIR}/shieh_loop/driveloop.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_kepler_drive_slots PROPERTIES LABELS "cosim;mixes" TIMEOUT 600)
  add_test(NAME shieh_kepler_bad_config_message
           COMMAND $<TARGET_FILE:heddle> run --mix pathfinder+preempter
                   --config configs/kepler-gk110.ini --set context.preempt_policy=chimera
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_kepler_bad_config_message PROPERTIES LABELS "mixes" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "key 'preempt_policy': the Running TB Status table is built for 16 CTAs per SM and 4 issue ports .*max_ctas = 16 and 4 schedulers x issue_width 2")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^shieh_kepler_bad_config_message$" "^shieh_kepler_drive_shieh$")
