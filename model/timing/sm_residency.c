/* SPDX-License-Identifier: MIT
 * sm_residency.c - warp-granular residency: single warps of a resident CTA switched out of their
 * slots on chip and back, logical warp and CTA capacities above the physical slots, and the
 * seeded warp stress mode (issue 25 items 1, 2, 8; GPUDuet §4 warp switching, Virtual Thread's
 * TB inactivation, Zorua's logical warp slots). The rules, states and the mover seam are in
 * sm_residency.h; docs/timing.md "Warp-granular residency" has a worked example.
 *
 * Design: per SM one struct hd_sm_res (made only when [sm] enables it or a first API call asks),
 * holding the moves under way and the absent warps in the order they left, each with the
 * earliest cycle it may return. Warps are named by context id, epoch and warp index, never by
 * address. A warp's timing state while absent is in its context (ctx_pool.h saved/saved_sb,
 * hd_sm_ctx_saved_storage): the storage a whole-CTA switch uses, filled and read with the SM's
 * own bind and unbind (hd_sm_warp_bind, hd_sm_warp_unbind), so nothing about a warp is copied
 * twice. The SM's tick calls hd_sm_res_tick only when the state exists (one NULL test).
 */
#include "sm_impl.h"

#include "func_status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {==== State ==== */
struct res_move {                /* a warp's context moving on chip */
    uint32_t ctx, warp, slot;
    uint16_t epoch;
    bool in;
    bool released;               /* (out) a swap's: its slot went back at the start */
    uint32_t ctx2, warp2;        /* (out) a swap's arriving warp, completed with it (ctx2
                                    UINT32_MAX: none) */
    uint64_t done_at;            /* HD_WARP_MOVE_CALLBACK: the mover calls hd_sm_warp_moved */
};

struct res_wait {                /* an absent warp, in the order warps left */
    uint32_t ctx, warp;
    uint16_t epoch;
    uint64_t at;                 /* earliest cycle the SM switches it back in by itself */
    bool fresh;                  /* placed without a slot and never ran, with
                                    hd_sm_params.fresh_unstarted: starts without a move */
};

struct hd_sm_res {
    struct res_move *mv;
    uint32_t nmv, cap_mv;
    struct res_wait *q;
    uint32_t nq, cap_q;
    struct hd_warp_mover mover;  /* start NULL: the default (fixed bytes per cycle) */
    uint64_t rng;                /* warp stress: generator state */
    uint64_t next_stress;        /* ... its next point */
    uint32_t *held;              /* [max_ctas] by CTA slot: drained warps whose slot the CTA
                                    still holds (hd_sm_res_drained) */
    uint32_t nheld;              /* CTA slots with a bit in held */
};

