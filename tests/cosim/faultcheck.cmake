# SPDX-License-Identifier: MIT
# faultcheck.cmake - the fault build (regpat_comp with -DHD_FAULT_REGPAT_FLIP: stride_o bit 0
# flipped on strided results, enabled by +hd_fault_flip) must be caught: non-zero exit, a record naming the port, an FST
# window (+ .gtkw) in which the reference and RTL views of stride_o differ.
# cmake -DHEDDLE=... -DFST=... -DFSTCHECK=... -P faultcheck.cmake
file(REMOVE ${FST})
execute_process(COMMAND ${HEDDLE} cosim --blocks regpat reduction --fail-fst ${FST} --rtl-plusarg +hd_fault_flip
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "exit ${rc}\n${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "the fault build was not caught (exit 0)")
endif()
foreach(want "MISMATCH" "port=stride_o" "inst=sm[0-9]+.regpat_comp" "ref=0x" "rtl=0x" "FST window")
  if(NOT err MATCHES "${want}")
    message(FATAL_ERROR "the mismatch report lacks '${want}'")
  endif()
endforeach()
string(REGEX REPLACE "\\.fst$" ".gtkw" gtkw ${FST})
if(NOT EXISTS ${FST} OR NOT EXISTS ${gtkw})
  message(FATAL_ERROR "no FST window ${FST} / ${gtkw}")
endif()
execute_process(COMMAND ${FSTCHECK} ${FST} stride_o RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the FST window does not show the mismatch")
endif()
