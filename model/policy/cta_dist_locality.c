/* SPDX-License-Identifier: MIT
 * cta_dist_locality.c - Gong ch.6's locality-aware block distributor: hint 0 round-robin,
 * hints 1-3 chunks of adjacent CTAs per SM.
 *
 * Design: see cta_dist_locality.h.
 */
#include "cta_dist_locality.h"

#include <stdlib.h>

#define NONE UINT32_MAX

/* cta_dist_order = keep: one launch's ranges. SM i owns the linear CTA indices [i * C, (i + 1)
 * * C) (clipped to the launch); its unplaced ones are [p[i], e[i]). */
struct keep_launch {
    uint32_t launch;
    uint64_t left;               /* fresh CTAs not yet placed */
    uint64_t *p, *e;             /* [n] */
};

struct loc_state {
    uint32_t n;
    uint32_t chunk;              /* [timing] cta_dist_chunk (0: auto) */
    enum hd_cfg_chunkorder order;
    uint32_t last;               /* SM of the previous placement (n - 1 before the first) */
    uint64_t in_chunk;           /* CTAs of the current chunk on `last` */
    uint32_t chunk_launch;       /* launch of the current chunk (NONE: none yet) */
    uint32_t pending_launch;     /* launch of the CTA pick() was last asked for */
    bool pending_chunked;        /* ... and whether it is placed in chunks (hint 1-3) */
    struct keep_launch *kl;      /* cta_dist_order = keep: the launches with fresh CTAs left */
    unsigned nkl;
};

/* the first SM after `from` (ring order) that may take a CTA now, or -1 */
static int next_free(uint32_t from, const bool *ok, const bool *busy, uint32_t n)
{
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t i = (from + k) % n;
        if (ok[i] && !busy[i])
            return (int)i;
    }
    return -1;
}

static uint64_t chunk_of(const struct loc_state *s, const struct hd_cta_dist_req *r)
{
    if (s->chunk)
        return s->chunk;
    uint64_t c = (r->nctas + s->n - 1) / s->n;
    return c ? c : 1;
}

static int loc_pick(void *impl, const struct hd_cta_dist_req *r, const bool *ok, const bool *busy,
                    uint32_t n)
{
    struct loc_state *s = impl;
    s->pending_launch = r->launch;
    s->pending_chunked = HD_LOCALITY_HINT(r->hint) != 0 && s->order != HD_CHUNK_KEEP;
    if (!s->pending_chunked) /* Table 6.1 hint 0: the default (round-robin) distributor; keep:
                                every SM with room may take a CTA (of its range, or stolen) */
        return next_free(s->last, ok, busy, n);
    const uint64_t c = chunk_of(s, r);
    if (s->order == HD_CHUNK_COLUMN) {
        const uint64_t gx = r->grid[0] ? r->grid[0] : 1, gy = r->grid[1] ? r->grid[1] : 1;
        const uint64_t pos = (uint64_t)r->ctaid[0] * gy + r->ctaid[1] +
                             (uint64_t)r->ctaid[2] * gx * gy;
        const uint32_t t = (uint32_t)(pos / c % n);
        if (ok[t])
            return busy[t] ? -1 : (int)t;
        return next_free(t, ok, busy, n);
    }
    if (s->chunk_launch == r->launch && s->in_chunk < c && ok[s->last])
        return busy[s->last] ? -1 : (int)s->last; /* the chunk goes on next cycle */
    return next_free(s->last, ok, busy, n);
}

static void loc_placed(void *impl, uint32_t sm)
{
    struct loc_state *s = impl;
    if (s->pending_chunked && sm == s->last && s->chunk_launch == s->pending_launch) {
        s->in_chunk++;
    } else {
        s->in_chunk = 1;
        s->chunk_launch = s->pending_chunked ? s->pending_launch : NONE;
    }
    s->last = sm;
}

/* cta_dist_order = keep: the launch's ranges, made at its first fresh CTA (NULL: out of
 * memory). C = max([timing] cta_dist_chunk, ceil(CTAs / SMs)), so the ranges cover the launch. */
static struct keep_launch *keep_of(struct loc_state *s, const struct hd_cta_dist_req *r)
{
    for (unsigned i = 0; i < s->nkl; i++)
        if (s->kl[i].launch == r->launch)
            return &s->kl[i];
    struct keep_launch *kl = realloc(s->kl, (s->nkl + 1) * sizeof *kl);
    if (!kl)
        return NULL;
    s->kl = kl;
    struct keep_launch *k = &kl[s->nkl];
    *k = (struct keep_launch){r->launch, r->nctas, calloc(s->n, sizeof *k->p),
                              calloc(s->n, sizeof *k->e)};
    if (!k->p || !k->e) {
        free(k->p);
        free(k->e);
        return NULL;
    }
    s->nkl++;
    uint64_t c = (r->nctas + s->n - 1) / s->n;
    if (s->chunk > c)
        c = s->chunk;
    for (uint32_t i = 0; i < s->n; i++) {
        k->p[i] = (uint64_t)i * c < r->nctas ? (uint64_t)i * c : r->nctas;
        k->e[i] = k->p[i] + c < r->nctas ? k->p[i] + c : r->nctas;
    }
    return k;
}

static uint64_t loc_cta(void *impl, const struct hd_cta_dist_req *r, uint32_t sm)
{
    struct loc_state *s = impl;
    if (s->order != HD_CHUNK_KEEP || HD_LOCALITY_HINT(r->hint) == 0)
        return r->cta; /* linear order */
    struct keep_launch *k = keep_of(s, r);
    if (!k)
        return UINT64_MAX; /* host out of memory */
    uint64_t cta = r->cta;
    if (k->p[sm] < k->e[sm]) {
        cta = k->p[sm]++; /* the SM's own range continues */
    } else {
        /* its range is used up: the last unplaced CTA of the first SM after it (ring order)
         * that has some, so no SM waits while CTAs do, and the victim keeps its front */
        for (uint32_t d = 1; d < s->n; d++) {
            const uint32_t v = (sm + d) % s->n;
            if (k->p[v] < k->e[v]) {
                cta = --k->e[v];
                break;
            }
        }
    }
    if (--k->left == 0) {
        free(k->p);
        free(k->e);
        *k = s->kl[--s->nkl];
    }
    return cta;
}

static void loc_reset(void *impl)
{
    struct loc_state *s = impl;
    s->last = s->n - 1;
    s->in_chunk = 0;
    s->chunk_launch = NONE;
}

static void loc_destroy(void *impl)
{
    struct loc_state *s = impl;
    for (unsigned i = 0; i < s->nkl; i++) {
        free(s->kl[i].p);
        free(s->kl[i].e);
    }
    free(s->kl);
    free(impl);
}

static const struct hd_cta_dist_ops loc_ops = {"locality", loc_pick, loc_placed, loc_reset,
                                               loc_destroy, loc_cta};

int hd_cta_dist_locality_create(uint32_t nsms, uint32_t chunk, enum hd_cfg_chunkorder order,
                                struct hd_cta_dist *out)
{
    struct loc_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->n = nsms ? nsms : 1;
    s->chunk = chunk;
    s->order = order;
    loc_reset(s);
    out->ops = &loc_ops;
    out->impl = s;
    return 0;
}
