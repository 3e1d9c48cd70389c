/* SPDX-License-Identifier: MIT
 * lin_inplace.c - the `inplace` preemption policy, Lin's in-place context switching (thesis
 * §2.2, digest §2.2): per SM, only the CTAs the SM's allocator names as the minimum victim set
 * for one CTA of the asking launch (sm_alloc.h plan_victims; with Lin's allocation tables,
 * lin_alloc_tables.c) are switched out (flushed with [context] preempt = flush); the others stay,
 * the incoming kernel taking only the space it needs. Needs SMs that may mix kernels ([sm]
 * concurrent_kernels); without it every CTA of the other kernels on a chosen SM must leave.
 * With [context] inplace_split (and an allocator that plans parts: lin_tables) it is Fig 2.4 as
 * the thesis draws it (§2.7 step 4): per SM one plan makes room for as many CTAs of the asking
 * launch as an SM holds (its occupancy, at most those still to place), and a victim whose
 * registers alone are in the way leaves with its registers only (HD_PACT_SWITCH_REGS: its
 * shared memory stays allocated in place until it resumes there). With [context] inplace_stop
 * as well it is the thesis's evaluation (2.5.5: "in-place context switched warps still have to
 * reach the preemption point"): every CTA of lower priority on a chosen SM stops at its point
 * (the SM is preempted); the plan counts their slots, warps and threads as free, so only the
 * tables name victims, and the others stop in place (HD_PACT_SWITCH_STAY: registers and shared
 * memory stay allocated, the save writes the SIMT stacks; they resume on that SM).
 */
#include "lin_mech.h"

#include <stdio.h>
#include <stdlib.h>

struct inplace_state {
    enum hd_cfg_preempt prim;
    bool stop;       /* [context] inplace_stop */
    uint32_t *slots; /* [max_ctas] scratch for victim plans */
    uint8_t *parts;  /* [max_ctas] the parts each victim gives (inplace_split) */
};

static unsigned inplace_plan(void *impl, const struct hd_preempt_need *need,
                             const struct hd_preempt_sm *sms, unsigned nsms,
                             const struct hd_preempt_env *env, uint32_t *chosen, uint8_t *act)
{
    const struct inplace_state *ps = impl;
    const bool split = env->plan_room && env->mixing; /* Fig 2.4: one plan per SM, by parts */
    const uint32_t per_sm = split && need->ctas_per_sm ? need->ctas_per_sm : 1;
    /* CTAs already being made room for: one (split: an SM's worth) per SM where victims are
     * still leaving */
    uint64_t pending = 0;
    for (unsigned i = 0; i < nsms; i++) {
        if (!sms[i].reserved_for_asker)
            continue;
        for (uint32_t c = 0; c < sms[i].ncta; c++)
            if (sms[i].cta[c].in_transit && sms[i].cta[c].launch != need->launch) {
                pending += per_sm;
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
        uint32_t room = 1; /* CTAs of the asker this SM's plan makes room for */
        if (split) {
            room = want < per_sm ? (uint32_t)want : per_sm;
            k = env->plan_room(env->gpu, v->sm, &need->demand, room, ps->slots, ps->parts);
        } else if (env->mixing) {
            k = env->plan_victims(env->gpu, v->sm, &need->demand, ps->slots);
        } else { /* one kernel per SM: every CTA of the others */
            for (uint32_t c = 0; c < v->ncta; c++)
                if (v->cta[c].launch != need->launch)
                    ps->slots[k++] = v->cta[c].slot;
        }
        uint32_t stays = 0; /* Lin 2.5.5: the others of lower priority stop in place */
        if (split && ps->stop && k >= 0 && ps->prim != HD_PREEMPT_FLUSH)
            for (uint32_t c = 0; c < v->ncta; c++) {
                const struct hd_preempt_cta *x = &v->cta[c];
                bool victim = false;
                for (int j = 0; j < k && !victim; j++)
                    victim = ps->slots[j] == x->slot;
                if (!victim && !x->in_transit && x->launch != need->launch &&
                    x->priority < need->priority) {
                    act[(size_t)v->sm * env->max_ctas + x->slot] = HD_PACT_SWITCH_STAY;
                    stays++;
                }
            }
        if (k < 0 || (k == 0 && !stays))
            continue; /* fits now (it will be placed) or no allowed victim set */
        chosen[n++] = v->sm;
        want -= room;
        for (int j = 0; j < k; j++)
            act[(size_t)v->sm * env->max_ctas + ps->slots[j]] =
                ps->prim == HD_PREEMPT_FLUSH                            ? HD_PACT_FLUSH
                : split && ps->parts[j] == HD_ALLOC_PART_REGS ? HD_PACT_SWITCH_REGS
                                                                        : HD_PACT_SWITCH;
    }
    return n;
}

static void inplace_destroy(void *impl)
{
    struct inplace_state *ps = impl;
    if (ps) {
        free(ps->slots);
        free(ps->parts);
    }
    free(ps);
}

static const struct hd_preempt_policy_ops inplace_ops = {"inplace", inplace_plan, inplace_destroy,
                                                         0};

int hd_lin_inplace_create(const struct hd_mech_env *env, struct hd_preempt_policy *out,
                          char *err, size_t errlen)
{
    struct inplace_state *ps = calloc(1, sizeof *ps);
    uint32_t *slots = calloc(env->p->sm.max_ctas, sizeof *slots);
    uint8_t *parts = calloc(env->p->sm.max_ctas, sizeof *parts);
    if (!ps || !slots || !parts) {
        free(ps);
        free(slots);
        free(parts);
        snprintf(err, errlen, "host out of memory");
        return -1;
    }
    ps->prim = env->p->ctx.preempt;
    ps->stop = env->p->ctx.inplace_stop;
    ps->slots = slots;
    ps->parts = parts;
    out->ops = &inplace_ops;
    out->impl = ps;
    return 0;
}
