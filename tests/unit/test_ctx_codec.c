/* SPDX-License-Identifier: MIT
 * test_ctx_codec.c - the register pattern codec in the timing loop (model/ctx/ctx_codec.h,
 * Lin thesis §2.3.3): random and structured registers round-trip bit-exactly through save then
 * restore at every PAG, the pattern and words stored follow regpat's rules (computed here
 * independently), results come out in order after exactly the blocks' latencies, idle blocks
 * are not stepped, and the input takes one register per cycle; packed records go through the
 * packer (its flush in the cycle after a record's last register, the offer there refused) and
 * back through the unpacker and decompressor, lane for lane.
 */
#include "ctx_codec.h"
#include "hw_ref.h"
#include "regpat_decomp.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* The pattern and words regpat's rules give (docs/blocks/regpat.md), independently. */
static void expect(const uint32_t v[32], bool live, unsigned pag_sel, unsigned *pat, unsigned *words)
{
    unsigned pag = pag_sel == 0 ? 8u : pag_sel == 1 ? 16u : 32u, groups = 32u / pag;
    bool uni = true, str = true;
    for (unsigned g = 0; g < groups; g++)
        for (unsigned k = 1; k < pag; k++) {
            uint32_t d = v[g * pag + k] - v[g * pag + k - 1];
            uni &= d == 0;
            str &= d == (uint32_t)(v[g * pag + 1] - v[g * pag]);
        }
    if (!live) {
        *pat = HD_REGPAT_DEAD;
        *words = 0;
    } else if (uni) {
        *pat = HD_REGPAT_UNIFORM;
        *words = groups;
    } else if (str) {
        *pat = HD_REGPAT_STRIDED;
        *words = 2u * groups;
    } else {
        *pat = HD_REGPAT_RANDOM;
        *words = 32;
    }
}

static uint64_t now_c;

/* Save v, then restore it; checks the packed form and the round trip. */
static void roundtrip(struct hd_test_state *t, struct hd_ctx_codec *c, const uint32_t v[32],
                      bool live, unsigned pag_sel)
{
    char err[512];
    uint64_t t0 = now_c, tag = hd_ctx_codec_tag_make(7, 3, 12, 1), got_tag = 0;
    HD_CHECK(t, hd_ctx_codec_offer_save(c, v, live, pag_sel, tag));
    HD_CHECK(t, !hd_ctx_codec_offer_save(c, v, live, pag_sel, tag)); /* one per cycle */
    struct hd_ctx_codec_packed p;
    bool popped = false;
    for (unsigned k = 0; k < 3 && !popped; k++) {
        HD_CHECK_U64(t, 0, hd_ctx_codec_tick(c, now_c++, err, sizeof err));
        popped = hd_ctx_codec_pop_save(c, &p, &got_tag);
    }
    HD_CHECK(t, popped);
    HD_CHECK_U64(t, HD_LATENCY_regpat_comp, now_c - 1 - t0); /* popped after the tick of t0+2 */
    HD_CHECK_U64(t, tag, got_tag);
    unsigned pat, words;
    expect(v, live, pag_sel, &pat, &words);
    HD_CHECK_U64(t, pat, p.pat);
    HD_CHECK_U64(t, words, p.words);
    HD_CHECK_U64(t, pag_sel, p.pag_sel);
    t0 = now_c;
    HD_CHECK(t, hd_ctx_codec_offer_restore(c, &p, tag + 1));
    uint32_t back[32];
    popped = false;
    for (unsigned k = 0; k < 2 && !popped; k++) {
        HD_CHECK_U64(t, 0, hd_ctx_codec_tick(c, now_c++, err, sizeof err));
        popped = hd_ctx_codec_pop_restore(c, back, &got_tag);
    }
    HD_CHECK(t, popped);
    HD_CHECK_U64(t, HD_LATENCY_regpat_decomp, now_c - 1 - t0);
    HD_CHECK_U64(t, tag + 1, got_tag);
    if (live)
        HD_CHECK(t, memcmp(back, v, sizeof back) == 0);
    else
        for (unsigned l = 0; l < 32; l++)
            HD_CHECK_U64(t, 0, back[l]);
    HD_CHECK(t, hd_ctx_codec_idle(c));
}

