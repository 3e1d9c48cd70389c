/* SPDX-License-Identifier: MIT
 * haws_loop.h - the HAWS blocks in the GPU timing loop (Gong thesis ch.5 §5.2.4; issue 30 item 4;
 * docs/blocks/haws.md §9-10): per warp slot of every SM one result collection unit (haws_rcu),
 * one register rename table (haws_rename), one shadow SIMT stack (haws_shadow_stack) and one warp
 * controller (haws_warp_ctl), made through the GPU's block factory (hw_inst.h: the C references,
 * or the RTL in lockstep under `heddle cosim --blocks haws --in-loop`), stepped by the SM's
 * run-ahead engine's events (model/timing/sm_ahead.c through ahead.h hd_ahead_ops.event, .rcu,
 * .raw, .ctl, .filter, .top), their outputs checked.
 *
 * Design.
 *   events  The engine reports each change of a warp's RCU: CLEAR (trigger, discard), ALLOC (a
 *           hint-mode issue: entry, offset, destinations, renamed, branch, write-back cycle),
 *           READY (a load's write-back), RETURN (back to in-order execution), POP (the return
 *           reached the head). Each becomes block edges: CLEAR clears both blocks, ALLOC is an
 *           RCU allocation and one rename-table write per destination (register -> entry),
 *           READY an RCU write-back, RETURN clears the rename table, POP an RCU pop. An ALU
 *           entry's write-back is an RCU write-back edge at its cycle (applied before any later
 *           edge of that warp and at the end of every cycle).
 *   clock   A block steps only when its warp has something to do: one edge per event, stamped
 *           with the model cycle (several in one cycle when several things happen, as locality's
 *           loop), plus read-out edges for a decision. Outputs are registered (a step shows the
 *           state before its edge), so a decision takes its answer from a read-out step.
 *   check   Every RCU and rename-table step's outputs are compared port by port with what the
 *           engine's events say the block must hold (the engine's RCU and register mapping as
 *           reported: count, full, tail, valid and ready bits, the head's fields; the
 *           lookups, the mapping count, no refused write). A difference stops the run with a
 *           located error (cycle, SM, warp slot, block, port, both values, the event) at the end
 *           of the cycle.
 *   drive   The engine takes three decisions from these two (hd_ahead_ops.rcu, .raw): RCU full
 *           (the chain stops), the RAW check of a hint-mode instruction's sources (rename lookup,
 *           then the RCU entry's ready bit) and the return's fetch filter (the head's offset,
 *           ready, branch and renamed != dst: wait, copy or skip). Each is also compared with the
 *           engine's own answer; with --drive rtl the answers are the RTL's, so the cycles are
 *           identical exactly when there is no mismatch.
 *   names   Registers are the model's kernel-wide register numbers (REGW bits, 12 in the loop's
 *           sizing: PTX virtual registers exceed the thesis's 255); a renamed destination's
 *           renamed name is one of the top DEPTH register names (2^REGW - 1 - entry: unused
 *           registers, as the thesis's compiler renames into unused ones). A kernel register
 *           that does not fit below those names is a located error.
 *   ctl     The shadow stack and the warp controller: RESET, TRIGGER, WALK and STEPPED events
 *           (and the filter and top decisions) are request edges, each followed by a read-out
 *           edge whose outputs (the block's registered state after the request) are kept per
 *           warp and checked against the engine's (mode, stall PC, steps, episode, the issue's
 *           step, rename bit and load tag, the filter's answer, the shadow top and depth). The
 *           engine takes its mode/parked/stall PC/branch-due view (no step: the kept outputs),
 *           the fetch filter's answer and the walk's shadow top from them. The controller's
 *           clear_o clears the shadow stack. Another block is added by appending an enum kind, a
 *           row of the kinds table and its event function.
 * [haws] blocks_fault N corrupts the expectation of the run's N-th block step (a test of the
 * check). Deterministic; no globals except immutable tables.
 */
#ifndef HD_HAWS_LOOP_H
#define HD_HAWS_LOOP_H

#include "ahead.h"
#include "hw_inst.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_haws_loop;

/* The blocks for a GPU of params p over the factory *hw (read at make; may point at NULL: the C
 * references). NULL with a message when the configuration does not fit the built blocks. */
struct hd_haws_loop *hd_haws_loop_create(const struct hd_gpu_timing_params *p,
                                         const struct hd_hw_factory *const *hw, char *err,
                                         size_t errlen);
void hd_haws_loop_destroy(struct hd_haws_loop *L);
/* Make the instances (once, before the first cycle so that waveforms declare them). */
int hd_haws_loop_make(struct hd_haws_loop *L, char *err, size_t errlen);

/* {==== The engine's events and decisions (ahead.h hd_ahead_ops.event, .rcu, .raw) ==== */
void hd_haws_loop_event(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                        const struct hd_ahead_event *e, uint64_t now);
void hd_haws_loop_rcu(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                      struct hd_ahead_rcu_view *v, uint64_t now);
void hd_haws_loop_raw(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, const int32_t *src,
                      unsigned n, uint32_t *mapped, uint32_t *ready, uint64_t now);
/* The shadow stack's and the warp controller's decisions (ahead.h hd_ahead_ops.ctl, .filter,
 * .top): the engine's answer in (compared), the blocks' out. */
void hd_haws_loop_ctl(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                      struct hd_ahead_ctl_view *v, uint64_t now);
void hd_haws_loop_filter(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                         struct hd_ahead_filter_req *f, uint64_t now);
void hd_haws_loop_top(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, uint32_t adv,
                      struct hd_ahead_top *t, uint64_t now);
/* The end of cycle now: due write-backs; returns 0, or -1 with the located mismatch. */
int hd_haws_loop_cycle(struct hd_haws_loop *L, uint64_t now, char *err, size_t errlen);
/* }==== */

#endif
