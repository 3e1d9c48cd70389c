# SPDX-License-Identifier: MIT
# deterministic.cmake - run `heddle run WORKLOAD --stats OUT.N.json` twice and require the two
# reports to be identical apart from the wall time (rule T2; used by tests/timing.cmake).
#
#   cmake -DPROG=<heddle> -DWORKLOAD=<name> -DOUT=<path prefix> -P deterministic.cmake
foreach(n 1 2)
  file(REMOVE "${OUT}.${n}.json")
  execute_process(COMMAND ${PROG} run ${WORKLOAD} --quiet --sample 1000 --stats ${OUT}.${n}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${n}: exit status ${rc}\n${out}${err}")
  endif()
  file(READ "${OUT}.${n}.json" json${n})
  string(REGEX REPLACE "\"wall_seconds\": [0-9.]+" "\"wall_seconds\": -" json${n} "${json${n}}")
endforeach()
if(NOT json1 STREQUAL json2)
  message(FATAL_ERROR "two runs of ${WORKLOAD} gave different reports: ${OUT}.1.json ${OUT}.2.json")
endif()
string(REGEX MATCH "\"cycles\": [0-9]+" cycles "${json1}")
message("${WORKLOAD}: identical reports (${cycles})")
