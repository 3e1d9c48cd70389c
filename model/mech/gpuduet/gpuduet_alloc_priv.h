/* SPDX-License-Identifier: MIT
 * gpuduet_alloc_priv.h - the private state of GPUDuet's unified-storage allocator, shared by
 * gpuduet_alloc.c (the allocator's contract, switch-in, the bitmap block's answers),
 * gpuduet_reserve.c (spill reservations and a swap's pairing, the CSL's) and gpuduet_place.c
 * (placing a TB through the block's allocations). Lin thesis
 * §3.6.4, §3.7; issue 28 items 1 and 4. Not for other files: the mechanism reaches the
 * allocator through gpuduet.h.
 *
 * Every unit of the unified space is the allocation bitmap block's (gpuduet_bmap.h): a request
 * (a TB's registers, shared memory and spill space; a switch-in's registers; a switch-out's
 * spill) is a sequence of the block's allocations, answered S + 1 + M cycles later, so each
 * request keeps a state (P_*): not asked, at the block, given, no room (asked again once
 * something was freed: the allocator's `gen` counts frees). Answers carry a tag: what asked
 * (K_*), its CTA record, warp, the record's epoch (a TB that left meanwhile gets its units given
 * back on arrival) and the units.
 * A request that found no room is stamped with the gen it was asked at (*_fgen), not the gen its
 * answer came at: a free queued after the ask reaches the block after its search, so the search
 * never saw it, and the request must be asked again (session 15: stamped at the answer, a warp
 * whose search failed while the last present warps left waited for a free that never came).
 */
#ifndef HD_GPUDUET_ALLOC_PRIV_H
#define HD_GPUDUET_ALLOC_PRIV_H

#include "gpuduet.h"
#include "gpuduet_bmap.h"

#define MAXW HD_ALLOC_MAX_WARPS

/* A request's state (a switch-in's units, a spill reservation, the TB being placed). */
enum { P_NONE, P_RUN, P_OK, P_FAIL };

struct gd_cta {
    bool used;
    uint32_t launch, n, threads;
    struct gd_plan pl;
    uint32_t smem;           /* shared-memory units' base (home or spilled), GD_NONE: S = 0;
                                whether it is home (in the shared-memory region) is the TB
                                context table's bit once the TB is placed (gda_smem_present) */
    uint32_t smem_sp;        /* a reserved spill for the TB's shared memory, GD_NONE */
    uint32_t rf[MAXW];       /* register units in the register file, GD_NONE */
    uint32_t sp[MAXW];       /* spilled units (reduced registers and/or meta-data), GD_NONE */
    uint32_t spn[MAXW];      /* their count */
    uint32_t slot[MAXW];     /* warp slot, GD_NONE */
    bool want[MAXW];         /* (being placed) the warp got its registers: a slot at accept */
    /* requests at the bitmap block: their answers come S + 1 + M cycles later */
    uint32_t epoch;          /* answers of an older epoch are given back (the TB left) */
    uint8_t acq[MAXW];       /* switch-in: its registers (P_*) */
    uint32_t acq_rf[MAXW], acq_fgen[MAXW];
    uint8_t acq_sm;          /* switch-in: the TB's shared memory home again */
    uint32_t acq_smem, acq_sm_fgen;
    uint8_t res[MAXW], res_k[MAXW]; /* spill reservation of a warp: state, region tried */
    uint32_t res_fgen[MAXW];
    uint8_t rtb, rtb_k;      /* spill reservation of the TB's shared memory */
    uint32_t rtb_fgen;
    /* a swap exchanges the two warps' context spaces (§3.6.5, no bitmap operation): the
     * stalled warp takes the ready warp's spill space at once, the ready warp its registers
     * when it has left (gpuduet_alloc.c, "swaps") */
    uint32_t swap_to[MAXW];  /* stalled warp: the ready warp (cta << 5 | warp) promised its
                                register units, GD_NONE */
    bool promised[MAXW];     /* ready warp: waits for a stalled warp's register units */
    /* a swap pairs one stalled warp with one ready warp (§2.12, gd_alloc_pair): the slot the
     * stalled warp gives up is the ready warp's, no other's */
    uint32_t pair_to[MAXW];  /* stalled warp: the ready warp (cta << 5 | warp), GD_NONE */
    uint32_t slot_res[MAXW]; /* ready warp: the warp slot reserved for it, GD_NONE */
    /* a TB swap (§3.6.5 "swaps the context space of them", gd_alloc_pair_tb): the stalled TB's
     * shared-memory run goes to the ready TB (CTA slot tb_to) as its first warp leaves */
    uint32_t tb_to;
};

/* The TB being placed (can_accept starts it, accept takes it). */
enum { PH_START, PH_SMEM, PH_SMEM_SP, PH_WARP, PH_WRF, PH_ABS, PH_WRF_ABS, PH_SP, PH_WSP,
       PH_WRF_ALL, PH_WSP_ALL };
