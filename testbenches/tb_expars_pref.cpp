// SPDX-License-Identifier: MIT
// tb_expars_pref.cpp - SystemC testbench of expars_pref (Verilator --sc): first a case worked by
// hand (warp 3 with R20, R21 and R37 at Start_Reg 20 queued at the back, warp 5 at the front;
// warp 5 starts on a free cache, its fetch of 3 transfers lands at 100 + 3 + 2; warp 3 then waits
// behind lines pinned by warp 5 and steals after Limit cycles; drops from the queue's middle and
// in flight; a bundle without scratchpad registers; a bundle of more than Need registers), then
// every warp slot queued (the queue full), then seeded requests in the model's order (a PREF's
// words then its PUSH; TICKs with the cycle advancing, a DONE after each start; random line
// status with pinned lines of other warps; DROPs; now and then a PUSH without its words, which
// reads the vector last written or, after a reset, zeros) with a reset every 4,000 cycles. Every output
// compared with the C reference every cycle; coverage bins reported (all required).
extern "C" {
#include "expars_pref.h"
}
#include "Vexpars_pref.h"
#define HD_PORTS_DEF "expars_pref_ports.def"
#define TB_TOP Vexpars_pref
#define TB_IN struct hd_expars_pref_in
#define TB_OUT struct hd_expars_pref_out
#define TB_STATE struct hd_expars_pref_state
#define TB_REF_RESET hd_expars_pref_ref_reset
#define TB_REF_STEP hd_expars_pref_ref_step
#define TB_BLOCK hd_expars_pref_block
#define TB_REF_IDLE hd_expars_pref_ref_idle
#include "tb_harness.h"

static const uint64_t kNMask = (1ull << EXPARS_PREF_NW) - 1;
static const unsigned kWords = EXPARS_PREF_NR / 64;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN req(unsigned op, unsigned warp)
{
    TB_IN in = zero();
    in.op_v_i = 1;
    in.op_i = op;
    in.warp_i = warp;
    return in;
}

// A PREF: its vector's words, then the PUSH.
static void pref(std::vector<TB_IN> &s, unsigned warp, const uint64_t *vec, unsigned start,
                 bool front)
{
    for (unsigned k = 0; k < kWords; k++) {
        TB_IN in = req(HD_EXPARS_PREF_BVT, warp);
        in.idx_i = k;
        in.word_i = vec[k];
        s.push_back(in);
    }
    TB_IN in = req(HD_EXPARS_PREF_PUSH, warp);
    in.start_i = start;
    in.front_i = front;
    s.push_back(in);
}

static TB_IN tick(uint64_t now, unsigned start, const hd_expars_pref_line *lines)
{
    TB_IN in = req(HD_EXPARS_PREF_TICK, 0);
    in.now_i = now & kNMask;
    in.start_i = start;
    hd_expars_pref_pack_lines(&in, lines, EXPARS_PREF_Lines);
    return in;
}

