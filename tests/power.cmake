# SPDX-License-Identifier: MIT
# The energy model (model/power, docs/power.md; included by tests/CMakeLists.txt). Labels ci and
# power.
# - test_power (tests/unit/test_power.c): the model on given event counts: sums, monotonicity,
#   idle SMs, DRAM IDD energies, the added blocks.
# - power_run_checks (tests/power/check_power.py): whole runs of heddle on the GTX480
#   configuration: the JSON report's components add up to its total and the kernels plus
#   "other" to the run; the compute-bound sgemm and the memory-bound stream lie inside the
#   range of GPUWattch's GTX480 (docs/power.md); stream moves more DRAM bytes than sgemm and has
#   more DRAM energy; chase (one CTA) leaves 14 of 15 SMs with static energy only; a mix's JSON
#   report carries the same member, its kernels and "other" adding up. About 8 s.
# - power_sweep_columns (tests/power/check_sweep.py): experiments/energy.toml through the sweep
#   tool into a fresh store; every power column of its [collect] is a number. About 5 s.
# - power_block_table (tests/power/check_block_table.py): every rtl/ block has a row in the energy
#   model's block table with synth/blocks.ini's instances (test_power checks each row is priced
#   when its mechanism is configured and scales with its event count). Under a second.
target_link_libraries(test_power PRIVATE hd_power)
set_tests_properties(test_power PROPERTIES LABELS "ci;power" TIMEOUT 60)
add_test(NAME power_block_table
         COMMAND python3 tests/power/check_block_table.py ${CMAKE_SOURCE_DIR}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(power_block_table PROPERTIES LABELS "ci;power" TIMEOUT 30)
if(TARGET heddle)
  add_test(NAME power_run_checks
           COMMAND python3 tests/power/check_power.py $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/power-checks
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(power_run_checks PROPERTIES LABELS "ci;power" TIMEOUT 180)
  add_test(NAME power_sweep_columns
           COMMAND python3 tests/power/check_sweep.py $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/power-sweep
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(power_sweep_columns PROPERTIES LABELS "ci;power" TIMEOUT 180)
endif()
