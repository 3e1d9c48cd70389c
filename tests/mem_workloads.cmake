# SPDX-License-Identifier: MIT
# Workloads with the full memory system (included by tests/CMakeLists.txt).
#
# - workload_fixedmem_<NAME>: `heddle run NAME --size small --set mem.model=fixed` for every
#   registered workload: the output must also verify with the fixed-latency memory in place of
#   the full memory system (which is the default, so workload_<NAME> runs with it).
# - mem_determinism: two runs of a few workloads give identical cycles and memory totals.

get_property(hd_mem_workloads GLOBAL PROPERTY HD_WORKLOADS)

if(TARGET heddle)
  foreach(wl IN LISTS hd_mem_workloads)
    add_test(NAME workload_fixedmem_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set mem.model=fixed --quiet
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(workload_fixedmem_${wl} PROPERTIES LABELS "memory" TIMEOUT 120)
  endforeach()
  add_test(NAME mem_determinism
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/mem/determinism.sh $<TARGET_FILE:heddle>
                   sgemm bfs stencil2d histogram
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mem_determinism PROPERTIES LABELS "memory" TIMEOUT 300)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^workload_fixedmem_(sgemm|bfs|histogram)$" "^mem_determinism$")
