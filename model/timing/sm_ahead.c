/* SPDX-License-Identifier: MIT
 * sm_ahead.c - the SM's HAWS runtime: trigger, hint-mode issue along the shadow SIMT stack into
 * the result collection unit, and the return to in-order execution through the fetch filter
 * (Gong thesis ch. 5 §5.2.4-5.2.6, digest §2.6-2.7; docs/blocks/haws.md §4). See sm_ahead.h.
 *
 * Per cycle and scheduler with an idle issue slot: every warp of the scheduler whose head waits
 * on a long-latency load (HD_WS_SB_MEM, the long-latency operation flag) and whose RCU is empty
 * enters hint mode at a stall point that has a hint window; then the oldest hint-mode warp that
 * can issues its next selected instruction (skipped ones are jumped over, as the hint offsets
 * do). A selected instruction issues when the RCU entries it reads are ready, no other source
 * (and no destination it writes in place) has a scoreboard mark, and a pipeline of its unit is
 * free; it books that pipeline, its result is ready after operand read + latency. At the return,
 * every in-order step is compared with the RCU head (step since the stall point and PC): a
 * match is committed instead of executed. With the HAWS blocks in the loop (ahead.h's block
 * callbacks) the RCU-full, RAW, mode, shadow-top and fetch-filter decisions are the blocks'.
 */
#include "sm_ahead.h"

#include "exec_ahead.h"
#include "func_status.h"

#include <stdlib.h>
#include <string.h>

enum { AH_IDLE, AH_HINT, AH_RETURN };

struct ah_entry {
    struct hd_func_ahead_result r;
    uint32_t step;     /* walk step (the stall point is step 0) */
    uint64_t ready_at; /* result written back */
    bool renamed;
};

struct ah_warp {
    uint8_t mode;
    bool parked;        /* the chain ended: waits at the stall point */
    uint32_t stall_pc;
    uint32_t base;      /* shadow-stack index of the stall point's entry */
    uint32_t step;      /* walk step of the shadow top */
    uint32_t io_step;   /* in-order steps since the stall point (return mode) */
    uint64_t fetch_at;  /* hint_fetch_cycles: next hint-mode fetch */
    bool branch_due;    /* the head was a branch entry, popped: it executes in order next */
    uint32_t gen;       /* episode number: a load's writeback names it (HD_PC_AHEAD tag) */
    const struct hd_ahead_hints *h;
    struct hd_func_ahead_stack sh;
    uint32_t head, n;
    struct ah_entry *e; /* [depth] */
    uint32_t sadv;      /* shadow advances the shadow-stack block has not seen (blocks on) */
};

struct hd_sm_ahead {
    const struct hd_ahead_ops *ops;
    void *impl;
    uint32_t depth;
    struct ah_warp *w;  /* [max_warps] */
};

int hd_sm_ahead_setup(struct hd_sm *sm)
{
    hd_sm_ahead_free(sm);
    const struct hd_hooks *hs = sm->hooks;
    for (unsigned i = 0; hs && i < hs->n; i++) {
        if (!hs->h[i].ops->ahead)
            continue;
        const struct hd_ahead_ops *ops = hs->h[i].ops->ahead(hs->h[i].impl);
        if (!ops || !ops->hints)
            continue;
        struct hd_sm_ahead *ah = calloc(1, sizeof *ah);
        if (!ah)
            return -1;
        ah->ops = ops;
        ah->impl = hs->h[i].impl;
        ah->depth = ops->rcu_depth ? ops->rcu_depth : 1;
        ah->w = calloc(sm->p->max_warps, sizeof *ah->w);
        sm->ah = ah;
        if (!ah->w)
            return -1;
        for (uint32_t s = 0; s < sm->p->max_warps; s++)
            if (!(ah->w[s].e = calloc(ah->depth, sizeof *ah->w[s].e)))
                return -1;
        return 0;
    }
    return 0;
}

void hd_sm_ahead_free(struct hd_sm *sm)
{
    struct hd_sm_ahead *ah = sm->ah;
    if (!ah)
        return;
    for (uint32_t s = 0; ah->w && s < sm->p->max_warps; s++)
        free(ah->w[s].e);
    free(ah->w);
    free(ah);
    sm->ah = NULL;
}

static void discard(struct ah_warp *a)
{
    a->mode = AH_IDLE;
    a->parked = false;
    a->n = 0;
    a->head = 0;
    a->h = NULL;
    a->branch_due = false;
    a->sadv = 0;
}

