# SPDX-License-Identifier: MIT
# determinism_lib.sh - the run-four-times-and-compare loop of the stress modes' determinism
# tests (tests/{context,warp,oloc,mover}/determinism.sh), sourced by them: runs 1 and 2 with
# seed 7, run 3 with seed 7 and no idle-cycle skipping, run 4 with seed 8; a digest of each run
# (cycles, the caller's counters, the memory statistics) must be equal for runs 1-3.
# The caller sets, before calling det_four:
#   det_heddle   the heddle binary
#   det_tmp      a scratch directory
#   det_seed     the seed key (e.g. sm.warp_stress_seed)
#   det_counters a sed address matching the counter lines to compare (e.g. /"oloc_/)
#   det_verify   1: every run's output must say VERIFIED (default 0: the exit status only)

# The counter COUNTER summed over every place it appears in FILE (the SMs).
det_sum() { # FILE COUNTER
    grep -o "\"$2\": [0-9]*" "$1" | awk '{s += $2} END {print s + 0}'
}

det_digest() { # FILE
    sed -n -e '/"preempt_policy"/d' -e 's/.*"totals": {"cycles": \([0-9]*\).*/cycles \1/p' \
        -e "${det_counters}p" -e '/"memory": {/,/"samples": {/p' "$1"
}

# Run NAME four times: heddle run ARGS... plus the seed and skip settings; writes
# $det_tmp/NAME.{1..4}.{json,out,dig}. Exits the script when a run fails.
det_four() { # NAME ARGS...
    _n=$1
    shift
    for _i in 1 2 3 4; do
        _skip=true _seed=7
        [ "$_i" = 3 ] && _skip=false
        [ "$_i" = 4 ] && _seed=8
        "$det_heddle" run "$@" --set "$det_seed=$_seed" --set timing.skip_idle=$_skip \
            --stats "$det_tmp/$_n.$_i.json" > "$det_tmp/$_n.$_i.out" 2>&1 || {
            echo "determinism.sh: $_n run $_i failed:"; cat "$det_tmp/$_n.$_i.out"; exit 1; }
        if [ "${det_verify:-0}" = 1 ] && ! grep -q VERIFIED "$det_tmp/$_n.$_i.out"; then
            echo "determinism.sh: $_n run $_i did not verify:"; cat "$det_tmp/$_n.$_i.out"; exit 1
        fi
        det_digest "$det_tmp/$_n.$_i.json" > "$det_tmp/$_n.$_i.dig"
    done
}

# Compare NAME's digests: 0 when runs 1-3 agree (and, with SEED_DIFFERS = 1, run 4 differs),
# else 1 with the difference printed.
det_compare() { # NAME [SEED_DIFFERS]
    _d="$det_tmp/$1"
    if [ ! -s "$_d.1.dig" ] || ! cmp -s "$_d.1.dig" "$_d.2.dig"; then
        echo "determinism.sh: $1 differs between two runs with the same seed:"
        diff "$_d.1.dig" "$_d.2.dig" | head -20 || true
        return 1
    elif ! cmp -s "$_d.1.dig" "$_d.3.dig"; then
        echo "determinism.sh: $1: skipping idle cycles changed the result:"
        diff "$_d.1.dig" "$_d.3.dig" | head -20 || true
        return 1
    elif [ "${2:-0}" = 1 ] && cmp -s "$_d.1.dig" "$_d.4.dig"; then
        echo "determinism.sh: $1: another seed gave the same result"
        return 1
    fi
    return 0
}

# The first line of NAME's digest of run I (its cycles).
det_cycles() { # NAME I
    head -1 "$det_tmp/$1.$2.dig"
}
