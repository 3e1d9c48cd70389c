/* SPDX-License-Identifier: MIT
 * test_ptx_parse.c - unit tests of the PTX front end on instruction fragments: every operand
 * form, modifiers and their IR encoding, immediates, labels, calls, scoping, formatting, and the
 * located errors of malformed instructions.
 *
 * Each case wraps a few lines in a kernel with a fixed set of registers and variables (see
 * wrap()), parses it, and checks the IR fields; error cases check the exact line:col.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse.h"
#include "testutil.h"

/* {==== Helpers ==== */
/* Lines 1..7 are the header and the register declarations; the body starts on line 8. */
static const char *const prologue =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".global .align 4 .u32 gv[4];\n"
    ".shared .align 4 .f32 sv[8];\n"
    ".func (.param .b32 rv) callee(.param .b32 a0, .param .b64 a1) { ret; }\n"
    ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1) { ";
static const char *const regs =
    ".reg .pred %p<4>; .reg .b16 %rs<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>;"
    " .reg .f32 %f<8>; .reg .f64 %fd<4>;\n";

static char text[8192];
static char err[1024];

/* Builds a module whose kernel `k` has the standard registers (line 8) then `body`. */
static const char *wrap(const char *body)
{
    snprintf(text, sizeof text, "%s%s%s\n}\n", prologue, regs, body);
    return text;
}

static struct hd_module *parse_body(const char *body)
{
    const char *src = wrap(body);
    return hd_ptx_parse(src, strlen(src), "t.ptx", err, sizeof err);
}

static const struct hd_func *kernel(const struct hd_module *m)
{
    int k = hd_ptx_find_func(m, "k");
    return k >= 0 ? &m->funcs[k] : NULL;
}

/* First instruction of the body of `k`. */
static struct hd_instr first(struct hd_test_state *t, const char *body, struct hd_module **out)
{
    struct hd_instr none;
    memset(&none, 0, sizeof none);
    struct hd_module *m = parse_body(body);
    *out = m;
    if (!HD_CHECK(t, m != NULL)) {
        fprintf(stderr, "  parse error: %s\n", err);
        return none;
    }
    const struct hd_func *f = kernel(m);
    if (!HD_CHECK(t, f && f->ninstrs > 0))
        return none;
    return f->instrs[0];
}

static int reg_index(const struct hd_module *m, const char *name)
{
    const struct hd_func *f = kernel(m);
    for (uint32_t i = 0; f && i < f->nregs; i++)
        if (strcmp(f->regs[i].name, name) == 0)
            return (int)i;
    return -2;
}

/* Expects a parse error at line:col whose message contains `frag`. */
static void expect_error(struct hd_test_state *t, const char *body, int line, int col,
                         const char *frag)
{
    struct hd_module *m = parse_body(body);
    char where[64];
    snprintf(where, sizeof where, "t.ptx:%d:%d: error: ", line, col);
    bool ok = m == NULL && strstr(err, where) == err && strstr(err, frag) != NULL;
    if (!HD_CHECK(t, ok))
        fprintf(stderr, "  body: %s\n  expected %s...%s\n  got: %s\n", body, where, frag,
                m ? "(parsed)" : err);
    hd_ptx_module_free(m);
}

static void expect_format(struct hd_test_state *t, const char *body, const char *want)
{
    struct hd_module *m;
    struct hd_instr in = first(t, body, &m);
    if (m) {
        char buf[256];
        hd_ptx_format_instr(kernel(m), &in, buf, sizeof buf);
        if (!HD_CHECK(t, strcmp(buf, want) == 0))
            fprintf(stderr, "  formatted '%s', expected '%s'\n", buf, want);
    }
    hd_ptx_module_free(m);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
/* }==== */

/* {==== Operand forms ==== */
static void test_registers_and_ranges(struct hd_test_state *t)
{
    hd_test_begin(t, "register ranges get dense indices");
    struct hd_module *m;
    struct hd_instr in = first(t, "add.s32 %r7, %r0, %r5;", &m);
    if (m) {
        const struct hd_func *f = kernel(m);
        HD_CHECK_U64(t, 4 + 4 + 8 + 8 + 8 + 4, f->nregs);
        HD_CHECK(t, strcmp(f->regs[reg_index(m, "%r0")].name, "%r0") == 0);
        HD_CHECK_U64(t, reg_index(m, "%r7"), in.opnd[0].reg);
        HD_CHECK_U64(t, reg_index(m, "%r0"), in.opnd[1].reg);
        HD_CHECK_U64(t, reg_index(m, "%r5"), in.opnd[2].reg);
        HD_CHECK_U64(t, HD_T_B32, f->regs[in.opnd[0].reg].type);
        HD_CHECK_U64(t, HD_T_PRED, f->regs[reg_index(m, "%p3")].type);
        HD_CHECK(t, reg_index(m, "%r8") == -2);
        HD_CHECK_U64(t, 3, in.nopnds);
        HD_CHECK_U64(t, 8, in.line);
        HD_CHECK_U64(t, 1, in.col);
    }
    hd_ptx_module_free(m);
    expect_error(t, "add.s32 %r1, %r2, %r8;", 8, 19, "undeclared register '%r8'");
    expect_error(t, ".reg .b32 %r<2>;", 8, 11, "duplicate register '%r0'");
    expect_error(t, ".reg .b32 %tid;", 8, 11, "special register");
}

static void test_immediates(struct hd_test_state *t)
{
    struct hd_module *m;
    struct hd_instr in;
    hd_test_begin(t, "integer immediates: decimal, hex, octal, binary, negative, U suffix");
    in = first(t, "add.s32 %r1, %r2, -17;", &m);
    HD_CHECK_U64(t, HD_OPND_IMM_INT, in.opnd[2].kind);
    HD_CHECK(t, in.opnd[2].imm == -17);
    hd_ptx_module_free(m);
    in = first(t, "and.b32 %r1, %r2, 0xFF00FF00;", &m);
    HD_CHECK_U64(t, 0xFF00FF00u, in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "and.b32 %r1, %r2, 017;", &m);
    HD_CHECK_U64(t, 15, in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "and.b32 %r1, %r2, 0b101;", &m);
    HD_CHECK_U64(t, 5, in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "add.u64 %rd1, %rd2, 4294967296U;", &m);
    HD_CHECK_U64(t, 4294967296ull, in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "mov.b64 %rd1, 0xFFFFFFFFFFFFFFFF;", &m);
    HD_CHECK(t, in.opnd[1].imm == -1);
    hd_ptx_module_free(m);

    hd_test_begin(t, "float immediates are normalised to the slot's format");
    in = first(t, "add.f32 %f1, %f2, 0f3F800000;", &m);
    HD_CHECK_U64(t, HD_OPND_IMM_F32, in.opnd[2].kind);
    HD_CHECK_U64(t, 0x3F800000u, in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "add.f32 %f1, %f2, 1.5;", &m);
    HD_CHECK_U64(t, HD_OPND_IMM_F32, in.opnd[2].kind);
    HD_CHECK_U64(t, f32_bits(1.5f), in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "mul.f32 %f1, %f2, 3;", &m);
    HD_CHECK_U64(t, HD_OPND_IMM_F32, in.opnd[2].kind);
    HD_CHECK_U64(t, f32_bits(3.0f), in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "add.f64 %fd1, %fd2, 0d4010000000000000;", &m);
    HD_CHECK_U64(t, HD_OPND_IMM_F64, in.opnd[2].kind);
    HD_CHECK_U64(t, f64_bits(4.0), in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "add.f64 %fd1, %fd2, 0f3F800000;", &m);
    HD_CHECK_U64(t, HD_OPND_IMM_F64, in.opnd[2].kind);
    HD_CHECK_U64(t, f64_bits(1.0), in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "add.f64 %fd1, %fd2, -2.5e-1;", &m);
    HD_CHECK_U64(t, f64_bits(-0.25), in.opnd[2].imm);
    hd_ptx_module_free(m);
    in = first(t, "mov.f32 %f1, -0f3F800000;", &m);
    HD_CHECK_U64(t, 0xBF800000u, in.opnd[1].imm);
    hd_ptx_module_free(m);
    in = first(t, "mov.b32 %r1, 0f40490FDB;", &m);
    HD_CHECK_U64(t, HD_OPND_IMM_F32, in.opnd[1].kind); /* raw bits in a .b32 slot */
    HD_CHECK_U64(t, 0x40490FDBu, in.opnd[1].imm);
    hd_ptx_module_free(m);
    expect_error(t, "add.s32 %r1, %r2, 1.5;", 8, 19, "floating-point constant");
    expect_error(t, "add.s32 %r1, %r2, 99999999999999999999;", 8, 19, "64 bits");
    expect_error(t, "add.f32 %f1, %f2, 0f3F80;", 8, 19, "8 hex digits");
    expect_error(t, "add.s32 %r1, %r2, 12abc;", 8, 19, "malformed number");
}

static void test_special_registers(struct hd_test_state *t)
{
    static const struct {
        const char *body;
        unsigned sreg, dim;
    } cases[] = {
        {"mov.u32 %r1, %tid.x;", HD_SREG_TID, 0},
        {"mov.u32 %r1, %ntid.y;", HD_SREG_NTID, 1},
        {"mov.u32 %r1, %ctaid.z;", HD_SREG_CTAID, 2},
        {"mov.u32 %r1, %nctaid.x;", HD_SREG_NCTAID, 0},
        {"mov.u32 %r1, %laneid;", HD_SREG_LANEID, 0},
        {"mov.u32 %r1, %warpid;", HD_SREG_WARPID, 0},
        {"mov.u32 %r1, %nwarpid;", HD_SREG_NWARPID, 0},
        {"mov.u32 %r1, %smid;", HD_SREG_SMID, 0},
        {"mov.u32 %r1, %nsmid;", HD_SREG_NSMID, 0},
        {"mov.u32 %r1, %clock;", HD_SREG_CLOCK, 0},
        {"mov.u64 %rd1, %clock64;", HD_SREG_CLOCK64, 0},
        {"mov.u64 %rd1, %globaltimer;", HD_SREG_GLOBALTIMER, 0},
        {"mov.u32 %r1, %lanemask_eq;", HD_SREG_LANEMASK_EQ, 0},
        {"mov.u32 %r1, %lanemask_lt;", HD_SREG_LANEMASK_LT, 0},
        {"mov.u32 %r1, %lanemask_le;", HD_SREG_LANEMASK_LE, 0},
        {"mov.u32 %r1, %lanemask_gt;", HD_SREG_LANEMASK_GT, 0},
        {"mov.u32 %r1, %lanemask_ge;", HD_SREG_LANEMASK_GE, 0},
        {"mov.u32 %r1, %dynamic_smem_size;", HD_SREG_DYNAMIC_SMEM_SIZE, 0},
        {"mov.u32 %r1, %total_smem_size;", HD_SREG_TOTAL_SMEM_SIZE, 0},
        {"mov.u64 %rd1, %gridid;", HD_SREG_GRIDID, 0},
        {"cvt.u64.u32 %rd1, %tid.y;", HD_SREG_TID, 1},
    };
    hd_test_begin(t, "special registers");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hd_module *m;
        struct hd_instr in = first(t, cases[i].body, &m);
        HD_CHECK_U64(t, HD_OPND_SPECIAL, in.opnd[1].kind);
        HD_CHECK_U64(t, cases[i].sreg, in.opnd[1].sreg);
        HD_CHECK_U64(t, cases[i].dim, in.opnd[1].dim);
        hd_ptx_module_free(m);
    }
    expect_error(t, "mov.u32 %r1, %tid;", 8, 14, "needs a component");
    expect_error(t, "mov.u32 %r1, %clock64;", 8, 14, "size does not match");
    expect_error(t, "add.u32 %r1, %tid.x, 1;", 8, 14, "only be read by mov or cvt");
}

static void test_addresses(struct hd_test_state *t)
{
    struct hd_module *m;
    struct hd_instr in;
    hd_test_begin(t, "address forms");
    in = first(t, "ld.global.u32 %r1, [%rd2+16];", &m);
    HD_CHECK_U64(t, HD_OPND_ADDR, in.opnd[1].kind);
    HD_CHECK_U64(t, reg_index(m, "%rd2"), in.opnd[1].reg);
    HD_CHECK(t, in.opnd[1].symbol == -1);
    HD_CHECK(t, in.opnd[1].imm == 16);
    HD_CHECK_U64(t, HD_SPACE_GLOBAL, in.space);
    hd_ptx_module_free(m);
    in = first(t, "ld.global.u32 %r1, [%rd2+-8];", &m);
    HD_CHECK(t, in.opnd[1].imm == -8);
    hd_ptx_module_free(m);
    in = first(t, "ld.global.u32 %r1, [%rd2-8];", &m);
    HD_CHECK(t, in.opnd[1].imm == -8);
    hd_ptx_module_free(m);
    in = first(t, "ld.global.u32 %r1, [gv+12];", &m);
    HD_CHECK(t, in.opnd[1].reg == -1);
    HD_CHECK_U64(t, 0, in.opnd[1].symbol);
    HD_CHECK_U64(t, HD_SCOPE_MODULE, in.opnd[1].scope);
    HD_CHECK(t, in.opnd[1].imm == 12);
    hd_ptx_module_free(m);
    in = first(t, "ld.param.u32 %r1, [k_p1];", &m);
    HD_CHECK_U64(t, HD_SCOPE_PARAM, in.opnd[1].scope);
    HD_CHECK_U64(t, 1, in.opnd[1].symbol);
    hd_ptx_module_free(m);
    in = first(t, "ld.u32 %r1, [256];", &m);
    HD_CHECK(t, in.opnd[1].reg == -1 && in.opnd[1].symbol == -1 && in.opnd[1].imm == 256);
    HD_CHECK_U64(t, HD_SPACE_NONE, in.space);
    hd_ptx_module_free(m);
    in = first(t, "ld.shared.f32 %f1, [%r3];", &m);
    HD_CHECK_U64(t, HD_SPACE_SHARED, in.space);
    hd_ptx_module_free(m);
    expect_error(t, "ld.shared.u32 %r1, [gv];", 8, 20, "'gv' is in .global, not .shared");
    expect_error(t, "ld.global.u32 %r1, [%rd2+%rd3];", 8, 26, "integer offset");
    expect_error(t, "ld.global.u32 %r1, [%rd2;", 8, 20, "not closed");
    expect_error(t, "ld.global.u32 %r1, [nosuch];", 8, 21, "undeclared identifier 'nosuch'");
    expect_error(t, "ld.global.u32 %r1, %rd2;", 8, 20, "expected an address");
    expect_error(t, "add.s32 %r1, [%rd1], 1;", 8, 14, "not allowed here");
}

static void test_symbols_vectors_sinks(struct hd_test_state *t)
{
    struct hd_module *m;
    struct hd_instr in;
    hd_test_begin(t, "symbols as values");
    in = first(t, "mov.u64 %rd1, gv;", &m);
    HD_CHECK_U64(t, HD_OPND_SYMBOL, in.opnd[1].kind);
    HD_CHECK_U64(t, HD_SCOPE_MODULE, in.opnd[1].scope);
    HD_CHECK_U64(t, 0, in.opnd[1].symbol);
    hd_ptx_module_free(m);
    in = first(t, "mov.u32 %r1, sv;", &m);
    HD_CHECK_U64(t, 1, in.opnd[1].symbol);
    hd_ptx_module_free(m);
    in = first(t, ".local .align 8 .b8 depot[32];\nmov.u64 %rd1, depot;", &m);
    HD_CHECK_U64(t, HD_SCOPE_FUNC_LOCAL, in.opnd[1].scope);
    HD_CHECK_U64(t, 0, in.opnd[1].symbol);
    HD_CHECK_U64(t, 32, kernel(m)->locals[0].size);
    HD_CHECK_U64(t, HD_SPACE_LOCAL, kernel(m)->locals[0].space);
    hd_ptx_module_free(m);
    in = first(t, "cvta.global.u64 %rd1, gv;", &m);
    HD_CHECK_U64(t, HD_OPND_SYMBOL, in.opnd[1].kind);
    hd_ptx_module_free(m);
    expect_error(t, "add.u64 %rd1, gv, 4;", 8, 15, "address of a variable");
    expect_error(t, "mov.u16 %rs1, gv;", 8, 15, "32- or 64-bit");

    hd_test_begin(t, "vectors and sinks");
    in = first(t, "ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1];", &m);
    HD_CHECK_U64(t, 4, in.vec);
    HD_CHECK_U64(t, HD_OPND_VEC, in.opnd[0].kind);
    HD_CHECK_U64(t, 4, in.opnd[0].vec_n);
    HD_CHECK_U64(t, reg_index(m, "%f1"), in.opnd[0].vec[0]);
    HD_CHECK(t, in.opnd[0].vec[2] == -1);
    hd_ptx_module_free(m);
    in = first(t, "st.global.v2.u64 [%rd1+16], {%rd2, %rd3};", &m);
    HD_CHECK_U64(t, 2, in.vec);
    HD_CHECK_U64(t, HD_OPND_VEC, in.opnd[1].kind);
    hd_ptx_module_free(m);
    in = first(t, "mov.b64 %rd1, {%r1, %r2};", &m);
    HD_CHECK_U64(t, 2, in.opnd[1].vec_n);
    hd_ptx_module_free(m);
    in = first(t, "mov.b32 {%rs1, %rs2}, %r1;", &m);
    HD_CHECK_U64(t, HD_OPND_VEC, in.opnd[0].kind);
    hd_ptx_module_free(m);
    in = first(t, "atom.global.exch.b32 _, [%rd1], %r1;", &m);
    HD_CHECK_U64(t, HD_OPND_SINK, in.opnd[0].kind);
    hd_ptx_module_free(m);
    expect_error(t, "ld.global.v4.f32 {%f1, %f2}, [%rd1];", 8, 18, "does not match .v2/.v4");
    expect_error(t, "ld.global.v2.f32 %f1, [%rd1];", 8, 18, "expected a vector");
    expect_error(t, "st.global.v2.f32 [%rd1], {%f1, _};", 8, 26, "only be a destination");
    expect_error(t, "ld.global.v2.u32 {%r1, %f2}, [%rd1];", 8, 18, "does not match type .u32");
    expect_error(t, "mov.b64 %rd1, {%r1, %r2, %r3};", 8, 15, "2 or 4 elements");
    expect_error(t, "add.s32 %r1, _, 1;", 8, 14, "only be a destination");
}

static void test_predicates(struct hd_test_state *t)
{
    struct hd_module *m;
    struct hd_instr in;
    hd_test_begin(t, "guards, !%p, predicate destinations");
    in = first(t, "@!%p2 add.s32 %r1, %r2, 1;", &m);
    HD_CHECK_U64(t, reg_index(m, "%p2"), in.guard);
    HD_CHECK_U64(t, 1, in.guard_neg);
    HD_CHECK_U64(t, 7, in.col); /* the opcode's column */
    hd_ptx_module_free(m);
    in = first(t, "@%p1 bra $L1;\n$L1:\nret;", &m);
    HD_CHECK_U64(t, 0, in.guard_neg);
    HD_CHECK_U64(t, HD_OPND_LABEL, in.opnd[0].kind);
    HD_CHECK(t, in.opnd[0].imm == 1);
    hd_ptx_module_free(m);
    in = first(t, "setp.lt.and.f32 %p1|%p2, %f1, %f2, !%p3;", &m);
    HD_CHECK_U64(t, HD_CMP_LT, in.cmp);
    HD_CHECK_U64(t, HD_BOOL_AND, in.boolop);
    HD_CHECK_U64(t, HD_T_F32, in.type);
    HD_CHECK(t, (in.flags & HD_F_PRED_OUT) != 0);
    HD_CHECK_U64(t, 5, in.nopnds);
    HD_CHECK_U64(t, reg_index(m, "%p2"), in.opnd[1].reg);
    HD_CHECK_U64(t, 1, in.opnd[4].neg);
    hd_ptx_module_free(m);
    in = first(t, "selp.b32 %r1, %r2, 7, %p1;", &m);
    HD_CHECK_U64(t, HD_OPND_REG, in.opnd[3].kind);
    hd_ptx_module_free(m);
    in = first(t, "and.pred %p1, %p2, %p3;", &m);
    HD_CHECK_U64(t, HD_T_PRED, in.type);
    hd_ptx_module_free(m);
    expect_error(t, "@%r1 bra $L;", 8, 2, "'%r1' is not a predicate");
    expect_error(t, "setp.lt.s32 %r1, %r2, %r3;", 8, 13, "not a predicate register");
    expect_error(t, "add.s32 %r1, !%p1, 1;", 8, 14, "'!' is not allowed");
    expect_error(t, "selp.b32 %r1, %r2, %r3, %r4;", 8, 25, "not a predicate register");
    expect_error(t, "add.s32 %r1|%p1, %r2, 1;", 8, 13, "no '|' second destination");
    expect_error(t, "setp.s32 %p1, %r2, 1;", 8, 1, "needs a comparison");
    expect_error(t, "mov.pred %p1, 2;", 8, 15, "expected a predicate register");
    expect_error(t, "and.pred %p1, %p2, 1;", 8, 20, "expected a predicate register");
}
/* }==== */

/* {==== Modifiers ==== */
static void test_modifiers(struct hd_test_state *t)
{
    struct hd_module *m;
    struct hd_instr in;
    hd_test_begin(t, "arithmetic modifiers");
    in = first(t, "cvt.rzi.sat.s32.f32 %r1, %f1;", &m);
    HD_CHECK_U64(t, HD_OP_CVT, in.op);
    HD_CHECK_U64(t, HD_RND_RZI, in.rnd);
    HD_CHECK_U64(t, HD_T_S32, in.type);
    HD_CHECK_U64(t, HD_T_F32, in.type2);
    HD_CHECK(t, (in.flags & HD_F_SAT) != 0);
    hd_ptx_module_free(m);
    in = first(t, "cvt.u32.u8 %r1, %rs1;", &m); /* wider register for an 8-bit type */
    HD_CHECK_U64(t, HD_T_U8, in.type2);
    hd_ptx_module_free(m);
    in = first(t, "set.gt.ftz.u32.f32 %r1, %f1, %f2;", &m);
    HD_CHECK_U64(t, HD_T_F32, in.type);  /* compare type */
    HD_CHECK_U64(t, HD_T_U32, in.type2); /* destination type */
    HD_CHECK(t, (in.flags & HD_F_FTZ) != 0);
    hd_ptx_module_free(m);
    in = first(t, "mul.wide.s32 %rd1, %r1, %r2;", &m);
    HD_CHECK_U64(t, HD_MODE_WIDE, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "mad.hi.u32 %r1, %r2, %r3, %r4;", &m);
    HD_CHECK_U64(t, HD_MODE_HI, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "div.approx.ftz.f32 %f1, %f2, %f3;", &m);
    HD_CHECK_U64(t, HD_F_APPROX | HD_F_FTZ, in.flags);
    hd_ptx_module_free(m);
    in = first(t, "fma.rn.sat.f32 %f1, %f2, %f3, %f4;", &m);
    HD_CHECK_U64(t, HD_RND_RN, in.rnd);
    hd_ptx_module_free(m);
    in = first(t, "add.cc.u32 %r1, %r2, %r3;", &m);
    HD_CHECK(t, (in.flags & HD_F_CC) != 0);
    hd_ptx_module_free(m);
    in = first(t, "shf.l.wrap.b32 %r1, %r2, %r3, %r4;", &m);
    HD_CHECK_U64(t, HD_MODE_SHF_L, in.mode);
    HD_CHECK(t, (in.flags & HD_F_CLAMP) == 0);
    hd_ptx_module_free(m);
    in = first(t, "shf.r.clamp.b32 %r1, %r2, %r3, %r4;", &m);
    HD_CHECK(t, (in.flags & HD_F_CLAMP) != 0);
    hd_ptx_module_free(m);
    in = first(t, "prmt.b32.f4e %r1, %r2, %r3, %r4;", &m);
    HD_CHECK_U64(t, HD_MODE_PRMT_F4E, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "bfind.shiftamt.u32 %r1, %r2;", &m);
    HD_CHECK(t, (in.flags & HD_F_SHIFTAMT) != 0);
    hd_ptx_module_free(m);
    in = first(t, "testp.notanumber.f32 %p1, %f1;", &m);
    HD_CHECK_U64(t, HD_MODE_TESTP_NOTANUMBER, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "lop3.b32 %r1, %r2, %r3, %r4, 0x96;", &m);
    HD_CHECK_U64(t, 5, in.nopnds);
    hd_ptx_module_free(m);
    in = first(t, "shl.b64 %rd1, %rd2, %r3;", &m); /* shift amount is .u32 */
    HD_CHECK_U64(t, HD_OP_SHL, in.op);
    hd_ptx_module_free(m);
    in = first(t, "popc.b64 %r1, %rd1;", &m); /* result is .u32 */
    HD_CHECK_U64(t, HD_T_B64, in.type);
    hd_ptx_module_free(m);

    hd_test_begin(t, "memory modifiers");
    in = first(t, "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];", &m);
    HD_CHECK(t, (in.flags & HD_F_NC) != 0);
    hd_ptx_module_free(m);
    in = first(t, "ld.volatile.shared.u32 %r1, [%r2];", &m);
    HD_CHECK(t, (in.flags & HD_F_VOLATILE) != 0);
    hd_ptx_module_free(m);
    in = first(t, "ld.global.cg.L1::evict_last.u32 %r1, [%rd2];", &m);
    HD_CHECK_U64(t, HD_CACHE_CG, in.cache);
    hd_ptx_module_free(m);
    in = first(t, "st.global.wt.u32 [%rd2], %r1;", &m);
    HD_CHECK_U64(t, HD_CACHE_WT, in.cache);
    hd_ptx_module_free(m);
    in = first(t, "ld.relaxed.gpu.global.u32 %r1, [%rd2];", &m);
    HD_CHECK(t, (in.flags & HD_F_RELAXED) != 0);
    hd_ptx_module_free(m);
    in = first(t, "ld.global.u8 %rs1, [%rd2];", &m);
    HD_CHECK_U64(t, HD_T_U8, in.type);
    hd_ptx_module_free(m);
    in = first(t, "st.global.u8 [%rd2], %r1;", &m);
    HD_CHECK_U64(t, HD_T_U8, in.type);
    hd_ptx_module_free(m);
    in = first(t, "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", &m);
    HD_CHECK_U64(t, HD_ATOM_CAS, in.atom);
    HD_CHECK_U64(t, 4, in.nopnds);
    hd_ptx_module_free(m);
    in = first(t, "atom.acq_rel.gpu.shared.add.f32 %f1, [%r1], %f2;", &m);
    HD_CHECK_U64(t, HD_ATOM_ADD, in.atom);
    HD_CHECK_U64(t, HD_SPACE_SHARED, in.space);
    hd_ptx_module_free(m);
    in = first(t, "red.global.add.u64 [%rd1], %rd2;", &m);
    HD_CHECK_U64(t, HD_OP_RED, in.op);
    hd_ptx_module_free(m);
    in = first(t, "atom.global.inc.u32 %r1, [%rd1], 17;", &m);
    HD_CHECK_U64(t, HD_ATOM_INC, in.atom);
    hd_ptx_module_free(m);
    in = first(t, "cvta.to.global.u64 %rd1, %rd2;", &m);
    HD_CHECK_U64(t, HD_MODE_TO, in.mode);
    HD_CHECK_U64(t, HD_SPACE_GLOBAL, in.space);
    hd_ptx_module_free(m);
    in = first(t, "isspacep.shared %p1, %rd1;", &m);
    HD_CHECK_U64(t, HD_SPACE_SHARED, in.space);
    hd_ptx_module_free(m);
    in = first(t, "membar.cta;", &m);
    HD_CHECK_U64(t, HD_MODE_SCOPE_CTA, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "fence.sc.sys;", &m);
    HD_CHECK_U64(t, HD_MODE_SCOPE_SYS, in.mode);
    hd_ptx_module_free(m);

    hd_test_begin(t, "warp and barrier modifiers");
    in = first(t, "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;", &m);
    HD_CHECK_U64(t, HD_MODE_SHFL_BFLY, in.mode);
    HD_CHECK_U64(t, HD_F_SYNC | HD_F_PRED_OUT, in.flags);
    HD_CHECK_U64(t, 6, in.nopnds);
    hd_ptx_module_free(m);
    in = first(t, "shfl.sync.idx.b32 %r1, %r2, %r3, 31, %r4;", &m);
    HD_CHECK_U64(t, 5, in.nopnds);
    hd_ptx_module_free(m);
    in = first(t, "vote.sync.ballot.b32 %r1, !%p1, -1;", &m);
    HD_CHECK_U64(t, HD_MODE_VOTE_BALLOT, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "vote.sync.all.pred %p1, %p2, %r1;", &m);
    HD_CHECK_U64(t, HD_MODE_VOTE_ALL, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "match.all.sync.b32 %r1|%p1, %r2, -1;", &m);
    HD_CHECK_U64(t, HD_MODE_MATCH_ALL, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "activemask.b32 %r1;", &m);
    HD_CHECK_U64(t, HD_OP_ACTIVEMASK, in.op);
    hd_ptx_module_free(m);
    in = first(t, "bar.sync 0;", &m);
    HD_CHECK_U64(t, HD_MODE_BAR_SYNC, in.mode);
    HD_CHECK(t, (in.flags & HD_F_ALIGNED) != 0);
    hd_ptx_module_free(m);
    in = first(t, "barrier.sync 1, 64;", &m);
    HD_CHECK_U64(t, 2, in.nopnds);
    HD_CHECK(t, (in.flags & HD_F_ALIGNED) == 0);
    hd_ptx_module_free(m);
    in = first(t, "bar.red.popc.u32 %r1, 0, %p1;", &m);
    HD_CHECK_U64(t, HD_MODE_BAR_RED_POPC, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "bar.red.and.pred %p1, 0, !%p2;", &m);
    HD_CHECK_U64(t, HD_MODE_BAR_RED_AND, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "bar.warp.sync -1;", &m);
    HD_CHECK_U64(t, HD_MODE_BAR_WARP_SYNC, in.mode);
    hd_ptx_module_free(m);
    in = first(t, "bra.uni $L;\n$L: ret;", &m);
    HD_CHECK(t, (in.flags & HD_F_UNI) != 0);
    hd_ptx_module_free(m);

    hd_test_begin(t, "modifier errors");
    expect_error(t, "add.s32.foo %r1, %r2, 1;", 8, 8, "unknown modifier '.foo'");
    expect_error(t, "add.wide.f32 %f1, %f2, %f3;", 8, 4, "'.wide' is not valid for 'add'");
    expect_error(t, "add %r1, %r2, 1;", 8, 1, "needs a type");
    expect_error(t, "add.s32.s32 %r1, %r2, 1;", 8, 8, "extra '.s32'");
    expect_error(t, "setp.lt.gt.s32 %p1, %r1, 1;", 8, 8, "repeated or conflicting");
    expect_error(t, "mul.s32 %r1, %r2, %r3;", 8, 1, "needs .lo, .hi or .wide");
    expect_error(t, "add.rn.s32 %r1, %r2, %r3;", 8, 1, "rounding mode");
    expect_error(t, "sin.approx.s32 %r1, %r2;", 8, 1, "does not take this type");
    expect_error(t, "atom.global.u32 %r1, [%rd1], 1;", 8, 1, "needs an operation");
    expect_error(t, "membar;", 8, 1, "needs a level");
    expect_error(t, "mul.wide.s64 %rd1, %rd2, %rd3;", 8, 1, "16- or 32-bit");
    expect_error(t, "frobnicate.s32 %r1, %r2;", 8, 1, "unknown opcode 'frobnicate'");
    expect_error(t, "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f5, %f6}];", 8, 1,
                 "unknown opcode 'tex'");
}
/* }==== */

/* {==== Operand counts, types, statements ==== */
static void test_operand_checks(struct hd_test_state *t)
{
    hd_test_begin(t, "operand counts and register types");
    expect_error(t, "add.s32 %r1, %r2;", 8, 1, "'add' takes 3 operands, found 2");
    expect_error(t, "atom.global.cas.b32 %r1, [%rd1], %r2;", 8, 1, "takes 4 operands");
    expect_error(t, "bar.sync;", 8, 1, "takes 1 to 2 operands");
    expect_error(t, "ret %r1;", 8, 1, "takes 0 operands");
    expect_error(t, "add.s32 %r1, %rd2, 1;", 8, 14, "'%rd2' (.b64) does not match type .s32");
    expect_error(t, "add.f32 %f1, %fd2, %f3;", 8, 14, "does not match type .f32");
    expect_error(t, "add.s32 %r1, %f2, 1;", 8, 14, "does not match type .s32");
    expect_error(t, "mov.u32 1, %r1;", 8, 9, "destination must be a register");
    expect_error(t, "mov.u32 %r1, %r2, %r3, %r4, %r5, %r6, %r7;", 8, 39, "too many operands");
    expect_error(t, "add.s32 %r1, %r2 %r3;", 8, 18, "expected ',' or ';'");
    expect_error(t, "add.s32 %r1, %r2, %r3\nret;", 8, 22, "missing ';'");
    expect_error(t, "bra nowhere;", 8, 5, "undefined label 'nowhere'");
    expect_error(t, "$A: ret;\n$A: ret;", 9, 1, "duplicate label '$A'");
    expect_error(t, "@%p1 bra $E;\nret;\n$E:", 8, 10, "no instruction after it");
    expect_error(t, "{ .reg .b32 x; mov.b32 x, 1; }\nmov.b32 x, 2;", 9, 9, "undeclared");
}

static void test_registers_typecheck_ok(struct hd_test_state *t)
{
    static const char *const ok[] = {
        "add.f32 %f1, %f2, %f3;",     "mov.b32 %r1, %f1;",         "mov.f32 %f1, %r1;",
        "add.u32 %r1, %r2, %r3;",     "add.s64 %rd1, %rd2, 5;",    "cvt.f32.f16 %f1, %rs1;",
        "cvt.rn.f16.f32 %rs1, %f1;",  "cvt.s64.s32 %rd1, %r1;",    "cvt.u16.u32 %rs1, %r1;",
        "ld.global.s8 %r1, [%rd1];",  "st.shared.u16 [%r1], %r2;", "mov.b64 {%r1, %r2}, %rd1;",
        "add.f16x2 %r1, %r2, %r3;",   "neg.f64 %fd1, %fd2;",       "not.pred %p1, %p2;",
        "bfe.u32 %r1, %r2, 8, 4;",    "bfi.b32 %r1, %r2, %r3, 4, 8;",
        "dp4a.u32.s32 %r1, %r2, %r3, %r4;", "slct.f32.s32 %f1, %f2, %f3, %r1;",
        "sad.u32 %r1, %r2, %r3, %r4;", "brev.b32 %r1, %r2;",       "clz.b64 %r1, %rd2;",
        "rsqrt.approx.ftz.f64 %fd1, %fd2;", "ex2.approx.ftz.f32 %f1, %f2;",
        "copysign.f32 %f1, %f2, %f3;", "nanosleep.u32 100;",       "prefetch.global.L2 [%rd1];",
        "mov.u64 %rd1, callee;",      "trap;",                     "exit;",
        "redux.sync.add.u32 %r1, %r2, -1;", "mad.wide.u32 %rd1, %r1, %r2, %rd2;",
        "max.f32 %f1, %f1, 0f00000000;", "abs.s64 %rd1, %rd1;",   "rem.u64 %rd1, %rd2, %rd3;",
        "subc.cc.u32 %r1, %r2, %r3;", "madc.hi.cc.u32 %r1, %r2, %r3, %r4;",
        "mul24.lo.s32 %r1, %r2, %r3;", "cnot.b32 %r1, %r2;",
        "mov.pred %p1, 1;",           "selp.f32 %f1, 0f3F800000, %f2, %p1;",
    };
    hd_test_begin(t, "well-typed instructions parse");
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct hd_module *m = parse_body(ok[i]);
        if (!HD_CHECK(t, m != NULL))
            fprintf(stderr, "  %s -> %s\n", ok[i], err);
        hd_ptx_module_free(m);
    }
}
/* }==== */

