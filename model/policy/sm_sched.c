/* SPDX-License-Identifier: MIT
 * sm_sched.c - the LRR, GTO and two-level warp-scheduling policies.
 *
 * Design: see sm_sched.h. State per policy: the age of each slot it owns, the last warp that
 * issued, and for two-level the active set (an array in insertion order) and the pending pool
 * (a FIFO). Orders are computed over the ready warps only; ties never depend on anything but
 * slot numbers and ages, so scheduling is deterministic. GTO also keeps its resident warps in
 * (age, slot) order (session 25, for speed: a large ready set is read off that list instead of being
 * sorted each cycle; the sort remains for small ones and for a ready warp not in the list, the
 * same order either way).
 */
#include "sm_sched.h"
#include "sm_sched_ext.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct sched_state {
    uint32_t max;         /* slots */
    uint64_t *age;        /* [max]; UINT64_MAX when not resident */
    /* GTO: the resident warps by (age, slot) ascending, and the stamp of the ready set ordered */
    uint32_t *by_age;     /* [max] */
    uint32_t nres;
    uint64_t *mark;       /* [max] = stamp: in the ready set being ordered */
    uint64_t stamp;
    uint32_t last;        /* warp that issued last, or NONE */
    /* two-level */
    uint32_t active_cap;
    uint32_t *active;     /* [active_cap] */
    uint32_t nactive;
    uint32_t *pend;       /* FIFO ring [max] */
    uint32_t phead, npend;
    bool *in_active;      /* [max] */
};

/* {==== Common ==== */
static void common_add(void *impl, uint32_t w, uint64_t age)
{
    struct sched_state *s = impl;
    if (w < s->max)
        s->age[w] = age;
}

static void common_remove(void *impl, uint32_t w)
{
    struct sched_state *s = impl;
    if (w < s->max)
        s->age[w] = UINT64_MAX;
    if (s->last == w)
        s->last = NONE;
}

static void common_issued(void *impl, uint32_t w)
{
    struct sched_state *s = impl;
    s->last = w;
}

static void common_long_wait(void *impl, uint32_t w)
{
    (void)impl;
    (void)w;
}

static void sched_destroy(void *impl)
{
    struct sched_state *s = impl;
    if (!s)
        return;
    free(s->age);
    free(s->by_age);
    free(s->mark);
    free(s->active);
    free(s->pend);
    free(s->in_active);
    free(s);
}

/* ready[] rotated to start after `last` (round-robin order) */
static unsigned rotate_after(const uint32_t *ready, unsigned n, uint32_t last, uint32_t *out)
{
    unsigned start = 0;
    if (last != NONE)
        while (start < n && ready[start] <= last)
            start++;
    for (unsigned i = 0; i < n; i++)
        out[i] = ready[(start + i) % n];
    return n;
}
/* }==== */

/* {==== LRR ==== */
static unsigned lrr_order(void *impl, const struct hd_sched_env *env, const uint32_t *ready,
                          unsigned n, uint32_t *out)
{
    struct sched_state *s = impl;
    (void)env;
    return rotate_after(ready, n, s->last, out);
}

static const struct hd_sched_ops lrr_ops = {"lrr",         false,         common_add,
                                            common_remove, lrr_order,     common_issued,
                                            common_long_wait, sched_destroy};
/* }==== */

/* {==== GTO ==== */
/* The age-ordered list (a warp's age is the SM's next on arrival, so it goes at the end; the
 * search from the end keeps any order of (age, slot) exact). */
static void gto_unlist(struct sched_state *s, uint32_t w)
{
    for (uint32_t i = 0; i < s->nres; i++)
        if (s->by_age[i] == w) {
            memmove(&s->by_age[i], &s->by_age[i + 1], (s->nres - i - 1) * sizeof *s->by_age);
            s->nres--;
            return;
        }
}

static void gto_add(void *impl, uint32_t w, uint64_t age)
{
    struct sched_state *s = impl;
    if (w >= s->max)
        return;
    gto_unlist(s, w);
    common_add(impl, w, age);
    uint32_t j = s->nres++;
    while (j > 0 && (s->age[s->by_age[j - 1]] > age ||
                     (s->age[s->by_age[j - 1]] == age && s->by_age[j - 1] > w))) {
        s->by_age[j] = s->by_age[j - 1];
        j--;
    }
    s->by_age[j] = w;
}

