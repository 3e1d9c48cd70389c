/* SPDX-License-Identifier: MIT
 * mech.h - the contract between the core (model/timing, model/ctx) and the mechanisms
 * (model/mech/NAME/, docs/mechanisms.md): what a mechanism gives the core (its allocators, its
 * preemption policies, its in-loop hardware), and the hooks through which the core tells that
 * hardware what happens in the SMs and the GPU. The core calls a mechanism only through this
 * header; a mechanism sees the core only through it and the other policy contracts
 * (scripts/check-layering.sh enforces both).
 *
 * Design (style rule C9).
 *   registry  Every folder model/mech/NAME/ defines `const struct hd_mech hd_mech_NAME` (in
 *             NAME_mech.c); the build lists them in a generated table (hd_mechs, mech_registry.c
 *             in the build tree), so adding a mechanism touches no shared file. A configuration
 *             value ([sm] allocator, [context] preempt_policy) is served by the mechanism whose
 *             table names it; the generic ones are in model/policy.
 *   hooks     A mechanism that puts hardware in the loop returns, from attach(), one hook: an ops
 *             struct of optional callbacks and its state. The GPU keeps every attached hook and
 *             calls each callback that is not NULL, in registry order, at fixed points of the
 *             cycle (below). An SM event reaches the hooks in the cycle it happens, before the SM
 *             goes on; `cycle` runs once at the end of every simulated GPU cycle.
 *   events    placed   a CTA took a slot: fresh (its first placement or a restart after a flush)
 *                      or resumed from a saved context (`resumed`; it keeps its instructions)
 *             left     a CTA gave its slot back: finished (retired) or its context left the SM
 *             issued   a warp instruction issued from issue port `port` of an SM
 *             launch   the GPU set a launch up: the kernel it runs (timing-kernel id and name);
 *                      a hook may refuse it (0, or an HD_FUNC_ERR_* status with a message)
 *             start    the run's first cycle is next (make instances, so waveforms declare them)
 *             cycle    the end of a GPU cycle: step the hardware; *ready = something the GPU's
 *                      CTA scheduler or preemption policy waits for is in; *busy = work is
 *                      pending (the GPU must not skip the next cycle as idle)
 *   tables   (not an event) what a preemption policy of the same mechanism decides from
 *   stalled  a warp began to wait (issue 25 item 6): for a long-latency (global/local) load
 *            whose L1D lookup has not missed (yet) (HD_HSTALL_LOAD), for one that missed
 *            (HD_HSTALL_LOAD_MISS; also when the miss becomes known while it waits already),
 *            or at a CTA barrier (HD_HSTALL_BARRIER)
 *   load_returned  the last request of a warp's load (or atomic with a result) came back;
 *            l1_hit: every request of it hit the L1D (a model without an L1 says false)
 *   window   a monitor window this hook subscribed to closed (monitor.h)
 *   More events (fetch, issue hold, next event) join this struct with their first user; an
 *   unused callback costs one NULL test where its event happens, and the SM's stall and load
 *   events cost one flag test while no hook has them (docs/hooks.md).
 */
#ifndef HD_MECH_H
#define HD_MECH_H

#include "cta_admit.h"
#include "ahead.h"
#include "cta_dist.h"
#include "hw_inst.h"
#include "monitor.h"
#include "preempt_policy.h"
#include "sm_alloc.h"
#include "sm_oloc.h"
#include "sm_sched.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_timing_stats;
struct hd_annot;

struct hd_annot;

/* {==== Hooks ==== */
/* A CTA in a slot, as the hooks see it at placement and departure. */
struct hd_hook_cta {
    uint32_t sm, slot;             /* SM and CTA slot */
    uint32_t launch, ctx;          /* launch id, context id (ctx_pool.h) */
    uint64_t instrs;               /* warp instructions it executed since its (re)start */
    uint64_t first;                /* cycle it was first placed (since its (re)start) */
    bool idempotent;               /* flush bit: it has not written global memory yet */
    const struct hd_cta_grant *grant; /* what it holds and where */
};

