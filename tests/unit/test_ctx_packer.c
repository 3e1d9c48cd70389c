/* SPDX-License-Identifier: MIT
 * test_ctx_packer.c - the context packer and unpacker (compressors/ctx_packer.h,
 * ctx_unpacker.h; Lin thesis §2.6-2.7) against hand-worked cases:
 *   - a BP_1-like warp (16x16 TB, PAG 16) with five live registers whose sizes are worked out
 *     by hand: tx (strided per 16-lane group: 4 words), ty (uniform per group: 2 words), the loop
 *     counter (uniform: 2 words), the address ty*64+tx*4+base (strided: 4 words) and a loaded
 *     float (random: 32 words) = 44 words = 176 bytes: one full segment and a last one of 12
 *     words, and a pattern vector of 5 codes; the words in the order the record stores them;
 *   - the unpacker reads that record back into the compressor's results, and the decompressor
 *     gives every lane back;
 *   - 64 registers fill a pattern vector, which leaves at once; a flush of an empty record sends
 *     nothing; latency 1 for both blocks; a register taken without its words sets err_o.
 */
#include "ctx_packer.h"
#include "ctx_unpacker.h"
#include "regpat_comp.h"
#include "regpat_decomp.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

struct reg {
    uint32_t lanes[32];
    struct hd_regpat_comp_out co;
};

static void compress(struct reg *r, unsigned pag_sel)
{
    struct hd_regpat_comp_in ci;
    memset(&ci, 0, sizeof ci);
    ci.valid_i = ci.live_i = 1;
    ci.pag_i = pag_sel;
    memcpy(ci.data_i, r->lanes, sizeof ci.data_i);
    hd_regpat_comp_eval(&ci, &r->co);
}

static struct hd_ctx_packer_in pin(const struct reg *r)
{
    struct hd_ctx_packer_in in;
    memset(&in, 0, sizeof in);
    in.valid_i = 1;
    in.pat_i = r->co.pat_o;
    in.words_i = r->co.words_o;
    memcpy(in.base_i, r->co.base_o, sizeof in.base_i);
    memcpy(in.stride_i, r->co.stride_o, sizeof in.stride_i);
    memcpy(in.raw_i, r->lanes, sizeof in.raw_i);
    return in;
}

