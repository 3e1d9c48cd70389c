#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# robust.sh - regression tests of the robustness issue (hostile or careless use of `heddle`):
# outputs never clobber inputs, writes are atomic, SIGTERM is handled like Ctrl-C, checks that
# compare nothing fail, inputs are read with a cap, and large inputs stay within a memory and
# time bound. Large inputs are generated here, in a scratch directory, never committed.
#
# Usage: tests/cli/robust.sh CASE HEDDLE SOURCE_ROOT   (tests/cli_robust.cmake runs every case)
# Exit 0 when the case holds; otherwise a message and exit 1.
set -u
case_="$1"
heddle="$2"
root="$3"
NAME=robust
# shellcheck source=tests/cli/case_lib.sh
. "$root/tests/cli/case_lib.sh"
# rss_under KB CMD...: run CMD; fail if its peak resident set exceeds KB (when GNU time exists)
rss_under() {
    local kb="$1" rc peak
    shift
    if [ ! -x /usr/bin/time ]; then
        "$@"
        return
    fi
    /usr/bin/time -o rss.txt -f "%M" "$@"
    rc=$?
    peak=$(tail -1 rss.txt)
    echo "peak RSS ${peak} KB (bound ${kb} KB): $*" >&2
    [ "$peak" -le "$kb" ] || { echo "FAIL ($case_): peak RSS $peak KB > $kb KB" >&2; return 99; }
    return $rc
}
# gen_live N: a kernel with N simultaneously live .b32 registers (N adds, then N reads)
gen_live() {
    printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry live(.param .u64 out)\n{\n'
    printf '  .reg .b32 %%r<%d>;\n  .reg .b64 %%rd<2>;\n' $(($1 + 2))
    printf '  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r0, %%tid.x;\n'
    awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "  add.u32 %%r%d, %%r0, %d;\n", i, i;
                           for (i = 1; i <= n; i++) printf "  add.u32 %%r0, %%r0, %%r%d;\n", i }'
    printf '  st.global.u32 [%%rd1], %%r0;\n  ret;\n}\n'
}
# gen_spin: a kernel that loops forever
gen_spin() {
    printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry spin()\n{\n'
    printf ' .reg .b32 %%r<3>;\n mov.u32 %%r1, 0;\nL1:\n add.u32 %%r1, %%r1, 1;\n bra L1;\n}\n'
}
# a vecadd launch that does nothing (n = 0) on buffers of BYTES
vecadd_args() {
    echo "$wl/vecadd/vecadd.ptx vecadd --grid 1 --block 32 --arg buf:a:$1:zero" \
         "--arg buf:b:$1:zero --arg buf:c:$1:zero --arg s32:0"
}

case "$case_" in
# {==== outputs that would clobber inputs or each other: refused before the run ====
dump_over_ptx)
    cp "$wl/vecadd/vecadd.ptx" v.ptx
    cp v.ptx orig.ptx
    expect 2 "--dump ./v.ptx would overwrite the input PTX file v.ptx" \
        "$heddle" launch v.ptx vecadd --grid 1 --block 32 --arg buf:a:64:zero --arg buf:b:64:zero \
        --arg buf:c:64:zero --arg s32:16 --dump c:./v.ptx
    cmp -s v.ptx orig.ptx || fail "the PTX file changed"
    ;;
stats_over_config)
    "$heddle" config > c.ini || fail "config"
    cp c.ini orig.ini
    expect 2 "--stats c.ini would overwrite the input --config" \
        "$heddle" run vecadd --quiet --config ./c.ini --stats c.ini
    cmp -s c.ini orig.ini || fail "the configuration changed"
    ;;
series_over_stats)
    expect 2 "--stats s.json and --series s.json write the same file" \
        "$heddle" run vecadd --quiet --sample 100 --stats s.json --series s.json
    [ ! -e s.json ] || fail "s.json was written"
    ;;
dump_twice)
    # shellcheck disable=SC2046
    expect 2 "--dump d.bin and --dump .*d.bin write the same file" \
        "$heddle" launch $(vecadd_args 64) --dump a:d.bin --dump b:"$tmp/d.bin"
    ;;
