/* SPDX-License-Identifier: MIT
 * test_ptx_decl.c - unit tests of the PTX front end on declarations: module directives, kernel
 * and function headers (parameters, .ptr attributes, performance directives, prototypes),
 * variables with alignment, extents and initializers, kernel parameter layout, module-level
 * errors, and the resource limits that keep hostile input bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse.h"
#include "testutil.h"

/* {==== Helpers ==== */
#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

static char err[1024];

static struct hd_module *parse(const char *src)
{
    return hd_ptx_parse(src, strlen(src), "d.ptx", err, sizeof err);
}

static struct hd_module *parse_ok(struct hd_test_state *t, const char *src)
{
    struct hd_module *m = parse(src);
    if (!HD_CHECK(t, m != NULL))
        fprintf(stderr, "  parse error: %s\n", err);
    return m;
}

static void expect_error(struct hd_test_state *t, const char *src, int line, int col,
                         const char *frag)
{
    struct hd_module *m = parse(src);
    char where[64];
    snprintf(where, sizeof where, "d.ptx:%d:%d: error: ", line, col);
    bool ok = m == NULL && strstr(err, where) == err && strstr(err, frag) != NULL;
    if (!HD_CHECK(t, ok))
        fprintf(stderr, "  expected %s...%s\n  got: %s\n", where, frag, m ? "(parsed)" : err);
    hd_ptx_module_free(m);
}

static const struct hd_var *global(const struct hd_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nglobals; i++)
        if (strcmp(m->globals[i].name, name) == 0)
            return &m->globals[i];
    return NULL;
}

