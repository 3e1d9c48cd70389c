/* SPDX-License-Identifier: MIT
 * gpuduet_csl.c - GPUDuet's context switching logic of one SM, stepped once per cycle (Lin
 * thesis §3.6.5; digest §2.9, §2.11, §2.12, §3.11).
 *
 * Warp level (registers or warp slots limit):
 *   absent -> ready      an absent warp whose loads all returned and that waits at no barrier
 *                        (the SM's saved state says so: hd_mech_act.warp_waiting)
 *   swap                 a stalled warp and a ready warp: the stalled one is switched out (its
 *                        reduced context into the ready warp's spill space when the two spaces
 *                        are the same size, else a fresh one) and the ready one switched in as
 *                        its slot and registers free. A swap pairs ONE stalled warp with ONE
 *                        ready warp (§2.12; session 16): the ready warp is reserved at that
 *                        moment (no second stalled warp leaves for it) and so is the slot the
 *                        stalled warp gives up (gd_alloc_pair: no TB placement or other warp
 *                        takes it). Until session 15 a ready warp that waited for a slot was
 *                        every later stalled warp's partner, so several left for one.
 *   switch out           a stalled warp with room in the spill area, when a TB of the kernel
 *                        waits for room (the allocator refused one since its last placement)
 *                        and the kernel may hold extra TBs (ME > 0): the freed slot and
 *                        registers let it in
 *   switch in            a ready warp, when a warp slot and its registers are free (the
 *                        allocator's acquire decides)
 *   One switch-out and one switch-in may start per cycle; the bytes move through the SM's one
 *   data mover (gpuduet_mover.h: state / port width through one port, with [gpuduet] blocks
 *   also yielding to the pipeline's ports; [sm] warp_mover = onchip or swap instead puts them
 *   on the SM's on-chip mover or swap engine), and no switch-out starts while a move waits for
 *   the mover's command port or its job queue is full (gd_mover_held).
 * Deadlock avoidance, option 2 (§2.9): a warp waiting at a barrier is stalled like one waiting
 * for a load and may be switched out; the barrier counts it as arrived, so the others (absent
 * or present) complete it and it becomes ready at the release.
 * TB level (shared memory limits; GPUDuet_TB; Virtual Thread): a TB whose every warp is stalled
 * is switched out as a whole (its shared memory and warp slots, or for VT only its slots); it
 * is ready when every warp is ready except those stalled at a barrier; swap when a stalled and a
 * ready TB exist (a ready TB whose switch-in has begun, gd_alloc_tb_arriving, is no longer one:
 * session 25). A TB is present or absent as a whole (session 26): it is placed absent when the
 * SM offers slots (or, registers spilling, registers) to only some of its warps
 * (gpuduet_place.c); switched in only when every absent warp of it finds a slot and every part it
 * lacks was found, asked together (gpuduet_tbin.c), and none is still leaving; swapped by swap
 * jobs for all its warps or none; switched out only when every present warp may leave and none
 * is still coming in. The log's tb_part counts issues of a TB partly present otherwise.
 * Tables: every warp's and TB's state it tests (valid, running / stalled / absent / ready, absent
 * warps) is the WCT / TBCT blocks' view, and every change it makes a write on their ports
 * (gpuduet_tab.h).
 * Queues: warp ids go through the 16-entry stalled and ready queues, TBs through the 8-entry TB
 * queues (gpuduet_queues.c); an entry that cannot act this cycle (the SM refused: something in
 * flight; no room) is moved to the back.
 */
#include "gpuduet.h"
#include "gpuduet_mover.h"

#define GD_MAXW_TB 32u /* warps of a TB (the TBCT's 32-bit Absmask) */

static struct gd_launch *launch_of_tb(struct gd *g, struct gd_sm *s, uint32_t tb);

/* The ready queue's push: the next absent warp (round robin over the WCT) whose long-latency
 * operation completed (the SM's saved state says so: hd_mech_act.warp_waiting), or one placed
 * without a slot, becomes ready. One per cycle (the queue's push port). */
