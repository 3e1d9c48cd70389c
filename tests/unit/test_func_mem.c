/* SPDX-License-Identifier: MIT
 * test_func_mem.c - memory instructions on every state space: vector ld/st, 8/16-bit accesses
 * with sign/zero extension, shared memory across warps with barriers, dynamic shared memory,
 * per-thread local memory (direct and generic), const and param spaces, generic addressing
 * (cvta, cvta.to, isspacep), atomics (every operation, contention inside one warp, lane order),
 * and the located faults: misaligned, out of bounds, null, store to constant memory, trap.
 */
#include "func_testkit.h"

#include <string.h>

#define HEAD ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
#define REGS                                                                                       \
    "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<4>;\n"       \
    "\t.reg .b16 %h<4>;\n\t.reg .pred %p<4>;\n"                                                    \
    "\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"

static void test_vectors_widths(struct kit *k)
{
    hd_test_begin(k->t, "ld/st .v2/.v4, 8/16-bit loads with sign/zero extension, partial stores");
    static const char ptx[] = HEAD REGS
        "\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];\n"
        "\tst.global.v4.u32 [%rd1], {%r4, %r3, %r2, %r1};\n"
        "\tld.global.v2.u64 {%rd3, %rd4}, [%rd2+16];\n"
        "\tst.global.v2.u64 [%rd1+16], {%rd4, %rd3};\n"
        "\tld.global.s8 %r5, [%rd2+32];\n"
        "\tld.global.u8 %r6, [%rd2+32];\n"
        "\tld.global.s16 %r7, [%rd2+34];\n"
        "\tld.global.u16 %h1, [%rd2+34];\n"
        "\tcvt.u64.u32 %rd5, %r5;\n\tst.global.u64 [%rd1+32], %rd5;\n"
        "\tcvt.u64.u32 %rd5, %r6;\n\tst.global.u64 [%rd1+40], %rd5;\n"
        "\tcvt.u64.u32 %rd5, %r7;\n\tst.global.u64 [%rd1+48], %rd5;\n"
        "\tst.global.u16 [%rd1+56], %h1;\n"
        "\tst.global.u8 [%rd1+59], %r6;\n"
        "\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+48];\n"
        "\tadd.f32 %f1, %f1, %f4;\n"
        "\tst.global.v2.f32 [%rd1+64], {%f1, %f2};\n"
        "\tld.global.v2.u32 {_, %r8}, [%rd2+8];\n"
        "\tst.global.u32 [%rd1+72], %r8;\n"
        "\tld.global.s8 %rd6, [%rd2+32];\n"
        "\tst.global.u64 [%rd1+80], %rd6;\n"
        "\tret;\n}\n";
    uint64_t in[8] = {0x2222222211111111ull, 0x4444444433333333ull, 5, 6,
                      0x1122334480011180ull, 0, 0, 0};
    float fv[4] = {1.5f, 2.5f, 3.5f, 4.0f};
    memcpy(&in[6], fv, 16);
    uint64_t out[11];
    memset(out, 0xaa, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 1, in, 8, out, 11));
    HD_CHECK_U64(k->t, 0x3333333344444444ull, out[0]);
    HD_CHECK_U64(k->t, 0x1111111122222222ull, out[1]);
    HD_CHECK_U64(k->t, 6, out[2]);
    HD_CHECK_U64(k->t, 5, out[3]);
    HD_CHECK_U64(k->t, 0xffffff80u, out[4]);
    HD_CHECK_U64(k->t, 0x80, out[5]);
    HD_CHECK_U64(k->t, 0xffff8001u, out[6]);
    HD_CHECK_U64(k->t, 0xaaaaaaaa80aa8001ull, out[7]);
    float o8[2];
    memcpy(o8, &out[8], 8);
    HD_CHECK_F64(k->t, 5.5, (double)o8[0], 0);
    HD_CHECK_F64(k->t, 2.5, (double)o8[1], 0);
    HD_CHECK_U64(k->t, 0xaaaaaaaa44444444ull, out[9]);
    HD_CHECK_U64(k->t, 0xffffffffffffff80ull, out[10]);
}

