# SPDX-License-Identifier: MIT
"""Unit and end-to-end tests of the synthesis flow (synth/hdsynth): Liberty function evaluation,
INI errors, the SRAM model against its CACTI calibration, block discovery, the claims table,
and (when Yosys and OpenSTA are installed) latch rejection, located syntax errors, memory
inference with the SRAM variant, and a user liberty replacing osu018.
Run: python3 -m unittest discover -s synth/tests (CTest synth_unit).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SYNTH = os.path.dirname(HERE)
ROOT = os.path.dirname(SYNTH)
sys.path.insert(0, SYNTH)

from hdsynth import blocks, ini, liberty, report, sram  # noqa: E402
from hdsynth.errors import FlowError  # noqa: E402

OSU = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
HAVE_TOOLS = shutil.which("yosys") and shutil.which("sta") and os.path.isfile(OSU)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


class FunctionTest(unittest.TestCase):
    def test_truth_tables(self):
        tt = liberty.truth_table
        self.assertEqual(tt("!A", ["A"]), (1, 0))
        self.assertEqual(tt("A'", ["A"]), (1, 0))
        self.assertEqual(tt("!(A&B)", ["A", "B"]), (1, 1, 1, 0))
        self.assertEqual(tt("(A B)'", ["A", "B"]), (1, 1, 1, 0))
        self.assertEqual(tt("(A*B)+C", ["A", "B", "C"]), (0, 1, 0, 1, 0, 1, 1, 1))
        self.assertEqual(tt("A^B", ["A", "B"]), (0, 1, 1, 0))
        self.assertIsNone(tt("A+Q", ["A"]))          # unknown pin

    @unittest.skipUnless(os.path.isfile(OSU), "osu018 liberty not installed")
    def test_osu018_reference_cells(self):
        lib = liberty.Library(OSU)
        self.assertEqual(lib.inverter().name, "INVX1")
        self.assertEqual(lib.nand2().name, "NAND2X1")
        self.assertEqual(lib.cells["LATCH"].seq, "latch")
        self.assertEqual(lib.cells["DFFSR"].seq, "ff")

    def test_not_a_liberty(self):
        with tempfile.TemporaryDirectory() as d:
            p = write(os.path.join(d, "x.lib"), "module foo; endmodule\n")
            with self.assertRaisesRegex(FlowError, "not a Liberty file"):
                liberty.Library(p)


class IniTest(unittest.TestCase):
    def test_errors_are_located(self):
        with tempfile.TemporaryDirectory() as d:
            p = write(os.path.join(d, "a.ini"), "[s]\nk = 1\nk = 2\n")
            with self.assertRaisesRegex(FlowError, r"a\.ini:3: key 'k' appears twice"):
                ini.read(p)
            p = write(os.path.join(d, "b.ini"), "[s]\njunk\n")
            with self.assertRaisesRegex(FlowError, r"b\.ini:2: expected 'key = value'"):
                ini.read(p)
            p = write(os.path.join(d, "c.ini"), "[s]\nn = x # comment\n")
            cfg = ini.read(p)
            self.assertEqual(cfg.get("s", "n"), "x")
            with self.assertRaisesRegex(FlowError, r"c\.ini:2: key 'n' = 'x' is not a number"):
                cfg.number("s", "n")


class SramTest(unittest.TestCase):
    def model(self, feature_nm=40):
        with open(os.path.join(SYNTH, "tech40.ini"), encoding="utf-8") as f:
            text = f.read().replace("feature_nm = 40", f"feature_nm = {feature_nm}")
        with tempfile.TemporaryDirectory() as d:
            return sram.SramModel(ini.read(write(os.path.join(d, "t.ini"), text)))

    def test_port_specifications(self):
        p = sram.parse_ports
        self.assertEqual(p("1RW"), (1, "1RW"))
        self.assertEqual(p("1r1w"), (2, "1R1W"))
        self.assertEqual(p("2R1W"), (3, "2R1W"))
        self.assertEqual(p("4R2W"), (6, "4R2W"))
        self.assertEqual(p("2RW"), (2, "2RW"))
        self.assertEqual(p(3), (3, "3 ports"))
        for bad in ("", "RW", "1X", "0", "1W1R"):
            with self.assertRaises(FlowError):
                p(bad)

    def test_cell_and_shape(self):
        m = self.model()
        # CACTI: 146 F^2 cell, aspect 1.46 -> 0.4 x 0.584 um at 40 nm; a 2nd port adds two
        # 2.5 F local-wire pitches (0.2 um) to the width and to the height
        self.assertAlmostEqual(m.cell_um2(1), 0.4 * 0.584, places=9)
        self.assertAlmostEqual(m.cell_um2(2), 0.6 * 0.784, places=9)
        # same bits, different shape: the wide array pays for its sense amplifiers and wires
        wide, tall = m.estimate(32, 1024), m.estimate(1024, 32)
        self.assertGreater(wide["area_um2"], 2 * tall["area_um2"])
        self.assertGreater(tall["mux"], 1)          # a tall array is folded
        one, two, three = (m.estimate(320, 128, p) for p in ("1RW", "1R1W", "2R1W"))
        self.assertLess(one["area_um2"], two["area_um2"])
        self.assertLess(two["area_um2"], three["area_um2"])
        self.assertLess(one["access_ps"], two["access_ps"])
        self.assertLess(one["read_energy_pj"], two["read_energy_pj"])
        self.assertEqual(m.estimate(64, 16, 2)["area_um2"], m.estimate(64, 16, "1R1W")["area_um2"])
        # banks: an H-tree between them costs area and time
        flat, banked = m.estimate(1024, 64, 1, 1), m.estimate(1024, 64, 1, 4)
        self.assertGreater(banked["access_ps"], m.estimate(256, 64)["access_ps"])
        self.assertGreater(banked["area_um2"], 4 * m.estimate(256, 64)["area_um2"])
        self.assertGreater(flat["area_um2"], 0)
        with self.assertRaisesRegex(FlowError, "power of two"):
            m.estimate(1024, 64, 1, 3)

    def test_cacti_limits(self):
        m = self.model()
        small = m.estimate(16, 1024)                 # fewer than 32 rows
        ref = m.estimate(32, 1024)
        self.assertIn("fewer than 32 rows", small["cacti_limit"])
        self.assertAlmostEqual(small["area_um2"], ref["area_um2"] / 2)
        self.assertAlmostEqual(small["read_energy_pj"], ref["read_energy_pj"] / 2)
        self.assertAlmostEqual(small["access_ps"], ref["access_ps"])
        tiny = m.estimate(16, 7)                     # 14 bytes: rows raised to 74 (518 bits)
        self.assertIn("fewer than 64 bytes", tiny["cacti_limit"])
        self.assertEqual(tiny["priced_as"], [74, 7])
        self.assertAlmostEqual(tiny["area_um2"], m.estimate(74, 7)["area_um2"] * 16 / 74)
        self.assertFalse(tiny["in_range"])
        self.assertGreater(tiny["physical"]["area_um2"], 0)
        self.assertIsNone(m.estimate(32, 16)["cacti_limit"])
        self.assertIn("per bank", m.estimate(256, 64, 1, 16)["cacti_limit"])

    def test_scales_with_feature_size(self):
        m45, m40 = self.model(45), self.model(40)
        a45, a40 = m45.estimate(64, 32), m40.estimate(64, 32)
        self.assertAlmostEqual(a40["area_um2"] / a45["area_um2"], (40 / 45) ** 2, places=6)
        self.assertAlmostEqual(a40["access_ps"] / a45["access_ps"], 40 / 45, delta=0.02)

    def test_cacti_calibration_bounds(self):
        from hdsynth import sramfit
        errs = sramfit.errors(self.model(), sramfit.points())
        self.assertEqual(len(errs), 14)
        for e in errs:
            self.assertLess(abs(e["err_area"]), 0.25, e)
            self.assertLess(abs(e["err_time"]), 0.30, e)


class DiscoveryTest(unittest.TestCase):
    def test_ports_def_config_and_overrides(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "rtl", "foo", "foo_ports.def"),
                  'HD_BLOCK(foo, 3, "doc")\nHD_CLOCK(clock)\nHD_RESET(rst_n)\n')
            write(os.path.join(root, "rtl", "foo", "foo.sv"),
                  "// module foo #(parameter int Fake = 1) ();\n"
                  "module foo #(\n  parameter int unsigned Width = 8,\n  parameter int Depth = 4,\n"
                  "  localparam int W2 = 2 * Width\n) (input logic a_i);\nendmodule\n")
            write(os.path.join(root, "rtl", "foo", "foo_tb.sv"), "module foo_tb; endmodule\n")
            write(os.path.join(root, "configs", "rtl", "foo.ini"),
                  "[foo]\nWidth = 8\nDepth = 4\nCModelOnly = 3\n")
            bi = write(os.path.join(root, "blocks.ini"),
                       "[foo]\nper_sm = 2\nparams = Depth=16\nsmoke_params = Depth=2\n"
                       "arrays = mem_q:16x8:2 rf:64x1024:2R1W:4\n[bar]\nmechanism = zorua\n")
            found = blocks.discover(root, bi)
            self.assertEqual([b.name for b in found], ["foo"])
            foo = found[0]
            self.assertEqual((foo.latency, foo.clock, foo.reset, foo.per_sm), (3, "clock", "rst_n", 2))
            self.assertEqual({k: v[0] for k, v in foo.params.items()},
                             {"Width": "8", "Depth": "16", "CModelOnly": "3"})
            self.assertEqual(blocks.declared_params(foo), {"Width", "Depth"})
            use, skipped = blocks.applicable(foo, foo.params)
            self.assertEqual((sorted(use), skipped), (["Depth", "Width"], ["CModelOnly"]))
            with self.assertRaisesRegex(FlowError, r"blocks\.ini:\d+: block foo: module foo has no parameter 'Nope'"):
                blocks.applicable(foo, dict(foo.params, Nope=("1", bi + ":3")))
            self.assertEqual([os.path.basename(s) for s in foo.sources], ["foo.sv"])
            self.assertEqual((foo.arrays[0].entries, foo.arrays[0].width, foo.arrays[0].ports), (16, 8, 2))
            rf = foo.arrays[1]
            self.assertEqual((rf.ports, rf.port_spec, rf.banks), (3, "2R1W", 4))
            with self.assertRaisesRegex(FlowError, "not like 1RW"):
                blocks.parse_arrays("x:4x4:2Q", "here")
            self.assertEqual(blocks.listed_names(bi), {"foo": None, "bar": "zorua"})
            with self.assertRaisesRegex(FlowError, "unknown block"):
                blocks.discover(root, bi, {"nope"})
            write(bi, "[foo]\nper_sm = zero\n")
            with self.assertRaisesRegex(FlowError, r"blocks\.ini:2: key 'per_sm'"):
                blocks.discover(root, bi)
            self.assertFalse(foo.buffer_inputs)
            write(bi, "[foo]\nbuffer_inputs = true\n")
            self.assertTrue(blocks.discover(root, bi)[0].buffer_inputs)
            write(bi, "[foo]\n\nbuffer_inputs = yes please\n")
            with self.assertRaisesRegex(FlowError, r"blocks\.ini:3.*buffer_inputs must be true or false"):
                blocks.discover(root, bi)


    def test_configuration_rows(self):
        """[BLOCK:CONFIG] rows: the block once more in a named configuration of configs/rtl/,
        [BLOCK]'s keys unless given, array sizes evaluated per configuration."""
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "rtl", "tab", "tab_ports.def"), 'HD_BLOCK(tab, 1, "doc")\n')
            write(os.path.join(root, "rtl", "tab", "tab.sv"),
                  "module tab #(parameter int Rows = 4, parameter int W = 2) (input logic a_i);\n"
                  "endmodule\n")
            write(os.path.join(root, "configs", "rtl", "tab.ini"),
                  "[default]\nRows = 64\nW = 8\n[small]\nRows = 8\nW = 3\n[block]\nfamily = x\n")
            bi = write(os.path.join(root, "blocks.ini"),
                       "[tab:small]\nsmoke_params = Rows=2\n"
                       "[tab]\nper_sm = 3\nmechanism = m\narrays = t_q:{Rows*2}x{W+1}\n"
                       "smoke_params = Rows=4\n[tab:default]\nmechanism = other\n")
            got = {b.name: b for b in blocks.discover(root, bi)}
            self.assertEqual(sorted(got), ["tab", "tab:default", "tab:small"])
            small, base, dflt = got["tab:small"], got["tab"], got["tab:default"]
            self.assertEqual((small.base, small.config, small.top, small.latency), ("tab", "small", "tab", 1))
            self.assertEqual({k: v[0] for k, v in small.params.items()}, {"Rows": "8", "W": "3"})
            self.assertEqual((small.per_sm, small.mechanism, dflt.mechanism), (3, "m", "other"))
            self.assertEqual([(a.entries, a.width) for a in (base.arrays + small.arrays)], [(128, 9), (16, 4)])
            self.assertEqual({k: v[0] for k, v in small.smoke_params.items()}, {"Rows": "2"})
            smoke = dict(small.params, **small.smoke_params)
            self.assertEqual([(a.entries, a.width) for a in blocks.block_arrays(small, smoke)], [(4, 4)])
            self.assertEqual(blocks.discover(root, bi, {"tab:small"})[0].name, "tab:small")
            self.assertEqual(blocks.listed_names(bi), {"tab:small": None, "tab": "m", "tab:default": "other"})
            # a configuration row names its configuration: no rtl_config, and it must exist
            write(bi, "[tab]\n[tab:small]\nrtl_config = default\n")
            with self.assertRaisesRegex(FlowError, r"blocks\.ini:3: \[tab:small\] names its block"):
                blocks.discover(root, bi)
            write(bi, "[tab:big]\n")
            with self.assertRaisesRegex(FlowError, r"tab\.ini: no configuration \[big\]"):
                blocks.discover(root, bi)
            write(os.path.join(root, "rtl", "bare", "bare_ports.def"), 'HD_BLOCK(bare, 1, "doc")\n')
            write(os.path.join(root, "rtl", "bare", "bare.sv"), "module bare (input logic a_i);\nendmodule\n")
            write(bi, "[bare:small]\n")
            with self.assertRaisesRegex(FlowError, r"no configs/rtl/bare\.ini to take \[small\]"):
                blocks.discover(root, bi)
            write(bi, "[nope:small]\nmechanism = m\n")   # the block has not landed: a dash
            self.assertEqual([b.name for b in blocks.discover(root, bi)], ["bare", "tab"])
            write(bi, "[tab]\narrays = t_q:{Rows*Depth}x8\n")
            with self.assertRaisesRegex(FlowError, r"blocks\.ini:2: array size \{Rows\*Depth\}: no parameter 'Depth'"):
                blocks.discover(root, bi)
            write(bi, "[tab]\narrays = t_q:{Rows**2}x8\n")
            with self.assertRaisesRegex(FlowError, "only integers, parameter names"):
                blocks.discover(root, bi)
            write(bi, "[tab]\narrays = t_q:{W-8}x8\n")
            with self.assertRaisesRegex(FlowError, "must be positive"):
                blocks.discover(root, bi)

    def test_zorua_tables_are_rows(self):
        """Zorua's three mapping tables are rows of the real blocks.ini, each with its table at
        the paper's size (digest zorua.md L341-L343), summed into the 0.735 mm^2 claim."""
        found = {b.name: b for b in blocks.discover(ROOT, os.path.join(SYNTH, "blocks.ini"),
                                                     {"zorua_map", "zorua_map:smt", "zorua_map:tmt",
                                                      "zorua_map:kepler_tmt", "zorua_map:maxwell_smt"})}
        shapes = {n: [(a.name, a.entries, a.width) for a in b.arrays] for n, b in found.items()}
        self.assertEqual(shapes, {"zorua_map": [("tab_q", 1024, 9)], "zorua_map:smt": [("tab_q", 768, 7)],
                                  "zorua_map:tmt": [("tab_q", 64, 7)],
                                  "zorua_map:kepler_tmt": [("tab_q", 96, 7)],
                                  "zorua_map:maxwell_smt": [("tab_q", 1024, 7)]})
        self.assertEqual({n: (b.per_sm, b.mechanism) for n, b in found.items()},
                         {"zorua_map": (1, "zorua"), "zorua_map:smt": (1, "zorua"),
                          "zorua_map:tmt": (1, "zorua"), "zorua_map:kepler_tmt": (1, "zorua-kepler"),
                          "zorua_map:maxwell_smt": (1, "zorua-maxwell")})


