# SPDX-License-Identifier: MIT
# Experiment scripts (experiments/, included by tests/CMakeLists.txt, which includes every
# tests/*.cmake). The experiments themselves take minutes and are run by hand (experiments/
# README.md); CI checks only what they stand on, in seconds:
# - experiments_chase_<CONFIG>_<VARIANT>: the pointer chase of experiments/memory-baselines.sh
#   (workloads/chase: chase, chase_l2, chase_dram) at small size on each paper configuration it
#   measures, timing model with the full memory system; each run verifies the chain's final
#   pointer against the driver's CPU walk. (workload_chase* run them on the default GPU.)
# - experiments_scripts_syntax: every experiments/*.sh parses (bash -n).
# Label: experiments.

if(TARGET heddle)
  foreach(cfg fermi-gtx480 kepler-gk110 maxwell-gpuduet)
    foreach(wl chase chase_l2 chase_dram)
      add_test(NAME experiments_chase_${cfg}_${wl}
               COMMAND $<TARGET_FILE:heddle> run ${wl} --size small --config configs/${cfg}.ini
                       --quiet
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(experiments_chase_${cfg}_${wl} PROPERTIES LABELS "experiments"
                           TIMEOUT 120 PASS_REGULAR_EXPRESSION ": VERIFIED")
    endforeach()
  endforeach()
endif()

file(GLOB hd_experiment_scripts CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/experiments/*.sh)
add_test(NAME experiments_scripts_syntax
         COMMAND ${CMAKE_COMMAND} -E env bash -c
                 "for f in \"$@\"; do bash -n \"$f\" || exit 1; done" -- ${hd_experiment_scripts}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(experiments_scripts_syntax PROPERTIES LABELS "experiments" TIMEOUT 60)

# experiments_lin_ch2_small: the two-stage lin-ch2 experiment (experiments/lin-ch2.sh) at test
# scale (tests/sweep/lin-ch2-small.toml: backprop and heartwall at small size): stage 1 learns
# each length, stage 2 runs every technique (6) with 15 signals over it, and the real analysis
# writes the report (about 40 s of CPU with 2 workers).
if(TARGET heddle)
  set(hd_lc2_out ${CMAKE_CURRENT_BINARY_DIR}/lin-ch2-small)
  add_test(NAME experiments_lin_ch2_small
           COMMAND bash -c "rm -rf \"$1\" && HD_EXP_OUT=\"$1\" HD_EXP_STAGE1=tests/sweep/lin-ch2-small.toml experiments/lin-ch2.sh \"$2\" -j 2 && test -s \"$1/report.md\" && test -s \"$1/latency.png\""
                   -- ${hd_lc2_out} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(experiments_lin_ch2_small PROPERTIES LABELS "experiments" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "all 14 points ok.*written [^\n]*report.md")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^experiments_scripts_syntax$" "^experiments_chase_fermi-gtx480_chase$")
