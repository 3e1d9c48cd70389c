// SPDX-License-Identifier: MIT
// tb_ctx_ctl.cpp - SystemC testbench of ctx_ctl (Verilator --sc): operations as the context
// engine presents them (a save whose register, shared-memory, stack and CCB requests drain in
// order while the packer finishes; a restore whose reads go out and return), with random delays
// and random status noise that the protocol allows; every output compared with the C reference
// every cycle, and the reference's idle test (TB_REF_IDLE). Self-check: each operation ends in
// DONE exactly once, in the order of its parts and within 1,000 cycles (a controller that makes
// no progress fails the run instead of looping); every state has a name of its own. Coverage:
// cycles per state, every state and every transition of the table (all required).
extern "C" {
#include "ctx_ctl.h"
}
#include "Vctx_ctl.h"
#define HD_PORTS_DEF "ctx_ctl_ports.def"
#define TB_TOP Vctx_ctl
#define TB_IN struct hd_ctx_ctl_in
#define TB_OUT struct hd_ctx_ctl_out
#define TB_STATE struct hd_ctx_ctl_state
#define TB_REF_RESET hd_ctx_ctl_ref_reset
#define TB_REF_STEP hd_ctx_ctl_ref_step
#define TB_BLOCK hd_ctx_ctl_block
#define TB_REF_IDLE hd_ctx_ctl_ref_idle
#include "tb_harness.h"

#include <algorithm>

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    struct hd_ctx_ctl_state s;
    hd_ctx_ctl_ref_reset(&s);
    uint64_t trans[10][10] = {{0}}, ops = 0, dones = 0, order_bad = 0;
    // The engine's operation: its remaining requests by part, in order.
    std::vector<unsigned> reqs;
    size_t sent = 0;
    bool busy = false, restore = false, quiet = false, regs_done = false, data = false;
    unsigned quiet_in = 0, regs_in = 0, data_in = 0;
    // An operation lasts at most 42 cycles at --seed 1 (printed); a controller (a mutated
    // reference) that makes no progress for 1,000 cycles fails the run instead of looping.
    uint64_t op_start = 0, stuck = 0, longest = 0;
    while (stim.size() < o.cycles || busy) {
        if (busy && stim.size() - op_start > 1000) {
            std::printf("tb_ctx_ctl: operation %" PRIu64 " (%s) not DONE after 1000 cycles, in %s "
                        "at cycle %zu\n", ops, restore ? "restore" : "save",
                        hd_ctx_ctl_state_name(s.st), stim.size());
            stuck++;
            break;
        }
        TB_IN in;
        std::memset(&in, 0, sizeof in);
        TB_OUT now;
        hd_ctx_ctl_outputs(s.st, &now); // the outputs during this cycle (the engine's view)
        if (!busy && s.st == HD_CTXCTL_IDLE && r.below(4) == 0 && stim.size() < o.cycles) {
            busy = true;
            op_start = stim.size();
            restore = r.below(2);
            ops++;
            reqs.clear();
            sent = 0;
            if (restore)
                reqs.push_back(HD_CTXCTL_PART_CCB);
            for (unsigned k = r.below(6); k; k--)
                reqs.push_back(HD_CTXCTL_PART_REGS);
            for (unsigned k = r.below(4); k; k--)
                reqs.push_back(HD_CTXCTL_PART_SMEM);
            for (unsigned k = r.below(3); k; k--)
                reqs.push_back(HD_CTXCTL_PART_STACK);
            if (!restore)
                reqs.push_back(HD_CTXCTL_PART_CCB);
            quiet = regs_done = data = false;
            quiet_in = r.below(4);
            regs_in = r.below(12);
            data_in = 2 + r.below(8);
            in.start_i = 1;
            in.restore_i = restore;
        } else if (!busy) {
            in.restore_i = r.below(2); // ignored without start
        }
        if (busy) {
            if (quiet_in) quiet_in--; else quiet = true;
            if (!restore && now.codec_o) { if (regs_in) regs_in--; else regs_done = true; }
            if (restore && sent == reqs.size()) { if (data_in) data_in--; else data = true; }
            if (restore && now.codec_o) { if (regs_in) regs_in--; else regs_done = true; }
            // the engine sends the next request when the controller allows its part
            unsigned next = sent < reqs.size() ? reqs[sent] : HD_CTXCTL_PART_NONE;
            bool ok = now.part_o == HD_CTXCTL_PART_ANY ? next != HD_CTXCTL_PART_CCB
                                                      : now.part_o == next;
            in.quiet_i = quiet;
            in.next_i = next;
            in.all_sent_i = sent == reqs.size();
            in.regs_done_i = regs_done;
            in.data_i = data;
            if (next != HD_CTXCTL_PART_NONE && ok && r.below(3) != 0)
                sent++; // visible in the status from the next cycle on
            if (now.done_o) {
                dones++;
                longest = std::max(longest, (uint64_t)stim.size() - op_start);
                order_bad += sent != reqs.size();
                busy = false;
            }
        }
        unsigned before = s.st;
        TB_OUT q;
        hd_ctx_ctl_ref_step(&s, &in, &q);
        if (before <= HD_CTXCTL_DONE && s.st <= HD_CTXCTL_DONE)
            trans[before][s.st]++;
        stim.push_back(in);
    }
    auto cover = [&](const TB_IN &, const TB_OUT &) {};
    int rc = tb::run("tb_ctx_ctl", o, stim, cover);
    // every transition of the table
    static const unsigned want[][2] = {{0, 0}, {0, 1}, {0, 6}, {1, 1}, {1, 2}, {2, 2}, {2, 3},
                                       {3, 3}, {3, 4}, {4, 4}, {4, 5}, {5, 5}, {5, 9}, {6, 6},
                                       {6, 7}, {7, 7}, {7, 8}, {8, 8}, {8, 9}, {9, 0}};
    unsigned hit = 0, n = sizeof want / sizeof want[0];
    for (unsigned i = 0; i < n; i++) {
        hit += trans[want[i][0]][want[i][1]] != 0;
        if (!trans[want[i][0]][want[i][1]])
            std::printf("not covered: %s -> %s\n", hd_ctx_ctl_state_name(want[i][0]),
                        hd_ctx_ctl_state_name(want[i][1]));
    }
    // cycles per state, by name: every state has a name of its own (this report and the
    // located messages print them)
    unsigned named = 0;
    std::printf("states:");
    for (unsigned a = 0; a <= HD_CTXCTL_DONE; a++) {
        const char *na = hd_ctx_ctl_state_name(a);
        bool own = std::strcmp(na, "?") != 0;
        for (unsigned b = 0; b < a; b++)
            own = own && std::strcmp(na, hd_ctx_ctl_state_name(b)) != 0;
        named += own;
        uint64_t cyc = 0;
        for (unsigned b = 0; b <= HD_CTXCTL_DONE; b++)
            cyc += trans[a][b];
        std::printf(" %s %" PRIu64, na, cyc);
    }
    std::printf("\n");
    if (named != HD_CTXCTL_DONE + 1)
        std::printf("tb_ctx_ctl: %u of %u states have a name of their own\n", named,
                    HD_CTXCTL_DONE + 1);
    std::printf("tb_ctx_ctl: %" PRIu64 " operations, %" PRIu64 " DONE (longest %" PRIu64
                " cycles), %u of %u transitions, %" PRIu64 " done before every request was sent\n",
                ops, dones, longest, hit, n, order_bad);
    bool ok = hit == n && dones == ops && order_bad == 0 && stuck == 0 &&
              named == HD_CTXCTL_DONE + 1;
    return rc != 0 ? rc : ok ? 0 : 1;
}
