/* SPDX-License-Identifier: MIT
 * cta.c - CTA state: storage for shared memory and the warps' registers and local memory, and
 * the named barriers.
 *
 * Design: see cta.h. A barrier phase completes when the number of arrived warps reaches its
 * expectation (a thread count given as b/32 warps, or else every warp that is not done); at that
 * moment every warp waiting on it is released, a bar.red result is written to each waiting
 * warp's destination for the lanes that arrived, and the barrier is reset for its next phase.
 */
#include "cta.h"

#include "func_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hd_func_cta_init(struct hd_func_cta *c, const struct hd_func_launch *l, uint64_t linear,
                     uint32_t smid, char *err, size_t errlen)
{
    const struct hd_func_kernel *k = l->k;
    memset(c, 0, sizeof *c);
    c->l = l;
    c->nwarps = l->warps_per_cta;
    size_t nreg = (size_t)k->nregs * HD_FUNC_WARP_SIZE;
    size_t nloc = (size_t)k->local_bytes * HD_FUNC_WARP_SIZE;
    if (c->nwarps && k->local_bytes > ((uint64_t)1 << 32) / HD_FUNC_WARP_SIZE / c->nwarps) {
        snprintf(err, errlen, "%s: one CTA of %u warps needs %llu bytes of local memory per "
                 "thread, more than the 4 GiB the functional model holds per CTA",
                 k->entry->name, c->nwarps, (unsigned long long)k->local_bytes);
        return HD_FUNC_ERR_MEMORY; /* before asking the host for it (was a 32 TiB calloc) */
    }
    c->smem = malloc(l->smem_bytes ? l->smem_bytes : 1);
    c->regs = calloc(nreg * c->nwarps + 1, sizeof *c->regs);
    c->local = calloc(nloc * c->nwarps + 1, 1);
    c->warps = malloc(c->nwarps * sizeof *c->warps);
    if (!c->smem || !c->regs || !c->local || !c->warps) {
        hd_func_cta_destroy(c);
        snprintf(err, errlen, "%s: host out of memory for a CTA (%u warps)", k->entry->name,
                 l->warps_per_cta);
        return HD_FUNC_ERR_MEMORY;
    }
    hd_func_cta_reset(c, linear, smid);
    return HD_FUNC_OK;
}

void hd_func_cta_reset(struct hd_func_cta *c, uint64_t linear, uint32_t smid)
{
    const struct hd_func_launch *l = c->l;
    const struct hd_func_kernel *k = l->k;
    size_t nreg = (size_t)k->nregs * HD_FUNC_WARP_SIZE;
    size_t nloc = (size_t)k->local_bytes * HD_FUNC_WARP_SIZE;
    c->linear = linear;
    c->smid = smid;
    hd_func_launch_cta_coords(l, linear, c->ctaid);
    /* Shared memory starts zeroed in every CTA. Registers and local memory are left as the
     * previous CTA in this slot left them (PTX leaves both undefined; compiled code writes
     * before it reads), which saves clearing every PTX register of every warp per CTA. */
    memset(c->smem, 0, l->smem_bytes);
    for (uint32_t i = 0; i < c->nwarps; i++)
        hd_func_warp_init(&c->warps[i], i, l->block, l->threads_per_cta, c->regs + nreg * i,
                          k->nregs, c->local + nloc * i, k->local_bytes);
    c->live_warps = c->nwarps;
    memset(c->bar, 0, sizeof c->bar);
    for (unsigned b = 0; b < HD_FUNC_NUM_BARRIERS; b++)
        c->bar[b].last_pc = -1;
}

void hd_func_cta_destroy(struct hd_func_cta *c)
{
    free(c->smem);
    free(c->regs);
    free(c->local);
    free(c->warps);
    c->smem = NULL;
    c->regs = NULL;
    c->local = NULL;
    c->warps = NULL;
}

static bool try_release(struct hd_func_cta *c, uint32_t id)
{
    struct hd_func_barrier *b = &c->bar[id];
    uint32_t expected = b->expected_warps ? b->expected_warps : c->live_warps;
    if (b->arrived == 0 || b->arrived < expected)
        return false;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct hd_func_warp *w = &c->warps[i];
        if (!w->at_barrier || w->bar_id != id)
            continue;
        if (w->bar_red && w->bar_dst >= 0) {
            uint64_t v;
            if (w->bar_red == HD_MODE_BAR_RED_POPC)
                v = b->red_popc;
            else if (w->bar_red == HD_MODE_BAR_RED_AND)
                v = b->red_and;
            else
                v = b->red_or;
            uint64_t *dst = w->regs + (size_t)w->bar_dst * HD_FUNC_WARP_SIZE;
            for (uint32_t l = 0; l < HD_FUNC_WARP_SIZE; l++)
                if (w->bar_mask >> l & 1u)
                    dst[l] = v;
        }
        w->at_barrier = false;
        w->bar_red = 0;
        w->bar_dst = -1;
    }
    int32_t pc = b->last_pc;
    c->bar_releases++;
    memset(b, 0, sizeof *b);
    b->last_pc = pc;
    b->red_and = true;
    return true;
}

bool hd_func_cta_bar_arrive(struct hd_func_cta *c, struct hd_func_warp *w, uint32_t id,
                            uint32_t count_threads, bool wait, uint8_t red, uint32_t lanes,
                            uint32_t pred_lanes, int32_t dst, int32_t pc)
{
    struct hd_func_barrier *b = &c->bar[id];
    if (b->arrived == 0) {
        b->red_popc = 0;
        b->red_and = true;
        b->red_or = false;
    }
    b->arrived++;
    b->last_pc = pc;
    if (count_threads)
        b->expected_warps = count_threads / HD_FUNC_WARP_SIZE;
    if (red) {
        b->red_popc += (uint32_t)__builtin_popcount(pred_lanes);
        if (pred_lanes != lanes)
            b->red_and = false;
        if (pred_lanes)
            b->red_or = true;
    }
    if (wait) {
        w->at_barrier = true;
        w->bar_id = (uint8_t)id;
        w->bar_red = red;
        w->bar_dst = dst;
        w->bar_mask = lanes;
        w->bar_pc = (uint32_t)pc;
    }
    return try_release(c, id);
}

bool hd_func_cta_warp_done(struct hd_func_cta *c, struct hd_func_warp *w)
{
    (void)w;
    if (c->live_warps > 0)
        c->live_warps--;
    bool released = false;
    for (uint32_t id = 0; id < HD_FUNC_NUM_BARRIERS; id++)
        if (c->bar[id].arrived && !c->bar[id].expected_warps)
            released |= try_release(c, id);
    return released;
}
