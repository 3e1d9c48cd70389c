#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz-compile.sh - fuzz the compiler passes (CFG, liveness, register allocation and its checker)
# and functional execution on fuzzer-made PTX with libFuzzer for a bounded time; fail on any
# crash, sanitizer report, leak, timeout or invalid allocation.
#
# Two targets, each for SECONDS: fuzz_compile (tests/fuzz/fuzz_compile.c) and fuzz_exec (every
# kernel launched on the functional model, bounded by max_instrs: fuzz_exec.c), compiled directly
# from model/ptx, model/compiler and model/func (which depend on nothing else) with clang, -fsanitize=fuzzer,address,undefined, into
# $HD_FUZZ_BUILD. Seeds: tests/ptx/good, tests/ptx/bad, tests/fuzz/regress (the PTX fuzzer's) and
# tests/fuzz/compile_seeds. A failing input is left in $BUILD/fuzz-compile-artifacts/; once fixed,
# copy it into tests/fuzz/compile_seeds so the replay tests (compile_fuzz_replay,
# exec_fuzz_replay) keep it fixed.
# For long runs: scripts/fuzz-compile.sh 3600.
#
# Usage: scripts/fuzz-compile.sh [SECONDS]   (default 30 per target)
# Environment: HD_FUZZ_BUILD (default build-fuzz), CC (default clang).
set -euo pipefail

secs="${1:-30}"
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2;; esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${HD_FUZZ_BUILD:-$root/build-fuzz}"
cc="${CC:-clang}"
command -v "$cc" >/dev/null || { echo "fuzz-compile.sh: $cc not found (install clang)" >&2; exit 2; }
mkdir -p "$build"
artifacts="$build/fuzz-compile-artifacts"
rm -rf "$artifacts"
mkdir -p "$artifacts"

status=0
for target in fuzz_compile fuzz_exec; do
    bin="$build/$target"
    "$cc" -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -fno-omit-frame-pointer -D_POSIX_C_SOURCE=200809L -I"$root/model/ptx" \
        -I"$root/model/compiler" -I"$root/model/func" "$root/tests/fuzz/$target.c" \
        "$root"/model/ptx/*.c "$root"/model/compiler/*.c \
        $([ "$target" = fuzz_exec ] && echo "$root"/model/func/*.c) -lm -o "$bin"
    corpus="$build/$target-corpus"
    mkdir -p "$corpus"
    cp -n "$root"/tests/ptx/good/*.ptx "$root"/tests/ptx/bad/*.ptx "$root"/tests/fuzz/regress/* \
        "$root"/tests/fuzz/compile_seeds/* "$corpus"/ 2>/dev/null || true
    echo "fuzz-compile.sh: $target for ${secs}s, corpus $corpus"
    rc=0
    "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
        -dict="$root/tests/fuzz/ptx.dict" -artifact_prefix="$artifacts/$target-" \
        -print_final_stats=1 "$corpus" || rc=$?
    [ "$rc" -eq 0 ] || status=$rc
done
if [ "$status" -ne 0 ] || ls "$artifacts"/*crash-* "$artifacts"/*leak-* "$artifacts"/*timeout-* \
        "$artifacts"/*oom-* >/dev/null 2>&1; then
    echo "fuzz-compile.sh: FAILED (status $status); inputs in $artifacts:" >&2
    ls -l "$artifacts" >&2
    exit 1
fi
echo "fuzz-compile.sh: no crash in ${secs}s per target"