int hd_sm_res_init(struct hd_sm *sm)
{
    if (sm->wr)
        return 0;
    struct hd_sm_res *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->cap_mv = r->cap_q = 16;
    r->mv = calloc(r->cap_mv, sizeof *r->mv);
    r->q = calloc(r->cap_q, sizeof *r->q);
    r->held = calloc(sm->p->max_ctas ? sm->p->max_ctas : 1, sizeof *r->held);
    if (!r->mv || !r->q || !r->held) {
        free(r->mv);
        free(r->q);
        free(r->held);
        free(r);
        return -1;
    }
    /* (splitmix-style seeding: each SM its own sequence, the same for the same seed) */
    r->rng = (sm->p->warp_stress_seed + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(sm->id + 1) << 32;
    r->next_stress = UINT64_MAX;
    sm->wr = r;
    if (sm->p->warp_stress_period) {
        uint64_t x = r->rng;
        r->next_stress = 1 + x % (2 * sm->p->warp_stress_period);
    }
    return 0;
}

void hd_sm_res_free(struct hd_sm *sm)
{
    if (!sm->wr)
        return;
    free(sm->wr->mv);
    free(sm->wr->q);
    free(sm->wr->held);
    free(sm->wr);
    sm->wr = NULL;
}

void hd_sm_res_clear(struct hd_sm *sm)
{
    sm->wr->nmv = sm->wr->nq = 0;
    memset(sm->wr->held, 0, sm->p->max_ctas * sizeof *sm->wr->held);
    sm->wr->nheld = 0;
}

/* Give drained warp i's slot of CTA c back to the allocator (its context RESIDENT, the slot
 * still its grant's and unbound). */
static void drained_release(struct hd_sm *sm, struct hd_tcta *c, uint32_t i)
{
    const uint16_t slot = c->grant.warp_slot[i];
    if (!c->used || !c->ctx || c->ctx->state != HD_CTX_RESIDENT || i >= c->grant.nwarps ||
        slot == HD_ALLOC_NO_SLOT || sm->w[slot].state != HD_WS_EMPTY || !c->fc ||
        !c->fc->warps[i].done)
        return; /* (gone meanwhile: the CTA retired, or its slot was bound again; and never a
                   warp that has not finished: hd_sm_res_vacated) */
    const struct hd_alloc_part part = {i, 0, 0};
    sm->alloc.ops->release_part(sm->alloc.impl, &c->grant, &part);
    c->grant.warp_slot[i] = HD_ALLOC_NO_SLOT;
}

/* A warp is absent or moving: the slots drained warps still hold go to the allocator, where
 * the absent warps can get them (hd_sm_res_drained). */
static void lend_held(struct hd_sm *sm)
{
    struct hd_sm_res *r = sm->wr;
    for (uint32_t k = 0; r->nheld && k < sm->p->max_ctas; k++) {
        if (!r->held[k])
            continue;
        for (uint32_t i = 0; i < 32; i++)
            if (r->held[k] >> i & 1u)
                drained_release(sm, &sm->cta[k], i);
        r->held[k] = 0;
        r->nheld--;
    }
}

void hd_sm_res_vacated(struct hd_sm *sm, uint32_t cta)
{
    struct hd_sm_res *r = sm->wr;
    if (cta < sm->p->max_ctas && r->held[cta]) { /* (its grant gives the held slots back) */
        r->held[cta] = 0;
        r->nheld--;
    }
}

static uint64_t rng_next(struct hd_sm_res *r)
{
    r->rng ^= r->rng << 13; /* xorshift64 */
    r->rng ^= r->rng >> 7;
    r->rng ^= r->rng << 17;
    return r->rng;
}

static bool room(void **a, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    void *p = realloc(*a, (size_t)*cap * 2 * size);
    if (!p)
        return false;
    *a = p;
    *cap *= 2;
    return true;
}

static bool make_room(struct hd_sm_res *r)
{
    return room((void **)&r->mv, r->nmv, &r->cap_mv, sizeof *r->mv) &&
           room((void **)&r->q, r->nq, &r->cap_q, sizeof *r->q);
}

/* Room for the two move records of a swap. */
static bool make_room2(struct hd_sm_res *r)
{
    return make_room(r) && (r->nmv + 1 < r->cap_mv ||
                            room((void **)&r->mv, r->nmv + 1, &r->cap_mv, sizeof *r->mv));
}

bool hd_sm_set_warp_mover(struct hd_sm *sm, const struct hd_warp_mover *m)
{
    if (hd_sm_res_init(sm) != 0)
        return false;
    sm->wr->mover = m ? *m : (struct hd_warp_mover){0};
    return true;
}

uint32_t hd_sm_res_absent(const struct hd_sm *sm)
{
    return sm->wr->nq;
}

bool hd_sm_warp_absent(const struct hd_ctx *x, uint32_t warp)
{
    return warp < 32 && (x->absent >> warp & 1u);
}
/* }==== */

/* {==== Moves ==== */
/* The bytes warp i of context x moves (the hooks' warp_move_bytes of the default: its registers
 * as allocated plus its slot's state); *regs: its registers. */
static uint64_t move_bytes(struct hd_sm *sm, const struct hd_ctx *x, uint32_t i, bool in,
                           uint32_t *regs)
{
    const struct hd_cta_demand *d = &x->la->demand; /* (registers as allocated per warp) */
    const uint32_t wregs = d->warps ? d->regs / d->warps : 0;
    /* A warp that never ran (placed absent, not one instruction executed: its registers hold
     * nothing yet, its PC is the kernel's entry) has no context to load: it starts as a warp
     * placed at its CTA's launch does, moving 0 bytes (issue 32: Zorua's fresh warps admitted
     * one per cycle; docs/timing.md "Warp-granular residency"). */
    const struct hd_tcta *c = &sm->cta[x->slot];
    const bool fresh = in && c->fc && c->fc->warps[i].instrs == 0;
    *regs = wregs;
    return hd_hooks_warp_move_bytes(sm->hooks, sm->id, x->id, i, in,
                                    fresh ? 0 : (uint64_t)wregs * 4u + HD_WARP_STATE_BYTES);
}

/* Start moving warp i of context x (in or out of `slot`): recorded with its completion cycle.
 * y != NULL: a swap, warp j of context y coming in (bound already) as i leaves `slot` (i's
 * slot released already: hd_sm_warp_swap); released: a switch-out whose slot went back at the
 * start. */
static void move_start(struct hd_sm *sm, const struct hd_ctx *x, uint32_t i, uint32_t slot,
                       bool in, bool released, const struct hd_ctx *y, uint32_t j, uint64_t now)
{
    struct hd_sm_res *r = sm->wr;
    struct hd_warp_move m = {sm->id, x->id, i, slot, in, 0, 0, false, 0, 0, 0, 0};
    m.bytes = move_bytes(sm, x, i, in, &m.regs);
    if (y) {
        m.swap = true;
        m.ctx2 = y->id;
        m.warp2 = j;
        m.bytes2 = move_bytes(sm, y, j, true, &m.regs2);
    }
    uint64_t done;
    if (r->mover.start) {
        done = r->mover.start(r->mover.impl, &m, now);
        if (done != HD_WARP_MOVE_CALLBACK && done <= now)
            done = now + 1;
    } else {
        const uint64_t bw = sm->p->warp_move_bytes;
        done = now + (m.bytes + bw - 1) / bw + (m.bytes2 + bw - 1) / bw;
    }
    if (done != HD_WARP_MOVE_CALLBACK)
        sm->st->warp_move_cycles += done - now;
    r->mv[r->nmv++] = (struct res_move){x->id,    i, slot, x->epoch, in, released || y,
                                        y ? y->id : UINT32_MAX, j, done};
    if (y) /* (the slot the allocator gave it: the leaving warp's, handed over) */
        r->mv[r->nmv++] = (struct res_move){y->id, j, sm->cta[y->slot].grant.warp_slot[j],
                                            y->epoch, true, false, UINT32_MAX, 0, done};
}

/* Move k is complete. */
static void move_done(struct hd_sm *sm, uint32_t k, uint64_t now)
{
    struct hd_sm_res *r = sm->wr;
    const struct res_move m = r->mv[k];
    r->mv[k] = r->mv[--r->nmv];
    struct hd_ctx *x = hd_ctx_get(sm->pool, m.ctx);
    if (!x || x->epoch != m.epoch || x->state == HD_CTX_FREE)
        return;
    const uint32_t bit = 1u << m.warp;
    x->wmoving &= ~bit;
    struct hd_tcta *c = &sm->cta[x->slot];
    if (!m.in) { /* its slot's registers are read out: the slot is free */
        if (!m.released) { /* (a swap's went to the arriving warp at the start) */
            const struct hd_alloc_part part = {m.warp, 0, 0};
            sm->alloc.ops->release_part(sm->alloc.impl, &c->grant, &part);
            c->grant.warp_slot[m.warp] = HD_ALLOC_NO_SLOT; /* (whatever the allocator did) */
        }
        x->saved[m.warp].state = HD_WS_ABSENT;
        return;
    }
    struct hd_twarp *w = &sm->w[m.slot];
    if (w->state == HD_WS_EMPTY || w->fw != &c->fc->warps[m.warp])
        return; /* (it had finished and drained meanwhile) */
    w->susp = false;
    w->returning = false;
    uint32_t pc = 0, active;
    if (hd_func_warp_next(w->fw, &pc, &active))
        hd_sm_fetch_reset(sm, w, pc);
    hd_sm_warp_eval(sm, w, now);
    hd_hooks_warp_returned(sm->hooks, sm->id, x->id, m.warp, m.slot, now);
    hd_sm_warp_check_drained(sm, w, now);
}

void hd_sm_warp_moved(struct hd_sm *sm, uint32_t ctx, uint32_t warp, uint64_t now)
{
    if (!sm->wr)
        return;
    for (uint32_t k = 0; k < sm->wr->nmv; k++)
        if (sm->wr->mv[k].ctx == ctx && sm->wr->mv[k].warp == warp) {
            const struct res_move m = sm->wr->mv[k];
            move_done(sm, k, now);
            if (!m.in && m.ctx2 != UINT32_MAX) /* a swap: its arriving warp is in too */
                for (uint32_t q = 0; q < sm->wr->nmv; q++)
                    if (sm->wr->mv[q].in && sm->wr->mv[q].ctx == m.ctx2 &&
                        sm->wr->mv[q].warp == m.warp2) {
                        move_done(sm, q, now);
                        break;
                    }
            return;
        }
}
/* }==== */

/* {==== Switch out and in ==== */
/* May the warp in slot w leave now (sm_residency.h)? */
static bool may_leave(const struct hd_sm *sm, const struct hd_twarp *w)
{
    if (w->state == HD_WS_EMPTY || w->done || w->susp || w->to_pp || w->fetch_busy ||
        w->inflight != w->lt_out || w->sp_fill_pc || w->sp_store_pc || w->fw->id >= 32)
        return false;
    const struct hd_ctx *x = sm->cta[w->cta].ctx;
    if (!x || x->state != HD_CTX_RESIDENT)
        return false;
    for (uint32_t u = 0; u < sm->p->units[HD_TU_MEM]; u++)
        if (sm->ldst[u].warp == w->slot && sm->ldst[u].next < sm->ldst[u].op.nreq)
            return false;
    return true;
}

bool hd_sm_warp_may_leave(const struct hd_sm *sm, uint32_t slot)
{
    return slot < sm->p->max_warps && may_leave(sm, &sm->w[slot]);
}

/* A switch-out up to its move: the warp in `slot` saved into its context and unbound, absent
 * and moving; *xo, *io: its context and warp index. false, changing nothing: it may not leave. */
static bool out_begin(struct hd_sm *sm, uint32_t slot, uint64_t return_at, struct hd_ctx **xo,
                      uint32_t *io)
{
    if (slot >= sm->p->max_warps || !may_leave(sm, &sm->w[slot]) || hd_sm_res_init(sm) != 0 ||
        !make_room2(sm->wr))
        return false;
    struct hd_twarp *w = &sm->w[slot];
    struct hd_tcta *c = &sm->cta[w->cta];
    struct hd_ctx *x = c->ctx;
    const uint32_t i = w->fw->id, nregs = c->la->l->k->nregs;
    if (!hd_sm_ctx_saved_storage(x, c->grant.nwarps, nregs))
        return false;
    struct hd_twarp *s = &x->saved[i];
    uint8_t *sb = x->saved_sb + (size_t)i * nregs;
    *s = *w;
    memcpy(sb, w->sb, nregs);
    s->sb = sb;
    s->sb_cap = nregs;
    s->state = HD_WS_LEAVING;
    hd_sm_warp_unbind(sm, w);
    x->absent |= 1u << i;
    x->wmoving |= 1u << i;
    sm->wr->q[sm->wr->nq++] = (struct res_wait){x->id, i, x->epoch, return_at, false};
    lend_held(sm);
    *xo = x;
    *io = i;
    return true;
}

bool hd_sm_warp_switch_out(struct hd_sm *sm, uint32_t slot, uint64_t return_at, uint64_t now)
{
    struct hd_ctx *x;
    uint32_t i;
    if (!out_begin(sm, slot, return_at, &x, &i))
        return false;
    move_start(sm, x, i, slot, false, false, NULL, 0, now);
    sm->st->warp_switch_outs++;
    hd_hooks_warp_left(sm->hooks, sm->id, x->id, i, slot, now);
    return true;
}

/* Virtual Thread's inactivation: switch out every eligible warp of CTA slot `cta` (returns how
 * many left; the others stay; call again later for them). File-local until a policy needs it
 * (scripts/check-unused.sh); the stress mode's TB-level points use it. */
static uint32_t hd_sm_cta_switch_out(struct hd_sm *sm, uint32_t cta, uint64_t return_at,
                                     uint64_t now)
{
    if (cta >= sm->p->max_ctas || !sm->cta[cta].used)
        return 0;
    const struct hd_cta_grant *g = &sm->cta[cta].grant;
    uint32_t n = 0, present = 0;
    for (uint32_t i = 0; i < g->nwarps; i++) {
        if (g->warp_slot[i] == HD_ALLOC_NO_SLOT || sm->w[g->warp_slot[i]].state == HD_WS_EMPTY)
            continue; /* (absent, leaving or drained) */
        present++;
        n += hd_sm_warp_switch_out(sm, g->warp_slot[i], return_at, now);
    }
    if (n && n == present)
        sm->st->warp_cta_switch_outs++;
    return n;
}

/* Does CTA slot c hold a physical CTA slot (a warp of it holds a warp slot)? */
static bool cta_present(const struct hd_tcta *c)
{
    for (uint32_t i = 0; i < c->grant.nwarps; i++)
        if (c->grant.warp_slot[i] != HD_ALLOC_NO_SLOT)
            return true;
    return false;
}

static uint32_t ctas_present(const struct hd_sm *sm)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < sm->p->max_ctas; i++)
        n += sm->cta[i].used && cta_present(&sm->cta[i]);
    return n;
}

