// SPDX-License-Identifier: MIT
// tb_haws_rename.cpp - SystemC testbench of haws_rename (Verilator --sc): first a directed
// episode (r4 -> entry 0 and r5 -> entry 1 written; a lookup of {r4, r5, r9} hits, hits,
// misses; r4 rewritten by entry 2 -> the newest location; the return clears), then seeded
// random writes over a few registers (overwrites, a full table, refused writes), lookups and
// clears; every output compared with the C reference every cycle; coverage bins reported (all
// required).
extern "C" {
#include "haws_rename.h"
}
#include "Vhaws_rename.h"
#define HD_PORTS_DEF "haws_rename_ports.def"
#define TB_TOP Vhaws_rename
#define TB_IN struct hd_haws_rename_in
#define TB_OUT struct hd_haws_rename_out
#define TB_STATE struct hd_haws_rename_state
#define TB_REF_RESET hd_haws_rename_ref_reset
#define TB_REF_STEP hd_haws_rename_ref_step
#define TB_BLOCK hd_haws_rename_block
#define TB_REF_IDLE hd_haws_rename_ref_idle
#include "tb_harness.h"

static const unsigned kN = HD_HAWS_RENAME_N, kS = HAWS_RENAME_NSRC, kRW = HAWS_RENAME_REGW,
                      kNW = HAWS_RENAME_NEWW;

static TB_IN zero()
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    return in;
}

static TB_IN wr(unsigned orig, unsigned loc)
{
    TB_IN in = zero();
    in.wr_v_i = 1;
    in.wr_orig_i = orig;
    in.wr_new_i = loc;
    return in;
}

static TB_IN look(const unsigned *src, unsigned n)
{
    TB_IN in = zero();
    for (unsigned s = 0; s < n && s < kS; s++) {
        in.rd_v_i |= 1ull << s;
        in.rd_src_i |= (uint64_t)src[s] << (s * kRW);
    }
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    stim.push_back(zero());
    const size_t d0 = stim.size();
    stim.push_back(wr(4, 0));
    stim.push_back(wr(5, 1));
    const unsigned q[3] = {4, 5, 9};
    stim.push_back(look(q, 3)); // d0 + 3: hits r4 -> 0, r5 -> 1, misses r9
    stim.push_back(wr(4, 2));   // r4 rewritten by entry 2
    stim.push_back(look(q, 1)); // d0 + 5: r4 -> 2
    TB_IN in = zero();
    in.clr_i = 1;               // the return
    stim.push_back(in);
    stim.push_back(look(q, 2)); // d0 + 7: count 0; d0 + 8: both miss
    stim.push_back(zero());
    const unsigned regs = kN + 4; // a few more registers than entries: the table fills
    while (stim.size() < o.cycles) {
        TB_IN x = zero();
        const unsigned what = r.below(24);
        if (what == 0)
            x.clr_i = 1;
        if (what == 0 || r.below(5) < 2) {
            x.wr_v_i = 1;
            x.wr_orig_i = r.below(8) ? r.below(regs) : r.below(1u << kRW);
            x.wr_new_i = r.below(1u << kNW);
        }
        for (unsigned s = 0; s < kS; s++)
            if (r.below(2)) {
                x.rd_v_i |= 1ull << s;
                x.rd_src_i |= (uint64_t)(r.below(8) ? r.below(regs) : r.below(1u << kRW))
                              << (s * kRW);
            }
        stim.push_back(x);
    }
    // the directed checks: cycle offset after d0, hits, locations, count
    const uint64_t m = (1ull << kNW) - 1;
    const uint64_t want[4][4] = {{3, 0x3, 0 | (1 & m) << kNW, 2},
                                 {5, 0x1, 2 & m, 2},
                                 {7, 0, 0, 0},
                                 {8, 0, 0, 0}};
    unsigned seen = 0, right = 0;
    size_t cyc = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        for (const auto &w : want)
            if (kS >= 3 && kN >= 2 && cyc == d0 + w[0]) {
                seen++;
                right += out.rd_hit_o == w[1] && out.rd_new_o == w[2] && out.count_o == w[3];
            }
        cyc++;
    };
    int rc = tb::run("tb_haws_rename", o, stim, cover);
    std::printf("tb_haws_rename: directed checks %u of %u (%u entries, %u lookups)\n", right,
                seen, kN, kS);
    return rc != 0 ? rc : right == seen ? 0 : 1;
}
