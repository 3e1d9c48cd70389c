// SPDX-License-Identifier: MIT
// tb_zorua_coord.cpp - SystemC testbench of zorua_coord (Verilator --sc), Zorua's coordinator:
// first the Figure 11 walkthrough (tests/unit/zorua_fig11.h: block arrivals, the queues, a
// phase specifier's release, a barrier with the deadlock floor, exits and a block's end), every
// step's expected outputs checked on the reference (Fermi configuration), then seeded random
// SM lives driven from a shadow copy of the reference (blocks of 1-64 warps arriving when asked
// and sometimes not, phase specifiers growing and shrinking registers and scratchpad, barriers,
// exits, refused events, each kernel shape under either reading of the block request and of the
// floor (vreq_i, fbar_i; session 19), idle and memory-stall cycles whose mix changes per epoch so that
// o_thresh walks up to its ceiling and down to 0, inactive stretches) and a reset mid-stream,
// then directed boundaries (exact register and scratchpad fits at odd thresholds, an arrival and
// a phase specifier at the tables' limits, level and exactly-16 epochs; bins "exact ...";
// epochs ending on an idle and on a memory-stall cycle, bin "epoch ends busy").
// Every output compared with the C reference every cycle; coverage bins (all required); a
// self-check of the reference's refusal of a bad configuration (hd_zorua_coord_ref_init).
extern "C" {
#include "zorua_coord.h"
}
#include "../tests/unit/zorua_fig11.h"
#include "Vzorua_coord.h"
#define HD_PORTS_DEF "zorua_coord_ports.def"
#define TB_TOP Vzorua_coord
#define TB_IN struct hd_zorua_coord_in
#define TB_OUT struct hd_zorua_coord_out
#define TB_STATE struct hd_zorua_coord_state
#define TB_REF_RESET hd_zorua_coord_ref_reset
#define TB_REF_STEP hd_zorua_coord_ref_step
#define TB_BLOCK hd_zorua_coord_block
#define TB_REF_IDLE hd_zorua_coord_ref_idle
#include "tb_harness.h"

static const bool kFermi = ZORUA_COORD_PhysReg == 256 && ZORUA_COORD_PhysSmem == 48 &&
                           ZORUA_COORD_PhysSlot == 48 && ZORUA_COORD_Floor == 10 &&
                           ZORUA_COORD_PctInit == 10 && ZORUA_COORD_Warps == 64;

