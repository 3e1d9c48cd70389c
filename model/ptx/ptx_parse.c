/* SPDX-License-Identifier: MIT
 * ptx_parse.c - the PTX parser's module and function structure: directives, kernel and function
 * headers, bodies (blocks, labels, declarations, instructions), label resolution, and the
 * hd_ptx_parse() entry point with its error handling.
 *
 * The grammar is read top-down with one token of lookahead. A function's label references are
 * collected as fixups and resolved when its closing brace is reached, so forward branches work
 * and an undefined label is reported at the branch that names it. See ptx_parser.h for the error
 * discipline (first error wins, longjmp to the entry point, everything freed).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse.h"
#include "ptx_parser.h"

/* {==== Errors and tokens ==== */
void hd_ptx_fail_at(struct hd_ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    if (p->err && p->errlen) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(p->err, p->errlen, "%s:%u:%u: error: %s", p->filename, (unsigned)line,
                 (unsigned)col, msg);
    }
    longjmp(p->fail, 1);
}

const char *hd_ptx_tok_show(const struct hd_ptx_token *t, char *buf, size_t n)
{
    if (t->kind == HD_TOK_EOF)
        return "end of file";
    size_t o = 0;
    for (uint32_t i = 0; i < t->len && o + 5 < n; i++) {
        unsigned char c = (unsigned char)t->text[i];
        if (i >= 40) {
            snprintf(buf + o, n - o, "...");
            return buf;
        }
        if (c >= 0x20 && c < 0x7f && c != '\'')
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
    }
    buf[o < n ? o : n - 1] = '\0';
    return buf;
}

static void lex_checked(struct hd_ptx_parser *p, struct hd_ptx_token *t)
{
    hd_ptx_lex_next(&p->lx, t);
    if (t->kind == HD_TOK_ERROR)
        hd_ptx_fail_tok(p, t, "%s", t->msg);
}

void hd_ptx_next(struct hd_ptx_parser *p)
{
    p->prev_line = p->tok.line;
    p->prev_end_col = p->tok.col + p->tok.len;
    if (p->has_ahead) {
        p->tok = p->ahead;
        p->has_ahead = false;
    } else {
        lex_checked(p, &p->tok);
    }
}

const struct hd_ptx_token *hd_ptx_peek(struct hd_ptx_parser *p)
{
    if (!p->has_ahead) {
        lex_checked(p, &p->ahead);
        p->has_ahead = true;
    }
    return &p->ahead;
}

bool hd_ptx_accept_punct(struct hd_ptx_parser *p, char c)
{
    if (!hd_ptx_tok_punct(&p->tok, c))
        return false;
    hd_ptx_next(p);
    return true;
}

