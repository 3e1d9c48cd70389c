/* SPDX-License-Identifier: MIT
 * expars_sm.h - one SM's EXPARS state, shared by its resource allocator (expars_alloc.c, Yu et
 * al. §3.3.2) and its operand-location policy (expars_oloc.c, §3.3.3-3.3.5, §3.3.7): the plan of
 * the calculator, the typed CTA slots, the RAT, the operand cache, the scratchpad-resident
 * registers' versions and the checker.
 *
 * Design: the allocator owns this struct (the SM destroys it with the allocator); the policy
 * only points at it (mech.h's oloc gives it the SM's allocator). Versions are the values the
 * model carries: ref[w][r] is the newest version of register r of warp slot w (every write makes
 * a new one), spm[w][r] the version in the register's scratchpad line, and an operand-cache line
 * holds a version; a read through the operand cache must find ref (the version checker). The
 * lines and the scratchpad registers also hold the registers' values (expars_val.h), which a
 * read compares with the functional model's (the value checker).
 */
#ifndef HD_EXPARS_SM_H
#define HD_EXPARS_SM_H

#include "expars_calc.h"
#include "expars_oc.h"
#include "expars_pref.h" /* tables/: the register prefetcher block's reference */
#include "expars_rat.h" /* tables/: the RAT block's reference */
#include "expars_val.h"
#include "sm_alloc.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_EXPARS_MAX_REGS 256
#define HD_EXPARS_RP_STALL_LIMIT 64 /* cycles the prefetcher's head waits before it steals */
#define HD_EXPARS_MAX_REN 8         /* kernel images whose renumbering an SM keeps at once */

struct hd_expars_blk {
    bool used;
    uint64_t base, size;
};

struct hd_expars_slot {
    bool used, mix;          /* mix: a CTA of the plan holding registers in the scratchpad */
    uint32_t k;              /* mix: its SBR index (slot - Start_CTA) */
    uint32_t warps, threads;
    struct hd_expars_blk reg, smem;
};

struct hd_expars_stats {
    uint64_t ctas_rf, ctas_mix;       /* placements */
    uint64_t reads_oc, reads_beyond;  /* operand reads through the OC; of registers > Max_Reg */
    uint64_t fills, evict_dirty, evict_clean;
    uint64_t fills_data;              /* fills of registers written before */
    uint64_t writes_oc, writes_alloc; /* writes hitting the OC / allocating a line */
    uint64_t checked;                 /* reads the checker compared */
    /* register prefetcher and warp pool (expars_rp.c) */
    uint64_t holds;                   /* issue attempts held */
    uint64_t prefetches, pref_fills, pref_hits, pref_writebacks;
    uint64_t rp_conflict_cycles, forced_unpins, rp_busy_cycles;
    uint64_t pref_passes, pref_pass_waits; /* [expars] pref_spad: passes taken, refused */
    uint64_t wait_unpins;             /* [expars] unpin_wait: long waits that unpinned lines */
    /* CTA lifetimes (placement to departure, the hook's left) by slot type: RF-only / mix */
    uint64_t life_n[2], life_cycles[2], life_max[2];
};

struct hd_expars_sm {
    const struct hd_sm_params *p;
    uint32_t id;                      /* SM */
    uint32_t nslots, nwarps;
    /* the plan and the shape it was made for */
    struct hd_expars_plan plan;
    uint32_t key_regs, key_warps;
    uint64_t key_smem;
    bool planned;
    uint64_t smem_cap;                /* data region: [0, S - CTA_Mix x region) */
    struct hd_expars_rat rat;
    struct hd_expars_slot slot[HD_EXPARS_MAX_SLOTS];
    uint64_t *warp_used;              /* bitmap */
    uint16_t *warp_cta, *warp_local;  /* [nwarps] CTA slot and index in its CTA */
    struct hd_alloc_usage u;
    /* data path */
    struct hd_expars_oc oc;
    uint32_t *ref, *spm;              /* [nwarps x HD_EXPARS_MAX_REGS] versions */
    struct hd_expars_stats st;
    char fault[256];                  /* the checker's located error ("" = none) */
    /* register prefetcher and warp pool (expars_rp.c) */
    bool prefetch;                    /* [expars] prefetch */
    bool ideal;                       /* [expars] ideal: no register in the scratchpad (a bound) */
    const void **have_an, **want_an;  /* [nwarps] kernel (annotation store) of have_b / want_b */
    uint32_t *have_b, *want_b;        /* [nwarps] bundle in the OC / asked for (UINT32_MAX) */
    uint32_t *last_pc;                /* [nwarps] PC of its last issue allowed */
    bool *completed;                  /* [nwarps] finished a bundle */
    struct hd_expars_loop *loop;      /* the blocks in the loop (expars_loop.h), or NULL */
    struct hd_expars_val val;         /* the lines' and scratchpad registers' values (expars_val.h) */
    /* the prefetcher's BVT, queue and fetch in flight: the block expars_pref's C reference
     * (tables/expars_pref.h), which expars_rp.c runs */
    struct hd_expars_pref pref;
    uint32_t pref_pend;               /* [expars] pref_spad: the fetch's transfers not yet made */
    /* [expars] renumber (the paper's register re-ordering, L115): per kernel image, physical
     * register -> its rank by static weight (model/compiler/bundles.h), set by the hook before
     * the kernel's first issue on this SM; every register number EXPARS sees (the RAT, the
     * operand cache, the PREF vectors, the checker's words) is the rank. */
    struct {
        const void *an;               /* the kernel's annotation store */
        const uint16_t *rank;         /* [n] physical register -> rank (the hook's bundles) */
        uint32_t n;
    } ren[HD_EXPARS_MAX_REN];
    uint32_t nren;                    /* entries used (a ring once full) */
};

