/* SPDX-License-Identifier: MIT
 * preempt_policy.h - preemption policies: when a launch of higher priority cannot place a CTA,
 * which SMs give room, and which of their resident CTAs leave and how (context switch, drain,
 * flush) or stay (Lin §2.2 in-place switching; Shieh §2.3-2.5 per-TB technique selection;
 * Chimera's SM-granular choice).
 *
 * Design: the GPU top (model/ctx/ctx_preempt.c) owns the mechanics (reservations, requests, records,
 * the context lifecycle's suspend/switch/flush); a policy only decides. It sees, per SM, a
 * read-only view of every resident CTA (launch, priority, flush bit, progress, what it holds and
 * where) and what the asking launch needs, and answers with one action per CTA slot for the SMs
 * it chooses. A CTA marked DRAIN is left to finish (it stops nothing); SWITCH and FLUSH suspend
 * it at once (a FLUSH the flush bit refuses becomes a drain and is counted); SWITCH_REGS is a
 * SWITCH whose save writes the registers only, the CTA's shared memory staying allocated on the
 * SM until it resumes there (Lin Fig 2.4, [context] inplace_split). A chosen SM takes
 * no new lower-priority CTA until the launch has placed every CTA (the reservation), so CTAs a
 * policy KEEPs run on beside the newcomer (dual-kernel SMs). A CTA in transit (being suspended,
 * saved or restored) takes no action. The view carries each CTA's progress and its launch's
 * finished-CTA totals (Shieh's CPI predictor, Chimera's drain estimate). A policy is asked
 * again whenever the launch still cannot place a CTA, so it sees the SMs it chose before
 * (reserved_for_asker) and must not count their leaving CTAs twice. Policies are chosen by
 * [context] preempt_policy (hd_preempt_policy_create).
 *   sm       as many SMs as the launch needs among those holding no CTA of another launch of
 *            equal or higher priority: every CTA of the other launches there leaves with
 *            [context] preempt (SM-granular; Lin's baseline). Where SMs may mix kernels an SM
 *            that holds some of the asker's CTAs counts too.
 * The mechanisms add theirs through their registry entries (mech.h): Lin's `inplace`
 * (model/mech/lin/lin_inplace.c), Shieh's `shieh` and `oracle` and the Chimera baselines
 * (model/mech/shieh/).
 */
#ifndef HD_PREEMPT_POLICY_H
#define HD_PREEMPT_POLICY_H

#include "sm_alloc.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stdint.h>

enum hd_preempt_act { HD_PACT_KEEP, HD_PACT_SWITCH, HD_PACT_DRAIN, HD_PACT_FLUSH,
                      HD_PACT_SWITCH_REGS /* Lin Fig 2.4: registers out, shared memory stays
                                             allocated in place ([context] inplace_split) */,
                      HD_PACT_SWITCH_STAY /* Lin 2.5.5 ([context] inplace_stop): it stops at its
                                             point and leaves its slots; registers and shared
                                             memory stay in place, its save writes its SIMT
                                             stacks only */ };

/* One resident CTA as a policy sees it. */
struct hd_preempt_cta {
    uint32_t slot;             /* CTA slot on the SM */
    uint32_t launch;           /* launch id */
    int32_t priority;          /* its launch's priority */
    uint64_t cta;              /* linear CTA index in its grid */
    uint32_t ctx;              /* context id (ctx_pool.h) */
    bool flushable;            /* flush bit: it has not written global memory yet */
    bool in_transit;           /* being suspended, saved or restored: no action applies now */
    uint64_t placed;           /* cycle it was placed (or resumed) on this SM */
    uint64_t warp_instrs;      /* warp instructions it executed since it (re)started from its
                                  first instruction, over all its residencies */
    uint64_t done_ctas, done_instrs, done_cycles; /* its launch's finished CTAs: how many, their
                                  warp instructions, their cycles from first placement to end */
    uint64_t done_cpi_n;       /* of those finished CTAs with an instruction: how many, the sum */
    double done_cpi_sum, done_cpi_sq; /* of their CPIs and of their squares */
    struct hd_cta_grant grant; /* what it holds and where (registers, shared memory, slots) */
};

/* One SM. */
struct hd_preempt_sm {
    uint32_t sm;
    bool reserved;             /* being freed for another launch (or for a signal) */
    bool reserved_for_asker;   /* being freed for the asking launch already */
    bool holds_higher;         /* holds a CTA of another launch with priority >= the asking
                                  launch's */
    bool holds_asker;          /* holds a CTA of the asking launch */
    uint32_t ncta;             /* resident CTAs, in cta[0..ncta) */
    const struct hd_preempt_cta *cta;
    struct hd_alloc_usage used; /* what its allocator holds now */
};

