// SPDX-License-Identifier: MIT
// tb_ccbp_ctrl.cpp - SystemC testbench of ccbp_ctrl (Verilator --sc): Algorithm 1 (Lin thesis
// §4.5.2, digest §2.17) as the controller's FSM. Scenarios in turn: checked ones (a full
// profile written, a run, every result read back; the run's end, its iteration count, every
// CTA count, share and quota checked against a software Algorithm 1 in this file, written from
// the algorithm in long double on the values the tables hold, independent of the reference) and
// wild ones (random writes of every selector with full-range values, starts and restarts during
// runs, reads at any time: checked only cycle by cycle against the C reference). The first
// checked scenario is the hand trace of tests/unit/test_ccbp_alg1.c (LS + NBI -> (2, 2), NBW
// 35 %); directed ones reach a refusal by the request crossbar and one by the reply crossbar
// (session 26: CanAlloc per crossbar). A reset mid-stream; every output compared with the C reference every cycle; coverage
// bins of ccbp_ctrl_cover.def.
extern "C" {
#include "ccbp_ctrl.h"
}
#include "Vccbp_ctrl.h"
#define HD_PORTS_DEF "ccbp_ctrl_ports.def"
#define TB_TOP Vccbp_ctrl
#define TB_IN struct hd_ccbp_ctrl_in
#define TB_OUT struct hd_ccbp_ctrl_out
#define TB_STATE struct hd_ccbp_ctrl_state
#define TB_REF_RESET hd_ccbp_ctrl_ref_reset
#define TB_REF_STEP hd_ccbp_ctrl_ref_step
#define TB_BLOCK hd_ccbp_ctrl_block
#define TB_REF_IDLE hd_ccbp_ctrl_ref_idle
#include "tb_harness.h"

#include <cmath>
#include <map>

static const unsigned kA = CCBP_CTRL_A, kNM = CCBP_CTRL_NM;
static const uint32_t kOne = 1u << 16;

// One checked scenario, in the tables' raw units (Q8.16 shares, Q8.24 ratios). Per resource
// (0 other, 1 request crossbar, 2 reply crossbar) a curve and a ratio; the block's table holds
// the one it reads: the ratio for NBI / DBI where own is not 0, else the curve.
struct Prof {
    unsigned nk = 0, step = 1;
    unsigned type[8] = {0}, nmax[8] = {0};
    uint32_t own[8][64] = {{0}}, cur[3][8][64] = {{{0}}}, rat[3][8][64] = {{{0}}};
    uint32_t d[8] = {0}, qf[8] = {0}, dem[8][4] = {{0}}, cap[4] = {0}, nlim = 0, dlim = 0;
};
struct Res {
    unsigned cta[8] = {0}, steps = 0;
    uint32_t nbw[8] = {0}, dbw[8] = {0}, req[8] = {0}, rep[8] = {0};
};

static bool is_bw(unsigned type) { return type == 1 || type == 2; }

// The resource table's entry i at (a, n - 1) as written.
static uint32_t entry(const Prof &p, unsigned i, unsigned a, unsigned n)
{
    return is_bw(p.type[a]) && p.own[a][n] != 0 ? p.rat[i][a][n] : p.cur[i][a][n];
}

