/* SPDX-License-Identifier: MIT
 * ptx_format.c - prints one IR instruction back as PTX text, for ptx-info, traces and error
 * messages.
 *
 * The output re-parses to the same IR for everything the IR keeps. What the parser accepts and
 * drops (eviction hints, memory-order qualifiers and scopes of ld/st/atom, fence's .sc) is not
 * printed; fence prints as fence.acq_rel.<scope>. Labels are not kept in
 * the IR, so a branch target prints as $I<instruction index>. Output is always NUL-terminated and
 * truncated to the buffer.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ptx_parse.h"
#include "ptx_parser.h"

struct sbuf {
    char *b;
    size_t len, pos;
};

static void put(struct sbuf *s, const char *fmt, ...) HD_PTX_PRINTF(2, 3);
static void put(struct sbuf *s, const char *fmt, ...)
{
    if (s->pos + 1 >= s->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s->b + s->pos, s->len - s->pos, fmt, ap);
    va_end(ap);
    if (n > 0)
        s->pos = s->pos + (size_t)n < s->len ? s->pos + (size_t)n : s->len - 1;
}

/* {==== Modifier names ==== */
static const char *const cmp_names[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls",
                                        "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu",
                                        "num", "nan"};
static const char *const bool_names[] = {"", "and", "or", "xor"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi",
                                        "rna"};
static const char *const cache_names[] = {"", "ca", "cg", "cs", "lu", "cv", "wb", "wt"};
static const char *const atom_names[] = {"", "add", "min", "max", "inc", "dec", "cas", "exch",
                                         "and", "or", "xor"};

static const char *mode_name(unsigned m)
{
    static const char *const names[] = {
        [HD_MODE_LO] = "lo", [HD_MODE_HI] = "hi", [HD_MODE_WIDE] = "wide", [HD_MODE_TO] = "to",
        [HD_MODE_SHF_L] = "l", [HD_MODE_SHF_R] = "r", [HD_MODE_SHFL_UP] = "up",
        [HD_MODE_SHFL_DOWN] = "down", [HD_MODE_SHFL_BFLY] = "bfly", [HD_MODE_SHFL_IDX] = "idx",
        [HD_MODE_VOTE_ALL] = "all", [HD_MODE_VOTE_ANY] = "any", [HD_MODE_VOTE_UNI] = "uni",
        [HD_MODE_VOTE_BALLOT] = "ballot", [HD_MODE_PRMT_F4E] = "f4e", [HD_MODE_PRMT_B4E] = "b4e",
        [HD_MODE_PRMT_RC8] = "rc8", [HD_MODE_PRMT_ECL] = "ecl", [HD_MODE_PRMT_ECR] = "ecr",
        [HD_MODE_PRMT_RC16] = "rc16", [HD_MODE_BAR_SYNC] = "sync",
        [HD_MODE_BAR_ARRIVE] = "arrive", [HD_MODE_BAR_RED_POPC] = "red.popc",
        [HD_MODE_BAR_RED_AND] = "red.and", [HD_MODE_BAR_RED_OR] = "red.or",
        [HD_MODE_BAR_WARP_SYNC] = "warp.sync", [HD_MODE_TESTP_FINITE] = "finite",
        [HD_MODE_TESTP_INFINITE] = "infinite", [HD_MODE_TESTP_NUMBER] = "number",
        [HD_MODE_TESTP_NOTANUMBER] = "notanumber", [HD_MODE_TESTP_NORMAL] = "normal",
        [HD_MODE_TESTP_SUBNORMAL] = "subnormal", [HD_MODE_MATCH_ANY] = "any",
        [HD_MODE_MATCH_ALL] = "all", [HD_MODE_SCOPE_CTA] = "cta", [HD_MODE_SCOPE_GPU] = "gpu",
        [HD_MODE_SCOPE_SYS] = "sys",
    };
    return m < sizeof names / sizeof names[0] && names[m] ? names[m] : "";
}

#define NAME(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "?")

static void put_dot(struct sbuf *s, const char *name)
{
    if (name && name[0])
        put(s, ".%s", name);
}

static void put_types(struct sbuf *s, const struct hd_instr *in)
{
    if (in->type != HD_T_NONE)
        put_dot(s, hd_type_name((enum hd_type)in->type));
    if (in->type2 != HD_T_NONE)
        put_dot(s, hd_type_name((enum hd_type)in->type2));
}

static void put_arith_flags(struct sbuf *s, const struct hd_instr *in)
{
    if (in->flags & HD_F_APPROX)
        put(s, ".approx");
    if (in->flags & HD_F_FULL)
        put(s, ".full");
    if (in->flags & HD_F_FTZ)
        put(s, ".ftz");
    if (in->flags & HD_F_SAT)
        put(s, ".sat");
    if (in->flags & HD_F_CC)
        put(s, ".cc");
}
/* }==== */

/* {==== Opcode with modifiers ==== */
static void put_space(struct sbuf *s, const struct hd_instr *in)
{
    if (in->space != HD_SPACE_NONE)
        put_dot(s, hd_space_name((enum hd_space)in->space));
}