/* May warp i of context x come back here, slots aside (absent, not moving, resident)? */
static bool may_return(const struct hd_sm *sm, const struct hd_ctx *x, uint32_t i)
{
    return sm->wr && x && i < 32 && x->sm == sm->id && x->state == HD_CTX_RESIDENT &&
           (x->absent >> i & 1u) && !(x->wmoving >> i & 1u) && sm->cta[x->slot].used &&
           sm->cta[x->slot].ctx == x;
}

/* A switch-in up to its move: a slot from the allocator, the warp bound from its saved state;
 * *fresh: it never ran (no move). false, changing nothing: it may not come now. */
static bool in_begin(struct hd_sm *sm, struct hd_ctx *x, uint32_t i, uint64_t now, bool *fresh_o)
{
    if (!may_return(sm, x, i) || !make_room(sm->wr))
        return false;
    struct hd_tcta *c = &sm->cta[x->slot];
    if (sm->p->phys_ctas < sm->p->max_ctas && !cta_present(c) &&
        ctas_present(sm) >= sm->p->phys_ctas)
        return false; /* no physical CTA slot */
    uint32_t k = 0; /* its place in the queue (nq: not waiting there) */
    while (k < sm->wr->nq && (sm->wr->q[k].ctx != x->id || sm->wr->q[k].warp != i))
        k++;
    const bool fresh = k < sm->wr->nq && sm->wr->q[k].fresh;
    const struct hd_alloc_part part = {i, 0, 0};
    if (!sm->alloc.ops->acquire(sm->alloc.impl, &c->grant, &part))
        return false;
    char err[160];
    if (hd_sm_warp_bind(sm, c, i, fresh ? NULL : &x->saved[i], !fresh, now, err, sizeof err) !=
        HD_FUNC_OK) {
        if (sm->fault == HD_FUNC_OK) {
            sm->fault = HD_FUNC_ERR_MEMORY;
            snprintf(sm->fault_msg, sizeof sm->fault_msg, "SM %u cycle %" PRIu64 ": %s", sm->id,
                     now, err);
        }
        return false;
    }
    struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
    w->returning = !fresh;
    hd_sm_warp_eval(sm, w, now);
    hd_sm_update_oldest(sm, w->sched);
    sm->nwarps++;
    x->absent &= ~(1u << i);
    if (k < sm->wr->nq) { /* no longer waiting */
        memmove(&sm->wr->q[k], &sm->wr->q[k + 1], (sm->wr->nq - k - 1) * sizeof *sm->wr->q);
        sm->wr->nq--;
    }
    *fresh_o = fresh;
    if (fresh) { /* it never ran: no context to move in, it starts as dispatched (bound fresh) */
        sm->st->warp_fresh_starts++;
        hd_sm_warp_check_drained(sm, w, now); /* (an empty kernel's warp is done at once) */
        return true;
    }
    x->wmoving |= 1u << i;
    sm->st->warp_switch_ins++;
    return true;
}

