# SPDX-License-Identifier: MIT
# Shieh's Oracle baseline ([context] preempt_policy = oracle, oracle_profile; drain_profile.h;
# issue 14 item 3) and the shieh experiment at test scale (issue 14 item 6):
# - shieh_oracle_profile: `heddle run pathfinder --profile-out` writes every CTA of its two
#   launches (76 records: launch, kernel, CTA, warp instructions, cycles).
# - shieh_oracle_drains / shieh_oracle_shieh_switches: pathfinder+preempter, the preempter
#   arriving at cycle 4000 (first wave: no pathfinder CTA has finished) with L_c = 12000 on
#   SM-granular SMs. Shieh's estimator has no finished-TB statistics, charges drain the maximum
#   (L236) and switches two CTAs per SM; the Oracle knows each CTA's remaining time from the
#   profile (about 11,300 cycles, within 12000) and drains them (0 instructions lost); both
#   outputs verified either way.
# - shieh_oracle_no_profile / shieh_oracle_bad_profile: a clear error naming the key, the file
#   and the line.
# - experiments_shieh_tiny: experiments/shieh.sh with HD_EXP_SIZE=tiny (pathfinder, one request,
#   L_c 2 and 5 us) writes its report and figures, the drain-estimate error and
#   utilisation ones (Fig 4.2, 4.4) included, in the faithful setup (issue 24: L_CS / L_c of a
#   pathfinder CTA 0.779 in its setup table; preempter_gpu in every mix; the thesis's runs:
#   Chimera and proposed at both L_c, the Oracle at 2 us; the acceptance table of item 3 printed
#   and its numbers recomputed from the runs by tests/shieh/acceptance.py --numbers-only).
set(HD_TEST_MECHANISM shieh) # docs/testing.md: Shieh's budget
if(TARGET heddle)
  set(hd_so_dir ${CMAKE_CURRENT_BINARY_DIR}/so)
  add_test(NAME shieh_oracle_profile
           COMMAND bash -c "mkdir -p \"$1\" && \"$2\" run pathfinder --quiet --profile-out \"$1/pf.prof\" >/dev/null && head -3 \"$1/pf.prof\" | grep -q '^heddle-drain-profile 1$' && echo records $(grep -c '^[01] pf_dynproc [0-9]* [1-9][0-9]* [1-9][0-9]*$' \"$1/pf.prof\")"
                   -- ${hd_so_dir} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_oracle_profile PROPERTIES LABELS "mixes" TIMEOUT 120
                       FIXTURES_SETUP shieh_oracle_prof PASS_REGULAR_EXPRESSION "^records 76\n")
  set(hd_so_args run --mix pathfinder+preempter --arrive preempter@4000:1
                 --set context.latency_bound=12000 --set sm.allocator=aligned
                 --set context.oracle_profile=${hd_so_dir}/pf.prof)
  add_test(NAME shieh_oracle_drains
           COMMAND $<TARGET_FILE:heddle> ${hd_so_args} --set context.preempt_policy=oracle
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_oracle_drains PROPERTIES LABELS "mixes" TIMEOUT 120
    FIXTURES_REQUIRED shieh_oracle_prof
    PASS_REGULAR_EXPRESSION "by drain of pf_dynproc at cycle 40[0-9][0-9] \\(0 switched, 2 drained, 0 flushed\\): freed after [0-9]+ cycles; within its bound of 12000.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "FAILED|MISSED|internal:|[1-9][0-9]* switched")
  add_test(NAME shieh_oracle_shieh_switches
           COMMAND $<TARGET_FILE:heddle> ${hd_so_args} --set context.preempt_policy=shieh
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_oracle_shieh_switches PROPERTIES LABELS "mixes" TIMEOUT 120
    FIXTURES_REQUIRED shieh_oracle_prof
    PASS_REGULAR_EXPRESSION "by switch of pf_dynproc at cycle 40[0-9][0-9] \\(2 switched, 0 drained, 0 flushed.*VERIFIED \\(2 of 2"
    FAIL_REGULAR_EXPRESSION "FAILED|MISSED|internal:|[1-9][0-9]* drained")
  add_test(NAME shieh_oracle_no_profile
           COMMAND $<TARGET_FILE:heddle> run --mix pathfinder+preempter --arrive preempter@4000:1
                   --set context.preempt_policy=oracle
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_oracle_no_profile PROPERTIES LABELS "mixes" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "oracle needs \\[context\\] oracle_profile, a profile written by heddle run WORKLOAD --profile-out FILE")
  add_test(NAME shieh_oracle_bad_profile
           COMMAND bash -c "mkdir -p \"$1\" && printf 'heddle-drain-profile 1\\n0 k 0 12 34\\n0 k 1 12 x\\n' >\"$1/bad.prof\" && \"$2\" run --mix pathfinder+preempter --set context.preempt_policy=oracle --set context.oracle_profile=\"$1/bad.prof\"; \"$2\" run --mix pathfinder+preempter --set context.preempt_policy=oracle --set context.oracle_profile=\"$1/none.prof\""
                   -- ${hd_so_dir} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(shieh_oracle_bad_profile PROPERTIES LABELS "mixes" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "key 'oracle_profile': [^\n]*/bad.prof:3: expected 'LAUNCH KERNEL CTA WARP_INSTRS CYCLES'.*key 'oracle_profile': [^\n]*/none.prof: cannot open the Oracle's profile")

  set(hd_sx_out ${CMAKE_CURRENT_BINARY_DIR}/shieh-tiny)
  add_test(NAME experiments_shieh_tiny
           COMMAND bash -c "rm -rf \"$1\" && HD_EXP_SIZE=tiny HD_EXP_OUT=\"$1\" HD_EXP_STAGE1=tests/sweep/shieh-tiny.toml experiments/shieh.sh \"$2\" -j 2 && test -s \"$1/report.md\" && test -s \"$1/violation.png\" && test -s \"$1/overhead.png\" && test -s \"$1/techniques.png\" && test -s \"$1/drain_error.png\" && test -s \"$1/utilisation.png\" && grep -q 'Drain-estimate error (Fig 4.2)' \"$1/report.md\" && grep -q 'Utilisation during preemption (Fig 4.4)' \"$1/report.md\" && grep -q '| faithful | 700 | 16.896 | 0.779 |' \"$1/report.md\" && grep -q 'Acceptance (issue 24 items 1-3)' \"$1/report.md\" && python3 tests/shieh/acceptance.py \"$1/shieh.json\" --numbers-only && echo 'shieh tiny: figures and tables written'"
                   -- ${hd_sx_out} $<TARGET_FILE:heddle>
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(experiments_shieh_tiny PROPERTIES LABELS "experiments" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "all 8 points ok.*written [^\n]*report.md.*shieh tiny: figures and tables written")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^shieh_oracle_" "^experiments_shieh_tiny$") # (issue 24: CI keeps the tiny run)
