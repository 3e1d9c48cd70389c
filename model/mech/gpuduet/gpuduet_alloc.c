/* SPDX-License-Identifier: MIT
 * gpuduet_alloc.c - GPUDuet's unified on-chip storage as the SM's allocator ([sm] allocator =
 * gpuduet, gpuduet_tb, vt; Lin thesis §3.6.4, digest §3.7): the register file, shared memory
 * and the L1D's context part are one space of 128-byte units (RF at unit 0, shared memory and
 * L1D after it, each region starting at a multiple of 64 units; Maxwell: 0x000-0x7FF,
 * 0x800-0xAFF, 0xB00-0xBFF) with one allocation bitmap (tables/hd_bitmap.h, used as a library),
 * plus the physical warp slots.
 *
 * What a TB holds (the plan of its kernel, gpuduet_plan.c, says what leaves the arrays):
 *   present warp   a warp slot and its R register units in the register file
 *   absent warp    registers limiting (plan.spill_regs): its reduced registers r plus one unit
 *                  of meta-data, spilled to shared memory (then L1D) - the warp-level switch;
 *                  otherwise its R units stay in the register file and only its meta-data unit
 *                  is spilled (Virtual Thread: nothing moves, the warp only loses its slot)
 *   shared memory  S units in the shared-memory region while any warp of the TB is present;
 *                  shared memory limiting (plan.spill_smem, TB level): an absent TB's S units
 *                  and its warps' meta-data go to the register file (then L1D)
 * A TB is taken while the SM holds fewer than MC + ME TBs of its kernel (gpuduet_mech.c) and
 * everything above fits; the warps the SM offers slots to (demand.warps) get one when their
 * registers fit too, the others start absent with their spill space allocated. The CSL reserves
 * the spill space of a warp (or TB) it is about to switch out (gd_alloc_reserve); the warp's
 * register units and slot are freed when the SM gives the slot back (release_part). Switching
 * back in (acquire) takes a slot and register units (and shared memory) and frees the spill.
 * A swap (§2.12) hands the ready warp's spill space over to the stalled one when nothing else is
 * free (the staging the digest §3.11 mentions).
 * L1D as context storage (§2.10): the L1D region has 0 units until the mechanism turns it on
 * (gd_alloc_set_l1: the kernel unsaturated, out of RF and shared-memory room, L1D utilisation
 * < 3 %, its loads then bypassing the L1D; gpuduet_mech.c). Registers spill to shared memory
 * then L1D; shared memory to the RF then L1D. No preemption victims (plan_victims answers -1).
 * Deterministic first fit.
 */
#include "gpuduet.h"

#include "gpuduet_bitmap.h"
#include "gpuduet_bmap.h"

#include <stdlib.h>
#include <string.h>

#define MAXW HD_ALLOC_MAX_WARPS

/* A request's state (a switch-in's units, a spill reservation, the TB being placed). */
enum { P_NONE, P_RUN, P_OK, P_FAIL };

struct gd_cta {
    bool used;
    uint32_t launch, n, threads;
    struct gd_plan pl;
    uint32_t smem;           /* shared-memory units' base (home or spilled), GD_NONE: S = 0 */
    bool smem_home;          /* in the shared-memory region */
    uint32_t smem_sp;        /* a reserved spill for the TB's shared memory, GD_NONE */
    uint32_t rf[MAXW];       /* register units in the register file, GD_NONE */
    uint32_t sp[MAXW];       /* spilled units (reduced registers and/or meta-data), GD_NONE */
    uint32_t spn[MAXW];      /* their count */
    uint32_t slot[MAXW];     /* warp slot, GD_NONE */
    bool want[MAXW];         /* (being placed) the warp got its registers: a slot at accept */
    /* requests at the bitmap block: their answers come S + 1 + M cycles later */
    uint32_t epoch;          /* answers of an older epoch are given back (the TB left) */
    uint8_t acq[MAXW];       /* switch-in: its registers (P_*) */
    uint32_t acq_rf[MAXW], acq_fgen[MAXW];
    uint8_t acq_sm;          /* switch-in: the TB's shared memory home again */
    uint32_t acq_smem, acq_sm_fgen;
    uint8_t res[MAXW], res_k[MAXW]; /* spill reservation of a warp: state, region tried */
    uint32_t res_fgen[MAXW];
    uint8_t rtb, rtb_k;      /* spill reservation of the TB's shared memory */
    uint32_t rtb_fgen;
};

/* The TB being placed (can_accept starts it, accept takes it). */
enum { PH_START, PH_SMEM, PH_SMEM_SP, PH_WARP, PH_WRF, PH_ABS, PH_WRF_ABS, PH_SP, PH_WSP };
struct gd_stage {
    uint8_t st;              /* P_* */
    struct hd_cta_demand d;
    struct gd_cta c;
    uint8_t phase, k;
    uint32_t i, offered;
    uint32_t fgen, epoch;
};