dump_over_fill)
    head -c 64 /dev/zero > in.bin
    expect 2 "--dump in.bin would overwrite the input file: fill in.bin" \
        "$heddle" launch "$wl/vecadd/vecadd.ptx" vecadd --grid 1 --block 32 \
        --arg buf:a:64:file:in.bin --arg buf:b:64:zero --arg buf:c:64:zero --arg s32:0 \
        --dump a:in.bin
    ;;
expect_reads_dump)
    # shellcheck disable=SC2046
    expect 2 "--dump d.bin would overwrite the input --expect d.bin" \
        "$heddle" launch $(vecadd_args 64) --dump c:d.bin --expect c:file:d.bin
    ;;
dump_roundtrip)
    # a dumped buffer holds exactly what the kernel wrote: a second launch expects it back
    args="$wl/vecadd/vecadd.ptx vecadd --grid 4 --block 256 --arg buf:a:4K:rand-f32:3
          --arg buf:b:4K:zero --arg buf:c:4K:zero --arg s32:1024"
    # shellcheck disable=SC2086
    expect 0 "dumped c \\(4096 bytes\\)" "$heddle" launch $args --dump c:c.bin
    # shellcheck disable=SC2086
    expect 0 "expect c = file:c.bin: OK" "$heddle" launch $args --expect c:file:c.bin
    ;;
expect_pieces)
    # --expect and --dump go through a buffer in 1 MiB pieces: a difference in a later piece is
    # found at its byte, and a 3 MiB + 8 dump round-trips through a file fill
    head -c $((3 * 1048576 + 8)) /dev/urandom > a.bin
    cp a.bin b.bin
    printf '\x00' | dd of=b.bin bs=1 seek=2097153 conv=notrunc 2>/dev/null
    cmp -s a.bin b.bin && printf '\x01' | dd of=b.bin bs=1 seek=2097153 conv=notrunc 2>/dev/null
    n=$((3 * 1048576 + 8))
    expect 1 "MISMATCH at byte 2097153 \\(32-bit word 524288\\)" "$heddle" launch \
        "$wl/vecadd/vecadd.ptx" vecadd --grid 1 --block 32 --arg buf:a:$n:file:a.bin \
        --arg buf:b:64:zero --arg buf:c:64:zero --arg s32:0 --expect a:file:b.bin
    expect 0 "dumped a \\($n bytes\\).*expect a = file:a.bin: OK" "$heddle" launch \
        "$wl/vecadd/vecadd.ptx" vecadd --grid 1 --block 32 --arg buf:a:$n:file:a.bin \
        --arg buf:b:64:zero --arg buf:c:64:zero --arg s32:0 --dump a:d.bin --expect a:file:a.bin
    cmp -s a.bin d.bin || fail "the dump differs from the buffer's file"
    ;;
cosim_record_over_config)
    "$heddle" config > c.ini || fail "config"
    cp c.ini orig.ini
    expect 2 "--record c.ini would overwrite the input --config c.ini" \
        "$heddle" cosim --blocks regpat vecadd --config c.ini --record c.ini
    cmp -s c.ini orig.ini || fail "the configuration changed"
    ;;
mix_stats_over_config)
    "$heddle" config > c.ini || fail "config"
    expect 2 "--stats c.ini would overwrite the input --config" \
        "$heddle" run --mix sgemm+vecadd --quiet --config c.ini --stats c.ini
    ;;
# }====

# {==== atomic writes ====
dump_sigkill)
    # SIGKILL while a 256 MiB dump is written: the old file or the complete new one, never a part
    for try in 1 2 3; do
        printf 'OLD-CONTENT-PRESERVE-ME\n' > out.bin
        # shellcheck disable=SC2046
        "$heddle" launch $(vecadd_args 256M) --dump c:out.bin >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 1 2000); do
            compgen -G ".out.bin.tmp-*" >/dev/null && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.005
        done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        size=$(stat -c %s out.bin)
        if [ "$size" = 24 ]; then
            grep -q OLD-CONTENT out.bin || fail "old file damaged"
        elif [ "$size" != 268435456 ]; then
            fail "out.bin is $size bytes: neither the old file nor the complete dump"
        fi
        rm -f .out.bin.tmp-*
        echo "try $try: out.bin $size bytes"
    done
    # and without a kill the dump replaces the old file whole
    printf 'OLD\n' > out.bin
    # shellcheck disable=SC2046
    expect 0 "dumped c \\(4096 bytes\\)" "$heddle" launch $(vecadd_args 4096) --dump c:out.bin
    [ "$(stat -c %s out.bin)" = 4096 ] || fail "dump not 4096 bytes"
    ! compgen -G ".out.bin.tmp-*" >/dev/null || fail "temporary file left behind"
    ;;
