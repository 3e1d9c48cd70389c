// SPDX-License-Identifier: MIT
// tb_ccbp_irc.cpp - SystemC testbench of ccbp_irc (Verilator --sc): directed cases first (an LS
// request passing an older BI one, a BI application brought to its quota and passed over, every
// request over quota so the queue waits, the ungated class, a window closing with a request in
// its last edge, an unlimited counter saturating); then seeded random configuration writes,
// selects over random per-class heads, requests sent and 200-cycle ticks (with extra random
// ticks), reads, a reset mid-stream; every output compared with the C reference every cycle;
// every select result checked against a software IRC (its own counters from the inputs: the
// chosen class is under quota, no eligible LS class is older, no eligible class is older when
// no LS class is eligible); coverage bins of ccbp_irc_cover.def.
extern "C" {
#include "ccbp_irc.h"
}
#include "Vccbp_irc.h"
#define HD_PORTS_DEF "ccbp_irc_ports.def"
#define TB_TOP Vccbp_irc
#define TB_IN struct hd_ccbp_irc_in
#define TB_OUT struct hd_ccbp_irc_out
#define TB_STATE struct hd_ccbp_irc_state
#define TB_REF_RESET hd_ccbp_irc_ref_reset
#define TB_REF_STEP hd_ccbp_irc_ref_step
#define TB_BLOCK hd_ccbp_irc_block
#define TB_REF_IDLE hd_ccbp_irc_ref_idle
#include "tb_harness.h"

static const unsigned kA = CCBP_IRC_A, kIW = CCBP_IRC_IW, kCW = CCBP_IRC_CW;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN cfg(unsigned a, unsigned quota, unsigned ls)
{
    TB_IN in = zero();
    in.cfg_v_i = 1;
    in.cfg_app_i = a;
    in.cfg_quota_i = quota;
    in.cfg_ls_i = ls;
    return in;
}

static void head(TB_IN &in, unsigned c, unsigned idx)
{
    in.sel_v_i = 1;
    in.head_v_i |= 1u << c;
    in.head_idx_i = hd_ccbp_irc_field_set(in.head_idx_i, c, kIW, idx);
}

