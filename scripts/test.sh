#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test.sh - run every test: install what is missing (with Slurm) and build (scripts/setup.sh), run the CTest
# suite on build/, then fuzz the PTX front end (scripts/fuzz-ptx.sh), the configuration readers
# (scripts/fuzz-config.sh), the compiler passes (scripts/fuzz-compile.sh) and the timing model
# (scripts/fuzz-timing.sh) for a bounded time when clang with libFuzzer is available.
#
# Environment:
#   HD_FUZZ_SECONDS   PTX fuzzing time in seconds (default 60; 0 skips fuzzing); each
#                     configuration target, the compiler targets and the timing target get half
#                     of it
#   HD_TEST_ASAN=1    also build build-asan/ with AddressSanitizer+UBSan (Debug) and run CTest there
#                     (the full sanitizer run, on demand; it replaces the subset below)
#   HD_TEST_ASAN_SUBSET=0  skip the sanitizer subset (scripts/asan-subset.sh: a sanitized build of
#                     the model, heddle and the unit tests in build-asan-subset/; every unit test,
#                     one small run per workload, one mix, one C-reference co-simulation; ~3 CPU
#                     minutes, docs/robustness.md)
# Exit status: non-zero if the build, any test or the fuzzer fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
start=$SECONDS

"$root/scripts/setup.sh" --with-slurm # the Slurm backend is tested for real (tests/sweep.cmake)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
ctest --test-dir "$root/build" --output-on-failure -j2 2>&1 | tee "$log"
passed="$(sed -n 's/.* tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)"
passed="${passed:-0}"

if [ "${HD_TEST_ASAN:-0}" != 1 ] && [ "${HD_TEST_ASAN_SUBSET:-1}" = 1 ]; then
    "$root/scripts/asan-subset.sh" "$root/build-asan-subset" 2>&1 | tee "$log"
    n="$(sed -n 's/.* tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)"
    passed=$((passed + ${n:-0}))
fi
if [ "${HD_TEST_ASAN:-0}" = 1 ]; then
    cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DHD_SANITIZE=ON >/dev/null
    cmake --build "$root/build-asan" -j2 >/dev/null
    ctest --test-dir "$root/build-asan" --output-on-failure -j2 2>&1 | tee "$log"
    n="$(sed -n 's/.* tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)"
    passed=$((passed + ${n:-0}))
fi

# libFuzzer smoke: only where clang can link -fsanitize=fuzzer (Debian: libclang-rt-14-dev).
fuzz_secs="${HD_FUZZ_SECONDS:-60}"
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
        "$root/scripts/fuzz-ptx.sh" "$fuzz_secs"
        passed=$((passed + 1))
        # the configuration readers (INI + --set, GPGPU-Sim importer): half the time each
        "$root/scripts/fuzz-config.sh" "$(( (fuzz_secs + 1) / 2 ))"
        passed=$((passed + 1))
        # the compiler passes (CFG, liveness, register allocation checked) and functional
        # execution (bounded by max_instrs) on fuzzer-made PTX
        "$root/scripts/fuzz-compile.sh" "$(( (fuzz_secs + 1) / 2 ))"
        passed=$((passed + 1))
        # the timing model on fuzzer-made kernels (bounded by max_cycles / max_instructions,
        # each input run twice: deterministic); its instrumented build costs about a CPU minute
        "$root/scripts/fuzz-timing.sh" "$(( (fuzz_secs + 1) / 2 ))"
        passed=$((passed + 1))
    else
        echo "test.sh: fuzzing SKIPPED: clang with libFuzzer not available" \
             "(apt-get install clang libclang-rt-14-dev)"
    fi
fi
echo "test.sh: every test passed in $((SECONDS - start)) s"
echo "test.sh: $passed passed, 0 failed"
