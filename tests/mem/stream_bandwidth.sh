#!/bin/sh
# SPDX-License-Identifier: MIT
# stream_bandwidth.sh - acceptance test of the bandwidth requirement: "a streaming kernel reaches
# at least 85% of the configured peak DRAM bandwidth" (GTX480, [mem] model = full;
# docs/memory.md). Runs the STREAM workload (workloads/stream: copy, scale, add, triad, dot) in
# both variants at medium size (8 MiB per array, ten times the L2: 22 waves of CTAs per kernel,
# so the ramp-up and drain of a launch weigh ~2%; small, 1 MiB per array, is mostly ramp and
# L2-resident and reads 17-25 points lower) and computes, per kernel, the DRAM efficiency
#     (dram_read_bytes + dram_write_bytes of the launch)
#       / (launch cycles * dram_mhz / core_mhz) / derived.dram_peak_bytes_per_dram_cycle
# from the --stats JSON report (memory.per_kernel, one entry per launch, and timing.launches).
#
# What is asserted:
#   - stream_dot of stream_cg (two read streams through __ldcg = ld.global.cg, L1-bypassing; one
#     float written per 1024 elements read) >= 85%: the requirement, on a streaming kernel;
#   - copy and triad of both variants (stream_cg and the cached stream) >= 60% (HD_STREAM_BW_MIN_RW
#     for stream_cg's): a sanity bound that catches a broken memory path, not the requirement;
#   - stream_cg's loads went around the L1 (memory.total.l1d_bypass > 0), the cached ones did not
#     (= 0).
# Why copy and triad stay below 85% here: the DRAM model follows GPGPU-Sim 3.x, one FR-FCFS queue
# per channel holding reads and writes in arrival order, with no write buffer or write draining.
# A kernel that reads one array and writes another keeps both kinds in that queue at all times,
# so the controller keeps switching between them: every read-to-write switch idles the data bus
# for the bus turnaround (tCL + burst + 2 - tWL) and every write-to-read switch for tWTR, and the
# written array's rows conflict with the read arrays' rows in the same banks (precharge +
# activate). Measured at 74-76% for copy and triad with L1 bypass (84-85% cached: the L1's MSHRs
# limit how many reads are queued, which happens to make the runs of one kind longer). A
# read-only stream has none of that, hence the requirement on dot. (At this commit stream_cg's
# dot measures 77.5%, so this test fails: the limit is below the SMs - the SMs stall on full miss
# queues behind the request network and the L2 slices - and not in the workload; raising
# l2.mshr_entries to 64 gives 82.8% (128: 79.2%), dram.queue 32 79.4%, icnt.islip_iters 4
# 78.3%.) Real controllers (and
# GPGPU-Sim 4's separate write queue) batch writes between watermarks; the DRAM controller's
# optional write batching (keys under [dram], off by default) is meant to lift copy and triad:
# a second CTest can pass it in HD_STREAM_BW_EXTRA and require HD_STREAM_BW_MIN_RW=0.85.
#
# The L1 bypass comes from the PTX alone: model/mem sends ld.global.cg around the L1D (no
# l1d.bypass_kernels setting), which memory.total.l1d_bypass of the stream_cg run shows.
#
#   tests/mem/stream_bandwidth.sh HEDDLE [CONFIG]
# Environment:
#   HD_STREAM_BW_SIZE    workload size (default medium; ~15 s for both runs)
#   HD_STREAM_BW_EXTRA   extra settings for both runs, KEY=VALUE words each passed as --set
#                        (default none), e.g. "dram.queue=32 l2.mshr_entries=64"
#   HD_STREAM_BW_MIN_RW  stream_cg's copy/triad minimum (default 0.60)
set -eu
heddle=$1
config=${2:-configs/fermi-gtx480.ini}
size=${HD_STREAM_BW_SIZE:-medium}
extra=${HD_STREAM_BW_EXTRA:-}
min_dot=0.85
min_rw_cg=${HD_STREAM_BW_MIN_RW:-0.60}
min_rw=0.60
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-streambw-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# run WORKLOAD [--set ...]: heddle run ... --stats $tmp/WORKLOAD.json; prints the command
run() {
    w=$1
    shift
    for kv in $extra; do
        set -- "$@" --set "$kv"
    done
    echo "$heddle run $w --size $size --config $config --set mem.model=full $* --stats $tmp/$w.json --quiet"
    "$heddle" run "$w" --size "$size" --config "$config" --set mem.model=full "$@" \
        --stats "$tmp/$w.json" --quiet > "$tmp/$w.out" 2>&1 || {
        echo "stream_bandwidth.sh: $w failed:"; cat "$tmp/$w.out"; exit 1; }
}

