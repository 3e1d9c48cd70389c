// SPDX-License-Identifier: MIT
// tb_haws_rcu.cpp - SystemC testbench of haws_rcu (Verilator --sc): first the thesis's example
// (Fig. 5.3/5.7, digest §3.8: stall point I3; I4 = {offset 1, r4, not renamed} and I6 =
// {offset 3, r5, not renamed} allocated; I4 written back before I6 may read r4; the return
// pops I4 and I6 as skips), then seeded random episodes (clear, allocations up to and past
// full, write-backs in any order, also of stale entries, pops, wraps); every output compared
// with the C reference every cycle; coverage bins reported (all required).
extern "C" {
#include "haws_rcu.h"
}
#include "Vhaws_rcu.h"
#define HD_PORTS_DEF "haws_rcu_ports.def"
#define TB_TOP Vhaws_rcu
#define TB_IN struct hd_haws_rcu_in
#define TB_OUT struct hd_haws_rcu_out
#define TB_STATE struct hd_haws_rcu_state
#define TB_REF_RESET hd_haws_rcu_ref_reset
#define TB_REF_STEP hd_haws_rcu_ref_step
#define TB_BLOCK hd_haws_rcu_block
#define TB_REF_IDLE hd_haws_rcu_ref_idle
#include "tb_harness.h"

static const unsigned kD = HD_HAWS_RCU_DEPTH;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN alloc(unsigned off, unsigned dst, unsigned ren, bool ctrl)
{
    TB_IN in = zero();
    in.alloc_v_i = 1;
    in.alloc_off_i = off;
    in.alloc_dst_i = dst;
    in.alloc_ren_i = ren;
    in.alloc_ctrl_i = ctrl;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero());
    // Fig. 5.3 / 5.7: the trigger clears, I4 and I6 allocate, I4 is written back, then I6
    TB_IN in = zero();
    in.clr_i = 1;
    stim.push_back(in);
    const size_t d0 = stim.size();
    stim.push_back(alloc(1, 4, 4, false)); // I4 -> entry 0
    stim.push_back(alloc(3, 5, 5, false)); // I6 -> entry 1 (it waits on entry 0's ready bit)
    in = zero();
    in.wb_v_i = 1; // I4 written back
    in.wb_idx_i = 0;
    stim.push_back(in);
    in.wb_idx_i = 1; // I6 written back
    stim.push_back(in);
    stim.push_back(zero()); // d0 + 4: both ready, head = I4 (offset 1)
    in = zero();
    in.pop_i = 1; // the return: I3 issues, I4 is skipped (ren == dst)
    stim.push_back(in); // d0 + 5: head I4
    stim.push_back(in); // d0 + 6: head I6 (offset 3)
    stim.push_back(zero()); // d0 + 7: empty
    while (stim.size() < o.cycles) {
        TB_IN x = zero();
        const unsigned what = r.below(20);
        if (what == 0) {
            x.clr_i = 1;
            if (r.below(2))
                x.alloc_v_i = 1; // ignored in a clearing edge
        } else {
            if (r.below(5) < 2) {
                x.alloc_v_i = 1;
                x.alloc_off_i = r.below(1u << HAWS_RCU_OFFW);
                x.alloc_dst_i = r.below(1u << HAWS_RCU_REGW);
                x.alloc_ren_i = r.below(2) ? x.alloc_dst_i : r.below(1u << HAWS_RCU_REGW);
                x.alloc_ctrl_i = r.below(6) == 0;
            }
            if (r.below(3) == 0) {
                x.wb_v_i = 1;
                x.wb_idx_i = r.below(kD);
            }
            if (r.below(4) == 0)
                x.pop_i = 1;
        }
        stim.push_back(x);
    }
    // the directed checks: cycle offset after d0, count, head offset, head dst, ready bits
    const unsigned want[5][5] = {{2, 2, 1, 4, 0}, {4, 2, 1, 4, 3}, {5, 2, 1, 4, 3},
                                 {6, 1, 3, 5, 2}, {7, 0, 0, 0, 0}};
    unsigned seen = 0, right = 0;
    size_t cyc = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        for (const auto &w : want)
            if (cyc == d0 + w[0]) {
                seen++;
                right += out.count_o == w[1] && out.head_off_o == w[2] && out.head_dst_o == w[3] &&
                         out.ready_o == w[4] && out.head_ren_o == out.head_dst_o;
            }
        cyc++;
    };
    int rc = tb::run("tb_haws_rcu", o, stim, cover);
    std::printf("tb_haws_rcu: Fig. 5.3/5.7 directed checks %u of %u (%u entries)\n", right, seen,
                kD);
    return rc != 0 ? rc : right == seen ? 0 : 1;
}
