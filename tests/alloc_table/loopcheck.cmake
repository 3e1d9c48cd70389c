# SPDX-License-Identifier: MIT
# loopcheck.cmake - Lin's allocation tables in the timing loop (heddle cosim --blocks
# alloc_table --in-loop, stress-mode evictions, so CTAs leave and come back through the tables):
# 0 mismatches and a verified output with the C reference driving and with the RTL driving,
# the same cycles and block steps both ways, and more block steps than the register pattern
# blocks alone take (the tables did run).
# cmake -DHEDDLE=... -DWORKLOAD=... -DSTRESS=... -P loopcheck.cmake
foreach(run ref rtl base)
  if(run STREQUAL "base")
    set(args --blocks regpat --drive ref)
  else()
    set(args --blocks regpat --blocks alloc_table --drive ${run})
  endif()
  execute_process(COMMAND ${HEDDLE} cosim ${args} ${WORKLOAD} --in-loop --stress ${STRESS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${run}: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "verified.* ([0-9]+) cycles, .* ([0-9]+) block steps \\(([0-9]+) against RTL\\), 0 mismatches")
    message(FATAL_ERROR "${WORKLOAD} (${run}): not verified with 0 mismatches")
  endif()
  set(cycles_${run} ${CMAKE_MATCH_1})
  set(steps_${run} ${CMAKE_MATCH_2})
endforeach()
if(NOT cycles_ref EQUAL cycles_rtl OR NOT steps_ref EQUAL steps_rtl)
  message(FATAL_ERROR "${WORKLOAD}: --drive ref gives ${cycles_ref} cycles / ${steps_ref} steps, "
                      "--drive rtl ${cycles_rtl} / ${steps_rtl}")
endif()
if(NOT cycles_ref EQUAL cycles_base)
  message(FATAL_ERROR "${WORKLOAD}: the tables in the loop changed the cycles (${cycles_base} -> ${cycles_ref})")
endif()
math(EXPR table_steps "${steps_ref} - ${steps_base}")
if(table_steps LESS 1)
  message(FATAL_ERROR "${WORKLOAD}: no allocation-table step ran")
endif()
message(STATUS "${WORKLOAD}: ${cycles_ref} cycles either side driving; ${table_steps} table steps")