struct gd_stage {
    uint8_t st;              /* P_* */
    struct hd_cta_demand d;
    struct gd_cta c;
    uint8_t phase, k;
    uint32_t i, offered;
    uint32_t fgen, epoch;
    uint32_t nall;           /* warps the one search (PH_*_ALL) asked for */
    bool tried_rf, tried_sp; /* the one search was asked (then warp by warp if it found none) */
    uint32_t agen;           /* gen when its last search (or region chain) was asked */
    bool home;               /* the TB's shared memory was given in its region (it is placed
                                present; the TBCT gets its base when the TB is placed) */
};

struct gd_alloc {
    const struct hd_sm_params *p;
    uint8_t mode;
    struct gd *g;
    uint32_t sm;
    struct gd_caps caps;     /* the model's regions (at most the block's) */
    uint32_t base[3];        /* region bases in the block's unified space */
    struct gd_bmap *bm;      /* the allocation bitmap block: the only map (the mechanism's) */
    bool bm_made;
    uint32_t held[3];        /* units the block gave to contexts, per region */
    uint32_t gen;            /* frees so far: a request that found no room retries after one */
    uint8_t *wused;          /* [caps.warps] */
    struct gd_cta *cta;      /* [p->max_ctas] */
    uint32_t nctas;
    struct gd_stage stg;
    bool room_short;         /* the last can_accept failed for room, not for the TB limit */
    bool waiting;            /* a TB was refused for room since the last one was placed */
    uint32_t wait_launch;    /* (its launch: gd_alloc_waiting asks whether it has any left) */
    bool oom;                /* host out of memory queueing an operation */
    bool poke;               /* the CTA scheduler should ask again (a stage is done, or room
                                came free after one found none) */
};

enum { R_RF, R_SMEM, R_L1 };
/* tag: kind 4 | cta 8 | warp 8 | epoch 24 | units 16 */
enum { K_FILL, K_PLACE, K_ACQ_RF, K_ACQ_SM, K_RES, K_RES_TB };

/* {==== gpuduet_alloc.c ==== */
uint64_t gda_tag(unsigned kind, uint32_t cta, uint32_t warp, uint32_t epoch, uint32_t n);
/* Queue an allocation of n units in region r at the block. */
void gda_ask(struct gd_alloc *a, int r, uint32_t n, uint64_t tag);
/* Free the n units at *u (if any) at the block and clear *u. */
void gda_give(struct gd_alloc *a, uint32_t *u, uint32_t n);
extern const int gda_to_smem[2], gda_to_rf[2], gda_meta_any[3]; /* spill targets, in order */
/* The next region of order[0..k) from *i on that has units; false when none is left. */
bool gda_next_region(const struct gd_alloc *a, const int *order, unsigned k, uint8_t *i);
uint32_t gda_free_slot(const struct gd_alloc *a);
/* The warp that `from` (cta << 5 | warp) names, when it is resident and absent: its record and
 * index; NULL otherwise. */
struct gd_cta *gda_swap_partner(struct gd_alloc *a, uint32_t from, uint32_t *fw);
/* Stalled warp i of c no longer hands its registers to a ready warp. */
void gda_swap_cancel(struct gd_alloc *a, struct gd_cta *c, uint32_t i);
/* Is CTA slot ci's shared memory present? The TB context table's smem-present bit (the
 * gpuduet_tbct block's Smemaddr in 0x800-0xAFF: gd_wct_tb_smem); a TB with no shared memory has
 * none to miss. (Without the mechanism, the unit tests' allocator: the block's rule on the
 * allocator's own base.) */
bool gda_smem_present(const struct gd_alloc *a, uint32_t ci);
/* The region (R_*) unit u lies in. */
int gda_region_of(const struct gd_alloc *a, uint32_t u);
uint32_t gda_spill_units(const struct gd_alloc *a, const struct gd_plan *pl);
void gda_cta_init(struct gd_cta *c);
/* Give back everything record c holds or has asked for. */
void gda_undo(struct gd_alloc *a, struct gd_cta *c);
const struct gd_plan *gda_plan_of(struct gd_alloc *a, const struct hd_cta_demand *d,
                                  struct gd_plan *local);
/* }==== */

/* {==== gpuduet_place.c ==== */
void gda_stage_answer(struct gd_alloc *a, bool ok, uint32_t base);
/* Does the staged TB hold units of region r (R_*)? */
bool gda_stage_holds(const struct gd_alloc *a, int r);
/* A resident TB's or warp's switch-in found no room that the staged TB holds: the stage gives its
 * units back and waits for room like one that found none (asked again after the next free, the
 * CTA scheduler told then). */
void gda_stage_yield(struct gd_alloc *a);
bool gda_can_accept(const void *impl, const struct hd_cta_demand *d);
bool gda_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g);
/* }==== */

#endif
