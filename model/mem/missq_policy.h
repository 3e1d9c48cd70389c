/* SPDX-License-Identifier: MIT
 * missq_policy.h - the admission policy at each SM's L1 miss queue: which waiting request (if
 * any) may enter the interconnect this cycle.
 *
 * Design (style rule C9; Lin §3.14 / §2.16): CCBP's issue-rate controllers sit at the L1D miss
 * queue and limit, per kernel, the misses sent to the NoC per time window; to prioritise
 * latency-sensitive kernels they must be able to pick a request that is not the oldest. So a
 * policy sees the whole queue of its SM (oldest first, as small views) and returns the index of
 * the request to send, or -1 to send none this cycle; it is told of each request that left.
 * The memory system asks only when the interconnect could take the request, once per
 * interconnect cycle per SM. The default policy is FIFO (always the oldest); [l1d]
 * missq_policy chooses another (reads_first: the oldest read or atomic before older writes,
 * with an age limit; missq_policy.c). Policies keep their own state in `impl` and get the time
 * as the argument (rule C7).
 */
#ifndef HD_MISSQ_POLICY_H
#define HD_MISSQ_POLICY_H

#include "config.h"

#include <stdint.h>

struct hd_mq_view {
    uint32_t kernel;  /* launch id */
    uint32_t bytes;   /* data read or written */
    uint16_t flits;   /* request packet size */
    uint8_t type;     /* enum hd_txn_type */
    uint8_t origin;   /* enum hd_txn_origin */
    uint8_t cls;      /* enum hd_mem_class (mem_iface.h) */
    uint64_t waited;  /* core cycles in the queue so far */
};

struct hd_mq_policy_ops {
    const char *name;
    /* Index (0 = oldest) of the request of SM `sm` to send now, or -1 for none. */
    int (*select)(void *impl, unsigned sm, const struct hd_mq_view *q, unsigned n, uint64_t now);
    /* The request q was sent at `now` (may be NULL). */
    void (*issued)(void *impl, unsigned sm, const struct hd_mq_view *q, uint64_t now);
    void (*destroy)(void *impl); /* may be NULL */
};

/* The default: oldest first, never held. */
extern const struct hd_mq_policy_ops hd_mq_policy_fifo;

/* The policy `kind` ([l1d] missq_policy) into *ops and *impl; age_limit: [l1d] missq_age_limit.
 * Returns 0, or -1 on host allocation failure. */
int hd_mq_policy_create(enum hd_cfg_missq kind, uint64_t age_limit,
                        const struct hd_mq_policy_ops **ops, void **impl);

#endif
