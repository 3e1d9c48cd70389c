/* SPDX-License-Identifier: MIT
 * warpman_alloc.c - the `warpman` allocator (warpman_alloc.h; Warpman as EXPARS §2.10 and the
 * digest's rule describe it): whole CTAs, one partial CTA, per-warp registers and release.
 */
#include "warpman_alloc.h"

#include <stdlib.h>
#include <string.h>

struct wm_cta {                 /* per CTA slot */
    bool used;
    uint32_t nwarps, threads;   /* every warp of the CTA, started or not */
    uint32_t rpw;               /* registers per warp (its launch's demand) */
    uint32_t held;              /* warps holding a slot and their registers now (bit i) */
    uint32_t unstarted;         /* warps that have never held a slot (the partial CTA's) */
    uint16_t slot[HD_ALLOC_MAX_WARPS];
    uint64_t smem_base, smem;
};

struct wm_state {
    const struct hd_sm_params *p;
    uint64_t *warp_used;        /* warp-slot bitmap */
    struct wm_cta *cta;         /* [max_ctas] */
    struct hd_alloc_usage u;    /* u.regs: registers held by started warps */
};

uint32_t hd_warpman_start_warps(uint32_t nwarps, uint32_t rpw, uint32_t free_regs,
                                uint32_t free_slots, bool partial_held)
{
    if (nwarps == 0)
        return 0;
    const uint64_t need = (uint64_t)nwarps * rpw;
    if (nwarps <= free_slots && need <= free_regs)
        return nwarps; /* whole, as the baseline */
    if (partial_held)
        return 0;
    uint32_t k = rpw ? free_regs / rpw : nwarps;
    k = k < free_slots ? k : free_slots;
    return k < nwarps ? k : nwarps - 1;
}

static uint32_t warp_threads(const struct wm_cta *c, uint32_t i)
{
    const uint32_t first = i * 32u;
    return c->threads > first + 32u ? 32u : c->threads > first ? c->threads - first : 0;
}

/* Shared memory: first fit over the resident CTAs' blocks (as sm_alloc.c). */
static uint64_t smem_fit(const struct wm_state *s, uint64_t size)
{
    if (size == 0)
        return 0;
    uint64_t at = 0;
    for (;;) {
        bool moved = false;
        for (uint32_t i = 0; i < s->p->max_ctas; i++) {
            const struct wm_cta *c = &s->cta[i];
            if (c->used && c->smem && at < c->smem_base + c->smem && c->smem_base < at + size) {
                at = c->smem_base + c->smem;
                moved = true;
            }
        }
        if (at + size > s->p->shared_bytes)
            return UINT64_MAX;
        if (!moved)
            return at;
    }
}

static int free_cta(const struct wm_state *s)
{
    for (uint32_t i = 0; i < s->p->max_ctas; i++)
        if (!s->cta[i].used)
            return (int)i;
    return -1;
}

static bool partial_held(const struct wm_state *s)
{
    for (uint32_t i = 0; i < s->p->max_ctas; i++)
        if (s->cta[i].used && s->cta[i].unstarted)
            return true;
    return false;
}

static uint32_t free_regs(const struct wm_state *s)
{
    return s->p->registers > s->u.regs ? s->p->registers - s->u.regs : 0;
}

/* The warps of d that would start now (0: d is not placed). */
static uint32_t starts(const struct wm_state *s, const struct hd_cta_demand *d)
{
    const uint32_t nw = d->all_warps > d->warps ? d->all_warps : d->warps;
    if (nw == 0 || nw > HD_ALLOC_MAX_WARPS || free_cta(s) < 0 ||
        smem_fit(s, d->smem) == UINT64_MAX)
        return 0;
    return hd_warpman_start_warps(nw, d->regs_per_warp, free_regs(s),
                                  s->p->max_warps - s->u.warps, partial_held(s));
}

static bool wm_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    return starts(impl, d) != 0;
}

/* Warp i of CTA slot c takes the lowest free warp slot and its registers. */
static void take_warp(struct wm_state *s, uint32_t cs, uint32_t i, struct hd_cta_grant *g)
{
    struct wm_cta *c = &s->cta[cs];
    uint32_t w = 0;
    while (s->warp_used[w / 64] >> (w % 64) & 1u)
        w++;
    s->warp_used[w / 64] |= 1ull << (w % 64);
    c->slot[i] = (uint16_t)w;
    c->held |= 1u << i;
    c->unstarted &= ~(1u << i);
    g->warp_slot[i] = (uint16_t)w;
    s->u.warps++;
    s->u.threads += warp_threads(c, i);
    s->u.regs += c->rpw;
}

