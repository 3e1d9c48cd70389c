# SPDX-License-Identifier: MIT
# Zorua's mapping tables, phase-specifier decoder and coordinator in the GPU timing loop (issue 32
# item 5; docs/blocks/zorua.md "In the loop"; model/mech/zorua/zorua_maploop.h, zorua_decloop.h,
# zorua_coordloop.h): each SM's RMT, SMT and TMT stepped as zorua_map blocks (the built
# configuration, zorua_map:smt, zorua_map:tmt; Kepler's and Maxwell's kinds by the GPU's sizes)
# and its zorua_phase decoder beside the model's (which are the same blocks' C references; on
# Kepler and Maxwell since session 20) and its zorua_coord coordinator, whose outputs the model's admissions, releases
# and o_thresh are (session 14), every output checked.
# - zorua_loop_drive: reduction at 24 registers x 1024 threads on Fermi (oversubscribed: the
#   tables allocate, release, swap out and in) without the blocks, then under heddle cosim
#   --blocks zorua --in-loop --drive rtl (the C reference and the RTL in lockstep, the RTL's
#   outputs checked against the model): verified, 0 mismatches, block steps against the RTL, the
#   same cycles both times, 75 instances (tests/zorua/zorua_loop.py; --drive ref too in the full
#   tier's runs).
# - zorua_loop_coord_keys: in the loop, o_thresh keys other than the coordinator block's
#   constants are refused with a message naming them; zorua_pct_whole: a percentage that is not
#   whole is refused (the controller counts whole percents).
# - zorua_loop_fault: [zorua] loop_fault corrupts the model's expectation of one block step (C
#   references, heddle run): the run stops with the located mismatch (cycle, SM, block, port).
# - zorua_loop_bad_config: a GPU whose RMT no built kind fits (Fermi with 80 logical warps) is
#   refused with a message naming the key, the built sizes and the GPU's.
# - zorua_loop_fst (full): an FST window of the 15 SMs' 75 blocks, the RTL's ports in the .gtkw.
# - zorua_loop_kepler, zorua_loop_maxwell (full): three experiment points each on Kepler and
#   Maxwell (96 logical warps: the tables', session 15 the coordinator's and session 20 the
#   decoder's Kepler/Maxwell kinds: 75 instances), both drives.
# - zorua_loop_experiment_kepler, _maxwell (full, session 15): every Kepler / Maxwell Zorua point
#   of experiments/zorua-sample.toml (19 each) in the loop, both drives, the same cycles.
# - zorua_loop_smem_fermi, _kepler (full, session 16): scalarprod 8 KB x 128, whose seventh CTA per
#   SM has its scratchpad sets in swap (the SMT's lookups from the shared-memory path), both drives.
# - zorua_loop_waves (full, session 17): the two at the grid's --size waves, both drives.
# - zorua_loop_experiment, zorua_loop_sample (full): every Fermi Zorua point of
#   experiments/zorua-sample.toml (19) / the first, middle and last point of each of the grid's eight
#   applications in the loop, both drives, the same cycles as without the blocks.
set(HD_TEST_MECHANISM zorua)
hd_tier(ci "^zorua_loop_(drive|fault|bad_config|coord_keys)$|^zorua_pct_whole$")
hd_tier(full "^zorua_loop_")
if(TARGET heddle)
  set(zlp --size small --config configs/zorua-fermi.ini --set sm.allocator=zorua
          --set sm.logical_warps=64 --set sm.logical_ctas=16 --set zorua.in_loop=true)
  add_test(NAME zorua_loop_fault
           COMMAND $<TARGET_FILE:heddle> run reduction_z_r24_tb1024 ${zlp}
                   --set zorua.loop_fault=5000
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_loop_fault PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION
    "zorua: MISMATCH at cycle [0-9]+, SM [0-9]+, block zorua_map \\(sm[0-9]+[.]zorua_map, the register mapping table\\), port free_o = [0-9]+ [^\n]*, the model's table gave [0-9]+ [^\n]* for the [a-z ]+ of warp [0-9]+ set [0-9]+[^\n]*\n[^\n]*FAILED")
  if(NOT "${HD_RTL_CONFIG_zorua_map}" MATCHES "^(smt|tmt)$")
    add_test(NAME zorua_loop_bad_config
             COMMAND $<TARGET_FILE:heddle> run reduction_z_r24_tb1024 --size small
                     --config configs/zorua-fermi.ini --set sm.allocator=zorua
                     --set sm.logical_warps=80 --set sm.logical_ctas=16 --set zorua.in_loop=true
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_loop_bad_config PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
      "key 'in_loop' \\(\\[zorua\\]\\): the zorua_map block is built for 64 logical warps x 16 register sets over 256 physical sets or 96 logical warps x 16 register sets over 512 physical sets [^\n]*this GPU's register mapping table is 80 x 16 over 256")
  endif()
