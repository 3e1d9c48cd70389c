# SPDX-License-Identifier: MIT
# HAWS (Gong thesis ch. 5, issue 30; docs/blocks/haws.md; model/mech/haws, model/func/exec_ahead.c,
# model/timing/sm_ahead.c; included by tests/CMakeLists.txt).
#
# - haws_unit: the hazards on a hand-written kernel (tests/haws/haws_unit.c): a candidate whose
#   source a skipped older instruction writes is not selected, a WAR/WAW one is renamed;
#   divergence in hint mode runs on the shadow stack and leaves the real stack, registers and
#   counters unchanged; every result is committed exactly once (a second commit is refused) and
#   the registers then equal an in-order twin's, bit for bit.
# - haws_ptx_info: `heddle ptx-info sgemm --haws` prints stall points and run-ahead PCs.
# - haws_verify_<gto|lrr>_<NAME>: every workload and variant on the Kepler configuration with
#   HAWS off and on under GTO and LRR (tests/haws/verify.py): both verify, no RCU is discarded;
#   for workloads whose control flow does not depend on the warps' order (sgemm, reduction,
#   vecadd, mvt, transpose, scalarprod) the same warp and thread instructions execute.
#   CI: sgemm (GTO, LRR), vecadd (GTO), reduction (LRR); full: the rest.
# - haws_runahead_{sgemm,mvt}: as above with instructions required to run ahead.
# - haws_stress_{ctx,warp}_{mvt,sgemm}: HAWS under the context and warp stress modes: verified.
set(HD_TEST_MECHANISM haws) # docs/testing.md: HAWS's budget
add_executable(hd_haws_unit ${CMAKE_CURRENT_SOURCE_DIR}/haws/haws_unit.c
                            ${CMAKE_SOURCE_DIR}/model/mech/haws/haws_hints.c)
target_include_directories(hd_haws_unit PRIVATE ${CMAKE_SOURCE_DIR}/model/mech/haws
                                                ${CMAKE_SOURCE_DIR}/model/policy)
target_link_libraries(hd_haws_unit PRIVATE hd_func hd_compiler hd_ptx m)
add_test(NAME haws_unit COMMAND hd_haws_unit)
set_tests_properties(haws_unit PROPERTIES LABELS "haws" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "haws_unit: [0-9]+ checks passed"
                     FAIL_REGULAR_EXPRESSION "FAILED")

