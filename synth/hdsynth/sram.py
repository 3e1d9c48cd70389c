# SPDX-License-Identifier: MIT
"""sram - area, access time and read energy of a storage array built as SRAM, from its shape.

A physical model in the manner of CACTI (Wilton & Jouppi; Muralimanohar et al., CACTI 6.0,
HPL-2009-85), reduced to the few structures that set area, delay and energy; constants and
their sources in synth/tech40.ini, derivation and calibration errors in docs/synth.md.

For R rows (entries) of W bits, P ports and B banks, at feature size F:
  cell(P)   w = (10 + 5 (P-1)) F, h = (14.6 + 5 (P-1)) F      CACTI's 146 F^2 cell; every port
                                                             past the first adds two 2.5 F pitches
  bank      R/B rows; folded by a column multiplexer m (a power of two, rows/m >= 16, CACTI's
            MINSUBARRAYROWS) into an array of X = W m w by Y = (R/B/m) h; m minimises the area
  area      X Y                                    cells
          + P (col_strip X + port_fixed)           per port: precharge, sense amplifiers, write
                                                   drivers, mux (a strip along the columns);
                                                   decoders, drivers, control (a fixed part)
          + P W p_data (X + Y)                     per port, the W data wires routed over the
                                                   array's half-perimeter at CACTI's
                                                   semi-global pitch p_data = 4 F
  banks     B banks side by side (square floorplan of side S), joined by an H-tree that
            carries every port's W data bits at CACTI's global pitch 8 F:
            area += P W p_bank Ltree(B, S), Ltree the H-tree's total wire length
  time      t_fixed + t_decode log2(rows of the folded array) + t_wire (X + Y) + t_bank path(B, S)
  energy    W (e_bit + e_wire (X + Y) + e_bank path(B, S)) + e_bitline W m Y
where path is the H-tree's root-to-bank length. The time and energy constants were fitted on
CACTI 7.0 at 40 nm (synth/cacti7-40nm.csv, python3 -m hdsynth.sramfit) and scale by F/40 nm.

CACTI's limits: CACTI rejects arrays of fewer than 32 rows per bank (two subarrays of at least
16 rows) and of fewer than 64 bytes. Such an array is priced as the nearest accepted one (rows
raised to 32 per bank and to 64 bytes, same width) scaled by bits, area and energy, with that
array's access time: what a CACTI user has to do, and the result says so (`cacti_limit`). The
physical model of the array as given is reported beside it (`physical`).
"""

import math
import re

from .errors import FlowError

CACTI_MIN_ROWS = 32        # per bank: Ndbl >= 2 subarrays of >= MINSUBARRAYROWS = 16 rows
CACTI_MIN_BYTES = 64       # CACTI io.cc: "Cache size must >= 64"


def parse_ports(spec):
    """(count, label) for a port specification: 1RW, 1R1W, 2R1W, 2RW, 4R2W, ... or a bare
    number of ports. Every port costs the same (cell pitch, periphery, data wires)."""
    text = str(spec).strip().upper()
    if re.fullmatch(r"\d+", text):
        n = int(text)
        label = "1RW" if n == 1 else f"{n} ports"
    else:
        m = re.fullmatch(r"(?:(\d+)RW)?(?:(\d+)R(?!W))?(?:(\d+)W)?", text)
        if not m or not any(m.groups()):
            raise FlowError(None, f"port specification '{spec}' is not like 1RW, 1R1W, 2R1W or a number")
        n = sum(int(g) for g in m.groups() if g)
        label = text
    if n < 1:
        raise FlowError(None, f"port specification '{spec}' has no port")
    return n, label