struct gd_alloc {
    const struct hd_sm_params *p;
    uint8_t mode;
    struct gd *g;
    uint32_t sm;
    struct gd_caps caps;     /* the model's regions (at most the block's) */
    uint32_t base[3];        /* region bases in the block's unified space */
    struct gd_bmap *bm;      /* the allocation bitmap block: the only map (the mechanism's) */
    bool bm_made;
    uint32_t held[3];        /* units the block gave to contexts, per region */
    uint32_t gen;            /* frees so far: a request that found no room retries after one */
    uint8_t *wused;          /* [caps.warps] */
    struct gd_cta *cta;      /* [p->max_ctas] */
    uint32_t nctas;
    struct gd_stage stg;
    bool room_short;         /* the last can_accept failed for room, not for the TB limit */
    bool waiting;            /* a TB was refused for room since the last one was placed */
    bool oom;                /* host out of memory queueing an operation */
    bool poke;               /* the CTA scheduler should ask again (a stage is done, or room
                                came free after one found none) */
};

enum { R_RF, R_SMEM, R_L1 };
/* tag: kind 4 | cta 8 | warp 8 | epoch 24 | units 16 */
enum { K_FILL, K_PLACE, K_ACQ_RF, K_ACQ_SM, K_RES, K_RES_TB };

static uint64_t tag_of(unsigned kind, uint32_t cta, uint32_t warp, uint32_t epoch, uint32_t n)
{
    return (uint64_t)kind | (uint64_t)(cta & 0xFFu) << 4 | (uint64_t)(warp & 0xFFu) << 12 |
           (uint64_t)(epoch & 0xFFFFFFu) << 20 | (uint64_t)(n & 0xFFFFu) << 44;
}

static uint32_t region_n(const struct gd_alloc *a, int r)
{
    return r == R_RF ? a->caps.rf_units : r == R_SMEM ? a->caps.smem_units : a->caps.l1_units;
}

static int region_of(const struct gd_alloc *a, uint32_t u)
{
    return u >= a->base[R_L1] ? R_L1 : u >= a->base[R_SMEM] ? R_SMEM : R_RF;
}

static void ask(struct gd_alloc *a, int r, uint32_t n, uint64_t tag)
{
    if (!gd_bmap_alloc(a->bm, (unsigned)r, n, tag))
        a->oom = true;
}

static void give(struct gd_alloc *a, uint32_t *u, uint32_t n)
{
    if (*u != GD_NONE && n) {
        if (!gd_bmap_free(a->bm, *u, n))
            a->oom = true;
        const int r = region_of(a, *u);
        a->held[r] -= a->held[r] >= n ? n : a->held[r];
        a->gen++;
        a->poke |= a->stg.st == P_FAIL;
    }
    *u = GD_NONE;
}

static const int to_smem[] = {R_SMEM, R_L1};     /* registers spill here (warp level) */
static const int to_rf[] = {R_RF, R_L1};         /* shared memory spills here (TB level) */
static const int meta_any[] = {R_SMEM, R_L1, R_RF};

/* The next region of order[0..k) from index *i on that has units (the L1D only while it holds
 * contexts); false when none is left. */
static bool next_region(const struct gd_alloc *a, const int *order, unsigned k, uint8_t *i)
{
    while (*i < k && !region_n(a, order[*i]))
        (*i)++;
    return *i < k;
}

static uint32_t free_slot(const struct gd_alloc *a)
{
    for (uint32_t w = 0; w < a->caps.warps; w++)
        if (!a->wused[w])
            return w;
    return GD_NONE;
}

/* The units an absent warp of plan pl keeps spilled (0: nothing moves). */
static uint32_t spill_units(const struct gd_alloc *a, const struct gd_plan *pl)
{
    if (a->mode == GD_MODE_VT)
        return 0;
    return (pl->spill_regs ? pl->r : 0) + GD_ST_UNITS;
}

static void cta_init(struct gd_cta *c)
{
    const uint32_t ep = c->epoch;
    memset(c, 0, sizeof *c);
    c->epoch = ep;
    c->smem = c->smem_sp = GD_NONE;
    for (uint32_t i = 0; i < MAXW; i++)
        c->rf[i] = c->sp[i] = c->slot[i] = c->acq_rf[i] = GD_NONE;
    c->acq_smem = GD_NONE;
}

