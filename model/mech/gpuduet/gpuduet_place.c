/* SPDX-License-Identifier: MIT
 * gpuduet_place.c - placing a TB in GPUDuet's unified on-chip storage through the allocation
 * bitmap block (Lin thesis §3.6.4, §3.7; issue 28 items 1 and 4; gpuduet_alloc_priv.h).
 *
 * can_accept asks the block for the TB's units one allocation after another (its shared memory,
 * or for an extra TB placed absent as a whole its spill in the register file then the L1D; then
 * the registers of all the warps offered a slot in one search, N x R contiguous units, as a
 * hardware TB launcher would ask (the thesis does not say how a TB's contexts are allocated;
 * session 15), and when the register file has no such run, per warp its registers; the warps
 * without a slot their spill space, again in one search when all the rest start absent and
 * spill registers, else per warp, with their registers too when they stay in the register file),
 * each next request decided by the last
 * answer, and answers false until the last answer is in ("staged"): then true, and accept takes
 * the staged record and gives the warps with registers their slots. A stage that found no room
 * gives its units back and is asked again after the next free (the CTA scheduler is told through
 * the hook's `ready`); one for another demand, or for more warp slots than the SM offers now, is
 * dropped; a resident warp that cannot switch in for want of units the staged TB holds makes it
 * yield them (gpuduet_alloc.c's acquire; it then waits for room like a stage that found none).
 * The TB's placement so takes the block's S + 1 + M cycles per allocation.
 */
#include "gpuduet_alloc_priv.h"

#include <string.h>

/* {==== placing a TB: a sequence of the block's allocations ==== */
/* The stage found no room: its units go back; it is tried again after the next free. */
static void stage_fail(struct gd_alloc *a)
{
    const uint32_t g0 = a->gen;
    gda_undo(a, &a->stg.c);
    a->stg.st = P_FAIL;
    a->bm->stg_fails++;
    /* tried again after a free the failed search did not see: one since its ask, not its own */
    a->stg.fgen = a->stg.agen + (a->gen - g0);
}

/* Issue the stage's next allocation, or finish it (P_OK). */
static void stage_run(struct gd_alloc *a)
{
    struct gd_stage *s = &a->stg;
    struct gd_cta *c = &s->c;
    const struct gd_plan *pl = &c->pl;
    const uint32_t spn = gda_spill_units(a, pl);
    s->agen = a->gen; /* (its next search is asked now) */
    for (;;) {
        const uint64_t t = gda_tag(K_PLACE, 0, s->i, s->epoch, 0);
        switch (s->phase) {
        case PH_START:
            if (pl->S) {
                s->phase = PH_SMEM;
                gda_ask(a, R_SMEM, pl->S, t | (uint64_t)pl->S << 44);
                return;
            }
            s->home = true;
            s->phase = PH_WARP;
            s->i = 0;
            break;
        case PH_WARP:
            if (s->i >= c->n) {
                s->st = P_OK;
                a->poke = true;
                return;
            }
            if (s->i < s->offered && s->home) {
                if (!pl->R) {
                    c->rf[s->i] = 0;
                    c->want[s->i++] = true;
                    break;
                }
                const uint32_t k = (s->offered < c->n ? s->offered : c->n) - s->i;
                if (k > 1 && !s->tried_rf) { /* the warps' registers in one search */
                    s->tried_rf = true;
                    s->nall = k;
                    s->phase = PH_WRF_ALL;
                    gda_ask(a, R_RF, k * pl->R, t | (uint64_t)(k * pl->R) << 44);
                    return;
                }
                s->phase = PH_WRF;
                gda_ask(a, R_RF, pl->R, t | (uint64_t)pl->R << 44);
                return;
            }
            s->phase = PH_ABS;
            break;
        case PH_ABS:
            if (!pl->spill_regs) { /* its registers stay in the register file */
                if (pl->R) {
                    s->phase = PH_WRF_ABS;
                    gda_ask(a, R_RF, pl->R, t | (uint64_t)pl->R << 44);
                    return;
                }
                c->rf[s->i] = 0;
            }
            s->phase = PH_SP;
            break;
        case PH_SP:
            if (spn && c->smem_sp == GD_NONE) { /* (a TB's spill holds its meta-data) */
                const int *o = pl->spill_regs ? gda_to_smem : gda_meta_any;
                const unsigned no = pl->spill_regs ? 2 : 3;
                s->k = 0;
                if (!gda_next_region(a, o, no, &s->k)) {
                    stage_fail(a);
                    return;
                }
                const uint32_t m = c->n - s->i; /* every one left starts absent: one search */
                if (m > 1 && !s->tried_sp && pl->spill_regs &&
                    (s->i >= s->offered || !s->home)) {
                    s->tried_sp = true;
                    s->nall = m;
                    s->phase = PH_WSP_ALL;
                    gda_ask(a, o[s->k], m * spn, t | (uint64_t)(m * spn) << 44);
                    return;
                }
                s->phase = PH_WSP;
                gda_ask(a, o[s->k], spn, t | (uint64_t)spn << 44);
                return;
            }
            s->i++;
            s->phase = PH_WARP;
            break;
        default:
            return;
        }
    }
}

