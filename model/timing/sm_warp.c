/* SPDX-License-Identifier: MIT
 * sm_warp.c - a warp's state in the SM (enum hd_wstate, sm_impl.h): derived from its
 * instruction buffer, scoreboard, barrier, fence, spill code and context-lifecycle flags
 * whenever something about it changes, the per-scheduler state counts and READY set that
 * follow, the oldest warp per scheduler, and the stall reason each scheduler that did not
 * issue counts (docs/timing.md "Warp states", sched_stats.def).
 *
 * Design: hd_sm_warp_eval() is the one place a state is decided; hd_sm_warp_set_state() the
 * one place it changes (counts, READY bit, the scheduler's long-wait notice).
 */
#include "sm_impl.h"

static uint8_t head_state(const struct hd_sm *sm, const struct hd_twarp *w)
{
    if (w->sb_pending == 0)
        return HD_WS_READY;
    const struct hd_func_instr *d = &hd_sm_warp_kernel(sm, w)->code[w->ib_pc];
    uint8_t worst = HD_SB_FREE;
    for (unsigned i = 0; i < d->nread; i++) {
        uint8_t m = w->sb[d->read[i]];
        worst = m > worst ? m : worst;
    }
    for (unsigned i = 0; i < d->nwrite; i++) {
        uint8_t m = w->sb[d->write[i]];
        worst = m > worst ? m : worst;
    }
    return worst >= HD_SB_SHORT ? HD_WS_SB_MEM : worst == HD_SB_ALU ? HD_WS_SB_ALU : HD_WS_READY;
}

void hd_sm_warp_set_state(struct hd_sm *sm, struct hd_twarp *w, uint8_t ns)
{
    uint8_t os = w->state;
    if (os == ns)
        return;
    sm->nstate[w->sched][os]--;
    sm->nstate[w->sched][ns]++;
    w->state = ns;
    hd_bit_set(sm->ready, w->slot, ns == HD_WS_READY);
    /* A long wait begins at a barrier, a fence or a wait on a long-latency load. A warp may
     * reach a barrier or fence straight from a wait on a short load (SB_MEM), so only a warp
     * already at a barrier or fence is not told again; the two-level schedulers ignore a
     * repeat for a warp they already moved out. */
    const bool long_wait = ns == HD_WS_BARRIER || ns == HD_WS_MEMBAR ||
                           (ns == HD_WS_SB_MEM && w->sb_long > 0);
    if (long_wait && os != HD_WS_BARRIER && os != HD_WS_MEMBAR)
        sm->sched[w->sched].ops->long_wait(sm->sched[w->sched].impl, w->slot);
    if (sm->hooks->any_stalled) /* stall events (sm_signals.c) */
        hd_sm_sig_state(sm, w, os, ns);
}

void hd_sm_warp_eval(struct hd_sm *sm, struct hd_twarp *w, uint64_t now)
{
    (void)now;
    uint8_t ns;
    if (w->state == HD_WS_EMPTY)
        return;
    if (w->done)
        ns = HD_WS_DRAIN;
    else if (w->susp)
        ns = w->returning ? HD_WS_RETURNING : HD_WS_SUSPENDED;
    else if (w->fw->at_barrier)
        ns = HD_WS_BARRIER;
    else if (w->membar && (w->mem_out > 0 || w->sb_long > 0))
        ns = HD_WS_MEMBAR;
    else {
        w->membar = false;
        const int sp = hd_sm_spill_head(sm, w); /* spill code due first (sm_spill.c) */
        ns = sp >= HD_SB_SHORT ? HD_WS_SB_MEM : sp == HD_SB_ALU ? HD_WS_SB_ALU
             : sp == HD_SB_FREE ? HD_WS_READY : w->ib_n == 0 ? HD_WS_FETCH : head_state(sm, w);
    }
    hd_sm_warp_set_state(sm, w, ns);
}

void hd_sm_update_oldest(struct hd_sm *sm, uint32_t s)
{
    uint32_t best = HD_SM_NONE;
    for (uint32_t i = s; i < sm->p->max_warps; i += sm->p->num_sched) {
        const struct hd_twarp *w = &sm->w[i];
        if (w->state != HD_WS_EMPTY && !w->done && (best == HD_SM_NONE || w->age < sm->w[best].age))
            best = i;
    }
    sm->oldest[s] = best;
}

void hd_sm_warp_unbind(struct hd_sm *sm, struct hd_twarp *w)
{
    sm->sched[w->sched].ops->remove(sm->sched[w->sched].impl, w->slot);
    if (sm->hooks && sm->hooks->any_sched) /* issue 31 */
        hd_hooks_sched_warp(sm->hooks, sm->id, w->slot, HD_HSCHED_REMOVE, NULL, sm->last_tick);
    hd_sm_warp_set_state(sm, w, HD_WS_EMPTY);
    sm->nstate[w->sched][HD_WS_EMPTY]--;
    hd_bit_set(sm->need_fetch, w->slot, false);
    if (sm->oldest[w->sched] == w->slot)
        hd_sm_update_oldest(sm, w->sched);
    sm->nwarps--;
}

/* One stall reason per scheduler that did not issue (see sched_stats.def). */
void hd_sm_count_stall(struct hd_sm *sm, uint32_t s)
{
    const uint32_t *n = sm->nstate[s];
    struct hd_sched_stats *ss = &sm->sst[s];
    uint8_t r;
    if (n[HD_WS_READY]) {
        ss->stall_pipeline++;
        r = 1;
    } else if (n[HD_WS_SB_MEM] || n[HD_WS_MEMBAR]) {
        ss->stall_memory++;
        r = 2;
    } else if (n[HD_WS_SB_ALU]) {
        ss->stall_scoreboard++;
        r = 3;
    } else if (n[HD_WS_BARRIER]) {
        ss->stall_barrier++;
        r = 4;
    } else if (n[HD_WS_FETCH]) {
        ss->stall_ibuffer++;
        r = 5;
    } else {
        r = 0; /* idle: computed from the cycle count */
    }
    sm->last_stall[s] = r;
    uint32_t o = sm->oldest[s];
    if (r && o != HD_SM_NONE)
        (*sm->w[o].stall_ctr)++;
}