endif()
if(TARGET heddle)
  add_test(NAME zorua_loop_coord_keys
           COMMAND $<TARGET_FILE:heddle> run reduction_z_r24_tb1024 ${zlp}
                   --set zorua.o_max_pct=40
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_loop_coord_keys PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
    "key 'in_loop' \\(\\[zorua\\]\\): the zorua_coord block's o_thresh controller is built for o_default_pct = 10, o_step_pct = 4, o_max_pct = 30, c_delta_thresh = 16, epoch = 2048 [^\n]*this run has 10, 4, 40, 16, 2048")
  add_test(NAME zorua_pct_whole
           COMMAND $<TARGET_FILE:heddle> run reduction_z_r24_tb1024 --size small
                   --config configs/zorua-fermi.ini --set sm.allocator=zorua
                   --set sm.logical_warps=64 --set sm.logical_ctas=16 --set zorua.o_step_pct=4.5
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_pct_whole PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
    "key 'o_step_pct' \\(\\[zorua\\]\\): 4.5 is not a whole percent")
endif()
if(TARGET heddle AND TARGET hd_cosim_vl)
  set(zloop ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/zorua/zorua_loop.py
            $<TARGET_FILE:heddle>)
  add_test(NAME zorua_loop_drive COMMAND ${zloop} --point reduction_z_r24_tb1024 --drive rtl
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_loop_drive PROPERTIES TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "1 of 1 points in the loop")
  add_test(NAME zorua_loop_experiment
           COMMAND ${zloop} --experiment ${CMAKE_SOURCE_DIR}/experiments/zorua-sample.toml
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_loop_experiment PROPERTIES TIMEOUT 3600
                       PASS_REGULAR_EXPRESSION "19 of 19 points in the loop")
  foreach(gen kepler maxwell)
    add_test(NAME zorua_loop_${gen}
             COMMAND ${zloop} --gen ${gen} --point reduction_z_r24_tb1024
                     --point dct8x8_z_r40_tb512 --point scalarprod_z_sp8192_tb512
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_loop_${gen} PROPERTIES TIMEOUT 900
                         PASS_REGULAR_EXPRESSION "3 of 3 points in the loop")
  endforeach()
  foreach(gen kepler maxwell)
    add_test(NAME zorua_loop_experiment_${gen}
             COMMAND ${zloop} --gen ${gen} --experiment ${CMAKE_SOURCE_DIR}/experiments/zorua-sample.toml
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_loop_experiment_${gen} PROPERTIES TIMEOUT 3600
                         PASS_REGULAR_EXPRESSION "19 of 19 points in the loop")
  endforeach()
  # session 16: scratchpad sets in swap (the SMT's lookups from the shared-memory path, its
  # swap-outs and fills) with the blocks in the loop, Fermi and Kepler, both drives
  foreach(gen fermi kepler)
    add_test(NAME zorua_loop_smem_${gen}
             COMMAND ${zloop} --gen ${gen} --point scalarprod_z_sp8192_tb128
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_loop_smem_${gen} PROPERTIES TIMEOUT 900
                         PASS_REGULAR_EXPRESSION "1 of 1 points in the loop")
  endforeach()
  # session 17: at the grid's own size (heddle cosim --size waves): scalarprod 8 KB x 128
  # (scratchpad sets in swap) and nqueens 26,240 B x 160 (oversubscribed scratchpad), both drives
  add_test(NAME zorua_loop_waves
           COMMAND ${zloop} --size waves --point scalarprod_z_sp8192_tb128
                   --point nqueens_z_sp26240_tb160
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_loop_waves PROPERTIES TIMEOUT 1800
                       PASS_REGULAR_EXPRESSION "2 of 2 points in the loop")
  add_test(NAME zorua_loop_sample COMMAND ${zloop} --sample WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(zorua_loop_sample PROPERTIES TIMEOUT 3600
                       PASS_REGULAR_EXPRESSION "points in the loop[^:\n]*: verified"
                       FAIL_REGULAR_EXPRESSION "FAIL ")
  if(TARGET hd_fstcheck)
    add_test(NAME zorua_loop_fst
             COMMAND sh -c "$<TARGET_FILE:heddle> cosim --blocks zorua --in-loop reduction_z_r24_tb1024 --size small --config configs/zorua-fermi.ini --fst ${CMAKE_CURRENT_BINARY_DIR}/zorua_loop.fst --window 1000:3000 && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/zorua_loop.fst --instances 75 && grep -q sm14_zorua_map.rtl.lk_hit_o ${CMAKE_CURRENT_BINARY_DIR}/zorua_loop.gtkw && grep -q sm0_zorua_map_smt.rtl.up_pset_o ${CMAKE_CURRENT_BINARY_DIR}/zorua_loop.gtkw && grep -q sm3_zorua_map_tmt.rtl.up_pset_o ${CMAKE_CURRENT_BINARY_DIR}/zorua_loop.gtkw && grep -q sm2_zorua_phase.rtl.ev_v_o ${CMAKE_CURRENT_BINARY_DIR}/zorua_loop.gtkw && grep -q sm5_zorua_coord.rtl.gr_v_o ${CMAKE_CURRENT_BINARY_DIR}/zorua_loop.gtkw"
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(zorua_loop_fst PROPERTIES TIMEOUT 300 FAIL_REGULAR_EXPRESSION "MISMATCH")
  endif()
endif()