// Algorithm 1 in long double: shares in percent, the other share truncated to the table's
// 1/65536 % as the hardware keeps it.
static Res sw_alg1(const Prof &p)
{
    typedef long double R;
    Res r;
    R nb[8] = {0}, db[8] = {0}, rq[8] = {0}, rp[8] = {0};
    bool live[8] = {false};
    for (unsigned k = 0; k < p.nk; k++)
        live[k] = true;
    auto pct = [](uint32_t v) { return (R)v / 65536.0L; };
    auto x = [&](unsigned k) {
        return p.type[k] == 1 ? nb[k] : p.type[k] == 2 ? db[k] : (R)r.cta[k];
    };
    for (;;) {
        int k = -1;
        for (unsigned j = 0; j < kA; j++)
            if (live[j] && (k < 0 || x(j) / pct(p.d[j]) < x(k) / pct(p.d[k])))
                k = (int)j;
        if (k < 0)
            break;
        r.steps++;
        const bool bw = p.type[k] == 1 || p.type[k] == 2;
        const unsigned c0 = r.cta[k];
        R s = 0;
        unsigned c1 = c0 + 1;
        if (bw) {
            s = (p.type[k] == 1 ? nb[k] : db[k]) + 1.0L;
            c1 = (c0 ? pct(p.own[k][c0 - 1]) : 0.0L) < s ? c0 + 1 : c0;
        }
        if (c1 > p.nmax[k]) {
            live[k] = false;
            continue;
        }
        const R at = pct(p.own[k][c1 - 1]);
        R own = at, sh[3];
        for (unsigned i = 0; i < 3; i++)
            sh[i] = pct(p.cur[i][k][c1 - 1]);
        if (bw) {
            own = s;
            if (at != 0) // (the share's format saturates at 2^24 - 1 units)
                for (unsigned i = 0; i < 3; i++)
                    sh[i] = std::min(std::floor(s * ((R)p.rat[i][k][c1 - 1] / 16777216.0L) *
                                                65536.0L),
                                     (R)((1u << 24) - 1)) / 65536.0L;
        }
        const R n1 = p.type[k] == 2 ? sh[0] : own, d1 = p.type[k] == 2 ? own : sh[0];
        R rs = 0, ps = 0, ds = 0;
        bool fit = true;
        for (unsigned q = 0; q < 4; q++) {
            uint64_t use = 0;
            for (unsigned j = 0; j < kA; j++)
                use += (uint64_t)(j == (unsigned)k ? c1 : r.cta[j]) * p.dem[j][q];
            fit = fit && use <= p.cap[q];
        }
        for (unsigned j = 0; j < kA; j++) {
            rs += j == (unsigned)k ? sh[1] : rq[j];
            ps += j == (unsigned)k ? sh[2] : rp[j];
            ds += j == (unsigned)k ? d1 : db[j];
        }
        if (!fit || rs > pct(p.nlim) || ps > pct(p.nlim) || ds > pct(p.dlim)) {
            live[k] = false;
            continue;
        }
        r.cta[k] = c1;
        nb[k] = n1;
        db[k] = d1;
        rq[k] = sh[1];
        rp[k] = sh[2];
    }
    for (unsigned k = 0; k < kA; k++) {
        r.nbw[k] = (uint32_t)std::llround(nb[k] * 65536.0L);
        r.dbw[k] = (uint32_t)std::llround(db[k] * 65536.0L);
        r.req[k] = (uint32_t)std::llround(rq[k] * 65536.0L);
        r.rep[k] = (uint32_t)std::llround(rp[k] * 65536.0L);
    }
    return r;
}

static uint32_t sw_quota(const Prof &p, const Res &r, unsigned a)
{
    if ((p.type[a] != 1 && p.type[a] != 2) || !p.qf[a])
        return 0;
    const long double share = (p.type[a] == 1 ? r.nbw[a] : r.dbw[a]) / 65536.0L;
    const long double q = std::floor(share * (p.qf[a] / 65536.0L) + 0.5L);
    return q < 1 ? 1u : q > (1u << 20) - 1 ? (1u << 20) - 1 : (uint32_t)q;
}

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN wr(unsigned sel, unsigned app, unsigned idx, uint32_t data)
{
    TB_IN in = zero();
    in.wr_v_i = 1;
    in.wr_sel_i = sel;
    in.wr_app_i = app;
    in.wr_idx_i = idx;
    in.wr_data_i = data;
    return in;
}

// What a call of the check must see: a run's end or a read's value.
struct Want {
    bool done;
    uint64_t v;
    const char *what;
};

struct Gen {
    tb::Rng &r;
    std::vector<TB_IN> &stim;
    std::map<size_t, Want> &want;
    uint64_t runs = 0, reads = 0;

    void write_prof(const Prof &p)
    {
        for (unsigned a = 0; a < p.nk; a++) {
            stim.push_back(wr(3, a, 0, p.type[a]));
            stim.push_back(wr(4, a, 0, p.nmax[a]));
            stim.push_back(wr(5, a, 0, p.d[a]));
            stim.push_back(wr(6, a, 0, p.qf[a]));
            for (unsigned q = 0; q < 4; q++)
                stim.push_back(wr(7, a, q, p.dem[a][q]));
            for (unsigned n = 1; n <= p.nmax[a]; n++) {
                stim.push_back(wr(0, a, n, p.own[a][n - 1]));
                stim.push_back(wr(1, a, n, entry(p, 0, a, n - 1)));
                stim.push_back(wr(2, a, n, entry(p, 1, a, n - 1)));
                stim.push_back(wr(13, a, n, entry(p, 2, a, n - 1)));
            }
        }
        for (unsigned q = 0; q < 4; q++)
            stim.push_back(wr(8, 0, q, p.cap[q]));
        stim.push_back(wr(9, 0, 0, p.nlim));
        stim.push_back(wr(10, 0, 0, p.dlim));
        stim.push_back(wr(11, 0, 0, p.nk));
        stim.push_back(wr(12, 0, 0, p.step));
    }

