/* SPDX-License-Identifier: MIT
 * sm_issue.c - the issue stage: each scheduler picks a ready warp, the functional model executes
 * the instruction (execute at issue), and the timing state follows from its trace record.
 *
 * Design: a warp is READY when its next instruction is decoded and none of the registers it
 * reads or writes has a pending write (WAW is a hazard too, as in GPGPU-Sim's scoreboard). The
 * scheduler's policy orders the ready warps; the first whose collector unit is free issues (a
 * class with [pipeline] unit_* = sp_or_sfu takes an SFU collector when no SP one is free,
 * GPGPU-Sim 3.x's ALU_SFU_OP issue: SP first, else the SFU; timing_params.h). The
 * trace record then says what happened: the ibuffer is flushed when the next PC is not the next
 * buffered one (taken branch, divergence, reconvergence), a branch delays the next fetch by
 * branch_cycles (+ diverge_cycles when it split the warp), bar.sync puts the warp into the barrier
 * state and a release re-evaluates the CTA's warps, a fence waits for the warp's memory
 * operations, and the destinations are marked in the scoreboard (ALU, short load for shared and
 * constant memory, long load for global/local memory and atomics) until writeback.
 */
#include "sm_impl.h"
#include "sm_ahead.h"

#include "func_status.h"
#include "sm_policy.h"

#include <stdio.h>

void hd_sm_sb_release(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc)
{
    if (pc & HD_PC_AHEAD) { /* a HAWS run-ahead load (sm_ahead.c) */
        hd_sm_ahead_loaded(sm, w, pc, sm->last_tick);
        return;
    }
    hd_twarp_sb_release(hd_sm_warp_kernel(sm, w), w, pc);
}

void hd_twarp_sb_release(const struct hd_func_kernel *k, struct hd_twarp *w, uint32_t pc)
{
    if (pc & HD_PC_AHEAD) /* a HAWS run-ahead load of a warp not in its slot: nothing marked */
        return;
    if (pc & HD_PC_SPILL) { /* a spill fill: its register alone (sm_spill.c) */
        uint8_t *m = &w->sb[pc & ~HD_PC_SPILL];
        if (*m >= HD_SB_LONG) /* (LONG or MISS) */
            w->sb_long--;
        if (*m != HD_SB_FREE)
            w->sb_pending--;
        *m = HD_SB_FREE;
        return;
    }
    const struct hd_func_instr *d = &k->code[pc];
    for (unsigned i = 0; i < d->nwrite; i++) {
        uint8_t *m = &w->sb[d->write[i]];
        if (*m == HD_SB_FREE)
            continue;
        if (*m >= HD_SB_LONG) /* (LONG or MISS) */
            w->sb_long--;
        w->sb_pending--;
        *m = HD_SB_FREE;
    }
}

static void sb_reserve(struct hd_twarp *w, const struct hd_func_instr *d, uint8_t mark)
{
    for (unsigned i = 0; i < d->nwrite; i++) {
        uint8_t *m = &w->sb[d->write[i]];
        if (*m != HD_SB_FREE)
            continue; /* cannot happen: WAW blocks issue */
        *m = mark;
        w->sb_pending++;
        if (mark == HD_SB_LONG)
            w->sb_long++;
    }
}

static uint8_t load_mark(const struct hd_memop *op)
{
    return op->kind == HD_MO_GLOBAL ? HD_SB_LONG : HD_SB_SHORT;
}

