/* SPDX-License-Identifier: MIT
 * exec_ctrl.c - control flow and synchronization: bra (uniform or divergent through the SIMT
 * stack), call/ret of .func functions, exit, trap, and the CTA barriers (bar/barrier .sync,
 * .arrive, .red).
 *
 * Design: the step (exec.c) has already moved the top SIMT entry to the next PC when a handler
 * runs; control handlers edit the stack from there. A divergent branch turns the top entry into
 * the reconvergence entry (its PC becomes the branch's IPDOM) and pushes the not-taken and taken
 * paths above it; when the branch reconverges where the top entry already does, the top entry
 * is replaced instead, so loops with divergent trip counts do not grow the stack. exit removes
 * lanes from every entry; ret removes them from the callee's part of the stack (after copying
 * return values to the caller's variables) and the call frame goes when that part is empty.
 */
#include "exec_impl.h"

#include <inttypes.h>

/* {==== Stack helpers ==== */
static int push(struct hd_func_exec *x, const struct hd_func_instr *d, int32_t pc, int32_t rpc,
                uint32_t mask)
{
    struct hd_func_warp *w = x->w;
    if (w->sp >= HD_FUNC_SIMT_DEPTH)
        return hd_func_fault(x, d, -1, HD_FUNC_ERR_UNSUPPORTED,
                             "SIMT stack overflow (more than %d nested divergent paths)",
                             HD_FUNC_SIMT_DEPTH);
    w->stack[w->sp++] = (struct hd_func_simt_entry){pc, rpc, mask};
    return HD_FUNC_OK;
}
/* }==== */

/* {==== bra ==== */
static int x_bra(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_func_warp *w = x->w;
    struct hd_func_simt_entry *top = &w->stack[w->sp - 1];
    const uint32_t taken = mask, fall = x->active & ~mask;
    x->tr->flags |= HD_TR_BRANCH;
    x->tr->taken = taken;
    if (!fall) {
        top->pc = d->target;
        return HD_FUNC_OK;
    }
    if (!taken)
        return HD_FUNC_OK; /* already at pc + 1 */
    x->tr->flags |= HD_TR_DIVERGED;
    const int32_t rpc = d->reconv;
    if (top->rpc == rpc)
        w->sp--; /* the entry below already waits at rpc with these lanes */
    else
        top->pc = rpc;
    int st = HD_FUNC_OK;
    if ((int32_t)x->pc + 1 != rpc)
        st = push(x, d, (int32_t)x->pc + 1, rpc, fall);
    if (st == HD_FUNC_OK && d->target != rpc)
        st = push(x, d, d->target, rpc, taken);
    return st;
}

static int x_brx(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    (void)mask;
    return hd_func_fault(x, d, -1, HD_FUNC_ERR_UNSUPPORTED, "brx.idx (indirect branch) is not supported");
}
/* }==== */

/* {==== exit / ret / call / trap ==== */
static void remove_lanes(struct hd_func_warp *w, uint32_t from, uint32_t lanes)
{
    for (uint32_t i = from; i < w->sp; i++)
        w->stack[i].mask &= ~lanes;
}

static int x_exit(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    (void)d;
    x->w->exited |= mask;
    remove_lanes(x->w, 0, mask);
    x->tr->flags |= HD_TR_EXIT;
    return HD_FUNC_OK;
}

static int x_ret(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_func_warp *w = x->w;
    if (w->nframes == 0)
        return x_exit(x, d, mask); /* ret from the kernel */
    const struct hd_func_call_frame *f = &w->frames[w->nframes - 1];
    const struct hd_func_call *call = x->k->code[f->call_pc].call;
    for (uint32_t i = 0; i < call->nrets; i++) {
        const struct hd_func_copy *c = &call->rets[i];
        uint8_t buf[256];
        HD_FOR_LANES(mask, l) {
            for (uint32_t off = 0; off < c->bytes; off += sizeof buf) {
                unsigned n = c->bytes - off < sizeof buf ? c->bytes - off : (unsigned)sizeof buf;
                int st = hd_func_mem_access(x, d, l, HD_AS_LOCAL, c->from + off, buf, n, 0);
                if (st == HD_FUNC_OK)
                    st = hd_func_mem_access(x, d, l, HD_AS_LOCAL, c->to + off, buf, n, 1);
                if (st != HD_FUNC_OK)
                    return st;
            }
        }
    }
    remove_lanes(w, f->base, mask);
    x->tr->flags |= HD_TR_RET;
    return HD_FUNC_OK;
}

