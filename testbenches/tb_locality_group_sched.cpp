// SPDX-License-Identifier: MIT
// tb_locality_group_sched.cpp - SystemC testbench of locality_group_sched (Verilator --sc): the
// groups of §2.10 for a 3 x 2 grid of 2-warp CTAs under hint 1 (group id = 2 y + k, slots as in
// tests/unit/test_locality.c) with the directed sequence of that test (all ready: slot 0 of group
// 0; after slot 0 issued: slot 2; group 0 stalled: group 1's slot 1; group 1 stays active while
// ready), then seeded random residency (writes, clears, issues) and ready sets; every output
// compared with the C reference every cycle; coverage bins reported (all required).
extern "C" {
#include "locality_group_sched.h"
}
#include "Vlocality_group_sched.h"
#define HD_PORTS_DEF "locality_group_sched_ports.def"
#define TB_TOP Vlocality_group_sched
#define TB_IN struct hd_locality_group_sched_in
#define TB_OUT struct hd_locality_group_sched_out
#define TB_STATE struct hd_locality_group_sched_state
#define TB_REF_RESET hd_locality_group_sched_ref_reset
#define TB_REF_STEP hd_locality_group_sched_ref_step
#define TB_BLOCK hd_locality_group_sched_block
#define TB_REF_IDLE hd_locality_group_sched_ref_idle
#include "tb_harness.h"

static const unsigned kNW = HD_LGS_NW, kG = 1u << LOCALITY_GROUP_SCHED_GW;

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
    stim.push_back(zero()); // idle after reset
    stim.push_back(zero());
    // §2.10, hint 1: slot (y*3 + x)*2 + k in group 2y + k (ids modulo the id range)
    const unsigned nd = kNW < 12 ? kNW : 12;
    for (unsigned w = 0; w < nd; w++) {
        TB_IN in = zero();
        in.wr_v_i = 1;
        in.wr_warp_i = w;
        in.wr_gid_i = (2 * (w / 6) + w % 2) % kG;
        stim.push_back(in);
    }
    const uint64_t all = nd == 64 ? ~0ull : (1ull << nd) - 1;
    // The SM issues the granted warp the cycle after the grant, and the selection sees it from
    // the next edge: ready, issue, ready, ... (grants one cycle after each ready set).
    size_t directed = stim.size();
    TB_IN in = zero();
    in.ready_i = all; // -> slot 0 (group 0)
    stim.push_back(in);
    in = zero();
    in.iss_v_i = 1; // slot 0 issued
    in.iss_warp_i = 0;
    stim.push_back(in);
    in = zero();
    in.ready_i = all; // -> slot 2, after slot 0 in group 0
    stim.push_back(in);
    in = zero();
    in.iss_v_i = 1; // slot 5 issued
    in.iss_warp_i = 5;
    stim.push_back(in);
    in = zero(); // group 0 stalled: {1, 5, 6, 7} ready -> group 1, after slot 5: wraps to 1
    in.ready_i = 0xe2 & all;
    stim.push_back(in);
    in = zero(); // {0, 3, 6} ready: group 1 stays active -> slot 3
    in.ready_i = 0x49 & all;
    stim.push_back(in);
    stim.push_back(zero());
    while (stim.size() < o.cycles) {
        TB_IN x = zero();
        unsigned what = r.below(8);
        if (what == 0 || what == 1) {
            x.wr_v_i = 1;
            x.wr_warp_i = r.below(1u << LOCALITY_GROUP_SCHED_WW);
            x.wr_gid_i = r.below(4) ? r.below(kG < 4 ? kG : 4) : r.below(kG); // few groups
        }
        if (what == 1 || what == 2) {
            x.clr_v_i = 1;
            x.clr_warp_i = r.below(4) ? stim.back().iss_warp_i : r.below(1u << LOCALITY_GROUP_SCHED_WW);
        }
        for (unsigned w = 0; w < kNW; w++)
            if (r.below(3) == 0)
                x.ready_i |= 1ull << w;
        if (r.below(2)) {
            x.iss_v_i = 1;
            x.iss_warp_i = r.below(kNW);
        }
        stim.push_back(x);
    }
    // the directed grants: cycle offset after `directed`, slot, group
    const int want[4][3] = {{1, 0, 0}, {3, 2, 0}, {5, 1, 1}, {6, 3, 1}};
    unsigned seen = 0, right = 0;
    size_t cyc = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        for (const auto &w : want)
            if (nd >= 8 && cyc == directed + (size_t)w[0]) {
                seen++;
                right += out.grant_v_o && (int)out.grant_warp_o == w[1] &&
                         (int)out.grant_gid_o == w[2] % (int)kG;
            }
        cyc++;
    };
    int rc = tb::run("tb_locality_group_sched", o, stim, cover);
    std::printf("tb_locality_group_sched: directed §2.10 grants %u of %u as the unit test "
                "(%u warps, %u group ids)\n", right, seen, kNW, kG);
    return rc != 0 ? rc : right == seen ? 0 : 1;
}
