# The build without Verilator RTL (-DHD_COSIM_RTL=OFF): configures and compiles the co-simulation
# library (tests/cosim/rtl_off.cmake; a scratch build directory, ~3 s of CPU).
add_test(NAME cosim_rtl_off_build
         COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR}
                 -DDIR=${CMAKE_CURRENT_BINARY_DIR}/rtl_off_build -DCC=${CMAKE_C_COMPILER}
                 "-DLAUNCHER=${CMAKE_C_COMPILER_LAUNCHER}"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cosim/rtl_off.cmake)
set_tests_properties(cosim_rtl_off_build PROPERTIES TIMEOUT 300)
