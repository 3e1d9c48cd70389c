# SPDX-License-Identifier: MIT
# inplace_loop.cmake - Lin's in-place switching with the allocation tables deciding in the timing
# loop against their RTL (heddle cosim --blocks alloc_table --in-loop --mix persistent+vecadd,
# vecadd arriving at priority 1, [context] preempt_policy = inplace): the victims are the tables'
# spill-query answers (with --drive rtl the RTL's), so both sides driving must give the same
# cycles and block steps with 0 mismatches, both workloads verified, and every SM's request met
# by switching one pt_worker CTA (the minimum victim set).
# cmake -DHEDDLE=... -P inplace_loop.cmake
foreach(drive ref rtl)
  execute_process(COMMAND ${HEDDLE} cosim --blocks alloc_table --in-loop --mix persistent+vecadd
                          --arrive vecadd@20000:1 --set context.latency_bound=20000
                          --set context.preempt_policy=inplace --set sm.concurrent_kernels=true
                          --drive ${drive}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "VERIFIED \\(2 of 2 workloads" OR
     NOT out MATCHES "verified.* ([0-9]+) cycles, .* ([0-9]+) block steps \\(([0-9]+) against RTL\\), 0 mismatches")
    message(FATAL_ERROR "--drive ${drive}: exit ${rc}\n${out}${err}\nnot verified with 0 mismatches")
  endif()
  set(res_${drive} "${CMAKE_MATCH_1} cycles, ${CMAKE_MATCH_2} block steps")
  string(REGEX MATCHALL "SM [0-9]+ for vecadd \\(launch 1\\) by switch of pt_worker at cycle [0-9]+ \\(1 switched, 0 drained" one "${out}")
  list(LENGTH one n1)
  if(n1 LESS 15 OR out MATCHES "for vecadd \\(launch 1\\) by [a-z]+ of pt_worker at cycle [0-9]+ \\(([02-9]|[1-9][0-9]+) switched")
    message(FATAL_ERROR "--drive ${drive}: ${n1} requests listed as met by one victim, or one by more\n${out}")
  endif()
  message(STATUS "--drive ${drive}: ${res_${drive}}, ${n1} requests each met by one victim")
endforeach()
if(NOT res_ref STREQUAL res_rtl)
  message(FATAL_ERROR "--drive ref gives ${res_ref}, --drive rtl ${res_rtl}")
endif()