static TB_IN done(uint64_t now, unsigned n, unsigned lat)
{
    TB_IN in = req(HD_EXPARS_PREF_DONE, 0);
    in.now_i = now & kNMask;
    in.n_i = n;
    in.lat_i = lat;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    const unsigned wmax = EXPARS_PREF_Warps, lmax = (1u << EXPARS_PREF_LW) - 1;
    const unsigned kmax = (1u << EXPARS_PREF_KW) - 1;
    std::vector<TB_IN> stim;
    std::vector<uint64_t> resets;
    stim.push_back(zero());
    hd_expars_pref_line free_lines[HD_EXPARS_PREF_MAX_LINES] = {};
    hd_expars_pref_line pinned5[HD_EXPARS_PREF_MAX_LINES] = {};
    for (unsigned j = 0; j < EXPARS_PREF_Lines; j++)
        pinned5[j] = {true, true, 5, j};
    // worked by hand: warp 3 (R20, R21, R37 at Start_Reg 20; R4 below it) at the back, warp 5
    // (R22, R23, R24) at the front
    uint64_t v3[HD_EXPARS_PREF_MAX_WORDS] = {}, v5[HD_EXPARS_PREF_MAX_WORDS] = {};
    v3[0] = (1ull << 4) | (1ull << 20) | (1ull << 21) | (1ull << 37);
    v5[0] = (1ull << 22) | (1ull << 23) | (1ull << 24);
    pref(stim, 3, v3, 20, false);
    pref(stim, 5, v5, 20, true);
    stim.push_back(tick(100, 20, free_lines)); // warp 5 starts: R22-R24
    stim.push_back(done(100, 3, 2));           // lands at 105
    stim.push_back(tick(101, 20, free_lines)); // busy
    stim.push_back(tick(104, 20, free_lines)); // busy
    stim.push_back(tick(105, 20, pinned5));    // warp 5 released; warp 3 waits (lines pinned)
    stim.push_back(tick(106, 20, pinned5));
    stim.push_back(tick(105 + EXPARS_PREF_Limit - 1, 20, pinned5)); // still waits
    stim.push_back(tick(105 + EXPARS_PREF_Limit, 20, pinned5));     // steals, starts
    stim.push_back(done(105 + EXPARS_PREF_Limit, 0, 2));            // every register hit
    stim.push_back(tick(106 + EXPARS_PREF_Limit, 20, free_lines));  // warp 3 released
    // drops: warps 1, 2, 7 queued, 2 dropped from the middle; 1 starts and is dropped in flight
    for (unsigned w : {1u, 2u, 7u})
        pref(stim, w, v5, 20, false);
    stim.push_back(req(HD_EXPARS_PREF_DROP, 2));
    stim.push_back(tick(300, 20, free_lines));
    stim.push_back(req(HD_EXPARS_PREF_DROP, 1));
    stim.push_back(req(HD_EXPARS_PREF_DROP, 9)); // neither queued nor in flight
    stim.push_back(done(301, 2, 2));             // nothing in flight: ignored
    stim.push_back(tick(302, 20, free_lines));   // warp 7 starts at once
    // a bundle without scratchpad registers, then one of every register (Need of them fetched)
    pref(stim, 4, v3, 40, false);
    uint64_t all[HD_EXPARS_PREF_MAX_WORDS];
    for (unsigned k = 0; k < HD_EXPARS_PREF_MAX_WORDS; k++)
        all[k] = ~0ull;
    pref(stim, 6, all, 1, false);
    stim.push_back(done(302, 2 * EXPARS_PREF_Need, lmax));
    stim.push_back(tick(302 + 2 * EXPARS_PREF_Need + lmax, 1, free_lines));
    stim.push_back(tick(303 + 2 * EXPARS_PREF_Need + lmax, 1, free_lines));
    // the top warp slot, the last vector word, a warp slot past Warps (ignored)
    uint64_t top[HD_EXPARS_PREF_MAX_WORDS] = {};
    top[kWords - 1] = 1ull << 63;
    pref(stim, wmax - 1, top, EXPARS_PREF_NR - 1, true);
    if (wmax < (1u << EXPARS_PREF_WW))
        pref(stim, wmax, top, 0, false);
    // every warp slot queued: the queue full (after a reset and idle cycles)
    resets.push_back(stim.size());
    for (int k = 0; k < 3; k++)
        stim.push_back(zero());
    for (unsigned w = 0; w < wmax; w++)
        pref(stim, w, v3, 20, w % 2);
    pref(stim, 0, v3, 20, false); // full: not queued again
    stim.push_back(zero());
    // seeded: the model's order
    // Each segment of 4,000 cycles draws its warps from a pool of 4, 16 or every slot (a small
    // pool makes drops hit queued and in-flight warps) and its own push rate.
    uint64_t now = 1000;
    unsigned pool = 4, push = 3;
    while (stim.size() < o.cycles) {
        if (stim.size() % 4000 == 3999) {
            resets.push_back(stim.size());
            stim.push_back(zero());
            now = r.below(2) ? r.next() : 0;
            const unsigned pools[3] = {4, 16, wmax + 2};
            pool = pools[r.below(3)];
            push = 1 + r.below(4);
            continue;
        }
        const unsigned start = r.below(4) ? 16 + r.below(16) : r.below(EXPARS_PREF_NR);
        const unsigned k = r.below(16);
        if (k == 0) {
            stim.push_back(zero());
        } else if (k <= push && r.below(8) == 0) {
            // a PUSH without its PREF's words: the vector last written, or none since the
            // reset (the BVT's valid bits: a word not written since the reset reads 0)
            TB_IN in = req(HD_EXPARS_PREF_PUSH, r.below(pool) % (1u << EXPARS_PREF_WW));
            in.start_i = r.below(2) ? 0 : start;
            in.front_i = r.below(2);
            stim.push_back(in);
        } else if (k <= push) {
            uint64_t v[HD_EXPARS_PREF_MAX_WORDS] = {};
            for (unsigned i = 0; i < kWords; i++)
                v[i] = r.below(4) == 0 ? 0 : ((uint64_t)r.next() << 32 | r.next()) &
                                                 ((uint64_t)r.next() << 32 | r.next());
            if (r.below(3) == 0)
                v[0] &= 0xffffffffull; // few high registers
            pref(stim, r.below(pool) % (1u << EXPARS_PREF_WW), v, start, r.below(2));
        } else if (k < 7) {
            stim.push_back(req(HD_EXPARS_PREF_DROP, r.below(pool) % (1u << EXPARS_PREF_WW)));
        } else {
            hd_expars_pref_line lines[HD_EXPARS_PREF_MAX_LINES];
            const unsigned mode = r.below(4);
            for (unsigned j = 0; j < EXPARS_PREF_Lines; j++) {
                lines[j].valid = mode != 0 && r.below(4) != 0;
                lines[j].pinned = mode >= 2 && r.below(mode == 3 ? 4 : 2) != 0;
                lines[j].warp = r.below(pool);
                lines[j].reg = r.below(EXPARS_PREF_NR);
            }
            stim.push_back(tick(now, start, lines));
            if (r.below(2)) // the DONE of a start (harmless when none started)
                stim.push_back(done(now, r.below(3) ? r.below(kmax + 1) : 0, r.below(lmax + 1)));
        }
        const unsigned adv = r.below(64);
        now += adv < 10 ? 0 : adv < 56 ? 1 + r.below(4) : adv < 63 ? r.below(80) : r.below(5000);
    }
    auto none = [](const TB_IN &, const TB_OUT &) {}; // (the bins: expars_pref_cover.def)
    return tb::run("tb_expars_pref", o, stim, none, resets);
}
