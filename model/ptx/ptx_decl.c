/* SPDX-License-Identifier: MIT
 * ptx_decl.c - PTX declarations: parameters, registers (with `%r<N>` ranges), and .global /
 * .const / .shared / .local / .param variables with alignment, array extents and initializers.
 *
 * A variable's size is computed in 64-bit arithmetic with overflow checks and capped at
 * HD_PTX_MAX_ARRAY. An initializer is converted here to the variable's little-endian bytes
 * (integers truncated to the element width, floating literals converted to the element format),
 * so later layers copy `init` into memory without knowing PTX literal syntax. A range `%r<N>`
 * declares %r0 .. %r(N-1), each with its own dense register index.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ptx_parser.h"

/* {==== Type and state-space directives ==== */
enum hd_type hd_ptx_type_from_dir(const struct hd_ptx_token *t)
{
    if (t->kind != HD_TOK_DIR || t->len < 3 || t->len > 7)
        return HD_T_NONE;
    char c = t->text[1];
    if (c != 'b' && c != 'u' && c != 's' && c != 'f' && c != 'p')
        return HD_T_NONE;
    for (int k = HD_T_NONE + 1; k < HD_T_COUNT; k++) {
        const char *n = hd_type_name((enum hd_type)k);
        if (n[0] == c && strlen(n) + 1 == t->len && memcmp(t->text + 1, n, t->len - 1) == 0)
            return (enum hd_type)k;
    }
    return HD_T_NONE;
}

enum hd_space hd_ptx_space_from_dir(const struct hd_ptx_token *t)
{
    if (t->kind != HD_TOK_DIR)
        return HD_SPACE_NONE;
    if (hd_ptx_tok_is(t, ".global"))
        return HD_SPACE_GLOBAL;
    if (hd_ptx_tok_is(t, ".shared") || hd_ptx_tok_is(t, ".shared::cta"))
        return HD_SPACE_SHARED;
    if (hd_ptx_tok_is(t, ".local"))
        return HD_SPACE_LOCAL;
    if (hd_ptx_tok_is(t, ".param") || hd_ptx_tok_is(t, ".param::entry") ||
        hd_ptx_tok_is(t, ".param::func"))
        return HD_SPACE_PARAM;
    if (hd_ptx_tok_is(t, ".const"))
        return HD_SPACE_CONST;
    return HD_SPACE_NONE;
}

static uint32_t parse_align(struct hd_ptx_parser *p)
{
    hd_ptx_next(p);
    struct hd_ptx_token at = p->tok;
    uint64_t a = hd_ptx_expect_uint(p, 1u << 16, "an alignment");
    if (a == 0 || (a & (a - 1)) != 0)
        hd_ptx_fail_tok(p, &at, "alignment %llu is not a power of two", (unsigned long long)a);
    return (uint32_t)a;
}

