/* SPDX-License-Identifier: MIT
 * ctx_pack.c - what a context save writes and a restore reads, and the save/restore path's
 * blocks in the loop: the register pattern compressor and decompressor and the packer and
 * unpacker (Lin thesis §2.3 live registers, §2.3.3 Fig 2.10 compression, §2.6 Fig 2.12 the
 * context format in global memory, §2.7 Fig 2.13 the save/restore pipeline; issue 11 items 4
 * and 6, issue 13 items 2-5).
 *
 * Design. [context] save chooses the register part of a saved context (docs/context.md names
 * them as the thesis does); shared memory and each unfinished warp's SIMT stack, call frames and
 * barrier word are always written, then the CCB entry (ctx_image.h: the layout and the request
 * list, in the thesis's format):
 *   occupied    Lin's "Occup": every warp's share of the CTA's register allocation, in its slot;
 *   live        Lin's "live": per unfinished warp, the 32-bit words of the registers live at its
 *               next PC (the annotation store's divergence-aware union row when the warp is
 *               diverged, values that occupy a register only), 128 bytes each;
 *   compressed  Lin's "live+cp": the same words, each streamed through the SM's compressor and
 *               on into the packer (ctx_codec.h: the regpat_comp and ctx_packer blocks stepped on
 *               the model clock, one register per cycle); each warp's record is its packer
 *               segments at its slot plus its pattern vector, and the engine sends a segment as
 *               soon as the packer has filled it, so compression and the writes overlap. A
 *               restore reads everything back, then the engine streams every warp's segments
 *               through the unpacker (taking each register when its words, known from the
 *               pattern vector, are there) into the decompressor; each result must equal the
 *               warp's register exactly, or the run stops with a located error (with the RTL in
 *               the loop this is the end-to-end check of all four blocks).
 * The codec serves the engine's oldest operation only; its results come back in order with the
 * item index as tag.
 */
#include "sm_impl.h"

#include "ctx_codec.h"
#include "ctx_image.h"
#include "ctx_unpacker.h"
#include "func_status.h"
#include "ctx_tb.h"
#include "ctx_wsave.h"
#include "hw_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the unfinished warps' control state (SIMT stack: 12 bytes per entry, call frames: 8
 * each, a 16-byte header with the active mask and barrier state). */
uint64_t hd_sm_ctx_stack_bytes(const struct hd_tcta *c)
{
    const struct hd_func_cta *fc = c->fc;
    uint64_t b = 0;
    for (uint32_t i = 0; i < fc->nwarps; i++) {
        const struct hd_func_warp *w = &fc->warps[i];
        if (!w->done)
            b += 16 + 12ull * w->sp + 8ull * w->nframes;
    }
    return b;
}

static bool add_item(struct hd_ctx *x, struct hd_ctx_item it)
{
    if (x->nitems == x->cap_items) {
        uint32_t ncap = x->cap_items ? x->cap_items * 2 : 256;
        struct hd_ctx_item *n = realloc(x->items, ncap * sizeof *n);
        if (!n)
            return false;
        x->items = n;
        x->cap_items = ncap;
    }
    x->items[x->nitems++] = it;
    return true;
}

int hd_sm_ctx_codec_ensure(struct hd_sm *sm, char *err, size_t errlen)
{
    if (sm->ce->codec)
        return HD_FUNC_OK;
    const struct hd_hw_factory *f = sm->hw && *sm->hw ? *sm->hw : hd_hw_ref_factory();
    sm->ce->codec = hd_ctx_codec_create(f, sm->id, err, errlen);
    return sm->ce->codec ? HD_FUNC_OK : HD_FUNC_ERR_CONFIG;
}

bool hd_sm_ctx_warp_items(struct hd_sm *sm, struct hd_tcta *c, uint32_t wi)
{
    struct hd_ctx *x = c->ctx;
    const struct hd_annot *an = c->la->tk->an;
    const uint32_t nregs = c->la->l->k->nregs;
    if (sm->ce->cap_live < nregs) {
        uint32_t *b = realloc(sm->ce->live_buf, (nregs ? nregs : 1) * sizeof *b);
        if (!b)
            return false;
        sm->ce->live_buf = b;
        sm->ce->cap_live = nregs;
    }
    const struct hd_func_warp *w = &c->fc->warps[wi];
    uint32_t pc, active;
    if (!an || !hd_func_warp_next(w, &pc, &active))
        return true;
    unsigned n = hd_annot_live_regs(an, pc, w->sp > 1, true, sm->ce->live_buf, sm->ce->cap_live);
    n = n < sm->ce->cap_live ? n : sm->ce->cap_live;
    for (unsigned i = 0; i < n; i++) {
        uint32_t kreg = sm->ce->live_buf[i], words = hd_annot_reg_words(an, kreg);
        words = words > 2 ? 2 : words;
        for (uint32_t wd = 0; wd < words; wd++)
            if (!add_item(x, (struct hd_ctx_item){kreg, (uint8_t)wi, (uint8_t)wd}))
                return false;
    }
    return true;
}

