#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz-sweep.sh - fuzz the sweep files (TOML, as read by experiments/sweep.py) for a bounded
# time; fail on any finding (an exception other than a located SweepError, an unsound sweep, no
# answer within 10 s). The reader is Python, so the fuzzer is too: tests/fuzz/fuzz_sweep.py, a
# coverage-guided mutation fuzzer (arcs of experiments/heddle_sweep/ by sys.settrace) with the
# libFuzzer targets' rules. Seeds: experiments/*.toml, tests/sweep/*.toml,
# tests/fuzz/sweep_seeds/. The corpus is kept in $HD_FUZZ_BUILD/fuzz_sweep-corpus between runs;
# a finding is saved in $HD_FUZZ_BUILD/fuzz-sweep-artifacts/; once fixed, copy it into
# tests/fuzz/sweep_seeds/ so the replay test (sweep_fuzz_replay) keeps it fixed.
# For long runs: scripts/fuzz-sweep.sh 3600 (one process; ~120 inputs/s on one core).
#
# Usage: scripts/fuzz-sweep.sh [SECONDS] [HEDDLE]   (default 30 s, build/heddle)
# Environment: HD_FUZZ_BUILD (default build-fuzz), HD_FUZZ_SEED (default: the time).
set -euo pipefail
secs="${1:-30}"
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [SECONDS] [HEDDLE]" >&2; exit 2;; esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
heddle="${2:-$root/build/heddle}"
build="${HD_FUZZ_BUILD:-$root/build-fuzz}"
mkdir -p "$build"
artifacts="$build/fuzz-sweep-artifacts"
rm -rf "$artifacts"
seed="${HD_FUZZ_SEED:-$(date +%s)}"
echo "fuzz-sweep.sh: $secs s, seed $seed"
python3 "$root/tests/fuzz/fuzz_sweep.py" "$heddle" --seconds "$secs" --seed "$seed" \
    --corpus "$build/fuzz_sweep-corpus" --crash-dir "$artifacts"
