/* SPDX-License-Identifier: MIT
 * gpuduet_loop.h - GPUDuet's hardware blocks stepped in the GPU timing loop in lockstep with the
 * model ([gpuduet] blocks; `heddle cosim --blocks gpuduet --in-loop`; issue 28 item 4; Lin thesis
 * §3.7-3.9, Table 3.4; docs/blocks/gpuduet.md "In the GPU"): per SM a warp context table
 * (gpuduet_wct), a TB context table (gpuduet_tbct) and an allocation bitmap (gpuduet_bitmap),
 * made through the GPU's block factory (hw_inst.h: the C references, or the RTL beside them).
 *
 * Design.
 *   tables  At the end of each cycle the model's WCT and TBCT entries (gpuduet_wct.c, the
 *           Table 3.4 fields only) are compared with what the loop last wrote into the blocks;
 *           each entry that differs is written through the port its change names: WCT finish
 *           (entry left), launch (entry new), stall detector (running -> stalled, addresses
 *           unchanged), memory response (stalled -> running, absent -> ready), CSL (anything
 *           else: a move changes the addresses); TBCT finish, launch, warp move (one Absmask bit,
 *           Smemaddr unchanged), TB move. One write per port per cycle (the blocks' ports); an
 *           entry whose port is taken waits for a later cycle. Every entry written is read back
 *           (one read per table per cycle) and the result, with the table's vectors (valid
 *           count, schedulable / stalled / ready warps; valid / shared-memory-present / whole
 *           TBs), must equal the fields the model had when they were written.
 *   bitmap  Every allocation and free the allocator makes in the unified space (gpuduet_alloc.c,
 *           not its dry runs) is queued, in order, with the model's answer; the block takes one
 *           at a time (its sequenced scan, docs/blocks/gpuduet.md), and each done_* must equal
 *           the model's first-fit base (or no room); when the queue empties, the block's free
 *           counts must equal the model's map.
 *   Any difference stops the run with a located message (cycle, SM, block, port, both values).
 *   The model's decisions do not read the blocks' outputs (the bitmap's answer comes cycles after
 *   the model used it), so --drive rtl gives the same cycles by construction; the checks are
 *   what make the blocks' state the model's.
 * Deterministic; nothing here depends on host state.
 */
#ifndef HD_GPUDUET_LOOP_H
#define HD_GPUDUET_LOOP_H

#include "hw_inst.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct gd;
struct gd_loop;

/* The loop for a GPU of params p; hw points at the GPU's factory (may point at NULL: the C
 * references). Returns NULL with a message when the SM's unified space does not fit the built
 * blocks (configs/rtl/gpuduet_*.ini: 128 warps, 32 TBs, RF 0x000-0x7FF, shared memory
 * 0x800-0xAFF, L1D 0xB00-0xBFF). */
struct gd_loop *gd_loop_create(const struct hd_gpu_timing_params *p,
                               const struct hd_hw_factory *const *hw, char *err, size_t errlen);
void gd_loop_destroy(struct gd_loop *L);
/* Make the instances (before the first cycle). Returns 0 or -1 with a message. */
int gd_loop_make(struct gd_loop *L, char *err, size_t errlen);

/* The allocator of SM sm took n units in region r (0 RF, 1 shared memory, 2 L1D) at unit
 * `unit` (UINT32_MAX: no room), or gave back n units at unit. */
void gd_loop_alloc(struct gd_loop *L, uint32_t sm, int r, uint32_t n, uint32_t unit);
void gd_loop_free(struct gd_loop *L, uint32_t sm, uint32_t unit, uint32_t n);

/* The end of cycle `now`: write what changed in g's tables, step every instance with work and
 * check what came back. Returns 0, or -1 with a located message. *busy: work is pending. */
int gd_loop_cycle(struct gd_loop *L, struct gd *g, uint64_t now, bool *busy, char *err,
                  size_t errlen);

/* Counts for the log: writes, reads checked, bitmap operations checked and still queued. */
void gd_loop_log(const struct gd_loop *L, FILE *f);

#endif