class ClaimTest(unittest.TestCase):
    def test_dash_until_built_and_sums(self):
        claim = {"mechanism": "gpuduet", "unit": "bytes_sm"}
        rows = [{"block": "wct", "ok": False, "mechanism": "gpuduet"}]
        self.assertEqual(report.heddle_figure(claim, rows)[0], "-")
        rows.append({"block": "bm", "ok": True, "mechanism": "gpuduet",
                     "numbers": {"storage_bytes_per_sm": 384.0}})
        rows.append({"block": "q", "ok": True, "mechanism": "gpuduet",
                     "numbers": {"storage_bytes_per_sm": 38.0}})
        text, val, used = report.heddle_figure(claim, rows)
        self.assertEqual((val, used), (422.0, ["bm", "q"]))
        area = {"mechanism": "zorua", "unit": "mm2_chip", "sms": 15}
        rows = [{"block": "t", "ok": True, "mechanism": "zorua",
                 "numbers": {"per_sm_mm2": {"best": 0.002}}}]
        self.assertAlmostEqual(report.heddle_figure(area, rows)[1], 0.03)
        # A global block (blocks.ini per_gpu) against a claim in total bytes over its SMs.
        total = {"mechanism": "dualkernel-global", "unit": "bytes", "sms": 15}
        rows = [{"block": "g", "ok": True, "mechanism": "dualkernel-global",
                 "numbers": {"storage_bytes_per_sm": 260 / 8 / 15}}]
        self.assertAlmostEqual(report.heddle_figure(total, rows)[1], 32.5)

    def test_per_gpu_spreads_a_global_block(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "rtl", "g", "g_ports.def"), 'HD_BLOCK(g, 1, "doc")\n')
            write(os.path.join(root, "rtl", "g", "g.sv"), "module g (input logic a_i);\nendmodule\n")
            write(os.path.join(root, "configs", "rtl", "g.ini"), "[default]\n")
            bi = write(os.path.join(root, "blocks.ini"), "[g]\nper_gpu = 1\n")
            g = blocks.discover(root, bi)[0]
            self.assertEqual((g.per_gpu, g.per_sm), (1, 1))


