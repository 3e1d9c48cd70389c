/* SPDX-License-Identifier: MIT
 * ctx_swap.c - the SM's swap engine (issue 25 item 4; ctx_swap.h; docs/mover.md): records in
 * the slots of the SM's swap window, SWAP-class stores out and loads back in segments of
 * `[context] segment_bytes`, `requests_per_cycle` per cycle, in record order.
 */
#include "sm_impl.h"

#include "addr_map.h"
#include "ctx_vres.h"

#include <stdlib.h>

/* The SM's swap engine (made on first use; NULL on host OOM). */
static struct hd_ctx_swap *hd_sm_swap(struct hd_sm *sm)
{
    struct hd_sm_vres *v = hd_sm_vres(sm);
    if (!v)
        return NULL;
    if (!v->swap) {
        v->swap = calloc(1, sizeof *v->swap);
        if (!v->swap)
            return NULL;
        v->swap->sq_head = v->swap->sq_tail = HD_SWAP_NONE;
        v->swap->done = hd_sm_vres_swap_done(); /* routes to the stress mode or the caller */
    }
    return v->swap;
}

static void sq_push(struct hd_ctx_swap *s, uint32_t r)
{
    s->rec[r].next = HD_SWAP_NONE;
    if (s->sq_tail == HD_SWAP_NONE)
        s->sq_head = r;
    else
        s->rec[s->sq_tail].next = r;
    s->sq_tail = r;
}

static void start(struct hd_sm *sm, struct hd_swap_rec *rec, uint8_t state, uint64_t now)
{
    struct hd_ctx_swap *s = sm->ce->vr->swap;
    rec->state = state;
    rec->reqs = (uint32_t)((rec->pc.bytes + sm->cp->segment_bytes - 1) / sm->cp->segment_bytes);
    rec->sent = rec->acked = 0;
    rec->t_start = now;
    s->nbusy++;
    sq_push(s, (uint32_t)(rec - s->rec));
}

uint32_t hd_sm_swap_out(struct hd_sm *sm, const struct hd_swap_piece *pc, uint64_t tag,
                        uint64_t now)
{
    struct hd_ctx_swap *s = hd_sm_swap(sm);
    if (!s || pc->bytes == 0 || pc->bytes > HD_SWAP_SLOT_BYTES)
        return HD_SWAP_NONE;
    for (uint32_t r = 0; r < HD_SWAP_SLOTS; r++) {
        struct hd_swap_rec *x = &s->rec[r];
        if (x->state != HD_SWS_FREE)
            continue;
        x->pc = *pc;
        x->gen++;
        x->tag = tag;
        x->addr = HD_WIN_SWAP_BASE + (uint64_t)sm->id * HD_WIN_SWAP_STRIDE +
                  (uint64_t)r * HD_SWAP_SLOT_BYTES;
        s->nlive++;
        start(sm, x, HD_SWS_OUT, now);
        sm->st->swap_outs++;
        return r;
    }
    return HD_SWAP_NONE;
}

int hd_sm_swap_in(struct hd_sm *sm, uint32_t r, uint64_t now)
{
    struct hd_ctx_swap *s = sm->ce->vr ? sm->ce->vr->swap : NULL;
    if (!s || r >= HD_SWAP_SLOTS || s->rec[r].state != HD_SWS_AWAY)
        return -1;
    start(sm, &s->rec[r], HD_SWS_IN, now);
    sm->st->swap_ins++;
    return 0;
}

void hd_sm_swap_drop(struct hd_sm *sm, uint32_t r)
{
    struct hd_ctx_swap *s = sm->ce->vr ? sm->ce->vr->swap : NULL;
    if (!s || r >= HD_SWAP_SLOTS ||
        (s->rec[r].state != HD_SWS_AWAY && s->rec[r].state != HD_SWS_BACK))
        return;
    s->rec[r].state = HD_SWS_FREE;
    s->nlive--;
}

const struct hd_swap_rec *hd_sm_swap_rec(struct hd_sm *sm, uint32_t r)
{
    struct hd_ctx_swap *s = sm->ce->vr ? sm->ce->vr->swap : NULL;
    return s && r < HD_SWAP_SLOTS ? &s->rec[r] : NULL;
}

bool hd_sm_swap_step(struct hd_sm *sm, uint64_t now)
{
    struct hd_ctx_swap *s = sm->ce->vr->swap;
    bool progress = false;
    if (s->sq_head != HD_SWAP_NONE)
        sm->st->swap_busy_cycles++;
    for (uint32_t budget = sm->cp->requests_per_cycle; budget && s->sq_head != HD_SWAP_NONE;
         budget--) {
        const uint32_t r = s->sq_head;
        struct hd_swap_rec *x = &s->rec[r];
        const bool in = x->state == HD_SWS_IN;
        const uint64_t off = (uint64_t)x->sent * sm->cp->segment_bytes;
        const uint64_t left = x->pc.bytes - off;
        struct hd_mem_req q = {0};
        q.addr = x->addr + off;
        q.bytes = (uint32_t)(left < sm->cp->segment_bytes ? left : sm->cp->segment_bytes);
        q.kind = in ? HD_MEM_LOAD : HD_MEM_STORE;
        q.space = HD_SPACE_GLOBAL;
        q.flags = in ? HD_MEMF_BYPASS_L1 : 0;
        q.cls = HD_MCLASS_SWAP;
        q.sm = (uint16_t)sm->id;
        q.kernel = x->pc.kernel;
        q.tag = hd_tag_make(HD_TAG_CONTEXT, HD_SWAP_TAG_BIT | (in ? HD_SWAP_TAG_IN : 0) |
                                                (uint64_t)x->gen << 32 | r);
        if (!sm->mem->ops->send(sm->mem->impl, &q, now)) {
            sm->st->swap_send_stalls++;
            break;
        }
        progress = true;
        x->sent++;
        if (in) {
            sm->st->swap_in_bytes += q.bytes;
            sm->st->swap_in_reqs++;
        } else {
            sm->st->swap_out_bytes += q.bytes;
            sm->st->swap_out_reqs++;
        }
        if (x->sent == x->reqs) { /* every request of this direction sent */
            s->sq_head = x->next;
            if (s->sq_head == HD_SWAP_NONE)
                s->sq_tail = HD_SWAP_NONE;
        }
    }
    return progress;
}

void hd_sm_swap_response(struct hd_sm *sm, uint64_t payload, uint64_t now)
{
    struct hd_ctx_swap *s = sm->ce->vr ? sm->ce->vr->swap : NULL;
    const uint32_t r = (uint32_t)payload;
    const bool in = payload & HD_SWAP_TAG_IN;
    if (!s || r >= HD_SWAP_SLOTS || s->rec[r].gen != (uint16_t)(payload >> 32) ||
        s->rec[r].state != (in ? HD_SWS_IN : HD_SWS_OUT)) {
        sm->st->ctx_stale_responses++;
        return;
    }
    struct hd_swap_rec *x = &s->rec[r];
    if (++x->acked < x->reqs)
        return;
    x->state = in ? HD_SWS_BACK : HD_SWS_AWAY;
    s->nbusy--;
    if (in)
        sm->st->swap_in_cycles += now + 1 - x->t_start;
    else
        sm->st->swap_out_cycles += now + 1 - x->t_start;
    if (s->done)
        s->done(s->arg, sm, r, in, now);
}
