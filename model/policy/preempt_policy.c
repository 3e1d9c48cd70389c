/* SPDX-License-Identifier: MIT
 * preempt_policy.c - the generic preemption policy (preempt_policy.h), `sm`: whole SMs with one
 * primitive (the baseline of Lin ch.2 and the request path Shieh and Chimera refine), and the
 * choice of the policy [context] preempt_policy names, generic or a mechanism's (mech.h).
 */
#include "preempt_policy.h"
#include "mech.h"

#include <stdio.h>
#include <stdlib.h>

struct policy_state {
    enum hd_cfg_preempt prim;
};

/* {==== sm: whole SMs ==== */
static unsigned sm_plan(void *impl, const struct hd_preempt_need *need,
                        const struct hd_preempt_sm *sms, unsigned nsms,
                        const struct hd_preempt_env *env, uint32_t *chosen, uint8_t *act)
{
    const struct policy_state *ps = impl;
    uint32_t left = need->sms_needed;
    unsigned n = 0;
    for (unsigned i = 0; i < nsms && left; i++) {
        const struct hd_preempt_sm *v = &sms[i];
        /* an SM that may mix kernels and already holds some of the asker's CTAs still gives
         * room: every CTA of the others leaves (whole-SM switching beside in-place) */
        if (v->reserved || v->reserved_for_asker || v->holds_higher ||
            (v->holds_asker && !env->mixing))
            continue;
        unsigned others = 0;
        for (uint32_t c = 0; c < v->ncta; c++)
            if (v->cta[c].launch != need->launch) {
                act[(size_t)v->sm * env->max_ctas + v->cta[c].slot] = hd_preempt_act_of(ps->prim);
                others++;
            }
        if (others == 0)
            continue; /* (only the asker's or none: the launch will take what is free) */
        chosen[n++] = v->sm;
        left--;
    }
    return n;
}
/* }==== */

static void policy_destroy(void *impl)
{
    free(impl);
}

static const struct hd_preempt_policy_ops sm_ops = {"sm", sm_plan, policy_destroy, 0};

int hd_preempt_policy_create(const struct hd_gpu_timing_params *p,
                             const struct hd_hw_factory *const *hw, struct hd_preempt_policy *out,
                             uint32_t *mech, char *err, size_t errlen)
{
    *mech = UINT32_MAX;
    unsigned m;
    const struct hd_mech_ppol *mp = hd_mech_find_ppol((int)p->ctx.policy, &m);
    if (mp) {
        const struct hd_mech_env env = {p, hw, 0, NULL, NULL, NULL, NULL};
        *mech = m;
        return mp->create(&env, out, err, errlen);
    }
    if (p->ctx.policy != HD_PREEMPTPOL_SM) {
        snprintf(err, errlen, "key 'preempt_policy': no mechanism implements policy %d",
                 (int)p->ctx.policy);
        return -1;
    }
    struct policy_state *ps = calloc(1, sizeof *ps);
    if (!ps) {
        snprintf(err, errlen, "host out of memory");
        return -1;
    }
    ps->prim = p->ctx.preempt;
    out->ops = &sm_ops;
    out->impl = ps;
    return 0;
}