stats_sigkill)
    # SIGKILL at several moments of a run with --stats: s.ini is the old file or a whole report
    for delay in 0.05 0.1 0.2 0.3 0.5; do
        printf 'OLD\n' > s.ini
        "$heddle" run vecadd --quiet --stats s.ini >/dev/null 2>&1 &
        pid=$!
        sleep "$delay"
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        if [ "$(cat s.ini)" != OLD ]; then
            grep -q '^\[timing\]' s.ini && grep -q '^launches = ' s.ini ||
                fail "s.ini is neither the old file nor a complete report (delay $delay)"
        fi
    done
    ;;
stats_symlink)
    # a symbolic link is followed: the file it names gets the report, the link stays a link
    printf 'OLD\n' > target.ini
    ln -s target.ini link.ini
    expect 0 "VERIFIED" "$heddle" run vecadd --quiet --stats link.ini
    [ -L link.ini ] || fail "link.ini is no longer a symbolic link"
    grep -q '^\[run\]' target.ini || fail "target.ini did not get the report"
    ;;
sigterm_stats)
    # SIGTERM is handled like Ctrl-C: summary, statistics written, exit 143
    expect 143 "INTERRUPTED" timeout --preserve-status -s TERM 1 "$heddle" run sgemm --size large --quiet \
        --stats s.json
    grep -q '"verified": false, "status": -8' s.json || fail "no interrupted statistics in s.json"
    ;;
cosim_record_atomic)
    # (RTL builds) the co-simulation record: SIGKILL during the run leaves the old file; a run
    # that ends replaces it whole; no temporary file stays; --record over --fst is refused
    printf 'OLD\n' > r.txt
    "$heddle" cosim --blocks regpat vecadd --record r.txt >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 2000); do
        compgen -G ".r.txt.tmp-*" >/dev/null && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.005
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if [ "$(cat r.txt)" != OLD ]; then
        head -1 r.txt | grep -q '^# heddle replay vectors' ||
            fail "r.txt is neither the old file nor a complete record after SIGKILL"
    fi
    rm -f .r.txt.tmp-*
    expect 0 "0 mismatches" "$heddle" cosim --blocks regpat vecadd --record r.txt --record-max 50
    head -1 r.txt | grep -q '^# heddle replay vectors' || fail "r.txt is not a record"
    [ "$(wc -l <r.txt)" = 51 ] || fail "r.txt has $(wc -l <r.txt) lines, want 1 + 50 vectors"
    ! compgen -G ".r.txt.tmp-*" >/dev/null || fail "temporary file left behind"
    expect 2 "--record x.fst and --fst x.fst write the same file|--fst x.fst and --record x.fst write the same file" \
        "$heddle" cosim --blocks regpat vecadd --record x.fst --fst x.fst --window 0:100
    [ ! -e x.fst ] || fail "x.fst was written"
    ;;
cosim_fst_atomic)
    # (RTL builds) an FST window and its .gtkw replace the old files whole (fstapi writes a
    # temporary file, renamed at the close); the .gtkw names the file as given, not the
    # temporary; an --fst over the configuration is refused before the run
    printf 'OLD\n' > w.fst
    printf 'OLD\n' > w.gtkw
    expect 0 "0 mismatches" "$heddle" cosim --blocks regpat vecadd --fst w.fst --window 0:2000
    [ "$(stat -c %s w.fst)" -gt 100 ] || fail "w.fst not replaced (the old file was 4 bytes)"
    grep -q '^\[dumpfile\] "w.fst"' w.gtkw || fail "w.gtkw does not name w.fst"
    ! grep -q 'tmp-' w.gtkw || fail "w.gtkw names the temporary file"
    ! compgen -G ".w.*tmp-*" >/dev/null || fail "temporary file left behind"
    "$heddle" config > c.ini || fail "config"
    cp c.ini orig.ini
    expect 2 "--fst c.ini would overwrite the input --config c.ini" \
        "$heddle" cosim --blocks regpat vecadd --config c.ini --fst c.ini --window 0:100
    cmp -s c.ini orig.ini || fail "the configuration changed"
    ;;
