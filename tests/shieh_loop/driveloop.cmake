# SPDX-License-Identifier: MIT
# driveloop.cmake - Shieh's four tables in the GPU timing loop (model/mech/shieh/shieh_loop.h) on a
# preemption mix: the C references with the RTL in lockstep (--drive ref), then the RTL's outputs
# steering the policy (--drive rtl). Both runs must verify every workload with 0 mismatches, step
# blocks against the RTL, take a preemption decision from the tables (a "preemption" record),
# and give the same cycles, block steps and preemption records.
# -DMIN_SWITCHED=N (optional): some record must switch at least N TBs on one SM (tests/shieh_kepler.cmake:
# the slots past the default sizing's 8 in use).
# cmake -DHEDDLE=... -DMIX=... -DARGS="--arrive;W@C:1;--set;K=V;..." [-DMIN_SWITCHED=N] -P driveloop.cmake
string(REPLACE "+" "\\+" mix_re "${MIX}")
foreach(drive ref rtl)
  execute_process(COMMAND ${HEDDLE} cosim --blocks shieh --in-loop --mix ${MIX} ${ARGS}
                          --drive ${drive}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "--drive ${drive}: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "mix [^\n]*: VERIFIED \\(")
    message(FATAL_ERROR "${MIX} --drive ${drive}: not every workload verified")
  endif()
  if(NOT out MATCHES "${mix_re}: verified .* ([0-9]+) cycles, .* ([0-9]+) block steps \\(([0-9]+) against RTL\\), 0 mismatches")
    message(FATAL_ERROR "${MIX} --drive ${drive}: no '0 mismatches' summary")
  endif()
  set(cycles_${drive} "${CMAKE_MATCH_1} cycles, ${CMAKE_MATCH_2} block steps")
  if(CMAKE_MATCH_3 EQUAL 0)
    message(FATAL_ERROR "${MIX}: no block step ran against the RTL")
  endif()
  string(REGEX MATCHALL "preemption +SM [0-9]+ for [^\n]*" recs_${drive} "${out}")
  if(NOT recs_${drive})
    message(FATAL_ERROR "${MIX} --drive ${drive}: no preemption request was decided")
  endif()
endforeach()
if(DEFINED MIN_SWITCHED)
  set(most 0)
  foreach(r IN LISTS recs_rtl)
    if(r MATCHES "\\(([0-9]+) switched" AND CMAKE_MATCH_1 GREATER most)
      set(most ${CMAKE_MATCH_1})
    endif()
  endforeach()
  if(most LESS MIN_SWITCHED)
    message(FATAL_ERROR "${MIX}: at most ${most} TBs switched on one SM, want ${MIN_SWITCHED}")
  endif()
  message(STATUS "${MIX}: up to ${most} TBs switched on one SM")
endif()
if(NOT cycles_ref STREQUAL cycles_rtl)
  message(FATAL_ERROR "${MIX}: --drive ref gives ${cycles_ref}, --drive rtl ${cycles_rtl}")
endif()
if(NOT recs_ref STREQUAL recs_rtl)
  message(FATAL_ERROR "${MIX}: the preemption records differ with --drive rtl")
endif()
message(STATUS "${MIX}: ${cycles_ref} with either side driving")
