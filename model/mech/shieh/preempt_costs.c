/* SPDX-License-Identifier: MIT
 * preempt_costs.c - per-TB preemption costs of one SM for the Shieh-family policies
 * (preempt_costs.h; Shieh thesis §3.3.2, digest §2.4, §8.2).
 */
#include "preempt_costs.h"

#include <math.h>
#include <string.h>

uint8_t hd_preempt_act_of_tech(unsigned tech)
{
    return tech == HD_SHIEH_DRAIN ? HD_PACT_DRAIN
           : tech == HD_SHIEH_FLUSH ? HD_PACT_FLUSH
                                    : HD_PACT_SWITCH;
}

uint64_t hd_preempt_budget(uint64_t bound)
{
    return bound ? bound : UINT64_MAX;
}

void hd_preempt_costs_est(const struct hd_preempt_costs *pc, uint32_t max_ctas, uint64_t *est)
{
    for (uint32_t s = 0; s < max_ctas && s < HD_SHIEH_MAX_TBS; s++)
        if (pc->present[s]) {
            est[2 * s] = pc->est[s][0];
            est[2 * s + 1] = pc->est[s][1];
        }
}

/* The finished-CTA statistics of cta's launch. */
static void kstats_of(const struct hd_preempt_cta *c, struct hd_shieh_kstats *k)
{
    *k = (struct hd_shieh_kstats){c->done_ctas, (double)c->done_instrs, (double)c->done_cycles,
                                  c->done_cpi_sum, c->done_cpi_sq, c->done_cpi_n};
}

static bool is_victim(const struct hd_preempt_cta *c, const struct hd_preempt_need *need)
{
    return c->launch != need->launch && c->priority < need->priority;
}

/* Oracle drain latency: the remaining instructions of this CTA at its true CPI (per-CTA
 * profile), else of its launch's profiled mean at the mean CPI (0 when it ran past the count);
 * -1 when the profile does not know the launch. */
static int64_t oracle_drain(const struct hd_drain_profile *prof, const struct hd_preempt_cta *c)
{
    if (!prof || c->launch >= prof->n)
        return -1;
    double cpi = prof->cpi[c->launch], total = prof->instrs[c->launch];
    if (prof->first && c->cta < prof->first[c->launch + 1] - prof->first[c->launch]) {
        const uint64_t at = prof->first[c->launch] + c->cta;
        if (prof->cta_cpi[at] > 0.0) {
            cpi = prof->cta_cpi[at];
            total = prof->cta_instrs[at];
        }
    }
    if (cpi <= 0.0)
        return -1;
    const double left = total - (double)c->warp_instrs;
    return left > 0.0 ? (int64_t)ceil(left * cpi) : 0;
}

void hd_preempt_costs_sm(const struct hd_preempt_sm *v, const struct hd_preempt_need *need,
                         uint32_t max_ctas, double sm_bytes_per_cycle, enum hd_drain_est est,
                         const struct hd_drain_profile *prof, struct hd_preempt_costs *out)
{
    memset(out, 0, sizeof *out);
    struct hd_shieh_tb all[HD_SHIEH_MAX_TBS];
    memset(all, 0, sizeof all);
    for (uint32_t i = 0; i < v->ncta; i++) {
        const struct hd_preempt_cta *c = &v->cta[i];
        if (c->launch == need->launch || c->slot >= max_ctas || c->slot >= HD_SHIEH_MAX_TBS)
            continue;
        out->transit |= c->in_transit;
        if (c->in_transit || !is_victim(c, need))
            continue;
        out->present[c->slot] = true;
        out->npresent++;
        all[c->slot] = (struct hd_shieh_tb){true, c->flushable, c->warp_instrs, c->placed};
    }
    struct hd_shieh_kstats none = {0};
    struct hd_shieh_pred sm_pred;
    hd_shieh_predict(&none, all, HD_SHIEH_MAX_TBS, need->now, &sm_pred);
    out->ipc_avg = sm_pred.ipc_avg;
    /* each victim launch's TBs with that launch's finished-TB statistics */
    bool done[HD_SHIEH_MAX_TBS] = {false};
    for (uint32_t i = 0; i < v->ncta; i++) {
        const struct hd_preempt_cta *c = &v->cta[i];
        if (c->slot >= HD_SHIEH_MAX_TBS || !out->present[c->slot] || done[c->slot])
            continue;
        struct hd_shieh_tb grp[HD_SHIEH_MAX_TBS];
        memset(grp, 0, sizeof grp);
        for (uint32_t j = i; j < v->ncta; j++)
            if (v->cta[j].slot < HD_SHIEH_MAX_TBS && out->present[v->cta[j].slot] &&
                v->cta[j].launch == c->launch)
                grp[v->cta[j].slot] = all[v->cta[j].slot];
        struct hd_shieh_kstats k;
        kstats_of(c, &k);
        struct hd_shieh_pred pred;
        hd_shieh_predict(&k, grp, HD_SHIEH_MAX_TBS, need->now, &pred);
        for (uint32_t j = i; j < v->ncta; j++) {
            const struct hd_preempt_cta *m = &v->cta[j];
            if (m->slot >= HD_SHIEH_MAX_TBS || !grp[m->slot].valid)
                continue;
            done[m->slot] = true;
            const uint64_t ctx_bytes = (uint64_t)m->grant.regs * 4u + m->grant.smem;
            const uint64_t l_cs = hd_shieh_switch_latency(ctx_bytes, sm_bytes_per_cycle);
            struct hd_shieh_cost *cost = &out->cost[m->slot];
            hd_shieh_cost_tb(&pred, &grp[m->slot], need->now, l_cs, cost);
            out->est[m->slot][0] = hd_shieh_drain_latency(&pred, &grp[m->slot], need->now);
            out->est[m->slot][1] = hd_chimera_drain_latency(&pred, &grp[m->slot], need->now);
            if (est == HD_DRAIN_EST_CHIMERA) {
                cost->lat[HD_SHIEH_DRAIN] =
                    hd_chimera_drain_latency(&pred, &grp[m->slot], need->now);
            } else if (est == HD_DRAIN_EST_ORACLE) {
                const int64_t l = oracle_drain(prof, m);
                if (l >= 0) { /* known: drained at no overhead (the thesis's estimator may
                                 have had no statistics, and charged the maximum) */
                    cost->lat[HD_SHIEH_DRAIN] =
                        (uint64_t)l < HD_SHIEH_INF ? (uint64_t)l : HD_SHIEH_INF;
                    cost->ovh[HD_SHIEH_DRAIN] = (uint64_t)l < HD_SHIEH_INF ? 0 : HD_SHIEH_INF;
                }
            }
        }
    }
}