mix_stats_json)
    expect 0 "VERIFIED" "$heddle" run --mix sgemm+vecadd --quiet --stats m.json
    head -c 1 m.json | grep -q '{' || fail "m.json is not JSON"
    grep -q '"mix": {"name": "sgemm+vecadd"' m.json || fail "no mix object in m.json"
    grep -q '"gpu.num_sms": "15"' m.json || fail "no configuration in m.json"
    if command -v python3 >/dev/null; then
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' m.json || fail "invalid JSON"
    fi
    ;;
# }====

# {==== no vacuous pass; `config` validates exactly as `run` ====
cosim_every_zero)
    expect 2 "--every needs a cycle count of at least 1" "$heddle" regpat-stats vecadd --every 0
    expect 2 "--every needs a cycle count of at least 1" \
        "$heddle" cosim --blocks regpat vecadd --every 0
    ;;
cosim_sms_outside)
    expect 2 "--sms: SM 99 is outside the GPU \\(15 SMs" \
        "$heddle" cosim --blocks regpat vecadd --sms 99
    ;;
cosim_in_loop_save_named)
    # the co-simulation's own settings never silently replace the user's: a save mode that
    # bypasses the codec, or points that are not the pp decoder's, are usage errors
    expect 2 "--set context.save=live bypasses it" \
        "$heddle" cosim --blocks regpat sgemm --in-loop --set context.save=live
    expect 2 "--blocks pp needs context.points=selective: --set context.points=any leaves its blocks nothing" \
        "$heddle" cosim --blocks pp bfs --in-loop --set context.points=any
    ;;
stats_measured_nothing)
    expect 1 "vecadd: measured nothing" "$heddle" regpat-stats vecadd --every 100000000
    ;;
config_like_run)
    # each setting: `config` and `run` both reject it, with the same message, on stderr
    for s in pipeline.ldst_segment_bytes=33 l1d.line=100 'addrmap.bank_bits="8 8 8"' \
             dram.bank_groups=3; do
        "$heddle" config --set "$s" >/dev/null 2>c.err
        rc_c=$?
        "$heddle" run vecadd --quiet --set "$s" >/dev/null 2>r.err
        rc_r=$?
        cat c.err r.err
        # (exit 2, as every configuration error: issue 34 item 10)
        [ "$rc_c" = 2 ] && [ "$rc_r" = 2 ] || fail "$s: config exit $rc_c, run exit $rc_r"
        grep -q "key '" r.err || fail "$s: run's error does not name the key on stderr"
        [ "$(sed 's/^heddle config: //' c.err)" = "$(sed 's/^heddle run: //' r.err)" ] ||
            fail "$s: config and run disagree"
    done
    ;;
local_occupancy_agrees)
    # the CTA scheduler counts local memory as ptx-info (and list) do, with one function
    # (hd_occupancy_kernel) and one figure: the frames of the kernel and its callees
    # (hd_func_local_bytes: 1024 + 1024 .local, the call's parameters, alignment = 2080 bytes).
    # On 16 MiB of device memory over 15 SMs (1118481 bytes each), 256 x 2080 bytes per CTA
    # leave room for 2 CTAs (before: ptx-info counted the kernel's own 1024 bytes, 4 CTAs; the
    # timing model none, 6 CTAs)
    printf '%s\n' '.version 7.0' '.target sm_75' '.address_size 64' \
        '.func (.param .b32 r) helper(.param .b32 x)' '{' ' .local .align 4 .b8 hbuf[1024];' \
        ' .reg .b32 %r<4>;' ' .reg .b64 %rd<2>;' ' ld.param.b32 %r1, [x];' ' mov.u64 %rd1, hbuf;' \
        ' st.local.u32 [%rd1], %r1;' ' ld.local.u32 %r2, [%rd1];' ' add.u32 %r3, %r2, 1;' \
        ' st.param.b32 [r], %r3;' ' ret;' '}' '.visible .entry loc(.param .u64 out)' '{' \
        ' .local .align 4 .b8 kbuf[1024];' ' .reg .b32 %r<4>;' ' .reg .b64 %rd<6>;' \
        ' ld.param.u64 %rd1, [out];' ' cvta.to.global.u64 %rd2, %rd1;' ' mov.u32 %r1, %tid.x;' \
        ' mov.u64 %rd3, kbuf;' ' st.local.u32 [%rd3], %r1;' ' ld.local.u32 %r2, [%rd3];' ' {' \
        ' .param .b32 a;' ' .param .b32 b;' ' st.param.b32 [a], %r2;' \
        ' call.uni (b), helper, (a);' ' ld.param.b32 %r3, [b];' ' }' \
        ' mul.wide.u32 %rd4, %r1, 4;' ' add.s64 %rd5, %rd2, %rd4;' ' st.global.u32 [%rd5], %r3;' \
        ' ret;' '}' > loc.ptx
    expect 0 "kernel loc .* local memory: 2080 bytes per thread .* ours +\\( +[0-9]+ registers\\): 2 CTAs, 16/48 warps \\(33%\\), limited by local memory" \
        "$heddle" ptx-info loc.ptx --set gpu.global_mem_mb=16
    expect 0 "completed: 1 kernel, 60 CTAs.* 2 CTAs per SM" "$heddle" launch loc.ptx loc --grid 60 \
        --block 256 --arg buf:out:61440:zero --set gpu.global_mem_mb=16
    ;;