# eff JSON: one line per launch, "KERNEL EFFICIENCY READ_BYTES WRITE_BYTES CYCLES ROW_HIT_RATE",
# then "L1D_BYPASS N" (memory.total.l1d_bypass)
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
        /"total": \{.*"l1d_bypass"/ { byp = num($0, "l1d_bypass") }
        END {
            if (core <= 0 || dram <= 0 || peak <= 0 || nl == 0) { print "ERROR no clocks, peak or launches"; exit }
            for (i = 0; i < nl; i++) {
                if (!(i in rd) || rd[i] < 0 || wr[i] < 0 || cyc[i] <= 0) { print "ERROR launch " i " has no memory figures"; exit }
                e = (rd[i] + wr[i]) / (cyc[i] * dram / core) / peak
                printf "%s %.4f %d %d %d %.3f\n", kern[i], e, rd[i], wr[i], cyc[i], rh[i] / (rh[i] + rm[i] > 0 ? rh[i] + rm[i] : 1)
            }
            if (byp < 0) { print "ERROR no memory.total.l1d_bypass"; exit }
            print "L1D_BYPASS " byp
        }' "$1"
}

run stream_cg
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
for v in cg cached; do
    [ $v = cg ] && name=stream_cg || name=stream
    awk -v v="$name" '$1 != "L1D_BYPASS" {
        printf "  %-14s %-9s %12d %12d %9d %8.3f  %5.1f%%\n", $1, v, $3, $4, $5, $6, 100 * $2 }' "$tmp/$v.eff"
done

fail=0
# check VARIANT_FILE VARIANT KERNEL MIN WHAT
check() {
    e=$(awk -v k="$3" '$1 == k { print $2 }' "$tmp/$1.eff")
    if [ -z "$e" ]; then
        echo "FAIL $3 $2: no launch of it in the report"; fail=1; return
    fi
    if awk -v e="$e" -v m="$4" 'BEGIN { exit !(e >= m) }'; then
        echo "ok   $3 $2: $e >= $4 of peak ($5)"
    else
        echo "FAIL $3 $2: $e < $4 of peak ($5)"; fail=1
    fi
}
check cg stream_cg stream_dot "$min_dot" "the requirement: a read stream with L1 bypass"
for k in stream_copy stream_triad; do
    check cg stream_cg "$k" "$min_rw_cg" "reads and writes in one FR-FCFS queue"
    check cached stream "$k" "$min_rw" "sanity bound"
done
byp_cg=$(awk '$1 == "L1D_BYPASS" { print $2 }' "$tmp/cg.eff")
byp_ca=$(awk '$1 == "L1D_BYPASS" { print $2 }' "$tmp/cached.eff")
if [ "$byp_cg" -gt 0 ] && [ "$byp_ca" -eq 0 ]; then
    echo "ok   L1 bypass: memory.total.l1d_bypass $byp_cg for stream_cg, 0 for stream"
else
    echo "FAIL L1 bypass: memory.total.l1d_bypass $byp_cg for stream_cg (want > 0), $byp_ca for stream (want 0)"
    fail=1
fi
exit $fail