static void undo(struct gd_alloc *a, struct gd_cta *c)
{
    for (uint32_t i = 0; i < MAXW; i++) {
        give(a, &c->rf[i], c->pl.R);
        give(a, &c->sp[i], c->spn[i]);
        give(a, &c->acq_rf[i], c->pl.R);
        c->acq[i] = c->res[i] = P_NONE;
        if (c->slot[i] != GD_NONE)
            a->wused[c->slot[i]] = 0;
        c->slot[i] = GD_NONE;
    }
    give(a, &c->smem, c->pl.S);
    give(a, &c->smem_sp, c->pl.S + c->n * GD_ST_UNITS);
    give(a, &c->acq_smem, c->pl.S);
    c->acq_sm = c->rtb = P_NONE;
    c->epoch++; /* (answers still at the block are given back as they come) */
}

static const struct gd_plan *plan_of(struct gd_alloc *a, const struct hd_cta_demand *d,
                                     struct gd_plan *local)
{
    const uint32_t n = d->all_warps ? d->all_warps : d->warps;
    if (a->g)
        return gd_plan_for(a->g, d->launch, n, d->regs, d->smem, &a->caps);
    const uint32_t R = n ? (d->regs / n + 31u) / 32u : 0;
    gd_plan_make(&a->caps, a->mode, n, R, R, (uint32_t)((d->smem + 127u) / 128u), local);
    local->me_ub = 0;
    return local;
}

/* {==== placing a TB: a sequence of the block's allocations ==== */
/* The stage found no room: its units go back; it is tried again after the next free. */
static void stage_fail(struct gd_alloc *a)
{
    undo(a, &a->stg.c);
    a->stg.st = P_FAIL;
    a->stg.fgen = a->gen;
}