config_line)
    # a cross-key rule broken in a file names the file and the line of the key
    sed 's/^ldst_segment_bytes.*/ldst_segment_bytes = 33/' "$root/configs/fermi-gtx480.ini" > m.ini
    line=$(grep -n '^ldst_segment_bytes' m.ini | cut -d: -f1)
    expect 1 "m.ini:$line: key 'ldst_segment_bytes': 33 is not a power of two" \
        "$heddle" config --config m.ini
    expect 1 "m.ini:$line: key 'ldst_segment_bytes'" "$heddle" run vecadd --quiet --config m.ini
    ;;
# }====

# {==== bounded input: caps, memory and time on large generated inputs ====
ptx_read_cap)
    # a 300 MB file is refused by its size before it is read; /dev/zero after 256 MiB + 1
    truncate -s 300M big.ptx
    expect 1 "big.ptx: cannot read: larger than 256 MiB" rss_under 64000 "$heddle" ptx-info big.ptx
    expect 1 "/dev/zero: cannot read: larger than 256 MiB" \
        rss_under 300000 "$heddle" ptx-info /dev/zero
    ;;
live_regs_20k)
    # 20,000 simultaneously live .b32 registers (1.1 MB of PTX): the register allocator's
    # interference graph used to grow with their square (6.4 GB); now under 512 MB
    gen_live 20000 > live.ptx
    expect 0 "PTX registers: 20004" rss_under 512000 timeout 60 "$heddle" ptx-info live.ptx
    expect 0 "completed: 1 kernel" rss_under 512000 timeout 60 \
        "$heddle" launch live.ptx live --grid 1 --block 32 --arg buf:o:4:zero
    ;;
liveness_cap)
    # 60,000 live registers (3.5 MB): the liveness rows would take 859 MiB; refused by name
    gen_live 60000 > live.ptx
    expect 0 "register allocation failed: live: liveness of 120004 instructions x 60004 registers would need [0-9]+ MiB \\(limit 512 MiB\\)" \
        rss_under 200000 timeout 60 "$heddle" ptx-info live.ptx
    ;;
params_100k)
    # 100,000 parameters: each offset used to rescan all parameters (19 s); now well under 1 s
    awk 'BEGIN { print ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry many(";
                 for (i = 0; i < 100000; i++) printf "  .param .u32 p%d%s\n", i, i < 99999 ? "," : "";
                 print ")\n{\n  .reg .b32 %r<2>;\n  ld.param.u32 %r1, [p99999];\n  ret;\n}" }' > p.ptx
    t0=$(date +%s%N)
    expect 0 "parameters: 100000" timeout 20 "$heddle" ptx-info p.ptx
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo "ptx-info of 100k parameters: $ms ms"
    [ "$ms" -lt 5000 ] || fail "100k parameters took $ms ms (bound 5 s on a loaded machine; ~0.4 s idle)"
    ;;
