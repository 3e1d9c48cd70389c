# SPDX-License-Identifier: MIT
# embed_text.cmake - turn text files (a workload folder's PTX and ptxas summaries, or one
# configuration file) into C byte arrays.
#
# Run as a build step by workloads/CMakeLists.txt and model/cli/CMakeLists.txt, in one of two ways:
#   cmake -DIN=<file> -DOUT=<file.c> -DSYM=<C identifier> -DREL=<path for the comment> -P embed_text.cmake
#   cmake -DLIST=<manifest> -DOUT=<file.c> -P embed_text.cmake
# A manifest has one line per file, `IN|SYM|REL`; all of them go into the one OUT (a workload folder
# is one generated file and one compile, not one per PTX: the per-file build steps cost about
# 0.2 CPU-seconds each, process start-up mostly, and there are about 900).
# Each file becomes `const unsigned char SYM[]` holding its bytes plus a terminating NUL, and
# `const size_t SYM_len` (the length without the NUL). A byte array rather than a string literal:
# no escaping, no limit on literal length, any byte value; CMake's HEX read keeps semicolons and
# brackets intact, which list-based reading would not. Sixteen bytes per line.

if(NOT DEFINED OUT)
  message(FATAL_ERROR "embed_text.cmake: -DOUT=... is required")
endif()

# embed_one(IN SYM REL): append IN's array to `text`.
function(embed_one in sym rel)
  file(READ "${in}" hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR len "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
  string(REPEAT "0x..," 16 row)
  string(REGEX REPLACE "(${row})" "\\1\n" body "${body}")
  string(APPEND text "\n/* ${rel} */\n")
  string(APPEND text "extern const unsigned char ${sym}[];\n")
  string(APPEND text "extern const size_t ${sym}_len;\n")
  string(APPEND text "const size_t ${sym}_len = ${len};\n")
  string(APPEND text "const unsigned char ${sym}[] = {\n${body}0x00};\n")
  set(text "${text}" PARENT_SCOPE)
endfunction()

if(DEFINED LIST)
  file(STRINGS "${LIST}" entries)
  set(text "/* Generated from ${LIST} by workloads/embed_text.cmake; do not edit. */\n")
  string(APPEND text "#include <stddef.h>\n")
  foreach(e IN LISTS entries)
    string(REPLACE "|" ";" f "${e}")
    list(LENGTH f n)
    if(NOT n EQUAL 3)
      message(FATAL_ERROR "embed_text.cmake: ${LIST}: a line is IN|SYM|REL, not '${e}'")
    endif()
    list(GET f 0 in)
    list(GET f 1 sym)
    list(GET f 2 rel)
    embed_one("${in}" "${sym}" "${rel}")
  endforeach()
else()
  foreach(var IN ITEMS IN SYM REL)
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "embed_text.cmake: -D${var}=... is required (or -DLIST=<manifest>)")
    endif()
  endforeach()
  set(text "/* Generated from ${REL} by workloads/embed_text.cmake; do not edit. */\n")
  string(APPEND text "#include <stddef.h>\n")
  embed_one("${IN}" "${SYM}" "${REL}")
endif()
file(WRITE "${OUT}" "${text}")