bool hd_sm_warp_switch_in(struct hd_sm *sm, struct hd_ctx *x, uint32_t i, uint64_t now)
{
    bool fresh;
    if (!in_begin(sm, x, i, now, &fresh))
        return false;
    if (!fresh)
        move_start(sm, x, i, sm->cta[x->slot].grant.warp_slot[i], true, false, NULL, 0, now);
    return true;
}

int hd_sm_warp_swap(struct hd_sm *sm, uint32_t slot, struct hd_ctx *y, uint32_t j,
                    uint64_t now)
{
    struct hd_ctx *x;
    uint32_t i;
    const bool can = may_return(sm, y, j) && (!sm->wr->mover.start || sm->wr->mover.swaps);
    if (!out_begin(sm, slot, UINT64_MAX, &x, &i))
        return 0;
    sm->st->warp_switch_outs++;
    if (!can || (x == y && i == j)) { /* a plain switch-out */
        move_start(sm, x, i, slot, false, false, NULL, 0, now);
        hd_hooks_warp_left(sm->hooks, sm->id, x->id, i, slot, now);
        return 1;
    }
    /* the leaving warp's slot and registers go back now (the allocator hands them to the
     * arriving warp), then the arriving warp takes them */
    hd_hooks_warp_left(sm->hooks, sm->id, x->id, i, slot, now);
    struct hd_tcta *c = &sm->cta[x->slot];
    const struct hd_alloc_part part = {i, 0, 0};
    sm->alloc.ops->release_part(sm->alloc.impl, &c->grant, &part);
    c->grant.warp_slot[i] = HD_ALLOC_NO_SLOT;
    bool fresh = false;
    if (!in_begin(sm, y, j, now, &fresh) || fresh) {
        move_start(sm, x, i, slot, false, true, NULL, 0, now); /* (the slot went back) */
        return fresh ? 2 : 1;
    }
    move_start(sm, x, i, slot, false, true, y, j, now);
    return 2;
}