local_memory)
    # a 1 TiB .local array per thread does not fit (was reported at 100 % occupancy)
    printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry bigloc()\n{\n'\
' .local .b8 l[1099511627776];\n ret;\n}\n' > bigloc.ptx
    expect 0 "ours +\\( +[0-9]+ registers\\): does not fit: one CTA needs [0-9]+ bytes of local memory" \
        "$heddle" ptx-info bigloc.ptx
    # and launch refuses it before asking the host for 32 TiB (an ASan abort before): the CTA
    # scheduler's occupancy counts local memory as ptx-info does (32 threads x 1 TiB)
    expect 1 "bigloc: cannot run on this GPU: one CTA needs 35184372088832 bytes of local memory" \
        "$heddle" launch bigloc.ptx bigloc --grid 1 --block 32
    # 300 values live at once: the spills beyond the register budget are counted and said so
    gen_live 300 > live.ptx
    expect 0 "local memory: 0 bytes per thread \\+ [0-9]+ bytes of register spills .*register spills: timed" \
        "$heddle" ptx-info live.ptx
    ;;
spill_timing)
    # 251 live floats per thread (workloads/spill): ptxas's 255 registers exceed Fermi's 63, so
    # the allocator's spills are timed: one fill and one store per spilled word per warp (each
    # value is written once and read once), each one local-memory request; the result verifies.
    # With [sm] regs_source = 63 (a compiler's count that fits) the same allocation and
    # occupancy run without spill code: fewer cycles, still verified.
    expect 0 "register spills: timed" "$heddle" ptx-info "$wl/spill/spill.ptx"
    words=$(( $(grep -Eo '\+ [0-9]+ bytes of register spills' out.txt | grep -Eo '[0-9]+') / 4 ))
    [ "$words" -gt 150 ] || fail "expected most of 251 values spilled, got $words words"
    expect 0 "spill \\(small.*VERIFIED" "$heddle" run spill --size small --stats s.json
    expect 0 "spill \\(small.*VERIFIED" "$heddle" run spill --size small --stats n.json \
        --set sm.regs_source=63
    python3 - "$words" <<'PY' || fail "spill statistics"
import json, sys
words = int(sys.argv[1])
def tot(path, key):
    t = json.load(open(path))["timing"]
    return t["totals"]["cycles"] if key == "cycles" else sum(s[key] for s in t["sms"])
warps = 16 * 4  # 2011 threads in CTAs of 128
fills, stores = tot("s.json", "spill_fills"), tot("s.json", "spill_stores")
lmem = tot("s.json", "lmem_requests")
c1, c0 = tot("s.json", "cycles"), tot("n.json", "cycles")
print(f"spilled words {words}: fills {fills}, stores {stores}, local requests {lmem}; "
      f"cycles {c1} timed, {c0} untimed")
assert fills == stores == warps * words, "one fill and one store per spilled word and warp"
assert lmem == fills + stores, "each one local-memory request (a 128-byte row of 32 lanes)"
assert tot("n.json", "spill_fills") == 0 and tot("n.json", "lmem_requests") == 0
assert c1 > c0, "spill traffic costs cycles"
PY
    ;;
# }====

# {==== run-time limits ====
max_cycles)
    # an infinite loop stops at --max-cycles with a located report, its statistics kept
    gen_spin > spin.ptx
    expect 1 "stopped at the limit \\[timing\\] max_cycles = 20000 at cycle 2000[0-9].*warp 0 \\(spin, CTA \\(0,0,0\\) warp 0\\).*spin.ptx:[0-9]+" \
        timeout 60 "$heddle" launch spin.ptx spin --grid 2 --block 64 --max-cycles 20000
    expect 1 "stopped at the limit \\[timing\\] max_instructions = 5000" \
        timeout 60 "$heddle" launch spin.ptx spin --grid 2 --block 64 --max-instructions 5000
    expect 1 "max_cycles = 30000 at cycle 3000[0-9]" timeout 60 \
        "$heddle" launch spin.ptx spin --grid 1 --block 32 --set timing.max_cycles=30000
    # functional mode: the same limit, located at the warp's PC, with its block's warps
    expect 1 "spin: stopped at the limit \\[timing\\] max_instructions = 5000 after 5001 warp instructions of the run \\(5001 of this launch\\), in block \\(0,0,0\\), warp 0 at PC [0-9]+, spin.ptx:[0-9]+; the block's warps: 0 at PC [0-9]+, spin.ptx:[0-9]+; 1 at PC" \
        timeout 60 "$heddle" launch spin.ptx spin --grid 2 --block 64 \
        --max-instructions 5000 --set timing.mode=functional
    # ... counted over the run, as in cycle mode: bfs's 11 launches take 585,405 warp
    # instructions, none more than 200,000 (counted per launch, as before, it completed); the
    # run stops in its seventh launch in both modes, its statistics written
    for mode in functional cycle; do
        expect 1 "stopped at the limit \\[timing\\] max_instructions = 200000" \
            timeout 60 "$heddle" run bfs --size small --set timing.mode=$mode \
            --max-instructions 200000 --stats $mode.json
        python3 -c "import json, sys; r = json.load(open(sys.argv[1]))['run']
