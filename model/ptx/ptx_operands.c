/* SPDX-License-Identifier: MIT
 * ptx_operands.c - checks the operands of a parsed instruction against what its opcode takes.
 *
 * build_slots() turns the opcode, its modes and types into a list of operand slots (destination
 * first): each slot says which shapes it takes (register, immediate, address, vector, label,
 * special register, symbol) and the value type. Every operand is then checked against its slot:
 * shape, predicate-ness, and register type compatibility under the PTX rules (bit types match any
 * type of their size, signed and unsigned integers match each other, ld/st/cvt take registers
 * wider than an integer type). Immediates in floating-point slots are normalised to the slot's
 * format (IMM_F32 / IMM_F64 bits), so the execution layer never converts literals. Errors name the
 * operand's own line:col.
 */
#include <stdio.h>
#include <string.h>

#include "ptx_parser.h"

/* {==== Type helpers ==== */
static bool is_bitint(enum hd_type t)
{
    return t != HD_T_NONE && t != HD_T_PRED && t < HD_T_COUNT && !hd_type_is_float(t);
}

static bool is_bit(enum hd_type t)
{
    return t == HD_T_B8 || t == HD_T_B16 || t == HD_T_B32 || t == HD_T_B64 || t == HD_T_B128;
}

static void need(struct hd_ptx_parser *p, const struct hd_instr *in, bool ok, const char *what)
{
    if (!ok)
        hd_ptx_fail_at(p, in->line, in->col, "'%s' %s", hd_op_name((enum hd_op)in->op), what);
}
/* }==== */

/* {==== Operand slots ==== */
enum slot_kind { SL_DST, SL_SRC, SL_PDST, SL_PSRC, SL_ADDR, SL_LABEL, SL_IMM };
enum {
    SF_WIDE = 1,    /* register may be wider than an integer type (ld/st/cvt) */
    SF_SPECIAL = 2, /* special register allowed */
    SF_SYMBOL = 4,  /* a variable's or function's address allowed */
    SF_VEC = 8,     /* vector operand allowed (and required when the instruction is .v2/.v4) */
    SF_NEG = 16,    /* `!` allowed (predicate sources) */
    SF_ANYREG = 32  /* any non-predicate register, no type check */
};

struct slot {
    uint8_t kind, type, flags;
};

struct slots {
    struct slot s[HD_MAX_OPERANDS];
    uint32_t n, min;
};

static void add(struct slots *S, enum slot_kind k, enum hd_type t, unsigned flags)
{
    if (S->n < HD_MAX_OPERANDS) {
        S->s[S->n].kind = (uint8_t)k;
        S->s[S->n].type = (uint8_t)t;
        S->s[S->n].flags = (uint8_t)flags;
        S->n++;
        S->min = S->n;
    }
}

/* Marks the slots added after this call as optional. */
static void optional_from_here(struct slots *S, uint32_t *min)
{
    *min = S->n;
}

static enum hd_type widened(struct hd_ptx_parser *p, const struct hd_instr *in)
{
    switch (in->type) {
    case HD_T_U16: return HD_T_U32;
    case HD_T_S16: return HD_T_S32;
    case HD_T_U32: return HD_T_U64;
    case HD_T_S32: return HD_T_S64;
    default:
        need(p, in, false, ".wide needs a 16- or 32-bit integer type");
        return HD_T_NONE;
    }
}

