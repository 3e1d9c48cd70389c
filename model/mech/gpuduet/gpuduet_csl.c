/* SPDX-License-Identifier: MIT
 * gpuduet_csl.c - GPUDuet's context switching logic of one SM, stepped once per cycle (Lin
 * thesis §3.6.5; digest §2.9, §2.11, §2.12, §3.11).
 *
 * Warp level (registers or warp slots limit):
 *   absent -> ready      an absent warp whose loads all returned and that waits at no barrier
 *                        (the SM's saved state says so: hd_mech_act.warp_waiting)
 *   swap                 a stalled warp and a ready warp: the stalled one is switched out (its
 *                        reduced context into the spill area, or into the ready warp's spill
 *                        space when nothing else is free) and the ready one switched in as its
 *                        slot and registers free
 *   switch out           a stalled warp with room in the spill area, when a TB of the kernel
 *                        waits for room (the allocator refused one since its last placement)
 *                        and the kernel may hold extra TBs (ME > 0): the freed slot and
 *                        registers let it in
 *   switch in            a ready warp, when a warp slot and its registers are free (the
 *                        allocator's acquire decides)
 *   One switch-out and one switch-in may start per cycle; the bytes move through the SM's warp
 *   mover ([sm] warp_mover: state / port width, the on-chip mover contending for the ports).
 * Deadlock avoidance, option 2 (§2.9): a warp waiting at a barrier is stalled like one waiting
 * for a load and may be switched out; the barrier counts it as arrived, so the others (absent
 * or present) complete it and it becomes ready at the release.
 * TB level (shared memory limits; GPUDuet_TB; Virtual Thread): a TB whose every warp is stalled
 * is switched out as a whole (its shared memory and warp slots, or for VT only its slots); it
 * is ready when every warp is ready except those stalled at a barrier; swap when a stalled and a
 * ready TB exist. A TB is present or absent as a whole: it is placed absent when the SM offers
 * slots to only some of its warps (gpuduet_alloc.c), and switched in only when every absent warp
 * of it finds a slot.
 * Queues: warp ids go through the 16-entry stalled and ready queues, TBs through the 8-entry TB
 * queues (gpuduet_queues.c); an entry that cannot act this cycle (the SM refused: something in
 * flight; no room) is moved to the back.
 */
#include "gpuduet.h"

static struct gd_launch *launch_of_tb(struct gd *g, struct gd_sm *s, uint32_t tb);

/* absent -> ready, for every absent warp whose long-latency operation completed. */
static void scan_ready(struct gd *g, uint32_t i)
{
    struct gd_sm *s = &g->sm[i];
    for (uint32_t e = 0; e < GD_WCT_ENTRIES; e++) {
        struct gd_wct_entry *w = &s->wct.w[e];
        if (!w->valid || w->state != GD_WS_ABSENT || w->queued)
            continue;
        if (g->act->warp_waiting(g->act->gpu, i, w->ctx, w->warp))
            continue;
        if (!gd_queue_push(&s->ready, e))
            return; /* (full: found again next cycle) */
        w->state = GD_WS_READY;
        w->queued = true;
        s->st.ready++;
    }
}

static void rotate(struct gd_queue *q)
{
    uint32_t v;
    if (gd_queue_pop(q, &v))
        gd_queue_push(q, v);
}

/* The first ready warp of the queue still ready, or GD_NONE. */
static uint32_t first_ready(struct gd_sm *s)
{
    for (uint32_t k = 0; k < s->ready.n; k++) {
        const uint32_t e = gd_queue_at(&s->ready, k);
        if (e < GD_WCT_ENTRIES && s->wct.w[e].valid && s->wct.w[e].state == GD_WS_READY)
            return e;
    }
    return GD_NONE;
}

