// SPDX-License-Identifier: MIT
// tb_locality_cta_dist.cpp - SystemC testbench of locality_cta_dist (Verilator --sc): a
// hand-worked grid (a batch of CTAs of hint 1 in chunks of 3 on empty SMs: CTAs 3j..3j+2 on SM
// j; then hint 0: round-robin from there), then seeded random launches (hints, launch ids, chunk
// sizes, new batches) against SMs that fill with the CTAs they receive and drain at random;
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
    stim.push_back(zero());
    // random: SMs of 4 slots that fill with what they get (the model's picks) and drain
    struct hd_locality_cta_dist_state model;
    hd_locality_cta_dist_ref_reset(&model);
    for (const TB_IN &in : stim) {
        TB_OUT out;
        hd_locality_cta_dist_ref_step(&model, &in, &out);
    }
    unsigned held[64] = {0};
    uint32_t launch = 3, hint = 1, chunk = 2;
    while (stim.size() < o.cycles) {
        TB_IN in = zero();
        if (r.below(200) == 0) {
            in.batch_i = 1;
            for (unsigned s = 0; s < kN; s++)
                held[s] = 0;
        }
        if (r.below(40) == 0) { // a new launch
            launch = r.next();
            hint = r.below(4);
            chunk = r.below(8) == 0 ? 0 : 1 + r.below(6);
        }
        in.req_v_i = r.below(5) != 0;
        in.req_launch_i = launch;
        in.req_hint_i = hint;
        in.req_chunk_i = chunk;
        for (unsigned s = 0; s < kN; s++) {
            if (held[s] && r.below(6) == 0)
                held[s]--;
            if (held[s] < 4)
                in.ok_i |= 1ull << s;
        }
        if (r.below(30) == 0)
            in.ok_i = 0; // every SM full for a cycle
        stim.push_back(in);
        TB_OUT out;
        hd_locality_cta_dist_ref_step(&model, &in, &out);
        if (model.q.pick_v_o)
            held[model.q.pick_sm_o]++;
    }
    // the hand-worked picks (one cycle after each request): CTA i on SM i / 3, then RR from
    // SM kN - 1: SM 0, 1, ...
    unsigned seen = 0, right = 0;
    size_t cyc = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (cyc > directed && cyc <= directed + 4 * kN) {
            size_t i = cyc - directed - 1;
            unsigned want = i < 3 * kN ? (unsigned)(i / 3) : (unsigned)((i - 3 * kN) % kN);
            seen++;
            right += out.pick_v_o && out.pick_sm_o == want;
        }
        cyc++;
    };
    int rc = tb::run("tb_locality_cta_dist", o, stim, cover);
    std::printf("tb_locality_cta_dist: hand-worked picks %u of %u right (%u SMs)\n", right, seen,
                kN);
    return rc != 0 ? rc : right == seen ? 0 : 1;
}
