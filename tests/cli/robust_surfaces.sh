#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# robust_surfaces.sh - regression tests of issue 34 (robustness of the new surfaces: late
# arrivals, launch attributes, outputs over the running binary or a file the run reads, stress
# livelocks, oracle profiles, cosim windows, configuration exit codes). One case per run, in a
# scratch directory; the binary-overwrite cases run a copy of the binary.
#
# Usage: tests/cli/robust_surfaces.sh CASE HEDDLE SOURCE_ROOT   (tests/robust_surfaces.cmake)
# Exit 0 when the case holds; otherwise a message and exit 1.
set -u
case_="$1"
heddle="$2"
root="$3"
NAME=surfaces
# shellcheck source=tests/cli/case_lib.sh
. "$root/tests/cli/case_lib.sh"
# the vecadd launch of the issue (c = a + b over 1024 floats)
vecadd_launch() {
    echo "$wl/vecadd/vecadd.ptx vecadd --grid 4 --block 256 --arg buf:a:4K:seq-f32" \
         "--arg buf:b:4K:const-f32:0.5 --arg buf:c:4K:zero --arg s32:1024"
}

case "$case_" in
# {==== item 1: a launch that has not arrived is not pending work ====
late_arrival_launch)
    # c[i] = i + 0.5: element 1000 is 1000.5 (0x447a2000)
    # shellcheck disable=SC2046
    expect 0 "completed: 1 kernel, 4 CTAs" "$heddle" launch $(vecadd_launch) --arrive 1000000 \
        --print c:x32:1024
    grep -q '447a2000' out.txt || fail "c[1000] is not 1000.5"
    ;;
late_arrival_mix)
    expect 0 "VERIFIED \(2 of 2 workloads verified\)" \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@1000000:1
    cyc=$(awk '$1 == "vecadd" && $2 == "VERIFIED" { gsub(",", "", $NF); print $NF }' out.txt)
    [ "${cyc:-0}" -ge 1000000 ] || fail "vecadd ended at cycle '$cyc', before it arrived"
    ;;
late_arrival_far)
    # 10^12 idle cycles are skipped at once (a poll every 4096 cycles would take hours)
    expect 0 "VERIFIED \(2 of 2 workloads verified\)" timeout 60 \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@1000000000000:1
    grep -Eq 'vecadd +VERIFIED .* 1,000,000,00[0-9],[0-9]{3}$' out.txt ||
        fail "vecadd did not end just after cycle 10^12"
    ;;
late_arrival_no_skip)
    expect 0 "VERIFIED \(2 of 2 workloads verified\)" \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@1000000:1 --set timing.skip_idle=false
    ;;
finished_stays_verified)
    # vecadd never arrives within --max-cycles; persistent finished at cycle 63,552
    expect 1 "NOT VERIFIED \(1 of 2 workloads verified\)" \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@100000:1 --max-cycles 80000
    grep -Eq '^  persistent +VERIFIED' out.txt || fail "persistent is not VERIFIED"
    grep -Eq '^  vecadd +FAILED' out.txt || fail "vecadd is not FAILED"
    grep -q 'max_cycles = 80000 at cycle 80000' out.txt || fail "not stopped at the limit"
    ;;
# }====
# {==== item 7: a stress livelock is seen by the instruction watchdog ====
stress_livelock)
    expect 1 "livelock: no warp instruction issued for [0-9]+ cycles .*stress_period = 1 with stress_fraction = 1" \
        timeout 60 "$heddle" run vecadd --set context.stress_period=1 \
        --set context.stress_fraction=1
    ;;
# }====
# {==== item 3: no output over the running binary or a file the run reads ====
fst_over_binary)
    cp "$heddle" ./hd
    cp hd orig
    ln hd hd-link # another name of the same file: compared by identity, not by name
    expect 2 "--fst ./hd would overwrite the running heddle binary" \
        ./hd cosim --blocks regpat vecadd --fst ./hd --window 0:10
    expect 2 "--fst hd-link would overwrite the running heddle binary" \
        ./hd cosim --blocks regpat vecadd --fst hd-link --window 0:10
    expect 2 "--stats hd-link would overwrite the running heddle binary" \
        ./hd run vecadd --stats hd-link
    expect 2 "--dump hd would overwrite the running heddle binary" \
        ./hd launch "$wl/vecadd/vecadd.ptx" vecadd --grid 1 --block 32 --arg buf:a:64:zero \
        --arg buf:b:64:zero --arg buf:c:64:zero --arg s32:16 --dump c:hd
    cmp -s hd orig || fail "the binary changed"
    ;;
output_over_profile)
    "$heddle" run vecadd --quiet --profile-out p.prof >/dev/null || fail "profile-out"
    cp p.prof orig.prof
    expect 2 "--profile-out p.prof would overwrite the input \[context\] oracle_profile p.prof" \
        "$heddle" run vecadd --set context.preempt_policy=oracle \
        --set context.oracle_profile=p.prof --profile-out p.prof
    printf '[context]\npreempt_policy = oracle\noracle_profile = %s/p.prof\n' "$tmp" > o.ini
    expect 2 "--stats ./p.prof would overwrite the input \[context\] oracle_profile" \
        "$heddle" run --mix persistent+vecadd --config o.ini --stats ./p.prof
    cmp -s p.prof orig.prof || fail "the profile changed"
    ;;