/* After the step: control flow, barriers, fences. */
static void after_step(struct hd_sm *sm, struct hd_twarp *w, const struct hd_func_trace *tr,
                       const struct hd_tinstr *ti, uint64_t now)
{
    const struct hd_sm_params *p = sm->p;
    w->ib_pc++;
    w->ib_n--;
    if (tr->flags & HD_TR_WARP_DONE) {
        w->done = true;
        w->ib_n = 0;
        hd_bit_set(sm->need_fetch, w->slot, false);
    } else if (w->ib_n > 0 && w->ib_pc != tr->next_pc) {
        w->ib_n = 0;
    }
    if (tr->flags & HD_TR_BRANCH) {
        sm->st->branches++;
        uint64_t delay = p->branch_cycles;
        if (tr->flags & HD_TR_DIVERGED) {
            sm->st->divergent_branches++;
            delay += p->diverge_cycles;
        }
        if (now + delay > w->fetch_after)
            w->fetch_after = now + delay;
    }
    if (!w->done && w->ib_n == 0)
        hd_sm_fetch_reset(sm, w, tr->next_pc);
    if (ti->cls == HD_TC_MEMBAR)
        w->membar = true;
    if (tr->flags & HD_TR_BAR_WAIT)
        sm->st->barrier_waits++;
    if (tr->flags & HD_TR_BAR_RELEASE) {
        const struct hd_tcta *c = &sm->cta[w->cta];
        if (c->ctx->absent) /* released with a warp absent: it sees it on return */
            sm->st->warp_absent_bar_releases++;
        for (uint32_t i = 0; i < c->grant.nwarps; i++)
            if (c->grant.warp_slot[i] != HD_ALLOC_NO_SLOT) /* (sm_residency.c) */
                hd_sm_warp_eval(sm, &sm->w[c->grant.warp_slot[i]], now);
    }
}

/* After an arrival or an exit: if every live warp of w's CTA waits at a barrier, no arrival can
 * complete one any more. Report it as the functional runner does (HD_FUNC_ERR_FAULT). */
static int check_deadlock(struct hd_sm *sm, const struct hd_twarp *w, char *err, size_t errlen)
{
    const struct hd_tcta *c = &sm->cta[w->cta];
    const struct hd_func_cta *fc = c->fc;
    uint32_t waiting = 0, first = HD_SM_NONE;
    for (uint32_t i = 0; i < fc->nwarps; i++) {
        const struct hd_func_warp *fw = &fc->warps[i];
        if (!fw->done && !fw->at_barrier)
            return HD_FUNC_OK;
        if (fw->at_barrier && !fw->done) {
            waiting++;
            first = first == HD_SM_NONE ? i : first;
        }
    }
    if (first == HD_SM_NONE)
        return HD_FUNC_OK;
    const struct hd_func_kernel *k = c->la->l->k;
    const struct hd_func_warp *fw = &fc->warps[first];
    const struct hd_func_barrier *b = &fc->bar[fw->bar_id];
    uint32_t expected = b->expected_warps ? b->expected_warps : fc->live_warps;
    snprintf(err, errlen,
             "%s: barrier deadlock in block (%u,%u,%u): barrier %u at PC %u, %s:%u, has %u of %u "
             "warps arrived and no other warp can run (%u waiting, %u finished)",
             k->entry->name, fc->ctaid[0], fc->ctaid[1], fc->ctaid[2], fw->bar_id, fw->bar_pc,
             k->mod->ir->filename ? k->mod->ir->filename : "<ptx>", k->code[fw->bar_pc].ir->line,
             b->arrived, expected, waiting, fc->nwarps - fc->live_warps);
    return HD_FUNC_ERR_FAULT;
}

/* Did a store or atomic write global memory (a lane whose address is in the global space)? */
static bool writes_global(const struct hd_func_trace *tr)
{
    if (!(tr->flags & HD_TR_MIXED_SPACE))
        return tr->exec && tr->space == HD_SPACE_GLOBAL;
    for (uint32_t l = 0; l < 32; l++)
        if ((tr->exec >> l & 1u) && tr->lane_space[l] == HD_SPACE_GLOBAL)
            return true;
    return false;
}

/* Events of the energy model (model/power, docs/power.md): the thread operations of an issued
 * instruction by operation class and its destination registers written, on the SM's and the
 * launch's counters (register reads are counted at the collectors, sm_opcoll.c). */
