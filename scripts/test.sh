#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test.sh - run a test tier (docs/testing.md). Without options the CI tier: install what is missing
# (with Slurm) and build build/ with the tests (scripts/setup.sh --tier ci), run the CTests labelled
# `ci`, the sanitizer subset, then fuzz the PTX front end, the configuration readers, the compiler
# passes and the timing model briefly when clang with libFuzzer is available. --full: build
# everything (--tier full: every testbench, mutant, internal-signal model, RTL configuration), run
# every CTest (all variants under stress, all mutation subsets, all RTL configurations, every
# experiment at tiny size), the complete mutation run (scripts/mutation-run.sh) and long fuzzing.
# At the end: the wall time of each step, and the seconds of each CTest label (the sum of its tests'
# times in this run, from CTest's JUnit output; 2 run at a time, so the sums exceed the wall time).
#
# Usage: scripts/test.sh [--full]
# Environment:
#   HD_FUZZ_SECONDS   PTX fuzzing time in seconds (CI 15, full 300; 0 skips fuzzing); each
#                     configuration target, the compiler targets and the timing target get half
#   HD_TEST_ASAN=1    also build build-asan/ with AddressSanitizer+UBSan (Debug) and run its CI-tier
#                     CTests (the full sanitizer run, on demand; it replaces the subset below)
#   HD_TEST_ASAN_SUBSET=0  skip the sanitizer subset (scripts/asan-subset.sh: a sanitized build of
#                     the model, heddle and the unit tests in build-asan-subset/; every unit test,
#                     one small run per workload, one mix, one C-reference co-simulation; ~3 CPU
#                     minutes, docs/robustness.md)
#   HD_TEST_MUTATION_RUN=0  with --full: skip the complete mutation run (tens of minutes)
# Exit status: non-zero if the build, any test or the fuzzer fails (2: bad usage).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tier=ci
case "${1:-}" in
    "") ;;
    --full) tier=full ;;
    -h|--help) sed -n '3,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown option '$1' (usage: scripts/test.sh [--full])" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "test.sh: one option at most (usage: scripts/test.sh [--full])" >&2; exit 2; }
start=$SECONDS
steps=""
step() { # step NAME SECONDS: remembered for the summary
    steps="${steps}$(printf '  %-28s %6d s' "$1" "$2")"$'\n'
}

t=$SECONDS
"$root/scripts/setup.sh" --with-slurm --tier "$tier" # the Slurm backend is tested for real (tests/sweep.cmake)
step "setup + build ($tier tier)" $((SECONDS - t))

log="$(mktemp)"
junit="$root/build/Testing/test-$tier.xml"
trap 'rm -f "$log"' EXIT
label=()
[ "$tier" = ci ] && label=(-L '^ci$')
t=$SECONDS
rc=0
ctest --test-dir "$root/build" --output-on-failure -j2 "${label[@]}" --output-junit "$junit" 2>&1 |
    tee "$log" || rc=$?
step "ctest ($tier tier)" $((SECONDS - t))
passed="$(sed -n 's/.* tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)"
if [ "$rc" -ne 0 ] || [ -z "$passed" ]; then
    echo "test.sh: CTest failed" >&2
    exit 1
fi

if [ "${HD_TEST_ASAN:-0}" != 1 ] && [ "${HD_TEST_ASAN_SUBSET:-1}" = 1 ]; then
    t=$SECONDS
    "$root/scripts/asan-subset.sh" "$root/build-asan-subset" 2>&1 | tee "$log"
    n="$(sed -n 's/.* tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)"
    passed=$((passed + ${n:-0}))
    step "sanitizer subset" $((SECONDS - t))
fi
if [ "${HD_TEST_ASAN:-0}" = 1 ]; then
    t=$SECONDS
    cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DHD_SANITIZE=ON -DHD_TIER=ci >/dev/null
    cmake --build "$root/build-asan" -j2 >/dev/null
    ctest --test-dir "$root/build-asan" --output-on-failure -j2 -L '^ci$' 2>&1 | tee "$log"
    n="$(sed -n 's/.* tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)"
    passed=$((passed + ${n:-0}))
    step "sanitizer build + ctest" $((SECONDS - t))
fi

