// SPDX-License-Identifier: MIT
// tb_shieh_tb_status.cpp - SystemC testbench of shieh_tb_status (Verilator --sc): the rows of
// Fig 3.10 (TB0 486 instructions issued at 2000 flushable, TB1 20 at 2474 not, TBN 574 at 1862
// flushable), then seeded random TB lifetimes (placements, resumes with a count, warp
// instructions on every issue port, atomics and global stores clearing the flush bit, exits,
// reads, counters at saturation); every output compared with the C reference every cycle;
// coverage bins reported (all required).
extern "C" {
#include "shieh_tb_status.h"
}
#include "Vshieh_tb_status.h"
#define HD_PORTS_DEF "shieh_tb_status_ports.def"
#define TB_TOP Vshieh_tb_status
#define TB_IN struct hd_shieh_tb_status_in
#define TB_OUT struct hd_shieh_tb_status_out
#define TB_STATE struct hd_shieh_tb_status_state
#define TB_REF_RESET hd_shieh_tb_status_ref_reset
#define TB_REF_STEP hd_shieh_tb_status_ref_step
#define TB_BLOCK hd_shieh_tb_status_block
#define TB_REF_IDLE hd_shieh_tb_status_ref_idle
#include "tb_harness.h"

static const unsigned kSlots = HD_SHIEH_TBS_SLOTS, kIss = HD_SHIEH_TBS_ISS, kW = SHIEH_TB_STATUS_TbW;
static const uint64_t kMax = SHIEH_TB_STATUS_CW == 64 ? ~0ull : (1ull << SHIEH_TB_STATUS_CW) - 1;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN alloc(unsigned slot, uint64_t cycle, uint64_t instr, bool flush)
{
    TB_IN in = zero();
    in.alloc_v_i = 1;
    in.alloc_slot_i = slot;
    in.alloc_cycle_i = cycle;
    in.alloc_instr_i = instr;
    in.alloc_flush_i = flush;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    // Two idle cycles after reset (the reference's idle test must say idle), then Fig 3.10.
    TB_IN rest;
    std::memset(&rest, 0, sizeof rest);
    stim.push_back(rest);
    stim.push_back(rest);
    stim.push_back(alloc(0, 2000, 486, true));
    stim.push_back(alloc(1, 2474, 20, false));
    stim.push_back(alloc(kSlots - 1, 1862, 574, true));
    for (unsigned s : {0u, 1u, kSlots - 1}) {
        TB_IN in = zero();
        in.rd_v_i = 1;
        in.rd_slot_i = s;
        stim.push_back(in);
    }
    // Saturation: a count two below the maximum, then two ports on the slot for two cycles.
    stim.push_back(alloc(0, 7, kMax - 2, true));
    for (int c = 0; c < 2; c++) {
        TB_IN in = zero();
        for (unsigned k = 0; k < kIss && k < 2; k++)
            in.iss_v_i |= 1ull << k; // slot 0 on ports 0 and 1
        in.rd_v_i = 1;
        stim.push_back(in);
    }
    uint64_t now = 3000;
    while (stim.size() < o.cycles) {
        TB_IN in = zero();
        now += 1 + r.below(3);
        unsigned what = r.below(16);
        if (what == 0)
            in = alloc(r.below(1u << kW), now, r.below(4) ? 0 : r.next(), r.below(3) != 0);
        else if (what == 1) {
            in.free_v_i = 1;
            in.free_slot_i = r.below(1u << kW);
        } else if (what == 2) { // exit and placement in one cycle, maybe the same slot
            unsigned s = r.below(kSlots);
            in = alloc(r.below(2) ? s : r.below(kSlots), now, 0, true);
            in.free_v_i = 1;
            in.free_slot_i = s;
        }
        for (unsigned k = 0; k < kIss; k++) {
            if (r.below(3) == 0)
                continue;
            in.iss_v_i |= 1ull << k;
            in.iss_slot_i |= (uint64_t)r.below(kSlots) << (k * kW);
            if (r.below(40) == 0)
                in.iss_nonidem_i |= 1ull << k;
        }
        if (r.below(4) == 0) {
            in.rd_v_i = 1;
            in.rd_slot_i = r.below(1u << kW);
        }
        stim.push_back(in);
    }
    enum { FIN, RD_VALID, RD_FREE, FLUSH_CLEARED, SATURATED, SAME_SLOT, FREE_ALLOC, FIG310, NBINS };
    static const char *const names[NBINS] = {"TB left (fin)", "read running slot", "read free slot",
                                             "running, not flushable", "counter saturated",
                                             "two ports one slot", "free+alloc one cycle",
                                             "Fig 3.10 rows"};
    uint64_t cov[NBINS] = {0};
    unsigned reads = 0, fig_ok = 0;
    auto cover = [&](const TB_IN &i, const TB_OUT &out) {
        if (i.free_v_i && i.alloc_v_i)
            cov[FREE_ALLOC]++;
        for (unsigned a = 0; a < kIss; a++)
            for (unsigned b = a + 1; b < kIss; b++)
                if (((i.iss_v_i >> a) & (i.iss_v_i >> b) & 1u) &&
                    ((i.iss_slot_i >> (a * kW)) & ((1u << kW) - 1)) ==
                        ((i.iss_slot_i >> (b * kW)) & ((1u << kW) - 1)))
                    cov[SAME_SLOT]++;
        cov[FIN] += out.fin_v_o != 0;
        if (!out.rd_v_o)
            return;
        cov[out.rd_valid_o ? RD_VALID : RD_FREE]++;
        if (out.rd_valid_o && !out.rd_flush_o)
            cov[FLUSH_CLEARED]++;
        if (out.rd_instr_o == kMax)
            cov[SATURATED]++;
        if (reads < 3) {
            static const uint64_t want[3][3] = {{486, 2000, 1}, {20, 2474, 0}, {574, 1862, 1}};
            fig_ok += out.rd_instr_o == want[reads][0] && out.rd_issue_o == want[reads][1] &&
                      out.rd_flush_o == want[reads][2];
            if (++reads == 3 && fig_ok == 3)
                cov[FIG310]++;
        }
    };
    int rc = tb::run("tb_shieh_tb_status", o, stim, cover);
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-22s %8" PRIu64 "\n", names[b], cov[b]);
        hit += cov[b] != 0;
    }
    std::printf("tb_shieh_tb_status: %u of %u bins covered (%u slots, %u issue ports)\n", hit,
                NBINS, kSlots, kIss);
    return rc != 0 ? rc : hit == NBINS ? 0 : 1;
}
