# SPDX-License-Identifier: MIT
# twice.cmake - run a mix twice and require identical results (used by tests/mixes.cmake).
#
#   cmake -DPROG=<heddle> -DMIX=<name> -DOUT=<dir> [-DARGS="a|b"] [-DREGEX=<re>] -P twice.cmake
# Each run writes a --stats report; the reports and the printed summaries must be equal line for
# line once the wall-clock lines (wall time, warp instrs/s, wall_seconds) are removed, and both
# runs must verify. REGEX, if given, must match the first run's output (stdout and stderr), so
# that a test of what one run prints need not run the mix a third time (tests/corun.cmake).
string(REPLACE "|" ";" extra "${ARGS}")
file(MAKE_DIRECTORY "${OUT}")
foreach(run 1 2)
  set(stats "${OUT}/mix-${MIX}-${run}.ini")
  file(REMOVE "${stats}")
  execute_process(COMMAND ${PROG} run --mix ${MIX} --quiet --stats ${stats} ${extra}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run}: exit status '${rc}', expected 0")
  endif()
  if(run EQUAL 1 AND DEFINED REGEX AND NOT "${out}${err}" MATCHES "${REGEX}")
    message(FATAL_ERROR "run 1's output does not match: ${REGEX}")
  endif()
  file(STRINGS "${stats}" lines)
  list(FILTER lines EXCLUDE REGEX "^wall_seconds = ")
  string(REGEX REPLACE "\n *(wall time|warp instrs/s) [^\n]*" "" out "${out}")
  set(report_${run} "${lines}")
  set(summary_${run} "${out}")
endforeach()
if(NOT report_1 STREQUAL report_2)
  message(FATAL_ERROR "the two --stats reports differ:\n${report_1}\n----\n${report_2}")
endif()
if(NOT summary_1 STREQUAL summary_2)
  message(FATAL_ERROR "the two summaries differ:\n${summary_1}\n----\n${summary_2}")
endif()
if(NOT report_1 MATCHES "verified = true" OR report_1 MATCHES "verified = false")
  message(FATAL_ERROR "not every workload verified")
endif()
message("identical totals in both runs")
