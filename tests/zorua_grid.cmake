# SPDX-License-Identifier: MIT
# Zorua's specification grid (issue 26 item 3; workloads/README.md, "Zorua's specification grid";
# included by tests/CMakeLists.txt). The 283 points are registered variants (HD_ZORUA_POINTS),
# left out of the per-workload test families of HD_WORKLOADS.
# - zorua_grid_gen_check (ci): scripts/gen-zorua-grid.py --check, the committed ptx.flags blocks
#   and BASE_zgrid.c files are byte-identical to what workloads/zorua-grid.toml gives;
# - zorua_grid_registered (ci): every point the description gives is a registered workload;
# - zorua_grid_sample (ci): three points per application (first, middle, last) at small size:
#   each verifies, prints the base's "work:" line (same problem, same inputs) and counts its
#   specified registers (scripts/zorua-grid-run.py);
# - zorua_grid_<BASE> (full): every point of that application, the same checks;
# - zorua_grid_stress (ci): one point per kind in stress mode (CTAs context-switched, still verifies).
# - zorua_grid_sweep_check (ci): scripts/gen-zorua-sweep.py --check, experiments/zorua.toml (the
#   whole-grid experiment) and experiments/zorua-paper.toml (its paper-size variant for BH, MST
#   and SSSP) are what the grid and the three Table 2 configurations give.
# - zorua_waves_alias (ci): `--size waves` runs (dct8x8, its waves input, functionally) and the
#   summary names the size waves; zorua_waves_<BASE> (full): each application's waves input, the
#   experiment's length (workloads/README.md "Occupancy-length inputs"), verifies on Fermi.
# - zorua_waves3_alias (ci): `--size waves3` runs (dct8x8 has no waves3 input: its waves input)
#   and the summary names the size waves3; zorua_waves3_<POINT> (full): one middle specification
#   of BH, MST and SSSP at their paper-size (waves3) inputs under Zorua on Kepler verifies.
# - zorua_grid_measures (ci): experiments/zorua.py's Sec. 6 measures (range, best point, porting
#   loss with the 5 % rule over the specs both generations run, hit rate, energy) on hand-worked
#   points (tests/zorua/zorua_measures.py).

find_package(Python3 COMPONENTS Interpreter)
get_property(hd_zgrid_points GLOBAL PROPERTY HD_ZORUA_POINTS)
if(Python3_FOUND)
  add_test(NAME zorua_grid_gen_check
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/gen-zorua-grid.py --check
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_grid_gen_check PROPERTIES LABELS "ci;workloads" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "283 points, 16 files, 0 out of date")
  add_test(NAME zorua_grid_sweep_check
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/gen-zorua-sweep.py --check
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_grid_sweep_check PROPERTIES LABELS "ci;workloads" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "experiments/zorua.toml is up to date"
                       FAIL_REGULAR_EXPRESSION "out of date")
  add_test(NAME zorua_grid_measures
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/zorua/zorua_measures.py
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_grid_measures PROPERTIES LABELS "ci;experiments" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "zorua measures: [0-9]+ checks pass")
  string(REPLACE ";" "," hd_zgrid_csv "${hd_zgrid_points}")
  add_test(NAME zorua_grid_registered
           COMMAND ${CMAKE_COMMAND} -DGEN=${CMAKE_SOURCE_DIR}/scripts/gen-zorua-grid.py
                   -DPY=${Python3_EXECUTABLE} "-DREG=${hd_zgrid_csv}"
                   -P ${CMAKE_CURRENT_LIST_DIR}/zorua/registered.cmake)
  set_tests_properties(zorua_grid_registered PROPERTIES LABELS "ci;workloads" TIMEOUT 60)
  if(TARGET heddle)
    add_test(NAME zorua_grid_sample
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/zorua-grid-run.py
                     $<TARGET_FILE:heddle> --sample
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_grid_sample PROPERTIES LABELS "ci;workloads" TIMEOUT 600
                         PASS_REGULAR_EXPRESSION "24 of 24 points pass")
    foreach(base barneshut dct8x8 mst reduction nqueens scan scalarprod sssp)
      add_test(NAME zorua_grid_${base}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/zorua-grid-run.py
                       $<TARGET_FILE:heddle> --app ${base}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(zorua_grid_${base} PROPERTIES LABELS "full;workloads" TIMEOUT 1800
                           FAIL_REGULAR_EXPRESSION "FAIL ")
    endforeach()
  endif()
endif()
if(TARGET heddle)
  foreach(wl sssp_z_r16_tb1024 scalarprod_z_sp8192_tb128)
    add_test(NAME zorua_grid_stress_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small
                     --set context.stress_period=500 --set context.stress_fraction=0.05
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_grid_stress_${wl} PROPERTIES LABELS "ci;workloads" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "VERIFIED"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
endif()

if(TARGET heddle)
  add_test(NAME zorua_waves_alias
           COMMAND $<TARGET_FILE:heddle> run dct8x8 --size waves --functional
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_waves_alias PROPERTIES LABELS "ci;workloads" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "dct8x8 \\(waves, [^)]*\\): VERIFIED")
  foreach(base barneshut dct8x8 mst reduction nqueens scan scalarprod sssp)
    add_test(NAME zorua_waves_${base}
             COMMAND $<TARGET_FILE:heddle> run ${base} --size waves --config configs/zorua-fermi.ini
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_waves_${base} PROPERTIES LABELS "full;workloads" TIMEOUT 600
                         PASS_REGULAR_EXPRESSION "VERIFIED"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
  # --size waves3 (session 21): a driver without its own waves3 input runs its waves input
  # (dct8x8, functionally, as zorua_waves_alias); the summary names the size waves3.
  add_test(NAME zorua_waves3_alias
           COMMAND $<TARGET_FILE:heddle> run dct8x8 --size waves3 --functional
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_waves3_alias PROPERTIES LABELS "ci;workloads" TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "dct8x8 \\(waves3, [^)]*\\): VERIFIED")
  # The paper-size inputs (experiments/zorua-paper.toml): one middle specification of each of
  # BH, MST and SSSP at --size waves3 under Zorua on Kepler (96 logical warps, 16 logical CTAs)
  # verifies against its CPU reference (timing model; docs/zorua.md "Session 21").
  foreach(pt barneshut_z_r32_tb512 mst_z_r32_tb512 sssp_z_r24_tb512)
    add_test(NAME zorua_waves3_${pt}
             COMMAND $<TARGET_FILE:heddle> run ${pt} --size waves3 --config configs/zorua-kepler.ini
                     --set sm.allocator=zorua --set sm.logical_warps=96 --set sm.logical_ctas=16
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_waves3_${pt} PROPERTIES LABELS "full;workloads" TIMEOUT 1800
                         PASS_REGULAR_EXPRESSION "VERIFIED"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
endif()

hd_tier(ci "^zorua_grid_(gen_check|sweep_check|measures|registered|sample|stress_.*)$|^zorua_waves3?_alias$")
hd_tier(full ".")
