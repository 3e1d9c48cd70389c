#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""parity_options.py HEDDLE OUTDIR - the GPGPU-Sim parity options do what they say (issue 15):
- [mem] l2_preload_copies: vecadd's inputs, copied to the device before the launch, are L2
  hits (>= 99 % of L2 reads) with it and misses (< 5 %) without;
- [sm] shared_atomic_conflicts: histogram's same-bin shared atomics cost bank-conflict cycles
  when serialized and fewer when broadcast (GPGPU-Sim's rule), outputs verified both ways;
- [l1d] lookup_after_latency: an L2 hit of the pointer chase takes the L1 latency longer;
- [l2] sector_replies: vecadd's replies (128-byte line fills, acknowledgements of 128-byte
  stores) leave the L2 as one packet per 32-byte sector: about 4 times the reply packets (the
  few constant and parameter fills are smaller), and the stores still complete (the output
  verifies);
- [l1d] miss_writeback: a pointer-chase hop served by the L2 takes 2 cycles longer (the
  writeback register), one served by the L1 none.
- [icnt] voq: with one FIFO per crossbar input (false: booksim's single virtual channel, a head
  packet waiting for a busy output blocks the packets behind it) vecadd's packets wait longer
  in the input buffers of both networks and the kernel takes more cycles than with virtual
  output queues (true).
- [mem] l2_preload_d2h: stream reads each kernel's output back to the host; with the L2 update
  on those copies (GPGPU-Sim 4's memcpy_from_gpu) the next kernel starts with that output clean
  in the L2, so stream_scale writes back fewer lines and takes fewer cycles.
- [pipeline] oc_alloc_cycles: the collector allocation cycle makes each dependent load of the
  pointer chase (L1 hits) exactly one cycle longer; alu_dispatch_cycles leaves it unchanged
  (loads enter the load/store unit at once) and makes the ALU-bound montecarlo slower.
Each run verifies its output (heddle exits 0 only then)."""
import json
import os
import subprocess
import sys

heddle, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
fails = []


def run(name, wl, *sets, size="small"):
    path = os.path.join(out, name + ".json")
    cmd = [heddle, "run", wl, "--size", size, "--quiet", "--stats", path]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"parity_options: {' '.join(cmd)} failed:\n{r.stdout}{r.stderr}")
    with open(path) as f:
        return json.load(f)["timing"]


def check(ok, msg):
    print(("ok   " if ok else "FAIL ") + msg)
    if not ok:
        fails.append(msg)


for on in (True, False):
    t = run(f"vecadd_preload_{on}", "vecadd", f"mem.l2_preload_copies={str(on).lower()}")
    k = t["memory"]["per_kernel"][0]
    rate = k["l2_read_hits"] / k["l2_reads"]
    check(rate >= 0.99 if on else rate < 0.05,
          f"vecadd l2_preload_copies={on}: L2 read hit rate {rate:.3f}")

conf = {}
for mode in ("serialize", "broadcast"):
    t = run(f"histogram_{mode}", "histogram", f"sm.shared_atomic_conflicts={mode}")
    conf[mode] = sum(s["smem_conflict_cycles"] for s in t["sms"])
check(conf["broadcast"] < conf["serialize"],
      f"histogram bank-conflict cycles: broadcast {conf['broadcast']} < serialize "
      f"{conf['serialize']}")

lat = {}
for on in (False, True):
    t = run(f"chase_l2_{on}", "chase_l2", "l1d.latency=35",
            f"l1d.lookup_after_latency={str(on).lower()}")
    lat[on] = t["launches"][0]["cycles"]
check(lat[True] > lat[False], f"chase_l2 cycles: lookup after latency {lat[True]} > at "
      f"arrival {lat[False]}")
pk = {}
for on in (False, True):
    t = run(f"vecadd_sector_replies_{on}", "vecadd", f"l2.sector_replies={str(on).lower()}")
    pk[on] = t["memory"]["per_kernel"][0]["icnt_rep_packets"]
check(3.9 * pk[False] <= pk[True] <= 4 * pk[False],  # 128-byte fills and stores; a few smaller
      f"vecadd reply packets: one per sector {pk[True]} ~ 4 x one per reply {pk[False]}")

hop = {}
for wl in ("chase", "chase_l2"):
    for on in (False, True):
        c = [run(f"{wl}_{size}_wb_{on}", wl, f"l1d.miss_writeback={str(on).lower()}",
                 size=size)["launches"][0]["cycles"] for size in ("medium", "large")]
        hop[(wl, on)] = c[1] - c[0]  # cycles of the extra hops of the large chain
check(hop[("chase_l2", True)] > hop[("chase_l2", False)],
      f"chase_l2 extra hops: writeback register {hop[('chase_l2', True)]} > without "
      f"{hop[('chase_l2', False)]} cycles")
check(hop[("chase", True)] == hop[("chase", False)],
      f"chase (L1 hits) extra hops: writeback register {hop[('chase', True)]} == without "
      f"{hop[('chase', False)]} cycles")
icw = {}
for on in (True, False):
    t = run(f"vecadd_voq_{on}", "vecadd", f"icnt.voq={str(on).lower()}")
    k = t["memory"]["per_kernel"][0]
    icw[on] = (t["launches"][0]["cycles"], k["icnt_req_wait"], k["icnt_rep_wait"])
check(all(f > v for f, v in zip(icw[False], icw[True])),
      f"vecadd cycles, request and reply wait: one FIFO per input {icw[False]} > virtual "
      f"output queues {icw[True]}")
wb = {}
for on in (False, True):
    t = run(f"stream_d2h_{on}", "stream", "mem.l2_preload_copies=true",
            f"mem.l2_preload_d2h={str(on).lower()}")
    wb[on] = (t["launches"][1]["cycles"], t["memory"]["per_kernel"][1]["l2_writebacks"])
check(all(a < b for a, b in zip(wb[True], wb[False])),
      f"stream_scale cycles, L2 write-backs: with the read-back copies in the L2 {wb[True]} < "
      f"without {wb[False]}")
per = {}
for st in ("pipeline.oc_alloc_cycles=0", "pipeline.oc_alloc_cycles=1",
           "pipeline.alu_dispatch_cycles=1"):
    c = [run(f"chase_{size}_{st}", "chase", st, size=size)["launches"][0]["cycles"]
         for size in ("medium", "large")]
    per[st] = c[1] - c[0]  # the large chain's 1024 extra hops
check(per["pipeline.oc_alloc_cycles=1"] == per["pipeline.oc_alloc_cycles=0"] + 1024,
      f"chase extra hops: collector allocation cycle {per['pipeline.oc_alloc_cycles=1']} = "
      f"{per['pipeline.oc_alloc_cycles=0']} + 1 per hop")
check(per["pipeline.alu_dispatch_cycles=1"] == per["pipeline.oc_alloc_cycles=0"],
      f"chase extra hops: ALU dispatch cycle {per['pipeline.alu_dispatch_cycles=1']} unchanged")
mc = [run(f"montecarlo_alu_{v}", "montecarlo", f"pipeline.alu_dispatch_cycles={v}")
      ["launches"][0]["cycles"] for v in (0, 1)]
check(mc[1] > mc[0], f"montecarlo cycles: ALU dispatch cycle {mc[1]} > without {mc[0]}")
sys.exit(1 if fails else 0)
