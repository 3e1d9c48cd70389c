#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz-ptx.sh - fuzz the PTX front end with libFuzzer for a bounded time; fail on any crash.
#
# Builds the fuzz_ptx target (tests/fuzz.cmake, -DHD_FUZZ=ON, clang with ASan+UBSan) in its own
# build directory, seeds a working corpus from tests/ptx/good, tests/ptx/bad and
# tests/fuzz/regress, and runs for SECONDS. If the whole tree does not configure (another layer
# mid-change), it compiles the target directly from model/ptx with the same flags, since the front
# end depends on nothing else. A crash, leak, timeout or violated IR invariant leaves its input in
# $BUILD/fuzz-artifacts/ and makes the script exit non-zero; copy such inputs into
# tests/fuzz/regress/ once fixed so the replay test keeps them fixed.
#
# Usage: scripts/fuzz-ptx.sh [SECONDS]   (default 60)
# Environment: HD_FUZZ_BUILD (default build-fuzz), CC (default clang), HD_FUZZ_JOBS (default 1).
# Needs clang and libFuzzer (Debian: clang, libclang-rt-14-dev).
set -euo pipefail

secs="${1:-60}"
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2;; esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${HD_FUZZ_BUILD:-$root/build-fuzz}"
cc="${CC:-clang}"
command -v "$cc" >/dev/null || { echo "fuzz-ptx.sh: $cc not found (install clang)" >&2; exit 2; }

bin="$build/tests/fuzz_ptx"
# without the RTL (-DHD_COSIM_RTL=OFF): its configure would run Verilator for every block
read -r -a generator <<<"$("$root/scripts/cmake-generator.sh" "$build")"
if CC="$cc" cmake "${generator[@]}" -S "$root" -B "$build" -DHD_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DHD_COSIM_RTL=OFF -DHD_MUTATION=OFF \
        >"$build.configure.log" 2>&1 &&
   cmake --build "$build" --target fuzz_ptx -j2 >"$build.build.log" 2>&1; then
    echo "fuzz-ptx.sh: built $bin with CMake (HD_FUZZ=ON)"
else
    echo "fuzz-ptx.sh: the tree does not configure/build; compiling the target directly" \
         "(see $build.configure.log / $build.build.log)"
    mkdir -p "$build/tests"
    "$cc" -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -fno-omit-frame-pointer -D_POSIX_C_SOURCE=200809L -I"$root/model/ptx" \
        "$root/tests/fuzz/fuzz_ptx.c" "$root"/model/ptx/*.c -o "$bin"
fi

corpus="$build/fuzz-corpus"
artifacts="$build/fuzz-artifacts"
rm -rf "$artifacts"
mkdir -p "$corpus" "$artifacts"
cp -n "$root"/tests/ptx/good/*.ptx "$root"/tests/ptx/bad/*.ptx "$corpus"/ 2>/dev/null || true
cp -n "$root"/tests/fuzz/regress/* "$corpus"/ 2>/dev/null || true

echo "fuzz-ptx.sh: fuzzing for ${secs}s, corpus $corpus"
jobs=()
if [ "${HD_FUZZ_JOBS:-1}" -gt 1 ]; then
    jobs=(-jobs="$HD_FUZZ_JOBS" -workers="$HD_FUZZ_JOBS")
fi
status=0
"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 "${jobs[@]}" \
    -dict="$root/tests/fuzz/ptx.dict" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "$corpus" || status=$?
if [ "$status" -ne 0 ] || ls "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* \
        "$artifacts"/oom-* >/dev/null 2>&1; then
    echo "fuzz-ptx.sh: FAILED (status $status); inputs in $artifacts:" >&2
    ls -l "$artifacts" >&2
    exit 1
fi
echo "fuzz-ptx.sh: no crash in ${secs}s"
