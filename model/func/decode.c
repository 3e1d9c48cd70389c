/* SPDX-License-Identifier: MIT
 * decode.c - pre-decoding one PTX instruction into the executor's form (func_instr.h).
 *
 * Design: operands are split into destinations (the leading ones, per opcode) and sources;
 * registers become kernel-wide indices; the front end has already normalised immediates to their
 * slot's format, so they are copied as bits; a symbol used as a value or inside an address is
 * resolved here to its address in its state space: module .global/.const variables to their
 * device address, .shared variables to their CTA offset (extern .shared to the kernel's dynamic
 * base), .local and call-argument .param variables and .func parameters to their frame offset in
 * the thread's local memory, kernel parameters to their offset in the parameter buffer. Branch
 * targets and reconvergence PCs are made kernel-wide; a call gets its argument/return copy list.
 * The handler comes from the opcode's selector (ptx_ops.def); NULL means unsupported, which is
 * reported (with the PTX text) only if the instruction executes.
 */
#include "module.h"

#include "cfg.h"
#include "exec_impl.h"
#include "ptx_parse.h"

#include <stdio.h>
#include <stdlib.h>

/* {==== Dispatch table generated from ptx_ops.def ==== */
typedef hd_func_exec_fn (*hd_func_sel_fn)(const struct hd_instr *in);
static const hd_func_sel_fn selectors[HD_OP_COUNT] = {
#define HD_OP(id, name, cls) [HD_OP_##id] = hd_func_sel_##id,
#include "ptx_ops.def"
#undef HD_OP
};
/* }==== */

struct dctx {
    const struct hd_func_module *m;
    const struct hd_func_kernel *k;
    const struct hd_func_kfunc *F;
    const struct hd_instr *in;
    char *err;
    size_t errlen;
};

static unsigned type_bits(uint8_t t)
{
    if (t == HD_T_PRED)
        return 1;
    unsigned b = hd_type_bytes((enum hd_type)t) * 8;
    return b ? (b > 64 ? 64 : b) : 64;
}

/* Number of leading destination operands. */
static unsigned ndests(const struct hd_instr *in)
{
    switch (in->op) {
    case HD_OP_ST: case HD_OP_RED: case HD_OP_BRA: case HD_OP_BRX: case HD_OP_CALL:
    case HD_OP_RET: case HD_OP_EXIT: case HD_OP_TRAP: case HD_OP_BRKPT: case HD_OP_NANOSLEEP:
    case HD_OP_PREFETCH: case HD_OP_MEMBAR: case HD_OP_FENCE: case HD_OP_PMEVENT:
        return 0;
    case HD_OP_BAR: case HD_OP_BARRIER:
        return (in->mode == HD_MODE_BAR_RED_POPC || in->mode == HD_MODE_BAR_RED_AND ||
                in->mode == HD_MODE_BAR_RED_OR) ? 1 : 0;
    default:
        return (in->flags & HD_F_PRED_OUT) ? 2 : 1;
    }
}

/* Width mask of the destination. */
static uint64_t dest_mask(const struct hd_instr *in, const struct hd_func *f, unsigned bits)
{
    switch (in->op) {
    case HD_OP_MUL:
    case HD_OP_MAD:
        return in->mode == HD_MODE_WIDE ? hd_wmask(bits * 2) : hd_wmask(bits);
    case HD_OP_POPC: case HD_OP_CLZ: case HD_OP_BFIND: case HD_OP_DP4A: case HD_OP_DP2A:
    case HD_OP_SHFL: case HD_OP_ACTIVEMASK: case HD_OP_MATCH: case HD_OP_REDUX:
        return 0xffffffffu;
    case HD_OP_SETP: case HD_OP_TESTP: case HD_OP_ISSPACEP:
        return 1;
    case HD_OP_SET:
        return hd_wmask(type_bits(in->type2));
    case HD_OP_VOTE:
        return in->mode == HD_MODE_VOTE_BALLOT ? 0xffffffffu : 1;
    case HD_OP_LD: case HD_OP_LDU: case HD_OP_CVT: {
        /* narrow loads and conversions are extended to the destination register's width */
        const struct hd_operand *o = &in->opnd[0];
        int32_t r = o->kind == HD_OPND_REG ? o->reg : -1;
        for (unsigned i = 0; r < 0 && o->kind == HD_OPND_VEC && i < o->vec_n; i++)
            r = o->vec[i];
        if (r >= 0 && (uint32_t)r < f->nregs) {
            unsigned rb = type_bits(f->regs[r].type);
            return hd_wmask(rb > bits ? rb : bits);
        }
        return hd_wmask(bits);
    }
    default:
        return hd_wmask(bits);
    }
}

