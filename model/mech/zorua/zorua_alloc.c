/* SPDX-License-Identifier: MIT
 * zorua_alloc.c - the `zorua` and `wlm` allocators (zorua_alloc.h; Zorua Sec. 3-4, Sec. 5.3):
 * the substrate's placement, warp-return, drain and release calls as coordinator events.
 */
#include "zorua_alloc.h"

#include <stdlib.h>
#include <string.h>

static uint32_t div_up(uint64_t a, uint64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

/* The swap limits the coordinator may use now. Scratchpad sets are not oversubscribed in the
 * loop: the shared-memory path is told no address (sm_oloc.h shared()), so an access to a
 * swapped scratchpad set cannot be told from an on-chip one (docs/zorua.md); its table does it
 * (zorua_mt.h, the unit tests). */
static void set_limits(struct zalloc *a)
{
    a->z.o_limit[ZC_SLOT] = 0;
    a->z.o_limit[ZC_SMEM] = 0;
    a->z.o_limit[ZC_REG] =
        a->zorua && a->p->z_oversub ? zoth_limit(&a->oth, a->z.rmt.nphys) : 0;
}

static void sync_stats(struct zalloc *a)
{
    if (!a->st)
        return;
    a->st->zorua_reg_sets = a->z.rmt.allocs;
    a->st->zorua_reg_sets_swapped = a->z.rmt.swapped_allocs;
    a->st->zorua_reg_fills = a->z.rmt.fills;
    a->st->zorua_lfu_swaps = a->lfu_swaps;
    a->st->zorua_smem_sets = a->z.smt.allocs;
    a->st->zorua_admitted = a->z.admitted;
    a->st->zorua_forced = a->z.forced;
    a->st->zorua_epochs = a->oth.epochs;
    a->st->zorua_othresh_ups = a->oth.ups;
    a->st->zorua_othresh_downs = a->oth.downs;
}

void hd_zorua_run(struct zalloc *a)
{
    if (!a->dirty)
        return;
    zc_run(&a->z);
    if (a->zorua)
        zc_fill_back(&a->z);
    a->dirty = false;
    sync_stats(a);
}

static int free_cta(const struct zalloc *a)
{
    for (uint32_t c = 0; c < a->z.nctas; c++)
        if (!a->cta[c].used && !a->z.c[c].used)
            return (int)c;
    return -1;
}

static uint32_t free_warps(const struct zalloc *a)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->z.nwarps; i++)
        n += a->z.w[i].where == ZC_FREE;
    return n;
}

/* A CTA may arrive when a logical CTA and its logical warps are free and its scratchpad can be
 * had (WLM's "scratchpad per CTA"; the coordinator's queues hold its warps otherwise). */
static bool can_accept(const void *impl, const struct hd_cta_demand *d)
{
    const struct zalloc *a = impl;
    const uint32_t nw = d->all_warps ? d->all_warps : d->warps;
    const uint32_t smem = div_up(d->smem, a->p->z_smem_set);
    return free_cta(a) >= 0 && nw <= HD_ALLOC_MAX_WARPS && free_warps(a) >= nw &&
           smem <= a->z.smt.nsets && zmt_over(&a->z.smt, smem) <= a->z.o_limit[ZC_SMEM] &&
           div_up(d->regs_per_warp, a->reg_unit) <= a->reg_sets_max;
}

static bool accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct zalloc *a = impl;
    if (!can_accept(a, d))
        return false;
    const uint32_t nw = d->all_warps ? d->all_warps : d->warps;
    const int c = free_cta(a);
    uint32_t wid[HD_ALLOC_MAX_WARPS], k = 0;
    for (uint32_t i = 0; i < a->z.nwarps && k < nw; i++)
        if (a->z.w[i].where == ZC_FREE)
            wid[k++] = i;
    if (zc_cta_arrive(&a->z, (uint32_t)c, wid, nw, div_up(d->regs_per_warp, a->reg_unit),
                      div_up(d->smem, a->p->z_smem_set)) != 0)
        return false;
    a->cta[c].used = true;
    a->cta[c].nwarps = nw;
    memset(g, 0, sizeof *g);
    g->cta_slot = (uint32_t)c;
    g->nwarps = d->warps;
    g->threads = d->threads;
    g->regs = d->regs;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    if (a->dec) { /* the decoder: the CTA's warps start in their first phase */
        uint64_t mask = 0;
        for (uint32_t i = 0; i < nw; i++)
            mask |= 1ull << (wid[i] & 63u);
        zdl_arrive(a->dec, a->sm, mask, div_up(d->regs_per_warp, a->reg_unit),
                   div_up(d->smem, a->p->z_smem_set));
    }
    a->dirty = true;
    hd_zorua_run(a); /* the arrival event */
    for (uint32_t i = 0; i < nw; i++) {
        a->cta[c].wid[i] = (uint16_t)wid[i];
        const uint32_t s = zc_slot(&a->z, wid[i]);
        a->spec[wid[i]] = (uint16_t)div_up(d->regs_per_warp, a->reg_unit);
        if (i < d->warps && s < ZMT_SWAP) {
            g->warp_slot[i] = (uint16_t)s;
            a->slot_wid[s] = (uint16_t)wid[i];
            a->cur_phase[s] = 0;
            a->waiting[s] = 0;
        } else {
            g->warp_slot[i] = HD_ALLOC_NO_SLOT;
        }
    }
    return true;
}

