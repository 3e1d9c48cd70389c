#!/usr/bin/env sh
# SPDX-License-Identifier: MIT
# rtl-config-cosim.sh - co-simulate the whole GPU with the RTL blocks built in a named
# configuration other than the default (issue 16 item 3; docs/verification.md, "Every named RTL
# configuration"). CI tests every other configuration by lint, elaboration and testbench only;
# this on-demand run configures BUILD with -DHD_RTL_CONFIG_<b>=CONFIG for every block whose
# configs/rtl/<b>.ini has a [CONFIG] section, builds heddle, and runs the co-simulation sweeps
# (every workload at small size, lockstep and in the timing loop) plus the blocks' co-simulation
# CTests. `kepler` (the four Shieh tables at Table 3.1's sizing) adds tests/shieh_kepler.cmake's
# runs: the preemption mixes on a Kepler-class GPU sized to match, C references and RTL in
# lockstep and the RTL driving the policies. Exit status non-zero on any mismatch or failure.
# Usage: scripts/rtl-config-cosim.sh BUILD CONFIG      e.g. build-ra reset_all
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BUILD CONFIG" >&2; exit 2; }
build=$1
cfg=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
args=""
blocks=""
for ini in "$root"/configs/rtl/*.ini; do
    b=$(basename "$ini" .ini)
    if grep -q "^\[$cfg\][[:space:]]*$" "$ini"; then
        args="$args -DHD_RTL_CONFIG_$b=$cfg"
        blocks="$blocks $b"
    fi
done
[ -n "$blocks" ] || { echo "rtl-config-cosim: no configs/rtl/*.ini has a [$cfg] section" >&2; exit 2; }
echo "rtl-config-cosim: [$cfg] for$blocks"
# shellcheck disable=SC2086 # $args is a list of -D options
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHD_MUTATION=OFF $args >/dev/null
cmake --build "$build" --target heddle hd_codec_cosim hd_fstcheck -j2 >/dev/null
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
fail=0
for mode in "" "--in-loop --stress 500"; do
    # shellcheck disable=SC2086 # $mode is a list of options
    sh "$root/scripts/cosim-sweep.sh" "$build" $mode >"$log" 2>&1 || fail=1
    rows=$(awk -F'|' 'NR > 2 && NF > 7' "$log" | wc -l)
    if grep -q MISMATCH "$log" || [ "$rows" -eq 0 ]; then
        fail=1
    fi
    echo "rtl-config-cosim: cosim-sweep $mode: $rows workloads, $(grep -c MISMATCH "$log") mismatching"
done
ctest --test-dir "$build" -j2 --output-on-failure \
    -R "^(cosim_(reduction|nw|ctx_codec|in_loop_tb_sgemm|in_loop_drive_rtl_.*)|alloc_table_(fst|in_loop_inplace)|ppoints_cosim_.*|shieh_kepler_.*)$" || fail=1
[ $fail -eq 0 ] && echo "rtl-config-cosim: [$cfg] PASSED" || echo "rtl-config-cosim: [$cfg] FAILED"
exit $fail