static void check_name(struct hd_ptx_parser *p, const char *what)
{
    if (p->tok.kind != HD_TOK_IDENT || hd_ptx_tok_is(&p->tok, "_")) {
        char b[64];
        hd_ptx_fail_tok(p, &p->tok, "expected %s name, found '%s'", what,
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    }
}

/* Array extents after a name: [N][M]... or [] (only first, size from initializer or extern). */
static uint64_t parse_extents(struct hd_ptx_parser *p, uint64_t elem, bool *unsized,
                              uint64_t dims[8], uint32_t *ndims)
{
    uint64_t count = 1;
    *unsized = false;
    *ndims = 0;
    while (hd_ptx_tok_punct(&p->tok, '[')) {
        struct hd_ptx_token at = p->tok;
        hd_ptx_next(p);
        if (*ndims == 8)
            hd_ptx_fail_tok(p, &at, "too many array dimensions");
        uint64_t n = 0;
        if (hd_ptx_tok_punct(&p->tok, ']')) {
            if (*ndims != 0)
                hd_ptx_fail_tok(p, &at, "only the first array dimension may be omitted");
            *unsized = true;
        } else {
            n = hd_ptx_expect_uint(p, HD_PTX_MAX_ARRAY, "an array size");
            if (n == 0)
                hd_ptx_fail_tok(p, &at, "array size must be at least 1");
        }
        hd_ptx_expect_punct(p, ']', "after the array size");
        dims[(*ndims)++] = n;
        if (n && count > HD_PTX_MAX_ARRAY / n)
            hd_ptx_fail_tok(p, &at, "array is too large");
        count *= n ? n : 1;
    }
    if (count > HD_PTX_MAX_ARRAY / elem)
        hd_ptx_fail_tok(p, &p->tok, "array is too large");
    return count * elem;
}
/* }==== */

/* {==== Parameters ==== */
void hd_ptx_parse_param(struct hd_ptx_parser *p, struct hd_var *v, struct hd_ptx_token *name)
{
    char b[64];
    memset(v, 0, sizeof *v);
    v->line = p->tok.line;
    v->space = HD_SPACE_PARAM;
    if (hd_ptx_space_from_dir(&p->tok) != HD_SPACE_PARAM)
        hd_ptx_fail_tok(p, &p->tok, "expected .param, found '%s'",
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    hd_ptx_next(p);
    bool ptr = false;
    while (p->tok.kind == HD_TOK_DIR) {
        enum hd_type ty = hd_ptx_type_from_dir(&p->tok);
        if (hd_ptx_tok_is(&p->tok, ".align")) {
            uint32_t a = parse_align(p);
            if (!ptr)
                v->align = a; /* .ptr .align N describes the pointee, not the parameter */
            continue;
        }
        if (ty != HD_T_NONE) {
            if (v->type != HD_T_NONE)
                hd_ptx_fail_tok(p, &p->tok, "parameter has two types");
            if (ty == HD_T_PRED)
                hd_ptx_fail_tok(p, &p->tok, ".pred parameters are not allowed");
            v->type = (uint8_t)ty;
        } else if (hd_ptx_tok_is(&p->tok, ".ptr")) {
            if (ptr || v->type == HD_T_NONE)
                hd_ptx_fail_tok(p, &p->tok, "misplaced .ptr");
            ptr = true;
        } else if (ptr && hd_ptx_space_from_dir(&p->tok) != HD_SPACE_NONE) {
            /* pointee state space: accepted, informational only */
        } else {
            hd_ptx_fail_tok(p, &p->tok, "unexpected '%s' in a parameter declaration",
                            hd_ptx_tok_show(&p->tok, b, sizeof b));
        }
        hd_ptx_next(p);
    }
    if (v->type == HD_T_NONE)
        hd_ptx_fail_tok(p, &p->tok, "parameter needs a type");
    check_name(p, "a parameter");
    *name = p->tok;
    v->name = hd_ptx_strdup_tok(p, &p->tok);
    hd_ptx_next(p);
    bool unsized;
    uint64_t dims[8];
    uint32_t nd;
    unsigned eb = hd_type_bytes((enum hd_type)v->type);
    v->size = parse_extents(p, eb, &unsized, dims, &nd);
    if (unsized)
        hd_ptx_fail_tok(p, name, "parameter '%s' needs an array size", v->name);
    if (v->align == 0)
        v->align = eb;
}
/* }==== */

/* {==== Registers ==== */
static void add_register(struct hd_ptx_parser *p, const struct hd_ptx_token *at, char *name,
                         size_t len, enum hd_type ty)
{
    struct hd_func *f = p->f;
    if (hd_ptx_sreg_lookup(name, len) != HD_SREG_NONE)
        hd_ptx_fail_tok(p, at, "'%s' is a special register and cannot be declared", name);
    hd_ptx_reserve(p, (void **)&f->regs, &p->regs_cap, f->nregs, sizeof *f->regs,
                   HD_PTX_MAX_REGS, "registers in one function");
    int r = hd_ptx_symtab_put(&p->regs_tab, name, len, f->nregs);
    if (r == 0)
        hd_ptx_fail_tok(p, at, "duplicate register '%s'", name);
    if (r < 0)
        hd_ptx_fail_tok(p, at, "out of memory");
    f->regs[f->nregs].name = name;
    f->regs[f->nregs].type = (uint8_t)ty;
    f->nregs++;
}

void hd_ptx_parse_reg_decl(struct hd_ptx_parser *p)
{
    char b[64];
    hd_ptx_next(p);
    if (hd_ptx_tok_is(&p->tok, ".v2") || hd_ptx_tok_is(&p->tok, ".v4"))
        hd_ptx_fail_tok(p, &p->tok, "vector registers are not supported");
    enum hd_type ty = hd_ptx_type_from_dir(&p->tok);
    if (ty == HD_T_NONE)
        hd_ptx_fail_tok(p, &p->tok, "expected a register type after .reg, found '%s'",
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    hd_ptx_next(p);
    do {
        check_name(p, "a register");
        struct hd_ptx_token name = p->tok;
        hd_ptx_next(p);
        if (!hd_ptx_tok_punct(&p->tok, '<')) {
            add_register(p, &name, hd_ptx_strdup_tok(p, &name), name.len, ty);
            continue;
        }
        hd_ptx_next(p);
        struct hd_ptx_token at = p->tok;
        uint64_t n = hd_ptx_expect_uint(p, HD_PTX_MAX_REGS, "a register count");
        hd_ptx_expect_punct(p, '>', "after the register count");
        if (n > HD_PTX_MAX_REGS - p->f->nregs)
            hd_ptx_fail_tok(p, &at, "too many registers in one function (limit %u)",
                            (unsigned)HD_PTX_MAX_REGS);
        /* One buffer for all member names: prefix + up to 7 digits + NUL each. */
        size_t stride = (size_t)name.len + 8;
        char *names = hd_ptx_alloc(p, stride * (size_t)(n ? n : 1));
        for (uint64_t i = 0; i < n; i++) {
            char *s = names + stride * i;
            memcpy(s, name.text, name.len);
            int k = snprintf(s + name.len, 8, "%u", (unsigned)i);
            add_register(p, &name, s, name.len + (size_t)k, ty);
        }
    } while (hd_ptx_accept_punct(p, ','));
    hd_ptx_expect_punct(p, ';', "after the register declaration");
}
/* }==== */

/* {==== Initializers ==== */
struct hd_init_state {
    struct hd_var *v;
    uint64_t elem;       /* bytes per scalar element */
    uint64_t capacity;   /* elements that fit (0: unsized, grows) */
    uint64_t cap_bytes;  /* allocated bytes of v->init */
    uint64_t next;       /* next element index */
    const uint64_t *dims;
    uint32_t ndims;
    uint32_t vec;
    uint32_t relocs_cap;
};

static void store_bytes(uint8_t *dst, uint64_t v, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        dst[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void init_store(struct hd_ptx_parser *p, struct hd_init_state *st,
                       const struct hd_ptx_token *at, uint64_t bits);

/* `sym`, `sym + N`, `generic(sym)`, `generic(sym) + N`: an address filled in by the loader. */
static void init_address(struct hd_ptx_parser *p, struct hd_init_state *st)
{
    char b[64];
    struct hd_ptx_token at = p->tok;
    struct hd_init_reloc r;
    memset(&r, 0, sizeof r);
    r.generic = hd_ptx_tok_is(&p->tok, "generic") && hd_ptx_tok_punct(hd_ptx_peek(p), '(');
    if (r.generic) {
        hd_ptx_next(p);
        hd_ptx_next(p);
    }
    struct hd_ptx_token sym = p->tok;
    int64_t idx;
    if (sym.kind != HD_TOK_IDENT || !hd_ptx_symtab_get(&p->globals_tab, sym.text, sym.len, &idx))
        hd_ptx_fail_tok(p, &sym, "%s '%s' in an initializer",
                        hd_ptx_symtab_get(&p->funcs_tab, sym.text, sym.len, &idx)
                            ? "function addresses are not supported:"
                            : "undeclared variable",
                        hd_ptx_tok_show(&sym, b, sizeof b));
    hd_ptx_next(p);
    if (r.generic)
        hd_ptx_expect_punct(p, ')', "after generic(");
    if (hd_ptx_tok_punct(&p->tok, '+') || hd_ptx_tok_punct(&p->tok, '-')) {
        bool neg = hd_ptx_tok_punct(&p->tok, '-');
        hd_ptx_next(p);
        uint64_t v = hd_ptx_expect_uint(p, INT64_MAX, "an address offset");
        r.addend = neg ? -(int64_t)v : (int64_t)v;
    }
    unsigned eb = hd_type_bytes((enum hd_type)st->v->type);
    if (!((eb == 8 || eb == 4) && !hd_type_is_float((enum hd_type)st->v->type)))
        hd_ptx_fail_tok(p, &at, "an address needs a 32- or 64-bit integer variable");
    r.offset = st->next * st->elem;
    r.symbol = (int32_t)idx;
    r.size = (uint8_t)eb;
    struct hd_var *v = st->v;
    hd_ptx_reserve(p, (void **)&v->relocs, &st->relocs_cap, v->nrelocs, sizeof *v->relocs,
                   HD_PTX_MAX_DECLS, "addresses in one initializer");
    v->relocs[v->nrelocs++] = r;
    init_store(p, st, &at, 0);
}

/* One scalar literal at the current token, stored at element st->next. */
static void init_scalar(struct hd_ptx_parser *p, struct hd_init_state *st)
{
    char b[64];
    struct hd_ptx_token at = p->tok;
    bool neg = hd_ptx_accept_punct(p, '-');
    const struct hd_ptx_token *t = &p->tok;
    enum hd_type ty = (enum hd_type)st->v->type;
    uint64_t bits;
    if (t->kind == HD_TOK_IDENT && !neg) {
        init_address(p, st);
        return;
    }
    if (t->kind != HD_TOK_INT && t->kind != HD_TOK_F32 && t->kind != HD_TOK_F64 &&
        t->kind != HD_TOK_FLOAT)
        hd_ptx_fail_tok(p, t, "expected a constant in the initializer, found '%s'",
                        hd_ptx_tok_show(t, b, sizeof b));
    if (ty == HD_T_F32 || ty == HD_T_F64) {
        double d = t->kind == HD_TOK_INT     ? (double)t->u
                   : t->kind == HD_TOK_F32   ? (double)bits_f32((uint32_t)t->u)
                   : t->kind == HD_TOK_F64   ? bits_f64(t->u)
                                             : t->f;
        if (neg)
            d = -d;
        bits = ty == HD_T_F64 ? f64_bits(d) : f32_bits((float)d);
    } else if (t->kind == HD_TOK_INT || ((t->kind == HD_TOK_F32 || t->kind == HD_TOK_F64) &&
                                          !hd_type_is_float(ty) && !neg)) {
        bits = neg ? (uint64_t)0 - t->u : t->u; /* raw bits of 0f/0d into .b/.u/.s */
    } else {
        hd_ptx_fail_tok(p, &at, "a floating-point constant cannot initialize a .%s variable",
                        hd_type_name(ty));
    }
    init_store(p, st, &at, bits);
    hd_ptx_next(p);
}

static void init_store(struct hd_ptx_parser *p, struct hd_init_state *st,
                       const struct hd_ptx_token *at, uint64_t bits)
{
    if (st->capacity && st->next >= st->capacity)
        hd_ptx_fail_tok(p, at, "too many initializers for '%s'", st->v->name);
    uint64_t need = (st->next + 1) * st->elem;
    if (need > st->cap_bytes) {
        uint64_t ncap = st->cap_bytes ? st->cap_bytes * 2 : 64;
        while (ncap < need)
            ncap *= 2;
        if (ncap > HD_PTX_MAX_ARRAY)
            hd_ptx_fail_tok(p, at, "initializer is too large");
        void *q = hd_ptx_arena_grow(p->arena, st->v->init, st->cap_bytes, ncap);
        if (!q)
            hd_ptx_fail_tok(p, at, "out of memory (the module exceeds the parser's limit)");
        st->v->init = q;
        st->cap_bytes = ncap;
    }
    store_bytes(st->v->init + st->next * st->elem, bits, st->elem);
    st->next++;
}

/* Elements covered by one brace at nesting `level` (1 = outermost). */
static uint64_t brace_span(const struct hd_init_state *st, uint32_t level)
{
    uint64_t n = st->vec;
    for (uint32_t k = level; k < st->ndims; k++)
        n *= st->dims[k];
    return n;
}

/* `{ a, b, { c, d }, ... }` with nesting bounded by HD_PTX_MAX_INIT_NEST, iteratively. */
static void init_list(struct hd_ptx_parser *p, struct hd_init_state *st)
{
    uint64_t start[HD_PTX_MAX_INIT_NEST + 1];
    uint32_t level = 0;
    for (;;) {
        if (hd_ptx_tok_punct(&p->tok, '{')) {
            if (level == HD_PTX_MAX_INIT_NEST)
                hd_ptx_fail_tok(p, &p->tok, "initializer nested too deeply");
            start[++level] = st->next;
            hd_ptx_next(p);
            if (hd_ptx_tok_punct(&p->tok, '}'))
                hd_ptx_fail_tok(p, &p->tok, "empty initializer list");
            continue;
        }
        init_scalar(p, st);
        while (level > 0 && hd_ptx_tok_punct(&p->tok, '}')) {
            /* A nested list pads to the end of its sub-array. */
            if (level > 1) {
                uint64_t span = brace_span(st, level - 1);
                if (st->next - start[level] > span)
                    hd_ptx_fail_tok(p, &p->tok, "too many initializers in a sub-array");
                st->next = start[level] + span;
            }
            level--;
            hd_ptx_next(p);
        }
        if (level == 0)
            return;
        hd_ptx_expect_punct(p, ',', "between initializers");
    }
}

static void parse_initializer(struct hd_ptx_parser *p, struct hd_var *v, bool unsized,
                              bool is_array, const uint64_t *dims, uint32_t ndims, uint32_t vec)
{
    struct hd_ptx_token at = p->tok;
    struct hd_init_state st;
    memset(&st, 0, sizeof st);
    st.v = v;
    st.elem = hd_type_bytes((enum hd_type)v->type);
    st.capacity = unsized ? 0 : v->size / st.elem;
    st.dims = dims;
    st.ndims = ndims;
    st.vec = vec;
    if (v->space != HD_SPACE_GLOBAL && v->space != HD_SPACE_CONST)
        hd_ptx_fail_tok(p, &at, "only .global and .const variables can be initialized");
    if (v->type == HD_T_PRED || (hd_type_is_float((enum hd_type)v->type) &&
                                 v->type != HD_T_F32 && v->type != HD_T_F64))
        hd_ptx_fail_tok(p, &at, "initializers of .%s variables are not supported",
                        hd_type_name((enum hd_type)v->type));
    if (hd_ptx_tok_punct(&p->tok, '{')) {
        if (!is_array && vec == 1)
            hd_ptx_fail_tok(p, &at, "a scalar needs a scalar initializer");
        init_list(p, &st);
    } else {
        if (is_array || vec > 1)
            hd_ptx_fail_tok(p, &at, "an array needs a { ... } initializer");
        init_scalar(p, &st);
    }
    if (unsized) {
        v->size = st.next * st.elem;
        return;
    }
    if (st.cap_bytes < v->size) {
        void *q = hd_ptx_arena_grow(p->arena, v->init, st.cap_bytes, v->size);
        if (!q)
            hd_ptx_fail_tok(p, &at, "out of memory (the module exceeds the parser's limit)");
        v->init = q;
    }
}
/* }==== */

/* {==== Variables ==== */
static void add_variable(struct hd_ptx_parser *p, bool in_function, const struct hd_var *v,
                         const struct hd_ptx_token *name)
{
    struct hd_module *m = p->m;
    int64_t idx;
    if (in_function) {
        struct hd_func *f = p->f;
        hd_ptx_reserve(p, (void **)&f->locals, &p->locals_cap, f->nlocals, sizeof *f->locals,
                       HD_PTX_MAX_DECLS, "local variables");
        int r = hd_ptx_symtab_put(&p->locals_tab, v->name, name->len, f->nlocals);
        if (r == 0)
            hd_ptx_fail_tok(p, name, "duplicate variable '%s'", v->name);
        if (r < 0)
            hd_ptx_fail_tok(p, name, "out of memory");
        f->locals[f->nlocals++] = *v;
        return;
    }
    if (hd_ptx_symtab_get(&p->globals_tab, v->name, name->len, &idx)) {
        struct hd_var *old = &m->globals[idx];
        /* An .extern declaration may precede (or follow) the definition. */
        if ((old->is_extern || v->is_extern) && old->space == v->space && old->type == v->type) {
            if (!v->is_extern)
                *old = *v;
            return;
        }
        hd_ptx_fail_tok(p, name, "duplicate variable '%s'", v->name);
    }
    if (hd_ptx_symtab_get(&p->funcs_tab, v->name, name->len, &idx))
        hd_ptx_fail_tok(p, name, "'%s' is already declared as a function", v->name);
    hd_ptx_reserve(p, (void **)&m->globals, &p->globals_cap, m->nglobals, sizeof *m->globals,
                   HD_PTX_MAX_DECLS, "global variables");
    if (hd_ptx_symtab_put(&p->globals_tab, v->name, name->len, m->nglobals) < 0)
        hd_ptx_fail_tok(p, name, "out of memory");
    m->globals[m->nglobals++] = *v;
}

void hd_ptx_parse_var_decl(struct hd_ptx_parser *p, bool in_function, unsigned linkage)
{
    char b[64];
    struct hd_var proto;
    memset(&proto, 0, sizeof proto);
    struct hd_ptx_token sp_tok = p->tok;
    proto.space = (uint8_t)hd_ptx_space_from_dir(&p->tok);
    proto.line = p->tok.line;
    proto.is_extern = (linkage & HD_PTX_LINK_EXTERN) != 0;
    proto.is_visible = (linkage & HD_PTX_LINK_VISIBLE) != 0;
    if (in_function && proto.space != HD_SPACE_SHARED && proto.space != HD_SPACE_LOCAL &&
        proto.space != HD_SPACE_PARAM)
        hd_ptx_fail_tok(p, &sp_tok, "%s variables cannot be declared inside a function",
                        hd_ptx_tok_show(&sp_tok, b, sizeof b));
    hd_ptx_next(p);
    uint32_t vec = 1;
    while (p->tok.kind == HD_TOK_DIR && proto.type == HD_T_NONE) {
        if (hd_ptx_tok_is(&p->tok, ".align")) {
            proto.align = parse_align(p);
            continue;
        }
        if (hd_ptx_tok_is(&p->tok, ".v2") || hd_ptx_tok_is(&p->tok, ".v4")) {
            if (vec != 1)
                hd_ptx_fail_tok(p, &p->tok, "repeated vector size");
            vec = p->tok.text[2] == '2' ? 2 : 4;
        } else {
            enum hd_type ty = hd_ptx_type_from_dir(&p->tok);
            if (ty == HD_T_NONE || ty == HD_T_PRED)
                hd_ptx_fail_tok(p, &p->tok, "unexpected '%s' in a variable declaration",
                                hd_ptx_tok_show(&p->tok, b, sizeof b));
            proto.type = (uint8_t)ty;
        }
        hd_ptx_next(p);
    }
    if (proto.type == HD_T_NONE)
        hd_ptx_fail_tok(p, &p->tok, "variable declaration needs a type");
    unsigned eb = hd_type_bytes((enum hd_type)proto.type) * vec;
    if (proto.align == 0)
        proto.align = eb;
    do {
        check_name(p, "a variable");
        struct hd_ptx_token name = p->tok;
        struct hd_var v = proto;
        v.name = hd_ptx_strdup_tok(p, &name);
        hd_ptx_next(p);
        bool unsized;
        uint64_t dims[8];
        uint32_t nd;
        v.size = parse_extents(p, eb, &unsized, dims, &nd);
        if (unsized)
            v.size = 0;
        if (hd_ptx_accept_punct(p, '='))
            parse_initializer(p, &v, unsized, nd > 0, dims, nd, vec);
        else if (unsized && !v.is_extern)
            hd_ptx_fail_tok(p, &name, "array '%s' needs a size (or .extern, or an initializer)",
                            v.name);
        add_variable(p, in_function, &v, &name);
    } while (hd_ptx_accept_punct(p, ','));
    hd_ptx_expect_punct(p, ';', "after the variable declaration");
}
/* }==== */