/* {==== Labels, calls, blocks, comments ==== */
static void test_labels(struct hd_test_state *t)
{
    hd_test_begin(t, "labels resolve to instruction indices, forward and backward");
    struct hd_module *m = parse_body("$top:\nadd.s32 %r1, %r1, 1;\n@%p1 bra $top;\n"
                                     "bra.uni $end;\nmov.u32 %r2, 0;\n$end: $also:\nret;");
    if (HD_CHECK(t, m != NULL)) {
        const struct hd_func *f = kernel(m);
        HD_CHECK_U64(t, 5, f->ninstrs);
        HD_CHECK(t, f->instrs[1].opnd[0].imm == 0);
        HD_CHECK(t, f->instrs[2].opnd[0].imm == 4);
        HD_CHECK_U64(t, 14, f->instrs[4].line);
    } else {
        fprintf(stderr, "  %s\n", err);
    }
    hd_ptx_module_free(m);
}

static void test_calls(struct hd_test_state *t)
{
    hd_test_begin(t, "call with return and argument lists");
    struct hd_module *m = parse_body(
        "{ // callseq 0\n"
        ".param .b32 param0;\n"
        "st.param.b32 [param0+0], %r1;\n"
        ".param .b64 param1;\n"
        "st.param.b64 [param1], %rd1;\n"
        ".param .b32 retval0;\n"
        "call.uni (retval0),\ncallee,\n(\nparam0,\nparam1\n);\n"
        "ld.param.b32 %r2, [retval0];\n"
        "}\n"
        "{ .param .b32 param0; .param .b64 param1;\n"
        "call callee, (param0, param1); }\n");
    if (HD_CHECK(t, m != NULL)) {
        const struct hd_func *f = kernel(m);
        HD_CHECK_U64(t, 5, f->ninstrs);
        HD_CHECK_U64(t, 2, f->ncalls);
        HD_CHECK_U64(t, 5, f->nlocals);
        const struct hd_instr *c = &f->instrs[2];
        HD_CHECK_U64(t, HD_OP_CALL, c->op);
        HD_CHECK_U64(t, 14, c->line);
        HD_CHECK_U64(t, 1, c->nopnds);
        HD_CHECK_U64(t, HD_OPND_FUNC, c->opnd[0].kind);
        HD_CHECK_U64(t, hd_ptx_find_func(m, "callee"), c->opnd[0].symbol);
        HD_CHECK(t, c->opnd[0].imm == 0);
        const struct hd_call_site *cs = &f->calls[0];
        HD_CHECK_U64(t, 1, cs->nrets);
        HD_CHECK_U64(t, 2, cs->nargs);
        HD_CHECK_U64(t, HD_SCOPE_FUNC_LOCAL, cs->args[0].scope);
        HD_CHECK_U64(t, 0, cs->args[0].symbol);
        HD_CHECK_U64(t, 1, cs->args[1].symbol);
        HD_CHECK_U64(t, 2, cs->rets[0].symbol);
        HD_CHECK_U64(t, 2, f->instrs[3].opnd[1].symbol); /* ld.param [retval0] */
        /* The second block's param0 is a new local (index 3), not the first one. */
        HD_CHECK_U64(t, 3, f->calls[1].args[0].symbol);
        HD_CHECK_U64(t, 0, f->calls[1].nrets);
        const struct hd_func *g = &m->funcs[hd_ptx_find_func(m, "callee")];
        HD_CHECK_U64(t, 1, g->nrets);
        HD_CHECK_U64(t, 2, g->nparams);
        HD_CHECK(t, !g->is_entry && g->has_body);
    } else {
        fprintf(stderr, "  %s\n", err);
    }
    hd_ptx_module_free(m);
    expect_error(t, "{ .param .b32 p0; call callee, (p0); }", 8, 24, "passes 1 arguments, it takes 2");
    expect_error(t, "call nosuch, ();", 8, 6, "undeclared function 'nosuch'");
    expect_error(t, "call k, ();", 8, 6, "cannot call the kernel");
    expect_error(t, "call %rd1, (), proto;", 8, 6, "indirect calls");

    hd_test_begin(t, "return parameters of a .func resolve to HD_SCOPE_RET");
    const char *src = ".version 9.0\n.target sm_75\n.address_size 64\n"
                      ".func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %r<2>;\n"
                      "ld.param.b32 %r1, [a];\nst.param.b32 [r], %r1;\nret;\n}\n";
    m = hd_ptx_parse(src, strlen(src), "f.ptx", err, sizeof err);
    if (HD_CHECK(t, m != NULL)) {
        const struct hd_instr *st = &m->funcs[0].instrs[1];
        HD_CHECK_U64(t, HD_SCOPE_RET, st->opnd[0].scope);
        HD_CHECK_U64(t, 0, st->opnd[0].symbol);
        HD_CHECK_U64(t, HD_SCOPE_PARAM, m->funcs[0].instrs[0].opnd[1].scope);
    }
    hd_ptx_module_free(m);
}

