# SPDX-License-Identifier: MIT
# driveloop.cmake - with the register pattern blocks in the timing loop (heddle cosim --in-loop,
# stress-mode evictions), the RTL driving the model (--drive rtl) must give the same cycles and
# block steps as the C references driving it, with 0 mismatches and a verified output.
# cmake -DHEDDLE=... -DWORKLOAD=... -DSTRESS=... [-DEXTRA="--set;SEC.KEY=V..."]
#       [-DINSTANCES=N] -P driveloop.cmake   (INSTANCES: the block instances the run must make)
foreach(drive ref rtl)
  execute_process(COMMAND ${HEDDLE} cosim --blocks regpat ${WORKLOAD} --in-loop --stress ${STRESS}
                          --drive ${drive} ${EXTRA}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "--drive ${drive}: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "verified.* ([0-9]+) cycles, .* ([0-9]+) block steps \\(([0-9]+) against RTL\\), 0 mismatches")
    message(FATAL_ERROR "${WORKLOAD} --drive ${drive}: not verified with 0 mismatches")
  endif()
  set(cycles_${drive} "${CMAKE_MATCH_1} cycles, ${CMAKE_MATCH_2} block steps")
  if(DEFINED INSTANCES AND NOT out MATCHES "blocks in the timing loop: ${INSTANCES} instances")
    message(FATAL_ERROR "${WORKLOAD} --drive ${drive}: not ${INSTANCES} block instances")
  endif()
  if(CMAKE_MATCH_3 EQUAL 0)
    message(FATAL_ERROR "${WORKLOAD}: no block step ran against the RTL (the codec was not in the loop)")
  endif()
endforeach()
if(NOT cycles_ref STREQUAL cycles_rtl)
  message(FATAL_ERROR "${WORKLOAD}: --drive ref gives ${cycles_ref}, --drive rtl ${cycles_rtl}")
endif()
message(STATUS "${WORKLOAD}: ${cycles_ref} with either side driving")
