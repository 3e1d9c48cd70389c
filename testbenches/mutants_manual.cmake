# SPDX-License-Identifier: MIT
# mutants_manual.cmake - the hand-written mutants' other configurations (issue 16: "all 14
# mutants described above are killed"; scripts/mutate_manual.py). A hand-written mutant in code
# the default configuration does not elaborate (regpat_comp's ResetAll = 1 branch) names a
# configs/rtl/<b>.ini configuration (`config: NAME` in testbenches/mutants/<b>.manual):
# tb_<b>_mut_<NAME> is the block's mutant testbench built once more in that configuration, on the
# same instrumented source (instrumented again into BUILD/mutants/cfg_<NAME>/ so that its list
# marks what that configuration elaborates). One more Verilator -O0 build per such block (about
# 50 s for regpat_comp); CTest mutation_manual_<b>_<NAME> (tests/mutation_manual.cmake) replays
# the list there. Included at the end of testbenches/mutants.cmake.
foreach(b ${HD_BLOCKS})
  set(mf ${CMAKE_SOURCE_DIR}/testbenches/mutants/${b}.manual)
  if(NOT TARGET tb_${b}_mut OR NOT EXISTS ${mf})
    continue()
  endif()
  file(STRINGS ${mf} cfglines REGEX "^[ \t]*config:")
  set(cfgs "")
  foreach(l IN LISTS cfglines)
    string(REGEX REPLACE "^[ \t]*config:[ \t]*([A-Za-z0-9_.-]+).*$" "\\1" c "${l}")
    list(APPEND cfgs ${c})
  endforeach()
  list(REMOVE_DUPLICATES cfgs)
  foreach(cfg ${cfgs})
    if(cfg STREQUAL HD_RTL_CONFIG_${b})
      continue() # tb_<b>_mut is that configuration
    endif()
    hd_rtl_config_named(${b} ${cfg} params)
    hd_tb_config_header(${b} ${cfg} gen) # testbenches/CMakeLists.txt ("" if the reference's numbers stay)
    set(pargs "")
    foreach(p ${params})
      list(APPEND pargs --param=${p})
    endforeach()
    set(out ${HD_MUT_DIR}/cfg_${cfg})
    execute_process(COMMAND ${Python3_EXECUTABLE} ${HD_MUT_PY} instrument ${b} --rtl ${CMAKE_SOURCE_DIR}/rtl
                            --out ${out} ${pargs} --manual ${mf}
                    RESULT_VARIABLE rc OUTPUT_QUIET)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "scripts/mutate.py instrument ${b} (configuration ${cfg}) failed (${rc})")
    endif()
    set(t tb_${b}_mut_${cfg})
    add_executable(${t} ${CMAKE_SOURCE_DIR}/testbenches/tb_${b}.cpp)
    verilate(${t} SYSTEMC SOURCES ${CMAKE_SOURCE_DIR}/rtl/lint/${b}.vlt ${out}/${b}/${b}.sv PREFIX V${b}
             TOP_MODULE ${b} INCLUDE_DIRS ${out}/include VERILATOR_ARGS --assert -Wall ${params}
             OPT_FAST -O0 OPT_SLOW -O0 OPT_GLOBAL -O0)
    if(gen) # that configuration's reference (tb_<b>_<cfg>)
      target_sources(${t} PRIVATE ${CMAKE_SOURCE_DIR}/${HD_BLOCK_REF_${b}}/${b}.c)
      target_include_directories(${t} BEFORE PRIVATE ${gen})
    endif()
    target_include_directories(${t} PRIVATE ${CMAKE_SOURCE_DIR}/testbenches)
    target_link_libraries(${t} PRIVATE hd_cosim hd_compressors)
    target_compile_features(${t} PRIVATE cxx_std_17)
    verilator_link_systemc(${t})
    hd_tb_shared_runtime(${t})
    set_property(TARGET tb_${b}_mut APPEND PROPERTY HD_MUT_MANUAL_CFGS ${cfg})
  endforeach()
endforeach()