static void warp_level(struct gd *g, uint32_t i, uint64_t now)
{
    struct gd_sm *s = &g->sm[i];
    /* switch out (or the first half of a swap) */
    for (uint32_t tries = s->stalled.n; tries; tries--) {
        const uint32_t e = gd_queue_at(&s->stalled, 0);
        struct gd_wct_entry *w = e < GD_WCT_ENTRIES ? &s->wct.w[e] : NULL;
        if (!w || !w->valid || w->state != GD_WS_STALLED || w->slot == GD_NONE) {
            uint32_t v;
            gd_queue_pop(&s->stalled, &v);
            if (w)
                w->queued = false;
            continue;
        }
        const struct gd_launch *L = launch_of_tb(g, s, w->tb);
        const uint32_t r = first_ready(s);
        if (r == GD_NONE && (!L || gd_tb_limit_sm(g, L->launch, i) <= L->plan.mc ||
                             !gd_alloc_waiting(s->alloc))) {
            rotate(&s->stalled); /* nothing to gain: no ready warp, no TB waiting for room */
            continue;
        }
        const struct gd_tbct_entry *tb = &s->wct.t[w->tb];
        uint32_t from = GD_NONE;
        if (r != GD_NONE) {
            const struct gd_wct_entry *rw = &s->wct.w[r];
            from = s->wct.t[rw->tb].cta_slot << 5 | rw->warp;
        }
        if (!gd_alloc_reserve(s->alloc, tb->cta_slot, w->warp, false, from)) {
            s->st.no_room++;
            rotate(&s->stalled);
            break;
        }
        if (!g->act->warp_out(g->act->gpu, i, w->slot, UINT64_MAX, now)) {
            gd_alloc_unreserve(s->alloc, tb->cta_slot, w->warp);
            s->st.refused++;
            rotate(&s->stalled);
            continue;
        }
        uint32_t v;
        gd_queue_pop(&s->stalled, &v);
        w->queued = false;
        s->st.outs++;
        s->st.outs_bar += w->barrier;
        s->st.swaps += r != GD_NONE;
        gd_regpat_measure(g, i, launch_of_tb(g, s, w->tb), w->ctx, w->warp, w->pc);
        break;
    }
    /* switch in */
    for (uint32_t tries = s->ready.n; tries; tries--) {
        const uint32_t e = gd_queue_at(&s->ready, 0);
        struct gd_wct_entry *w = e < GD_WCT_ENTRIES ? &s->wct.w[e] : NULL;
        if (!w || !w->valid || w->state != GD_WS_READY) {
            uint32_t v;
            gd_queue_pop(&s->ready, &v);
            if (w)
                w->queued = false;
            continue;
        }
        if (!g->act->warp_in(g->act->gpu, i, w->ctx, w->warp, now))
            break; /* (in order: no room yet) */
        uint32_t v;
        gd_queue_pop(&s->ready, &v);
        w->queued = false;
        break;
    }
}

/* Is TB entry tb ready: each absent warp either not waiting or waiting at a barrier (it
 * completes once the others arrive)? (A TB only partly switched out - the SM refused some of
 * its warps - counts with its absent warps.) */
static bool tb_ready(struct gd *g, uint32_t i, uint32_t tb)
{
    const struct gd_sm *s = &g->sm[i];
    const struct gd_tbct_entry *t = &s->wct.t[tb];
    for (uint32_t k = 0; k < t->nwarps; k++) {
        const struct gd_wct_entry *w = &s->wct.w[t->first + k];
        if (w->slot == GD_NONE &&
            (g->act->warp_waiting(g->act->gpu, i, w->ctx, w->warp) & HD_MECH_WAIT_LOADS))
            return false;
    }
    return true;
}

