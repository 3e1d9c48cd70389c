/* SPDX-License-Identifier: MIT
 * sm_sched.h - warp-scheduling policies behind a small ops struct (style rule C9).
 *
 * Design: each of an SM's N schedulers owns the warps in slots i with i mod N equal to its index
 * and issues at most issue_width instructions per cycle. The SM keeps the set of warps whose next
 * instruction could issue (decoded, operands free, not waiting at a barrier); the policy only
 * orders that set, and the SM takes the first warp in the order whose collector unit is free.
 * So a policy costs work proportional to the ready warps, not to all warps. Policies hear about
 * residency (add/remove, with an age: smaller is older), issues, and long waits (a load, a
 * barrier, a fence, an instruction-cache miss) so that two-level scheduling can demote a warp.
 *   lrr        loose round-robin: start after the warp that issued last
 *   gto        greedy-then-oldest: the warp that issued last while it stays ready, then by age
 *   two_level  an active set of sched_active_warps warps scheduled round-robin; a warp that
 *              starts a long wait goes to the tail of the pending pool and the pool's head takes
 *              its place (Narasiman et al., MICRO 2011)
 * Later policies (HAWS, locality-aware warp groups) are further implementations of these ops.
 * Policies name warps by slot; env->view() fills a read-only view of a slot's warp (its launch,
 * CTA, warp in CTA, next PC, pending long loads, state and the per-PC annotations of its next
 * instruction, annot.h), computed only when asked, so a policy that does not look costs nothing.
 * A policy that sets offer_blocked is also offered the resident warps that cannot issue now
 * (their view says why), in slot order with the ready ones; the SM still issues only ready warps,
 * so such a policy can look ahead (HAWS) or keep a warp's place (prefetching warp pools). lrr,
 * gto and two_level look at nothing but slots and ages, as before.
 */
#ifndef HD_SM_SCHED_H
#define HD_SM_SCHED_H

#include "annot.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stdint.h>

/* Why a warp cannot issue (or that it can). */
enum hd_wview_state {
    HD_WV_READY,     /* may issue if its collector unit is free */
    HD_WV_FETCH,     /* no decoded instruction */
    HD_WV_BARRIER,
    HD_WV_MEMBAR,    /* fence */
    HD_WV_WAIT_MEM,  /* its next instruction needs a register a load will write */
    HD_WV_WAIT_ALU,  /* ... an ALU instruction will write */
    HD_WV_DRAIN,     /* its threads exited; instructions in flight */
    HD_WV_OTHER      /* suspended, restoring, or another state of the context lifecycle */
};

/* A read-only view of one resident warp. */
struct hd_warp_view {
    uint32_t slot;             /* hardware warp slot (what the ops name) */
    uint32_t launch;           /* launch id */
    uint64_t cta;              /* linear CTA index in its grid */
    uint32_t cta_slot;
    uint32_t warp_in_cta;      /* %warpid */
    uint32_t next_pc;          /* kernel-wide PC of its next instruction (past the end once
                                  its threads exited: state HD_WV_DRAIN) */
    uint32_t long_loads;       /* registers waiting for global/local loads or atomics */
    uint64_t age;              /* smaller is older */
    uint8_t state;             /* enum hd_wview_state */
    uint32_t flags;            /* hd_annot_flags(an, next_pc) */
    const struct hd_annot *an; /* its kernel's annotation store: hd_annot_get(an, col, next_pc) */
    uint32_t ctaid[3];         /* its CTA's coordinates (%ctaid) ... */
    uint32_t grid[3];          /* ... in the launch's grid (%nctaid) */
    uint32_t hint;             /* the launch's hint (docs/admission.md) */
    uint32_t cta_warps;        /* warps of its CTA (Gong ch.6 hint 2: which warp is the last) */
    bool pooled;               /* in a mechanism's prefetching queue (mech.h pooled; EXPARS) */
};

/* How a policy reaches the SM's warps during order(). */
struct hd_sched_env {
    const void *sm;
    void (*view)(const void *sm, uint32_t slot, struct hd_warp_view *out);
};

struct hd_sched_ops {
    const char *name;
    bool offer_blocked;  /* order() also gets resident warps that cannot issue now */
    void (*add)(void *impl, uint32_t warp, uint64_t age);
    void (*remove)(void *impl, uint32_t warp);
    /* Order the offered warps w[0..n) (ascending slot numbers: the ready ones, and with
     * offer_blocked every resident one) by priority into out; returns how many may be tried
     * (two-level leaves out warps outside its active set). */
    unsigned (*order)(void *impl, const struct hd_sched_env *env, const uint32_t *w, unsigned n,
                      uint32_t *out);
    void (*issued)(void *impl, uint32_t warp);
    void (*long_wait)(void *impl, uint32_t warp);
    void (*destroy)(void *impl);
};

struct hd_sched {
    const struct hd_sched_ops *ops;
    void *impl;
};

/* Create the policy configured in p->sched for a scheduler that may own up to p->max_warps
 * slots. Returns 0, or -1 on allocation failure. */
int hd_sched_create(const struct hd_sm_params *p, struct hd_sched *out);
/* EXPARS's lazy two-level scheduler over LRR or GTO (sm_sched_ltlws.c; p->sched names which). */
int hd_sched_ltlws_create(const struct hd_sm_params *p, struct hd_sched *out);
/* Does warp w wait for others to move (at a barrier or fence, or for a long load), or for a
 * mechanism's register prefetch (pooled: EXPARS's prefetching queue, which the paper keeps apart
 * from the schedulable warps, L226)? The two-level schedulers' refresh of their active sets asks
 * it (sm_sched.c, sm_sched_ltlws.c). */
bool hd_sched_warp_waits(const struct hd_sched_env *env, uint32_t w);

#endif
