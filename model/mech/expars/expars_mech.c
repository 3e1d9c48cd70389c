/* SPDX-License-Identifier: MIT
 * expars_mech.c - EXPARS's registry entry (Yu et al., "Improving Thread-level Parallelism in GPUs
 * Through Expanding Register File to Scratchpad Memory", TACO 2018; model/policy/mech.h,
 * docs/expars.md): selected per run by [sm] allocator = expars. The allocator is served through
 * the registry's allocator table; attach() then returns a hook whose only callback, oloc,
 * installs the operand-location policy on every SM over that SM's EXPARS allocator.
 */
#include "expars_mech.h"

#include <stdio.h>
#include <stdlib.h>

static const struct hd_mech_alloc expars_allocs[] = {
    {HD_ALLOC_EXPARS, hd_expars_alloc_create},
};

struct ex_hook {
    const struct hd_gpu_timing_params *p;
};

static int hk_oloc(void *impl, uint32_t sm, const struct hd_sm_alloc *alloc,
                   const struct hd_oloc_ops **ops, void **oimpl, char *err, size_t errlen)
{
    const struct ex_hook *h = impl;
    return hd_expars_oloc_create(&h->p->sm, sm, alloc, ops, oimpl, err, errlen);
}

static void hk_destroy(void *impl)
{
    free(impl);
}

static const struct hd_hook_ops expars_hook_ops = {
    .name = "expars",
    .destroy = hk_destroy,
    .oloc = hk_oloc,
};

static int expars_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                         size_t errlen)
{
    if (env->p->sm.alloc != HD_ALLOC_EXPARS)
        return 0;
    struct ex_hook *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "host out of memory creating EXPARS");
        return -1;
    }
    h->p = env->p;
    *out = (struct hd_hook){&expars_hook_ops, h};
    return 0;
}

const struct hd_mech hd_mech_expars = {
    "expars",
    "Yu et al. TACO 2018 (EXPARS): maximum-CTA calculator (§3.3.1), resource allocator "
    "(§3.3.2), RAT (§3.3.3), operand cache (§3.3.4, §3.3.7), bank arbitrator (§3.3.5)",
    expars_allocs, sizeof expars_allocs / sizeof expars_allocs[0],
    NULL, 0, expars_attach,
};
