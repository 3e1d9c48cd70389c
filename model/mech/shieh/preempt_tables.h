/* SPDX-License-Identifier: MIT
 * preempt_tables.h - what a Shieh-family preemption policy sees of an SM when Shieh's tables
 * are in the loop (shieh_loop.h; thesis §3.4): the policy view (preempt_policy.h) with each
 * running TB's progress (warp instructions, placement cycle, flush bit) replaced by what the
 * firmware read from the SM's Running TB Status, its launch's finished-TB statistics by what the
 * firmware summed from the status tables' exit reports, and with positions the candidate rows
 * read back from the Candidate Victim Sets (built from the Allocation Positions and Allocation
 * Status reads). The model's own counters are not used for a decision.
 */
#ifndef HD_PREEMPT_TABLES_H
#define HD_PREEMPT_TABLES_H

#include "preempt_policy.h"
#include "shieh_loop.h"

#include <stdbool.h>
#include <stdint.h>

/* SM v for launch need->launch. true: *out is v with ctas[] (room for v->ncta) carrying the
 * tables' progress, *snap the reads (cand rows restricted to the slots still holding a TB);
 * false: the reads are under way (started now if none was), or the SM holds a TB the tables'
 * reads did not see (placed since: read again): no decision for this SM now. */
bool hd_preempt_tables_view(struct hd_shieh_loop *L, const struct hd_preempt_sm *v,
                            const struct hd_preempt_need *need, struct hd_preempt_cta *ctas,
                            struct hd_preempt_sm *out, struct hd_shieh_snap *snap);

#endif
