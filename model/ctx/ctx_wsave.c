/* SPDX-License-Identifier: MIT
 * ctx_wsave.c - the per-warp save pipeline ([context] save_order = warp; Lin thesis §2.7 Fig
 * 2.13 step 5; issue 24). The design is in ctx_wsave.h: a FIFO of warps in the order they were
 * drained at their points, fed to the compressor and packer one register per cycle across CTAs,
 * their records sent from the FIFO's head; a CTA's shared memory, stacks and CCB entry follow
 * its last record through the CTA operation and its controller.
 *
 * Codec tags on this path carry the CTA slot (bits 63..32) and the item index in its context
 * (31..0), so records of several CTAs can be in the compressor and packer at once. A queued
 * warp has stopped (at its point, or at once) and is not finished, so it never issues again
 * before its CTA is saved: its registers cannot change after they are read, and its CTA cannot
 * retire while it is queued.
 */
#include "sm_impl.h"

#include "addr_map.h"
#include "ctx_codec.h"
#include "ctx_image.h"
#include "ctx_vres.h"
#include "ctx_wsave.h"
#include "func_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool hd_sm_wsave_on(const struct hd_sm *sm)
{
    return sm->cp->save_order == HD_SAVEORDER_WARP && sm->cp->save != HD_CTXSAVE_COMPRESSED_TB;
}

static struct hd_ctx_wentry *entry(struct hd_sm *sm, uint32_t i)
{
    return &sm->ce->wq[(sm->ce->wq_head + i) % sm->ce->cap_wq];
}

static bool push_entry(struct hd_sm *sm, struct hd_ctx_wentry e)
{
    struct hd_ctx_engine *ce = sm->ce;
    if (ce->nwq == ce->cap_wq) {
        const uint32_t n = ce->cap_wq ? 2 * ce->cap_wq : 64;
        struct hd_ctx_wentry *q = malloc(n * sizeof *q);
        if (!q)
            return false;
        for (uint32_t i = 0; i < ce->nwq; i++)
            q[i] = *entry(sm, i);
        free(ce->wq);
        ce->wq = q;
        ce->cap_wq = n;
        ce->wq_head = 0;
    }
    ce->wq[(ce->wq_head + ce->nwq++) % ce->cap_wq] = e;
    return true;
}

static void pop_entry(struct hd_sm *sm)
{
    sm->ce->wq_head = (sm->ce->wq_head + 1) % sm->ce->cap_wq;
    sm->ce->nwq--;
    if (sm->ce->wq_fed)
        sm->ce->wq_fed--;
}

static bool packed(const struct hd_sm *sm)
{
    return sm->cp->save == HD_CTXSAVE_COMPRESSED;
}

/* The first warp of the save: an empty image whose register and pattern-vector areas are laid
 * out (shared memory and stacks are sized when the CTA is quiet). */
static bool begin(struct hd_sm *sm, struct hd_tcta *c)
{
    struct hd_ctx *x = c->ctx;
    const uint32_t nwarps = c->grant.nwarps;
    const uint64_t regs_bytes = (uint64_t)c->la->demand.regs * 4;
    x->wsave = true;
    x->nitems = 0;
    x->encoding = x->decoding = false;
    x->enc_next = x->enc_done = x->dec_next = x->dec_done = 0;
    x->rec_total = x->rec_done = x->dec_seg = 0;
    x->tb = x->classifying = false;
    x->sent = x->acked = 0;
    x->reqs = UINT32_MAX; /* known when the last record is out */
    const uint64_t max_words = sm->cp->save == HD_CTXSAVE_OCCUPIED
                                   ? (regs_bytes / (nwarps ? nwarps : 1) + 127) / 128
                                   : 2ull * c->la->l->k->nregs;
    return hd_sm_ctx_wspill_storage(x, nwarps) &&
           hd_ctx_image_begin(&x->img, c->la->id, x->id, nwarps, max_words, packed(sm), 0, 0, 0);
}

/* Queue warp wi of CTA c: its record's requests (Occup, live) or its live words for the codec
 * (live+cp). */