if [ "$tier" = full ] && [ "${HD_TEST_MUTATION_RUN:-1}" = 1 ]; then
    # every mutant of every block (the CTests ran subsets): tb_<b>_mut and tb_<b>_mut_asan are built
    t=$SECONDS
    "$root/scripts/mutation-run.sh" "$root/build"
    passed=$((passed + 1))
    step "complete mutation run" $((SECONDS - t))
fi

# libFuzzer: only where clang can link -fsanitize=fuzzer (Debian: libclang-rt-14-dev).
if [ "$tier" = full ]; then
    fuzz_secs="${HD_FUZZ_SECONDS:-300}"
else
    fuzz_secs="${HD_FUZZ_SECONDS:-15}"
fi
have_fuzzer() {
    command -v clang >/dev/null || return 1
    local tmp
    tmp="$(mktemp -d)"
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' \
        >"$tmp/f.c"
    local rc=0
    clang -fsanitize=fuzzer "$tmp/f.c" -o "$tmp/f" >/dev/null 2>&1 || rc=1
    rm -rf "$tmp"
    return $rc
}
if [ "$fuzz_secs" -gt 0 ]; then
    if [ ! -x "$root/scripts/fuzz-ptx.sh" ]; then
        echo "test.sh: fuzzing SKIPPED: scripts/fuzz-ptx.sh is missing"
    elif have_fuzzer; then
        half=$(( (fuzz_secs + 1) / 2 ))
        # Two lanes side by side (each fuzzer and each direct clang compile uses one core): the
        # timing model's instrumented build and run in one, PTX, configuration and compiler in the
        # other; each lane's output goes to a log printed when both are done, and each script's
        # wall time is measured inside its lane.
        fuzzlog="$(mktemp -d)"
        lane() { # lane NAME SCRIPT SECONDS ...: run the scripts in order, stop at the first failure
            local name="$1"; shift
            while [ $# -gt 0 ]; do
                local s0=$SECONDS rc=0
                "$root/scripts/$2" "$3" >>"$fuzzlog/$name.log" 2>&1 || rc=$?
                echo "$1 $((SECONDS - s0)) $rc" >>"$fuzzlog/$name.times"
                [ "$rc" -eq 0 ] || return "$rc"
                shift 3
            done
        }
        t=$SECONDS
        lane a "fuzz timing (${half} s + build)" fuzz-timing.sh "$half" &
        pid_a=$!
        lane b "fuzz PTX (${fuzz_secs} s)" fuzz-ptx.sh "$fuzz_secs" \
               "fuzz configuration (${half} s)" fuzz-config.sh "$half" \
               "fuzz compiler (${half} s)" fuzz-compile.sh "$half" &
        pid_b=$!
        rc_a=0; rc_b=0
        wait "$pid_a" || rc_a=$?
        wait "$pid_b" || rc_b=$?
        cat "$fuzzlog/b.log" "$fuzzlog/a.log" 2>/dev/null || true
        while read -r line; do # "NAME WORDS... SECONDS RC"
            read -r -a w <<<"$line"
            n=${#w[@]}
            step "  ${w[*]:0:$((n - 2))}" "${w[$((n - 2))]}"
        done < <(cat "$fuzzlog/b.times" "$fuzzlog/a.times" 2>/dev/null)
        step "fuzzing, two lanes (wall)" $((SECONDS - t))
        rm -rf "$fuzzlog"
        if [ "$rc_a" -ne 0 ] || [ "$rc_b" -ne 0 ]; then
            echo "test.sh: fuzzing FAILED (timing lane $rc_a, PTX/configuration/compiler lane $rc_b)" >&2
            exit 1
        fi
        passed=$((passed + 4))
    else
        echo "test.sh: fuzzing SKIPPED: clang with libFuzzer not available" \
             "(apt-get install clang libclang-rt-14-dev)"
    fi
fi

echo "test.sh: per-label seconds of the $tier tier's CTests (sum of test times, 2 at a time):"
python3 "$root/scripts/test-times.py" "$junit" "$root/build" || echo "  (no per-label times: $junit)"
echo "test.sh: steps (wall):"
printf '%s' "$steps"
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "test.sh: $tier tier: every test passed in $((SECONDS - start)) s wall ($(nproc 2>/dev/null || echo '?') cores, load average $load)"
echo "test.sh: $passed passed, 0 failed"