static int fail(struct dctx *c, int status, const char *what)
{
    const char *file = c->m->ir->filename ? c->m->ir->filename : "<ptx>";
    snprintf(c->err, c->errlen, "%s:%u:%u: %s", file, c->in->line, c->in->col, what);
    return status;
}

/* {==== Symbols ==== */
/* Resolve symbol (scope, index) to (address space, address). */
static int resolve_symbol(struct dctx *c, uint8_t scope, int32_t sym, uint8_t *as, uint64_t *addr)
{
    const struct hd_func *f = c->F->ir;
    const struct hd_var *v;
    switch (scope) {
    case HD_SCOPE_MODULE: {
        if (sym < 0 || (uint32_t)sym >= c->m->ir->nglobals)
            return fail(c, HD_FUNC_ERR_INTERNAL, "bad module symbol");
        v = &c->m->ir->globals[sym];
        uint64_t a = c->m->var_addr[sym];
        if (v->space == HD_SPACE_SHARED) {
            *as = HD_AS_SHARED;
            *addr = a == HD_FUNC_VAR_DYNAMIC ? c->k->dyn_shared_base : a;
        } else {
            *as = HD_AS_GLOBAL;
            *addr = a;
        }
        return HD_FUNC_OK;
    }
    case HD_SCOPE_FUNC_LOCAL:
        if (sym < 0 || (uint32_t)sym >= f->nlocals)
            return fail(c, HD_FUNC_ERR_INTERNAL, "bad local symbol");
        v = &f->locals[sym];
        if (v->space == HD_SPACE_SHARED) {
            uint64_t a = c->F->local_off[sym];
            *as = HD_AS_SHARED;
            *addr = a == HD_FUNC_VAR_DYNAMIC ? c->k->dyn_shared_base : a;
        } else {
            *as = HD_AS_LOCAL;
            *addr = c->F->local_off[sym];
        }
        return HD_FUNC_OK;
    case HD_SCOPE_PARAM:
        if (sym < 0 || (uint32_t)sym >= f->nparams)
            return fail(c, HD_FUNC_ERR_INTERNAL, "bad parameter symbol");
        if (f->is_entry) {
            *as = HD_AS_PARAM;
            *addr = hd_ptx_param_offset(f, (uint32_t)sym);
        } else {
            *as = HD_AS_LOCAL;
            *addr = c->F->param_off[sym];
        }
        return HD_FUNC_OK;
    case HD_SCOPE_RET:
        if (sym < 0 || (uint32_t)sym >= f->nrets)
            return fail(c, HD_FUNC_ERR_INTERNAL, "bad return-parameter symbol");
        *as = HD_AS_LOCAL;
        *addr = c->F->ret_off[sym];
        return HD_FUNC_OK;
    default:
        return fail(c, HD_FUNC_ERR_INTERNAL, "bad symbol scope");
    }
}

/* The value of a symbol used as an operand (mov/cvta/isspacep): its address in its own space;
 * for isspacep, which takes a generic address, the generic one. */
static int symbol_value(struct dctx *c, const struct hd_operand *o, uint64_t *v)
{
    uint8_t as;
    uint64_t a;
    if (o->kind == HD_OPND_FUNC)
        return fail(c, HD_FUNC_ERR_UNSUPPORTED, "function addresses are not supported");
    int st = resolve_symbol(c, o->scope, o->symbol, &as, &a);
    if (st != HD_FUNC_OK)
        return st;
    if (c->in->op == HD_OP_ISSPACEP)
        a += as == HD_AS_SHARED ? HD_ADDR_SHARED_BASE
           : as == HD_AS_LOCAL  ? HD_ADDR_LOCAL_BASE
           : as == HD_AS_PARAM  ? HD_ADDR_PARAM_BASE : 0;
    *v = a;
    return HD_FUNC_OK;
}

static uint8_t as_of_space(uint8_t space, bool entry)
{
    switch (space) {
    case HD_SPACE_GLOBAL:
    case HD_SPACE_CONST:
        return HD_AS_GLOBAL;
    case HD_SPACE_SHARED:
        return HD_AS_SHARED;
    case HD_SPACE_LOCAL:
        return HD_AS_LOCAL;
    case HD_SPACE_PARAM:
        return entry ? HD_AS_PARAM : HD_AS_LOCAL;
    default:
        return HD_AS_GENERIC;
    }
}

