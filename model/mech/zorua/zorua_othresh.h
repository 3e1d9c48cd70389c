/* SPDX-License-Identifier: MIT
 * zorua_othresh.h - Zorua's oversubscription controller (Vijaykumar et al., Zorua Sec. 3.5,
 * Algorithm 1, Table 1; digest Sec. 2.5 and Sec. 8 items 1-2): o_thresh, the swap space each
 * resource may use, in percent of that resource's physical size, adapted once per epoch from
 * c_idle (cycles the SM issued nothing while its pipeline was not stalled: more parallelism
 * would help) and c_mem (cycles every warp waited on memory: more swap traffic would hurt).
 *
 * Design. Algorithm 1 with its Table 1 values as parameters (o_default 10 %, step 4 %,
 * hysteresis 16 cycles, epoch 2048 cycles). Choices where the paper is silent: one percentage
 * for every resource, each resource's limit = floor(pct x its physical units / 100); c_idle and
 * c_mem are cumulative counters, so c_x - c_x_prev is the epoch's count and the rule compares
 * the epoch's idle and memory-stall cycles (the `_prev` values are taken at each epoch's end,
 * which Algorithm 1 does not write); pct is clamped to [0, o_max]. Pure: the caller feeds the
 * counters and the cycle. No globals.
 */
#ifndef HD_ZORUA_OTHRESH_H
#define HD_ZORUA_OTHRESH_H

#include <stdbool.h>
#include <stdint.h>

struct zoth {
    double pct, step, max;     /* o_thresh, o_thresh_step, clamp (percent) */
    uint64_t delta_thresh;     /* c_delta_thresh (cycles) */
    uint64_t epoch, next;      /* epoch length; the cycle its current epoch ends */
    uint64_t idle_prev, mem_prev;
    uint64_t epochs, ups, downs; /* statistics */
};

void zoth_init(struct zoth *o, double o_default, double step, double max, uint64_t delta_thresh,
               uint64_t epoch);
/* At cycle now with the cumulative c_idle and c_mem: if an epoch ended (now >= next), apply
 * Algorithm 1 once and start the next epoch; returns true when pct changed. */
bool zoth_update(struct zoth *o, uint64_t now, uint64_t c_idle, uint64_t c_mem);
/* The swap limit of a resource of `units` physical units. */
uint32_t zoth_limit(const struct zoth *o, uint32_t units);

#endif
