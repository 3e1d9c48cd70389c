/* SPDX-License-Identifier: MIT
 * expars_alloc.c - EXPARS's modified CTA scheduler limit and resource allocator (Yu et al. TACO
 * 2018 §3.3.1-3.3.2, Fig. 5-6; digest §2.2-2.3): [sm] allocator = expars.
 *
 * Design (sm_alloc.h's ops). The first CTA of a kernel shape (registers, shared memory, warps)
 * on an idle SM makes the plan: the calculator (expars_calc.h, tau = [expars] tau) over the SM's
 * registers, shared memory, CTA and thread slots gives CTA_RF, CTA_Mix and Start_Reg. CTA slots
 * [0, CTA_RF) are RF-only, [CTA_RF, CTA_RF + CTA_Mix) are mix slots, fixed for the kernel
 * (digest §8 item 26: a CTA that replaces a finished one inherits the slot's type). A mix CTA
 * holds Start_Reg x threads registers in the register file and its registers Start_Reg..Max_Reg
 * in a region of the scratchpad at the top (eq. 11: region k at S - (k+1) x region); data blocks
 * are placed first fit below every region (two-way allocation, Fig. 6). RF-only CTAs hold their
 * whole register block. A CTA of another shape while the SM holds the plan's kernel is placed
 * as an RF-only CTA when it fits (one plan per SM: the paper runs one kernel per SM, item 27).
 * Without a mix CTA in the plan (not register-bound) the allocator is the baseline's first fit.
 * The RAT (expars_rat.h) is written at planning; each warp slot records its CTA slot and its
 * index in the CTA. The allocator also carries the checker's fault (expars_oloc.c), which the
 * GPU polls through fault() each cycle (tick() makes it "timed" for that; it never fires).
 * Victims: none (EXPARS does not preempt).
 */
#include "expars_loop.h"
#include "expars_sm.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t first_fit(const struct hd_expars_sm *s, bool regs, uint64_t cap, uint64_t size)
{
    if (size == 0)
        return 0;
    uint64_t at = 0;
    for (;;) {
        bool moved = false;
        for (uint32_t i = 0; i < s->nslots; i++) {
            const struct hd_expars_blk *b = regs ? &s->slot[i].reg : &s->slot[i].smem;
            if (!s->slot[i].used || !b->used || b->size == 0)
                continue;
            if (at < b->base + b->size && b->base < at + size) {
                at = b->base + b->size;
                moved = true;
            }
        }
        if (at + size > cap)
            return UINT64_MAX;
        if (!moved)
            return at;
    }
}

/* The plan for d's shape; `launch`: the plan the SM installs (set_plan), which the maximum-CTA
 * calculator block computes too when it is in the loop (not place()'s tentative plans). */
static void make_plan(const struct hd_expars_sm *s, const struct hd_cta_demand *d,
                      struct hd_expars_plan *pl, bool launch)
{
    const struct hd_sm_params *p = s->p;
    struct hd_expars_in in = {
        .R = p->registers, .S = (uint32_t)p->shared_bytes, .max_ctas = s->nslots,
        .max_threads = p->max_threads, .r_cta = d->regs, .s_cta = (uint32_t)d->smem,
        .t_cta = d->warps * 32, .tau_num = p->expars_tau_milli, .tau_den = 1000};
    if (in.max_threads > p->max_warps * 32)
        in.max_threads = p->max_warps * 32;
    int rc = hd_expars_plan(&in, pl);
    if (launch && s->loop)
        rc = hd_expars_loop_calc(s->loop, s, &in, rc, pl);
    if (rc != 0 || pl->max_reg >= HD_EXPARS_MAX_REGS ||
        pl->cta_rf + pl->cta_mix > HD_EXPARS_MAX_SLOTS) {
        memset(pl, 0, sizeof *pl); /* unusable shape: baseline */
        pl->cta_rf = s->nslots;
    }
}

static bool same_shape(const struct hd_expars_sm *s, const struct hd_cta_demand *d)
{
    return s->planned && s->key_regs == d->regs && s->key_smem == d->smem &&
           s->key_warps == d->warps;
}

/* Install the plan for d's shape (only while the SM is idle). */
static void set_plan(struct hd_expars_sm *s, const struct hd_cta_demand *d)
{
    make_plan(s, d, &s->plan, true);
    s->planned = true;
    s->key_regs = d->regs, s->key_smem = d->smem, s->key_warps = d->warps;
    const struct hd_expars_plan *pl = &s->plan;
    memset(&s->rat, 0, sizeof s->rat);
    s->rat.on = pl->on;
    s->rat.start_cta = pl->cta_rf;
    s->rat.start_reg = pl->start_reg;
    s->rat.max_reg = pl->max_reg;
    s->rat.wpc = pl->wpc;
    s->smem_cap = s->p->shared_bytes;
    if (pl->on) {
        for (uint32_t k = 0; k < pl->cta_mix; k++)
            s->rat.sbr[k] = hd_expars_sbr((uint32_t)s->p->shared_bytes, pl, k);
        s->smem_cap -= (uint64_t)pl->cta_mix * pl->region_bytes;
    }
    if (s->loop)
        hd_expars_loop_plan(s->loop, s);
}