/* {==== The HAWS blocks in the loop (ahead.h hd_ahead_ops.event/rcu/raw; all NULL when off) ==== */
static void ev(struct hd_sm *sm, uint32_t slot, struct hd_ahead_event e, uint64_t now)
{
    if (sm->ah->ops->event)
        sm->ah->ops->event(sm->ah->impl, sm->id, slot, &e, now);
}

/* Discard warp slot's episode; the blocks are cleared too. */
static void drop(struct hd_sm *sm, uint32_t slot, uint64_t now)
{
    struct ah_warp *a = &sm->ah->w[slot];
    if (a->mode != AH_IDLE || a->n)
        ev(sm, slot, (struct hd_ahead_event){.ev = HD_AHEV_CLEAR}, now);
    discard(a);
}

/* The RCU view the engine decides from: the model's, or (blocks in the loop) the blocks'. */
static struct hd_ahead_rcu_view rcu_view(struct hd_sm *sm, uint32_t slot, uint64_t now)
{
    const struct ah_warp *a = &sm->ah->w[slot];
    struct hd_ahead_rcu_view v = {.full = a->n == sm->ah->depth, .head_v = a->n != 0};
    if (a->n) {
        const struct ah_entry *e = &a->e[a->head];
        v.head_ready = e->ready_at <= now;
        v.head_ctrl = e->r.branch;
        v.head_copy = e->renamed;
        v.head_off = e->step;
    }
    if (sm->ah->ops->rcu)
        sm->ah->ops->rcu(sm->ah->impl, sm->id, slot, &v, now);
    return v;
}

/* The warp controller's state the engine decides from (mode, parked, stall PC, the popped
 * branch due): the model's, or (blocks in the loop) the haws_warp_ctl block's. */
static struct hd_ahead_ctl_view ctl_view(struct hd_sm *sm, uint32_t slot, uint64_t now)
{
    const struct ah_warp *a = &sm->ah->w[slot];
    struct hd_ahead_ctl_view v = {.mode = a->mode, .parked = a->parked,
                                  .branch_due = a->branch_due, .stall_pc = a->stall_pc,
                                  .step = a->step, .io_step = a->io_step, .gen = a->gen};
    if (sm->ah->ops->ctl)
        sm->ah->ops->ctl(sm->ah->impl, sm->id, slot, &v, now);
    return v;
}

/* The walk's shadow top: with the blocks in the loop, the haws_shadow_stack block's after the
 * advances it has not seen replaces the model's top (and depth) before the walk decides. */
static void sync_top(struct hd_sm *sm, uint32_t slot, struct ah_warp *a, uint64_t now)
{
    if (!sm->ah->ops->top)
        return;
    struct hd_ahead_top t = {0};
    if (a->sh.sp > a->base) {
        const struct hd_func_simt_entry *e = &a->sh.e[a->sh.sp - 1];
        t.depth = a->sh.sp - a->base;
        t.pc = (uint32_t)e->pc;
        t.rpc = (uint32_t)e->rpc;
        t.mask = e->mask;
    }
    sm->ah->ops->top(sm->ah->impl, sm->id, slot, a->sadv, &t, now);
    a->sadv = 0;
    if (t.depth == 0) { /* the walk left the stall point's lanes */
        if (a->sh.sp > a->base)
            a->sh.sp = a->base;
        return;
    }
    if (a->base + t.depth > HD_FUNC_SIMT_DEPTH)
        return; /* (cannot be: the block holds 8 entries; the mismatch is reported) */
    a->sh.sp = a->base + t.depth;
    a->sh.e[a->sh.sp - 1] = (struct hd_func_simt_entry){(int32_t)t.pc, (int32_t)t.rpc, t.mask};
}
/* }==== */

void hd_sm_ahead_reset(struct hd_sm *sm, uint32_t slot)
{
    if (!sm->ah)
        return;
    drop(sm, slot, sm->last_tick);
    ev(sm, slot, (struct hd_ahead_event){.ev = HD_AHEV_RESET}, sm->last_tick);
}

/* {==== Hint mode ==== */
/* The rename table: the newest RCU entry that wrote reg. */
static const uint64_t *lookup(void *ctx, int32_t reg)
{
    const struct ah_warp *a = ctx;
    for (uint32_t k = a->n; k-- > 0;) {
        const struct ah_entry *e = &a->e[k]; /* (hint mode: nothing popped yet, head == 0) */
        for (uint32_t j = 0; j < e->r.ndst; j++)
            if (e->r.reg[j] == reg)
                return e->r.v[j];
    }
    return NULL;
}