static void count_energy_events(struct hd_sm_stats *st, struct hd_launch_stats *lc, uint8_t cls,
                                uint32_t lanes, unsigned wregs)
{
    uint64_t *s = NULL, *l = NULL;
    switch (cls) {
    case HD_TC_INT_ALU: case HD_TC_INT_MAX: case HD_TC_SHFL: case HD_TC_UT_INT:
    case HD_TC_BRANCH:
        s = &st->lanes_int, l = &lc->lanes_int;
        break;
    case HD_TC_INT_MUL: case HD_TC_INT_DIV: case HD_TC_INT_MAD: case HD_TC_UT_MUL:
        s = &st->lanes_intmul, l = &lc->lanes_intmul;
        break;
    case HD_TC_FP: case HD_TC_FP_DIV: case HD_TC_FP_MAX: case HD_TC_FP_MUL: case HD_TC_FP_MAD:
    case HD_TC_UT_FP:
        s = &st->lanes_fp, l = &lc->lanes_fp;
        break;
    case HD_TC_DP: case HD_TC_DP_DIV: case HD_TC_UT_DP:
        s = &st->lanes_dp, l = &lc->lanes_dp;
        break;
    case HD_TC_SFU:
        s = &st->lanes_sfu, l = &lc->lanes_sfu;
        break;
    default: /* memory, barriers, fences, no-ops: no ALU lane */
        break;
    }
    if (s) {
        *s += lanes;
        *l += lanes;
    }
    st->reg_writes += wregs;
    lc->reg_writes += wregs;
}

/* Issue warp w's next instruction. Returns 1 issued, 2 issued spill code due before or after it
 * (sm_spill.c), 3 committed from the HAWS result collection unit without an issue slot
 * (sm_ahead.c), 0 not possible (collector busy), or a negative status after a functional
 * fault. */
