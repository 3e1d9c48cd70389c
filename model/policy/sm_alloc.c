/* SPDX-License-Identifier: MIT
 * sm_alloc.c - the baseline allocation layer: slots by lowest free index, registers and shared
 * memory by first fit.
 *
 * Design: see sm_alloc.h. Blocks are kept per CTA slot (at most max_ctas of them), so first fit
 * scans at most max_ctas blocks; slots are bitmaps. All of it is plain state (save/restore is a
 * copy). Victim planning hides candidate CTAs (their blocks and counts) and asks can_accept, so
 * it sees exactly the first-fit rule that placement applies; the state is restored before it
 * returns.
 */
#include "sm_alloc.h"
#include "mech.h"
#include "sm_alloc_victims.h"

#include <stdlib.h>
#include <string.h>

struct block {
    bool used;
    uint64_t base, size;
};

struct cta_info {             /* per CTA slot */
    uint32_t launch;
    int32_t priority;
    uint64_t seq;            /* placement order */
    uint32_t warps;          /* warp slots held now */
    uint32_t threads;
};

struct part_state {
    const struct hd_sm_params *p;
    uint64_t *warp_used;     /* bitmap [words] */
    uint32_t words;
    struct block *reg_blk;   /* [max_ctas] by CTA slot */
    struct block *smem_blk;
    bool *cta_used;          /* [max_ctas] */
    struct cta_info *info;   /* [max_ctas] */
    uint32_t *cand;          /* [max_ctas] victim-planning scratch */
    uint64_t seq;
    struct hd_alloc_usage u;
};

/* First fit of `size` in [0, cap) avoiding the used blocks; UINT64_MAX if none. */
static uint64_t first_fit(const struct block *b, uint32_t n, uint64_t cap, uint64_t size)
{
    if (size == 0)
        return 0;
    uint64_t at = 0;
    for (;;) {
        bool moved = false;
        for (uint32_t i = 0; i < n; i++) {
            if (!b[i].used || b[i].size == 0)
                continue;
            if (at < b[i].base + b[i].size && b[i].base < at + size) {
                at = b[i].base + b[i].size;
                moved = true;
            }
        }
        if (at + size > cap)
            return UINT64_MAX;
        if (!moved)
            return at;
    }
}

static uint32_t free_warps(const struct part_state *s)
{
    return s->p->max_warps - s->u.warps;
}

static bool part_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    const struct part_state *s = impl;
    const struct hd_sm_params *p = s->p;
    if (d->warps > HD_ALLOC_MAX_WARPS || s->u.ctas >= p->max_ctas || d->warps > free_warps(s) ||
        s->u.threads + d->threads > p->max_threads)
        return false;
    if (first_fit(s->reg_blk, p->max_ctas, p->registers, d->regs) == UINT64_MAX)
        return false;
    return first_fit(s->smem_blk, p->max_ctas, p->shared_bytes, d->smem) != UINT64_MAX;
}

static bool part_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct part_state *s = impl;
    const struct hd_sm_params *p = s->p;
    if (!part_can_accept(impl, d))
        return false;
    uint32_t slot = 0;
    while (s->cta_used[slot])
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
    g->reg_base = (uint32_t)first_fit(s->reg_blk, p->max_ctas, p->registers, d->regs);
    g->regs = d->regs;
    g->smem_base = first_fit(s->smem_blk, p->max_ctas, p->shared_bytes, d->smem);
    g->smem = d->smem;
    g->launch = d->launch;
    g->priority = d->priority;
    s->info[slot] = (struct cta_info){d->launch, d->priority, s->seq++, d->warps, d->threads};
    s->cta_used[slot] = true;
    s->reg_blk[slot] = (struct block){true, g->reg_base, d->regs};
    s->smem_blk[slot] = (struct block){true, g->smem_base, d->smem};
    s->u.ctas++;
    s->u.warps += d->warps;
    s->u.threads += d->threads;
    s->u.regs += d->regs;
    s->u.smem += d->smem;
    return true;
}