static void scan_ready(struct gd *g, uint32_t i)
{
    struct gd_sm *s = &g->sm[i];
    if (!gd_queues_push_free(&s->q, GD_QR) || gd_queues_full(&s->q, GD_QR))
        return;
    for (uint32_t k = 0; k < GD_WCT_ENTRIES; k++) {
        const uint32_t e = (s->rr_ready + k) % GD_WCT_ENTRIES;
        struct gd_wct_entry *w = &s->wct.w[e];
        if (w->rq || w->slot != GD_NONE || !gd_w_valid(&s->wct, e))
            continue;
        const uint8_t st = gd_w_state(&s->wct, e);
        if (st != GD_WS_ABSENT && st != GD_WS_READY)
            continue;
        if (st == GD_WS_ABSENT && (g->act->warp_waiting(g->act->gpu, i, w->ctx, w->warp) &
                                   (HD_MECH_WAIT_LOADS | HD_MECH_WAIT_BARRIER)))
            continue; /* (one still moving out is pushed: it waits at the head, in order) */
        gd_queues_push(&s->q, GD_QR, e);
        s->st.ready += st == GD_WS_ABSENT;
        gd_w_set_state(&s->wct, e, GD_WS_READY); /* (the memory response port) */
        w->rq = true;
        s->rr_ready = (e + 1) % GD_WCT_ENTRIES;
        return;
    }
}

/* The stalled queue's push: the next stalled warp with a slot not yet queued (round robin: the
 * stall detector's vector, one push per cycle). */
static void scan_stalled(struct gd_sm *s)
{
    if (!gd_queues_push_free(&s->q, GD_QS) || gd_queues_full(&s->q, GD_QS))
        return;
    for (uint32_t k = 0; k < GD_WCT_ENTRIES; k++) {
        const uint32_t e = (s->rr_stall + k) % GD_WCT_ENTRIES;
        struct gd_wct_entry *w = &s->wct.w[e];
        if (w->queued || w->slot == GD_NONE || !gd_w_valid(&s->wct, e) ||
            gd_w_state(&s->wct, e) != GD_WS_STALLED)
            continue;
        gd_queues_push(&s->q, GD_QS, e);
        w->queued = true;
        s->rr_stall = (e + 1) % GD_WCT_ENTRIES;
        return;
    }
}

/* The ready warp at the ready queue's head, or GD_NONE (none, unknown this cycle, or stale). */
static uint32_t first_ready(struct gd_sm *s)
{
    const uint32_t e = gd_queues_head(&s->q, GD_QR);
    if (e < GD_WCT_ENTRIES && gd_w_valid(&s->wct, e) && gd_w_state(&s->wct, e) == GD_WS_READY &&
        s->wct.w[e].slot == GD_NONE)
        return e;
    return GD_NONE;
}

/* A warp-level swap with the CSL's data-mover block (gd_mover_swap_ok: both contexts between
 * the same two arrays): stalled warp e (its spill reserved) leaves and ready warp r, the ready
 * queue's head, comes into its slot and registers as ONE move, the block's swap job (kind 2:
 * e's bytes out, then r's in behind them); r runs when the job is done. The pairing is made
 * first, so that the allocator hands e's slot and registers to r as e leaves (gd_alloc_pair;
 * hd_mech_act.warp_swap). When r may not come at once (its registers wait for the block's
 * search: two plans) e leaves alone and r follows as a switch-in, as without the block. */
static void swap(struct gd *g, uint32_t i, uint32_t e, uint32_t r, uint64_t now)
{
    struct gd_sm *s = &g->sm[i];
    struct gd_wct_entry *w = &s->wct.w[e], *rw = &s->wct.w[r];
    const struct gd_tbct_entry *tb = &s->wct.t[w->tb];
    const uint32_t from = s->wct.t[rw->tb].cta_slot << 5 | rw->warp;
    w->xout = rw->named > 0;
    w->pair = r;
    rw->pair = e;
    gd_alloc_pair(s->alloc, tb->cta_slot, w->warp, from);
    const int got = g->act->warp_swap(g->act->gpu, i, w->slot, rw->ctx, rw->warp, now);
    w->xout = false;
    if (got == 0) {
        w->pair = rw->pair = GD_NONE;
        gd_alloc_unreserve(s->alloc, tb->cta_slot, w->warp);
        s->st.refused++;
        gd_queues_rotate(&s->q, GD_QS);
        return;
    }
    gd_queues_pop(&s->q, GD_QS);
    w->queued = false;
    s->st.outs++;
    s->st.outs_bar += w->barrier;
    s->st.swaps++;
    gd_regpat_measure(g, i, launch_of_tb(g, s, w->tb), w->ctx, w->warp, w->pc);
    s->st.xswaps += rw->named > 0;
    rw->named++;
    if (got == 2) { /* r is in (moving): off the ready queue, as a switch-in takes it */
        gd_queues_pop(&s->q, GD_QR);
        rw->rq = false;
        rw->coming = true;
        s->st.swap_jobs++;
    }
}