static void release(void *impl, const struct hd_cta_grant *g)
{
    struct zalloc *a = impl;
    if (g->cta_slot >= a->z.nctas || !a->cta[g->cta_slot].used)
        return;
    for (uint32_t i = 0; a->dec && i < a->cta[g->cta_slot].nwarps; i++) {
        const uint32_t w = a->cta[g->cta_slot].wid[i];
        if (a->z.w[w].where != ZC_FREE) /* (exits with its CTA) */
            zdl_exit(a->dec, a->sm, w);
    }
    zc_cta_exit(&a->z, g->cta_slot);
    a->cta[g->cta_slot].used = false;
    a->dirty = true;
}

/* An absent warp asks for a slot: the coordinator lets it through, or not yet. */
static bool acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct zalloc *a = impl;
    if (p->warp == HD_ALLOC_NO_WARP || p->regs || p->smem || g->cta_slot >= a->z.nctas ||
        p->warp >= a->cta[g->cta_slot].nwarps)
        return false; /* (growth by registers or scratchpad alone: the phase events' job) */
    const uint32_t w = a->cta[g->cta_slot].wid[p->warp];
    uint32_t s = zc_slot(&a->z, w);
    if (s >= ZMT_SWAP) {
        hd_zorua_run(a);
        s = zc_slot(&a->z, w);
    }
    if (s >= ZMT_SWAP)
        return false;
    g->warp_slot[p->warp] = (uint16_t)s;
    a->slot_wid[s] = (uint16_t)w;
    a->cur_phase[s] = 0;
    a->waiting[s] = 0;
    return true;
}

/* A drained warp gives back its slot and registers (WLM's and Zorua's per-warp release). */
static void release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct zalloc *a = impl;
    if (p->warp == HD_ALLOC_NO_WARP || g->cta_slot >= a->z.nctas ||
        p->warp >= a->cta[g->cta_slot].nwarps)
        return;
    const uint32_t w = a->cta[g->cta_slot].wid[p->warp];
    if (a->z.w[w].where != ZC_FREE)
        zdl_exit(a->dec, a->sm, w); /* (the decoder, in the loop) */
    zc_warp_exit(&a->z, w);
    g->warp_slot[p->warp] = HD_ALLOC_NO_SLOT;
    a->dirty = true;
}

static int plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    (void)victims;
    return can_accept(impl, d) ? 0 : -1; /* (no preemption with these allocators) */
}

/* At each epoch end: the paper spills "the least frequently accessed" register set (Sec. 4.3).
 * While a swapped set was used more than the least used on-chip set (of a schedulable warp),
 * that set is spilled and the swapped one filled into its unit (at most 8 exchanges per epoch;
 * the moves are counted, not timed); then every count is halved (aging). */
static void lfu_rebalance(struct zalloc *a)
{
    struct zmt *m = &a->z.rmt;
    for (int k = 0; k < 8 && m->swap_used; k++) {
        uint32_t hot = UINT32_MAX, cold = UINT32_MAX;
        for (uint32_t w = 0; w < a->z.nwarps; w++) {
            if (a->z.w[w].where != ZC_SCHED)
                continue;
            for (uint32_t s = 0; s < m->nsets; s++) {
                const uint32_t e = w * m->nsets + s, l = zmt_lookup(m, w, s);
                if (l == ZMT_SWAP && (hot == UINT32_MAX || a->use[e] > a->use[hot]))
                    hot = e;
                else if (l < ZMT_SWAP && (cold == UINT32_MAX || a->use[e] < a->use[cold]))
                    cold = e;
            }
        }
        if (hot == UINT32_MAX || cold == UINT32_MAX || a->use[hot] <= a->use[cold])
            break;
        zmt_spill(m, cold / m->nsets, cold % m->nsets);
        zmt_fill(m, hot / m->nsets, hot % m->nsets);
        a->lfu_swaps++;
    }
    for (uint32_t e = 0; e < a->z.nwarps * m->nsets; e++)
        a->use[e] >>= 1;
}

