/* SPDX-License-Identifier: MIT
 * zorua_blkdrive.h - the model's coordinator decisions taken from the zorua_coord block (issue 32
 * item 5; Zorua Sec. 3.2-3.5, Figure 11, L229-L255; docs/zorua.md "The coordinator block
 * decides"): on an SM of one of the block's configurations' sizes (Fermi: 64 logical warps, 16
 * logical CTAs, 256 register sets, 48 scratchpad sets, 48 warp slots; session 15: Kepler and
 * Maxwell with 96 logical warps, 16 logical CTAs, 512 register sets, 48 or 64 scratchpad sets,
 * 64 warp slots; Table 1's keys), the allocator steps the block's C reference in that
 * configuration every cycle (zorua_alloc.c tick; in the loop the block too, checked against it,
 * zorua_coordloop.h) and the model follows its outputs.
 *
 * Design. The model hands the block what its ports take, one of each per cycle: a CTA's arrival
 * (buffered until the next cycle: one at a time, L231 step 1), the first queued warp event whose
 * warp the block holds schedulable (a phase specifier, a barrier, an exit: L235, L237), the
 * cycle's active/idle/mem bits. It takes from the outputs: gr_* (a warp admitted: its thread
 * slot, its block's scratchpad sets and its register sets are written into the model's TMT, SMT
 * and RMT, step 6), rl_* (the releases of an accepted event), arr_* (checked: the logical block
 * and warps the model granted, the block's lowest free ones, predicted from the reference's
 * state at the arrival's cycle), ep_* (o_thresh, zorua_alloc.c), sched_o (the schedulable bits
 * the warp scheduler sees, L222 fn 5: a warp issues only while its bit is set and no event of it
 * waits). Warp slots: a warp admitted past the physical slots (the block's o_thresh for slots,
 * L304) has its TMT entry in swap and stays absent in the substrate until a slot frees (then its
 * entry is filled, lowest logical warp first). Barriers: the substrate's `stalled` hook gives the
 * warps that wait; the warp that completes a barrier does not wait, so its event is queued when
 * a released CTA-mate first asks to issue (`hold`). No globals.
 */
#ifndef HD_ZORUA_BLKDRIVE_H
#define HD_ZORUA_BLKDRIVE_H

#include "zorua_coord.h"

#include <stdbool.h>
#include <stdint.h>

struct zalloc;

struct zbd_ev {
    uint8_t kind, warp, rsets, ssets; /* enum hd_zorua_coord_ev */
};

/* A warp mask: bit w in word w / 32 (the block's arr_wmask_o and sched_o layout). */
typedef uint32_t zbd_mask[HD_ZCO_MWORDS];

struct zbd {
    struct hd_zorua_coord_state ref; /* the block's C reference: the model's coordinator */
    const char *kind;                /* its configuration's instance kind (zcl_kind) */
    bool arr_pend;                   /* an arrival waits for the next cycle */
    struct hd_zorua_coord_in arr;    /* its inputs */
    uint32_t arr_blk;                /* the logical block and warps granted to it */
    zbd_mask arr_mask;
    uint32_t arr_due;                /* the block and warps the arrival in flight must get */
    zbd_mask arr_due_mask;
    bool arr_check;
    struct zbd_ev q[256];            /* warp events waiting for the port (a ring) */
    uint32_t qh, qn;
    uint8_t nq[HD_ZCO_WARPS_MAX];    /* events of each warp in q */
    zbd_mask sched;                  /* sched_o of the last step */
    uint8_t bar[HD_ZCO_WARPS_MAX];   /* its barrier: 0 none, 1 event queued, 2 taken by the
                                        block (held until readmitted) */
    zbd_mask exited;                 /* exit queued */
    zbd_mask adm;                    /* admitted since its arrival (its TMT entry is its own) */
    bool ev_fly;                     /* an event went in at the last step: its result is due */
    struct zbd_ev fly;
    bool moved;                      /* the last step admitted, released or took a block */
    /* session 15: a barrier waiter's thread slot to swap (digest L252: a warp waiting at a
       barrier does not need its slot), for a schedulable warp whose slot is in swap */
    uint8_t out[HD_ZCO_WARPS_MAX];   /* 0 in its slot or never out; 1 leaving for swap; 2 out
                                        (its TMT entry in swap until a slot frees) */
    uint32_t ctx[HD_ZCO_WARPS_MAX];  /* its context and index in its CTA (known once a warp of
                                        its CTA waited at a barrier: known[w]) */
    uint8_t wix[HD_ZCO_WARPS_MAX];
    uint8_t known[HD_ZCO_WARPS_MAX];
    bool leaving;                    /* one barrier waiter is on its way out */
    uint32_t nout;                   /* warps with out[] == 2 (none: swap_barrier's return scan
                                        is skipped) */
};

/* Does one of the block's configurations fit SM allocator a (sizes and keys)? Its instance kind
 * then (zcl_kind; *cfg its parameters), else NULL. */
const char *zbd_fits(const struct zalloc *a, struct hd_zorua_coord_cfg *cfg);
void zbd_init(struct zbd *b, const char *kind, const struct hd_zorua_coord_cfg *cfg);
/* Has logical warp w's exit been queued? Was it admitted since its arrival? */
bool zbd_exited(const struct zbd *b, uint32_t w);
bool zbd_admitted(const struct zbd *b, uint32_t w);
/* The logical block and warps the block would give a CTA of nw warps arriving now, or false
 * (an arrival already buffered, no room, or its logical block still held by the substrate). */
bool zbd_room(const struct zalloc *a, uint32_t nw, uint32_t *blk, uint32_t *wid);
/* A CTA arrives (zbd_room's blk and wid): buffered for the next cycle. */
void zbd_arrive(struct zalloc *a, uint32_t blk, const uint32_t *wid, uint32_t nw, uint32_t rsets,
                uint32_t ssets);
/* Warp events (queued; the warp stops issuing until readmitted). */
void zbd_phase(struct zalloc *a, uint32_t w, uint32_t rsets, uint32_t ssets);
void zbd_barrier(struct zalloc *a, uint32_t w);
void zbd_exit(struct zalloc *a, uint32_t w);
/* Warp w waits at a barrier in the substrate: its CTA's context is ctx (its CTA-mates' too). */
void zbd_seen(struct zalloc *a, uint32_t w, uint32_t ctx);
/* Warp w's slot went back to the allocator: true when it left for swap (not an exit); its TMT
 * entry goes to swap and the freed slot to a schedulable warp whose slot is in swap. */
bool zbd_left(struct zalloc *a, uint32_t w);
/* May logical warp w issue (its schedulable bit set, no event of it waiting, not at a
 * barrier)? */
bool zbd_may_run(const struct zalloc *a, uint32_t w);
/* Warp w of CTA slot c asks to issue: if it waited at a barrier, the barrier completed in the
 * substrate: the CTA-mates that never waited are queued at it. True: hold the warp. */
bool zbd_hold(struct zalloc *a, uint32_t c, uint32_t w);
/* One cycle of the block (tick): inputs in, outputs applied. *ep_v, *ep_pct the controller's.
 * 0, or -1 with a.fault_msg set. */
int zbd_cycle(struct zalloc *a, uint64_t now, bool active, bool idle, bool mem, bool *ep_v,
              uint32_t *ep_pct);
/* Anything the block still has to do (the SM must be ticked)? */
bool zbd_busy(const struct zalloc *a);

#endif