/* The block answered the stage's allocation. */
void gda_stage_answer(struct gd_alloc *a, bool ok, uint32_t base)
{
    struct gd_stage *s = &a->stg;
    struct gd_cta *c = &s->c;
    const struct gd_plan *pl = &c->pl;
    const uint32_t spn = gda_spill_units(a, pl);
    switch (s->phase) {
    case PH_SMEM:
        if (ok) {
            c->smem = base;
            s->home = true;
        } else if (pl->spill_smem) { /* an extra TB placed absent as a whole */
            s->k = 0;
            if (gda_next_region(a, gda_to_rf, 2, &s->k)) {
                s->phase = PH_SMEM_SP;
                const uint32_t n = pl->S + c->n * GD_ST_UNITS;
                gda_ask(a, gda_to_rf[s->k], n, gda_tag(K_PLACE, 0, 0, s->epoch, n));
                return;
            }
            stage_fail(a);
            return;
        } else {
            stage_fail(a);
            return;
        }
        s->phase = PH_WARP;
        s->i = 0;
        break;
    case PH_SMEM_SP:
        if (ok) {
            c->smem_sp = base;
            s->phase = PH_WARP;
            s->i = 0;
            break;
        }
        s->k++;
        if (gda_next_region(a, gda_to_rf, 2, &s->k)) {
            const uint32_t n = pl->S + c->n * GD_ST_UNITS;
            gda_ask(a, gda_to_rf[s->k], n, gda_tag(K_PLACE, 0, 0, s->epoch, n));
            return;
        }
        stage_fail(a);
        return;
    case PH_WRF_ALL: /* the one search: else warp by warp */
        if (ok) {
            for (uint32_t j = 0; j < s->nall; j++) {
                c->rf[s->i + j] = base + j * pl->R;
                c->want[s->i + j] = true;
            }
            s->i += s->nall;
            a->bm->tb_one++;
        }
        s->phase = PH_WARP;
        break;
    case PH_WSP_ALL:
        if (ok) {
            for (uint32_t j = 0; j < s->nall; j++) {
                c->sp[s->i + j] = base + j * spn;
                c->spn[s->i + j] = spn;
            }
            s->i += s->nall;
            a->bm->tb_one++;
            s->phase = PH_WARP;
        } else {
            s->phase = PH_SP;
        }
        break;
    case PH_WRF:
        if (ok) {
            c->rf[s->i] = base;
            c->want[s->i++] = true;
            s->phase = PH_WARP;
        } else if (pl->level == GD_LEVEL_TB && pl->spill_regs) {
            /* TB level: present or absent as a whole (session 26): with no registers for this
             * warp the TB starts absent, the warps before it giving theirs back (until then
             * GPUDuet_TB placed sgemm's TBs with some warps running and the others absent) */
            for (uint32_t j = 0; j < s->i; j++) {
                gda_give(a, &c->rf[j], pl->R);
                c->want[j] = false;
            }
            s->offered = 0;
            s->i = 0;
            s->phase = PH_WARP;
        } else {
            s->phase = PH_ABS; /* no registers for it: it starts absent */
        }
        break;
    case PH_WRF_ABS:
        if (!ok) {
            stage_fail(a);
            return;
        }
        c->rf[s->i] = base;
        if (pl->level == GD_LEVEL_TB && s->i < s->offered && s->home) {
            /* TB level: a warp offered a slot, its registers found by this second search (a
             * free since the first), is present like the others (session 26: until then HG's
             * TBs were placed with such a warp absent and the others running) */
            c->want[s->i++] = true;
            s->phase = PH_WARP;
            break;
        }
        s->phase = PH_SP;
        break;
    case PH_WSP: {
        const int *o = pl->spill_regs ? gda_to_smem : gda_meta_any;
        const unsigned no = pl->spill_regs ? 2 : 3;
        if (ok) {
            c->sp[s->i] = base;
            c->spn[s->i] = spn;
            s->i++;
            s->phase = PH_WARP;
            break;
        }
        s->k++;
        if (gda_next_region(a, o, no, &s->k)) {
            gda_ask(a, o[s->k], spn, gda_tag(K_PLACE, 0, s->i, s->epoch, spn));
            return;
        }
        stage_fail(a);
        return;
    }
    default:
        return;
    }
    stage_run(a);
}