static int x_call(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_func_warp *w = x->w;
    const struct hd_func_call *call = d->call;
    if (!call)
        return hd_func_fault(x, d, -1, HD_FUNC_ERR_UNSUPPORTED,
                             "this form of call (indirect, or to a function without a body) is not supported");
    if (w->nframes >= HD_FUNC_CALL_DEPTH)
        return hd_func_fault(x, d, -1, HD_FUNC_ERR_UNSUPPORTED, "call depth above %d",
                             HD_FUNC_CALL_DEPTH);
    for (uint32_t i = 0; i < call->nargs; i++) {
        const struct hd_func_copy *c = &call->args[i];
        uint8_t buf[256];
        HD_FOR_LANES(mask, l) {
            for (uint32_t off = 0; off < c->bytes; off += sizeof buf) {
                unsigned n = c->bytes - off < sizeof buf ? c->bytes - off : (unsigned)sizeof buf;
                int st = hd_func_mem_access(x, d, l, HD_AS_LOCAL, c->from + off, buf, n, 0);
                if (st == HD_FUNC_OK)
                    st = hd_func_mem_access(x, d, l, HD_AS_LOCAL, c->to + off, buf, n, 1);
                if (st != HD_FUNC_OK)
                    return st;
            }
        }
    }
    w->frames[w->nframes++] = (struct hd_func_call_frame){(int32_t)x->pc, w->sp};
    x->tr->flags |= HD_TR_CALL;
    return push(x, d, d->target, HD_FUNC_PC_NONE, mask);
}

static int x_trap(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    return hd_func_fault(x, d, (int)__builtin_ctz(mask), HD_FUNC_ERR_FAULT, "%s executed",
                         d->op == HD_OP_TRAP ? "trap" : "brkpt");
}
/* }==== */

/* {==== Barriers ==== */
/* bar.sync a{, b} | bar.arrive a, b | bar.red.op d, a{, b}, {!}c | bar.warp.sync m */
static int x_bar(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const uint8_t mode = d->ir->mode;
    if (mode == HD_MODE_BAR_WARP_SYNC)
        return HD_FUNC_OK;
    const int red = mode == HD_MODE_BAR_RED_POPC || mode == HD_MODE_BAR_RED_AND ||
                    mode == HD_MODE_BAR_RED_OR;
    const uint32_t lane0 = (uint32_t)__builtin_ctz(mask);
    const unsigned nid = red ? (unsigned)d->nsrc - 1 : (unsigned)d->nsrc; /* a{, b} */
    struct hd_lanes A = hd_src(x, d, 0);
    uint64_t id = HD_V(A, lane0) & 0xffffffffu;
    uint32_t count = 0;
    if (nid >= 2) {
        struct hd_lanes B = hd_src(x, d, 1);
        count = (uint32_t)HD_V(B, lane0);
        if (count == 0 || count % HD_FUNC_WARP_SIZE)
            return hd_func_fault(x, d, (int)lane0, HD_FUNC_ERR_FAULT,
                                 "barrier thread count %u is not a positive multiple of %d",
                                 count, HD_FUNC_WARP_SIZE);
    }
    if (id >= HD_FUNC_NUM_BARRIERS)
        return hd_func_fault(x, d, (int)lane0, HD_FUNC_ERR_FAULT,
                             "barrier id %" PRIu64 " is out of range (0..%d)", id,
                             HD_FUNC_NUM_BARRIERS - 1);
    uint32_t pred = 0;
    if (red) {
        struct hd_lanes C = hd_src(x, d, (int)nid);
        HD_FOR_LANES(mask, l)
            if (HD_V(C, l) & 1u)
                pred |= 1u << l;
    }
    const int wait = mode != HD_MODE_BAR_ARRIVE;
    x->tr->flags |= HD_TR_BARRIER;
    x->tr->bar_id = (uint8_t)id;
    bool released = hd_func_cta_bar_arrive(x->cta, x->w, (uint32_t)id, count, wait,
                                           red ? mode : 0, mask, pred, red ? d->dst[0] : -1,
                                           (int32_t)x->pc);
    if (released)
        x->tr->flags |= HD_TR_BAR_RELEASE;
    else if (wait)
        x->tr->flags |= HD_TR_BAR_WAIT;
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Selectors ==== */
hd_func_exec_fn hd_func_sel_BRA(const struct hd_instr *in)
{
    (void)in;
    return x_bra;
}
hd_func_exec_fn hd_func_sel_BRX(const struct hd_instr *in)
{
    (void)in;
    return x_brx;
}
hd_func_exec_fn hd_func_sel_CALL(const struct hd_instr *in)
{
    (void)in;
    return x_call;
}
hd_func_exec_fn hd_func_sel_RET(const struct hd_instr *in)
{
    (void)in;
    return x_ret;
}
hd_func_exec_fn hd_func_sel_EXIT(const struct hd_instr *in)
{
    (void)in;
    return x_exit;
}
hd_func_exec_fn hd_func_sel_TRAP(const struct hd_instr *in)
{
    (void)in;
    return x_trap;
}
hd_func_exec_fn hd_func_sel_BRKPT(const struct hd_instr *in)
{
    (void)in;
    return x_trap;
}
hd_func_exec_fn hd_func_sel_BAR(const struct hd_instr *in)
{
    (void)in;
    return x_bar;
}
hd_func_exec_fn hd_func_sel_BARRIER(const struct hd_instr *in)
{
    (void)in;
    return x_bar;
}
/* }==== */
