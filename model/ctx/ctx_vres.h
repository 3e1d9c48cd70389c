/* SPDX-License-Identifier: MIT
 * ctx_vres.h - an SM's virtual-resource substrate (issue 25 items 3, 4, 8; docs/mover.md): its
 * on-chip context mover (ctx_mover.h), the unified on-chip space of context storage
 * (ctx_uspace.h) with the L1D ways reserved for it, its swap engine (ctx_swap.h), and the
 * seeded stress mode that swaps or moves random pieces of resident CTAs and brings them back
 * (ctx_vstress.c). Made on first use (hd_sm_vres): with every feature off an SM has none and
 * its cycles are unchanged.
 *
 * The SM calls hd_sm_vres_begin at the start of its tick and hd_sm_vres_end at its end (when
 * it has the substrate): between the two, the pipeline's own accesses to the register file,
 * shared memory and L1D show in the SM's counters, and the mover takes only cycles those
 * arrays were free (the pipeline has priority).
 */
#ifndef HD_CTX_VRES_H
#define HD_CTX_VRES_H

#include "ctx_mover.h"
#include "ctx_swap.h"
#include "ctx_uspace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_sm;
struct hd_wmove;

/* A stress operation on one CTA slot (ctx_vstress.c). */
struct hd_vstress_op {
    uint8_t phase;            /* enum in ctx_vstress.c; 0 = none */
    uint8_t kind;             /* enum hd_swap_kind */
    bool move;                /* through the mover (else the swap engine) */
    uint32_t ctx;             /* the context held */
    uint16_t epoch;
    uint32_t warp;            /* REGS / WARP: warp in the CTA */
    uint64_t off, bytes;      /* functional bytes poisoned: shared-memory range, or registers */
    uint64_t tbytes;          /* timing bytes moved */
    uint32_t rec;             /* swap record */
    uint32_t ua;              /* mover: where it lies in the L1D region */
    uint32_t src;             /* mover: where it came from (register file, shared memory) */
    uint64_t back_at;         /* cycle it starts coming back (before: the random stay) */
    uint64_t t_hold;          /* cycle the CTA was held */
    uint8_t *keep;            /* the functional bytes while away */
    size_t cap_keep;
};

struct hd_sm_vres {
    struct hd_ctx_mover mv;
    struct hd_uspace us;
    struct hd_ctx_swap *swap;
    uint32_t l1d_ways;        /* L1D ways reserved for contexts now */
    uint32_t l1d_users;       /* pieces in the L1D region */
    /* pipeline accesses: counters at the start of the tick and arrays busy until */
    uint64_t rf0, smem0, smemc0, l1_0;
    uint64_t smem_until, l1_until;
    /* stress */
    struct hd_vstress_op *op; /* [max_ctas] */
    uint32_t nops;
    /* completions of moves and swap records whose tags lack HD_VSTRESS_TAG (the caller's) */
    hd_mover_done_fn mover_done;
    void *mover_arg;
    hd_swap_done_fn swap_done;
    void *swap_arg;
    struct hd_wmove *wm;      /* warps switched out through the mover (ctx_wmove.c), or NULL */
    uint64_t rf_busy_at;      /* 1 + the last cycle the pipeline used the register file (0: none) */
};

/* Tags with this bit are the stress mode's (ctx_vstress.c); the others go to the callbacks
 * above. */
#define HD_VSTRESS_TAG (1ull << 63)

/* The SM's substrate, made on first use (NULL on host OOM). */
struct hd_sm_vres *hd_sm_vres(struct hd_sm *sm);
void hd_sm_vres_free(struct hd_sm *sm);
/* After an aborted run: reserved L1D ways given back, everything else forgotten. */
void hd_sm_vres_abort(struct hd_sm *sm);
/* The swap engine's completion router (ctx_vres.c). */
hd_swap_done_fn hd_sm_vres_swap_done(void);
void hd_sm_vres_begin(struct hd_sm *sm);
bool hd_sm_vres_end(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen);
/* The arrays whose port the pipeline uses in cycle `now` (bits 1 << enum hd_uarray), as the
 * mover sees them; asked after the SM's tick of that cycle (a mechanism's mover: issue 28 item
 * 4, mech.h hd_mech_act.port_busy). Makes the substrate on first use (NULL: 0), which then
 * measures from the SM's next tick. */
unsigned hd_sm_port_busy(struct hd_sm *sm, uint64_t now);
/* Work for the next cycle (the SM must not sleep)? */
bool hd_sm_vres_pending(const struct hd_sm_vres *v);
/* The seam for warp-granular residency: queue an on-chip move (ctx_mover.h); its completion
 * goes to mover_done (tags without HD_VSTRESS_TAG). */
int hd_sm_mover_submit(struct hd_sm *sm, uint32_t src, uint32_t dst, uint64_t bytes,
                       uint64_t tag, uint64_t now);
/* Reserve `ways` L1D ways for contexts (0 gives them back): dirty lines of those ways are
 * written back as real traffic (l1_reserve.h) and the L1D region of the unified space grows
 * to ways x sets x line bytes. Returns 0, or -1 if pieces lie beyond a smaller region. */
int hd_sm_l1d_reserve(struct hd_sm *sm, uint32_t ways, uint64_t now);

/* ctx_vstress.c: one stress point on this SM (the GPU calls it per SM every
 * [context] swap_stress_period / move_stress_period cycles); rnd: the GPU's generator. */
bool hd_sm_vstress_point(struct hd_sm *sm, bool move, double fraction, uint64_t *rnd,
                         uint64_t now);
/* Advance the stress operations (from hd_sm_vres_end). */
bool hd_sm_vstress_tick(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen);
/* The mover and swap engine's completions for stress operations. */
void hd_sm_vstress_moved(struct hd_sm *sm, uint64_t tag, uint64_t now);
void hd_sm_vstress_swapped(void *arg, struct hd_sm *sm, uint32_t rec, bool in, uint64_t now);
/* Is this CTA slot held by a stress operation (its context may not be switched meanwhile)? */
bool hd_sm_vstress_holds(const struct hd_sm *sm, uint32_t slot);

#endif
