/* SPDX-License-Identifier: MIT
 * chimera_select.h - the Chimera baseline's decision (Park et al. ASPLOS'15, as the Shieh
 * thesis compares against it, §5.3; digest §7 item 10 and §8.2 [R]): SM-granular collaborative
 * preemption. Every TB of a chosen SM leaves (the preempting TB waits for all of them, so the
 * SM's latency is its slowest TB's), each by the technique of least overhead that meets the
 * budget; draining is charged Chimera's drain overhead, the instructions the SM's idle TB slots
 * could have issued while the slowest TB drains: IPC_avg x (L_SM - L_DR(i)) for a drained TB i
 * (digest §8.2 [R], not checked against the paper). Pure functions, no state.
 *
 * Per SM [implementer choice where the recollection is silent]: first every TB takes Shieh's
 * per-TB rule (shieh_select.h, drain at no overhead), which fixes L_SM = the largest chosen
 * latency; then each TB chooses again with drain's overhead IPC_avg x (L_SM - L_DR(i)) against
 * that L_SM (one refinement; L_SM never grows, as every TB keeps a choice within it or its
 * least-latency one). The latency estimator is the caller's: Chimera's own drain estimate
 * (hd_chimera_drain_latency) or, for Chimera+, the thesis's (hd_shieh_drain_latency).
 * SM choice: the SMs whose latency meets the budget by least overhead (ties: lower latency,
 * lower SM index), then the others by least latency.
 */
#ifndef HD_CHIMERA_SELECT_H
#define HD_CHIMERA_SELECT_H

#include "shieh_cost.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_chimera_sm {
    uint64_t lat, ovh;  /* the SM's preemption latency (slowest TB) and overhead (sum) */
    bool meets;         /* lat <= budget */
};

/* Techniques for the n TBs of one SM (cost[i], with present[i] false for an empty slot, whose
 * tech is left alone), given the SM's IPC_avg; writes tech[i] and the SM's totals. */
void hd_chimera_plan_sm(const struct hd_shieh_cost *cost, const bool *present, unsigned n,
                        double ipc_avg, uint64_t budget, unsigned *tech, struct hd_chimera_sm *out);

/* Order nsms SMs (their totals in sms[]) for preemption: writes their indices into order[]
 * (best first). */
void hd_chimera_order_sms(const struct hd_chimera_sm *sms, unsigned nsms, unsigned *order);

#endif
