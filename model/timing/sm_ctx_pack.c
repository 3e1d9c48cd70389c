/* SPDX-License-Identifier: MIT
 * sm_ctx_pack.c - what a context save writes, and the register pattern codec in the save and
 * restore paths (Lin thesis §2.3: live registers, §2.3.3 Fig 2.10 compression, §2.6 the packer
 * into 128-byte segments; issue 11 items 4 and 6).
 *
 * Design. [context] save chooses the register part of a saved context; shared memory and each
 * unfinished warp's SIMT stack, call frames and barrier word are always written:
 *   occupied    the CTA's whole register allocation (Lin's "Occup");
 *   live        per unfinished warp, the 32-bit words of the registers live at its next PC
 *               (the annotation store's divergence-aware union row when the warp is diverged,
 *               values that occupy a register only), 128 bytes each (32 lanes);
 *   compressed  the same words, each streamed through the SM's compressor (ctx_codec.h: the
 *               regpat blocks stepped on the model clock, one word-register per cycle, 2-cycle
 *               pipeline) and packed: 4 bytes per stored word plus the 2-bit pattern of every
 *               register. The engine sends a segment as soon as the packer has filled it, so
 *               compression and the writes overlap. A restore reads the bytes back and then
 *               streams every packed register through the decompressor (one per cycle); each
 *               result must equal the warp's register exactly, or the run stops with a located
 *               error (with RTL in the loop this is the end-to-end check of both blocks).
 * The codec serves the engine's oldest operation only; its results come back in order with the
 * item index as tag.
 */
#include "sm_impl.h"

#include "ctx_codec.h"
#include "func_status.h"
#include "hw_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of shared memory and of the unfinished warps' control state (SIMT stack: 12 bytes per
 * entry, call frames: 8 each, a 16-byte header with the active mask and barrier state). */
static uint64_t fixed_bytes(const struct hd_tcta *c)
{
    const struct hd_func_cta *fc = c->fc;
    uint64_t b = c->la->demand.smem;
    for (uint32_t i = 0; i < fc->nwarps; i++) {
        const struct hd_func_warp *w = &fc->warps[i];
        if (!w->done)
            b += 16 + 12ull * w->sp + 8ull * w->nframes;
    }
    return b;
}

static bool add_item(struct hd_ctx *x, struct hd_ctx_item it, bool packed)
{
    if (x->nitems == x->cap_items) {
        uint32_t ncap = x->cap_items ? x->cap_items * 2 : 256;
        struct hd_ctx_item *n = realloc(x->items, ncap * sizeof *n);
        if (!n)
            return false;
        x->items = n;
        if (packed) {
            struct hd_ctx_codec_packed *p = realloc(x->packed, ncap * sizeof *p);
            if (!p)
                return false;
            x->packed = p;
        }
        x->cap_items = ncap;
    } else if (packed && !x->packed) {
        x->packed = malloc(x->cap_items * sizeof *x->packed);
        if (!x->packed)
            return false;
    }
    x->items[x->nitems++] = it;
    return true;
}

int hd_sm_ctx_codec_ensure(struct hd_sm *sm, char *err, size_t errlen)
{
    if (sm->codec)
        return HD_FUNC_OK;
    const struct hd_hw_factory *f = sm->hw && *sm->hw ? *sm->hw : hd_hw_ref_factory();
    sm->codec = hd_ctx_codec_create(f, sm->id, err, errlen);
    return sm->codec ? HD_FUNC_OK : HD_FUNC_ERR_CONFIG;
}

int hd_sm_ctx_plan(struct hd_sm *sm, struct hd_tcta *c, char *err, size_t errlen)
{
    struct hd_ctx *x = c->ctx;
    const enum hd_cfg_ctxsave mode = sm->cp->save;
    const uint64_t fixed = fixed_bytes(c);
    x->nitems = 0;
    x->encoding = x->decoding = false;
    x->enc_next = x->enc_done = x->dec_next = x->dec_done = 0;
    if (mode == HD_CTXSAVE_OCCUPIED) {
        x->bytes = fixed + (uint64_t)c->la->demand.regs * 4;
        x->avail = x->bytes;
        return HD_FUNC_OK;
    }
    const struct hd_annot *an = c->la->tk->an;
    const bool packed = mode == HD_CTXSAVE_COMPRESSED;
    const uint32_t nregs = c->la->l->k->nregs;
    if (sm->cap_live < nregs) {
        uint32_t *b = realloc(sm->live_buf, (nregs ? nregs : 1) * sizeof *b);
        if (!b)
            goto oom;
        sm->live_buf = b;
        sm->cap_live = nregs;
    }
    for (uint32_t wi = 0; wi < c->fc->nwarps; wi++) {
        const struct hd_func_warp *w = &c->fc->warps[wi];
        uint32_t pc, active;
        if (!an || !hd_func_warp_next(w, &pc, &active))
            continue;
        unsigned n = hd_annot_live_regs(an, pc, w->sp > 1, true, sm->live_buf, sm->cap_live);
        n = n < sm->cap_live ? n : sm->cap_live;
        for (unsigned i = 0; i < n; i++) {
            uint32_t kreg = sm->live_buf[i], words = hd_annot_reg_words(an, kreg);
            words = words > 2 ? 2 : words;
            for (uint32_t wd = 0; wd < words; wd++)
                if (!add_item(x, (struct hd_ctx_item){kreg, (uint8_t)wi, (uint8_t)wd}, packed))
                    goto oom;
        }
    }
    if (!packed) {
        x->bytes = fixed + (uint64_t)x->nitems * 128;
        x->avail = x->bytes;
        return HD_FUNC_OK;
    }
    if (hd_sm_ctx_codec_ensure(sm, err, errlen) != HD_FUNC_OK)
        return HD_FUNC_ERR_CONFIG;
    x->avail = fixed;       /* the packer adds the compressed words as they come */
    x->bytes = 0;
    x->encoding = x->nitems > 0;
    if (!x->encoding)
        x->bytes = fixed;
    return HD_FUNC_OK;
oom:
    snprintf(err, errlen, "host out of memory planning a context save on SM %u", sm->id);
    return HD_FUNC_ERR_MEMORY;
}

