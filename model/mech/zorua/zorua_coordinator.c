/* SPDX-License-Identifier: MIT
 * zorua_coordinator.c - Zorua's coordinator: three queues, event-driven admission, the deadlock floor
 * (zorua_coordinator.h; Zorua Sec. 3.2-3.5, Figure 11, digest Sec. 2.11).
 */
#include "zorua_coordinator.h"

#include "zorua_coord.h"

#include <string.h>

_Static_assert((int)ZC_Q_SLOT == (int)HD_ZCO_SLOT && (int)ZC_Q_SMEM == (int)HD_ZCO_SMEM &&
                   (int)ZC_Q_REG == (int)HD_ZCO_REG,
               "the queues are numbered as the block's (hd_zorua_coord_pick)");

int zc_init(struct zcoord *z, uint32_t nwarps, uint32_t nctas, uint32_t slots, uint32_t reg_units,
            uint32_t reg_sets_max, uint32_t smem_units, uint32_t smem_sets_max)
{
    memset(z, 0, sizeof *z);
    if (!nwarps || nwarps > ZC_MAX_WARPS || !nctas || nctas > ZC_MAX_CTAS)
        return -1;
    if (zsl_init(&z->tmt, nwarps, slots) != 0 ||
        zmt_init(&z->rmt, nwarps, reg_sets_max, reg_units) != 0 ||
        zmt_init(&z->smt, nctas, smem_sets_max, smem_units) != 0) {
        zc_free(z);
        return -1;
    }
    z->nwarps = nwarps;
    z->nctas = nctas;
    for (uint32_t i = 0; i < ZC_MAX_WARPS; i++)
        z->w[i].where = ZC_FREE;
    return 0;
}

void zc_free(struct zcoord *z)
{
    zsl_free(&z->tmt);
    zmt_free(&z->rmt);
    zmt_free(&z->smt);
}

static void enqueue(struct zcoord *z, uint32_t w, uint8_t q)
{
    if (z->w[w].where == ZC_SCHED)
        z->schedulable--;
    z->w[w].where = q;
    z->w[w].seq = ++z->seq;
}

int zc_cta_arrive(struct zcoord *z, uint32_t cta, const uint32_t *wid, uint32_t n,
                  uint32_t reg_sets, uint32_t smem_sets)
{
    if (cta >= z->nctas || z->c[cta].used || reg_sets > z->rmt.nsets ||
        smem_sets > z->smt.nsets)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (wid[i] >= z->nwarps || z->w[wid[i]].where != ZC_FREE)
            return -1;
    z->events++;
    z->c[cta] = (struct zc_cta){true, n, 0, smem_sets};
    for (uint32_t i = 0; i < n; i++) {
        z->w[wid[i]] = (struct zc_warp){ZC_FREE, false, (uint16_t)cta, reg_sets, 0};
        enqueue(z, wid[i], ZC_Q_SLOT); /* (1)-(2): into the thread queue */
    }
    return 0;
}

/* The barrier of CTA c completed: its waiting warps may go on (from the thread queue). */
static void barrier_release(struct zcoord *z, uint32_t c)
{
    for (uint32_t i = 0; i < z->nwarps; i++)
        if (z->w[i].where != ZC_FREE && z->w[i].cta == c && z->w[i].barrier)
            z->w[i].barrier = false;
    z->c[c].waiting = 0;
}

void zc_phase(struct zcoord *z, uint32_t w, uint32_t reg_sets, uint32_t smem_sets, bool barrier)
{
    struct zc_warp *x = &z->w[w];
    if (w >= z->nwarps || x->where == ZC_FREE)
        return;
    struct zc_cta *c = &z->c[x->cta];
    z->events++;
    z->phase_changes++;
    if (reg_sets > z->rmt.nsets)
        reg_sets = z->rmt.nsets;
    if (smem_sets > z->smt.nsets)
        smem_sets = z->smt.nsets;
    if (zmt_held(&z->rmt, w) > reg_sets) /* (9)-(10): dead registers released */
        zmt_shrink(&z->rmt, w, reg_sets);
    x->reg_sets = reg_sets;
    if (smem_sets > c->smem_sets)        /* the CTA's need grows; released only at its end */
        c->smem_sets = smem_sets;
    if (barrier) {                       /* waits in the thread queue */
        z->barrier_waits++;
        enqueue(z, w, ZC_Q_SLOT);
        x->barrier = true;
        if (++c->waiting >= c->nwarps)
            barrier_release(z, x->cta);
        return;
    }
    const uint8_t q = zsl_of(&z->tmt, w) == ZSL_NONE                ? ZC_Q_SLOT
                      : zmt_held(&z->smt, x->cta) < c->smem_sets ? ZC_Q_SMEM
                                                                    : ZC_Q_REG;
    enqueue(z, w, q);
}

void zc_warp_exit(struct zcoord *z, uint32_t w)
{
    struct zc_warp *x = &z->w[w];
    if (w >= z->nwarps || x->where == ZC_FREE)
        return;
    z->events++;
    if (x->where == ZC_SCHED)
        z->schedulable--;
    struct zc_cta *c = &z->c[x->cta];
    if (x->barrier && c->waiting)
        c->waiting--;
    zsl_give(&z->tmt, w);
    zmt_shrink(&z->rmt, w, 0);
    x->where = ZC_FREE;
    x->barrier = false;
    if (c->nwarps)
        c->nwarps--;
    if (c->waiting && c->waiting >= c->nwarps) /* the others all wait: it completes */
        barrier_release(z, x->cta);
}