def htree_length(banks, w, h):
    """Total wire length of an H-tree joining `banks` (a power of two) leaves tiling w x h."""
    if banks <= 1:
        return 0.0
    if w >= h:
        return w / 2 + 2 * htree_length(banks // 2, w / 2, h)
    return h / 2 + 2 * htree_length(banks // 2, w, h / 2)


def htree_path(banks, w, h):
    """Wire length from the H-tree's root (the centre) to one leaf."""
    if banks <= 1:
        return 0.0
    if w >= h:
        return w / 4 + htree_path(banks // 2, w / 2, h)
    return h / 4 + htree_path(banks // 2, w, h / 2)


class SramModel:
    KEYS = ("col_strip_f", "port_fixed_f2", "t_fixed_ps", "t_decode_ps", "t_wire_ps_per_um",
            "t_bank_ps_per_um", "e_bit_fj", "e_wire_fj_per_um", "e_bitline_fj_per_um",
            "e_bank_fj_per_um")

    def __init__(self, ini, **override):
        sec = "sram"
        self.feature_nm = ini.number("node", "feature_nm")
        self.f_um = self.feature_nm / 1000.0
        self.cell_f2 = ini.number(sec, "cell_f2")
        self.aspect = ini.number(sec, "cell_aspect")
        self.pitch_f = ini.number(sec, "port_pitch_f")
        self.data_pitch_f = ini.number(sec, "data_pitch_f")
        self.bank_pitch_f = ini.number(sec, "bank_pitch_f")
        self.min_sub_rows = ini.number(sec, "min_subarray_rows", integer=True)
        self.calib_nm = ini.number(sec, "calib_nm")
        for key in self.KEYS:
            setattr(self, key, override[key] if key in override else ini.number(sec, key))
        for key in ("rows", "width", "ports", "banks"):
            lo_hi = ini.get(sec, f"calib_{key}", "")
            try:
                lo, hi = (int(x) for x in lo_hi.split())
            except ValueError:
                raise FlowError(ini.where(sec, f"calib_{key}"), f"'calib_{key}' needs 'min max'")
            setattr(self, f"span_{key}", (lo, hi))

    def cell_dims(self, ports):
        """(width, height) of the cell in um with `ports` ports."""
        w0 = math.sqrt(self.cell_f2 / self.aspect) * self.f_um
        h0 = self.aspect * w0
        grow = 2 * self.pitch_f * self.f_um * (ports - 1)
        return w0 + grow, h0 + grow

    def cell_um2(self, ports):
        w, h = self.cell_dims(ports)
        return w * h

    def _bank(self, rows, width, ports):
        """Best folding of one bank: (area um2, X, Y, mux, rows per column)."""
        w, h = self.cell_dims(ports)
        f = self.f_um
        best, mux = None, 1
        while True:
            sub = math.ceil(rows / mux)
            x, y = width * mux * w, sub * h
            area = (x * y + ports * (self.col_strip_f * f * x + self.port_fixed_f2 * f * f)
                    + ports * width * self.data_pitch_f * f * (x + y))
            if best is None or area < best[0]:
                best = (area, x, y, mux, sub)
            mux *= 2
            if rows / mux < self.min_sub_rows:
                return best

    def physical(self, rows, width, ports, banks):
        """The model for exactly this shape (no CACTI limits)."""
        per_bank = math.ceil(rows / banks)
        a_bank, x, y, mux, sub = self._bank(per_bank, width, ports)
        side = math.sqrt(banks * a_bank)
        tree = htree_length(banks, side, side)
        path = htree_path(banks, side, side)
        area = banks * a_bank + ports * width * self.bank_pitch_f * self.f_um * tree
        scale = self.feature_nm / self.calib_nm
        t_ps = scale * (self.t_fixed_ps + self.t_decode_ps * math.log2(max(2, sub))
                        + self.t_wire_ps_per_um * (x + y) + self.t_bank_ps_per_um * path)
        e_fj = scale * (width * (self.e_bit_fj + self.e_wire_fj_per_um * (x + y)
                                 + self.e_bank_fj_per_um * path)
                        + self.e_bitline_fj_per_um * width * mux * y)
        return {"area_um2": area, "access_ps": t_ps, "read_energy_pj": e_fj / 1000.0,
                "mux": mux, "array_rows": sub, "array_cols": width * mux,
                "array_um": [round(x, 2), round(y, 2)], "bank_um2": a_bank,
                "htree_um": tree, "htree_path_um": path}

    def estimate(self, entries, width, ports=1, banks=1):
        """dict: area_um2, access_ps, read_energy_pj, organisation, cacti_limit, in_range."""
        nports, label = parse_ports(ports)
        if entries < 1 or width < 1 or banks < 1:
            raise FlowError(None, f"SRAM array {entries}x{width} in {banks} bank(s) is empty")
        if banks & (banks - 1):
            raise FlowError(None, f"SRAM array {entries}x{width}: {banks} banks is not a power of two")
        phys = self.physical(entries, width, nports, banks)
        rows = max(entries, CACTI_MIN_ROWS * banks, math.ceil(CACTI_MIN_BYTES * 8 / width))
        rows = banks * math.ceil(rows / banks)
        limit, scale, used = None, 1.0, phys
        if rows != entries:
            used = self.physical(rows, width, nports, banks)
            scale = entries / rows
            why = []
            if math.ceil(entries / banks) < CACTI_MIN_ROWS:
                why.append(f"fewer than {CACTI_MIN_ROWS} rows" + (" per bank" if banks > 1 else ""))
            if entries * width < CACTI_MIN_BYTES * 8:
                why.append(f"fewer than {CACTI_MIN_BYTES} bytes")
            limit = (f"{' and '.join(why) or 'below CACTI limits'}: priced as {rows}x{width} "
                     f"scaled by bits ({scale:.3g}); access time of {rows}x{width}")
        bits = entries * width
        area = used["area_um2"] * scale
        in_range = all(lo <= v <= hi for v, (lo, hi) in (
            (rows, self.span_rows), (width, self.span_width), (nports, self.span_ports),
            (banks, self.span_banks)))
        return {"entries": entries, "width": width, "ports": nports, "port_spec": label,
                "banks": banks, "bits": bits, "area_um2": area, "area_mm2": area / 1e6,
                "access_ps": used["access_ps"], "read_energy_pj": used["read_energy_pj"] * scale,
                "efficiency": bits * self.cell_um2(nports) / area, "cell_um2": self.cell_um2(nports),
                "mux": used["mux"], "array_rows": used["array_rows"],
                "array_cols": used["array_cols"], "cacti_limit": limit, "scale": scale,
                "priced_as": [rows, width], "in_range": in_range,
                "physical": {k: phys[k] for k in ("area_um2", "access_ps", "read_energy_pj")}}