static bool logical(const struct hd_sm_params *p);

bool hd_sm_res_holds_cta(const struct hd_sm *sm, uint32_t cta)
{
    const struct hd_tcta *c = &sm->cta[cta];
    if (logical(sm->p)) /* a saved context comes back only with a slot for every warp */
        return true;
    if (c->ctx && (c->ctx->absent | c->ctx->wmoving))
        return true;
    for (uint32_t i = 0; i < c->grant.nwarps; i++)
        if (c->grant.warp_slot[i] == HD_ALLOC_NO_SLOT)
            return true;
    return false;
}

void hd_sm_res_drained(struct hd_sm *sm, struct hd_tcta *c, const struct hd_twarp *w)
{
    const uint32_t i = w->fw->id;
    if (!c->ctx || c->ctx->state != HD_CTX_RESIDENT || i >= c->grant.nwarps ||
        c->grant.warp_slot[i] != w->slot)
        return; /* (a CTA in the lifecycle keeps every slot: ctx_engine.c walks them) */
    struct hd_sm_res *r = sm->wr;
    if (r->nq || r->nmv || !sm->p->slot_with_cta) { /* an absent warp can use it now, or the
        mechanism gives it back at once (Warpman: a finished warp's slot starts a partial CTA's
        waiting warp; WLM's and Zorua's per-warp release) */
        drained_release(sm, c, i);
        return;
    }
    const uint32_t k = c->grant.cta_slot; /* none: the CTA keeps it, as the baseline does */
    r->nheld += !r->held[k];
    r->held[k] |= 1u << i;
}