static void put_opcode(struct sbuf *s, const struct hd_instr *in)
{
    enum hd_op op = (enum hd_op)in->op;
    put(s, "%s", hd_op_name(op));
    switch (op) {
    case HD_OP_LD: case HD_OP_LDU: case HD_OP_ST:
        if (in->flags & HD_F_VOLATILE)
            put(s, ".volatile");
        put_space(s, in);
        put_dot(s, NAME(cache_names, in->cache));
        if (in->flags & HD_F_NC)
            put(s, ".nc");
        if (in->vec > 1)
            put(s, ".v%u", (unsigned)in->vec);
        put_types(s, in);
        break;
    case HD_OP_ATOM: case HD_OP_RED:
        put_space(s, in);
        put_dot(s, NAME(atom_names, in->atom));
        if (in->flags & HD_F_NOFTZ)
            put(s, ".noftz");
        put_types(s, in);
        break;
    case HD_OP_CVT:
        put_dot(s, NAME(rnd_names, in->rnd));
        put_arith_flags(s, in);
        put_types(s, in);
        break;
    case HD_OP_CVTA: case HD_OP_ISSPACEP:
        put_dot(s, mode_name(in->mode));
        put_space(s, in);
        put_types(s, in);
        break;
    case HD_OP_SET: case HD_OP_SETP:
        put_dot(s, NAME(cmp_names, in->cmp));
        put_dot(s, NAME(bool_names, in->boolop));
        put_arith_flags(s, in);
        if (op == HD_OP_SET)
            put_dot(s, hd_type_name((enum hd_type)in->type2));
        put_dot(s, hd_type_name((enum hd_type)in->type));
        break;
    case HD_OP_SHFL: case HD_OP_VOTE:
        if (in->flags & HD_F_SYNC)
            put(s, ".sync");
        put_dot(s, mode_name(in->mode));
        put_types(s, in);
        break;
    case HD_OP_MATCH:
        put_dot(s, mode_name(in->mode));
        put(s, ".sync");
        put_types(s, in);
        break;
    case HD_OP_REDUX:
        put(s, ".sync");
        put_dot(s, NAME(atom_names, in->atom));
        put_types(s, in);
        break;
    case HD_OP_BAR: case HD_OP_BARRIER:
        put_dot(s, mode_name(in->mode));
        if (op == HD_OP_BARRIER && (in->flags & HD_F_ALIGNED))
            put(s, ".aligned");
        put_types(s, in);
        break;
    case HD_OP_MEMBAR:
        put(s, ".%s", in->mode == HD_MODE_SCOPE_GPU ? "gl" : mode_name(in->mode));
        break;
    case HD_OP_FENCE:
        put(s, ".acq_rel");
        put_dot(s, mode_name(in->mode));
        break;
    case HD_OP_PRMT:
        put_types(s, in);
        put_dot(s, mode_name(in->mode));
        break;
    case HD_OP_SHF:
        put_dot(s, mode_name(in->mode));
        put(s, (in->flags & HD_F_CLAMP) ? ".clamp" : ".wrap");
        put_types(s, in);
        break;
    case HD_OP_BFIND:
        if (in->flags & HD_F_SHIFTAMT)
            put(s, ".shiftamt");
        put_types(s, in);
        break;
    case HD_OP_BRA: case HD_OP_CALL: case HD_OP_RET:
        if (in->flags & HD_F_UNI)
            put(s, ".uni");
        break;
    case HD_OP_PREFETCH:
        put_space(s, in);
        put(s, ".L2");
        break;
    case HD_OP_VABSDIFF2: case HD_OP_VABSDIFF4: /* .dtype.atype.btype{.sat}{.add} */
        put_types(s, in);
        put_dot(s, hd_type_name((enum hd_type)in->type2));
        put_arith_flags(s, in);
        put_dot(s, NAME(atom_names, in->atom));
        break;
    default:
        put_dot(s, mode_name(in->mode));
        put_dot(s, NAME(rnd_names, in->rnd));
        put_arith_flags(s, in);
        put_types(s, in);
        break;
    }
}
/* }==== */

/* {==== Operands ==== */
static const char *reg_name(const struct hd_func *f, int32_t r)
{
    return r >= 0 && (uint32_t)r < f->nregs ? f->regs[r].name : "%?";
}

static const char *symbol_name(const struct hd_func *f, const struct hd_operand *o)
{
    const struct hd_module *m = f->module;
    if (o->symbol < 0)
        return "?";
    uint32_t i = (uint32_t)o->symbol;
    switch (o->scope) {
    case HD_SCOPE_FUNC_LOCAL: return i < f->nlocals ? f->locals[i].name : "?";
    case HD_SCOPE_PARAM: return i < f->nparams ? f->params[i].name : "?";
    case HD_SCOPE_RET: return i < f->nrets ? f->rets[i].name : "?";
    default: return m && i < m->nglobals ? m->globals[i].name : "?";
    }
}

