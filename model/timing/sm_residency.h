/* SPDX-License-Identifier: MIT
 * sm_residency.h - warp-granular residency: a warp of a resident CTA leaves its warp slot and
 * comes back on its own, and an SM holds more logical warps and CTAs than it has physical slots
 * (issue 25 items 1 and 2; GPUDuet's warp switching, Virtual Thread's on-chip TB inactivation,
 * Zorua's logical warp slots; docs/timing.md "Warp-granular residency", docs/context.md).
 *
 * Design. A warp's timing state (struct hd_twarp: scoreboard, pending-load and request counts,
 * SIMT position through its functional warp, fence and spill progress) lives in its warp slot
 * while it is present and in its CTA's context (ctx_pool.h `saved`, the same storage a whole-CTA
 * switch uses) while it is absent; its registers, SIMT stack and barrier arrival are functional
 * state in the CTA (struct hd_func_cta) and never move. The context's `absent` mask says which
 * warps are out; memory responses for them are applied to their saved state
 * (hd_sm_ctx_deliver -> hd_sm_res_deliver_absent), so a load that returns while its warp is out
 * has written its registers when the warp comes back. A barrier counts arrivals of the CTA's
 * functional warps, so it completes once every warp arrived, present or not.
 *
 *   switch out  hd_sm_warp_switch_out: allowed when the warp is bound, not done, not suspended
 *               or running to a preemption point, its CTA's context is RESIDENT, and it has
 *               nothing in flight but loads waiting in load trackers (no instruction in a
 *               collector, pipeline or write-back, no request still to send from a load/store
 *               unit, no fetch or decode, no spill sequence under way). Its state goes to the
 *               context at once (HD_WS_LEAVING) and its slot is unbound; the slot is given back
 *               to the allocator (release_part) when the mover has moved the warp's bytes out,
 *               then it is HD_WS_ABSENT (ready to return).
 *   switch in   hd_sm_warp_switch_in: an ABSENT warp of a RESIDENT context on this SM gets a
 *               slot from the allocator (acquire; with logical CTAs above the physical ones also
 *               a physical CTA slot), is bound with its saved state in HD_WS_RETURNING (it
 *               issues and fetches nothing) and runs once the mover has moved its bytes in.
 *   return      every absent warp has an earliest return cycle; from then on the SM switches it
 *               back in by itself, in the order the warps left, as soon as a slot is free (and
 *               places no new CTA while one is due). UINT64_MAX: only hd_sm_warp_switch_in.
 *               A warp placed without a slot is due at once, or with hd_sm_params.absent_by_mech
 *               (GPUDuet: its CSL switches them in) never.
 *   logical     [sm] logical_warps / logical_ctas above the physical slots: a CTA may be placed
 *               when its warps fit the logical capacity; warps beyond the free physical slots
 *               (all of them when the physical CTA slots are taken) start absent and return
 *               as slots free. The CTA table (struct hd_sm .cta and what is indexed by CTA slot)
 *               has the logical size (max_ctas), the warp slots (.w) the physical one; the
 *               logical warps' state is in their contexts.
 *   fresh       with hd_sm_params.fresh_unstarted (Warpman's partial CTA), a warp placed without
 *               a slot that never ran is bound like a dispatched warp when its slot is granted:
 *               no move, no returning state (warp_fresh_starts).
 *   TB level    Virtual Thread's inactivation is every warp of a CTA switched out (its warp slots
 *               go to other CTAs) and back: hd_sm_cta_switch_out / the same returns.
 *   stress      [sm] warp_stress_period N: every 1..2N cycles (seeded) each SM switches a random
 *               eligible present warp out and lets it return after 1..2N cycles.
 * Whole-CTA suspension (ctx_engine.c) is refused while a warp of the CTA is absent, moving or
 * without a slot, and always with logical capacities above the physical ones (a saved context
 * is restored with a slot for every warp; placing it partly absent is not done yet).
 *
 * The mover seam: bytes are moved by whoever moves on-chip context (the on-chip context mover
 * of issue 25 item 3). It plugs in with hd_sm_set_warp_mover(): its start() is told every move
 * (SM, context, warp, slot, direction, bytes) and answers the cycle the move completes, or
 * HD_WARP_MOVE_CALLBACK when it will call hd_sm_warp_moved() itself (the SM then stays awake,
 * polling, until it does: idle-cycle skipping cannot know when). Without one the default
 * takes ceil(bytes / [sm] warp_move_bytes) cycles: the warp's registers as its CTA's allocation
 * holds them (4 B each) plus one 128-byte unit of warp state (PC, SIMT stack, barrier word).
 */
