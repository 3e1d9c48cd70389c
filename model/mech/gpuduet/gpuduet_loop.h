/* SPDX-License-Identifier: MIT
 * gpuduet_loop.h - GPUDuet's hardware blocks stepped in the GPU timing loop in lockstep with the
 * model ([gpuduet] blocks; `heddle cosim --blocks gpuduet --in-loop`; issue 28 item 4; Lin thesis
 * §3.7-3.9, Table 3.4; docs/blocks/gpuduet.md "In the GPU"): per SM a warp context table
 * (gpuduet_wct) and a TB context table (gpuduet_tbct), made through the GPU's block factory
 * (hw_inst.h: the C references, or the RTL beside them).
 *
 * Design. Since session 15 the two tables are the model's in every run (gpuduet_tab.h: the C
 * references in a plain run; with [gpuduet] blocks the same instances are made through the GPU's
 * factory, so under cosim the RTL is beside them or, with --drive rtl, gives the reads the CSL
 * decides from), as the allocation bitmap (gpuduet_bmap.h) and the queues (gpuduet_queues.c) are.
 * What is left here is the check that the GPU fits the blocks as built.
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

#endif
