/* SPDX-License-Identifier: MIT
 * sm_alloc.h - the SM's allocation layer: how a CTA obtains warp slots, a CTA slot, registers
 * and shared memory, behind a small ops struct.
 *
 * Design: the CTA scheduler asks can_accept() with the CTA's demand, the SM calls accept() when
 * it places the CTA and release() when the CTA's last warp has drained. The demand says which
 * launch asks and at what priority, so an allocator can partition by kernel (Shieh's aligned
 * positions, quotas). Beyond whole CTAs, acquire()/release_part() grow and shrink a resident
 * grant by single warps, registers and shared memory (Zorua's phase boundaries, GPUDuet's warp
 * switching); plan_victims() answers "which resident CTAs, evicted, would let this demand fit"
 * (Lin's in-place switching, preemption); tick()/next_event() give an allocator timers (Zorua's
 * coordinator epoch) that survive the GPU's idle-cycle skipping. A grant names the CTA
 * slot, one warp slot per warp, the first register of the CTA's block in the register file and
 * the offset of its shared-memory block; the timing model reaches a warp's registers, its slot
 * and its shared memory only through these numbers, so later mechanisms (Zorua's mapping tables,
 * GPUDuet's allocation bitmap, Lin's in-place context switching, EXPARS) plug in here as other
 * implementations of the same ops. The default implementation ("partitioned") is the baseline
 * GPU: lowest free warp and CTA slots, and first-fit contiguous blocks of registers and shared
 * memory; a CTA fits when every resource has room at once. Its partial operations grow a
 * block at its top end when the space above it is free and shrink it from the top; a warp
 * acquired alone takes the lowest free warp slot. Its victim rule is in hd_alloc_ops below.
 * Allocators are chosen by [sm] allocator (hd_sm_alloc_create): "partitioned", "lin_tables"
 * (model/mech/lin/lin_alloc_tables.c: registers and shared memory through Lin's allocation
 * tables, whose spill query plans the victims) or "aligned" (model/mech/shieh: Shieh's aligned
 * positions). The SM calls acquire()/release_part() with one warp and no registers or shared
 * memory when a warp leaves its slot alone or comes back (model/timing/sm_residency.c).
 * Deterministic: only indices decide.
 */
#ifndef HD_SM_ALLOC_H
#define HD_SM_ALLOC_H

#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_hw_factory;

#define HD_ALLOC_MAX_WARPS 32 /* 1024 threads per CTA */
#define HD_ALLOC_NO_SLOT 0xFFFF /* warp_slot[] of a warp that holds no slot (released alone) */
#define HD_ALLOC_NO_WARP UINT32_MAX

/* What one CTA holds while resident: occupancy.c's hd_occ_cta_demand() computes it with the
 * configuration's allocation granularity; the GPU adds who asks. */
struct hd_cta_demand {
    uint32_t warps;    /* warp slots */
    uint32_t threads;
    uint32_t regs;     /* 32-bit registers of the whole CTA */
    uint64_t smem;     /* bytes of shared memory */
    uint32_t launch;   /* launch id of the CTA's kernel */
    int32_t priority;  /* the launch's priority: larger is more urgent (0: default) */
    /* warp-granular allocators (Zorua, WLM: model/mech/zorua; GPUDuet: model/mech/gpuduet):
     * what one warp holds, and the CTA's warps when the residency layer (sm_residency.c) trims
     * `warps` to those given a physical slot now (0: = warps) */
    uint32_t regs_per_warp;
    uint32_t all_warps;
};

struct hd_cta_grant {
    uint32_t cta_slot;
    uint32_t nwarps, threads;
    uint16_t warp_slot[HD_ALLOC_MAX_WARPS]; /* HD_ALLOC_NO_SLOT: that warp holds none now */
    uint32_t reg_base, regs;        /* register block [reg_base, reg_base + regs) */
    uint64_t smem_base, smem;       /* shared-memory block */
    uint32_t launch;                /* from the demand */
    int32_t priority;
};

/* A part of a grant: one warp (its index in the grant, or HD_ALLOC_NO_WARP), registers and
 * shared memory, acquired or released together. */
struct hd_alloc_part {
    uint32_t warp;
    uint32_t regs;
    uint64_t smem;
};

/* What is allocated right now (statistics, reports). */
struct hd_alloc_usage {
    uint32_t ctas, warps, threads, regs;
    uint64_t smem;
};

