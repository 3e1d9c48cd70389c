# SPDX-License-Identifier: MIT
# rtl_off.cmake - the build without Verilator RTL (-DHD_COSIM_RTL=OFF) configures and compiles the
# co-simulation library: its RTL registry stand-in (cosim/rtl_none.c, hd_cosim_none) and the C
# core's sources (cosim_*.c). The full RTL=OFF build is the sanitizer subset's (scripts/asan-subset.sh);
# this is the cheap check that keeps the configuration from breaking unnoticed (it did once:
# rtl_none.c could not find hd_block.h). Cost: about 3 s of CPU (configure, hd_hw_ref, 5 files).
#   cmake -DSRC=<source tree> -DDIR=<scratch build dir> [-DCC=<C compiler>] [-DLAUNCHER=<ccache>] -P rtl_off.cmake
foreach(v SRC DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "rtl_off.cmake: -D${v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${DIR})
set(args -S ${SRC} -B ${DIR} -G "Unix Makefiles" -DHD_COSIM_RTL=OFF -DCMAKE_BUILD_TYPE=Release)
if(CC)
  list(APPEND args -DCMAKE_C_COMPILER=${CC})
endif()
if(LAUNCHER)
  list(APPEND args -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure with -DHD_COSIM_RTL=OFF failed (${rc}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "co-simulation runs the C references only")
  message(FATAL_ERROR "configure with -DHD_COSIM_RTL=OFF did not select the C-reference registry:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${DIR} --target hd_cosim_none -j1
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building hd_cosim_none with -DHD_COSIM_RTL=OFF failed (${rc}):\n${out}\n${err}")
endif()
# the C core's objects (not the archive: that would build the whole model below it)
execute_process(COMMAND make -C ${DIR}/cosim cosim_inst.o cosim_hw.o cosim_regpat.o cosim_fst.o
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling cosim/*.c with -DHD_COSIM_RTL=OFF failed (${rc}):\n${out}\n${err}")
endif()
file(REMOVE_RECURSE ${DIR})
message(STATUS "-DHD_COSIM_RTL=OFF: configures, hd_cosim_none and the cosim C core compile")