/* The live words of every unfinished warp, warp by warp (the items). */
static bool plan_items(struct hd_sm *sm, struct hd_tcta *c)
{
    for (uint32_t wi = 0; wi < c->fc->nwarps; wi++)
        if (!hd_sm_ctx_warp_items(sm, c, wi))
            return false;
    return true;
}

static void set_reqs(struct hd_ctx *x)
{
    x->bytes = hd_ctx_image_bytes(x->img);
    x->reqs = hd_ctx_image_nreqs(x->img);
}

int hd_sm_ctx_plan(struct hd_sm *sm, struct hd_tcta *c, char *err, size_t errlen)
{
    struct hd_ctx *x = c->ctx;
    const enum hd_cfg_ctxsave mode = sm->cp->save;
    const uint32_t nwarps = c->fc->nwarps;
    const uint64_t regs_bytes = (uint64_t)c->la->demand.regs * 4;
    x->nitems = 0;
    x->encoding = x->decoding = false;
    x->enc_next = x->enc_done = x->dec_next = x->dec_done = 0;
    x->rec_total = x->rec_done = x->dec_seg = 0;
    x->tb = x->classifying = false;
    /* stopped in place (Lin 2.5.5, x->keep_regs): its registers stay, no register item */
    if (mode != HD_CTXSAVE_OCCUPIED && !x->keep_regs && !plan_items(sm, c))
        goto oom;
    const bool packed = mode == HD_CTXSAVE_COMPRESSED || mode == HD_CTXSAVE_COMPRESSED_TB;
    bool oom = false;
    const bool tb = mode == HD_CTXSAVE_COMPRESSED_TB && !x->keep_regs &&
                    hd_sm_ctx_tb_plan(sm, c, &oom);
    if (oom)
        goto oom;
    /* a warp's slot holds its registers uncompressed: its allocation share (Occup), or at most
     * two words of every PTX register (live); a TB-level save's TB part goes first in warp 0's */
    const uint64_t max_words = mode == HD_CTXSAVE_OCCUPIED
                                   ? (regs_bytes / (nwarps ? nwarps : 1) + 127) / 128
                                   : 2ull * c->la->l->k->nregs +
                                         (tb ? (hd_sm_ctx_tb_bound(x->tb_k) + 127) / 128 : 0);
    if (!hd_ctx_image_begin(&x->img, c->la->id, x->id, nwarps, max_words, packed,
                            x->keep_smem ? 0 : c->la->demand.smem, hd_sm_ctx_stack_bytes(c),
                            x->nitems))
        goto oom;
    if (x->img->lay.end > HD_WIN_CONTEXT_STRIDE) {
        snprintf(err, errlen, "%s: SM %u: a context of %llu bytes does not fit its %llu-byte "
                              "window (addr_map.h)", c->la->l->k->entry->name, sm->id,
                 (unsigned long long)x->img->lay.end,
                 (unsigned long long)HD_WIN_CONTEXT_STRIDE);
        return HD_FUNC_ERR_CONFIG;
    }
    if (mode == HD_CTXSAVE_OCCUPIED && !x->keep_regs) {
        for (uint32_t w = 0; w < nwarps; w++) /* exact shares of the allocation */
            if (!hd_ctx_image_regs(x->img, w, regs_bytes * (w + 1) / nwarps -
                                                  regs_bytes * w / nwarps))
                goto oom;
    } else if (mode == HD_CTXSAVE_OCCUPIED) {
        /* stopped in place: no register record */
    } else if (!packed) {
        for (uint32_t i = 0; i < x->nitems; i++)
            if (!hd_ctx_image_regs(x->img, x->items[i].warp, 128))
                goto oom;
    } else if (tb) { /* the classification pass first (ctx_tb.c), then the records */
        if (hd_sm_ctx_codec_ensure(sm, err, errlen) != HD_FUNC_OK)
            return HD_FUNC_ERR_CONFIG;
        x->encoding = true;
        x->reqs = UINT32_MAX;
        return HD_FUNC_OK;
    } else {
        for (uint32_t i = 0; i < x->nitems; i++) /* one record per warp with live registers */
            x->rec_total += i + 1 == x->nitems || x->items[i + 1].warp != x->items[i].warp;
        if (x->nitems) {
            if (hd_sm_ctx_codec_ensure(sm, err, errlen) != HD_FUNC_OK)
                return HD_FUNC_ERR_CONFIG;
            x->encoding = true;
            x->reqs = UINT32_MAX; /* known when the packer is done */
            return HD_FUNC_OK;
        }
    }
    if (!hd_ctx_image_finish(x->img))
        goto oom;
    set_reqs(x);
    return HD_FUNC_OK;
oom:
    snprintf(err, errlen, "host out of memory planning a context save on SM %u", sm->id);
    return HD_FUNC_ERR_MEMORY;
}