get_property(hd_haws_workloads GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle)
  add_test(NAME haws_ptx_info
           COMMAND $<TARGET_FILE:heddle> ptx-info sgemm --haws --config configs/kepler-gk110.ini
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(haws_ptx_info PROPERTIES LABELS "haws" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "HAWS hints \\(window 64, RCU depth 8.*stall PC [0-9]+ \\(line [0-9]+\\): [1-8] run ahead")
  foreach(wl IN LISTS hd_haws_workloads)
    set(same "")
    if(wl MATCHES "^(sgemm|reduction|vecadd|mvt|transpose|scalarprod)$")
      set(same --same-instrs) # control flow independent of the warps' order
    endif()
    foreach(sched gto lrr)
      add_test(NAME haws_verify_${sched}_${wl}
               COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/haws/verify.py $<TARGET_FILE:heddle>
                       ${wl} --size small --config configs/kepler-gk110.ini
                       --set sm.scheduler=${sched} ${same}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(haws_verify_${sched}_${wl} PROPERTIES LABELS "haws" TIMEOUT 600
                           PASS_REGULAR_EXPRESSION "haws_verify: OK"
                           FAIL_REGULAR_EXPRESSION "FAILED")
    endforeach()
  endforeach()
  # with run ahead required: the base workloads where the hint pass finds chains
  foreach(wl sgemm mvt)
    add_test(NAME haws_runahead_${wl}
             COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/haws/verify.py $<TARGET_FILE:heddle>
                     ${wl} --size small --config configs/kepler-gk110.ini --want-runahead
                     --same-instrs
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(haws_runahead_${wl} PROPERTIES LABELS "haws" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "haws_verify: OK"
                         FAIL_REGULAR_EXPRESSION "FAILED")
  endforeach()
  # HAWS with the context stress mode (CTAs switched out and back with run-ahead loads in
  # flight) and the warp stress mode: the outputs verify (full tier)
  foreach(wl mvt sgemm)
    add_test(NAME haws_stress_ctx_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --config configs/kepler-gk110.ini
                     --set haws.enable=true --set context.stress_period=500
                     --set context.stress_fraction=0.05
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    add_test(NAME haws_stress_warp_${wl}
             COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --config configs/kepler-gk110.ini
                     --set haws.enable=true --set sm.warp_stress_period=500
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(haws_stress_ctx_${wl} haws_stress_warp_${wl} PROPERTIES
                         LABELS "haws;stress" TIMEOUT 300 PASS_REGULAR_EXPRESSION "VERIFIED"
                         FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:")
  endforeach()
endif()

# Back-edge windows ([haws] back_edges, Gong Fig. 5.1; docs/blocks/haws.md §3):
# - haws_backedge: the hint pass on a Fig. 5.1-shaped loop (the loop control, the back edge and
#   the next iteration's address arithmetic and load selected, a next-iteration instruction
#   whose source a skipped instruction wrote not, the stall point ends the window) and an
#   episode at every arrival at the stall point through a divergent loop exit: committed once,
#   real stack and registers untouched, registers equal to an in-order twin's (tests/haws/haws_backedge.c).
# - haws_backedge_verify_<gto|lrr>_<NAME>: as haws_verify with back_edges = true, every base
#   workload (a folder of workloads/; its variants share its PTX, so its windows).
add_executable(hd_haws_backedge ${CMAKE_CURRENT_SOURCE_DIR}/haws/haws_backedge.c
                                ${CMAKE_SOURCE_DIR}/model/mech/haws/haws_hints.c)
target_include_directories(hd_haws_backedge PRIVATE ${CMAKE_SOURCE_DIR}/model/mech/haws
                                                    ${CMAKE_SOURCE_DIR}/model/policy)
target_link_libraries(hd_haws_backedge PRIVATE hd_func hd_compiler hd_ptx m)
add_test(NAME haws_backedge COMMAND hd_haws_backedge)
set_tests_properties(haws_backedge PROPERTIES LABELS "haws" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "haws_backedge: [0-9]+ checks passed"
                     FAIL_REGULAR_EXPRESSION "FAILED")
if(TARGET heddle)
  foreach(wl IN LISTS hd_haws_workloads)
    if(NOT IS_DIRECTORY ${CMAKE_SOURCE_DIR}/workloads/${wl})
      continue()
    endif()
    set(same "")
    if(wl MATCHES "^(sgemm|reduction|vecadd|mvt|transpose|scalarprod)$")
      set(same --same-instrs)
    endif()
    foreach(sched gto lrr)
      add_test(NAME haws_backedge_verify_${sched}_${wl}
               COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/haws/verify.py $<TARGET_FILE:heddle>
                       ${wl} --size small --config configs/kepler-gk110.ini
                       --set sm.scheduler=${sched} --set haws.back_edges=true ${same}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(haws_backedge_verify_${sched}_${wl} PROPERTIES LABELS "haws"
                           TIMEOUT 600 PASS_REGULAR_EXPRESSION "haws_verify: OK"
                           FAIL_REGULAR_EXPRESSION "FAILED")
    endforeach()
  endforeach()
endif()

# - experiments_haws_tiny (full): experiments/haws.py on tests/sweep/haws-tiny.toml (transpose,
#   dct8x8: Kepler LRR x in-order / HAWS / forward-only / warped pre-execution, GCN-like GTO x
#   in-order / HAWS): the report's rows and both PNGs are written.
if(TARGET heddle)
  set(hd_haws_tiny ${CMAKE_CURRENT_BINARY_DIR}/haws-tiny)
  add_test(NAME experiments_haws_tiny
           COMMAND bash -c "rm -rf \"$1\" && python3 experiments/sweep.py tests/sweep/haws-tiny.toml -j 2 --heddle \"$2\" --out \"$1\" && test -s \"$1/speedup.png\" && test -s \"$1/breakdown.png\" && grep -q '^| Kepler LRR | transpose | MT | M | ' \"$1/report.md\" && grep -q '^| GCN-like GTO | dct8x8 | DCT | M | ' \"$1/report.md\" && grep -q '^| HAWS, Table 5.1 memory-intensive average | +14.6 %' \"$1/report.md\" && echo 'haws tiny: report written'"
                   _ ${hd_haws_tiny} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(experiments_haws_tiny PROPERTIES LABELS "haws;experiments" TIMEOUT 600
                       PASS_REGULAR_EXPRESSION "haws tiny: report written")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^haws_backedge$")
hd_tier(ci "^haws_unit$" "^haws_ptx_info$" "^haws_verify_(gto|lrr)_sgemm$" "^haws_verify_gto_vecadd$"
        "^haws_verify_lrr_reduction$")