    // Write p, run, read every result; the expectations from the software model.
    void checked(const Prof &p)
    {
        write_prof(p);
        const Res e = sw_alg1(p);
        const size_t s = stim.size();
        TB_IN st = zero();
        st.start_i = 1;
        stim.push_back(st);
        const unsigned per = p.step ? p.step : 1;
        const size_t done_edge = s + (size_t)(e.steps ? e.steps : 1) * per;
        while (stim.size() <= done_edge) { // idle, or a read of a result in the making
            TB_IN x = zero();
            if (r.below(8) == 0) {
                x.rd_v_i = 1;
                x.rd_app_i = r.below(kA);
                x.rd_sel_i = r.below(8);
            }
            stim.push_back(x);
        }
        want[done_edge + 1] = {true, e.steps, "the run's end and iterations"};
        runs++;
        for (unsigned extra = r.below(3); extra; extra--)
            stim.push_back(zero());
        for (unsigned a = 0; a < p.nk; a++)
            for (unsigned sel = 0; sel < 8; sel++) {
                TB_IN x = zero();
                x.rd_v_i = 1;
                x.rd_app_i = a;
                x.rd_sel_i = sel;
                const uint64_t v = sel == 0   ? e.cta[a]
                                   : sel == 1 ? e.nbw[a]
                                   : sel == 2 ? e.dbw[a]
                                   : sel == 3 ? sw_quota(p, e, a)
                                   : sel == 4 ? e.req[a]
                                   : sel == 5 ? e.rep[a]
                                              : 0;
                static const char *const what[8] = {"CTAs", "NoC share", "DRAM share", "quota",
                                                    "request-crossbar share",
                                                    "reply-crossbar share", "read 6", "read 7"};
                want[stim.size() + 1] = {false, v, what[sel]};
                stim.push_back(x);
                reads++;
            }
    }

    Prof random_prof()
    {
        Prof p;
        p.nk = r.below(12) == 0 ? 0 : 1 + r.below(kA);
        p.step = r.below(4); // 0 counts as 1
        const uint32_t ds[] = {50, 60, 70, 4, 8, 3};
        for (unsigned a = 0; a < kA; a++) {
            p.type[a] = r.below(4);
            p.nmax[a] = 1 + r.below(kNM < 8 ? kNM : 8);
            p.d[a] = (r.below(2) ? ds[r.below(6)] : 1 + r.below(100)) * kOne;
            p.qf[a] = r.below(16) == 0 ? 0xffff0000u : r.below(6) == 0 ? 0 : r.below(1u << 20);
            const bool bw = p.type[a] == 1 || p.type[a] == 2;
            uint32_t v = 0;
            for (unsigned n = 0; n < p.nmax[a]; n++) {
                v += bw ? (r.below(5) == 0 ? 0 : r.below(15 * kOne)) : r.below(8 * kOne);
                p.own[a][n] = v;
                for (unsigned i = 0; i < 3; i++) {
                    p.cur[i][a][n] = r.below(40 * kOne);
                    p.rat[i][a][n] = r.below(2u << 24);
                }
            }
            if (r.below(3) == 0)
                for (unsigned q = 0; q < 4; q++)
                    p.dem[a][q] = r.below(3) == 0 ? 0 : 1 + r.below(q == 3 ? 2 : 700);
        }
        for (unsigned q = 0; q < 4; q++)
            p.cap[q] = r.below(4) == 0 ? (1u << 24) - 1 : 500 + r.below(3000);
        p.nlim = (20 + r.below(81)) * kOne + r.below(kOne);
        p.dlim = (20 + r.below(81)) * kOne + r.below(kOne);
        return p;
    }

