/* SPDX-License-Identifier: MIT
 * haws_loop_ctl.c - the shadow SIMT stacks and the warp controllers in the timing loop: the
 * run-ahead engine's RESET, TRIGGER, WALK and STEPPED events as request edges, each followed by
 * a read-out edge whose outputs are checked, and the engine's mode, fetch-filter and shadow-top
 * decisions taken from them (haws_loop.h; Gong thesis ch.5 §5.2.4-5.2.6; docs/blocks/haws.md
 * §9-10).
 */
#include "haws_loop_parts.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* {==== The shadow stack and the warp controller ==== */
/* Block k's request edge with in, then a read-out edge (no request: the state stays); the
 * read-out's outputs, the block's registered outputs after the request, go to the warp's copy. */
static int request(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, unsigned k,
                   const void *in, uint64_t now)
{
    struct warp *w = &L->w[(size_t)sm * L->nslots + slot];
    union {
        struct hd_haws_shadow_stack_in s;
        struct hd_haws_warp_ctl_in c;
    } zero;
    union {
        struct hd_haws_shadow_stack_out s;
        struct hd_haws_warp_ctl_out c;
    } o;
    memset(&zero, 0, sizeof zero);
    if (hd_haws_loop_edge(L, sm, slot, k, in, &o, now) != 0)
        return -1;
    return hd_haws_loop_edge(L, sm, slot, k, &zero,
                             k == K_SHADOW ? (void *)&w->ss : (void *)&w->wc, now);
}

/* [haws] blocks_fault: true once, at the first check of block k after the fault's step. */
static bool fault_on(struct hd_haws_loop *L, unsigned k)
{
    if (L->fault_kind != (int)k)
        return false;
    L->fault_kind = -1;
    return true;
}

/* Port `port` of block k read `got` after the edge of the event being applied; the engine says
 * `want`. 0, or -1 with the located mismatch. */
static int expect(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, unsigned k,
                  const char *port, uint64_t got, uint64_t want, uint64_t now)
{
    if (fault_on(L, k))
        want ^= 1u; /* [haws] blocks_fault: a wrong expectation */
    if (got == want)
        return 0;
    L->failed = true;
    snprintf(L->err, sizeof L->err,
             "haws: MISMATCH at cycle %" PRIu64 ", SM %u, warp slot %u, block %s (sm%u.w%u.%s, "
             "%s), port %s = %" PRIu64 " (0x%" PRIx64 "), the run-ahead engine's events say "
             "%" PRIu64 " (0x%" PRIx64 ") after the edge of the %s",
             now, sm, slot, hd_haws_loop_kinds[k].block, sm, slot,
             hd_haws_loop_kinds[k].block, hd_haws_loop_kinds[k].what, port, got,
             got, want, want, L->ev ? L->ev : "read-out");
    return -1;
}
#define EXPECT(k, port, got, want)                                                                 \
    do {                                                                                           \
        if (expect(L, sm, slot, k, port, (uint64_t)(got), (uint64_t)(want), now) != 0)            \
            return -1;                                                                             \
    } while (0)

/* The shadow stack is discarded after the controller's clear_o (the episode ended). */
static int ss_clear(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, uint64_t now)
{
    struct hd_haws_shadow_stack_in in;
    memset(&in, 0, sizeof in);
    in.clear_i = 1;
    if (request(L, sm, slot, K_SHADOW, &in, now) != 0)
        return -1;
    EXPECT(K_SHADOW, "depth_o", L->w[(size_t)sm * L->nslots + slot].ss.depth_o, 0);
    return 0;
}