/* A warp, as the stall and load events see it. */
#define HD_HOOK_NO_SLOT UINT32_MAX
struct hd_hook_warp {
    uint32_t sm;
    uint32_t slot;                 /* its warp slot, or HD_HOOK_NO_SLOT: it is not in one (its
                                      context moved; the response was applied to its saved state) */
    uint32_t launch, ctx;          /* launch id, context id (ctx_pool.h) */
    uint32_t warp;                 /* its index in the CTA */
    uint32_t pc;                   /* stalled: the instruction it waits to issue; load_returned:
                                      the load's (HD_HOOK_PC_SPILL | register for a spill fill) */
};
#define HD_HOOK_PC_SPILL 0x80000000u
enum hd_hook_stall { HD_HSTALL_LOAD, HD_HSTALL_LOAD_MISS, HD_HSTALL_BARRIER, HD_HSTALL_COUNT };

/* A shared-memory access (ld/st.shared, atom/red.shared) as the load/store unit dispatches it
 * (issue 32: Zorua's scratchpad mapping table in the shared-memory path; docs/hooks.md
 * "Shared-memory accesses"). */
struct hd_hook_smem {
    uint32_t sm, slot, cta_slot;   /* SM, warp slot, CTA slot */
    uint32_t launch, pc;           /* launch id, kernel-wide PC */
    uint8_t kind;                  /* enum hd_mem_kind (mem_iface.h): LOAD, STORE or ATOMIC */
    uint32_t exec;                 /* bit l: lane l accesses */
    uint32_t bytes;                /* bytes per lane, from addr[l] */
    const uint32_t *addr;          /* [32] each lane's byte offset in its CTA's shared memory */
};
/* The answer (preset: nothing added, every lane on chip). */
struct hd_hook_smem_ans {
    uint32_t extra;                /* cycles added before the access (a mapping-table lookup) */
    uint32_t swap;                 /* bit l: lane l's bytes are in global memory (a swap space):
                                      the access becomes a SWAP-class access of those lanes at
                                      swap_addr (L1 bypassed unless swap_cached) and completes
                                      when it returns */
    uint64_t swap_addr[32];        /* lane l's address there */
    uint8_t swap_cached;           /* the SWAP-class loads may be served by the L1 (a global
                                      load; 0: L1 bypassed) */
};

