# SPDX-License-Identifier: MIT
# The synthesis flow (synth/, docs/synth.md), included by tests/CMakeLists.txt:
#   synth_unit     the flow's unit and end-to-end tests (python3 unittest; the Yosys/OpenSTA
#                  cases skip themselves when the tools are missing)
#   synth_smoke    synth/run.sh --smoke on every block (skipped, with a message, only when Yosys
#                  or OpenSTA is missing: scripts/setup.sh installs them)
#   synth_fixture  lint and self-checking simulation of the alloc_bitmap flow fixture
#   synth_sram_cacti the SRAM model against every CACTI 7.0 40 nm calibration point (area +-25 %,
#                  access time and read energy +-30 %); python3 only, under a second
find_program(HD_BASH_SYNTH bash)
find_program(HD_PYTHON3 python3)
if(HD_BASH_SYNTH AND HD_PYTHON3)
  add_test(NAME synth_unit
           COMMAND ${HD_PYTHON3} -m unittest discover -s ${CMAKE_SOURCE_DIR}/synth/tests -v
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(synth_unit PROPERTIES LABELS synth TIMEOUT 600)
  add_test(NAME synth_smoke
           COMMAND ${HD_BASH_SYNTH} ${CMAKE_SOURCE_DIR}/synth/tests/smoke.sh
                   ${CMAKE_BINARY_DIR}/synth-smoke
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(synth_smoke PROPERTIES LABELS synth TIMEOUT 600 SKIP_RETURN_CODE 77)
  add_test(NAME synth_sram_cacti
           COMMAND ${HD_PYTHON3} ${CMAKE_SOURCE_DIR}/synth/tests/sram_cacti.py
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(synth_sram_cacti PROPERTIES LABELS synth TIMEOUT 60)
else()
  message(STATUS "synth tests: python3 or bash not found; the synthesis flow is not tested")
endif()
if(HD_BASH_SYNTH)
  add_test(NAME synth_fixture
           COMMAND ${HD_BASH_SYNTH} ${CMAKE_SOURCE_DIR}/synth/tests/fixture_tb.sh
                   ${CMAKE_BINARY_DIR}/synth-fixture
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(synth_fixture PROPERTIES LABELS synth TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^synth_(unit|sram_cacti)$") # synth_fixture (~56 s) in full
