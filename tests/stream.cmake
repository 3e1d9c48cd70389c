# SPDX-License-Identifier: MIT
# STREAM bandwidth test (included by tests/CMakeLists.txt, which includes every tests/*.cmake):
# mem_stream_bandwidth runs workloads/stream and its __ldcg variant stream_cg at medium size on
# configs/fermi-gtx480.ini with [mem] model = full (~15 s) and requires the bandwidth
# requirement's ">= 85% of the configured peak DRAM bandwidth" of stream_cg's read stream
# (stream_dot), a sanity >= 60% of copy and triad in both variants, and L1 bypass counted for
# stream_cg only (tests/mem/stream_bandwidth.sh, whose header says why copy and triad are lower).
# HD_STREAM_BW_EXTRA / HD_STREAM_BW_MIN_RW in the test's environment let a further test run it
# with other [dram] settings (write batching) and a higher copy/triad bound. The workload's own
# runs at small size are workload_stream, workload_stream_cg and workload_fixedmem_*
# (tests/workloads.cmake, tests/mem_workloads.cmake). Label: memory.

if(TARGET heddle)
  add_test(NAME mem_stream_bandwidth
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/mem/stream_bandwidth.sh $<TARGET_FILE:heddle>
                   configs/fermi-gtx480.ini
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mem_stream_bandwidth PROPERTIES LABELS "memory" TIMEOUT 300)
endif()