struct hd_hook_ops {
    const char *name;
    int (*start)(void *impl, char *err, size_t errlen);
    int (*launch)(void *impl, uint32_t launch, uint32_t kernel, const char *name, char *err,
                  size_t errlen);
    void (*placed)(void *impl, const struct hd_hook_cta *c, bool resumed, uint64_t now);
    void (*left)(void *impl, const struct hd_hook_cta *c, bool finished, uint64_t now);
    void (*issued)(void *impl, uint32_t sm, uint32_t port, uint32_t slot, bool nonidem);
    int (*cycle)(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen);
    void (*destroy)(void *impl);
    /* What a preemption policy of this mechanism decides from (its env.tables,
     * preempt_policy.h), or NULL. */
    void *(*tables)(void *impl);
    /* issue 25 item 6 (see the events above; docs/hooks.md) */
    void (*stalled)(void *impl, const struct hd_hook_warp *w, uint8_t why, uint64_t now);
    void (*load_returned)(void *impl, const struct hd_hook_warp *w, bool l1_hit, uint64_t now);
    void (*window)(void *impl, const struct hd_mon_window *win, uint64_t now);
    /* Warp-granular residency (sm_residency.h): warp `warp` of context `ctx` left warp slot
     * `slot` of SM `sm` (switched out on chip, its CTA staying resident) / came back into
     * `slot` and may run again (its context moved in). */
    void (*warp_left)(void *impl, uint32_t sm, uint32_t ctx, uint32_t warp, uint32_t slot,
                      uint64_t now);
    void (*warp_returned)(void *impl, uint32_t sm, uint32_t ctx, uint32_t warp, uint32_t slot,
                          uint64_t now);
    /* Run-ahead hints (HAWS, issue 30, ahead.h, docs/blocks/haws.md): the hint source the SMs'
     * run-ahead engine (model/timing/sm_ahead.c) uses, asked once when the hooks are set; the
     * first hook that answers non-NULL serves every SM. */
    const struct hd_ahead_ops *(*ahead)(void *impl);
    /* SM `sm` was made (before the run; issue 32, Zorua's mapping tables in the operand path):
     * the hook is given the SM's allocator and the run's statistics, and may answer an
     * operand-location policy for the SM (*ops NULL: none; *oimpl stays the hook's: the SM does
     * not destroy it). Returns 0, or -1 with a message. */
    int (*sm_made)(void *impl, uint32_t sm, const struct hd_sm_alloc *alloc,
                   struct hd_timing_stats *stats, const struct hd_oloc_ops **ops, void **oimpl,
                   char *err, size_t errlen);
    /* Launch `launch` of kernel `kernel` is set up (right after `launch`; issue 32): its
     * kernel image's annotation store (annot.h), which a hook may extend with its own pass and
     * columns before the launch's first CTA runs (Zorua's phase specifiers). */
    void (*kernel_annot)(void *impl, uint32_t launch, uint32_t kernel, struct hd_annot *an);
    /* Its operand-location policy (sm_oloc.h) for SM `sm`, whose allocator is `alloc` (check
     * alloc->ops before reading alloc->impl), or *ops = NULL: none. The SM destroys *oimpl with
     * itself. Called once per SM after its creation, before any CTA (issue 33: EXPARS's operand
     * cache over registers in the scratchpad). Returns 0, or -1 with a message. */
    int (*oloc)(void *impl, uint32_t sm, const struct hd_sm_alloc *alloc,
                const struct hd_oloc_ops **ops, void **oimpl, char *err, size_t errlen);
    /* May warp slot `slot` (CTA slot `cta_slot`) of SM `sm` issue its instruction at kernel-wide
     * `pc` (of the kernel whose annotation store is `an`) this cycle? true: hold it (the issue
     * stage tries the scheduler's next warp; the warp is asked again next cycle). Called just
     * before each issue (issue 33: EXPARS's warp pool holds a warp until the register prefetcher
     * has its bundle's registers in the operand cache). A hook that holds must make sure the SM
     * is woken to retry (its allocator's next_event, or a cycle it is busy). */
    bool (*hold)(void *impl, uint32_t sm, uint32_t slot, uint32_t cta_slot, uint32_t pc,
                 const struct hd_annot *an, uint64_t now);
    /* Issue 28: the bytes a warp's move out of (in = false) or into its slot takes, given what
     * the SM would move (`bytes`: its registers as allocated + HD_WARP_STATE_BYTES); a
     * mechanism that spills a reduced context (GPUDuet: ST + its compressed live registers)
     * answers its own. NULL: unchanged. */
    uint64_t (*warp_move_bytes)(void *impl, uint32_t sm, uint32_t ctx, uint32_t warp, bool in,
                                uint64_t bytes);
    /* Issue 31 (Gong ch.6's blocks in the loop, docs/blocks/locality.md): what the SMs' warp
     * schedulers and the GPU's CTA distributor decide from and decide, in the cycle they do it.
     * A hook with any of these may replace the decision (the block's, with --drive rtl the
     * RTL's); returns 0, or -1 with a message (a mismatch: the run stops). They cost one flag
     * test where they happen while no hook has them (hs->any_sched, any_dist).
     *   sched_warp   warp slot `slot` of SM `sm` joined its scheduler (HD_HSCHED_ADD, with its
     *                view v: the policy's add), left it (HD_HSCHED_REMOVE: remove) or issued
     *                (HD_HSCHED_ISSUE: the policy's issued; v NULL but for ADD)
     *   sched_order  scheduler `sched` of SM `sm` ordered w[0..n) (ascending slots: its ready
     *                warps, or every resident one with offer_blocked) into order[0..k); order[0]
     *                is the policy's decision, the warp tried first. The hook may reorder.
     *   dist_reset   the GPU's CTA distributor was reset (a new batch on an idle GPU)
     *   dist_pick    the distributor picked *pick (-1: none this cycle) for CTA r given ok and
     *                busy (cta_dist.h); the hook may change *pick (an SM with ok && !busy) */
    void (*sched_warp)(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                       const struct hd_warp_view *v, uint64_t now);
    int (*sched_order)(void *impl, uint32_t sm, uint32_t sched, const uint32_t *w, unsigned n,
                       uint32_t *order, unsigned k, uint64_t now, char *err, size_t errlen);
    void (*dist_reset)(void *impl, uint64_t now);
    int (*dist_pick)(void *impl, const struct hd_cta_dist_req *r, const bool *ok,
                     const bool *busy, uint32_t n, int *pick, uint64_t now, char *err,
                     size_t errlen);
    /* Issue 29 (Dai18's memory-instruction limiting, docs/blocks/ccbp.md "Baselines"): warp w's
     * global/local load (or atomic with a result) at w->pc took a load tracker and sends its
     * requests; load_returned reports its return. Costs one flag test per such load while no
     * hook has it (hs->any_load_sent). */
    void (*load_sent)(void *impl, const struct hd_hook_warp *w, uint64_t now);
    /* Issue 33 (EXPARS's LTLWS counters in the loop, docs/blocks/expars_units.md): warp
     * scheduler `idx` of SM `sm`, whose policy is *s, was made (called once per scheduler after
     * the SM's oloc, before any CTA). The hook may keep s to reach the policy through the
     * policy's own header (sm_sched_ltlws.h's tap). Returns 0, or -1 with a message. */
    int (*sched_made)(void *impl, uint32_t sm, uint32_t idx, const struct hd_sched *s, char *err,
                      size_t errlen);
    /* Issue 32 (Zorua's scratchpad virtualised in the loop, docs/hooks.md "Shared-memory
     * accesses"): the load/store unit dispatches shared-memory access *acc (cycle now); the hook
     * may add cycles (ans->extra: the SMT lookup) and name lanes whose bytes live in global
     * memory (ans->swap, ans->swap_addr: a scratchpad set in the swap space). Hooks answer in
     * registry order, each seeing the answer so far. Costs one flag test per shared access while
     * no hook has it (hs->any_smem). */
    void (*smem_access)(void *impl, const struct hd_hook_smem *acc, struct hd_hook_smem_ans *ans,
                        uint64_t now);
    /* Issue 33 (EXPARS's warp pool, §3.3.6): is warp slot `slot` of SM `sm` waiting in the
     * mechanism's prefetching queue (held by `hold`, its registers not yet in place)? Such a
     * warp is not schedulable: a two-level scheduler's refresh exchanges it for a pending warp
     * (hd_warp_view.pooled, hd_sched_warp_waits). A pure query. */
    bool (*pooled)(void *impl, uint32_t sm, uint32_t slot);
};
enum hd_hook_sched_ev { HD_HSCHED_ADD, HD_HSCHED_REMOVE, HD_HSCHED_ISSUE };

