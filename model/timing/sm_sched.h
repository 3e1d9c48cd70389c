/* SPDX-License-Identifier: MIT
 * sm_sched.h - warp-scheduling policies behind a small ops struct (style rule C9).
 *
 * Design: each of an SM's N schedulers owns the warps in slots i with i mod N equal to its index
 * and issues at most issue_width instructions per cycle. The SM keeps the set of warps whose next
 * instruction could issue (decoded, operands free, not waiting at a barrier); the policy only
 * orders that set, and the SM takes the first warp in the order whose collector unit is free.
 * So a policy costs work proportional to the ready warps, not to all warps. Policies hear about
 * residency (add/remove, with an age: smaller is older), issues, and long waits (a load, a
 * barrier, a fence, an instruction-cache miss) so that two-level scheduling can demote a warp.
 *   lrr        loose round-robin: start after the warp that issued last
 *   gto        greedy-then-oldest: the warp that issued last while it stays ready, then by age
 *   two_level  an active set of sched_active_warps warps scheduled round-robin; a warp that
 *              starts a long wait goes to the tail of the pending pool and the pool's head takes
 *              its place (Narasiman et al., MICRO 2011)
 * Later policies (HAWS, locality-aware warp groups) are further implementations of these ops.
 */
#ifndef HD_SM_SCHED_H
#define HD_SM_SCHED_H

#include "timing_params.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_sched_ops {
    const char *name;
    void (*add)(void *impl, uint32_t warp, uint64_t age);
    void (*remove)(void *impl, uint32_t warp);
    /* Order the ready warps ready[0..n) (ascending slot numbers) by priority into out; returns
     * how many may be tried (two-level leaves out warps outside its active set). */
    unsigned (*order)(void *impl, const uint32_t *ready, unsigned n, uint32_t *out);
    void (*issued)(void *impl, uint32_t warp);
    void (*long_wait)(void *impl, uint32_t warp);
    void (*destroy)(void *impl);
};

struct hd_sched {
    const struct hd_sched_ops *ops;
    void *impl;
};

/* Create the policy configured in p->sched for a scheduler that may own up to p->max_warps
 * slots. Returns 0, or -1 on allocation failure. */
int hd_sched_create(const struct hd_sm_params *p, struct hd_sched *out);

#endif