static int issue_one(struct hd_sm *sm, struct hd_twarp *w, uint32_t port, uint64_t now, char *err,
                     size_t errlen)
{
    struct hd_tcta *c = &sm->cta[w->cta];
    struct hd_sm_launch *la = c->la;
    if (la->tk->spill_pc) { /* spill code due before this instruction (sm_spill.c) */
        const int r = hd_sm_spill_issue(sm, w, now);
        if (r >= 0)
            return r ? 2 : 0;
    }
    const uint32_t pc = w->ib_pc;
    const struct hd_tinstr *ti = &la->tk->in[pc];
    struct hd_func_trace *tr = &sm->tr;
    uint32_t cu = HD_SM_NONE;
    bool sfu_fallback = false;
    /* HAWS: the fetch filter commits a result run ahead instead of executing (sm_ahead.c) */
    const enum hd_ahead_filter ahf = sm->ah ? hd_sm_ahead_filter(sm, w, pc, now, tr) : HD_AHF_NONE;
    if (ahf == HD_AHF_WAIT)
        return 0;
    if (ahf == HD_AHF_NONE && ti->unit != HD_TU_NONE) {
        cu = hd_sm_cu_find(sm, ti->unit);
        if (cu == HD_SM_NONE && ti->to_sfu) { /* 3.x's ALU_SFU_OP: SP first, else the SFU */
            cu = hd_sm_cu_find(sm, HD_TU_SFU);
            sfu_fallback = cu != HD_SM_NONE;
        }
        if (cu == HD_SM_NONE)
            return 0;
    }
    if (la->tk->pp) /* Lin's liveness samples at the points (ctx_points.c) */
        hd_sm_pp_arrival(sm, w, pc);
    if (sm->oloc.ops && sm->oloc.ops->issue && cu != HD_SM_NONE) { /* values (sm_oloc.h) */
        const struct hd_oloc_query q = {w->slot, w->cta, la->id, pc, 0, 0, now, false, la->l->k,
                                        la->tk->an, w->fw, cu, la->bank_budget};
        sm->oloc.ops->issue(sm->oloc.impl, &q);
    }
    int st = ahf != HD_AHF_NONE ? HD_FUNC_OK : hd_func_warp_step(la->l, c->fc, w->fw, now, tr);
    if (st != HD_FUNC_OK) {
        snprintf(err, errlen, "%s", la->l->err);
        return st < 0 ? st : HD_FUNC_ERR_INTERNAL;
    }
    if (sm->ah && ahf == HD_AHF_NONE)
        hd_sm_ahead_stepped(sm, w);
    if (tr->pc != pc) { /* the ibuffer and the SIMT stack disagree: a model bug */
        snprintf(err, errlen, "%s: internal: SM %u warp %u issued PC %u but the functional "
                 "model executed PC %u", la->l->k->entry->name, sm->id, w->slot, pc, tr->pc);
        return HD_FUNC_ERR_INTERNAL;
    }
    /* statistics */
    const uint32_t lanes = (uint32_t)__builtin_popcount(tr->exec);
    sm->st->warp_instrs++;
    sm->st->thread_instrs += lanes;
    sm->sst[w->sched].issued++;
    la->info->c.warp_instrs++;
    c->ctx->insts++;
    la->info->c.thread_instrs += lanes;
    count_energy_events(sm->st, &la->info->c, ti->cls, lanes, tr->in->nwrite);
    if (pc < la->lines->npc)
        la->lines->issued[pc]++;
    const bool nonidem = sm->cp->flush_bit == HD_FLUSHBIT_IDEMPOTENCE
                             ? hd_idem_step(c->ctx->idem_lines, tr)
                             : (tr->flags & (HD_TR_STORE | HD_TR_ATOMIC)) && writes_global(tr);
    if (nonidem)
        c->ctx->idempotent = false; /* the flush bit: restarting the CTA is no longer safe */
    hd_hooks_issued(sm->hooks, sm->id, port, w->cta, nonidem);
    if (la->tk->spill_pc)
        hd_sm_spill_issued(sm, w, pc, tr->exec);
    after_step(sm, w, tr, ti, now);
    w->stall_ctr = tr->next_pc < la->lines->npc ? &la->lines->stall[tr->next_pc] : &sm->stall_sink;
    if (cu != HD_SM_NONE) {
        const struct hd_func_instr *d = tr->in;
        bool has_dst = d->nwrite > 0;
        hd_sm_cu_alloc(sm, cu, w, pc, ti, has_dst, now);
        w->inflight++;
        switch (sm->cu[cu].unit) {
        case HD_TU_SP: sm->st->issued_sp++; break;
        case HD_TU_SFU: sm->st->issued_sfu++; break;
        case HD_TU_DP: sm->st->issued_dp++; break;
        default: break;
        }
        sm->st->sfu_fallbacks += sfu_fallback;
        if (ti->unit == HD_TU_MEM) {
            struct hd_memop *op = &sm->memops[sm->cu[cu].memop];
            hd_sm_memop_build(sm, w, tr, op);
            op->has_dst = has_dst;
            if (has_dst)
                sb_reserve(w, d, load_mark(op));
        } else if (has_dst) {
            sb_reserve(w, d, HD_SB_ALU);
        }
    }
    hd_sm_warp_eval(sm, w, now);
    if ((tr->flags & (HD_TR_BAR_WAIT | HD_TR_WARP_DONE)) && !(tr->flags & HD_TR_BAR_RELEASE)) {
        st = check_deadlock(sm, w, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
    }
    if (w->done)
        hd_sm_warp_check_drained(sm, w, now);
    return ahf == HD_AHF_SKIP ? 3 : 1;
}

/* Does a hook hold warp w's next issue (mech.h hold)? */
static bool hold(struct hd_sm *sm, const struct hd_twarp *w, uint64_t now)
{
    const struct hd_tcta *c = &sm->cta[w->cta];
    const struct hd_annot *an = c->la ? c->la->tk->an : NULL;
    return hd_hooks_hold(sm->hooks, sm->id, w->slot, w->cta, w->ib_pc, an, now);
}

/* The ready warps of scheduler s, ascending slot numbers, into sm->ready_buf. */
static unsigned ready_list(struct hd_sm *sm, uint32_t s)
{
    unsigned n = 0;
    const uint64_t *mask = &sm->sched_mask[(size_t)s * sm->words]; /* (slot % num_sched == s) */
    for (uint32_t i = 0; i < sm->words; i++)
        for (uint64_t b = sm->ready[i] & mask[i]; b; b &= b - 1)
            sm->ready_buf[n++] = i * 64 + (uint32_t)__builtin_ctzll(b);
    return n;
}

/* Every resident warp of scheduler s (for a policy with offer_blocked), ascending slots. */
static unsigned resident_list(struct hd_sm *sm, uint32_t s)
{
    unsigned n = 0;
    for (uint32_t slot = s; slot < sm->p->max_warps; slot += sm->p->num_sched)
        if (sm->w[slot].state != HD_WS_EMPTY)
            sm->ready_buf[n++] = slot;
    return n;
}

bool hd_sm_issue(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen)
{
    const struct hd_sm_params *p = sm->p;
    const struct hd_sched_env env = {sm, hd_sm_warp_view};
    bool progress = false;
    if (p->pp_selective && (*status = hd_sm_pp_cycle(sm, now, err, errlen)) != HD_FUNC_OK)
        return true;
    for (uint32_t s = 0; s < p->num_sched; s++) {
        unsigned issued = 0;
        struct hd_sched *sc = &sm->sched[s];
        if (sm->nstate[s][HD_WS_READY] || (sc->ops->offer_blocked && sm->nwarps)) {
            unsigned n = sc->ops->offer_blocked ? resident_list(sm, s) : ready_list(sm, s);
            unsigned k = sc->ops->order(sc->impl, &env, sm->ready_buf, n, sm->order_buf);
            if (sm->hooks && sm->hooks->any_sched && k &&
                hd_hooks_sched_order(sm->hooks, sm->id, s, sm->ready_buf, n, sm->order_buf, k,
                                     now, err, errlen) != 0) {
                *status = HD_FUNC_ERR_INTERNAL; /* a block in the loop disagreed (issue 31) */
                return true;
            }
            for (unsigned i = 0; i < k && !issued; i++) {
                struct hd_twarp *w = &sm->w[sm->order_buf[i]];
                while (issued < p->issue_width && w->state == HD_WS_READY) {
                    if (w->to_pp && hd_sm_pp_hold(sm, w, now))
                        break;
                    if (sm->hooks && sm->hooks->any_hold && hold(sm, w, now))
                        break; /* a mechanism's warp pool holds it (mech.h) */
                    if (p->pp_selective && hd_sm_pp_virtual(sm, w)) { /* a pp / dummy slot */
                        issued++;
                        sc->ops->issued(sc->impl, w->slot);
                        if (sm->hooks && sm->hooks->any_sched)
                            hd_hooks_sched_warp(sm->hooks, sm->id, w->slot, HD_HSCHED_ISSUE,
                                                NULL, now);
                        continue;
                    }
                    int r = issue_one(sm, w, s * p->issue_width + issued, now, err, errlen);
                    if (r < 0) {
                        *status = r;
                        return true;
                    }
                    if (r == 0)
                        break;
                    if (r == 1 || r == 3) /* the point's instruction itself: its slots are paid */
                        w->pp_virt_pc = 0;
                    if (r == 3) /* HAWS: skipped at the fetch filter, no issue slot */
                        continue;
                    issued++;
                    sc->ops->issued(sc->impl, w->slot);
                    if (sm->hooks && sm->hooks->any_sched)
                        hd_hooks_sched_warp(sm->hooks, sm->id, w->slot, HD_HSCHED_ISSUE, NULL,
                                            now);
                }
            }
        }
        if (!issued && sm->ah && hd_sm_ahead_cycle(sm, s, now)) /* HAWS hint mode */
            issued = 1;
        if (issued) {
            sm->sst[s].issue_cycles++;
            sm->last_stall[s] = 0;
            progress = true;
        } else if (sm->nwarps) {
            hd_sm_count_stall(sm, s);
        } else {
            sm->last_stall[s] = 0;
        }
    }
    return progress;
}