void hd_sm_res_deliver_absent(struct hd_sm *sm, struct hd_ctx *x, struct hd_wref ref,
                              uint8_t kind, uint32_t pc, uint64_t now)
{
    struct hd_twarp *s = &x->saved[ref.warp];
    sm->st->warp_absent_responses++;
    if (hd_sm_warp_uncount(sm, s, ref, kind == HD_FWD_LOAD, true, now) && kind == HD_FWD_LOAD) {
        hd_twarp_sb_release(x->la->l->k, s, pc);
        sm->st->warp_absent_loads++;
    }
}
/* }==== */

/* {==== Placement with logical capacities ==== */
static bool logical(const struct hd_sm_params *p)
{
    return p->logical_warps != p->max_warps || p->phys_ctas != p->max_ctas;
}

/* Warps of resident CTAs (present or absent, not yet finished: their logical slots). */
static uint32_t logical_warps_used(const struct hd_sm *sm)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < sm->p->max_ctas; i++)
        if (sm->cta[i].used)
            n += sm->cta[i].grant.nwarps;
    return n;
}

/* Is an absent warp due to return (new CTAs wait for it)? */
static bool return_due(const struct hd_sm *sm)
{
    for (uint32_t k = 0; k < sm->wr->nq; k++)
        if (sm->wr->q[k].at <= sm->last_tick + 1)
            return true;
    return false;
}