/* Issue the stage's next allocation, or finish it (P_OK). */
static void stage_run(struct gd_alloc *a)
{
    struct gd_stage *s = &a->stg;
    struct gd_cta *c = &s->c;
    const struct gd_plan *pl = &c->pl;
    const uint32_t spn = spill_units(a, pl);
    for (;;) {
        const uint64_t t = tag_of(K_PLACE, 0, s->i, s->epoch, 0);
        switch (s->phase) {
        case PH_START:
            if (pl->S) {
                s->phase = PH_SMEM;
                ask(a, R_SMEM, pl->S, t | (uint64_t)pl->S << 44);
                return;
            }
            c->smem_home = true;
            s->phase = PH_WARP;
            s->i = 0;
            break;
        case PH_WARP:
            if (s->i >= c->n) {
                s->st = P_OK;
                a->poke = true;
                return;
            }
            if (s->i < s->offered && c->smem_home) {
                if (!pl->R) {
                    c->rf[s->i] = 0;
                    c->want[s->i++] = true;
                    break;
                }
                s->phase = PH_WRF;
                ask(a, R_RF, pl->R, t | (uint64_t)pl->R << 44);
                return;
            }
            s->phase = PH_ABS;
            break;
        case PH_ABS:
            if (!pl->spill_regs) { /* its registers stay in the register file */
                if (pl->R) {
                    s->phase = PH_WRF_ABS;
                    ask(a, R_RF, pl->R, t | (uint64_t)pl->R << 44);
                    return;
                }
                c->rf[s->i] = 0;
            }
            s->phase = PH_SP;
            break;
        case PH_SP:
            if (spn && c->smem_sp == GD_NONE) { /* (a TB's spill holds its meta-data) */
                const int *o = pl->spill_regs ? to_smem : meta_any;
                const unsigned no = pl->spill_regs ? 2 : 3;
                s->k = 0;
                if (!next_region(a, o, no, &s->k)) {
                    stage_fail(a);
                    return;
                }
                s->phase = PH_WSP;
                ask(a, o[s->k], spn, t | (uint64_t)spn << 44);
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
static void stage_answer(struct gd_alloc *a, bool ok, uint32_t base)
{
    struct gd_stage *s = &a->stg;
    struct gd_cta *c = &s->c;
    const struct gd_plan *pl = &c->pl;
    const uint32_t spn = spill_units(a, pl);
    switch (s->phase) {
    case PH_SMEM:
        if (ok) {
            c->smem = base;
            c->smem_home = true;
        } else if (pl->spill_smem) { /* an extra TB placed absent as a whole */
            s->k = 0;
            if (next_region(a, to_rf, 2, &s->k)) {
                s->phase = PH_SMEM_SP;
                const uint32_t n = pl->S + c->n * GD_ST_UNITS;
                ask(a, to_rf[s->k], n, tag_of(K_PLACE, 0, 0, s->epoch, n));
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
        if (next_region(a, to_rf, 2, &s->k)) {
            const uint32_t n = pl->S + c->n * GD_ST_UNITS;
            ask(a, to_rf[s->k], n, tag_of(K_PLACE, 0, 0, s->epoch, n));
            return;
        }
        stage_fail(a);
        return;
    case PH_WRF:
        if (ok) {
            c->rf[s->i] = base;
            c->want[s->i++] = true;
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
        s->phase = PH_SP;
        break;
    case PH_WSP: {
        const int *o = pl->spill_regs ? to_smem : meta_any;
        const unsigned no = pl->spill_regs ? 2 : 3;
        if (ok) {
            c->sp[s->i] = base;
            c->spn[s->i] = spn;
            s->i++;
            s->phase = PH_WARP;
            break;
        }
        s->k++;
        if (next_region(a, o, no, &s->k)) {
            ask(a, o[s->k], spn, tag_of(K_PLACE, 0, s->i, s->epoch, spn));
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

static void stage_drop(struct gd_alloc *a)
{
    struct gd_stage *s = &a->stg;
    if (s->st == P_OK)
        undo(a, &s->c);
    s->st = P_NONE;
    s->epoch++;
}

static bool same_demand(const struct hd_cta_demand *x, const struct hd_cta_demand *y)
{
    return x->launch == y->launch && x->all_warps == y->all_warps && x->threads == y->threads &&
           x->regs == y->regs && x->smem == y->smem; /* (warps offered: stage_slots) */
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

static bool ga_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    struct gd_alloc *a = (struct gd_alloc *)impl; /* (starts the block's allocations) */
    struct gd_plan local;
    const struct gd_plan *pl = plan_of(a, d, &local);
    const uint32_t n = d->all_warps ? d->all_warps : d->warps;
    a->room_short = false;
    if (!pl || n > MAXW || n != pl->n || !limit_ok(a, d, pl) || !a->bm_made) {
        a->waiting = false; /* (refused for the TB limit, not for room) */
        return false;
    }
    a->room_short = true; /* (from here on only room can refuse it) */
    struct gd_stage *s = &a->stg;
    if (s->st != P_NONE && !same_demand(&s->d, d)) {
        if (s->st == P_RUN)
            return false; /* (its answers come first) */
        stage_drop(a);
    }
    if (s->st == P_FAIL && s->fgen != a->gen)
        stage_drop(a); /* something was freed since: try again */
    if (s->st == P_NONE) {
        s->st = P_RUN;
        s->d = *d;
        cta_init(&s->c);
        s->c.epoch = 0;
        s->c.launch = d->launch;
        s->c.n = n;
        s->c.threads = d->threads;
        s->c.pl = *pl;
        s->phase = PH_START;
        s->i = 0;
        /* TB level: a TB is present or absent as a whole. Offered fewer slots than it has warps,
         * it starts absent and switches in once every warp finds a slot (gpuduet_csl.c). */
        s->offered = pl->level == GD_LEVEL_TB && d->warps < n ? 0 : d->warps;
        stage_run(a);
    }
    if (s->st == P_FAIL) {
        a->waiting = true; /* a TB waits for room a switch-out could make */
        return false;
    }
    if (s->st == P_OK && !stage_slots(a, d) && d->warps < s->offered)
        stage_drop(a); /* (fewer slots offered now than it took registers for) */
    return s->st == P_OK && stage_slots(a, d);
}

static bool ga_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
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
            const uint32_t s = free_slot(a);
            c->slot[i] = s;
            a->wused[s] = 1;
            c->want[i] = false;
        }
    c->used = true;
    a->nctas++;
    a->waiting = false;
    memset(g, 0, sizeof *g);
    g->cta_slot = slot;
    g->nwarps = d->warps;
    g->threads = d->threads;
    for (uint32_t i = 0; i < c->n; i++)
        g->warp_slot[i] = c->slot[i] == GD_NONE ? HD_ALLOC_NO_SLOT : (uint16_t)c->slot[i];
    g->reg_base = c->rf[0] == GD_NONE ? 0 : c->rf[0] * 32u;
    g->regs = d->regs;
    g->smem_base = c->smem == GD_NONE || !c->smem_home
                       ? 0 : (uint64_t)(c->smem - a->base[R_SMEM]) * 128u;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    return true;
}
/* }==== */

static void ga_release(void *impl, const struct hd_cta_grant *g)
{
    struct gd_alloc *a = impl;
    if (g->cta_slot >= a->p->max_ctas || !a->cta[g->cta_slot].used)
        return;
    struct gd_cta *c = &a->cta[g->cta_slot];
    undo(a, c);
    c->used = false;
    a->nctas--;
}

/* {==== switching in: the TB's shared memory (when it spilled) and the warp's registers ==== */
static bool ga_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct gd_alloc *a = impl;
    if (g->cta_slot >= a->p->max_ctas || p->warp >= MAXW)
        return p->warp == HD_ALLOC_NO_WARP;
    const uint32_t ci = g->cta_slot;
    struct gd_cta *c = &a->cta[ci];
    const uint32_t i = p->warp;
    if (!c->used || i >= c->n || c->slot[i] != GD_NONE || free_slot(a) == GD_NONE)
        return false;
    const bool need_sm = !c->smem_home && c->pl.S;
    const bool need_rf = c->rf[i] == GD_NONE && c->pl.R;
    bool wait = false;
    if (need_sm) {
        if (c->acq_sm == P_FAIL && c->acq_sm_fgen != a->gen)
            c->acq_sm = P_NONE;
        if (c->acq_sm == P_NONE) {
            c->acq_sm = P_RUN;
            ask(a, R_SMEM, c->pl.S, tag_of(K_ACQ_SM, ci, 0, c->epoch, c->pl.S));
        }
        wait |= c->acq_sm != P_OK;
    }
    if (need_rf) {
        if (c->acq[i] == P_FAIL && c->acq_fgen[i] != a->gen)
            c->acq[i] = P_NONE;
        if (c->acq[i] == P_NONE && (!need_sm || c->acq_sm != P_FAIL)) {
            c->acq[i] = P_RUN;
            ask(a, R_RF, c->pl.R, tag_of(K_ACQ_RF, ci, i, c->epoch, c->pl.R));
        }
        wait |= c->acq[i] != P_OK;
    }
    if (wait) {
        /* a resident warp before a TB not placed yet: a staged TB gives its units back */
        if ((c->acq_sm == P_FAIL || c->acq[i] == P_FAIL) && a->stg.st == P_OK)
            stage_drop(a);
        /* one part without room: the other's units go back (they would hold room for nothing) */
        if (need_sm && need_rf && (c->acq_sm == P_FAIL || c->acq[i] == P_FAIL)) {
            if (c->acq_sm == P_OK) {
                give(a, &c->acq_smem, c->pl.S);
                c->acq_sm = P_NONE;
            }
            if (c->acq[i] == P_OK) {
                give(a, &c->acq_rf[i], c->pl.R);
                c->acq[i] = P_NONE;
            }
        }
        return false;
    }
    if (need_rf) {
        c->rf[i] = c->acq_rf[i];
        c->acq_rf[i] = GD_NONE;
        c->acq[i] = P_NONE;
    } else if (c->rf[i] == GD_NONE) {
        c->rf[i] = 0; /* (no registers) */
    }
    if (need_sm) {
        give(a, &c->smem, c->pl.S); /* (a spilled copy) */
        give(a, &c->smem_sp, c->pl.S + c->n * GD_ST_UNITS);
        c->smem = c->acq_smem;
        c->acq_smem = GD_NONE;
        c->acq_sm = P_NONE;
        c->smem_home = true;
    }
    give(a, &c->sp[i], c->spn[i]);
    const uint32_t s = free_slot(a);
    c->slot[i] = s;
    a->wused[s] = 1;
    g->warp_slot[i] = (uint16_t)s;
    return true;
}
/* }==== */

static void ga_release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct gd_alloc *a = impl;
    if (g->cta_slot >= a->p->max_ctas || p->warp >= MAXW)
        return;
    struct gd_cta *c = &a->cta[g->cta_slot];
    const uint32_t i = p->warp;
    if (!c->used || i >= c->n || c->slot[i] == GD_NONE)
        return;
    a->wused[c->slot[i]] = 0;
    c->slot[i] = GD_NONE;
    g->warp_slot[i] = HD_ALLOC_NO_SLOT;
    if (c->pl.spill_regs)
        give(a, &c->rf[i], c->pl.R); /* (its reduced copy is in its reserved spill) */
    bool any = false;
    for (uint32_t k = 0; k < c->n; k++)
        any |= c->slot[k] != GD_NONE;
    if (!any && c->smem_sp != GD_NONE && c->smem_home) { /* the TB's shared memory leaves */
        give(a, &c->smem, c->pl.S);
        c->smem = c->smem_sp;
        c->smem_sp = GD_NONE;
        c->smem_home = false;
    }
}

/* {==== spill reservations (the CSL, before a switch-out) ==== */
bool gd_alloc_reserve(struct gd_alloc *a, uint32_t cta, uint32_t warp, bool tb, uint32_t from)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used)
        return false;
    struct gd_cta *c = &a->cta[cta];
    if (tb) {
        if (!c->pl.spill_smem || c->smem_sp != GD_NONE || !c->smem_home)
            return true;
        if (c->rtb == P_FAIL && c->rtb_fgen != a->gen)
            c->rtb = P_NONE;
        if (c->rtb == P_NONE) {
            c->rtb_k = 0;
            if (next_region(a, to_rf, 2, &c->rtb_k)) {
                const uint32_t n = c->pl.S + c->n * GD_ST_UNITS;
                c->rtb = P_RUN;
                ask(a, to_rf[c->rtb_k], n, tag_of(K_RES_TB, cta, 0, c->epoch, n));
                return false;
            }
            c->rtb = P_FAIL;
            c->rtb_fgen = a->gen;
        }
        if (c->rtb == P_FAIL && from < a->p->max_ctas && a->cta[from].used &&
            !a->cta[from].smem_home && a->cta[from].pl.S == c->pl.S &&
            a->cta[from].n == c->n && a->cta[from].smem != GD_NONE) {
            c->smem_sp = a->cta[from].smem; /* the swap: the ready TB's spill space */
            a->cta[from].smem = GD_NONE;
            c->rtb = P_NONE;
        }
        return c->smem_sp != GD_NONE;
    }
    if (warp >= c->n)
        return false;
    const uint32_t spn = spill_units(a, &c->pl);
    if (!spn || c->sp[warp] != GD_NONE)
        return true;
    const int *o = c->pl.spill_regs ? to_smem : meta_any;
    const unsigned no = c->pl.spill_regs ? 2 : 3;
    if (c->res[warp] == P_FAIL && c->res_fgen[warp] != a->gen)
        c->res[warp] = P_NONE;
    if (c->res[warp] == P_NONE) {
        c->res_k[warp] = 0;
        if (next_region(a, o, no, &c->res_k[warp])) {
            c->res[warp] = P_RUN;
            ask(a, o[c->res_k[warp]], spn, tag_of(K_RES, cta, warp, c->epoch, spn));
            return false;
        }
        c->res[warp] = P_FAIL;
        c->res_fgen[warp] = a->gen;
    }
    if (c->res[warp] == P_FAIL && from != GD_NONE) { /* the swap: the ready warp's spill */
        const uint32_t fc = from >> 5, fw = from & 31u;
        if (fc < a->p->max_ctas && a->cta[fc].used && fw < a->cta[fc].n &&
            a->cta[fc].slot[fw] == GD_NONE && a->cta[fc].spn[fw] == spn &&
            a->cta[fc].sp[fw] != GD_NONE) {
            c->sp[warp] = a->cta[fc].sp[fw];
            c->spn[warp] = spn;
            a->cta[fc].sp[fw] = GD_NONE;
            c->res[warp] = P_NONE;
        }
    }
    return c->sp[warp] != GD_NONE;
}

bool gd_alloc_pending(const struct gd_alloc *a, uint32_t cta, uint32_t warp, bool tb)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used)
        return false;
    const struct gd_cta *c = &a->cta[cta];
    return tb ? c->rtb == P_RUN : warp < MAXW && c->res[warp] == P_RUN;
}

void gd_alloc_unreserve(struct gd_alloc *a, uint32_t cta, uint32_t warp)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n ||
        a->cta[cta].slot[warp] == GD_NONE)
        return;
    give(a, &a->cta[cta].sp[warp], a->cta[cta].spn[warp]);
}
/* }==== */

/* {==== the block's answers ==== */
static void answer(void *ctx, uint64_t tag, bool ok, uint32_t base)
{
    struct gd_alloc *a = ctx;
    const unsigned kind = (unsigned)(tag & 0xFu);
    const uint32_t ci = (uint32_t)(tag >> 4 & 0xFFu), w = (uint32_t)(tag >> 12 & 0xFFu);
    const uint32_t ep = (uint32_t)(tag >> 20 & 0xFFFFFFu), n = (uint32_t)(tag >> 44 & 0xFFFFu);
    if (kind == K_FILL)
        return;
    uint32_t u = ok ? base : GD_NONE;
    if (ok) {
        a->held[region_of(a, base)] += n;
        if (base + n > a->base[region_of(a, base)] + region_n(a, region_of(a, base)))
            give(a, &u, n); /* (past the model's region: cannot happen with the fill) */
    }
    ok = u != GD_NONE;
    if (kind == K_PLACE) {
        if (a->stg.st != P_RUN || (a->stg.epoch & 0xFFFFFFu) != ep) {
            give(a, &u, n); /* (the stage was dropped) */
            return;
        }
        stage_answer(a, ok, base);
        return;
    }
    struct gd_cta *c = ci < a->p->max_ctas ? &a->cta[ci] : NULL;
    if (!c || !c->used || (c->epoch & 0xFFFFFFu) != ep || w >= MAXW) {
        give(a, &u, n); /* (the TB left meanwhile) */
        return;
    }
    switch (kind) {
    case K_ACQ_RF:
        c->acq[w] = ok ? P_OK : P_FAIL;
        c->acq_rf[w] = u;
        c->acq_fgen[w] = a->gen;
        break;
    case K_ACQ_SM:
        c->acq_sm = ok ? P_OK : P_FAIL;
        c->acq_smem = u;
        c->acq_sm_fgen = a->gen;
        break;
    case K_RES: {
        const int *o = c->pl.spill_regs ? to_smem : meta_any;
        const unsigned no = c->pl.spill_regs ? 2 : 3;
        if (ok && c->sp[w] == GD_NONE) {
            c->sp[w] = u;
            c->spn[w] = n;
            c->res[w] = P_NONE;
            break;
        }
        if (ok) { /* (a swap's hand-over came first) */
            give(a, &u, n);
            c->res[w] = P_NONE;
            break;
        }
        c->res_k[w]++;
        if (next_region(a, o, no, &c->res_k[w])) {
            ask(a, o[c->res_k[w]], n, tag_of(K_RES, ci, w, c->epoch, n));
            break;
        }
        c->res[w] = P_FAIL;
        c->res_fgen[w] = a->gen;
        break;
    }
    case K_RES_TB:
        if (ok && c->smem_sp == GD_NONE && c->smem_home) {
            c->smem_sp = u;
            c->rtb = P_NONE;
            break;
        }
        if (ok) {
            give(a, &u, n);
            c->rtb = P_NONE;
            break;
        }
        c->rtb_k++;
        if (next_region(a, to_rf, 2, &c->rtb_k)) {
            ask(a, to_rf[c->rtb_k], n, tag_of(K_RES_TB, ci, 0, c->epoch, n));
            break;
        }
        c->rtb = P_FAIL;
        c->rtb_fgen = a->gen;
        break;
    default:
        give(a, &u, n);
        break;
    }
}
/* }==== */

void gd_alloc_where(const struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t *reg,
                    uint32_t *meta, uint32_t *smem)
{
    *reg = *meta = *smem = GD_NONE;
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n)
        return;
    const struct gd_cta *c = &a->cta[cta];
    *reg = c->rf[warp] != GD_NONE ? c->rf[warp] : c->sp[warp];
    *meta = c->slot[warp] != GD_NONE ? c->slot[warp] : c->sp[warp];
    *smem = c->smem;
}