/* Register `reg` (physical, folded into the budget) of kernel `an` as EXPARS numbers it: its
 * rank with [expars] renumber, else itself. */
static inline uint32_t hd_expars_sm_ren(const struct hd_expars_sm *s, const void *an,
                                        uint32_t reg)
{
    for (uint32_t i = 0; i < s->nren && i < HD_EXPARS_MAX_REN; i++)
        if (s->ren[i].an == an)
            return reg < s->ren[i].n ? s->ren[i].rank[reg] : reg;
    return reg;
}

/* Is register `reg` of warp slot `warp` in the scratchpad? */
static inline bool hd_expars_sm_in_spm(const struct hd_expars_sm *s, uint32_t warp, uint32_t reg)
{
    if (warp >= s->nwarps || reg >= HD_EXPARS_MAX_REGS)
        return false;
    if (s->ideal) /* [expars] ideal: the bound keeps every register in the register file */
        return false;
    const struct hd_expars_slot *c = &s->slot[s->warp_cta[warp]];
    return c->used && hd_expars_rat_in_spm(&s->rat, c->mix, reg);
}

/* The warp pool (expars_rp.c): may warp slot `warp`, at PC `pc` of bundle `b` (of kernel `an`:
 * first PC b_pc, last b_last) whose PREF vector is vec (HD_EXPARS_PREF_MAX_WORDS 64-bit words,
 * bit r = register r), issue at cycle now? false: it may (its bundle's scratchpad registers are
 * in the operand cache, or it needs none); true: held, and queued for the prefetcher. */
bool hd_expars_pool_hold(struct hd_expars_sm *s, uint32_t warp, const void *an, uint32_t b,
                         uint32_t b_pc, uint32_t b_last, uint32_t pc, const uint64_t *vec,
                         uint64_t now);
/* The prefetcher's cycle (true: a warp became schedulable) and its next event. */
bool hd_expars_rp_tick(struct hd_expars_sm *s, uint64_t now);
uint64_t hd_expars_rp_next(const struct hd_expars_sm *s, uint64_t now);
/* [expars] pref_spad (the substrate's spad_want / spad_took, expars_oloc.c): does the fetch in
 * flight want a scratchpad pass at cycle now, and was it granted? */
bool hd_expars_rp_want(const struct hd_expars_sm *s, uint64_t now);
void hd_expars_rp_took(struct hd_expars_sm *s, uint64_t now, bool granted);
/* Is warp slot `warp` in the prefetching queue or its fetch in flight (not schedulable; the
 * hook's pooled, mech.h)? */
bool hd_expars_pool_pooled(const struct hd_expars_sm *s, uint32_t warp);
/* Warp slot `warp` began a long wait (a load's first use, a barrier) inside its bundle:
 * [expars] unpin_wait unpins its lines and forgets its bundle, so that it is prefetched again
 * (at the front of the queue) when it may issue (the paper's pending queue, L226; digest §8
 * item 15). */
void hd_expars_pool_wait(struct hd_expars_sm *s, uint32_t warp);
/* Warp slot `warp` left (its CTA released): out of the pool and the prefetcher. */
void hd_expars_pool_drop(struct hd_expars_sm *s, uint32_t warp);
/* Fill the line of (warp, reg) from the scratchpad copy (a dirty victim is written back);
 * counts a fill (the checker's fault injection applies). */
void hd_expars_fill_line(struct hd_expars_sm *s, uint32_t warp, uint32_t reg);

/* The allocator (registry value [sm] allocator = expars) and, for the policy, its state. */
int hd_expars_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out);
struct hd_expars_sm *hd_expars_sm_of(const struct hd_sm_alloc *a);

#endif
