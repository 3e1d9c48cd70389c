// SPDX-License-Identifier: MIT
// tb_haws_warp_ctl.cpp - SystemC testbench of haws_warp_ctl (Verilator --sc): the Fig. 5.3/5.7
// example of the digest (§3 verification vector: stall point I3, I4 and I6 run ahead, I5
// dependent; I4 and I6 skipped at the return, I5 executed), issues at the window's edges, then
// seeded random episodes played
// against an RCU the testbench keeps itself (a generator instance of the C reference says what
// the controller popped, cleared and recorded): triggers with random windows, walks that skip,
// issue selected and unselected PCs, park; returns whose in-order stream follows the RCU or
// leaves it (mismatches), results not yet written back (wait), branch entries, renamed results,
// resets of the slot in any mode; plus 1 cycle in 16 of unconstrained inputs. Every output is
// compared with the C reference every cycle (tb_harness.h); coverage bins reported (all required).
extern "C" {
#include "haws_warp_ctl.h"
}
#include "Vhaws_warp_ctl.h"
#define HD_PORTS_DEF "haws_warp_ctl_ports.def"
#define TB_TOP Vhaws_warp_ctl
#define TB_IN struct hd_haws_warp_ctl_in
#define TB_OUT struct hd_haws_warp_ctl_out
#define TB_STATE struct hd_haws_warp_ctl_state
#define TB_REF_RESET hd_haws_warp_ctl_ref_reset
#define TB_REF_STEP hd_haws_warp_ctl_ref_step
#define TB_BLOCK hd_haws_warp_ctl_block
#define TB_REF_IDLE hd_haws_warp_ctl_ref_idle
#include "tb_harness.h"

#include <deque>

static const uint64_t kPc = HAWS_WARP_CTL_PCW >= 64 ? ~0ull : (1ull << HAWS_WARP_CTL_PCW) - 1;
static const uint64_t kWin = HAWS_WARP_CTL_Win >= 64 ? ~0ull : (1ull << HAWS_WARP_CTL_Win) - 1;
static const unsigned kDepth = 8;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static uint64_t rnd64(tb::Rng &r) { return (uint64_t)r.next() << 32 | r.next(); }

