/* SPDX-License-Identifier: MIT
 * gpuduet.h - Lin thesis ch.3 GPUDuet (and its baselines GPUDuet_TB and Virtual Thread): the
 * types its small decision files share (issue 28; digest lin-thesis-preemption-gpuduet-ccbp.md
 * §2.8-2.13, §3.7-3.13; docs/gpuduet.md).
 *
 * Files (each one concept, so that the hardware blocks of tables/ can replace them one by one):
 *   gpuduet_plan.c    per kernel: native TBs MC, limiting resources, switching level (§2.8 table),
 *                     ME upper bound (§2.10), reduced register allocation (§2.12, from liveness)
 *   gpuduet_me.c      the throughput monitor's classes (Table 3.3) and the ME controller (§2.10)
 *   gpuduet_wct.c     warp context table (128 x 27 b: valid, state, Regaddr, Metaaddr) and TB
 *                     context table (32 x 45 b: valid, Absmask, Smemaddr) of one SM (§3.8, §3.9):
 *                     the model's naming of the entries; their fields are the blocks' only
 *   gpuduet_tab.c     ... the gpuduet_wct and gpuduet_tbct blocks, whose reads the CSL decides
 *                     from (gpuduet_tab.h)
 *   gpuduet_queues.c  stalled/ready warp queues (16 x 7 b) and TB queues (8 x 5 b) (§3.10)
 *   gpuduet_alloc.c   the [sm] allocator: unified on-chip storage in 128 B units over the
 *                     register file, shared memory and L1D with the allocation bitmap (§3.7)
 *   gpuduet_place.c   ... placing a TB through the bitmap block's allocations
 *   gpuduet_reserve.c ... a switch-out's spill reservation and a swap's pairing (the CSL's)
 *   gpuduet_bmap.c    the allocation bitmap block of one SM, the allocator's only map
 *   gpuduet_csl.c     the context switching logic of one SM, once per cycle (§2.12)
 *   gpuduet_mech.c    registry entry, attach, the hook's callbacks, the log
 *   gpuduet_window.c  the monitor's window: the controller's sample, ME update, §2.10's L1D rule
 *   gpuduet_loop.c    [gpuduet] blocks: the check that the GPU fits the blocks (gpuduet_loop.h)
 *   gpuduet_tmloop.c  [gpuduet] blocks: the throughput monitor blocks in the loop, whose ME the
 *                     SMs then take (gpuduet_tmloop.h)
 *   gpuduet_mover.c   [gpuduet] blocks: the CSL's data-mover blocks as the SMs' warp movers,
 *                     whose done_* completes each switch (gpuduet_mover.h)
 */
#ifndef HD_GPUDUET_H
#define HD_GPUDUET_H

#include "gpuduet_tab.h"
#include "hw_inst.h"
#include "mech.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum gd_mode { GD_MODE_GPUDUET, GD_MODE_TB, GD_MODE_VT };
enum gd_level { GD_LEVEL_OFF, GD_LEVEL_WARP, GD_LEVEL_TB };
enum gd_lim { GD_LIM_REGS = 1, GD_LIM_SMEM = 2, GD_LIM_WARPS = 4, GD_LIM_CTAS = 8 };

#define GD_UNIT 128u        /* bytes of one unit of the unified space (one vector register) */
#define GD_ST_UNITS 1u      /* warp-slot meta-data (PC, SIMT stack, scoreboard): one unit */
#define GD_WCT_ENTRIES 128u /* Table 3.4 */
#define GD_TBCT_ENTRIES 32u
#define GD_NONE 0xFFFFFFFFu

/* {==== gpuduet_plan.c ==== */
/* What one SM holds, in the plan's terms. */
struct gd_caps {
    uint32_t warps, ctas;               /* physical warp and TB slots */
    uint32_t rf_units, smem_units, l1_units; /* the unified space's regions */
};