static void test_shared(struct kit *k)
{
    hd_test_begin(k->t, "shared memory across warps with bar.sync; dynamic shared memory");
    static const char ptx[] =
        ".extern .shared .align 16 .b8 dyn[];\n" HEAD REGS
        "\t.shared .align 4 .b8 sm[256];\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tmul.lo.u32 %r2, %r1, 3;\n"
        "\tshl.b32 %r3, %r1, 2;\n"
        "\tmov.u32 %r4, sm;\n"
        "\tadd.u32 %r5, %r4, %r3;\n"
        "\tst.shared.u32 [%r5], %r2;\n"
        "\tmov.u32 %r6, dyn;\n"
        "\tadd.u32 %r7, %r6, %r3;\n"
        "\tadd.u32 %r8, %r2, 1000;\n"
        "\tst.shared.u32 [%r7], %r8;\n"
        "\tbar.sync 0;\n"
        "\tsub.u32 %r9, 63, %r1;\n"
        "\tshl.b32 %r9, %r9, 2;\n"
        "\tadd.u32 %r10, %r4, %r9;\n"
        "\tld.shared.u32 %r11, [%r10];\n"
        "\tadd.u32 %r12, %r6, %r9;\n"
        "\tld.shared.u32 %r13, [%r12];\n"
        "\tmul.wide.u32 %rd3, %r1, 8;\n"
        "\tadd.s64 %rd4, %rd1, %rd3;\n"
        "\tmov.b64 %rd5, {%r11, %r13};\n"
        "\tst.global.u64 [%rd4], %rd5;\n"
        "\tmov.u32 %r14, %dynamic_smem_size;\n"
        "\tst.global.u32 [%rd1+512], %r14;\n"
        "\tret;\n}\n";
    uint64_t out[65] = {0};
    struct hd_dim3 g = {1, 1, 1}, b = {64, 1, 1};
    KIT_OK(k, kit_run_dims(k, ptx, "k", g, b, 256, NULL, 0, out, 65));
    unsigned bad = 0;
    for (unsigned t = 0; t < 64; t++) {
        uint64_t want_lo = (63 - t) * 3, want_hi = (63 - t) * 3 + 1000;
        bad += out[t] != (want_lo | (want_hi << 32));
    }
    HD_CHECK_U64(k->t, 0, bad);
    HD_CHECK_U64(k->t, 256, out[64] & 0xffffffffu);
    /* the same kernel without enough dynamic shared memory faults on the dyn[] store */
    int st = kit_run_dims(k, ptx, "k", g, b, 128, NULL, 0, out, 65);
    HD_CHECK_U64(k->t, (uint64_t)(int64_t)HD_ERR_FAULT, (uint64_t)(int64_t)st);
    HD_CHECK(k->t, strstr(k->err, "out-of-bounds shared store of 4 bytes") != NULL);
    HD_CHECK(k->t, strstr(k->err, "by thread (32,0,0) of block (0,0,0)") != NULL);
}

