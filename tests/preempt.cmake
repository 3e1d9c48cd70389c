# SPDX-License-Identifier: MIT
# Preemption policies and preemption signals (model/policy/preempt_policy.h, ctx_preempt.c;
# docs/context.md "Preemption policies" and "Preemption signals").
#
# - preempt_signals_<technique>_<NAME>: Lin's Table 2.2 stand-ins at small size, 15 preemption
#   signals spread uniformly over the kernel's own run (learned from a first run); each signal
#   empties the next SM (signal_sms = 1, so consecutive signals meet different SMs) with the
#   technique (switch = Lin's Occup, compressed = live +
#   compression through the regpat blocks in the loop, drain = SM-draining); the output must
#   verify, every signal's SMs must have emptied, a switch must have saved bytes and every saved
#   context must have been restored (tests/preempt/signals.py).
# - preempt_inplace*: in-place switching (Lin §2.2) frees only the minimum victim set on an SM
#   that may mix kernels, and falls back to whole SMs when it may not.
# - preempt_signal_*: bad signal settings are refused naming the key; SM-draining of a kernel
#   whose CTAs outlast the bound is reported as missed with the time waited, not as a hang.

set(HD_TEST_MECHANISM lin) # docs/testing.md: Lin's budget
get_property(hd_pre_workloads GLOBAL PROPERTY HD_WORKLOADS)
find_package(Python3 COMPONENTS Interpreter QUIET)