static const struct ah_entry *writer(const struct ah_warp *a, int32_t reg)
{
    for (uint32_t k = a->n; k-- > 0;)
        for (uint32_t j = 0; j < a->e[k].r.ndst; j++)
            if (a->e[k].r.reg[j] == reg)
                return &a->e[k];
    return NULL;
}

static bool trigger(struct hd_sm *sm, struct hd_twarp *w, struct ah_warp *a)
{
    const struct hd_tcta *c = &sm->cta[w->cta];
    const struct hd_sm_launch *la = c->la;
    const struct hd_func_warp *fw = w->fw;
    if (w->ib_n == 0 || fw->done || fw->at_barrier || fw->sp == 0 ||
        (uint32_t)fw->stack[fw->sp - 1].pc != w->ib_pc)
        return false;
    const uint32_t used = la->tk->regs_per_thread, max = sm->p->max_regs_per_thread;
    const struct hd_ahead_hints *h =
        sm->ah->ops->hints(sm->ah->impl, la->l->k, la->tk->an, max > used ? max - used : 0,
                           w->ib_pc);
    if (!h)
        return false;
    discard(a);
    ev(sm, w->slot, (struct hd_ahead_event){.ev = HD_AHEV_CLEAR}, sm->last_tick);
    a->mode = AH_HINT;
    a->h = h;
    a->stall_pc = w->ib_pc;
    hd_func_ahead_snapshot(fw, &a->sh);
    a->base = a->sh.sp - 1;
    hd_func_ahead_skip(fw, &a->sh); /* the stall point stays for in-order execution */
    a->step = 1;
    a->io_step = 0;
    a->fetch_at = 0;
    a->gen++;
    sm->st->haws_episodes++;
    if (sm->ah->ops->event) { /* the warp controller latches the window; the shadow stack copies */
        const struct hd_func_simt_entry *t = &fw->stack[fw->sp - 1];
        ev(sm, w->slot,
           (struct hd_ahead_event){.ev = HD_AHEV_TRIGGER, .h = h, .stall_pc = w->ib_pc,
                                   .top_pc = (uint32_t)t->pc, .top_rpc = (uint32_t)t->rpc,
                                   .top_mask = t->mask, .gen = a->gen},
           sm->last_tick);
    }
    return true;
}

/* The shadow top is in the window, inside the stall point's lanes, and reachable. */
static bool in_window(const struct ah_warp *a, uint32_t *pc, uint32_t *mask)
{
    const struct hd_ahead_hints *h = a->h;
    return hd_func_ahead_top(&a->sh, pc, mask) && a->sh.sp - 1 >= a->base && *pc >= h->first &&
           *pc < h->first + h->len && (h->reach >> (*pc - h->first) & 1u);
}

/* The walk stops at PC: it is selected, or a control instruction that is not (the chain ends). */
static bool walk_stops(const struct ah_warp *a, const struct hd_func_kernel *k, uint32_t pc)
{
    return (a->h->sel >> (pc - a->h->first) & 1u) || hd_func_ahead_is_control(&k->code[pc]);
}

/* Issue warp w's next selected instruction if it can (one walk: the skips, then at most one
 * run-ahead issue, or the chain's end). With the blocks in the loop the walk decides from the
 * shadow-stack block's top and reports itself to the warp controller (HD_AHEV_WALK). */
static bool walk(struct hd_sm *sm, struct hd_twarp *w, struct ah_warp *a, uint64_t now,
                 struct hd_ahead_event *x);

static bool try_issue(struct hd_sm *sm, struct hd_twarp *w, struct ah_warp *a, uint64_t now)
{
    if (now < a->fetch_at)
        return false;
    struct hd_ahead_event x = {.ev = HD_AHEV_WALK, .rcu_n = a->n, .gen = a->gen};
    const bool parked = a->parked;
    const bool issued = walk(sm, w, a, now, &x);
    x.park = a->parked && !parked;
    if (sm->ah->ops->event && (x.skips || x.issued || x.park))
        ev(sm, w->slot, x, now);
    return issued;
}