/* Where d would go: *slot and *mix, and its register and shared-memory bases; false: nowhere. */
static bool place(const struct hd_expars_sm *s, const struct hd_cta_demand *d, uint32_t *slot,
                  bool *mix, uint64_t *rb, uint64_t *sb, uint32_t *regs)
{
    const struct hd_sm_params *p = s->p;
    if (d->warps > HD_ALLOC_MAX_WARPS || s->u.ctas >= s->nslots ||
        s->u.warps + d->warps > s->nwarps || s->u.threads + d->threads > p->max_threads)
        return false;
    struct hd_expars_plan tmp;
    const struct hd_expars_plan *pl = &s->plan;
    uint64_t cap = s->smem_cap;
    const bool idle = s->u.ctas == 0;
    bool ours = same_shape(s, d);
    if (idle && !ours) { /* a new plan would be made at accept */
        make_plan(s, d, &tmp, false);
        pl = &tmp;
        cap = p->shared_bytes - (tmp.on ? (uint64_t)tmp.cta_mix * tmp.region_bytes : 0);
        ours = true;
    }
    const uint32_t nrf = ours && pl->on ? pl->cta_rf : s->nslots;
    const uint32_t nall = ours && pl->on ? pl->cta_rf + pl->cta_mix : s->nslots;
    *sb = first_fit(s, false, cap, d->smem);
    if (*sb == UINT64_MAX)
        return false;
    /* an RF-only slot with the whole register block */
    const uint64_t full = first_fit(s, true, p->registers, d->regs);
    for (uint32_t i = 0; i < nrf && full != UINT64_MAX; i++)
        if (!s->slot[i].used) {
            *slot = i, *mix = false, *rb = full, *regs = d->regs;
            return true;
        }
    if (!ours || !pl->on)
        return false;
    const uint32_t mregs = pl->start_reg * d->warps * 32;
    const uint64_t part = first_fit(s, true, p->registers, mregs);
    for (uint32_t i = nrf; i < nall && part != UINT64_MAX; i++)
        if (!s->slot[i].used) {
            *slot = i, *mix = true, *rb = part, *regs = mregs;
            return true;
        }
    return false;
}

static bool ex_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    uint32_t slot, regs;
    bool mix;
    uint64_t rb, sb;
    return place(impl, d, &slot, &mix, &rb, &sb, &regs);
}

static bool ex_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct hd_expars_sm *s = impl;
    uint32_t slot, regs;
    bool mix;
    uint64_t rb, sb;
    if (!place(s, d, &slot, &mix, &rb, &sb, &regs))
        return false;
    if (s->u.ctas == 0 && !same_shape(s, d))
        set_plan(s, d);
    memset(g, 0, sizeof *g);
    g->cta_slot = slot;
    g->nwarps = d->warps;
    g->threads = d->threads;
    for (uint32_t w = 0, i = 0; i < d->warps; w++) {
        if (s->warp_used[w / 64] >> (w % 64) & 1u)
            continue;
        s->warp_used[w / 64] |= 1ull << (w % 64);
        s->warp_cta[w] = (uint16_t)slot;
        s->warp_local[w] = (uint16_t)i;
        if (s->loop)
            hd_expars_loop_warp(s->loop, s, w);
        for (uint32_t r = 0; r < HD_EXPARS_MAX_REGS; r++) /* fresh registers */
            s->ref[w * HD_EXPARS_MAX_REGS + r] = s->spm[w * HD_EXPARS_MAX_REGS + r] = 0;
        hd_expars_val_fresh_warp(&s->val, w);
        hd_expars_oc_drop_warp(&s->oc, w);
        hd_expars_pool_drop(s, w);
        g->warp_slot[i++] = (uint16_t)w;
    }
    g->reg_base = (uint32_t)rb;
    g->regs = regs;
    g->smem_base = sb;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    struct hd_expars_slot *c = &s->slot[slot];
    *c = (struct hd_expars_slot){true, mix, mix ? slot - s->plan.cta_rf : 0, d->warps, d->threads,
                                 {true, rb, regs}, {true, sb, d->smem}};
    if (s->loop)
        hd_expars_loop_slot(s->loop, s, slot);
    s->st.ctas_rf += !mix;
    s->st.ctas_mix += mix;
    s->u.ctas++;
    s->u.warps += d->warps;
    s->u.threads += d->threads;
    s->u.regs += regs;
    s->u.smem += d->smem + (mix ? s->plan.region_bytes : 0);
    return true;
}

