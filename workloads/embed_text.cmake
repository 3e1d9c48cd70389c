# SPDX-License-Identifier: MIT
# embed_text.cmake - turn a text file (a workload's PTX or ptxas summary) into a C byte array.
#
# Run as a build step by workloads/CMakeLists.txt:
#   cmake -DIN=<file> -DOUT=<file.c> -DSYM=<C identifier> -DREL=<path for the comment> -P embed_text.cmake
# Writes `const unsigned char SYM[]` holding the file's bytes plus a terminating NUL, and
# `const size_t SYM_len` (the file's length without the NUL). A byte array rather than a string
# literal: no escaping, no limit on literal length, any byte value; CMake's HEX read keeps
# semicolons and brackets intact, which list-based reading would not. Sixteen bytes per line.

foreach(var IN ITEMS IN OUT SYM REL)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "embed_text.cmake: -D${var}=... is required")
  endif()
endforeach()

file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR len "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REPEAT "0x..," 16 row)
string(REGEX REPLACE "(${row})" "\\1\n" body "${body}")

set(text "/* Generated from ${REL} by workloads/embed_text.cmake; do not edit. */\n")
string(APPEND text "#include <stddef.h>\n\n")
string(APPEND text "extern const unsigned char ${SYM}[];\n")
string(APPEND text "extern const size_t ${SYM}_len;\n\n")
string(APPEND text "const size_t ${SYM}_len = ${len};\n")
string(APPEND text "const unsigned char ${SYM}[] = {\n${body}0x00};\n")
file(WRITE "${OUT}" "${text}")
