/* SPDX-License-Identifier: MIT
 * gpuduet_bmap.h - GPUDuet's allocation bitmap of one SM as the model's only map of the unified
 * on-chip storage (Lin thesis §3.7, Table 3.4; digest §3.7; issue 28 item 4 "the model's
 * decisions are the blocks' outputs"; docs/blocks/gpuduet.md "In the GPU").
 *
 * Design. An instance of the gpuduet_bitmap block per SM, made through a block factory: the C
 * reference (hw_ref.h) in a plain run, the GPU's factory with [gpuduet] blocks (under cosim the
 * RTL beside the reference, or driving it). The allocator (gpuduet_alloc.c) keeps no bitmap of
 * its own: it queues allocations (n units in a region) and frees (n units from a base) here, in
 * order, each allocation with a tag; gd_bmap_step() presents the queue's head to the block once
 * per cycle (taken when busy_o is 0; the block works on one operation at a time, reading and
 * writing one 64-bit word per cycle: S scanned words + 1 + M marked words, done_* registered one
 * cycle later) and hands each allocation's done_* (ok, base) to the callback with its tag, in the
 * cycle the block shows it. A free's done_* must say ok (else a located error: the model freed a
 * range the block refused). The model's allocation then takes the cycles the block takes.
 * Deterministic; nothing here depends on host state.
 */
#ifndef HD_GPUDUET_BMAP_H
#define HD_GPUDUET_BMAP_H

#include "hw_inst.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An allocation's answer: ok, base (the run's first unit in the unified space). */
typedef void (*gd_bmap_done_fn)(void *ctx, uint64_t tag, bool ok, uint32_t base);

struct gd_bmap_op {
    bool al;
    uint8_t region;   /* allocation: 0 RF, 1 shared memory, 2 L1D */
    uint32_t n, base; /* units; a free's base */
    uint64_t tag;
};

struct gd_bmap {
    struct hd_hw_inst x;
    bool made;
    struct gd_bmap_op *q;     /* operations not yet taken by the block */
    uint32_t qh, qn, qcap;
    bool inflight;            /* an operation was taken: its done_* is awaited */
    struct gd_bmap_op cur;
    gd_bmap_done_fn done;
    void *ctx;
    uint64_t steps, allocs, frees, nospace, busy_cycles;
    uint64_t wait_cycles;     /* cycles an operation waited in the queue (the block busy) */
    /* the allocator's counts, kept here because they outlive it (the log): swaps' spill and
     * register hand-overs (no bitmap operation), TBs' registers or spills placed by one search */
    uint64_t xchg_sp, xchg_rf, tb_one;
    /* ... the placements (session 20's trace): stages started, found no room, dropped because a
     * resident TB's or warp's switch-in found no room, dropped for another demand or fewer slots,
     * TBs placed */
    uint64_t stg_runs, stg_fails, stg_drop_acq, stg_drop_dem, stg_placed;
};

/* Make SM sm's instance through factory f (NULL: the C reference). 0, or -1 with a message. */
int gd_bmap_make(struct gd_bmap *b, const struct hd_hw_factory *f, uint32_t sm,
                 gd_bmap_done_fn done, void *ctx, char *err, size_t errlen);
void gd_bmap_destroy(struct gd_bmap *b);
/* Queue an allocation of n (>= 1) units in region r with tag, or a free. false: out of host
 * memory. */
bool gd_bmap_alloc(struct gd_bmap *b, unsigned r, uint32_t n, uint64_t tag);
bool gd_bmap_free(struct gd_bmap *b, uint32_t base, uint32_t n);
/* Operations queued or at the block. */
bool gd_bmap_busy(const struct gd_bmap *b);
/* The cycle's edge. 0, or -1 with a located message. */
int gd_bmap_step(struct gd_bmap *b, uint32_t sm, uint64_t now, char *err, size_t errlen);

#endif