static void part_release(void *impl, const struct hd_cta_grant *g)
{
    struct part_state *s = impl;
    if (g->cta_slot >= s->p->max_ctas || !s->cta_used[g->cta_slot])
        return;
    for (uint32_t i = 0; i < g->nwarps; i++)
        if (g->warp_slot[i] != HD_ALLOC_NO_SLOT)
            s->warp_used[g->warp_slot[i] / 64] &= ~(1ull << (g->warp_slot[i] % 64));
    s->cta_used[g->cta_slot] = false;
    s->reg_blk[g->cta_slot].used = false;
    s->smem_blk[g->cta_slot].used = false;
    s->u.ctas--;
    s->u.warps -= s->info[g->cta_slot].warps;
    s->u.threads -= g->threads;
    s->u.regs -= (uint32_t)s->reg_blk[g->cta_slot].size;
    s->u.smem -= s->smem_blk[g->cta_slot].size;
}

/* {==== Partial acquire and release ==== */
/* Can block `slot` of b grow by `add` at its top (or, if empty, be placed first fit)? Returns
 * its base after growing, or UINT64_MAX. */
static uint64_t grow_at(const struct block *b, uint32_t n, uint32_t slot, uint64_t cap,
                        uint64_t add)
{
    const struct block *me = &b[slot];
    if (add == 0)
        return me->base;
    if (me->size == 0)
        return first_fit(b, n, cap, add);
    uint64_t lo = me->base + me->size, hi = lo + add;
    if (hi > cap)
        return UINT64_MAX;
    for (uint32_t i = 0; i < n; i++)
        if (i != slot && b[i].used && b[i].size && lo < b[i].base + b[i].size && b[i].base < hi)
            return UINT64_MAX;
    return me->base;
}

static bool part_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    struct part_state *s = impl;
    const struct hd_sm_params *p = s->p;
    const uint32_t c = g->cta_slot;
    if (c >= p->max_ctas || !s->cta_used[c])
        return false;
    bool warp = pt->warp != HD_ALLOC_NO_WARP;
    if (warp && (pt->warp >= g->nwarps || g->warp_slot[pt->warp] != HD_ALLOC_NO_SLOT ||
                 free_warps(s) == 0))
        return false;
    uint64_t rb = grow_at(s->reg_blk, p->max_ctas, c, p->registers, pt->regs);
    uint64_t sb = grow_at(s->smem_blk, p->max_ctas, c, p->shared_bytes, pt->smem);
    if (rb == UINT64_MAX || sb == UINT64_MAX)
        return false;
    if (warp) {
        uint32_t w = 0;
        while (s->warp_used[w / 64] >> (w % 64) & 1u)
            w++;
        s->warp_used[w / 64] |= 1ull << (w % 64);
        g->warp_slot[pt->warp] = (uint16_t)w;
        s->info[c].warps++;
        s->u.warps++;
    }
    s->reg_blk[c].base = rb;
    s->reg_blk[c].size += pt->regs;
    s->smem_blk[c].base = sb;
    s->smem_blk[c].size += pt->smem;
    g->reg_base = (uint32_t)rb;
    g->regs += pt->regs;
    g->smem_base = sb;
    g->smem += pt->smem;
    s->u.regs += pt->regs;
    s->u.smem += pt->smem;
    return true;
}

static void part_release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *pt)
{
    struct part_state *s = impl;
    const uint32_t c = g->cta_slot;
    if (c >= s->p->max_ctas || !s->cta_used[c])
        return;
    if (pt->warp < g->nwarps && g->warp_slot[pt->warp] != HD_ALLOC_NO_SLOT) {
        uint32_t w = g->warp_slot[pt->warp];
        s->warp_used[w / 64] &= ~(1ull << (w % 64));
        g->warp_slot[pt->warp] = HD_ALLOC_NO_SLOT;
        s->info[c].warps--;
        s->u.warps--;
    }
    uint32_t r = pt->regs < s->reg_blk[c].size ? pt->regs : (uint32_t)s->reg_blk[c].size;
    uint64_t m = pt->smem < s->smem_blk[c].size ? pt->smem : s->smem_blk[c].size;
    s->reg_blk[c].size -= r;
    s->smem_blk[c].size -= m;
    g->regs -= r;
    g->smem -= m;
    s->u.regs -= r;
    s->u.smem -= m;
}
/* }==== */