static void gda_stage_drop(struct gd_alloc *a)
{
    struct gd_stage *s = &a->stg;
    if (s->st == P_OK)
        gda_undo(a, &s->c);
    s->st = P_NONE;
    s->epoch++;
}

/* Does the staged TB hold units of region r (its shared memory, its spill run, a warp's registers
 * or spill)? */
bool gda_stage_holds(const struct gd_alloc *a, int r)
{
    const struct gd_cta *c = &a->stg.c;
    bool any = (c->smem != GD_NONE && gda_region_of(a, c->smem) == r) ||
               (c->smem_sp != GD_NONE && gda_region_of(a, c->smem_sp) == r);
    for (uint32_t i = 0; i < c->n && i < MAXW; i++)
        any |= (c->rf[i] != GD_NONE && c->pl.R && gda_region_of(a, c->rf[i]) == r) ||
               (c->sp[i] != GD_NONE && gda_region_of(a, c->sp[i]) == r);
    return any;
}

void gda_stage_yield(struct gd_alloc *a)
{
    gda_stage_drop(a);
    a->stg.st = P_FAIL; /* (a TB waiting for room: asked again after the next free) */
    a->stg.fgen = a->gen;
}

static bool same_demand(const struct hd_cta_demand *x, const struct hd_cta_demand *y)
{
    return x->launch == y->launch && x->all_warps == y->all_warps && x->threads == y->threads &&
           x->regs == y->regs && x->smem == y->smem; /* (warps offered: stage_slots) */
}

/* Would a TB of demand y under plan q hold the same units as the one staged for x under p (the
 * allocations depend only on these)? */
static bool same_units(const struct gd_plan *p, const struct gd_plan *q,
                       const struct hd_cta_demand *x, const struct hd_cta_demand *y)
{
    return x->all_warps == y->all_warps && x->threads == y->threads && x->regs == y->regs &&
           x->smem == y->smem && p->n == q->n && p->R == q->R && p->r == q->r && p->S == q->S &&
           p->level == q->level && p->spill_regs == q->spill_regs &&
           p->spill_smem == q->spill_smem;
}

/* The TB limit (MC + ME of its kernel) and the CTA slots: may d be placed at all now? */
static bool limit_ok(struct gd_alloc *a, const struct hd_cta_demand *d, const struct gd_plan *pl)
{
    const uint32_t limit = a->g ? gd_tb_limit_sm(a->g, d->launch, a->sm) : pl->mc;
    uint32_t mine = 0;
    for (uint32_t i = 0; i < a->p->max_ctas; i++)
        mine += a->cta[i].used && a->cta[i].launch == d->launch;
    return a->nctas < a->p->max_ctas && mine < (limit ? limit : 1);
}

/* Free warp slots for the stage's warps that got registers, each among the d->warps the SM
 * offers slots to now? (Fewer warps with a slot than offered is fine: the others start absent.) */
static bool stage_slots(const struct gd_alloc *a, const struct hd_cta_demand *d)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < a->stg.c.n; i++) {
        if (a->stg.c.want[i] && i >= d->warps)
            return false;
        w += a->stg.c.want[i];
    }
    return w <= gd_alloc_free_slots(a);
}

