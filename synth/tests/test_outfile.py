# SPDX-License-Identifier: MIT
"""The synthesis reports are written atomically and never over an input (synth/hdsynth/outfile.py,
issue 17): a writer killed with SIGKILL in the middle of a report leaves the old file; a complete
write replaces it whole and leaves no temporary file; a link is followed and kept; `--json` naming
an input (the papers' table, the GPU configuration) or synth.txt is refused before the run, with
the input unchanged. No tool is run (< 1 s).
Run: python3 -m unittest discover -s synth/tests (CTest synth_unit).
"""

import glob
import os
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SYNTH = os.path.dirname(HERE)
sys.path.insert(0, SYNTH)

from hdsynth import main, outfile  # noqa: E402
from hdsynth.errors import FlowError  # noqa: E402

KILLER = """
import os, signal, sys
sys.path.insert(0, sys.argv[1])
from hdsynth import outfile
def chunks():
    yield "NEW PART ONE\\n" * 10000
    os.kill(os.getpid(), signal.SIGKILL)  # half way through the report
    yield "NEW PART TWO\\n"
outfile.write_atomic(sys.argv[2], chunks())
"""


class AtomicTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def put(self, name, text):
        p = os.path.join(self.d, name)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return p

    def read(self, p):
        with open(p, encoding="utf-8") as f:
            return f.read()

    def temps(self):
        return glob.glob(os.path.join(self.d, ".*.tmp-*"))

    def test_sigkill_keeps_old(self):
        p = self.put("synth.json", "OLD\n")
        r = subprocess.run([sys.executable, "-c", KILLER, SYNTH, p])
        self.assertEqual(r.returncode, -signal.SIGKILL)
        self.assertEqual(self.read(p), "OLD\n")
        self.assertEqual(len(self.temps()), 1)  # the killed write's temporary file

    def test_complete_write_replaces(self):
        p = self.put("synth.txt", "OLD\n")
        os.chmod(p, 0o640)
        outfile.write_atomic(p, ["A\n", "B\n"])
        self.assertEqual(self.read(p), "A\nB\n")
        self.assertEqual(os.stat(p).st_mode & 0o777, 0o640)  # permissions kept
        self.assertEqual(self.temps(), [])

    def test_failed_write_keeps_old(self):
        p = self.put("synth.txt", "OLD\n")

        def chunks():
            yield "NEW\n"
            raise RuntimeError("generator failed")
        with self.assertRaises(RuntimeError):
            outfile.write_atomic(p, chunks())
        self.assertEqual(self.read(p), "OLD\n")
        self.assertEqual(self.temps(), [])

    def test_link_followed_and_kept(self):
        t = self.put("target.json", "OLD\n")
        link = os.path.join(self.d, "link.json")
        os.symlink("target.json", link)
        outfile.write_atomic(link, "NEW\n")
        self.assertTrue(os.path.islink(link))
        self.assertEqual(self.read(t), "NEW\n")

    def test_directory_refused(self):
        with self.assertRaisesRegex(FlowError, "is a directory"):
            outfile.write_atomic(self.d, "x")

    def test_json_over_input_refused(self):
        papers = self.put("papers.ini", "[x]\n")
        with self.assertRaisesRegex(FlowError, "would overwrite the input --papers"):
            outfile.check_paths([("--papers", papers)],
                                [("--json", os.path.join(self.d, ".", "papers.ini"))])
        with self.assertRaisesRegex(FlowError, "write the same file"):
            out = os.path.join(self.d, "synth.txt")
            outfile.check_paths([], [("--json", out), ("synth.txt", out)])
        outfile.check_paths([("--papers", papers)], [("--json", "/dev/null")])

    def test_main_refuses_before_running(self):
        # the whole flow: --json naming the GPU configuration stops before any tool, exit 2
        gpu = self.put("gpu.ini", "[gpu]\nnum_sms = 15\n[clock]\ncore_mhz = 700\n")
        rc = main.main(["--gpu-config", gpu, "--json", gpu, "--out", os.path.join(self.d, "o")])
        self.assertEqual(rc, 2)
        self.assertEqual(self.read(gpu), "[gpu]\nnum_sms = 15\n[clock]\ncore_mhz = 700\n")
        self.assertFalse(os.path.exists(os.path.join(self.d, "o")))


if __name__ == "__main__":
    unittest.main()
