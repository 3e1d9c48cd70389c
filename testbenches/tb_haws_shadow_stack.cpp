// SPDX-License-Identifier: MIT
// tb_haws_shadow_stack.cpp - SystemC testbench of haws_shadow_stack (Verilator --sc): the
// divergent hint-mode walk of tests/haws/haws_unit.c's kernel (stall point 3, a branch at 10
// splitting lanes 0-15 and 16-31, reconvergence at 14), entries that are dead when copied or
// after a branch (popped at once), then seeded random episodes made from
// the stack's own state (a generator instance of the C reference tells where the top is): copies,
// advances that cross reconvergence points, uniform and divergent branches, nested divergence up
// to overflow, clears and reads; plus 1 cycle in 16 of unconstrained inputs. Every output is
// compared with the C reference every cycle (tb_harness.h); coverage bins reported (all required).
extern "C" {
#include "haws_shadow_stack.h"
}
#include "Vhaws_shadow_stack.h"
#define HD_PORTS_DEF "haws_shadow_stack_ports.def"
#define TB_TOP Vhaws_shadow_stack
#define TB_IN struct hd_haws_shadow_stack_in
#define TB_OUT struct hd_haws_shadow_stack_out
#define TB_STATE struct hd_haws_shadow_stack_state
#define TB_REF_RESET hd_haws_shadow_stack_ref_reset
#define TB_REF_STEP hd_haws_shadow_stack_ref_step
#define TB_BLOCK hd_haws_shadow_stack_block
#define TB_REF_IDLE hd_haws_shadow_stack_ref_idle
#include "tb_harness.h"

