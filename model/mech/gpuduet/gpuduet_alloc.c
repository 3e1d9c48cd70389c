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

#include "gpuduet_loop.h"
#include "hd_bitmap.h"

#include <stdlib.h>
#include <string.h>

#define MAXW HD_ALLOC_MAX_WARPS

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
};

struct gd_alloc {
    const struct hd_sm_params *p;
    uint8_t mode;
    struct gd *g;
    uint32_t sm;
    struct gd_caps caps;
    uint32_t base[3];        /* region bases: RF, shared memory, L1D */
    uint64_t *words;
    struct hd_bitmap map;
    uint8_t *wused;          /* [caps.warps] */
    struct gd_cta *cta;      /* [p->max_ctas] */
    uint32_t nctas;
    bool room_short;         /* the last place() failed for room, not for the TB limit */
    bool waiting;            /* a TB was refused for room since the last one was placed */
    bool dry;                /* a dry run (can_accept): its takes and gives are not the map's
                                operations the blocks in the loop see */
};

enum { R_RF, R_SMEM, R_L1 };

static uint32_t region_n(const struct gd_alloc *a, int r)
{
    return r == R_RF ? a->caps.rf_units : r == R_SMEM ? a->caps.smem_units : a->caps.l1_units;
}

/* First fit of n units in region r: the unit's global index, or GD_NONE. */
static uint32_t fit(struct gd_alloc *a, int r, uint32_t n)
{
    if (!n || n > region_n(a, r))
        return n ? GD_NONE : 0;
    struct hd_bitmap v = {a->words + a->base[r] / 64u, region_n(a, r)};
    const uint32_t i = hd_bitmap_find_clear_run(&v, n, 1);
    return i == UINT32_MAX ? GD_NONE : a->base[r] + i;
}

static uint32_t take(struct gd_alloc *a, int r, uint32_t n)
{
    const uint32_t u = fit(a, r, n);
    if (u != GD_NONE && n)
        hd_bitmap_set_range(&a->map, u, n);
    if (a->g && a->g->loop && !a->dry && region_n(a, r))
        gd_loop_alloc(a->g->loop, a->sm, r, n, u);
    return u;
}

/* Take n units from the regions in order (spill targets). */
static uint32_t take_any(struct gd_alloc *a, const int *order, unsigned k, uint32_t n)
{
    for (unsigned i = 0; i < k; i++) {
        const uint32_t u = take(a, order[i], n);
        if (u != GD_NONE)
            return u;
    }
    return GD_NONE;
}

static void give(struct gd_alloc *a, uint32_t *u, uint32_t n)
{
    if (*u != GD_NONE && n) {
        hd_bitmap_clear_range(&a->map, *u, n);
        if (a->g && a->g->loop && !a->dry)
            gd_loop_free(a->g->loop, a->sm, *u, n);
    }
    *u = GD_NONE;
}

static const int to_smem[] = {R_SMEM, R_L1};     /* registers spill here (warp level) */
static const int to_rf[] = {R_RF, R_L1};         /* shared memory spills here (TB level) */
static const int meta_any[] = {R_SMEM, R_L1, R_RF};

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

