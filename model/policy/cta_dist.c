/* SPDX-License-Identifier: MIT
 * cta_dist.c - the round-robin, fill-first and hint-mask CTA distribution policies.
 *
 * Design: see cta_dist.h. State: the SM that received the last CTA.
 */
#include "cta_dist.h"

#include <stdlib.h>

struct dist_state {
    uint32_t n;
    uint32_t last; /* SM of the previous placement (n - 1 before the first, so SM 0 comes first) */
};

static int rr_pick(void *impl, const struct hd_cta_dist_req *r, const bool *ok, const bool *busy,
                   uint32_t n)
{
    const struct dist_state *s = impl;
    (void)r;
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t i = (s->last + k) % n;
        if (ok[i] && !busy[i])
            return (int)i;
    }
    return -1;
}

static int ff_pick(void *impl, const struct hd_cta_dist_req *r, const bool *ok, const bool *busy,
                   uint32_t n)
{
    (void)impl;
    (void)r;
    for (uint32_t i = 0; i < n; i++)
        if (ok[i])
            return busy[i] ? -1 : (int)i;
    return -1;
}

/* sm_mask: round-robin over the SMs the launch's hint names (bit i % 32: SM i), every SM when
 * the hint is 0 (issue 25 item 7: the launch hint reaches the distributor). */
static int mask_pick(void *impl, const struct hd_cta_dist_req *r, const bool *ok,
                     const bool *busy, uint32_t n)
{
    const struct dist_state *s = impl;
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t i = (s->last + k) % n;
        if (ok[i] && !busy[i] && (r->hint == 0 || (r->hint >> (i % 32) & 1u)))
            return (int)i;
    }
    return -1;
}

static void dist_placed(void *impl, uint32_t sm)
{
    struct dist_state *s = impl;
    s->last = sm;
}

static void dist_reset(void *impl)
{
    struct dist_state *s = impl;
    s->last = s->n - 1;
}

static void dist_destroy(void *impl)
{
    free(impl);
}

static const struct hd_cta_dist_ops rr_ops = {"round_robin", rr_pick, dist_placed, dist_reset,
                                              dist_destroy, NULL};
static const struct hd_cta_dist_ops ff_ops = {"fill_first", ff_pick, dist_placed, dist_reset,
                                              dist_destroy, NULL};
static const struct hd_cta_dist_ops mask_ops = {"sm_mask", mask_pick, dist_placed, dist_reset,
                                                dist_destroy, NULL};

int hd_cta_dist_create(enum hd_cfg_ctadist kind, uint32_t nsms, struct hd_cta_dist *out)
{
    struct dist_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->n = nsms ? nsms : 1;
    s->last = s->n - 1;
    out->ops = kind == HD_CTADIST_FILL_FIRST ? &ff_ops : kind == HD_CTADIST_SM_MASK ? &mask_ops
                                                                              : &rr_ops;
    out->impl = s;
    return 0;
}
