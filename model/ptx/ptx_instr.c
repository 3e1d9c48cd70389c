/* SPDX-License-Identifier: MIT
 * ptx_instr.c - PTX instruction syntax: guard predicate, opcode, modifiers, operands (registers,
 * `!%p`, `_`, immediates, special registers, addresses, vectors, symbols, labels), the `call`
 * form, and appending the checked instruction to the current function.
 *
 * This file only recognises operand shapes and resolves names; whether a shape is legal for an
 * opcode, and what its modifiers mean, is decided in ptx_opspec.c. A branch target that is not yet
 * defined becomes a fixup resolved at the end of the function (ptx_parse.c).
 */
#include <string.h>

#include "ptx_parser.h"

/* {==== Names ==== */
static enum hd_op lookup_opcode(const struct hd_ptx_token *t)
{
    static const struct {
        const char *name;
        uint8_t len;
    } ops[HD_OP_COUNT] = {
#define HD_OP(id, name, cls) {name, sizeof(name) - 1},
#include "ptx_ops.def"
#undef HD_OP
    };
    for (int k = 0; k < HD_OP_COUNT; k++)
        if (ops[k].len == t->len && ops[k].name[0] == t->text[0] &&
            memcmp(ops[k].name, t->text, t->len) == 0)
            return (enum hd_op)k;
    return HD_OP_COUNT;
}

static bool find_register(struct hd_ptx_parser *p, const struct hd_ptx_token *t, int32_t *reg)
{
    int64_t v;
    if (!hd_ptx_symtab_get(&p->regs_tab, t->text, t->len, &v))
        return false;
    *reg = (int32_t)v;
    return true;
}

static void fail_undeclared(struct hd_ptx_parser *p, const struct hd_ptx_token *t)
{
    char b[64];
    hd_ptx_fail_tok(p, t, "undeclared %s '%s'", t->text[0] == '%' ? "register" : "identifier",
                    hd_ptx_tok_show(t, b, sizeof b));
}

/* A variable or parameter: local (innermost first), then parameter, then module scope. */
static bool find_symbol(struct hd_ptx_parser *p, const struct hd_ptx_token *t,
                        struct hd_operand *o)
{
    int64_t v;
    if (hd_ptx_symtab_get(&p->locals_tab, t->text, t->len, &v)) {
        o->scope = HD_SCOPE_FUNC_LOCAL;
    } else if (hd_ptx_symtab_get(&p->params_tab, t->text, t->len, &v)) {
        o->scope = v < 0 ? HD_SCOPE_RET : HD_SCOPE_PARAM;
        if (v < 0)
            v = -1 - v;
    } else if (hd_ptx_symtab_get(&p->globals_tab, t->text, t->len, &v)) {
        o->scope = HD_SCOPE_MODULE;
    } else {
        return false;
    }
    o->symbol = (int32_t)v;
    return true;
}

