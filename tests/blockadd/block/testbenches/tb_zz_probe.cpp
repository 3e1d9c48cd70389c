// SPDX-License-Identifier: MIT
// tb_zz_probe.cpp - SystemC testbench of tests/blockadd's throwaway block zz_probe (Verilator
// --sc): random samples, runs of large ones that saturate the sum, every output compared with
// the C reference every cycle (tb_harness.h), and the reference's idle test.
extern "C" {
#include "zz_probe.h"
}
#include "Vzz_probe.h"
#define HD_PORTS_DEF "zz_probe_ports.def"
#define TB_TOP Vzz_probe
#define TB_IN struct hd_zz_probe_in
#define TB_OUT struct hd_zz_probe_out
#define TB_STATE struct hd_zz_probe_state
#define TB_REF_RESET hd_zz_probe_ref_reset
#define TB_REF_STEP hd_zz_probe_ref_step
#define TB_BLOCK hd_zz_probe_block
#define TB_REF_IDLE hd_zz_probe_ref_idle
#include "tb_harness.h"

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    while (stim.size() < o.cycles) {
        TB_IN in;
        std::memset(&in, 0, sizeof in);
        in.valid_i = r.below(3) != 0;
        // every 4,000 cycles a run of 300 large samples: the sum saturates
        in.data_i = (stim.size() % 4000) < 300 ? 200 + r.below(56) : r.below(256);
        stim.push_back(in);
    }
    uint64_t saturated = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) { saturated += out.sum_o == 0xffff; };
    int rc = tb::run("tb_zz_probe", o, stim, cover);
    std::printf("tb_zz_probe: %" PRIu64 " cycles at the saturated sum\n", saturated);
    return rc;
}
