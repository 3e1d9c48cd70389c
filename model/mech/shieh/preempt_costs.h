/* SPDX-License-Identifier: MIT
 * preempt_costs.h - Shieh's per-TB preemption cost estimate (shieh_cost.h, thesis §3.3.2, digest
 * §2.4) applied to one SM as a preemption policy sees it (preempt_policy.h): the CTAs of the
 * SM that may leave for the asking launch, and for each its latency and overhead per technique
 * (drain, flush only with its flush bit, switch). Shared by the `shieh`, `chimera`,
 * `chimera_plus` and `oracle` policies (preempt_shieh.c, preempt_chimera.c).
 *
 * The finished-TB statistics are each victim launch's (the view's done_* totals); a TB's
 * progress is its warp instructions over all its residencies and its age the cycles since it
 * was placed (or resumed) on this SM. The switch latency is the TB's context (its registers x
 * 4 B + its shared memory) over the SM's fair share of the DRAM bandwidth ([context]
 * sm_bytes_per_cycle in the timing parameters, Shieh's B / N_SM). The drain estimate is Shieh's
 * lower-variance CPI predictor, Chimera's residency estimate, or (oracle) the launch's true CPI
 * from a profiling run times the TB's remaining instructions.
 */
#ifndef HD_PREEMPT_COSTS_H
#define HD_PREEMPT_COSTS_H

#include "preempt_policy.h"
#include "shieh_cands.h"
#include "shieh_cost.h"

#include <stdbool.h>
#include <stdint.h>

enum hd_drain_est { HD_DRAIN_EST_SHIEH, HD_DRAIN_EST_CHIMERA, HD_DRAIN_EST_ORACLE };

/* The oracle's profile (drain_profile.h): per launch id, the mean true cycles per warp
 * instruction of its profiled CTAs (0: unknown, the thesis's estimator is used) and their mean
 * instructions; per CTA (first != NULL: launch L's CTA c at index first[L] + c when c <
 * first[L + 1] - first[L]) its own true CPI (0: not profiled, the launch's mean is used) and
 * instructions. */
struct hd_drain_profile {
    uint32_t n;
    const double *cpi;
    const double *instrs;
    const uint64_t *first;     /* [n + 1] or NULL */
    const double *cta_cpi, *cta_instrs;
};

/* Costs of every CTA slot (indexed by slot, < HD_SHIEH_MAX_TBS) of one SM. */
struct hd_preempt_costs {
    bool present[HD_SHIEH_MAX_TBS];  /* a CTA of another launch of lower priority, resident */
    struct hd_shieh_cost cost[HD_SHIEH_MAX_TBS];
    uint64_t est[HD_SHIEH_MAX_TBS][2]; /* drain latency by Shieh's predictor and by Chimera's
                                        estimate (both, whichever cost[] uses; Fig 4.2) */
    double ipc_avg;                  /* mean IPC of the present CTAs */
    uint32_t npresent;
    bool transit;                    /* a CTA of another launch is being moved: no plan now */
};

void hd_preempt_costs_sm(const struct hd_preempt_sm *v, const struct hd_preempt_need *need,
                         uint32_t max_ctas, double sm_bytes_per_cycle, enum hd_drain_est est,
                         const struct hd_drain_profile *prof, struct hd_preempt_costs *out);

/* The policy action of a technique (enum hd_shieh_tech). */
uint8_t hd_preempt_act_of_tech(unsigned tech);

/* Budget for a request with constraint bound (0: none, every estimate meets it). */
uint64_t hd_preempt_budget(uint64_t bound);

/* Copy the drain estimates of the present CTAs of pc into est (env drain_est of one SM). */
void hd_preempt_costs_est(const struct hd_preempt_costs *pc, uint32_t max_ctas, uint64_t *est);

#endif
