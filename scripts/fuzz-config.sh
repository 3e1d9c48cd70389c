#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz-config.sh - fuzz the configuration readers with libFuzzer for a bounded time; fail on any
# crash, sanitizer report, leak, timeout or violated invariant.
#
# Two targets, each for SECONDS: fuzz_config (INI files and --set overrides, tests/fuzz/
# fuzz_config.c) and fuzz_gpgpusim (the GPGPU-Sim option-file importer, fuzz_gpgpusim.c). Both
# are compiled directly from model/config (which depends on nothing else) with clang,
# -fsanitize=fuzzer,address,undefined, into $HD_FUZZ_BUILD. Seeds: configs/*.ini,
# tests/fuzz/config_seeds (files starting "#set" are --set lists), tests/config and
# tests/fuzz/gpgpusim_seeds. A failing input is left in $BUILD/fuzz-config-artifacts/; once fixed,
# copy it into the seed directory so the replay tests (config_fuzz_replay, gpgpusim_fuzz_replay)
# keep it fixed. For long runs: scripts/fuzz-config.sh 3600 (per target).
#
# Usage: scripts/fuzz-config.sh [SECONDS]   (default 30 per target)
# Environment: HD_FUZZ_BUILD (default build-fuzz), CC (default clang).
set -euo pipefail

secs="${1:-30}"
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2;; esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${HD_FUZZ_BUILD:-$root/build-fuzz}"
cc="${CC:-clang}"
command -v "$cc" >/dev/null || { echo "fuzz-config.sh: $cc not found (install clang)" >&2; exit 2; }
mkdir -p "$build"
artifacts="$build/fuzz-config-artifacts"
rm -rf "$artifacts"
mkdir -p "$artifacts"

status=0
for target in fuzz_config fuzz_gpgpusim; do
    bin="$build/$target"
    "$cc" -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -fno-omit-frame-pointer -D_POSIX_C_SOURCE=200809L -I"$root/model/config" \
        "$root/tests/fuzz/$target.c" "$root"/model/config/*.c -lm -o "$bin"
    corpus="$build/$target-corpus"
    mkdir -p "$corpus"
    if [ "$target" = fuzz_config ]; then
        cp -n "$root"/configs/*.ini "$root"/tests/fuzz/config_seeds/* "$root/tests/cli/bad.ini" \
            "$corpus"/ 2>/dev/null || true
    else
        cp -n "$root"/tests/config/* "$root"/tests/fuzz/gpgpusim_seeds/* "$corpus"/ 2>/dev/null || true
    fi
    echo "fuzz-config.sh: $target for ${secs}s, corpus $corpus"
    rc=0
    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
        -artifact_prefix="$artifacts/$target-" -print_final_stats=1 "$corpus" || rc=$?
    [ "$rc" -eq 0 ] || status=$rc
done
if [ "$status" -ne 0 ] || ls "$artifacts"/*crash-* "$artifacts"/*leak-* "$artifacts"/*timeout-* \
        "$artifacts"/*oom-* >/dev/null 2>&1; then
    echo "fuzz-config.sh: FAILED (status $status); inputs in $artifacts:" >&2
    ls -l "$artifacts" >&2
    exit 1
fi
echo "fuzz-config.sh: no crash in ${secs}s per target"