static void undo(struct gd_alloc *a, struct gd_cta *c)
{
    for (uint32_t i = 0; i < MAXW; i++) {
        give(a, &c->rf[i], c->pl.R);
        give(a, &c->sp[i], c->spn[i]);
        if (c->slot[i] != GD_NONE)
            a->wused[c->slot[i]] = 0;
        c->slot[i] = GD_NONE;
    }
    give(a, &c->smem, c->pl.S);
    give(a, &c->smem_sp, c->pl.S + c->n * GD_ST_UNITS);
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

/* Place d in CTA record c (all or nothing): true when it fits. */
static bool place(struct gd_alloc *a, const struct hd_cta_demand *d, struct gd_cta *c)
{
    struct gd_plan local;
    const struct gd_plan *pl = plan_of(a, d, &local);
    const uint32_t n = d->all_warps ? d->all_warps : d->warps;
    if (!pl || n > MAXW || n != pl->n)
        return false;
    const uint32_t limit = a->g ? gd_tb_limit_sm(a->g, d->launch, a->sm) : pl->mc;
    uint32_t mine = 0;
    for (uint32_t i = 0; i < a->p->max_ctas; i++)
        mine += a->cta[i].used && a->cta[i].launch == d->launch;
    a->room_short = false;
    if (a->nctas >= a->p->max_ctas || mine >= (limit ? limit : 1))
        return false;
    a->room_short = true; /* (from here on only room can refuse it) */
    memset(c, 0, sizeof *c);
    c->launch = d->launch;
    c->n = n;
    c->threads = d->threads;
    c->pl = *pl;
    c->smem = c->smem_sp = GD_NONE;
    for (uint32_t i = 0; i < MAXW; i++)
        c->rf[i] = c->sp[i] = c->slot[i] = GD_NONE;
    bool ok = true;
    if (pl->S) {
        c->smem = take(a, R_SMEM, pl->S);
        c->smem_home = c->smem != GD_NONE;
        if (!c->smem_home && pl->spill_smem) /* an extra TB placed absent as a whole */
            c->smem_sp = take_any(a, to_rf, 2, pl->S + n * GD_ST_UNITS);
        ok = c->smem_home || c->smem_sp != GD_NONE;
    } else {
        c->smem_home = true;
    }
    const uint32_t spn = spill_units(a, pl);
    /* TB level: a TB is present or absent as a whole. Offered fewer slots than it has warps, it
     * starts absent and switches in once every warp finds a slot (gpuduet_csl.c); two TBs each
     * partly present could otherwise wait for each other's slots at their barriers for ever. */
    const uint32_t offered = pl->level == GD_LEVEL_TB && d->warps < n ? 0 : d->warps;
    for (uint32_t i = 0; ok && i < n; i++) {
        if (i < offered && c->smem_home) { /* offered a slot */
            const uint32_t s = free_slot(a);
            const uint32_t r = s == GD_NONE ? GD_NONE : take(a, R_RF, pl->R);
            if (s != GD_NONE && r != GD_NONE) {
                c->slot[i] = s;
                a->wused[s] = 1;
                c->rf[i] = r;
                continue;
            }
        }
        if (!pl->spill_regs) { /* its registers stay in the register file */
            c->rf[i] = take(a, R_RF, pl->R);
            ok = c->rf[i] != GD_NONE;
        }
        if (ok && spn && !(c->smem_sp != GD_NONE)) { /* (a TB's spill holds its meta-data) */
            c->sp[i] = pl->spill_regs ? take_any(a, to_smem, 2, spn)
                                      : take_any(a, meta_any, 3, spn);
            c->spn[i] = spn;
            ok = c->sp[i] != GD_NONE;
        }
    }
    if (!ok) {
        undo(a, c);
        return false;
    }
    return true;
}

static bool ga_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    struct gd_alloc *a = (struct gd_alloc *)impl; /* a dry run: everything is given back */
    struct gd_cta c;
    a->dry = true;
    const bool ok = place(a, d, &c);
    if (ok)
        undo(a, &c);
    a->dry = false;
    if (!ok)
        a->waiting = a->room_short; /* a TB waits for room a switch-out could make */
    return ok;
}

static bool ga_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct gd_alloc *a = impl;
    uint32_t slot = 0;
    while (slot < a->p->max_ctas && a->cta[slot].used)
        slot++;
    if (slot >= a->p->max_ctas || !place(a, d, &a->cta[slot]))
        return false;
    struct gd_cta *c = &a->cta[slot];
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
    g->smem_base = c->smem == GD_NONE ? 0 : (uint64_t)(c->smem - a->base[R_SMEM]) * 128u;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    return true;
}

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

static bool ga_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct gd_alloc *a = impl;
    if (g->cta_slot >= a->p->max_ctas || p->warp >= MAXW)
        return p->warp == HD_ALLOC_NO_WARP;
    struct gd_cta *c = &a->cta[g->cta_slot];
    const uint32_t i = p->warp;
    if (!c->used || i >= c->n || c->slot[i] != GD_NONE)
        return false;
    const uint32_t s = free_slot(a);
    if (s == GD_NONE)
        return false;
    uint32_t sm_new = GD_NONE, rf_new = GD_NONE;
    if (!c->smem_home) { /* the TB's shared memory comes back first */
        sm_new = take(a, R_SMEM, c->pl.S);
        if (sm_new == GD_NONE)
            return false;
    }
    if (c->rf[i] == GD_NONE) {
        rf_new = take(a, R_RF, c->pl.R);
        if (rf_new == GD_NONE) {
            give(a, &sm_new, c->pl.S);
            return false;
        }
        c->rf[i] = rf_new;
    }
    if (sm_new != GD_NONE) {
        give(a, &c->smem, c->pl.S); /* (a spilled copy) */
        give(a, &c->smem_sp, c->pl.S + c->n * GD_ST_UNITS);
        c->smem = sm_new;
        c->smem_home = true;
    }
    give(a, &c->sp[i], c->spn[i]);
    c->slot[i] = s;
    a->wused[s] = 1;
    g->warp_slot[i] = (uint16_t)s;
    return true;
}

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

bool gd_alloc_reserve(struct gd_alloc *a, uint32_t cta, uint32_t warp, bool tb, uint32_t from)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used)
        return false;
    struct gd_cta *c = &a->cta[cta];
    if (tb) {
        if (!c->pl.spill_smem || c->smem_sp != GD_NONE || !c->smem_home)
            return true;
        c->smem_sp = take_any(a, to_rf, 2, c->pl.S + c->n * GD_ST_UNITS);
        if (c->smem_sp == GD_NONE && from < a->p->max_ctas && a->cta[from].used &&
            !a->cta[from].smem_home && a->cta[from].pl.S == c->pl.S &&
            a->cta[from].n == c->n) { /* the swap: the ready TB's spill space */
            c->smem_sp = a->cta[from].smem;
            a->cta[from].smem = GD_NONE;
        }
        return c->smem_sp != GD_NONE;
    }
    if (warp >= c->n)
        return false;
    const uint32_t spn = spill_units(a, &c->pl);
    if (!spn || c->sp[warp] != GD_NONE)
        return true;
    c->sp[warp] = c->pl.spill_regs ? take_any(a, to_smem, 2, spn) : take_any(a, meta_any, 3, spn);
    c->spn[warp] = spn;
    if (c->sp[warp] == GD_NONE && from != GD_NONE) {
        const uint32_t fc = from >> 5, fw = from & 31u;
        if (fc < a->p->max_ctas && a->cta[fc].used && fw < a->cta[fc].n &&
            a->cta[fc].slot[fw] == GD_NONE && a->cta[fc].spn[fw] == spn &&
            a->cta[fc].sp[fw] != GD_NONE) {
            c->sp[warp] = a->cta[fc].sp[fw];
            a->cta[fc].sp[fw] = GD_NONE;
        }
    }
    return c->sp[warp] != GD_NONE;
}

