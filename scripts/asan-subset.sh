#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# asan-subset.sh - the ASan/UBSan subset (issue 17 item 5): a sanitized Debug build of only the
# model library, the heddle CLI and the unit tests, in the configuration without Verilator RTL
# (-DHD_COSIM_RTL=OFF: no verilated blocks, no SystemC testbenches, no mutants), running
#   every unit test (test_*; test_mem_e2e and test_mem_dram only in the full run), every
#   workload at its smallest size (workload_W: `heddle run W --size small`, verified against
#   its CPU reference, for each workload folder W; the variants, which build the same driver and kernel source with other -D flags, only with
#   HD_ASAN_VARIANTS=1), one mix (mix_sgemm_vecadd) and one C-reference co-simulation
#   (regpat_context_reduction: `heddle regpat-stats`).
# Any sanitizer report fails the test that triggered it (-fno-sanitize-recover=all).
# The full sanitizer run (every test of an HD_SANITIZE build) is `HD_TEST_ASAN=1 scripts/test.sh`.
#
# Usage: scripts/asan-subset.sh [BUILD_DIR]   (default build-asan-subset/ in the source tree)
# Environment: HD_JOBS (default 2) build and test jobs; HD_ASAN_VARIANTS=1 every workload
#              variant too (180 workload tests instead of one per workload folder).
# Exit status: non-zero if the build or any test fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
b="${1:-$root/build-asan-subset}"
jobs="${HD_JOBS:-2}"
start=$SECONDS
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
read -r -a generator <<<"$("$root/scripts/cmake-generator.sh" "$b")"
cmake "${generator[@]}" -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=Debug -DHD_SANITIZE=ON -DHD_COSIM_RTL=OFF \
      "${launcher[@]}" >/dev/null
# the unit tests are one executable per tests/unit/test_*.c
targets=(heddle)
for f in "$root"/tests/unit/test_*.c; do
    targets+=("$(basename "$f" .c)")
done
cmake --build "$b" -j"$jobs" --target "${targets[@]}" >/dev/null
built=$((SECONDS - start))
# one test per workload folder (workloads/W/W.c), or every registered variant
wl='workload_.*'
if [ "${HD_ASAN_VARIANTS:-0}" != 1 ]; then
    wl=""
    for d in "$root"/workloads/*/; do
        n="$(basename "$d")"
        [ -f "$d/$n.c" ] && wl="$wl${wl:+|}workload_$n"
    done
fi
# test_mem_e2e and test_mem_dram (33 and 7 s sanitized) run unsanitized in the CI tier and
# sanitized in the full sanitizer run (HD_TEST_ASAN=1)
ctest --test-dir "$b" --output-on-failure -j"$jobs" \
      -R "^(test_.*|$wl|mix_sgemm_vecadd|regpat_context_reduction)\$" -E "^test_mem_(e2e|dram)\$"
echo "asan-subset.sh: build ${built} s, total $((SECONDS - start)) s"
