// SPDX-License-Identifier: MIT
// tb_locality_cta_dist.cpp - SystemC testbench of locality_cta_dist (Verilator --sc): a request
// right after reset (no batch), a hand-worked grid (a batch of CTAs of hint 1 in chunks of 3 on
// empty SMs: CTAs 3j..3j+2 on SM j; then hint 0: round-robin from there), the largest chunk until
// its count saturates, a hand-worked keep-mode launch (each SM's own range, then SMs whose range
// is used up taking other SMs' last CTAs, a context coming back), then seeded random launches
// (hints, small launch ids, chunk sizes, keep mode with CTA counts, fresh or resumed CTAs, new
// batches, two resets) against SMs that fill with the CTAs they receive and drain at random;
// every output compared with the C reference every cycle; coverage bins reported (all required).
extern "C" {
#include "locality_cta_dist.h"
}
#include "Vlocality_cta_dist.h"
#define HD_PORTS_DEF "locality_cta_dist_ports.def"
#define TB_TOP Vlocality_cta_dist
#define TB_IN struct hd_locality_cta_dist_in
#define TB_OUT struct hd_locality_cta_dist_out
#define TB_STATE struct hd_locality_cta_dist_state
#define TB_REF_RESET hd_locality_cta_dist_ref_reset
#define TB_REF_STEP hd_locality_cta_dist_ref_step
#define TB_BLOCK hd_locality_cta_dist_block
#define TB_REF_IDLE hd_locality_cta_dist_ref_idle
#include "tb_harness.h"