void gd_alloc_unreserve(struct gd_alloc *a, uint32_t cta, uint32_t warp)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n ||
        a->cta[cta].slot[warp] == GD_NONE)
        return;
    give(a, &a->cta[cta].sp[warp], a->cta[cta].spn[warp]);
}

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

/* Units in use per region: RF, shared memory, L1D. */
static void units_used(const struct gd_alloc *a, uint32_t used[3])
{
    for (int r = 0; r < 3; r++) {
        const struct hd_bitmap v = {a->words + a->base[r] / 64u, region_n(a, r)};
        used[r] = region_n(a, r) ? hd_bitmap_count(&v) : 0;
    }
}

static void ga_usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct gd_alloc *a = impl;
    *u = (struct hd_alloc_usage){0};
    u->ctas = a->nctas;
    for (uint32_t w = 0; w < a->caps.warps; w++)
        u->warps += a->wused[w];
    u->threads = u->warps * 32u;
    uint32_t used[3];
    units_used(a, used);
    u->regs = used[R_RF] * 32u;
    u->smem = (uint64_t)used[R_SMEM] * 128u;
}

static void ga_destroy(void *impl)
{
    struct gd_alloc *a = impl;
    if (!a)
        return;
    free(a->words);
    free(a->wused);
    free(a->cta);
    free(a);
}

const struct hd_alloc_ops gd_alloc_ops = {
    "gpuduet", ga_can_accept, ga_accept, ga_release, ga_acquire, ga_release_part,
    ga_plan_victims, NULL, NULL, ga_is_idle, ga_usage, ga_destroy, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL,
};

static uint32_t up64(uint32_t x)
{
    return (x + 63u) / 64u * 64u;
}

static int create(const struct hd_sm_params *p, struct hd_sm_alloc *out, uint8_t mode)
{
    struct gd_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return -1;
    a->p = p;
    a->mode = mode;
    a->caps = (struct gd_caps){p->max_warps, p->phys_ctas, p->registers / 32u,
                               (uint32_t)(p->shared_bytes / 128u), 0};
    a->base[R_RF] = 0;
    a->base[R_SMEM] = up64(a->caps.rf_units);
    a->base[R_L1] = up64(a->base[R_SMEM] + a->caps.smem_units);
    a->map.n = a->base[R_L1] + a->caps.l1_units;
    a->words = calloc(HD_BITMAP_WORDS(a->base[R_L1] + GD_L1_MAX_UNITS) + 1u, sizeof *a->words);
    a->wused = calloc(a->caps.warps ? a->caps.warps : 1, 1);
    a->cta = calloc(p->max_ctas, sizeof *a->cta);
    if (!a->words || !a->wused || !a->cta) {
        ga_destroy(a);
        return -1;
    }
    a->map.w = a->words;
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
    if (units > GD_L1_MAX_UNITS)
        units = GD_L1_MAX_UNITS;
    if (!units) { /* given back only while no context is there */
        const struct hd_bitmap v = {a->words + a->base[R_L1] / 64u, a->caps.l1_units};
        if (a->caps.l1_units && hd_bitmap_count(&v))
            return a->caps.l1_units;
    }
    a->caps.l1_units = units;
    a->map.n = a->base[R_L1] + units;
    return units;
}

void gd_alloc_used(const struct gd_alloc *a, uint32_t used[3])
{
    units_used(a, used);
}

void gd_alloc_caps(const struct gd_alloc *a, struct gd_caps *c)
{
    *c = a->caps;
}

/* (issue 28 item 4: the CSL block's data mover, gpuduet_mover.c) */
int gd_alloc_spill_region(const struct gd_alloc *a, uint32_t cta, uint32_t warp)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n)
        return -1;
    const struct gd_cta *c = &a->cta[cta];
    uint32_t u = c->sp[warp];
    if (c->pl.spill_smem) /* TB level: the TB's shared memory, reserved or already away */
        u = c->smem_sp != GD_NONE ? c->smem_sp : !c->smem_home ? c->smem : GD_NONE;
    if (u == GD_NONE)
        return -1;
    for (int r = R_L1; r >= R_RF; r--)
        if (region_n(a, r) && u >= a->base[r])
            return r;
    return -1;
}