struct Entry {
    uint32_t step;
    uint64_t pc;
    bool br, ren;
    uint64_t ready_at;
};

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    TB_STATE g;
    hd_haws_warp_ctl_ref_reset(&g);
    TB_OUT scratch;
    std::deque<Entry> rcu; // the RCU, as haws_rcu would hold it
    uint64_t cyc = 0;
    uint32_t io_pos = 0;   // in-order steps since the stall point, as the warp sees them
    auto present = [&](TB_IN &in) { // the RCU's count and head
        in.rcu_n_i = rcu.size();
        if (!rcu.empty()) {
            in.head_step_i = rcu.front().step;
            in.head_pc_i = rcu.front().pc & kPc;
            in.head_br_i = rcu.front().br;
            in.head_ren_i = rcu.front().ren;
            in.head_ready_i = cyc >= rcu.front().ready_at;
        }
    };
    auto push = [&](const TB_IN &in, bool br, uint64_t ready_at) {
        stim.push_back(in);
        hd_haws_warp_ctl_ref_step(&g, &in, &scratch);
        cyc++;
        if (g.q.clear_o)
            rcu.clear();
        else if (g.q.pop_o && !rcu.empty())
            rcu.pop_front();
        if (g.q.iss_v_o && rcu.size() < kDepth)
            rcu.push_back(Entry{(uint32_t)g.q.iss_step_o, in.wk_iss_pc_i & kPc, br,
                                (bool)g.q.iss_ren_o, ready_at});
        if (g.q.trig_ok_o)
            io_pos = 0;
    };
    push(zero(), false, 0);
    push(zero(), false, 0);
    { // Fig. 5.3/5.7: I3 stall point at PC 3, window 4..6: I4 and I6 selected, I5 not.
        TB_IN in = zero();
        in.trig_v_i = 1;
        in.trig_pc_i = 3;
        in.trig_len_i = 3;
        in.trig_first_i = 4;
        in.trig_sel_i = 0x5; // 4, 6
        in.trig_reach_i = 0x7;
        push(in, false, 0);
        in = zero();
        in.wk_iss_v_i = 1; // I4
        in.wk_iss_pc_i = 4;
        push(in, false, cyc + 2);
        in = zero();
        in.wk_skip_n_i = 1; // I5 skipped
        in.wk_iss_v_i = 1;  // I6 waits for I4 (the RCU's RAW check), issues 2 cycles later
        in.wk_iss_pc_i = 6;
        present(in);
        push(in, false, cyc + 3);
        in = zero();
        in.wk_park_i = 1; // end of the chain
        present(in);
        push(in, false, 0);
        for (int c = 0; c < 3; c++) {
            in = zero();
            present(in);
            push(in, false, 0);
        }
        const uint64_t io[] = {3, 4, 5, 6};
        for (uint64_t pc : io) { // I3 issues, I4 skipped, I5 executed, I6 skipped
            in = zero();
            present(in);
            in.flt_v_i = 1;
            in.flt_pc_i = pc;
            in.flt_mask_ok_i = 1;
            TB_STATE t = g;
            TB_OUT d;
            hd_haws_warp_ctl_ref_step(&t, &in, &d);
            in.stepped_i = t.q.flt_o == HD_HAWS_FLT_NONE;
            push(in, false, 0);
        }
    }
    // Window edges: an issue just past an even-length window, and at the last bit of a full
    // 64-PC window whose reach or rename bit is clear there; each episode dropped by a reset.
    {
        struct { uint64_t pc, len, sel, reach, ren, at; } w[] = {
            {1000, 4, 0x1f, 0x1f, 0, 1005},
            {2000, HAWS_WARP_CTL_Win, kWin, kWin, 0, 2000 + HAWS_WARP_CTL_Win},
            {3000, HAWS_WARP_CTL_Win, kWin, kWin >> 1, kWin, 3000 + HAWS_WARP_CTL_Win},
        };
        for (const auto &e : w) {
            TB_IN in = zero();
            present(in);
            in.trig_v_i = 1;
            in.trig_pc_i = e.pc & kPc;
            in.trig_len_i = e.len;
            in.trig_first_i = (e.pc + 1) & kPc;
            in.trig_sel_i = e.sel & kWin;
            in.trig_reach_i = e.reach & kWin;
            in.trig_ren_i = e.ren & kWin;
            push(in, false, 0);
            in = zero();
            present(in);
            in.wk_iss_v_i = 1;
            in.wk_iss_pc_i = e.at & kPc;
            push(in, false, 0);
            in = zero();
            in.reset_i = 1;
            push(in, false, 0);
        }
    }
    // A back-edge window ([haws] back_edges): stall point at PC 40 in a loop from PC 32, window
    // PCs 32..51; selected 42 and 45 after the stall point, then through the back edge 33 and
    // 36. The walk issues at the fetch-PC generator's PCs (42, 45, 33, 36: the wrap), then parks.
    {
        TB_IN in = zero();
        present(in);
        in.trig_v_i = 1;
        in.trig_pc_i = 40;
        in.trig_first_i = 32;
        in.trig_len_i = 20;
        in.trig_sel_i = 1u << 10 | 1u << 13 | 1u << 1 | 1u << 4;
        in.trig_reach_i = in.trig_sel_i | 1u << 8;
        in.trig_ren_i = 1u << 13 | 1u << 1;
        push(in, false, 0);
        for (int i = 0; i < 4; i++) {
            in = zero();
            present(in);
            in.wk_iss_v_i = 1;
            in.wk_iss_pc_i = g.q.fetch_pc_o;
            push(in, false, cyc + 2);
        }
        in = zero();
        present(in);
        in.wk_park_i = 1;
        push(in, false, 0);
        in = zero();
        in.reset_i = 1;
        push(in, false, 0);
    }
    while (stim.size() < o.cycles) {
        TB_IN in = zero();
        present(in);
        if (r.below(16) == 0) { // unconstrained
            in.reset_i = r.below(8) == 0;
            in.rcu_n_i = r.below(1u << HAWS_WARP_CTL_NW);
            in.head_step_i = r.below(1u << HAWS_WARP_CTL_SW);
            in.head_pc_i = rnd64(r) & kPc;
            in.head_br_i = r.below(2);
            in.head_ready_i = r.below(2);
            in.head_ren_i = r.below(2);
            in.flt_v_i = r.below(2);
            in.flt_pc_i = r.below(2) ? g.stall_pc : rnd64(r) & kPc;
            in.flt_mask_ok_i = r.below(2);
            in.stepped_i = r.below(2);
            in.trig_v_i = r.below(2);
            in.trig_pc_i = rnd64(r) & kPc;
            in.trig_len_i = r.below(1u << HAWS_WARP_CTL_LW);
            in.trig_first_i = r.below(2) ? (in.trig_pc_i + 1 - r.below(70)) & kPc : rnd64(r) & kPc;
            in.trig_sel_i = rnd64(r) & kWin;
            in.trig_ren_i = rnd64(r) & kWin;
            in.trig_reach_i = rnd64(r) & kWin;
            in.wk_skip_n_i = r.below(4);
            in.wk_iss_v_i = r.below(2);
            in.wk_iss_pc_i = rnd64(r) & kPc;
            in.wk_park_i = r.below(2);
            push(in, r.below(4) == 0, cyc + r.below(4));
            continue;
        }
        if (r.below(200) == 0) {
            in.reset_i = 1;
            push(in, false, 0);
            continue;
        }
        bool br = false;
        uint64_t ready_at = 0;
        switch (g.mode) {
        case HD_HAWS_IDLE:
            if (r.below(3) == 0) {
                const uint64_t pc = r.below(8) == 0 ? (kPc - r.below(70)) & kPc : r.below(5000);
                const uint32_t len = 1 + r.below(HAWS_WARP_CTL_Win);
                const uint64_t lm = len >= 64 ? ~0ull : (1ull << len) - 1;
                in.trig_v_i = 1;
                in.trig_pc_i = pc;
                in.trig_len_i = len;
                // a back-edge window in one of three: the loop's first PC up to len - 1
                // PCs before the stall point's next (the stall point's own bit included)
                const uint32_t off = r.below(3) == 0 ? r.below(len + 1) : 0;
                in.trig_first_i = (pc + 1 - off) & kPc;
                in.trig_reach_i = (r.below(4) ? lm : rnd64(r)) & kWin;
                in.trig_sel_i = rnd64(r) & in.trig_reach_i & (r.below(2) ? kWin : lm);
                in.trig_ren_i = rnd64(r) & in.trig_sel_i & rnd64(r);
                if (r.below(4) == 0) // an in-order step of a stale return stream
                    in.stepped_i = 1;
            } else if (r.below(6) == 0) { // the RCU still holds entries of another episode
                in.rcu_n_i = 1 + r.below(kDepth);
                in.trig_v_i = 1;
                in.trig_pc_i = r.below(500);
                in.trig_len_i = 8;
                in.trig_first_i = in.trig_pc_i + 1;
                in.trig_sel_i = 0xff;
                in.trig_reach_i = 0xff;
            }
            break;
        case HD_HAWS_HINT:
            if (r.below(10) == 0) { // the long-latency flag cleared: the head issues
                in.flt_v_i = 1;
                in.flt_pc_i = r.below(12) ? g.stall_pc : (g.stall_pc + 1) & kPc;
                in.flt_mask_ok_i = 1;
                in.stepped_i = 1; // the stall point executes in order (the filter says none)
                io_pos = 1;
                break;
            }
            if (g.parked)
                break;
            in.wk_skip_n_i = r.below(3) == 0 ? r.below(4) : 0;
            if (rcu.size() < kDepth && r.below(3)) {
                in.wk_iss_v_i = 1;
                // (the window's first PC: stall PC + 1 - the stall point's next PC's bit)
                in.wk_iss_pc_i = g.q.fetch_v_o && r.below(8)
                                     ? g.q.fetch_pc_o
                                     : (g.stall_pc + 1 - g.off + r.below(70)) & kPc;
                br = r.below(6) == 0;
                ready_at = cyc + 1 + (r.below(4) == 0 ? 20 + r.below(60) : r.below(6));
            }
            in.wk_park_i = rcu.size() >= kDepth - 1 || r.below(12) == 0;
            break;
        default: { // return: the in-order stream, mostly along the RCU's steps
            in.flt_v_i = 1;
            in.flt_mask_ok_i = r.below(40) != 0;
            if (!rcu.empty() && rcu.front().step == g.io_step && r.below(30))
                in.flt_pc_i = rcu.front().pc;
            else
                in.flt_pc_i = (g.stall_pc + 1 + g.io_step + (r.below(30) == 0 ? 100 : 0)) & kPc;
            TB_STATE t = g;
            TB_OUT d;
            hd_haws_warp_ctl_ref_step(&t, &in, &d);
            in.stepped_i = t.q.flt_o == HD_HAWS_FLT_NONE && r.below(5) != 0;
            break;
        }
        }
        push(in, br, ready_at);
    }
    uint64_t commits = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) { commits += out.flt_o >= 2; };
    int rc = tb::run("tb_haws_warp_ctl", o, stim, cover);
    std::printf("tb_haws_warp_ctl: %" PRIu64 " results committed by the filter\n", commits);
    return rc;
}
