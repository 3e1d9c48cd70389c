# SPDX-License-Identifier: MIT
# determinism.cmake - the lin_tables allocator in stress mode is deterministic: the same seed
# twice, and once without idle-cycle skipping, give the same cycles and context counters.
# cmake -DHEDDLE=... -DWORKLOAD=... -P determinism.cmake
set(common run ${WORKLOAD} --size small --set sm.allocator=lin_tables
    --set context.stress_period=500 --set context.stress_fraction=0.05 --set context.stress_seed=7)
foreach(i 1 2 3)
  set(skip true)
  if(i EQUAL 3)
    set(skip false)
  endif()
  execute_process(COMMAND ${HEDDLE} ${common} --set timing.skip_idle=${skip}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "VERIFIED")
    message(FATAL_ERROR "${WORKLOAD} run ${i}: exit ${rc}\n${out}${err}")
  endif()
  string(REGEX MATCH "cycles +[0-9]+" c "${out}")
  string(REGEX MATCH "contexts +[^\n]*" x "${out}")
  set(d${i} "${c}; ${x}")
  message(STATUS "run ${i} (skip_idle=${skip}): ${d${i}}")
endforeach()
if(NOT d1 STREQUAL d2 OR NOT d1 STREQUAL d3)
  message(FATAL_ERROR "${WORKLOAD}: not deterministic:\n  ${d1}\n  ${d2}\n  ${d3}")
endif()