static void test_blocks_and_comments(struct hd_test_state *t)
{
    hd_test_begin(t, "nested blocks scope registers; comments and debug directives");
    struct hd_module *m = parse_body(
        "/* a block\n comment */ { .reg .b16 low, high; mov.b32 {low, high}, %r1; }\n"
        "{ .reg .b16 low; mov.b16 low, %rs1; } // again\n"
        ".loc 1 12 5\n.pragma \"nounroll\";\nret;");
    if (HD_CHECK(t, m != NULL)) {
        const struct hd_func *f = kernel(m);
        HD_CHECK_U64(t, 3, f->ninstrs);
        HD_CHECK_U64(t, 4 + 4 + 8 + 8 + 8 + 4 + 3, f->nregs);
        HD_CHECK_U64(t, 13, f->instrs[2].line);
    } else {
        fprintf(stderr, "  %s\n", err);
    }
    hd_ptx_module_free(m);
    expect_error(t, "ret; /* never closed", 8, 6, "unterminated comment");
    expect_error(t, "{ ret;", 7, 55, "not closed");
    expect_error(t, ".frob 3;", 8, 1, "unknown directive '.frob'");
    expect_error(t, "ret; #", 8, 6, "unexpected character '#'");
    expect_error(t, "ret; \x01", 8, 6, "unexpected byte 0x01");
}

