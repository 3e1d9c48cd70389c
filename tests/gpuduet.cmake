# SPDX-License-Identifier: MIT
# GPUDuet, GPUDuet_TB and Virtual Thread (issue 28; Lin thesis ch.3; model/mech/gpuduet,
# docs/gpuduet.md; included by tests/CMakeLists.txt).
#
# - test_gpuduet (tests/unit): Table 3.3's classes at the thresholds, the ME controller's
#   trajectory on hand-built counter traces (docs/gpuduet.md's worked examples), the plans of
#   four kernel shapes on Table 3.1's SM, the queues.
# - gpuduet_accept: issue 28's acceptance run (tests/gpuduet/accept.sh): hotspot at ME 4 on
#   maxwell-gpuduet with 32 warp slots (max_threads 1024, so that TBs wait for room at small
#   size): warps switched out at the first use of a missed load, loads landing while their warp
#   is absent, swaps with ready warps, warps switched out at barriers and barriers completing
#   with warps absent (§2.9 option 2), every warp back, the static compressed register size
#   never below the regpat compressor's on the switched-out warps, the output verified.
# - gpuduet_verify_ci / gpuduet_verify_me<N>: workloads verify with gpuduet, vt and gpuduet_tb
#   (CI: five workloads at ME 2; full tier: every workload at ME 1 and 4).
# - gpuduet_dynamic: the throughput monitor and ME controller in a run long enough for windows
#   (full tier).
# - gpuduet_config: logical capacities refused with an allocator that cannot place partial CTAs.
set(HD_TEST_MECHANISM gpuduet)
get_property(hd_gd_workloads GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  add_test(NAME gpuduet_accept
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/accept.sh $<TARGET_FILE:heddle> hotspot 4
                   --set sm.max_threads=1024
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_accept PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION "accept.sh: OK")
  add_test(NAME gpuduet_verify_ci
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/verify.sh $<TARGET_FILE:heddle> 2
                   gpuduet,vt,gpuduet_tb vecadd sgemm reduction hotspot backprop
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_verify_ci PROPERTIES TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "verify.sh: all verified")
  foreach(me 1 4)
    add_test(NAME gpuduet_verify_me${me}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/verify.sh $<TARGET_FILE:heddle> ${me}
                     gpuduet,vt,gpuduet_tb ${hd_gd_workloads}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_verify_me${me} PROPERTIES TIMEOUT 3600
                         PASS_REGULAR_EXPRESSION "verify.sh: all verified")
  endforeach()
  add_test(NAME gpuduet_dynamic
           COMMAND $<TARGET_FILE:heddle> run bfs --size small --config configs/maxwell-gpuduet.ini
                   --set sm.allocator=gpuduet --set sm.logical_warps=128
                   --set gpuduet.log=${CMAKE_CURRENT_BINARY_DIR}/gpuduet_dynamic.log
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_dynamic PROPERTIES TIMEOUT 300 PASS_REGULAR_EXPRESSION "VERIFIED"
                       FAIL_REGULAR_EXPRESSION "FAILED|internal:")
endif()
hd_tier(ci "^gpuduet_accept$" "^gpuduet_verify_ci$")
