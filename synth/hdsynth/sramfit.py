# SPDX-License-Identifier: MIT
"""sramfit - the SRAM model (sram.py) against its CACTI calibration: per-point errors, and the
fit that produced the model's ten fitted constants (synth/tech40.ini [sram]).

  python3 -m hdsynth.sramfit            per-point errors of the model as configured
  python3 -m hdsynth.sramfit --fit      refit the constants (least squares of log(model/CACTI),
                                        Nelder-Mead), print them and the errors they give
  python3 -m hdsynth.sramfit --loo      leave-one-out: each point predicted by constants
                                        refitted without it (about 20 s)
Run from synth/ (or with synth/ on PYTHONPATH). The fit is in three independent steps: the two
area constants (they also choose each array's folding), then the four time constants, then the
four energy constants, each on all calibration points at once; no constant belongs to a point.
"""

import argparse
import csv
import math
import os
import sys

from . import ini, sram

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV = os.path.join(HERE, "cacti7-40nm.csv")
TECH = os.path.join(HERE, "tech40.ini")

AREA_KEYS = ("col_strip_f", "port_fixed_f2")
TIME_KEYS = ("t_fixed_ps", "t_decode_ps", "t_wire_ps_per_um", "t_bank_ps_per_um")
ENERGY_KEYS = ("e_bit_fj", "e_wire_fj_per_um", "e_bitline_fj_per_um", "e_bank_fj_per_um")


def points(path=CSV):
    with open(path, encoding="utf-8") as f:
        rows = [r for r in csv.reader(line for line in f if line.strip() and not line.startswith("#"))]
    return [{"name": r[0], "rows": int(r[1]), "width": int(r[2]), "ports": r[3], "banks": int(r[4]),
             "area_mm2": float(r[5]), "access_ns": float(r[6]), "energy_nj": float(r[7])} for r in rows]


def errors(model, pts):
    """One dict per point: the model's area, time and energy and their relative errors."""
    out = []
    for p in pts:
        e = model.estimate(p["rows"], p["width"], p["ports"], p["banks"])
        out.append(dict(p, model_area_mm2=e["area_mm2"], model_access_ns=e["access_ps"] / 1000,
                        model_energy_nj=e["read_energy_pj"] / 1000, mux=e["mux"],
                        err_area=e["area_mm2"] / p["area_mm2"] - 1,
                        err_time=e["access_ps"] / 1000 / p["access_ns"] - 1,
                        err_energy=e["read_energy_pj"] / 1000 / p["energy_nj"] - 1))
    return out


def table(errs):
    lines = ["| array | rows x bits | ports | banks | area mm2 CACTI / model | err | "
             "access ns CACTI / model | err | read nJ CACTI / model | err |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for e in errs:
        lines.append(f"| {e['name']} | {e['rows']} x {e['width']} | {e['ports']} | {e['banks']} | "
                     f"{e['area_mm2']:.4g} / {e['model_area_mm2']:.4g} | {100 * e['err_area']:+.1f}% | "
                     f"{e['access_ns']:.3f} / {e['model_access_ns']:.3f} | {100 * e['err_time']:+.1f}% | "
                     f"{e['energy_nj']:.4g} / {e['model_energy_nj']:.4g} | {100 * e['err_energy']:+.1f}% |")
    for key, name in (("err_area", "area"), ("err_time", "access time"), ("err_energy", "read energy")):
        worst = max(abs(e[key]) for e in errs)
        rms = math.sqrt(sum(e[key] ** 2 for e in errs) / len(errs))
        lines.append(f"{name}: worst {100 * worst:.1f}%, rms {100 * rms:.1f}%")
    return "\n".join(lines)


def _nelder_mead(f, x0, iters=3000):
    n = len(x0)
    simplex = [list(x0)] + [[x * (1.3 if i == j else 1.0) for j, x in enumerate(x0)] for i in range(n)]
    vals = [f(s) for s in simplex]
    for _ in range(iters):
        order = sorted(range(n + 1), key=vals.__getitem__)
        simplex, vals = [simplex[i] for i in order], [vals[i] for i in order]
        if vals[-1] - vals[0] < 1e-14:
            break
        c = [sum(s[j] for s in simplex[:-1]) / n for j in range(n)]
        refl = [2 * c[j] - simplex[-1][j] for j in range(n)]
        fr = f(refl)
        if fr < vals[0]:
            exp = [3 * c[j] - 2 * simplex[-1][j] for j in range(n)]
            fe = f(exp)
            simplex[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            simplex[-1], vals[-1] = refl, fr
        else:
            con = [(c[j] + simplex[-1][j]) / 2 for j in range(n)]
            fc = f(con)
            if fc < vals[-1]:
                simplex[-1], vals[-1] = con, fc
            else:
                simplex = [simplex[0]] + [[(simplex[0][j] + s[j]) / 2 for j in range(n)] for s in simplex[1:]]
                vals = [vals[0]] + [f(s) for s in simplex[1:]]
    best = min(range(n + 1), key=vals.__getitem__)
    return simplex[best]


def fit(tech_ini, pts):
    """The fitted constants (dict), fitting area, then time, then energy."""
    base = sram.SramModel(tech_ini)
    consts = {k: getattr(base, k) for k in sram.SramModel.KEYS}
    for keys, err in ((AREA_KEYS, "err_area"), (TIME_KEYS, "err_time"), (ENERGY_KEYS, "err_energy")):
        def cost(x, keys=keys, err=err):
            trial = dict(consts, **{k: abs(v) for k, v in zip(keys, x)})
            model = sram.SramModel(tech_ini, **trial)
            return sum(math.log(1 + e[err]) ** 2 for e in errors(model, pts))
        x = [consts[k] for k in keys]
        for _ in range(3):
            x = _nelder_mead(cost, x)
        consts.update({k: abs(v) for k, v in zip(keys, x)})
    return consts


def main(argv):
    ap = argparse.ArgumentParser(prog="python3 -m hdsynth.sramfit", description=__doc__.split("\n")[0])
    ap.add_argument("--fit", action="store_true", help="refit the constants and print them")
    ap.add_argument("--loo", action="store_true", help="leave-one-out errors")
    ap.add_argument("--csv", default=CSV)
    ap.add_argument("--tech", default=TECH)
    args = ap.parse_args(argv)
    tech = ini.read(args.tech)
    pts = points(args.csv)
    model = sram.SramModel(tech)
    if args.loo:
        errs = []
        for i in range(len(pts)):
            consts = fit(tech, pts[:i] + pts[i + 1:])
            errs += errors(sram.SramModel(tech, **consts), [pts[i]])
        print("leave-one-out: each point predicted by constants fitted on the others")
        print(table(errs))
        return 0
    if args.fit:
        consts = fit(tech, pts)
        for k in sram.SramModel.KEYS:
            print(f"{k} = {consts[k]:.4g}")
        model = sram.SramModel(tech, **consts)
    print(table(errors(model, pts)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
