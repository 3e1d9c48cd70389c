# SPDX-License-Identifier: MIT
# check.cmake - run one command and check its exit status and output (used by tests/cli.cmake).
#
#   cmake -DPROG=<program> -DARGS="a|b|c" -DRC=<status> [-DREGEX=<re>] [-DNOT_REGEX=<re>]
#         [-DFILE=<path> -DFILE_REGEX=<re>] -P check.cmake
# ARGS uses '|' between arguments (a ';' would be split by add_test). stdout and stderr are
# matched together; FILE (removed first), if given, must exist afterwards and match FILE_REGEX. A crash shows as a non-numeric status and never equals RC.
string(REPLACE "|" ";" args "${ARGS}")
if(DEFINED FILE)
  file(REMOVE "${FILE}")
endif()
execute_process(COMMAND ${PROG} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(NOT "${rc}" STREQUAL "${RC}")
  message(FATAL_ERROR "exit status '${rc}', expected ${RC}")
endif()
if(DEFINED REGEX AND NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match: ${REGEX}")
endif()
if(DEFINED NOT_REGEX AND all MATCHES "${NOT_REGEX}")
  message(FATAL_ERROR "output matches what it must not: ${NOT_REGEX}")
endif()
if(DEFINED FILE)
  if(NOT EXISTS "${FILE}")
    message(FATAL_ERROR "${FILE} was not written")
  endif()
  file(READ "${FILE}" content)
  if(NOT content MATCHES "${FILE_REGEX}")
    message(FATAL_ERROR "${FILE} does not match: ${FILE_REGEX}\n${content}")
  endif()
endif()
