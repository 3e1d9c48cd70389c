/* SPDX-License-Identifier: MIT
 * shieh_alloc_aligned.c - Shieh's dual-kernel SM allocator with allocation alignment (Shieh thesis
 * §3.2, Fig 3.2; digest §2.2, §2.6): an SM holds CTAs of at most two launches at once; the
 * CTAs of the more urgent one (the preempting kernel: a launch of higher priority than another
 * launch resident on the SM) are placed only at predetermined positions, position p covering
 * registers [p*r, (p+1)*r) and shared memory [p*s, (p+1)*s) for the CTA's footprint (r, s), the
 * lowest free one first; every other CTA takes the baseline's first fit. So the running TBs to
 * evict for a preempting TB are one candidate victim set (shieh_cands.h), and the space freed in
 * any order is used without fragmentation (Fig 3.2b: two preempting TBs where a naive hole
 * takes one).
 *
 * Design: the same plain state as the partitioned allocator (sm_alloc.c: warp-slot bitmap,
 * per-CTA-slot register and shared-memory blocks) with its own placement; plan_victims answers
 * with the smallest candidate victim set (fewest CTAs, then the lowest position) made only of
 * CTAs of lower priority than the demand. Positions are at most max_ctas (the candidate rows of
 * configs/rtl/shieh_victim_sets.ini). Chosen by hd_sm_alloc_aligned (hd_sm_alloc_create names
 * it when [sm] allocator selects it). Deterministic: only indices decide.
 */
#include "shieh_cands.h"
#include "sm_alloc.h"
#include "shieh_alloc_aligned.h"

#include <stdlib.h>
#include <string.h>

struct blk {
    bool used;
    uint64_t base, size;
};

struct slot_info {
    uint32_t launch;
    int32_t priority;
    uint32_t warps, threads;
};

struct al_state {
    const struct hd_sm_params *p;
    uint64_t *warp_used;
    uint32_t words;
    struct blk *reg, *smem;  /* [max_ctas] by CTA slot */
    bool *used;              /* [max_ctas] */
    struct slot_info *info;  /* [max_ctas] */
    struct hd_alloc_usage u;
};

static bool overlaps_any(const struct blk *b, uint32_t n, uint64_t at, uint64_t size)
{
    if (size == 0)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (b[i].used && b[i].size && at < b[i].base + b[i].size && b[i].base < at + size)
            return true;
    return false;
}

static uint64_t first_fit(const struct blk *b, uint32_t n, uint64_t cap, uint64_t size)
{
    if (size == 0)
        return 0;
    uint64_t at = 0;
    for (;;) {
        bool moved = false;
        for (uint32_t i = 0; i < n; i++)
            if (b[i].used && b[i].size && at < b[i].base + b[i].size && b[i].base < at + size) {
                at = b[i].base + b[i].size;
                moved = true;
            }
        if (at + size > cap)
            return UINT64_MAX;
        if (!moved)
            return at;
    }
}

/* Does d's launch preempt here (a launch of lower priority is resident)? How many other
 * launches are resident (counted up to 2; dual-kernel allows 1)? */
static void kernels_here(const struct al_state *s, const struct hd_cta_demand *d, bool *preempting,
                         unsigned *others)
{
    uint32_t first = UINT32_MAX;
    *preempting = false;
    *others = 0;
    for (uint32_t c = 0; c < s->p->max_ctas; c++) {
        if (!s->used[c] || s->info[c].launch == d->launch)
            continue;
        if (s->info[c].priority < d->priority)
            *preempting = true;
        if (first == UINT32_MAX) {
            first = s->info[c].launch;
            *others = 1;
        } else if (s->info[c].launch != first) {
            *others = 2;
        }
    }
}

/* The aligned position for d (register and shared-memory bases), or false. */
static bool aligned_fit(const struct al_state *s, const struct hd_cta_demand *d, uint64_t *rb,
                        uint64_t *sb)
{
    const struct hd_shieh_footprint f = {d->regs, d->smem};
    uint32_t k = hd_shieh_positions(&f, s->p->registers, s->p->shared_bytes, s->p->max_ctas);
    for (uint32_t p = 0; p < k; p++) {
        uint64_t r = (uint64_t)p * d->regs, m = (uint64_t)p * d->smem;
        if (!overlaps_any(s->reg, s->p->max_ctas, r, d->regs) &&
            !overlaps_any(s->smem, s->p->max_ctas, m, d->smem)) {
            *rb = r;
            *sb = m;
            return true;
        }
    }
    return false;
}