struct hd_hook {
    const struct hd_hook_ops *ops;
    void *impl;
};

#define HD_MAX_HOOKS 8
/* The hooks of one GPU, in registry order. */
struct hd_hooks {
    struct hd_hook h[HD_MAX_HOOKS];
    unsigned n;
    bool any_placed, any_left, any_issued; /* derived: some hook has the callback */
    bool any_stalled, any_load_returned;
    bool any_hold, any_pooled;
    bool any_sched, any_dist;      /* issue 31: sched_warp / sched_order, dist_reset / dist_pick */
    bool any_load_sent;            /* issue 29: load_sent */
    bool any_smem;                 /* issue 32: smem_access */
};

/* Add hook k (ops NULL: nothing). Returns 0, or -1 when HD_MAX_HOOKS are attached already. */
int hd_hooks_add(struct hd_hooks *hs, struct hd_hook k, char *err, size_t errlen);
void hd_hooks_destroy(struct hd_hooks *hs);
int hd_hooks_start(struct hd_hooks *hs, char *err, size_t errlen);
int hd_hooks_launch(struct hd_hooks *hs, uint32_t launch, uint32_t kernel, const char *name,
                    char *err, size_t errlen);
int hd_hooks_cycle(struct hd_hooks *hs, uint64_t now, bool *ready, bool *busy, char *err,
                   size_t errlen);
