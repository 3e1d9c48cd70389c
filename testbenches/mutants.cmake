# SPDX-License-Identifier: MIT
# mutants.cmake - the mutant testbenches tb_<b>_mut (issue 16 item 1): scripts/mutate.py
# instruments rtl/<b>/<b>.sv with every mutant behind a run-time selector (+hd_mut=N, 0 = the
# original), and the block's own testbench is built once on that file (one Verilator build per
# block, C++ at -O0: the runs are short). Included by testbenches/CMakeLists.txt (C++ scope);
# the CTests are in tests/mutation.cmake.
# HD_MUTATION (top-level CMakeLists.txt, from HD_TIER): ON every block, ci the blocks whose
# configs/rtl/<b>.ini [block] says ci_mutation = 1, OFF none.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT HD_MUTATION MATCHES "^(ON|on|1|ci|TRUE|YES)$" OR NOT Python3_Interpreter_FOUND)
  return()
endif()
# The memory checker of the C mutants: tb_<b>_mut_asan is tb_<b>_mut's own objects relinked with
# the instrumented C reference compiled under ASan/UBSan (an out-of-bounds access aborts the run);
# scripts/mutate.py run --memcheck-tb reruns only a C mutant that survived every check in it.
option(HD_MUT_MEMCHECK "build tb_<b>_mut_asan, the C mutants' memory checker" ON)
if(HD_MUT_MEMCHECK)
  include(CheckCSourceCompiles)
  set(HD_MUT_ASAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${HD_MUT_ASAN_FLAGS}")
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=address,undefined)
  check_c_source_compiles("int main(void) { return 0; }" HD_MUT_ASAN_OK)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT HD_MUT_ASAN_OK)
    message(STATUS "HD_MUT_MEMCHECK: the compiler cannot link -fsanitize=address,undefined; no tb_<b>_mut_asan")
  endif()
endif()
set(HD_MUT_DIR ${CMAKE_BINARY_DIR}/mutants)
set(HD_MUT_PY ${CMAKE_SOURCE_DIR}/scripts/mutate.py)
set(HD_MUT_C_PY ${CMAKE_SOURCE_DIR}/scripts/mutate_c.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${HD_MUT_PY} ${HD_MUT_C_PY}
             ${CMAKE_SOURCE_DIR}/scripts/mutate_lex.py ${CMAKE_SOURCE_DIR}/scripts/mutate_manual.py)
# A block whose configs/rtl/<b>.ini [block] says mutate_c = 1 has its C reference mutated too
# (scripts/mutate_c.py): tb_<b>_mut then links the instrumented reference in place of the
# library's object (HD_MUT_C=N selects a C mutant, the RTL runs unmutated); its mutants are the
# "<b>.c" entry of the full run and of the CTests (tests/mutation.cmake reads the target property
# HD_MUT_C). With HD_MUTATION=ci only the blocks with ci_mutation = 1 get a mutant testbench.
foreach(b ${HD_BLOCKS})
  if(NOT TARGET tb_${b})
    continue()
  endif()
  hd_block_meta(${b} ci_mutation cim 0)
  hd_block_meta(${b} mutate_c mutc 0)
  if(HD_MUTATION STREQUAL "ci" AND NOT cim)
    continue()
  endif()
  hd_rtl_config(${b} params) # the same named configuration as tb_<b>
  set(pargs "")
  foreach(p ${params})
    list(APPEND pargs --param=${p})
  endforeach()
  set(sv ${HD_MUT_DIR}/${b}/${b}.sv)
  # hand-written mutants beside the generated ones (testbenches/mutants_manual.cmake)
  set(manual "")
  set(cmanual "")
  foreach(suf "" .c)
    set(mf ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}${suf}.manual)
    if(EXISTS ${mf})
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${mf})
      if(suf STREQUAL "")
        set(manual --manual ${mf})
      else()
        set(cmanual --manual ${mf})
      endif()
    endif()
  endforeach()
  # verilate() reads its sources when CMake runs: instrument now, again when either file changes
  execute_process(COMMAND ${Python3_EXECUTABLE} ${HD_MUT_PY} instrument ${b} --rtl ${CMAKE_SOURCE_DIR}/rtl
                          --out ${HD_MUT_DIR} ${pargs} ${manual}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scripts/mutate.py instrument ${b} failed (${rc})")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/rtl/${b}/${b}.sv)
  add_executable(tb_${b}_mut ${CMAKE_SOURCE_DIR}/testbenches/tb_${b}.cpp)
  verilate(tb_${b}_mut SYSTEMC SOURCES ${CMAKE_SOURCE_DIR}/rtl/lint/${b}.vlt ${sv} PREFIX V${b}
           TOP_MODULE ${b} INCLUDE_DIRS ${HD_MUT_DIR}/include VERILATOR_ARGS --assert -Wall ${params}
           OPT_FAST -O0 OPT_SLOW -O0 OPT_GLOBAL -O0)
  hd_tb_shared_runtime(tb_${b}_mut) # (before tb_<b>_mut_asan reads its objects and libraries)
  if(mutc)
    set(csrc ${CMAKE_SOURCE_DIR}/${HD_BLOCK_REF_${b}}/${b}.c)
    execute_process(COMMAND ${Python3_EXECUTABLE} ${HD_MUT_C_PY} instrument ${b} --src ${csrc}
                            --out ${HD_MUT_DIR} ${cmanual} RESULT_VARIABLE rc OUTPUT_QUIET)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "scripts/mutate_c.py instrument ${b} failed (${rc})")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${csrc})
    # generated test code: a mutant may be a tautology or a questionable precedence on purpose
    set_source_files_properties(${HD_MUT_DIR}/c/${b}.c PROPERTIES COMPILE_OPTIONS -w)
    target_sources(tb_${b}_mut PRIVATE ${HD_MUT_DIR}/c/${b}.c)
    set_property(TARGET tb_${b}_mut PROPERTY HD_MUT_C 1)
    if(HD_MUT_MEMCHECK AND HD_MUT_ASAN_OK) # tb_<b>_mut's objects but the C reference's, one compile
      set(objs $<FILTER:$<TARGET_OBJECTS:tb_${b}_mut>,EXCLUDE,/c/${b}\\.c\\.o$>)
      add_executable(tb_${b}_mut_asan ${objs} ${HD_MUT_DIR}/c/${b}.c)
      target_compile_options(tb_${b}_mut_asan PRIVATE ${HD_MUT_ASAN_FLAGS} -g)
      target_link_options(tb_${b}_mut_asan PRIVATE -fsanitize=address,undefined)
      get_target_property(vlibs tb_${b}_mut LINK_LIBRARIES) # verilate()'s (-pthread, -latomic)
      target_link_libraries(tb_${b}_mut_asan PRIVATE ${vlibs} hd_cosim hd_compressors)
      set_target_properties(tb_${b}_mut_asan PROPERTIES LINKER_LANGUAGE CXX)
      verilator_link_systemc(tb_${b}_mut_asan)
      set_property(TARGET tb_${b}_mut PROPERTY HD_MUT_MEMCHECK tb_${b}_mut_asan)
    endif()
  endif()
  target_include_directories(tb_${b}_mut PRIVATE ${CMAKE_SOURCE_DIR}/testbenches)
  target_link_libraries(tb_${b}_mut PRIVATE hd_cosim hd_compressors)
  target_compile_features(tb_${b}_mut PRIVATE cxx_std_17)
  verilator_link_systemc(tb_${b}_mut)
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/mutants_manual.cmake) # hand-written mutants' other configurations