static void test_local_const_generic(struct kit *k)
{
    hd_test_begin(k->t, "local memory per thread (direct and generic), const, cvta/isspacep");
    static const char ptx[] =
        ".const .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
        ".global .align 4 .u32 gvar = 77;\n" HEAD
        "\t.local .align 4 .b8 depot[32];\n" REGS
        "\t.shared .align 4 .u32 sv;\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tmov.u64 %rd3, depot;\n"
        "\tmov.u32 %r2, 0;\n"
        "$Lfill:\n"
        "\tmad.lo.u32 %r3, %r1, 10, %r2;\n"
        "\tmul.wide.u32 %rd4, %r2, 4;\n"
        "\tadd.s64 %rd5, %rd3, %rd4;\n"
        "\tst.local.u32 [%rd5], %r3;\n"
        "\tadd.u32 %r2, %r2, 1;\n"
        "\tsetp.lt.u32 %p1, %r2, 8;\n"
        "\t@%p1 bra $Lfill;\n"
        "\tand.b32 %r4, %r1, 7;\n"
        "\tmul.wide.u32 %rd4, %r4, 4;\n"
        "\tcvta.local.u64 %rd6, %rd3;\n"
        "\tadd.s64 %rd7, %rd6, %rd4;\n"
        "\tld.u32 %r5, [%rd7];\n"           /* generic load of local memory */
        "\tld.local.u32 %r6, [depot+28];\n"
        "\tadd.u32 %r5, %r5, %r6;\n"
        "\tand.b32 %r7, %r1, 3;\n"
        "\tmul.wide.u32 %rd8, %r7, 4;\n"
        "\tmov.u64 %rd9, table;\n"
        "\tadd.s64 %rd10, %rd9, %rd8;\n"
        "\tld.const.u32 %r8, [%rd10];\n"
        "\tld.u32 %r9, [%rd10];\n"            /* generic load of a const address */
        "\tadd.u32 %r8, %r8, %r9;\n"
        "\tld.global.u32 %r10, [gvar];\n"
        "\tadd.u32 %r8, %r8, %r10;\n"
        "\tmul.wide.u32 %rd11, %r1, 8;\n"
        "\tadd.s64 %rd12, %rd1, %rd11;\n"
        "\tmov.b64 %rd13, {%r5, %r8};\n"
        "\tst.global.u64 [%rd12], %rd13;\n"
        /* thread 0: generic shared store/load, isspacep, cvta.to */
        "\tsetp.ne.u32 %p2, %r1, 0;\n"
        "\t@%p2 bra $Ldone;\n"
        "\tmov.u64 %rd3, sv;\n"
        "\tcvta.shared.u64 %rd4, %rd3;\n"
        "\tst.u32 [%rd4], 4242;\n"
        "\tld.shared.u32 %r11, [sv];\n"
        "\tst.global.u32 [%rd1+256], %r11;\n"
        "\tmov.u32 %r12, 0;\n"
        "\tisspacep.shared %p3, %rd4;\n\tselp.u32 %r13, 1, 0, %p3;\n\tor.b32 %r12, %r12, %r13;\n"
        "\tisspacep.global %p3, %rd1;\n\tselp.u32 %r13, 2, 0, %p3;\n\tor.b32 %r12, %r12, %r13;\n"
        "\tisspacep.local %p3, %rd6;\n\tselp.u32 %r13, 4, 0, %p3;\n\tor.b32 %r12, %r12, %r13;\n"
        "\tisspacep.const %p3, %rd9;\n\tselp.u32 %r13, 8, 0, %p3;\n\tor.b32 %r12, %r12, %r13;\n"
        "\tisspacep.global %p3, %rd4;\n\tselp.u32 %r13, 16, 0, %p3;\n\tor.b32 %r12, %r12, %r13;\n"
        "\tisspacep.shared %p3, %rd1;\n\tselp.u32 %r13, 32, 0, %p3;\n\tor.b32 %r12, %r12, %r13;\n"
        "\tst.global.u32 [%rd1+260], %r12;\n"
        "\tcvta.to.shared.u64 %rd14, %rd4;\n"
        "\tsub.s64 %rd14, %rd14, %rd3;\n"
        "\tst.global.u64 [%rd1+264], %rd14;\n"
        "$Ldone:\n"
        "\tret;\n}\n";
    uint64_t out[34];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 32, NULL, 0, out, 34));
    unsigned bad = 0;
    for (unsigned t = 0; t < 32; t++) {
        uint64_t lo = t * 10 + (t & 7) + t * 10 + 7;
        uint64_t hi = 2 * ((t & 3) + 1) + 77;
        bad += out[t] != (lo | (hi << 32));
    }
    HD_CHECK_U64(k->t, 0, bad);
    HD_CHECK_U64(k->t, 4242, out[32] & 0xffffffffu);
    HD_CHECK_U64(k->t, 1 | 2 | 4 | 8, out[32] >> 32);
    HD_CHECK_U64(k->t, 0, out[33]);
}