static inline void hd_hooks_placed(const struct hd_hooks *hs, const struct hd_hook_cta *c,
                                   bool resumed, uint64_t now)
{
    for (unsigned i = 0; hs->any_placed && i < hs->n; i++)
        if (hs->h[i].ops->placed)
            hs->h[i].ops->placed(hs->h[i].impl, c, resumed, now);
}
static inline void hd_hooks_left(const struct hd_hooks *hs, const struct hd_hook_cta *c,
                                 bool finished, uint64_t now)
{
    for (unsigned i = 0; hs->any_left && i < hs->n; i++)
        if (hs->h[i].ops->left)
            hs->h[i].ops->left(hs->h[i].impl, c, finished, now);
}
static inline void hd_hooks_issued(const struct hd_hooks *hs, uint32_t sm, uint32_t port,
                                   uint32_t slot, bool nonidem)
{
    for (unsigned i = 0; hs->any_issued && i < hs->n; i++)
        if (hs->h[i].ops->issued)
            hs->h[i].ops->issued(hs->h[i].impl, sm, port, slot, nonidem);
}
static inline void hd_hooks_stalled(const struct hd_hooks *hs, const struct hd_hook_warp *w,
                                    uint8_t why, uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->stalled)
            hs->h[i].ops->stalled(hs->h[i].impl, w, why, now);
}
static inline void hd_hooks_load_returned(const struct hd_hooks *hs, const struct hd_hook_warp *w,
                                          bool l1_hit, uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->load_returned)
            hs->h[i].ops->load_returned(hs->h[i].impl, w, l1_hit, now);
}
static inline void hd_hooks_load_sent(const struct hd_hooks *hs, const struct hd_hook_warp *w,
                                      uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->load_sent)
            hs->h[i].ops->load_sent(hs->h[i].impl, w, now);
}
static inline void hd_hooks_smem_access(const struct hd_hooks *hs, const struct hd_hook_smem *acc,
                                        struct hd_hook_smem_ans *ans, uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->smem_access)
            hs->h[i].ops->smem_access(hs->h[i].impl, acc, ans, now);
}
/* Does some hook hold this warp's issue? (callers test hs->any_hold first) */
static inline bool hd_hooks_hold(const struct hd_hooks *hs, uint32_t sm, uint32_t slot,
                                 uint32_t cta_slot, uint32_t pc, const struct hd_annot *an,
                                 uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->hold && hs->h[i].ops->hold(hs->h[i].impl, sm, slot, cta_slot, pc, an, now))
            return true;
    return false;
}
/* Is this warp in some hook's prefetching queue? (callers test hs->any_pooled first) */
static inline bool hd_hooks_pooled(const struct hd_hooks *hs, uint32_t sm, uint32_t slot)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->pooled && hs->h[i].ops->pooled(hs->h[i].impl, sm, slot))
            return true;
    return false;
}
/* (Warp switches are rare: no derived any_ flag.) */
static inline void hd_hooks_warp_left(const struct hd_hooks *hs, uint32_t sm, uint32_t ctx,
                                      uint32_t warp, uint32_t slot, uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->warp_left)
            hs->h[i].ops->warp_left(hs->h[i].impl, sm, ctx, warp, slot, now);
}
static inline void hd_hooks_warp_returned(const struct hd_hooks *hs, uint32_t sm, uint32_t ctx,
                                          uint32_t warp, uint32_t slot, uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->warp_returned)
            hs->h[i].ops->warp_returned(hs->h[i].impl, sm, ctx, warp, slot, now);
}
static inline uint64_t hd_hooks_warp_move_bytes(const struct hd_hooks *hs, uint32_t sm,
                                                uint32_t ctx, uint32_t warp, bool in,
                                                uint64_t bytes)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->warp_move_bytes)
            bytes = hs->h[i].ops->warp_move_bytes(hs->h[i].impl, sm, ctx, warp, in, bytes);
    return bytes;
}
/* Issue 31 (callers test hs->any_sched / any_dist first). */
static inline void hd_hooks_sched_warp(const struct hd_hooks *hs, uint32_t sm, uint32_t slot,
                                       uint8_t ev, const struct hd_warp_view *v, uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->sched_warp)
            hs->h[i].ops->sched_warp(hs->h[i].impl, sm, slot, ev, v, now);
}
static inline int hd_hooks_sched_order(const struct hd_hooks *hs, uint32_t sm, uint32_t sched,
                                       const uint32_t *w, unsigned n, uint32_t *order,
                                       unsigned k, uint64_t now, char *err, size_t errlen)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->sched_order &&
            hs->h[i].ops->sched_order(hs->h[i].impl, sm, sched, w, n, order, k, now, err,
                                      errlen) != 0)
            return -1;
    return 0;
}
static inline void hd_hooks_dist_reset(const struct hd_hooks *hs, uint64_t now)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->dist_reset)
            hs->h[i].ops->dist_reset(hs->h[i].impl, now);
}
static inline int hd_hooks_dist_pick(const struct hd_hooks *hs, const struct hd_cta_dist_req *r,
                                     const bool *ok, const bool *busy, uint32_t n, int *pick,
                                     uint64_t now, char *err, size_t errlen)
{
    for (unsigned i = 0; i < hs->n; i++)
        if (hs->h[i].ops->dist_pick &&
            hs->h[i].ops->dist_pick(hs->h[i].impl, r, ok, busy, n, pick, now, err, errlen) != 0)
            return -1;
    return 0;
}
/* }==== */

