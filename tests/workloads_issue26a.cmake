# SPDX-License-Identifier: MIT
# Tests of the workloads added by issue 26, part A (included by tests/CMakeLists.txt after
# tests/workloads.cmake, which already gives each of them workload_<NAME> at small size; the
# stress tests of tests/context.cmake and tests/alloc_table.cmake cover them too, as every
# registered workload):
# - workload_<NAME> gets the label "ci" (the quick tier);
# - workload_<NAME>_medium (timing model) and workload_<NAME>_large (functional model, tens of
#   millions of warp instructions) verify the other sizes; labels "full;workloads";
# - stress_flush_<NAME>: stress mode flushing (restarting) every chosen CTA whose flush bit allows
#   it, as tests/context.cmake does for six older workloads; must verify with flushes; "stress";
# - wrong_ptx_<NAME>: one PTX instruction of the workload changed in one operand (in a copy under
#   a temporary directory) must be reported as a WRONG RESULT, HD_WL_MISMATCH with the first
#   differing element named (tests/wl_wrong_ptx.c); labels "ci;workloads;checker".

set(hd_issue26a_workloads conv2d fdtd2d mm2 stencil3d stencil3d_r28 stencil3d_tb128_r28 bitonic sad cutcp lavamd bucketsort)

if(TARGET heddle)
  foreach(wl IN LISTS hd_issue26a_workloads)
    if(TEST workload_${wl})
      set_property(TEST workload_${wl} APPEND PROPERTY LABELS ci)
    endif()
    add_test(NAME workload_${wl}_medium
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size medium
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(workload_${wl}_medium PROPERTIES LABELS "full;workloads" TIMEOUT 1200
                         PASS_REGULAR_EXPRESSION "VERIFIED"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
    add_test(NAME workload_${wl}_large
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size large --functional
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(workload_${wl}_large PROPERTIES LABELS "full;workloads" TIMEOUT 1200
                         PASS_REGULAR_EXPRESSION "VERIFIED"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
    add_test(NAME stress_flush_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --set context.stress_flush=true
                     --set context.stress_period=1000 --set context.stress_fraction=0.25
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(stress_flush_${wl} PROPERTIES LABELS "stress" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED.*contexts .* [1-9][0-9]* flushed"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
endif()

if(TARGET hd_workloads AND TARGET hd_ptx)
  add_executable(wl_wrong_ptx ${CMAKE_CURRENT_LIST_DIR}/wl_wrong_ptx.c)
  target_link_libraries(wl_wrong_ptx PRIVATE hd_workloads hd_runtime hd_ptx)
  # hd_wrong_ptx(WORKLOAD OLD NEW EXPECT): OLD and NEW differ in one operand (tabs as nvcc
  # writes them); EXPECT is the first wrong element the driver must name.
  function(hd_wrong_ptx wl old new expect)
    add_test(NAME wrong_ptx_${wl} COMMAND wl_wrong_ptx ${wl} "${old}" "${new}" "${expect}"
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(wrong_ptx_${wl} PROPERTIES LABELS "ci;workloads;checker" TIMEOUT 120)
  endfunction()
  # conv2d: the last tap (c33 * a[i+1][j+1]) multiplies a[i+1][j-1] instead: the first interior
  # pixel (i 1, j 1 of 333 x 479) is wrong.
  hd_wrong_ptx(conv2d "fma.rn.f32 \t%f26, %f25, %f24, %f23;" "fma.rn.f32 \t%f26, %f25, %f21, %f23;"
               "b[480]:")
  # sad: sad_merge's 8x16 left half adds the top-right 8x8 quadrant instead of the bottom-left
  # one: element 6 of macroblock 0, position 0.
  hd_wrong_ptx(sad "add.s32 \t%r37, %r27, %r13;" "add.s32 \t%r37, %r27, %r20;" "sads_merged[6]:")
  # mm2: kernel 1's alpha * acc becomes acc * acc.
  hd_wrong_ptx(mm2 "mul.f32 \t%f26, %f31, %f8;" "mul.f32 \t%f26, %f31, %f31;" "tmp[0]:")
  # cutcp (a float tolerance, per point): the first of a thread's four points accumulates
  # q/r * s * (q/r) instead of s * s * q/r; lattice point (0, 0, 0) is the first one off.
  hd_wrong_ptx(cutcp "fma.rn.f32 \t%f192, %f114, %f117, %f192;"
               "fma.rn.f32 \t%f192, %f116, %f117, %f192;" "lattice[0] (x 0, y 0, z 0):")
endif()
