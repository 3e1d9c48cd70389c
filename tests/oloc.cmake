# SPDX-License-Identifier: MIT
# Operand locations that can miss (issue 25 items 5 and 8; docs/oloc.md; included by
# tests/CMakeLists.txt).
#
# - oloc10_<NAME>, oloc50_<NAME>: every registered workload and variant at small size under the
#   operand-location stress policy (model/policy/oloc_stress.c): registers placed at random in
#   the scratchpad, uncached in the scratchpad (a port fill) or swapped out (a memory fill),
#   moved at random cycles about every 500 cycles with rate 0.1, or every 2,000 with rate 0.5;
#   the output must verify against the CPU reference and operands must have been filled both
#   from a port and from memory. The CI tier runs the base sample (HD_CI_WORKLOADS).
# - oloc_determinism (reduction, sgemm; CI) and oloc_determinism_bfs (full): the same seed gives
#   the same cycles, oloc counters and memory statistics twice, and again without idle-cycle
#   skipping; another seed verifies too.
# - test_oloc_miss (tests/unit): a missing source filled on its port or from memory dispatches
#   at the cycle computed by hand; write ports; scratchpad banks shared with ld.shared.

get_property(hd_oloc_workloads GLOBAL PROPERTY HD_WORKLOADS)

if(TARGET heddle)
  foreach(wl IN LISTS hd_oloc_workloads)
    foreach(rate 10 50)
      if(rate EQUAL 10)
        set(period 500)
      else()
        set(period 2000)
      endif()
      add_test(NAME oloc${rate}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
                       --set oloc.stress_period=${period} --set oloc.stress_rate=0.${rate}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(oloc${rate}_${wl} PROPERTIES TIMEOUT 300
        PASS_REGULAR_EXPRESSION "VERIFIED.*operand locations +[0-9]+ policy-port reads; fills [1-9][0-9]* from ports, [1-9][0-9]* from memory"
        FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
    endforeach()
  endforeach()
  # CI: reduction and sgemm; bfs (62 % of the CPU) in the full tier (session 24)
  add_test(NAME oloc_determinism
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/oloc/determinism.sh $<TARGET_FILE:heddle> 500 0.2
                   reduction sgemm
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME oloc_determinism_bfs
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/oloc/determinism.sh $<TARGET_FILE:heddle> 500 0.2
                   bfs
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(oloc_determinism oloc_determinism_bfs PROPERTIES TIMEOUT 600)
endif()
if(TEST test_oloc_miss)
  set_property(TEST test_oloc_miss APPEND PROPERTY LABELS oloc)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): the base sample at both rates and the
# determinism test in CI, every other workload and variant in the full tier.
hd_tier(ci "^oloc(10|50)_(${HD_CI_WORKLOADS_RE})$" "^oloc_determinism$")