/* {==== Victim planning ==== */
static void hide(struct part_state *s, uint32_t c, bool hidden)
{
    const struct cta_info *in = &s->info[c];
    int sign = hidden ? -1 : 1;
    s->cta_used[c] = s->reg_blk[c].used = s->smem_blk[c].used = !hidden;
    s->u.ctas = (uint32_t)((int64_t)s->u.ctas + sign);
    s->u.warps = (uint32_t)((int64_t)s->u.warps + sign * (int64_t)in->warps);
    s->u.threads = (uint32_t)((int64_t)s->u.threads + sign * (int64_t)in->threads);
}

static bool v_key(const void *ctx, uint32_t c, struct hd_victim_key *k)
{
    const struct part_state *s = ctx;
    if (!s->cta_used[c])
        return false;
    *k = (struct hd_victim_key){s->info[c].launch, s->info[c].priority, s->info[c].seq};
    return true;
}

static void v_mark(void *ctx, uint32_t c, bool gone)
{
    hide(ctx, c, gone);
}

static bool v_fits(const void *ctx, const struct hd_cta_demand *d)
{
    return part_can_accept(ctx, d);
}

/* The baseline rule (sm_alloc_victims.h) with hide() as "gone": the state is restored. */
static int part_plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    struct part_state *s = impl;
    if (part_can_accept(s, d))
        return 0;
    const struct hd_victim_ops o = {s, v_key, v_mark, v_fits};
    int n = hd_alloc_victims_complete(s->p->max_ctas, d, &o, s->cand, victims, 0);
    for (int i = 0; i < n; i++)
        hide(s, victims[i], false);
    return n;
}
/* }==== */

static bool part_is_idle(const void *impl)
{
    const struct part_state *s = impl;
    return s->u.ctas == 0;
}

static void part_usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct part_state *s = impl;
    *u = s->u;
}

static void part_destroy(void *impl)
{
    struct part_state *s = impl;
    if (!s)
        return;
    free(s->warp_used);
    free(s->reg_blk);
    free(s->smem_blk);
    free(s->cta_used);
    free(s->info);
    free(s->cand);
    free(s);
}

static const struct hd_alloc_ops part_ops = {
    "partitioned",  part_can_accept, part_accept, part_release, part_acquire, part_release_part,
    part_plan_victims, NULL,         NULL,        part_is_idle, part_usage,   part_destroy,
    NULL,              NULL,         NULL,        NULL,         NULL,       NULL,
    NULL,              NULL};

int hd_sm_alloc_partitioned(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    struct part_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->p = p;
    s->words = (p->max_warps + 63) / 64;
    s->warp_used = calloc(s->words, sizeof *s->warp_used);
    s->reg_blk = calloc(p->max_ctas, sizeof *s->reg_blk);
    s->smem_blk = calloc(p->max_ctas, sizeof *s->smem_blk);
    s->cta_used = calloc(p->max_ctas, sizeof *s->cta_used);
    s->info = calloc(p->max_ctas, sizeof *s->info);
    s->cand = calloc(p->max_ctas, sizeof *s->cand);
    if (!s->warp_used || !s->reg_blk || !s->smem_blk || !s->cta_used || !s->info || !s->cand) {
        part_destroy(s);
        return -1;
    }
    out->ops = &part_ops;
    out->impl = s;
    return 0;
}

int hd_sm_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    const struct hd_mech_alloc *a = hd_mech_find_alloc((int)p->alloc);
    return a ? a->create(p, out) : hd_sm_alloc_partitioned(p, out);
}
