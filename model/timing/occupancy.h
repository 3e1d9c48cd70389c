/* SPDX-License-Identifier: MIT
 * occupancy.h - how many CTAs of a kernel fit on one SM at once, how many warps that makes, and
 * which resource limits it (registers, shared memory, warp slots/threads, CTA slots), or why the
 * kernel does not fit at all.
 *
 * Design: a pure function of the SM's resource parameters (struct hd_occ_params, taken once from
 * the configuration) and one kernel's per-CTA resources (struct hd_occ_kernel). The CTA scheduler
 * of the timing model, `heddle ptx-info` and `heddle list` all use it, so the number in a report
 * is the number the model runs with. A CTA's demand (hd_occ_cta_demand) is:
 *   warps   = ceil(threads_per_cta / warp_size)   (a partial warp holds a whole warp slot)
 *   threads = warps x warp_size                     (GPGPU-Sim's padded CTA size)
 *   regs    = warps x roundup(regs_per_thread x warp_size, reg_alloc_unit)
 *   smem    = roundup(static + dynamic shared bytes, smem_alloc_unit)
 *   local   = local bytes per thread x threads     (.local variables and register spills)
 * and the CTAs per SM are min(max_ctas, max_warps / warps, registers / regs, shared / smem,
 * local memory per SM / local; the last through hd_occupancy_local), a resource the CTA does not use (0 registers, 0 bytes) placing no
 * limit. Local memory lives in device memory, which the driver must back for every resident
 * thread: an SM's share is the device memory divided by the SMs (a 1 TiB .local array does not
 * fit, where it used to report 100 %).
 *
 * Allocation granularity (configuration keys [sm] reg_alloc_unit and smem_alloc_unit): registers
 * are allocated per warp in units of reg_alloc_unit registers. 128 is exactly GPGPU-Sim's rule
 * (regs_per_thread rounded up to a multiple of 4, times the warp-padded CTA size: 32 x
 * roundup4(r) = roundup(32r, 128)), which the papers' Fermi and Maxwell results come from, so
 * fermi-gtx480 and maxwell-gpuduet use it; kepler-gk110 uses 32 (no rounding: Gong's Multi2Sim
 * model divides 65536 by regs x threads). Real hardware (the CUDA occupancy calculator) uses 64
 * on Fermi and 256 on Kepler and Maxwell. Shared memory is allocated per CTA in units of
 * smem_alloc_unit bytes; 1 (exact) is what GPGPU-Sim and Multi2Sim do, the hardware uses 128
 * (Fermi) or 256 (Kepler, Maxwell). Per-warp register rounding and then dividing the whole
 * file equals the calculator's two-step "warps by registers, then CTAs" rule, because
 * floor(floor(a / b) / c) = floor(a / (b c)).
 *
 * A kernel asking for more registers per thread than max_regs_per_thread (say 64 from ptxas for
 * sm_75 on a 63-register Fermi) is counted at max_regs_per_thread and flagged regs_clamped: a
 * compiler for that target caps the allocation and spills the rest, so the kernel still runs.
 * "Does not fit" (ctas = 0) has one reason: no threads, more threads than the SM holds, or a
 * single CTA needing more registers or shared memory than the SM has. Ties between limiting
 * resources are all reported (limit_mask).
 */
#ifndef HD_OCCUPANCY_H
#define HD_OCCUPANCY_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* {==== Parameters ==== */
struct hd_occ_params {
    uint32_t warp_size;
    uint32_t max_threads;         /* resident threads per SM */
    uint32_t max_warps;           /* max_threads / warp_size: warp slots */
    uint32_t max_ctas;            /* CTA slots */
    uint32_t registers;           /* 32-bit registers per SM */
    uint32_t max_regs_per_thread;
    uint64_t shared_bytes;        /* shared memory per SM */
    uint32_t reg_alloc_unit;      /* registers per warp are a multiple of this (>= 1) */
    uint32_t smem_alloc_unit;     /* shared bytes per CTA are a multiple of this (>= 1) */
    uint64_t local_bytes;         /* device memory for local memory per SM (global / SMs) */
};

/* Take the parameters from a configuration (which should have passed hd_config_validate). */
void hd_occ_params_from_config(const struct hd_config *cfg, struct hd_occ_params *p);
/* }==== */

/* {==== One kernel's resources and its demand per CTA ==== */
struct hd_occ_kernel {
    uint32_t threads_per_cta;     /* blockDim.x * y * z */
    uint32_t regs_per_thread;     /* from the register allocator or ptxas */
    uint64_t smem_static;         /* .shared variables the kernel reaches */
    uint64_t smem_dynamic;        /* extern .shared, sized at launch */
};

