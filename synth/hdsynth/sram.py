# SPDX-License-Identifier: MIT
"""sram - area and access time of a storage array built as SRAM at the target node.

Model (constants and sources in synth/tech40.ini, derivation in docs/synth.md):
  cell(P)      = (w0 + 2 p (P-1)) * (h0 + 2 p (P-1))      CACTI's multi-port cell, P ports
  core(P)      = bits * cell(P)
  periph1      = bits * cell(1) * (1/eff(bits) - 1)        single-port periphery (CACTI fit)
  area(P)      = core(P) + P * periph1                      decoders/drivers/sense per port
  t_access(P)  = t1(bits) * (F/F_cal) * sqrt(cell(P)/cell(1))
where eff(bits) and t1(bits) interpolate the CACTI-generated calibration macros in log2(bits),
and areas of the calibration node scale by (F/F_cal)^2. Wire-dominated delay grows with the
array's linear size, hence the square root of the cell-area ratio for extra ports.
"""

import math

from .errors import FlowError


class SramModel:
    def __init__(self, ini):
        sec = "sram"
        self.f_um = ini.number("node", "feature_nm") / 1000.0
        self.cell_f2 = ini.number(sec, "cell_f2")
        self.aspect = ini.number(sec, "cell_aspect")
        self.pitch_f = ini.number(sec, "port_pitch_f")
        self.cal_nm = ini.number(sec, "calib_nm")
        f_cal = self.cal_nm / 1000.0
        cell_cal = self.cell_f2 * f_cal * f_cal
        pts = []
        for key, (val, _line) in ini.sections[sec].items():
            if not key.startswith("calib_") or key == "calib_nm":
                continue
            parts = val.split()
            try:
                bits, area, t_ns = int(parts[0]), float(parts[1]), float(parts[2])
            except (ValueError, IndexError):
                raise FlowError(ini.where(sec, key), f"'{key}' needs 'bits area_um2 access_ns'")
            pts.append((bits, bits * cell_cal / area, t_ns))
        if len(pts) < 2:
            raise FlowError(ini.path, "[sram] needs at least two calib_* points")
        pts.sort()
        merged = {}
        for bits, eff, t_ns in pts:                 # average points of equal size
            merged.setdefault(bits, []).append((eff, t_ns))
        self.points = [(b, sum(e for e, _ in v) / len(v), sum(t for _, t in v) / len(v))
                       for b, v in sorted(merged.items())]
        if len(self.points) < 2:
            raise FlowError(ini.path, "[sram] calib_* points need at least two distinct sizes")

    def cell_um2(self, ports):
        w0 = math.sqrt(self.cell_f2 / self.aspect) * self.f_um
        h0 = self.aspect * w0
        grow = 2 * self.pitch_f * self.f_um * (ports - 1)
        return (w0 + grow) * (h0 + grow)

    def _interp(self, bits, idx):
        x = math.log2(bits)
        pts = self.points
        seg = 0
        while seg < len(pts) - 2 and x > math.log2(pts[seg + 1][0]):
            seg += 1
        (b0, *v0), (b1, *v1) = pts[seg], pts[seg + 1]
        x0, x1 = math.log2(b0), math.log2(b1)
        return v0[idx] + (v1[idx] - v0[idx]) * (x - x0) / (x1 - x0)

    def estimate(self, entries, width, ports=1):
        """dict: area_um2, access_ps, efficiency, in_range (inside the calibration span)."""
        if entries < 1 or width < 1 or ports < 1:
            raise FlowError(None, f"SRAM array {entries}x{width} with {ports} ports is empty")
        bits = entries * width
        eff = max(0.05, self._interp(bits, 0))
        t1_ns = max(0.0, self._interp(bits, 1))
        cell1 = self.cell_um2(1)
        cellp = self.cell_um2(ports)
        periph1 = bits * cell1 * (1.0 / eff - 1.0)
        area = bits * cellp + ports * periph1
        t_ps = 1000.0 * t1_ns * (self.f_um * 1000.0 / self.cal_nm) * math.sqrt(cellp / cell1)
        lo, hi = self.points[0][0], self.points[-1][0]
        return {"entries": entries, "width": width, "ports": ports, "bits": bits,
                "area_um2": area, "access_ps": t_ps, "efficiency": bits * cell1 / (bits * cell1 + periph1),
                "cell_um2": cellp, "in_range": lo <= bits <= hi}
