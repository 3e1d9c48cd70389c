/* SPDX-License-Identifier: MIT
 * preempt_policy.c - the preemption policies every mechanism can start from (preempt_policy.h):
 * `sm`, whole SMs with one primitive (the baseline of Lin ch.2 and the request path Shieh and
 * Chimera refine), and `inplace`, Lin §2.2's in-place switching: only the CTAs whose registers,
 * shared memory or slots the incoming CTA needs leave, the rest run on beside it.
 */
#include "preempt_policy.h"
#include "drain_profile.h"

#include <stdio.h>
#include <stdlib.h>

struct policy_state {
    enum hd_cfg_preempt prim;
    uint32_t *slots; /* [max_ctas] scratch for victim plans */
};

static uint8_t act_of(enum hd_cfg_preempt prim)
{
    return prim == HD_PREEMPT_DRAIN ? HD_PACT_DRAIN
           : prim == HD_PREEMPT_FLUSH ? HD_PACT_FLUSH
                                      : HD_PACT_SWITCH;
}

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
                act[(size_t)v->sm * env->max_ctas + v->cta[c].slot] = act_of(ps->prim);
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

/* {==== inplace: the minimum victim set for one CTA ==== */
static unsigned inplace_plan(void *impl, const struct hd_preempt_need *need,
                             const struct hd_preempt_sm *sms, unsigned nsms,
                             const struct hd_preempt_env *env, uint32_t *chosen, uint8_t *act)
{
    const struct policy_state *ps = impl;
    /* CTAs already being made room for: one per SM where victims are still leaving */
    uint64_t pending = 0;
    for (unsigned i = 0; i < nsms; i++) {
        if (!sms[i].reserved_for_asker)
            continue;
        for (uint32_t c = 0; c < sms[i].ncta; c++)
            if (sms[i].cta[c].in_transit && sms[i].cta[c].launch != need->launch) {
                pending++;
                break;
            }
    }
    if (pending >= need->ctas_left)
        return 0;
    uint64_t want = need->ctas_left - pending;
    unsigned n = 0;
    for (unsigned i = 0; i < nsms && want; i++) {
        const struct hd_preempt_sm *v = &sms[i];
        if (v->reserved || v->holds_higher || v->ncta == 0)
            continue;
        bool busy = false; /* victims for an earlier plan are still leaving */
        for (uint32_t c = 0; c < v->ncta && !busy; c++)
            busy = v->cta[c].in_transit && v->cta[c].launch != need->launch;
        if (busy)
            continue;
        int k = 0;
        if (env->mixing) {
            k = env->plan_victims(env->gpu, v->sm, &need->demand, ps->slots);
        } else { /* one kernel per SM: every CTA of the others */
            for (uint32_t c = 0; c < v->ncta; c++)
                if (v->cta[c].launch != need->launch)
                    ps->slots[k++] = v->cta[c].slot;
        }
        if (k <= 0)
            continue; /* fits now (it will be placed) or no allowed victim set */
        chosen[n++] = v->sm;
        want--;
        for (int j = 0; j < k; j++)
            act[(size_t)v->sm * env->max_ctas + ps->slots[j]] =
                ps->prim == HD_PREEMPT_FLUSH ? HD_PACT_FLUSH : HD_PACT_SWITCH;
    }
    return n;
}
/* }==== */

static void policy_destroy(void *impl)
{
    struct policy_state *ps = impl;
    if (ps)
        free(ps->slots);
    free(ps);
}

static const struct hd_preempt_policy_ops sm_ops = {"sm", sm_plan, policy_destroy, HD_PTAB_NONE};
static const struct hd_preempt_policy_ops inplace_ops = {"inplace", inplace_plan, policy_destroy,
                                                         HD_PTAB_NONE};

int hd_preempt_policy_create(const struct hd_gpu_timing_params *p, struct hd_preempt_policy *out,
                             char *err, size_t errlen)
{
    struct policy_state *ps = calloc(1, sizeof *ps);
    uint32_t *slots = calloc(p->sm.max_ctas, sizeof *slots);
    if (!ps || !slots) {
        free(ps);
        free(slots);
        snprintf(err, errlen, "host out of memory");
        return -1;
    }
    ps->prim = p->ctx.preempt;
    ps->slots = slots;
    switch (p->ctx.policy) {
    case HD_PREEMPTPOL_SHIEH:
        policy_destroy(ps);
        return hd_preempt_shieh_create(p, false, NULL, out, err, errlen);
    case HD_PREEMPTPOL_ORACLE:
        policy_destroy(ps);
        return hd_preempt_oracle_create(p, out, err, errlen);
    case HD_PREEMPTPOL_CHIMERA:
    case HD_PREEMPTPOL_CHIMERA_PLUS:
        policy_destroy(ps);
        return hd_preempt_chimera_create(p, p->ctx.policy == HD_PREEMPTPOL_CHIMERA_PLUS, out, err,
                                         errlen);
    case HD_PREEMPTPOL_SM: out->ops = &sm_ops; break;
    case HD_PREEMPTPOL_INPLACE: out->ops = &inplace_ops; break;
    default:
        policy_destroy(ps);
        snprintf(err, errlen, "key 'preempt_policy': unknown policy %d", (int)p->ctx.policy);
        return -1;
    }
    out->impl = ps;
    return 0;
}
