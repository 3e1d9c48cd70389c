# SPDX-License-Identifier: MIT
# No dead or needlessly global C functions in the model (issue 23 item 7), included by
# tests/CMakeLists.txt:
#   unused_symbols          scripts/check-unused.sh on this build's objects: every function with
#                           external linkage in model/, tables/, compressors/ is used by another
#                           file (nm, then the sources); run it after building (ctest after cmake
#                           --build), it reads the objects the build made
#   unused_symbols_planted  the check itself on a planted tree: it finds a file-local and a dead
#                           function, passes once they are fixed (tests/lint/check_unused_planted.sh)
find_program(HD_BASH bash)
find_program(HD_NM nm)
if(HD_BASH AND HD_NM)
  add_test(NAME unused_symbols COMMAND ${HD_BASH} ${CMAKE_SOURCE_DIR}/scripts/check-unused.sh
           ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(unused_symbols PROPERTIES LABELS "ci;lint" TIMEOUT 300)
  add_test(NAME unused_symbols_planted
           COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER} ${HD_BASH}
                   ${CMAKE_SOURCE_DIR}/tests/lint/check_unused_planted.sh ${CMAKE_SOURCE_DIR})
  set_tests_properties(unused_symbols_planted PROPERTIES LABELS "ci;lint" TIMEOUT 120)
else()
  message(STATUS "unused_symbols: bash or nm not found; the unused-symbol check is not run")
endif()