void gd_alloc_where_out(const struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t *reg,
                        uint32_t *meta, uint32_t *smem)
{
    *reg = *meta = *smem = GD_NONE;
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n)
        return;
    const struct gd_cta *c = &a->cta[cta];
    *reg = c->pl.spill_regs || c->rf[warp] == GD_NONE ? c->sp[warp] : c->rf[warp];
    *meta = c->sp[warp];
    bool others = false; /* another warp of the TB keeps a slot */
    for (uint32_t k = 0; k < c->n; k++)
        others |= k != warp && c->slot[k] != GD_NONE;
    *smem = !others && c->smem_sp != GD_NONE && c->smem_home ? c->smem_sp : c->smem;
}

static int ga_plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    (void)impl;
    (void)d;
    (void)victims;
    return -1;
}

static bool ga_is_idle(const void *impl)
{
    return ((const struct gd_alloc *)impl)->nctas == 0;
}

static void ga_usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct gd_alloc *a = impl;
    *u = (struct hd_alloc_usage){0};
    u->ctas = a->nctas;
    for (uint32_t w = 0; w < a->caps.warps; w++)
        u->warps += a->wused[w];
    u->threads = u->warps * 32u;
    u->regs = a->held[R_RF] * 32u;
    u->smem = (uint64_t)a->held[R_SMEM] * 128u;
}

