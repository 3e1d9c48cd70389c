/* SPDX-License-Identifier: MIT
 * ctx_wmove.c - warps switched out through the on-chip context mover or the swap engine (issue
 * 25 items 1, 3, 4; ctx_wmove.h; docs/mover.md "Warps switched out through the mover"): the
 * start() of the residency code's warp mover (sm_residency.h struct hd_warp_mover) places each
 * leaving warp's bytes (L1D context region, else the swap window, else the fixed latency),
 * remembers where, brings them back from there on switch-in, and reports each completion to
 * hd_sm_warp_moved from the mover's and the swap engine's callbacks.
 *
 * Design: one record per warp away or moving (context id, epoch, warp), in the SM's substrate
 * (struct hd_sm_vres .wm), so that an aborted run forgets it with the region and the swap
 * records. Tags carry the context id and the warp (no HD_VSTRESS_TAG: the stress mode's pieces
 * and these share the mover and the swap engine, in submission order). The move's timing bytes
 * are the residency code's (struct hd_warp_move .bytes: the warp's registers as its CTA's
 * allocation holds them, and its 128-byte warp-state unit), moved as one job or one record.
 */
#include "sm_impl.h"

#include "ctx_vres.h"
#include "ctx_wmove.h"

#include <stdlib.h>

enum { W_FIXED, W_L1D, W_SWAP };

struct wm_piece {
    uint32_t ctx, warp;
    uint16_t epoch;
    uint8_t where;            /* W_* */
    bool in;                  /* the move under way is the return */
    uint32_t ua, rf;          /* W_L1D: region address, register-file address */
    uint32_t rec;             /* W_SWAP: swap record */
    uint64_t bytes;
    uint64_t t0;              /* cycle the move under way started */
};

struct hd_wmove {
    struct wm_piece *p;
    uint32_t n, cap;
};

#define WM_TAG(ctx, warp) ((uint64_t)(ctx) << 8 | (warp))

void hd_sm_wmove_free(struct hd_sm_vres *v)
{
    if (v && v->wm) {
        free(v->wm->p);
        free(v->wm);
        v->wm = NULL;
    }
}

static struct hd_wmove *state(struct hd_sm_vres *v)
{
    if (!v->wm)
        v->wm = calloc(1, sizeof *v->wm);
    return v->wm;
}

static struct wm_piece *find(struct hd_wmove *w, uint32_t ctx, uint32_t warp)
{
    for (uint32_t k = 0; w && k < w->n; k++)
        if (w->p[k].ctx == ctx && w->p[k].warp == warp)
            return &w->p[k];
    return NULL;
}

static void drop(struct hd_wmove *w, struct wm_piece *p)
{
    *p = w->p[--w->n];
}

static struct wm_piece *add(struct hd_wmove *w)
{
    if (w->n == w->cap) {
        const uint32_t cap = w->cap ? 2 * w->cap : 16;
        struct wm_piece *p = realloc(w->p, cap * sizeof *p);
        if (!p)
            return NULL;
        w->p = p;
        w->cap = cap;
    }
    return &w->p[w->n++];
}

static uint64_t fixed(struct hd_sm *sm, uint64_t bytes, uint64_t now)
{
    sm->st->warp_mover_fixed++;
    return now + (bytes + sm->p->warp_move_bytes - 1) / sm->p->warp_move_bytes;
}

/* The L1D region is in use by one piece less: the last gives the ways back. */
static void region_leave(struct hd_sm *sm, struct hd_sm_vres *v, uint64_t now)
{
    if (--v->l1d_users == 0)
        hd_sm_l1d_reserve(sm, 0, now);
}

/* Warp m leaves: into the L1D region, else the swap window. HD_WARP_MOVE_CALLBACK, or the
 * fixed latency's completion cycle. */
static uint64_t out(struct hd_sm *sm, struct hd_sm_vres *v, struct wm_piece *p,
                    const struct hd_warp_move *m, const struct hd_tcta *c, uint64_t now)
{
    if (sm->p->warp_mover == HD_WMOVER_ONCHIP) {
        if (v->l1d_users == 0)
            hd_sm_l1d_reserve(sm, sm->cp->mover_l1d_ways, now);
        p->ua = hd_uspace_alloc(&v->us, HD_UA_L1D, m->bytes);
        if (p->ua != HD_UADDR_NONE) {
            v->l1d_users++;
            p->rf = hd_uaddr_make(HD_UA_RF, (uint32_t)(((uint64_t)c->grant.reg_base * 4 +
                                                        (uint64_t)m->warp * m->regs * 4) /
                                                       HD_UADDR_UNIT));
            if (hd_sm_mover_submit(sm, p->rf, p->ua, m->bytes, WM_TAG(m->ctx, m->warp), now) ==
                0) {
                p->where = W_L1D;
                return HD_WARP_MOVE_CALLBACK;
            }
            hd_uspace_release(&v->us, p->ua, m->bytes); /* (host OOM) */
            region_leave(sm, v, now);
            return fixed(sm, m->bytes, now);
        }
        if (v->l1d_users == 0) /* (reserved for nothing) */
            hd_sm_l1d_reserve(sm, 0, now);
        sm->st->warp_mover_spills++; /* the region is full: to memory */
    }
    const struct hd_swap_piece pc = {HD_SWAP_WARP, m->ctx, m->warp, c->la->id, 0, m->bytes};
    p->rec = hd_sm_swap_out(sm, &pc, WM_TAG(m->ctx, m->warp), now);
    if (p->rec == HD_SWAP_NONE)
        return fixed(sm, m->bytes, now); /* (no free record: p stays W_FIXED) */
    p->where = W_SWAP;
    return HD_WARP_MOVE_CALLBACK;
}

