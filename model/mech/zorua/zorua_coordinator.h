/* SPDX-License-Identifier: MIT
 * zorua_coordinator.h - Zorua's coordinator (Vijaykumar et al., Zorua Sec. 3.2-3.5, Figure 11;
 * digest Sec. 2.3-2.5 and 2.11): one per SM, it holds the pending warps in three queues, the
 * thread/barrier queue, the scratchpad queue and the register queue, in that priority order,
 * and lets a warp through them into the schedulable set when each of its resources can be had
 * on chip or, oversubscribed, in the swap space within o_thresh; it owns the three mapping
 * tables: TMT (zorua_slots.h) (logical warp -> warp slot), SMT (logical CTA -> scratchpad sets),
 * RMT (logical warp -> register sets), all three the zorua_map block (zorua_mt.h).
 *
 * Design. The coordinator acts only on events (Sec. 3.2): a CTA arrives (its warps enter the
 * thread queue; each needs a slot, its CTA's scratchpad and its registers, the amounts of the
 * kernel's first phase specifier), a warp changes phase (it leaves the schedulable set, its dead
 * registers are released, and it re-enters the queue of the first resource it needs more of; at
 * a barrier it waits in the thread queue until its CTA's warps all arrived), a warp finishes
 * (its slot and registers are released) and a CTA finishes (its scratchpad is released: only
 * then, Sec. 3.2). zc_run() is "at every coordinator event": each warp of each queue, starting
 * from the register queue (closest to schedulable), lowest logical warp first, tries once to
 * traverse the queues left to it; resources are acquired only once it traversed them all
 * (deadlock rule 1), and the mapping tables are written then (6). The order and the test are
 * the zorua_coord block's own functions (tables/zorua_coord.h: hd_zorua_coord_pick, the
 * virtual-space test hd_zorua_coord_fits: allocated + needed <= physical + o_thresh per
 * resource, L233/L255), so the model decides as the block does; the block tries one warp per
 * cycle, the model all of them at the event (docs/zorua.md "One rule"). A warp's slot is taken
 * on chip only (a warp without one waits: its context is out, the substrate's logical warps);
 * scratchpad and registers may go to swap within the virtual space (o_limit, in sets: o_thresh)
 * or when fewer than `floor` warps are schedulable (deadlock rule 3, 20 % of the warp slots).
 * Deterministic: only logical warp numbers decide. No globals.
 * Session 14: on Fermi the zorua_coord block makes these decisions (zorua_blkdrive.h) and this
 * coordinator only holds the tables and the warps' places; zc_run decides for Kepler, Maxwell
 * and WLM.
 */
#ifndef HD_ZORUA_COORDINATOR_H
#define HD_ZORUA_COORDINATOR_H

#include "zorua_mt.h"
#include "zorua_slots.h"

#include <stdbool.h>
#include <stdint.h>

#define ZC_MAX_WARPS 256
#define ZC_MAX_CTAS 64

enum zc_res { ZC_SLOT, ZC_SMEM, ZC_REG, ZC_NRES };
enum zc_where { ZC_Q_SLOT = ZC_SLOT, ZC_Q_SMEM = ZC_SMEM, ZC_Q_REG = ZC_REG, ZC_SCHED, ZC_FREE };

struct zc_warp {
    uint8_t where;      /* enum zc_where */
    bool barrier;       /* waits in the thread queue for its CTA's barrier */
    uint16_t cta;       /* logical CTA */
    uint32_t reg_sets;  /* register sets its current phase needs */
    uint64_t seq;       /* when it entered its queue (migrate-on-free's oldest first) */
};

struct zc_cta {
    bool used;
    uint32_t nwarps, waiting;  /* warps it has not finished; of them at its barrier */
    uint32_t smem_sets;        /* scratchpad sets its warps' phases need (max; grows only) */
};

struct zcoord {
    struct zslots tmt;   /* warp slots (zorua_slots.h: the zorua_map block, lowest free) */
    struct zmt smt, rmt; /* the zorua_map block's C reference (zorua_mt.h) */
    struct zc_warp w[ZC_MAX_WARPS];
    struct zc_cta c[ZC_MAX_CTAS];
    uint32_t nwarps, nctas;          /* logical warps and CTAs */
    uint32_t o_limit[ZC_NRES];       /* swap allowed per resource, in its units (o_thresh) */
    uint32_t floor;                  /* schedulable warps below which it oversubscribes anyway */
    uint32_t schedulable;            /* warps in ZC_SCHED */
    uint64_t seq;
    /* statistics */
    uint64_t events, admitted, forced, phase_changes, barrier_waits;
};

/* A coordinator for nwarps logical warps and nctas logical CTAs over `slots` warp slots,
 * `reg_units` physical register sets (reg_sets_max per warp) and `smem_units` scratchpad sets
 * (smem_sets_max per CTA). Returns 0, or -1 (sizes, host memory). */
int zc_init(struct zcoord *z, uint32_t nwarps, uint32_t nctas, uint32_t slots, uint32_t reg_units,
            uint32_t reg_sets_max, uint32_t smem_units, uint32_t smem_sets_max);
void zc_free(struct zcoord *z);
/* Event (i): CTA `cta` arrives with warps wid[0..n) (free logical ids), each needing reg_sets
 * register sets, the CTA smem_sets scratchpad sets. The warps enter the thread queue; call
 * zc_run() for the event's decisions. Returns 0, or -1 (an id in use or out of range). */
int zc_cta_arrive(struct zcoord *z, uint32_t cta, const uint32_t *wid, uint32_t n,
                  uint32_t reg_sets, uint32_t smem_sets);
/* Event (ii): warp w changes phase: reg_sets and smem_sets for its next phase (a barrier keeps
 * its needs: pass barrier = true and the current amounts). */
void zc_phase(struct zcoord *z, uint32_t w, uint32_t reg_sets, uint32_t smem_sets, bool barrier);
/* Event (iii): warp w finished (its slot and registers are released) / CTA cta finished (its
 * scratchpad is released; its warps must have finished). */
void zc_warp_exit(struct zcoord *z, uint32_t w);
void zc_cta_exit(struct zcoord *z, uint32_t cta);
/* At every event: let the queued warps through (register queue first, lowest logical warp
 * first: the block's order). Returns how many warps became schedulable. */
uint32_t zc_run(struct zcoord *z);
/* Migrate on free (digest Sec. 8 item 6; the paper describes no fill-back): after an event's
 * admissions, swapped register sets of schedulable warps, oldest warp first and lowest set
 * first, are filled back on chip while free units remain; then (session 16) swapped scratchpad
 * sets of live logical CTAs, lowest CTA and set first. Returns the sets filled. */
uint32_t zc_fill_back(struct zcoord *z);
/* Let queued warp w through now if it can be, oversubscribing regardless of o_thresh when
 * `force` (deadlock avoidance for a running warp whose CTA-mates may wait for it at a barrier).
 * Returns true when it is schedulable. */
bool zc_admit(struct zcoord *z, uint32_t w, bool force);
/* The warp slot of warp w (ZSL_NONE = ZMT_NONE: none). */
uint32_t zc_slot(const struct zcoord *z, uint32_t w);

#endif