static void tb_level(struct gd *g, uint32_t i, uint64_t now)
{
    struct gd_sm *s = &g->sm[i];
    /* ready TBs */
    for (uint32_t tb = 0; tb < GD_TBCT_ENTRIES; tb++) {
        struct gd_tbct_entry *t = &s->wct.t[tb];
        if (!t->valid || !t->absmask)
            continue;
        bool queued = false;
        for (uint32_t k = 0; k < s->ready_tb.n; k++)
            queued |= gd_queue_at(&s->ready_tb, k) == tb;
        if (!queued && tb_ready(g, i, tb) && gd_queue_push(&s->ready_tb, tb)) {
            for (uint32_t k = 0; k < t->nwarps; k++)
                if (s->wct.w[t->first + k].slot == GD_NONE)
                    s->wct.w[t->first + k].state = GD_WS_READY;
            s->st.ready++;
        }
    }
    /* switch a stalled TB out (every warp of it with a slot) */
    if (s->stalled_tb.n) {
        const uint32_t tb = gd_queue_at(&s->stalled_tb, 0);
        struct gd_tbct_entry *t = &s->wct.t[tb];
        const struct gd_launch *L = t->valid ? launch_of_tb(g, s, tb) : NULL;
        uint32_t from = GD_NONE;
        if (s->ready_tb.n)
            from = s->wct.t[gd_queue_at(&s->ready_tb, 0)].cta_slot;
        uint32_t v;
        if (!t->valid || !L) {
            gd_queue_pop(&s->stalled_tb, &v);
        } else if (from == GD_NONE && (gd_tb_limit_sm(g, L->launch, i) <= L->plan.mc ||
                                       !gd_alloc_waiting(s->alloc))) {
            rotate(&s->stalled_tb);
        } else if (!gd_alloc_reserve(s->alloc, t->cta_slot, 0, true, from)) {
            s->st.no_room++;
            rotate(&s->stalled_tb);
        } else {
            bool all = true;
            for (uint32_t k = 0; k < t->nwarps; k++) {
                struct gd_wct_entry *w = &s->wct.w[t->first + k];
                if (w->slot == GD_NONE)
                    continue;
                if (!gd_alloc_reserve(s->alloc, t->cta_slot, k, false, GD_NONE) ||
                    !g->act->warp_out(g->act->gpu, i, w->slot, UINT64_MAX, now)) {
                    gd_alloc_unreserve(s->alloc, t->cta_slot, k);
                    all = false;
                    continue;
                }
                s->st.outs++;
                s->st.outs_bar += w->barrier;
            }
            if (all) {
                gd_queue_pop(&s->stalled_tb, &v);
                s->st.tb_outs++;
                s->st.swaps += from != GD_NONE;
            } else {
                s->st.refused++;
                rotate(&s->stalled_tb);
            }
        }
    }
    /* switch a ready TB in (every warp; the first brings its shared memory home), only when
     * every absent warp of it finds a slot: a TB partly in holds slots another TB needs */
    if (s->ready_tb.n) {
        const uint32_t tb = gd_queue_at(&s->ready_tb, 0);
        struct gd_tbct_entry *t = &s->wct.t[tb];
        uint32_t want = 0;
        for (uint32_t k = 0; t->valid && k < t->nwarps; k++)
            want += s->wct.w[t->first + k].slot == GD_NONE &&
                    s->wct.w[t->first + k].state == GD_WS_READY;
        if (t->valid && want > gd_alloc_free_slots(s->alloc)) {
            rotate(&s->ready_tb);
            return;
        }
        bool all = t->valid;
        for (uint32_t k = 0; all && k < t->nwarps; k++) {
            const struct gd_wct_entry *w = &s->wct.w[t->first + k];
            if (w->slot == GD_NONE && w->state == GD_WS_READY &&
                !g->act->warp_in(g->act->gpu, i, w->ctx, w->warp, now))
                all = false;
            else if (w->slot == GD_NONE && w->state == GD_WS_READY)
                s->wct.w[t->first + k].state = GD_WS_RUNNING; /* (moving in) */
        }
        uint32_t v;
        if (all || !t->valid)
            gd_queue_pop(&s->ready_tb, &v);
        else
            rotate(&s->ready_tb);
    }
}

static struct gd_launch *launch_of_tb(struct gd *g, struct gd_sm *s, uint32_t tb)
{
    return gd_launch_of(g, s->wct.t[tb].launch);
}

void gd_csl_cycle(struct gd *g, uint32_t i, uint64_t now)
{
    struct gd_sm *s = &g->sm[i];
    if (!s->alloc)
        return;
    if (s->absent) {
        if (s->level == GD_LEVEL_TB)
            tb_level(g, i, now);
        else
            scan_ready(g, i);
    }
    if (s->level == GD_LEVEL_WARP && (s->stalled.n || s->ready.n))
        warp_level(g, i, now);
    else if (s->level == GD_LEVEL_TB && !s->absent && s->stalled_tb.n)
        tb_level(g, i, now);
}