static uint32_t u32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float f32_at(const uint8_t *p)
{
    uint32_t u = u32_at(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static double f64_at(const uint8_t *p)
{
    uint64_t u = (uint64_t)u32_at(p) | (uint64_t)u32_at(p + 4) << 32;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
/* }==== */

static void test_module_directives(struct hd_test_state *t)
{
    hd_test_begin(t, "module directives");
    struct hd_module *m = parse_ok(t, "// comment\n.version 8.5\n.target sm_86, debug\n"
                                      ".address_size 64\n.file 1 \"x.cu\"\n"
                                      ".section .debug_str { $str: .b8 65,0 }\n");
    if (m) {
        HD_CHECK_U64(t, 8, m->version_major);
        HD_CHECK_U64(t, 5, m->version_minor);
        HD_CHECK(t, strcmp(m->target, "sm_86") == 0);
        HD_CHECK_U64(t, 64, m->address_size);
        HD_CHECK(t, strcmp(m->filename, "d.ptx") == 0);
        HD_CHECK_U64(t, 0, m->nfuncs);
    }
    hd_ptx_module_free(m);
    m = parse_ok(t, ".version 9.0\n.target sm_75\n");
    HD_CHECK_U64(t, 32, m ? m->address_size : 0); /* the PTX default */
    hd_ptx_module_free(m);
    expect_error(t, "", 1, 1, "no .version directive");
    expect_error(t, ".target sm_75\n", 1, 1, "expected .version before '.target'");
    expect_error(t, ".version 10.0\n", 1, 10, "unsupported PTX ISA version 10.0");
    expect_error(t, ".version 9.0\n.entry k() { ret; }\n", 2, 1, "expected .target");
    expect_error(t, ".version 9.0\n.target gfx90a\n", 2, 9, "unknown target");
    expect_error(t, ".version 9.0\n.target sm_75\n.address_size 48\n", 3, 15, "must be 32 or 64");
    expect_error(t, HEADER ".bogus 1;\n", 4, 1, "unknown or misplaced directive '.bogus'");
    expect_error(t, HEADER "add.s32 %r1, %r1, 1;\n", 4, 1, "expected a directive");
    expect_error(t, HEADER ".section .debug_info { .b8 1\n", 4, 1, "unterminated .section");
}

static void test_kernel_headers(struct hd_test_state *t)
{
    hd_test_begin(t, "kernel and function headers");
    struct hd_module *m = parse_ok(
        t, HEADER
        ".extern .func (.param .b32 r) ext(.param .b64 p);\n"
        ".func (.param .b32 r) later(.param .b32 a);\n"
        ".weak .func nothing() { ret; }\n"
        ".visible .entry k(\n"
        "  .param .u64 .ptr .global .align 16 k_p0,\n"
        "  .param .u8 k_p1,\n"
        "  .param .align 8 .b8 k_p2[20],\n"
        "  .param .f64 k_p3,\n"
        "  .param .u32 k_p4\n"
        ")\n.maxntid 256, 1, 1\n.minnctapersm 2\n.maxnreg 64\n{\n ret;\n}\n"
        ".entry k2 .reqntid 128 { ret; }\n"
        ".func (.param .b32 r) later(.param .b32 b) { st.param.b32 [r], 0; ret; }\n");
    if (m) {
        HD_CHECK_U64(t, 5, m->nfuncs);
        int ki = hd_ptx_find_func(m, "k");
        HD_CHECK_U64(t, 3, ki);
        HD_CHECK(t, hd_ptx_find_func(m, "nope") == -1);
        const struct hd_func *k = &m->funcs[ki];
        HD_CHECK(t, k->is_entry && k->is_visible && k->has_body);
        HD_CHECK_U64(t, 5, k->nparams);
        HD_CHECK_U64(t, 8, k->params[0].align); /* .ptr .align describes the pointee */
        HD_CHECK_U64(t, HD_T_U64, k->params[0].type);
        HD_CHECK_U64(t, HD_SPACE_PARAM, k->params[0].space);
        HD_CHECK_U64(t, 20, k->params[2].size);
        HD_CHECK_U64(t, 8, k->params[2].align);
        HD_CHECK_U64(t, 256, k->maxntid[0]);
        HD_CHECK_U64(t, 1, k->maxntid[2]);
        HD_CHECK_U64(t, 2, k->minnctapersm);
        HD_CHECK_U64(t, 64, k->maxnreg);
        HD_CHECK_U64(t, 7, k->line);
        /* Layout: u64 @0, u8 @8, b8[20] align 8 @16, f64 @40, u32 @48; total 52. */
        HD_CHECK_U64(t, 0, hd_ptx_param_offset(k, 0));
        HD_CHECK_U64(t, 8, hd_ptx_param_offset(k, 1));
        HD_CHECK_U64(t, 16, hd_ptx_param_offset(k, 2));
        HD_CHECK_U64(t, 40, hd_ptx_param_offset(k, 3));
        HD_CHECK_U64(t, 48, hd_ptx_param_offset(k, 4));
        HD_CHECK_U64(t, 52, hd_ptx_param_bytes(k));
        const struct hd_func *k2 = &m->funcs[hd_ptx_find_func(m, "k2")];
        HD_CHECK_U64(t, 0, k2->nparams);
        HD_CHECK_U64(t, 0, hd_ptx_param_bytes(k2));
        HD_CHECK_U64(t, 128, k2->reqntid[0]);
        HD_CHECK_U64(t, 1, k2->reqntid[1]);
        const struct hd_func *ext = &m->funcs[0];
        HD_CHECK(t, !ext->has_body && !ext->is_entry);
        HD_CHECK_U64(t, 1, ext->nrets);
        const struct hd_func *later = &m->funcs[hd_ptx_find_func(m, "later")];
        HD_CHECK(t, later->has_body);
        HD_CHECK_U64(t, 1, hd_ptx_find_func(m, "later")); /* the prototype's slot */
        HD_CHECK(t, strcmp(later->params[0].name, "b") == 0);
        HD_CHECK(t, later->module == m);
    }
    hd_ptx_module_free(m);
    expect_error(t, HEADER ".entry k() { ret; }\n.entry k() { ret; }\n", 5, 8,
                 "redefinition of function 'k'");
    expect_error(t, HEADER ".func f(.param .b32 a);\n.func f(.param .b64 a) { ret; }\n", 5, 7,
                 "does not match its earlier declaration");
    expect_error(t, HEADER ".entry k(.param .u32 a, .param .u32 a) { ret; }\n", 4, 37,
                 "duplicate parameter 'a'");
    expect_error(t, HEADER ".entry k(.param .u32) { ret; }\n", 4, 21, "parameter name");
    expect_error(t, HEADER ".entry k(.param .pred p) { ret; }\n", 4, 17, ".pred parameters");
    expect_error(t, HEADER ".entry k(.reg .u32 p) { ret; }\n", 4, 10, "expected .param");
    expect_error(t, HEADER ".entry k() .maxntid 0 { ret; }\n", 4, 21, "at least 1");
    expect_error(t, HEADER ".extern .func f() { ret; }\n", 4, 19, "cannot have a body");
    expect_error(t, HEADER ".entry k() ret;\n", 4, 12, "expected '{' or ';'");
    expect_error(t, HEADER ".global .u32 k;\n.entry k() { ret; }\n", 5, 8,
                 "already declared as a variable");
}

static void test_variables(struct hd_test_state *t)
{
    hd_test_begin(t, "variables, alignment, extents, initializers");
    struct hd_module *m = parse_ok(
        t, HEADER
        ".global .align 4 .u32 scalar = 0xDEADBEEF;\n"
        ".const .align 4 .f32 coef[4] = {1.0, 0f3F000000, -2, 0.25};\n"
        ".const .align 8 .f64 dconst = 2.5;\n"
        ".global .align 1 .b8 bytes[6] = {1, 2, 255, 256, -1};\n"
        ".global .s16 shorts[] = {-2, 3};\n"
        ".global .align 4 .u32 grid[2][3] = {{1, 2}, {4, 5, 6}};\n"
        ".global .v2 .u32 pair = {7, 8};\n"
        ".global .u64 a, b[2] = {9, 10}, c;\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".shared .align 8 .f64 tile[16][16];\n"
        ".visible .global .align 4 .b32 vis;\n"
        ".global .f32 fromint[2] = {3, 0d3FF8000000000000};\n");
    if (m) {
        const struct hd_var *v = global(m, "scalar");
        HD_CHECK(t, v && v->size == 4 && v->init && u32_at(v->init) == 0xDEADBEEF);
        HD_CHECK_U64(t, HD_SPACE_GLOBAL, v ? v->space : 0);
        HD_CHECK_U64(t, 4, v ? v->line : 0);
        v = global(m, "coef");
        HD_CHECK(t, v && v->size == 16 && v->space == HD_SPACE_CONST && v->type == HD_T_F32);
        if (v && v->init) {
            HD_CHECK_F64(t, 1.0, f32_at(v->init), 0);
            HD_CHECK_F64(t, 0.5, f32_at(v->init + 4), 0);
            HD_CHECK_F64(t, -2.0, f32_at(v->init + 8), 0);
            HD_CHECK_F64(t, 0.25, f32_at(v->init + 12), 0);
        }
        v = global(m, "dconst");
        HD_CHECK(t, v && v->init && f64_at(v->init) == 2.5);
        v = global(m, "bytes");
        HD_CHECK(t, v && v->size == 6 && v->align == 1 && v->init);
        if (v && v->init) {
            static const uint8_t want[6] = {1, 2, 255, 0, 255, 0}; /* truncated, zero-filled */
            HD_CHECK(t, memcmp(v->init, want, 6) == 0);
        }
        v = global(m, "shorts");
        HD_CHECK(t, v && v->size == 4 && v->align == 2 && v->init && v->init[0] == 0xFE &&
                        v->init[1] == 0xFF && v->init[2] == 3);
        v = global(m, "grid");
        HD_CHECK(t, v && v->size == 24 && v->init);
        if (v && v->init) {
            static const uint32_t want[6] = {1, 2, 0, 4, 5, 6}; /* rows pad */
            for (int i = 0; i < 6; i++)
                HD_CHECK_U64(t, want[i], u32_at(v->init + 4 * i));
        }
        v = global(m, "pair");
        HD_CHECK(t, v && v->size == 8 && v->align == 8 && v->init && u32_at(v->init + 4) == 8);
        v = global(m, "b");
        HD_CHECK(t, v && v->size == 16 && v->init && v->init[8] == 10);
        v = global(m, "c");
        HD_CHECK(t, v && v->size == 8 && v->init == NULL);
        v = global(m, "dyn");
        HD_CHECK(t, v && v->is_extern && v->size == 0 && v->align == 16 &&
                        v->space == HD_SPACE_SHARED);
        v = global(m, "tile");
        HD_CHECK(t, v && v->size == 2048 && v->align == 8);
        v = global(m, "vis");
        HD_CHECK(t, v && v->is_visible && !v->is_extern);
        v = global(m, "fromint");
        HD_CHECK(t, v && v->init && f32_at(v->init) == 3.0f && f32_at(v->init + 4) == 1.5f);
        HD_CHECK_U64(t, 14, m->nglobals);
    }
    hd_ptx_module_free(m);

    hd_test_begin(t, "initializers holding addresses become relocations");
    m = parse_ok(t, HEADER ".global .align 4 .u32 v[4];\n.const .f32 c;\n"
                           ".global .align 8 .u64 p[3] = {generic(v), generic(v)+8, c};\n"
                           ".global .u32 q = v - 4;\n");
    if (m && m->nglobals == 4) {
        const struct hd_var *p = &m->globals[2];
        HD_CHECK_U64(t, 3, p->nrelocs);
        HD_CHECK_U64(t, 24, p->size);
        HD_CHECK(t, p->init != NULL && p->init[8] == 0);
        if (p->nrelocs == 3) {
            HD_CHECK_U64(t, 0, p->relocs[0].offset);
            HD_CHECK_U64(t, 0, p->relocs[0].symbol);
            HD_CHECK(t, p->relocs[0].generic && p->relocs[0].addend == 0);
            HD_CHECK_U64(t, 8, p->relocs[1].offset);
            HD_CHECK(t, p->relocs[1].addend == 8 && p->relocs[1].size == 8);
            HD_CHECK_U64(t, 16, p->relocs[2].offset);
            HD_CHECK_U64(t, 1, p->relocs[2].symbol);
            HD_CHECK(t, !p->relocs[2].generic);
        }
        const struct hd_var *q = &m->globals[3];
        HD_CHECK(t, q->nrelocs == 1 && q->relocs[0].addend == -4 && q->relocs[0].size == 4);
        HD_CHECK_U64(t, 0, m->globals[0].nrelocs);
    }
    hd_ptx_module_free(m);
    expect_error(t, HEADER ".global .u64 p = generic(nope);\n", 4, 26, "undeclared variable 'nope'");
    expect_error(t, HEADER ".func f() { ret; }\n.global .u64 p = f;\n", 5, 18,
                 "function addresses are not supported");
    expect_error(t, HEADER ".global .u32 v;\n.global .f64 p = v;\n", 5, 18, "32- or 64-bit integer");
    expect_error(t, HEADER ".global .u32 v;\n.global .u64 p = generic(v;\n", 5, 27, "expected ')'");

    hd_test_begin(t, "function-local variables");
    m = parse_ok(t, HEADER ".entry k() {\n.local .align 4 .b8 depot[28];\n"
                           ".shared .align 4 .u32 s[64];\n.reg .b64 %SP;\n"
                           "mov.u64 %SP, depot;\nret;\n}\n");
    if (m) {
        const struct hd_func *k = &m->funcs[0];
        HD_CHECK_U64(t, 2, k->nlocals);
        HD_CHECK_U64(t, HD_SPACE_LOCAL, k->locals[0].space);
        HD_CHECK_U64(t, 28, k->locals[0].size);
        HD_CHECK_U64(t, HD_SPACE_SHARED, k->locals[1].space);
        HD_CHECK_U64(t, 256, k->locals[1].size);
        HD_CHECK_U64(t, 1, k->nregs);
    }
    hd_ptx_module_free(m);

    hd_test_begin(t, "variable errors");
    expect_error(t, HEADER ".global .u32 x[];\n", 4, 14, "needs a size");
    expect_error(t, HEADER ".global .u32 x[2] = {1, 2, 3};\n", 4, 28, "too many initializers");
    expect_error(t, HEADER ".global .u32 x = {1};\n", 4, 18, "scalar initializer");
    expect_error(t, HEADER ".global .u32 x[2] = 1;\n", 4, 21, "{ ... } initializer");
    expect_error(t, HEADER ".global .u32 x = 1.5;\n", 4, 18, "floating-point constant");
    expect_error(t, HEADER ".shared .u32 x = 1;\n", 4, 18, "only .global and .const");
    expect_error(t, HEADER ".global .align 3 .u32 x;\n", 4, 16, "not a power of two");
    expect_error(t, HEADER ".global .u32 x;\n.global .u32 x;\n", 5, 14, "duplicate variable");
    expect_error(t, HEADER ".global .u32 x[0];\n", 4, 15, "at least 1");
    expect_error(t, HEADER ".global .u32 x[1099511627776];\n", 4, 30, "too large");
    expect_error(t, HEADER ".global .pred x;\n", 4, 9, "unexpected '.pred'");
    expect_error(t, HEADER ".global .u32 x\n", 5, 1, "expected ';' after the variable");
    expect_error(t, HEADER ".entry k() { .global .u32 g; ret; }\n", 4, 14,
                 "cannot be declared inside a function");
    expect_error(t, HEADER ".entry k() { .local .u32 v; .local .u32 v; ret; }\n", 4, 41,
                 "duplicate variable 'v'");
}

static void test_limits(struct hd_test_state *t)
{
    hd_test_begin(t, "limits bound memory and nesting");
    expect_error(t, HEADER ".entry k() { .reg .b32 %r<300000>; ret; }\n", 4, 27,
                 "out of range");
    char *deep = malloc(4096);
    if (deep) {
        int n = snprintf(deep, 4096, HEADER ".entry k() ");
        for (int i = 0; i < 100; i++)
            deep[n++] = '{';
        deep[n] = '\0';
        expect_error(t, deep, 4, 77, "nested too deeply");
        free(deep);
    }
    expect_error(t, HEADER ".global .u32 x[4] = {{{{{{{{{{1}}}}}}}}}};\n", 4, 29,
                 "nested too deeply");
    expect_error(t, HEADER ".global .b8 x[100000000] = {1};\n", 4, 28, "out of memory");
    /* A huge array without initializer costs nothing. */
    struct hd_module *m = parse_ok(t, HEADER ".global .b8 x[100000000000];\n");
    HD_CHECK(t, m && m->globals[0].size == 100000000000ull);
    hd_ptx_module_free(m);
    /* Binary junk, NUL bytes, non-terminated text. */
    static const char junk[] = ".version 9.0\n.target sm_75\n\0\0\xff";
    m = hd_ptx_parse(junk, sizeof junk - 1, "j.ptx", err, sizeof err);
    if (!HD_CHECK(t, m == NULL && strstr(err, "j.ptx:3:1: error: unexpected byte 0x00") == err))
        fprintf(stderr, "  got: %s\n", err);
    m = hd_ptx_parse(".version 9.0\n.target sm_75", 20, "n.ptx", err, sizeof err);
    if (!HD_CHECK(t, m == NULL && strstr(err, "n.ptx:2:8: error: expected a target") == err))
        fprintf(stderr, "  got: %s\n", err);
    m = hd_ptx_parse(NULL, 0, NULL, err, sizeof err);
    HD_CHECK(t, m == NULL && strstr(err, "<input>:1:1: error:") == err);
    m = hd_ptx_parse(HEADER, strlen(HEADER), "x.ptx", NULL, 0);
    HD_CHECK(t, m != NULL);
    hd_ptx_module_free(m);
    hd_ptx_module_free(NULL);
}

static void test_parse_file(struct hd_test_state *t)
{
    hd_test_begin(t, "hd_ptx_parse_file");
    struct hd_module *m = hd_ptx_parse_file("/nonexistent/dir/x.ptx", err, sizeof err);
    HD_CHECK(t, m == NULL && strstr(err, "/nonexistent/dir/x.ptx: cannot read: ") == err);
    char path[] = "/tmp/hd_ptx_test_XXXXXX";
    int fd = mkstemp(path);
    if (HD_CHECK(t, fd >= 0)) {
        FILE *fp = fdopen(fd, "w");
        fputs(HEADER ".entry k() { ret; }\n", fp);
        fclose(fp);
        m = hd_ptx_parse_file(path, err, sizeof err);
        HD_CHECK(t, m && m->nfuncs == 1 && strcmp(m->filename, path) == 0);
        hd_ptx_module_free(m);
        remove(path);
    }
}

int main(void)
{
    struct hd_test_state t = {0};
    test_module_directives(&t);
    test_kernel_headers(&t);
    test_variables(&t);
    test_limits(&t);
    test_parse_file(&t);
    return hd_test_finish(&t);
}