static bool walk(struct hd_sm *sm, struct hd_twarp *w, struct ah_warp *a, uint64_t now,
                 struct hd_ahead_event *x)
{
    struct hd_tcta *c = &sm->cta[w->cta];
    struct hd_sm_launch *la = c->la;
    const struct hd_func_kernel *k = la->l->k;
    const struct hd_ahead_hints *h = a->h;
    const struct hd_sm_params *p = sm->p;
    for (uint32_t guard = 0; guard <= h->len; guard++) {
        uint32_t pc, mask;
        bool in = in_window(a, &pc, &mask);
        if (sm->ah->ops->top && (!in || walk_stops(a, k, pc))) {
            sync_top(sm, w->slot, a, now); /* decide from the block's top */
            in = in_window(a, &pc, &mask);
        }
        if (!in) {
            a->parked = true; /* left the window or the stall point's lanes */
            return false;
        }
        const uint32_t i = pc - h->first;
        const struct hd_func_instr *d = &k->code[pc];
        if (!(h->sel >> i & 1u)) {
            if (hd_func_ahead_is_control(d)) {
                a->parked = true;
                return false;
            }
            hd_func_ahead_skip(w->fw, &a->sh);
            a->step++;
            a->sadv++;
            x->skips++;
            if (sm->ah->ops->scan_cycles) { /* warped pre-execution: one look per cycle */
                a->fetch_at = now + sm->ah->ops->scan_cycles;
                return false;
            }
            continue;
        }
        if (rcu_view(sm, w->slot, now).full) {
            sm->st->haws_rcu_full++;
            a->parked = true;
            return false;
        }
        const bool ren = h->ren >> i & 1u;
        uint32_t mapped = 0, ready = 0; /* bit j: source j is an RCU entry's / it is ready */
        for (uint32_t j = 0; j < d->nread && j < 32; j++) {
            const struct ah_entry *e = writer(a, d->read[j]);
            mapped |= (uint32_t)(e != NULL) << j;
            ready |= (uint32_t)(e && e->ready_at <= now) << j;
        }
        if (sm->ah->ops->raw)
            sm->ah->ops->raw(sm->ah->impl, sm->id, w->slot, d->read, d->nread, &mapped, &ready,
                             now);
        for (uint32_t j = 0; j < d->nread; j++) {
            if (mapped >> j & 1u ? !(ready >> j & 1u) : w->sb[d->read[j]] != HD_SB_FREE)
                return false; /* RAW on the RCU or the scoreboard: try again later */
        }
        for (uint32_t j = 0; !ren && j < d->nwrite; j++)
            if (w->sb[d->write[j]] != HD_SB_FREE)
                return false;
        const struct hd_tinstr *ti = &la->tk->in[pc];
        uint32_t inst = HD_SM_NONE, cu = HD_SM_NONE;
        if (ti->unit == HD_TU_MEM) { /* a load: a collector of the LD/ST unit, as in order */
            cu = hd_sm_cu_find(sm, HD_TU_MEM);
            if (cu == HD_SM_NONE)
                return false;
        } else if (ti->unit < HD_TU_COUNT) {
            for (uint32_t u = 0; u < p->units[ti->unit]; u++)
                if (sm->unit_free[ti->unit][u] <= now) {
                    inst = u;
                    break;
                }
            if (inst == HD_SM_NONE)
                return false;
        }
        struct ah_entry *e = &a->e[a->n];
        struct hd_func_trace *tr = &sm->tr;
        if (hd_func_ahead_step(la->l, c->fc, w->fw, &a->sh, lookup, a, &e->r, tr) !=
            HD_FUNC_OK) {
            a->parked = true; /* in-order execution reports it */
            return false;
        }
        if (inst != HD_SM_NONE)
            sm->unit_free[ti->unit][inst] = now + p->ii[ti->cls];
        e->step = a->step++;
        e->renamed = ren;
        e->ready_at = now + 1 + (ti->unit < HD_TU_COUNT ? p->lat[ti->cls] : 0);
        if (cu != HD_SM_NONE) { /* ready when its writeback comes (hd_sm_ahead_loaded) */
            hd_sm_cu_alloc(sm, cu, w, HD_PC_AHEAD | (a->gen & 0xffffu) << 8 | a->n, ti, true,
                           now);
            w->inflight++;
            struct hd_memop *op = &sm->memops[sm->cu[cu].memop];
            hd_sm_memop_build(sm, w, tr, op);
            op->has_dst = true;
            e->ready_at = UINT64_MAX;
            sm->st->haws_loads++;
        }
        if (sm->ah->ops->event) {
            struct hd_ahead_event y = {.ev = HD_AHEV_ALLOC, .idx = (uint8_t)a->n,
                                       .ndst = e->r.ndst, .renamed = ren, .ctrl = e->r.branch,
                                       .off = e->step, .ready_at = e->ready_at};
            for (uint32_t j = 0; j < e->r.ndst && j < 2; j++)
                y.dst[j] = e->r.reg[j];
            ev(sm, w->slot, y, now);
            x->issued = true; /* (the walk's event follows with the issue) */
            x->pc = pc;
            x->idx = y.idx;
            x->off = e->step;
            x->renamed = ren;
            x->ctrl = e->r.branch;
            if (e->r.branch) {
                x->taken = e->r.exec;
                x->target = (uint32_t)d->target;
                x->reconv = (uint32_t)d->reconv;
            } else {
                a->sadv++; /* the shadow top passed it (given to the block with the next top) */
            }
        }
        a->n++;
        sm->st->haws_issued++;
        if (e->r.branch)
            sm->st->haws_branches++;
        a->fetch_at = now + 1 + sm->ah->ops->hint_fetch_cycles;
        return true;
    }
    a->parked = true;
    return false;
}

