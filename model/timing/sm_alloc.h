/* SPDX-License-Identifier: MIT
 * sm_alloc.h - the SM's allocation layer: how a CTA obtains warp slots, a CTA slot, registers
 * and shared memory, behind a small ops struct.
 *
 * Design: the CTA scheduler asks can_accept() with the CTA's demand, the SM calls accept() when
 * it places the CTA and release() when the CTA's last warp has drained. A grant names the CTA
 * slot, one warp slot per warp, the first register of the CTA's block in the register file and
 * the offset of its shared-memory block; the timing model reaches a warp's registers, its slot
 * and its shared memory only through these numbers, so later mechanisms (Zorua's mapping tables,
 * GPUDuet's allocation bitmap, Lin's in-place context switching, EXPARS) plug in here as other
 * implementations of the same ops. The default implementation ("partitioned") is the baseline
 * GPU: lowest free warp and CTA slots, and first-fit contiguous blocks of registers and shared
 * memory; a CTA fits when every resource has room at once. Deterministic: only indices decide.
 */
#ifndef HD_SM_ALLOC_H
#define HD_SM_ALLOC_H

#include "timing_params.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_ALLOC_MAX_WARPS 32 /* 1024 threads per CTA */

/* What one CTA holds while resident: occupancy.h's hd_occ_cta_demand() computes it with the
 * configuration's allocation granularity. */
struct hd_cta_demand {
    uint32_t warps;    /* warp slots */
    uint32_t threads;
    uint32_t regs;     /* 32-bit registers of the whole CTA */
    uint64_t smem;     /* bytes of shared memory */
};

struct hd_cta_grant {
    uint32_t cta_slot;
    uint32_t nwarps, threads;
    uint16_t warp_slot[HD_ALLOC_MAX_WARPS];
    uint32_t reg_base, regs;        /* register block [reg_base, reg_base + regs) */
    uint64_t smem_base, smem;       /* shared-memory block */
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
    void (*release)(void *impl, const struct hd_cta_grant *g);
    bool (*is_idle)(const void *impl);
    void (*usage)(const void *impl, struct hd_alloc_usage *u);
    void (*destroy)(void *impl);
};

struct hd_sm_alloc {
    const struct hd_alloc_ops *ops;
    void *impl;
};

/* The baseline ("partitioned") allocator. Returns 0, or -1 on allocation failure. */
int hd_sm_alloc_partitioned(const struct hd_sm_params *p, struct hd_sm_alloc *out);

#endif