/* The demand the allocator sees: the warps the free physical slots take (none when the
 * physical CTA slots are taken); the rest of the CTA's warps start absent. */
static struct hd_cta_demand phys_demand(const struct hd_sm *sm, const struct hd_cta_demand *d)
{
    struct hd_cta_demand e = *d;
    e.all_warps = d->warps;
    struct hd_alloc_usage u;
    sm->alloc.ops->usage(sm->alloc.impl, &u);
    const uint32_t free = u.warps < sm->p->max_warps ? sm->p->max_warps - u.warps : 0;
    e.warps = ctas_present(sm) >= sm->p->phys_ctas ? 0 : d->warps < free ? d->warps : free;
    e.threads = d->threads < e.warps * 32u ? d->threads : e.warps * 32u;
    return e;
}

bool hd_sm_res_can_accept(const struct hd_sm *sm, const struct hd_cta_demand *d)
{
    if (return_due(sm))
        return false;
    if (!logical(sm->p))
        return sm->alloc.ops->can_accept(sm->alloc.impl, d);
    if (logical_warps_used(sm) + d->warps > sm->p->logical_warps)
        return false;
    const struct hd_cta_demand e = phys_demand(sm, d);
    return sm->alloc.ops->can_accept(sm->alloc.impl, &e);
}

bool hd_sm_res_accept(struct hd_sm *sm, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    if (!logical(sm->p))
        return sm->alloc.ops->accept(sm->alloc.impl, d, g);
    if (logical_warps_used(sm) + d->warps > sm->p->logical_warps)
        return false;
    const struct hd_cta_demand e = phys_demand(sm, d);
    if (!sm->alloc.ops->accept(sm->alloc.impl, &e, g))
        return false;
    if (e.warps) { /* (the new CTA is not yet in sm->cta: count the others) */
        uint32_t used = 0;
        for (uint32_t i = 0; i < sm->p->max_ctas; i++)
            used += sm->cta[i].used && sm->cta[i].grant.cta_slot != g->cta_slot;
        if (used > ctas_present(sm))
            sm->st->warp_cta_slot_given++;
    }
    for (uint32_t i = e.warps; i < d->warps; i++)
        g->warp_slot[i] = HD_ALLOC_NO_SLOT;
    g->nwarps = d->warps; /* (threads stay what the allocator counted: release gives them back) */
    return true;
}