# }====
# {==== item 2: one parser of arrivals, priorities and cycle budgets ====
arrive_values)
    r='the cycle must be an integer from 0 to 1000000000000000'
    expect 2 "'vecadd@-5:1': $r" "$heddle" run --mix persistent+vecadd --arrive vecadd@-5:1
    expect 2 "'vecadd@18446744073709551616': $r" \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@18446744073709551616
    expect 2 "'vecadd@ 5': $r" "$heddle" run --mix persistent+vecadd --arrive 'vecadd@ 5'
    expect 2 "the priority must be an integer from -1000000 to 1000000" \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@5:-2147483648
    expect 2 "the priority must be an integer from -1000000 to 1000000" \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@5:2147483647
    expect 2 "workload vecadd already arrives by --arrive 'vecadd@5'" \
        "$heddle" run --mix persistent+vecadd --arrive vecadd@5 --arrive vecadd@6:1
    expect 2 "--repeat-until '18446744073709551616': wants a cycle count from 1 to 1000000000000000" \
        "$heddle" run --mix sgemm+vecadd --repeat vecadd --repeat-until 18446744073709551616
    expect 2 "--repeat-until '0': wants a cycle count from 1" \
        "$heddle" run --mix sgemm+vecadd --repeat vecadd --repeat-until 0
    # shellcheck disable=SC2046
    expect 2 "--arrive '-5': wants a cycle count from 0 to 1000000000000000" \
        "$heddle" launch $(vecadd_launch) --arrive -5
    # shellcheck disable=SC2046
    expect 2 "--arrive '18446744073709551616': wants a cycle count" \
        "$heddle" launch $(vecadd_launch) --arrive 18446744073709551616
    # shellcheck disable=SC2046
    expect 2 "--priority '1000001': wants an integer priority from -1000000 to 1000000" \
        "$heddle" launch $(vecadd_launch) --priority 1000001
    # shellcheck disable=SC2046
    expect 2 "--hint '4294967296': wants an integer from 0 to 4294967295" \
        "$heddle" launch $(vecadd_launch) --hint 4294967296
    # the bounds themselves are accepted
    expect 0 "VERIFIED \(2 of 2" "$heddle" run --mix persistent+vecadd --arrive vecadd@0:-1000000
    # shellcheck disable=SC2046
    expect 0 "completed: 1 kernel" "$heddle" launch $(vecadd_launch) --priority 1000000 \
        --hint 4294967295 --latency-bound 1000000000000000
    ;;
# }====
# {==== item 9: oracle profiles are checked where the configuration is ====
oracle_profile_checks)
    echo garbage > bad.prof
    o="--set context.preempt_policy=oracle --set context.oracle_profile"
    # shellcheck disable=SC2086
    expect 2 "key 'oracle_profile': bad.prof:1: not a drain profile" \
        "$heddle" run vecadd $o=bad.prof
    grep -Eq 'FAILED|functional' out.txt && fail "the refused run was reported as run"
    # shellcheck disable=SC2086
    expect 2 "key 'oracle_profile': bad.prof:1: not a drain profile" "$heddle" config $o=bad.prof
    mkdir pd
    # shellcheck disable=SC2086
    expect 2 "key 'oracle_profile': pd: is a directory" "$heddle" run vecadd $o=pd
    # a profile of another workload: its launch 0 is another kernel
    "$heddle" run sgemm --quiet --profile-out sg.prof >/dev/null || fail "profile-out"
    # shellcheck disable=SC2086
    expect 1 "sg.prof names kernel sgemm_tiled for launch 0, but launch 0 of this run is kernel vecadd" \
        "$heddle" run vecadd $o=sg.prof
    # one kernel per launch within a profile
    "$heddle" run vecadd --quiet --profile-out v.prof >/dev/null || fail "profile-out"
    awk '!/^#/ && $1 == 0 && ++n == 2 { $2 = "other" } 1' v.prof > v2.prof
    # shellcheck disable=SC2086
    expect 2 "v2.prof:[0-9]+: launch 0 is kernel other here and kernel vecadd on line [0-9]+" \
        "$heddle" config $o=v2.prof
    # shellcheck disable=SC2086
    expect 0 "VERIFIED" "$heddle" run vecadd $o=v.prof
    ;;
# }====
# {==== item 10: smaller ====
config_rule_exit)
    # a rule across keys broken by --set exits 2, as a value out of its range does
    expect 2 "key 'ldst_segment_bytes': 33 is not a power of two" \
        "$heddle" run vecadd --set pipeline.ldst_segment_bytes=33
    expect 2 "key 'ldst_segment_bytes'" "$heddle" config --set pipeline.ldst_segment_bytes=33
    expect 2 "ldst_segment_bytes" "$heddle" run vecadd --set pipeline.ldst_segment_bytes=0
    ;;
help_texts)
    expect 0 "--hint N" "$heddle" launch --help
    expect 0 "--record-max N +at most N vectors \(default 4096; 0: no limit\)" "$heddle" cosim --help
    expect 0 "stress_seed += 1 +u64 \(0 \.\. 18446744073709551615\)" "$heddle" --help-config
    expect 0 "VERIFIED" "$heddle" run vecadd --set context.stress_seed=18446744073709551615
    ;;
window_bounds)
    expect 2 "--window '0:18446744073709551615': needs A:B with 0 <= A <= B <= 1000000000000000" \
        "$heddle" cosim --blocks regpat vecadd --fst w.fst --window 0:18446744073709551615
    expect 2 "--window '5:-1'" "$heddle" cosim --blocks regpat vecadd --fst w.fst --window 5:-1
    expect 2 "--fst needs --window A:B" "$heddle" cosim --blocks regpat vecadd --fst w.fst
    ;;
# }====
*)
    fail "unknown case"
    ;;
esac
echo "PASS $case_"