/* {==== What a mechanism may ask of the GPU (issue 28) ==== */
/* GPUDuet's context switching logic acts on the SMs: it switches warps out and in and reads its
 * allocators and the kernels' analyses. These calls are made only from a hook's `start` and
 * `cycle` callbacks (never from an SM event: the SM is between stages then). The GPU fills the
 * table (model/timing/gpu_mech_act.c). */
struct hd_func_kernel;
struct hd_annot;
/* One warp's move out of or into its warp slot, as a mechanism-provided warp mover sees it
 * (the residency's struct hd_warp_move, sm_residency.h). */
struct hd_mech_wmove {
    uint32_t sm, ctx, warp;        /* SM, context id (ctx_pool.h), warp in its CTA */
    uint32_t slot;                 /* the warp slot it leaves or enters */
    bool in;                       /* true: switching in; false: out */
    uint32_t regs;                 /* 32-bit registers it holds as allocated */
    uint64_t bytes;                /* what the move takes (after the hooks' warp_move_bytes) */
    /* A swap (hd_mech_act.warp_swap; in is false): warp warp2 of context ctx2 comes in as this
     * one leaves, bytes2 (after warp_move_bytes) moving the other way; ONE completion for both
     * (warp_moved names the leaving warp). Only for a mover whose `swaps` is true. */
    bool swap;
    uint32_t ctx2, warp2, regs2;
    uint64_t bytes2;
};
#define HD_MECH_WMOVE_CALLBACK UINT64_MAX
struct hd_mech_wmover {
    /* Start m at cycle now: the cycle it completes (> now), or HD_MECH_WMOVE_CALLBACK (the
     * mechanism calls hd_mech_act.warp_moved later; the SM stays awake meanwhile). */
    uint64_t (*start)(void *impl, const struct hd_mech_wmove *m, uint64_t now);
    void *impl;
    bool swaps;                    /* start() takes swaps (hd_mech_wmove.swap) */
};
#define HD_MECH_WAIT_LOADS 1u
#define HD_MECH_WAIT_BARRIER 2u
#define HD_MECH_WAIT_MOVING 4u
struct hd_mech_act {
    void *gpu;
    /* SM sm's allocator ([sm] allocator): a mechanism recognises its own by its ops. */
    struct hd_sm_alloc (*sm_alloc)(void *gpu, uint32_t sm);
    /* The kernel image of stable kernel id `kernel` and its annotation store (*an), or NULL. */
    const struct hd_func_kernel *(*kernel)(void *gpu, uint32_t kernel, const struct hd_annot **an);
    /* hd_sm_warp_switch_out / hd_sm_warp_switch_in (sm_residency.h) of SM sm. */
    bool (*warp_out)(void *gpu, uint32_t sm, uint32_t slot, uint64_t return_at, uint64_t now);
    bool (*warp_in)(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp, uint64_t now);
    /* What absent warp `warp` of context ctx on SM sm still waits for: HD_MECH_WAIT_LOADS
     * (loads outstanding) | HD_MECH_WAIT_BARRIER (at a barrier not yet released) |
     * HD_MECH_WAIT_MOVING (its context still moving out: it may not switch in yet); 0 also when
     * it is not absent there. */
    uint32_t (*warp_waiting)(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp);
    /* The 32 lanes of 32-bit word `word` of kernel-wide register kreg of warp `warp` of context
     * ctx on SM sm (its functional state), and the regpat PAG select of its TB's shape
     * (regpat_comp.h). false: no such register or context. */
    bool (*warp_lanes)(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp, uint32_t kreg,
                       unsigned word, uint32_t lanes[32], unsigned *pag);
    /* Global loads of launch `launch` bypass the L1D from now on (on) or not; false when the
     * memory model has no L1D (the fixed model). */
    bool (*l1d_bypass)(void *gpu, uint32_t launch, bool on);
    /* Issue 28 item 4 (docs/hooks.md "Warp moves and the pipeline's port use"): install m as
     * SM sm's warp mover through the residency's mover seam (sm_residency.h): m->start is told
     * every warp move of the SM and answers its completion cycle or HD_MECH_WMOVE_CALLBACK,
     * after which the mechanism reports the completion with warp_moved. m stays the caller's
     * (it must live as long as the run); NULL gives the SM the default mover back. false:
     * host out of memory. */
    bool (*warp_mover)(void *gpu, uint32_t sm, struct hd_mech_wmover *m);
    void (*warp_moved)(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp, uint64_t now);
    /* The on-chip arrays whose port SM sm's pipeline uses in cycle `now` (bit 1 << 0 register
     * file, 1 << 1 shared memory, 1 << 2 L1D): what the on-chip context mover yields to
     * (docs/mover.md); asked from a hook's cycle callback of that cycle. */
    uint32_t (*port_busy)(void *gpu, uint32_t sm, uint64_t now);
    /* Has launch `launch` CTAs the CTA scheduler has not placed yet (fresh ones, or contexts
     * waiting to come back)? An allocator's refusal of a TB says a TB waits only while this
     * holds: once the grid is dispatched nobody asks again (GPUDuet's "a TB waits for room"). */
    bool (*ctas_waiting)(void *gpu, uint32_t launch);
    /* GPUDuet's swap (§3.6.5 "switch the context spaces of them"; issue 28): switch the warp in
     * `slot` of SM sm out and absent warp `warp` of context ctx in, as ONE move of the SM's warp
     * mover (hd_sm_warp_swap, sm_residency.h: the leaving warp's slot and registers go to the
     * allocator at once, whose acquire then gives them to the arriving warp; it runs when the
     * move completes). 2 swapped, 1 only the switch-out (the arriving warp may not come now,
     * or the mover takes no swaps), 0 nothing (the warp may not leave now). */
    int (*warp_swap)(void *gpu, uint32_t sm, uint32_t slot, uint32_t ctx, uint32_t warp,
                     uint64_t now);
    /* Would warp_out take the warp in `slot` of SM sm now (hd_sm_warp_may_leave)? A mechanism
     * that switches a TB out as a whole asks for each warp before the first leaves. */
    bool (*warp_may_leave)(void *gpu, uint32_t sm, uint32_t slot);
};
/* }==== */

