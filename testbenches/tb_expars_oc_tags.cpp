// SPDX-License-Identifier: MIT
// tb_expars_oc_tags.cpp - SystemC testbench of expars_oc_tags (Verilator --sc): the digest's
// direct-mapped conflict (§2.6: R8 and R24 of one warp, and R8 of two warps, take one line), a
// bundle's lines pinned, a warp's lines unpinned and dropped, then seeded random operations from
// a few warps on a few sets (lookups, reads, write-allocates, fills with clean and dirty
// evictions, pins, unpins, steals, drops), then a set whose lines are all pinned; every output
// compared with the C reference every cycle; coverage bins reported (all required).
extern "C" {
#include "expars_oc_tags.h"
}
#include "Vexpars_oc_tags.h"
#define HD_PORTS_DEF "expars_oc_tags_ports.def"
#define TB_TOP Vexpars_oc_tags
#define TB_IN struct hd_expars_oc_tags_in
#define TB_OUT struct hd_expars_oc_tags_out
#define TB_STATE struct hd_expars_oc_tags_state
#define TB_REF_RESET hd_expars_oc_tags_ref_reset
#define TB_REF_STEP hd_expars_oc_tags_ref_step
#define TB_BLOCK hd_expars_oc_tags_block
#define TB_REF_IDLE hd_expars_oc_tags_ref_idle
#include "tb_harness.h"

static const unsigned kLines = EXPARS_OC_TAGS_Lines, kWays = EXPARS_OC_TAGS_Ways;

static TB_IN op(unsigned o, unsigned warp, unsigned reg, uint32_t ver = 0, bool dirty = false)
{
    TB_IN in;
    std::memset(&in, 0, sizeof in);
    in.op_v_i = 1;
    in.op_i = o;
    in.warp_i = warp;
    in.reg_i = reg;
    in.ver_i = ver;
    in.dirty_i = dirty;
    return in;
}

int sc_main(int argc, char **argv)
{
    tb::Options o = tb::parse(argc, argv);
    tb::Rng r{o.seed};
    std::vector<TB_IN> stim;
    TB_IN rest;
    std::memset(&rest, 0, sizeof rest);
    stim.push_back(rest);
    stim.push_back(rest);
    // §2.6: R8 and R24 (8 + 16) of warp 3, then R24 of warp 5, in one line when direct-mapped.
    stim.push_back(op(HD_EXPARS_OC_WRITE, 3, 8, 7));
    stim.push_back(op(HD_EXPARS_OC_READ, 3, 8));
    stim.push_back(op(HD_EXPARS_OC_PUT, 3, 8 + kLines, 1));
    stim.push_back(op(HD_EXPARS_OC_PUT, 5, 8 + kLines, 2));
    stim.push_back(op(HD_EXPARS_OC_PUT, 5, 8 + kLines, 3, true)); // its own line: nothing leaves
    stim.push_back(op(HD_EXPARS_OC_PIN, 5, 8 + kLines));
    stim.push_back(op(HD_EXPARS_OC_PEEK, 6, 8));
    stim.push_back(op(HD_EXPARS_OC_STEAL, 6, 8));
    stim.push_back(op(HD_EXPARS_OC_PIN, 5, 8 + kLines));
    stim.push_back(op(HD_EXPARS_OC_UNPIN, 5, 0));
    stim.push_back(op(HD_EXPARS_OC_DROP, 5, 0));
    const unsigned nw = 4, nr = 3 * kLines; // a few warps on every set, several registers each
    uint32_t ver = 100;
    while (stim.size() < o.cycles) {
        if (r.below(6) == 0) {
            stim.push_back(rest);
            continue;
        }
        // mostly a small working set (hits, LRU order), sometimes any register (conflicts)
        const unsigned w = r.below(nw), what = r.below(32);
        const unsigned reg = r.below(3) ? r.below(kLines / 2 + 1) : r.below(nr);
        unsigned k;
        if (what < 6)
            k = HD_EXPARS_OC_PEEK;
        else if (what < 12)
            k = HD_EXPARS_OC_READ;
        else if (what < 18)
            k = HD_EXPARS_OC_WRITE;
        else if (what < 24)
            k = HD_EXPARS_OC_PUT;
        else if (what < 28)
            k = HD_EXPARS_OC_PIN;
        else if (what < 30)
            k = HD_EXPARS_OC_UNPIN;
        else if (what < 31)
            k = HD_EXPARS_OC_STEAL;
        else
            k = HD_EXPARS_OC_DROP;
        stim.push_back(op(k, w, reg, ++ver, r.below(3) == 0));
    }
    // Every line of set 0 pinned by warp 0, then warp 1's register of that set looks for a
    // victim: the oldest pinned line (appended: the seeded part above stays as it was).
    const unsigned nsets = kLines / kWays;
    for (unsigned i = 0; i < kWays; i++) {
        stim.push_back(op(HD_EXPARS_OC_PUT, 0, i * nsets, 900 + i));
        stim.push_back(op(HD_EXPARS_OC_PIN, 0, i * nsets));
    }
    stim.push_back(op(HD_EXPARS_OC_PEEK, 1, kWays * nsets));
    stim.push_back(op(HD_EXPARS_OC_PUT, 1, kWays * nsets, 999, true));
    stim.push_back(rest);
    enum { FIG_LINE, NBINS };
    static const char *const names[NBINS] = {"direct-mapped conflict"};
    uint64_t cov[NBINS] = {0};
    uint64_t n = 0, line_r8 = 0;
    auto cover = [&](const TB_IN &, const TB_OUT &out) {
        if (!out.res_v_o)
            return;
        n++;
        if (n == 1)
            line_r8 = out.line_o;
        if (n == 3 && kWays == 1 && out.line_o == line_r8 && out.vic_v_o && out.vic_reg_o == 8 &&
            out.vic_dirty_o && out.vic_ver_o == 7)
            cov[FIG_LINE]++;
        if (n == 3 && kWays > 1 && !out.vic_v_o)
            cov[FIG_LINE]++; // (associative: R24 takes another line of the set)
    };
    int rc = tb::run("tb_expars_oc_tags", o, stim, cover);
    unsigned hit = 0;
    std::printf("coverage:\n");
    for (unsigned b = 0; b < NBINS; b++) {
        std::printf("  %-24s %8" PRIu64 "\n", names[b], cov[b]);
        hit += cov[b] != 0;
    }
    std::printf("tb_expars_oc_tags: %u of %u bins covered (%u lines, %u ways)\n", hit, NBINS,
                kLines, kWays);
    return rc != 0 ? rc : hit == NBINS ? 0 : 1;
}