namespace {
struct Gen {
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    TB_STATE sh;
    TB_OUT o;
    Gen()
    {
        hd_zorua_coord_ref_reset(&sh);
        std::memset(&o, 0, sizeof o);
    }
    void push(const TB_IN &in)
    {
        stim.push_back(in);
        hd_zorua_coord_ref_step(&sh, &in, &o);
    }
    void reset_here()
    {
        resets.push_back(stim.size());
        hd_zorua_coord_ref_reset(&sh);
    }
};
} // namespace

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    // The reference's refusal of a configuration (hd_zorua_coord_ref_init; its checks are the
    // header's, unit-tested in test_zorua_coord_block): -1 and the message in the caller's
    // buffer, nothing written without a buffer (NULL, or length 0); the built one: 0.
    bool refusal_ok = true;
    {
        struct hd_zorua_coord_cfg bad = HD_ZCO_CFG(ZORUA_COORD_);
        bad.warps = 0;
        static TB_STATE t;
        char err[160] = "", none[4] = "x";
        const int r1 = hd_zorua_coord_ref_init(&t, &bad, err, sizeof err);
        const int r2 = hd_zorua_coord_ref_init(&t, &bad, nullptr, sizeof err);
        const int r3 = hd_zorua_coord_ref_init(&t, &bad, none, 0);
        const struct hd_zorua_coord_cfg good = HD_ZCO_CFG(ZORUA_COORD_);
        const int r0 = hd_zorua_coord_ref_init(&t, &good, none, sizeof none); // 0, nothing written
        static const char want[] = "zorua_coord: configuration refused: 1..128 logical warps";
        refusal_ok = r0 == 0 && r1 < 0 && r2 < 0 && r3 < 0 &&
                     std::strncmp(err, want, sizeof want - 1) == 0 && std::strcmp(none, "x") == 0;
        if (!refusal_ok)
            std::printf("tb_zorua_coord: SELF-CHECK the refusal of 0 warps: %d %d %d \"%s\", "
                        "the built configuration: %d\n", r1, r2, r3, err, r0);
    }
    Gen g;
    static zf_list fig;
    zf_build(&fig);
    for (unsigned k = 0; k < fig.n; k++)
        g.push(fig.s[k].in);
    const uint64_t fig_end = g.stim.size();
    // Random lives in two parts, each after a reset (so that epochs start with the part), with
    // the idle and memory-stall cycles of each epoch scheduled (the first N active cycles of the
    // epoch; short inactive stretches inside, as epochs count active cycles only), so that every
    // decision of Algorithm 1 hangs on one cycle: part A walks o_thresh from 10% down to 0 and up
    // again, part B from 10% up to the 30% ceiling; then longer inactive stretches and random
    // idleness. Part A (idle, mem) per epoch: (0,17) down, (0,34) down, (0,34) level (a memory
    // count equal to the previous epoch's: no change, unless the previous count is lost),
    // (0,51) down to 0 (clamped), (17,51) up to 4% (odd thresholds: 1 scratchpad set, 1 slot),
    // (17,51) level, (33,51) a difference of exactly c_delta_thresh = 16 (no change; the previous
    // count 17 is odd), (50,51) up, (67,51) up; the reset follows with a previous idle count of 67
    // that must not survive it. Part B: idleness growing by 17 per epoch: 14, 18, ..., 30, 30.
    // The schedule runs in full (about 32,000 cycles) whatever --cycles asks; more cycles extend
    // the random tail.
    static const unsigned a_idle[9] = {0, 0, 0, 0, 17, 17, 33, 50, 67},
                          a_mem[9] = {17, 34, 34, 51, 51, 51, 51, 51, 51},
                          b_idle[6] = {17, 34, 51, 68, 85, 102};
    const size_t per1 = 9 * 2048 + 1, per2 = 6 * 2048; // active cycles of the two parts
    unsigned kw = 4, rmax = 8, smax = 4, part = 0;
    bool vmode = false, fmode = false; // session 19's readings (vreq_i, fbar_i), per kernel shape
    uint64_t vheld = 0, fkept = 0;     // their bins: a request held, the floor kept by waiters
    size_t act = 0; // active cycles in the part
    bool active = true;
    g.reset_here();
    while (g.stim.size() < o.cycles || part < 2) {
        const size_t c = g.stim.size();
        if (part == 0 && act == per1) {
            g.reset_here();
            part = 1;
            act = 0;
        } else if (part == 1 && act == per2)
            part = 2;
        if (part == 2 && g.stim.size() >= o.cycles)
            break;
        if (c % 700 == 0) { // a new kernel shape
            unsigned k = r.below(7);
            kw = k == 0 ? 1 : k == 1 ? 32 : k == 2 ? ZORUA_COORD_Warps : k == 3 ? 0 : 2 + r.below(14);
            rmax = 1 + r.below(ZORUA_COORD_RegSets);
            smax = r.below(ZORUA_COORD_SmemSets / 2);
            vmode = r.below(2) != 0;
            fmode = r.below(2) != 0;
        }
        active = part < 2 ? c % 1000 >= 30 : (c / 150) % 2 == 0;
        const size_t pos = act % 2048, ep = act / 2048;
        unsigned idle_n = 0, mem_n = 0;
        if (part == 0) {
            idle_n = a_idle[ep < 9 ? ep : 8];
            mem_n = a_mem[ep < 9 ? ep : 8];
        } else if (part == 1)
            idle_n = b_idle[ep < 6 ? ep : 5];
        const bool idle_c = part < 2 ? pos < idle_n : r.below(3) == 0;
        const bool mem_c = part < 2 ? pos < mem_n : r.below(3) == 0;
        act += active;
        TB_IN in;
        std::memset(&in, 0, sizeof in);
        in.active_i = active;
        in.kwarps_i = kw;
        in.idle_i = idle_c;
        in.mem_i = mem_c;
        in.vreq_i = vmode;
        in.fbar_i = fmode;
        if ((g.o.tb_req_o && r.below(6) == 0) || r.below(300) == 0) {
            in.tb_v_i = 1;
            in.tb_rsets_i = r.below(40) == 0 ? ZORUA_COORD_RegSets + 1 : r.below(rmax + 1);
            in.tb_ssets_i = r.below(smax + 1);
        }
        const uint32_t *sched = g.sh.q.sched_o;
        const bool any = hd_zco_count(sched) != 0;
        if (r.below(3) == 0) {
            in.ev_v_i = 1;
            unsigned w = r.below(ZORUA_COORD_Warps);
            for (unsigned t = 0; t < 8 && any && !hd_zco_bit(sched, w); t++)
                w = r.below(ZORUA_COORD_Warps);
            in.ev_warp_i = w;
            unsigned k = r.below(20);
            in.ev_kind_i = k < 9 ? HD_ZCO_PHASE : k < 15 ? HD_ZCO_BARRIER : k < 19 ? HD_ZCO_EXIT : 3;
            in.ev_rsets_i = r.below(50) == 0 ? ZORUA_COORD_RegSets + 1 : r.below(rmax + 1);
            in.ev_ssets_i = r.below(50) == 0 ? ZORUA_COORD_SmemSets + 1 : r.below(smax + 3);
        }
        g.push(in);
        { // the bins of the two readings, on the state after the edge
            const TB_STATE &s = g.sh;
            unsigned live = 0, nsch = 0, nbar = 0;
            bool wait[HD_ZCO_BLOCKS_MAX] = {false}, bfree = false;
            for (unsigned w = 0; w < ZORUA_COORD_Warps; w++) {
                live += s.w[w].live;
                nsch += s.w[w].sched;
                if (s.w[w].live && s.w[w].pend && !s.w[w].bar)
                    wait[s.w[w].blk] = true;
            }
            for (unsigned w = 0; w < ZORUA_COORD_Warps; w++)
                nbar += s.w[w].bar && !wait[s.w[w].blk];
            for (unsigned k = 0; k < ZORUA_COORD_Blocks; k++)
                bfree |= !s.b[k].live;
            vheld += vmode && active && !s.q.tb_req_o &&
                     hd_zorua_coord_room(live, kw, ZORUA_COORD_Warps, bfree, ZORUA_COORD_PhysSlot,
                                         s.oth[HD_ZCO_SLOT], false);
            fkept += fmode && nsch < ZORUA_COORD_Floor && nsch + nbar >= ZORUA_COORD_Floor;
        }
    }
    // Directed boundaries (after a reset each; the mutation review of the full run's survivors,
    // testbenches/mutants/zorua_coord.open): (1) with epochs frozen (inactive), registers
    // allocated to exactly PhysReg + o_thresh (25 sets over 256 at 10 % on Fermi: an odd
    // threshold) by a block of RegSets-set warps and a warp of the rest, which must be admitted
    // with Floor warps schedulable; an arrival of exactly the free warps asking RegSets and
    // SmemSets; a phase specifier asking RegSets and SmemSets. (2) Epochs with both counts up
    // by the same amount (a level epoch: Algorithm 1 compares differences, not sums), a memory
    // difference of exactly c_delta_thresh (no change), then down to 0 and up to 4 % (the
    // scratchpad threshold 1 set, odd); then, frozen, a block holding all 48 scratchpad sets
    // and a warp of a second block asking one more set, exactly PhysSmem + o_thresh.
    uint64_t dir_reg = 0, dir_smem = 0, dir_arr = 0, dir_ev = 0;
    auto idle_push = [&](unsigned n, bool active, unsigned idle_n, unsigned mem_n) {
        for (unsigned k = 0; k < n; k++) {
            TB_IN in;
            std::memset(&in, 0, sizeof in);
            in.active_i = active;
            in.idle_i = k < idle_n;
            in.mem_i = k < mem_n;
            g.push(in);
        }
    };
    auto arrive = [&](unsigned kw, unsigned rs, unsigned ss) {
        TB_IN in;
        std::memset(&in, 0, sizeof in);
        in.kwarps_i = kw;
        in.tb_v_i = 1;
        in.tb_rsets_i = rs;
        in.tb_ssets_i = ss;
        g.push(in);
        const bool ok = g.sh.q.arr_ok_o != 0;
        idle_push(kw + 4, false, 0, 0); // one admission per cycle
        return ok;
    };
    auto nsched = [&]() { return hd_zco_count(g.sh.q.sched_o); };
    {
        g.reset_here();
        const unsigned rs = ZORUA_COORD_RegSets,
                       tot = ZORUA_COORD_PhysReg + ZORUA_COORD_PctInit * ZORUA_COORD_PhysReg / 100,
                       n = tot / rs, rest = tot % rs;
        if (n + 1 <= ZORUA_COORD_Warps && n >= ZORUA_COORD_Floor && rest) {
            arrive(n, rs, 0);
            const unsigned before = nsched();
            arrive(1, rest, 0);
            dir_reg = before == n && nsched() == n + 1; // the last warp fits exactly
            const unsigned nfree = ZORUA_COORD_Warps - (n + 1);
            dir_arr = arrive(nfree, rs, ZORUA_COORD_SmemSets);
            TB_IN in;
            std::memset(&in, 0, sizeof in);
            in.ev_v_i = 1;
            in.ev_kind_i = HD_ZCO_PHASE;
            in.ev_warp_i = 0; // schedulable since the first block
            in.ev_rsets_i = rs;
            in.ev_ssets_i = ZORUA_COORD_SmemSets;
            g.push(in);
            dir_ev = g.sh.q.ev_ok_o != 0;
            idle_push(8, false, 0, 0);
        }
    }
    {
        g.reset_here();
        static const unsigned e_idle[7] = {0, 100, 100, 100, 100, 100, 117},
                              e_mem[7] = {0, 100, 116, 133, 150, 167, 167};
        for (unsigned e = 0; e < 7; e++)
            idle_push(ZORUA_COORD_Epoch, true, e_idle[e], e_mem[e]);
        const unsigned sth = g.sh.oth[HD_ZCO_SMEM]; // 4 % of 48 sets: 1 (of Maxwell's 64: 2)
        idle_push(2, false, 0, 0);
        arrive(16, 1, ZORUA_COORD_SmemSets);
        const unsigned before = nsched();
        arrive(1, 1, sth);
        dir_smem = sth >= 1 && before == 16 && nsched() == 17;
    }
    // (3) Epochs whose last active cycle is an idle cycle, then one whose last is a memory
    // stall (every scheduled epoch above ends on a quiet cycle), each at c_delta_thresh + 1:
    // a level epoch, then DeltaTh + 1 idle cycles ending the epoch (o_thresh rises by one step),
    // then as many idle cycles and DeltaTh + 1 stalls ending the epoch (it falls back). The
    // last cycle's bit counted with the wrong sign, or not at all, leaves a difference of 15
    // or 16 and o_thresh held.
    uint64_t dir_last = 0;
    {
        g.reset_here();
        auto end_push = [&](unsigned idle_n, unsigned mem_n) {
            for (unsigned k = 0; k < ZORUA_COORD_Epoch; k++) {
                TB_IN in;
                std::memset(&in, 0, sizeof in);
                in.active_i = 1;
                in.idle_i = k + idle_n >= ZORUA_COORD_Epoch;
                in.mem_i = k + mem_n >= ZORUA_COORD_Epoch;
                g.push(in);
            }
            return g.sh.pct;
        };
        const unsigned d = ZORUA_COORD_DeltaTh + 1;
        const unsigned level = end_push(0, 0), up = end_push(d, 0), down = end_push(d, d);
        dir_last = level == ZORUA_COORD_PctInit && up == level + ZORUA_COORD_PctStep &&
                   down == level;
        idle_push(4, false, 0, 0);
    }
    enum { FIG11, FORCED_IN_FIG, PCT_ROSE, PCT_FELL, PCT_HELD, ODD_TH, EXACT_REG, EXACT_SMEM,
           EXACT_ARR, EXACT_EV, VREQ_HELD, FLOOR_KEPT, EPOCH_LAST, NBINS };
    static const char *const names[NBINS] = {
        "Figure 11 steps", "floor in Figure 11", "o_thresh rose", "o_thresh fell",
        "o_thresh held", "odd thresholds", "exact register fit", "exact scratchpad fit",
        "arrival at the limits", "phase at the limits", "request held (vreq)",
        "floor kept (fbar)", "epoch ends busy"};
    uint64_t cov[NBINS] = {0};
    cov[EXACT_REG] = dir_reg;
    cov[EXACT_SMEM] = dir_smem;
    cov[EXACT_ARR] = dir_arr;
    cov[EXACT_EV] = dir_ev;
    cov[VREQ_HELD] = vheld;
    cov[FLOOR_KEPT] = fkept;
    cov[EPOCH_LAST] = dir_last;
    uint64_t cyc = 0, fig_bad = 0, last_pct = ZORUA_COORD_PctInit;
    auto cover = [&](const TB_IN &in, const TB_OUT &out) {
        (void)in;
        if (kFermi && cyc >= 1 && cyc <= fig_end && cyc - 1 < fig.n) {
            char msg[400];
            unsigned bad = zf_check(&fig.s[cyc - 1], &out, msg, sizeof msg);
            if (bad && fig_bad++ < 10)
                std::printf("tb_zorua_coord: Figure 11 step %" PRIu64 " \"%s\":%s\n", cyc - 1,
                            fig.s[cyc - 1].what, msg);
            if (!bad && cyc == fig_end)
                cov[FIG11] = fig_bad == 0;
            if (out.gr_force_o)
                cov[FORCED_IN_FIG]++;
        }
        if (out.ep_v_o) {
            if (out.ep_pct_o > last_pct)
                cov[PCT_ROSE]++;
            if (out.ep_pct_o < last_pct)
                cov[PCT_FELL]++;
            if (out.ep_pct_o == last_pct && out.ep_pct_o != 0)
                cov[PCT_HELD]++;
            if ((out.ep_sth_o & 1u) && (out.ep_tth_o & 1u))
                cov[ODD_TH]++;
            last_pct = out.ep_pct_o;
        }
        cyc++;
    };
    if (!kFermi) // another configuration: the walkthrough's numbers are Fermi's
        cov[FIG11] = cov[FORCED_IN_FIG] = 1;
    int rc = tb::run("tb_zorua_coord", o, g.stim, cover, g.resets);
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-22s %8" PRIu64 "\n", names[b], cov[b]);
        hit += cov[b] != 0;
    }
    std::printf("tb_zorua_coord: %u of %u bins covered; Figure 11: %u steps, %" PRIu64
                " mismatching\n", hit, NBINS, fig.n, fig_bad);
    return rc != 0 ? rc : hit == NBINS && refusal_ok ? 0 : 1;
}
