// SPDX-License-Identifier: MIT
// tb_expars_ltlws.cpp - SystemC testbench of expars_ltlws (Verilator --sc). First the C
// reference's own functions at 9 geometries (counters of 1 to 32 bits, 1 to 64 warps, W not a
// power of two) against an independent model of eq. 14 (namespace geo: the sum taken over the
// resident warps at the trigger, the quotient by 64-bit division), with every answer, the
// division's latency and the whole state compared after every request. Then the block: worked
// examples (digest §2.9: 10, 5, 3 and 2 issues give W_Opt 20 / 10 = 2; a greedy warp 45 / 10;
// a warp that finishes without an issue; a quotient past QW bits; max_i = 0 and a small max_i;
// the first warp to finish being the last, then a new phase 1; every warp resident), each
// checked against its hand-worked W_Opt on the generator's reference, then seeded epochs (warps
// joining, issuing greedily or evenly, one finishing first, the rest leaving in phase 2;
// re-adds, removals of absent warps, reads, requests while the divider runs) with a reset every
// 4,000 cycles. Every output against the C reference every cycle; coverage bins reported (all
// required).
extern "C" {
#include "expars_ltlws.h"
}
#include "Vexpars_ltlws.h"
#define HD_PORTS_DEF "expars_ltlws_ports.def"
#define TB_TOP Vexpars_ltlws
#define TB_IN struct hd_expars_ltlws_in
#define TB_OUT struct hd_expars_ltlws_out
#define TB_STATE struct hd_expars_ltlws_state
#define TB_REF_RESET hd_expars_ltlws_ref_reset
#define TB_REF_STEP hd_expars_ltlws_ref_step
#define TB_BLOCK hd_expars_ltlws_block
#define TB_REF_IDLE hd_expars_ltlws_ref_idle
#include "tb_harness.h"

