#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ccbp_stages.py - where a workload's memory requests spend their cycles, from a heddle stats JSON
(`heddle run ... --stats F.json`; a --mix run or a standalone one). Per workload of the run
(its launches' `memory.per_kernel` records summed), the mean per request of each stage the
memory statistics count (docs/memory.md "Statistics"; session 21, docs/blocks/ccbp.md "Session
21: where co-run latency goes"):

  read      mean load latency, L1 to answer (core cycles; read_latency / reads_done)
  mq        miss-queue wait per request that left it (core cycles)
  l1_mq     cycles requests waited at the L1 for miss-queue space, per L1 read (core)
  xreq      request-crossbar input-buffer wait per packet (interconnect cycles)
  l2q       L2 input-queue wait after the ROP delay per L2 access (L2 cycles)
  l2_dq     L2 cycles the slice stalled on a full L2-to-DRAM queue, per L2 access of this
            workload at the head ([l2] dram_queue)
  dramq     controller-queue wait per DRAM request (DRAM cycles)
  xrep      reply-crossbar input-buffer wait per packet (interconnect cycles)
  l2hit     L2 read hit rate

  ccbp_stages.py F.json [G.json ...]
"""
import json
import sys


def per_workload(d):
    names = {l["id"]: l["kernel"] for l in d["timing"]["launches"]}
    owner = {k["kernel"]: k["workload"] for k in d.get("kernels", [])}
    wl = d.get("workloads") or []
    out = {}
    for k in d["timing"]["memory"]["per_kernel"]:
        kname = names.get(k["launch"])
        o = owner.get(kname, 0) if owner else 0
        acc = out.setdefault(o, {})
        for f, v in k.items():
            if isinstance(v, (int, float)) and f != "launch":
                acc[f] = acc.get(f, 0) + v
    label = {}
    for o in out:
        w = wl[o] if o < len(wl) else None
        label[o] = (w.get("name") if isinstance(w, dict) else w) or d.get("workload", str(o))
    return out, label


def row(a):
    q = lambda n, dd: a.get(n, 0) / max(1, a.get(dd, 0)) if not isinstance(dd, tuple) else \
        a.get(n, 0) / max(1, sum(a.get(x, 0) for x in dd))
    return {"read": q("read_latency", "reads_done"), "mq": q("mq_wait", "mq_requests"),
            "l1_mq": q("l1d_stall_missq", "l1d_reads"),
            "xreq": q("icnt_req_wait", "icnt_req_packets"),
            "l2q": q("l2_wait", ("l2_reads", "l2_writes", "l2_atomics")),
            "l2_dq": q("l2_dramq_stall", ("l2_reads", "l2_writes", "l2_atomics")),
            "dramq": q("dram_wait", ("dram_reads", "dram_writes")),
            "xrep": q("icnt_rep_wait", "icnt_rep_packets"),
            "l2hit": q("l2_read_hits", "l2_reads")}


def main(paths):
    cols = ["read", "mq", "l1_mq", "xreq", "l2q", "l2_dq", "dramq", "xrep", "l2hit"]
    print("| run | workload | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for p in paths:
        try:
            with open(p) as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"ccbp_stages.py: {p}: {e}")
        out, label = per_workload(d)
        for o in sorted(out):
            r = row(out[o])
            print(f"| {p.split('/')[-1]} | {label[o]} | " +
                  " | ".join(f"{r[c]:.3f}" if c == "l2hit" else f"{r[c]:.1f}" for c in cols) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    main(sys.argv[1:])
