#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen-zorua-sweep.py - write experiments/zorua.toml, Zorua's whole-grid experiment (Vijaykumar et
al., ISCA 2016, Sec. 5-6; issue 32 item 6), and experiments/zorua-paper.toml, its paper-size
variant for BH, MST and SSSP (session 21: `--size waves3`, >= 3 Baseline CTA waves at every
specification on Kepler and Maxwell), from the specification grid workloads/zorua-grid.toml and
the three Table 2 configurations configs/zorua-{fermi,kepler,maxwell}.ini.

Per generation the sweep holds every grid point whose CTA fits the SM once (the occupancy rule of
model/timing/occupancy.c: warps = ceil(T / warp size) <= max_threads / warp size; warps x
round_up(R x warp size, reg_alloc_unit) <= registers; scratchpad <= shared_mem_bytes), under
Baseline (allocator = partitioned), WLM and Zorua (64 logical warps on a 48-warp SM, 96 on a
64-warp SM; 16 logical CTAs). A point that does not fit cannot launch on that generation (heddle
refuses it: "cannot run on this GPU"), under any of the three schemes, so it is left out and
listed in the file's header; zorua.py compares generations on the points both run.

Usage: scripts/gen-zorua-sweep.py [--check] [--root DIR]
  --check  write nothing; exit 1 when experiments/zorua.toml or zorua-paper.toml differs from
           what this gives
Output is deterministic.
"""
import argparse
import configparser
import importlib.util
import os
import sys

GENS = ["fermi", "kepler", "maxwell"]
# The order of the runs (CPU per run at --size waves, workloads/README.md: NQU, RD and SLA well
# under a second, BH and MST 2-3.5 s): Fermi's cheap applications, the three cheapest on Kepler
# and Maxwell, Fermi's BH and MST, then the rest; applications not listed come last.
RUN_ORDER = ([("fermi", a) for a in ("NQU", "RD", "SLA", "DCT", "SP", "SSSP")] +
             [(g, a) for a in ("NQU", "RD", "SLA") for g in ("kepler", "maxwell")] +
             [("fermi", "BH"), ("fermi", "MST")] +
             [(g, a) for a in ("DCT", "SP", "SSSP", "BH", "MST") for g in ("kepler", "maxwell")])


# The paper-size variant (experiments/zorua-paper.toml): BH, MST and SSSP at --size waves3, the
# cheapest first (SSSP, then BH, then MST: CPU per run measured in session 21, PAPER_COST).
PAPER_APPS = ("SSSP", "BH", "MST")
PAPER_ORDER = [(g, a) for a in PAPER_APPS for g in GENS]
# CPU per run (CPU-seconds, Baseline / WLM / Zorua on Kepler, a middle specification) and the
# whole variant's estimate: measured in session 21 (docs/zorua.md, "Session 21: paper-size
# inputs for BH, MST, SSSP"); stated in the file's header.
PAPER_COST = [
    "# CPU per run (session 21, Kepler, r32/r24 x 512, CPU-s, Baseline / WLM / Zorua): SSSP 15.4 /",
    "# 24.2 / 42.4, MST 26.4 / 38.0 / 58.5, BH 12.7 / 15.3 / 26.6 (measured on a loaded machine).",
    "# Whole variant: about 11 CPU-hours (SSSP 2.8, BH 1.7, MST 6.3), ~5.5 h at -j 2 on 2 idle cores.",
]


def fail(msg):
    print(f"gen-zorua-sweep.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load_grid_module(root):
    path = os.path.join(root, "scripts", "gen-zorua-grid.py")
    spec = importlib.util.spec_from_file_location("gen_zorua_grid", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def size_value(text, where):
    t = text.strip()
    mult = 1
    if t[-1:] in "Kk":
        mult, t = 1024, t[:-1]
    elif t[-1:] in "Mm":
        mult, t = 1024 * 1024, t[:-1]
    try:
        return int(t) * mult
    except ValueError:
        fail(f"{where}: '{text}' is not a size")


def sm_of(root, gen):
    path = os.path.join(root, "configs", f"zorua-{gen}.ini")
    cp = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
    try:
        with open(path, encoding="utf-8") as f:
            cp.read_file(f)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    sm = {}
    for key in ("max_threads", "registers", "shared_mem_bytes", "reg_alloc_unit"):
        if not cp.has_option("sm", key):
            fail(f"{path}: [sm] {key} missing")
        sm[key] = size_value(cp.get("sm", key), f"{path}: [sm] {key}")
    ws = size_value(cp.get("gpu", "warp_size"), f"{path}: [gpu] warp_size") \
        if cp.has_option("gpu", "warp_size") else 32
    sm["warp_size"] = ws
    sm["max_warps"] = sm["max_threads"] // ws
    return sm


def fits(p, sm):
    """Why the point's CTA cannot be placed on an empty SM, or None when it can."""
    ws = sm["warp_size"]
    warps = (p["threads"] + ws - 1) // ws
    if warps > sm["max_warps"]:
        return f"{warps} warps > {sm['max_warps']} slots"
    if p["regs"] is not None:
        unit = sm["reg_alloc_unit"]
        per_warp = (p["regs"] * ws + unit - 1) // unit * unit
        if warps * per_warp > sm["registers"]:
            return f"{warps * per_warp} registers > {sm['registers']}"
    if p["smem"] is not None and p["smem"] > sm["shared_mem_bytes"]:
        return f"{p['smem']} B scratchpad > {sm['shared_mem_bytes']}"
    return None