    // Random writes of every selector, starts and restarts, reads: the reference alone judges.
    void wild(unsigned len)
    {
        for (unsigned i = 0; i < len; i++) {
            TB_IN x = zero();
            if (r.below(2) == 0) {
                x.wr_v_i = 1;
                x.wr_sel_i = r.below(16);
                x.wr_app_i = r.below(kA);
                x.wr_idx_i = r.below(1u << CCBP_CTRL_NW);
                const unsigned kind = r.below(4);
                x.wr_data_i = kind == 0 ? r.next() : kind == 1 ? r.below(64)
                              : kind == 2 ? (x.wr_sel_i == 12 ? r.below(3) : r.below(60) * kOne)
                                          : r.below(1u << 24);
            }
            x.start_i = r.below(40) == 0;
            if (r.below(4) == 0) {
                x.rd_v_i = 1;
                x.rd_app_i = r.below(kA);
                x.rd_sel_i = r.below(8);
            }
            stim.push_back(x);
        }
    }
};

// The hand trace of tests/unit/test_ccbp_alg1.c: LS (nmax 4, 5 % per CTA) and NBI (NoC 20, 35,
// 45, 50 %; DRAM 2, 4, 6, 8 %), no per-CTA demand (shares CTA / nmax: resource 0 with a demand
// of 2^20 / 4 and a capacity of 2^20), D = 4 (LS: 1 / (1/4)) and 60 (NBI), limits 60 and 70 %.
static Prof hand_trace()
{
    Prof p;
    p.nk = 2;
    p.step = 1;
    p.type[0] = 0;
    p.type[1] = 1;
    p.nmax[0] = p.nmax[1] = 4;
    const uint32_t n1[] = {20, 35, 45, 50}, d1[] = {2, 4, 6, 8};
    for (unsigned n = 0; n < 4; n++) { // (both crossbars take the NoC curve: ratio 1)
        p.own[0][n] = p.cur[0][0][n] = p.cur[1][0][n] = p.cur[2][0][n] = 5 * (n + 1) * kOne;
        p.own[1][n] = n1[n] * kOne;
        p.cur[0][1][n] = d1[n] * kOne;
        p.rat[0][1][n] = (uint32_t)std::llround((double)d1[n] / n1[n] * 16777216.0);
        p.rat[1][1][n] = p.rat[2][1][n] = 1u << 24;
    }
    p.d[0] = 4 * kOne;
    p.d[1] = 60 * kOne;
    p.qf[1] = 34953; // 0.5333 requests per percent: 35 % -> 19 requests per SM-window
    p.dem[0][0] = p.dem[1][0] = 1u << 18;
    p.cap[0] = 1u << 20;
    p.cap[1] = p.cap[2] = p.cap[3] = (1u << 24) - 1;
    p.nlim = 60 * kOne;
    p.dlim = 70 * kOne;
    return p;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    std::map<size_t, Want> want;
    Gen g{r, stim, want};
    stim.push_back(zero()); // two idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    const Prof h = hand_trace();
    const Res hr = sw_alg1(h);
    g.checked(h);
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        if (resets.empty() && stim.size() >= o.cycles / 2) {
            stim.push_back(zero()); // (the last read's result comes before the reset)
            resets.push_back(stim.size()); // (a checked scenario writes everything it reads)
        }
        if (r.below(4) == 0)
            g.wild(50 + r.below(200));
        g.checked(g.random_prof());
    }
    // The tail, after a second reset (the stream before it is unchanged by it): the reset values
    // seen (every result read at once, a start with nothing written, a run on the tables,
    // divisors, demands, capacities and limits as reset, one on the ratio as reset), then
    // corner profiles: every application to NM CTAs (the tables' last entries), exact limits
    // (a sum equal to a limit; an odd and an even limit), exact capacities, odd and even
    // divisors in a tie, large ratios (saturated other share), and a run that never ends (a NoC
    // limit of 256 %: the own share saturates) with the quota factor whose rounding carries.
    stim.push_back(zero());
    resets.push_back(stim.size());
    auto rd_all = [&]() {
        for (unsigned a = 0; a < kA; a++)
            for (unsigned sel = 0; sel < 8; sel++) {
                TB_IN x = zero();
                x.rd_v_i = 1;
                x.rd_app_i = a;
                x.rd_sel_i = sel;
                stim.push_back(x);
            }
    };
    auto start_wait = [&](unsigned n) {
        TB_IN x = zero();
        x.start_i = 1;
        stim.push_back(x);
        for (unsigned i = 0; i < n; i++)
            stim.push_back(zero());
    };
    rd_all();
    start_wait(4);
    rd_all();
    stim.push_back(wr(11, 0, 0, kA));
    for (unsigned a = 0; a < kA; a++)
        stim.push_back(wr(4, a, 0, kNM));
    stim.push_back(wr(3, 1, 0, 1));
    start_wait(kA * kNM + 20);
    rd_all();
    stim.push_back(wr(0, 1, 1, 5 * kOne));
    start_wait(kA * kNM + 20);
    rd_all();
    {
        Prof p; // deep: every application to NM CTAs, LS, tiny curves; app A-1 NBI to NM too
        p.nk = kA;
        p.step = 1;
        for (unsigned a = 0; a < kA; a++) {
            p.type[a] = a == kA - 1 ? 1 : 0;
            p.nmax[a] = kNM;
            p.d[a] = (a + 1) * kOne;
            for (unsigned n = 0; n < kNM; n++) {
                p.own[a][n] = (n + 1) * 655; // 0.01 % per CTA
                for (unsigned i = 0; i < 3; i++) {
                    p.cur[i][a][n] = (n + 1) * (1311 + i);
                    p.rat[i][a][n] = (1u << 23) + i; // 0.5
                }
            }
        }
        p.cap[0] = p.cap[1] = p.cap[2] = p.cap[3] = (1u << 24) - 1;
        p.nlim = p.dlim = 100 * kOne;
        g.checked(p);
        // exact capacities (4 CTAs x 1 per resource = 6) and an exact NoC sum, odd
        Prof q;
        q.nk = 2;
        q.step = 1;
        q.type[0] = 0;
        q.type[1] = 0;
        q.nmax[0] = 8;
        q.nmax[1] = 1;
        q.d[0] = q.d[1] = 4 * kOne;
        for (unsigned n = 0; n < 8; n++) {
            q.own[0][n] = (n + 1) * kOne;
            q.own[1][n] = 10 * kOne + 1;
            for (unsigned i = 0; i < 3; i++) {
                q.cur[i][0][n] = (n + 1) * kOne;
                q.cur[i][1][n] = 10 * kOne + 1;
            }
        }
        for (unsigned r2 = 0; r2 < 4; r2++) {
            q.dem[0][r2] = 1;
            q.cap[r2] = 6;
        }
        q.nlim = 15 * kOne + 1; // app 1 (10 % + 1 LSB) + app 0's 5 CTAs (5 %): exactly
        q.dlim = 15 * kOne + 1;
        g.checked(q);
        q.dem[0][0] = 3;
        q.cap[0] = 15;
        q.nlim = q.dlim = 16 * kOne; // even limits; 1 LSB above the sum at 6 CTAs
        q.own[1][0] = q.cur[0][1][0] = q.cur[1][1][0] = q.cur[2][1][0] = 10 * kOne;
        g.checked(q);
        // a tie decided by the divisors' last bit: NBI 0 and 1 alike, D odd/even
        Prof t;
        t.nk = 2;
        t.step = 2;
        for (unsigned a = 0; a < 2; a++) {
            t.type[a] = 1;
            t.nmax[a] = 2;
            for (unsigned n = 0; n < 2; n++) {
                t.own[a][n] = 90 * kOne;
                for (unsigned i = 0; i < 3; i++) {
                    t.cur[i][a][n] = kOne;
                    t.rat[i][a][n] = i == 0 ? 0x00c00001u + a // 0.75 (+ the last bit)
                                            : 0x00400000u;    // a crossbar at a quarter
                }
            }
            t.qf[a] = 0x81000001u;
        }
        t.cap[0] = t.cap[1] = t.cap[2] = t.cap[3] = 100;
        t.nlim = 61 * kOne;
        t.dlim = 100 * kOne;
        t.d[0] = t.d[1] = 60 * kOne + 1;
        g.checked(t);
        t.d[0] = 60 * kOne;
        g.checked(t);
        // a saturated other share (ratio near 256; at both CTA counts, so the final share is
        // the saturated one), the DRAM limit at its largest
        t.rat[0][0][0] = t.rat[0][0][1] = 0xffffffffu;
        t.dlim = (1u << 24) - 1;
        g.checked(t);
        // CanAlloc per crossbar: two NBI applications of 20 / 40 % at 1 / 2 CTAs, app 0 on the
        // request crossbar, app 1 on the reply one (each a quarter on the other crossbar):
        // both take 2 CTAs (request 40 + 10, reply 10 + 40 <= 60); then app 0 also loads
        // the reply crossbar 3/4 of its own: refused by the reply crossbar; then both on the
        // request crossbar: refused by it
        Prof x;
        x.nk = 2;
        x.step = 1;
        for (unsigned a = 0; a < 2; a++) {
            x.type[a] = 1;
            x.nmax[a] = 2;
            x.d[a] = 60 * kOne;
            x.qf[a] = 3 * kOne;
            for (unsigned n = 0; n < 2; n++) {
                x.own[a][n] = 20 * (n + 1) * kOne;
                x.rat[0][a][n] = 1u << 21; // DRAM an eighth
                x.rat[1][a][n] = a == 0 ? 1u << 24 : 1u << 22;
                x.rat[2][a][n] = a == 0 ? 1u << 22 : 1u << 24;
            }
        }
        x.cap[0] = x.cap[1] = x.cap[2] = x.cap[3] = 100;
        x.nlim = 60 * kOne;
        x.dlim = 70 * kOne;
        g.checked(x);
        for (unsigned n = 0; n < 2; n++)
            x.rat[2][0][n] = 3u << 22;
        g.checked(x);
        for (unsigned n = 0; n < 2; n++) {
            x.rat[1][1][n] = 1u << 24;
            x.rat[2][0][n] = x.rat[2][1][n] = 1u << 22;
        }
        g.checked(x);
    }
    // the run that never ends: NoC limit 255.99 %, app 0's own curve at its largest
    stim.push_back(wr(11, 0, 0, 1));
    stim.push_back(wr(9, 0, 0, (1u << 24) - 1));
    stim.push_back(wr(10, 0, 0, (1u << 24) - 1));
    stim.push_back(wr(3, 0, 1, 1));
    stim.push_back(wr(4, 0, 0, 2));
    stim.push_back(wr(0, 0, 1, (1u << 24) - 1));
    stim.push_back(wr(6, 0, 0, 0x81000001u));
    stim.push_back(wr(12, 0, 0, 1));
    TB_IN nw = wr(9, 0, 0, 0); // a write's fields without wr_v_i: nothing is written
    nw.wr_v_i = 0;
    stim.push_back(nw);
    start_wait(300);
    rd_all();
    stim.push_back(wr(0, 1, 0, 7)); // n = 0: ignored
    stim.push_back(wr(13, 1, 0, 7));
    stim.push_back(wr(13, 1, 1, 7)); // the reply-crossbar table's first entry
    stim.push_back(wr(14, 1, 1, 7)); // 14: ignored
    rd_all();
    uint64_t wrong = 0, seen = 0;
    size_t cyc = 0;
    auto check = [&](const TB_IN &, const TB_OUT &out) {
        auto it = want.find(cyc++);
        if (it == want.end())
            return;
        const Want &w = it->second;
        const bool ok = w.done ? out.done_o && out.steps_o == w.v
                               : out.rd_v_o && out.rd_data_o == w.v;
        seen++;
        if (!ok && wrong++ < 10)
            std::printf("tb_ccbp_ctrl: cycle %zu: %s: the reference gives %" PRIu64
                        ", the software Algorithm 1 %" PRIu64 "\n",
                        cyc - 1, w.what, w.done ? (uint64_t)out.steps_o : (uint64_t)out.rd_data_o,
                        w.v);
    };
    int rc = tb::run("tb_ccbp_ctrl", o, stim, check, resets);
    std::printf("tb_ccbp_ctrl: %" PRIu64 " runs and %" PRIu64 " result reads checked against "
                "the software Algorithm 1 (%" PRIu64 " checks seen), %" PRIu64 " wrong; hand trace "
                "(%u, %u) NBW %.2f %%, %u iterations\n",
                g.runs, g.reads, seen, wrong, hr.cta[0], hr.cta[1], hr.nbw[1] / 65536.0, hr.steps);
    const bool trace = hr.cta[0] == 2 && hr.cta[1] == 2 && hr.nbw[1] == 35 * kOne;
    return rc != 0 ? rc : wrong == 0 && seen == g.runs + g.reads && trace ? 0 : 1;
}