bool hd_sm_ahead_cycle(struct hd_sm *sm, uint32_t s, uint64_t now)
{
    struct hd_sm_ahead *ah = sm->ah;
    const struct hd_sm_params *p = sm->p;
    if (!sm->nstate[s][HD_WS_SB_MEM])
        return false;
    struct hd_twarp *best = NULL;
    for (uint32_t slot = s; slot < p->max_warps; slot += p->num_sched) {
        struct hd_twarp *w = &sm->w[slot];
        if (w->state != HD_WS_SB_MEM)
            continue;
        struct ah_warp *a = &ah->w[slot];
        if (ctl_view(sm, slot, now).mode == AH_IDLE && a->n == 0 && !trigger(sm, w, a))
            continue;
        const struct hd_ahead_ctl_view v = ctl_view(sm, slot, now);
        if (v.mode != AH_HINT || v.parked || v.stall_pc != w->ib_pc)
            continue;
        if (!best || w->age < best->age)
            best = w;
    }
    /* the oldest hint-mode warp first, then the others in slot order */
    if (best && try_issue(sm, best, &ah->w[best->slot], now))
        return true;
    for (uint32_t slot = s; slot < p->max_warps; slot += p->num_sched) {
        struct hd_twarp *w = &sm->w[slot];
        struct ah_warp *a = &ah->w[slot];
        if (w == best || w->state != HD_WS_SB_MEM)
            continue;
        const struct hd_ahead_ctl_view v = ctl_view(sm, slot, now);
        if (v.mode != AH_HINT || v.parked || v.stall_pc != w->ib_pc)
            continue;
        if (try_issue(sm, w, a, now))
            return true;
    }
    return false;
}
/* }==== */

/* {==== The return: the fetch filter ==== */
/* hd_func_ahead_commit would accept r as warp fw's next in-order step. */
static bool commit_ok(const struct hd_func_warp *fw, const struct hd_func_ahead_result *r)
{
    if (fw->done || fw->at_barrier || fw->sp == 0 || r->branch)
        return false;
    const struct hd_func_simt_entry *top = &fw->stack[fw->sp - 1];
    return (uint32_t)top->pc == r->pc && top->mask == r->active;
}

/* The filter's decision from the request (the warp controller's, haws_warp_ctl.c filter(), is
 * the same decision in hardware; with the blocks in the loop the engine takes that one). */
static void decide(const struct ah_warp *a, struct hd_ahead_filter_req *f)
{
    f->ans = HD_AHF_NONE;
    f->pop = f->clear = f->mism = false;
    if (a->mode == AH_HINT && f->pc != a->stall_pc) { /* cannot happen: the in-order stream
                                                         left the stall point */
        f->mism = f->clear = true;
        return;
    }
    if (f->rcu_n == 0) {
        f->clear = true;
        return;
    }
    if (f->head_step < a->io_step || (f->head_step == a->io_step && f->head_pc != f->pc)) {
        f->mism = f->clear = true; /* the in-order path differs: execute everything again */
        return;
    }
    if (f->head_step > a->io_step)
        return; /* (hd_sm_ahead_stepped counts it once it issued) */
    if (f->head_br) { /* executed again in order (side-effect free) */
        f->pop = true;
        return;
    }
    if (!f->head_ready) {
        f->ans = HD_AHF_WAIT;
        return;
    }
    if (!f->mask_ok) {
        f->mism = f->clear = true;
        return;
    }
    f->pop = true;
    f->clear = f->rcu_n == 1;
    f->ans = f->head_ren ? HD_AHF_COPY : HD_AHF_SKIP;
}