class PapersTest(unittest.TestCase):
    def test_paper_tables_match_the_papers_storage(self):
        from hdsynth import main as mainmod
        claims = {c["key"]: c for c in mainmod._claims(os.path.join(SYNTH, "papers.ini"))}
        model = sram.SramModel(ini.read(os.path.join(SYNTH, "tech40.ini")))
        for c in claims.values():
            report.price_tables(c, model)
        # the tables add up to the papers' own storage counts
        self.assertEqual(claims["lin-alloc-tables"]["tables_sram"]["bits_per_sm"], 160 * 8)
        self.assertEqual(claims["dualkernel"]["tables_sram"]["bits_per_sm"], 512 * 8)  # + 16 flush bits
        self.assertEqual(claims["gpuduet"]["tables_sram"]["bits_per_sm"], 8272 - 3072)  # bitmap apart
        self.assertEqual(claims["haws"]["tables_sram"]["bits_per_sm"], 60160)
        z = claims["zorua"]["tables_sram"]
        self.assertAlmostEqual(z["mm2_in_claim_scope"], 15 * z["mm2_per_sm"])
        # each mapping table beside its own storage claim and its own row (zorua_map:CONFIG)
        for key, nbytes, blk in (("zorua-rmt", 1152, "zorua_map"), ("zorua-smt", 672, "zorua_map:smt"),
                                 ("zorua-tmt", 56, "zorua_map:tmt")):
            c = claims[key]
            self.assertEqual((c["unit"], c["value"], c["block"]), ("bytes_sm", nbytes, blk))
            self.assertEqual(c["tables_sram"]["bits_per_sm"], nbytes * 8)
            row = {"block": blk, "ok": True, "mechanism": "zorua",
                   "numbers": {"storage_bytes_per_sm": nbytes + 10.0}}
            other = dict(row, block="zorua_coord")
            self.assertEqual(report.heddle_figure(c, [other, row])[1:], (nbytes + 10.0, [blk]))
        self.assertIsNone(claims["lin-compressor"]["tables_sram"])


