/* SPDX-License-Identifier: MIT
 * sm_sched_ext.h - the warp schedulers added after lrr, gto and two_level: Gong's hint-driven
 * warp-group scheduler and the baselines his ch.6 compares it with (docs/locality.md).
 *
 * Design: each is one file implementing struct hd_sched_ops (sm_sched.h), created by
 * hd_sched_create for its [sm] scheduler value:
 *   locality   sm_sched_locality.c  Gong ch.6 §6.3.2: warps in groups chosen by the launch's
 *                                   Table 6.1 hint; round-robin inside the active group, the
 *                                   next group (round-robin) once no warp of it is ready;
 *                                   hint 0: lrr exactly
 *   cta_aware  sm_sched_cta_aware.c  OWL-style CTA-aware scheduling (Jog et al., ASPLOS 2013):
 *                                   the warps of the oldest CTA first, round-robin inside it
 *   mascar     sm_sched_mascar.c    MASCAR-style (Sethia et al., HPCA 2015): GTO, but while
 *                                   the scheduler's warps saturate memory one owner warp goes
 *                                   first and warps without loads in flight come before the rest
 * The group key of a warp is computed once from its view (sm_sched.h) when it is first offered.
 */
#ifndef HD_SM_SCHED_EXT_H
#define HD_SM_SCHED_EXT_H

#include "sm_sched.h"

/* Each returns 0, or -1 on allocation failure. */
int hd_sched_locality_create(const struct hd_sm_params *p, struct hd_sched *out);
int hd_sched_cta_aware_create(const struct hd_sm_params *p, struct hd_sched *out);
int hd_sched_mascar_create(const struct hd_sm_params *p, struct hd_sched *out);

/* Gong ch.6's group of a warp (exposed for the unit test and the RTL reference): warp `k` of
 * `nwarps` in CTA (x, y) of a launch with Table 6.1 hint `hint` (low 2 bits), `arrival` its
 * arrival count at the scheduler, `ngroups` hint 3's group count. Warps with equal keys form one
 * group; keys order the groups (round-robin among them in ascending key order).
 *   hint 0: one group of every warp (lrr)
 *   hint 1: (y, k): warp k of every resident CTA in grid row y (§2.10, L1336)
 *   hint 2: the last warp of (x, y) with warp 0 of (x, y+1) (the shared boundary rows, L1350);
 *           the other warps by column x (L1352); one warp per CTA: by column
 *   hint 3: arrival mod ngroups (warps dealt round-robin into groups, L1356) */
uint64_t hd_locality_group(uint32_t hint, uint32_t x, uint32_t y, uint32_t k, uint32_t nwarps,
                           uint64_t arrival, uint32_t ngroups);

#endif