/* One kernel's plan on one SM shape. */
struct gd_plan {
    uint32_t n;       /* warps per TB */
    uint32_t R;       /* register units per warp as allocated */
    uint32_t r;       /* reduced register units per warp (live at the worst switch-out point) */
    uint32_t S;       /* shared-memory units per TB */
    uint32_t mc;      /* native TBs per SM */
    uint32_t lim;     /* enum gd_lim bits: the resources that cap mc */
    uint8_t level;    /* enum gd_level */
    uint32_t me_ub;   /* extra TBs' upper bound (0 when level is OFF) */
    bool spill_regs;  /* an absent warp's registers leave the register file (reduced) */
    bool spill_smem;  /* an absent TB's shared memory leaves the shared-memory region */
    bool regs_room;   /* spill_regs because the RF lacks room for the extra TBs' registers at
                       * full size, not because registers limit mc (§2.10, session 27) */
};

/* Fill *out for a TB of n warps, R register units per warp (reduced r), S shared-memory units,
 * under mode (enum gd_mode). */
void gd_plan_make(const struct gd_caps *c, uint8_t mode, uint32_t n, uint32_t R, uint32_t r,
                  uint32_t S, struct gd_plan *out);
/* The upper bound of plan p's extra TBs on SM shape c, its leaving contexts as p decided them
 * (the L1D rule: the bound again with the L1D's units, the decision kept). */
uint32_t gd_plan_ub(const struct gd_caps *c, uint8_t mode, const struct gd_plan *p);
/* Reduced register units per warp of a kernel: the maximum over its switch-out points (barriers
 * and instructions reading a register a global or local load writes) of the live registers
 * (Lin §2.3's divergence-aware rows) compressed by the static classes cls (gpuduet_regpat.c;
 * NULL: uncompressed, one unit per 32-bit word). *points: how many points; *live: the maximum
 * of the live words alone. Returns 0 when the kernel has no such point. */
struct hd_func_kernel;
struct hd_annot;
uint32_t gd_reduced_units(const struct hd_func_kernel *k, const struct hd_annot *an,
                          const uint8_t *cls, uint32_t *points, uint32_t *live);
/* }==== */

/* {==== gpuduet_regpat.c ==== */
/* The static pattern class of every register of k (malloc'd [k->nregs]; NULL: none). */
uint8_t *gd_regpat_classes(const struct hd_func_kernel *k, const struct hd_annot *an);
/* Compressed units of the live registers before pc; *live_words: their 32-bit words. */
uint32_t gd_regpat_point_units(const struct hd_annot *an, const uint8_t *cls, uint32_t nregs,
                               uint32_t pc, uint32_t *live_words);
/* }==== */

/* {==== gpuduet_me.c ==== */
enum gd_class { GD_CLASS_UNDER, GD_CLASS_MODERATE, GD_CLASS_SATURATED, GD_CLASS_NONE };

/* One window's busy counts and what each is measured against (same units). */
struct gd_util {
    uint64_t sched, sched_cap;  /* warp instructions issued / issue slots */
    uint64_t l1, l1_cap;        /* L1D data-port cycles of hits / SM cycles (Lin 3.4.1) */
    uint64_t icnt, icnt_cap;    /* flits of the busier direction / sustainable flit slots */
    uint64_t l2, l2_cap;        /* L2 data-port cycles of hits / slice cycles */
    uint64_t dram, dram_cap;    /* DRAM data-bus cycles / channel cycles */
};

/* Table 3.3 with multiplications (§3.13): under, moderate or saturated. */
uint8_t gd_classify(const struct gd_util *u);

/* The ME controller of one kernel (§2.10). */
struct gd_me {
    uint32_t me, ub;
    uint8_t cls;      /* the class of the first window (GD_CLASS_NONE before) */
    bool done;        /* moderate: the search stopped (upper bound or a resource saturated) */
    uint32_t windows;
};
void gd_me_init(struct gd_me *m, uint32_t ub);
/* A window closed with utilisation u: update and return ME. */
uint32_t gd_me_window(struct gd_me *m, const struct gd_util *u);
/* §2.10: does an unsaturated kernel whose ME has reached what the register file and shared
 * memory hold (m->ub) want the L1D as context storage? ub_l1: the bound with the L1D's units;
 * u: the window (L1D utilisation < 3 %); tbs_left: its launch still has TBs to place. */