#ifndef HD_SM_RESIDENCY_H
#define HD_SM_RESIDENCY_H

#include <stdbool.h>
#include <stdint.h>

struct hd_sm;
struct hd_ctx;
struct hd_tcta;
struct hd_cta_demand;
struct hd_cta_grant;
struct hd_wref;

#define HD_WARP_MOVE_CALLBACK UINT64_MAX
#define HD_WARP_STATE_BYTES 128u /* PC, SIMT stack, barrier word of one warp */

/* One warp's context moving on chip. */
struct hd_warp_move {
    uint32_t sm, ctx, warp;      /* SM, context id (ctx_pool.h), warp in its CTA */
    uint32_t slot;               /* the warp slot it leaves or enters */
    bool in;                     /* true: switching in (to the slot); false: out */
    uint32_t regs;               /* 32-bit registers the warp holds (its CTA's allocation, as
                                    occupancy counts it, per warp: lanes x registers rounded) */
    uint64_t bytes;              /* regs x 4 B + HD_WARP_STATE_BYTES */
    /* A swap (hd_sm_warp_swap; `in` is false): warp warp2 of context ctx2 comes in (into the
     * slot this one leaves when the allocator hands it over), its bytes2 moving the other way
     * behind this one's; one completion for both (hd_sm_warp_moved names this, the leaving,
     * warp). */
    bool swap;
    uint32_t ctx2, warp2, regs2;
    uint64_t bytes2;
};

struct hd_warp_mover {
    /* Start m at cycle now: the cycle it completes (> now), or HD_WARP_MOVE_CALLBACK. */
    uint64_t (*start)(void *impl, const struct hd_warp_move *m, uint64_t now);
    void *impl;
    bool swaps;                  /* start() times a swap as one move (without: a swap on this
                                    SM is a plain switch-out, hd_sm_warp_swap) */
};

/* Replace the default mover (NULL: back to the default). Returns false on host OOM. */
bool hd_sm_set_warp_mover(struct hd_sm *sm, const struct hd_warp_mover *m);
/* A mover that answered HD_WARP_MOVE_CALLBACK: the move of (ctx, warp) completed. */
void hd_sm_warp_moved(struct hd_sm *sm, uint32_t ctx, uint32_t warp, uint64_t now);

/* Switch the warp in `slot` out (rules above); it may return by itself from cycle return_at
 * (UINT64_MAX: only when asked). Returns false, changing nothing, when it may not leave now. */
bool hd_sm_warp_switch_out(struct hd_sm *sm, uint32_t slot, uint64_t return_at, uint64_t now);
/* Would hd_sm_warp_switch_out take the warp in `slot` now (bound, not done, nothing of it in
 * flight but its loads)? Lets a mechanism that moves a CTA's warps as a whole ask for every one
 * of them before the first leaves. */
bool hd_sm_warp_may_leave(const struct hd_sm *sm, uint32_t slot);
/* Switch warp `warp` of context x back in. Returns false, changing nothing, when it may not
 * (not absent here, still moving out, no free slot). */