static int decode_addr(struct dctx *c, struct hd_func_instr *d, const struct hd_operand *o)
{
    d->as = as_of_space(d->space, c->F->ir->is_entry);
    d->addr_off = o->imm;
    if (o->reg >= 0) {
        d->addr_reg = o->reg + (int32_t)c->F->reg_base;
        d->addr32 = (uint32_t)o->reg < c->F->ir->nregs &&
                    hd_type_bytes((enum hd_type)c->F->ir->regs[o->reg].type) <= 4;
    }
    if (o->symbol >= 0) {
        uint8_t as;
        uint64_t a;
        int st = resolve_symbol(c, o->scope, o->symbol, &as, &a);
        if (st != HD_FUNC_OK)
            return st;
        if (d->as == HD_AS_GENERIC) { /* [sym] in a generic access: the symbol's generic address */
            a += as == HD_AS_SHARED ? HD_ADDR_SHARED_BASE
               : as == HD_AS_LOCAL  ? HD_ADDR_LOCAL_BASE
               : as == HD_AS_PARAM  ? HD_ADDR_PARAM_BASE : 0;
        } else {
            d->as = as;
        }
        d->addr_off += (int64_t)a;
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Calls ==== */
static int decode_call(struct dctx *c, struct hd_func_instr *d, const struct hd_operand *o,
                       const int32_t *kf_of_func, struct hd_func_call *call)
{
    const struct hd_func *f = c->F->ir;
    if (o->symbol < 0 || (uint32_t)o->symbol >= c->m->ir->nfuncs || kf_of_func[o->symbol] < 0 ||
        o->imm < 0 || (uint64_t)o->imm >= f->ncalls)
        return HD_FUNC_OK; /* left without call info: reported if executed */
    const struct hd_func_kfunc *callee = &c->k->funcs[kf_of_func[o->symbol]];
    const struct hd_call_site *cs = &f->calls[o->imm];
    call->kfunc = (uint32_t)kf_of_func[o->symbol];
    call->nargs = cs->nargs;
    call->nrets = cs->nrets;
    call->args = calloc(cs->nargs + 1, sizeof *call->args);
    call->rets = calloc(cs->nrets + 1, sizeof *call->rets);
    if (!call->args || !call->rets)
        return fail(c, HD_FUNC_ERR_MEMORY, "host out of memory");
    for (uint32_t i = 0; i < cs->nargs + cs->nrets; i++) {
        int is_arg = i < cs->nargs;
        uint32_t j = is_arg ? i : i - cs->nargs;
        const struct hd_operand *a = is_arg ? &cs->args[j] : &cs->rets[j];
        if (a->kind != HD_OPND_SYMBOL)
            return fail(c, HD_FUNC_ERR_UNSUPPORTED,
                        "call arguments must be .param variables (register arguments are not supported)");
        uint8_t as;
        uint64_t addr;
        int st = resolve_symbol(c, a->scope, a->symbol, &as, &addr);
        if (st != HD_FUNC_OK)
            return st;
        if (as != HD_AS_LOCAL)
            return fail(c, HD_FUNC_ERR_UNSUPPORTED, "call argument is not a .param variable");
        const struct hd_var *pv = is_arg ? &callee->ir->params[j] : &callee->ir->rets[j];
        struct hd_func_copy *cp = is_arg ? &call->args[j] : &call->rets[j];
        uint64_t cb = pv->size;
        if (is_arg) {
            cp->from = addr;
            cp->to = callee->param_off[j];
        } else {
            cp->from = callee->ret_off[j];
            cp->to = addr;
        }
        cp->bytes = (uint32_t)cb;
    }
    d->call = call;
    d->target = (int32_t)callee->pc_base;
    return HD_FUNC_OK;
}
/* }==== */

/* {==== One instruction ==== */
static void add_read(struct hd_func_instr *d, int32_t r)
{
    if (r < 0)
        return;
    for (unsigned i = 0; i < d->nread; i++)
        if (d->read[i] == r)
            return;
    if (d->nread < HD_FUNC_MAX_READS)
        d->read[d->nread++] = r;
}

static int add_src(struct dctx *c, struct hd_func_instr *d, const struct hd_operand *o)
{
    if (d->nsrc >= HD_FUNC_MAX_SRCS)
        return fail(c, HD_FUNC_ERR_UNSUPPORTED, "too many source operands");
    struct hd_func_src *s = &d->src[d->nsrc++];
    switch (o->kind) {
    case HD_OPND_REG:
        s->kind = HD_SRC_REG;
        s->reg = o->reg + (int32_t)c->F->reg_base;
        s->neg = o->neg;
        add_read(d, s->reg);
        return HD_FUNC_OK;
    case HD_OPND_IMM_INT:
    case HD_OPND_IMM_F32:
    case HD_OPND_IMM_F64:
        s->kind = HD_SRC_IMM;
        s->imm = (uint64_t)o->imm;
        return HD_FUNC_OK;
    case HD_OPND_SPECIAL:
        s->kind = HD_SRC_SREG;
        s->sreg = o->sreg;
        s->dim = o->dim;
        return HD_FUNC_OK;
    case HD_OPND_SYMBOL:
    case HD_OPND_FUNC:
        s->kind = HD_SRC_IMM;
        return symbol_value(c, o, &s->imm);
    case HD_OPND_SINK:
        s->kind = HD_SRC_IMM;
        s->imm = 0;
        return HD_FUNC_OK;
    default:
        return fail(c, HD_FUNC_ERR_INTERNAL, "unexpected operand form");
    }
}

static void add_dst(struct hd_func_instr *d, int32_t r)
{
    if (d->ndst >= HD_FUNC_MAX_DSTS)
        return;
    d->dst[d->ndst++] = r;
    if (r >= 0 && d->nwrite < HD_FUNC_MAX_DSTS)
        d->write[d->nwrite++] = r;
}

int hd_func_decode(const struct hd_func_module *m, struct hd_func_kernel *k, uint32_t kf,
                   uint32_t i, const int32_t *reconv, const int32_t *kf_of_func,
                   struct hd_func_call *call, char *err, size_t errlen)
{
    const struct hd_func_kfunc *F = &k->funcs[kf];
    const struct hd_instr *in = &F->ir->instrs[i];
    struct hd_func_instr *d = &k->code[F->pc_base + i];
    struct dctx c = {m, k, F, in, err, errlen};
    const int32_t rb = (int32_t)F->reg_base;
    d->ir = in;
    d->func = F->ir;
    d->op = in->op;
    d->type = in->type;
    d->type2 = in->type2;
    d->space = in->space;
    d->bits = (uint8_t)type_bits(in->type);
    d->sgn = hd_type_is_signed((enum hd_type)in->type);
    d->flt = hd_type_is_float((enum hd_type)in->type);
    d->wmask = dest_mask(in, F->ir, d->bits);
    d->vec = in->vec > 1 ? in->vec : 1;
    d->elem_bytes = (uint8_t)hd_type_bytes((enum hd_type)in->type);
    d->guard = in->guard >= 0 ? in->guard + rb : -1;
    d->guard_neg = in->guard_neg;
    d->addr_reg = -1;
    d->target = -1;
    d->reconv = HD_FUNC_PC_NONE;
    add_read(d, d->guard);
    const unsigned nd = ndests(in);
    int st = HD_FUNC_OK;
    for (unsigned o = 0; o < in->nopnds && st == HD_FUNC_OK; o++) {
        const struct hd_operand *op = &in->opnd[o];
        if (o < nd) {
            if (op->kind == HD_OPND_VEC)
                for (unsigned e = 0; e < op->vec_n; e++)
                    add_dst(d, op->vec[e] >= 0 ? op->vec[e] + rb : -1);
            else
                add_dst(d, op->kind == HD_OPND_REG ? op->reg + rb : -1);
            continue;
        }
        switch (op->kind) {
        case HD_OPND_ADDR:
            st = decode_addr(&c, d, op);
            add_read(d, d->addr_reg);
            break;
        case HD_OPND_VEC:
            for (unsigned e = 0; e < op->vec_n && st == HD_FUNC_OK; e++) {
                struct hd_operand r = {0};
                r.kind = op->vec[e] >= 0 ? HD_OPND_REG : HD_OPND_SINK;
                r.reg = op->vec[e];
                if (op->vec_imm & (1u << e)) { /* a packed constant: its element of imm */
                    unsigned w = d->bits / op->vec_n;
                    r.kind = HD_OPND_IMM_INT;
                    r.imm = (int64_t)(((uint64_t)op->imm >> (w * e)) & hd_wmask(w));
                }
                st = add_src(&c, d, &r);
            }
            break;
        case HD_OPND_LABEL:
            d->target = (int32_t)(F->pc_base + (uint32_t)op->imm);
            break;
        case HD_OPND_FUNC:
            if (in->op == HD_OP_CALL)
                st = decode_call(&c, d, op, kf_of_func, call);
            else
                st = add_src(&c, d, op);
            break;
        default:
            st = add_src(&c, d, op);
            break;
        }
    }
    if (st != HD_FUNC_OK)
        return st;
    if (in->op == HD_OP_BRA && reconv)
        d->reconv = reconv[i] == HD_PC_EXIT ? HD_FUNC_PC_NONE : reconv[i] + (int32_t)F->pc_base;
    d->exec = selectors[in->op] ? selectors[in->op](in) : NULL;
    if (!d->exec)
        d->exec = hd_func_exec_unsupported;
    return HD_FUNC_OK;
}
/* }==== */