static void ga_destroy(void *impl)
{
    struct gd_alloc *a = impl;
    if (!a)
        return;
    free(a->wused);
    free(a->cta);
    free(a);
}

const struct hd_alloc_ops gd_alloc_ops = {
    "gpuduet", ga_can_accept, ga_accept, ga_release, ga_acquire, ga_release_part,
    ga_plan_victims, NULL, NULL, ga_is_idle, ga_usage, ga_destroy, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL,
};

static int create(const struct hd_sm_params *p, struct hd_sm_alloc *out, uint8_t mode)
{
    struct gd_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return -1;
    a->p = p;
    a->mode = mode;
    a->caps = (struct gd_caps){p->max_warps, p->phys_ctas, p->registers / 32u,
                               (uint32_t)(p->shared_bytes / 128u), 0};
    for (unsigned r = 0; r < 3; r++)
        a->base[r] = hd_gpuduet_bitmap_region_lo(r);
    a->wused = calloc(a->caps.warps ? a->caps.warps : 1, 1);
    a->cta = calloc(p->max_ctas, sizeof *a->cta);
    if (!a->wused || !a->cta) {
        ga_destroy(a);
        return -1;
    }
    for (uint32_t i = 0; i < p->max_ctas; i++)
        cta_init(&a->cta[i]);
    out->ops = &gd_alloc_ops;
    out->impl = a;
    return 0;
}