static void test_format(struct hd_test_state *t)
{
    hd_test_begin(t, "instructions print back as PTX");
    expect_format(t, "@!%p1 ld.global.nc.v2.f32 {%f1, %f2}, [%rd1+8];",
                  "@!%p1 ld.global.nc.v2.f32 {%f1, %f2}, [%rd1+8];");
    expect_format(t, "cvt.rn.f32.s32 %f1, %r1;", "cvt.rn.f32.s32 %f1, %r1;");
    expect_format(t, "setp.ge.and.f32 %p1|%p2, %f1, 0f3F800000, !%p3;",
                  "setp.ge.and.f32 %p1|%p2, %f1, 0f3F800000, !%p3;");
    expect_format(t, "set.lt.u32.f32 %r1, %f1, %f2;", "set.lt.u32.f32 %r1, %f1, %f2;");
    expect_format(t, "mov.u32 %r1, %ctaid.y;", "mov.u32 %r1, %ctaid.y;");
    expect_format(t, "atom.global.cas.b32 %r1, [gv+4], %r2, -3;",
                  "atom.global.cas.b32 %r1, [gv+4], %r2, -3;");
    expect_format(t, "shfl.sync.down.b32 %r1|%p1, %r2, 16, 31, -1;",
                  "shfl.sync.down.b32 %r1|%p1, %r2, 16, 31, -1;");
    expect_format(t, "mul.wide.u32 %rd1, %r1, %r2;", "mul.wide.u32 %rd1, %r1, %r2;");
    expect_format(t, "add.f64 %fd1, %fd2, 0d3FF0000000000000;",
                  "add.f64 %fd1, %fd2, 0d3FF0000000000000;");
    expect_format(t, "bar.red.popc.u32 %r1, 0, %p1;", "bar.red.popc.u32 %r1, 0, %p1;");
    expect_format(t, "membar.gl;", "membar.gl;");
    expect_format(t, "bra.uni $x;\n$x: ret;", "bra.uni $x;");
    expect_format(t, "{ .param .b32 q; .param .b64 r; .param .b32 o;\n"
                     "call.uni (o), callee, (q, r); }",
                  "call.uni (o), callee, (q, r);");
    expect_format(t, "vote.sync.any.pred %p1, !%p2, -1;", "vote.sync.any.pred %p1, !%p2, -1;");
    expect_format(t, "st.volatile.shared.u32 [sv+4], 0;", "st.volatile.shared.u32 [sv+4], 0;");
    expect_format(t, "mov.u64 %rd1, gv;", "mov.u64 %rd1, gv;");

    hd_test_begin(t, "formatting truncates safely");
    struct hd_module *m;
    struct hd_instr in = first(t, "mad.lo.s32 %r1, %r2, %r3, %r4;", &m);
    if (m) {
        char small[8];
        hd_ptx_format_instr(kernel(m), &in, small, sizeof small);
        HD_CHECK(t, strlen(small) == 7 && memcmp(small, "mad.lo.", 7) == 0);
    }
    hd_ptx_module_free(m);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_registers_and_ranges(&t);
    test_immediates(&t);
    test_special_registers(&t);
    test_addresses(&t);
    test_symbols_vectors_sinks(&t);
    test_predicates(&t);
    test_modifiers(&t);
    test_operand_checks(&t);
    test_registers_typecheck_ok(&t);
    test_labels(&t);
    test_calls(&t);
    test_blocks_and_comments(&t);
    test_format(&t);
    return hd_test_finish(&t);
}
