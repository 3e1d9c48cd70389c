/* SPDX-License-Identifier: MIT
 * gpuduet_mover.h - GPUDuet's context switching logic's data mover in the timing loop: one
 * gpuduet_csl block per SM (tables/gpuduet_csl.h, rtl/gpuduet_csl/; Lin thesis §3.11, §2.13
 * Eq. 3.1-3.3; digest §2.13, §3.11) is the SM's warp mover, so that a warp's switch latency is
 * the block's output: its state / the port width, one beat per cycle only in the cycles the
 * pipeline leaves both arrays' ports free (issue 28 items 2 and 4; docs/blocks/gpuduet.md
 * "In the GPU", "The CSL's data mover").
 *
 * Two timings, one mover (session 21). With [gpuduet] blocks the block's instance comes from the
 * GPU's factory (the C reference or the RTL) and yields to the pipeline's ports (busy_i below).
 * Without (the default), and with [sm] warp_mover = fixed, the same mover steps the block's C
 * reference with busy_i = 0: Lin's contention-free Latency = State / BW (Eq. 3.1-3.3), through
 * ONE port per SM, so a TB's warps move one after another (State(TB) = N x ST + SS over one BW),
 * with the same queue, pacing and swap jobs as the block: the two timings differ only in the
 * port contention. Its beat is any [sm] warp_move_bytes (the reference's pw), not only the
 * block's three configurations. A job of B bytes alone completes 1 + ceil(B / PW) + 1 cycles
 * after its start (the command's edge, the beats, the registered done_*).
 *
 * Design.
 *   seam    With [gpuduet] blocks the mechanism installs this mover on every SM through the
 *           residency's mover seam (mech.h hd_mech_act.warp_mover): the SM's own lifecycle of a
 *           warp switch (slot, registers, saved state) is unchanged, only the completion cycle is
 *           the block's. Each move becomes a command (kind 0 switch-out, 1 switch-in; warp id =
 *           the warp's WCT entry; source and destination array; its bytes, what the hooks'
 *           warp_move_bytes gave: ST + LR x 128 B, ST, or ST + SS / N) queued in order in front
 *           of the block's one command port and presented while the block has room (QD jobs);
 *           the block's done_* completes the move (mech.h hd_mech_act.warp_moved).
 *   arrays  A switch-out reads the near array (the register file, or for TB-level switching the
 *           shared memory) and writes where the allocator reserved its spill space (the unit's
 *           region: shared memory, L1D or register file; gpuduet_alloc.c); the switch-in moves
 *           it back the other way. Virtual Thread, whose contexts stay in place, writes the warp
 *           slot's state (ST) to shared memory. A move whose spill lies in its own array, and the
 *           switch-in of a warp placed absent (nothing was stored), take ceil(bytes / PW) cycles
 *           without the block (counted: `fixed`).
 *   ports   busy_i each cycle is the pipeline's port use of that cycle (mech.h
 *           hd_mech_act.port_busy: the signal the SM's on-chip context mover yields to). A
 *           move of the warp slot's state alone (ST: warp slots limit, or Virtual Thread) is
 *           named as leaving the register-file side (the WCT's convention: present addresses
 *           are below the shared memory's), but it reads the warp slot, not a register bank:
 *           the register file's busy bit is passed only while a job in the block (or the
 *           command) moves registers.
 *   swap    A swap (the CSL's "switch the context spaces of them", §3.6.5; at TB level each
 *           pair of a stalled TB's warp and a ready TB's warp) is ONE
 *           move of the residency (hd_mech_act.warp_swap, struct hd_mech_wmove .swap) and ONE
 *           job of the block, kind 2: the stalled warp's bytes near -> far, then the ready
 *           warp's far -> near into the space just vacated; its done_* completes both (the
 *           residency completes the arriving warp with the leaving one). The slot and the
 *           registers change owner when the job is taken; the arriving warp runs from the cycle
 *           after done_*. Only when both contexts lie between the same two arrays
 *           (gd_mover_swap_ok); otherwise a switch-out job, then a switch-in job.
 *   pace    The CSL starts no switch-out while the SM's mover is backed up (gd_mover_held:
 *           a move waiting for the command port, or the block's QD jobs taken): one port per
 *           SM bounds the switching rate (the thesis's CSL is one FSM with one data mover; it
 *           does not say what happens when stalls come faster than the port moves them).
 * A done_* for another warp or kind than the queue's head, or a command refused, stops the run
 * with a located message (--drive rtl: the RTL's outputs are the decisions). Deterministic.
 */
#ifndef HD_GPUDUET_MOVER_H
#define HD_GPUDUET_MOVER_H

#include "hw_inst.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct gd;
struct gd_mover;

/* The movers of g's SMs; hw points at the GPU's factory (may point at NULL: the C references;
 * used only with [gpuduet] blocks). NULL with a message when [sm] warp_mover is not fixed, or,
 * with the blocks, when the configuration does not fit the built block ([sm] warp_move_bytes is
 * none of its configurations' port widths: 128, 64, 256 B, the instance kinds gpuduet_csl,
 * gpuduet_csl:pw64, gpuduet_csl:pw256). */
struct gd_mover *gd_mover_create(struct gd *g, const struct hd_gpu_timing_params *p,
                                 const struct hd_hw_factory *const *hw, char *err,
                                 size_t errlen);
void gd_mover_destroy(struct gd_mover *mv);
/* Make the instances and install the movers on the SMs (the hook's start). 0, or -1. */
int gd_mover_start(struct gd_mover *mv, char *err, size_t errlen);
/* The end of cycle `now` (after the CSL's decisions of the cycle): step every SM's block with
 * its command and the pipeline's port use, complete the moves it reports done. *busy: a move is
 * queued or under way. 0, or -1 with a located message. */
int gd_mover_cycle(struct gd_mover *mv, uint64_t now, bool *busy, char *err, size_t errlen);
/* May the swap of stalled WCT entry `out` (its spill reserved) with ready entry `in` on SM sm
 * be ONE job of the block (kind 2: both contexts between the same two arrays, the arriving
 * one's stored where the leaving one's goes)? The CSL then swaps them with
 * hd_mech_act.warp_swap (gpuduet_csl.c). */
bool gd_mover_swap_ok(struct gd_mover *mv, uint32_t sm, uint32_t out, uint32_t in);
/* Is SM sm's data mover backed up (a move waits for the block's command port, or QD jobs are
 * in the block)? The CSL then starts no switch-out (counted: `held`); switch-ins go on. */
bool gd_mover_held(struct gd_mover *mv, uint32_t sm);
/* The log's line: csl jobs= outs= ins= swaps= (kind-2 jobs: each one switch-out and one
 * switch-in) beats= beats_want= (the sum of ceil(bytes / PW) over
 * the jobs taken) waits= held= (switch-outs held, per SM and cycle) bytes= fixed= (moves that
 * took the fixed latency) latency= (start to usable, summed over the jobs done) max_waiting=
 * steps= left= (jobs not done at the end). */
void gd_mover_log(const struct gd_mover *mv, FILE *f);

#endif
