/* SPDX-License-Identifier: MIT
 * runner.h - functional-only execution of a whole launch (no timing).
 *
 * Design: CTAs run one after another (CTA i on SM i mod num_sms, for %smid); inside a CTA the
 * warps take turns round-robin, each for up to a small quantum of instructions or until it waits
 * at a barrier or finishes. When no warp can run and some have not finished, the barrier
 * deadlock is reported with the kernel, CTA, barrier and PTX line. The interrupt flag (set by a
 * signal handler in the caller) is polled every few thousand instructions. The timing model does
 * not use this runner: it drives hd_func_warp_step() itself.
 */
#ifndef HD_FUNC_RUNNER_H
#define HD_FUNC_RUNNER_H

#include "launch.h"

#define HD_FUNC_RUN_QUANTUM 32        /* instructions a warp runs before the next warp's turn */
#define HD_FUNC_RUN_POLL 4096         /* instructions between interrupt-flag checks */

/* Run every CTA of `l` to completion. Returns HD_FUNC_OK or an error with the report in l->err
 * (fault, deadlock, HD_FUNC_ERR_INTERRUPTED if *l->interrupt became non-zero). */
int hd_func_run(struct hd_func_launch *l);

#endif
