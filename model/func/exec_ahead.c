/* SPDX-License-Identifier: MIT
 * exec_ahead.c - run-ahead steps on a shadow SIMT stack into renamed storage, and their in-order
 * commit (HAWS, Gong thesis ch. 5 §5.2-5.3; docs/blocks/haws.md §1). See exec_ahead.h.
 */
#include "exec_ahead.h"

#include "exec_impl.h"

#include <assert.h>
#include <string.h>

#define AHEAD_SLOTS (HD_FUNC_MAX_READS + HD_FUNC_MAX_DSTS + HD_FUNC_MAX_SRCS + 2)

void hd_func_ahead_snapshot(const struct hd_func_warp *w, struct hd_func_ahead_stack *s)
{
    s->sp = w->done ? 0 : w->sp;
    memcpy(s->e, w->stack, s->sp * sizeof s->e[0]);
}

bool hd_func_ahead_top(const struct hd_func_ahead_stack *s, uint32_t *pc, uint32_t *mask)
{
    if (s->sp == 0)
        return false;
    *pc = (uint32_t)s->e[s->sp - 1].pc;
    *mask = s->e[s->sp - 1].mask;
    return true;
}

/* A private copy of w running on stack s (its call frames are the real ones). */
static void load_shadow(struct hd_func_warp *sw, const struct hd_func_warp *w,
                        const struct hd_func_ahead_stack *s)
{
    *sw = *w;
    sw->sp = s->sp;
    memcpy(sw->stack, s->e, s->sp * sizeof s->e[0]);
}

static void store_shadow(const struct hd_func_warp *sw, struct hd_func_ahead_stack *s)
{
    s->sp = sw->done ? 0 : sw->sp;
    memcpy(s->e, sw->stack, s->sp * sizeof s->e[0]);
}

void hd_func_ahead_skip(const struct hd_func_warp *w, struct hd_func_ahead_stack *s)
{
    if (s->sp == 0)
        return;
    struct hd_func_warp sw;
    load_shadow(&sw, w, s);
    sw.stack[sw.sp - 1].pc++;
    hd_func_warp_normalize(&sw);
    store_shadow(&sw, s);
}

/* The scratch register file of one step: distinct registers and their slots. */
struct scratch {
    uint32_t n;
    int32_t reg[AHEAD_SLOTS];
    uint64_t v[AHEAD_SLOTS][32];
};

static int32_t slot_of(struct scratch *sc, const struct hd_func_warp *w, hd_func_ahead_lookup look,
                       void *lctx, int32_t reg)
{
    if (reg < 0)
        return reg;
    for (uint32_t i = 0; i < sc->n; i++)
        if (sc->reg[i] == reg)
            return (int32_t)i;
    if (sc->n == AHEAD_SLOTS || (uint32_t)reg >= w->nregs)
        return -2; /* cannot happen: more distinct registers than operands */
    const uint64_t *src = look ? look(lctx, reg) : NULL;
    if (!src)
        src = w->regs + (size_t)reg * 32;
    memcpy(sc->v[sc->n], src, sizeof sc->v[0]);
    sc->reg[sc->n] = reg;
    return (int32_t)sc->n++;
}

