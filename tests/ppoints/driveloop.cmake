# SPDX-License-Identifier: MIT
# driveloop.cmake - Lin's pp_decode (and the register pattern codec) in the timing loop with
# selective preemption points and stress-mode switches: the RTL driving the model (--drive rtl)
# must give the same cycles and block steps as the C references, 0 mismatches, output verified.
# cmake -DHEDDLE=... -DWORKLOAD=... -DSTRESS=... -P driveloop.cmake
foreach(drive ref rtl)
  execute_process(COMMAND ${HEDDLE} cosim --blocks pp ${WORKLOAD} --in-loop --stress ${STRESS}
                          --drive ${drive}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "--drive ${drive}: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "verified.* ([0-9]+) cycles, .* ([0-9]+) block steps \\(([0-9]+) against RTL\\), 0 mismatches")
    message(FATAL_ERROR "${WORKLOAD} --drive ${drive}: not verified with 0 mismatches")
  endif()
  set(cycles_${drive} "${CMAKE_MATCH_1} cycles, ${CMAKE_MATCH_2} block steps")
  if(CMAKE_MATCH_3 EQUAL 0)
    message(FATAL_ERROR "${WORKLOAD}: no block step ran against the RTL")
  endif()
endforeach()
if(NOT cycles_ref STREQUAL cycles_rtl)
  message(FATAL_ERROR "${WORKLOAD}: --drive ref gives ${cycles_ref}, --drive rtl ${cycles_rtl}")
endif()
message(STATUS "${WORKLOAD}: ${cycles_ref} with either side driving")
