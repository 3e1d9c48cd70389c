#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz-timing.sh - fuzz the cycle-level timing model on fuzzer-made kernels with libFuzzer for a
# bounded time; fail on any crash, sanitizer report, leak, timeout, message-less failure or
# non-deterministic run (tests/fuzz/fuzz_timing.c: every kernel launched through the runtime on a
# 2-SM GPU in cycle mode, bounded by [timing] max_cycles and max_instructions, run twice).
#
# The target needs coverage in every model library (PTX front end, compiler passes, functional
# model, timing model, memory system, runtime), so it is a CMake build of its own in
# $HD_FUZZ_BUILD-timing with clang, -fsanitize=fuzzer-no-link,address,undefined on every
# library, without the Verilator blocks (-DHD_COSIM_RTL=OFF), building only fuzz_timing
# (-DHD_FUZZ_TIMING=ON). Seeds: tests/fuzz/timing_seeds, tests/fuzz/compile_seeds and
# tests/ptx/good. A failing input is left in $BUILD/fuzz-timing-artifacts/; once fixed, copy it
# into tests/fuzz/timing_seeds so the replay test (timing_fuzz_replay) keeps it fixed.
# For long runs: nice -n 19 scripts/fuzz-timing.sh 1800.
#
# Usage: scripts/fuzz-timing.sh [SECONDS]   (default 30)
# Environment: HD_FUZZ_BUILD (default build-fuzz; the build goes to $HD_FUZZ_BUILD-timing),
# CC (default clang).
set -euo pipefail

secs="${1:-30}"
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2;; esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${HD_FUZZ_BUILD:-$root/build-fuzz}-timing"
cc="${CC:-clang}"
command -v "$cc" >/dev/null || { echo "fuzz-timing.sh: $cc not found (install clang)" >&2; exit 2; }
mkdir -p "$build"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# clang's warnings differ from gcc's, which the tree is kept clean under: no -Werror here
read -r -a generator <<<"$("$root/scripts/cmake-generator.sh" "$build")"
if ! CC="$cc" cmake "${generator[@]}" -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHD_WERROR=OFF \
        -DHD_COSIM_RTL=OFF -DHD_MUTATION=OFF -DHD_FUZZ_TIMING=ON -DCMAKE_C_FLAGS="$flags" \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >"$build/configure.log" 2>&1 ||
   ! cmake --build "$build" --target fuzz_timing -j2 >"$build/build.log" 2>&1; then
    echo "fuzz-timing.sh: the build failed (see $build/configure.log, $build/build.log)" >&2
    exit 1
fi
bin="$build/tests/fuzz_timing"
artifacts="$build/fuzz-timing-artifacts"
corpus="$build/fuzz-timing-corpus"
rm -rf "$artifacts"
mkdir -p "$artifacts" "$corpus"
cp -n "$root"/tests/fuzz/timing_seeds/* "$root"/tests/fuzz/compile_seeds/* \
    "$root"/tests/ptx/good/*.ptx "$corpus"/ 2>/dev/null || true

echo "fuzz-timing.sh: fuzz_timing for ${secs}s, corpus $corpus"
status=0
"$bin" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -max_len=16384 \
    -dict="$root/tests/fuzz/ptx.dict" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "$corpus" || status=$?
if [ "$status" -ne 0 ] || ls "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* \
        "$artifacts"/oom-* >/dev/null 2>&1; then
    echo "fuzz-timing.sh: FAILED (status $status); inputs in $artifacts:" >&2
    ls -l "$artifacts" >&2
    exit 1
fi
echo "fuzz-timing.sh: no failure in ${secs}s"