static void ex_release(void *impl, const struct hd_cta_grant *g)
{
    struct hd_expars_sm *s = impl;
    if (g->cta_slot >= s->nslots || !s->slot[g->cta_slot].used)
        return;
    struct hd_expars_slot *c = &s->slot[g->cta_slot];
    for (uint32_t i = 0; i < g->nwarps; i++) {
        const uint32_t w = g->warp_slot[i];
        if (w == HD_ALLOC_NO_SLOT)
            continue;
        s->warp_used[w / 64] &= ~(1ull << (w % 64));
        hd_expars_oc_drop_warp(&s->oc, w); /* dead registers: no write-back */
        hd_expars_pool_drop(s, w);
    }
    s->u.ctas--;
    s->u.warps -= c->warps;
    s->u.threads -= c->threads;
    s->u.regs -= (uint32_t)c->reg.size;
    s->u.smem -= c->smem.size + (c->mix ? s->plan.region_bytes : 0);
    memset(c, 0, sizeof *c);
    if (s->loop)
        hd_expars_loop_slot(s->loop, s, g->cta_slot);
}

/* One warp alone (warp-granular residency: no registers or shared memory move with it here). */
static bool ex_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    struct hd_expars_sm *s = impl;
    if (pt->regs || pt->smem || pt->warp == HD_ALLOC_NO_WARP || pt->warp >= g->nwarps ||
        g->warp_slot[pt->warp] != HD_ALLOC_NO_SLOT || s->u.warps >= s->nwarps)
        return false;
    uint32_t w = 0;
    while (s->warp_used[w / 64] >> (w % 64) & 1u)
        w++;
    s->warp_used[w / 64] |= 1ull << (w % 64);
    s->warp_cta[w] = (uint16_t)g->cta_slot;
    s->warp_local[w] = (uint16_t)pt->warp;
    g->warp_slot[pt->warp] = (uint16_t)w;
    s->slot[g->cta_slot].warps++;
    s->u.warps++;
    return true;
}

static void ex_release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    struct hd_expars_sm *s = impl;
    if (pt->warp < g->nwarps && g->warp_slot[pt->warp] != HD_ALLOC_NO_SLOT) {
        const uint32_t w = g->warp_slot[pt->warp];
        s->warp_used[w / 64] &= ~(1ull << (w % 64));
        g->warp_slot[pt->warp] = HD_ALLOC_NO_SLOT;
        s->slot[g->cta_slot].warps--;
        s->u.warps--;
    }
}

static int ex_plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    (void)victims;
    return ex_can_accept(impl, d) ? 0 : -1;
}

static bool ex_tick(void *impl, uint64_t now)
{
    struct hd_expars_sm *s = impl;
    return s->prefetch ? hd_expars_rp_tick(s, now) : false;
}

static uint64_t ex_next_event(const void *impl, uint64_t now)
{
    const struct hd_expars_sm *s = impl;
    return s->prefetch ? hd_expars_rp_next(s, now) : UINT64_MAX;
}

static bool ex_is_idle(const void *impl)
{
    return ((const struct hd_expars_sm *)impl)->u.ctas == 0;
}

static void ex_usage(const void *impl, struct hd_alloc_usage *u)
{
    *u = ((const struct hd_expars_sm *)impl)->u;
}

/* [expars] log: one line of counters per SM (SM 0 starts the file). */
static void write_log(const struct hd_expars_sm *s)
{
    FILE *f = fopen(s->p->expars_log, s->id == 0 ? "w" : "a");
    if (!f)
        return; /* (checked writable when the hook was attached) */
    const struct hd_expars_stats *t = &s->st;
    fprintf(f,
            "sm %u ctas_rf %" PRIu64 " ctas_mix %" PRIu64 " reads_oc %" PRIu64 " fills %" PRIu64
            " pref_fills %" PRIu64 " pref_hits %" PRIu64 " pref_writebacks %" PRIu64
            " prefetches %" PRIu64 " holds %" PRIu64 " rp_conflict_cycles %" PRIu64
            " forced_unpins %" PRIu64 " evict_dirty %" PRIu64 " evict_clean %" PRIu64
            " writes_oc %" PRIu64 " writes_alloc %" PRIu64 " checked %" PRIu64 " start_reg %u"
            " cta_rf %u cta_mix %u values_checked %" PRIu64 " values_unchecked %" PRIu64
            " partial_fills %" PRIu64 " war_holds %" PRIu64 " pref_passes %" PRIu64
            " pref_pass_waits %" PRIu64 " life_rf %" PRIu64 " %" PRIu64 " %" PRIu64
            " life_mix %" PRIu64 " %" PRIu64 " %" PRIu64 " wait_unpins %" PRIu64 "\n",
            s->id, t->ctas_rf, t->ctas_mix, t->reads_oc, t->fills, t->pref_fills, t->pref_hits,
            t->pref_writebacks, t->prefetches, t->holds, t->rp_conflict_cycles, t->forced_unpins,
            t->evict_dirty, t->evict_clean, t->writes_oc, t->writes_alloc, t->checked,
            s->plan.on ? s->plan.start_reg : 0, s->plan.cta_rf, s->plan.cta_mix,
            s->val.checked, s->val.unchecked, s->val.partial_fills, s->val.war_holds,
            t->pref_passes, t->pref_pass_waits, t->life_n[0], t->life_cycles[0], t->life_max[0],
            t->life_n[1], t->life_cycles[1], t->life_max[1], t->wait_unpins);
    fclose(f);
}