int hd_haws_loop_on_ctl(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                        const struct hd_ahead_event *e, uint64_t now)
{
    struct warp *w = &L->w[(size_t)sm * L->nslots + slot];
    struct hd_haws_warp_ctl_in c;
    struct hd_haws_shadow_stack_in s;
    memset(&c, 0, sizeof c);
    memset(&s, 0, sizeof s);
    c.rcu_n_i = e->rcu_n;
    switch (e->ev) {
    case HD_AHEV_RESET: /* (an idle controller and an empty stack: nothing to reset) */
        if (!w->wc.mode_o && !w->ss.depth_o && !w->ss.ovf_o)
            return 0;
        c.reset_i = 1;
        if (request(L, sm, slot, K_CTL, &c, now) != 0)
            return -1;
        EXPECT(K_CTL, "mode_o", w->wc.mode_o, 0);
        return ss_clear(L, sm, slot, now);
    case HD_AHEV_TRIGGER:
        c.trig_v_i = 1;
        c.trig_pc_i = e->stall_pc;
        c.trig_len_i = e->h->len;
        c.trig_first_i = e->h->first; /* (before the stall point: a back-edge window) */
        c.trig_sel_i = e->h->sel;
        c.trig_ren_i = e->h->ren;
        c.trig_reach_i = e->h->reach;
        if (request(L, sm, slot, K_CTL, &c, now) != 0)
            return -1;
        EXPECT(K_CTL, "trig_ok_o", w->wc.trig_ok_o, 1);
        EXPECT(K_CTL, "mode_o", w->wc.mode_o, 1);
        EXPECT(K_CTL, "stall_pc_o", w->wc.stall_pc_o, e->stall_pc);
        EXPECT(K_CTL, "step_o", w->wc.step_o, 1);
        EXPECT(K_CTL, "gen_o", w->wc.gen_o, e->gen & 0xffffu);
        s.copy_v_i = 1; /* the real top, advanced past the stall point */
        s.copy_pc_i = e->top_pc;
        s.copy_rpc_i = e->top_rpc;
        s.copy_mask_i = e->top_mask;
        s.adv_n_i = 1;
        return request(L, sm, slot, K_SHADOW, &s, now); /* (its top: the walk's first read) */
    case HD_AHEV_WALK:
        c.wk_skip_n_i = e->skips;
        c.wk_iss_v_i = e->issued;
        c.wk_iss_pc_i = e->pc;
        c.wk_park_i = e->park;
        if (request(L, sm, slot, K_CTL, &c, now) != 0)
            return -1;
        EXPECT(K_CTL, "iss_v_o", w->wc.iss_v_o, e->issued);
        if (e->issued) {
            EXPECT(K_CTL, "iss_ok_o", w->wc.iss_ok_o, 1);
            EXPECT(K_CTL, "iss_step_o", w->wc.iss_step_o, e->off);
            EXPECT(K_CTL, "iss_ren_o", w->wc.iss_ren_o, e->renamed);
            EXPECT(K_CTL, "iss_tag_o", w->wc.iss_tag_o,
                   (uint64_t)(e->gen & 0xffffu) << 8 | e->rcu_n);
        }
        if (e->park)
            EXPECT(K_CTL, "parked_o", w->wc.parked_o, 1);
        if (!e->issued || !e->ctrl)
            return 0;
        s.br_v_i = 1; /* a run-ahead branch: bra on the shadow top */
        s.br_taken_i = e->taken;
        s.br_target_i = e->target;
        s.br_reconv_i = e->reconv;
        if (request(L, sm, slot, K_SHADOW, &s, now) != 0)
            return -1;
        EXPECT(K_SHADOW, "ovf_o", w->ss.ovf_o, 0);
        return 0;
    case HD_AHEV_STEPPED:
        c.stepped_i = 1;
        if (request(L, sm, slot, K_CTL, &c, now) != 0)
            return -1;
        EXPECT(K_CTL, "branch_due_o", w->wc.branch_due_o, 0);
        EXPECT(K_CTL, "mode_o", w->wc.mode_o, e->rcu_n ? 2 : 0);
        EXPECT(K_CTL, "clear_o", w->wc.clear_o, e->rcu_n == 0);
        return w->wc.clear_o ? ss_clear(L, sm, slot, now) : 0;
    default:
        return 0;
    }
}
#undef EXPECT
/* }==== */

