/* SPDX-License-Identifier: MIT
 * preempt_chimera.c - the `chimera` and `chimera_plus` preemption policies, the Shieh thesis's
 * baselines (§5.3; digest §7 item 10, §8.2): Chimera's SM-granular collaborative preemption
 * (Park et al. ASPLOS'15). Every CTA of the lower-priority launches on a chosen SM leaves, each
 * by the technique chimera_select.h gives it (drain charged the idle-slot overhead, flush only
 * with the flush bit, switch); SMs are taken in Chimera's order (those that meet the latency
 * constraint by least overhead, then the others by least latency) until the launch has enough.
 * `chimera` estimates a drain by the finished TBs' mean residency less the TB's age;
 * `chimera_plus` by the thesis's lower-variance CPI predictor (preempt_costs.h).
 * As with the `sm` policy, an SM that holds CTAs of the asking launch or of launches of equal
 * or higher priority, or whose CTAs are being moved, is not chosen.
 */
#include "chimera_select.h"
#include "preempt_costs.h"
#include "preempt_tables.h"
#include "shieh_mech.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct chimera_state {
    uint32_t nsms, max_ctas;
    double sm_bytes_per_cycle;
    enum hd_drain_est est_kind;
    struct hd_chimera_sm *sum; /* [nsms] */
    unsigned *smi, *rank;      /* [nsms] */
    uint8_t *act;              /* [nsms * max_ctas] */
    uint64_t *est;             /* [nsms * max_ctas * 2] drain estimates (env drain_est) */
    struct hd_preempt_cta *ctas; /* [max_ctas] the SM as the tables read it */
    struct hd_shieh_snap snap;
};

static unsigned chimera_plan(void *impl, const struct hd_preempt_need *need,
                             const struct hd_preempt_sm *sms, unsigned nsms,
                             const struct hd_preempt_env *env, uint32_t *chosen, uint8_t *act)
{
    struct chimera_state *st = impl;
    const uint64_t budget = hd_preempt_budget(need->bound);
    unsigned ncand = 0;
    for (unsigned i = 0; i < nsms && i < st->nsms; i++) {
        const struct hd_preempt_sm *v = &sms[i];
        if (v->reserved || v->reserved_for_asker || v->holds_higher || v->holds_asker)
            continue;
        struct hd_preempt_sm tv;
        if (env->tables) { /* the TBs' progress from the Running TB Status reads */
            if (!hd_preempt_tables_view(env->tables, v, need, st->ctas, &tv, &st->snap))
                continue;
            v = &tv;
        }
        struct hd_preempt_costs pc;
        hd_preempt_costs_sm(v, need, st->max_ctas, st->sm_bytes_per_cycle, st->est_kind, NULL,
                            &pc);
        if (pc.transit || pc.npresent == 0)
            continue;
        unsigned tech[HD_SHIEH_MAX_TBS] = {0};
        hd_chimera_plan_sm(pc.cost, pc.present, st->max_ctas, pc.ipc_avg, budget, tech,
                           &st->sum[ncand]);
        for (uint32_t s = 0; s < st->max_ctas; s++)
            st->act[(size_t)ncand * st->max_ctas + s] =
                pc.present[s] ? hd_preempt_act_of_tech(tech[s]) : HD_PACT_KEEP;
        uint64_t *est = &st->est[(size_t)ncand * st->max_ctas * 2];
        for (size_t e = 0; e < (size_t)st->max_ctas * 2; e++)
            est[e] = UINT64_MAX;
        hd_preempt_costs_est(&pc, st->max_ctas, est);
        st->smi[ncand++] = i;
    }
    if (ncand == 0)
        return 0;
    hd_chimera_order_sms(st->sum, ncand, st->rank);
    unsigned n = 0;
    for (unsigned j = 0; j < ncand && n < need->sms_needed; j++) {
        const unsigned c = st->rank[j];
        const uint32_t sm = sms[st->smi[c]].sm; /* (the tables' view has the same id) */
        memcpy(&act[(size_t)sm * env->max_ctas], &st->act[(size_t)c * st->max_ctas], st->max_ctas);
        for (uint32_t s = 0; env->drain_est && s < st->max_ctas; s++)
            memcpy(&env->drain_est[((size_t)sm * env->max_ctas + s) * 2],
                   &st->est[((size_t)c * st->max_ctas + s) * 2], 2 * sizeof *st->est);
        chosen[n++] = sm;
    }
    return n;
}

static void chimera_destroy(void *impl)
{
    struct chimera_state *st = impl;
    if (!st)
        return;
    free(st->sum);
    free(st->smi);
    free(st->rank);
    free(st->act);
    free(st->est);
    free(st->ctas);
    free(st);
}

/* (the Running TB Status only: Chimera preempts whole SMs, no positions or candidates) */
static const struct hd_preempt_policy_ops chimera_ops = {"chimera", chimera_plan, chimera_destroy,
                                                         HD_PTAB_STATUS};
static const struct hd_preempt_policy_ops chimera_plus_ops = {"chimera_plus", chimera_plan,
                                                              chimera_destroy, HD_PTAB_STATUS};

int hd_preempt_chimera_create(const struct hd_gpu_timing_params *p, bool plus,
                              struct hd_preempt_policy *out, char *err, size_t errlen)
{
    if (p->sm.max_ctas > HD_SHIEH_MAX_TBS) {
        snprintf(err, errlen,
                 "key 'preempt_policy': Chimera's policy tracks at most %d CTAs per SM, [sm] "
                 "max_ctas is %u", HD_SHIEH_MAX_TBS, p->sm.max_ctas);
        return -1;
    }
    struct chimera_state *st = calloc(1, sizeof *st);
    if (st) {
        st->nsms = p->num_sms;
        st->max_ctas = p->sm.max_ctas;
        st->sm_bytes_per_cycle = p->ctx.sm_bytes_per_cycle;
        st->est_kind = plus ? HD_DRAIN_EST_SHIEH : HD_DRAIN_EST_CHIMERA;
        st->sum = calloc(p->num_sms, sizeof *st->sum);
        st->smi = calloc(p->num_sms, sizeof *st->smi);
        st->rank = calloc(p->num_sms, sizeof *st->rank);
        st->act = calloc((size_t)p->num_sms * p->sm.max_ctas, 1);
        st->est = calloc((size_t)p->num_sms * p->sm.max_ctas * 2, sizeof *st->est);
        st->ctas = calloc(p->sm.max_ctas, sizeof *st->ctas);
    }
    if (!st || !st->sum || !st->smi || !st->rank || !st->act || !st->est || !st->ctas) {
        chimera_destroy(st);
        snprintf(err, errlen, "host out of memory");
        return -1;
    }
    out->ops = plus ? &chimera_plus_ops : &chimera_ops;
    out->impl = st;
    return 0;
}