static void ex_destroy(void *impl)
{
    struct hd_expars_sm *s = impl;
    if (!s)
        return;
    if (s->p->expars_log[0])
        write_log(s);
    free(s->warp_used);
    free(s->warp_cta);
    free(s->warp_local);
    free(s->ref);
    free(s->spm);
    free(s->have_an);
    free(s->want_an);
    free(s->have_b);
    free(s->want_b);
    free(s->last_pc);
    free(s->completed);
    hd_expars_val_free(&s->val);
    free(s);
}

static int ex_fault(const void *impl, char *err, size_t errlen)
{
    const struct hd_expars_sm *s = impl;
    if (!s->fault[0])
        return 0;
    snprintf(err, errlen, "%s", s->fault);
    return -1;
}

static const struct hd_alloc_ops ex_ops = {
    "expars",     ex_can_accept, ex_accept,   ex_release,    ex_acquire, ex_release_part,
    ex_plan_victims, ex_tick,    ex_next_event, ex_is_idle,  ex_usage,   ex_destroy,
    NULL,         ex_fault,      NULL,        NULL,          NULL,        NULL,
    NULL,         NULL};

int hd_expars_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    struct hd_expars_sm *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->p = p;
    s->nslots = p->max_ctas < HD_EXPARS_MAX_SLOTS ? p->max_ctas : HD_EXPARS_MAX_SLOTS;
    s->nwarps = p->max_warps;
    const size_t nv = (size_t)s->nwarps * HD_EXPARS_MAX_REGS;
    s->warp_used = calloc((s->nwarps + 63) / 64, sizeof *s->warp_used);
    s->warp_cta = calloc(s->nwarps, sizeof *s->warp_cta);
    s->warp_local = calloc(s->nwarps, sizeof *s->warp_local);
    s->ref = calloc(nv, sizeof *s->ref);
    s->spm = calloc(nv, sizeof *s->spm);
    const uint32_t nw = s->nwarps ? s->nwarps : 1;
    s->have_an = calloc(nw, sizeof *s->have_an);
    s->want_an = calloc(nw, sizeof *s->want_an);
    s->have_b = malloc(nw * sizeof *s->have_b);
    s->want_b = malloc(nw * sizeof *s->want_b);
    s->last_pc = malloc(nw * sizeof *s->last_pc);
    s->completed = calloc(nw, sizeof *s->completed);
    if (!s->warp_used || !s->warp_cta || !s->warp_local || !s->ref || !s->spm || !s->have_an ||
        !s->want_an || !s->have_b || !s->want_b || !s->last_pc || !s->completed) {
        ex_destroy(s);
        return -1;
    }
    for (uint32_t w = 0; w < nw; w++)
        s->have_b[w] = s->want_b[w] = s->last_pc[w] = UINT32_MAX;
    s->ideal = p->expars_ideal;
    s->prefetch = p->expars_prefetch && !s->ideal;
    s->smem_cap = p->shared_bytes;
    hd_expars_oc_init(&s->oc, p->expars_oc_lines, p->expars_oc_banks, p->expars_oc_ways);
    if (hd_expars_val_init(&s->val, s->oc.t.nlines, s->nwarps, p->expars_check) != 0) {
        ex_destroy(s);
        return -1;
    }
    hd_expars_pref_init(&s->pref, nw, s->oc.t.nlines, s->oc.t.ways, HD_EXPARS_PREF_MAX_WORDS,
                        HD_EXPARS_OC_MAX_LINES, HD_EXPARS_RP_STALL_LIMIT);
    out->ops = &ex_ops;
    out->impl = s;
    return 0;
}

struct hd_expars_sm *hd_expars_sm_of(const struct hd_sm_alloc *a)
{
    return a && a->ops == &ex_ops ? a->impl : NULL;
}
