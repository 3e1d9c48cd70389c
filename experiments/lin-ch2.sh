#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lin-ch2.sh - Lin's thesis chapter 2 (lightweight context switching): every preemption
# technique of experiments/lin-ch2.py's TECHNIQUES on our stand-ins for its Table 2.2 kernels,
# GTX480 configuration, 15 preemption signals spread uniformly over each kernel's own run.
# Two sweeps sharing one results store:
#   1. STAGE1 (default experiments/lin-ch2.toml): every workload alone -> its length in cycles;
#   2. OUT/lin-ch2-signals.toml, generated from stage 1 by `lin-ch2.py signals`: the same
#      standalone points (stored, not rerun) plus one run per workload and technique with
#      [context] signals = 15 and signal_span = that length; its analysis writes OUT/report.md,
#      context.png, latency.png, lin-ch2.json and points.csv.
#
#   experiments/lin-ch2.sh [HEDDLE] [sweep.py options...]
#       HEDDLE: the binary (default build/heddle); options e.g. -j 2, --backend slurm
#   HD_EXP_OUT=DIR     write the store and the report there (default experiments/results/lin-ch2)
#   HD_EXP_STAGE1=F    another stage-1 sweep file (tests: tests/sweep/lin-ch2-small.toml)
# (The command line: experiments/lib.sh.)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hd_exp_args "$@"
hd_exp_store lin-ch2

hd_exp_stage1
python3 "$root/experiments/lin-ch2.py" signals "$out/stage1.csv" \
    "$(realpath --relative-to="$root" "$stage1")" "$out/lin-ch2-signals.toml"
rm -f "$out/stage1.csv"
exec "${sweep[@]}" "$out/lin-ch2-signals.toml" "${common[@]}" "${exp_args[@]}"