bool hd_sm_warp_switch_in(struct hd_sm *sm, struct hd_ctx *x, uint32_t warp, uint64_t now);
/* Swap (GPUDuet's "switch the context spaces", Lin thesis §3.6.5): switch the warp in `slot`
 * out and absent warp `warp` of context x into that slot, as ONE move (one start() of the
 * mover, struct hd_warp_move .swap; the default mover takes ceil(bytes / BW) + ceil(bytes2 /
 * BW) cycles). The leaving warp's slot and registers go back to the allocator at once (its
 * release_part), before the arriving warp's acquire: the slot changes owner during the move,
 * and the arriving warp runs when the move completes. Returns 2 (swapped), 1 (only the
 * switch-out: the arriving warp may not come now - not absent here, still moving, the
 * allocator's acquire said no, or the mover does not time swaps - and stays absent; its slot
 * was released at once when the acquire said no), 0 (nothing: the warp in `slot` may not
 * leave now). */
int hd_sm_warp_swap(struct hd_sm *sm, uint32_t slot, struct hd_ctx *x, uint32_t warp,
                    uint64_t now);
/* Is warp `warp` of context x absent (switched out, moving out or stored)? */
bool hd_sm_warp_absent(const struct hd_ctx *x, uint32_t warp);

/* {==== The SM's side (sm.c, ctx_engine.c, sm_issue.c) ==== */
/* Residency state for p->residency (or a first API call): 0, or -1 on host OOM. */
int hd_sm_res_init(struct hd_sm *sm);
void hd_sm_res_free(struct hd_sm *sm);
void hd_sm_res_clear(struct hd_sm *sm);
/* Completed moves, due returns, the stress point. Returns progress. */
bool hd_sm_res_tick(struct hd_sm *sm, uint64_t now);
/* First cycle > now at which the tick has work (UINT64_MAX: none). */
uint64_t hd_sm_res_next_event(const struct hd_sm *sm, uint64_t now);
/* Placement with residency state: capacity checks (logical) and the grant (warps beyond the
 * physical slots hold none). */
bool hd_sm_res_can_accept(const struct hd_sm *sm, const struct hd_cta_demand *d);
bool hd_sm_res_accept(struct hd_sm *sm, const struct hd_cta_demand *d, struct hd_cta_grant *g);
/* Warp i of freshly placed CTA c holds no slot: it starts absent, due to return now. Returns a
 * status (host OOM). */
int hd_sm_res_place_absent(struct hd_sm *sm, struct hd_tcta *c, uint32_t i, uint64_t now,
                           char *err, size_t errlen);
/* Warps absent (switched out or placed without a slot, not yet back): reports. */
uint32_t hd_sm_res_absent(const struct hd_sm *sm);
/* May CTA slot `cta` not be suspended as a whole (a warp absent, moving, or without a slot)? */
bool hd_sm_res_holds_cta(const struct hd_sm *sm, uint32_t cta);
/* Warp w of CTA c (not the last) drained: when its context is RESIDENT and a warp of the SM is
 * absent or moving (always without hd_sm_params.slot_with_cta: Warpman, WLM, Zorua, ...), its slot
 * goes back to the allocator (release_part), so that absent warps,
 * of its CTA or others, can use it; otherwise the CTA keeps the slot, as the baseline keeps a
 * CTA's warp slots until it retires, until a warp leaves or is placed absent (session 28:
 * released at once, the next CTA's warps took scattered slots and so other schedulers, slot %
 * num_schedulers, than the baseline's, and a mechanism with nothing to switch ran 3.6 % faster
 * than the baseline on hotspot_r31; docs/gpuduet.md "Session 28: VT with nothing to switch"). */
void hd_sm_res_drained(struct hd_sm *sm, struct hd_tcta *c, const struct hd_twarp *w);
/* CTA slot `cta` is vacated (retired, or suspended as a whole): the slots its drained warps held
 * go back with its grant, so their marks go (session 29: a stale mark made the next CTA in that
 * slot lend a slot its own warp was being placed in; sgemm's controller point deadlocked). */
void hd_sm_res_vacated(struct hd_sm *sm, uint32_t cta);
/* A memory response (enum hd_fwd_kind) for absent warp ref of context x. */
void hd_sm_res_deliver_absent(struct hd_sm *sm, struct hd_ctx *x, struct hd_wref ref,
                              uint8_t kind, uint32_t pc, uint64_t now);
/* }==== */

#endif