namespace geo {
// An independent statement of the header's rules at a run-time geometry.
struct Model {
    uint32_t nw, cmax;
    unsigned qw;
    std::vector<uint64_t> cnt;
    std::vector<bool> res;
    bool lazy = false;
    uint32_t wopt = 0;
};

static int fails = 0;

static void check(bool ok, const char *what, unsigned g, unsigned step, uint64_t a, uint64_t b)
{
    if (!ok && fails++ < 10)
        std::printf("tb_expars_ltlws: geometry %u request %u: %s: reference %llu, model %llu\n", g,
                    step, what, (unsigned long long)a, (unsigned long long)b);
}

static int run(tb::Rng &r)
{
    struct G { uint32_t nw; unsigned cw; } gs[] = {{4, 4}, {24, 32}, {32, 32}, {64, 8}, {3, 2},
                                                  {2, 1}, {7, 3}, {48, 5}, {1, 3}};
    unsigned g = 0;
    for (const G &ge : gs) {
        g++;
        struct hd_expars_ltlws_unit u;
        hd_expars_ltlws_unit_init(&u, ge.nw, ge.cw);
        std::vector<uint32_t> cnt(ge.nw, 0);
        bool res[64] = {false};
        Model m;
        m.nw = ge.nw;
        m.cmax = ge.cw >= 32 ? 0xffffffffu : (1u << ge.cw) - 1u;
        m.qw = 1;
        while ((1u << (m.qw - 1)) < ge.nw)
            m.qw++;
        m.cnt.assign(ge.nw, 0);
        m.res.assign(ge.nw, false);
        check(u.qw == m.qw, "W_Opt bits", g, 0, u.qw, m.qw);
        for (unsigned step = 1; step <= 3000; step++) {
            const unsigned k = r.below(20);
            const unsigned op = k < 4 ? HD_EXPARS_LTLWS_ADD : k < 15 ? HD_EXPARS_LTLWS_ISSUE
                                : k < 18 ? HD_EXPARS_LTLWS_REMOVE : HD_EXPARS_LTLWS_PEEK;
            // warps: mostly the low ones (greedy), sometimes past nw (ignored)
            const uint32_t w = r.below(8) == 0 ? r.below(ge.nw + 3) : r.below(ge.nw < 4 ? ge.nw : 4);
            const uint32_t mx = r.below(10) == 0 ? r.below(1u << m.qw) : ge.nw;
            struct hd_expars_ltlws_ans a;
            const unsigned edges = hd_expars_ltlws_apply(&u, cnt.data(), res, op, w, mx, &a);
            // the model
            bool trig = false;
            unsigned medges = 1;
            uint64_t c = 0;
            if (w < m.nw) {
                if (op == HD_EXPARS_LTLWS_ADD) {
                    m.res[w] = true;
                    m.cnt[w] = 0;
                } else if (op == HD_EXPARS_LTLWS_ISSUE) {
                    if (m.res[w] && !m.lazy && m.cnt[w] < m.cmax)
                        m.cnt[w]++;
                } else if (op == HD_EXPARS_LTLWS_REMOVE && m.res[w]) {
                    unsigned nres = 0;
                    uint64_t sum = 0;
                    for (uint32_t i = 0; i < m.nw; i++)
                        if (m.res[i]) {
                            nres++;
                            sum += m.cnt[i];
                        }
                    m.res[w] = false;
                    if (!m.lazy) {
                        const uint64_t q = m.cnt[w] ? sum / m.cnt[w] : nres;
                        const uint64_t cl = q > mx ? mx : q;
                        m.wopt = cl < 1 ? 1 : (uint32_t)cl;
                        m.lazy = nres > 1;
                        trig = true;
                        medges = 1 + m.qw;
                    } else if (nres == 1) {
                        m.lazy = false;
                    }
                }
                c = m.cnt[w];
            }
            unsigned nres = 0;
            for (uint32_t i = 0; i < m.nw; i++)
                nres += m.res[i];
            check(a.v, "answered", g, step, a.v, 1);
            check(edges == medges, "edges", g, step, edges, medges);
            check(a.trig == trig, "trig", g, step, a.trig, trig);
            check(a.lazy == m.lazy, "lazy", g, step, a.lazy, m.lazy);
            check(a.wopt == m.wopt, "W_Opt", g, step, a.wopt, m.wopt);
            check(a.cnt == c, "count", g, step, a.cnt, c);
            check(a.nres == nres && u.nres == nres, "resident", g, step, a.nres, nres);
            for (uint32_t i = 0; i < m.nw; i++) {
                check(res[i] == m.res[i], "resident bit", g, step, res[i], m.res[i]);
                if (m.res[i])
                    check(cnt[i] == m.cnt[i], "counter", g, step, cnt[i], m.cnt[i]);
            }
            if (!m.lazy) {
                uint64_t sum = 0;
                for (uint32_t i = 0; i < m.nw; i++)
                    if (m.res[i])
                        sum += m.cnt[i];
                check(u.sum == sum, "running sum", g, step, u.sum, sum);
            }
        }
    }
    if (fails)
        std::printf("tb_expars_ltlws: the reference's functions: %d differences from the model\n",
                    fails);
    return fails;
}
} // namespace geo

static TB_IN req(unsigned op, uint32_t w, uint32_t mx)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.op_v_i = 1;
    in.op_i = op;
    in.warp_i = w;
    in.max_i = mx;
    return in;
}