void hd_ptx_expect_punct(struct hd_ptx_parser *p, char c, const char *context)
{
    if (!hd_ptx_tok_punct(&p->tok, c)) {
        char b[64];
        if (c == ';')
            hd_ptx_fail_tok(p, &p->tok, "expected ';' %s, found '%s'", context,
                            hd_ptx_tok_show(&p->tok, b, sizeof b));
        hd_ptx_fail_tok(p, &p->tok, "expected '%c' %s, found '%s'", c, context,
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    }
    hd_ptx_next(p);
}

void *hd_ptx_alloc(struct hd_ptx_parser *p, size_t bytes)
{
    void *q = hd_ptx_arena_alloc(p->arena, bytes);
    if (!q)
        hd_ptx_fail_tok(p, &p->tok, "out of memory (the module exceeds the parser's limit)");
    return q;
}

void hd_ptx_reserve(struct hd_ptx_parser *p, void **array, uint32_t *cap, uint32_t need,
                    size_t elem, uint32_t limit, const char *what)
{
    if (need < *cap)
        return;
    if (need >= limit)
        hd_ptx_fail_tok(p, &p->tok, "too many %s (limit %u)", what, (unsigned)limit);
    uint32_t ncap = *cap ? *cap : 8;
    while (ncap <= need)
        ncap = ncap > limit / 2 ? limit : ncap * 2;
    void *q = hd_ptx_arena_grow(p->arena, *array, (size_t)*cap * elem, (size_t)ncap * elem);
    if (!q)
        hd_ptx_fail_tok(p, &p->tok, "out of memory (the module exceeds the parser's limit)");
    *array = q;
    *cap = ncap;
}

char *hd_ptx_strdup_tok(struct hd_ptx_parser *p, const struct hd_ptx_token *t)
{
    char *s = hd_ptx_arena_strndup(p->arena, t->text, t->len);
    if (!s)
        hd_ptx_fail_tok(p, t, "out of memory (the module exceeds the parser's limit)");
    return s;
}

uint64_t hd_ptx_expect_uint(struct hd_ptx_parser *p, uint64_t max, const char *what)
{
    char b[64];
    if (p->tok.kind != HD_TOK_INT)
        hd_ptx_fail_tok(p, &p->tok, "expected %s, found '%s'", what,
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    if (p->tok.u > max)
        hd_ptx_fail_tok(p, &p->tok, "%s %llu is out of range (at most %llu)", what,
                        (unsigned long long)p->tok.u, (unsigned long long)max);
    uint64_t v = p->tok.u;
    hd_ptx_next(p);
    return v;
}
/* }==== */

/* {==== Module directives ==== */
static void skip_section(struct hd_ptx_parser *p)
{
    /* .section name { ... } : debug sections; skipped with their balanced braces. */
    struct hd_ptx_token start = p->tok;
    hd_ptx_next(p);
    if (p->tok.kind != HD_TOK_DIR && p->tok.kind != HD_TOK_IDENT)
        hd_ptx_fail_tok(p, &p->tok, "expected a section name after .section");
    hd_ptx_next(p);
    hd_ptx_expect_punct(p, '{', "after the section name");
    uint32_t depth = 1;
    while (depth > 0) {
        if (p->tok.kind == HD_TOK_EOF)
            hd_ptx_fail_tok(p, &start, "unterminated .section");
        if (hd_ptx_tok_punct(&p->tok, '{'))
            depth++;
        else if (hd_ptx_tok_punct(&p->tok, '}'))
            depth--;
        hd_ptx_next(p);
    }
}

/* .loc and .file have no ';': skip the rest of their line. Needs no lookahead pending. */
static void skip_line_directive(struct hd_ptx_parser *p)
{
    if (!p->has_ahead)
        hd_ptx_lex_skip_line(&p->lx);
    hd_ptx_next(p);
}

static void parse_pragma(struct hd_ptx_parser *p)
{
    hd_ptx_next(p);
    do {
        if (p->tok.kind != HD_TOK_STRING)
            hd_ptx_fail_tok(p, &p->tok, "expected a string after .pragma");
        hd_ptx_next(p);
    } while (hd_ptx_accept_punct(p, ','));
    hd_ptx_expect_punct(p, ';', "after .pragma");
}

static void parse_version(struct hd_ptx_parser *p)
{
    struct hd_ptx_token at = p->tok;
    hd_ptx_next(p);
    if (p->tok.kind != HD_TOK_FLOAT || p->tok.len > 8)
        hd_ptx_fail_tok(p, &p->tok, "expected a version number like 9.0 after .version");
    const char *dot = memchr(p->tok.text, '.', p->tok.len);
    if (!dot || dot == p->tok.text || dot == p->tok.text + p->tok.len - 1)
        hd_ptx_fail_tok(p, &p->tok, "expected a version number like 9.0 after .version");
    uint32_t major = 0, minor = 0;
    for (const char *c = p->tok.text; c < dot; c++)
        major = major * 10 + (uint32_t)(*c - '0');
    for (const char *c = dot + 1; c < p->tok.text + p->tok.len; c++) {
        if (*c < '0' || *c > '9')
            hd_ptx_fail_tok(p, &p->tok, "expected a version number like 9.0 after .version");
        minor = minor * 10 + (uint32_t)(*c - '0');
    }
    if (major < 1 || major > 9)
        hd_ptx_fail_tok(p, &p->tok, "unsupported PTX ISA version %u.%u (this front end reads "
                        "1.x to 9.x)", (unsigned)major, (unsigned)minor);
    (void)at;
    p->m->version_major = major;
    p->m->version_minor = minor;
    hd_ptx_next(p);
}

static void parse_target(struct hd_ptx_parser *p)
{
    hd_ptx_next(p);
    if (p->tok.kind != HD_TOK_IDENT)
        hd_ptx_fail_tok(p, &p->tok, "expected a target like sm_75 after .target");
    if (!(p->tok.len > 3 && (memcmp(p->tok.text, "sm_", 3) == 0)) &&
        !(p->tok.len > 8 && memcmp(p->tok.text, "compute_", 8) == 0))
        hd_ptx_fail_tok(p, &p->tok, "unknown target '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len),
                        p->tok.text);
    p->m->target = hd_ptx_strdup_tok(p, &p->tok);
    hd_ptx_next(p);
    /* Optional platform options: texmode_unified, texmode_independent, debug, map_f64_to_f32. */
    while (hd_ptx_accept_punct(p, ',')) {
        if (!(hd_ptx_tok_is(&p->tok, "texmode_unified") ||
              hd_ptx_tok_is(&p->tok, "texmode_independent") || hd_ptx_tok_is(&p->tok, "debug") ||
              hd_ptx_tok_is(&p->tok, "map_f64_to_f32"))) {
            char b[64];
            hd_ptx_fail_tok(p, &p->tok, "unknown .target option '%s'",
                            hd_ptx_tok_show(&p->tok, b, sizeof b));
        }
        hd_ptx_next(p);
    }
}

static void parse_address_size(struct hd_ptx_parser *p)
{
    hd_ptx_next(p);
    struct hd_ptx_token at = p->tok;
    uint64_t v = hd_ptx_expect_uint(p, 64, "an address size");
    if (v != 32 && v != 64)
        hd_ptx_fail_tok(p, &at, ".address_size must be 32 or 64");
    p->m->address_size = (uint32_t)v;
}
/* }==== */

/* {==== Functions ==== */
static void parse_param_list(struct hd_ptx_parser *p, struct hd_var **arr, uint32_t *n,
                             bool is_ret)
{
    uint32_t cap = 0;
    uint64_t end = 0; /* of the previous parameter: offsets follow the CUDA kernel ABI */
    hd_ptx_expect_punct(p, '(', "to open the parameter list");
    if (hd_ptx_accept_punct(p, ')'))
        return;
    do {
        struct hd_ptx_token name;
        hd_ptx_reserve(p, (void **)arr, &cap, *n, sizeof **arr, HD_PTX_MAX_DECLS, "parameters");
        hd_ptx_parse_param(p, &(*arr)[*n], &name);
        struct hd_var *v = &(*arr)[*n];
        uint64_t a = v->align > 1 ? v->align : 1;
        v->offset = (end + a - 1) / a * a; /* sizes are capped (HD_PTX_MAX_ARRAY): no overflow */
        end = v->offset + v->size;
        int64_t val = is_ret ? -1 - (int64_t)*n : (int64_t)*n;
        int r = hd_ptx_symtab_put(&p->params_tab, (*arr)[*n].name, name.len, val);
        if (r == 0)
            hd_ptx_fail_tok(p, &name, "duplicate parameter '%s'", (*arr)[*n].name);
        if (r < 0)
            hd_ptx_fail_tok(p, &name, "out of memory");
        (*n)++;
    } while (hd_ptx_accept_punct(p, ','));
    hd_ptx_expect_punct(p, ')', "to close the parameter list");
}

static void parse_dims(struct hd_ptx_parser *p, uint32_t dims[3])
{
    hd_ptx_next(p);
    dims[0] = dims[1] = dims[2] = 1; /* omitted dimensions are 1 */
    for (int i = 0; i < 3; i++) {
        struct hd_ptx_token at = p->tok;
        dims[i] = (uint32_t)hd_ptx_expect_uint(p, 1u << 20, "a thread count");
        if (dims[i] == 0)
            hd_ptx_fail_tok(p, &at, "a thread count must be at least 1");
        if (i < 2 && !hd_ptx_accept_punct(p, ','))
            break;
    }
}

/* Performance-tuning directives between the parameter list and the body. */
static void parse_perf_directives(struct hd_ptx_parser *p, struct hd_func *f)
{
    for (;;) {
        if (hd_ptx_tok_is(&p->tok, ".maxntid")) {
            parse_dims(p, f->maxntid);
        } else if (hd_ptx_tok_is(&p->tok, ".reqntid")) {
            parse_dims(p, f->reqntid);
        } else if (hd_ptx_tok_is(&p->tok, ".minnctapersm")) {
            hd_ptx_next(p);
            f->minnctapersm = (uint32_t)hd_ptx_expect_uint(p, 1u << 16, "a CTA count");
        } else if (hd_ptx_tok_is(&p->tok, ".maxnctapersm")) {
            hd_ptx_next(p);
            (void)hd_ptx_expect_uint(p, 1u << 16, "a CTA count");
        } else if (hd_ptx_tok_is(&p->tok, ".maxnreg")) {
            hd_ptx_next(p);
            f->maxnreg = (uint32_t)hd_ptx_expect_uint(p, 1u << 16, "a register count");
        } else if (hd_ptx_tok_is(&p->tok, ".noreturn")) {
            hd_ptx_next(p);
        } else if (hd_ptx_tok_is(&p->tok, ".pragma")) {
            parse_pragma(p);
        } else {
            return;
        }
    }
}

static void add_fixup_label(struct hd_ptx_parser *p, const char *name, uint32_t len,
                            uint32_t line, uint32_t col)
{
    int64_t v;
    if (hd_ptx_symtab_get(&p->labels_tab, name, len, &v))
        hd_ptx_fail_at(p, line, col, "duplicate label '%.*s'", (int)(len > 60 ? 60 : len), name);
    if (hd_ptx_symtab_put(&p->labels_tab, name, len, p->f->ninstrs) < 0)
        hd_ptx_fail_at(p, line, col, "out of memory");
    struct hd_func *f = p->f; /* keep the name for listings (capacity 4, 8, 16, ...) */
    const uint32_t n = f->nlabels;
    if (n == 0 || (n >= 4 && (n & (n - 1)) == 0)) {
        const size_t old = n, cap = n ? 2 * (size_t)n : 4;
        void *q = hd_ptx_arena_grow(p->arena, f->labels, old * sizeof *f->labels,
                                    cap * sizeof *f->labels);
        if (!q)
            hd_ptx_fail_at(p, line, col, "out of memory");
        f->labels = q;
    }
    f->labels[n].name = hd_ptx_arena_strndup(p->arena, name, len);
    if (!f->labels[n].name)
        hd_ptx_fail_at(p, line, col, "out of memory");
    f->labels[n].instr = f->ninstrs;
    f->nlabels = n + 1;
}

static void resolve_labels(struct hd_ptx_parser *p)
{
    struct hd_func *f = p->f;
    for (uint32_t i = 0; i < p->nfixups; i++) {
        const struct hd_ptx_fixup *x = &p->fixups[i];
        int64_t v;
        if (!hd_ptx_symtab_get(&p->labels_tab, x->name, x->len, &v))
            hd_ptx_fail_at(p, x->line, x->col, "undefined label '%.*s'",
                           (int)(x->len > 60 ? 60 : x->len), x->name);
        if (v >= (int64_t)f->ninstrs)
            hd_ptx_fail_at(p, x->line, x->col, "label '%.*s' has no instruction after it",
                           (int)(x->len > 60 ? 60 : x->len), x->name);
        f->instrs[x->instr].opnd[x->opnd].imm = v;
    }
    p->nfixups = 0;
}

static void parse_body_directive(struct hd_ptx_parser *p)
{
    char b[64];
    if (hd_ptx_tok_is(&p->tok, ".reg")) {
        hd_ptx_parse_reg_decl(p);
    } else if (hd_ptx_space_from_dir(&p->tok) != HD_SPACE_NONE) {
        hd_ptx_parse_var_decl(p, true, 0);
    } else if (hd_ptx_tok_is(&p->tok, ".pragma")) {
        parse_pragma(p);
    } else if (hd_ptx_tok_is(&p->tok, ".loc") || hd_ptx_tok_is(&p->tok, ".file")) {
        skip_line_directive(p);
    } else {
        hd_ptx_fail_tok(p, &p->tok, "unknown directive '%s' in a function body",
                        hd_ptx_tok_show(&p->tok, b, sizeof b));
    }
}

static void scopes_push(struct hd_ptx_parser *p)
{
    if (p->depth >= HD_PTX_MAX_NEST)
        hd_ptx_fail_tok(p, &p->tok, "blocks nested too deeply (limit %d)", HD_PTX_MAX_NEST);
    if (!hd_ptx_symtab_push(&p->regs_tab) || !hd_ptx_symtab_push(&p->locals_tab))
        hd_ptx_fail_tok(p, &p->tok, "out of memory");
    p->depth++;
}

static void parse_body(struct hd_ptx_parser *p)
{
    struct hd_ptx_token open = p->tok;
    hd_ptx_next(p);
    p->depth = 0;
    for (;;) {
        const struct hd_ptx_token *t = &p->tok;
        if (t->kind == HD_TOK_EOF) {
            hd_ptx_fail_tok(p, &open, "function body is not closed (missing '}')");
        } else if (hd_ptx_tok_punct(t, '}')) {
            if (p->depth == 0) {
                hd_ptx_next(p);
                break;
            }
            hd_ptx_symtab_pop(&p->regs_tab);
            hd_ptx_symtab_pop(&p->locals_tab);
            p->depth--;
            hd_ptx_next(p);
        } else if (hd_ptx_tok_punct(t, '{')) {
            scopes_push(p);
            hd_ptx_next(p);
        } else if (t->kind == HD_TOK_DIR) {
            parse_body_directive(p);
        } else if (t->kind == HD_TOK_IDENT && hd_ptx_tok_punct(hd_ptx_peek(p), ':')) {
            add_fixup_label(p, t->text, t->len, t->line, t->col);
            hd_ptx_next(p);
            hd_ptx_next(p);
        } else if (t->kind == HD_TOK_IDENT || hd_ptx_tok_punct(t, '@')) {
            hd_ptx_parse_instr(p);
        } else {
            char b[64];
            hd_ptx_fail_tok(p, t, "expected an instruction, found '%s'",
                            hd_ptx_tok_show(t, b, sizeof b));
        }
    }
    resolve_labels(p);
}

static bool same_signature(const struct hd_var *a, uint32_t na, const struct hd_var *b,
                           uint32_t nb)
{
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (a[i].size != b[i].size || a[i].type != b[i].type)
            return false;
    return true;
}

/* Finds or creates the module's entry for a function header just parsed. */
static uint32_t declare_function(struct hd_ptx_parser *p, const struct hd_func *h,
                                 const struct hd_ptx_token *name)
{
    struct hd_module *m = p->m;
    int64_t idx;
    if (hd_ptx_symtab_get(&p->funcs_tab, name->text, name->len, &idx)) {
        struct hd_func *old = &m->funcs[idx];
        if (old->has_body && h->has_body)
            hd_ptx_fail_tok(p, name, "redefinition of function '%s'", old->name);
        if (old->is_entry != h->is_entry ||
            !same_signature(old->params, old->nparams, h->params, h->nparams) ||
            !same_signature(old->rets, old->nrets, h->rets, h->nrets))
            hd_ptx_fail_tok(p, name, "'%s' does not match its earlier declaration", old->name);
        if (h->has_body) {
            char *keep = old->name;
            *old = *h;
            old->name = keep;
        }
        return (uint32_t)idx;
    }
    if (hd_ptx_symtab_get(&p->globals_tab, name->text, name->len, &idx))
        hd_ptx_fail_tok(p, name, "'%s' is already declared as a variable", h->name);
    hd_ptx_reserve(p, (void **)&m->funcs, &p->funcs_cap, m->nfuncs, sizeof *m->funcs,
                   HD_PTX_MAX_DECLS, "functions");
    m->funcs[m->nfuncs] = *h;
    if (hd_ptx_symtab_put(&p->funcs_tab, h->name, strlen(h->name), m->nfuncs) < 0)
        hd_ptx_fail_tok(p, name, "out of memory");
    return m->nfuncs++;
}

static void parse_function(struct hd_ptx_parser *p, unsigned linkage)
{
    struct hd_func h;
    memset(&h, 0, sizeof h);
    h.is_entry = hd_ptx_tok_is(&p->tok, ".entry");
    h.is_visible = (linkage & HD_PTX_LINK_VISIBLE) != 0;
    h.line = p->tok.line;
    hd_ptx_next(p);
    hd_ptx_symtab_clear(&p->params_tab);
    if (!h.is_entry && hd_ptx_tok_punct(&p->tok, '('))
        parse_param_list(p, &h.rets, &h.nrets, true);
    struct hd_ptx_token name = p->tok;
    if (name.kind != HD_TOK_IDENT || name.text[0] == '%') {
        char b[64];
        hd_ptx_fail_tok(p, &name, "expected a function name, found '%s'",
                        hd_ptx_tok_show(&name, b, sizeof b));
    }
    h.name = hd_ptx_strdup_tok(p, &name);
    hd_ptx_next(p);
    if (hd_ptx_tok_punct(&p->tok, '('))
        parse_param_list(p, &h.params, &h.nparams, false);
    parse_perf_directives(p, &h);
    if (hd_ptx_accept_punct(p, ';')) {
        (void)declare_function(p, &h, &name);
        return;
    }
    if (!hd_ptx_tok_punct(&p->tok, '{')) {
        char b[64];
        hd_ptx_fail_tok(p, &p->tok, "expected '{' or ';' after the header of '%s', found '%s'",
                        h.name, hd_ptx_tok_show(&p->tok, b, sizeof b));
    }
    if (linkage & HD_PTX_LINK_EXTERN)
        hd_ptx_fail_tok(p, &p->tok, ".extern function '%s' cannot have a body", h.name);
    h.has_body = true;
    uint32_t idx = declare_function(p, &h, &name);
    p->f = &p->m->funcs[idx];
    p->regs_cap = p->locals_cap = p->instrs_cap = p->calls_cap = 0;
    hd_ptx_symtab_clear(&p->regs_tab);
    hd_ptx_symtab_clear(&p->locals_tab);
    hd_ptx_symtab_clear(&p->labels_tab);
    parse_body(p);
    p->f = NULL;
}
/* }==== */

/* {==== Module ==== */
static unsigned parse_linkage(struct hd_ptx_parser *p)
{
    unsigned link = 0;
    for (;;) {
        unsigned bit = hd_ptx_tok_is(&p->tok, ".visible") ? HD_PTX_LINK_VISIBLE
                       : hd_ptx_tok_is(&p->tok, ".extern") ? HD_PTX_LINK_EXTERN
                       : hd_ptx_tok_is(&p->tok, ".weak")   ? HD_PTX_LINK_WEAK
                       : hd_ptx_tok_is(&p->tok, ".common") ? HD_PTX_LINK_COMMON
                                                           : 0;
        if (!bit)
            return link;
        if (link & bit)
            hd_ptx_fail_tok(p, &p->tok, "repeated linkage directive");
        link |= bit;
        hd_ptx_next(p);
    }
}

static void parse_module(struct hd_ptx_parser *p)
{
    bool seen_version = false, seen_target = false, seen_asize = false;
    char b[64];
    hd_ptx_next(p);
    p->m->address_size = 32; /* the PTX default when .address_size is absent */
    while (p->tok.kind != HD_TOK_EOF) {
        const struct hd_ptx_token *t = &p->tok;
        if (t->kind != HD_TOK_DIR)
            hd_ptx_fail_tok(p, t, "expected a directive, found '%s'", hd_ptx_tok_show(t, b, sizeof b));
        if (hd_ptx_tok_is(t, ".file") || hd_ptx_tok_is(t, ".loc")) {
            skip_line_directive(p);
            continue;
        }
        if (hd_ptx_tok_is(t, ".version")) {
            if (seen_version)
                hd_ptx_fail_tok(p, t, "duplicate .version directive");
            seen_version = true;
            parse_version(p);
            continue;
        }
        if (!seen_version)
            hd_ptx_fail_tok(p, t, "expected .version before '%s'", hd_ptx_tok_show(t, b, sizeof b));
        if (hd_ptx_tok_is(t, ".target")) {
            if (seen_target)
                hd_ptx_fail_tok(p, t, "duplicate .target directive");
            seen_target = true;
            parse_target(p);
            continue;
        }
        if (!seen_target)
            hd_ptx_fail_tok(p, t, "expected .target before '%s'", hd_ptx_tok_show(t, b, sizeof b));
        if (hd_ptx_tok_is(t, ".address_size")) {
            if (seen_asize)
                hd_ptx_fail_tok(p, t, "duplicate .address_size directive");
            seen_asize = true;
            parse_address_size(p);
        } else if (hd_ptx_tok_is(t, ".section")) {
            skip_section(p);
        } else if (hd_ptx_tok_is(t, ".pragma")) {
            parse_pragma(p);
        } else {
            unsigned link = parse_linkage(p);
            t = &p->tok;
            enum hd_space sp = hd_ptx_space_from_dir(t);
            if (hd_ptx_tok_is(t, ".entry") || hd_ptx_tok_is(t, ".func"))
                parse_function(p, link);
            else if (sp == HD_SPACE_GLOBAL || sp == HD_SPACE_CONST || sp == HD_SPACE_SHARED)
                hd_ptx_parse_var_decl(p, false, link);
            else
                hd_ptx_fail_tok(p, t, "unknown or misplaced directive '%s'",
                                hd_ptx_tok_show(t, b, sizeof b));
        }
    }
    if (!seen_version)
        hd_ptx_fail_tok(p, &p->tok, "no .version directive (is this a PTX file?)");
}

static void parser_release(struct hd_ptx_parser *p)
{
    hd_ptx_symtab_free(&p->globals_tab);
    hd_ptx_symtab_free(&p->funcs_tab);
    hd_ptx_symtab_free(&p->regs_tab);
    hd_ptx_symtab_free(&p->locals_tab);
    hd_ptx_symtab_free(&p->params_tab);
    hd_ptx_symtab_free(&p->labels_tab);
    free(p);
}

/* Runs the parser; on error the longjmp lands here and NULL is returned. Only `p`, which is
 * never modified, lives across setjmp. */
static struct hd_module *run_parser(struct hd_ptx_parser *p)
{
    if (setjmp(p->fail))
        return NULL;
    if (!p->arena)
        hd_ptx_fail_at(p, 1, 1, "out of memory");
    p->m = hd_ptx_alloc(p, sizeof *p->m);
    p->m->arena = p->arena;
    p->m->filename = hd_ptx_arena_strndup(p->arena, p->filename, strlen(p->filename));
    if (!p->m->filename)
        hd_ptx_fail_at(p, 1, 1, "out of memory");
    parse_module(p);
    for (uint32_t i = 0; i < p->m->nfuncs; i++)
        p->m->funcs[i].module = p->m;
    return p->m;
}

struct hd_module *hd_ptx_parse(const char *text, size_t len, const char *filename, char *err,
                               size_t errlen)
{
    const char *name = filename ? filename : "<input>";
    size_t n = text ? len : 0;
    if (err && errlen)
        err[0] = '\0';
    if (n > HD_PTX_MAX_INPUT) {
        if (err && errlen)
            snprintf(err, errlen, "%s:1:1: error: input is larger than %u MiB", name,
                     HD_PTX_MAX_INPUT >> 20);
        return NULL;
    }
    struct hd_ptx_parser *p = calloc(1, sizeof *p);
    if (!p) {
        if (err && errlen)
            snprintf(err, errlen, "%s:1:1: error: out of memory", name);
        return NULL;
    }
    p->filename = name;
    p->err = err;
    p->errlen = errlen;
    hd_ptx_lex_init(&p->lx, text ? text : "", n);
    /* Memory bound: generous for real PTX (a few bytes of IR per byte of text), hard for junk. */
    p->arena = hd_ptx_arena_create((size_t)(64u << 20) + 48 * n);
    struct hd_module *m = run_parser(p);
    if (!m) {
        hd_ptx_arena_destroy(p->arena);
    } else {
        uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits */
        for (size_t i = 0; i < n; i++)
            h = (h ^ (uint8_t)text[i]) * 0x100000001b3ull;
        m->text_hash = h;
    }
    parser_release(p);
    return m;
}
/* }==== */