static int queue_warp(struct hd_sm *sm, struct hd_tcta *c, uint32_t wi, char *err, size_t errlen)
{
    struct hd_ctx *x = c->ctx;
    if (!x->wsave && !begin(sm, c))
        goto oom;
    x->wqueued |= 1u << wi;
    if (x->keep_regs)
        return HD_FUNC_OK; /* stopped in place (Lin 2.5.5): its registers stay, no record */
    struct hd_ctx_wentry e = {c->grant.cta_slot, wi, 0, true};
    if (sm->cp->save == HD_CTXSAVE_OCCUPIED) { /* its exact share of the allocation */
        const uint64_t rb = (uint64_t)c->la->demand.regs * 4, n = c->grant.nwarps;
        if (!hd_ctx_image_regs(x->img, wi, rb * (wi + 1) / n - rb * wi / n))
            goto oom;
    } else {
        const uint32_t first = x->nitems;
        if (!hd_sm_ctx_warp_items(sm, c, wi) || !hd_ctx_image_items(x->img, x->nitems))
            goto oom;
        if (x->nitems == first)
            return HD_FUNC_OK; /* nothing live (or finished): no record */
        if (packed(sm)) {
            int st = hd_sm_ctx_codec_ensure(sm, err, errlen);
            if (st != HD_FUNC_OK)
                return st;
            e.ready = false; /* its segments come out of the packer */
            x->wpending++;
        } else {
            for (uint32_t i = first; i < x->nitems; i++)
                if (!hd_ctx_image_regs(x->img, wi, 128))
                    goto oom;
        }
    }
    e.req_end = x->img->nrq;
    if (!push_entry(sm, e))
        goto oom;
    return HD_FUNC_OK;
oom:
    snprintf(err, errlen, "host out of memory saving a context warp by warp on SM %u", sm->id);
    return HD_FUNC_ERR_MEMORY;
}

/* Every record of the save is out: shared memory, stacks and the CCB entry follow. */
static bool finish(struct hd_ctx *x)
{
    if (!hd_ctx_image_finish(x->img))
        return false;
    x->bytes = hd_ctx_image_bytes(x->img);
    x->reqs = hd_ctx_image_nreqs(x->img);
    return true;
}

int hd_sm_wsave_scan(struct hd_sm *sm, struct hd_tcta *c, uint64_t now, char *err, size_t errlen)
{
    (void)now;
    struct hd_ctx *x = c->ctx;
    if (x->op != HD_CTXOP_SWITCH || x->wall || hd_sm_vstress_holds(sm, c->grant.cta_slot))
        return HD_FUNC_OK;
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        if (x->wqueued >> i & 1u)
            continue;
        const struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        /* stopped at its point (or at once), not finished, nothing of it in flight; a warp
         * waiting at another barrier may still be released by its CTA: queued at the end */
        if (w->state == HD_WS_EMPTY || w->done || w->fw->done || !w->susp || w->to_pp ||
            !hd_sm_warp_quiet(sm, w))
            continue;
        int st = queue_warp(sm, c, i, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
        sm->st->ctx_wsave_warps++;
    }
    return HD_FUNC_OK;
}

int hd_sm_wsave_all(struct hd_sm *sm, struct hd_tcta *c, char *err, size_t errlen)
{
    struct hd_ctx *x = c->ctx;
    if (!x->wsave && !begin(sm, c))
        goto oom;
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        if (x->wqueued >> i & 1u)
            continue;
        int st = queue_warp(sm, c, i, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
    }
    x->wall = true;
    hd_ctx_image_tail(x->img, x->keep_smem ? 0 : c->la->demand.smem, hd_sm_ctx_stack_bytes(c));
    if (x->img->lay.end > HD_WIN_CONTEXT_STRIDE) {
        snprintf(err, errlen, "%s: SM %u: a context of %llu bytes does not fit its %llu-byte "
                              "window (addr_map.h)", c->la->l->k->entry->name, sm->id,
                 (unsigned long long)x->img->lay.end, (unsigned long long)HD_WIN_CONTEXT_STRIDE);
        return HD_FUNC_ERR_CONFIG;
    }
    if (!x->wpending && !finish(x))
        goto oom;
    return HD_FUNC_OK;
oom:
    snprintf(err, errlen, "host out of memory saving a context warp by warp on SM %u", sm->id);
    return HD_FUNC_ERR_MEMORY;
}

void hd_sm_wsave_offer(struct hd_sm *sm)
{
    struct hd_ctx_engine *ce = sm->ce;
    while (ce->wq_fed < ce->nwq && entry(sm, ce->wq_fed)->ready)
        ce->wq_fed++; /* (records known at once: nothing for the codec) */
    if (ce->wq_fed == ce->nwq || !ce->codec)
        return;
    const struct hd_ctx_wentry *e = entry(sm, ce->wq_fed);
    struct hd_ctx *x = sm->cta[e->slot].ctx;
    if (x->enc_next >= x->nitems || x->items[x->enc_next].warp != e->warp)
        return; /* (cannot happen: the context's items follow its queue order) */
    uint32_t lanes[32];
    hd_sm_ctx_item_lanes(x, &x->items[x->enc_next], lanes);
    const bool last = hd_sm_ctx_record_last(x, x->enc_next);
    const uint64_t tag = (uint64_t)e->slot << 32 | x->enc_next;
    if (hd_ctx_codec_offer_save_packed(ce->codec, lanes, true,
                                       hd_regpat_pag_for_block(x->la->l->block), tag, last)) {
        x->enc_next++;
        ce->wq_fed += last;
    }
}

