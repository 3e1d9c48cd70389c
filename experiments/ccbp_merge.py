# SPDX-License-Identifier: MIT
"""ccbp_merge.py BASE.json PART.json [OLD=NEW ...] [--out OUT.json]: CCBP's headline table over
a full run's pairs with some pairs replaced by a partial run's (experiments/ccbp.py's report,
ccbp.json).

Used when a change touches only some pairs (session 16: HG's stand-in, one pair) and the rest of
the grid would cost a full rerun: each pair of PART.json replaces the same pair of BASE.json, or
the pair OLD named by an OLD=NEW argument (e.g.
histogram+fdtd2d_ccbp=histo1024_lin22+fdtd2d_ccbp); every other pair is BASE's. The gains are computed as ccbp.py's
report computes them (per pair CCBP's HS over the baseline's, a starved baseline left out; mean
and max over the pairs). Prints the table; writes the merged runs and gains to OUT.json."""
import json
import sys


def gains(runs, pairs):
    out = {}
    for base in ("lrr", "smk_p", "smk", "ws", "dai18", "dmil", "oracle"):
        g = [100.0 * (runs[f"{p}/ccbp"]["hs"] / runs[f"{p}/{base}"]["hs"] - 1) for p in pairs
             if f"{p}/ccbp" in runs and f"{p}/{base}" in runs
             and not runs[f"{p}/{base}"]["starved"]]
        out[base] = {"mean": sum(g) / len(g), "max": max(g), "n": len(g)} if g else None
    return out


def main(argv):
    args, out = list(argv[1:]), None
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1] if i + 1 < len(args) else sys.exit(__doc__)
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    base, part = json.load(open(args[0])), json.load(open(args[1]))
    repl = dict(a.split("=", 1) for a in args[2:])
    pairs = list(base["pairs"])
    for old, new in repl.items():
        if old not in pairs or new not in part["pairs"]:
            sys.exit(f"ccbp_merge.py: {old}={new}: {old} is not a pair of {args[0]} or {new} "
                     f"not one of {args[1]}")
        pairs[pairs.index(old)] = new
    for q in part["pairs"]:
        if q not in pairs:
            sys.exit(f"ccbp_merge.py: {q} of {args[1]} replaces no pair (name it OLD={q})")
    runs = {k: v for k, v in base["runs"].items() if k.split("/")[0] in pairs}
    runs.update(part["runs"])
    g = gains(runs, pairs)
    print("| baseline | mean % | max % | pairs |")
    print("|---|---|---|---|")
    for b, v in g.items():
        if v:
            print(f"| {b} | {v['mean']:+.1f} | {v['max']:+.1f} | {v['n']} |")
    lat = max(x for k, r in runs.items() if k.endswith("/lrr") for x in r["read_latency_x"]
              if x is not None)
    print(f"largest co-run / alone read latency (lrr): {lat:.2f}")
    if out:
        with open(out, "w") as f:
            json.dump({"pairs": pairs, "runs": runs, "hs_gain_percent": g}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