bool gd_me_wants_l1d(const struct gd_me *m, uint32_t ub_l1, const struct gd_util *u,
                     bool tbs_left);
/* The L1D joined the context storage: the bound rises to ub; an underutilised kernel takes it,
 * a moderate one climbs on to it (+1 per window, until a saturated window). */
void gd_me_raise_ub(struct gd_me *m, uint32_t ub);
/* }==== */

/* {==== gpuduet_wct.c ==== */
enum gd_wstate { GD_WS_RUNNING, GD_WS_STALLED, GD_WS_ABSENT, GD_WS_READY };

/* What the model keeps beside a WCT entry to name the warp to the SM (context id, warp in its
 * TB, TB entry, warp slot) and the CSL's own bookkeeping. The entry's 27 bits (Valid, State,
 * Regaddr, Metaaddr) are the gpuduet_wct block's only (gpuduet_tab.h): gd_w_valid / gd_w_state
 * read them. */
struct gd_wct_entry {
    uint32_t ctx, warp;  /* the warp: context id and index in its TB */
    uint32_t tb;         /* its TBCT entry */
    uint32_t slot;       /* its warp slot (the SM's binding its events name), or GD_NONE */
    bool barrier;        /* stalled at a barrier (else at a load's first use) */
    bool queued;         /* pushed onto the stalled queue, not yet popped */
    uint32_t pc;         /* the instruction it stalled at */
    uint32_t lr;         /* live registers it moved out with (Eq. 3.1's LR) */
    uint64_t stalled_at; /* the cycle it began to wait (its own issue then is the instruction
                            that made it wait, not a sign it runs again) */
    bool rq;             /* pushed onto the ready queue, not yet popped */
    /* a swap (§2.12) pairs ONE stalled warp with ONE ready warp: the stalled (leaving) warp's
     * ready partner, or the ready warp's stalled partner, GD_NONE; set when the stalled one is
     * switched out, cleared when the ready one is back in (its slot reserved for it meanwhile:
     * gd_alloc_reserve with `from`) */
    uint32_t pair;
    uint32_t named;      /* (trace) switch-outs that named this ready warp since it was last in */
    bool xout;           /* (trace) its switch-out being started names such a warp again */
    bool coming;         /* (trace) the CSL started its switch-in, it is not back yet */
};
/* ... beside a TBCT entry (its 45 bits, Valid, Absmask, Smemaddr, are the gpuduet_tbct
 * block's: gd_t_valid / gd_t_abs). */
struct gd_tbct_entry {
    uint32_t ctx, nwarps, cta_slot;
    uint32_t first;      /* WCT entry of its warp 0 (its warps are consecutive) */
    uint32_t launch;     /* its launch id */
    bool sq, rq;         /* pushed onto the stalled / ready TB queue, not yet popped */
    /* the TB-level trace (the log's tb_* counts; the model's, no block field): the cycle it was
     * last pushed stalled, switched out (0: placed absent, never out) and pushed ready */
    uint64_t t_sq, t_out, t_rq;
    /* (trace) switch-outs that named it as the ready TB since it was last pushed ready (the
     * log's xswaps at TB level: a stalled TB leaving for a ready TB another one left for; no
     * pairing at TB level, docs/gpuduet.md "Session 20"; until session 25 counted since its
     * last switch-in, which a TB that came in through a swap job never had: its later absent
     * periods counted as the same one) */
    uint32_t named;
    uint64_t t_in;       /* (trace) the cycle its last switch-in started, 0: none */
    /* a TB swap under way whose stalled side the SM refused in part (an instruction in flight):
     * the ready TB entry whose remaining warps its remaining warps swap with, GD_NONE */
    uint32_t swap_rt;
};
struct gd_tab;
struct gd_wct {
    struct gd_wct_entry w[GD_WCT_ENTRIES];
    struct gd_tbct_entry t[GD_TBCT_ENTRIES];
    uint32_t slot_entry[256]; /* warp slot -> WCT entry, GD_NONE */
    struct gd_tab *tab;       /* the two blocks (gpuduet_tab.h) */
};
void gd_wct_clear(struct gd_wct *t);
/* The blocks' view of WCT entry e (gpuduet_tab.h): valid, its state (enum gd_wstate). */
static inline bool gd_w_valid(const struct gd_wct *t, uint32_t e)
{
    return t->tab && gd_tab_w(t->tab, e).valid;
}
static inline uint8_t gd_w_state(const struct gd_wct *t, uint32_t e)
{
    return t->tab ? gd_tab_w(t->tab, e).state : GD_WS_RUNNING;
}
/* Entry e's state becomes st (a write on the port the change names). */
void gd_w_set_state(struct gd_wct *t, uint32_t e, uint8_t st);
/* ... of TBCT entry tb: valid, Absmask (bit k: warp k absent). */
static inline bool gd_t_valid(const struct gd_wct *t, uint32_t tb)
{
    return t->tab && gd_tab_t(t->tab, tb).valid;
}
static inline uint32_t gd_t_abs(const struct gd_wct *t, uint32_t tb)
{
    return t->tab ? gd_tab_t(t->tab, tb).abs : 0;
}
/* A TB of nwarps warps of context ctx took CTA slot cta_slot; slot[i] its warps' slots
 * (GD_NONE: absent), reg[i] / meta[i] their contexts' units, smem its shared memory's. Returns
 * its TBCT entry, or GD_NONE when a table is full. */