void hd_sm_ctx_item_lanes(const struct hd_ctx *x, const struct hd_ctx_item *it, uint32_t lanes[32])
{
    const struct hd_func_warp *w = &x->fc.warps[it->warp];
    const uint64_t *r = w->regs + (size_t)it->kreg * HD_FUNC_WARP_SIZE;
    for (unsigned l = 0; l < HD_FUNC_WARP_SIZE; l++)
        lanes[l] = (uint32_t)(r[l] >> (32u * it->word));
}

bool hd_sm_ctx_record_last(const struct hd_ctx *x, uint32_t i)
{
    return i + 1 == x->nitems || x->items[i + 1].warp != x->items[i].warp;
}

/* The restore path's controller: this cycle's segment and/or register for the unpacker. */
static void offer_unpack(struct hd_sm *sm, struct hd_ctx *x, unsigned pag)
{
    const struct hd_ctx_image *m = x->img;
    const uint32_t i = x->dec_next;
    const unsigned have = hd_ctx_codec_unpack_words(sm->ce->codec);
    bool take = false, align = false;
    unsigned pat = 0, left = have;
    if (i < x->nitems) {
        pat = m->pat[i];
        const unsigned need = hd_ctx_unpacker_words(pat, pag);
        if (need <= have) {
            take = true;
            align = hd_sm_ctx_record_last(x, i);
            left = have - need;
            if (align)
                left -= left % HD_CTX_SEG_WORDS;
        }
    }
    /* segments of the current record only, until its last register is taken */
    uint32_t limit = m->nseg;
    const uint32_t cur = take && align ? i + 1 : i;
    if (cur < x->nitems)
        limit = m->rec_seg_end[x->items[cur].warp];
    const uint32_t *seg = NULL;
    if (x->dec_seg < limit && left <= HD_CTX_UNPACK_BUF - HD_CTX_SEG_WORDS)
        seg = m->segw + (size_t)HD_CTX_SEG_WORDS * x->dec_seg;
    if ((take || seg) && hd_ctx_codec_offer_unpack(sm->ce->codec, seg, take, pat, pag, align, i)) {
        x->dec_next += take;
        x->dec_seg += seg != NULL;
    }
}

/* Offer this cycle's register of the oldest operation to the codec. */
static void offer(struct hd_sm *sm, struct hd_ctx *x)
{
    const unsigned pag = hd_regpat_pag_for_block(x->la->l->block);
    if (x->encoding && x->enc_next < x->nitems) {
        uint32_t lanes[32];
        hd_sm_ctx_item_lanes(x, &x->items[x->enc_next], lanes);
        if (hd_ctx_codec_offer_save_packed(sm->ce->codec, lanes, true, pag, x->enc_next,
                                           hd_sm_ctx_record_last(x, x->enc_next)))
            x->enc_next++;
    } else if (x->decoding) {
        offer_unpack(sm, x, pag);
    }
}

/* Results of this cycle: packed segments and pattern vectors into the context's image,
 * restored registers checked. */
static int collect(struct hd_sm *sm, struct hd_ctx *x, uint64_t now, char *err, size_t errlen)
{
    uint64_t tag;
    struct hd_ctx_codec_packed p;
    while (x->encoding && hd_ctx_codec_pop_save(sm->ce->codec, &p, &tag)) {
        if (tag >= x->nitems)
            goto internal;
        x->img->pat[tag] = p.pat;
        x->enc_done++;
    }
    struct hd_ctx_codec_pack_out po;
    while (x->encoding && hd_ctx_codec_pop_pack(sm->ce->codec, &po)) {
        if (po.tag >= x->nitems)
            goto internal;
        const uint32_t w = x->items[po.tag].warp;
        if ((po.seg && !hd_ctx_image_segment(x->img, w, po.seg_data, po.seg_words)) ||
            (po.pv && !hd_ctx_image_pattern(x->img, w)))
            goto oom;
        if (po.record_end && ++x->rec_done == x->rec_total) { /* registers out: the rest */
            x->encoding = false;
            if (!hd_ctx_image_finish(x->img))
                goto oom;
            set_reqs(x);
        }
    }
    uint32_t lanes[32], want[32];
    while (x->decoding && hd_ctx_codec_pop_restore(sm->ce->codec, lanes, &tag)) {
        if (tag >= x->nitems)
            goto internal;
        const struct hd_ctx_item *it = &x->items[tag];
        hd_sm_ctx_item_lanes(x, it, want);
        if (memcmp(lanes, want, sizeof want) != 0) {
            const struct hd_func_cta *fc = &x->fc;
            snprintf(err, errlen,
                     "%s: SM %u cycle %llu: the restored register %u (word %u) of warp %u of block "
                     "(%u,%u,%u) differs from the saved value (regpat_comp / ctx_packer / "
                     "ctx_unpacker / regpat_decomp round trip)",
                     x->la->l->k->entry->name, sm->id, (unsigned long long)now, it->kreg,
                     it->word, it->warp, fc->ctaid[0], fc->ctaid[1], fc->ctaid[2]);
            return HD_FUNC_ERR_INTERNAL;
        }
        if (++x->dec_done == x->nitems) {
            int st = hd_sm_ctx_tb_check(sm, x, now, err, errlen);
            if (st != HD_FUNC_OK)
                return st;
            x->decoding = false;
        }
    }
    return HD_FUNC_OK;
internal:
    snprintf(err, errlen, "internal: SM %u: the context codec returned an unknown register",
             sm->id);
    return HD_FUNC_ERR_INTERNAL;
oom:
    snprintf(err, errlen, "host out of memory packing a context on SM %u", sm->id);
    return HD_FUNC_ERR_MEMORY;
}