def quoted_list(names, first):
    lines, cur, cont = [], first, " " * len(first)
    for i, n in enumerate(names):
        item = f'"{n}"' + ("," if i + 1 < len(names) else "]")
        if len(cur) + len(item) + 1 > 100 and cur.strip() not in ("", first.strip()):
            lines.append(cur.rstrip())
            cur = cont
        cur += item + " "
    lines.append(cur.rstrip())
    return "\n".join(lines)


def sweep_text(root, paper=False):
    """The text of experiments/zorua.toml, or of experiments/zorua-paper.toml when `paper`."""
    mod = load_grid_module(root)
    import tomllib
    desc_path = os.path.join(root, "workloads", "zorua-grid.toml")
    with open(desc_path, "rb") as f:
        desc = tomllib.load(f)
    apps_all = desc.get("app", [])
    if paper:
        missing = [a for a in PAPER_APPS if a not in {x["abbr"] for x in apps_all}]
        if missing:
            fail(f"{desc_path}: no application {', '.join(missing)} (the paper-size variant's)")
        apps_all = [a for a in apps_all if a["abbr"] in PAPER_APPS]
    pts = []
    for app in apps_all:
        pts += mod.points_of(app)
    sms = {g: sm_of(root, g) for g in GENS}
    fit = {g: [p for p in pts if fits(p, sms[g]) is None] for g in GENS}
    out = {g: [(p["name"], fits(p, sms[g])) for p in pts if fits(p, sms[g])] for g in GENS}
    runs = 3 * sum(len(fit[g]) for g in GENS)
    if paper:
        head = [
            "# SPDX-License-Identifier: MIT",
            "# zorua-paper: the paper-size variant of experiments/zorua.toml (session 21; issue 32): BH,",
            "# MST and SSSP only, at --size waves3 (>= 3 Baseline CTA waves at every specification on",
            "# Kepler and Maxwell: BH 96,000 bodies, MST a 304 x 304 grid graph, SSSP a random graph of",
            "# 100,000 vertices; workloads/README.md). GENERATED by scripts/gen-zorua-sweep.py from",
            "# workloads/zorua-grid.toml and configs/zorua-*.ini; do not edit (rerun the script).",
            f"# {len(pts)} points of 3 applications x the three Table 2 generations x Baseline, WLM and",
            "# Zorua, as zorua.toml. Full tier (not part of the 60-minute grid). zorua.py writes this",
            "# sweep's own report; `python3 experiments/zorua.py --merge experiments/results/zorua",
            "# experiments/results/zorua-paper --out DIR` reports the whole study with these three",
            "# applications' points taken from this sweep (docs/zorua.md).",
            f"# Runs: {runs} ({', '.join(f'{g} {len(fit[g])}' for g in GENS)} points per scheme).",
        ] + PAPER_COST + [
            "# Left out (one CTA does not fit the SM, so no scheme can launch it there):",
        ]
    else:
        head = [
            "# SPDX-License-Identifier: MIT",
            "# zorua: Zorua's evaluation (Vijaykumar et al., ISCA 2016, Sec. 6; issue 32 item 6) over the",
            "# whole specification grid: GENERATED by scripts/gen-zorua-sweep.py from",
            "# workloads/zorua-grid.toml and configs/zorua-*.ini; do not edit (rerun the script).",
            f"# {len(pts)} points of 8 applications x the three Table 2 generations x Baseline",
            "# (TB-granular, allocator = partitioned), WLM and Zorua (64 logical warps on Fermi, 96 on the",
            "# 64-warp SMs, 16 logical CTAs); --size waves (each application's input of several CTA",
            "# waves, the same for every specification and generation; workloads/README.md). zorua.py:",
            "# Fig 14-16 and 19-21 and the report beside the paper. experiments/zorua-sample.toml is the",
            "# quick 19-point sample (small inputs).",
            f"# Runs: {runs} ({', '.join(f'{g} {len(fit[g])}' for g in GENS)} points per scheme).",
            "# Left out (one CTA does not fit the SM, so no scheme can launch it there):",
        ]
    for g in GENS:
        if out[g]:
            head.append(f"#   {g}: {len(out[g])}: " + ", ".join(n for n, _ in out[g][:3]) +
                        (" ..." if len(out[g]) > 3 else "") + f" ({out[g][0][1]}, ...)")
        else:
            head.append(f"#   {g}: none")
    if paper:
        body = ["", "[sweep]", 'name = "zorua-paper"',
                'description = "Zorua vs WLM vs Baseline: BH, MST and SSSP at paper size '
                '(waves3), three generations"',
                'analysis = "zorua.py"', "quiet = true", "timeout = 1800", "",
                "[defaults]", 'size = "waves3"', ""]
    else:
        body = ["", "[sweep]", 'name = "zorua"',
                'description = "Zorua vs WLM vs Baseline over the whole specification grid, three '
                'generations"',
                'analysis = "zorua.py"', "quiet = true", "timeout = 900", "",
                "[defaults]", 'size = "waves"', ""]
    # Per (generation, application) its Baseline then its WLM and Zorua points, cheapest first
    # (RUN_ORDER), so a sweep stopped early (sweep.py --report-only) holds whole applications:
    # every application on Fermi, then the three cheapest on Kepler and Maxwell too.
    apps = {a["abbr"]: a for a in apps_all}
    order = [(g, a) for g, a in (PAPER_ORDER if paper else RUN_ORDER) if a in apps]
    order += [(g, a) for g in GENS for a in apps if (g, a) not in order]
    for g, ab in order:
        app = apps[ab]
        lw = 64 if sms[g]["max_warps"] <= 48 else 96
        names = [p["name"] for p in fit[g] if p["name"].startswith(app["base"] + "_z_")]
        if not names:
            continue
        body += [f"# {g}, {app['abbr']}: Baseline", "[[grid]]",
                 quoted_list(names, "workload = ["),
                 f'config = "zorua-{g}"', 'set.sm.allocator = "partitioned"', "",
                 f"# {g}, {app['abbr']}: WLM and Zorua", "[[grid]]",
                 quoted_list(names, "workload = ["),
                 f'config = "zorua-{g}"', 'set.sm.allocator = ["wlm", "zorua"]',
                 f"set.sm.logical_warps = {lw}", "set.sm.logical_ctas = 16", ""]
    body += ["[collect]", 'cycles = "timing.totals.cycles"', 'energy_j = "power.energy_j"', ""]
    return "\n".join(head + body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = ap.parse_args()
    root = os.path.normpath(a.root)
    stale = 0
    for name, paper in (("zorua.toml", False), ("zorua-paper.toml", True)):
        text = sweep_text(root, paper)
        path = os.path.join(root, "experiments", name)
        cur = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if a.check:
            if cur != text:
                print(f"out of date: experiments/{name} (run scripts/gen-zorua-sweep.py)")
                stale = 1
            else:
                print(f"gen-zorua-sweep.py: experiments/{name} is up to date")
            continue
        if cur != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        print(f"gen-zorua-sweep.py: wrote experiments/{name}" if cur != text else
              f"gen-zorua-sweep.py: experiments/{name} unchanged")
    return stale


if __name__ == "__main__":
    sys.exit(main())