uint32_t gd_wct_add_tb(struct gd_wct *t, uint32_t ctx, uint32_t cta_slot, uint32_t nwarps,
                       const uint32_t *slot, const uint32_t *reg, const uint32_t *meta,
                       uint32_t smem);
void gd_wct_remove_tb(struct gd_wct *t, uint32_t ctx);
/* The WCT entry of (ctx, warp), or GD_NONE. */
uint32_t gd_wct_find(const struct gd_wct *t, uint32_t ctx, uint32_t warp);
uint32_t gd_wct_tb_of_ctx(const struct gd_wct *t, uint32_t ctx);
/* Entry e left its slot (its contexts now at reg / meta) / came back into slot (its registers
 * at reg): the WCT's CSL write and the TBCT's Absmask bit. (The TB's shared memory moves when
 * the allocator moves it: gd_wct_tb_smem_set.) */
void gd_wct_left(struct gd_wct *t, uint32_t e, uint32_t reg, uint32_t meta);
void gd_wct_back(struct gd_wct *t, uint32_t e, uint32_t slot, uint32_t reg);
/* The TBCT's Smemaddr (the block's view, gpuduet_tab.h) of the TB in CTA slot cta_slot: false
 * when no valid entry holds it (not placed yet). */
bool gd_wct_tb_smem(const struct gd_wct *t, uint32_t cta_slot, uint32_t *smem);
/* ... becomes smem (the CSL's TB-move write: the TB's shared memory moved out or home). */
void gd_wct_tb_smem_set(struct gd_wct *t, uint32_t cta_slot, uint32_t smem);
/* Every present warp of TB entry tb in state st (and at least one present)? A TB partly
 * switched out counts with its present warps (§2.9: its warps at a barrier may leave too). */
bool gd_wct_tb_all(const struct gd_wct *t, uint32_t tb, uint8_t st);
/* }==== */

/* {==== gpuduet_queues.c ==== */
/* The four queues of one SM: the gpuduet_queues block, whose registered read is the CSL's view
 * (one cycle behind the CSL's own operations: gpuduet_queues.c). */
enum { GD_QS, GD_QR, GD_QST, GD_QRT, GD_NQ }; /* stalled / ready warps, stalled / ready TBs */
struct gd_queues {
    struct hd_hw_inst x;
    bool made;
    uint32_t head[GD_NQ], cnt[GD_NQ];         /* the view: the block's last read */
    uint8_t pop, push;                        /* bit k: this cycle's requests */
    uint32_t pop_id[GD_NQ], push_id[GD_NQ];
    uint8_t last_pop, last_push;              /* ... of the last edge, answered at the next */
    uint32_t last_pop_id[GD_NQ], last_push_id[GD_NQ];
    uint64_t steps, pops, pushes, drops;
};
struct hd_hw_factory;
/* Make SM sm's instance through factory f (NULL: the C reference). 0, or -1 with a message. */
int gd_queues_make(struct gd_queues *q, const struct hd_hw_factory *f, uint32_t sm, char *err,
                   size_t errlen);
