# SPDX-License-Identifier: MIT
# STREAM bandwidth test (included by tests/CMakeLists.txt, which includes every tests/*.cmake):
# mem_stream_bandwidth runs workloads/stream and its __ldcg variant stream_cg at medium size
# with [mem] model = full: on configs/fermi-gtx480.ini as committed (crossbar-bound, a sanity
# bound of 60% and the figures printed) and on the same GPU made DRAM-bound (crossbar at
# 1400 MHz, 64 L2 MSHRs, DRAM write batching), where every kernel must reach the requirement's
# ">= 85% of the configured peak DRAM bandwidth" (tests/mem/stream_bandwidth.sh says why).
# The workload's own runs at small size are workload_stream, workload_stream_cg and workload_fixedmem_*
# (tests/workloads.cmake, tests/mem_workloads.cmake). Label: memory.

if(TARGET heddle)
  add_test(NAME mem_stream_bandwidth
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/mem/stream_bandwidth.sh $<TARGET_FILE:heddle>
                   configs/fermi-gtx480.ini
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mem_stream_bandwidth PROPERTIES LABELS "memory" TIMEOUT 300)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
# mem_stream_bandwidth (three medium runs, ~21 s) in full since session 10 (CI at 18.7 of its 20
# minutes); workload_stream and workload_stream_cg keep the stream kernels in CI.
hd_tier(full "^mem_stream_bandwidth$")
hd_tier(ci ".")
