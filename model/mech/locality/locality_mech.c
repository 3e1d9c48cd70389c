/* SPDX-License-Identifier: MIT
 * locality_mech.c - Gong ch.6's registry entry (model/policy/mech.h): the locality policies
 * themselves are generic ([timing] cta_dist = locality, [sm] scheduler = locality in
 * model/policy); this mechanism puts their blocks in the loop as a hook when [locality] blocks
 * is set (locality_loop.h, docs/blocks/locality.md "In the loop").
 */
#include "locality_loop.h"

#include "mech.h"

#include <stdio.h>
#include <stdlib.h>

static int hk_start(void *impl, char *err, size_t errlen)
{
    return hd_locality_loop_make(impl, err, errlen);
}

static void hk_destroy(void *impl)
{
    hd_locality_loop_destroy(impl);
}

static void hk_sched_warp(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                          const struct hd_warp_view *v, uint64_t now)
{
    (void)now;
    hd_locality_loop_warp(impl, sm, slot, ev, v);
}

static int hk_sched_order(void *impl, uint32_t sm, uint32_t sched, const uint32_t *w, unsigned n,
                          uint32_t *order, unsigned k, uint64_t now, char *err, size_t errlen)
{
    return hd_locality_loop_order(impl, sm, sched, w, n, order, k, now, err, errlen);
}

static void hk_dist_reset(void *impl, uint64_t now)
{
    (void)now;
    hd_locality_loop_dist_reset(impl);
}

static int hk_dist_pick(void *impl, const struct hd_cta_dist_req *r, const bool *ok,
                        const bool *busy, uint32_t n, int *pick, uint64_t now, char *err,
                        size_t errlen)
{
    return hd_locality_loop_pick(impl, r, ok, busy, n, pick, now, err, errlen);
}

/* (the scheduler's and the distributor's events only when that policy is the run's) */
static const struct hd_hook_ops hook_both = {
    .name = "locality", .start = hk_start, .destroy = hk_destroy, .sched_warp = hk_sched_warp,
    .sched_order = hk_sched_order, .dist_reset = hk_dist_reset, .dist_pick = hk_dist_pick,
};
static const struct hd_hook_ops hook_sched = {
    .name = "locality", .start = hk_start, .destroy = hk_destroy, .sched_warp = hk_sched_warp,
    .sched_order = hk_sched_order,
};
static const struct hd_hook_ops hook_dist = {
    .name = "locality", .start = hk_start, .destroy = hk_destroy, .dist_reset = hk_dist_reset,
    .dist_pick = hk_dist_pick,
};

static int locality_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                           size_t errlen)
{
    out->ops = NULL;
    out->impl = NULL;
    const struct hd_gpu_timing_params *p = env->p;
    const bool sched = p->sm.sched == HD_SCHED_LOCALITY, dist = p->cta_dist == HD_CTADIST_LOCALITY;
    if (!p->loc.blocks)
        return 0;
    if (!sched && !dist) {
        snprintf(err, errlen, "key 'blocks': [locality] blocks = true needs [timing] cta_dist = "
                 "locality or [sm] scheduler = locality (the policies the blocks implement)");
        return -1;
    }
    struct hd_locality_loop *L = hd_locality_loop_create(p, env->hw, err, errlen);
    if (!L)
        return -1;
    out->ops = sched && dist ? &hook_both : sched ? &hook_sched : &hook_dist;
    out->impl = L;
    return 0;
}

const struct hd_mech hd_mech_locality = {
    "locality",
    "Gong thesis ch.6 §6.3: the locality-aware block distributor and warp-group scheduler as "
    "blocks in the loop beside their policies (model/policy/cta_dist_locality.c, "
    "sm_sched_locality.c)",
    NULL, 0, NULL, 0, locality_attach,
};
