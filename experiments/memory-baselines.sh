#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# memory-baselines.sh - the memory system of each paper configuration (L1/L2/DRAM load-to-use
# latency with the pointer chase, sustained DRAM bandwidth and crossbar data rate with STREAM),
# measured with real nvcc kernels, beside the figures of Lin's thesis (Tables 2.1, 3.1, 4.1 and
# its ch.3/ch.4 saturation figures). A sweep: the points are experiments/memory-baselines.toml,
# the method and the paper values experiments/memory-baselines.py, run by experiments/sweep.py
# (parallel, resumable, every result in experiments/results/memory-baselines/store.sqlite).
# Writes experiments/results/memory-baselines/: report.md (a table per configuration, ours beside
# the paper's with its source), latency.png and bandwidth.png, memory-baselines.json, points.csv.
#
#   experiments/memory-baselines.sh [HEDDLE] [sweep.py options...]
#       HEDDLE: the binary (default build/heddle); options e.g. -j 2, --backend slurm, --out DIR
# About 40 s of CPU in all (21 heddle runs). Same binary and sources: the same JSON, byte for byte.
# (The command line: experiments/lib.sh.)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hd_exp_args "$@"

out=()
[ -n "${HD_EXP_OUT:-}" ] && out=(--out "$HD_EXP_OUT")
exec "${sweep[@]}" "$root/experiments/memory-baselines.toml" --heddle "$heddle" \
    "${out[@]}" "${exp_args[@]}"