static void test_params(struct kit *k)
{
    hd_test_begin(k->t, "kernel parameters: by-value struct, f64, u16, offsets and alignment");
    static const char ptx[] = KIT_HEADER
        ".visible .entry p(.param .u16 a, .param .align 4 .b8 s[12], .param .f64 x, .param .u64 out)\n{\n"
        "\t.reg .b32 %r<4>;\n\t.reg .b16 %h1;\n\t.reg .b64 %rd<3>;\n\t.reg .f64 %fd<3>;\n"
        "\tld.param.u16 %h1, [a];\n"
        "\tld.param.u32 %r1, [s+8];\n"
        "\tld.param.f64 %fd1, [x];\n"
        "\tld.param.u64 %rd1, [out];\n"
        "\tcvt.u32.u16 %r2, %h1;\n"
        "\tadd.u32 %r1, %r1, %r2;\n"
        "\tcvt.rn.f64.u32 %fd2, %r1;\n"
        "\tadd.f64 %fd2, %fd2, %fd1;\n"
        "\tst.global.f64 [%rd1], %fd2;\n"
        "\tret;\n}\n";
    struct hd_module *mod = NULL;
    hd_devptr out = 0;
    KIT_OK(k, hd_module_load_text(k->gpu, ptx, sizeof ptx - 1, "params.ptx", &mod));
    KIT_OK(k, hd_malloc(k->gpu, &out, 8));
    uint16_t a = 7;
    uint32_t s[3] = {1, 2, 1000};
    double x = 0.5;
    struct hd_arg args[4] = {HD_ARG(a), {s, sizeof s}, HD_ARG(x), HD_ARG(out)};
    struct hd_dim3 one = {1, 1, 1};
    KIT_OK(k, hd_launch(k->gpu, mod, "p", one, one, 0, 0, args, 4));
    double r = 0;
    KIT_OK(k, hd_memcpy_d2h(k->gpu, &r, out, 8));
    HD_CHECK_F64(k->t, 1007.5, r, 0);
    struct hd_arg bad[4] = {HD_ARG(a), {s, 8}, HD_ARG(x), HD_ARG(out)};
    HD_CHECK_U64(k->t, (uint64_t)(int64_t)HD_ERR_ARGS,
                 (uint64_t)(int64_t)hd_launch(k->gpu, mod, "p", one, one, 0, 0, bad, 4));
    HD_CHECK(k->t, strstr(hd_last_error(k->gpu), "p: argument 1 (s) is 8 bytes but the PTX parameter is 12 bytes") != NULL);
    hd_free(k->gpu, out);
}