static void build_slots(struct hd_ptx_parser *p, const struct hd_instr *in, struct slots *S)
{
    enum hd_type T = (enum hd_type)in->type, T2 = (enum hd_type)in->type2;
    enum hd_type W = in->mode == HD_MODE_WIDE ? widened(p, in) : T;
    uint32_t min = HD_MAX_OPERANDS + 1;
    bool pred_out = (in->flags & HD_F_PRED_OUT) != 0;
    unsigned vec = in->vec > 1 ? SF_VEC : 0;
    memset(S, 0, sizeof *S);
    switch ((enum hd_op)in->op) {
    case HD_OP_ABS: case HD_OP_NEG: case HD_OP_NOT: case HD_OP_CNOT: case HD_OP_BREV:
    case HD_OP_RCP: case HD_OP_SQRT: case HD_OP_RSQRT: case HD_OP_SIN: case HD_OP_COS:
    case HD_OP_LG2: case HD_OP_EX2: case HD_OP_TANH:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0);
        break;
    case HD_OP_POPC: case HD_OP_CLZ: case HD_OP_BFIND:
        add(S, SL_DST, HD_T_U32, 0); add(S, SL_SRC, T, 0);
        break;
    case HD_OP_ADD: case HD_OP_SUB: case HD_OP_ADDC: case HD_OP_SUBC: case HD_OP_MUL:
    case HD_OP_MUL24: case HD_OP_DIV: case HD_OP_REM: case HD_OP_MIN: case HD_OP_MAX:
    case HD_OP_AND: case HD_OP_OR: case HD_OP_XOR: case HD_OP_COPYSIGN:
        add(S, SL_DST, W, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0);
        break;
    case HD_OP_SHL: case HD_OP_SHR:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_MAD: case HD_OP_MAD24: case HD_OP_MADC: case HD_OP_FMA: case HD_OP_SAD:
        add(S, SL_DST, W, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, W, 0);
        break;
    case HD_OP_SHF: case HD_OP_PRMT:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0);
        break;
    case HD_OP_BFE:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0);
        add(S, SL_SRC, HD_T_U32, 0); add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_BFI:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0);
        add(S, SL_SRC, HD_T_U32, 0); add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_LOP3:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0);
        add(S, SL_IMM, HD_T_U32, 0);
        break;
    case HD_OP_DP4A: case HD_OP_DP2A: {
        enum hd_type d = hd_type_is_signed(T) || hd_type_is_signed(T2) ? HD_T_S32 : HD_T_U32;
        add(S, SL_DST, d, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T2, 0); add(S, SL_SRC, d, 0);
        break;
    }
    case HD_OP_TESTP:
        add(S, SL_PDST, HD_T_PRED, 0); add(S, SL_SRC, T, 0);
        break;
    case HD_OP_SET: case HD_OP_SETP:
        if (in->op == HD_OP_SET)
            add(S, SL_DST, T2, 0);
        else
            add(S, SL_PDST, HD_T_PRED, 0);
        if (pred_out)
            add(S, SL_PDST, HD_T_PRED, 0);
        add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0);
        if (in->boolop != HD_BOOL_NONE)
            add(S, SL_PSRC, HD_T_PRED, SF_NEG);
        break;
    case HD_OP_SELP:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0);
        add(S, SL_PSRC, HD_T_PRED, 0);
        break;
    case HD_OP_SLCT:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, T2, 0);
        break;
    case HD_OP_MOV:
        add(S, SL_DST, T, SF_VEC);
        add(S, SL_SRC, T, SF_VEC | SF_SPECIAL | SF_SYMBOL);
        break;
    case HD_OP_CVT:
        if ((T == HD_T_F16X2 || T == HD_T_BF16X2) && T2 == HD_T_F32) {
            /* cvt.frnd2.f16x2.f32 d, a, b packs two conversions: a high, b low */
            need(p, in, in->rnd == HD_RND_RN || in->rnd == HD_RND_RZ,
                 "to .f16x2/.bf16x2 needs .rn or .rz");
            add(S, SL_DST, T, 0); add(S, SL_SRC, T2, 0); add(S, SL_SRC, T2, 0);
            break;
        }
        add(S, SL_DST, T, SF_WIDE); add(S, SL_SRC, T2, SF_WIDE | SF_SPECIAL);
        break;
    case HD_OP_CVTA:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, SF_SYMBOL);
        break;
    case HD_OP_ISSPACEP:
        add(S, SL_PDST, HD_T_PRED, 0); add(S, SL_SRC, HD_T_NONE, SF_ANYREG | SF_SYMBOL);
        break;
    case HD_OP_LD: case HD_OP_LDU:
        add(S, SL_DST, T, SF_WIDE | vec); add(S, SL_ADDR, HD_T_NONE, 0);
        break;
    case HD_OP_ST:
        add(S, SL_ADDR, HD_T_NONE, 0); add(S, SL_SRC, T, SF_WIDE | vec);
        break;
    case HD_OP_ATOM:
        add(S, SL_DST, T, 0); add(S, SL_ADDR, HD_T_NONE, 0); add(S, SL_SRC, T, 0);
        if (in->atom == HD_ATOM_CAS)
            add(S, SL_SRC, T, 0);
        break;
    case HD_OP_RED:
        add(S, SL_ADDR, HD_T_NONE, 0); add(S, SL_SRC, T, 0);
        break;
    case HD_OP_PREFETCH:
        add(S, SL_ADDR, HD_T_NONE, 0);
        break;
    case HD_OP_BAR: case HD_OP_BARRIER:
        if (in->mode == HD_MODE_BAR_WARP_SYNC) {
            add(S, SL_SRC, HD_T_U32, 0);
        } else if (in->mode == HD_MODE_BAR_SYNC || in->mode == HD_MODE_BAR_ARRIVE) {
            add(S, SL_SRC, HD_T_U32, 0);
            if (in->mode == HD_MODE_BAR_SYNC)
                optional_from_here(S, &min);
            add(S, SL_SRC, HD_T_U32, 0);
        } else {
            add(S, in->type == HD_T_PRED ? SL_PDST : SL_DST, T, 0);
            add(S, SL_SRC, HD_T_U32, 0);
            if (in->nopnds == 4)
                add(S, SL_SRC, HD_T_U32, 0);
            add(S, SL_PSRC, HD_T_PRED, SF_NEG);
        }
        break;
    case HD_OP_BRA:
        add(S, SL_LABEL, HD_T_NONE, 0);
        break;
    case HD_OP_NANOSLEEP:
        add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_SHFL:
        add(S, SL_DST, T, 0);
        if (pred_out)
            add(S, SL_PDST, HD_T_PRED, 0);
        add(S, SL_SRC, T, 0); add(S, SL_SRC, HD_T_U32, 0); add(S, SL_SRC, HD_T_U32, 0);
        if (in->flags & HD_F_SYNC)
            add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_VOTE:
        if (in->mode == HD_MODE_VOTE_BALLOT)
            add(S, SL_DST, T, 0);
        else
            add(S, SL_PDST, HD_T_PRED, 0);
        add(S, SL_PSRC, HD_T_PRED, SF_NEG);
        if (in->flags & HD_F_SYNC)
            add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_MATCH:
        add(S, SL_DST, HD_T_B32, 0);
        if (pred_out)
            add(S, SL_PDST, HD_T_PRED, 0);
        add(S, SL_SRC, T, 0); add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_ACTIVEMASK:
        add(S, SL_DST, T, 0);
        break;
    case HD_OP_REDUX:
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, HD_T_U32, 0);
        break;
    case HD_OP_PMEVENT:
        add(S, SL_IMM, HD_T_U32, 0);
        break;
    case HD_OP_FNS: /* fns.b32 d, mask, base, offset */
        add(S, SL_DST, T, 0); add(S, SL_SRC, T, 0); add(S, SL_SRC, HD_T_U32, 0);
        add(S, SL_SRC, HD_T_S32, 0);
        break;
    case HD_OP_VABSDIFF2: case HD_OP_VABSDIFF4: /* d, a, b, c (no element selectors) */
        add(S, SL_DST, T, 0); add(S, SL_SRC, T2, 0); add(S, SL_SRC, T2, 0);
        add(S, SL_SRC, T, 0);
        break;
    default: /* membar, fence, ret, exit, trap, brkpt: no operands */
        break;
    }
    if (min <= HD_MAX_OPERANDS)
        S->min = min;
}
/* }==== */