/* What the launch asking for room needs. */
struct hd_preempt_need {
    uint32_t launch;
    int32_t priority;
    struct hd_cta_demand demand; /* one of its CTAs */
    uint64_t ctas_left;          /* CTAs (fresh or to resume) still to place */
    uint32_t ctas_per_sm;        /* its occupancy on an empty SM */
    uint32_t sms_needed;         /* SMs it still needs beyond the ones reserved for it */
    uint64_t bound;              /* preemption-latency constraint in cycles (0: none) */
    uint64_t now;
};

/* What a policy may ask the GPU while it plans. */
struct hd_preempt_env {
    void *gpu;
    /* The CTA slots of SM sm whose CTAs, evicted, would let d fit (sm_alloc.h plan_victims):
     * count, 0 if it fits now, -1 if no allowed set does. slots has room for max_ctas. */
    int (*plan_victims)(void *gpu, uint32_t sm, const struct hd_cta_demand *d, uint32_t *slots);
    uint32_t max_ctas;         /* CTA slots per SM */
    bool mixing;               /* an SM may hold CTAs of several kernels ([sm]
                                  concurrent_kernels); if not, the asking launch needs SMs
                                  without other kernels' CTAs */
    void *tables;              /* the in-loop hardware the policy decides from, made by its
                                  mechanism's attach (mech.h) when ops.tables asked for it
                                  (e.g. Shieh's tables, mech/shieh/shieh_loop.h); NULL: none */
    uint64_t *drain_est;       /* [nsms * max_ctas * 2]: for the SMs it chooses, a policy that
                                  estimates drains writes each CTA slot's drain latency by
                                  Shieh's predictor ([.. * 2]) and by Chimera's estimate
                                  ([.. * 2 + 1]), whichever it decided by (HD_SHIEH_INF: no
                                  statistics); the GPU records them beside each drained CTA's
                                  true drain time (timing_stats.h hd_drain_obs). Preset to
                                  UINT64_MAX (none). */
    /* Room for n CTAs of d on SM sm in one plan (sm_alloc.h plan_room): victims' CTA slots in
     * slots, per victim the parts that leave in parts (HD_ALLOC_PART_*); count, 0 if they fit
     * now, -1 if no allowed set does. NULL: the SM's allocator cannot plan parts or [context]
     * inplace_split is off. */
    int (*plan_room)(void *gpu, uint32_t sm, const struct hd_cta_demand *d, uint32_t n,
                     uint32_t *slots, uint8_t *parts);
};

struct hd_preempt_policy_ops {
    const char *name;
    /* Choose SMs among sms[0..nsms) (every SM of the GPU, in id order): write their ids into
     * chosen (room for nsms) and each chosen SM's actions into act[sm * max_ctas + slot] (all
     * KEEP on entry); returns how many SMs. The GPU applies them in order. */
    unsigned (*plan)(void *impl, const struct hd_preempt_need *need,
                     const struct hd_preempt_sm *sms, unsigned nsms,
                     const struct hd_preempt_env *env, uint32_t *chosen, uint8_t *act);
    void (*destroy)(void *impl);
    uint8_t tables;            /* which in-loop hardware it decides from, made and stepped by
                                  its mechanism (mech.h attach; the values are the mechanism's,
                                  0: none) */
};

struct hd_preempt_policy {
    const struct hd_preempt_policy_ops *ops;
    void *impl;
};

/* The policy [context] preempt_policy names: a generic one (preempt_policy.c) or the one of
 * the mechanism that implements it (mech.h; *mech = its index in hd_mechs, else UINT32_MAX).
 * hw: the GPU's block factory. Returns 0, or -1 (message in err). */
struct hd_hw_factory;
int hd_preempt_policy_create(const struct hd_gpu_timing_params *p,
                             const struct hd_hw_factory *const *hw, struct hd_preempt_policy *out,
                             uint32_t *mech, char *err, size_t errlen);
/* A preemption primitive as a policy's action. */
static inline uint8_t hd_preempt_act_of(enum hd_cfg_preempt prim)
{
    return prim == HD_PREEMPT_DRAIN ? HD_PACT_DRAIN
           : prim == HD_PREEMPT_FLUSH ? HD_PACT_FLUSH
                                      : HD_PACT_SWITCH;
}

#endif
