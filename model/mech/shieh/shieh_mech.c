/* SPDX-License-Identifier: MIT
 * shieh_mech.c - Shieh's registry entry (shieh_mech.h, model/policy/mech.h): the allocator and
 * policies it implements, and its tables in the loop as a hook.
 */
#include "shieh_mech.h"

#include "drain_profile.h"
#include "shieh_alloc_aligned.h"
#include "shieh_loop.h"

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

/* {==== The tables as a hook ==== */
static int hk_start(void *impl, char *err, size_t errlen)
{
    return hd_shieh_loop_make(impl, err, errlen);
}

static int hk_launch(void *impl, uint32_t launch, uint32_t kernel)
{
    return hd_shieh_loop_launch_kernel(impl, launch, kernel);
}

static void hk_placed(void *impl, const struct hd_hook_cta *c, bool resumed, uint64_t now)
{
    (void)resumed; /* (a resumed TB keeps its instructions: c->instrs) */
    hd_shieh_loop_placed(impl, c->sm, c->slot, c->launch, c->ctx, now, c->instrs, c->idempotent,
                         c->grant->reg_base, c->grant->regs, c->grant->smem_base,
                         c->grant->smem);
}

static void hk_left(void *impl, const struct hd_hook_cta *c, bool finished, uint64_t now)
{
    /* (the exit report counts first placement to now inclusive) */
    hd_shieh_loop_left(impl, c->sm, c->slot, c->instrs, finished, c->first, now + 1);
}

static void hk_issued(void *impl, uint32_t sm, uint32_t port, uint32_t slot, bool nonidem)
{
    hd_shieh_loop_issued(impl, sm, port, slot, nonidem);
}

static int hk_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen)
{
    return hd_shieh_loop_cycle(impl, now, ready, busy, err, errlen);
}

static void hk_destroy(void *impl)
{
    hd_shieh_loop_destroy(impl);
}

static const struct hd_hook_ops shieh_hook_ops = {
    "shieh", hk_start, hk_launch, hk_placed, hk_left, hk_issued, hk_cycle, hk_destroy,
};

/* Shieh's tables as the GPU's hook (shieh_loop.h): made when the run's policy is one of this
 * folder's and decides from tables (env->ppol_tables). */
static int shieh_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                        size_t errlen)
{
    out->ops = NULL;
    out->impl = NULL;
    if (env->ppol_tables == HD_PTAB_NONE)
        return 0;
    struct hd_shieh_loop *L =
        hd_shieh_loop_create(env->p, env->ppol_tables == HD_PTAB_ALL, env->hw, err, errlen);
    if (!L)
        return -1;
    out->ops = &shieh_hook_ops;
    out->impl = L;
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