struct hd_alloc_ops {
    const char *name;
    bool (*can_accept)(const void *impl, const struct hd_cta_demand *d);
    /* Allocate d (false, changing nothing, if it does not fit). */
    bool (*accept)(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g);
    /* Release everything g still holds (its absent warps hold no slot). */
    void (*release)(void *impl, const struct hd_cta_grant *g);
    /* Grow resident grant g by part p, all or nothing (false: nothing changed). p->warp names
     * a warp of g that holds no slot now. */
    bool (*acquire)(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p);
    /* Shrink g by part p (p->warp: a warp of g that holds a slot; regs/smem at most what g
     * holds). */
    void (*release_part)(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p);
    /* Which resident CTAs, released, would let d fit? Writes their CTA slots into victims
     * (room for max_ctas) and returns how many (0: d fits now), or -1 if no allowed set does.
     * Leaves the allocation unchanged. Partitioned rule: candidates are the CTAs of other
     * launches with a lower priority than d's; taken in order of priority (lowest first), then
     * most recently placed first (least work lost), until d fits; then every victim that is
     * not needed is dropped again (latest taken first), so the set is minimal: no victim can be
     * left out. */
    int (*plan_victims)(void *impl, const struct hd_cta_demand *d, uint32_t *victims);
    /* Timers: tick once per cycle in which the SM is awake (returns progress: something
     * changed that may let a CTA be placed); next_event is the first cycle > now at which a
     * timer fires (UINT64_MAX: none), which the GPU's idle-cycle skipping respects. Both may be
     * NULL (no timers). */
    bool (*tick)(void *impl, uint64_t now);
    uint64_t (*next_event)(const void *impl, uint64_t now);
    /* Nothing allocated / what is allocated (reports, policies, tests). */
    bool (*is_idle)(const void *impl);
    void (*usage)(const void *impl, struct hd_alloc_usage *u);
    void (*destroy)(void *impl);
    /* Optional (NULL: none), for allocators whose hardware blocks step in the timing loop
     * (hw_inst.h): attach gives the SM's id and the GPU's block factory (*hw may be NULL then
     * or later: the C references); fault is 0, or -1 with a located message once a block failed
     * (a co-simulation mismatch, an assertion, an answer the allocator did not act on). */
    void (*attach)(void *impl, uint32_t sm, const struct hd_hw_factory *const *hw);
    int (*fault)(const void *impl, char *err, size_t errlen);
    /* Optional (NULL: not supported), Lin's in-place switching as Fig 2.4 draws it ([context]
     * inplace_split): plan_room is room for n CTAs of d in one plan: the CTA slots to evict in
     * victims (room for max_ctas) and per victim in parts which of its parts must leave
     * (HD_ALLOC_PART_REGS, HD_ALLOC_PART_SMEM; the other stays allocated); returns how many
     * (0: all n fit now), or -1 if no allowed set lets them fit. Leaves the allocation
     * unchanged. park releases everything grant g holds but its shared-memory block, which
     * stays allocated for the same CTA; returns a handle (UINT32_MAX: refused, nothing
     * changed). can_unpark / unpark: whether a CTA of d can take a new grant whose shared
     * memory is the parked block `handle` (slots, warps and registers allocated anew), and
     * take it (false: nothing changed). */
    int (*plan_room)(void *impl, const struct hd_cta_demand *d, uint32_t n, uint32_t *victims,
                     uint8_t *parts);
    uint32_t (*park)(void *impl, const struct hd_cta_grant *g);
    bool (*can_unpark)(const void *impl, const struct hd_cta_demand *d, uint32_t handle);
    bool (*unpark)(void *impl, const struct hd_cta_demand *d, uint32_t handle,
                   struct hd_cta_grant *g);
    /* Optional (NULL: not supported), Lin's stop in place ([context] inplace_stop): park_all
     * releases grant g's CTA slot, warp slots and threads and keeps its register and
     * shared-memory blocks allocated for the same CTA; returns a handle that can_unpark /
     * unpark accept (then only slots, warps and threads are allocated anew and the grant has
     * the same blocks), or UINT32_MAX (refused, nothing changed). plan_room with
     * HD_ALLOC_ROOM_STOP or'ed into n plans as if every allowed CTA gave up its slots, warps
     * and threads (they all stop), so only table blocks name victims. */
    uint32_t (*park_all)(void *impl, const struct hd_cta_grant *g);
    /* Optional (NULL: none): the allocator's own state in a few lines for the watchdog's report
     * of a stuck run (hd_sm_describe): what a mechanism holds that the SM's warp list does not
     * show (queues, tables, what it waits for). Writes at most len bytes, NUL-terminated. */
    void (*describe)(const void *impl, char *buf, size_t len);
};

#define HD_ALLOC_ROOM_STOP 0x80000000u

#define HD_ALLOC_PART_REGS 1u
#define HD_ALLOC_PART_SMEM 2u

struct hd_sm_alloc {
    const struct hd_alloc_ops *ops;
    void *impl;
};

/* Something that makes an allocator for SM `sm` (hd_gpu_timing_set_alloc: mechanisms and tests
 * that bring their own). Returns 0, or -1 on failure. */
typedef int (*hd_sm_alloc_make_fn)(const struct hd_sm_params *p, uint32_t sm, void *ctx,
                                   struct hd_sm_alloc *out);

/* The allocator configured in p->alloc ([sm] allocator): the partitioned one, or the one of the
 * mechanism that implements the value (mech.h). Returns 0, or -1 on host allocation failure. */
int hd_sm_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out);
/* The baseline ("partitioned") allocator. Returns 0, or -1 on allocation failure. */
int hd_sm_alloc_partitioned(const struct hd_sm_params *p, struct hd_sm_alloc *out);

#endif
