// SPDX-License-Identifier: MIT
// tb_shieh_victim_sets.cpp - SystemC testbench of shieh_victim_sets (Verilator --sc): the
// directed sequence of Fig 3.8/3.9 (four candidates, Candidate 1 preempted), then seeded random
// requests (clear, a row per position, then evictions of whole candidates or single TBs,
// placements that invalidate rows, reads, several requests in one cycle), resets mid-stream and
// reads before the first clear after each reset; every output compared with the C reference
// every cycle; coverage bins reported (all required).
extern "C" {
#include "shieh_victim_sets.h"
}
#include "Vshieh_victim_sets.h"
#define HD_PORTS_DEF "shieh_victim_sets_ports.def"
#define TB_TOP Vshieh_victim_sets
#define TB_IN struct hd_shieh_victim_sets_in
#define TB_OUT struct hd_shieh_victim_sets_out
#define TB_STATE struct hd_shieh_victim_sets_state
#define TB_REF_RESET hd_shieh_victim_sets_ref_reset
#define TB_REF_STEP hd_shieh_victim_sets_ref_step
#define TB_BLOCK hd_shieh_victim_sets_block
#define TB_REF_IDLE hd_shieh_victim_sets_ref_idle
#include "tb_harness.h"

static const unsigned kRows = HD_SHIEH_VS_ROWS, kTbs = HD_SHIEH_VS_TBS;
static const uint64_t kMask = kTbs == 64 ? ~0ull : (1ull << kTbs) - 1;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