static bool place(const struct al_state *s, const struct hd_cta_demand *d, uint64_t *rb, uint64_t *sb)
{
    const struct hd_sm_params *p = s->p;
    if (d->warps > HD_ALLOC_MAX_WARPS || s->u.ctas >= p->max_ctas ||
        d->warps > p->max_warps - s->u.warps || s->u.threads + d->threads > p->max_threads)
        return false;
    bool preempting;
    unsigned others;
    kernels_here(s, d, &preempting, &others);
    if (others > 1)
        return false; /* dual-kernel: a third launch waits */
    if (preempting)
        return aligned_fit(s, d, rb, sb);
    *rb = first_fit(s->reg, p->max_ctas, p->registers, d->regs);
    *sb = first_fit(s->smem, p->max_ctas, p->shared_bytes, d->smem);
    return *rb != UINT64_MAX && *sb != UINT64_MAX;
}

static bool al_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    uint64_t rb, sb;
    return place(impl, d, &rb, &sb);
}

static bool al_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct al_state *s = impl;
    uint64_t rb, sb;
    if (!place(s, d, &rb, &sb))
        return false;
    uint32_t slot = 0;
    while (s->used[slot])
        slot++;
    memset(g, 0, sizeof *g);
    g->cta_slot = slot;
    g->nwarps = d->warps;
    g->threads = d->threads;
    for (uint32_t w = 0, i = 0; i < d->warps; w++) {
        if (s->warp_used[w / 64] >> (w % 64) & 1u)
            continue;
        s->warp_used[w / 64] |= 1ull << (w % 64);
        g->warp_slot[i++] = (uint16_t)w;
    }
    g->reg_base = (uint32_t)rb;
    g->regs = d->regs;
    g->smem_base = sb;
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    s->info[slot] = (struct slot_info){d->launch, d->priority, d->warps, d->threads};
    s->used[slot] = true;
    s->reg[slot] = (struct blk){true, rb, d->regs};
    s->smem[slot] = (struct blk){true, sb, d->smem};
    s->u.ctas++;
    s->u.warps += d->warps;
    s->u.threads += d->threads;
    s->u.regs += d->regs;
    s->u.smem += d->smem;
    return true;
}

static void al_release(void *impl, const struct hd_cta_grant *g)
{
    struct al_state *s = impl;
    uint32_t c = g->cta_slot;
    if (c >= s->p->max_ctas || !s->used[c])
        return;
    for (uint32_t i = 0; i < g->nwarps; i++)
        if (g->warp_slot[i] != HD_ALLOC_NO_SLOT)
            s->warp_used[g->warp_slot[i] / 64] &= ~(1ull << (g->warp_slot[i] % 64));
    s->used[c] = s->reg[c].used = s->smem[c].used = false;
    s->u.ctas--;
    s->u.warps -= s->info[c].warps;
    s->u.threads -= s->info[c].threads;
    s->u.regs -= (uint32_t)s->reg[c].size;
    s->u.smem -= s->smem[c].size;
}

/* Partial grants are not part of Shieh's mechanism: acquire refuses; release_part gives back
 * only a warp slot (a warp that left early), the CTA keeps its aligned blocks. */
static bool al_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    (void)impl;
    (void)g;
    (void)pt;
    return false;
}

static void al_release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    struct al_state *s = impl;
    uint32_t c = g->cta_slot;
    if (c >= s->p->max_ctas || !s->used[c] || pt->warp >= g->nwarps ||
        g->warp_slot[pt->warp] == HD_ALLOC_NO_SLOT)
        return;
    uint32_t w = g->warp_slot[pt->warp];
    s->warp_used[w / 64] &= ~(1ull << (w % 64));
    g->warp_slot[pt->warp] = HD_ALLOC_NO_SLOT;
    s->info[c].warps--;
    s->u.warps--;
}

/* The smallest candidate victim set of lower-priority CTAs (fewest, then lowest position) after
 * which d fits at an aligned position (or first fit, when d does not preempt here). */