struct hd_occ_demand {
    uint32_t warps;               /* warp slots */
    uint32_t threads;             /* warps x warp_size */
    uint32_t regs_per_warp;       /* roundup(regs_per_thread x warp_size, reg_alloc_unit) */
    uint64_t regs;                /* warps x regs_per_warp */
    uint64_t smem;                /* rounded up to smem_alloc_unit */
    uint64_t local;               /* local bytes per thread x threads (hd_occupancy_local) */
};

/* }==== */

/* {==== Occupancy ==== */
enum hd_occ_limit {
    HD_OCC_REGISTERS,  /* the register file */
    HD_OCC_SHARED,     /* shared memory */
    HD_OCC_THREADS,    /* warp slots (max_threads / warp_size) */
    HD_OCC_CTA_SLOTS,  /* max_ctas */
    HD_OCC_LOCAL,      /* device memory backing local memory */
    HD_OCC_NOFIT,      /* not even one CTA fits (see enum hd_occ_nofit) */
    HD_OCC_LIMIT_COUNT
};

enum hd_occ_nofit {
    HD_OCC_FITS,
    HD_OCC_NO_THREADS,         /* threads_per_cta == 0 */
    HD_OCC_CTA_TOO_MANY_THREADS, /* more warps than the SM has warp slots */
    HD_OCC_CTA_TOO_MANY_REGS,  /* one CTA needs more than the register file */
    HD_OCC_CTA_TOO_MUCH_SHARED, /* one CTA needs more than the shared memory */
    HD_OCC_CTA_TOO_MUCH_LOCAL  /* one CTA needs more local memory than an SM's share */
};

#define HD_OCC_UNLIMITED UINT32_MAX

struct hd_occupancy {
    struct hd_occ_demand demand;
    uint32_t regs_per_thread;  /* as counted: min(kernel's, max_regs_per_thread) */
    bool regs_clamped;         /* the kernel asked for more than max_regs_per_thread */
    /* CTAs per SM that each resource alone allows (HD_OCC_UNLIMITED when the CTA uses none) */
    uint32_t by[HD_OCC_NOFIT];
    uint32_t ctas;             /* CTAs per SM: the minimum of by[] (0: does not fit) */
    uint32_t warps;            /* resident warps: ctas x demand.warps */
    uint32_t threads;          /* resident threads (active, not padded): ctas x threads_per_cta */
    double occupancy;          /* warps / max_warps */
    enum hd_occ_limit limit;   /* the first limiting resource in enum order, or HD_OCC_NOFIT */
    unsigned limit_mask;       /* every resource that reaches the minimum: bit (1u << limit) */
    enum hd_occ_nofit nofit;
    char reason[192];          /* "" when it fits; else e.g. "one CTA needs 40960 registers, the
                                  SM has 32768" */
};

/* Compute the occupancy of kernel k on an SM with parameters p. Returns 0 when at least one CTA
 * fits, -1 (limit HD_OCC_NOFIT, reason filled) when none does. Never fails otherwise. */
int hd_occupancy_compute(const struct hd_occ_params *p, const struct hd_occ_kernel *k,
                         struct hd_occupancy *out);
/* The local memory per thread that occupancy counts: the kernel's frames (.local variables,
 * call parameters: hd_func_local_bytes) plus 4 bytes per 32-bit word the register allocator
 * spilled (its spill_words at the configuration's register budget). */
uint64_t hd_occ_local_per_thread(uint64_t frame_bytes, uint32_t spill_words);
/* A kernel's occupancy with its local memory: hd_occupancy_compute then hd_occupancy_local.
 * The one function of `heddle ptx-info`, `heddle list` and the timing model's CTA scheduler, so
 * they agree. Returns 0 when at least one CTA fits, else -1. */
int hd_occupancy_kernel(const struct hd_occ_params *p, const struct hd_occ_kernel *k,
                        uint64_t local_per_thread, struct hd_occupancy *o);

/* "registers", "shared memory", "threads", "CTA slots", "local memory", "does not fit". */
const char *hd_occ_limit_name(enum hd_occ_limit l);
/* The limiting resources joined by '+' ("registers+shared memory"), or "does not fit: REASON";
 * buf is always NUL-terminated. Returns buf. */
const char *hd_occ_limit_string(const struct hd_occupancy *o, char *buf, size_t len);
/* }==== */

#endif