bool gda_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    struct gd_alloc *a = (struct gd_alloc *)impl; /* (starts the block's allocations) */
    struct gd_plan local;
    const struct gd_plan *pl = gda_plan_of(a, d, &local);
    const uint32_t n = d->all_warps ? d->all_warps : d->warps;
    a->room_short = false;
    if (!pl || n > MAXW || n != pl->n || !limit_ok(a, d, pl) || !a->bm_made) {
        a->waiting = false; /* (refused for the TB limit, not for room) */
        return false;
    }
    a->room_short = true; /* (from here on only room can refuse it) */
    struct gd_stage *s = &a->stg;
    if (s->st == P_OK && !same_demand(&s->d, d) && same_units(&s->c.pl, pl, &s->d, d)) {
        s->d = *d; /* a TB of another launch of the same shape takes the staged units */
        s->c.launch = d->launch;
        s->c.pl = *pl;
    }
    if (s->st != P_NONE && !same_demand(&s->d, d)) {
        if (s->st == P_RUN)
            return false; /* (its answers come first) */
        a->bm->stg_drop_dem += s->st == P_OK;
        gda_stage_drop(a);
    }
    if (s->st == P_FAIL && s->fgen != a->gen)
        gda_stage_drop(a); /* something was freed since: try again */
    if (s->st == P_NONE) {
        a->bm->stg_runs++;
        s->st = P_RUN;
        s->d = *d;
        gda_cta_init(&s->c);
        s->c.epoch = 0;
        s->c.launch = d->launch;
        s->c.n = n;
        s->c.threads = d->threads;
        s->c.pl = *pl;
        s->phase = PH_START;
        s->i = 0;
        s->tried_rf = s->tried_sp = false;
        s->home = false;
        /* TB level: a TB is present or absent as a whole. Offered fewer slots than it has warps
         * (or, when registers spill, finding registers for fewer: PH_WRF), it starts absent and
         * switches in once every warp finds a slot and its registers (gpuduet_csl.c). */
        s->offered = pl->level == GD_LEVEL_TB && d->warps < n ? 0 : d->warps;
        stage_run(a);
    }
    if (s->st == P_FAIL) {
        a->waiting = true; /* a TB waits for room a switch-out could make */
        a->wait_launch = d->launch;
        return false;
    }
    if (s->st == P_OK && !stage_slots(a, d) && d->warps < s->offered) {
        a->bm->stg_drop_dem++; /* (fewer slots offered now than it took registers for) */
        gda_stage_drop(a);
    }
    return s->st == P_OK && stage_slots(a, d);
}

bool gda_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct gd_alloc *a = impl;
    uint32_t slot = 0;
    while (slot < a->p->max_ctas && a->cta[slot].used)
        slot++;
    if (slot >= a->p->max_ctas || a->stg.st != P_OK || !same_demand(&a->stg.d, d) ||
        !stage_slots(a, d))
        return false;
    struct gd_cta *c = &a->cta[slot];
    const uint32_t ep = c->epoch + 1u;
    *c = a->stg.c;
    c->epoch = ep;
    a->stg.st = P_NONE;
    a->stg.epoch++;
    for (uint32_t i = 0; i < c->n; i++)
        if (c->want[i]) {
            const uint32_t s = gda_free_slot(a);
            c->slot[i] = s;
            a->wused[s] = 1;
            c->want[i] = false;
        }
    c->used = true;
    a->nctas++;
    a->waiting = false;
    a->bm->stg_placed++;
    memset(g, 0, sizeof *g);
    g->cta_slot = slot;
    g->nwarps = d->warps;
    g->threads = d->threads;
    for (uint32_t i = 0; i < c->n; i++)
        g->warp_slot[i] = c->slot[i] == GD_NONE ? HD_ALLOC_NO_SLOT : (uint16_t)c->slot[i];
    g->reg_base = c->rf[0] == GD_NONE ? 0 : c->rf[0] * 32u;
    g->regs = d->regs;
    g->smem_base = c->smem == GD_NONE || !a->stg.home
                       ? 0 : (uint64_t)(c->smem - a->base[R_SMEM]) * 128u;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    return true;
}
/* }==== */