static void warp_level(struct gd *g, uint32_t i, uint64_t now)
{
    struct gd_sm *s = &g->sm[i];
    /* switch out (or the first half of a swap): the stalled queue's head */
    const uint32_t e = gd_queues_head(&s->q, GD_QS);
    struct gd_wct_entry *w = e < GD_WCT_ENTRIES ? &s->wct.w[e] : NULL;
    if (e == GD_NONE) {
        /* (empty, or its head not known yet) */
    } else if (!w || !gd_w_valid(&s->wct, e) || gd_w_state(&s->wct, e) != GD_WS_STALLED ||
               w->slot == GD_NONE) {
        gd_queues_pop(&s->q, GD_QS); /* stale: it ran on, left, or is out already */
        if (w)
            w->queued = false;
    } else {
        const struct gd_launch *L = launch_of_tb(g, s, w->tb);
        uint32_t r = first_ready(s);
        if (r != GD_NONE && s->wct.w[r].pair != GD_NONE)
            r = GD_NONE; /* a stalled warp is leaving for it already: one per ready warp */
        else if (r != GD_NONE &&
                 !gd_alloc_swap_open(s->alloc, s->wct.t[s->wct.w[r].tb].cta_slot,
                                     s->wct.w[r].warp))
            r = GD_NONE; /* its context space is a swap's already (session 15) */
        if (r == GD_NONE && (!L || gd_tb_limit_sm(g, L->launch, i) <= L->plan.mc ||
                             !gd_alloc_waiting(s->alloc))) {
            gd_queues_rotate(&s->q, GD_QS); /* nothing to gain: no ready warp, no TB waiting */
        } else {
            const struct gd_tbct_entry *tb = &s->wct.t[w->tb];
            uint32_t from = GD_NONE;
            if (r != GD_NONE) {
                const struct gd_wct_entry *rw = &s->wct.w[r];
                from = s->wct.t[rw->tb].cta_slot << 5 | rw->warp;
            }
            if (g->mv && gd_mover_held(g->mv, i)) {
                gd_queues_rotate(&s->q, GD_QS); /* the data mover is backed up */
            } else if (!gd_alloc_reserve(s->alloc, tb->cta_slot, w->warp, false, from)) {
                s->st.no_room += !gd_alloc_pending(s->alloc, tb->cta_slot, w->warp, false);
                gd_queues_rotate(&s->q, GD_QS);
            } else if (r != GD_NONE && g->mv && gd_mover_swap_ok(g->mv, i, e, r)) {
                swap(g, i, e, r, now); /* one move of both warps: the block's swap job */
            } else {
                /* the pairing (§2.12: a swap is ONE stalled warp for ONE ready warp): the slot
                 * and registers it gives up are the ready warp's (gd_alloc_pair) */
                w->xout = r != GD_NONE && s->wct.w[r].named > 0;
                if (!g->act->warp_out(g->act->gpu, i, w->slot, UINT64_MAX, now)) {
                    gd_alloc_unreserve(s->alloc, tb->cta_slot, w->warp);
                    w->xout = false;
                    s->st.refused++;
                    gd_queues_rotate(&s->q, GD_QS);
                } else {
                    gd_queues_pop(&s->q, GD_QS);
                    w->queued = false;
                    w->xout = false;
                    s->st.outs++;
                    s->st.outs_bar += w->barrier;
                    s->st.swaps += r != GD_NONE;
                    s->st.outs_tb += r == GD_NONE;
                    if (r != GD_NONE) {
                        s->st.xswaps += s->wct.w[r].named > 0;
                        s->wct.w[r].named++;
                        w->pair = r;
                        s->wct.w[r].pair = e;
                        gd_alloc_pair(s->alloc, tb->cta_slot, w->warp, from);
                    }
                    gd_regpat_measure(g, i, launch_of_tb(g, s, w->tb), w->ctx, w->warp, w->pc);
                }
            }
        }
    }
    /* switch in: the ready queue's head, in order */
    const uint32_t x = gd_queues_head(&s->q, GD_QR);
    struct gd_wct_entry *rw = x < GD_WCT_ENTRIES ? &s->wct.w[x] : NULL;
    if (x == GD_NONE)
        return;
    if (!rw || !gd_w_valid(&s->wct, x) || gd_w_state(&s->wct, x) != GD_WS_READY ||
        rw->slot != GD_NONE) {
        gd_queues_pop(&s->q, GD_QR); /* stale: it came in, or left */
        if (rw)
            rw->rq = false;
        return;
    }
    if (!g->act->warp_in(g->act->gpu, i, rw->ctx, rw->warp, now)) {
        /* a paired head whose partner has left but that found no room for its registers
         * (a placement took them: only when the two plans differ, gd_alloc_pair) is no
         * longer paired, so that another stalled warp may leave for it */
        if (rw->pair < GD_WCT_ENTRIES && s->wct.w[rw->pair].slot == GD_NONE &&
            gd_alloc_starved(s->alloc, s->wct.t[rw->tb].cta_slot, rw->warp)) {
            if (s->wct.w[rw->pair].pair == x)
                s->wct.w[rw->pair].pair = GD_NONE;
            rw->pair = GD_NONE;
            s->st.unpaired++;
        }
        return; /* (in order: no room yet) */
    }
    gd_queues_pop(&s->q, GD_QR);
    rw->rq = false;
    rw->coming = true;
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

/* Is a warp of TB entry tb still moving out (absent, its context not yet stored: the SM refuses
 * its switch-in until then)? A TB comes in as a whole only once every warp of it has left
 * (session 26: before, its first warps to have left could come back in, by a switch-in or a
 * swap job, while the last were still leaving, and ran without them). */
static bool tb_leaving(struct gd *g, uint32_t i, uint32_t tb)
{
    const struct gd_sm *s = &g->sm[i];
    const struct gd_tbct_entry *t = &s->wct.t[tb];
    for (uint32_t k = 0; k < t->nwarps; k++) {
        const struct gd_wct_entry *w = &s->wct.w[t->first + k];
        if (w->slot == GD_NONE && !w->coming &&
            (g->act->warp_waiting(g->act->gpu, i, w->ctx, w->warp) & HD_MECH_WAIT_MOVING))
            return true;
    }
    return false;
}

static bool tb_coming(const struct gd_sm *s, uint32_t tb);

/* A stalled TB: valid and every warp of it with a slot stalled (at least one), and none on its
 * way in (session 26: a TB whose first warps came in and stalled while its last were still
 * moving in was switched out half in) */
static bool tb_stalled(const struct gd_sm *s, uint32_t tb)
{
    return tb < GD_TBCT_ENTRIES && gd_t_valid(&s->wct, tb) &&
           gd_wct_tb_all(&s->wct, tb, GD_WS_STALLED) && !tb_coming(s, tb);
}

/* Has every present warp of TB t its spill space (asking the bitmap for those that have not)?
 * A TB leaves as a whole: none of its warps is switched out before all have it. */
static bool tb_reserved(struct gd_sm *s, const struct gd_tbct_entry *t)
{
    bool all = true;
    for (uint32_t k = 0; k < t->nwarps; k++)
        if (s->wct.w[t->first + k].slot != GD_NONE)
            all &= gd_alloc_reserve(s->alloc, t->cta_slot, k, false, GD_NONE);
    return all;
}

/* May every present warp of TB t leave now (hd_mech_act.warp_may_leave)? */
static bool tb_may_leave(struct gd *g, uint32_t i, const struct gd_tbct_entry *t)
{
    const struct gd_sm *s = &g->sm[i];
    for (uint32_t k = 0; k < t->nwarps; k++) {
        const struct gd_wct_entry *w = &s->wct.w[t->first + k];
        if (w->slot != GD_NONE && !g->act->warp_may_leave(g->act->gpu, i, w->slot))
            return false;
    }
    return true;
}

/* With the CSL's data-mover block, a TB-level swap moves each warp of the stalled TB t and one
 * absent warp of the ready head TB rt (cta slot `from`) as one swap job, rt's warp taking t's
 * warp's slot: only when every absent ready warp of rt can come at once in those slots: no more
 * of them than t has present warps, and rt's shared memory home at once (Virtual Thread and
 * plans whose shared memory does not spill keep it home; a spilled one takes t's home run,
 * handed over as t's first warp leaves: gd_alloc_pair_tb). Its entries in rin (in warp order);
 * how many (0: none). */
static uint32_t tb_swap_partners(struct gd *g, uint32_t i, const struct gd_tbct_entry *t,
                                 uint32_t from, uint32_t rt, bool cont, uint32_t *rin)
{
    struct gd_sm *s = &g->sm[i];
    if (from == GD_NONE || rt >= GD_TBCT_ENTRIES)
        return 0;
    const struct gd_tbct_entry *r = &s->wct.t[rt];
    const struct gd_launch *L = launch_of_tb(g, s, rt);
    if (!L || !L->planned || r->nwarps > GD_MAXW_TB)
        return 0;
    uint32_t np = 0, nr = 0;
    for (uint32_t k = 0; k < t->nwarps; k++)
        np += s->wct.w[t->first + k].slot != GD_NONE;
    for (uint32_t k = 0; k < r->nwarps; k++) {
        const uint32_t e = r->first + k;
        if (s->wct.w[e].slot == GD_NONE && !s->wct.w[e].coming &&
            gd_w_state(&s->wct, e) == GD_WS_READY)
            rin[nr++] = e;
    }
    if (!nr || nr > np || tb_leaving(g, i, rt))
        return 0;
    /* a shared memory that spilled: the stalled TB's home run is handed over (gd_alloc_pair_tb) */
    if (L->plan.spill_smem && !cont && !gd_alloc_pair_tb(s->alloc, t->cta_slot, from))
        return 0; /* (cont: the swap's rest, the home run handed over with its first warp) */
    /* every ready warp through a swap job, or none (session 26: a TB is present or absent as a
     * whole; a pair whose contexts lie between other arrays left the ready TB's last warps out
     * while the others ran, and they came in later one by one); none: the ready TB follows as
     * a whole switch-in (gd_alloc_tb_gather) */
    for (uint32_t k = 0, k2 = 0; k < t->nwarps && k2 < nr; k++)
        if (s->wct.w[t->first + k].slot != GD_NONE &&
            !gd_mover_swap_ok(g->mv, i, t->first + k, rin[k2++]))
            return 0;
    return nr;
}

/* Has TB entry tb a warp on its way in (its switch-in started by the CSL)? */
static bool tb_coming(const struct gd_sm *s, uint32_t tb)
{
    const struct gd_tbct_entry *t = &s->wct.t[tb];
    for (uint32_t k = 0; k < t->nwarps; k++)
        if (s->wct.w[t->first + k].coming)
            return true;
    return false;
}

static void tb_level(struct gd *g, uint32_t i, uint64_t now)
{
    struct gd_sm *s = &g->sm[i];
    /* the pushes, one per queue per cycle (round robin over the TBCT): a TB whose every present
     * warp stalled; a TB with absent warps that is ready */
    for (uint32_t k = 0; k < GD_TBCT_ENTRIES && gd_queues_push_free(&s->q, GD_QST) &&
                         !gd_queues_full(&s->q, GD_QST);
         k++) {
        const uint32_t tb = (s->rr_stall_tb + k) % GD_TBCT_ENTRIES;
        if (s->wct.t[tb].sq || !tb_stalled(s, tb))
            continue;
        gd_queues_push(&s->q, GD_QST, tb);
        s->wct.t[tb].sq = true;
        s->wct.t[tb].t_sq = now;
        s->st.tb_sq++;
        s->rr_stall_tb = (tb + 1) % GD_TBCT_ENTRIES;
    }
    for (uint32_t k = 0; s->absent && k < GD_TBCT_ENTRIES && gd_queues_push_free(&s->q, GD_QRT) &&
                         !gd_queues_full(&s->q, GD_QRT);
         k++) {
        const uint32_t tb = (s->rr_ready_tb + k) % GD_TBCT_ENTRIES;
        struct gd_tbct_entry *t = &s->wct.t[tb];
        if (t->rq || !gd_t_valid(&s->wct, tb) || !gd_t_abs(&s->wct, tb) || !tb_ready(g, i, tb))
            continue;
        gd_queues_push(&s->q, GD_QRT, tb);
        t->rq = true;
        t->t_rq = now;
        t->named = 0;
        if (t->t_out)
            s->st.tb_abs_cycles += now - t->t_out;
        for (uint32_t w = 0; w < t->nwarps; w++)
            if (s->wct.w[t->first + w].slot == GD_NONE)
                gd_w_set_state(&s->wct, t->first + w, GD_WS_READY);
        s->st.ready++;
        s->rr_ready_tb = (tb + 1) % GD_TBCT_ENTRIES;
    }
    /* switch the stalled queue's head TB out (every warp of it with a slot) */
    const uint32_t tb = gd_queues_head(&s->q, GD_QST);
    if (tb != GD_NONE) {
        struct gd_tbct_entry *t = tb < GD_TBCT_ENTRIES ? &s->wct.t[tb] : NULL;
        const struct gd_launch *L = t && gd_t_valid(&s->wct, tb) ? launch_of_tb(g, s, tb) : NULL;
        /* a TB some warps of which left already (the SM refused the others: an instruction in
         * flight) finishes its switch-out first, partner or not, and a swap's rest with the
         * same ready TB (session 26: a TB is present or absent as a whole) */
        const bool finishing = t && gd_t_abs(&s->wct, tb) && !tb_coming(s, tb);
        const bool cont = finishing && t->swap_rt < GD_TBCT_ENTRIES &&
                          gd_t_valid(&s->wct, t->swap_rt) && gd_t_abs(&s->wct, t->swap_rt);
        const uint32_t rt = cont ? t->swap_rt : gd_queues_head(&s->q, GD_QRT);
        uint32_t from = GD_NONE;
        if (rt < GD_TBCT_ENTRIES && gd_t_valid(&s->wct, rt) && gd_t_abs(&s->wct, rt))
            from = s->wct.t[rt].cta_slot;
        const bool arriving = !cont && from != GD_NONE && gd_alloc_tb_arriving(s->alloc, from);
        if (arriving) {
            /* the ready head is coming in already (its first warp in, its shared memory being
             * brought home into room a TB left): it is no swap partner (§3.6.6 swaps the
             * context spaces of a stalled and a READY TB; this one has left the ready state and
             * its spill space goes back as it comes home). Until session 25 the stalled TB left
             * "for" it all the same: a switch-out for nobody, outside the no-partner rule below
             * (HG: 5,865 of 17,324 TB swaps, docs/gpuduet.md "Session 25: HG") */
            from = GD_NONE;
            s->st.tb_arriving++;
        }
        if (!L || !tb_stalled(s, tb)) {
            gd_queues_pop(&s->q, GD_QST); /* stale: it ran on, left, or is out */
            if (t)
                t->sq = false;
            s->st.tb_stale++;
        } else if (from == GD_NONE && !arriving && !finishing &&
                   gd_queues_unknown(&s->q, GD_QRT)) {
            /* the ready TB queue's head is not known this cycle (a pop or push of the last
             * edge): the stalled TB waits for it rather than rotating as if none were ready.
             * Rotating here phase-locked the two queues: the ready queue's failed switch-in
             * rotates it every other cycle, so the stalled head only ever looked in the blind
             * cycle, found no partner, and no TB ever swapped (the session-23 GPUDuet_TB
             * livelock, docs/gpuduet.md "Session 24") */
            s->st.tb_blind++;
        } else if (from == GD_NONE && !finishing &&
                   (gd_tb_limit_sm(g, L->launch, i) <= L->plan.mc ||
                    !gd_alloc_waiting(s->alloc))) {
            gd_queues_rotate(&s->q, GD_QST);
            s->st.tb_nopart++;
        } else if (g->mv && gd_mover_held(g->mv, i)) {
            gd_queues_rotate(&s->q, GD_QST); /* the data mover is backed up */
        } else if (!gd_alloc_reserve(s->alloc, t->cta_slot, 0, true, from)) {
            s->st.no_room += !gd_alloc_pending(s->alloc, t->cta_slot, 0, true);
            gd_queues_rotate(&s->q, GD_QST);
            s->st.tb_run_wait++;
        } else if (!tb_reserved(s, t)) {
            gd_queues_rotate(&s->q, GD_QST); /* (a warp's spill still at the bitmap, or none) */
            s->st.tb_wres_wait++;
        } else if (!tb_may_leave(g, i, t)) {
            /* a warp of it may not leave this cycle (an instruction in flight): none leaves
             * (session 26: a TB is present or absent as a whole; before, the others left and it
             * stayed in alone, and ran on when its load came back) */
            s->st.refused++;
            gd_queues_rotate(&s->q, GD_QST);
        } else {
            uint32_t rin[GD_MAXW_TB],
                nr = g->mv ? tb_swap_partners(g, i, t, from, rt, cont, rin) : 0;
            bool all = true;
            uint32_t left = 0, k2 = 0;
            for (uint32_t k = 0; k < t->nwarps; k++) {
                struct gd_wct_entry *w = &s->wct.w[t->first + k];
                if (w->slot == GD_NONE)
                    continue;
                if (!gd_alloc_reserve(s->alloc, t->cta_slot, k, false, GD_NONE)) {
                    gd_alloc_unreserve(s->alloc, t->cta_slot, k);
                    all = false;
                    continue;
                }
                int got;
                if (k2 < nr && gd_mover_swap_ok(g->mv, i, t->first + k, rin[k2])) {
                    /* one move of both: the block's swap job (ready TB's warp k2 into this
                     * warp's slot) */
                    const struct gd_wct_entry *rw = &s->wct.w[rin[k2]];
                    /* its slot and registers are that warp's (gd_alloc_pair, as at warp level) */
                    gd_alloc_pair(s->alloc, t->cta_slot, k,
                                  s->wct.t[rw->tb].cta_slot << 5 | rw->warp);
                    got = g->act->warp_swap(g->act->gpu, i, w->slot, rw->ctx, rw->warp, now);
                    if (got == 2) {
                        gd_w_set_state(&s->wct, rin[k2], GD_WS_RUNNING); /* (moving in) */
                        s->wct.w[rin[k2]].coming = true;
                        s->st.swap_jobs++;
                        k2++;
                    } else if (got == 1) {
                        nr = 0; /* (the ready TB may not come now: it follows as a whole) */
                    } /* (0: this warp may not leave yet; the next one takes its partner) */
                } else {
                    got = g->act->warp_out(g->act->gpu, i, w->slot, UINT64_MAX, now);
                }
                if (!got) {
                    gd_alloc_unreserve(s->alloc, t->cta_slot, k);
                    all = false;
                    if (!left)
                        break; /* (none left yet: the TB stays whole, tried again later) */
                    continue;
                }
                left++;
                s->st.outs++;
                s->st.outs_bar += w->barrier;
            }
            gd_alloc_unpair_tb(s->alloc, t->cta_slot);
            t->swap_rt = !all && left && k2 && k2 < nr ? rt : GD_NONE;
            if (all) {
                gd_queues_pop(&s->q, GD_QST);
                t->sq = false;
                s->st.tb_outs++;
                s->st.swaps += from != GD_NONE;
                if (from != GD_NONE) { /* (trace: a ready TB named again before it is in) */
                    s->st.xswaps += s->wct.t[rt].named > 0;
                    s->wct.t[rt].named++;
                }
                s->st.tb_out_wait += now - t->t_sq;
                if (t->t_in) { /* (the ping-pong trace: out again how soon after coming in) */
                    s->st.tb_reouts++;
                    s->st.tb_back_cycles += now - t->t_in;
                    s->st.tb_back_short += now - t->t_in < 300;
                }
                t->t_out = now;
            } else if (gd_t_abs(&s->wct, tb)) {
                s->st.refused++; /* (some left: the rest are tried again next cycle, at the head) */
            } else {
                s->st.refused++;
                gd_queues_rotate(&s->q, GD_QST);
            }
        }
    }
    /* switch the ready queue's head TB in (every warp; the first brings its shared memory
     * home), only when every absent warp of it finds a slot: a TB partly in holds slots another
     * TB needs */
    const uint32_t rt = gd_queues_head(&s->q, GD_QRT);
    if (rt == GD_NONE)
        return;
    struct gd_tbct_entry *t = rt < GD_TBCT_ENTRIES ? &s->wct.t[rt] : NULL;
    if (!t || !gd_t_valid(&s->wct, rt) || !gd_t_abs(&s->wct, rt)) {
        gd_queues_pop(&s->q, GD_QRT); /* stale: it left, or is in */
        if (t)
            t->rq = false;
        return;
    }
    uint32_t want = 0, mask = 0;
    bool coming = false;
    for (uint32_t k = 0; k < t->nwarps; k++) {
        const struct gd_wct_entry *w = &s->wct.w[t->first + k];
        coming |= w->coming;
        if (w->slot == GD_NONE && !w->coming && gd_w_state(&s->wct, t->first + k) == GD_WS_READY) {
            want++;
            mask |= 1u << k;
        }
    }
    if (coming && !want) { /* (pushed again while it comes in: stale once it is in) */
        gd_queues_rotate(&s->q, GD_QRT);
        return;
    }
    if (tb_leaving(g, i, rt)) { /* (its last warps still leaving: it comes in as a whole) */
        gd_queues_rotate(&s->q, GD_QRT);
        s->st.tb_in_room++;
        return;
    }
    if (want > gd_alloc_free_slots(s->alloc)) {
        gd_queues_rotate(&s->q, GD_QRT);
        s->st.tb_in_noslot++;
        return;
    }
    if (!gd_alloc_tb_gather(s->alloc, t->cta_slot, mask)) {
        /* (the block's answers for its parts not all in, or no room: session 26, every part
         * first, so that no warp of it comes in while another waits) */
        gd_queues_rotate(&s->q, GD_QRT);
        s->st.tb_in_room++;
        return;
    }
    bool all = true;
    for (uint32_t k = 0; all && k < t->nwarps; k++) {
        const struct gd_wct_entry *w = &s->wct.w[t->first + k];
        const bool rdy = mask >> k & 1u;
        if (rdy && !g->act->warp_in(g->act->gpu, i, w->ctx, w->warp, now))
            all = false;
        else if (rdy) {
            gd_w_set_state(&s->wct, t->first + k, GD_WS_RUNNING); /* (moving in: the CSL port) */
            s->wct.w[t->first + k].coming = true;
        }
    }
    if (all) {
        gd_queues_pop(&s->q, GD_QRT);
        t->rq = false;
        s->st.tb_ins++;
        s->st.tb_in_wait += now - t->t_rq;
        t->t_in = now;
        t->named = 0;
    } else {
        gd_queues_rotate(&s->q, GD_QRT);
    }
}

static struct gd_launch *launch_of_tb(struct gd *g, struct gd_sm *s, uint32_t tb)
{
    return gd_launch_of(g, s->wct.t[tb].launch);
}

bool gd_tb_partial(struct gd *g, uint32_t i, uint32_t tb)
{
    struct gd_sm *s = &g->sm[i];
    if (tb >= GD_TBCT_ENTRIES || !gd_t_valid(&s->wct, tb))
        return false;
    const struct gd_launch *L = launch_of_tb(g, s, tb);
    if (!L || L->plan.level != GD_LEVEL_TB)
        return false;
    const struct gd_tbct_entry *t = &s->wct.t[tb];
    bool in = false, out = false;
    for (uint32_t k = 0; k < t->nwarps; k++) {
        const uint32_t e = t->first + k;
        if (s->wct.w[e].slot != GD_NONE || s->wct.w[e].coming)
            in = true;
        else
            out = true;
    }
    return in && out;
}

int gd_csl_cycle(struct gd *g, uint32_t i, uint64_t now, char *err, size_t errlen)
{
    struct gd_sm *s = &g->sm[i];
    if (!s->alloc)
        return 0;
    if (s->level == GD_LEVEL_WARP) {
        if (s->absent)
            scan_ready(g, i);
        warp_level(g, i, now);
        scan_stalled(s);
    } else if (s->level == GD_LEVEL_TB) {
        tb_level(g, i, now);
    }
    uint32_t dropped[GD_NQ];
    if (gd_queues_step(&s->q, i, now, dropped, err, errlen) != 0)
        return -1;
    /* a push the full queue dropped: its warp (TB) stays where it is, pushed again later */
    if (dropped[GD_QS] < GD_WCT_ENTRIES)
        s->wct.w[dropped[GD_QS]].queued = false;
    if (dropped[GD_QR] < GD_WCT_ENTRIES)
        s->wct.w[dropped[GD_QR]].rq = false;
    if (dropped[GD_QST] < GD_TBCT_ENTRIES)
        s->wct.t[dropped[GD_QST]].sq = false;
    if (dropped[GD_QRT] < GD_TBCT_ENTRIES)
        s->wct.t[dropped[GD_QRT]].rq = false;
    return 0;
}
