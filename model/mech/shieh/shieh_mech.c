/* SPDX-License-Identifier: MIT
 * shieh_mech.c - Shieh's registry entry (shieh_mech.h, model/policy/mech.h): the allocator and
 * policies it implements, and its tables in the loop as a hook.
 */
#include "shieh_mech.h"

#include "drain_profile.h"
#include "shieh_alloc_aligned.h"
#include "shieh_loop.h"

#include "func_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {==== Policies ==== */
static int make_shieh(const struct hd_mech_env *env, struct hd_preempt_policy *out, char *err,
                      size_t errlen)
{
    return hd_preempt_shieh_create(env->p, false, NULL, out, err, errlen);
}

static int make_oracle(const struct hd_mech_env *env, struct hd_preempt_policy *out, char *err,
                       size_t errlen)
{
    return hd_preempt_oracle_create(env->p, out, err, errlen);
}

static int make_chimera(const struct hd_mech_env *env, struct hd_preempt_policy *out, char *err,
                        size_t errlen)
{
    return hd_preempt_chimera_create(env->p, false, out, err, errlen);
}

static int make_chimera_plus(const struct hd_mech_env *env, struct hd_preempt_policy *out,
                             char *err, size_t errlen)
{
    return hd_preempt_chimera_create(env->p, true, out, err, errlen);
}
/* }==== */

/* {==== The tables and the Oracle's profile as a hook ==== */
struct shieh_hook {
    struct hd_shieh_loop *L;                /* the tables in the loop, or NULL */
    struct hd_drain_profile_owned *oracle;  /* the Oracle's profile (its kernel names), or NULL */
    const char *path;                       /* ... the file it came from (the GPU's params) */
};

static int hk_start(void *impl, char *err, size_t errlen)
{
    const struct shieh_hook *h = impl;
    return h->L ? hd_shieh_loop_make(h->L, err, errlen) : 0;
}

static int hk_launch(void *impl, uint32_t launch, uint32_t kernel, const char *name, char *err,
                     size_t errlen)
{
    const struct shieh_hook *h = impl;
    const char *pk = h->oracle ? hd_drain_profile_kernel(h->oracle, launch) : NULL;
    if (pk && strcmp(pk, name) != 0) { /* the profile of another run */
        snprintf(err, errlen, "key 'oracle_profile': %s names kernel %s for launch %u, but "
                 "launch %u of this run is kernel %s (a profile of another workload or mix?)",
                 h->path, pk, launch, launch, name);
        return HD_FUNC_ERR_CONFIG;
    }
    if (h->L && hd_shieh_loop_launch_kernel(h->L, launch, kernel) != 0) {
        snprintf(err, errlen, "host out of memory");
        return HD_FUNC_ERR_MEMORY;
    }
    return 0;
}

static void hk_placed(void *impl, const struct hd_hook_cta *c, bool resumed, uint64_t now)
{
    const struct shieh_hook *h = impl;
    (void)resumed; /* (a resumed TB keeps its instructions: c->instrs) */
    if (h->L)
        hd_shieh_loop_placed(h->L, c->sm, c->slot, c->launch, c->ctx, now, c->instrs,
                             c->idempotent, c->grant->reg_base, c->grant->regs,
                             c->grant->smem_base, c->grant->smem);
}

static void hk_left(void *impl, const struct hd_hook_cta *c, bool finished, uint64_t now)
{
    const struct shieh_hook *h = impl;
    if (h->L) /* (the exit report counts first placement to now inclusive) */
        hd_shieh_loop_left(h->L, c->sm, c->slot, c->instrs, finished, c->first, now + 1);
}

static void hk_issued(void *impl, uint32_t sm, uint32_t port, uint32_t slot, bool nonidem)
{
    const struct shieh_hook *h = impl;
    if (h->L)
        hd_shieh_loop_issued(h->L, sm, port, slot, nonidem);
}

static int hk_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen)
{
    const struct shieh_hook *h = impl;
    *ready = *busy = false;
    return h->L ? hd_shieh_loop_cycle(h->L, now, ready, busy, err, errlen) : 0;
}

static void hk_destroy(void *impl)
{
    struct shieh_hook *h = impl;
    if (!h)
        return;
    hd_shieh_loop_destroy(h->L);
    if (h->oracle)
        hd_drain_profile_free(h->oracle);
    free(h->oracle);
    free(h);
}

static void *hk_tables(void *impl)
{
    const struct shieh_hook *h = impl;
    return h->L;
}

static const struct hd_hook_ops shieh_hook_ops = {
    "shieh", hk_start, hk_launch, hk_placed, hk_left, hk_issued, hk_cycle, hk_destroy, hk_tables,
    NULL, NULL, /* warp_left, warp_returned */
};

/* The hook of a run whose preemption policy is one of this folder's: the tables when the policy
 * decides from them (env->ppol_tables), the Oracle's profile to check each launch's kernel. */
static int shieh_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                        size_t errlen)
{
    out->ops = NULL;
    out->impl = NULL;
    const bool oracle = env->p->ctx.policy == HD_PREEMPTPOL_ORACLE;
    if (env->ppol_tables == HD_PTAB_NONE && !oracle)
        return 0;
    struct shieh_hook *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "host out of memory creating the timing model");
        return -1;
    }
    if (env->ppol_tables != HD_PTAB_NONE &&
        !(h->L = hd_shieh_loop_create(env->p, env->ppol_tables == HD_PTAB_ALL, env->hw, err,
                                      errlen))) {
        hk_destroy(h);
        return -1;
    }
    if (oracle) {
        char why[400];
        h->path = env->p->ctx.oracle_profile;
        if (!(h->oracle = calloc(1, sizeof *h->oracle)) ||
            hd_drain_profile_load(env->p->ctx.oracle_profile, h->oracle, why, sizeof why) != 0) {
            snprintf(err, errlen, "key 'oracle_profile': %s", h->oracle ? why : "out of memory");
            hk_destroy(h);
            return -1;
        }
    }
    out->ops = &shieh_hook_ops;
    out->impl = h;
    return 0;
}
/* }==== */

static const struct hd_mech_alloc shieh_allocs[] = {
    {HD_ALLOC_ALIGNED, hd_sm_alloc_aligned},
};
static const struct hd_mech_ppol shieh_ppols[] = {
    {HD_PREEMPTPOL_SHIEH, make_shieh},
    {HD_PREEMPTPOL_ORACLE, make_oracle},
    {HD_PREEMPTPOL_CHIMERA, make_chimera},
    {HD_PREEMPTPOL_CHIMERA_PLUS, make_chimera_plus},
};

const struct hd_mech hd_mech_shieh = {
    "shieh",
    "Shieh thesis §2-§3: dual-kernel preemption, allocation alignment, Algorithm 1, the four "
    "tables (§3.4); baselines Chimera, Chimera+ and the Oracle (§5.3)",
    shieh_allocs, sizeof shieh_allocs / sizeof shieh_allocs[0],
    shieh_ppols, sizeof shieh_ppols / sizeof shieh_ppols[0],
    shieh_attach,
};
