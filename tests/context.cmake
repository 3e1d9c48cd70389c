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
                   reduction bfs
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(context_determinism PROPERTIES LABELS "stress" TIMEOUT 600)
endif()