int hd_sm_res_place_absent(struct hd_sm *sm, struct hd_tcta *c, uint32_t i, uint64_t now,
                           char *err, size_t errlen)
{
    struct hd_ctx *x = c->ctx;
    const uint32_t nregs = c->la->l->k->nregs;
    if (!sm->wr || i >= 32 || !make_room(sm->wr) ||
        !hd_sm_ctx_saved_storage(x, c->grant.nwarps, nregs)) {
        snprintf(err, errlen, "host out of memory placing an absent warp on SM %u", sm->id);
        return HD_FUNC_ERR_MEMORY;
    }
    struct hd_twarp *s = &x->saved[i];
    memset(s, 0, sizeof *s);
    s->sb = x->saved_sb + (size_t)i * nregs;
    s->sb_cap = nregs;
    if (nregs)
        memset(s->sb, 0, nregs);
    s->fw = &c->fc->warps[i];
    s->cta = c->grant.cta_slot;
    s->state = HD_WS_ABSENT;
    x->absent |= 1u << i;
    sm->nwarps--; /* (take_slot counted every warp of the grant) */
    sm->wr->q[sm->wr->nq++] = (struct res_wait){
        x->id, i, x->epoch, sm->p->absent_by_mech ? UINT64_MAX : now, sm->p->fresh_unstarted};
    sm->st->warp_placed_absent++;
    lend_held(sm);
    return HD_FUNC_OK;
}
/* }==== */

/* {==== The tick ==== */
/* Warp stress: switch a random eligible present warp out, to return after 1..2N cycles; every
 * 4th point its whole CTA instead (each of its warps that may leave: Virtual Thread's TB
 * inactivation; the warps return one by one as slots allow). */
static bool stress_point(struct hd_sm *sm, uint64_t now)
{
    struct hd_sm_res *r = sm->wr;
    const uint64_t span = 2 * sm->p->warp_stress_period;
    r->next_stress = now + 1 + rng_next(r) % span;
    if (!sm->nwarps)
        return false;
    const uint32_t n = sm->p->max_warps, first = (uint32_t)(rng_next(r) % n);
    const uint64_t back = now + 1 + rng_next(r) % span;
    const bool tb = rng_next(r) % 4 == 0;
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t slot = (first + k) % n;
        if (tb && may_leave(sm, &sm->w[slot]) &&
            hd_sm_cta_switch_out(sm, sm->w[slot].cta, back, now))
            return true;
        if (!tb && hd_sm_warp_switch_out(sm, slot, back, now))
            return true;
    }
    sm->st->warp_stress_skips++;
    return false;
}

bool hd_sm_res_tick(struct hd_sm *sm, uint64_t now)
{
    struct hd_sm_res *r = sm->wr;
    bool progress = false;
    if (r->nheld && (r->nq || r->nmv))
        lend_held(sm);
    for (uint32_t k = 0; k < r->nmv;) { /* completed moves (order: as recorded) */
        if (r->mv[k].done_at <= now) {
            move_done(sm, k, now); /* (moves the last one into k) */
            progress = true;
        } else {
            k++;
        }
    }
    for (uint32_t k = 0; k < r->nq;) { /* due returns, in the order the warps left */
        const struct res_wait q = r->q[k];
        struct hd_ctx *x = hd_ctx_get(sm->pool, q.ctx);
        if (!x || x->epoch != q.epoch || x->state == HD_CTX_FREE) {
            memmove(&r->q[k], &r->q[k + 1], (r->nq - k - 1) * sizeof *r->q);
            r->nq--;
            continue;
        }
        if (q.at > now || (x->wmoving >> q.warp & 1u) || x->sm != sm->id) {
            k++;
            continue;
        }
        if (!hd_sm_warp_switch_in(sm, x, q.warp, now))
            break; /* no slot: the later ones wait behind it */
        progress = true; /* (it left the queue: k now names the next one) */
    }
    if (now >= r->next_stress && sm->p->warp_stress_period)
        progress |= stress_point(sm, now);
    return progress;
}

uint64_t hd_sm_res_next_event(const struct hd_sm *sm, uint64_t now)
{
    const struct hd_sm_res *r = sm->wr;
    uint64_t t = sm->nctas ? r->next_stress : UINT64_MAX;
    for (uint32_t k = 0; k < r->nmv; k++) /* (a mover that calls back: the SM stays awake) */
        t = r->mv[k].done_at == HD_WARP_MOVE_CALLBACK ? now + 1
            : r->mv[k].done_at < t                    ? r->mv[k].done_at
                                                      : t;
    for (uint32_t k = 0; k < r->nq; k++)
        t = r->q[k].at < t ? r->q[k].at : t;
    return t <= now ? now + 1 : t;
}
/* }==== */