static void gto_remove(void *impl, uint32_t w)
{
    struct sched_state *s = impl;
    if (w < s->max)
        gto_unlist(s, w);
    common_remove(impl, w);
}

/* The order of the insertion sort below from the age-ordered list: the ready warps marked,
 * the list walked. Returns 0 when a ready warp is not in the list (the sort decides then). */
static unsigned gto_listed(struct sched_state *s, const uint32_t *ready, unsigned n,
                           uint32_t *out)
{
    const uint64_t st = ++s->stamp;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (ready[i] >= s->max || s->age[ready[i]] == UINT64_MAX)
            return 0;
        s->mark[ready[i]] = st;
        if (ready[i] == s->last)
            out[k++] = ready[i];
    }
    for (uint32_t i = 0; i < s->nres; i++) {
        const uint32_t w = s->by_age[i];
        if (s->mark[w] == st && w != s->last)
            out[k++] = w;
    }
    return k == n ? k : 0;
}

static unsigned gto_order(void *impl, const struct hd_sched_env *env, const uint32_t *ready,
                          unsigned n, uint32_t *out)
{
    struct sched_state *s = impl;
    (void)env;
    /* (the list walk costs about 2n + resident steps, the sort n + its inversions, about n^2 / 4:
       the list for large ready sets; both give the same order) */
    if (n * n > 8u * n + 4u * s->nres && gto_listed(s, ready, n, out) == n)
        return n;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (ready[i] == s->last)
            out[k++] = ready[i];
    unsigned first = k;
    for (unsigned i = 0; i < n; i++) {
        uint32_t w = ready[i];
        if (w == s->last)
            continue;
        /* insertion by age (ready sets are small) */
        unsigned j = k++;
        while (j > first && s->age[out[j - 1]] > s->age[w]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = w;
    }
    return k;
}

static const struct hd_sched_ops gto_ops = {"gto",         false,         gto_add,
                                            gto_remove,    gto_order,     common_issued,
                                            common_long_wait, sched_destroy};
/* }==== */

/* {==== Two-level ==== */
static void pend_push(struct sched_state *s, uint32_t w)
{
    s->pend[(s->phead + s->npend) % s->max] = w;
    s->npend++;
}

static void fill_active(struct sched_state *s)
{
    while (s->nactive < s->active_cap && s->npend) {
        uint32_t w = s->pend[s->phead];
        s->phead = (s->phead + 1) % s->max;
        s->npend--;
        s->active[s->nactive++] = w;
        s->in_active[w] = true;
    }
}

static void drop_active(struct sched_state *s, uint32_t w)
{
    for (uint32_t i = 0; i < s->nactive; i++)
        if (s->active[i] == w) {
            memmove(&s->active[i], &s->active[i + 1], (s->nactive - i - 1) * sizeof *s->active);
            s->nactive--;
            break;
        }
    s->in_active[w] = false;
}

static void drop_pending(struct sched_state *s, uint32_t w)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->npend; i++) {
        uint32_t v = s->pend[(s->phead + i) % s->max];
        if (v != w)
            s->pend[(s->phead + k++) % s->max] = v;
    }
    s->npend = k;
}

static void tl_add(void *impl, uint32_t w, uint64_t age)
{
    struct sched_state *s = impl;
    if (w >= s->max)
        return;
    common_add(impl, w, age);
    pend_push(s, w);
    fill_active(s);
}

static void tl_remove(void *impl, uint32_t w)
{
    struct sched_state *s = impl;
    if (w >= s->max)
        return;
    common_remove(impl, w);
    if (s->in_active[w])
        drop_active(s, w);
    else
        drop_pending(s, w);
    fill_active(s);
}

static void tl_long_wait(void *impl, uint32_t w)
{
    struct sched_state *s = impl;
    if (w >= s->max || !s->in_active[w] || s->npend == 0)
        return;
    drop_active(s, w);
    pend_push(s, w);
    fill_active(s);
}

static void reverse(uint32_t *v, unsigned a, unsigned b) /* [a, b) */
{
    while (a + 1 < b) {
        uint32_t t = v[a];
        v[a++] = v[--b];
        v[b] = t;
    }
}

/* A warp that cannot issue until others move: it waits at a barrier or fence, or for a long
 * load, or in a mechanism's prefetching queue (mech.h pooled). */
