/* SPDX-License-Identifier: MIT
 * sm_sched_mascar.c - MASCAR-style warp scheduling (Sethia et al., HPCA 2015), a baseline of
 * Gong's ch.6 (digest Appendix A: +7.7 % over RR; better than locality-aware on MVT and BS).
 *
 * Design: see sm_sched_ext.h. MASCAR has two modes. Compute priority while memory is not
 * saturated: GTO. Memory priority while it is: one owner warp may issue memory requests, the
 * others only compute, so that the owner's requests go out together and it resumes first.
 * The memory-saturation signal of the paper is the L1's MSHRs or miss queue being full; a warp
 * scheduler sees its warps only, so here memory counts as saturated while at least half of the
 * scheduler's resident warps (and at least two) wait on a long-latency load (their view's
 * long_loads > 0). In memory priority the owner (kept while it stays resident, else the oldest
 * warp with loads in flight, else the oldest ready) goes first, then the warps without loads in
 * flight (they compute), then the rest, each by age. A scheduler cannot tell a memory
 * instruction from the view, so the others are not barred from memory instructions; MASCAR's
 * cache-access re-execution queue is an L1 change and is not modelled (docs/locality.md).
 * offer_blocked: the policy sees every resident warp, to count the waiting ones.
 */
#include "sm_sched_ext.h"

#include <stdlib.h>

#define NONE UINT32_MAX

struct mascar {
    uint32_t max;
    uint64_t *age;       /* [max]; UINT64_MAX when not resident */
    uint8_t *cls;        /* [max] scratch: 0 owner, 1 no loads in flight, 2 the rest */
    uint32_t last, owner;
};

static void ms_add(void *impl, uint32_t w, uint64_t age)
{
    struct mascar *s = impl;
    if (w < s->max)
        s->age[w] = age;
}

static void ms_remove(void *impl, uint32_t w)
{
    struct mascar *s = impl;
    if (w >= s->max)
        return;
    s->age[w] = UINT64_MAX;
    if (s->last == w)
        s->last = NONE;
    if (s->owner == w)
        s->owner = NONE;
}

static void ms_issued(void *impl, uint32_t w)
{
    struct mascar *s = impl;
    s->last = w;
}

static void ms_long_wait(void *impl, uint32_t w)
{
    (void)impl;
    (void)w;
}

static void ms_destroy(void *impl)
{
    struct mascar *s = impl;
    if (!s)
        return;
    free(s->age);
    free(s->cls);
    free(s);
}

static bool prior(const struct mascar *s, uint32_t a, uint32_t b)
{
    if (s->cls[a] != s->cls[b])
        return s->cls[a] < s->cls[b];
    return s->age[a] != s->age[b] ? s->age[a] < s->age[b] : a < b;
}

static unsigned ms_order(void *impl, const struct hd_sched_env *env, const uint32_t *w,
                         unsigned n, uint32_t *out)
{
    struct mascar *s = impl;
    unsigned waiting = 0, resident = 0;
    uint32_t oldest_wait = NONE, oldest_ready = NONE;
    for (unsigned i = 0; i < n; i++) {
        struct hd_warp_view v;
        env->view(env->sm, w[i], &v);
        if (v.state == HD_WV_DRAIN || v.state == HD_WV_OTHER) {
            s->cls[w[i]] = 3; /* finishing or not schedulable: last */
            continue;
        }
        resident++;
        s->cls[w[i]] = v.long_loads ? 2 : 1;
        if (v.long_loads) {
            waiting++;
            if (oldest_wait == NONE || s->age[w[i]] < s->age[oldest_wait])
                oldest_wait = w[i];
        }
        if (v.state == HD_WV_READY &&
            (oldest_ready == NONE || s->age[w[i]] < s->age[oldest_ready]))
            oldest_ready = w[i];
    }
    const bool saturated = waiting >= 2 && 2 * waiting >= resident;
    if (saturated) {
        if (s->owner == NONE || s->age[s->owner] == UINT64_MAX)
            s->owner = oldest_wait != NONE ? oldest_wait : oldest_ready;
        if (s->owner != NONE)
            s->cls[s->owner] = 0;
    } else { /* compute priority: GTO (the last issuer, then by age) */
        s->owner = NONE;
        for (unsigned i = 0; i < n; i++)
            if (s->cls[w[i]] != 3)
                s->cls[w[i]] = w[i] == s->last ? 0 : 1;
    }
    for (unsigned i = 0; i < n; i++) {
        uint32_t x = w[i];
        unsigned j = i;
        while (j > 0 && prior(s, x, out[j - 1])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    return n;
}

static const struct hd_sched_ops ms_ops = {"mascar", true,        ms_add,       ms_remove,
                                           ms_order, ms_issued,   ms_long_wait, ms_destroy};

int hd_sched_mascar_create(const struct hd_sm_params *p, struct hd_sched *out)
{
    struct mascar *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->max = p->max_warps;
    s->last = s->owner = NONE;
    s->age = malloc(s->max * sizeof *s->age);
    s->cls = calloc(s->max, sizeof *s->cls);
    if (!s->age || !s->cls) {
        ms_destroy(s);
        return -1;
    }
    for (uint32_t i = 0; i < s->max; i++)
        s->age[i] = UINT64_MAX;
    out->ops = &ms_ops;
    out->impl = s;
    return 0;
}