static const char *func_name(const struct hd_func *f, int32_t i)
{
    const struct hd_module *m = f->module;
    return m && i >= 0 && (uint32_t)i < m->nfuncs ? m->funcs[i].name : "?";
}

/* `bits`: the instruction type's width (places the constants of a packing mov's vector). */
static void put_operand(struct sbuf *s, const struct hd_func *f, const struct hd_operand *o,
                        unsigned bits)
{
    switch (o->kind) {
    case HD_OPND_REG:
        put(s, "%s%s", o->neg ? "!" : "", reg_name(f, o->reg));
        break;
    case HD_OPND_IMM_INT:
        put(s, "%" PRId64, o->imm);
        break;
    case HD_OPND_IMM_F32:
        put(s, "0f%08" PRIX32, (uint32_t)o->imm);
        break;
    case HD_OPND_IMM_F64:
        put(s, "0d%016" PRIX64, (uint64_t)o->imm);
        break;
    case HD_OPND_SPECIAL: {
        enum hd_special_reg r = (enum hd_special_reg)o->sreg;
        bool dims = r == HD_SREG_TID || r == HD_SREG_NTID || r == HD_SREG_CTAID ||
                    r == HD_SREG_NCTAID;
        put(s, "%s", hd_sreg_name(r));
        if (dims)
            put(s, ".%c", "xyz"[o->dim < 3 ? o->dim : 0]);
        break;
    }
    case HD_OPND_ADDR:
        if (o->reg >= 0)
            put(s, "[%s", reg_name(f, o->reg));
        else if (o->symbol >= 0)
            put(s, "[%s", symbol_name(f, o));
        else {
            put(s, "[%" PRId64 "]", o->imm);
            break;
        }
        if (o->imm != 0)
            put(s, "+%" PRId64, o->imm);
        put(s, "]");
        break;
    case HD_OPND_VEC:
        put(s, "{");
        for (uint32_t e = 0; e < o->vec_n && e < 4; e++) {
            if (o->vec_imm & (1u << e)) { /* a packed constant (ptx_ir.h) */
                unsigned w = bits / o->vec_n;
                uint64_t v = ((uint64_t)o->imm >> (w * e)) & (w < 64 ? (1ull << w) - 1 : ~0ull);
                put(s, "%s%" PRIu64, e ? ", " : "", v);
                continue;
            }
            put(s, "%s%s", e ? ", " : "", o->vec[e] < 0 ? "_" : reg_name(f, o->vec[e]));
        }
        put(s, "}");
        break;
    case HD_OPND_SYMBOL:
        put(s, "%s", symbol_name(f, o));
        break;
    case HD_OPND_LABEL: {
        const char *l = NULL; /* the first label written before the target */
        for (uint32_t i = 0; i < f->nlabels && !l; i++)
            if ((int64_t)f->labels[i].instr == o->imm)
                l = f->labels[i].name;
        if (l)
            put(s, "%s", l);
        else
            put(s, "$I%" PRId64, o->imm);
        break;
    }
    case HD_OPND_FUNC:
        put(s, "%s", func_name(f, o->symbol));
        break;
    case HD_OPND_SINK:
        put(s, "_");
        break;
    default:
        put(s, "?");
        break;
    }
}

static void put_list(struct sbuf *s, const struct hd_func *f, const struct hd_operand *v,
                     uint32_t n)
{
    put(s, "(");
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            put(s, ", ");
        put_operand(s, f, &v[i], 0);
    }
    put(s, ")");
}

static void put_call(struct sbuf *s, const struct hd_func *f, const struct hd_instr *in)
{
    const struct hd_operand *o = &in->opnd[0];
    const struct hd_call_site *cs =
        o->imm >= 0 && (uint64_t)o->imm < f->ncalls ? &f->calls[o->imm] : NULL;
    put(s, " ");
    if (cs && cs->nrets) {
        put_list(s, f, cs->rets, cs->nrets);
        put(s, ", ");
    }
    put(s, "%s", func_name(f, o->symbol));
    if (cs && (cs->nargs || (f->module && o->symbol >= 0 &&
                             (uint32_t)o->symbol < f->module->nfuncs))) {
        put(s, ", ");
        put_list(s, f, cs->args, cs->nargs);
    }
}

void hd_ptx_format_instr(const struct hd_func *f, const struct hd_instr *in, char *buf, size_t len)
{
    struct sbuf s = {buf, len, 0};
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    if (in->guard >= 0)
        put(&s, "@%s%s ", in->guard_neg ? "!" : "", reg_name(f, in->guard));
    put_opcode(&s, in);
    if (in->op == HD_OP_CALL && in->nopnds == 1) {
        put_call(&s, f, in);
    } else {
        for (uint32_t k = 0; k < in->nopnds && k < HD_MAX_OPERANDS; k++) {
            const char *sep = k == 0 ? " " : (k == 1 && (in->flags & HD_F_PRED_OUT)) ? "|" : ", ";
            put(&s, "%s", sep);
            put_operand(&s, f, &in->opnd[k], hd_type_bytes((enum hd_type)in->type) * 8);
        }
    }
    put(&s, ";");
}
/* }==== */