bool hd_sched_warp_waits(const struct hd_sched_env *env, uint32_t w)
{
    struct hd_warp_view v;
    env->view(env->sm, w, &v);
    return v.state == HD_WV_BARRIER || v.state == HD_WV_MEMBAR ||
           (v.state == HD_WV_WAIT_MEM && v.long_loads > 0) || v.pooled;
}

/* Exchange each waiting warp of the active set for the oldest pending warp that is not waiting
 * (it takes the same position; the waiting one goes to the back of the pending queue). A warp
 * is moved out when its long wait begins (tl_long_wait), but the pending queue may hand back a
 * warp that still waits at a barrier: an active set full of such warps, whose CTAs' other warps
 * are pending, would never issue again. */
static void tl_refresh(struct sched_state *s, const struct hd_sched_env *env)
{
    if (!env || !env->view) /* no SM to ask (a policy driven on its own, as in unit tests) */
        return;
    for (uint32_t i = 0; i < s->nactive && s->npend; i++) {
        const uint32_t w = s->active[i];
        if (!hd_sched_warp_waits(env, w))
            continue;
        uint32_t j = 0;
        while (j < s->npend && hd_sched_warp_waits(env, s->pend[(s->phead + j) % s->max]))
            j++;
        if (j == s->npend)
            return; /* every pending warp waits too */
        const uint32_t v = s->pend[(s->phead + j) % s->max];
        drop_pending(s, v);
        pend_push(s, w);
        s->in_active[w] = false;
        s->active[i] = v;
        s->in_active[v] = true;
    }
}

static unsigned tl_order(void *impl, const struct hd_sched_env *env, const uint32_t *ready,
                         unsigned n, uint32_t *out)
{
    struct sched_state *s = impl;
    tl_refresh(s, env);
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) /* the ready warps of the active set, slot order */
        if (s->in_active[ready[i]])
            out[k++] = ready[i];
    unsigned start = 0;
    if (s->last != NONE)
        while (start < k && out[start] <= s->last)
            start++;
    if (start > 0 && start < k) { /* rotate left by `start` */
        reverse(out, 0, start);
        reverse(out, start, k);
        reverse(out, 0, k);
    }
    return k;
}

static const struct hd_sched_ops tl_ops = {"two_level", false,         tl_add,
                                           tl_remove,   tl_order,      common_issued,
                                           tl_long_wait, sched_destroy};
/* }==== */

int hd_sched_create(const struct hd_sm_params *p, struct hd_sched *out)
{
    if (p->sched == HD_SCHED_LTLWS_LRR || p->sched == HD_SCHED_LTLWS_GTO)
        return hd_sched_ltlws_create(p, out); /* EXPARS's lazy two-level (sm_sched_ltlws.c) */
    struct sched_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->max = p->max_warps;
    s->last = NONE;
    s->age = malloc(s->max * sizeof *s->age);
    s->by_age = calloc(s->max, sizeof *s->by_age);
    s->mark = calloc(s->max, sizeof *s->mark);
    s->active_cap = p->sched_active ? p->sched_active : 1;
    s->active = calloc(s->active_cap, sizeof *s->active);
    s->pend = calloc(s->max, sizeof *s->pend);
    s->in_active = calloc(s->max, sizeof *s->in_active);
    if (!s->age || !s->by_age || !s->mark || !s->active || !s->pend || !s->in_active) {
        sched_destroy(s);
        return -1;
    }
    for (uint32_t i = 0; i < s->max; i++)
        s->age[i] = UINT64_MAX;
    switch (p->sched) { /* the policies of sm_sched_ext.h have their own state */
    case HD_SCHED_LOCALITY:
        sched_destroy(s);
        return hd_sched_locality_create(p, out);
    case HD_SCHED_CTA_AWARE:
        sched_destroy(s);
        return hd_sched_cta_aware_create(p, out);
    case HD_SCHED_MASCAR:
        sched_destroy(s);
        return hd_sched_mascar_create(p, out);
    case HD_SCHED_LRR:
        out->ops = &lrr_ops;
        break;
    case HD_SCHED_TWO_LEVEL:
        out->ops = &tl_ops;
        break;
    default:
        out->ops = &gto_ops;
        break;
    }
    out->impl = s;
    return 0;
}