static const uint64_t kPc = HAWS_SHADOW_STACK_PCW >= 64 ? ~0ull : (1ull << HAWS_SHADOW_STACK_PCW) - 1;
static const uint64_t kMask = HAWS_SHADOW_STACK_MW >= 64 ? ~0ull : (1ull << HAWS_SHADOW_STACK_MW) - 1;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static uint64_t rnd64(tb::Rng &r) { return (uint64_t)r.next() << 32 | r.next(); }

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    TB_STATE g; // the generator's own reference: where the top is after each cycle
    hd_haws_shadow_stack_ref_reset(&g);
    TB_OUT scratch;
    auto push = [&](const TB_IN &in) {
        stim.push_back(in);
        hd_haws_shadow_stack_ref_step(&g, &in, &scratch);
    };
    push(zero());
    push(zero());
    // haws_unit.c: the stall point 3 (reconverges at exit), skip it and 4..9, branch at 10
    // (lanes 0-15 take it to 13, reconvergence 14), 13 runs, pops to the fall-through 11,
    // 11-12 (12 is bra.uni to 14: uniform), the reconvergence entry at 14, then 14 and 15.
    {
        TB_IN in = zero();
        in.copy_v_i = 1;
        in.copy_pc_i = 3;
        in.copy_rpc_i = kPc;
        in.copy_mask_i = kMask;
        in.adv_n_i = 1;
        push(in);
        in = zero();
        in.adv_n_i = 6; // 4..9
        in.br_v_i = 1;  // 10
        in.br_taken_i = 0xffffull & kMask;
        in.br_target_i = 13;
        in.br_reconv_i = 14;
        push(in);
        for (uint32_t i = 0; i < 4; i++) {
            TB_IN rd = zero();
            rd.rd_v_i = 1;
            rd.rd_idx_i = i;
            push(rd);
        }
        in = zero();
        in.adv_n_i = 2; // 13 -> pops at 14 -> 11
        push(in);
        in = zero();
        in.br_v_i = 1; // 12: bra.uni 14, every lane
        in.br_taken_i = kMask;
        in.br_target_i = 14;
        in.br_reconv_i = 15;
        push(in);
        in = zero();
        in.adv_n_i = 2; // 14, 15
        push(in);
        in = zero();
        in.clear_i = 1;
        push(in);
    }
    // Dead entries: a copied top already at its reconvergence PC, one with no lanes, a uniform
    // branch to the reconvergence PC and a not-taken branch just before it: each pops at once.
    {
        const uint64_t dead[][3] = {{50, 50, kMask}, {60, 70, 0}, {100, 120, kMask}, {100, 101, kMask}};
        for (unsigned d = 0; d < 4; d++) {
            TB_IN in = zero();
            in.copy_v_i = 1;
            in.copy_pc_i = dead[d][0];
            in.copy_rpc_i = dead[d][1];
            in.copy_mask_i = dead[d][2];
            push(in);
            if (d == 0) { // the same dead copy with a divergent branch in its edge: no branch
                in.br_v_i = 1;
                in.br_taken_i = 0xffffull & kMask;
                in.br_target_i = 60;
                in.br_reconv_i = 70;
                push(in);
            }
            if (d >= 2) {
                in = zero();
                in.br_v_i = 1;
                in.br_taken_i = d == 2 ? kMask : 0;
                in.br_target_i = d == 2 ? 120 : 140;
                in.br_reconv_i = 150;
                push(in);
            }
            in = zero();
            in.rd_v_i = 1;
            push(in);
        }
    }
    while (stim.size() < o.cycles) {
        TB_IN in = zero();
        if (r.below(16) == 0) { // unconstrained
            in.clear_i = r.below(8) == 0;
            in.copy_v_i = r.below(4) == 0;
            in.copy_pc_i = rnd64(r) & kPc;
            in.copy_rpc_i = rnd64(r) & kPc;
            in.copy_mask_i = rnd64(r) & kMask;
            in.adv_n_i = r.below(1u << HAWS_SHADOW_STACK_AdvW);
            in.br_v_i = r.below(2);
            in.br_taken_i = rnd64(r) & kMask;
            in.br_target_i = rnd64(r) & kPc;
            in.br_reconv_i = rnd64(r) & kPc;
            in.rd_v_i = r.below(2);
            in.rd_idx_i = r.below(1u << HAWS_SHADOW_STACK_DW);
            push(in);
            continue;
        }
        if (!g.q.top_v_o || r.below(40) == 0) { // a new episode
            in.clear_i = r.below(2);
            in.copy_v_i = 1;
            const uint64_t pc = r.below(4) == 0 ? (kPc - r.below(200)) & kPc : r.below(4000);
            in.copy_pc_i = pc;
            in.copy_rpc_i = r.below(3) == 0 ? kPc : (pc + 1 + r.below(80)) & kPc;
            in.copy_mask_i = r.below(4) == 0 ? kMask : (rnd64(r) & kMask) | 1u;
            in.adv_n_i = r.below(3) ? 1 : 0;
            push(in);
            continue;
        }
        const uint64_t pc = g.q.top_pc_o, rpc = g.q.top_rpc_o, mask = g.q.top_mask_o;
        const uint64_t room = (rpc - pc) & kPc; // advances before the top reconverges
        switch (r.below(8)) {
        case 0: case 1: // advances, sometimes exactly to the reconvergence point or past it
            in.adv_n_i = r.below(3) == 0 && room < 40 ? room + r.below(3) : r.below(4);
            break;
        case 2: case 3: case 4: { // a branch inside the entry (after a few advances)
            in.adv_n_i = r.below(3) == 0 ? r.below(3) : 0;
            const uint64_t span = room > 4 && room < 4000 ? room : 40;
            const uint64_t at = (pc + in.adv_n_i) & kPc;
            in.br_v_i = 1;
            in.br_target_i = (at + 2 + r.below((uint32_t)span)) & kPc;
            const unsigned k = r.below(6);
            in.br_reconv_i = k == 0 ? rpc : k == 1 ? in.br_target_i : k == 2 ? (at + 1) & kPc
                                                                            : (in.br_target_i + 1 + r.below(8)) & kPc;
            const unsigned t = r.below(5);
            in.br_taken_i = t == 0 ? kMask : t == 1 ? 0 : rnd64(r) & mask & kMask;
            break;
        }
        case 5: // a read
            in.rd_v_i = 1;
            in.rd_idx_i = r.below(HD_HAWS_SHADOW_DEPTH + 2);
            break;
        case 6: // idle or clear
            in.clear_i = r.below(6) == 0;
            break;
        default: // big advances
            in.adv_n_i = r.below(1u << HAWS_SHADOW_STACK_AdvW);
            break;
        }
        push(in);
    }
    uint64_t deep = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) { deep += out.depth_o >= 4; };
    int rc = tb::run("tb_haws_shadow_stack", o, stim, cover);
    std::printf("tb_haws_shadow_stack: %" PRIu64 " cycles with 4 or more entries\n", deep);
    return rc;
}