if(TARGET heddle AND Python3_Interpreter_FOUND)
  set(hd_lin_kernels backprop bfs btree cfd hotspot kmeans leukocyte lud srad pathfinder
      streamcluster histogram dwt2d heartwall)
  foreach(wl IN LISTS hd_lin_kernels)
    if(NOT wl IN_LIST hd_pre_workloads)
      continue()
    endif()
    set(hd_techs switch)
    if(wl MATCHES "^(backprop|hotspot|pathfinder|srad)$")
      list(APPEND hd_techs compressed drain) # (the other techniques on a few: CI time)
    endif()
    foreach(tech IN LISTS hd_techs)
      if(tech STREQUAL "compressed")
        set(hd_set --set context.preempt=switch --set context.save=compressed)
      else()
        set(hd_set --set context.preempt=${tech})
      endif()
      add_test(NAME preempt_signals_${tech}_${wl}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/preempt/signals.py
                       $<TARGET_FILE:heddle> ${wl} 15 --set context.signal_sms=1 ${hd_set}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(preempt_signals_${tech}_${wl} PROPERTIES LABELS "stress;preempt"
                           TIMEOUT 300 PASS_REGULAR_EXPRESSION "${wl}: [0-9]+ signals")
    endforeach()
  endforeach()
endif()

if(TARGET heddle)
  set(hd_ip run --mix persistent+vecadd --arrive vecadd@20000:1 --set context.latency_bound=20000
      --set context.preempt_policy=inplace)
  add_test(NAME preempt_inplace COMMAND $<TARGET_FILE:heddle> ${hd_ip}
           --set sm.concurrent_kernels=true WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_inplace PROPERTIES LABELS "stress;preempt;mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "preemption +SM 0 for vecadd .*by switch of pt_worker at cycle 2000[0-9] \\(1 switched, 0 drained, 0 flushed, [0-9]+ bytes saved\\): freed after [0-9]+ cycles.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "MISSED|took no CTA there|\\([2-9] switched")
  add_test(NAME preempt_inplace_one_kernel_per_sm COMMAND $<TARGET_FILE:heddle> ${hd_ip}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_inplace_one_kernel_per_sm PROPERTIES LABELS "stress;preempt;mixes"
    TIMEOUT 300
    PASS_REGULAR_EXPRESSION "preemption +SM 0 for vecadd .*by switch of pt_worker at cycle 2000[0-9] \\(4 switched, 0 drained.*VERIFIED \\(2 of 2")
  add_test(NAME preempt_signal_no_span COMMAND $<TARGET_FILE:heddle> run vecadd --size small
           --set context.signals=3)
  set_tests_properties(preempt_signal_no_span PROPERTIES LABELS "preempt;cli"
    PASS_REGULAR_EXPRESSION "key 'signals'.*signal_span")
  add_test(NAME preempt_signal_at_bad COMMAND $<TARGET_FILE:heddle> run vecadd --size small
           --set context.signal_at=100,2x0)
  set_tests_properties(preempt_signal_at_bad PROPERTIES LABELS "preempt;cli"
    PASS_REGULAR_EXPRESSION "key 'signal_at': '100,2x0' is not a list of cycles")
  add_test(NAME preempt_signal_drain_persistent COMMAND $<TARGET_FILE:heddle> run persistent
           --size small --set context.preempt=drain --set context.signal_at=3000
           --set context.latency_bound=5000 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_signal_drain_persistent PROPERTIES LABELS "preempt"
    TIMEOUT 300
    PASS_REGULAR_EXPRESSION "SM 0 for a signal by drain of pt_worker at cycle 3000 \\(0 switched, [1-9] drained, 0 flushed\\): freed after [0-9]+ cycles; MISSED its latency bound of 5000 cycles.*VERIFIED|VERIFIED.*SM 0 for a signal by drain of pt_worker at cycle 3000 \\(0 switched, [1-9] drained, 0 flushed\\): freed after [0-9]+ cycles; MISSED its latency bound of 5000")
endif()

# The in-place experiment's sweep file checks against the binary (its mixes, --arrive flags and
# keys) and the mix report carries the GPU's statistics (preemption records) in "timing".
if(TARGET heddle AND Python3_Interpreter_FOUND)
  add_test(NAME preempt_lin_inplace_sweep_file
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/experiments/sweep.py
                   ${CMAKE_SOURCE_DIR}/experiments/lin-inplace.toml --dry-run
                   --heddle $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_lin_inplace_sweep_file PROPERTIES LABELS "preempt;experiments"
    TIMEOUT 120 PASS_REGULAR_EXPRESSION "--mix histogram\\+backprop .*--set context.preempt_policy=inplace .*--arrive backprop@7929:1")
  add_test(NAME preempt_mix_stats_timing
           COMMAND ${Python3_EXECUTABLE} -c "import json,subprocess,sys,tempfile,os; d=tempfile.mkdtemp(); f=os.path.join(d,'m.json'); subprocess.run([sys.argv[1],'run','--mix','persistent+vecadd','--arrive','vecadd@20000:1','--quiet','--stats',f],check=True,capture_output=True); t=json.load(open(f))['timing']; r=[p for p in t['preemptions'] if p['met']]; assert r and all(p['switched'] for p in r), t['preemptions'][:2]; print('mix timing:', len(r), 'requests met')" $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_mix_stats_timing PROPERTIES LABELS "preempt;mixes" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "mix timing: [1-9][0-9]* requests met")
endif()

# Lin ch.2 as the thesis sets it up (issue 24): quiesce = writeback (Lin's drained warp),
# periodic signals, the kernel filter and the liveness samples at the points
# (tests/preempt/lin_faithful.py).
if(TARGET heddle AND Python3_Interpreter_FOUND)
  foreach(case quiesce period kernel liveness)
    add_test(NAME preempt_lin_${case}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/preempt/lin_faithful.py
                     $<TARGET_FILE:heddle> ${case}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(preempt_lin_${case} PROPERTIES LABELS "preempt;lin" TIMEOUT 300
                         PASS_REGULAR_EXPRESSION "^${case}: ")
  endforeach()
endif()

# experiments/lin-ch2-faithful.py at tiny size (backprop and leukocyte small, Occup, selective
# and SM-draining): the sweep file it writes runs, and the report and its figures are written.
if(TARGET heddle AND Python3_Interpreter_FOUND)
  set(hd_lf_out ${CMAKE_CURRENT_BINARY_DIR}/lin-ch2-faithful-tiny)
  add_test(NAME experiments_lin_ch2_faithful_tiny
           COMMAND bash -c "rm -rf \"$1\" && mkdir -p \"$1\" && python3 experiments/lin-ch2-faithful.py write \"$1/lin-ch2-faithful.toml\" tiny && python3 experiments/sweep.py \"$1/lin-ch2-faithful.toml\" -j 2 --heddle \"$2\" --out \"$1\" && test -s \"$1/liveness.png\" && test -s \"$1/latency.png\" && test -s \"$1/context.png\" && test -s \"$1/spill_split.png\" && test -s \"$1/occupancy.png\" && grep -q '| LK_1 | lk_gicov | [1-9][0-9]* |' \"$1/report.md\" && echo 'lin-ch2-faithful tiny: report written'"
                   _ ${hd_lf_out} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(experiments_lin_ch2_faithful_tiny PROPERTIES LABELS "experiments;lin"
                       TIMEOUT 300 PASS_REGULAR_EXPRESSION "lin-ch2-faithful tiny: report written")
endif()

# The in-place study's comparison (issue 24 item 8, tests/preempt/lin_inplace_metric.py): the
# same preemption under both policies, Lin's spill latency as registers + shared memory + stacks;
# on synthetic records (ci, well under a second) and end to end on histogram+backprop with the
# thesis's stop in place ([context] inplace_stop; full, two small runs).
if(Python3_Interpreter_FOUND)
  add_test(NAME preempt_inplace_metric
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/preempt/lin_inplace_metric.py unit
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_inplace_metric PROPERTIES LABELS "preempt;lin;experiments"
                       TIMEOUT 60 PASS_REGULAR_EXPRESSION "^unit: ")
endif()
if(TARGET heddle AND Python3_Interpreter_FOUND)
  add_test(NAME preempt_lin_inplace_stop
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/preempt/lin_inplace_metric.py e2e
                   $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(preempt_lin_inplace_stop PROPERTIES LABELS "preempt;lin" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "^e2e: ")
endif()

# Lin Fig 2.4 end to end (tests/unit/test_lin_fig24.c, [context] inplace_split, tests/lin/fig24.ini):
# a unit test (ci, about 0.3 s); counted in Lin's budget.
if(TEST test_lin_fig24)
  set_property(TEST test_lin_fig24 APPEND PROPERTY LABELS lin)
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^preempt_signals_(switch|compressed|drain)_backprop$"
        "^preempt_signals_switch_(bfs|hotspot)$"
        "^preempt_inplace"
        "^preempt_signal_"
        "^preempt_mix_stats_timing$"
        "^preempt_lin_(quiesce|period|kernel|liveness)$"
        "^experiments_lin_ch2_faithful_tiny$")
