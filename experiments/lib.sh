# SPDX-License-Identifier: MIT
# lib.sh - the command line every experiments/<name>.sh shares, sourced (not run) by them:
#
#   experiments/<name>.sh [HEDDLE] [sweep.py options...]
#       HEDDLE: the binary (default build/heddle), taken when the first argument is not an
#       option; the rest goes to experiments/sweep.py (e.g. -j 2, --backend slurm)
#
# hd_exp_args "$@"  sets root (the source tree), heddle and exp_args (the sweep.py options, the
#                   arguments after HEDDLE), sweep (experiments/sweep.py as an array).
# hd_exp_store NAME sets, for an experiment with its own results store and report directory:
#                   out (HD_EXP_OUT, default experiments/results/NAME; created), stage1
#                   (HD_EXP_STAGE1, default experiments/NAME.toml: the first sweep) and common
#                   (--heddle, --out, --db OUT/store.sqlite: the options of every sweep.py call).
# hd_exp_stage1     runs stage 1 (the sweep file $stage1, no report) and writes its tidy table
#                   to $out/stage1.csv, from which the experiment's script generates stage 2.

hd_exp_args() {
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    heddle="$root/build/heddle"
    if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
        heddle=$1
        shift
    fi
    exp_args=("$@")
    sweep=("$root/experiments/sweep.py")
}

hd_exp_store() {
    out="${HD_EXP_OUT:-$root/experiments/results/$1}"
    stage1="${HD_EXP_STAGE1:-$root/experiments/$1.toml}"
    mkdir -p "$out"
    common=(--heddle "$heddle" --out "$out" --db "$out/store.sqlite")
}

hd_exp_stage1() {
    "${sweep[@]}" "$stage1" "${common[@]}" --no-report "${exp_args[@]}"
    "${sweep[@]}" "$stage1" "${common[@]}" --csv >"$out/stage1.csv"
}