static void drop_warp(struct wm_state *s, uint32_t cs, uint32_t i)
{
    struct wm_cta *c = &s->cta[cs];
    const uint32_t w = c->slot[i];
    s->warp_used[w / 64] &= ~(1ull << (w % 64));
    c->held &= ~(1u << i);
    s->u.warps--;
    s->u.threads -= warp_threads(c, i);
    s->u.regs -= c->rpw;
}

static bool wm_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct wm_state *s = impl;
    const uint32_t k = starts(s, d);
    if (k == 0)
        return false;
    const uint32_t nw = d->all_warps > d->warps ? d->all_warps : d->warps;
    const uint32_t cs = (uint32_t)free_cta(s);
    struct wm_cta *c = &s->cta[cs];
    *c = (struct wm_cta){.used = true, .nwarps = nw, .threads = d->threads,
                         .rpw = d->regs_per_warp, .smem_base = smem_fit(s, d->smem),
                         .smem = d->smem, .unstarted = nw >= 32 ? UINT32_MAX : (1u << nw) - 1};
    memset(g, 0, sizeof *g);
    g->cta_slot = cs;
    g->nwarps = nw;
    g->threads = d->threads;
    for (uint32_t i = 0; i < nw; i++)
        if (i < k)
            take_warp(s, cs, i, g);
        else
            g->warp_slot[i] = HD_ALLOC_NO_SLOT; /* waits: placed absent (sm_residency.c) */
    g->reg_base = 0;
    g->regs = nw * d->regs_per_warp;
    g->smem_base = c->smem_base;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    s->u.ctas++;
    s->u.smem += d->smem;
    return true;
}

static void wm_release(void *impl, const struct hd_cta_grant *g)
{
    struct wm_state *s = impl;
    if (g->cta_slot >= s->p->max_ctas || !s->cta[g->cta_slot].used)
        return;
    struct wm_cta *c = &s->cta[g->cta_slot];
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->held >> i & 1u)
            drop_warp(s, g->cta_slot, i);
    s->u.ctas--;
    s->u.smem -= c->smem;
    c->used = false;
}

/* A waiting warp asks for a slot: granted when a warp slot and its registers are free. */
static bool wm_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct wm_state *s = impl;
    if (p->warp == HD_ALLOC_NO_WARP || p->regs || p->smem || g->cta_slot >= s->p->max_ctas)
        return false; /* (growth by registers or shared memory alone: not Warpman's) */
    struct wm_cta *c = &s->cta[g->cta_slot];
    if (!c->used || p->warp >= c->nwarps || (c->held >> p->warp & 1u) ||
        s->u.warps >= s->p->max_warps || free_regs(s) < c->rpw)
        return false;
    take_warp(s, g->cta_slot, p->warp, g);
    return true;
}

/* A warp that exited (or left its slot) gives its slot and registers back at once. */
static void wm_release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct wm_state *s = impl;
    if (p->warp == HD_ALLOC_NO_WARP || g->cta_slot >= s->p->max_ctas)
        return;
    const struct wm_cta *c = &s->cta[g->cta_slot];
    if (!c->used || p->warp >= c->nwarps || !(c->held >> p->warp & 1u))
        return;
    drop_warp(s, g->cta_slot, p->warp);
    g->warp_slot[p->warp] = HD_ALLOC_NO_SLOT;
}

static int wm_plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    (void)victims;
    return wm_can_accept(impl, d) ? 0 : -1; /* (no preemption with Warpman) */
}

static bool wm_is_idle(const void *impl)
{
    return ((const struct wm_state *)impl)->u.ctas == 0;
}

static void wm_usage(const void *impl, struct hd_alloc_usage *u)
{
    *u = ((const struct wm_state *)impl)->u;
}

static void wm_destroy(void *impl)
{
    struct wm_state *s = impl;
    if (!s)
        return;
    free(s->warp_used);
    free(s->cta);
    free(s);
}

static const struct hd_alloc_ops wm_ops = {
    .name = "warpman", .can_accept = wm_can_accept, .accept = wm_accept,
    .release = wm_release, .acquire = wm_acquire, .release_part = wm_release_part,
    .plan_victims = wm_plan_victims, .is_idle = wm_is_idle, .usage = wm_usage,
    .destroy = wm_destroy,
};

int hd_warpman_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    struct wm_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->p = p;
    s->warp_used = calloc((p->max_warps + 63) / 64, sizeof *s->warp_used);
    s->cta = calloc(p->max_ctas, sizeof *s->cta);
    if (!s->warp_used || !s->cta) {
        wm_destroy(s);
        return -1;
    }
    *out = (struct hd_sm_alloc){&wm_ops, s};
    return 0;
}