void gd_queues_destroy(struct gd_queues *q);
/* Queue k's head as the view shows it; GD_NONE when empty or when it was popped in this cycle or
 * the last (the view does not show the next one yet). */
uint32_t gd_queues_head(const struct gd_queues *q, unsigned k);
/* May queue k hold a head that gd_queues_head does not show this cycle (popped or pushed on the
 * last edge or in this cycle, and not known empty)? */
bool gd_queues_unknown(const struct gd_queues *q, unsigned k);
uint32_t gd_queues_count(const struct gd_queues *q, unsigned k); /* (the view's) */
bool gd_queues_pop(struct gd_queues *q, unsigned k);  /* the head; false: no known head */
bool gd_queues_push(struct gd_queues *q, unsigned k, uint32_t id); /* false: port taken */
bool gd_queues_push_free(const struct gd_queues *q, unsigned k);
/* Queue k is full as far as the CSL knows (the view, the operations since): a push now would
 * be dropped. */
bool gd_queues_full(const struct gd_queues *q, unsigned k);
bool gd_queues_rotate(struct gd_queues *q, unsigned k); /* the head to the back */
bool gd_queues_busy(const struct gd_queues *q);  /* an entry, or an operation in flight */
/* The cycle's edge: the requests, a read. dropped[k]: the id whose push of the last edge the
 * block dropped (queue full), else GD_NONE. 0, or -1 with a located message. */
int gd_queues_step(struct gd_queues *q, uint32_t sm, uint64_t now, uint32_t dropped[GD_NQ],
                   char *err, size_t errlen);
/* }==== */

/* {==== gpuduet_alloc.c (the [sm] allocator) ==== */
struct gd;
struct gd_alloc;
extern const struct hd_alloc_ops gd_alloc_ops;
int gd_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out);
int gd_alloc_create_tb(const struct hd_sm_params *p, struct hd_sm_alloc *out);
int gd_alloc_create_vt(const struct hd_sm_params *p, struct hd_sm_alloc *out);
/* Link the allocator of SM sm with the mechanism's state. */
void gd_alloc_bind(struct gd_alloc *a, struct gd *g, uint32_t sm);
/* Reserve the spill space warp `warp` of CTA slot cta needs before it is switched out (its
 * reduced registers and meta-data, or with `tb` its TB's shared memory as the TB's last warp
 * leaves). `from` (ctx-warp pair packed as ctx << 5 | warp, or GD_NONE): a ready warp whose
 * spill space may be handed over (the swap's staging). Returns false when there is no room. */
bool gd_alloc_reserve(struct gd_alloc *a, uint32_t cta, uint32_t warp, bool tb, uint32_t from);
/* Give back a reservation of a warp that stayed (the SM refused the switch-out). */
void gd_alloc_unreserve(struct gd_alloc *a, uint32_t cta, uint32_t warp);
/* Where warp `warp` of CTA slot cta keeps its registers (unit) and meta-data (unit), GD_NONE. */
void gd_alloc_where(const struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t *reg,
                    uint32_t *meta, uint32_t *smem);
/* The same for warp `warp` as it leaves its slot (the SM releases the slot after telling the
 * hook): its reserved spill for the meta-data (and the registers when they leave the register
 * file), and the TB's spilled shared memory when it is the last warp with a slot. */
void gd_alloc_where_out(const struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t *reg,
                        uint32_t *meta, uint32_t *smem);
/* The L1D region's units (0: not a context store); returns what it holds now (turning it off
 * waits while a context is there). */
#define GD_L1_MAX_UNITS 1024u
uint32_t gd_alloc_set_l1(struct gd_alloc *a, uint32_t units);
void gd_alloc_caps(const struct gd_alloc *a, struct gd_caps *c);
/* Has a TB been refused for room (not for the MC + ME limit) since the last one was placed?
 * (A switch-out with no ready warp to take its place only helps then.) */
