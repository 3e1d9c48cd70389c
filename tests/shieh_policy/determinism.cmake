# SPDX-License-Identifier: MIT
# determinism.cmake - a preemption policy ([context] preempt_policy) gives the same decisions and
# cycles on the same inputs: the mix twice, and once without idle-cycle skipping, give the same
# cycles, context counters and preemption records, the records' JSON included (utilisation
# integrated over the request's cycles, drain estimates and true drain times: skipping idle
# cycles must not change them).
# cmake -DHEDDLE=... -DPOLICY=... [-DOUT=dir] -P determinism.cmake
set(common run --mix pathfinder+preempter --arrive preempter@16000:1
    --set context.latency_bound=3000 --set context.preempt_policy=${POLICY}
    --set sm.allocator=aligned)
foreach(i 1 2 3)
  set(skip true)
  if(i EQUAL 3)
    set(skip false)
  endif()
  if(NOT OUT)
    set(OUT ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(js ${OUT}/shieh_det_${POLICY}_${i}.json)
  execute_process(COMMAND ${HEDDLE} ${common} --set timing.skip_idle=${skip} --stats ${js}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "VERIFIED \\(2 of 2")
    message(FATAL_ERROR "${POLICY} run ${i}: exit ${rc}\n${out}${err}")
  endif()
  string(REGEX MATCH "cycles +[0-9,]+" c "${out}")
  string(REGEX MATCH "contexts +[^\n]*" x "${out}")
  string(REGEX MATCHALL "preemption +SM[^\n]*" p "${out}")
  if(NOT p)
    message(FATAL_ERROR "${POLICY} run ${i}: no preemption request\n${out}")
  endif()
  file(READ ${js} j)
  string(JSON r GET "${j}" timing preemptions)
  string(JSON nd LENGTH "${j}" timing preemptions 0 drains)
  string(JSON uc GET "${j}" timing preemptions 0 util_cycles)
  set(d${i} "${c}; ${x}; ${p}; ${r}")
  message(STATUS "run ${i}: first record ${nd} drain observations, utilisation over ${uc} cycles")
  message(STATUS "run ${i} (skip_idle=${skip}): ${c}")
endforeach()
if(NOT d1 STREQUAL d2 OR NOT d1 STREQUAL d3)
  message(FATAL_ERROR "${POLICY}: not deterministic:\n  ${d1}\n  ${d2}\n  ${d3}")
endif()