static void moved(void *arg, uint64_t tag, uint64_t now);
static void swapped(void *arg, struct hd_sm *sm, uint32_t rec, bool in, uint64_t now);

static uint64_t start(void *impl, const struct hd_warp_move *m, uint64_t now)
{
    struct hd_sm *sm = impl;
    struct hd_sm_vres *v = hd_sm_vres(sm); /* (made on first use, again after an abort) */
    struct hd_wmove *w = v ? state(v) : NULL;
    if (w) {
        v->mover_done = moved;
        v->mover_arg = sm;
        v->swap_done = swapped;
    }
    const struct hd_ctx *x = hd_ctx_get(sm->pool, m->ctx);
    if (!w || !x)
        return fixed(sm, m->bytes, now); /* (host OOM) */
    struct wm_piece *p = find(w, m->ctx, m->warp);
    if (p && p->epoch != x->epoch) { /* (a record of an earlier use of the context) */
        drop(w, p);
        p = NULL;
    }
    if (!m->in) {
        if (p || !(p = add(w)))
            return fixed(sm, m->bytes, now); /* (moving already; host OOM) */
        *p = (struct wm_piece){m->ctx, m->warp, x->epoch, W_FIXED, false, HD_UADDR_NONE,
                               HD_UADDR_NONE, HD_SWAP_NONE, m->bytes, now};
        return out(sm, v, p, m, &sm->cta[x->slot], now);
    }
    if (!p || p->where == W_FIXED) { /* placed absent (never stored), or left at fixed cost */
        if (p)
            drop(w, p);
        return fixed(sm, m->bytes, now);
    }
    p->in = true;
    p->t0 = now;
    const int r = p->where == W_L1D ? hd_sm_mover_submit(sm, p->ua, p->rf, p->bytes,
                                                         WM_TAG(m->ctx, m->warp), now)
                                    : hd_sm_swap_in(sm, p->rec, now);
    if (r == 0)
        return HD_WARP_MOVE_CALLBACK;
    if (p->where == W_L1D) { /* (host OOM): its space is given back, the timing fixed */
        hd_uspace_release(&v->us, p->ua, p->bytes);
        region_leave(sm, v, now);
    } else {
        hd_sm_swap_drop(sm, p->rec);
    }
    const uint64_t bytes = p->bytes;
    drop(w, p);
    return fixed(sm, bytes, now);
}

/* A direction of piece p's move completed in cycle now. */
static void completed(struct hd_sm *sm, struct hd_sm_vres *v, struct wm_piece *p, uint64_t now)
{
    struct hd_sm_stats *st = sm->st;
    const uint64_t cycles = now + 1 - p->t0; /* (usable from the next cycle, as the fixed one) */
    st->warp_move_cycles += cycles;
    if (p->where == W_L1D) {
        st->warp_mover_onchip++;
        st->warp_mover_onchip_bytes += p->bytes;
        st->warp_mover_onchip_cycles += cycles;
    } else {
        st->warp_mover_swaps++;
        st->warp_mover_swap_bytes += p->bytes;
        st->warp_mover_swap_cycles += cycles;
    }
    const uint32_t ctx = p->ctx, warp = p->warp;
    if (p->in) { /* back in its slot: the storage is free */
        if (p->where == W_L1D) {
            hd_uspace_release(&v->us, p->ua, p->bytes);
            region_leave(sm, v, now);
        } else {
            hd_sm_swap_drop(sm, p->rec);
        }
        drop(v->wm, p);
    }
    hd_sm_warp_moved(sm, ctx, warp, now);
}

static void moved(void *arg, uint64_t tag, uint64_t now)
{
    struct hd_sm *sm = arg;
    struct hd_sm_vres *v = sm->ce->vr;
    struct wm_piece *p = find(v->wm, (uint32_t)(tag >> 8), (uint32_t)(tag & 0xff));
    if (p && p->where == W_L1D)
        completed(sm, v, p, now);
}

static void swapped(void *arg, struct hd_sm *sm, uint32_t rec, bool in, uint64_t now)
{
    (void)arg;
    (void)in;
    struct hd_sm_vres *v = sm->ce->vr;
    const struct hd_swap_rec *r = hd_sm_swap_rec(sm, rec);
    struct wm_piece *p = r ? find(v->wm, (uint32_t)(r->tag >> 8), (uint32_t)(r->tag & 0xff))
                           : NULL;
    if (p && p->where == W_SWAP && p->rec == rec)
        completed(sm, v, p, now);
}

bool hd_sm_wmove_install(struct hd_sm *sm)
{
    /* (the substrate is made by the first move; no swaps: a swap is a plain switch-out here) */
    const struct hd_warp_mover m = {start, sm, false};
    return hd_sm_set_warp_mover(sm, &m);
}