int main(void)
{
    struct hd_test_state t = {0};
    char err[512];
    struct hd_ctx_codec *c = hd_ctx_codec_create(hd_hw_ref_factory(), 3, err, sizeof err);
    HD_CHECK(&t, c != NULL);
    if (!c) {
        fprintf(stderr, "%s\n", err);
        return hd_test_finish(&t);
    }

    hd_test_begin(&t, "structured registers at every PAG");
    for (unsigned pag = 0; pag < 3; pag++) {
        uint32_t v[32];
        for (unsigned l = 0; l < 32; l++) /* uniform */
            v[l] = 0xdeadbeefu;
        roundtrip(&t, c, v, true, pag);
        for (unsigned l = 0; l < 32; l++) /* thread index x 4 (an address) */
            v[l] = 0x1000u + 4u * l;
        roundtrip(&t, c, v, true, pag);
        for (unsigned l = 0; l < 32; l++) /* per-group bases and strides, wrapping */
            v[l] = 0xfffffff0u * (l / 8u) + (l % 8u) * (l / 8u + 1u) * 0x40000000u;
        roundtrip(&t, c, v, true, pag);
        for (unsigned l = 0; l < 32; l++) /* per-16 uniform */
            v[l] = l < 16 ? 5u : 9u;
        roundtrip(&t, c, v, true, pag);
        v[31] ^= 1u; /* one lane off: random at PAG 8, 16 and 32 */
        roundtrip(&t, c, v, true, pag);
        roundtrip(&t, c, v, false, pag); /* dead */
    }

    hd_test_begin(&t, "random registers");
    for (unsigned n = 0; n < 300; n++) {
        uint32_t v[32];
        unsigned kind = rnd() % 3, pag = rnd() % 4;
        uint32_t b = rnd(), s = kind == 1 ? 0 : rnd() % 16u;
        for (unsigned l = 0; l < 32; l++)
            v[l] = kind == 2 ? rnd() : b + s * l;
        if (rnd() % 4 == 0)
            v[rnd() % 32] = rnd();
        roundtrip(&t, c, v, rnd() % 8 != 0, pag == 3 ? 2 : pag);
    }

    hd_test_begin(&t, "back to back, in order, idle blocks not stepped");
    const struct hd_ctx_codec_stats *st = hd_ctx_codec_stats(c);
    uint64_t steps0 = st->comp_steps, dsteps0 = st->decomp_steps;
    for (unsigned k = 0; k < 100; k++)
        HD_CHECK_U64(&t, 0, hd_ctx_codec_tick(c, now_c++, err, sizeof err));
    HD_CHECK_U64(&t, steps0, st->comp_steps);
    HD_CHECK_U64(&t, dsteps0, st->decomp_steps);
    HD_CHECK_U64(&t, UINT64_MAX, hd_ctx_codec_next_event(c, now_c));
    uint32_t regs[6][32];
    unsigned sent = 0, got = 0;
    for (unsigned k = 0; got < 6; k++) {
        if (sent < 6) {
            for (unsigned l = 0; l < 32; l++)
                regs[sent][l] = sent % 2 ? rnd() : sent * 100u + l;
            HD_CHECK(&t, hd_ctx_codec_offer_save(c, regs[sent], true, 2, sent));
            sent++;
            HD_CHECK_U64(&t, now_c + 1, hd_ctx_codec_next_event(c, now_c));
        }
        HD_CHECK_U64(&t, 0, hd_ctx_codec_tick(c, now_c++, err, sizeof err));
        struct hd_ctx_codec_packed p;
        uint64_t tag;
        while (hd_ctx_codec_pop_save(c, &p, &tag)) {
            HD_CHECK_U64(&t, got, tag);
            HD_CHECK_U64(&t, got + HD_LATENCY_regpat_comp, k);
            HD_CHECK_U64(&t, got % 2 ? HD_REGPAT_RANDOM : HD_REGPAT_STRIDED, p.pat);
            got++;
        }
    }
    HD_CHECK_U64(&t, steps0 + 6 + HD_LATENCY_regpat_comp, st->comp_steps);
    HD_CHECK(&t, hd_ctx_codec_idle(c));

    hd_test_begin(&t, "packed: records through the packer, back through the unpacker");
    /* three records (warps) of 7, 0 and 12 registers at PAG 16, mixed patterns */
    enum { NREG = 19 };
    uint32_t pr[NREG][32];
    const unsigned rec_of[NREG] = {0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    for (unsigned i = 0; i < NREG; i++)
        for (unsigned l = 0; l < 32; l++)
            pr[i][l] = i % 3 == 0 ? rnd() : i % 3 == 1 ? 7u * i : 100u * i + (l % 16) * 4u;
    uint32_t segw[64][32];
    unsigned nseg = 0, rec_seg_end[3] = {0}, records = 0, pvs = 0, words = 0, flush_k = 0;
    unsigned psent = 0, k = 0, pat[NREG] = {0};
    bool bubble_seen = false;
    while (records < 2 && k < 200) {
        if (psent < NREG) {
            bool last = psent + 1 == NREG || rec_of[psent + 1] != rec_of[psent];
            if (hd_ctx_codec_offer_save_packed(c, pr[psent], true, 1, psent, last))
                psent++;
            else
                bubble_seen = psent == 7; /* the cycle after the first record's last */
        }
        HD_CHECK_U64(&t, 0, hd_ctx_codec_tick(c, now_c++, err, sizeof err));
        k++;
        struct hd_ctx_codec_packed p;
        uint64_t tag;
        while (hd_ctx_codec_pop_save(c, &p, &tag)) {
            pat[tag] = p.pat;
            words += p.words;
        }
        struct hd_ctx_codec_pack_out po;
        while (hd_ctx_codec_pop_pack(c, &po)) {
            if (po.seg && nseg < 64) {
                memcpy(segw[nseg++], po.seg_data, sizeof segw[0]);
                HD_CHECK(&t, po.seg_words == 32 || po.seg_last);
            }
            pvs += po.pv;
            if (po.record_end) {
                rec_seg_end[rec_of[po.tag]] = nseg;
                records++;
                if (records == 1)
                    flush_k = k; /* register 6 offered at cycle 6: comp 8, flush 9, out 10 */
            }
        }
    }
    HD_CHECK(&t, bubble_seen);
    HD_CHECK_U64(&t, 2, records);
    HD_CHECK_U64(&t, 2, pvs);
    HD_CHECK_U64(&t, 11, flush_k);
    HD_CHECK(&t, nseg >= (words + 31) / 32 && nseg <= (words + 31) / 32 + 1);
    rec_seg_end[1] = rec_seg_end[0];
    unsigned taken = 0, segs_in = 0, back = 0;
    for (k = 0; back < NREG && k < 400; k++) {
        unsigned have = hd_ctx_codec_unpack_words(c), need = 0, left = have;
        bool take = false, align = false;
        if (taken < NREG) {
            need = pat[taken] == HD_REGPAT_UNIFORM ? 2 : pat[taken] == HD_REGPAT_STRIDED ? 4 : 32;
            take = need <= have;
            if (take) {
                align = taken + 1 == NREG || rec_of[taken + 1] != rec_of[taken];
                left = have - need;
                if (align)
                    left -= left % 32;
            }
        }
        unsigned cur = take && align ? taken + 1 : taken;
        unsigned limit = cur < NREG ? rec_seg_end[rec_of[cur]] : nseg;
        const uint32_t *sg = segs_in < limit && left <= 32 ? segw[segs_in] : NULL;
        if ((take || sg) && hd_ctx_codec_offer_unpack(c, sg, take, pat[taken], 1, align, taken)) {
            taken += take;
            segs_in += sg != NULL;
        }
        HD_CHECK_U64(&t, 0, hd_ctx_codec_tick(c, now_c++, err, sizeof err));
        uint32_t lanes[32];
        uint64_t tag;
        while (hd_ctx_codec_pop_restore(c, lanes, &tag)) {
            HD_CHECK_U64(&t, back, tag);
            HD_CHECK(&t, tag < NREG && memcmp(lanes, pr[tag], sizeof lanes) == 0);
            back++;
        }
    }
    HD_CHECK_U64(&t, NREG, back);
    HD_CHECK_U64(&t, nseg, segs_in);
    HD_CHECK_U64(&t, 0, hd_ctx_codec_unpack_words(c));
    for (k = 0; k < 3; k++)
        HD_CHECK_U64(&t, 0, hd_ctx_codec_tick(c, now_c++, err, sizeof err));
    HD_CHECK(&t, hd_ctx_codec_idle(c));
    HD_CHECK(&t, st->segments == nseg && st->pattern_vectors == 2);
    hd_ctx_codec_destroy(c);

    hd_test_begin(&t, "unknown block from a factory is a located error");
    struct hd_hw_inst x;
    HD_CHECK(&t, hd_hw_make(hd_hw_ref_factory(), "no_such_block", "sm0.x", &x, err, sizeof err) != 0);
    HD_CHECK(&t, strstr(err, "no_such_block") != NULL && strstr(err, "regpat_comp") != NULL);
    return hd_test_finish(&t);
}
