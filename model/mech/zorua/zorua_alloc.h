/* SPDX-License-Identifier: MIT
 * zorua_alloc.h - Zorua's and WLM's per-SM allocator state (zorua_alloc.c), the operand-location
 * policy that reads its register mapping table (zorua_oloc.c) and the registry entry
 * (zorua_mech.c). Zorua Sec. 3-4; WLM as Zorua Sec. 5.3 models it; docs/zorua.md.
 *
 * Design. One struct per SM holds the coordinator (zorua_coordinator.h: three queues over the TMT,
 * SMT and RMT with their free lists), the o_thresh controller (zorua_othresh.h, Zorua only) and
 * the map from the substrate's numbers to the coordinator's: a CTA slot of the grant is the
 * logical CTA (SMT row), each of its warps a logical warp id (RMT and TMT row), a warp slot the
 * TMT's physical unit. The allocator ops (sm_alloc.h) turn the substrate's calls into
 * coordinator events: accept = a CTA arrives, release_part of a drained warp = a warp finishes,
 * release = a CTA finishes, acquire of an absent warp = "has the coordinator let it through?"
 * (a coordinator event when something changed since the last). WLM is the same coordinator with
 * no swap space, no deadlock floor and no mapping-table latency: warp slots and registers per
 * warp, partial CTAs admitted (the substrate's logical warps), scratchpad per CTA. Only the
 * substrate's numbers decide: deterministic. No globals.
 * Session 14: on an SM of the zorua_coord block's sizes (Fermi) the block decides instead of the
 * coordinator's own admission (zorua_blkdrive.h): the allocator steps its C reference every cycle
 * (tick), CTAs arrive into it (accept), drained warps are its exits (release_part), and a warp
 * gets its slot (acquire) once the block admitted it.
 */
#ifndef HD_ZORUA_ALLOC_H
#define HD_ZORUA_ALLOC_H

#include "sm_alloc.h"
#include "sm_oloc.h"
#include "timing_params.h"
#include "timing_stats.h"
#include "zorua_blkdrive.h"
#include "zorua_coordinator.h"
#include "zorua_coordloop.h"
#include "zorua_decloop.h"
#include "zorua_othresh.h"
#include "zorua_phase_loop.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_mech_act; /* mech.h */

struct zalloc {
    const struct hd_sm_params *p;
    bool zorua;                     /* false: WLM */
    uint32_t sm;
    struct zcoord z;
    struct zoth oth;
    uint32_t reg_unit;              /* registers in one register set (reg_set x 32) */
    uint32_t reg_sets_max;          /* RMT columns */
    bool dirty;                     /* something changed since the last coordinator run */
    struct {
        bool used;
        uint32_t nwarps;
        uint16_t wid[HD_ALLOC_MAX_WARPS];
    } cta[ZC_MAX_CTAS];
    uint16_t *slot_wid;             /* [max_warps] logical warp in each warp slot */
    uint64_t (*landed)[4];          /* [max_warps] registers whose swap fill landed (bitmap) */
    uint16_t *use;                  /* [logical warps x RMT columns] accesses of each register
                                       set (saturating, halved each epoch): the "least
                                       frequently accessed" set of Sec. 4.3 */
    uint64_t lfu_swaps;
    uint16_t *suse;                 /* [logical CTAs x SMT columns] accesses of each scratchpad
                                       set (as `use`: the SMT's LFU exchange) */
    uint64_t lfu_smem_swaps;
    uint64_t last_tick;             /* the cycle of the previous tick (the warp count is
                                       weighted by the cycles since: skipping changes nothing) */             /* hot swapped sets exchanged with cold on-chip ones */
    const struct zph *ph;           /* the kernels' phases (the hook's; NULL: no phase events) */
    const struct hd_annot *ph_an;   /* the store of the last kernel found in ph (a cache: ph's
                                       kernels keep their store and place once added) */
    const struct zph_kernel *ph_k;  /* ... and its phases */
    uint16_t *cur_phase;            /* [max_warps] 1 + the phase of the warp in each slot's last
                                       located instruction (0: none yet) */
    uint16_t *wgrp;                 /* [logical warps] 1 + the phase group of its last phase
                                       event (0: none since its CTA arrived): a phase a
                                       barrier begins is in its specifier's group, no event */
    uint8_t *waiting;               /* [max_warps] its phase event waits in the coordinator:
                                       retries so far (after ZORUA_WAIT_MAX it is forced) */
    uint16_t *spec;                 /* [logical warps] register sets of its specification */
    struct hd_sm_stats *st;         /* the SM's statistics (from the hook; NULL before) */
    const struct hd_sched_stats *sched; /* its schedulers' (c_idle, c_mem) */
    struct zdl *dec;                /* the phase-specifier decoders in the loop ([zorua] in_loop;
                                       zorua_decloop.h: the model's phase events are the decoder
                                       block's), or NULL */
    /* session 14: the o_thresh controller as the zorua_coord block counts it (zorua_othresh.h) */
    uint32_t pct;                   /* o_thresh applied (%): the controller's registered output */
    uint64_t last_ctl;              /* 1 + the cycle of its last step (one per cycle) */
    uint64_t (*snap)[4];            /* [num_sched] issue, pipeline, memory and other-stall cycles
                                       counted at the last step (the cycle's bits: deltas) */
    struct zcl *cl;                 /* the coordinator blocks in the loop, or NULL */
    char fault_msg[320];            /* a loop mismatch (the allocator's fault op) */
    struct zbd *bd;                 /* the coordinator block deciding (zorua_blkdrive.h): its C
                                       reference stepped every cycle, when the SM's sizes and
                                       keys are the block's ([default], Fermi); else NULL: the
                                       model's coordinator (zc_run) and `oth` decide */
    const struct hd_mech_act *act;  /* what it may ask of the GPU (the hook's; NULL before):
                                       a barrier waiter's switch-out (zorua_blkdrive.c) */
};

/* The allocator values (zorua_mech.c's table). */
int hd_zorua_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out);
int hd_zorua_wlm_create(const struct hd_sm_params *p, struct hd_sm_alloc *out);
/* Is a this mechanism's allocator? Its state then. */
struct zalloc *hd_zorua_alloc_state(const struct hd_sm_alloc *a);
/* A coordinator event: let the queued warps through (when something changed since the last),
 * then migrate on free (Zorua). */
void hd_zorua_run(struct zalloc *a);
/* With the block deciding (a->bd): warp slot `slot` is about to issue the instruction at
 * kernel-wide pc of the kernel whose annotation store is an; at a phase boundary its phase event
 * goes to the coordinator (the decoder's, L316) and the warp leaves the schedulable set until
 * readmitted (zorua_oloc.c). */
void hd_zorua_issue_phase(struct zalloc *a, uint32_t slot, const struct hd_annot *an, uint32_t pc);
/* The shared-memory path (the substrate's smem_access hook, mech.h): the SMT lookups of access
 * acc, its +mt_latency and the lanes of sets in the swap space (zorua_oloc.c). */
struct hd_hook_smem;
struct hd_hook_smem_ans;
void hd_zorua_smem_access(struct zalloc *a, const struct hd_hook_smem *acc,
                          struct hd_hook_smem_ans *ans);
/* The operand-location policy over za's RMT (zorua_oloc.c). */
extern const struct hd_oloc_ops hd_zorua_oloc_ops;

#endif