static void expect_pred_register(struct hd_ptx_parser *p, int32_t *reg)
{
    if (p->tok.kind != HD_TOK_IDENT || !find_register(p, &p->tok, reg)) {
        if (p->tok.kind == HD_TOK_IDENT)
            fail_undeclared(p, &p->tok);
        char b[64];
        hd_ptx_fail_tok(p, &p->tok, "expected a predicate register, found '%s'",
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    }
    if (p->f->regs[*reg].type != HD_T_PRED)
        hd_ptx_fail_tok(p, &p->tok, "'%s' is not a predicate register", p->f->regs[*reg].name);
    hd_ptx_next(p);
}
/* }==== */

/* {==== Operands ==== */
static void parse_special(struct hd_ptx_parser *p, struct hd_operand *o, enum hd_special_reg s)
{
    struct hd_ptx_token name = p->tok;
    o->kind = HD_OPND_SPECIAL;
    o->sreg = (uint8_t)s;
    hd_ptx_next(p);
    bool dims = s == HD_SREG_TID || s == HD_SREG_NTID || s == HD_SREG_CTAID || s == HD_SREG_NCTAID;
    if (!dims)
        return;
    const struct hd_ptx_token *d = &p->tok;
    if (d->kind != HD_TOK_DIR || d->space_before || d->len != 2 || d->text[1] < 'x' ||
        d->text[1] > 'z')
        hd_ptx_fail_tok(p, &name, "'%s' needs a component .x, .y or .z", hd_sreg_name(s));
    o->dim = (uint8_t)(d->text[1] - 'x');
    hd_ptx_next(p);
}

/* Literal at the current token (after an optional '-' already consumed: neg). */
static void parse_literal(struct hd_ptx_parser *p, struct hd_operand *o, bool neg,
                          struct hd_ptx_opnd_info *info)
{
    const struct hd_ptx_token *t = &p->tok;
    char b[64];
    switch (t->kind) {
    case HD_TOK_INT:
        o->kind = HD_OPND_IMM_INT;
        o->imm = (int64_t)(neg ? (uint64_t)0 - t->u : t->u);
        break;
    case HD_TOK_F32:
        o->kind = HD_OPND_IMM_F32;
        o->imm = (int64_t)(neg ? t->u ^ 0x80000000u : t->u);
        break;
    case HD_TOK_F64:
        o->kind = HD_OPND_IMM_F64;
        o->imm = (int64_t)(neg ? t->u ^ 0x8000000000000000ull : t->u);
        break;
    case HD_TOK_FLOAT: {
        double d = neg ? -t->f : t->f;
        uint64_t u;
        memcpy(&u, &d, sizeof u);
        o->kind = HD_OPND_IMM_F64;
        o->imm = (int64_t)u;
        info->decimal = true;
        break;
    }
    default:
        hd_ptx_fail_tok(p, t, "expected an operand, found '%s'", hd_ptx_tok_show(t, b, sizeof b));
    }
    hd_ptx_next(p);
}

static void parse_address(struct hd_ptx_parser *p, struct hd_operand *o)
{
    char b[64];
    struct hd_ptx_token open = p->tok;
    hd_ptx_next(p);
    o->kind = HD_OPND_ADDR;
    const struct hd_ptx_token *t = &p->tok;
    if (t->kind == HD_TOK_IDENT) {
        if (!find_register(p, t, &o->reg) && !find_symbol(p, t, o))
            fail_undeclared(p, t);
        if (o->reg >= 0 && p->f->regs[o->reg].type == HD_T_PRED)
            hd_ptx_fail_tok(p, t, "a predicate cannot be an address");
        hd_ptx_next(p);
        if (hd_ptx_tok_punct(&p->tok, '+') || hd_ptx_tok_punct(&p->tok, '-')) {
            bool neg = hd_ptx_tok_punct(&p->tok, '-');
            hd_ptx_next(p);
            if (!neg && hd_ptx_accept_punct(p, '-'))
                neg = true;
            if (p->tok.kind != HD_TOK_INT)
                hd_ptx_fail_tok(p, &p->tok, "expected an integer offset in the address, found '%s'",
                                hd_ptx_tok_show(&p->tok, b, sizeof b));
            o->imm = (int64_t)(neg ? (uint64_t)0 - p->tok.u : p->tok.u);
            hd_ptx_next(p);
        }
    } else if (t->kind == HD_TOK_INT) {
        o->imm = (int64_t)t->u;
        hd_ptx_next(p);
    } else {
        hd_ptx_fail_tok(p, t, "expected a register, variable or constant address, found '%s'",
                        hd_ptx_tok_show(t, b, sizeof b));
    }
    if (!hd_ptx_tok_punct(&p->tok, ']'))
        hd_ptx_fail_tok(p, &open, "address is not closed with ']' (found '%s')",
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    hd_ptx_next(p);
}

/* `{a, b}` / `{a, b, c, d}`: registers, `_`, or integer/0f constants. A constant's bits are kept
 * in vec[e] (flagged in vec_imm) until hd_ptx_check_instr decides whether the opcode takes it. */
static void parse_vector(struct hd_ptx_parser *p, struct hd_operand *o)
{
    char b[64];
    struct hd_ptx_token open = p->tok;
    hd_ptx_next(p);
    o->kind = HD_OPND_VEC;
    do {
        if (o->vec_n == 4)
            hd_ptx_fail_tok(p, &p->tok, "a vector has at most 4 elements");
        int32_t r = -1;
        bool neg = hd_ptx_tok_punct(&p->tok, '-');
        const struct hd_ptx_token *t = neg ? hd_ptx_peek(p) : &p->tok;
        if (t->kind == HD_TOK_INT || t->kind == HD_TOK_F32) {
            if (neg)
                hd_ptx_next(p);
            uint64_t u = p->tok.kind == HD_TOK_F32 ? (neg ? p->tok.u ^ 0x80000000u : p->tok.u)
                                                   : (neg ? (uint64_t)0 - p->tok.u : p->tok.u);
            if (p->tok.kind == HD_TOK_INT && (neg ? p->tok.u > 0x80000000u : u > 0xffffffffu))
                hd_ptx_fail_tok(p, &p->tok, "a constant in a vector must fit 32 bits");
            o->vec_imm |= (uint8_t)(1u << o->vec_n);
            o->vec[o->vec_n++] = (int32_t)(uint32_t)u;
            hd_ptx_next(p);
            continue;
        }
        if (p->tok.kind != HD_TOK_IDENT)
            hd_ptx_fail_tok(p, &p->tok, "expected a register or constant in the vector, found '%s'",
                            hd_ptx_tok_show(&p->tok, b, sizeof b));
        if (!hd_ptx_tok_is(&p->tok, "_") && !find_register(p, &p->tok, &r))
            fail_undeclared(p, &p->tok);
        o->vec[o->vec_n++] = r;
        hd_ptx_next(p);
    } while (hd_ptx_accept_punct(p, ','));
    if (!hd_ptx_tok_punct(&p->tok, '}'))
        hd_ptx_fail_tok(p, &open, "vector is not closed with '}' (found '%s')",
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    hd_ptx_next(p);
    if (o->vec_n != 2 && o->vec_n != 4)
        hd_ptx_fail_tok(p, &open, "a vector has 2 or 4 elements, not %u", (unsigned)o->vec_n);
}

static void add_fixup(struct hd_ptx_parser *p, const struct hd_ptx_token *t, uint32_t opnd)
{
    hd_ptx_reserve(p, (void **)&p->fixups, &p->fixups_cap, p->nfixups, sizeof *p->fixups,
                   HD_PTX_MAX_INSTRS, "branches");
    struct hd_ptx_fixup *x = &p->fixups[p->nfixups++];
    x->instr = p->f->ninstrs;
    x->opnd = opnd;
    x->line = t->line;
    x->col = t->col;
    x->name = t->text;
    x->len = t->len;
}

static void parse_operand(struct hd_ptx_parser *p, struct hd_instr *in, uint32_t k,
                          struct hd_ptx_opnd_info *info)
{
    struct hd_operand *o = &in->opnd[k];
    const struct hd_ptx_token *t = &p->tok;
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->symbol = -1;
    info->line = t->line;
    info->col = t->col;
    info->decimal = false;
    if (hd_ptx_tok_punct(t, '[')) {
        parse_address(p, o);
    } else if (hd_ptx_tok_punct(t, '{')) {
        parse_vector(p, o);
    } else if (hd_ptx_tok_punct(t, '!')) {
        hd_ptx_next(p);
        o->kind = HD_OPND_REG;
        o->neg = 1;
        expect_pred_register(p, &o->reg);
    } else if (hd_ptx_tok_punct(t, '-')) {
        hd_ptx_next(p);
        parse_literal(p, o, true, info);
    } else if (t->kind != HD_TOK_IDENT) {
        parse_literal(p, o, false, info);
    } else if (hd_ptx_tok_is(t, "_")) {
        o->kind = HD_OPND_SINK;
        hd_ptx_next(p);
    } else if (find_register(p, t, &o->reg)) {
        o->kind = HD_OPND_REG;
        hd_ptx_next(p);
    } else if (hd_ptx_sreg_lookup(t->text, t->len) != HD_SREG_NONE) {
        parse_special(p, o, hd_ptx_sreg_lookup(t->text, t->len));
    } else if (in->op == HD_OP_BRA && t->text[0] != '%') {
        o->kind = HD_OPND_LABEL;
        add_fixup(p, t, k);
        hd_ptx_next(p);
    } else if (find_symbol(p, t, o)) {
        o->kind = HD_OPND_SYMBOL;
        hd_ptx_next(p);
    } else {
        int64_t v;
        if (!hd_ptx_symtab_get(&p->funcs_tab, t->text, t->len, &v))
            fail_undeclared(p, t);
        o->kind = HD_OPND_FUNC;
        o->symbol = (int32_t)v;
        hd_ptx_next(p);
    }
}
/* }==== */

/* {==== call ==== */
static void parse_call_list(struct hd_ptx_parser *p, struct hd_operand **arr, uint32_t *n)
{
    uint32_t cap = 0;
    hd_ptx_expect_punct(p, '(', "to open the call's parameter list");
    if (hd_ptx_accept_punct(p, ')'))
        return;
    do {
        struct hd_instr tmp;
        struct hd_ptx_opnd_info info;
        memset(&tmp, 0, sizeof tmp);
        tmp.op = HD_OP_CALL;
        hd_ptx_reserve(p, (void **)arr, &cap, *n, sizeof **arr, HD_PTX_MAX_CALL_ARGS,
                       "values in one call");
        struct hd_ptx_token at = p->tok;
        parse_operand(p, &tmp, 0, &info);
        uint8_t k = tmp.opnd[0].kind;
        if (k == HD_OPND_ADDR || k == HD_OPND_VEC || k == HD_OPND_SINK || k == HD_OPND_SPECIAL)
            hd_ptx_fail_tok(p, &at, "a call passes parameters, registers or constants");
        (*arr)[(*n)++] = tmp.opnd[0];
    } while (hd_ptx_accept_punct(p, ','));
    hd_ptx_expect_punct(p, ')', "to close the call's parameter list");
}

static void parse_call(struct hd_ptx_parser *p, struct hd_instr *in)
{
    char b[64];
    struct hd_call_site cs;
    memset(&cs, 0, sizeof cs);
    if (hd_ptx_tok_punct(&p->tok, '(')) {
        parse_call_list(p, &cs.rets, &cs.nrets);
        hd_ptx_expect_punct(p, ',', "after the call's return list");
    }
    struct hd_ptx_token callee = p->tok;
    int64_t fi;
    if (callee.kind != HD_TOK_IDENT)
        hd_ptx_fail_tok(p, &callee, "expected the called function, found '%s'",
                        hd_ptx_tok_show(&callee, b, sizeof b));
    if (!hd_ptx_symtab_get(&p->funcs_tab, callee.text, callee.len, &fi)) {
        int32_t r;
        if (find_register(p, &callee, &r))
            hd_ptx_fail_tok(p, &callee, "indirect calls are not supported");
        hd_ptx_fail_tok(p, &callee, "call to undeclared function '%s'",
                        hd_ptx_tok_show(&callee, b, sizeof b));
    }
    hd_ptx_next(p);
    if (hd_ptx_accept_punct(p, ',')) {
        parse_call_list(p, &cs.args, &cs.nargs);
        if (hd_ptx_tok_punct(&p->tok, ','))
            hd_ptx_fail_tok(p, &p->tok, "call prototypes (indirect calls) are not supported");
    }
    const struct hd_func *g = &p->m->funcs[fi];
    if (g->is_entry)
        hd_ptx_fail_tok(p, &callee, "cannot call the kernel '%s'", g->name);
    if (cs.nargs != g->nparams)
        hd_ptx_fail_tok(p, &callee, "call to '%s' passes %u arguments, it takes %u", g->name,
                        (unsigned)cs.nargs, (unsigned)g->nparams);
    if (cs.nrets != 0 && cs.nrets != g->nrets)
        hd_ptx_fail_tok(p, &callee, "call to '%s' receives %u return values, it returns %u",
                        g->name, (unsigned)cs.nrets, (unsigned)g->nrets);
    struct hd_func *f = p->f;
    hd_ptx_reserve(p, (void **)&f->calls, &p->calls_cap, f->ncalls, sizeof *f->calls,
                   HD_PTX_MAX_INSTRS, "calls");
    f->calls[f->ncalls] = cs;
    in->opnd[0].kind = HD_OPND_FUNC;
    in->opnd[0].reg = -1;
    in->opnd[0].symbol = (int32_t)fi;
    in->opnd[0].imm = f->ncalls++;
    in->nopnds = 1;
}
/* }==== */

/* {==== Instruction ==== */
static void parse_operands(struct hd_ptx_parser *p, struct hd_instr *in,
                           struct hd_ptx_opnd_info *info)
{
    uint32_t k = 0;
    char b[64];
    for (;;) {
        if (k == HD_MAX_OPERANDS)
            hd_ptx_fail_tok(p, &p->tok, "too many operands for '%s'",
                            hd_op_name((enum hd_op)in->op));
        parse_operand(p, in, k, &info[k]);
        k++;
        if (k == 1 && hd_ptx_tok_punct(&p->tok, '|')) {
            hd_ptx_next(p);
            parse_operand(p, in, k, &info[k]);
            k++;
            in->flags |= HD_F_PRED_OUT;
        }
        if (!hd_ptx_accept_punct(p, ','))
            break;
    }
    in->nopnds = (uint8_t)k;
    if (!hd_ptx_tok_punct(&p->tok, ';') && !p->tok.newline_before && p->tok.kind != HD_TOK_EOF)
        hd_ptx_fail_tok(p, &p->tok, "expected ',' or ';' after an operand, found '%s'",
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
}

void hd_ptx_parse_instr(struct hd_ptx_parser *p)
{
    char b[64];
    struct hd_instr in;
    struct hd_ptx_opnd_info info[HD_MAX_OPERANDS];
    memset(&in, 0, sizeof in);
    memset(info, 0, sizeof info);
    in.guard = -1;
    in.vec = 1;
    if (hd_ptx_accept_punct(p, '@')) {
        in.guard_neg = hd_ptx_accept_punct(p, '!');
        expect_pred_register(p, &in.guard);
    }
    struct hd_ptx_token optok = p->tok;
    if (optok.kind != HD_TOK_IDENT)
        hd_ptx_fail_tok(p, &optok, "expected an opcode, found '%s'",
                        hd_ptx_tok_show(&optok, b, sizeof b));
    enum hd_op op = lookup_opcode(&optok);
    if (op == HD_OP_COUNT)
        hd_ptx_fail_tok(p, &optok, "unknown opcode '%s'", hd_ptx_tok_show(&optok, b, sizeof b));
    in.op = (uint16_t)op;
    in.line = optok.line;
    in.col = optok.col;
    hd_ptx_next(p);
    uint32_t ntypes = 0;
    uint64_t seen = 0;
    while (p->tok.kind == HD_TOK_DIR && !p->tok.space_before) {
        hd_ptx_apply_modifier(p, &in, &ntypes, &seen, &p->tok);
        hd_ptx_next(p);
    }
    if (op == HD_OP_CALL)
        parse_call(p, &in);
    else if (!hd_ptx_tok_punct(&p->tok, ';'))
        parse_operands(p, &in, info);
    if (!hd_ptx_tok_punct(&p->tok, ';'))
        hd_ptx_fail_at(p, p->prev_line, p->prev_end_col, "missing ';' after the instruction");
    hd_ptx_check_instr(p, &in, ntypes, seen, info);
    hd_ptx_next(p);
    struct hd_func *f = p->f;
    hd_ptx_reserve(p, (void **)&f->instrs, &p->instrs_cap, f->ninstrs, sizeof *f->instrs,
                   HD_PTX_MAX_INSTRS, "instructions in one function");
    f->instrs[f->ninstrs++] = in;
}
/* }==== */
