/* SPDX-License-Identifier: MIT
 * warpman_alloc.h - Warpman, warp-level resource management (Xiang, Yang, Zhou, HPCA 2014), as
 * EXPARS compares with it (Yu et al. TACO 2018, L37, L270, L292, L307-L309; digest
 * ../shared/reference/papers/expars.md §2.10): the `warpman` allocator ([sm] allocator).
 *
 * Model (digest §2.10, the rule that reproduces every static Warpman average of the paper):
 * an SM takes whole CTAs as the baseline does (a CTA slot, its shared memory, a warp slot and
 * regs_per_warp registers for every warp); when a CTA does not fit whole, it still takes it as
 * the one *partial* CTA when a CTA slot is free, its whole shared memory fits and at least one
 * warp's registers and slot are free: floor(free registers / regs_per_warp) of its warps (at
 * most the free warp slots, fewer than all) start at once, the others wait without a slot.
 * Registers are counted per warp, not as a contiguous block per CTA: a warp that exits gives
 * its slot and registers back at once (per-warp release), and a waiting warp starts when a slot
 * and its registers are free (the grant counted in registers: acquire()), lowest warp first, in
 * the order the substrate asks (sm_residency.c: the waiting warps are due at once, and no new
 * CTA is placed while one waits). A waiting warp never ran, so it starts like a dispatched warp
 * (hd_sm_params.fresh_unstarted: no context move). At most one CTA is partial at a time. A
 * barrier of the partial CTA counts every warp's arrival (the functional CTA), so it waits for
 * the warps that have not started.
 *
 * Shared memory is placed first fit per CTA as the partitioned allocator does (sm_alloc.c), so
 * a CTA's block has an address; registers have no address here (reg_base 0: the on-chip warp
 * mover, which needs one, is not combined with Warpman). No preemption (plan_victims: fits or
 * not). Deterministic: only indices decide. No globals.
 */
#ifndef HD_WARPMAN_ALLOC_H
#define HD_WARPMAN_ALLOC_H

#include "sm_alloc.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stdint.h>

/* The admission rule as arithmetic (unit-tested by hand): a CTA of `nwarps` warps needing
 * `rpw` registers per warp, on an SM with `free_regs` registers and `free_slots` warp slots
 * free, a CTA slot free and its shared memory fitting. Returns the warps that start now:
 * nwarps (whole), 1 .. nwarps-1 (the partial CTA: floor(free_regs / rpw), at most free_slots;
 * only when `partial_held` is false, no other CTA being partial), or 0 (not placed). */
uint32_t hd_warpman_start_warps(uint32_t nwarps, uint32_t rpw, uint32_t free_regs,
                                uint32_t free_slots, bool partial_held);

/* The allocator value `warpman` (warpman_mech.c's table). Returns 0, or -1 on host OOM. */
int hd_warpman_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out);

#endif
