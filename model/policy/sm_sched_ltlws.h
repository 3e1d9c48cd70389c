/* SPDX-License-Identifier: MIT
 * sm_sched_ltlws.h - what a mechanism may reach of EXPARS's lazy two-level scheduler
 * (sm_sched_ltlws.c; Yu et al. TACO 2018 §3.3.6, eq. 14; digest §2.9): its counters' events.
 *
 * The scheduler's counters are the block expars_ltlws's C reference (tables/expars_ltlws.h), one
 * unit per scheduler whose counter k is the warp in SM slot k x schedulers + the scheduler's
 * index. A tap is called after the reference has answered each counter event (an ADD, ISSUE or
 * REMOVE of `warp`, the counter index; `max` the W_Opt clamp) with its answer in *ans; it may
 * replace *ans, which the scheduler then uses (EXPARS's blocks in the loop: the block's answer,
 * with --drive rtl the RTL's). A tap cannot fail here: it keeps its own error for its hook's
 * `cycle` to report (mech.h).
 */
#ifndef HD_SM_SCHED_LTLWS_H
#define HD_SM_SCHED_LTLWS_H

#include "sm_sched.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_expars_ltlws_ans;
typedef void (*hd_sched_ltlws_tap_fn)(void *ctx, unsigned op, uint32_t warp, uint32_t max,
                                      struct hd_expars_ltlws_ans *ans);

/* Give the scheduler policy s a tap (fn NULL: none). False when s is not an LTLWS scheduler. */
bool hd_sched_ltlws_tap(const struct hd_sched *s, hd_sched_ltlws_tap_fn fn, void *ctx);
/* Its counters (the warps one scheduler can own); 0 when s is not an LTLWS scheduler. */
uint32_t hd_sched_ltlws_counters(const struct hd_sched *s);

#endif
