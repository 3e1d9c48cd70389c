// SPDX-License-Identifier: MIT
// tb_gpuduet_queues.cpp - SystemC testbench of gpuduet_queues (Verilator --sc): a warp swap
// (three warps stall, one becomes ready, the CSL pops one of each: the oldest stalled warp and
// the ready one come out in order), each queue filled to its depth with the next push dropped, a
// push and a pop on a full queue, a pop of an empty queue with a push in the same cycle; then
// seeded random pushes and pops on all four queues (fill-heavy and drain-heavy phases, ids over
// the whole field so that the TB queues' truncation shows) with reads; every output compared
// with the C reference every cycle, a reset mid-stream; FIFO order checked against a software
// queue; coverage bins of gpuduet_queues_cover.def.
extern "C" {
#include "gpuduet_queues.h"
}
#include "Vgpuduet_queues.h"
#define HD_PORTS_DEF "gpuduet_queues_ports.def"
#define TB_TOP Vgpuduet_queues
#define TB_IN struct hd_gpuduet_queues_in
#define TB_OUT struct hd_gpuduet_queues_out
#define TB_STATE struct hd_gpuduet_queues_state
#define TB_REF_RESET hd_gpuduet_queues_ref_reset
#define TB_REF_STEP hd_gpuduet_queues_ref_step
#define TB_BLOCK hd_gpuduet_queues_block
#define TB_REF_IDLE hd_gpuduet_queues_ref_idle
#include "tb_harness.h"

#include <deque>

static const unsigned kIW = GPUDUET_QUEUES_IW, kTIW = GPUDUET_QUEUES_TIW;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static void push(TB_IN &in, unsigned q, unsigned id)
{
    in.push_v_i |= 1u << q;
    in.push_id_i = hd_gpuduet_queues_field_set(in.push_id_i, q, kIW, id);
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero()); // two idle cycles: the idle test must say idle at rest
    stim.push_back(zero());
    TB_IN in = zero();
    for (unsigned w : {17u, 42u, 99u}) { // three warps stall
        in = zero();
        push(in, HD_GQ_STALLED_W, w);
        stim.push_back(in);
    }
    in = zero();
    push(in, HD_GQ_READY_W, 5); // warp 5's load returned while it was absent
    in.rd_v_i = 1;
    stim.push_back(in);
    in = zero();
    in.rd_v_i = 1; // both non-empty: the CSL swaps
    stim.push_back(in);
    in = zero();
    in.pop_v_i = (1u << HD_GQ_STALLED_W) | (1u << HD_GQ_READY_W);
    stim.push_back(in); // 17 and 5 come out
    stim.push_back(zero());
    for (unsigned q = 0; q < HD_GQ_N; q++) { // fill every queue, one more push dropped
        for (unsigned k = 0; k <= hd_gpuduet_queues_depth(q); k++) {
            in = zero();
            push(in, q, 100 + k);
            stim.push_back(in);
        }
        in = zero(); // a push and a pop on the full queue: both happen
        push(in, q, 7);
        in.pop_v_i = 1u << q;
        in.rd_v_i = 1;
        stim.push_back(in);
    }
    for (unsigned k = 0; k < 20; k++) { // drain all
        in = zero();
        in.pop_v_i = 15;
        stim.push_back(in);
    }
    in = zero(); // a pop of an empty queue with a push in the same cycle: the pop gets nothing
    push(in, HD_GQ_READY_TB, 3);
    in.pop_v_i = 1u << HD_GQ_READY_TB;
    in.rd_v_i = 1;
    stim.push_back(in);
    std::vector<uint64_t> resets;
    while (stim.size() < o.cycles) {
        size_t c = stim.size();
        if (c == o.cycles / 2)
            resets.push_back(c);
        bool fill = (c / 300) % 2 == 0;
        TB_IN x = zero();
        for (unsigned q = 0; q < HD_GQ_N; q++) {
            if (r.below(10) < (fill ? 6u : 3u))
                push(x, q, r.below(1u << kIW));
            if (r.below(10) < (fill ? 3u : 6u))
                x.pop_v_i |= 1u << q;
        }
        if (r.below(3) == 0)
            x.rd_v_i = 1;
        stim.push_back(x);
    }
    // Software queues: FIFO order, depth and truncation, independent of the reference. A pop
    // takes the head (or nothing) before the cycle's push; its result shows one cycle later.
    std::deque<unsigned> sw[HD_GQ_N];
    int want[HD_GQ_N]; // the previous cycle's pop: -2 none asked, -1 empty, else the id
    for (int &w : want)
        w = -2;
    uint64_t pops = 0, wrong = 0;
    size_t cyc = 0;
    auto check = [&](const TB_IN &i, const TB_OUT &out) {
        if (!resets.empty() && cyc == resets[0]) {
            for (unsigned q = 0; q < HD_GQ_N; q++)
                sw[q].clear(), want[q] = -2;
        }
        cyc++;
        for (unsigned q = 0; q < HD_GQ_N; q++) {
            bool got = (out.pop_v_o >> q) & 1u;
            unsigned id = (unsigned)hd_gpuduet_queues_field(out.pop_id_o, q, kIW);
            if ((want[q] >= 0) != got || (got && id != (unsigned)want[q])) {
                if (wrong++ < 10)
                    std::printf("tb_gpuduet_queues: queue %u pop got %d id %u, software queue says %d\n",
                                q, got, id, want[q]);
            }
            pops += got;
            want[q] = -2;
            if ((i.pop_v_i >> q) & 1u) {
                want[q] = sw[q].empty() ? -1 : (int)sw[q].front();
                if (!sw[q].empty())
                    sw[q].pop_front();
            }
            if (((i.push_v_i >> q) & 1u) && sw[q].size() < hd_gpuduet_queues_depth(q))
                sw[q].push_back((unsigned)hd_gpuduet_queues_field(i.push_id_i, q, kIW) &
                                ((1u << (q < 2 ? kIW : kTIW)) - 1u));
        }
    };
    int rc = tb::run("tb_gpuduet_queues", o, stim, check, resets);
    std::printf("tb_gpuduet_queues: %" PRIu64 " pops checked against software queues, %" PRIu64 " wrong\n",
                pops, wrong);
    // The packed-field helpers a model uses: a field set leaves its neighbours alone.
    for (unsigned q = 0; q < HD_GQ_N; q++) {
        uint64_t all = (1ull << (4 * kIW)) - 1, v = hd_gpuduet_queues_field_set(all, q, kIW, 0);
        if (v != (all & ~(((1ull << kIW) - 1) << (q * kIW))) || hd_gpuduet_queues_field(all, q, kIW) != (1u << kIW) - 1) {
            std::printf("tb_gpuduet_queues: field helpers wrong for field %u\n", q);
            rc = 1;
        }
    }
    if (hd_gpuduet_queues_depth(HD_GQ_READY_W) != GPUDUET_QUEUES_WD || hd_gpuduet_queues_depth(HD_GQ_READY_TB) != GPUDUET_QUEUES_TD)
        rc = 1;
    return rc != 0 ? rc : wrong == 0 && pops > 1000 ? 0 : 1;
}