int hd_sm_ctx_codec_cycle(struct hd_sm *sm, struct hd_ctx *head, bool offer_ok, uint64_t now,
                          char *err, size_t errlen)
{
    if (!sm->ce->codec)
        return HD_FUNC_OK;
    if (head && head->decoding && head->nitems == 0) { /* a TB-level restore, all global */
        int st = hd_sm_ctx_tb_check(sm, head, now, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
        head->decoding = false;
    }
    if (head && offer_ok && head->classifying) {
        int st = hd_sm_ctx_tb_cycle(sm, head, now, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
    } else if (head && offer_ok) {
        offer(sm, head);
    }
    if (sm->ce->nwq) /* the per-warp save queue (save_order = warp, ctx_wsave.c) */
        hd_sm_wsave_offer(sm);
    if (hd_ctx_codec_idle(sm->ce->codec))
        return HD_FUNC_OK;
    if (hd_ctx_codec_tick(sm->ce->codec, now, err, errlen) != 0)
        return HD_FUNC_ERR_INTERNAL;
    int st = head ? collect(sm, head, now, err, errlen) : HD_FUNC_OK;
    return st == HD_FUNC_OK && sm->ce->nwq ? hd_sm_wsave_collect(sm, err, errlen) : st;
}

/* The part code of a request for the controller's next_i (ctx_ctl.h). */
static unsigned ctl_part(unsigned part)
{
    switch (part) {
    case HD_CTXP_REGS:
    case HD_CTXP_PV:
        return HD_CTXCTL_PART_REGS;
    case HD_CTXP_SMEM:
        return HD_CTXCTL_PART_SMEM;
    case HD_CTXP_STACK:
        return HD_CTXCTL_PART_STACK;
    default:
        return HD_CTXCTL_PART_CCB;
    }
}

int hd_sm_ctx_ctl_cycle(struct hd_sm *sm, struct hd_ctx *head, uint64_t now,
                        struct hd_ctx_ctl_out *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!head)
        return HD_FUNC_OK;
    int st = hd_sm_ctx_codec_ensure(sm, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    if (sm->ce->ctl_busy && sm->ce->ctl_ctx != head) { /* an abandoned operation (aborted run) */
        hd_ctx_codec_ctl_reset(sm->ce->codec);
        sm->ce->ctl_busy = false;
    }
    sm->ce->ctl_ctx = head;
    const bool restore = head->state == HD_CTX_RESTORING;
    struct hd_ctx_ctl_in in;
    memset(&in, 0, sizeof in);
    in.start_i = !sm->ce->ctl_busy;
    in.restore_i = restore;
    in.quiet_i = 1; /* the engine's queue holds quiet CTAs only (ctx_engine.c quiet()) */
    struct hd_ctx_req q;
    if (head->sent < head->reqs && head->img && hd_ctx_image_req(head->img, restore, head->sent, &q))
        in.next_i = ctl_part(q.part);
    in.all_sent_i = head->sent >= head->reqs;
    in.data_i = restore && head->acked >= head->reqs;
    in.regs_done_i = restore ? in.data_i && !head->decoding
                             : !head->encoding && !(head->wsave && head->wpending);
    sm->ce->ctl_busy = true;
    if (hd_ctx_codec_ctl_step(sm->ce->codec, &in, out, head->id, now, err, errlen) != 0)
        return HD_FUNC_ERR_INTERNAL;
    return HD_FUNC_OK;
}
