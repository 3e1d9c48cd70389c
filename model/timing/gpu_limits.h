/* SPDX-License-Identifier: MIT
 * gpu_limits.h - run-time limits of the timing model: [timing] max_cycles and max_instructions
 * (heddle --max-cycles / --max-instructions), checked once per simulated cycle by the run loop,
 * and the watchdog on instruction progress.
 */
#ifndef HD_GPU_LIMITS_H
#define HD_GPU_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

struct hd_gpu_timing;

/* HD_FUNC_OK while the run is inside its limits; otherwise HD_FUNC_ERR_INTERNAL (as the
 * watchdog: the run stopped before its end, its statistics are kept) with a located report in
 * err: the limit, the cycle, the warp instructions, then what the watchdog reports (every
 * unfinished launch, the memory model's queues, busy SMs with their warps' state, PC and PTX
 * line). */
int hd_gpu_limits_check(const struct hd_gpu_timing *g, char *err, size_t errlen);

/* The watchdog on instruction progress (issue 34 item 7), called by the run loop at its poll
 * cycles: work that has arrived but no warp instruction issued for [timing] watchdog_cycles is a
 * livelock even when other things move (context saves and restores under stress mode count as
 * progress for the idle watchdog). `waiting`: no work has arrived (the GPU waits for a launch;
 * nothing is due). HD_FUNC_OK, or HD_FUNC_ERR_INTERNAL with a located report in err. */
int hd_gpu_livelock_check(struct hd_gpu_timing *g, bool waiting, char *err, size_t errlen);

#endif
