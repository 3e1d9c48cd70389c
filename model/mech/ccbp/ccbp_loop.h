/* SPDX-License-Identifier: MIT
 * ccbp_loop.h - CCBP's two hardware blocks stepped in the GPU timing loop in lockstep with the
 * model ([ccbp] blocks; `heddle cosim --blocks ccbp --in-loop`; issue 29 item 6; Lin thesis
 * §4.5.1, digest §2.16, §3.14-3.15; docs/blocks/ccbp.md "In the loop"): one issue-rate
 * controller (ccbp_irc) per SM and one bandwidth monitor (ccbp_monitor) for the GPU, made
 * through the GPU's block factory (hw_inst.h: the C references, or the RTL beside them).
 *
 * Design.
 *   IRC      The model's IRCs are the C reference itself (tables/ccbp_irc.c, one state per SM
 *            in ccbp_irc.c), clocked at each miss-queue selection and departure: the edges
 *            that take what happened since the last one (Algorithm 1's quota writes, the window
 *            tick), the select edge with the per-class heads, a read-out edge whose output is
 *            the registered decision, and after a departure its count edge. Every edge the
 *            model's IRC takes, the SM's instance takes with the same inputs (ccbp_loop_irc);
 *            its outputs must equal the model's, and the outputs the model then uses are the
 *            instance's (with --drive rtl the RTL's). So a block runs faster than the core
 *            clock, all its edges stamped with the model cycle (as locality_loop.h's).
 *   monitor  Likewise the model's bandwidth monitor is the block's C reference (ccbp_mon.c),
 *            stepped at the end of each cycle with that cycle's counts from a one-cycle monitor
 *            subscription, the tick at the end of each [ccbp] monitor_window and the
 *            firmware's snapshot reads after it; the GPU's instance takes the same edges
 *            (ccbp_loop_mon), its outputs must equal the model's and are the ones used. Each
 *            snapshot read must also equal the sums of the model's monitor window (monitor.h,
 *            ccbp_mon.c): the values Algorithm 1's re-run uses, with --drive rtl the RTL's.
 *   ctrl     The controller (Algorithm 1, tables/ccbp_ctrl.c) is stepped by its firmware
 *            (ccbp_ctrl_fw.c) one edge per cycle while it runs, its first run's edges all
 *            stamped with cycle 0; the GPU's ccbp_ctrl instance takes the same edges
 *            (ccbp_loop_ctrl), its outputs must equal the model's and are the ones used: the
 *            CTA combination and quotas the run applies are, with --drive rtl, the RTL's.
 *   fault    [ccbp] blocks_fault = N (test only): from cycle N the IRC instances see every
 *            class's queue position one higher than the model's; the first select that grants
 *            must then be reported as a mismatch.
 *   Any difference stops the run with a located message (cycle, SM, block, signal, both values).
 * Deterministic; nothing here depends on host state.
 */
#ifndef HD_CCBP_LOOP_H
#define HD_CCBP_LOOP_H

#include "ccbp_ctrl.h"
#include "ccbp_irc.h"
#include "ccbp_monitor.h"
#include "hw_inst.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ccbp_loop;

/* The loop for a GPU of params p with `napps` applications; hw points at the GPU's factory
 * (may point at NULL: the C references). Returns NULL with a message when the configuration
 * does not fit the built blocks (more applications than A). */
struct ccbp_loop *ccbp_loop_create(const struct hd_gpu_timing_params *p, unsigned napps,
                                   const struct hd_hw_factory *const *hw, char *err,
                                   size_t errlen);
void ccbp_loop_destroy(struct ccbp_loop *L);
/* Make the instances (before the first cycle). Returns 0 or -1 with a message. */
int ccbp_loop_make(struct ccbp_loop *L, char *err, size_t errlen);

/* SM sm's IRC took edge `in` at cycle now and gave *out (the model's C reference): step the
 * instance with the same inputs and compare; *out becomes the instance's outputs. A mismatch
 * is kept for ccbp_loop_cycle to report. */
void ccbp_loop_irc(struct ccbp_loop *L, uint32_t sm, const struct hd_ccbp_irc_in *in,
                   struct hd_ccbp_irc_out *out, uint64_t now);

/* The GPU's monitor took edge `in` at cycle now and gave *out (the model's C reference): the
 * same for the instance; *out becomes the instance's outputs. A mismatch is kept. */
void ccbp_loop_mon(struct ccbp_loop *L, const struct hd_ccbp_monitor_in *in,
                   struct hd_ccbp_monitor_out *out, uint64_t now);

/* The controller took edge `in` at cycle now and gave *out (the model's C reference,
 * ccbp_ctrl_fw.c): the same for the GPU's ccbp_ctrl instance; *out becomes its outputs. A
 * mismatch is kept. */
void ccbp_loop_ctrl(struct ccbp_loop *L, const struct hd_ccbp_ctrl_in *in,
                    struct hd_ccbp_ctrl_out *out, uint64_t now);

/* The firmware's snapshot reads after a window closes: 5 measures x napps, one per cycle. */
unsigned ccbp_loop_reads(unsigned napps);

/* The end of cycle now: report a mismatch kept by ccbp_loop_irc or ccbp_loop_mon. Returns 0
 * or -1. */
int ccbp_loop_cycle(struct ccbp_loop *L, uint64_t now, char *err, size_t errlen);

/* Counts for the log: IRC edges, selections and grants checked, monitor edges and reads,
 * controller edges, runs and reads. */
void ccbp_loop_log(const struct ccbp_loop *L, FILE *f);

#endif
