/* SPDX-License-Identifier: MIT
 * zorua_othresh.h - Zorua's oversubscription controller (Vijaykumar et al., Zorua Sec. 3.5,
 * Algorithm 1, Table 1; digest Sec. 2.5 and Sec. 8 items 1-2): o_thresh, the swap space each
 * resource may use, in percent of that resource's physical size, adapted once per epoch from
 * c_idle (cycles the SM issued nothing while its pipeline was not stalled: more parallelism
 * would help) and c_mem (cycles every warp waited on memory: more swap traffic would hurt).
 *
 * Design (session 14: the zorua_coord block's controller, docs/zorua.md "The controller"). The
 * controller takes per cycle the block's three 1-bit inputs, active_i (the SM runs a kernel),
 * idle_i and mem_i, and counts them as the block does: an epoch is `epoch` active cycles; c_idle
 * and c_mem are the epoch's counts and `*_prev` the previous epoch's (Table 1: "the statistics
 * for the previous epoch"); at the epoch's last cycle (its bits included) Algorithm 1 decides
 * with the block's own function (hd_zorua_coord_alg1, tables/zorua_coord.h: no second copy).
 * Its result is a registered output, visible one cycle later (zoth_step's *ep), as the block's
 * ep_* ports are; the caller applies o_thresh from it. One whole percentage for every resource;
 * each resource's limit = floor(pct x its physical units / 100) (the block's). No globals.
 */
#ifndef HD_ZORUA_OTHRESH_H
#define HD_ZORUA_OTHRESH_H

#include <stdbool.h>
#include <stdint.h>

struct zoth {
    uint32_t pct, step, max, delta; /* o_thresh, o_thresh_step, clamp (whole percent);
                                       c_delta_thresh (cycles) */
    uint32_t epoch, ecnt;           /* epoch length and the active cycles counted in it */
    uint32_t cidle, cmem, pidle, pmem; /* this and the previous epoch's counts */
    bool ep_v;                      /* the registered output: an epoch ended at the last step */
    uint32_t ep_pct;                /* its percentage */
    uint64_t epochs, ups, downs;    /* statistics */
};

void zoth_init(struct zoth *o, uint32_t o_default, uint32_t step, uint32_t max, uint32_t delta,
               uint32_t epoch);
/* One cycle: *ep_v, *ep_pct = the registered output during the cycle (an epoch ended at the
 * previous step, its new percentage), then the cycle's inputs are counted (when active). */
void zoth_step(struct zoth *o, bool active, bool idle, bool mem, bool *ep_v, uint32_t *ep_pct);
/* The swap limit of a resource of `units` physical units at percentage pct. */
uint32_t zoth_limit(uint32_t pct, uint32_t units);

#endif