/* {==== Decisions ==== */
/* A decision of block k differs from the engine's (the instance named). */
static void disagree_k(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, unsigned k,
                       const char *what, uint64_t blk, uint64_t model, uint64_t now)
{
    L->failed = true;
    snprintf(L->err, sizeof L->err,
             "haws: MISMATCH at cycle %" PRIu64 ", SM %u, warp slot %u, block %s (sm%u.w%u.%s, "
             "%s): its %s is %" PRIu64 " (0x%" PRIx64 "), the run-ahead engine's %" PRIu64
             " (0x%" PRIx64 ")",
             now, sm, slot, hd_haws_loop_kinds[k].block, sm, slot,
             hd_haws_loop_kinds[k].block, hd_haws_loop_kinds[k].what, what, blk,
             blk, model, model);
}

void hd_haws_loop_ctl(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                      struct hd_ahead_ctl_view *v, uint64_t now)
{
    if (!L || L->failed || sm >= L->nsms || slot >= L->nslots)
        return;
    const struct hd_haws_warp_ctl_out *o = &L->w[(size_t)sm * L->nslots + slot].wc;
    const struct hd_ahead_ctl_view b = {
        .mode = (uint8_t)o->mode_o, .parked = o->parked_o, .branch_due = o->branch_due_o,
        .stall_pc = (uint32_t)o->stall_pc_o, .step = (uint32_t)o->step_o,
        .io_step = (uint32_t)o->io_step_o, .gen = (uint32_t)o->gen_o};
    if (fault_on(L, K_CTL))
        disagree_k(L, sm, slot, K_CTL, "mode (mode_o) [haws] blocks_fault", b.mode,
                   v->mode ^ 1u, now);
    else if (b.mode != v->mode)
        disagree_k(L, sm, slot, K_CTL, "mode (mode_o)", b.mode, v->mode, now);
    else if (b.parked != v->parked)
        disagree_k(L, sm, slot, K_CTL, "parked_o", b.parked, v->parked, now);
    else if (b.branch_due != v->branch_due)
        disagree_k(L, sm, slot, K_CTL, "branch_due_o", b.branch_due, v->branch_due, now);
    else if (b.mode && b.stall_pc != v->stall_pc)
        disagree_k(L, sm, slot, K_CTL, "stall_pc_o", b.stall_pc, v->stall_pc, now);
    else if (b.mode && b.step != v->step)
        disagree_k(L, sm, slot, K_CTL, "walk step (step_o)", b.step, v->step, now);
    else if (b.mode && b.io_step != v->io_step)
        disagree_k(L, sm, slot, K_CTL, "in-order step (io_step_o)", b.io_step,
                   v->io_step, now);
    else if (b.mode && b.gen != (v->gen & 0xffffu))
        disagree_k(L, sm, slot, K_CTL, "episode (gen_o)", b.gen, v->gen & 0xffffu, now);
    *v = b; /* the engine decides from the block */
}

