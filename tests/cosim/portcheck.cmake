# SPDX-License-Identifier: MIT
# portcheck.cmake - the Verilog module's ports must match its ports.def exactly (rule G1).
# cmake -DYOSYS=... -DPORTLIST=... -DBLOCK=... -DSV=... -DINC=... -DOUT=... [-DCHPARAM=...] -P portcheck.cmake
# Yosys elaborates the module with the chosen named configuration's parameters (CHPARAM, the
# same configuration whose <BLOCK>_<Param> macros the .def widths may use) and writes JSON; the expected list comes
# from the C port table generated from the .def (portlist). Extra, missing, reordered-direction
# or wrong-width ports fail.
execute_process(COMMAND ${YOSYS} -q -p "read_verilog -sv -I${INC} ${SV}; ${CHPARAM}; hierarchy -top ${BLOCK}; proc; write_json ${OUT}"
                RESULT_VARIABLE rc ERROR_VARIABLE yerr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "yosys failed on ${SV}: ${yerr}")
endif()
execute_process(COMMAND ${PORTLIST} ${BLOCK} OUTPUT_VARIABLE expected RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "portlist ${BLOCK} failed")
endif()
file(READ ${OUT} json)
string(JSON ports GET "${json}" modules ${BLOCK} ports)
string(JSON n LENGTH "${ports}")
set(actual "")
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON name MEMBER "${ports}" ${i})
  string(JSON dir GET "${ports}" ${name} direction)
  string(JSON bits GET "${ports}" ${name} bits)
  string(JSON width LENGTH "${bits}")
  string(APPEND actual "${name} ${dir} ${width}\n")
endforeach()
# Yosys lists ports by name: compare the sorted lists (names, directions and widths must agree).
foreach(v expected actual)
  string(REGEX REPLACE "\n$" "" ${v} "${${v}}")
  string(REPLACE "\n" ";" ${v} "${${v}}")
  list(SORT ${v})
  string(REPLACE ";" "\n" ${v} "${${v}}")
  string(APPEND ${v} "\n")
endforeach()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "${BLOCK}: ports of ${SV} differ from ${BLOCK}_ports.def\n--- .def (expected) ---\n${expected}--- .sv (actual) ---\n${actual}")
endif()
message(STATUS "${BLOCK}: ${n} ports match ${BLOCK}_ports.def")