bool gd_alloc_waiting(const struct gd_alloc *a);
/* Free physical warp slots of the SM. */
uint32_t gd_alloc_free_slots(const struct gd_alloc *a);
/* The allocation bitmap block is the allocator's only map (gpuduet_bmap.h): make SM's instance
 * bm (the mechanism's: it outlives the allocator) through factory f (NULL: the C reference),
 * l1_max the L1D units the §2.10 rule may open; step it at the cycle's end; busy while
 * operations are queued or at the block. */
struct hd_hw_factory;
struct gd_bmap;
int gd_alloc_make_bitmap(struct gd_alloc *a, struct gd_bmap *bm, const struct hd_hw_factory *f,
                         uint32_t l1_max, char *err, size_t errlen);
int gd_alloc_step(struct gd_alloc *a, uint64_t now, char *err, size_t errlen);
bool gd_alloc_busy(const struct gd_alloc *a);
/* A TB's placement is ready (or room came free after one found none): the CTA scheduler should
 * ask again (the hook's `ready`). Clears the flag. */
bool gd_alloc_poke(struct gd_alloc *a);
/* A spill reservation of the warp (or TB) is at the block (gd_alloc_reserve answered false while
 * the block works, not for want of room). */
bool gd_alloc_pending(const struct gd_alloc *a, uint32_t cta, uint32_t warp, bool tb);
/* The region (0 RF, 1 shared memory, 2 L1D) of the spill space warp `warp` of CTA slot cta
 * moves to as it leaves (its reserved spill; at TB level its TB's shared-memory spill), or -1:
 * none (Virtual Thread; nothing reserved). */
int gd_alloc_spill_region(const struct gd_alloc *a, uint32_t cta, uint32_t warp);
/* Absent warp `warp` of CTA slot cta can be a swap's ready side: it does not wait for a swap's
 * registers already (a swap exchanges the two warps' context spaces, session 15). */
bool gd_alloc_swap_open(const struct gd_alloc *a, uint32_t cta, uint32_t warp);
/* A swap (§2.12) pairs stalled warp `warp` of CTA slot cta, just switched out, with the ready
 * warp `from` (cta << 5 | warp): the warp slot it gives up (release_part) is reserved for that
 * warp, whose acquire takes it; no TB placement or other warp gets it meanwhile. */
void gd_alloc_pair(struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t from);
/* A TB swap (session 20): the stalled TB in CTA slot cta (its shared-memory spill reserved, its
 * shared memory home) gives its home run to the ready TB in CTA slot `from` (spilled, the same
 * S, nothing asked of the bitmap) as its first warp leaves, so that the ready TB's warps come
 * in at once, each in one swap job. false: not possible (nothing set). gd_alloc_unpair_tb: no
 * longer (after the switch-outs). */
bool gd_alloc_pair_tb(struct gd_alloc *a, uint32_t cta, uint32_t from);
void gd_alloc_unpair_tb(struct gd_alloc *a, uint32_t cta);
/* The TB in CTA slot cta is coming in already (session 25): a warp of it holds a warp slot, or
 * its switch-in's search at the bitmap block (its spilled shared memory, its absent warps'
 * registers) was asked or answered, and no part of it found no room (session 26: a TB whose
 * search failed waits for room a swap makes). Such a TB has left the ready state (Fig 3.9:
 * ready -> running once its contexts find room) and its spill space is no longer there to
 * exchange: no swap partner. (gpuduet_tbin.c) */
bool gd_alloc_tb_arriving(const struct gd_alloc *a, uint32_t cta);
/* A TB comes in as a whole (session 26, gpuduet_tbin.c): the warps of CTA slot cta in mask
 * (bit k: warp k) are to switch in together. Asks the bitmap block for every part they lack (the
 * TB's shared memory home, each warp's registers) at once; true when all are there and warp
 * slots are free for all, so that each warp's acquire then succeeds. A part without room gives
 * the others back (asked again after the next free). */
bool gd_alloc_tb_gather(struct gd_alloc *a, uint32_t cta, uint32_t mask);

/* Absent warp `warp` of CTA slot cta found no room for its registers (or its TB's shared
 * memory) at the block, and no swap promised it any. */
