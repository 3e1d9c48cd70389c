# SPDX-License-Identifier: MIT
"""ccbp: Lin thesis ch.4 (CCBP, issue 29; digest §2.14-2.17, §4.3, §5.3-5.4, §6.4) on pairs of
the Table 4.2 stand-ins (workloads/mixes.ini, the "CCBP" group), configs/maxwell-ccbp.ini.

Two stages.
  plan HEDDLE   the profiling runs (§2.15), each workload alone with GTO (T4.1: GTO standalone):
                the whole run (IPC_alone, NoC and DRAM use, per-request costs, per-CTA static
                demand, CTAs per SM), runs limited to n CTAs per SM ([timing] admit =
                kernel_quota) for n in CURVE_POINTS up to nmax and at nmax (IPC and nbw/dbw
                curves, linear between the measured n; nmax = the CTAs per SM the input can
                hold, below the occupancy bound when the grid is small; session 26, before it
                {1, 2, 4, occupancy bound}: curve_points), and a run with the L2 and DRAM access latencies doubled (the
                LS test: the pointer chase's hops x2, lat2x; the slowdown and whether it passes
                Lin's 1.7x are reported beside the class). Classes: DBI if DRAM use >= 50 % of peak, else NBI if the busier NoC direction
                >= 50 %, else LS (the saturation points Lin quotes; workloads/README.md "CCBP").
                The Algorithm 1 profiles give each kernel's NoC curve and cost for its busier
                crossbar (noc_dir; CCBP_NOC=both: both crossbars averaged, before session 19),
                each crossbar's curve measured at every curve point (noc_dirs; since session 20:
                sessions 17 and 19 scaled it from the whole run's split of the flits).
                Writes results/ccbp/profile.json, one Algorithm 1 profile per pair
                (results/ccbp/profiles/PAIR.txt, model/mech/ccbp/ccbp_profile.c) and the sweep
                file experiments/ccbp.toml.
  lat2x HEDDLE  only the LS test's settings, checked by the chase (CTest ccbp_lat2x).
  measure HEDDLE W   one workload's standalone run and LS test as the plan makes them, its
                Table 4.2 columns and its class among the committed profiles (session 25).
  sweep         experiments/sweep.py experiments/ccbp.toml -j 2: per pair and scheme one co-run,
                every workload re-executed until the budget (--repeat all --repeat-until);
                report() computes per-kernel IPC over the budget, the metrics and the figure.
Schemes (all on LRR, T4.1; docs/blocks/ccbp.md "Baselines"):
  lrr    both kernels unrestricted (no CTA combination, no bandwidth control)
  smk_p  SMK's DRF on the static resources alone: CTAs added one at a time to the kernel with
         the smaller dominant static share while they fit
  smk    SMK [Wan16] (smk_p's combination plus its warp-scheduler time quotas): per SM and epoch
         of SMK_EPOCH cycles, kernel k may issue IPC_alone_k / SMs x epoch / 2 warp
         instructions ([ccbp] smk_epoch, smk_quota; the quota is proportional to the
         standalone IPC, so both kernels progress at the same fraction of their alone speed)
  ws     Warped-Slicer: the combination with the smallest sum of slowdowns on the IPC-vs-CTA
         scalability curves (exhaustive over the combinations that fit)
  ws_online  Warped-Slicer in its online form ([ccbp] ws_online; session 30, docs/blocks/ccbp.md
         "Session 30"): the co-run starts with a sampling phase (each SM runs one application
         at its own CTA limit), the curves are the SMs' IPC over the phase, the combination is
         chosen on them by water-filling and applied on every SM; a kernel an application
         launches for the first time starts a new phase
  dai18  [Dai18]: ws's combination plus memory-instruction limiting ([ccbp] mil): the kernel with
         the larger standalone NoC use may keep at most MIL global loads in flight per SM; the
         static limit (SMIL) is the best by HS of DAI_MIL and no limit (the ws point), as
         Dai18's static variant picks it by profiling (the report shows each)
  dmil   [Dai18]'s dynamic limit (DMIL; [ccbp] mil_epoch, our AIMD rule, docs/blocks/ccbp.md
         "Baselines"): ws's combination, the same kernel limited, the limit starting at
         DMIL_CEIL, halved after a DMIL_EPOCH-cycle epoch whose mean load latency passes twice
         the lowest seen, raised by 1 (up to DMIL_CEIL) otherwise
  dmil_online  [Dai18]'s dynamic limit on Warped-Slicer's online form (session 31,
         docs/blocks/ccbp.md "Session 31"): ws_online's sampling phase and combination, and
         dmil's limit on the same kernel (ceiling DMIL_CEIL, DMIL_EPOCH-cycle epochs) from the
         co-run's first cycle; the thesis's [Dai18] is "WS plus memory-instruction scheduling",
         its WS the online scheme, and DMIL is Dai18's own proposal, so the thesis's +19 % is
         placed beside this column
  ccbp   Algorithm 1 on the profile (CTA combination + NoC/DRAM shares as IRC quotas per 200-cycle
         window, LS requests first in the miss queue)
  oracle the CTA combination by exhaustive search (LRR, no bandwidth control): the combination
         with the highest HS over ORACLE's set: "max" (default) the maximal combinations (neither
         kernel can take one more CTA), "all" every combination that fits (docs/blocks/ccbp.md
         gives the run counts and CPU time): CCBP_ORACLE=all ccbp.py plan HEDDLE
Metrics (§5.4; per pair, k over the two kernels): slowdown_k = IPC_alone_k / IPC_share_k;
WSpeedup = sum 1/slowdown_k; HSpeedup = N / sum slowdown_k (the headline); ANTT = mean slowdown_k
(Eyerman & Eeckhout); fairness = min_k (1/slowdown_k) / max_k (1/slowdown_k). IPC_share_k = warp
instructions of kernel k's instances in (0, budget] / budget, an instance straddling the budget
counted in proportion to its cycles inside it (the mix's instance records).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heddle_sweep import stage  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RES = os.path.join(ROOT, "experiments", "results", "ccbp")
CONFIG = "maxwell-ccbp"
SIZE = "medium"
BUDGET = int(os.environ.get("CCBP_BUDGET", "1000000"))  # cycles per co-run (the thesis: 100 M;
# sized for 2 cores: docs/blocks/ccbp.md "The experiment's inputs" gives the instances it holds)
# The pairs (the thesis's list is lost; docs/blocks/ccbp.md "the pairs"): by Lin Table 4.2's
# classes, each of its five LS kernels beside one BI kernel, and three BI+BI pairs, so that
# every one of the 13 Table 4.2 stand-ins co-runs at least once. Since session 15 five of them
# run their `_ccbp` input variants (workloads/mixes.ini; docs/blocks/ccbp.md "The experiment's
# inputs"): cfd, fdtd2d and lbm for fewer steps, bfs on 32,768 vertices, so that the budget holds
# several instances of each kernel. Since session 17 BP and KM are the kernels Lin measures (docs/blocks/ccbp.md "The LS stand-ins again"):
# backprop_ccbp runs bp_layer_forward alone (BP_1), kmeans_ccbp km_invert_mapping alone (KM_1)
# Since session 21 BP is Rodinia's form of BP_1 (backprop_rod_ccbp: its layerforward writes the
# tile back over the weights, Lin's 51 % L2 misses; docs/blocks/ccbp.md "Session 21")
# Since session 25 LAV and SRT are Rodinia's kernels in Rodinia's form (docs/blocks/ccbp.md
# "Session 25"): lavamd_rod_ccbp adds every interaction's force into fv in global memory (NBI),
# bucketsort_rod_ccbp is hybridsort's bucketsort scatter alone (DBI); both stand-ins before kept
# their work on chip and were LS.
PAIRS = ["backprop_rod_ccbp+cfd_ccbp", "btree+sad", "histo1024_lin22+fdtd2d_ccbp", "pathfinder+lbm_ccbp",
         "bfs_ccbp+spmv", "cfd_ccbp+fdtd2d_ccbp", "lavamd_rod_ccbp+bucketsort_rod_ccbp",
         "kmeans_ccbp+lbm_ccbp"]
SCHEMES = ["lrr", "smk_p", "smk", "ws", "ws_online", "dai18", "dmil", "dmil_online", "ccbp",
           "oracle"]
# the grid's order, scheme by scheme over every pair: a run cut short (sweep.py keeps every
# finished point in its store and reruns only the rest) has the headline schemes of every pair
GRID_ORDER = ["lrr", "ccbp", "smk", "ws", "dai18", "oracle", "smk_p", "dmil", "ws_online",
              "dmil_online"]
SMK_EPOCH = 5000           # cycles per SMK time-quota epoch (Wan16's epoch is not in the digest)
DAI_MIL = [2, 4, 8]        # Dai18 static limits tried (loads in flight per SM)
DMIL_CEIL = 8              # Dai18 dynamic (DMIL): the limit's ceiling ([ccbp] mil)
DMIL_EPOCH = 2000          # and its epoch in cycles ([ccbp] mil_epoch; docs/blocks/ccbp.md)
ORACLE = os.environ.get("CCBP_ORACLE", "max")
# Algorithm 1's NoC measure (session 19): "dir" (default) each kernel's busier crossbar, in
# percent of that crossbar's peak, against the 60 % sustainable share Lin gives per crossbar;
# "both" the two crossbars averaged (sessions 11 to 18). CCBP_NOC=both ccbp.py plan HEDDLE
NOC = os.environ.get("CCBP_NOC", "dir")
CAP = {"threads": 2048, "regs": 65536, "smem": 98304, "ctas": 32}   # T4.1, one SM
NSM, SLICES, CHANNELS, CORE, ICNT, DRAM = 16, 16, 16, 1800.0, 1200.0, 1200.0
PAPER = {"smk": 78, "ws": 39, "dai18": 19, "oracle_avg": 11, "oracle_max": 51}
# (the thesis's +39 % is over Warped-Slicer with its online sampling: our ws_online column;
# its +19 % over [Dai18], WS plus memory-instruction scheduling: our dmil_online column)
# Lin Table 4.2's classes of our stand-ins (workloads/README.md "Lin 4.2")
PAPER_CLASS = {"backprop": "ls", "cfd": "nbi", "btree": "ls", "sad": "dbi", "histo1024": "ls",
               "fdtd2d": "dbi", "pathfinder": "ls", "lbm": "dbi", "bfs": "ls", "spmv": "nbi",
               "kmeans": "nbi", "lavamd": "nbi", "bucketsort": "dbi"}


STANDALONE_SCHED = "gto"  # T4.1: GTO for the standalone runs (IPC_alone and the profiles)


def _kb(c, sec):
    return c[sec]["sets"] * c[sec]["ways"] * c[sec]["line"] / 1024


# Table 4.1 (digest §4.3; the thesis L2766-L2827) beside a co-run's configuration, as its
# statistics give it (timing.config): (row, Table 4.1's value, ours from the config c and the
# profile p, whether they agree). A row whose "same" is a string explains why not a plain yes.
TABLE41 = [
    ("SMs", "16", lambda c, p: c["gpu"]["num_sms"], lambda v: v == 16),
    ("threads per warp", "32", lambda c, p: c["gpu"]["warp_size"], lambda v: v == 32),
    ("L2 banks", "16", lambda c, p: c["dram"]["channels"] * c["l2"]["slices_per_channel"],
     lambda v: v == 16),
    ("DRAM chips", "16", lambda c, p: c["dram"]["channels"], lambda v: v == 16),
    ("SM clock (MHz)", "1800", lambda c, p: c["clock"]["core_mhz"], lambda v: v == 1800),
    ("schedulers per SM", "4", lambda c, p: c["sm"]["num_schedulers"], lambda v: v == 4),
    ("warp scheduler, co-runs", "LRR", lambda c, p: c["sm"]["scheduler"], lambda v: v == "lrr"),
    ("warp scheduler, standalone", "GTO", lambda c, p: STANDALONE_SCHED + " (ccbp.py plan)",
     lambda v: v.startswith("gto")),
    ("CTAs per SM", "32", lambda c, p: c["sm"]["max_ctas"], lambda v: v == 32),
    ("threads per SM", "2048", lambda c, p: c["sm"]["max_threads"], lambda v: v == 2048),
    ("register file (KB)", "256", lambda c, p: c["sm"]["registers"] * 4 // 1024,
     lambda v: v == 256),
    ("shared memory (KB)", "96", lambda c, p: c["sm"]["shared_mem_bytes"] // 1024,
     lambda v: v == 96),
    ("L1D size (KB)", "24", lambda c, p: _kb(c, "l1d"), lambda v: v == 24),
    ("L1D block (B), ways", "128, 8", lambda c, p: f"{c['l1d']['line']}, {c['l1d']['ways']}",
     lambda v: v == "128, 8"),
    ("L1D transaction queue", "128", lambda c, p: f"{c['l1d']['miss_queue']} ([l1d] miss_queue,"
     " the queue the IRC gates)", lambda v: v.startswith("128 ")),
    ("L1D store buffer", "16", lambda c, p: "none (stores go to the L2 through the miss "
     "queue, as in GPGPU-Sim 3.2.2, which has no store buffer)", lambda v: "not modelled "
     "(nor in the thesis's simulator)"),
    ("L1D MSHRs", "256", lambda c, p: c["l1d"]["mshr_entries"], lambda v: v == 256),
    ("NoC", "two 16x16 crossbars, 32 B flits", lambda c, p: f"one crossbar per direction, "
     f"{c['gpu']['num_sms']} SM x {c['dram']['channels'] * c['l2']['slices_per_channel']} L2 "
     f"ports, {c['icnt']['flit_bytes']} B flits", lambda v: v.startswith(
         "one crossbar per direction, 16 SM x 16 L2 ports, 32 B")),
    ("NoC input buffers", "input queueing (L2820-L2826); GPGPU-Sim 3.2.2: one VC per input",
     lambda c, p: (f"one FIFO of {c['icnt']['input_flits']} flits per input (icnt.voq = false;"
                   " 3.x vc_buf_size 8)") if not c["icnt"]["voq"] else
     "virtual output queues (icnt.voq = true)", lambda v: v.startswith("one FIFO")),
    ("L2-to-DRAM queue", "not in T4.1 (GPGPU-Sim 3.x: 8, partition queues 8:8:8:8)",
     lambda c, p: c["l2"].get("dram_queue"), lambda v: v == 8),
    ("NoC bandwidth per crossbar (GB/s)", "614 (16 x 1.2 GHz x 32 B)",
     lambda c, p: round(16 * c["clock"]["icnt_mhz"] * c["icnt"]["port_bytes"] / 1000, 1),
     lambda v: abs(v - 614.4) < 0.5),
    ("L2 per bank (KB)", "128", lambda c, p: _kb(c, "l2"), lambda v: v == 128),
    ("L2 block (B), ways", "128, 8", lambda c, p: f"{c['l2']['line']}, {c['l2']['ways']}",
     lambda v: v == "128, 8"),
    ("L2 MSHRs", "256", lambda c, p: c["l2"]["mshr_entries"], lambda v: v == 256),
    ("L2 write policy", "WBWA", lambda c, p: "write-back, write-allocate with a line fetch on a "
     "write miss, the miss written through (GPGPU-Sim 3.2.2's dl2 W: l2.write_miss_fetch)"
     if c["l2"].get("write_miss_fetch") else "write-back, write-allocate of the written sectors, "
     "no fetch (l2.write_miss_fetch = false)", lambda v: True),
    ("DRAM clock (MHz)", "1200", lambda c, p: c["clock"]["dram_mhz"], lambda v: v == 1200),
    ("DRAM bandwidth (GB/s)", "319", lambda c, p: round(
        c["dram"]["channels"] * c["dram"]["bus_bytes"] * c["dram"]["data_rate"] *
        c["clock"]["dram_mhz"] / 1000, 1),
     lambda v: "no: T4.1's own 16 chips x 32 bits at 1200 MHz give 307 (ch.3's Table 3.1 says "
     "307 for the same DRAM)" if abs(v - 307.2) < 0.5 else False),
    ("DRAM scheduler", "FR-FCFS", lambda c, p: c["dram"]["scheduler"],
     lambda v: v == "frfcfs"),
    ("DRAM transaction queue", "128", lambda c, p: f"{c['dram']['queue']} ([dram] queue, "
     "GPGPU-Sim's frfcfs_dram_sched_queue_size)", lambda v: v.startswith("128 ")),
    ("L2 hit latency (core cycles)", "200 [MC16]", lambda c, p: round(
        p["lat2x"]["chase_base"][0], 1) if "lat2x" in p else None,
     lambda v: v is not None and abs(v - 200) <= 2),
    ("DRAM latency (core cycles)", "380 [MC16]", lambda c, p: round(
        p["lat2x"]["chase_base"][1], 1) if "lat2x" in p else None,
     lambda v: v is not None and abs(v - 380) <= 2),
]


def setup_check(cfg, prof):
    """Table 4.1 beside a run's configuration: the report's setup-check rows."""
    out = []
    for name, want, ours, same in TABLE41:
        v = ours(cfg, prof)
        ok = same(v)
        out.append([name, str(v), want, "yes" if ok is True else ok if ok else "NO"])
    return out


def _run(heddle, w, sets, path):
    args = [heddle, "run", w, "--size", SIZE, "--config", f"configs/{CONFIG}.ini", "--quiet",
            "--set", f"sm.scheduler={STANDALONE_SCHED}", "--stats", path]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ccbp.py: {' '.join(args)} failed: {p.stdout[-500:]} {p.stderr[-500:]}")
    return json.load(open(path))["timing"]


def _ini(section, key, kind=int):
    """A numeric key of configs/CONFIG.ini (the latencies and clocks of the doubled-latency
    test)."""
    cur = None
    for line in open(os.path.join(ROOT, "configs", CONFIG + ".ini")):
        line = line.split("#")[0].strip()
        if line.startswith("["):
            cur = line.strip("[]")
        elif cur == section and line.split("=")[0].strip() == key:
            return kind(line.split("=")[1])
    sys.exit(f"ccbp.py: no [{section}] {key} in configs/{CONFIG}.ini")


def _chase_hop(heddle, w, sets, tmp):
    """Load-to-use core cycles per dependent hop of the pointer chase `w` (workloads/chase:
    chase_l2 hits in the L2, chase_dram misses it) on CONFIG: (cycles of the launch at size
    large - at medium) / (hops large - medium), as experiments/memory-baselines.py measures the
    Table 4.1 latencies (the launch overhead and the cold first pass cancel)."""
    pts = []
    for size in ("medium", "large"):
        path = os.path.join(tmp, f"{w}_{size}.json")
        args = [heddle, "run", w, "--size", size, "--config", f"configs/{CONFIG}.ini",
                "--stats", path]
        for s in sets:
            args += ["--set", s]
        p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
        hops = re.findall(r"^chase: .* (\d+) hops ", p.stdout + p.stderr, re.M)
        if p.returncode != 0 or len(hops) != 1:
            sys.exit(f"ccbp.py: {' '.join(args)} failed (or logged no hop count): "
                     f"{p.stdout[-500:]} {p.stderr[-500:]}")
        launches = json.load(open(path))["timing"]["launches"]
        if len(launches) != 1:
            sys.exit(f"ccbp.py: {' '.join(args)}: {len(launches)} launches, expected 1")
        pts.append((int(hops[0]), launches[0]["cycles"]))
    return (pts[1][1] - pts[0][1]) / (pts[1][0] - pts[0][0])


PATH_MAX = 63  # the longest string a configuration key holds (heddle run --set)
LS_SLOWDOWN = 1.7  # Lin's LS kernels slow down by more than this with the latencies doubled
LAT2X_TOL = 0.02  # the doubled chase latencies must be within 2 % of twice the base ones


def lat2x(heddle, tmp):
    """The doubled-latency test's settings (Lin §2.15, L2863: "we doubled the access latency to
    L2 cache and DRAM"; Table 4.1 gives those access latencies as 200 and 380 cycles, the
    load-to-use latencies of Mei & Chu's pointer chase). So the test doubles what the chase
    measures, L2 hit 201 -> 402 and DRAM 379 -> 758, not the two configuration keys: [l2]
    latency (the ROP delay, L2 cycles) is only 173 of the 201 and lies on the DRAM path too,
    [dram] latency (DRAM cycles) only part of the rest, so doubling the keys gave L2 x1.87 and
    DRAM x1.76 (session 15's test). Here the ROP delay takes the whole L2 hop and the DRAM
    delay the rest of the DRAM hop, each converted to its clock; one correction step per
    measured residual; the run stops if the chase is not within LAT2X_TOL of x2."""
    core = _ini("clock", "core_mhz", float)
    r_l2, r_dram = _ini("clock", "l2_mhz", float) / core, _ini("clock", "dram_mhz", float) / core
    keys0 = [_ini("l2", "latency"), _ini("dram", "latency")]
    base = [_chase_hop(heddle, "chase_l2", [], tmp), _chase_hop(heddle, "chase_dram", [], tmp)]
    keys = [keys0[0] + round(base[0] * r_l2), keys0[1] + round((base[1] - base[0]) * r_dram)]
    for _ in range(3):
        sets = [f"l2.latency={keys[0]}", f"dram.latency={keys[1]}"]
        got = [_chase_hop(heddle, "chase_l2", sets, tmp),
               _chase_hop(heddle, "chase_dram", sets, tmp)]
        err = [2 * base[0] - got[0], 2 * base[1] - got[1]]
        if all(abs(e) <= 0.005 * 2 * b for e, b in zip(err, base)):
            break
        step = [round(err[0] * r_l2), round((err[1] - err[0]) * r_dram)]
        if step == [0, 0]:
            break
        keys = [keys[0] + step[0], keys[1] + step[1]]
    else:
        sets = [f"l2.latency={keys[0]}", f"dram.latency={keys[1]}"]
        got = [_chase_hop(heddle, "chase_l2", sets, tmp),
               _chase_hop(heddle, "chase_dram", sets, tmp)]
    ratio = [g / b for g, b in zip(got, base)]
    if any(abs(r - 2) > 2 * LAT2X_TOL for r in ratio):
        sys.exit(f"ccbp.py: the doubled-latency settings {sets} give the chase x{ratio[0]:.3f} "
                 f"(L2) and x{ratio[1]:.3f} (DRAM), not x2")
    return {"keys": sets, "base_keys": [f"l2.latency={keys0[0]}", f"dram.latency={keys0[1]}"],
            "chase_base": base, "chase_2x": got, "ratio": ratio}


def _measure(t):
    m, c = t["memory"]["total"], t["totals"]["cycles"]
    d = t["memory"]["derived"]
    flits = m["icnt_req_flits"] + m["icnt_rep_flits"]
    return {"cycles": c, "ipc": t["totals"]["warp_instrs"] / c,
            "nbw": 100.0 * flits / (c * ICNT / CORE * (NSM + SLICES)),
            "dbw": 100.0 * m["dram_data"] / (c * DRAM / CORE * CHANNELS),
            "noc_busier": 100.0 * max(d["icnt_request_utilization"], d["icnt_reply_utilization"]),
            "dram_util": 100.0 * d["dram_bus_utilization"],
            # each crossbar alone: the request one's flits over its L2-side ports, the reply
            # one's over its SM-side ports (the per-direction utilisation of Lin ch.3 and §2.15)
            "nbw_req": 100.0 * m["icnt_req_flits"] / (c * ICNT / CORE * SLICES),
            "nbw_rep": 100.0 * m["icnt_rep_flits"] / (c * ICNT / CORE * NSM),
            "cost_req": m["icnt_req_flits"] / max(1, m["mq_requests"]),
            "cost_rep": m["icnt_rep_flits"] / max(1, m["mq_requests"]),
            "cost_noc": flits / max(1, m["mq_requests"]),
            "cost_dram": m["dram_data"] / max(1, m["mq_requests"]),
            "read_latency": m["read_latency"] / max(1, m["reads_done"])}


def _interp(points, n):
    xs = sorted(points)
    if n <= xs[0]:
        return points[xs[0]] * n / xs[0]
    for a, b in zip(xs, xs[1:]):
        if a <= n <= b:
            return points[a] + (points[b] - points[a]) * (n - a) / (b - a)
    return points[xs[-1]]


def latency_test(heddle, w, prof, lat, tmp):
    """Lin's LS test on workload w: its standalone cycles with the L2 and DRAM access latencies
    doubled (lat2x's settings), over prof["cycles"]; beside it, for comparison, the slowdown with
    the two configuration keys doubled (session 15's test, which doubled less)."""
    slow = _run(heddle, w, lat["keys"], os.path.join(tmp, f"{w}_2lat.json"))
    prof["slowdown_2lat"] = slow["totals"]["cycles"] / prof["cycles"]
    prof["lat2x_keys"] = lat["keys"]
    if "slowdown_2keys" not in prof:
        keys = [f"l2.latency={2 * _ini('l2', 'latency')}",
                f"dram.latency={2 * _ini('dram', 'latency')}"]
        slow = _run(heddle, w, keys, os.path.join(tmp, f"{w}_2keys.json"))
        prof["slowdown_2keys"] = slow["totals"]["cycles"] / prof["cycles"]


CURVE_POINTS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32)  # the measured CTA counts (and nmax)
POINTS_RULE = "s26"  # (profiles measured before it: curve_points measures them again)


def input_ctas(launches):
    """The CTAs per SM a workload's input can hold: per launch the occupancy bound or its CTAs
    spread over the SMs (ceil), whichever is fewer; the most over the launches. A launch waits
    for the one before it in its stream, also when the experiment re-executes the workload, so
    no more of its CTAs are ever resident on an SM (bucketsort_rod_ccbp: 24 by shared memory,
    192 CTAs on 16 SMs hold 12)."""
    return max(min(l["ctas_per_sm"], -(-l["ctas"] // NSM)) for l in launches)


def _curve_run(heddle, w, n, tmp, suffix=""):
    return _measure(_run(heddle, w, ["timing.admit=kernel_quota", f"timing.admit_quota={n}"],
                         os.path.join(tmp, f"{w}_{n}{suffix}.json")))


def _set_curves(prof, pts):
    """The curves of prof from its measured points pts ({n: _measure(...)}), linear between
    them (and from 0 below the first), 1..nmax."""
    prof["curve_n"] = sorted(pts)
    for key in CURVES:
        prof[key + "_curve"] = [_interp({n: c[key] for n, c in pts.items()}, n)
                                for n in range(1, prof["nmax"] + 1)]


def profile_workload(heddle, w, lat, tmp):
    full = _run(heddle, w, [], os.path.join(tmp, f"{w}.json"))
    L = full["launches"]
    prof = _measure(full)
    prof["nmax_occupancy"] = max(l["ctas_per_sm"] for l in L)
    prof["nmax"] = input_ctas(L)
    thr = max(l["block"][0] * l["block"][1] * l["block"][2] for l in L)
    prof["demand"] = [thr, max(l["regs_per_thread"] * l["block"][0] * l["block"][1] *
                               l["block"][2] for l in L), max(l["shared_bytes"] for l in L)]
    pts = {}
    for n in sorted({x for x in CURVE_POINTS if x < prof["nmax"]} | {prof["nmax"]}):
        # (at nmax the whole run is the point when the occupancy bound is nmax)
        pts[n] = (prof if n == prof["nmax_occupancy"] else _curve_run(heddle, w, n, tmp))
    _set_curves(prof, pts)
    prof["points_rule"] = POINTS_RULE
    prof["noc_curves"] = "measured"  # (each crossbar's curve from the runs at n CTAs)
    latency_test(heddle, w, prof, lat, tmp)
    prof["type"] = threshold_class(prof)
    return prof


def curve_points(heddle, w, prof, tmp):
    """A profile from before session 26 measured its curves at n = 1, 2, 4 and the occupancy
    bound (the whole run), linear between: bucketsort_rod_ccbp's whole run, whose 192 CTAs hold
    12 per SM, stood at 24, and the curve climbed from 4 to 24 through values no run had
    (49.6 % DRAM at 12 against 86.7 % measured there). Here the whole run is checked against
    the profile (the binary must be the profile's), nmax becomes the CTAs per SM the input holds
    (input_ctas), the points the profile measured below it are kept exactly, the missing ones
    of CURVE_POINTS and nmax itself are run, and the curves are made again. The profile-wide
    measures (the whole run) do not change."""
    full = _run(heddle, w, [], os.path.join(tmp, f"{w}_pts.json"))
    if full["totals"]["cycles"] != prof["cycles"]:
        raise SystemExit(f"ccbp.py: {w}: {full['totals']['cycles']} cycles alone, the profile "
                         f"has {prof['cycles']}: rerun the profiles (CCBP_REPROFILE=1)")
    occ = prof.get("nmax_occupancy", prof["nmax"])
    nmax = input_ctas(full["launches"])
    pts = {}
    for n in prof["curve_n"]:  # (measured points; the occupancy bound's is the whole run)
        if n < nmax or (n == nmax and n == occ):
            pts[n] = {key: prof[key + "_curve"][n - 1] for key in CURVES}
    for n in sorted({x for x in CURVE_POINTS if x < nmax} | {nmax}):
        if n not in pts:
            pts[n] = _curve_run(heddle, w, n, tmp, "_pts")
    prof["curve_n_before"] = prof["curve_n"]
    prof["nmax_occupancy"], prof["nmax"] = occ, nmax
    _set_curves(prof, pts)
    prof["points_rule"] = POINTS_RULE
    return prof


def threshold_class(p):
    """Sessions 11-21's rule: DBI at >= 50 % DRAM bus use, else NBI at >= 50 % on the busier
    crossbar, else LS (workloads/README.md's thresholds for Table 4.2's classes)."""
    return "dbi" if p["dram_util"] >= 50 else "nbi" if p["noc_busier"] >= 50 else "ls"


CLASS_RULE = os.environ.get("CCBP_CLASS", "rank")
RANK_TOP = 4  # §2.15: "the top 4" by NoC and by DRAM bandwidth utilisation


def classify(profs):
    """The classes Algorithm 1 reads (the profile's `type`). CCBP_CLASS=rank (default, §2.15's
    rule, L2828-L2922): NBI the top RANK_TOP of the profiled kernels by standalone NoC use (the
    busier crossbar), DBI the top RANK_TOP by DRAM bus use, LS the rest; a kernel in both top
    lists takes the class where it ranks higher (DRAM on a tie) and the other list takes its
    next kernel. Lin ranks 42 kernels and keeps the top 4 of each; his 13 of Table 4.2 hold
    both top-4 lists, so ranking our 13 stand-ins ranks them as he did. CCBP_CLASS=threshold:
    each kernel by its own use, DBI at >= 50 % DRAM, else NBI at >= 50 % on the busier
    crossbar (workloads/README.md's thresholds; sessions 11-21's default). Why rank (session
    22): with Table 4.1's input-queued crossbar (one FIFO per input, `icnt.voq = false` since
    session 21) no stand-in's busier crossbar passes 48.3 % of peak -- kmeans, spmv and cfd,
    Lin's NBI kernels, sit at 47.2 / 44.6 / 40.9 %, near the FIFO's saturation ([Kar87] 58.6 %
    for uniform traffic, lower for the many-to-one replies of gathers) -- so the 50 % threshold
    found no NBI kernel at all, and no pair was LS+NBI; Table 4.2's NBI kernels sit at 52-54 %
    of peak in GPGPU-Sim. A rank does not depend on where the crossbar saturates; it passes a
    misfit of our stand-ins to a neighbour (on session 22's profile lavamd, Lin's NBI, uses
    0.5 % of the NoC, and bfs_ccbp, 5th by NoC, takes its place), which the report shows beside
    the threshold class. With fewer than 2 x RANK_TOP + 1 kernels there is nothing
    to rank: the threshold rule. Each profile keeps both (type_threshold; type_rank when
    ranked)."""
    ws = list(profs)
    for w in ws:
        profs[w]["type_threshold"] = threshold_class(profs[w])
        profs[w]["type"] = profs[w]["type_threshold"]
    if CLASS_RULE != "rank" or len(ws) < 2 * RANK_TOP + 1:
        return
    by_noc = sorted(ws, key=lambda w: (-profs[w]["noc_busier"], w))
    by_dram = sorted(ws, key=lambda w: (-profs[w]["dram_util"], w))
    nbi, dbi = [], []
    for w in ws:
        rn, rd = by_noc.index(w), by_dram.index(w)
        if rd < RANK_TOP and rd <= rn:
            dbi.append(w)
        elif rn < RANK_TOP:
            nbi.append(w)
    # a kernel that went to the other class leaves a place: the next in rank takes it
    for cls, order in ((dbi, by_dram), (nbi, by_noc)):
        for w in order:
            if len(cls) >= RANK_TOP:
                break
            if w not in dbi and w not in nbi:
                cls.append(w)
    for w in ws:
        profs[w]["type_rank"] = "dbi" if w in dbi else "nbi" if w in nbi else "ls"
        profs[w]["type"] = profs[w]["type_rank"]


CURVES = ("ipc", "nbw", "dbw", "nbw_req", "nbw_rep")


def noc_dirs(heddle, w, prof, tmp):
    """Each crossbar's NoC curve of a profile from before session 20, measured. Sessions 17 and
    19 kept the NoC curve of both crossbars only and scaled it to each crossbar by the whole
    run's split of the flits (noc_curves "scaled"); Algorithm 1 reads one crossbar's curve, so
    each curve point (the runs at n CTAs per SM, curve_n) is run again and measured per crossbar
    (noc_curves "measured"; the scaled curves are kept as nbw_req_scaled / nbw_rep_scaled for
    the comparison in docs/blocks/ccbp.md "Session 20"). A point whose IPC, NoC or DRAM use
    differs from the profile's stops the plan: the binary is not the profile's (rerun
    CCBP_REPROFILE=1)."""
    if "nbw_req" not in prof:  # (the whole run per crossbar: the nmax point and the costs)
        full = _measure(_run(heddle, w, [], os.path.join(tmp, f"{w}_dir.json")))
        if full["cycles"] != prof["cycles"]:
            raise SystemExit(f"ccbp.py: {w}: {full['cycles']} cycles alone, the profile has "
                             f"{prof['cycles']}: rerun the profiles (CCBP_REPROFILE=1)")
        for key in ("nbw_req", "nbw_rep", "cost_req", "cost_rep"):
            prof[key] = full[key]
    pts = {prof["nmax"]: {"nbw_req": prof["nbw_req"], "nbw_rep": prof["nbw_rep"]}}
    for n in prof["curve_n"]:
        if n == prof["nmax"]:
            continue
        m = _measure(_run(heddle, w, ["timing.admit=kernel_quota", f"timing.admit_quota={n}"],
                          os.path.join(tmp, f"{w}_{n}_dir.json")))
        for key in ("ipc", "nbw", "dbw"):  # (a measured point: the curve holds it exactly)
            if abs(m[key] - prof[key + "_curve"][n - 1]) > 1e-9 * max(1.0, abs(m[key])):
                raise SystemExit(f"ccbp.py: {w} at {n} CTAs per SM: {key} {m[key]:.6f}, the "
                                 f"profile has {prof[key + '_curve'][n - 1]:.6f}: rerun the "
                                 "profiles (CCBP_REPROFILE=1)")
        pts[n] = m
    for d in ("req", "rep"):
        if prof.get("noc_curves") == "scaled":
            prof[f"nbw_{d}_scaled"] = prof[f"nbw_{d}_curve"]
        prof[f"nbw_{d}_curve"] = [_interp({n: p[f"nbw_{d}"] for n, p in pts.items()}, n)
                                  for n in range(1, prof["nmax"] + 1)]
    prof["noc_curves"] = "measured"


def noc_measure(p):
    """The NoC measure of workload p's Algorithm 1 profile (NOC; docs/blocks/ccbp.md "Session
    19"): 'rep' or 'req', the crossbar it uses more alone, or 'both'."""
    if NOC == "both":
        return "both"
    return "req" if p["nbw_req"] > p["nbw_rep"] else "rep"


def _fits(profs, combo, bound="nmax"):
    """Does the combination fit the SM's static resources, each kernel within `bound`: "nmax"
    (the CTAs per SM its input holds: Algorithm 1's and Warped-Slicer's curves end there) or
    "nmax_occupancy" (its occupancy bound: the static partitions of SMK's DRF and of the
    oracle's maximal combinations, which a GPU draws without knowing the input; a share above
    the input's CTAs per SM then leaves room unused, as it would on the GPU)."""
    for r, i in (("threads", 0), ("regs", 1), ("smem", 2)):
        if sum(n * p["demand"][i] for p, n in zip(profs, combo)) > CAP[r]:
            return False
    return sum(combo) <= CAP["ctas"] and all(n <= p.get(bound, p["nmax"])
                                             for p, n in zip(profs, combo))


def _dom(p, n):
    return max(n * p["demand"][i] / CAP[r] for r, i in (("threads", 0), ("regs", 1),
                                                          ("smem", 2))) if n else 0.0


def smk_combo(profs):
    combo = [0, 0]
    live = [True, True]
    while any(live):
        k = min((i for i in (0, 1) if live[i]), key=lambda i: (_dom(profs[i], combo[i]), i))
        t = list(combo)
        t[k] += 1
        if _fits(profs, t, "nmax_occupancy"):
            combo = t
        else:
            live[k] = False
    return combo


def ws_combo(profs):
    best = None
    for a in range(1, profs[0]["nmax"] + 1):
        for b in range(1, profs[1]["nmax"] + 1):
            if not _fits(profs, (a, b)):
                continue
            s = sum(p["ipc"] / max(1e-9, p["ipc_curve"][n - 1]) for p, n in zip(profs, (a, b)))
            if best is None or s < best[0]:
                best = (s, [a, b])
    return best[1] if best else [1, 1]


def all_combos(profs, maximal):
    """The combinations that fit (maximal: only those where neither kernel fits one more CTA
    within its occupancy bound, the static partitions; session 26: by the input's CTAs per SM
    instead, a kernel whose input holds fewer than its bound left one maximal combination, LAV
    + SRT's (9, 12), where (2, 22) -- SRT's 12 and LAV held at 2 -- was the best by HS)."""
    out = []
    b0 = "nmax_occupancy" if maximal else "nmax"
    for a in range(1, profs[0].get(b0, profs[0]["nmax"]) + 1):
        for b in range(1, profs[1].get(b0, profs[1]["nmax"]) + 1):
            if _fits(profs, (a, b), b0) and not (maximal and (
                    _fits(profs, (a + 1, b), b0) or _fits(profs, (a, b + 1), b0))):
                out.append([a, b])
    return out


def smk_quotas(profs):
    """SMK's time quotas: warp instructions per SM per SMK_EPOCH cycles, half the standalone rate
    of each kernel (proportional to IPC_alone)."""
    return [max(1, round(p["ipc"] / NSM * SMK_EPOCH / 2)) for p in profs]


def dai_target(profs):
    """The kernel whose memory instructions Dai18's limit throttles: the larger NoC user."""
    return 0 if profs[0]["nbw"] >= profs[1]["nbw"] else 1


def write_profile(path, profs):
    lines = [f"# CCBP profile (experiments/ccbp.py plan; {CONFIG}, {SIZE}, standalone GTO)"]
    for i, p in enumerate(profs, 1):
        d = noc_measure(p)
        nbw, cost = (("nbw_curve", "cost_noc") if d == "both" else
                     (f"nbw_{d}_curve", f"cost_{d}"))
        lines += [f"app {i} type {p['type']}",
                  f"app {i} noc_dir {d}",
                  f"app {i} nbw " + " ".join(f"{v:.3f}" for v in p[nbw]),
                  f"app {i} dbw " + " ".join(f"{v:.3f}" for v in p["dbw_curve"]),
                  f"app {i} cost_noc {p[cost]:.4f}",
                  f"app {i} cost_dram {p['cost_dram']:.4f}",
                  f"app {i} demand {p['demand'][0]} {p['demand'][1]} {p['demand'][2]}"]
        # each crossbar's curve: CanAlloc sums each crossbar's shares on its own (session 26;
        # a profile without them: both crossbars take the nbw curve, one NoC sum as before)
        lines += [f"app {i} nbw_{x} " + " ".join(f"{v:.3f}" for v in p[f"nbw_{x}_curve"])
                  for x in ("req", "rep") if f"nbw_{x}_curve" in p]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def plan(heddle):
    heddle = os.path.abspath(heddle)
    os.makedirs(os.path.join(RES, "profiles"), exist_ok=True)
    wls = []
    for p in PAIRS:
        wls += [w for w in p.split("+") if w not in wls]
    old = os.path.join(RES, "profile.json")
    if os.path.exists(old) and not os.environ.get("CCBP_REPROFILE"):
        # the standalone profiles do not depend on the schemes: reuse them (CCBP_REPROFILE=1
        # runs them again; they need [ccbp] enable = false runs only, whose cycles the carve
        # check keeps unchanged)
        kept = json.load(open(old))
        if kept.get("config") != CONFIG or kept.get("size") != SIZE:
            kept = None
    else:
        kept = None
    profs = {}
    with tempfile.TemporaryDirectory() as tmp:
        lat = lat2x(heddle, tmp)
        print(f"ccbp.py: doubled-latency test: {' '.join(lat['keys'])} (base "
              f"{' '.join(lat['base_keys'])}): chase L2 {lat['chase_base'][0]:.1f} -> "
              f"{lat['chase_2x'][0]:.1f}, DRAM {lat['chase_base'][1]:.1f} -> "
              f"{lat['chase_2x'][1]:.1f} cycles per hop")
        todo = [w for w in wls if kept is None or w not in kept["workloads"]]
        # (a workload new to the pairs is profiled, the others reused; the profiles are
        # independent standalone runs, CCBP_JOBS of them at once, 2 unless set)
        with ProcessPoolExecutor(max_workers=max(1, int(os.environ.get("CCBP_JOBS", "2")))) as ex:
            fresh = {w: ex.submit(profile_workload, heddle, w, lat, tmp) for w in todo}
            for w in todo:
                profs[w] = fresh[w].result()
                print(f"ccbp.py: {w}: profiled (threshold class {profs[w]['type']}, x{profs[w]['slowdown_2lat']:.2f}"
                      " with the latencies doubled)", flush=True)
            for w in wls:
                if w not in todo:
                    profs[w] = kept["workloads"][w]
                    print(f"ccbp.py: {w}: standalone profile reused from {old}")
            again = [w for w in wls if profs[w].get("points_rule") != POINTS_RULE]
            fresh = {w: ex.submit(curve_points, heddle, w, profs[w], tmp) for w in again}
            for w in again:
                before = (profs[w]["nmax"], profs[w]["curve_n"])
                profs[w] = fresh[w].result()
                print(f"ccbp.py: {w}: curve points {before[1]} (nmax {before[0]}) -> "
                      f"{profs[w]['curve_n']} (nmax {profs[w]['nmax']})", flush=True)
        for w in wls:
            if NOC != "both" and profs[w].get("noc_curves") != "measured":
                noc_dirs(heddle, w, profs[w], tmp)
                print(f"ccbp.py: {w}: NoC curves per crossbar measured (request "
                      f"{profs[w]['nbw_req']:.1f} %, reply {profs[w]['nbw_rep']:.1f} % alone)")
            if profs[w].get("lat2x_keys") != lat["keys"]:
                # a profile from before the test doubled the chase latencies: its
                # slowdown_2lat doubled the two keys (kept as slowdown_2keys); rerun the test
                profs[w].setdefault("slowdown_2keys", profs[w]["slowdown_2lat"])
                latency_test(heddle, w, profs[w], lat, tmp)
                print(f"ccbp.py: {w}: latency test rerun (x{profs[w]['slowdown_2lat']:.2f})")
    classify(profs)
    combos = {}
    by_scheme = {s: [] for s in SCHEMES}  # the grid scheme by scheme (GRID_ORDER)
    grid = ["# SPDX-License-Identifier: MIT",
            "# ccbp: Lin ch.4 CCBP on pairs of the Table 4.2 stand-ins. Generated by",
            "# `experiments/ccbp.py plan HEDDLE` (profiling runs, Algorithm 1 profiles, the SMK and",
            "# Warped-Slicer combinations); run: experiments/sweep.py experiments/ccbp.toml -j 2.",
            "", "[sweep]", 'name = "ccbp"',
            f'description = "Lin ch.4 CCBP vs LRR, SMK, Warped-Slicer, Dai18, oracle ({SIZE}, '
            f'budget {BUDGET} cycles, oracle {ORACLE})"', 'analysis = "ccbp.py"', "quiet = true", "timeout = 3600", ""]
    for pair in PAIRS:
        a, b = pair.split("+")
        pp = [profs[a], profs[b]]
        prof_path = os.path.join("experiments", "results", "ccbp", "profiles",
                                 pair.replace("+", "_") + ".txt")
        if len(prof_path) > PATH_MAX:  # ([ccbp] profile holds 63 characters: the workloads
            prof_path = os.path.join(  # without their _ccbp, e.g. backprop_rod_cfd_ccbp.txt)
                os.path.dirname(prof_path),
                "_".join(w[:-5] if w.endswith("_ccbp") else w for w in pair.split("+")) + "_ccbp.txt")
        if len(prof_path) > PATH_MAX:  # (then their base names, e.g. histo1024_fdtd2d_ccbp.txt)
            prof_path = os.path.join(
                os.path.dirname(prof_path),
                "_".join(w.split("_")[0] for w in pair.split("+")) + "_ccbp.txt")
        write_profile(os.path.join(ROOT, prof_path), pp)
        combos[pair] = {"smk": smk_combo(pp), "ws": ws_combo(pp), "smk_quota": smk_quotas(pp),
                        "dai_target": dai_target(pp),
                        "oracle": all_combos(pp, ORACLE != "all")}
        head = ["[[grid]]", f'mix = "{pair}"', f'config = "{CONFIG}"', f'size = "{SIZE}"',
                f'flags = "--repeat all --repeat-until {BUDGET}"']
        for s in SCHEMES:
            if s == "oracle":  # (no types: tells its points from the others')
                for c in combos[pair]["oracle"]:
                    by_scheme["oracle"] += head + ["set.ccbp.enable = true",
                                           f'set.ccbp.ctas = "{c[0]} {c[1]}"',
                                           "set.ccbp.ls_first = false", ""]
                continue
            rows = [f'set.ccbp.enable = {"false" if s == "lrr" else "true"}',
                    f'set.ccbp.types = "{pp[0]["type"]} {pp[1]["type"]}"']
            if s in ("smk_p", "smk", "ws", "dai18", "dmil"):
                c = combos[pair]["smk" if s in ("smk_p", "smk") else "ws"]
                rows += [f'set.ccbp.ctas = "{c[0]} {c[1]}"', "set.ccbp.ls_first = false"]
            if s == "smk":
                q = combos[pair]["smk_quota"]
                rows += [f"set.ccbp.smk_epoch = {SMK_EPOCH}", f'set.ccbp.smk_quota = "{q[0]} {q[1]}"']
            if s == "ccbp":
                rows += [f'set.ccbp.profile = "{prof_path}"']
            if s == "ws_online":  # (its combination is chosen in the run: no ctas)
                rows += ["set.ccbp.ls_first = false", "set.ccbp.ws_online = true"]
            if s == "ws":   # (the default value: tells the point from smk_p's when the
                rows += ["set.ccbp.window = 200"]  # combinations agree)
            if s == "dmil_online":  # Dai18's dynamic limit on Warped-Slicer online (no ctas)
                lim = [0, 0]
                lim[combos[pair]["dai_target"]] = DMIL_CEIL
                by_scheme[s] += head + rows + [
                    "set.ccbp.ls_first = false", "set.ccbp.ws_online = true",
                    f'set.ccbp.mil = "{lim[0]} {lim[1]}"', f"set.ccbp.mil_epoch = {DMIL_EPOCH}", ""]
                continue
            if s == "dmil":  # Dai18's dynamic limit: ceiling DMIL_CEIL, AIMD per epoch
                lim = [0, 0]
                lim[combos[pair]["dai_target"]] = DMIL_CEIL
                by_scheme[s] += head + rows + [f'set.ccbp.mil = "{lim[0]} {lim[1]}"',
                                       f"set.ccbp.mil_epoch = {DMIL_EPOCH}", ""]
                continue
            if s == "dai18":
                t = combos[pair]["dai_target"]
                for m in DAI_MIL:
                    lim = [0, 0]
                    lim[t] = m
                    by_scheme[s] += head + rows + [f'set.ccbp.mil = "{lim[0]} {lim[1]}"', ""]
                continue
            by_scheme[s] += head + rows + [""]
    for s in GRID_ORDER:
        grid += by_scheme[s]
    grid += ["[collect]", 'cycles = "timing.totals.cycles"']
    with open(os.path.join(RES, "profile.json"), "w") as f:
        json.dump({"config": CONFIG, "size": SIZE, "budget": BUDGET, "lat2x": lat,
                   "workloads": profs,
                   "combos": combos, "oracle": ORACLE, "class_rule": CLASS_RULE}, f, indent=1)
    with open(os.path.join(ROOT, "experiments", "ccbp.toml"), "w") as f:
        f.write("\n".join(grid) + "\n")
    for w, p in profs.items():
        print(f"{w:10s} {p['type']:3s} IPC {p['ipc']:.2f} nmax {p['nmax']} NoC {p['nbw']:.1f}% "
              f"(busier dir {p['noc_busier']:.1f}%) DRAM {p['dram_util']:.1f}% 2x-latency "
              f"slowdown {p['slowdown_2lat']:.2f} (threshold rule: {p['type_threshold']})")
    print("combinations:", combos)


def ipc_window(data, budget):
    """Per workload index: warp instructions in (0, budget] / budget (instances prorated)."""
    out = {}
    for inst in data.get("instances", []):
        s, e, n = inst["start_cycle"], inst["end_cycle"], inst["warp_instrs"]
        inside = max(0, min(e, budget) - s + 1) if s <= budget else 0
        frac = inside / max(1, e - s + 1)
        out[inst["workload"]] = out.get(inst["workload"], 0.0) + n * frac
    return {k: v / budget for k, v in out.items()}


LIN_NAME = {"backprop": "BP", "cfd": "CFD", "btree": "BT", "sad": "SAD", "histo1024": "HG",
            "fdtd2d": "FTD", "pathfinder": "PF", "lbm": "LBM", "bfs": "BFS", "spmv": "SPMV",
            "kmeans": "KM", "lavamd": "LAV", "bucketsort": "SRT"}  # (Table 4.2's names)


def lin_pair(pair):
    """A pair by Table 4.2's names (the figure's labels: BP+CFD for backprop_rod_ccbp+cfd_ccbp)."""
    return "+".join(LIN_NAME.get(w.split("_")[0], w) for w in pair.split("+"))


def paper_class(w):
    """Lin Table 4.2's class of a stand-in or of its input variant (NAME_ccbp)."""
    return PAPER_CLASS.get(w.split("_")[0])


def _kind(a, b):
    """LS+BI, BI+BI or LS+LS from two classes (NBI and DBI are both BI)."""
    if a is None or b is None:
        return "?"
    n = sum(1 for c in (a, b) if c in ("nbi", "dbi"))
    return ["LS+LS", "LS+BI", "BI+BI"][n] + f" ({a.upper()}+{b.upper()})"


def metrics(slow):
    prog = [1.0 / s for s in slow]
    return {"ws": sum(prog), "hs": len(slow) / sum(slow), "antt": sum(slow) / len(slow),
            "fairness": min(prog) / max(prog)}


def _r(x, d=3):
    return None if x is None else round(x, d)


def scheme_of(ax):
    """The scheme of a point, from its axes (the grid's keys; plan() writes them so)."""
    if str(ax.get("set.ccbp.enable")).lower() == "false":
        return "lrr"
    if "set.ccbp.ws_online" in ax:
        return "dmil_online" if "set.ccbp.mil_epoch" in ax else "ws_online"
    if "set.ccbp.profile" in ax:
        return "ccbp"
    if "set.ccbp.types" not in ax:
        return "oracle"
    if "set.ccbp.smk_epoch" in ax:
        return "smk"
    if "set.ccbp.mil_epoch" in ax:
        return "dmil"
    if "set.ccbp.mil" in ax:
        return "dai18"
    return "ws" if "set.ccbp.window" in ax else "smk_p"


def _point(d, wl, prof, budget):
    ipc = ipc_window(d, budget)
    verified = all(i["verified"] for i in d.get("instances", [])) and \
        all(any(i["workload"] == k for i in d.get("instances", [])) for k in (0, 1))
    slow = [prof["workloads"][w]["ipc"] / max(1e-9, ipc.get(i, 0.0)) for i, w in enumerate(wl)]
    owner = {k["kernel"]: k["workload"] for k in d.get("kernels", [])}
    names = {l["id"]: l["kernel"] for l in d["timing"]["launches"]}
    lat = [[0, 0], [0, 0]]
    rep = [0, 0]
    for k in d["timing"]["memory"]["per_kernel"]:
        o = owner.get(names.get(k["launch"]))
        if o in (0, 1):
            lat[o][0] += k["read_latency"]
            lat[o][1] += k["reads_done"]
            rep[o] += k["icnt_rep_flits"]
    rlat = [lat[i][0] / lat[i][1] if lat[i][1] else None for i in (0, 1)]
    cyc = d["timing"]["totals"]["cycles"]
    # L2-to-SM crossbar use per kernel over the whole run: reply flits / (L2 ports x NoC cycles)
    noc_rep = [100.0 * f / max(1.0, cyc * ICNT / CORE * SLICES) for f in rep]
    return {"ipc_share": [ipc.get(0), ipc.get(1)], "slowdown": slow, "noc_rep_pct": noc_rep,
            "read_latency_x": [None if rlat[i] is None else
                               rlat[i] / max(1e-9, prof["workloads"][w]["read_latency"])
                               for i, w in enumerate(wl)],
            "instances": [sum(1 for i in d["instances"] if i["workload"] == k) for k in (0, 1)],
            # instances inside the window, one straddling the budget in proportion to its cycles
            "inst_window": [sum(max(0, min(i["end_cycle"], budget) - i["start_cycle"] + 1) /
                                max(1, i["end_cycle"] - i["start_cycle"] + 1)
                                for i in d["instances"] if i["workload"] == k
                                and i["start_cycle"] <= budget) for k in (0, 1)],
            # a kernel with no instruction in the window (unrestricted LRR can leave one
            # waiting for CTA room the whole budget): its slowdown is unbounded (1e9 here)
            "starved": any(ipc.get(i, 0.0) == 0.0 for i in (0, 1)),
            "verified": verified, **metrics(slow)}


def report(ctx):
    from heddle_sweep import figures
    from heddle_sweep.report import md_table
    from heddle_sweep import SweepError
    from heddle_sweep.heddle import parse_stats

    prof = json.load(open(os.path.join(RES, "profile.json")))
    budget = prof["budget"]
    res, every = {}, {}
    cfg = None  # (scheme, configuration) of the point the setup check reads
    missing = []  # points with no result (a run cut short): left out and counted in the report
    incomplete = set()  # (pair, scheme) with a point missing: a best-of scheme is then left out
    for p, key in zip(ctx.sweep.points, ctx.keys):
        row = ctx.store.rows([key]).get(key)
        if row is None:
            missing.append(scheme_of(p.axes))
            incomplete.add((p.axes["mix"], scheme_of(p.axes)))
            continue
        d = parse_stats(row["stats"])
        pair, scheme = p.axes["mix"], scheme_of(p.axes)
        if cfg is None or (scheme == "lrr" and cfg[0] != "lrr"):  # (a co-run's configuration,
            cfg = (scheme, d["timing"]["config"])                 # an LRR point's if any ran)
        r = _point(d, pair.split("+"), prof, budget)
        r["ctas"] = p.axes.get("set.ccbp.ctas", "online" if scheme in ("ws_online", "dmil_online")
                               else "")
        r["mil"] = p.axes.get("set.ccbp.mil", "")
        every.setdefault((pair, scheme), []).append(r)
    for (pair, scheme), rs in list(every.items()):  # dai18's SMIL, the oracle: the best by HS
        if scheme in ("dai18", "oracle") and (pair, scheme) in incomplete:
            continue  # (the best of a search cut short is not the scheme's choice)
        if scheme == "dai18" and (pair, "ws") in every:  # (no limit is one of SMIL's choices:
            rs = rs + [dict(every[(pair, "ws")][0], mil="none")]  # the ws point)
        res[(pair, scheme)] = max(rs, key=lambda r: r["hs"])
    pairs = [pr for pr in PAIRS if any(k[0] == pr for k in res)]
    gains = {}
    for base in ("lrr", "smk_p", "smk", "ws", "ws_online", "dai18", "dmil", "dmil_online",
                 "oracle"):
        # (a pair whose base point starved a kernel has no finite gain: left out, listed)
        g = [100.0 * (res[(pr, "ccbp")]["hs"] / res[(pr, base)]["hs"] - 1) for pr in pairs
             if (pr, "ccbp") in res and (pr, base) in res and not res[(pr, base)]["starved"]]
        gains[base] = {"mean": sum(g) / len(g), "max": max(g), "n": len(g)} if g else None
    allv = all(r["verified"] for rs in every.values() for r in rs)
    ctx.write_json("ccbp.json", {"experiment": "ccbp", "budget": budget, "pairs": pairs,
                                 "runs": {f"{m}/{s}": v for (m, s), v in res.items()},
                                 "points": {f"{m}/{s}": v for (m, s), v in every.items()},
                                 "hs_gain_percent": gains, "all_verified": allv,
                                 "profile": prof})
    ctx.write_csv("points.csv")

    def gm(b):
        return None if gains.get(b) is None else gains[b]["mean"]
    schemes = [s for s in SCHEMES if any(k[1] == s for k in res)]
    short = [lin_pair(m) for m in pairs]  # (the report's tables name the stand-ins)
    figures.bar_panels(ctx.path("ccbp.png"), [
        {"title": "Harmonic speedup", "ylabel": "HS", "categories": short,
         "series": {s: [res.get((m, s), {}).get("hs") for m in pairs] for s in schemes},
         "rotate": 30, "labels": False, "legend": "outside"},
        {"title": "Weighted speedup", "ylabel": "WS", "categories": short,
         "series": {s: [res.get((m, s), {}).get("ws") for m in pairs] for s in schemes},
         "rotate": 30, "labels": False, "legend": "outside"},
        {"title": "CCBP's HS gain, mean over pairs", "ylabel": "%",
         "categories": ["vs SMK", "vs WS", "vs WS online", "vs Dai18", "vs Dai18 DMIL",
                        "vs DMIL on WS online", "vs oracle"],
         "series": {"Heddle": [gm("smk"), gm("ws"), gm("ws_online"), gm("dai18"), gm("dmil"),
                               gm("dmil_online"), gm("oracle")]},
         "paper": {"Lin": [PAPER["smk"], None, PAPER["ws"], None, None, PAPER["dai18"],
                           PAPER["oracle_avg"]]}, "rotate": 30}],
        ncols=2, width=15, suptitle=f"Lin ch.4 CCBP, {SIZE}, budget {budget} cycles, {CONFIG}")
    rows = []
    for m in pairs:
        for s in schemes:
            r = res.get((m, s))
            if r:
                rows.append([m, s, r["ctas"] + (f" mil {r['mil']}" if r["mil"] else ""),
                             _r(r["ipc_share"][0], 2), _r(r["ipc_share"][1], 2),
                             _r(r["slowdown"][0], 2), _r(r["slowdown"][1], 2), _r(r["ws"]),
                             _r(r["hs"]), _r(r["antt"]), _r(r["fairness"]),
                             f"{_r(r['read_latency_x'][0], 2)} / {_r(r['read_latency_x'][1], 2)}",
                             f"{r['instances'][0]}+{r['instances'][1]} "
                             f"({_r(r['inst_window'][0], 1)}+{_r(r['inst_window'][1], 1)})",
                             "yes" if r["verified"] else "NO"])
    orows = []
    for m in pairs:
        for s in ("oracle", "dai18"):
            for r in sorted(every.get((m, s), []), key=lambda r: -r["hs"]):
                orows.append([m, s, r["ctas"] + (f" mil {r['mil']}" if r["mil"] else ""),
                              _r(r["hs"]), _r(r["ws"]), _r(r["slowdown"][0], 2),
                              _r(r["slowdown"][1], 2), "yes" if r["verified"] else "NO"])
    mot = []  # §2.14's BP+CFD example: the combinations of the oracle search
    bpcfd = next((m for m in pairs if m.startswith("backprop+cfd")), "backprop+cfd")
    for r in sorted(every.get((bpcfd, "oracle"), []), key=lambda r: r["ctas"]):
        mot.append([r["ctas"], _r(r["hs"]), _r(r["ws"]), _r(r["noc_rep_pct"][1], 1),
                    _r(r["read_latency_x"][0], 2), _r(r["read_latency_x"][1], 2)])
    kinds = []  # each pair's kind by Table 4.2's classes and by ours
    for m in pairs:
        a, b = m.split("+")
        kinds.append([m, _kind(paper_class(a), paper_class(b)),
                      _kind(prof["workloads"][a]["type"], prof["workloads"][b]["type"])])
    cls = [[w, p["type"], p.get("type_threshold", p["type"]),
            (paper_class(w) or "").upper(), _r(p["ipc"], 2), p["nmax"],
            _r(p["nbw"], 1), _r(p["noc_busier"], 1), _r(p["dram_util"], 1),
            _r(p["slowdown_2lat"], 2), "yes" if p["slowdown_2lat"] > LS_SLOWDOWN else "no",
            _r(p.get("slowdown_2keys"), 2)]
           for w, p in prof["workloads"].items()]
    # how ours differs, from the numbers above
    lat = max((x for (m, s), r in res.items() if s == "lrr" for x in r["read_latency_x"]
               if x is not None), default=None)
    inst = [n for (m, s), r in res.items() for n in r["inst_window"]]
    # §2.14's motivation per pair: each kernel's mean memory read latency co-running / alone,
    # under unrestricted LRR and the largest over every point of the pair
    motiv = []
    for m in pairs:
        lr = res.get((m, "lrr"))
        allx = [x for (pm, s), rs in every.items() if pm == m for r in rs
                for x in r["read_latency_x"] if x is not None]
        if lr:
            motiv.append([m, _r(lr["read_latency_x"][0], 2), _r(lr["read_latency_x"][1], 2),
                          _r(max(allx), 2) if allx else None,
                          f"{_r(lr['inst_window'][0], 1)} + {_r(lr['inst_window'][1], 1)}"])
    alone = [p["cycles"] for p in prof["workloads"].values()]
    other = [f"{w} ({p['type'].upper()} here, {paper_class(w).upper()} in Table 4.2)"
             for w, p in prof["workloads"].items() if paper_class(w) and
             paper_class(w) != p["type"]]
    nls = sum(1 for p in prof["workloads"].values() if p["slowdown_2lat"] > LS_SLOWDOWN)
    lose = [m for m in pairs if (m, "ccbp") in res and (m, "lrr") in res and
            res[(m, "ccbp")]["hs"] < res[(m, "lrr")]["hs"]]
    fair = [(m, res[(m, "smk_p")]["fairness"], res[(m, "smk")]["fairness"]) for m in pairs
            if (m, "smk") in res and (m, "smk_p") in res]
    dai = [(m, res[(m, "dai18")]["mil"]) for m in pairs if (m, "dai18") in res]
    orc = [(m, res[(m, "oracle")]["ctas"]) for m in pairs if (m, "oracle") in res]
    diff = [
        f"- **Budget.** {budget:,} cycles against the thesis's 100 M. One standalone instance "
        f"of our stand-ins takes {min(alone):,} to {max(alone):,} cycles at {SIZE} size, so "
        f"each kernel runs {_r(min(inst), 1)} to {_r(max(inst), 1)} instances in the window "
        "(column 'instances': those started, in brackets those inside the window, one that "
        "straddles the budget counted in proportion to its cycles). At small size many "
        "instances fit, but the launches have too few CTAs for a combination to bind.",
        "- **Classes.** " + (", ".join(other) if other else "none") + " fall in another class "
        f"than Table 4.2. {nls} of our stand-ins slow down by more than {LS_SLOWDOWN}x with the L2 "
        "and DRAM access latencies doubled (" + (", ".join(
            f"{w} {p['slowdown_2lat']:.2f}x" for w, p in prof["workloads"].items()
            if p["slowdown_2lat"] > LS_SLOWDOWN) or "none") + "), where the thesis's five LS "
        "kernels all do: the others of our LS kernels are LS by low bandwidth, hardly by "
        "latency. So most pairs are not the LS+BI mixes the thesis measures its gains on; the "
        "pair list is lost (docs/blocks/ccbp.md).",
        "- **Inputs.** " + ", ".join(f"{w} ({p['type'].upper()}, {p['cycles']:,} cycles alone)"
                                     for w, p in prof["workloads"].items() if w.endswith("_ccbp"))
        + " run the experiment's input variants (docs/blocks/ccbp.md \"The experiment's "
        "inputs\"): fewer steps on data over the 2 MB L2, a smaller graph, L2-resident kmeans "
        "features; sad, bucketsort and lavamd keep their inputs (larger ones do not change "
        "their class, measured there).",
        f"- **No over-subscription to fix.** Co-running raises our memory read latency by at "
        f"most {_r(lat, 2)}x under LRR (the thesis: up to 8.2x). Our standalone runs fill all "
        f"{NSM} SMs with one kernel, and the BI kernels' standalone mean load latency (L1 hits "
        "included) is "
        "already " + ", ".join(f"{w} {p['read_latency']:.0f}" for w, p in
                               prof["workloads"].items() if p["type"] in ("nbi", "dbi")) +
        " cycles (the unloaded L2 and DRAM latencies: 201 and 379), so a co-run on part of the "
        "SMs adds little queueing; the LS kernels' standalone latency is " + ", ".join(
            f"{w} {p['read_latency']:.0f}" for w, p in prof["workloads"].items()
            if p["type"] == "ls") + ". CCBP's quotas then mostly "
        "take bandwidth the other kernel did not need: CCBP's HS is below unrestricted LRR in "
        f"{len(lose)} of {len(pairs)} pairs ({', '.join(lose) or 'none'}). Algorithm 1's "
        "combination and quotas come from standalone per-request costs with the DRAM capped at "
        "70 % of peak (docs/blocks/ccbp.md, \"Algorithm 1 on the experiment's profiles\").",
        "- **SMK's time quotas** move the fairness (SMK-P -> SMK): " + (", ".join(
            f"{m} {_r(a, 2)} -> {_r(b, 2)}" for m, a, b in fair) or "not measured (no SMK-P "
            "point ran)") + ". They are set once from "
        "the standalone IPC (half each), as the thesis describes SMK: its time quota "
        "partitioning is based on profiling each kernel's standalone execution (L2611-L2614).",
        "- **Dai18's best static limit** (on the larger NoC user; 'none': no limit did best, "
        "Dai18 is then Warped-Slicer): " + ", ".join(f"{m} mil {l}" for m, l in dai) +
        " (every limit tried: last table). Its dynamic variant is the column 'dmil' (ceiling "
        f"{DMIL_CEIL} loads in flight per SM, halved when an epoch's mean load latency passes "
        f"twice its lowest, raised by 1 otherwise, {DMIL_EPOCH}-cycle epochs; our rule, the "
        "digest names only 'memory-instruction scheduling'), and 'dmil_online' is that limit "
        "on Warped-Slicer's online form (the thesis's [Dai18] is WS plus memory-instruction "
        "scheduling: its +19 % stands beside this column). Dai18's balanced issue at the L1D "
        "is not modelled.",
        "- **Oracle.** The best combination by HS: " + ", ".join(f"{m} ({c})" for m, c in orc) +
        f", searched over the {prof.get('oracle', 'max')} combinations (ccbp.py's header). "
        "CCBP beats the oracle only where its bandwidth control pays, which needs the "
        "over-subscription our runs lack."]
    starved = [f"{m} {s}" for (m, s), r in sorted(res.items()) if r["starved"]]
    if starved:
        diff.append("- **Starved kernels.** At these points one kernel ran no instruction in "
                    "the budget (its CTAs waited for room on the SMs the other kernel filled; "
                    "its slowdown is unbounded, HS about 0): " + ", ".join(starved) + ". A "
                    "gain over such a point is left out of the means above.")

    def g(b, k="mean"):
        if gains.get(b) is None:
            return "not run"
        n = gains[b]["n"]  # (fewer pairs: a run cut short, or a starved base point)
        return _r(gains[b][k], 1) if n == len(pairs) else f"{_r(gains[b][k], 1)} ({n} of {len(pairs)} pairs)"
    md = ["# ccbp: Lin thesis ch.4 CCBP on pairs of the Table 4.2 stand-ins", "",
          "Generated by `experiments/sweep.py experiments/ccbp.toml` from its results store "
          "(the grid and the profiles from `experiments/ccbp.py plan HEDDLE`); do not edit. "
          "Method: `experiments/ccbp.py`; mechanism and baselines: docs/blocks/ccbp.md.", "",
          f"Setup: `configs/{CONFIG}.ini` (Table 4.1), size {SIZE}, every kernel re-executed "
          f"until {budget} cycles (the thesis: 100 M), per-kernel IPC over (0, {budget}]; "
          "IPC_alone from the standalone GTO run. Every instance of every workload verified "
          "against its CPU reference at every point, oracle and Dai18 limits included: "
          f"{'yes' if allv else 'NO'}. Oracle search: {prof.get('oracle', 'max')} "
          "combinations (ccbp.py's header). Points without a result (a run cut short; left "
          f"out of every table): {len(missing)}" + (
              " (" + ", ".join(f"{sc} {missing.count(sc)}" for sc in GRID_ORDER
                               if sc in missing) + "; `experiments/sweep.py` reruns only them)"
              if missing else "") + ".", "",
          "![ccbp](ccbp.png)", "",
          "## Ours beside the thesis", "",
          md_table(["CCBP harmonic-speedup gain over pairs", "Heddle mean", "Heddle max",
                    "Lin"], [
              ["vs SMK (DRF + time quotas) (%)", g("smk"), g("smk", "max"), PAPER["smk"]],
              ["vs SMK's DRF alone (%)", g("smk_p"), g("smk_p", "max"), ""],
              ["vs Warped-Slicer, curves from the standalone profiles (%)", g("ws"),
               g("ws", "max"), ""],
              ["vs Warped-Slicer online (sampling phase, water-filling) (%)", g("ws_online"),
               g("ws_online", "max"), PAPER["ws"]],
              ["vs Dai18 (WS + memory-instruction limit, the best static limit) (%)",
               g("dai18"), g("dai18", "max"), ""],
              ["vs Dai18 dynamic limit (DMIL) on the offline WS (%)", g("dmil"), g("dmil", "max"),
               ""],
              ["vs Dai18 DMIL on WS online (%)", g("dmil_online"), g("dmil_online", "max"),
               PAPER["dai18"]],
              ["vs oracle CTA combination (%)", g("oracle"), g("oracle", "max"),
               f"{PAPER['oracle_avg']} mean, {PAPER['oracle_max']} max"],
              ["vs unrestricted LRR (%)", g("lrr"), g("lrr", "max"), ""],
              ["memory read latency co-running / alone, largest (lrr)", _r(lat, 2), "",
               "up to 8.2x (L2644)"]]),
          "", "How ours differs and why (the setup checked against Table 4.1: "
          f"`configs/{CONFIG}.ini`, the L2 and DRAM latencies 201 and 379 cycles by the pointer "
          "chase; the thesis's mean is taken as the mean of the per-pair gains, its 'up to' as "
          "their maximum):", ""] + diff + [
          "", "## Setup check (a co-run's configuration beside Table 4.1)", "",
          f"Read from the statistics of the {cfg[0] if cfg else '?'} point of "
          "the first pair (timing.config); the L2 and DRAM latencies are the pointer chase's "
          "load-to-use cycles per hop (profile.json lat2x), as [MC16] measures them.", ""] + (
          [md_table(["Table 4.1", "ours", "Table 4.1's value", "same"],
                    setup_check(cfg[1], prof))] if cfg else ["(no point ran)"]) + [
          "", "## Classes from the profiling runs (Lin §2.15)", "",
          "The LS test (L2863-L2898): the standalone run with the L2 and DRAM access latencies "
          "doubled, as the pointer chase measures them (" + (
              ", ".join(prof["lat2x"]["keys"]) + f": L2 {prof['lat2x']['chase_base'][0]:.0f} -> "
              f"{prof['lat2x']['chase_2x'][0]:.0f}, DRAM {prof['lat2x']['chase_base'][1]:.0f} -> "
              f"{prof['lat2x']['chase_2x'][1]:.0f} cycles per hop" if "lat2x" in prof else "?")
          + f"); Lin's five LS kernels all slow down by more than {LS_SLOWDOWN}x. The last "
          "column doubles the two configuration keys instead (session 15's test: L2 x1.87, "
          "DRAM x1.76).", "",
          "Classes by " + ("§2.15's rule (the top 4 by the busier crossbar's use are NBI, the top "
                           "4 by DRAM bus use DBI, the rest LS; CCBP_CLASS=rank)"
                           if prof.get("class_rule", "threshold") == "rank" else
                           "the 50 % thresholds (CCBP_CLASS=threshold)") +
          "; the threshold rule's class beside it (DBI at >= 50 % DRAM, NBI at >= 50 % NoC).", "",
          md_table(["workload", "class", "by 50 % thresholds", "Lin T4.2", "IPC alone", "CTAs/SM",
                    "NoC % (both dirs)",
                    "NoC % (busier dir)", "DRAM %", "slowdown, L2+DRAM latency x2",
                    f"> {LS_SLOWDOWN}x", "slowdown, keys x2"], cls),
          "", "## The pairs (the thesis's list is lost; docs/blocks/ccbp.md)", "",
          md_table(["pair", "kind by Lin Table 4.2's classes", "kind by ours"], kinds),
          "", "## Per pair and scheme (dai18 and oracle: the best point by HS)", "",
          md_table(["pair", "scheme", "CTAs", "IPC 1", "IPC 2", "slowdown 1",
                    "slowdown 2", "WS", "HS", "ANTT", "fairness",
                    "read latency vs alone (1 / 2)", "instances", "verified"], rows),
          "", "## §2.14's motivation: memory read latency co-running / alone, per pair", "",
          "The thesis: co-running raises the memory latency up to 8.2x its standalone value "
          "(L2644). Ours: each kernel's mean global-load latency (issue at the L1D to data back, "
          "L1 hits included) over the run against its standalone GTO run's.", "",
          md_table(["pair", "kernel 1, LRR", "kernel 2, LRR", "largest, any scheme",
                    "instances in the window, LRR"], motiv),
          "", "## §2.14's motivation: BP+CFD over the oracle's combinations", "",
          "The thesis: the best combination is (7,4), with WS 1.3, CFD using 62 % of the NoC "
          "bandwidth on average; at (7,2) WS 1.2 and 44 % (L3013-L3051). Ours: every "
          "combination the oracle search ran (the CFD NoC use is the L2-to-SM crossbar's reply "
          "flits of cfd over the whole run, against 16 L2 ports x one flit per NoC cycle).", "",
          md_table(["CTAs (backprop, cfd)", "HS", "WS", "cfd L2-to-SM NoC %",
                    "backprop read latency vs alone", "cfd read latency vs alone"], mot),
          "", "## Every oracle and Dai18 point", "",
          md_table(["pair", "scheme", "CTAs", "HS", "WS", "slowdown 1", "slowdown 2",
                    "verified"], orows)]
    ctx.write_text("report.md", "\n".join(md) + "\n")


def lat2x_check(heddle):
    """`ccbp.py lat2x HEDDLE`: the doubled-latency test's settings, checked by the pointer
    chase (tests/ccbp.cmake ccbp_lat2x); lat2x exits if the chase is not within LAT2X_TOL of x2."""
    with tempfile.TemporaryDirectory() as tmp:
        lat = lat2x(os.path.abspath(heddle), tmp)
    print(f"ccbp lat2x ok: {' '.join(lat['keys'])}: chase L2 {lat['chase_base'][0]:.1f} -> "
          f"{lat['chase_2x'][0]:.1f} (x{lat['ratio'][0]:.3f}), DRAM {lat['chase_base'][1]:.1f} -> "
          f"{lat['chase_2x'][1]:.1f} (x{lat['ratio'][1]:.3f}) cycles per hop")


def measure(heddle, w):
    """`ccbp.py measure HEDDLE W`: one workload's standalone measures as the plan's profiling run
    makes them (medium, CONFIG, GTO; session 25), without the curves or the sweep file: Table
    4.2's columns (Thro. = IPC / peak IPC, the busier crossbar, the DRAM bus, the L2 read miss
    rate), the LS test's slowdown (the chase-checked doubled latencies) and the class, by the
    threshold rule and by rank among the committed profiles (results/ccbp/profile.json) with W
    in the place of the stand-in of its Table 4.2 row (the same paper_class base name)."""
    heddle = os.path.abspath(heddle)
    with tempfile.TemporaryDirectory() as tmp:
        lat = lat2x(heddle, tmp)
        t = _run(heddle, w, [], os.path.join(tmp, f"{w}.json"))
        prof = _measure(t)
        latency_test(heddle, w, prof, lat, tmp)
    m = t["memory"]["total"]
    peak = NSM * t["config"]["sm"]["num_schedulers"] if "config" in t else NSM * 4
    l2_miss = 100.0 * (1 - m["l2_read_hits"] / max(1, m["l2_reads"]))
    kept = json.load(open(os.path.join(RES, "profile.json")))["workloads"]
    base = w.split("_")[0]
    profs = {k: v for k, v in kept.items() if k.split("_")[0] != base}
    profs[w] = prof
    classify(profs)
    print(f"ccbp measure {w}: {prof['cycles']} cycles, IPC {prof['ipc']:.2f} (Thro "
          f"{100 * prof['ipc'] / peak:.1f} % of {peak}), NoC busier {prof['noc_busier']:.1f} % "
          f"(request {prof['nbw_req']:.1f}, reply {prof['nbw_rep']:.1f}), DRAM "
          f"{prof['dram_util']:.1f} %, L2 read miss {l2_miss:.2f} %, x{prof['slowdown_2lat']:.3f} "
          f"with the latencies doubled; class {profs[w]['type_threshold']} (threshold), "
          f"{profs[w].get('type_rank', '-')} (rank); Table 4.2: {paper_class(w)}")
    print("ccbp measure: the classes by rank with it: " + ", ".join(
        f"{k} {v.get('type_rank', v['type'])}" for k, v in sorted(profs.items())))


if __name__ == "__main__":
    stage.main("experiments/ccbp.py", [("plan", plan, "HEDDLE", "profiling runs, profiles, "
                                        "the sweep file"),
                                       ("measure", measure, "HEDDLE WORKLOAD", "one workload's "
                                        "standalone measures and class, as the plan's"),
                                       ("lat2x", lat2x_check, "HEDDLE", "the LS test's "
                                        "doubled-latency settings, checked by the chase")])
