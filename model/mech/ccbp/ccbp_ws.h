/* SPDX-License-Identifier: MIT
 * ccbp_ws.h - Warped-Slicer [Xu16] in its online form, a baseline of Lin thesis ch.4 (issue 29;
 * docs/blocks/ccbp.md "Baselines" and "Session 30: Warped-Slicer online").
 *
 * Design ([ccbp] ws_online; ccbp_ws.c): the co-run starts with a sampling phase. SM s belongs
 * to application s x napps / nsm and runs only that application, at a CTA limit of its own
 * (ccbp_ws_counts over the application's CTAs per SM), so each SM is one point of one
 * application's IPC-vs-CTA curve with the other SMs' memory traffic in it. After [ccbp]
 * ws_warmup cycles each SM counts each application's warp instructions for [ccbp] ws_sample
 * cycles; then the curves are made (ccbp_ws_interp) and one CTA combination is chosen on them
 * (ccbp_ws_pick, [ccbp] ws_rule) over the combinations that fit an SM (ccbp_ws_fits), and it
 * holds on every SM for the rest of the run (CCBP's admission policy: CTAs above the new limit
 * finish, none is preempted). The pure functions below are the choice; the rest is the phase.
 */
#ifndef HD_CCBP_WS_H
#define HD_CCBP_WS_H

#include "ccbp_alg1.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ccbp_ws_rule {
    CCBP_WS_WATER = 0, /* water-filling: one CTA at a time to the application whose normalized
                          IPC (its curve over the curve's highest point) is lowest, while the
                          CTA fits and raises its IPC; ties to the lower index */
    CCBP_WS_SUM,       /* the fitting combination (each >= 1) with the smallest sum of
                          slowdowns (highest point / IPC at n); the first in lexicographic
                          order on ties (experiments/ccbp.py ws_combo on measured curves) */
};

/* One application's IPC-vs-CTA curve on one SM and its static demand per CTA. */
struct ccbp_ws_curve {
    unsigned nmax;                /* CTAs per SM it may take (the curve's length, <= CCBP_NMAX) */
    double ipc[CCBP_NMAX + 1];    /* warp instructions per cycle of one SM at n CTAs; [0] = 0 */
    uint32_t threads, regs, smem; /* per CTA (0: no demand of that resource) */
};

/* Does combination n[0..k) fit one SM of capacity caps: n[i] <= nmax, and the sums of threads,
 * registers, shared memory and CTAs within the SM (experiments/ccbp.py _fits; Algorithm 1's
 * static CanAlloc). */
bool ccbp_ws_fits(const struct ccbp_ws_curve *cv, unsigned k, const struct ccbp_caps *caps,
                  const unsigned *n);

/* The combination of rule (enum ccbp_ws_rule) for curves cv[0..k): n[0..k), and *score (sum:
 * the sum of slowdowns; water: the lowest normalized IPC). An application whose curve is 0
 * everywhere counts as flat (normalized IPC 1, slowdown 1 at any n >= 1). Returns 0, or -1
 * when no combination with one CTA or more of each fits. */
int ccbp_ws_pick(const struct ccbp_ws_curve *cv, unsigned k, const struct ccbp_caps *caps,
                 unsigned rule, unsigned *n, double *score);

/* ipc[0..nmax] from m sampled points (counts x[0..m) ascending and distinct, IPC y): linear
 * between them, from 0 at 0 to the first, flat after the last (experiments/ccbp.py _interp). */
void ccbp_ws_interp(const unsigned *x, const double *y, unsigned m, unsigned nmax, double *ipc);

/* The CTA limits a group of g SMs samples for an application of nmax CTAs per SM: out[0..g).
 * The counts are 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 below nmax and nmax itself (the profile's
 * points, experiments/ccbp.py CURVE_POINTS); more counts than SMs: g of them spread evenly
 * over the list, both ends kept; fewer: the list again from its start (a count sampled twice
 * is averaged). */
void ccbp_ws_counts(unsigned nmax, unsigned g, unsigned *out);

/* The phase inside CCBP (ccbp.h's struct ccbp; docs/blocks/ccbp.md "Session 30"). */
struct ccbp;
struct hd_admit_query;
struct hd_warp_view;
/* [ccbp] ws_online: check the keys and make the phase's state (c->ws). 0, or -1 with a
 * message. */
int ccbp_ws_make(struct ccbp *c, uint32_t max_warps, char *err, size_t errlen);
void ccbp_ws_free(struct ccbp *c);
/* While the phase holds: may SM q->sm take a CTA of application a (1 yes, 0 no); -1 when the
 * phase is over (the CTA combination decides). Learns each launch's demand and grid. */
int ccbp_ws_admit(struct ccbp *c, const struct hd_admit_query *q, unsigned a, uint64_t now);
/* c->res[sm][a] is about to change at now (the resident CTAs' integral over the sample). */
void ccbp_ws_resident(struct ccbp *c, uint32_t sm, unsigned a, uint64_t now);
/* The hook's sched_warp (each SM's warp instructions per application over the sample). */
void ccbp_ws_sched_warp(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                        const struct hd_warp_view *v, uint64_t now);
/* Every cycle the hook is called: at the sample's end the curves, the choice, the new
 * combination (*ready: the CTA scheduler must look again). Returns whether the phase holds. */
bool ccbp_ws_cycle(struct ccbp *c, uint64_t now, bool *ready);
/* The log's ws_* lines. */
void ccbp_ws_log(const struct ccbp *c, FILE *f);

#endif