/* {==== Checking operands against slots ==== */
/* PTX operand type rules (ISA "Operand type information"): see the file comment. */
static bool reg_fits(enum hd_type r, enum hd_type t, unsigned flags)
{
    if (flags & SF_ANYREG)
        return r != HD_T_PRED;
    if (t == HD_T_PRED || r == HD_T_PRED)
        return t == r;
    unsigned rb = hd_type_bytes(r), tb = hd_type_bytes(t);
    if (rb != tb)
        return (flags & SF_WIDE) && rb > tb && is_bitint(t) && is_bitint(r);
    if (is_bit(t) || is_bit(r))
        return true;
    if (hd_type_is_float(t) || hd_type_is_float(r))
        return t == r;
    return true;
}

static unsigned sreg_bytes(enum hd_special_reg s)
{
    /* PTX ISA: %clock64, %globaltimer and %gridid are .u64; the others .u32 */
    return s == HD_SREG_CLOCK64 || s == HD_SREG_GLOBALTIMER || s == HD_SREG_GRIDID ? 8 : 4;
}

static const struct hd_var *symbol_var(const struct hd_ptx_parser *p, const struct hd_operand *o)
{
    switch (o->scope) {
    case HD_SCOPE_FUNC_LOCAL: return &p->f->locals[o->symbol];
    case HD_SCOPE_PARAM: return &p->f->params[o->symbol];
    case HD_SCOPE_RET: return &p->f->rets[o->symbol];
    default: return &p->m->globals[o->symbol];
    }
}

