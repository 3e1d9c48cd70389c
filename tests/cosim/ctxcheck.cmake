# SPDX-License-Identifier: MIT
# ctxcheck.cmake - the register context sizes of `heddle regpat-stats WORKLOAD` are ordered:
# live <= full (live/full <= 100%) and warp-level compressed <= live (comp/live <= 100%), and
# both are positive. Args: -DHEDDLE=path -DWORKLOAD=name.
execute_process(COMMAND ${HEDDLE} regpat-stats ${WORKLOAD} --every 2000
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "heddle regpat-stats ${WORKLOAD} failed (${rc}):\n${out}")
endif()
string(REGEX MATCH "\\| ${WORKLOAD} \\|[^\n]*" row "${out}")
if(NOT row)
  message(FATAL_ERROR "no row for ${WORKLOAD} in:\n${out}")
endif()
string(REGEX REPLACE "^\\| " "" cells "${row}")
string(REPLACE "|" ";" cells "${cells}")
# cells: workload, live regs, uniform, strided, random, random@32, live/full, comp/full,
#        comp/live, raised, ...
list(GET cells 1 regs)
list(GET cells 6 live_full)
list(GET cells 8 comp_live)
string(REGEX REPLACE "[ %]" "" live_full "${live_full}")
string(REGEX REPLACE "[ %]" "" comp_live "${comp_live}")
string(STRIP "${regs}" regs)
if(regs LESS_EQUAL 0)
  message(FATAL_ERROR "${WORKLOAD}: no live registers sampled: ${row}")
endif()
foreach(pair "live/full;${live_full}" "comp/live;${comp_live}")
  list(GET pair 0 name)
  list(GET pair 1 v)
  if(v GREATER 100.0 OR v LESS_EQUAL 0.0)
    message(FATAL_ERROR "${WORKLOAD}: ${name} = ${v}% is outside (0, 100]: ${row}")
  endif()
endforeach()
message(STATUS "${WORKLOAD}: live/full ${live_full}%, comp/live ${comp_live}%")
