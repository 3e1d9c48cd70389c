/* SPDX-License-Identifier: MIT
 * zorua_alloc.c - the `zorua` and `wlm` allocators (zorua_alloc.h; Zorua Sec. 3-4, Sec. 5.3):
 * the substrate's placement, warp-return, drain and release calls as coordinator events.
 */
#include "zorua_alloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t div_up(uint64_t a, uint64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

/* The swap limits the coordinator may use now: o_thresh of the register file and (issue 32,
 * session 16) of the scratchpad, whose swapped sets the shared-memory path now reads through the
 * memory system (the smem_access hook; docs/zorua.md "Scratchpad in the loop"). Warp slots are
 * not put in swap by the model's coordinator (the block's are, zorua_blkdrive.h). */
static void set_limits(struct zalloc *a)
{
    const bool over = a->zorua && a->p->z_oversub;
    a->z.o_limit[ZC_SLOT] = 0;
    a->z.o_limit[ZC_SMEM] = over ? zoth_limit(a->pct, a->z.smt.nphys) : 0;
    a->z.o_limit[ZC_REG] = over ? zoth_limit(a->pct, a->z.rmt.nphys) : 0;
}

/* A table's update ops (each a write of one entry: the block's update port, model/power). */
static uint64_t updates(const struct zmt *t)
{
    return t->allocs + t->releases + t->spills + t->fills;
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
    a->st->zorua_smem_sets_swapped = a->z.smt.swapped_allocs;
    a->st->zorua_smem_fills = a->z.smt.fills;
    a->st->zorua_smem_lfu_swaps = a->lfu_smem_swaps;
    a->st->zorua_smt_updates = updates(&a->z.smt);
    a->st->zorua_tmt_updates = updates(&a->z.tmt.t);
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
 * had in the virtual space: on chip (WLM's "scratchpad per CTA") or, with Zorua, past it by at
 * most o_thresh of the scratchpad (the block scheduler's side of the request, L237; the
 * coordinator's queues hold its warps otherwise; session 16). */
static bool can_accept(const void *impl, const struct hd_cta_demand *d)
{
    const struct zalloc *a = impl;
    const uint32_t nw = d->all_warps ? d->all_warps : d->warps;
    const uint32_t smem = div_up(d->smem, a->p->z_smem_set);
    if (a->bd) { /* the block's room; the scratchpad of the live blocks on chip (docs/zorua.md) */
        uint32_t blk, wid[HD_ZCO_WARPS_MAX], held = 0;
        for (uint32_t k = 0; k < a->bd->ref.cfg.blocks; k++)
            held += a->bd->ref.b[k].live ? a->bd->ref.b[k].sneed : 0;
        return nw <= HD_ALLOC_MAX_WARPS && zbd_room(a, nw, &blk, wid) &&
               held + smem <= a->z.smt.nphys + a->z.o_limit[ZC_SMEM] &&
               div_up(d->regs_per_warp, a->reg_unit) <= a->reg_sets_max;
    }
    const uint32_t live = a->z.nwarps - free_warps(a), slots = a->z.tmt.t.nphys;
    if (a->zorua && a->p->z_req_virtual && /* the block's rule (hd_zorua_coord_room) */
        !hd_zorua_coord_room(live, nw, a->z.nwarps, true, slots, zoth_limit(a->pct, slots), true))
        return false;
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
    int c = free_cta(a);
    uint32_t wid[HD_ALLOC_MAX_WARPS > HD_ZCO_WARPS_MAX ? HD_ALLOC_MAX_WARPS : HD_ZCO_WARPS_MAX],
        k = 0;
    if (a->bd) { /* the block's choice (zbd_room); its warps come in as it admits them */
        uint32_t blk;
        (void)zbd_room(a, nw, &blk, wid);
        c = (int)blk;
        k = nw;
        zbd_arrive(a, blk, wid, nw, div_up(d->regs_per_warp, a->reg_unit),
                   div_up(d->smem, a->p->z_smem_set));
    }
    for (uint32_t i = 0; i < a->z.nwarps && k < nw; i++)
        if (a->z.w[i].where == ZC_FREE)
            wid[k++] = i;
    if (a->bd) { /* (the model's view; the block's exits may still be on their way out) */
        struct zcoord *z = &a->z;
        z->events++;
        z->c[c] = (struct zc_cta){true, nw, 0, div_up(d->smem, a->p->z_smem_set)};
        for (uint32_t i = 0; i < nw; i++) {
            if (z->w[wid[i]].where == ZC_SCHED)
                z->schedulable--;
            z->w[wid[i]] = (struct zc_warp){ZC_Q_SLOT, false, (uint16_t)c,
                                            div_up(d->regs_per_warp, a->reg_unit), ++z->seq};
        }
    } else if (zc_cta_arrive(&a->z, (uint32_t)c, wid, nw, div_up(d->regs_per_warp, a->reg_unit),
                             div_up(d->smem, a->p->z_smem_set)) != 0) {
        return false;
    }
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
        uint32_t mask[ZDL_MWORDS] = {0};
        for (uint32_t i = 0; i < nw; i++)
            mask[(wid[i] / 32u) % ZDL_MWORDS] |= 1u << (wid[i] % 32u);
        zdl_arrive(a->dec, a->sm, mask, div_up(d->regs_per_warp, a->reg_unit),
                   div_up(d->smem, a->p->z_smem_set));
    }
    a->dirty = true;
    if (!a->bd)
        hd_zorua_run(a); /* the arrival event */
    for (uint32_t i = 0; i < nw; i++) {
        a->cta[c].wid[i] = (uint16_t)wid[i];
        /* (with the block deciding every warp waits for its admission: the TMT entry of a
           logical warp just freed may still be its last owner's) */
        const uint32_t s = a->bd ? ZSL_NONE : zc_slot(&a->z, wid[i]);
        a->spec[wid[i]] = (uint16_t)div_up(d->regs_per_warp, a->reg_unit);
        a->wgrp[wid[i]] = 0;
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
        if (a->z.w[w].where != ZC_FREE && a->z.w[w].cta == g->cta_slot &&
            !(a->bd && zbd_exited(a->bd, w)))
            zdl_exit(a->dec, a->sm, w); /* (exits with its CTA) */
    }
    if (a->bd) { /* its warps' exits (the block frees the block's scratchpad at the last);
                    not those of its logical warps a newer CTA took after their exit */
        for (uint32_t i = 0; i < a->cta[g->cta_slot].nwarps; i++)
            if (a->z.w[a->cta[g->cta_slot].wid[i]].cta == g->cta_slot)
                zbd_exit(a, a->cta[g->cta_slot].wid[i]);
        a->z.c[g->cta_slot] = (struct zc_cta){0};
    } else {
        zc_cta_exit(&a->z, g->cta_slot);
    }
    a->cta[g->cta_slot].used = false;
    a->dirty = true;
    sync_stats(a); /* (the tables' releases: the run's last ones come after any other sync) */
}

/* An absent warp asks for a slot: the coordinator lets it through, or not yet. */
static bool acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct zalloc *a = impl;
    if (p->warp == HD_ALLOC_NO_WARP || p->regs || p->smem || g->cta_slot >= a->z.nctas ||
        p->warp >= a->cta[g->cta_slot].nwarps)
        return false; /* (growth by registers or scratchpad alone: the phase events' job) */
    const uint32_t w = a->cta[g->cta_slot].wid[p->warp];
    if (a->bd && !zbd_admitted(a->bd, w))
        return false; /* (not yet admitted by the block) */
    uint32_t s = zc_slot(&a->z, w);
    if (s >= ZMT_SWAP && !a->bd) {
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
    if (a->bd && zbd_left(a, w)) { /* a barrier waiter out for swap: no exit */
        g->warp_slot[p->warp] = HD_ALLOC_NO_SLOT;
        return;
    }
    if (a->bd) { /* event iii: the block releases (zorua_blkdrive.c apply) */
        if (!zbd_exited(a->bd, w))
            zdl_exit(a->dec, a->sm, w);
        zbd_exit(a, w);
        g->warp_slot[p->warp] = HD_ALLOC_NO_SLOT;
        sync_stats(a);
        return;
    }
    if (a->z.w[w].where != ZC_FREE)
        zdl_exit(a->dec, a->sm, w); /* (the decoder, in the loop) */
    zc_warp_exit(&a->z, w);
    g->warp_slot[p->warp] = HD_ALLOC_NO_SLOT;
    a->dirty = true;
    sync_stats(a);
}

static int plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    (void)victims;
    return can_accept(impl, d) ? 0 : -1; /* (no preemption with these allocators) */
}

/* At each epoch end: the paper spills "the least frequently accessed" set (Sec. 4.3). In table
 * m (use counts `use`, a row live when live(row)): while a swapped set was used more than the
 * least used on-chip set of a live row, that set is spilled and the swapped one filled into its
 * unit (at most 8 exchanges per epoch; the moves are counted, not timed); then every count is
 * halved (aging). Returns the exchanges. */
static uint32_t lfu_table(struct zalloc *a, struct zmt *m, uint16_t *use,
                          bool (*live)(const struct zalloc *, uint32_t))
{
    uint32_t n = 0;
    for (int k = 0; k < 8 && m->swap_used; k++) {
        uint32_t hot = UINT32_MAX, cold = UINT32_MAX;
        for (uint32_t r = 0; r < m->nids; r++) {
            if (!live(a, r))
                continue;
            for (uint32_t s = 0; s < m->nsets; s++) {
                const uint32_t e = r * m->nsets + s, l = zmt_lookup(m, r, s);
                if (l == ZMT_SWAP && (hot == UINT32_MAX || use[e] > use[hot]))
                    hot = e;
                else if (l < ZMT_SWAP && (cold == UINT32_MAX || use[e] < use[cold]))
                    cold = e;
            }
        }
        if (hot == UINT32_MAX || cold == UINT32_MAX || use[hot] <= use[cold])
            break;
        zmt_spill(m, cold / m->nsets, cold % m->nsets);
        zmt_fill(m, hot / m->nsets, hot % m->nsets);
        n++;
    }
    for (uint32_t e = 0; e < m->nids * m->nsets; e++)
        use[e] >>= 1;
    return n;
}

static bool warp_live(const struct zalloc *a, uint32_t w)
{
    return w < a->z.nwarps && a->z.w[w].where == ZC_SCHED;
}

static bool cta_live(const struct zalloc *a, uint32_t c)
{
    return c < a->z.nctas && a->cta[c].used;
}

static void lfu_rebalance(struct zalloc *a)
{
    a->lfu_swaps += lfu_table(a, &a->z.rmt, a->use, warp_live);
    a->lfu_smem_swaps += lfu_table(a, &a->z.smt, a->suse, cta_live);
}

static bool is_idle(const void *impl)
{
    const struct zalloc *a = impl;
    for (uint32_t c = 0; c < a->z.nctas; c++)
        if (a->cta[c].used)
            return false;
    return true;
}

/* The cycle's 1-bit c_idle and c_mem (Table 1, the zorua_coord block's idle_i and mem_i) from
 * the deltas of the schedulers' counters since the last step (each scheduler counts exactly one
 * issue or stall reason per cycle, sched_stats.def): idle = no scheduler issued or was stalled
 * by the pipeline or memory, and some scheduler's warps waited on a result, a barrier or an
 * instruction ("no threads issued, pipeline not stalled"); mem = no scheduler issued and every
 * one with warps waited on memory ("all warps waiting for data from memory"). */
static void cycle_bits(struct zalloc *a, bool *idle, bool *mem)
{
    bool issued = false, pipe = false, memst = false, other = false;
    for (uint32_t s = 0; s < a->p->num_sched; s++) {
        const struct hd_sched_stats *q = &a->sched[s];
        const uint64_t now[4] = {q->issue_cycles, q->stall_pipeline, q->stall_memory,
                                 q->stall_scoreboard + q->stall_barrier + q->stall_ibuffer};
        issued |= now[0] != a->snap[s][0];
        pipe |= now[1] != a->snap[s][1];
        memst |= now[2] != a->snap[s][2];
        other |= now[3] != a->snap[s][3];
        memcpy(a->snap[s], now, sizeof now);
    }
    *idle = !issued && !pipe && !memst && other;
    *mem = !issued && !pipe && !other && memst;
}

/* The o_thresh controller (Zorua) and the schedulable-warp count. */
static bool tick(void *impl, uint64_t now)
{
    struct zalloc *a = impl;
    bool progress = false;
    if (a->st && now > a->last_tick) { /* (nothing changes while the SM sleeps) */
        a->st->zorua_ticks += now - a->last_tick;
        a->st->zorua_sched_warp_cycles += (uint64_t)a->z.schedulable * (now - a->last_tick);
    }
    a->last_tick = now;
    if (!a->zorua || !a->sched || now < a->last_ctl || a->fault_msg[0])
        return false;
    /* one step a cycle: the SM is ticked every cycle while it runs a kernel (next_event) */
    a->last_ctl = now + 1;
    bool idle, mem, v, lv;
    uint32_t pct, lpct;
    cycle_bits(a, &idle, &mem);
    const bool active = !is_idle(a);
    if (a->bd) { /* the block's C reference; in the loop the block, checked against it */
        if (zbd_cycle(a, now, active, idle, mem, &lv, &lpct) != 0)
            return false;
        progress = a->bd->moved; /* (admissions and releases: placements may change) */
        sync_stats(a); /* (the block's updates of this cycle; else only at epoch ends) */
        if (lv) { /* (the statistics zoth keeps otherwise) */
            a->oth.epochs++;
            a->oth.ups += lpct > a->pct;
            a->oth.downs += lpct < a->pct;
        }
    } else {
        zoth_step(&a->oth, active, idle, mem, &v, &pct);
        lv = v;
        lpct = pct;
    }
    if (lv) { /* an epoch ended: the block's (the model's) new o_thresh */
        lfu_rebalance(a);
        progress |= lpct != a->pct;
        a->pct = lpct;
        set_limits(a); /* (not an event: the coordinator acts on the three of L229, as the
                          block does; the waiting warps try the new limits at the next) */
        sync_stats(a);
    }
    return progress;
}

static uint64_t next_event(const void *impl, uint64_t now)
{
    const struct zalloc *a = impl;
    if (!a->zorua)
        return UINT64_MAX;
    /* the controller counts every cycle the SM runs a kernel, and shows an epoch's result a
     * cycle later */
    return !is_idle(a) || a->oth.ep_v || (a->bd && zbd_busy(a)) ? now + 1 : UINT64_MAX;
}

static int fault(const void *impl, char *err, size_t errlen)
{
    const struct zalloc *a = impl;
    if (!a->fault_msg[0])
        return 0;
    snprintf(err, errlen, "%s", a->fault_msg);
    return -1;
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
    free(a->suse);
    free(a->cur_phase);
    free(a->waiting);
    free(a->spec);
    free(a->wgrp);
    free(a->snap);
    free(a->bd);
    free(a);
}

static void attach(void *impl, uint32_t sm, const struct hd_hw_factory *const *hw)
{
    (void)hw;
    ((struct zalloc *)impl)->sm = sm;
}

/* The watchdog's view (sm_alloc.h describe): where the coordinator holds the logical warps (its
 * three queues, schedulable), what each mapping table has free on chip and in swap, the o_thresh
 * in force, and its event counts: a warp stuck in a queue shows with the resource it waits for. */
static void describe(const void *impl, char *buf, size_t len)
{
    const struct zalloc *a = impl;
    const struct zcoord *z = &a->z;
    uint32_t at[ZC_FREE + 1] = {0};
    for (uint32_t w = 0; w < z->nwarps; w++)
        at[z->w[w].where <= ZC_FREE ? z->w[w].where : ZC_FREE]++;
    snprintf(buf, len,
             "logical warps: %u waiting for a warp slot, %u for scratchpad, %u for registers, %u "
             "schedulable; free on chip / in swap: slots %u / %u, scratchpad sets %u / %u, "
             "register sets %u / %u; o_thresh %u %%; events %" PRIu64 ", admitted %" PRIu64
             ", forced %" PRIu64,
             at[ZC_Q_SLOT], at[ZC_Q_SMEM], at[ZC_Q_REG], at[ZC_SCHED], z->tmt.t.nfree,
             z->tmt.t.swap_used, z->smt.nfree, z->smt.swap_used, z->rmt.nfree, z->rmt.swap_used,
             a->pct, z->events, z->admitted, z->forced);
}

static const struct hd_alloc_ops zorua_ops = {
    .name = "zorua", .can_accept = can_accept, .accept = accept, .release = release,
    .acquire = acquire, .release_part = release_part, .plan_victims = plan_victims,
    .tick = tick, .next_event = next_event, .is_idle = is_idle, .usage = usage,
    .destroy = destroy, .attach = attach, .fault = fault, .describe = describe,
};
static const struct hd_alloc_ops wlm_ops = {
    .name = "wlm", .can_accept = can_accept, .accept = accept, .release = release,
    .acquire = acquire, .release_part = release_part, .plan_victims = plan_victims,
    .tick = tick, .next_event = next_event, .is_idle = is_idle, .usage = usage,
    .destroy = destroy, .attach = attach, .describe = describe,
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
    a->suse = calloc((size_t)(p->max_ctas ? p->max_ctas : 1) * (smem_sets ? smem_sets : 1),
                     sizeof *a->suse);
    a->cur_phase = calloc(p->max_warps, sizeof *a->cur_phase);
    a->waiting = calloc(p->max_warps, 1);
    a->spec = calloc(p->logical_warps, sizeof *a->spec);
    a->wgrp = calloc(p->logical_warps, sizeof *a->wgrp);
    a->snap = calloc(p->num_sched ? p->num_sched : 1, sizeof *a->snap);
    if (!a->slot_wid || !a->landed || !a->use || !a->suse || !a->cur_phase || !a->waiting ||
        !a->spec || !a->wgrp ||
        !a->snap ||
        zc_init(&a->z, p->logical_warps, p->max_ctas, p->max_warps, p->registers / a->reg_unit,
                a->reg_sets_max, smem_sets ? smem_sets : 1, smem_sets ? smem_sets : 1) != 0) {
        free(a->slot_wid);
        free(a->landed);
        free(a->use);
        free(a->suse);
        free(a->cur_phase);
        free(a->waiting);
        free(a->spec);
        free(a->wgrp);
        free(a->snap);
        free(a);
        return -1;
    }
    zoth_init(&a->oth, (uint32_t)(p->z_o_default + 0.5), (uint32_t)(p->z_o_step + 0.5),
              (uint32_t)(p->z_o_max + 0.5), p->z_c_delta, p->z_epoch);
    a->pct = a->oth.pct;
    /* the coordinator block's C reference where the SM is the size of one of its configurations
       and the controller's keys are its constants (Fermi; session 15: Kepler and Maxwell with 96
       logical warps; Table 1; zorua_coordloop.h) */
    a->z.floor = zorua ? (uint32_t)(p->z_floor * p->max_warps / 100.0 + 0.999) : 0;
    struct hd_zorua_coord_cfg bcfg;
    const char *kind = zbd_fits(a, &bcfg);
    if (kind) {
        if (!(a->bd = malloc(sizeof *a->bd))) {
            destroy(a);
            return -1;
        }
        zbd_init(a->bd, kind, &bcfg);
    }
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
