/* SPDX-License-Identifier: MIT
 * shieh_select.h - Algorithm 1 of the Shieh thesis (§3.3.3, L240-283; digest §2.5): a
 * preemption technique for every running TB of an SM, then the final victim among the SM's
 * candidate victim sets, under the latency budget. Pure functions, no state.
 *
 * Per TB: among the techniques it may use (flush only with its flush bit) those whose latency
 * meets the budget; the one with the least overhead, ties to the lower latency, then drain,
 * flush, switch in that order; if none meets the budget, the one with the least latency (ties
 * to the lower overhead, then the same order) (Algorithm 1 lines 1-14).
 * Per candidate (Eq 3.1, 3.2): latency = the largest of its TBs' (the last to leave; 0 for an
 * empty candidate), overhead = the sum of theirs. The final victim is the valid candidate of
 * least overhead among those that meet the budget (ties to the lower latency, then the lower
 * position), or, if none does, the one of least latency (ties to the lower overhead, then the
 * lower position) (lines 15-24).
 * The budget is L_c less the time since the request (hd_shieh_budget): each iteration of §2.1
 * step 6 runs the algorithm again with fresh counters and what is left of L_c [implementer
 * choice, digest §2.6].
 */
#ifndef HD_SHIEH_SELECT_H
#define HD_SHIEH_SELECT_H

#include "shieh_cands.h"
#include "shieh_cost.h"

#include <stdbool.h>
#include <stdint.h>

/* L_c - (now - t_req), at least 0. */
uint64_t hd_shieh_budget(uint64_t l_c, uint64_t t_req, uint64_t now);

/* The technique for one TB (enum hd_shieh_tech). */
unsigned hd_shieh_choose_tech(const struct hd_shieh_cost *c, uint64_t budget);

struct hd_shieh_pick {
    int cand;              /* the final victim's position, -1 if no valid candidate */
    bool meets;            /* its latency meets the budget */
    uint64_t lat, ovh;     /* its latency and overhead */
    uint64_t victims;      /* its TB slots (the candidate's bitset) */
};

/* Final victim among the k candidates (valid bit p, bitset cand[p]) given every slot's cost
 * and technique (indexed by slot; only slots named by a candidate are read). */
void hd_shieh_select(const uint64_t *cand, uint64_t valid, uint32_t k,
                     const struct hd_shieh_cost *cost, const unsigned *tech, uint64_t budget,
                     struct hd_shieh_pick *out);

#endif
