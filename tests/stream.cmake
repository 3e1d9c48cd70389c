# SPDX-License-Identifier: MIT
# STREAM bandwidth acceptance test (included by tests/CMakeLists.txt, which includes every
# tests/*.cmake): mem_stream_bandwidth runs workloads/stream and its __ldcg variant stream_cg at
# medium size on configs/fermi-gtx480.ini with [mem] model = full and requires the L1-bypassing
# copy and triad to reach >= 85% of the configured peak DRAM bandwidth, the cached ones a sane
# figure no higher (tests/mem/stream_bandwidth.sh). The workload's own runs at small size are
# workload_stream, workload_stream_cg and workload_fixedmem_* (tests/workloads.cmake,
# tests/mem_workloads.cmake). Labels: memory, and acceptance (a requirement's test: -LE acceptance
# leaves it out).

if(TARGET heddle)
  add_test(NAME mem_stream_bandwidth
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/mem/stream_bandwidth.sh $<TARGET_FILE:heddle>
                   configs/fermi-gtx480.ini
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mem_stream_bandwidth PROPERTIES LABELS "memory;acceptance" TIMEOUT 300)
endif()