assert not r['verified'] and 'max_instructions = 200000' in r['error'], r
assert r['kernels'] == 6 and 200000 < r['warp_instrs'] < 200100, r" $mode.json ||
            fail "$mode: the statistics of the stopped run"
    done
    expect 0 "of the run \\([0-9]+ of this launch\\), in block \\([0-9]+,0,0\\), warp [0-9]+ at PC [0-9]+, workloads/bfs/bfs.ptx:[0-9]+" \
        cat functional.json
    expect 2 "--max-cycles wants a positive count, not '0'" \
        "$heddle" launch spin.ptx spin --grid 1 --block 32 --max-cycles 0
    ;;
ran_past_end)
    # a kernel with no ret is reported at once in cycle mode too (was: after 200,000 idle cycles)
    printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry noret()\n{\n'\
' .reg .b32 %%r<3>;\n mov.u32 %%r1, %%tid.x;\n add.u32 %%r2, %%r1, 1;\n}\n' > noret.ptx
    for mode in cycle functional; do
        expect 1 "noret: warp 0 of block \\(0,0,0\\) ran past the last instruction \\(after PC 1, noret.ptx:8\\)" \
            timeout 20 "$heddle" launch noret.ptx noret --grid 1 --block 32 --set timing.mode=$mode
        grep -q "no progress" out.txt && fail "reported by the watchdog"
    done
    ;;
watchdog_derived)
    # a legal latency of 1,000,000 cycles no longer trips the default watchdog
    expect 0 "VERIFIED" timeout 60 "$heddle" run vecadd --quiet --set mem.model=fixed \
        --set mem_fixed.latency=1000000
    # an explicit watchdog is kept as given
    expect 1 "no progress for 1000 cycles" timeout 60 "$heddle" run vecadd --quiet \
        --set mem.model=fixed --set mem_fixed.latency=5000 --set timing.watchdog_cycles=1000
    ;;
# }====

# {==== messages ====
stats_is_dir)
    mkdir d
    # refused before the run, so that a long run does not end in "cannot write"
    expect 2 "--stats d: is a directory" "$heddle" run vecadd --quiet --stats d
    ;;
dump_full)
    [ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 0; }
    # shellcheck disable=SC2046
    expect 1 "--dump .*/dev/full.*No space left on device" \
        "$heddle" launch $(vecadd_args 64K) --dump c:/dev/full
    ;;
dump_no_dir)
    # shellcheck disable=SC2046
    expect 2 "--dump nodir/x.bin: cannot write: no directory nodir" \
        "$heddle" launch $(vecadd_args 64) --dump c:nodir/x.bin
    ;;
ptx_is_dir)
    mkdir d
    expect 1 "d: is a directory" "$heddle" ptx-info d
    expect 1 "d: is a directory" "$heddle" launch d k --grid 1 --block 1
    expect 1 "d: is a directory" "$heddle" config --config d
    expect 1 "d: is a directory" "$heddle" run --mix x --mixes-file d
    expect 1 "file:d: is a directory" "$heddle" launch "$wl/vecadd/vecadd.ptx" vecadd --grid 1 \
        --block 32 --arg buf:a:64:file:d --arg buf:b:64:zero --arg buf:c:64:zero --arg s32:0
    ;;
print_beyond)
    # shellcheck disable=SC2046
    expect 2 "--print c:u32:100: buffer 'c' holds 16 u32 elements \\(64 bytes\\), not 100" \
        "$heddle" launch $(vecadd_args 64) --print c:u32:100
    ;;
# }====
*)
    fail "unknown case"
    ;;
esac
exit 0