// Fig 3.8 bitsets are written MSB-left = slot 0: "11100000" is slots 0, 1, 2.
static uint64_t fig(const char *s)
{
    uint64_t v = 0;
    for (unsigned j = 0; s[j] && j < kTbs; j++)
        if (s[j] == '1')
            v |= 1ull << j;
    return v;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    // Fig 3.8/3.9: write four rows, read them, Signal 00111000, read them again.
    const char *rows[4] = {"11100000", "00111000", "00001110", "00000011"};
    std::vector<uint64_t> resets;
    // After reset and before any clear or write: every row invalid and empty, reads say so.
    auto no_request = [&](void) {
        for (unsigned c = 0; c < 2; c++) {
            TB_IN x = zero();
            x.rd_v_i = 1;
            x.rd_idx_i = r.below(kRows);
            x.ev_v_i = c; // an eviction of nothing
            x.ev_mask_i = kMask;
            stim.push_back(x);
        }
        stim.push_back(zero());
    };
    no_request();
    TB_IN in = zero();
    in.clr_i = 1;
    stim.push_back(in);
    for (unsigned k = 0; k < 4 && k < kRows; k++) {
        in = zero();
        in.wr_v_i = 1;
        in.wr_idx_i = k;
        in.wr_bits_i = fig(rows[k]);
        stim.push_back(in);
    }
    in = zero();
    in.ev_v_i = 1;
    in.ev_mask_i = fig("00111000");
    stim.push_back(in);
    for (unsigned k = 0; k < 4 && k < kRows; k++) {
        in = zero();
        in.rd_v_i = 1;
        in.rd_idx_i = k;
        stim.push_back(in);
    }
    // Random requests, with resets mid-stream.
    size_t next_reset = stim.size() + 1000;
    while (stim.size() < o.cycles) {
        if (stim.size() >= next_reset) {
            next_reset = stim.size() + 1000 + r.below(3000);
            resets.push_back(stim.size());
            no_request();
        }
        in = zero();
        in.clr_i = 1;
        stim.push_back(in);
        unsigned k = 1 + r.below(kRows);
        std::vector<uint64_t> bits(k);
        for (unsigned p = 0; p < k; p++) {
            bits[p] = r.below(4) == 0 ? 0 : (r.next() | ((uint64_t)r.next() << 32)) & kMask;
            in = zero();
            in.wr_v_i = 1;
            in.wr_idx_i = p;
            in.wr_bits_i = bits[p];
            in.rd_v_i = r.below(3) == 0;
            in.rd_idx_i = r.below(kRows);
            stim.push_back(in);
        }
        unsigned ops = 4 + r.below(24);
        for (unsigned i = 0; i < ops; i++) {
            in = zero();
            unsigned what = r.below(6);
            if (what == 0) { // a whole candidate is preempted (the Signal)
                in.ev_v_i = 1;
                in.ev_mask_i = bits[r.below(k)];
            } else if (what == 1) { // one TB finished
                in.ev_v_i = 1;
                in.ev_mask_i = 1ull << r.below(kTbs);
            } else if (what == 2) { // a preempting TB placed at a position
                in.inv_v_i = 1;
                in.inv_idx_i = r.below(1u << SHIEH_VICTIM_SETS_CandW);
            } else if (what == 3) { // several at once
                in.ev_v_i = 1;
                in.ev_mask_i = (r.next() | ((uint64_t)r.next() << 32)) & kMask;
                in.wr_v_i = r.below(2);
                in.wr_idx_i = r.below(1u << SHIEH_VICTIM_SETS_CandW);
                in.wr_bits_i = (r.next() | ((uint64_t)r.next() << 32)) & kMask;
                in.inv_v_i = r.below(2);
                in.inv_idx_i = r.below(1u << SHIEH_VICTIM_SETS_CandW);
                in.clr_i = r.below(8) == 0;
            }
            if (!in.ev_v_i && r.below(4) == 0) // a mask without its valid bit: ignored
                in.ev_mask_i = (r.next() | ((uint64_t)r.next() << 32)) & kMask;
            in.rd_v_i = what >= 4 || r.below(2);
            in.rd_idx_i = r.below(1u << SHIEH_VICTIM_SETS_CandW);
            stim.push_back(in);
            if (r.below(5) == 0)
                stim.push_back(zero());
        }
    }
    enum { READ, READ_EMPTY, READ_PART, ALL_EMPTY, SAME_CYCLE, FIG39, NBINS };
    static const char *const names[NBINS] = {"read", "read empty row", "read non-empty row",
                                             "every valid row empty", "write+evict one cycle",
                                             "Fig 3.9 after-values"};
    uint64_t cov[NBINS] = {0};
    unsigned fig_reads = 0, fig_ok = 0;
    bool started = false; // the Fig 3.8 sequence began (its clear)
    const char *after[4] = {"11000000", "00000000", "00000110", "00000011"};
    auto cover = [&](const TB_IN &i, const TB_OUT &out) {
        started |= i.clr_i != 0;
        if (i.wr_v_i && i.ev_v_i)
            cov[SAME_CYCLE]++;
        if (!out.rd_v_o)
            return;
        cov[READ]++;
        if (out.rd_bits_o == 0)
            cov[READ_EMPTY]++;
        else
            cov[READ_PART]++;
        if (out.row_valid_o && out.row_valid_o == out.row_empty_o)
            cov[ALL_EMPTY]++;
        if (started && fig_reads < 4 && fig_reads < kRows) { // the first reads are Fig 3.9's
            fig_ok += out.rd_bits_o == fig(after[fig_reads]);
            fig_reads++;
            if (fig_reads == 4 && fig_ok == 4)
                cov[FIG39]++;
        }
    };
    int rc = tb::run("tb_shieh_victim_sets", o, stim, cover, resets);
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-24s %8" PRIu64 "\n", names[b], cov[b]);
        hit += cov[b] != 0;
    }
    std::printf("tb_shieh_victim_sets: %u of %u bins covered (%u rows x %u TBs), %zu resets "
                "mid-stream\n", hit, NBINS, kRows, kTbs, resets.size());
    return rc != 0 ? rc : hit == NBINS && (!resets.empty() || o.cycles < 2000) ? 0 : 1;
}