static void test_atomics(struct kit *k)
{
    hd_test_begin(k->t, "atom/red: every operation, 32 lanes on one address, lane order");
    static const char ptx[] = HEAD REGS
        "\t.shared .align 4 .u32 scnt;\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tmul.wide.u32 %rd3, %r1, 8;\n"
        "\tadd.s64 %rd4, %rd1, %rd3;\n"        /* &out[t] */
        "\tatom.global.add.u32 %r2, [%rd2], 1;\n"
        "\tatom.global.cas.b32 %r3, [%rd2+4], 0, 5;\n"
        "\tatom.global.exch.b32 %r4, [%rd2+8], %r1;\n"
        "\tatom.global.inc.u32 %r5, [%rd2+12], 3;\n"
        "\tatom.global.dec.u32 %r6, [%rd2+16], 5;\n"
        "\tsub.s32 %r7, %r1, 16;\n"
        "\tatom.global.min.s32 %r8, [%rd2+20], %r7;\n"
        "\tatom.global.max.s32 %r8, [%rd2+24], %r7;\n"
        "\tshl.b32 %r9, 1, %r1;\n"
        "\tnot.b32 %r10, %r9;\n"
        "\tatom.global.and.b32 %r8, [%rd2+28], %r10;\n"
        "\tatom.global.or.b32 %r8, [%rd2+32], %r9;\n"
        "\tatom.global.xor.b32 %r8, [%rd2+36], %r9;\n"
        "\tatom.global.add.f32 %f1, [%rd2+40], 0f3F000000;\n"
        "\tatom.global.add.f64 %fd1, [%rd2+48], 0d3FF4000000000000;\n"
        "\tcvt.u64.u32 %rd5, %r1;\n"
        "\tshl.b64 %rd5, %rd5, 32;\n"
        "\tatom.global.add.u64 %rd6, [%rd2+56], %rd5;\n"
        "\tatom.global.max.u64 %rd6, [%rd2+64], %rd5;\n"
        "\tred.global.add.u32 [%rd2+72], 2;\n"
        "\tatom.shared.add.u32 %r11, [scnt], %r1;\n"
        "\tbar.sync 0;\n"
        "\tld.shared.u32 %r12, [scnt];\n"
        "\tmov.b64 %rd7, {%r2, %r3};\n\tst.global.u64 [%rd4], %rd7;\n"
        "\tmov.b64 %rd7, {%r4, %r5};\n\tst.global.u64 [%rd4+256], %rd7;\n"
        "\tmov.b64 %rd7, {%r6, %r11};\n\tst.global.u64 [%rd4+512], %rd7;\n"
        "\tst.global.u32 [%rd1+768], %r12;\n"
        "\tret;\n}\n";
    uint64_t in[10];
    memset(in, 0, sizeof in);
    uint32_t *w = (uint32_t *)in;
    w[4] = 2;          /* dec start */
    w[7] = 0xffffffffu; /* and start */
    uint64_t out[97];
    memset(out, 0, sizeof out);
    hd_devptr din = 0, dout = 0;
    struct hd_module *mod = NULL;
    size_t len = strlen(KIT_HEADER) + strlen(ptx);
    char *text = malloc(len + 1);
    strcpy(text, KIT_HEADER);
    strcat(text, ptx);
    KIT_OK(k, hd_module_load_text(k->gpu, text, len, "atom.ptx", &mod));
    free(text);
    KIT_OK(k, hd_malloc(k->gpu, &din, sizeof in));
    KIT_OK(k, hd_malloc(k->gpu, &dout, sizeof out));
    KIT_OK(k, hd_memcpy_h2d(k->gpu, din, in, sizeof in));
    struct hd_arg args[2] = {HD_ARG(dout), HD_ARG(din)};
    struct hd_dim3 g = {1, 1, 1}, b = {32, 1, 1};
    KIT_OK(k, hd_launch(k->gpu, mod, "k", g, b, 0, 0, args, 2));
    KIT_OK(k, hd_memcpy_d2h(k->gpu, out, dout, sizeof out));
    KIT_OK(k, hd_memcpy_d2h(k->gpu, in, din, sizeof in));
    unsigned bad = 0;
    for (uint32_t t = 0; t < 32; t++) {
        bad += (uint32_t)out[t] != t;                           /* add: old = lane id */
        bad += (uint32_t)(out[t] >> 32) != (t == 0 ? 0u : 5u); /* cas: lane 0 wins */
        bad += (uint32_t)out[32 + t] != (t == 0 ? 0u : t - 1); /* exch: previous lane's */
        bad += (uint32_t)(out[32 + t] >> 32) != t % 4;          /* inc wraps at 3 */
        bad += (uint32_t)out[64 + t] != (uint32_t)((2 - (int)t % 6 + 6) % 6); /* dec */
        bad += (uint32_t)(out[64 + t] >> 32) != t * (t - 1) / 2; /* shared add */
    }
    HD_CHECK_U64(k->t, 0, bad);
    HD_CHECK_U64(k->t, 32, w[0]);
    HD_CHECK_U64(k->t, 5, w[1]);
    HD_CHECK_U64(k->t, 31, w[2]);
    HD_CHECK_U64(k->t, 0, w[3]);
    HD_CHECK_U64(k->t, (uint32_t)((2 - 32 % 6 + 6) % 6), w[4]);
    HD_CHECK_U64(k->t, (uint32_t)-16, w[5]);
    HD_CHECK_U64(k->t, 15, w[6]);
    HD_CHECK_U64(k->t, 0, w[7]);
    HD_CHECK_U64(k->t, 0xffffffffu, w[8]);
    HD_CHECK_U64(k->t, 0xffffffffu, w[9]);
    float f;
    memcpy(&f, &w[10], 4);
    HD_CHECK_F64(k->t, 16.0, (double)f, 0);
    double dd;
    memcpy(&dd, &in[6], 8);
    HD_CHECK_F64(k->t, 40.0, dd, 0);
    HD_CHECK_U64(k->t, (uint64_t)(31 * 32 / 2) << 32, in[7]);
    HD_CHECK_U64(k->t, (uint64_t)31 << 32, in[8]);
    HD_CHECK_U64(k->t, 64, in[9]);
    HD_CHECK_U64(k->t, 31 * 32 / 2, out[96] & 0xffffffffu);
    hd_free(k->gpu, din);
    hd_free(k->gpu, dout);
}