static const unsigned kN = LOCALITY_CTA_DIST_NSM;
static const uint64_t kAll = kN == 64 ? ~0ull : (1ull << kN) - 1;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero());
    stim.push_back(zero());
    { // after reset, without a new batch: launch 0, hint 1 goes to SM 0 (the reset pointers)
        TB_IN in = zero();
        in.req_v_i = 1;
        in.req_hint_i = 1;
        in.req_chunk_i = 2;
        in.ok_i = kAll;
        stim.push_back(in);
        stim.push_back(zero());
    }
    // hand-worked: 3 x kN CTAs of launch 1, hint 1, chunk 3, every SM empty
    const size_t directed = stim.size();
    for (unsigned i = 0; i < 3 * kN; i++) {
        TB_IN in = zero();
        in.batch_i = i == 0;
        in.req_v_i = 1;
        in.req_launch_i = 1;
        in.req_hint_i = 1;
        in.req_chunk_i = 3;
        in.ok_i = kAll;
        stim.push_back(in);
    }
    for (unsigned i = 0; i < kN; i++) { // hint 0: round-robin after the last SM used
        TB_IN in = zero();
        in.req_v_i = 1;
        in.req_launch_i = 2;
        in.ok_i = kAll;
        stim.push_back(in);
    }
    { // hint 0 when only the last SM used has room: the ring search comes back to it
        TB_IN in = zero();
        in.req_v_i = 1;
        in.req_launch_i = 2;
        in.ok_i = 1ull << (kN - 1);
        stim.push_back(in);
    }
    stim.push_back(zero());
    { // the largest chunk: its count saturates at 2^CW - 1 CTAs, then the next SM starts one
        const uint64_t cmax = (1ull << LOCALITY_CTA_DIST_CW) - 1;
        for (uint64_t i = 0; i < cmax + 3; i++) {
            TB_IN in = zero();
            in.batch_i = i == 0;
            in.req_v_i = 1;
            in.req_launch_i = 5;
            in.req_hint_i = 3;
            in.req_chunk_i = cmax;
            in.ok_i = kAll;
            stim.push_back(in);
        }
        stim.push_back(zero());
    }
    // hand-worked keep mode: launch 6, hint 1, 2 kN - 1 CTAs in ranges of 2 (SM i: 2i, 2i + 1;
    // SM kN - 1: 2 kN - 2 alone); see `kwant` below
    const size_t keep_from = stim.size();
    for (unsigned i = 0; i < kN + 5; i++) {
        TB_IN in = zero();
        in.batch_i = i == 0;
        in.req_v_i = 1;
        in.req_launch_i = 6;
        in.req_hint_i = 1;
        in.req_chunk_i = 2;
        in.req_keep_i = 1;
        in.req_fresh_i = i != kN + 4;
        in.req_nctas_i = 2 * kN - 1;
        in.ok_i = i == kN || i == kN + 1 ? 1ull << (kN - 1) : kAll;
        stim.push_back(in);
    }
    stim.push_back(zero());
    const size_t random_from = stim.size();
    // random: SMs of 2 slots that fill with what they get (the model's picks) and drain
    struct hd_locality_cta_dist_state model;
    hd_locality_cta_dist_ref_reset(&model);
    for (const TB_IN &in : stim) {
        TB_OUT out;
        hd_locality_cta_dist_ref_step(&model, &in, &out);
    }
    unsigned held[64] = {0};
    uint32_t launch = 3, hint = 1, chunk = 2, keep = 0, nctas = 8, keep_launch = 6;
    while (stim.size() < random_from + o.cycles) {
        TB_IN in = zero();
        if (r.below(200) == 0) {
            in.batch_i = 1;
            for (unsigned s = 0; s < kN; s++)
                held[s] = 0;
        }
        if (r.below(40) == 0) { // a new launch
            launch = r.below(4); // small ids: launch 0 and repeats meet stale chunk state
            hint = r.below(4);
            if (launch == keep_launch) // the block holds one keep launch: a new one has another id
                launch = (launch + 1) % 4;
            chunk = r.below(8) == 0 ? 0 : 1 + r.below(6);
            keep = r.below(2);
            nctas = 1 + (r.below(10) == 0 ? r.below(4) : r.below(6 * kN));
            if (keep) // ranges that cover the launch, as the loop gives (the block's contract)
                chunk = (nctas + kN - 1) / kN + (r.below(4) == 0 ? r.below(3) : 0);
        }
        in.req_v_i = r.below(5) != 0;
        in.req_launch_i = launch;
        in.req_hint_i = hint;
        in.req_chunk_i = chunk;
        in.req_keep_i = keep;
        in.req_fresh_i = r.below(8) != 0;
        in.req_nctas_i = nctas;
        if (keep && hint)
            keep_launch = launch;
        for (unsigned s = 0; s < kN; s++) {
            if (held[s] && r.below(8) == 0)
                held[s]--;
            if (held[s] < 2)
                in.ok_i |= 1ull << s;
        }
        if (r.below(4) == 0)
            in.ok_i &= r.next(); // some SMs refuse (admission, kernel mixing)
        if (r.below(30) == 0)
            in.ok_i = 0; // every SM full for a cycle
        stim.push_back(in);
        TB_OUT out;
        hd_locality_cta_dist_ref_step(&model, &in, &out);
        if (model.q.pick_v_o)
            held[model.q.pick_sm_o]++;
    }
    // the hand-worked picks (one cycle after each request): CTA i on SM i / 3, then RR from
    // SM kN - 1: SM 0, 1, ..., kN - 1, then SM kN - 1 again (the only one with room)
    // keep mode: request i < kN on SM i, CTA 2i (its own); then, only SM kN - 1 with room (its
    // range used up), it takes SM 0's last (CTA 1), then SM 1's (CTA 3); then round-robin from
    // SM kN - 1: SM 0 (used up) takes SM 2's last (CTA 5), SM 1 SM 3's (CTA 7); a context coming
    // back (not fresh) goes to SM 2 with no CTA index
    struct kwant_t {
        unsigned sm, cta, fresh_new;
    };
    auto kwant = [&](size_t i) -> kwant_t {
        if (i < kN)
            return {(unsigned)i, 2 * (unsigned)i, 0};
        static const kwant_t tail[5] = {{0, 1, 1}, {0, 3, 1}, {0, 5, 1}, {1, 7, 1}, {2, 0, 1}};
        kwant_t w = tail[i - kN];
        if (i < kN + 2)
            w.sm = kN - 1;
        return w;
    };
    unsigned seen = 0, right = 0;
    size_t cyc = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (cyc > directed && cyc <= directed + 4 * kN + 1) {
            size_t i = cyc - directed - 1;
            unsigned want = i < 3 * kN ? (unsigned)(i / 3) : i < 4 * kN ? (unsigned)(i - 3 * kN) : kN - 1;
            seen++;
            right += out.pick_v_o && out.pick_sm_o == want;
        }
        if (cyc > keep_from && cyc <= keep_from + kN + 5) {
            const kwant_t w = kwant(cyc - keep_from - 1);
            seen++;
            right += out.pick_v_o && out.pick_sm_o == w.sm && out.pick_cta_o == w.cta &&
                     out.pick_new_o == w.fresh_new;
        }
        cyc++;
    };
    // two resets in the random part: the pointers come back to their reset values mid-stream
    const std::vector<uint64_t> resets = {random_from + o.cycles / 4, random_from + o.cycles / 2};
    int rc = tb::run("tb_locality_cta_dist", o, stim, cover, resets);
    std::printf("tb_locality_cta_dist: hand-worked picks %u of %u right (%u SMs)\n", right, seen,
                kN);
    return rc != 0 ? rc : right == seen ? 0 : 1;
}