static void fail_opnd(struct hd_ptx_parser *p, const struct hd_instr *in,
                      const struct hd_ptx_opnd_info *at, uint32_t k, const char *what)
{
    hd_ptx_fail_at(p, at->line, at->col, "operand %u of '%s': %s", (unsigned)k + 1,
                   hd_op_name((enum hd_op)in->op), what);
}

static void check_reg(struct hd_ptx_parser *p, const struct hd_instr *in,
                      const struct hd_ptx_opnd_info *at, uint32_t k, int32_t reg, enum hd_type t,
                      unsigned flags)
{
    const struct hd_reg *r = &p->f->regs[reg];
    if (reg_fits((enum hd_type)r->type, t, flags))
        return;
    char msg[160];
    if (t == HD_T_PRED)
        snprintf(msg, sizeof msg, "'%s' is not a predicate register", r->name);
    else
        snprintf(msg, sizeof msg, "register '%s' (.%s) does not match type .%s", r->name,
                 hd_type_name((enum hd_type)r->type), hd_type_name(t));
    fail_opnd(p, in, at, k, msg);
}

static uint64_t to_f32_bits(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Normalises an immediate in a source slot of type t (see the file comment). */
static void check_imm(struct hd_ptx_parser *p, const struct hd_instr *in, struct hd_operand *o,
                      const struct hd_ptx_opnd_info *at, uint32_t k, enum hd_type t)
{
    double d;
    uint64_t u = (uint64_t)o->imm;
    if (t == HD_T_PRED) {
        /* Only mov.pred takes a constant for a predicate: 0, or 1 / -1 (true; nvcc -G writes
         * `mov.pred %p4, -1;`). The value keeps its bits; the predicate is bit 0. */
        if (in->op != HD_OP_MOV || o->kind != HD_OPND_IMM_INT ||
            (o->imm != 0 && o->imm != 1 && o->imm != -1))
            fail_opnd(p, in, at, k, "expected a predicate register");
        return;
    }
    if (t == HD_T_F32 || t == HD_T_F64) {
        if (o->kind == HD_OPND_IMM_INT) {
            d = (double)o->imm;
        } else if (o->kind == HD_OPND_IMM_F32) {
            float f;
            uint32_t w = (uint32_t)u;
            memcpy(&f, &w, sizeof f);
            d = (double)f;
        } else {
            memcpy(&d, &u, sizeof d);
        }
        if (t == HD_T_F32 && o->kind != HD_OPND_IMM_F32) {
            o->kind = HD_OPND_IMM_F32;
            o->imm = (int64_t)to_f32_bits(d);
        } else if (t == HD_T_F64 && o->kind != HD_OPND_IMM_F64) {
            o->kind = HD_OPND_IMM_F64;
            memcpy(&u, &d, sizeof u);
            o->imm = (int64_t)u;
        }
        return;
    }
    if (o->kind == HD_OPND_IMM_INT)
        return;
    /* 0f / 0d bits in an integer or bit slot of the same width are raw bits. */
    unsigned tb = hd_type_bytes(t);
    bool ok = !at->decimal && ((o->kind == HD_OPND_IMM_F32 && tb == 4) ||
                               (o->kind == HD_OPND_IMM_F64 && tb == 8));
    if (!ok)
        fail_opnd(p, in, at, k, "floating-point constant does not fit this operand's type");
}

static void check_source(struct hd_ptx_parser *p, const struct hd_instr *in, struct hd_operand *o,
                         const struct hd_ptx_opnd_info *at, uint32_t k, const struct slot *s)
{
    enum hd_type t = (enum hd_type)s->type;
    switch (o->kind) {
    case HD_OPND_REG:
        if (o->neg && !(s->flags & SF_NEG))
            fail_opnd(p, in, at, k, "'!' is not allowed here");
        check_reg(p, in, at, k, o->reg, t, s->flags);
        break;
    case HD_OPND_IMM_INT: case HD_OPND_IMM_F32: case HD_OPND_IMM_F64:
        check_imm(p, in, o, at, k, t);
        break;
    case HD_OPND_SPECIAL:
        if (!(s->flags & SF_SPECIAL))
            fail_opnd(p, in, at, k, "special registers can only be read by mov or cvt");
        if (sreg_bytes((enum hd_special_reg)o->sreg) != hd_type_bytes(t))
            fail_opnd(p, in, at, k, "special register size does not match the type");
        break;
    case HD_OPND_SYMBOL: case HD_OPND_FUNC:
        if (!(s->flags & SF_SYMBOL))
            fail_opnd(p, in, at, k, "an address of a variable can only be taken by mov or cvta");
        if (!(s->flags & SF_ANYREG) && !(is_bitint(t) && hd_type_bytes(t) >= 4))
            fail_opnd(p, in, at, k, "an address needs a 32- or 64-bit integer type");
        break;
    case HD_OPND_SINK:
        fail_opnd(p, in, at, k, "'_' can only be a destination");
        break;
    default:
        fail_opnd(p, in, at, k, "unexpected operand form");
    }
}

/* A constant element e of a packing mov's source vector: checks it fits its w-bit element and
 * moves its bits from vec[e] into o->imm (ptx_ir.h, vec_imm). */
static void pack_constant(struct hd_ptx_parser *p, const struct hd_instr *in, struct hd_operand *o,
                          const struct hd_ptx_opnd_info *at, uint32_t k, uint32_t e, unsigned w,
                          bool is_dst)
{
    char msg[96];
    if (is_dst || in->op != HD_OP_MOV)
        fail_opnd(p, in, at, k, is_dst ? "a constant cannot be a destination"
                                       : "a constant in a vector is only allowed in a packing mov");
    if (w * o->vec_n > 64)
        fail_opnd(p, in, at, k, "constants in a 128-bit vector are not supported");
    uint32_t v = (uint32_t)o->vec[e];
    bool fits = w == 32 || (v >> w) == 0 ||
                ((int32_t)v < 0 && (int32_t)v >= -(int32_t)(1u << (w - 1)));
    if (!fits) {
        snprintf(msg, sizeof msg, "constant does not fit a %u-bit element", w);
        fail_opnd(p, in, at, k, msg);
    }
    o->imm = (int64_t)((uint64_t)o->imm | (uint64_t)(v & (uint32_t)((1ull << w) - 1)) << (w * e));
    o->vec[e] = -1;
}

static void check_vector(struct hd_ptx_parser *p, const struct hd_instr *in, struct hd_operand *o,
                         const struct hd_ptx_opnd_info *at, uint32_t k, const struct slot *s,
                         bool is_dst)
{
    enum hd_type et = (enum hd_type)s->type;
    unsigned flags = s->flags;
    if (!(s->flags & SF_VEC))
        fail_opnd(p, in, at, k, "a vector is not allowed here");
    if (in->op == HD_OP_MOV) {
        /* mov packs or unpacks: {a, b} elements are a fraction of the type's width. */
        unsigned eb = hd_type_bytes(et) / o->vec_n;
        et = eb == 2 ? HD_T_B16 : eb == 4 ? HD_T_B32 : eb == 8 ? HD_T_B64 : HD_T_NONE;
        if (et == HD_T_NONE)
            fail_opnd(p, in, at, k, "vector size does not divide the type");
        flags = 0;
    } else if (o->vec_n != in->vec) {
        fail_opnd(p, in, at, k, "vector length does not match .v2/.v4");
    }
    o->imm = 0;
    for (uint32_t e = 0; e < o->vec_n; e++) {
        if (o->vec_imm & (1u << e)) {
            pack_constant(p, in, o, at, k, e, hd_type_bytes(et) * 8, is_dst);
            continue;
        }
        if (o->vec[e] < 0) {
            if (!is_dst)
                fail_opnd(p, in, at, k, "'_' can only be a destination");
            continue;
        }
        check_reg(p, in, at, k, o->vec[e], et, flags);
    }
}

static void check_address(struct hd_ptx_parser *p, const struct hd_instr *in,
                          const struct hd_operand *o, const struct hd_ptx_opnd_info *at, uint32_t k)
{
    if (o->kind != HD_OPND_ADDR)
        fail_opnd(p, in, at, k, "expected an address [...]");
    if (o->symbol >= 0 && in->space != HD_SPACE_NONE) {
        const struct hd_var *v = symbol_var(p, o);
        if (v->space != in->space) {
            char msg[160];
            snprintf(msg, sizeof msg, "'%s' is in .%s, not .%s", v->name,
                     hd_space_name((enum hd_space)v->space),
                     hd_space_name((enum hd_space)in->space));
            fail_opnd(p, in, at, k, msg);
        }
    }
}
/* }==== */

void hd_ptx_check_instr(struct hd_ptx_parser *p, struct hd_instr *in, uint32_t ntypes,
                        uint64_t seen, const struct hd_ptx_opnd_info *info)
{
    if (in->op == HD_OP_SET) { /* written set.cmp.dtype.stype; IR: type = compare, type2 = dest */
        uint8_t t = in->type;
        in->type = in->type2;
        in->type2 = t;
    }
    hd_ptx_check_modifiers(p, in, ntypes, seen);
    if (in->op == HD_OP_CALL)
        return; /* checked while parsing (ptx_instr.c) */
    if ((in->flags & HD_F_PRED_OUT) &&
        !(in->op == HD_OP_SETP || in->op == HD_OP_SHFL ||
          (in->op == HD_OP_MATCH && in->mode == HD_MODE_MATCH_ALL)))
        hd_ptx_fail_at(p, info[1].line, info[1].col, "'%s' has no '|' second destination",
                       hd_op_name((enum hd_op)in->op));
    struct slots S;
    build_slots(p, in, &S);
    if (in->nopnds < S.min || in->nopnds > S.n) {
        char range[32];
        if (S.min == S.n)
            snprintf(range, sizeof range, "%u", (unsigned)S.n);
        else
            snprintf(range, sizeof range, "%u to %u", (unsigned)S.min, (unsigned)S.n);
        hd_ptx_fail_at(p, in->line, in->col, "'%s' takes %s operand%s, found %u",
                       hd_op_name((enum hd_op)in->op), range, S.n == 1 ? "" : "s",
                       (unsigned)in->nopnds);
    }
    for (uint32_t k = 0; k < in->nopnds; k++) {
        struct hd_operand *o = &in->opnd[k];
        const struct slot *s = &S.s[k];
        const struct hd_ptx_opnd_info *at = &info[k];
        if (o->kind == HD_OPND_ADDR && s->kind != SL_ADDR)
            fail_opnd(p, in, at, k, "an address [...] is not allowed here");
        if (o->kind == HD_OPND_VEC) {
            check_vector(p, in, o, at, k, s, s->kind == SL_DST);
            continue;
        }
        if ((s->flags & SF_VEC) && in->vec > 1)
            fail_opnd(p, in, at, k, "expected a vector {...} for .v2/.v4");
        switch (s->kind) {
        case SL_DST: case SL_PDST:
            if (o->kind == HD_OPND_SINK)
                break;
            if (o->kind != HD_OPND_REG || o->neg)
                fail_opnd(p, in, at, k, "a destination must be a register");
            check_reg(p, in, at, k, o->reg, (enum hd_type)s->type, s->flags);
            break;
        case SL_SRC: case SL_PSRC:
            check_source(p, in, o, at, k, s);
            break;
        case SL_ADDR:
            check_address(p, in, o, at, k);
            break;
        case SL_LABEL:
            if (o->kind != HD_OPND_LABEL)
                fail_opnd(p, in, at, k, "expected a label");
            break;
        case SL_IMM:
            if (o->kind != HD_OPND_IMM_INT)
                fail_opnd(p, in, at, k, "expected an integer constant");
            break;
        default:
            break;
        }
    }
}