/* {==== What a mechanism gives ==== */
/* What attach() and the factories are given. */
struct hd_mech_env {
    const struct hd_gpu_timing_params *p;
    const struct hd_hw_factory *const *hw; /* the GPU's block factory (may point at NULL: the
                                              C references); read when instances are made */
    uint8_t ppol_tables;           /* attach: ops.tables of the run's preemption policy when
                                      this mechanism made it, else 0 */
    struct hd_monitor *mon;        /* the GPU's windowed monitor (monitor.h): a subscription
                                      made in attach() closes its windows into this hook's
                                      `window` callback */
    /* issue 29 (CCBP): where a mechanism installs its own miss-queue policy
     * (hd_mem_full_set_mq_policy, missq_policy.h) and its own admission policy (set *admit in
     * attach(): it replaces [timing] admit; cta_admit.h). Both ops' destroy should be NULL when
     * the hook owns the state (the hooks are destroyed first). */
    struct hd_mem *mem;
    struct hd_cta_admit *admit;
    const struct hd_mech_act *act; /* what it may ask of the GPU (issue 28) */
};

struct hd_mech_alloc {             /* an [sm] allocator value it implements */
    int value;                     /* enum hd_cfg_alloc */
    int (*create)(const struct hd_sm_params *p, struct hd_sm_alloc *out);
};

struct hd_mech_ppol {              /* a [context] preempt_policy value it implements */
    int value;                     /* enum hd_cfg_preemptpol */
    int (*create)(const struct hd_mech_env *env, struct hd_preempt_policy *out, char *err,
                  size_t errlen);
};

struct hd_mech {
    const char *name;              /* its folder under model/mech */
    const char *source;            /* the paper and sections it follows */
    const struct hd_mech_alloc *allocs;
    unsigned nallocs;
    const struct hd_mech_ppol *ppols;
    unsigned nppols;
    /* Its in-loop hardware for a run with env's configuration: *out (ops NULL when the run does
     * not use it). Returns 0, or -1 with a message (the configuration does not fit). */
    int (*attach)(const struct hd_mech_env *env, struct hd_hook *out, char *err, size_t errlen);
};

/* The registry (generated from the folders: model/mech/CMakeLists.txt). */
extern const struct hd_mech *const hd_mechs[];
extern const unsigned hd_nmechs;

/* The mechanism that implements allocator / preemption-policy value v, or NULL (a generic one). */
const struct hd_mech_alloc *hd_mech_find_alloc(int v);
const struct hd_mech_ppol *hd_mech_find_ppol(int v, unsigned *mech);
/* }==== */

#endif