/* The o_thresh epoch (Zorua) and the schedulable-warp count. */
static bool tick(void *impl, uint64_t now)
{
    struct zalloc *a = impl;
    bool progress = false;
    if (a->st && now > a->last_tick) { /* (nothing changes while the SM sleeps) */
        a->st->zorua_ticks += now - a->last_tick;
        a->st->zorua_sched_warp_cycles += (uint64_t)a->z.schedulable * (now - a->last_tick);
    }
    a->last_tick = now;
    if (a->zorua && a->sched && now >= a->oth.next) {
        uint64_t idle = 0, mem = 0;
        for (uint32_t s = 0; s < a->p->num_sched; s++) {
            idle += a->sched[s].stall_scoreboard + a->sched[s].stall_barrier +
                    a->sched[s].stall_ibuffer;
            mem += a->sched[s].stall_memory;
        }
        lfu_rebalance(a);
        if (zoth_update(&a->oth, now, idle, mem)) {
            set_limits(a); /* (not an event: the coordinator acts on the three of L229, as the
                              block does; the waiting warps try the new limits at the next) */
            progress = true;
        }
        sync_stats(a);
    }
    return progress;
}

static uint64_t next_event(const void *impl, uint64_t now)
{
    const struct zalloc *a = impl;
    if (!a->zorua)
        return UINT64_MAX;
    return a->oth.next > now ? a->oth.next : now + 1;
}

static bool is_idle(const void *impl)
{
    const struct zalloc *a = impl;
    for (uint32_t c = 0; c < a->z.nctas; c++)
        if (a->cta[c].used)
            return false;
    return true;
}

static void usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct zalloc *a = impl;
    memset(u, 0, sizeof *u);
    for (uint32_t c = 0; c < a->z.nctas; c++)
        u->ctas += a->cta[c].used;
    u->warps = a->z.tmt.t.nphys - a->z.tmt.t.nfree;
    u->threads = u->warps * 32u;
    u->regs = (a->z.rmt.nphys - a->z.rmt.nfree) * a->reg_unit;
    u->smem = (uint64_t)(a->z.smt.nphys - a->z.smt.nfree) * a->p->z_smem_set;
}

static void destroy(void *impl)
{
    struct zalloc *a = impl;
    zc_free(&a->z);
    free(a->slot_wid);
    free(a->landed);
    free(a->use);
    free(a->cur_phase);
    free(a->waiting);
    free(a->spec);
    free(a);
}

static void attach(void *impl, uint32_t sm, const struct hd_hw_factory *const *hw)
{
    (void)hw;
    ((struct zalloc *)impl)->sm = sm;
}

static const struct hd_alloc_ops zorua_ops = {
    .name = "zorua", .can_accept = can_accept, .accept = accept, .release = release,
    .acquire = acquire, .release_part = release_part, .plan_victims = plan_victims,
    .tick = tick, .next_event = next_event, .is_idle = is_idle, .usage = usage,
    .destroy = destroy, .attach = attach,
};
static const struct hd_alloc_ops wlm_ops = {
    .name = "wlm", .can_accept = can_accept, .accept = accept, .release = release,
    .acquire = acquire, .release_part = release_part, .plan_victims = plan_victims,
    .tick = tick, .next_event = next_event, .is_idle = is_idle, .usage = usage,
    .destroy = destroy, .attach = attach,
};

static int create(const struct hd_sm_params *p, bool zorua, struct hd_sm_alloc *out)
{
    struct zalloc *a = calloc(1, sizeof *a);
    if (!a)
        return -1;
    a->p = p;
    a->zorua = zorua;
    a->reg_unit = p->z_reg_set * 32u;
    a->reg_sets_max = div_up(p->max_regs_per_thread, p->z_reg_set);
    const uint32_t smem_sets = (uint32_t)(p->shared_bytes / p->z_smem_set);
    a->slot_wid = calloc(p->max_warps, sizeof *a->slot_wid);
    a->landed = calloc(p->max_warps, sizeof *a->landed);
    a->use = calloc((size_t)p->logical_warps * a->reg_sets_max, sizeof *a->use);
    a->cur_phase = calloc(p->max_warps, sizeof *a->cur_phase);
    a->waiting = calloc(p->max_warps, 1);
    a->spec = calloc(p->logical_warps, sizeof *a->spec);
    if (!a->slot_wid || !a->landed || !a->use || !a->cur_phase || !a->waiting || !a->spec ||
        zc_init(&a->z, p->logical_warps, p->max_ctas, p->max_warps, p->registers / a->reg_unit,
                a->reg_sets_max, smem_sets ? smem_sets : 1, smem_sets ? smem_sets : 1) != 0) {
        free(a->slot_wid);
        free(a->landed);
        free(a->use);
        free(a->cur_phase);
        free(a->waiting);
        free(a->spec);
        free(a);
        return -1;
    }
    zoth_init(&a->oth, p->z_o_default, p->z_o_step, p->z_o_max, p->z_c_delta, p->z_epoch);
    a->z.floor = zorua ? (uint32_t)(p->z_floor * p->max_warps / 100.0 + 0.999) : 0;
    set_limits(a);
    *out = (struct hd_sm_alloc){zorua ? &zorua_ops : &wlm_ops, a};
    return 0;
}

int hd_zorua_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, true, out);
}

int hd_zorua_wlm_create(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, false, out);
}

struct zalloc *hd_zorua_alloc_state(const struct hd_sm_alloc *a)
{
    return a && (a->ops == &zorua_ops || a->ops == &wlm_ops) ? a->impl : NULL;
}