bool gd_alloc_starved(const struct gd_alloc *a, uint32_t cta, uint32_t warp);
/* The audit: the units per region (0 RF, 1 shared memory, 2 L1D) the records name (resident
 * TBs, the staged TB) and the units the block gave to contexts; true when they agree (no unit
 * lost or named twice over). */
bool gd_alloc_audit(const struct gd_alloc *a, uint32_t named[3], uint32_t held[3]);
/* }==== */

/* {==== the mechanism's state (gpuduet_mech.c) ==== */
struct gd_launch {
    uint32_t launch, kernel;
    uint32_t r;              /* reduced register units per warp (gd_reduced_units) */
    uint32_t live;           /* ... liveness alone (no compression) */
    uint32_t points;
    const struct hd_annot *an; /* its kernel's annotation store, static classes */
    uint8_t *cls;
    uint32_t nregs;
    /* the checker (gd_regpat_measure): switch-outs measured, the compressor's units (max,
     * sum), words compared, words the static class underestimated */
    uint32_t cp_points, cp_hw_max;
    uint64_t cp_hw_sum, cp_words, cp_under;
    bool planned;
    struct gd_plan plan;
    struct gd_me ctl;
    /* per SM, its TB limit (MC + ME, gd_tb_limit_sm) when the CSL last looked: a rise wakes
     * the CTA scheduler (session 19, gd_cycle), NULL until the launch is planned */
    uint32_t *lim_seen;
    uint64_t start;          /* cycle it was set up */
    bool l1d;                /* its loads bypass the L1D, which holds contexts (§2.10) */
    uint32_t resident;       /* its TBs on the SMs */
};

struct gd_sm_stats {
    uint64_t stalls_miss, stalls_bar; /* stall events taken (missed load first use; barrier) */
    uint64_t outs, outs_bar, ins, swaps; /* warps switched out (of which at a barrier), in, swaps */
    uint64_t tb_outs;                   /* TBs switched out whole */
    uint64_t absent_loads;              /* loads that landed while their warp was absent */
    uint64_t ready;                     /* absent -> ready transitions */
    uint64_t refused;                   /* switch-outs the SM refused (something in flight) */
    uint64_t no_room;                   /* switch-outs without spill space */
    /* the over-switching trace: swap switch-outs naming a ready warp that an earlier one named
     * and that is not in yet (0 with the pairing: one stalled warp per ready warp); switch-outs
     * with no ready partner (for a TB waiting for room); the default mover's cycles
     * (ceil(bytes / [sm] warp_move_bytes)) of all switch-outs and of the over-switching ones */
    uint64_t xswaps, outs_tb, out_cycles, xout_cycles;
    uint64_t unpaired; /* paired ready heads released: their partner left, no room for them */
    /* the TB-level trace (session 19): stalled-TB pushes; stalled heads that ran on before they
     * left (stale); head visits rotated for want of a partner, for the TB's run (asked, or no
     * room), for a warp's meta-data spill; the cycles from the stalled push to the switch-out
     * (summed over tb_outs); TB switch-ins, the cycles from the ready push to the switch-in and
     * from the switch-out to the ready push (summed); ready heads rotated for warp slots */
    uint64_t tb_sq, tb_stale, tb_nopart, tb_run_wait, tb_wres_wait, tb_out_wait;
    uint64_t tb_blind; /* stalled TB held: the ready TB queue's head not known this cycle */
    /* session 25: stalled-head visits that found the ready TB head already coming in (no swap
     * partner: gd_alloc_tb_arriving); TB switch-outs of a TB switched in before, the cycles
     * from that switch-in to the switch-out (summed), and of them those within 300 cycles
     * (the ping-pong trace) */
    uint64_t tb_arriving, tb_reouts, tb_back_cycles, tb_back_short;
    /* session 26: instructions issued by a warp of a TB-level TB that has a warp absent and not
     * on its way in (gd_tb_partial): a TB partly present (0 when TBs move as a whole) */
    uint64_t tb_part;
    /* session 26: ready TB heads rotated, their parts asked of the block (or no room), or a
     * warp of them still leaving */
    uint64_t tb_in_room;
    uint64_t tb_ins, tb_in_wait, tb_abs_cycles, tb_in_noslot;
    /* swaps moved as ONE move of both warps (hd_mech_act.warp_swap: the CSL block's swap job;
     * the others a switch-out and, later, a switch-in) */
    uint64_t swap_jobs;
};

