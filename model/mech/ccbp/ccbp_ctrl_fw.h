/* SPDX-License-Identifier: MIT
 * ccbp_ctrl_fw.h - the CCBP controller's firmware around the ccbp_ctrl block (Lin thesis
 * §4.5.2, digest §2.17 Algorithm 1, §3.15; docs/blocks/ccbp.md "The controller"): it converts a
 * profile (struct ccbp_prof) and the machine into the block's tables and fixed-point parameters,
 * and sequences the block one edge per cycle: the writes (with the start on the last), the wait
 * for done_o, the read-out of every application's CTAs, shares and quota. The block's C
 * reference (tables/ccbp_ctrl.c) is the model's controller; with [ccbp] blocks each edge also
 * goes to the block's instance (the lockstep callback), whose outputs are the ones used.
 *
 * Conversions (the firmware's, documented in docs/blocks/ccbp.md):
 *   curves   own = NBI nbw, DBI dbw, LS nbw (Q8.16); three resource tables, other (NBI, LS
 *            dbw, DBI nbw), request crossbar (req), reply crossbar (rep): per n the ratio
 *            resource / own in Q8.24 for NBI / DBI where own (as written) is not 0, else the
 *            resource's curve in Q8.16; rounded to nearest, saturating.
 *   D        NBI noc_sustain x 100, DBI dram_sustain x 100, LS prior_ls / its static share per
 *            CTA (the largest of 1 / CTA slots, threads, registers, shared bytes over the SM's;
 *            1 / nmax without demands); Q8.16, at least 1 LSB.
 *   demands  every application with a per-CTA demand: threads, registers, shared bytes and one
 *            CTA slot against the SM's capacities; else resource 0 = floor(2^20 x the static
 *            share per CTA) against 2^20 (the sum of the shares <= 1).
 *   quota    factor = peak per window / cost / SMs / 100 (requests per SM per window per
 *            percent; ccbp_alg1.h ccbp_quota's rule): Q16.16, 0 for LS or an unknown cost.
 */
#ifndef HD_CCBP_CTRL_FW_H
#define HD_CCBP_CTRL_FW_H

#include "ccbp_alg1.h"
#include "ccbp_ctrl.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CCBP_CTL_PROG_MAX (CCBP_APPS * (8 + 4 * CCBP_NMAX) + 8)
/* A run's edges at most: 4,095 iterations of 65,535 cycles and the writes and reads (the
 * limits the firmware accepts end every run; this only guards the first run's loop). */
#define CCBP_CTL_MAX_EDGES 300000000u

_Static_assert(CCBP_APPS <= CCBP_CTRL_A && CCBP_NMAX <= CCBP_CTRL_NM,
               "ccbp: the controller block holds every application's curves");

/* Lockstep: the block instance takes edge `in` and *out (the reference's) becomes its outputs. */
typedef void (*ccbp_ctl_lock_fn)(void *arg, const struct hd_ccbp_ctrl_in *in,
                                 struct hd_ccbp_ctrl_out *out);

struct ccbp_ctl {
    struct hd_ccbp_ctrl_state s;       /* the block's C reference */
    struct hd_ccbp_ctrl_in prog[CCBP_CTL_PROG_MAX];
    unsigned nprog, pc, phase, rd, k;
    uint32_t d[CCBP_APPS];             /* the D written (Q8.16): the log's dominant shares */
    uint32_t res[CCBP_APPS][4];        /* CTAs, NoC share, DRAM share, quota */
    unsigned steps;
    uint64_t edges, runs;
};

/* Whether profile p fits the block's formats on SM capacity c and step_cycles: 0, or -1 with a
 * message. */
int ccbp_ctl_check(const struct ccbp_prof *p, const struct ccbp_caps *c, uint32_t step_cycles,
                   char *err, size_t errlen);
/* Prepare a run: all = the whole profile (tables, parameters), else only the quota factors
 * (the costs a re-run measured); the start goes with the last write. */
void ccbp_ctl_prepare(struct ccbp_ctl *t, const struct ccbp_prof *p, const struct ccbp_caps *c,
                      const struct ccbp_machine *m, uint32_t window, uint32_t step_cycles,
                      bool all);
/* One edge of the prepared run (lock may be NULL); true when the results are in. */
bool ccbp_ctl_edge(struct ccbp_ctl *t, ccbp_ctl_lock_fn lock, void *arg);
/* The results as an allocation (CTAs, shares in percent, dominant shares, iterations) and the
 * quotas. */
void ccbp_ctl_result(const struct ccbp_ctl *t, const struct ccbp_prof *p, struct ccbp_alloc *a,
                     uint32_t *quota);

#endif