/* Warp 3 of a 16x16 TB (threads 96..127: ty = 6, 7; tx = 0..15 twice). */
static void bp1_warp(struct reg r[5])
{
    for (unsigned l = 0; l < 32; l++) {
        unsigned tx = l % 16, ty = 6 + l / 16;
        r[0].lanes[l] = tx;
        r[1].lanes[l] = ty;
        r[2].lanes[l] = 7;                                   /* loop counter */
        r[3].lanes[l] = 0x10000000u + ty * 64 + tx * 4;     /* &a[ty][tx], 16 floats a row */
        r[4].lanes[l] = 0x3f800000u ^ (l * 2654435761u);    /* loaded data */
    }
    for (unsigned i = 0; i < 5; i++)
        compress(&r[i], HD_REGPAT_PAG16);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct reg r[5];
    bp1_warp(r);

    hd_test_begin(&t, "bp1 warp: patterns and words by hand");
    const unsigned pat[5] = {HD_REGPAT_STRIDED, HD_REGPAT_UNIFORM, HD_REGPAT_UNIFORM,
                             HD_REGPAT_STRIDED, HD_REGPAT_RANDOM};
    const unsigned words[5] = {4, 2, 2, 4, 32};
    for (unsigned i = 0; i < 5; i++) {
        HD_CHECK_U64(&t, pat[i], r[i].co.pat_o);
        HD_CHECK_U64(&t, words[i], r[i].co.words_o);
    }

    hd_test_begin(&t, "bp1 warp: 176 bytes in two segments, pattern vector of 5");
    struct hd_ctx_packer_state ps;
    hd_ctx_packer_ref_reset(&ps);
    struct hd_ctx_packer_out q, segs[4], pv;
    memset(&pv, 0, sizeof pv);
    memset(segs, 0, sizeof segs);
    unsigned nseg = 0, npv = 0, when_first = 0;
    uint64_t bytes = 0;
    for (unsigned c = 0; c < 9; c++) {
        struct hd_ctx_packer_in in;
        memset(&in, 0, sizeof in);
        if (c < 5)
            in = pin(&r[c]);
        else if (c == 5)
            in.flush_i = 1;
        hd_ctx_packer_ref_step(&ps, &in, &q);
        if (q.seg_valid_o && nseg < 4) {
            if (!nseg)
                when_first = c;
            segs[nseg++] = q;
            bytes += 4ull * q.seg_words_o;
        }
        if (q.pv_valid_o) {
            pv = q;
            npv++;
        }
    }
    HD_CHECK_U64(&t, 2, nseg);
    HD_CHECK_U64(&t, 176, bytes);
    HD_CHECK_U64(&t, 5, when_first); /* the random register (cycle 4) completes it: out at 5 */
    HD_CHECK_U64(&t, 32, segs[0].seg_words_o);
    HD_CHECK_U64(&t, 0, segs[0].seg_last_o);
    HD_CHECK_U64(&t, 12, segs[1].seg_words_o);
    HD_CHECK_U64(&t, 1, segs[1].seg_last_o);
    HD_CHECK_U64(&t, 1, npv);
    HD_CHECK_U64(&t, 5, pv.pv_n_o);
    /* codes 11 01 01 11 10 from entry 0 up: 0b10_11_01_01_11 */
    HD_CHECK_U64(&t, 0x2d7u, pv.pv_o[0]);
    /* record order: tx (base 0 stride 1, base 0 stride 1), ty (6, 7), i (7, 7), the address
     * pairs, then the 32 lanes of the random register */
    const uint32_t head[12] = {0, 1, 0, 1, 6, 7, 7, 7, 0x10000180u, 4, 0x100001c0u, 4};
    for (unsigned i = 0; i < 12; i++)
        HD_CHECK_U64(&t, head[i], segs[0].seg_o[i]);
    for (unsigned i = 12; i < 32; i++)
        HD_CHECK_U64(&t, r[4].lanes[i - 12], segs[0].seg_o[i]);
    for (unsigned i = 0; i < 12; i++)
        HD_CHECK_U64(&t, r[4].lanes[20 + i], segs[1].seg_o[i]);
    for (unsigned i = 12; i < 32; i++)
        HD_CHECK_U64(&t, 0, segs[1].seg_o[i]);

    hd_test_begin(&t, "bp1 warp: unpacked and decompressed, every lane back");
    struct hd_ctx_unpacker_state us;
    hd_ctx_unpacker_ref_reset(&us);
    struct hd_ctx_unpacker_in ui;
    struct hd_ctx_unpacker_out uo;
    unsigned got = 0, cyc = 0;
    bool lanes_ok = true, fields_ok = true;
    /* cycle 0: segment 0; 1: segment 1 (12 words + padding) while taking tx; then one register
     * a cycle, the last with align. */
    for (cyc = 0; cyc < 9; cyc++) {
        memset(&ui, 0, sizeof ui);
        if (cyc <= 1) {
            ui.seg_valid_i = 1;
            memcpy(ui.seg_i, segs[cyc].seg_o, sizeof ui.seg_i);
        }
        if (cyc >= 1 && cyc <= 5) {
            const struct reg *g = &r[cyc - 1];
            ui.valid_i = 1;
            ui.pat_i = g->co.pat_o;
            ui.pag_i = HD_REGPAT_PAG16;
            ui.align_i = cyc == 5;
        }
        hd_ctx_unpacker_ref_step(&us, &ui, &uo);
        if (uo.valid_o && got < 5) {
            const struct reg *g = &r[got++];
            fields_ok &= uo.pat_o == g->co.pat_o &&
                         !memcmp(uo.base_o, g->co.base_o, sizeof uo.base_o) &&
                         !memcmp(uo.stride_o, g->co.stride_o, sizeof uo.stride_o);
            struct hd_regpat_decomp_in di;
            struct hd_regpat_decomp_out d;
            memset(&di, 0, sizeof di);
            di.valid_i = 1;
            di.pat_i = uo.pat_o;
            di.pag_i = uo.pag_o;
            memcpy(di.base_i, uo.base_o, sizeof di.base_i);
            memcpy(di.stride_i, uo.stride_o, sizeof di.stride_i);
            memcpy(di.raw_i, uo.raw_o, sizeof di.raw_i);
            hd_regpat_decomp_eval(&di, &d);
            lanes_ok &= !memcmp(d.data_o, g->lanes, sizeof d.data_o);
        }
        if (cyc == 1)
            HD_CHECK_U64(&t, 32, uo.count_o); /* after cycle 0's edge: one segment */
    }
    HD_CHECK_U64(&t, 5, got);
    HD_CHECK(&t, fields_ok);
    HD_CHECK(&t, lanes_ok);
    HD_CHECK_U64(&t, 0, us.cnt); /* the align dropped the 20 padding words */
    HD_CHECK_U64(&t, 0, uo.err_o);

    hd_test_begin(&t, "64 registers fill a pattern vector; empty flush sends nothing");
    hd_ctx_packer_ref_reset(&ps);
    unsigned pvs = 0, pv_at = 0, segs_out = 0;
    for (unsigned c = 0; c < 70; c++) {
        struct hd_ctx_packer_in in;
        memset(&in, 0, sizeof in);
        if (c < 64)
            in = pin(&r[1]); /* uniform, 2 words: 128 words = 4 segments */
        else if (c == 65)
            in.flush_i = 1;
        hd_ctx_packer_ref_step(&ps, &in, &q);
        if (q.pv_valid_o) {
            pvs++;
            pv_at = c;
            HD_CHECK_U64(&t, 64, q.pv_n_o);
            HD_CHECK_U64(&t, 0x55555555u, q.pv_o[3]);
        }
        segs_out += (unsigned)q.seg_valid_o;
    }
    HD_CHECK_U64(&t, 1, pvs);
    HD_CHECK_U64(&t, 64, pv_at);
    HD_CHECK_U64(&t, 4, segs_out);
    HD_CHECK(&t, hd_ctx_packer_ref_idle(&ps, &(struct hd_ctx_packer_in){0}));

    hd_test_begin(&t, "unpacker: a register without its words sets err_o");
    hd_ctx_unpacker_ref_reset(&us);
    memset(&ui, 0, sizeof ui);
    ui.valid_i = 1;
    ui.pat_i = HD_REGPAT_UNIFORM;
    ui.pag_i = HD_REGPAT_PAG32;
    hd_ctx_unpacker_ref_step(&us, &ui, &uo);
    memset(&ui, 0, sizeof ui);
    hd_ctx_unpacker_ref_step(&us, &ui, &uo);
    HD_CHECK_U64(&t, 1, uo.err_o);
    HD_CHECK_U64(&t, 1, uo.valid_o);
    HD_CHECK(&t, !hd_ctx_unpacker_ref_idle(&us, &ui));
    HD_CHECK_U64(&t, 1, hd_ctx_unpacker_words(HD_REGPAT_UNIFORM, HD_REGPAT_PAG32));
    HD_CHECK_U64(&t, 8, hd_ctx_unpacker_words(HD_REGPAT_STRIDED, HD_REGPAT_PAG8));
    HD_CHECK_U64(&t, 32, hd_ctx_unpacker_words(HD_REGPAT_RANDOM, HD_REGPAT_PAG16));
    HD_CHECK_U64(&t, 1, HD_LATENCY_ctx_packer);
    HD_CHECK_U64(&t, 1, HD_LATENCY_ctx_unpacker);
    return hd_test_finish(&t);
}