struct gd_sm {
    struct gd_alloc *alloc;
    struct gd_wct wct;
    struct gd_queues q;      /* the stalled / ready queues (gpuduet_queues.c) */
    uint32_t rr_stall, rr_ready, rr_stall_tb, rr_ready_tb; /* the push scans' next entries */
    struct gd_sm_stats st;
    uint32_t absent;         /* warps absent now (switched out or placed without a slot) */
    uint8_t level;           /* enum gd_level of the kernel whose TB was placed last */
    struct gd_bmap *bm;      /* the allocation bitmap block, the allocator's map (gpuduet_bmap.h) */
};

struct gd {
    const struct hd_gpu_timing_params *p;
    const struct hd_mech_act *act;
    uint8_t mode;
    struct gd_launch *L;
    uint32_t nl, capl;
    struct gd_sm *sm;
    uint32_t nsm;
    FILE *log;
    bool started;
    struct gd_loop *loop;    /* the blocks in the loop ([gpuduet] blocks; gpuduet_loop.h), NULL */
    struct gd_tm *tm;        /* the throughput monitor blocks ([gpuduet] blocks; gpuduet_tmloop.h) */
    struct hd_monitor *mon;  /* the GPU's monitor, and the one-cycle subscription feeding tm */
    int tm_sub;
    const struct hd_hw_factory *const *hw; /* the GPU's block factory */
    struct gd_mover *mv;     /* the CSL blocks as the SMs' warp movers ([gpuduet] blocks;
                                gpuduet_mover.h), NULL */
    struct hd_timing_stats *tst; /* the run's statistics (the sm_made hook): each launch's plan
                                    goes into its gpuduet_* counters (launch_stats.def), and the
                                    SMs' switch counters feed the energy model's events */
};

/* The launch record of launch id (NULL: unknown). */
struct gd_launch *gd_launch_of(struct gd *g, uint32_t launch);
/* The plan of launch id for a TB demand (computed at the first one). */
const struct gd_plan *gd_plan_for(struct gd *g, uint32_t launch, uint32_t warps, uint32_t regs,
                                  uint64_t smem, const struct gd_caps *c);
/* The number of TBs SM sm may hold for launch id now (MC + current ME): with the monitor blocks
 * in the loop and [gpuduet] dynamic, ME is the SM's gpuduet_tmon's (gpuduet_tmloop.h), else the
 * GPU-wide controller's. */
uint32_t gd_tb_limit_sm(const struct gd *g, uint32_t launch, uint32_t sm);
/* }==== */

/* The checker: warp `warp` of context ctx, switched out at pc on SM sm: its live registers'
 * compressed size by the regpat compressor's reference, against the static classes. */
void gd_regpat_measure(struct gd *g, uint32_t sm, struct gd_launch *L, uint32_t ctx,
                       uint32_t warp, uint32_t pc);

/* {==== gpuduet_window.c ==== */
/* The hook's `window` callback: a monitor window closed; the controller's sample, class and ME
 * per resident launch, and §2.10's L1D rule (or, with the monitor blocks, their counts). */
void gd_window(void *impl, const struct hd_mon_window *win, uint64_t now);
/* }==== */

/* {==== gpuduet_csl.c ==== */
/* One cycle of SM i's context switching logic, ending with its queues' edge. 0, or -1 with a
 * located message (a queue block's mismatch). */
int gd_csl_cycle(struct gd *g, uint32_t i, uint64_t now, char *err, size_t errlen);
/* Is TB entry tb of SM i, switched at TB level, partly present: a warp of it holds a slot (or
 * is on its way in) while another is absent and not on its way in? A TB-level TB is present or
 * absent as a whole (session 26); the log's tb_part counts the instructions issued meanwhile. */
bool gd_tb_partial(struct gd *g, uint32_t i, uint32_t tb);
/* }==== */

#endif