static TB_IN iss(unsigned a)
{
    TB_IN in = zero();
    in.iss_v_i = 1;
    in.iss_app_i = a;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero()); // two idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    stim.push_back(cfg(0, 3, 0)); // app 0: BI, 3 requests per window
    stim.push_back(cfg(1, 0, 1)); // app 1: LS, unlimited
    stim.push_back(cfg(2, 2, 0)); // app 2: BI, 2 per window
    TB_IN in = zero();
    head(in, 0, 0); // the BI request is older, the LS one goes (ls_first)
    head(in, 1, 5);
    stim.push_back(in);
    for (int k = 0; k < 3; k++)
        stim.push_back(iss(0)); // app 0 at its quota
    in = zero();
    head(in, 0, 0); // app 0 over quota: app 2's younger request goes (sel_skip)
    head(in, 2, 3);
    in.rd_v_i = 1;
    stim.push_back(in);
    in = zero();
    head(in, 0, 0); // only app 0: the queue waits (sel_none)
    stim.push_back(in);
    in = zero();
    head(in, 0, 0); // the ungated class always goes
    head(in, kA, 4);
    stim.push_back(in);
    in = iss(2);
    in.tick_i = 1; // a request in the window's last edge, then the tick: atq for 0
    stim.push_back(in);
    in = zero();
    head(in, 0, 0); // a new window: app 0 goes again from the head (sel_fifo)
    stim.push_back(in);
    for (unsigned k = 0; k < (1u << kCW) + 3; k++) // app 3 unlimited: its counter saturates
        stim.push_back(iss(3));
    in = zero();
    in.rd_v_i = 1; // read saturated, then read in the tick's edge: all 0
    stim.push_back(in);
    in = zero();
    in.rd_v_i = 1;
    in.tick_i = 1;
    stim.push_back(in);
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        size_t c = stim.size();
        if (c == o.cycles / 2)
            resets.push_back(c);
        TB_IN x = zero();
        if (r.below(40) == 0) { // small quotas so that they bind, LS on about a third
            x.cfg_v_i = 1;
            x.cfg_app_i = r.below(kA);
            x.cfg_quota_i = r.below(4) == 0 ? 0 : r.below(12);
            x.cfg_ls_i = r.below(3) == 0;
        }
        if (r.below(4) != 0) {
            x.sel_v_i = 1;
            x.head_v_i = r.below(1u << (kA + 1));
            for (unsigned k = 0; k <= kA; k++) // positions over the queue, often near the head
                x.head_idx_i = hd_ccbp_irc_field_set(x.head_idx_i, k, kIW,
                                                     r.below(2) ? r.below(8) : r.below(1u << kIW));
        }
        if (r.below(2) == 0) {
            x.iss_v_i = 1;
            x.iss_app_i = r.below(kA);
        }
        x.tick_i = (c % 200) == 199 || r.below(500) == 0;
        x.rd_v_i = r.below(3) == 0;
        stim.push_back(x);
    }
    // Software IRC, independent of the reference: its own counters and quotas from the inputs.
    uint32_t cnt[8] = {0}, quota[8] = {0};
    bool ls[8] = {false};
    bool want_sel = false;
    TB_IN prev = zero();
    uint32_t pcnt[8] = {0}, pquota[8] = {0};
    bool pls[8] = {false};
    uint64_t sels = 0, hits = 0, wrong = 0;
    size_t cyc = 0;
    auto bad = [&](const char *what) {
        if (wrong++ < 10)
            std::printf("tb_ccbp_irc: cycle %zu: select %s (software IRC)\n", cyc, what);
    };
    auto check = [&](const TB_IN &i, const TB_OUT &out) {
        if (!resets.empty() && cyc == resets[0]) {
            std::memset(cnt, 0, sizeof cnt);
            std::memset(quota, 0, sizeof quota);
            std::memset(ls, 0, sizeof ls);
            want_sel = false;
        }
        cyc++;
        if (want_sel) { // the previous cycle's select, on the state before its edge
            sels++;
            int best = -1, best_ls = -1;
            unsigned bi = 0, bli = 0;
            for (unsigned c = 0; c <= kA; c++) {
                bool el = ((prev.head_v_i >> c) & 1u) &&
                          (c == kA || pquota[c] == 0 || pcnt[c] < pquota[c]);
                unsigned x = (unsigned)hd_ccbp_irc_field(prev.head_idx_i, c, kIW);
                if (el && (best < 0 || x < bi))
                    best = (int)c, bi = x;
                if (el && c < kA && pls[c] && (best_ls < 0 || x < bli))
                    best_ls = (int)c, bli = x;
            }
            if (!out.sel_v_o)
                bad("result missing");
            else if ((best >= 0) != (bool)out.sel_hit_o)
                bad(out.sel_hit_o ? "granted with nothing eligible" : "held with a request eligible");
            else if (best_ls >= 0 && (out.sel_idx_o != bli || out.sel_app_o != (unsigned)best_ls))
                bad("did not take the oldest eligible LS request");
            else if (best_ls < 0 && best >= 0 && (out.sel_idx_o != bi || out.sel_app_o != (unsigned)best))
                bad("did not take the oldest eligible request");
            hits += out.sel_hit_o;
        }
        std::memcpy(pcnt, cnt, sizeof cnt);
        std::memcpy(pquota, quota, sizeof quota);
        std::memcpy(pls, ls, sizeof ls);
        prev = i;
        want_sel = i.sel_v_i;
        if (i.cfg_v_i)
            quota[i.cfg_app_i] = (uint32_t)i.cfg_quota_i, ls[i.cfg_app_i] = i.cfg_ls_i;
        if (i.iss_v_i && cnt[i.iss_app_i] < (1u << kCW) - 1)
            cnt[i.iss_app_i]++;
        if (i.tick_i)
            std::memset(cnt, 0, sizeof cnt);
    };
    int rc = tb::run("tb_ccbp_irc", o, stim, check, resets);
    std::printf("tb_ccbp_irc: %" PRIu64 " selects (%" PRIu64 " granted) checked against a software IRC, %" PRIu64 " wrong\n",
                sels, hits, wrong);
    for (unsigned c = 0; c <= kA; c++) { // the packed-field helpers leave the neighbours alone
        uint64_t all = (1ull << ((kA + 1) * kIW)) - 1, v = hd_ccbp_irc_field_set(all, c, kIW, 0);
        if (v != (all & ~(((1ull << kIW) - 1) << (c * kIW))) || hd_ccbp_irc_field(all, c, kIW) != (1u << kIW) - 1) {
            std::printf("tb_ccbp_irc: field helpers wrong for field %u\n", c);
            rc = 1;
        }
    }
    return rc != 0 ? rc : wrong == 0 && hits > 1000 ? 0 : 1;
}
