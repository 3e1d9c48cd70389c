/* SPDX-License-Identifier: MIT
 * cosim_hw.h - the co-simulation as a block factory (model/hw/hw_inst.h): every instance the
 * timing model makes through it runs the block's C reference and, on the chosen SMs, its
 * Verilated RTL in lockstep, every output port compared every step (cosim_inst.h). Review
 * 2026-11 §4.3, issue 11 item 6, issue 16 items 4-5.
 *
 * Design: the factory's context keeps the options and every instance made. A step returns the
 * reference's outputs, or the RTL's with drive_rtl (then the RTL steers the model). A mismatch
 * or a failed RTL assertion makes the step fail with a located message (cycle, instance, block,
 * port or assertion name and source line) and writes an FST window of the instance's last
 * cycles (+ .gtkw) to fail_fst. With fst_path every instance is dumped (no limit) over the
 * model-cycle window [win_a, win_b]; FST time is the model cycle, so the instances of all SMs
 * share one clock. Instance names are "smN.<block>" (N chooses the RTL with sms[]).
 * fst_internal names blocks whose RTL instances also dump their internal signals: those are
 * built from the --public-flat-rw variant of the block (hd_cosim_rtl_find_internal); every other
 * instance runs the plain model, so nothing changes (or costs) when it is NULL.
 * Destroy the factory after every instance made with it.
 */
#ifndef HD_COSIM_HW_H
#define HD_COSIM_HW_H

#include "hw_inst.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_COSIM_HW_MAX_SMS 256

struct hd_cosim_hw_opts {
    bool rtl;                /* lockstep with the RTL (the build must have it) */
    bool drive_rtl;          /* steps return the RTL's outputs */
    bool sm_all;             /* RTL on every SM, else on sms[] */
    bool sms[HD_COSIM_HW_MAX_SMS];
    const char *plusargs;    /* "+name ..." for the RTL, NULL: none */
    const char *fail_fst;    /* FST window on a failure (NULL: cosim-mismatch.fst) */
    unsigned window;         /* steps kept before a failure (0: 64) */
    const char *fst_path;    /* on-demand FST of every instance (NULL: none) */
    uint64_t win_a, win_b;   /* its model-cycle window, inclusive */
    const char *fst_internal; /* blocks with internal signals in fst_path ("all", "a,b"; NULL) */
    bool coverage;           /* count every instance's coverage bins (hd_cover.h) */
};

struct hd_cosim_hw_stats {
    unsigned instances, rtl_instances;
    uint64_t steps, rtl_steps, failures;
};

struct hd_cosim_hw;
struct hd_cover_sum;

/* NULL with a message (RTL asked for but not built, FST cannot be created, no memory). */
struct hd_cosim_hw *hd_cosim_hw_create(const struct hd_cosim_hw_opts *o, char *err, size_t errlen);
const struct hd_hw_factory *hd_cosim_hw_factory(struct hd_cosim_hw *h);
const struct hd_cosim_hw_stats *hd_cosim_hw_stats(const struct hd_cosim_hw *h);
/* Close the on-demand FST (+ .gtkw). Returns 0 or -1 with a message (also when a block named
 * by fst_internal had no RTL instance in the run: its signals would silently be missing). */
int hd_cosim_hw_finish(struct hd_cosim_hw *h, char *err, size_t errlen);
void hd_cosim_hw_destroy(struct hd_cosim_hw *h);
/* With opts.coverage: the coverage bins per block summed over the instances destroyed so far
 * (every instance, once the GPU is gone), or NULL. */
const struct hd_cover_sum *hd_cosim_hw_coverage(const struct hd_cosim_hw *h);

#endif
