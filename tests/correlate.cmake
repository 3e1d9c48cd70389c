# SPDX-License-Identifier: MIT
# GPGPU-Sim 4.2 parity (issue 15; included by tests/CMakeLists.txt). Label: correlate.
# - gpgpusim_parity_config_current: configs/gpgpusim-4.2-sm2-gtx480.ini has the keys and values
#   a fresh import of configs/imports/gpgpusim-4.2-sm2-gtx480.config gives
#   (configs/imports/import-gpgpusim-4.2.sh --check).
# - parity_options: the parity options do what they say (tests/correlate/parity_options.py:
#   L2 preload of copies, same-word shared atomics, L1 lookup after its latency).
# - correlate_gpgpusim_parity: experiments/correlate/correlate on the shipped reference
#   (experiments/correlate/gpgpusim-4.2-gtx480*.csv: 26 launches of seven workloads at size
#   small, pointer chase per level) with the parity configuration. Issue 15's acceptance targets
#   are r >= 0.97, MAPE <= 10 %, geomean 0.95-1.05, chase within 5 % per level, and the
#   thresholds below are exactly those (reached: r 0.995, MAPE 6.0 %, geomean 0.989, chase
#   -2.5 / -4.4 / -2.4 %); the causes and what is left are in docs/fidelity.md. About 30 s of CPU (13 heddle runs, 2 workers).
if(TARGET heddle)
  add_test(NAME gpgpusim_parity_config_current
           COMMAND configs/imports/import-gpgpusim-4.2.sh $<TARGET_FILE:heddle> --check
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpgpusim_parity_config_current PROPERTIES LABELS "correlate" TIMEOUT 60)

  add_test(NAME parity_options
           COMMAND python3 tests/correlate/parity_options.py $<TARGET_FILE:heddle>
                   ${CMAKE_CURRENT_BINARY_DIR}/parity-options
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(parity_options PROPERTIES LABELS "correlate" TIMEOUT 120)

  set(hd_corr_out ${CMAKE_CURRENT_BINARY_DIR}/correlate-parity)
  add_test(NAME correlate_gpgpusim_parity
           COMMAND bash -c "rm -rf \"$1\" && experiments/correlate/correlate --config gpgpusim-4.2-sm2-gtx480 --heddle \"$2\" --out \"$1\" -j 2 --check-r 0.97 --check-mape 10 --check-geomean 0.95:1.05 --check-chase 5 && test -s \"$1/correlate.png\""
                   -- ${hd_corr_out} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(correlate_gpgpusim_parity PROPERTIES LABELS "correlate" TIMEOUT 300)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci ".")
