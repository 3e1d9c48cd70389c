/* SPDX-License-Identifier: MIT
 * sm_alloc.c - the baseline allocation layer: slots by lowest free index, registers and shared
 * memory by first fit.
 *
 * Design: see sm_alloc.h. Blocks are kept per CTA slot (at most max_ctas of them), so first fit
 * scans at most max_ctas blocks; slots are bitmaps. All of it is plain state (save/restore is a
 * copy).
 */
#include "sm_alloc.h"

#include <stdlib.h>
#include <string.h>

struct block {
    bool used;
    uint64_t base, size;
};

struct part_state {
    const struct hd_sm_params *p;
    uint64_t *warp_used;     /* bitmap [words] */
    uint32_t words;
    struct block *reg_blk;   /* [max_ctas] by CTA slot */
    struct block *smem_blk;
    bool *cta_used;          /* [max_ctas] */
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
        s->warp_used[g->warp_slot[i] / 64] &= ~(1ull << (g->warp_slot[i] % 64));
    s->cta_used[g->cta_slot] = false;
    s->reg_blk[g->cta_slot].used = false;
    s->smem_blk[g->cta_slot].used = false;
    s->u.ctas--;
    s->u.warps -= g->nwarps;
    s->u.threads -= g->threads;
    s->u.regs -= g->regs;
    s->u.smem -= g->smem;
}

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
    free(s);
}

static const struct hd_alloc_ops part_ops = {"partitioned", part_can_accept, part_accept,
                                             part_release,  part_is_idle,    part_usage,
                                             part_destroy};

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
    if (!s->warp_used || !s->reg_blk || !s->smem_blk || !s->cta_used) {
        part_destroy(s);
        return -1;
    }
    out->ops = &part_ops;
    out->impl = s;
    return 0;
}