static int al_plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    struct al_state *s = impl;
    const uint32_t n = s->p->max_ctas < HD_SHIEH_MAX_TBS ? s->p->max_ctas : HD_SHIEH_MAX_TBS;
    if (al_can_accept(s, d))
        return 0;
    struct hd_shieh_range tbs[HD_SHIEH_MAX_TBS];
    uint64_t lower = 0;
    for (uint32_t c = 0; c < n; c++) {
        tbs[c] = (struct hd_shieh_range){s->used[c], (uint32_t)s->reg[c].base,
                                         (uint32_t)s->reg[c].size, s->smem[c].base, s->smem[c].size};
        if (s->used[c] && s->info[c].launch != d->launch && s->info[c].priority < d->priority)
            lower |= (uint64_t)1 << c;
    }
    const struct hd_shieh_footprint f = {d->regs, d->smem};
    uint32_t k = hd_shieh_positions(&f, s->p->registers, s->p->shared_bytes, n);
    uint64_t cand[HD_SHIEH_MAX_POS], valid;
    hd_shieh_candidates(&f, k, tbs, n, 0, cand, &valid);
    int best = -1;
    unsigned best_n = 0;
    for (uint32_t p = 0; p < k; p++) {
        if (cand[p] & ~lower)
            continue; /* a CTA that may not be evicted occupies the position */
        /* Would d fit with these gone (threads, slots, the dual-kernel limit)? */
        const struct hd_alloc_usage saved = s->u;
        bool used[HD_SHIEH_MAX_TBS], ru[HD_SHIEH_MAX_TBS], su[HD_SHIEH_MAX_TBS];
        for (uint32_t c = 0; c < n; c++) {
            used[c] = s->used[c];
            ru[c] = s->reg[c].used;
            su[c] = s->smem[c].used;
            if ((cand[p] >> c) & 1u) {
                s->used[c] = s->reg[c].used = s->smem[c].used = false;
                s->u.ctas--;
                s->u.warps -= s->info[c].warps;
                s->u.threads -= s->info[c].threads;
            }
        }
        bool fits = al_can_accept(s, d);
        for (uint32_t c = 0; c < n; c++) {
            s->used[c] = used[c];
            s->reg[c].used = ru[c];
            s->smem[c].used = su[c];
        }
        s->u = saved;
        unsigned cnt = 0;
        for (uint64_t b = cand[p]; b; b &= b - 1)
            cnt++;
        if (fits && (best < 0 || cnt < best_n)) {
            best = (int)p;
            best_n = cnt;
        }
    }
    if (best < 0)
        return -1;
    unsigned m = 0;
    for (uint32_t c = 0; c < n; c++)
        if ((cand[best] >> c) & 1u)
            victims[m++] = c;
    return (int)m;
}

static bool al_is_idle(const void *impl)
{
    const struct al_state *s = impl;
    return s->u.ctas == 0;
}

static void al_usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct al_state *s = impl;
    *u = s->u;
}

static void al_destroy(void *impl)
{
    struct al_state *s = impl;
    if (!s)
        return;
    free(s->warp_used);
    free(s->reg);
    free(s->smem);
    free(s->used);
    free(s->info);
    free(s);
}

static const struct hd_alloc_ops aligned_ops = {
    .name = "aligned",
    .can_accept = al_can_accept,
    .accept = al_accept,
    .release = al_release,
    .acquire = al_acquire,
    .release_part = al_release_part,
    .plan_victims = al_plan_victims,
    .is_idle = al_is_idle,
    .usage = al_usage,
    .destroy = al_destroy,
};

int hd_sm_alloc_aligned(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    if (p->max_ctas > HD_SHIEH_MAX_TBS)
        return -1;
    struct al_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->p = p;
    s->words = (p->max_warps + 63) / 64;
    s->warp_used = calloc(s->words ? s->words : 1, sizeof *s->warp_used);
    s->reg = calloc(p->max_ctas, sizeof *s->reg);
    s->smem = calloc(p->max_ctas, sizeof *s->smem);
    s->used = calloc(p->max_ctas, sizeof *s->used);
    s->info = calloc(p->max_ctas, sizeof *s->info);
    if (!s->warp_used || !s->reg || !s->smem || !s->used || !s->info) {
        al_destroy(s);
        return -1;
    }
    out->ops = &aligned_ops;
    out->impl = s;
    return 0;
}