/* The context of a tag on this path, and its item. */
static struct hd_ctx *tag_ctx(struct hd_sm *sm, uint64_t tag, uint32_t *item)
{
    const uint32_t slot = (uint32_t)(tag >> 32);
    *item = (uint32_t)tag;
    if (slot >= sm->p->max_ctas || !sm->cta[slot].used)
        return NULL;
    struct hd_ctx *x = sm->cta[slot].ctx;
    return x && x->wsave && *item < x->nitems ? x : NULL;
}

int hd_sm_wsave_collect(struct hd_sm *sm, char *err, size_t errlen)
{
    struct hd_ctx_codec *cd = sm->ce->codec;
    struct hd_ctx_codec_packed p;
    uint64_t tag;
    uint32_t item;
    while (hd_ctx_codec_pop_save(cd, &p, &tag)) {
        struct hd_ctx *x = tag_ctx(sm, tag, &item);
        if (!x)
            goto internal;
        x->img->pat[item] = p.pat;
        x->enc_done++;
    }
    struct hd_ctx_codec_pack_out po;
    while (hd_ctx_codec_pop_pack(cd, &po)) {
        struct hd_ctx *x = tag_ctx(sm, po.tag, &item);
        if (!x)
            goto internal;
        const uint32_t w = x->items[item].warp;
        if ((po.seg && !hd_ctx_image_segment(x->img, w, po.seg_data, po.seg_words)) ||
            (po.pv && !hd_ctx_image_pattern(x->img, w)))
            goto oom;
        if (!po.record_end)
            continue;
        for (uint32_t i = 0; i < sm->ce->nwq; i++) { /* its record is complete */
            struct hd_ctx_wentry *e = entry(sm, i);
            if (e->slot == (uint32_t)(po.tag >> 32) && e->warp == w && !e->ready) {
                e->ready = true;
                e->req_end = x->img->nrq;
                break;
            }
        }
        if (--x->wpending == 0 && x->wall && !finish(x))
            goto oom;
    }
    return HD_FUNC_OK;
internal:
    snprintf(err, errlen, "internal: SM %u: the per-warp save path's codec returned a register "
                          "of no queued warp", sm->id);
    return HD_FUNC_ERR_INTERNAL;
oom:
    snprintf(err, errlen, "host out of memory packing a context on SM %u", sm->id);
    return HD_FUNC_ERR_MEMORY;
}

uint32_t hd_sm_wsave_send(struct hd_sm *sm, uint32_t budget, uint64_t now, bool *progress)
{
    struct hd_ctx_engine *ce = sm->ce;
    while (ce->nwq) {
        const struct hd_ctx_wentry *e = entry(sm, 0);
        struct hd_tcta *c = &sm->cta[e->slot];
        struct hd_ctx *x = c->ctx;
        if (e->ready && x->sent >= e->req_end) { /* its record is out */
            pop_entry(sm);
            continue;
        }
        if (!budget)
            break;
        struct hd_ctx_req q;
        if (!hd_ctx_image_req(x->img, false, x->sent, &q) ||
            (q.part != HD_CTXP_REGS && q.part != HD_CTXP_PV)) {
            hd_ctx_part_cycle(x, HD_CTXP_REGS, now); /* the packer is behind */
            hd_ctx_busy_cycle(&ce->busy_last, x, now);
            break;
        }
        hd_ctx_part_cycle(x, q.part, now);
        hd_ctx_busy_cycle(&ce->busy_last, x, now);
        if (!hd_sm_ctx_send(sm, c, now)) {
            if (sm->cp->switch_model == HD_SWITCHMODEL_TRAFFIC)
                sm->st->mem_send_stalls++;
            break;
        }
        budget--;
        *progress = true;
    }
    return budget;
}

void hd_sm_wsave_forget(struct hd_sm *sm, uint32_t slot)
{
    struct hd_ctx_engine *ce = sm->ce;
    uint32_t n = 0, fed = 0;
    for (uint32_t i = 0; i < ce->nwq; i++) { /* keep the others in order */
        const struct hd_ctx_wentry e = *entry(sm, i);
        if (e.slot == slot)
            continue;
        fed += i < ce->wq_fed;
        *entry(sm, n++) = e;
    }
    ce->nwq = n;
    ce->wq_fed = fed;
}