int gd_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, out, GD_MODE_GPUDUET);
}
int gd_alloc_create_tb(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, out, GD_MODE_TB);
}
int gd_alloc_create_vt(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, out, GD_MODE_VT);
}

void gd_alloc_bind(struct gd_alloc *a, struct gd *g, uint32_t sm)
{
    a->g = g;
    a->sm = sm;
}

int gd_alloc_make_bitmap(struct gd_alloc *a, struct gd_bmap *bm, const struct hd_hw_factory *f,
                         uint32_t l1_max, char *err, size_t errlen)
{
    const uint32_t want[3] = {a->caps.rf_units, a->caps.smem_units, l1_max};
    static const char *const rn[3] = {"register-file", "shared-memory", "L1D"};
    for (unsigned r = 0; r < 3; r++)
        if (want[r] > hd_gpuduet_bitmap_region_units(r)) {
            snprintf(err, errlen,
                     "[sm] allocator = gpuduet/gpuduet_tb/vt: SM %u's %s region has %u units of "
                     "128 B, more than the allocation bitmap block's %u (configs/rtl/"
                     "gpuduet_bitmap.ini, Table 3.1's SM: [sm] registers <= 65536, "
                     "shared_mem_bytes <= 96K, [gpuduet] l1d_units <= 256)",
                     a->sm, rn[r], want[r], hd_gpuduet_bitmap_region_units(r));
            return -1;
        }
    if (gd_bmap_make(bm, f, a->sm, answer, a, err, errlen) != 0)
        return -1;
    a->bm = bm;
    a->bm_made = true;
    /* The block's regions are Table 3.1's; a smaller SM's register file or shared memory is the
     * region's low part, the rest allocated once (fill) so the block never gives it out. The
     * L1D region is allocated whole until the §2.10 rule makes it a context store. */
    for (unsigned r = 0; r < 2; r++) {
        const uint32_t b = hd_gpuduet_bitmap_region_units(r), m = want[r];
        if (m == b)
            continue;
        if (m)
            ask(a, (int)r, m, tag_of(K_FILL, 0, 0, 0, m));
        ask(a, (int)r, b - m, tag_of(K_FILL, 0, 0, 0, b - m));
        if (m && !gd_bmap_free(a->bm, a->base[r], m))
            a->oom = true;
    }
    ask(a, R_L1, hd_gpuduet_bitmap_region_units(R_L1), tag_of(K_FILL, 0, 0, 0, 0));
    return 0;
}