/* The 32 lanes of item it of context x. */
static void item_lanes(const struct hd_ctx *x, const struct hd_ctx_item *it, uint32_t lanes[32])
{
    const struct hd_func_warp *w = &x->fc.warps[it->warp];
    const uint64_t *r = w->regs + (size_t)it->kreg * HD_FUNC_WARP_SIZE;
    for (unsigned l = 0; l < HD_FUNC_WARP_SIZE; l++)
        lanes[l] = (uint32_t)(r[l] >> (32u * it->word));
}

/* Offer this cycle's register of the oldest operation to the codec. */
static void offer(struct hd_sm *sm, struct hd_ctx *x)
{
    if (x->encoding && x->enc_next < x->nitems) {
        uint32_t lanes[32];
        item_lanes(x, &x->items[x->enc_next], lanes);
        const unsigned pag = hd_regpat_pag_for_block(x->la->l->block);
        if (hd_ctx_codec_offer_save(sm->codec, lanes, true, pag, x->enc_next))
            x->enc_next++;
    } else if (x->decoding && x->dec_next < x->nitems) {
        if (hd_ctx_codec_offer_restore(sm->codec, &x->packed[x->dec_next], x->dec_next))
            x->dec_next++;
    }
}

/* Results of this cycle: compressed words into the packer, restored registers checked. */
static int collect(struct hd_sm *sm, struct hd_ctx *x, uint64_t now, char *err, size_t errlen)
{
    uint64_t tag;
    struct hd_ctx_codec_packed p;
    while (x->encoding && hd_ctx_codec_pop_save(sm->codec, &p, &tag)) {
        if (tag >= x->nitems)
            goto internal;
        x->packed[tag] = p;
        x->avail += 4ull * p.words;
        if (++x->enc_done == x->nitems) { /* + the 2-bit pattern of every register */
            x->encoding = false;
            x->bytes = x->avail + (x->nitems + 3) / 4;
            x->avail = x->bytes;
            const uint64_t seg = sm->cp->segment_bytes;
            x->reqs = (uint32_t)((x->bytes + seg - 1) / seg);
            x->reqs = x->reqs ? x->reqs : 1;
        }
    }
    uint32_t lanes[32], want[32];
    while (x->decoding && hd_ctx_codec_pop_restore(sm->codec, lanes, &tag)) {
        if (tag >= x->nitems)
            goto internal;
        const struct hd_ctx_item *it = &x->items[tag];
        item_lanes(x, it, want);
        if (memcmp(lanes, want, sizeof want) != 0) {
            const struct hd_func_cta *fc = &x->fc;
            snprintf(err, errlen,
                     "%s: SM %u cycle %llu: the restored register %u (word %u) of warp %u of block "
                     "(%u,%u,%u) differs from the saved value (regpat_comp / regpat_decomp "
                     "round trip)",
                     x->la->l->k->entry->name, sm->id, (unsigned long long)now, it->kreg,
                     it->word, it->warp, fc->ctaid[0], fc->ctaid[1], fc->ctaid[2]);
            return HD_FUNC_ERR_INTERNAL;
        }
        if (++x->dec_done == x->nitems)
            x->decoding = false;
    }
    return HD_FUNC_OK;
internal:
    snprintf(err, errlen, "internal: SM %u: the context codec returned an unknown register %llu",
             sm->id, (unsigned long long)tag);
    return HD_FUNC_ERR_INTERNAL;
}

int hd_sm_ctx_codec_cycle(struct hd_sm *sm, struct hd_ctx *head, uint64_t now, char *err,
                          size_t errlen)
{
    if (!sm->codec)
        return HD_FUNC_OK;
    if (head)
        offer(sm, head);
    if (hd_ctx_codec_idle(sm->codec))
        return HD_FUNC_OK;
    if (hd_ctx_codec_tick(sm->codec, now, err, errlen) != 0)
        return HD_FUNC_ERR_INTERNAL;
    return head ? collect(sm, head, now, err, errlen) : HD_FUNC_OK;
}

bool hd_sm_ctx_packing(const struct hd_sm *sm)
{
    return sm->codec && !hd_ctx_codec_idle(sm->codec);
}