void zc_cta_exit(struct zcoord *z, uint32_t cta)
{
    if (cta >= z->nctas || !z->c[cta].used)
        return;
    z->events++;
    for (uint32_t i = 0; i < z->nwarps; i++)
        if (z->w[i].where != ZC_FREE && z->w[i].cta == cta)
            zc_warp_exit(z, i);
    zmt_shrink(&z->smt, cta, 0);
    z->c[cta] = (struct zc_cta){0};
}

/* Warp w tries to traverse its queue and those after it; all or nothing. */
static bool try_admit_f(struct zcoord *z, uint32_t w, bool force_all);

static bool try_admit(struct zcoord *z, uint32_t w)
{
    return try_admit_f(z, w, false);
}

bool zc_admit(struct zcoord *z, uint32_t w, bool force)
{
    if (w >= z->nwarps || z->w[w].where == ZC_FREE)
        return false;
    if (z->w[w].where == ZC_SCHED)
        return true;
    return try_admit_f(z, w, force);
}

/* Units of table t allocated in the virtual space (on chip and in swap). */
static uint32_t allocated(const struct zmt *t)
{
    return t->nphys - t->nfree + t->swap_used;
}

static bool try_admit_f(struct zcoord *z, uint32_t w, bool force_all)
{
    struct zc_warp *x = &z->w[w];
    if (x->barrier)
        return false;
    const struct zc_cta *c = &z->c[x->cta];
    const uint32_t held_smem = zmt_held(&z->smt, x->cta), held_reg = zmt_held(&z->rmt, w);
    const uint32_t need[ZC_NRES] = {
        zsl_of(&z->tmt, w) != ZSL_NONE ? 0u : 1u,
        c->smem_sets > held_smem ? c->smem_sets - held_smem : 0u,
        x->reg_sets > held_reg ? x->reg_sets - held_reg : 0u,
    };
    const uint32_t alloc[ZC_NRES] = {allocated(&z->tmt.t), allocated(&z->smt),
                                     allocated(&z->rmt)};
    const uint32_t phys[ZC_NRES] = {z->tmt.t.nphys, z->smt.nphys, z->rmt.nphys};
    /* the block's rule (tables/zorua_coord.h): the virtual space, else the deadlock floor */
    const bool fit = hd_zorua_coord_fits(alloc, need, phys, z->o_limit);
    const bool force = force_all || z->schedulable < z->floor; /* deadlock rule 3 */
    if (need[ZC_SLOT] && !z->tmt.t.nfree) /* a slot only on chip (the model's; docs/zorua.md) */
        return false;
    if (!fit && !force)
        return false;
    /* (5)-(6): acquire everything, write the mapping tables (within o_thresh when it fits:
     * alloc + need <= phys + o_thresh leaves swap_used + the overflow <= o_thresh) */
    if (need[ZC_SLOT])
        zsl_take(&z->tmt, w);
    if (need[ZC_SMEM])
        zmt_grow(&z->smt, x->cta, c->smem_sets, z->o_limit[ZC_SMEM], !fit);
    if (need[ZC_REG])
        zmt_grow(&z->rmt, w, x->reg_sets, z->o_limit[ZC_REG], !fit);
    z->forced += !fit;
    x->where = ZC_SCHED; /* (7): the schedulable bit */
    z->schedulable++;
    z->admitted++;
    return true;
}

uint32_t zc_run(struct zcoord *z)
{
    /* Every waiting warp not held at a barrier is tried once, in the block's order
     * (hd_zorua_coord_pick: the register queue first, lowest logical warp first), each on the
     * state the earlier ones left: the block's admission steps, one per cycle there, all at the
     * event here (the paper's coordinator takes no time, L345). */
    uint8_t qof[ZC_MAX_WARPS];
    for (uint32_t i = 0; i < z->nwarps; i++)
        qof[i] = z->w[i].where <= ZC_Q_REG && !z->w[i].barrier ? z->w[i].where : HD_ZCO_NOQ;
    uint32_t n = 0;
    for (int w; (w = hd_zorua_coord_pick(qof, z->nwarps)) >= 0;) {
        qof[w] = HD_ZCO_NOQ;
        n += try_admit(z, (uint32_t)w);
    }
    return n;
}

uint32_t zc_fill_back(struct zcoord *z)
{
    uint32_t n = 0;
    while (z->rmt.nfree && z->rmt.swap_used) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < z->nwarps; i++)
            if (z->w[i].where == ZC_SCHED && (best == UINT32_MAX || z->w[i].seq < z->w[best].seq))
                for (uint32_t s = 0; s < z->rmt.nsets; s++)
                    if (zmt_lookup(&z->rmt, i, s) == ZMT_SWAP) {
                        best = i;
                        break;
                    }
        if (best == UINT32_MAX)
            break;
        for (uint32_t s = 0; s < z->rmt.nsets && z->rmt.nfree; s++)
            n += zmt_fill(&z->rmt, best, s);
    }
    /* the scratchpad's swapped sets too (session 16), lowest live logical CTA first */
    for (uint32_t c = 0; c < z->nctas && z->smt.nfree && z->smt.swap_used; c++)
        for (uint32_t s = 0; z->c[c].used && s < z->smt.nsets && z->smt.nfree; s++)
            n += zmt_fill(&z->smt, c, s);
    return n;
}

uint32_t zc_slot(const struct zcoord *z, uint32_t w)
{
    return zsl_of(&z->tmt, w);
}
