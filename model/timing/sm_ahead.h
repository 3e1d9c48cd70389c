/* SPDX-License-Identifier: MIT
 * sm_ahead.h - the SM's HAWS runtime (Gong thesis ch. 5 §5.2.4-5.2.6; docs/blocks/haws.md §4):
 * hint mode, the run-ahead issue through the shadow SIMT stack, the result collection unit (RCU)
 * and the fetch filter at the return to in-order execution. Internal to model/timing.
 *
 * Design: present only when an attached mechanism supplies run-ahead hints (mech.h `ahead`;
 * sm->ah is NULL otherwise and the in-order path makes one NULL test per issue). Per warp slot:
 * mode, stall PC, shadow stack, walk step, in-order step, and an RCU ring of rcu_depth entries
 * with the results (model/func/exec_ahead.h). Architectural state changes only at commit, so an
 * RCU can be discarded at any time (a warp rebinding its slot, a mismatch).
 */
#ifndef HD_SM_AHEAD_H
#define HD_SM_AHEAD_H

#include "ahead.h"
#include "sm_impl.h"

/* Look for a hint source in the SM's hooks and set up the per-warp state. Returns 0, or -1 on
 * host memory failure. */
int hd_sm_ahead_setup(struct hd_sm *sm);
void hd_sm_ahead_free(struct hd_sm *sm);
/* Warp slot `slot` got a (new or restored) warp: no episode, empty RCU. */
void hd_sm_ahead_reset(struct hd_sm *sm, uint32_t slot);
/* Scheduler s issued nothing in order this cycle: trigger and run-ahead issue for its warps.
 * Returns whether a run-ahead instruction issued. */
bool hd_sm_ahead_cycle(struct hd_sm *sm, uint32_t s, uint64_t now);

/* The fetch filter, called by issue_one before warp w executes its next instruction (pc). */
enum hd_ahead_filter {
    HD_AHF_NONE = 0,  /* execute it in order as usual */
    HD_AHF_WAIT,      /* its run-ahead result is not ready: do not issue this cycle */
    HD_AHF_SKIP,      /* committed from the RCU (tr filled), takes no issue slot */
    HD_AHF_COPY       /* committed from a renamed register: takes an issue slot, no unit */
};
enum hd_ahead_filter hd_sm_ahead_filter(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc,
                                        uint64_t now, struct hd_func_trace *tr);
/* The writeback of a run-ahead load (its collector's PC: tag, HD_PC_AHEAD | episode << 8 |
 * entry) came: its RCU entry is ready. */
void hd_sm_ahead_loaded(struct hd_sm *sm, struct hd_twarp *w, uint32_t tag, uint64_t now);
/* Warp w executed its next instruction in order (the filter said HD_AHF_NONE). */
void hd_sm_ahead_stepped(struct hd_sm *sm, struct hd_twarp *w);

#endif
