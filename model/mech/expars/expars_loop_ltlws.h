/* SPDX-License-Identifier: MIT
 * expars_loop_ltlws.h - EXPARS's LTLWS counters (the block expars_ltlws, tables/expars_ltlws.h;
 * Yu et al. TACO 2018 §3.3.6, eq. 14; digest §2.9) in the GPU timing loop, one instance per warp
 * scheduler ("smN.schedK.expars_ltlws"), beside the blocks of expars_loop.h.
 *
 * Design.
 *   events  The LTLWS scheduler (model/policy/sm_sched_ltlws.c) takes each counter decision
 *           from the block's C reference run on its own state; through its tap
 *           (sm_sched_ltlws.h), given by the hook's sched_made, each event (a warp joining,
 *           issuing, leaving) is also a request to this scheduler's instance.
 *   clock   At the event: the request edge, then edges without a request until the registered
 *           answer (one; after the first warp's exit the divider's QW more), all stamped with the
 *           model cycle, as expars_loop.h clocks its blocks.
 *   check   Every output of the answer (answered, trigger, phase, W_Opt, the warp's counter,
 *           resident warps) against the model's; a difference stops the run with a located
 *           error (through expars_loop.h's failure path). The block's answer is the one the
 *           scheduler uses: with --drive rtl the RTL's. [expars] blocks_fault counts these
 *           comparisons with the others.
 * Only with [sm] scheduler = ltlws_lrr or ltlws_gto; otherwise there is nothing to step.
 */
#ifndef HD_EXPARS_LOOP_LTLWS_H
#define HD_EXPARS_LOOP_LTLWS_H

#include "expars_loop.h"
#include "sm_sched.h"
#include "timing_params.h"

#include <stddef.h>
#include <stdint.h>

struct hd_expars_ltlws_loop;

/* The instances for a GPU of params p beside the loop L (NULL *out: the scheduler is not an
 * LTLWS one). Returns 0, or -1 with a message when the SM's schedulers do not fit the built
 * block (configs/rtl/expars_ltlws.ini). */
int hd_expars_ltlws_loop_create(const struct hd_gpu_timing_params *p, struct hd_expars_loop *L,
                                struct hd_expars_ltlws_loop **out, char *err, size_t errlen);
void hd_expars_ltlws_loop_destroy(struct hd_expars_ltlws_loop *T);
/* Make the instances (once, at the hook's start). Returns 0 or -1 with a message. */
int hd_expars_ltlws_loop_make(struct hd_expars_ltlws_loop *T, char *err, size_t errlen);
/* Scheduler `idx` of SM `sm` was made: tap its counters. Returns 0 or -1 with a message. */
int hd_expars_ltlws_loop_sched(struct hd_expars_ltlws_loop *T, uint32_t sm, uint32_t idx,
                               const struct hd_sched *s, char *err, size_t errlen);

#endif