void hd_haws_loop_filter(struct hd_haws_loop *L, uint32_t sm, uint32_t slot,
                         struct hd_ahead_filter_req *f, uint64_t now)
{
    if (!L || L->failed || sm >= L->nsms || slot >= L->nslots)
        return;
    if (!L->made && hd_haws_loop_make(L, L->err, sizeof L->err) != 0)
        return;
    struct warp *w = &L->w[(size_t)sm * L->nslots + slot];
    struct hd_haws_warp_ctl_in c;
    memset(&c, 0, sizeof c);
    c.flt_v_i = 1;
    c.flt_pc_i = f->pc;
    c.flt_mask_ok_i = f->mask_ok;
    c.rcu_n_i = f->rcu_n;
    c.head_step_i = f->head_step;
    c.head_pc_i = f->head_pc;
    c.head_br_i = f->head_br;
    c.head_ready_i = f->head_ready;
    c.head_ren_i = f->head_ren;
    L->ev = "fetch filter";
    if (request(L, sm, slot, K_CTL, &c, now) != 0)
        return;
    const struct hd_haws_warp_ctl_out *o = &w->wc;
    const struct hd_ahead_filter_req b = {.ans = (uint8_t)o->flt_o, .pop = o->pop_o,
                                          .clear = o->clear_o, .mism = o->mism_o};
    if (!o->flt_v_o)
        disagree_k(L, sm, slot, K_CTL, "fetch filter's answer valid (flt_v_o)", 0, 1, now);
    else if (b.ans != f->ans)
        disagree_k(L, sm, slot, K_CTL, "fetch filter's answer (flt_o: none, wait, skip, copy)",
                   b.ans, f->ans, now);
    else if (b.pop != f->pop)
        disagree_k(L, sm, slot, K_CTL, "fetch filter's RCU pop (pop_o)", b.pop, f->pop, now);
    else if (b.clear != f->clear)
        disagree_k(L, sm, slot, K_CTL, "fetch filter's end of the episode (clear_o)", b.clear,
                   f->clear, now);
    else if (b.mism != f->mism)
        disagree_k(L, sm, slot, K_CTL, "fetch filter's discard (mism_o)", b.mism, f->mism, now);
    f->ans = b.ans; /* the engine decides from the block */
    f->pop = b.pop;
    f->clear = b.clear;
    f->mism = b.mism;
    if (!L->failed && b.clear)
        ss_clear(L, sm, slot, now);
    L->ev = NULL;
}

void hd_haws_loop_top(struct hd_haws_loop *L, uint32_t sm, uint32_t slot, uint32_t adv,
                      struct hd_ahead_top *t, uint64_t now)
{
    if (!L || L->failed || sm >= L->nsms || slot >= L->nslots)
        return;
    if (!L->made && hd_haws_loop_make(L, L->err, sizeof L->err) != 0)
        return;
    struct warp *w = &L->w[(size_t)sm * L->nslots + slot];
    L->ev = "shadow-stack advance";
    if (adv > (1u << HAWS_SHADOW_STACK_AdvW) - 1u) {
        disagree_k(L, sm, slot, K_SHADOW, "advance port adv_n_i (too narrow)",
                   (1u << HAWS_SHADOW_STACK_AdvW) - 1u, adv, now);
        return;
    }
    if (adv) {
        struct hd_haws_shadow_stack_in s;
        memset(&s, 0, sizeof s);
        s.adv_n_i = adv;
        if (request(L, sm, slot, K_SHADOW, &s, now) != 0)
            return;
    }
    L->ev = NULL;
    const struct hd_haws_shadow_stack_out *o = &w->ss;
    const struct hd_ahead_top b = {.depth = (uint32_t)o->depth_o, .pc = (uint32_t)o->top_pc_o,
                                   .rpc = (uint32_t)o->top_rpc_o, .mask = (uint32_t)o->top_mask_o};
    if (fault_on(L, K_SHADOW))
        disagree_k(L, sm, slot, K_SHADOW, "depth (depth_o) [haws] blocks_fault", b.depth,
                   t->depth ^ 1u, now);
    else if (o->ovf_o)
        disagree_k(L, sm, slot, K_SHADOW, "overflow (ovf_o: a run-ahead branch needed more "
                   "entries than it holds)", 1, 0, now);
    else if (b.depth != t->depth)
        disagree_k(L, sm, slot, K_SHADOW, "depth (depth_o)", b.depth, t->depth, now);
    else if (b.depth && b.pc != t->pc)
        disagree_k(L, sm, slot, K_SHADOW, "top's PC (top_pc_o: the second fetch stream's PC)",
                   b.pc, t->pc, now);
    else if (b.depth && b.rpc != t->rpc)
        disagree_k(L, sm, slot, K_SHADOW, "top's reconvergence PC (top_rpc_o)", b.rpc, t->rpc,
                   now);
    else if (b.depth && b.mask != t->mask)
        disagree_k(L, sm, slot, K_SHADOW, "top's mask (top_mask_o)", b.mask, t->mask, now);
    *t = b; /* the walk decides from the block's top */
}
/* }==== */