// The generator: stimulus cycles and a reference of its own that knows when the block is busy.
struct Gen {
    std::vector<TB_IN> stim;
    TB_STATE st;
    struct hd_expars_ltlws_out last;
    int bad = 0;
    Gen() { hd_expars_ltlws_ref_reset(&st); std::memset(&last, 0, sizeof last); }
    void push(const TB_IN &in)
    {
        stim.push_back(in);
        hd_expars_ltlws_ref_step(&st, &in, &last);
    }
    void idle()
    {
        TB_IN z;
        std::memset(&z, 0, sizeof z);
        push(z);
    }
    // a request, then the cycles until the block is free again
    void op(unsigned o, uint32_t w, uint32_t mx = EXPARS_LTLWS_W)
    {
        push(req(o, w, mx));
        while (st.u.busy)
            idle();
    }
    void reset()
    {
        hd_expars_ltlws_ref_reset(&st);
    }
    void expect_wopt(uint32_t want, const char *what)
    {
        if (st.u.wopt != want && bad++ < 10)
            std::printf("tb_expars_ltlws: %s: W_Opt %u, worked %u\n", what, st.u.wopt, want);
    }
};

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    if (geo::run(r) != 0)
        return 1;
    const uint32_t W = EXPARS_LTLWS_W;
    Gen g;
    g.idle();
    g.idle();
    // digest §2.9: 4 warps issue 10, 5, 3, 2; warp 0 finishes first: W_Opt = 20 / 10 = 2
    for (uint32_t w = 0; w < 4; w++)
        g.op(HD_EXPARS_LTLWS_ADD, w);
    const unsigned n4[4] = {10, 5, 3, 2};
    for (uint32_t w = 0; w < 4; w++)
        for (unsigned i = 0; i < n4[w]; i++)
            g.op(HD_EXPARS_LTLWS_ISSUE, w);
    g.op(HD_EXPARS_LTLWS_PEEK, 0);
    g.push(req(HD_EXPARS_LTLWS_REMOVE, 0, W));
    g.push(req(HD_EXPARS_LTLWS_ISSUE, 1, W)); // while busy: ignored
    while (g.st.u.busy)
        g.idle();
    g.expect_wopt(2, "10, 5, 3, 2 issues");
    g.op(HD_EXPARS_LTLWS_ISSUE, 1); // phase 2: not counted
    g.op(HD_EXPARS_LTLWS_REMOVE, 0); // gone already
    for (uint32_t w = 1; w < 4; w++)
        g.op(HD_EXPARS_LTLWS_REMOVE, w); // the last one starts a new phase 1
    // GTO: a greedy warp 0 issues 10, seven others 5 each: 45 / 10 = 4
    for (uint32_t w = 0; w < 8; w++)
        g.op(HD_EXPARS_LTLWS_ADD, w);
    for (uint32_t w = 0; w < 8; w++)
        for (unsigned i = 0; i < (w ? 5u : 10u); i++)
            g.op(HD_EXPARS_LTLWS_ISSUE, w);
    g.op(HD_EXPARS_LTLWS_ADD, 3); // 3 again: its 5 leave the sum: 40 / 10 = 4
    g.op(HD_EXPARS_LTLWS_REMOVE, 0);
    g.expect_wopt(4, "greedy warp");
    for (uint32_t w = 1; w < 8; w++)
        g.op(HD_EXPARS_LTLWS_REMOVE, w);
    // a warp that finishes without an issue: W_Opt = the resident warps (it included), 3
    for (uint32_t w = 0; w < 3; w++)
        g.op(HD_EXPARS_LTLWS_ADD, w);
    g.op(HD_EXPARS_LTLWS_ISSUE, 1);
    g.op(HD_EXPARS_LTLWS_REMOVE, 2);
    g.expect_wopt(3, "no issue");
    for (uint32_t w = 0; w < 2; w++)
        g.op(HD_EXPARS_LTLWS_REMOVE, w);
    // past QW bits: 8 warps of 20 and one of 1 leaving: 161 / 1 -> max_i
    for (uint32_t w = 0; w < 9; w++)
        g.op(HD_EXPARS_LTLWS_ADD, w);
    for (uint32_t w = 0; w < 9; w++)
        for (unsigned i = 0; i < (w == 8 ? 1u : 20u); i++)
            g.op(HD_EXPARS_LTLWS_ISSUE, w);
    g.op(HD_EXPARS_LTLWS_REMOVE, 8, 17);
    g.expect_wopt(17, "quotient past QW bits");
    for (uint32_t w = 0; w < 8; w++)
        g.op(HD_EXPARS_LTLWS_REMOVE, w);
    // max_i = 0 gives 1; a small max_i clamps the quotient (6 / 1 -> 2)
    g.op(HD_EXPARS_LTLWS_ADD, 0);
    g.op(HD_EXPARS_LTLWS_ADD, 1);
    g.op(HD_EXPARS_LTLWS_ISSUE, 0);
    g.op(HD_EXPARS_LTLWS_REMOVE, 0, 0);
    g.expect_wopt(1, "max_i = 0");
    g.op(HD_EXPARS_LTLWS_REMOVE, 1);
    for (uint32_t w = 0; w < 3; w++)
        g.op(HD_EXPARS_LTLWS_ADD, w);
    for (unsigned i = 0; i < 5; i++)
        g.op(HD_EXPARS_LTLWS_ISSUE, 1);
    g.op(HD_EXPARS_LTLWS_ISSUE, 0);
    g.op(HD_EXPARS_LTLWS_REMOVE, 0, 2);
    g.expect_wopt(2, "max_i = 2");
    g.op(HD_EXPARS_LTLWS_REMOVE, 1);
    g.op(HD_EXPARS_LTLWS_REMOVE, 2);
    // the only warp finishes: a new phase 1 at once
    g.op(HD_EXPARS_LTLWS_ADD, W - 1);
    g.op(HD_EXPARS_LTLWS_ISSUE, W - 1);
    g.op(HD_EXPARS_LTLWS_REMOVE, W - 1);
    // ... whose sum starts at 0 again: 4 + 4 issues, the first leaving: 8 / 4 = 2
    g.op(HD_EXPARS_LTLWS_ADD, 0);
    g.op(HD_EXPARS_LTLWS_ADD, 1);
    for (unsigned i = 0; i < 8; i++)
        g.op(HD_EXPARS_LTLWS_ISSUE, i < 4 ? 0 : 1);
    g.op(HD_EXPARS_LTLWS_REMOVE, 0);
    g.expect_wopt(2, "after a new phase 1");
    g.op(HD_EXPARS_LTLWS_REMOVE, 1);
    // every warp resident, the top one issues most and finishes first
    for (uint32_t w = 0; w < W; w++)
        g.op(HD_EXPARS_LTLWS_ADD, w);
    for (uint32_t w = 0; w < W; w++)
        for (unsigned i = 0; i <= w % 5; i++)
            g.op(HD_EXPARS_LTLWS_ISSUE, w);
    g.op(HD_EXPARS_LTLWS_REMOVE, W - 1);
    for (uint32_t w = 0; w + 1 < W; w++)
        g.op(HD_EXPARS_LTLWS_REMOVE, w);
    if (g.bad)
        return 1;
    // a reset, then seeded epochs
    std::vector<uint64_t> resets;
    resets.push_back(g.stim.size());
    g.reset();
    while (g.stim.size() < o.cycles) {
        if (g.stim.size() - resets.back() > 4000) {
            resets.push_back(g.stim.size());
            g.reset();
        }
        // an epoch: n warps join, they issue (greedily or evenly), one finishes, the rest leave
        const uint32_t n = 1 + r.below(W);
        const bool greedy = r.below(2);
        const uint32_t base = r.below(W);
        for (uint32_t i = 0; i < n; i++)
            g.op(HD_EXPARS_LTLWS_ADD, (base + i) % W);
        const unsigned issues = r.below(8) == 0 ? 0 : r.below(12 * n + 1);
        for (unsigned i = 0; i < issues && g.stim.size() < o.cycles; i++) {
            const uint32_t w = greedy && r.below(3) ? base : (base + r.below(n)) % W;
            const unsigned k = r.below(40);
            if (k == 0)
                g.op(HD_EXPARS_LTLWS_ADD, (base + r.below(n)) % W); // taken again
            else if (k == 1)
                g.op(HD_EXPARS_LTLWS_PEEK, r.below(W));
            else if (k == 2)
                g.op(HD_EXPARS_LTLWS_REMOVE, (base + n + r.below(W - n + 1)) % W); // maybe absent
            else if (k == 3)
                g.idle();
            else if (k == 4 && W < (1u << EXPARS_LTLWS_WW)) // a warp index past W: answered only
                g.op(r.below(4), W + r.below((1u << EXPARS_LTLWS_WW) - W));
            else
                g.op(HD_EXPARS_LTLWS_ISSUE, w);
        }
        const uint32_t mx = r.below(6) == 0 ? r.below(1u << EXPARS_LTLWS_QW) : W;
        g.push(req(HD_EXPARS_LTLWS_REMOVE, (base + (greedy ? 0 : r.below(n))) % W, mx));
        while (g.st.u.busy) { // requests while busy are not taken
            if (r.below(2))
                g.push(req(r.below(4), r.below(W), mx));
            else
                g.idle();
        }
        for (uint32_t i = 0; i < n + 1 && g.stim.size() < o.cycles; i++) {
            if (r.below(3) == 0)
                g.op(HD_EXPARS_LTLWS_ISSUE, (base + i) % W);
            g.op(HD_EXPARS_LTLWS_REMOVE, (base + i) % W);
        }
    }
    auto none = [](const TB_IN &, const TB_OUT &) {}; // (the bins: expars_ltlws_cover.def)
    return tb::run("tb_expars_ltlws", o, g.stim, none, resets);
}
