# SPDX-License-Identifier: MIT
# The sweep runner (experiments/sweep.py, experiments/heddle_sweep/): tests/sweep/check.py, one
# subcommand per test, each in seconds on small workloads (label sweep):
# - sweep_errors: bad sweep files get exit 2 and a FILE:LINE error before anything runs;
# - sweep_local: 3 workloads x 3 configurations x 2 schedulers with 2 workers, killed part way,
#   rerun runs exactly the missing points; --csv;
# - sweep_failure: a bad --set value is recorded with heddle's message; the sweep exits 1;
# - sweep_slurm: the same grid as a Slurm job array on a private one-node cluster that the test
#   starts and stops (tests/sweep/slurm-localhost.sh), results byte-identical to the local
#   backend's; SKIPPED with the reason printed when Slurm cannot run here (not installed:
#   scripts/setup.sh --with-slurm; not root; a daemon does not start);
# - sweep_baselines: the memory-baselines report and PNGs from a small sweep;
# - sweep_figures: bar, line and box PNGs, deterministic;
# - sweep_file_<NAME>: every experiments/*.toml is a valid sweep for this binary (--dry-run);
# - sweep_python_syntax: every module compiles (pylib/ too: the output module shared with synth/).
# The system python3 is preferred: Debian's python3-matplotlib lives there.

find_program(HD_SWEEP_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT HD_SWEEP_PYTHON)
  find_program(HD_SWEEP_PYTHON NAMES python3)
endif()

if(HD_SWEEP_PYTHON AND TARGET heddle)
  foreach(t errors local failure slurm baselines figures)
    add_test(NAME sweep_${t}
             COMMAND ${HD_SWEEP_PYTHON} ${CMAKE_SOURCE_DIR}/tests/sweep/check.py ${t}
                     $<TARGET_FILE:heddle>
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(sweep_${t} PROPERTIES LABELS "sweep;experiments" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "PASS sweep ${t}")
  endforeach()
  set_tests_properties(sweep_slurm PROPERTIES SKIP_RETURN_CODE 77)
  # data safety (issue 17): the store after SIGKILL, atomic report files, no output over an
  # input, the point cap (tests/sweep/safety.py; seconds, no heddle run)
  foreach(t store report clobber)
    add_test(NAME sweep_safety_${t}
             COMMAND ${HD_SWEEP_PYTHON} ${CMAKE_SOURCE_DIR}/tests/sweep/safety.py ${t}
                     $<TARGET_FILE:heddle>
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(sweep_safety_${t} PROPERTIES LABELS "sweep;robust" TIMEOUT 120
                         PASS_REGULAR_EXPRESSION "PASS sweep-safety ${t}")
  endforeach()
  # the sweep-file fuzzer (tests/fuzz/fuzz_sweep.py; scripts/fuzz-sweep.sh for hours): every
  # seed and regression input, then 400 mutated inputs from a fixed seed (deterministic, ~5 s)
  add_test(NAME sweep_fuzz_replay
           COMMAND ${HD_SWEEP_PYTHON} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_sweep.py
                   $<TARGET_FILE:heddle> --runs 400 --seed 1
                   --crash-dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz-sweep-artifacts
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(sweep_fuzz_replay PROPERTIES LABELS "sweep;fuzz;robust" TIMEOUT 120)
  # the committed experiments' sweep files are valid against this binary (nothing runs)
  file(GLOB hd_sweep_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/experiments/*.toml)
  foreach(f ${hd_sweep_files})
    get_filename_component(n ${f} NAME_WE)
    add_test(NAME sweep_file_${n}
             COMMAND ${HD_SWEEP_PYTHON} ${CMAKE_SOURCE_DIR}/experiments/sweep.py ${f} --dry-run
                     --heddle $<TARGET_FILE:heddle>
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(sweep_file_${n} PROPERTIES LABELS "sweep;experiments" TIMEOUT 60
                         PASS_REGULAR_EXPRESSION "^# [^\n]*: [0-9]+ points")
  endforeach()
  file(GLOB hd_sweep_py CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/experiments/*.py
       ${CMAKE_SOURCE_DIR}/experiments/heddle_sweep/*.py ${CMAKE_SOURCE_DIR}/tests/sweep/*.py
       ${CMAKE_SOURCE_DIR}/pylib/*.py)
  add_test(NAME sweep_python_syntax
           COMMAND ${HD_SWEEP_PYTHON} -c
                   "import ast, sys; [ast.parse(open(f).read(), f) for f in sys.argv[1:]]"
                   ${hd_sweep_py})
  set_tests_properties(sweep_python_syntax PROPERTIES LABELS "sweep;experiments" TIMEOUT 60)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^sweep_(errors|local|failure|baselines|figures)$"
        "^sweep_safety_"
        "^sweep_fuzz_replay$"
        "^sweep_python_syntax$")
