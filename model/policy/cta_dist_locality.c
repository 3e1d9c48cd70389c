/* SPDX-License-Identifier: MIT
 * cta_dist_locality.c - Gong ch.6's locality-aware block distributor: hint 0 round-robin,
 * hints 1-3 chunks of adjacent CTAs per SM.
 *
 * Design: see cta_dist_locality.h.
 */
#include "cta_dist_locality.h"

#include <stdlib.h>

#define NONE UINT32_MAX

struct loc_state {
    uint32_t n;
    uint32_t chunk;              /* [timing] cta_dist_chunk (0: auto) */
    enum hd_cfg_chunkorder order;
    uint32_t last;               /* SM of the previous placement (n - 1 before the first) */
    uint64_t in_chunk;           /* CTAs of the current chunk on `last` */
    uint32_t chunk_launch;       /* launch of the current chunk (NONE: none yet) */
    uint32_t pending_launch;     /* launch of the CTA pick() was last asked for */
    bool pending_chunked;        /* ... and whether it is placed in chunks (hint 1-3) */
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
    s->pending_chunked = HD_LOCALITY_HINT(r->hint) != 0;
    if (!s->pending_chunked) /* Table 6.1 hint 0: the default (round-robin) distributor */
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

static void loc_reset(void *impl)
{
    struct loc_state *s = impl;
    s->last = s->n - 1;
    s->in_chunk = 0;
    s->chunk_launch = NONE;
}

static void loc_destroy(void *impl)
{
    free(impl);
}

static const struct hd_cta_dist_ops loc_ops = {"locality", loc_pick, loc_placed, loc_reset,
                                               loc_destroy};

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
