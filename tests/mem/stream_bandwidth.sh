#!/bin/sh
# SPDX-License-Identifier: MIT
# stream_bandwidth.sh - acceptance test of the bandwidth requirement: "a streaming kernel reaches
# at least 85% of the configured peak DRAM bandwidth" (GTX480, [mem] model = full;
# docs/memory.md). Runs the STREAM workload (workloads/stream) twice at medium size (8 MiB per
# array, ten times the L2) and computes, per kernel, the DRAM efficiency
#     (dram_read_bytes + dram_write_bytes of the launch)
#       / (launch cycles * dram_mhz / core_mhz) / derived.dram_peak_bytes_per_dram_cycle
# from the --stats JSON report (memory.per_kernel, one entry per launch, and timing.launches).
#   - stream_cg (loads through __ldcg, ld.global.cg: the L1-bypassing load bandwidth benchmarks
#     use): copy and triad must each reach >= 85%;
#   - stream (cached loads, bounded by the L1 MSHRs: Little's law): copy and triad must reach a
#     sane >= 50% and no more than the L1-bypassing figure of the same kernel.
# Until model/mem honours ld.global.cg, the stream_cg run also names its kernels in
# l1d.bypass_kernels (HD_STREAM_BW_BYPASS below; empty once .cg bypasses the L1 by itself).
#   tests/mem/stream_bandwidth.sh HEDDLE [CONFIG]
set -eu
heddle=$1
config=${2:-configs/fermi-gtx480.ini}
size=${HD_STREAM_BW_SIZE:-medium}
bypass=${HD_STREAM_BW_BYPASS-stream_*}
min_cg=0.85
min_cached=0.50
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-streambw-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# run WORKLOAD [--set ...]: heddle run ... --stats $tmp/WORKLOAD.json; prints the command
run() {
    w=$1
    shift
    echo "$heddle run $w --size $size --config $config --set mem.model=full $* --stats $tmp/$w.json --quiet"
    "$heddle" run "$w" --size "$size" --config "$config" --set mem.model=full "$@" \
        --stats "$tmp/$w.json" --quiet > "$tmp/$w.out" 2>&1 || {
        echo "stream_bandwidth.sh: $w failed:"; cat "$tmp/$w.out"; exit 1; }
}

# eff JSON: one line per launch, "KERNEL EFFICIENCY READ_BYTES WRITE_BYTES CYCLES ROW_HIT_RATE"
eff() {
    awk '
        function num(line, key,    m) {
            if (match(line, "\"" key "\": -?[0-9.]+")) {
                m = substr(line, RSTART, RLENGTH)
                sub(/^[^:]*: /, "", m)
                return m + 0
            }
            return -1
        }
        function str(line, key,    m) {
            if (match(line, "\"" key "\": \"[^\"]*\"")) {
                m = substr(line, RSTART, RLENGTH)
                sub(/^[^:]*: "/, "", m)
                sub(/"$/, "", m)
                return m
            }
            return ""
        }
        /"clock": \{/ { core = num($0, "core_mhz"); dram = num($0, "dram_mhz") }
        /"derived": \{.*dram_peak_bytes_per_dram_cycle/ { peak = num($0, "dram_peak_bytes_per_dram_cycle") }
        /"launches": \[/ { inl = 1; next }
        inl && /^ *\]/ { inl = 0 }
        inl && /"kernel": / { id = num($0, "id"); kern[id] = str($0, "kernel"); cyc[id] = num($0, "cycles"); nl++ }
        /"per_kernel": \[/ { ink = 1; next }
        ink && /^ *\]/ { ink = 0 }
        ink && /"launch": / {
            id = num($0, "launch"); rd[id] = num($0, "dram_read_bytes"); wr[id] = num($0, "dram_write_bytes")
            rh[id] = num($0, "dram_row_hits"); rm[id] = num($0, "dram_row_misses")
        }
        END {
            if (core <= 0 || dram <= 0 || peak <= 0 || nl == 0) { print "ERROR no clocks, peak or launches"; exit }
            for (i = 0; i < nl; i++) {
                if (!(i in rd) || rd[i] < 0 || wr[i] < 0 || cyc[i] <= 0) { print "ERROR launch " i " has no memory figures"; exit }
                e = (rd[i] + wr[i]) / (cyc[i] * dram / core) / peak
                printf "%s %.4f %d %d %d %.3f\n", kern[i], e, rd[i], wr[i], cyc[i], rh[i] / (rh[i] + rm[i] > 0 ? rh[i] + rm[i] : 1)
            }
        }' "$1"
}

if [ -n "$bypass" ]; then
    run stream_cg --set "l1d.bypass_kernels=$bypass"
else
    run stream_cg
fi
run stream
eff "$tmp/stream_cg.json" > "$tmp/cg.eff"
eff "$tmp/stream.json" > "$tmp/cached.eff"
if grep -q '^ERROR' "$tmp/cg.eff" "$tmp/cached.eff"; then
    echo "stream_bandwidth.sh: the JSON report lacks what the test reads:"
    cat "$tmp/cg.eff" "$tmp/cached.eff"
    exit 1
fi
echo "DRAM efficiency per kernel (DRAM bytes read + written over the launch's cycles, of the peak):"
printf '  %-14s %-9s %12s %12s %9s %8s\n' kernel variant read_bytes write_bytes cycles row_hits
awk '{ printf "  %-14s %-9s %12d %12d %9d %8.3f  %5.1f%%\n", $1, "stream_cg", $3, $4, $5, $6, 100 * $2 }' "$tmp/cg.eff"
awk '{ printf "  %-14s %-9s %12d %12d %9d %8.3f  %5.1f%%\n", $1, "stream", $3, $4, $5, $6, 100 * $2 }' "$tmp/cached.eff"

fail=0
for k in stream_copy stream_triad; do
    cg=$(awk -v k="$k" '$1 == k { print $2 }' "$tmp/cg.eff")
    ca=$(awk -v k="$k" '$1 == k { print $2 }' "$tmp/cached.eff")
    if [ -z "$cg" ] || [ -z "$ca" ]; then
        echo "FAIL $k: no launch of it in the report"; fail=1; continue
    fi
    if awk -v e="$cg" -v m="$min_cg" 'BEGIN { exit !(e >= m) }'; then
        echo "ok   $k stream_cg (L1 bypass): $cg >= $min_cg of peak"
    else
        echo "FAIL $k stream_cg (L1 bypass): $cg < $min_cg of peak"; fail=1
    fi
    if awk -v e="$ca" -v m="$min_cached" -v c="$cg" 'BEGIN { exit !(e >= m && e <= c) }'; then
        echo "ok   $k stream (cached): $ca, >= $min_cached and <= the bypassing $cg"
    else
        echo "FAIL $k stream (cached): $ca, not within [$min_cached, $cg] (the bypassing figure)"; fail=1
    fi
done
exit $fail