int gd_alloc_step(struct gd_alloc *a, uint64_t now, char *err, size_t errlen)
{
    if (a->oom) {
        snprintf(err, errlen, "host out of memory queueing SM %u's bitmap operations", a->sm);
        return -1;
    }
    return a->bm_made ? gd_bmap_step(a->bm, a->sm, now, err, errlen) : 0;
}

bool gd_alloc_poke(struct gd_alloc *a)
{
    const bool p = a->poke;
    a->poke = false;
    return p;
}

bool gd_alloc_busy(const struct gd_alloc *a)
{
    return a->bm_made && gd_bmap_busy(a->bm);
}

uint32_t gd_alloc_free_slots(const struct gd_alloc *a)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < a->caps.warps; w++)
        n += !a->wused[w];
    return n;
}

bool gd_alloc_waiting(const struct gd_alloc *a)
{
    return a->waiting;
}

uint32_t gd_alloc_set_l1(struct gd_alloc *a, uint32_t units)
{
    const uint32_t max = hd_gpuduet_bitmap_region_units(R_L1);
    if (units > max)
        units = max;
    if (units == a->caps.l1_units || !a->bm_made)
        return a->caps.l1_units;
    if (!units) { /* given back only while no context is there */
        if (a->held[R_L1])
            return a->caps.l1_units;
        ask(a, R_L1, a->caps.l1_units, tag_of(K_FILL, 0, 0, 0, 0));
        a->caps.l1_units = 0;
        return 0;
    }
    if (a->caps.l1_units)
        return a->caps.l1_units; /* (from one size to another: not needed) */
    if (!gd_bmap_free(a->bm, a->base[R_L1], units))
        a->oom = true;
    a->gen++;
    a->poke = true;
    a->caps.l1_units = units;
    return units;
}

void gd_alloc_used(const struct gd_alloc *a, uint32_t used[3])
{
    memcpy(used, a->held, sizeof a->held);
}

void gd_alloc_caps(const struct gd_alloc *a, struct gd_caps *c)
{
    *c = a->caps;
}
