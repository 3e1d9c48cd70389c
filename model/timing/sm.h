/* SPDX-License-Identifier: MIT
 * sm.h - one streaming multiprocessor of the timing model: its public operations.
 *
 * Design: the SM is a cycle-level pipeline over the functional model (execute at issue):
 * fetch through an L1 instruction cache into per-warp instruction buffers, N warp schedulers
 * (sm_sched.h) over a scoreboard, operand collectors reading a banked register file, SP / SFU /
 * DP / LD-ST pipelines with per-class latency and initiation interval, a result bus, shared-memory
 * bank conflicts, coalescing of global/local accesses into requests to the memory interface
 * (mem_iface.h), barriers and fences as warp states. CTAs are placed by the GPU through the
 * allocation layer (sm_alloc.h) and reported back when their last warp has drained. The tick
 * evaluates the stages from last to first (rule C8) and returns whether anything moved. Details,
 * timelines and the stall classification: docs/timing.md. Internals: sm_impl.h.
 */
#ifndef HD_SM_H
#define HD_SM_H

#include "ctx_pool.h"
#include "launch.h"
#include "mem_iface.h"
#include "sm_alloc.h"
#include "timing_params.h"
#include "timing_stats.h"
#include "tkernel.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A launch as the SMs see it (owned by the GPU, valid while any of its CTAs is resident). */
/* Finished CTAs of a launch or of a kernel: how many, their warp instructions, their cycles from
 * first placement to the end, and their CPIs (cycles / warp instructions, of those with an
 * instruction): count, sum, sum of squares (the preemption policies' progress estimates,
 * preempt_policy.h; Shieh's lower-variance CPI predictor, shieh_cost.h). */
struct hd_done_totals {
    uint64_t n, instrs, cycles;
    uint64_t cpi_n;
    double cpi_sum, cpi_sq;
};

struct hd_sm_launch {
    struct hd_func_launch *l;
    const struct hd_tkernel *tk;
    struct hd_launch_info *info;  /* its statistics */
    struct hd_line_stats *lines;  /* per-PC counters of its kernel */
    uint32_t id;                  /* launch id (memory requests carry it) */
    uint32_t bank_budget;         /* registers per thread the bank numbers fold into (occupancy's
                                     count; 0: no folding, PTX numbering) */
    struct hd_cta_demand demand;
    struct hd_ctx_list ctxs;      /* its finished contexts (reused) and its resume queue */
    uint32_t resident;            /* its CTAs on SMs now (any state but QUEUED / SAVED) */
    struct hd_done_totals done;   /* its finished CTAs */
    struct hd_done_totals *kdone; /* its kernel's finished CTAs over every launch of it (owned by
                                     the GPU; NULL: none kept) */
};

/* What an SM is connected to. */
struct hd_sm_env {
    struct hd_mem *mem;
    struct hd_sm_stats *stats;
    struct hd_sched_stats *sched_stats; /* [num_sched] */
    struct hd_ctx_pool *pool;           /* every CTA context of the GPU (shared) */
    const struct hd_ctx_params *ctx;
    const struct hd_hw_factory *const *hw; /* block factory of the loop (may point to NULL) */
};

struct hd_sm;
struct hd_hw_factory;

struct hd_sm *hd_sm_create(const struct hd_sm_params *p, uint32_t id, const struct hd_sm_env *env,
                           char *err, size_t errlen);
void hd_sm_destroy(struct hd_sm *sm);

/* Could a CTA of `la` be placed now (resources, and kernel mixing rules)? */
bool hd_sm_can_accept(const struct hd_sm *sm, const struct hd_sm_launch *la);
/* Can this SM take context x back now? A context whose shared memory stayed in place (Lin Fig
 * 2.4, ctx_pool.h smem_parked) only on the SM that keeps it, with its parked block. */
struct hd_ctx;
bool hd_sm_can_resume(const struct hd_sm *sm, const struct hd_ctx *x);
/* Place a fresh CTA of `la` whose context is c (state RESIDENT, from hd_ctx_acquire). Returns
 * 0, or an HD_FUNC_ERR_* with a message. */
int hd_sm_place_cta(struct hd_sm *sm, struct hd_sm_launch *la, struct hd_ctx *c, uint64_t now,
                    char *err, size_t errlen);
/* Place context c (QUEUED) again: restarted from its beginning if it was flushed, else restored
 * through the context engine (its warps run once the bytes are back). Returns 0 or an error. */
int hd_sm_resume_cta(struct hd_sm *sm, struct hd_ctx *c, uint64_t now, char *err, size_t errlen);

/* {==== Context lifecycle (docs/context.md) ==== */
/* Stop resident CTA slot `slot` for op (SWITCH: save and free; FLUSH: drop and restart). A
 * flush of a CTA that wrote global memory is refused (false, counted). */
bool hd_sm_cta_suspend(struct hd_sm *sm, uint32_t slot, enum hd_ctx_op op, uint64_t now);
/* Resident CTA slots: the context in slot i (NULL when free or not RESIDENT). */
struct hd_ctx *hd_sm_cta_ctx(const struct hd_sm *sm, uint32_t slot);
/* Contexts saved or flushed since the last call (ids), at most max: the GPU queues them. */
unsigned hd_sm_evicted(struct hd_sm *sm, uint32_t *out, unsigned max);
/* Responses forwarded to this SM wait in its inbox (the GPU wakes a sleeping SM for them). */
bool hd_sm_has_inbox(const struct hd_sm *sm);
/* Does any CTA of `la` hold resources here (resident, suspending, saving, restoring)? */
bool hd_sm_holds_launch(const struct hd_sm *sm, const struct hd_sm_launch *la);
/* }==== */

/* One cycle. Returns true if anything moved. A functional fault stops the SM: *status becomes
 * non-zero and err holds the report. */
bool hd_sm_tick(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen);

/* Launches whose CTAs finished since the last call (one entry per CTA), at most max. */
unsigned hd_sm_retired(struct hd_sm *sm, struct hd_sm_launch **out, unsigned max);

/* Has resident CTAs or work in flight (must be ticked)? */
bool hd_sm_busy(const struct hd_sm *sm);
/* Resident warps and CTAs now. */
void hd_sm_occupancy(const struct hd_sm *sm, uint32_t *warps, uint32_t *ctas);
/* The earliest cycle > now at which this SM's state can change by itself (a scheduled event),
 * or UINT64_MAX; valid right after a tick that made no progress. */
uint64_t hd_sm_next_event(const struct hd_sm *sm, uint64_t now);
/* Account `n` skipped cycles in which nothing could change (same stalls as the last cycle). */
void hd_sm_skip(struct hd_sm *sm, uint64_t n);

/* The resident CTA of `la` with the lowest linear index (false if none). */
bool hd_sm_lowest_cta(const struct hd_sm *sm, const struct hd_sm_launch *la, uint64_t *linear,
                      uint32_t ctaid[3]);
/* Human-readable state for a deadlock report (queues, waiting warps with PC and PTX line). */
void hd_sm_describe(const struct hd_sm *sm, uint64_t now, char *buf, size_t len);
/* Drop every CTA and everything in flight (after a failed or interrupted run). */
void hd_sm_abort(struct hd_sm *sm);


#endif