static void expect_fault(struct kit *k, const char *body, const char *what)
{
    uint64_t in[4] = {0}, out[4] = {0};
    int st = kit_run(k, body, 32, in, 4, out, 4);
    HD_CHECK_U64(k->t, (uint64_t)(int64_t)HD_ERR_FAULT, (uint64_t)(int64_t)st);
    if (!HD_CHECK(k->t, strstr(k->err, what) != NULL))
        fprintf(stderr, "    wanted '%s' in: %s\n", what, k->err);
    HD_CHECK(k->t, strstr(k->err, "frag.ptx:") != NULL);
    HD_CHECK(k->t, strncmp(k->err, "k: ", 3) == 0);
}

static void test_faults(struct kit *k)
{
    hd_test_begin(k->t, "faults: misaligned, out of bounds, null, const store, shared, trap");
    expect_fault(k, HEAD REGS "\tld.global.u32 %r1, [%rd2+2];\n\tret;\n}\n",
                 "misaligned global load of 4 bytes at 0x");
    expect_fault(k, HEAD REGS "\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2+8];\n\tret;\n}\n",
                 "misaligned global load of 16 bytes");
    expect_fault(k, HEAD REGS "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 8;\n"
                 "\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u64 [%rd4], %rd3;\n\tret;\n}\n",
                 "out-of-bounds global store of 8 bytes");
    expect_fault(k, HEAD REGS "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 8;\n"
                 "\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u64 [%rd4], %rd3;\n\tret;\n}\n",
                 "by thread (4,0,0) of block (0,0,0), PC 5, frag.ptx:17");
    expect_fault(k, HEAD REGS "\tmov.u64 %rd3, 0;\n\tld.u32 %r1, [%rd3];\n\tret;\n}\n",
                 "out-of-bounds global load of 4 bytes at 0x0 (generic 0x0)");
    expect_fault(k, ".const .align 4 .u32 c0 = 1;\n" HEAD REGS
                 "\tmov.u64 %rd3, c0;\n\tst.u32 [%rd3], 5;\n\tret;\n}\n",
                 "store to constant memory (c0)");
    expect_fault(k, HEAD REGS "\t.shared .align 4 .b8 sm[64];\n\tmov.u32 %r1, %tid.x;\n"
                 "\tshl.b32 %r2, %r1, 2;\n\tst.shared.u32 [%r2], %r1;\n\tret;\n}\n",
                 "out-of-bounds shared store of 4 bytes at shared address 0x40");
    expect_fault(k, HEAD REGS "\tmov.u32 %r1, %laneid;\n\tsetp.eq.u32 %p1, %r1, 7;\n"
                 "\t@%p1 trap;\n\tret;\n}\n", "trap executed by thread (7,0,0)");
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_vectors_widths(&k);
    test_shared(&k);
    test_local_const_generic(&k);
    test_params(&k);
    test_atomics(&k);
    test_faults(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
