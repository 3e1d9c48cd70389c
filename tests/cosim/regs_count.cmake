# SPDX-License-Identifier: MIT
# regs_count.cmake - the co-simulation sizes a warp's full register context with the registers
# per thread the timing model counts (hd_func_launch.regs_per_thread, [sm] regs_source), and reads
# liveness from the kernel's shared annotation store: `heddle regpat-stats W` with
# regs_source = A and = B (same occupancy, so the same samples) gives the same live registers and
# live/full ratios in the proportion B / A (within the table's 0.1 % rounding).
#   cmake -DHEDDLE=<heddle> -DWORKLOAD=<w> -DA=<regs> -DB=<regs> -P regs_count.cmake
foreach(r ${A} ${B})
  execute_process(COMMAND ${HEDDLE} regpat-stats ${WORKLOAD} --every 2000 --set sm.regs_source=${r}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "regpat-stats ${WORKLOAD} with ${r} registers failed (${rc}):\n${out}${err}")
  endif()
  string(REGEX MATCH "\n\\| ${WORKLOAD} \\| ([0-9]+) \\|[^|]*\\|[^|]*\\|[^|]*\\|[^|]*\\| ([0-9.]+)%" row "${out}")
  if(NOT row)
    message(FATAL_ERROR "no table row for ${WORKLOAD}:\n${out}")
  endif()
  set(live_${r} ${CMAKE_MATCH_1})
  set(ratio_${r} ${CMAKE_MATCH_2})
endforeach()
if(NOT live_${A} EQUAL live_${B})
  message(FATAL_ERROR "live registers differ (${live_${A}} vs ${live_${B}}): not the same samples")
endif()
# live/full(A) / live/full(B) must be B / A: compare A * ratio_A with B * ratio_B in 1/1000 %.
string(REPLACE "." "" ra "${ratio_${A}}")
string(REPLACE "." "" rb "${ratio_${B}}")
math(EXPR pa "${A} * ${ra}")
math(EXPR pb "${B} * ${rb}")
math(EXPR diff "${pa} - ${pb}")
if(diff LESS 0)
  math(EXPR diff "0 - ${diff}")
endif()
math(EXPR tol "${pa} / 200") # 0.5 %
if(diff GREATER tol)
  message(FATAL_ERROR "live/full ${ratio_${A}}% with ${A} registers and ${ratio_${B}}% with ${B}: "
                      "not in the proportion ${B}/${A}")
endif()
message(STATUS "${WORKLOAD}: live/full ${ratio_${A}}% (${A} registers), ${ratio_${B}}% (${B})")