int hd_func_ahead_step(struct hd_func_launch *l, struct hd_func_cta *c,
                       const struct hd_func_warp *w, struct hd_func_ahead_stack *s,
                       hd_func_ahead_lookup look, void *lctx, struct hd_func_ahead_result *out,
                       struct hd_func_trace *tr_out)
{
    const struct hd_func_kernel *k = l->k;
    uint32_t pc, active;
    if (!hd_func_ahead_top(s, &pc, &active) || pc >= k->ncode || w->done)
        return HD_FUNC_ERR_INTERNAL;
    const struct hd_func_instr *d = &k->code[pc];
    if (d->nwrite > HD_FUNC_AHEAD_DSTS)
        return HD_FUNC_ERR_INTERNAL;
    static_assert(sizeof(struct scratch) < 32768, "scratch register file on the stack");
    struct scratch sc;
    sc.n = 0;
    struct hd_func_instr d2 = *d; /* the instruction, renumbered into the scratch file */
    for (uint32_t i = 0; i < d->nsrc; i++)
        if (d->src[i].kind == HD_SRC_REG)
            d2.src[i].reg = slot_of(&sc, w, look, lctx, d->src[i].reg);
    for (uint32_t i = 0; i < HD_FUNC_MAX_DSTS; i++)
        d2.dst[i] = slot_of(&sc, w, look, lctx, d->dst[i]);
    d2.guard = slot_of(&sc, w, look, lctx, d->guard);
    d2.addr_reg = slot_of(&sc, w, look, lctx, d->addr_reg);
    int32_t wslot[HD_FUNC_MAX_DSTS];
    for (uint32_t j = 0; j < d->nwrite; j++)
        wslot[j] = slot_of(&sc, w, look, lctx, d->write[j]);
    if (d2.guard == -2 || d2.addr_reg == -2)
        return HD_FUNC_ERR_INTERNAL;
    struct hd_func_warp sw;
    load_shadow(&sw, w, s);
    sw.regs = &sc.v[0][0];
    sw.nregs = sc.n;
    uint32_t mask = active;
    if (d2.guard >= 0) {
        uint32_t gm = 0;
        for (uint32_t i = 0; i < 32; i++)
            gm |= (uint32_t)(sc.v[d2.guard][i] & 1u) << i;
        mask &= d->guard_neg ? ~gm : gm;
    }
    struct hd_func_trace scratch_tr;
    struct hd_func_trace *trp = tr_out ? tr_out : &scratch_tr;
    trp->in = d;
    trp->pc = pc;
    trp->active = active;
    trp->exec = mask;
    trp->flags = 0;
    struct hd_func_exec x;
    x.l = l;
    x.cta = c;
    x.w = &sw;
    x.k = k;
    x.regs = sw.regs;
    x.tr = trp;
    x.active = active;
    x.pc = pc;
    x.cycle = 0; /* (instructions reading the clock never run ahead) */
    sw.stack[sw.sp - 1].pc = (int32_t)pc + 1;
    if (mask || d->op == HD_OP_BRA) {
        const int st = d->exec(&x, &d2, mask);
        if (st != HD_FUNC_OK)
            return st;
    }
    trp->next_pc = 0;
    hd_func_warp_normalize(&sw);
    store_shadow(&sw, s);
    out->pc = pc;
    out->active = active;
    out->exec = mask;
    out->branch = d->op == HD_OP_BRA;
    out->ndst = d->nwrite;
    for (uint32_t j = 0; j < d->nwrite; j++) {
        out->reg[j] = d->write[j];
        memcpy(out->v[j], sc.v[wslot[j]], sizeof out->v[j]);
    }
    return HD_FUNC_OK;
}

bool hd_func_ahead_commit(struct hd_func_launch *l, struct hd_func_warp *w,
                          const struct hd_func_ahead_result *r, struct hd_func_trace *tr)
{
    if (w->done || w->at_barrier || w->sp == 0 || r->branch)
        return false;
    struct hd_func_simt_entry *top = &w->stack[w->sp - 1];
    if ((uint32_t)top->pc != r->pc || top->mask != r->active)
        return false;
    for (uint32_t j = 0; j < r->ndst; j++) {
        uint64_t *D = w->regs + (size_t)r->reg[j] * 32;
        HD_FOR_LANES(r->exec, lane)
            D[lane] = r->v[j][lane];
    }
    tr->in = &l->k->code[r->pc];
    tr->pc = r->pc;
    tr->active = r->active;
    tr->exec = r->exec;
    tr->flags = 0;
    top->pc = (int32_t)r->pc + 1;
    w->instrs++;
    l->warp_instrs++;
    l->thread_instrs += hd_popc32(r->exec);
    hd_func_warp_normalize(w);
    tr->next_pc = w->done ? 0xffffffffu : (uint32_t)w->stack[w->sp - 1].pc;
    return true;
}

bool hd_func_ahead_is_control(const struct hd_func_instr *d)
{
    switch (d->op) {
    case HD_OP_BRA: case HD_OP_BRX: case HD_OP_CALL: case HD_OP_RET: case HD_OP_EXIT:
    case HD_OP_TRAP: case HD_OP_BRKPT:
        return true;
    default:
        return false;
    }
}
