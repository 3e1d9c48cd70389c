/* SPDX-License-Identifier: MIT
 * gpuduet_loop.h - GPUDuet's hardware blocks stepped in the GPU timing loop in lockstep with the
 * model ([gpuduet] blocks; `heddle cosim --blocks gpuduet --in-loop`; issue 28 item 4; Lin thesis
 * §3.7-3.9, Table 3.4; docs/blocks/gpuduet.md "In the GPU"): per SM a warp context table
 * (gpuduet_wct) and a TB context table (gpuduet_tbct), made through the GPU's block factory
 * (hw_inst.h: the C references, or the RTL beside them).
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
 *   bitmap  (since session 14 not here: the allocation bitmap block is the allocator's only map
 *           in every run, gpuduet_bmap.h; with the blocks it is made through the same factory,
 *           so under cosim the RTL answers the allocations, or drives them with --drive rtl.)
 *   Any difference stops the run with a located message (cycle, SM, block, port, both values).
 *   The model's decisions do not read the two tables' outputs, so --drive rtl gives the same
 *   cycles here by construction; the checks are what make the blocks' state the model's.
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

/* The end of cycle `now`: write what changed in g's tables, step every instance with work and
 * check what came back. Returns 0, or -1 with a located message. *busy: work is pending. */
int gd_loop_cycle(struct gd_loop *L, struct gd *g, uint64_t now, bool *busy, char *err,
                  size_t errlen);

/* Counts for the log: writes, reads checked, and the bitmap blocks' operations (the
 * allocators', gd_alloc_bitmap_counts). */
void gd_loop_log(const struct gd_loop *L, FILE *f, uint64_t bitmap_ops);

#endif