enum hd_ahead_filter hd_sm_ahead_filter(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc,
                                        uint64_t now, struct hd_func_trace *tr)
{
    struct ah_warp *a = &sm->ah->w[w->slot];
    const struct hd_ahead_ctl_view cv = ctl_view(sm, w->slot, now);
    if (cv.mode == AH_IDLE)
        return HD_AHF_NONE;
    if (cv.branch_due) /* a popped branch entry has not issued yet */
        return HD_AHF_NONE;
    struct hd_ahead_filter_req f = {.pc = pc, .rcu_n = a->n};
    struct ah_entry *e = &a->e[a->head];
    if (a->n) {
        const struct hd_ahead_rcu_view v = rcu_view(sm, w->slot, now); /* the head */
        f.head_step = v.head_off;
        f.head_pc = e->r.pc;
        f.head_br = v.head_ctrl;
        f.head_ready = v.head_ready;
        f.head_ren = v.head_copy;
        f.mask_ok = commit_ok(w->fw, &e->r);
    }
    decide(a, &f);
    if (sm->ah->ops->filter) /* the warp controller's answer */
        sm->ah->ops->filter(sm->ah->impl, sm->id, w->slot, &f, now);
    if (a->mode == AH_HINT) { /* the head issues again: the long-latency flag cleared */
        a->mode = AH_RETURN;
        ev(sm, w->slot, (struct hd_ahead_event){.ev = HD_AHEV_RETURN}, now);
    }
    if (f.mism)
        sm->st->haws_discards++;
    if (f.pop && a->n && f.ans == HD_AHF_NONE) { /* a branch entry: it executes in order */
        a->head++;
        a->n--;
        a->branch_due = true; /* (so hd_sm_ahead_stepped counts it) */
        ev(sm, w->slot, (struct hd_ahead_event){.ev = HD_AHEV_POP}, now);
    } else if (f.pop && a->n) {
        if (!hd_func_ahead_commit(sm->cta[w->cta].la->l, w->fw, &e->r, tr)) {
            sm->st->haws_discards++; /* (only when the blocks said commit and the model not) */
            drop(sm, w->slot, now);
            return HD_AHF_NONE;
        }
        a->head++;
        a->n--;
        a->io_step++;
        ev(sm, w->slot, (struct hd_ahead_event){.ev = HD_AHEV_POP}, now);
    }
    if (f.clear)
        drop(sm, w->slot, now);
    if (f.ans == HD_AHF_COPY) {
        sm->st->haws_copies++;
        return HD_AHF_COPY;
    }
    if (f.ans == HD_AHF_SKIP) {
        sm->st->haws_skips++;
        return HD_AHF_SKIP;
    }
    return f.ans == HD_AHF_WAIT ? HD_AHF_WAIT : HD_AHF_NONE;
}
/* }==== */

void hd_sm_ahead_stepped(struct hd_sm *sm, struct hd_twarp *w)
{
    struct ah_warp *a = &sm->ah->w[w->slot];
    if (ctl_view(sm, w->slot, sm->last_tick).mode != AH_RETURN)
        return;
    a->io_step++;
    a->branch_due = false;
    if (a->n == 0)
        drop(sm, w->slot, sm->last_tick);
    ev(sm, w->slot, (struct hd_ahead_event){.ev = HD_AHEV_STEPPED, .rcu_n = a->n},
       sm->last_tick);
}

void hd_sm_ahead_loaded(struct hd_sm *sm, struct hd_twarp *w, uint32_t tag, uint64_t now)
{
    if (!sm->ah)
        return;
    struct ah_warp *a = &sm->ah->w[w->slot];
    const uint32_t idx = tag & 0xffu, gen = (tag >> 8) & 0xffffu;
    if (a->mode == AH_IDLE || gen != (a->gen & 0xffffu) || idx < a->head ||
        idx >= a->head + a->n)
        return; /* its episode was discarded: the load executes again in order */
    a->e[idx].ready_at = now;
    ev(sm, w->slot, (struct hd_ahead_event){.ev = HD_AHEV_READY, .idx = (uint8_t)idx}, now);
}
