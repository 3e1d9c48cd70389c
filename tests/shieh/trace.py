#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""trace.py - experiments/shieh_trace.py's functions on hand-made inputs (issue 24, session 17):
the Wilson interval against known values, paired outcomes between L_c (a request missed at one
L_c and met at the next is `fell`, the reverse `rose`), the no-statistics window (the first
first-wave CTA to end, per kernel's first launch, from a drain profile) and the occupancy
classes (a launch under one wave, a request in its last wave, mid-launch); and (session 18)
shieh_text.oracle_profiles, which names the requests whose Oracle fell back to the victim-alone
profile. Prints 'trace ok'.
"""
import os
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import shieh_trace as st  # noqa: E402


def check(cond, msg):
    if not cond:
        print(f"trace.py: {msg}")
        sys.exit(1)


def main():
    lo, hi = st.wilson(4, 48)
    check(abs(lo - 3.29) < 0.05 and abs(hi - 19.55) < 0.05, f"wilson(4, 48) = {lo}, {hi}")
    check(st.wilson(0, 0) == (None, None), "wilson of no trials")

    def run(v, t, b, viol, lat):
        return {"victim": v, "arrival": t, "policy": "chimera", "bound": b, "violation": viol,
                "latency": lat, "gone_latency": lat, "turnaround": lat + 1000, "t_p": 1000,
                "tech": {"switch": 0, "drain": 1, "flush": 0}}
    res = [run("a", 10, 100, True, 150), run("a", 10, 200, False, 150),   # fell
           run("b", 20, 100, False, 50), run("b", 20, 200, True, 190),    # rose
           run("c", 30, 100, True, 300), run("c", 30, 200, True, 300)]    # missed at both
    (b0, b1, fell, rose), = st.paired_flips(res, "chimera", [100, 200])
    check((b0, b1) == (100, 200), "bounds")
    check([x["victim"] for x in fell] == ["a"] and [x["victim"] for x in rose] == ["b"],
          f"fell {fell}, rose {rose}")
    check(abs(fell[0]["100"]["latency_over_lc"] - 1.5) < 1e-9
          and abs(rose[0]["200"]["after_over_tp"] - 1.0) < 1e-9, "latency / L_c, after / T_p")

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "v.prof")
        with open(path, "w") as fh:
            fh.write("heddle-drain-profile 1\n# launch kernel cta warp_instrs cycles\n")
            # kernel k: launch 0, 2 SMs x 1 CTA per SM = a wave of 2; CTA 2 is second-wave
            fh.write("0 k 0 10 900\n0 k 1 10 700\n0 k 2 10 100\n")
            fh.write("1 j 0 10 400\n2 k 0 10 50\n")   # j's one launch; k's second launch
        prof = st.read_profile(path)
        launches = [{"id": 0, "kernel": "k", "start_cycle": 0, "end_cycle": 1000, "ctas": 3,
                     "ctas_per_sm": 1},
                    {"id": 1, "kernel": "j", "start_cycle": 1000, "end_cycle": 1500, "ctas": 1,
                     "ctas_per_sm": 1},
                    {"id": 2, "kernel": "k", "start_cycle": 1500, "end_cycle": 2000, "ctas": 1,
                     "ctas_per_sm": 1}]
        cyc, frac, per = st.stats_window(launches, prof, 2, 2000)
        check(per == {"k": 700, "j": 400} and cyc == 1100 and abs(frac - 0.55) < 1e-9,
              f"window {per} {cyc} {frac}")
        # the run: k's first launch (3 CTAs, fills 2 SMs) at the request 950: within its
        # longest residency (900) of its end (1000) -> last wave; at 50 -> mid-launch; j's
        # launch (1 CTA on 2 SMs) -> under one wave
        run_l = {lc["id"]: lc for lc in launches}
        w = st.occupancy_why(run_l, [0, 1], 950, launches, prof, 2)
        check(w == {"under one wave": 1, "last wave": 1, "mid-launch": 0}, f"classes {w}")
        w = st.occupancy_why(run_l, [0], 50, launches, prof, 2)
        check(w == {"under one wave": 0, "last wave": 0, "mid-launch": 1}, f"classes {w}")
    # (session 18) the setup table names the requests whose Oracle fell back to the victim-alone
    # profile (a failed first pass), never silently
    sys.path.insert(0, os.path.join(ROOT, "pylib"))
    import shieh_text  # noqa: E402

    class Pt:
        def __init__(self, v, t, pol, prof=None):
            self.axes = {"mix": f"{v}+preempter_gpu", "flags": f"--arrive preempter_gpu@{t}:1",
                         "set.context.preempt_policy": pol}
            if prof:
                self.axes["set.context.oracle_profile"] = prof
    pts = [Pt("nw", 5, "oracle", "p/nw5f.prof"), Pt("nw", 9, "oracle", "p/nw9.prof"),
           Pt("nw", 9, "chimera"), Pt("bfs", 7, "oracle", "p/bfs_7f.prof")]
    cell, fell = shieh_text.oracle_profiles(pts)
    check(fell == [("nw", 9)] and "2 of 3 requests" in cell and "nw at 9" in cell,
          f"oracle_profiles: {cell!r} {fell}")
    check(shieh_text.oracle_profiles(pts[:1] + pts[3:]) == ("first pass of the run", []),
          "oracle_profiles with every first pass")
    check(shieh_text.oracle_profiles(pts[1:3])[0] == "victim alone", "oracle_profiles alone")
    check(shieh_text.oracle_profiles(pts[2:3])[0] == "(Oracle not run)", "no Oracle")
    print("trace ok")


if __name__ == "__main__":
    main()