@unittest.skipUnless(HAVE_TOOLS, "yosys, sta or the osu018 liberty missing")
class FlowTest(unittest.TestCase):
    """End to end through synth/run.sh on tiny modules."""

    def run_flow(self, d, name, sv, extra=(), ini_extra=""):
        write(os.path.join(d, name, f"{name}.sv"), sv)
        bi = write(os.path.join(d, "blocks.ini"),
                   f"[flow]\ngpu_config = configs/fermi-gtx480.ini\n[{name}]\ndir = {os.path.join(d, name)}\n"
                   f"per_sm = 2\n{ini_extra}")
        out = os.path.join(d, "out")
        proc = subprocess.run([os.path.join(SYNTH, "run.sh"), "--blocks-ini", bi, "--block", name,
                               "--out", out, *extra], capture_output=True, text=True, timeout=600)
        data = None
        if os.path.isfile(os.path.join(out, "synth.json")):
            with open(os.path.join(out, "synth.json"), encoding="utf-8") as f:
                data = json.load(f)
        return proc, data

    def test_latch_fails_the_block(self):
        for kind in ("always_comb", "always @*"):       # Yosys errors on one, warns on the other
            sv = ("module lat (input logic en_i, input logic d_i, output logic q_o);\n"
                  f"  {kind} if (en_i) q_o = d_i;\nendmodule\n")
            with tempfile.TemporaryDirectory() as d:
                proc, data = self.run_flow(d, "lat", sv)
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertIn("latch inferred", proc.stderr)
                self.assertIn("q_o", proc.stderr)
                self.assertFalse(data["blocks"][0]["ok"])

    def test_syntax_error_is_located(self):
        with tempfile.TemporaryDirectory() as d:
            proc, _ = self.run_flow(d, "bad", "module bad (input logic a_i);\n  assign = ;\nendmodule\n")
            self.assertEqual(proc.returncode, 1)
            self.assertRegex(proc.stderr, r"bad\.sv:2")

    MEM = """module memblk (
  input  logic clk_i, input logic we_i, input logic [3:0] waddr_i, input logic [3:0] raddr_i,
  input  logic [15:0] wdata_i, output logic [15:0] rdata_o);
  logic [15:0] mem_q [16];
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    rdata_o <= mem_q[raddr_i];
  end
endmodule
"""

    def test_memory_becomes_sram_variant(self):
        with tempfile.TemporaryDirectory() as d:
            proc, data = self.run_flow(d, "memblk", self.MEM)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            row = data["blocks"][0]
            n = row["numbers"]
            self.assertEqual(len(n["arrays"]), 1)
            arr = n["arrays"][0]
            self.assertEqual((arr["entries"], arr["width"], arr["ports"]), (16, 16, 2))
            self.assertEqual(arr["port_spec"], "1R1W")          # Yosys' read and write ports
            self.assertIn("fewer than 32 rows", arr["cacti_limit"])
            self.assertGreater(arr["read_energy_pj"], 0)
            self.assertAlmostEqual(n["area40_sram_um2"], n["logic40_um2"] + arr["area_um2"])
            self.assertGreaterEqual(n["mapped"]["flip_flops"], 256)
            self.assertLess(n["area40_sram_um2"], n["area40_flops_um2"])
            self.assertAlmostEqual(n["per_sm_mm2"]["flops"], 2 * n["area40_flops_um2"] / 1e6)
            self.assertGreater(n["timing"]["crit_ps"], 0)
            self.assertTrue(n["timing"]["sequential"])

    # One flip-flop selecting in 256 multiplexers: ABC leaves a flip-flop output unbuffered unless
    # buffer_inputs drives it from an inverter (abc -constr), then it builds a buffer tree.
    FAN = """module fan (
  input logic clk_i, input logic sel_i, input logic [255:0] a_i, input logic [255:0] b_i,
  output logic [255:0] q_o);
  logic sel_q;
  always_ff @(posedge clk_i) begin
    sel_q <= sel_i;
    q_o <= sel_q ? a_i : b_i;
  end
endmodule
"""

    def test_configuration_row_end_to_end(self):
        """zorua_map:tmt (Zorua's TMT) through synth/run.sh --smoke: its own row, work directory
        and configuration, its table priced at the smoke parameters' size."""
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            proc = subprocess.run([os.path.join(SYNTH, "run.sh"), "--smoke", "--block", "zorua_map:tmt",
                                   "--out", out], capture_output=True, text=True, timeout=600)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(out, "synth.json"), encoding="utf-8") as f:
                data = json.load(f)
            row = data["blocks"][0]
            self.assertEqual((row["block"], row["rtl_block"], row["rtl_config"], row["top"]),
                             ("zorua_map:tmt", "zorua_map", "tmt", "zorua_map"))
            self.assertEqual(row["params"]["Sets"], "1")           # blocks.ini smoke_params
            self.assertRegex(row["param_sources"]["RowW"], r"synth/blocks\.ini:\d+$")
            arr = row["numbers"]["arrays"][0]
            self.assertEqual((arr["name"], arr["entries"], arr["width"]), ("tab_q", 8, 3))  # {Rows*Sets}x{PW+1}
            self.assertTrue(os.path.isfile(os.path.join(out, "zorua_map.tmt", "flops", "mapped.json")))
            self.assertIn("zorua_map:tmt", proc.stdout)
            tmt = {c["key"]: c for c in data["papers"]}["zorua-tmt"]
            self.assertEqual(tmt["heddle_blocks"], ["zorua_map:tmt"])

    def test_buffer_inputs_buffers_a_high_fanout_flip_flop(self):
        crit = {}
        for flag in ("false", "true"):
            with tempfile.TemporaryDirectory() as d:
                proc, data = self.run_flow(d, "fan", self.FAN, ini_extra=f"buffer_inputs = {flag}\n")
                self.assertEqual(proc.returncode, 0, proc.stderr)
                crit[flag] = data["blocks"][0]["numbers"]["timing"]["crit_ps"]
                with open(os.path.join(d, "out", "fan", "flops", "synth.ys"), encoding="utf-8") as f:
                    self.assertEqual(" -constr " in f.read(), flag == "true")
                if flag == "true":
                    with open(os.path.join(d, "out", "fan", "flops", "abc.constr"), encoding="utf-8") as f:
                        self.assertRegex(f.read(), r"^set_driving_cell INVX1\nset_load 3\d\.\d+\n$")
        # unbuffered, the select flip-flop drives 256 inputs on its own
        self.assertLess(crit["true"] * 2, crit["false"], crit)

    def test_user_liberty_replaces_osu018(self):
        with tempfile.TemporaryDirectory() as d:
            proc, base = self.run_flow(d, "memblk", self.MEM)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(OSU, encoding="utf-8") as f:
                text = f.read()
            lib2 = write(os.path.join(d, "big", "twice.lib"),
                         text.replace("library(osu018_stdcells)", "library(twice)")
                         .replace("area : 24;", "area : 48;"))     # NAND2X1 and others doubled
            proc, data = self.run_flow(d, "memblk", self.MEM, ("--liberty", lib2))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            lib = data["meta"]["library"]
            self.assertEqual((lib["name"], lib["area_source"], lib["spice"]), ("twice", "liberty", None))
            self.assertAlmostEqual(lib["nand2_um2"], 48.0)
            self.assertIsNone(data["blocks"][0]["numbers"]["mapped"]["transistors"])
            self.assertAlmostEqual(lib["fo4_ps"], base["meta"]["library"]["fo4_ps"], places=6)


if __name__ == "__main__":
    unittest.main()
