/* SPDX-License-Identifier: MIT
 * test_func_ctrl.c - control flow and synchronization: predication, if/else and nested
 * divergence with reconvergence at the immediate post-dominator, loops with divergent trip
 * counts (the SIMT stack must not grow per iteration), early exit, call/ret of .func functions
 * (parameters, return values, nested calls, divergent calls and returns), recursion refused,
 * CTA barriers across warps (bar.sync, bar.red.popc/and/or, bar.arrive producer/consumer),
 * a barrier deadlock report, and the interrupt flag.
 */
#include "func_testkit.h"

#include <signal.h>
#include <string.h>

#define HEAD ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
#define REGS                                                                                       \
    "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\t.reg .pred %p<8>;\n"                            \
    "\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"                                   \
    "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 8;\n\tadd.s64 %rd4, %rd1, %rd3;\n"

static void test_divergence(struct kit *k)
{
    hd_test_begin(k->t, "if/else, nested divergence, predication, reconvergence");
    static const char ptx[] = HEAD REGS
        "\tmov.u32 %r2, 0;\n"
        "\tand.b32 %r3, %r1, 1;\n"
        "\tsetp.eq.u32 %p1, %r3, 0;\n"
        "\t@%p1 bra $Leven;\n"
        "\tadd.u32 %r2, %r2, 100;\n"
        "\tand.b32 %r4, %r1, 2;\n"
        "\tsetp.eq.u32 %p2, %r4, 0;\n"
        "\t@%p2 bra $Lodd_a;\n"
        "\tadd.u32 %r2, %r2, 10;\n"
        "\tbra.uni $Lodd_join;\n"
        "$Lodd_a:\n"
        "\tadd.u32 %r2, %r2, 20;\n"
        "$Lodd_join:\n"
        "\tbra.uni $Ljoin;\n"
        "$Leven:\n"
        "\tadd.u32 %r2, %r2, 200;\n"
        "\tactivemask.b32 %r6;\n"
        "\tst.global.u32 [%rd4+256], %r6;\n"
        "\tand.b32 %r4, %r1, 4;\n"
        "\tsetp.ne.u32 %p3, %r4, 0;\n"
        "\t@%p3 add.u32 %r2, %r2, 1;\n"
        "\t@!%p3 add.u32 %r2, %r2, 2;\n"
        "$Ljoin:\n"
        "\tactivemask.b32 %r5;\n"
        "\tst.global.u32 [%rd4], %r2;\n"
        "\tst.global.u32 [%rd4+4], %r5;\n"
        "\tatom.global.add.u32 %r7, [%rd2], 1;\n"
        "\tret;\n}\n";
    uint64_t in[1] = {0}, out[64];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 32, in, 1, out, 64));
    unsigned bad = 0;
    for (unsigned t = 0; t < 32; t++) {
        uint32_t want = (t & 1) ? 100 + ((t & 2) ? 10 : 20) : 200 + ((t & 4) ? 1 : 2);
        bad += (uint32_t)out[t] != want;
        bad += (uint32_t)(out[t] >> 32) != 0xffffffffu;
        if (!(t & 1))
            bad += (uint32_t)out[32 + t] != 0x55555555u;
    }
    HD_CHECK_U64(k->t, 0, bad);
}

static void test_loops(struct kit *k)
{
    hd_test_begin(k->t, "loops with divergent trip counts, long divergent loop, early exit");
    static const char ptx[] = HEAD REGS
        "\tmov.u32 %r2, 0;\n"
        "\tmov.u32 %r3, 0;\n"
        "\tsetp.eq.u32 %p1, %r1, 0;\n"
        "\t@%p1 bra $Lafter;\n"
        "$Lloop:\n"
        "\tadd.u32 %r2, %r2, %r3;\n"
        "\tadd.u32 %r3, %r3, 1;\n"
        "\tsetp.lt.u32 %p2, %r3, %r1;\n"
        "\t@%p2 bra $Lloop;\n"
        "$Lafter:\n"
        /* a long loop: 2000 + 37 * t iterations, every lane leaving at a different time */
        "\tmov.u32 %r4, 0;\n"
        "\tmad.lo.u32 %r5, %r1, 37, 2000;\n"
        "$Llong:\n"
        "\tadd.u32 %r4, %r4, 1;\n"
        "\tsetp.lt.u32 %p3, %r4, %r5;\n"
        "\t@%p3 bra $Llong;\n"
        "\tactivemask.b32 %r6;\n"
        "\tst.global.u32 [%rd4], %r2;\n"
        "\tst.global.u32 [%rd4+4], %r4;\n"
        "\tst.global.u32 [%rd4+256], %r6;\n"
        /* lanes divisible by 3 exit; the others keep going and meet at a later point */
        "\trem.u32 %r7, %r1, 3;\n"
        "\tsetp.eq.u32 %p4, %r7, 0;\n"
        "\t@%p4 exit;\n"
        "\tactivemask.b32 %r8;\n"
        "\tst.global.u32 [%rd4+260], %r8;\n"
        "\tret;\n}\n";
    uint64_t out[64];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 32, NULL, 0, out, 64));
    uint32_t live = 0;
    for (unsigned t = 0; t < 32; t++)
        if (t % 3)
            live |= 1u << t;
    unsigned bad = 0;
    for (unsigned t = 0; t < 32; t++) {
        bad += (uint32_t)out[t] != t * (t - (t ? 1 : 0)) / 2;
        bad += (uint32_t)(out[t] >> 32) != 2000 + 37 * t;
        bad += (uint32_t)out[32 + t] != 0xffffffffu;
        bad += (uint32_t)(out[32 + t] >> 32) != (t % 3 ? live : 0);
    }
    HD_CHECK_U64(k->t, 0, bad);
}

static void test_calls(struct kit *k)
{
    hd_test_begin(k->t, "call/ret: params, return values, nested and divergent calls, recursion");
    static const char ptx[] =
        ".func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n{\n"
        "\t.reg .b32 %r<3>;\n"
        "\tld.param.u32 %r1, [twice_param_0];\n"
        "\tshl.b32 %r2, %r1, 1;\n"
        "\tst.param.b32 [func_retval0+0], %r2;\n"
        "\tret;\n}\n"
        ".func (.param .b32 func_retval0) add3(.param .b32 add3_param_0, .param .b32 add3_param_1)\n{\n"
        "\t.reg .b32 %r<4>;\n\t.reg .pred %p1;\n"
        "\tld.param.u32 %r1, [add3_param_0];\n"
        "\tld.param.u32 %r2, [add3_param_1];\n"
        "\tsetp.gt.u32 %p1, %r1, 10;\n"
        "\t@%p1 bra $Lbig;\n"
        "\tadd.u32 %r3, %r1, %r2;\n"
        "\tst.param.b32 [func_retval0+0], %r3;\n"
        "\tret;\n"
        "$Lbig:\n"
        "\t{\n"
        "\t.param .b32 param0;\n"
        "\tst.param.b32 [param0+0], %r1;\n"
        "\t.param .b32 retval0;\n"
        "\tcall.uni (retval0), twice, (param0);\n"
        "\tld.param.b32 %r3, [retval0+0];\n"
        "\t}\n"
        "\tst.param.b32 [func_retval0+0], %r3;\n"
        "\tret;\n}\n"
        HEAD REGS
        "\tmov.u32 %r2, 7;\n"
        "\tand.b32 %r3, %r1, 1;\n"
        "\tsetp.eq.u32 %p1, %r3, 0;\n"
        "\t@%p1 bra $Lskip;\n"
        "\t{\n"
        "\t.param .b32 param0;\n"
        "\tst.param.b32 [param0+0], %r1;\n"
        "\t.param .b32 param1;\n"
        "\tst.param.b32 [param1+0], 1000;\n"
        "\t.param .b32 retval0;\n"
        "\tcall.uni (retval0), add3, (param0, param1);\n"
        "\tld.param.b32 %r2, [retval0+0];\n"
        "\t}\n"
        "$Lskip:\n"
        "\tactivemask.b32 %r4;\n"
        "\tst.global.u32 [%rd4], %r2;\n"
        "\tst.global.u32 [%rd4+4], %r4;\n"
        "\tret;\n}\n";
    uint64_t out[32];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 32, NULL, 0, out, 32));
    unsigned bad = 0;
    for (unsigned t = 0; t < 32; t++) {
        uint32_t want = !(t & 1) ? 7 : t > 10 ? 2 * t : t + 1000;
        bad += (uint32_t)out[t] != want;
        bad += (uint32_t)(out[t] >> 32) != 0xffffffffu;
    }
    HD_CHECK_U64(k->t, 0, bad);

    static const char rec[] =
        ".func (.param .b32 func_retval0) f(.param .b32 f_param_0)\n{\n"
        "\t.reg .b32 %r<3>;\n"
        "\tld.param.u32 %r1, [f_param_0];\n"
        "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r1;\n"
        "\t.param .b32 retval0;\n\tcall.uni (retval0), f, (param0);\n"
        "\tld.param.b32 %r2, [retval0+0];\n\t}\n"
        "\tst.param.b32 [func_retval0+0], %r2;\n\tret;\n}\n"
        HEAD "\t.reg .b32 %r1;\n"
        "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], 1;\n"
        "\t.param .b32 retval0;\n\tcall.uni (retval0), f, (param0);\n"
        "\tld.param.b32 %r1, [retval0+0];\n\t}\n"
        "\tret;\n}\n";
    int st = kit_run(k, rec, 1, NULL, 0, NULL, 0);
    HD_CHECK_U64(k->t, (uint64_t)(int64_t)HD_ERR_UNSUPPORTED, (uint64_t)(int64_t)st);
    if (!HD_CHECK(k->t, strstr(k->err, "frag.ptx:12: recursive call of f (reached from kernel k) is not supported") != NULL))
        fprintf(stderr, "    %s\n", k->err);
}

static void test_barriers(struct kit *k)
{
    hd_test_begin(k->t, "bar.sync across warps, bar.red.popc/and/or, bar.arrive producer/consumer");
    static const char ptx[] = HEAD REGS
        "\t.shared .align 4 .b8 sm[512];\n"
        "\tshl.b32 %r2, %r1, 2;\n"
        "\tmov.u32 %r3, sm;\n"
        "\tadd.u32 %r4, %r3, %r2;\n"
        "\tst.shared.u32 [%r4], %r1;\n"
        "\tbar.sync 0;\n"
        "\tadd.u32 %r5, %r1, 32;\n"
        "\tand.b32 %r5, %r5, 127;\n"
        "\tshl.b32 %r5, %r5, 2;\n"
        "\tadd.u32 %r5, %r3, %r5;\n"
        "\tld.shared.u32 %r6, [%r5];\n"
        "\trem.u32 %r7, %r1, 3;\n"
        "\tsetp.eq.u32 %p1, %r7, 0;\n"
        "\tbar.red.popc.u32 %r8, 0, %p1;\n"
        "\tsetp.lt.u32 %p2, %r1, 200;\n"
        "\tbar.red.and.pred %p3, 1, %p2;\n"
        "\tsetp.eq.u32 %p4, %r1, 77;\n"
        "\tbar.red.or.pred %p5, 2, %p4;\n"
        "\tsetp.ne.u32 %p6, %r1, 5;\n"
        "\tbar.red.and.pred %p7, 3, %p6;\n"
        "\tselp.u32 %r9, 1, 0, %p3;\n"
        "\tselp.u32 %r10, 2, 0, %p5;\n"
        "\tselp.u32 %r11, 4, 0, %p7;\n"
        "\tor.b32 %r9, %r9, %r10;\n"
        "\tor.b32 %r9, %r9, %r11;\n"
        "\tshl.b32 %r8, %r8, 8;\n"
        "\tor.b32 %r8, %r8, %r9;\n"
        "\tmov.b64 %rd5, {%r6, %r8};\n"
        "\tst.global.u64 [%rd4], %rd5;\n"
        "\tret;\n}\n";
    uint64_t out[128];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 128, NULL, 0, out, 128));
    unsigned bad = 0;
    for (unsigned t = 0; t < 128; t++) {
        bad += (uint32_t)out[t] != ((t + 32) & 127);
        bad += (uint32_t)(out[t] >> 32) != ((43u << 8) | 1 | 2);
    }
    HD_CHECK_U64(k->t, 0, bad);

    static const char pc[] = HEAD REGS
        "\t.shared .align 4 .b8 sm[128];\n"
        "\tmov.u32 %r3, sm;\n"
        "\tsetp.ge.u32 %p1, %r1, 32;\n"
        "\t@%p1 bra $Lconsumer;\n"
        "\tmul.lo.u32 %r2, %r1, 7;\n"
        "\tshl.b32 %r4, %r1, 2;\n"
        "\tadd.u32 %r4, %r3, %r4;\n"
        "\tst.shared.u32 [%r4], %r2;\n"
        "\tbar.arrive 1, 64;\n"
        "\tret;\n"
        "$Lconsumer:\n"
        "\tbar.sync 1, 64;\n"
        "\tsub.u32 %r5, %r1, 32;\n"
        "\tshl.b32 %r5, %r5, 2;\n"
        "\tadd.u32 %r5, %r3, %r5;\n"
        "\tld.shared.u32 %r6, [%r5];\n"
        "\tst.global.u32 [%rd4], %r6;\n"
        "\tret;\n}\n";
    uint64_t out2[64];
    memset(out2, 0, sizeof out2);
    KIT_OK(k, kit_run(k, pc, 64, NULL, 0, out2, 64));
    bad = 0;
    for (unsigned t = 32; t < 64; t++)
        bad += out2[t] != (t - 32) * 7;
    HD_CHECK_U64(k->t, 0, bad);
}

static void test_deadlock_interrupt(struct kit *k)
{
    hd_test_begin(k->t, "barrier deadlock is reported; the interrupt flag stops a kernel");
    static const char dl[] = HEAD REGS
        "\tsetp.ge.u32 %p1, %r1, 32;\n"
        "\t@%p1 bra $Lw1;\n"
        "\tbar.sync 1, 64;\n"
        "\tret;\n"
        "$Lw1:\n"
        "\tbar.sync 2, 64;\n"
        "\tret;\n}\n";
    int st = kit_run(k, dl, 64, NULL, 0, NULL, 0);
    HD_CHECK_U64(k->t, (uint64_t)(int64_t)HD_ERR_FAULT, (uint64_t)(int64_t)st);
    HD_CHECK(k->t, strstr(k->err, "k: barrier deadlock in block (0,0,0): barrier 1 at PC 7, frag.ptx:16") != NULL);
    if (k->t->failures)
        fprintf(stderr, "    %s\n", k->err);
    /* a warp that exits does not hold a plain bar.sync up */
    static const char ex[] = HEAD REGS
        "\tsetp.ge.u32 %p1, %r1, 32;\n"
        "\t@%p1 exit;\n"
        "\tbar.sync 0;\n"
        "\tst.global.u32 [%rd4], 9;\n"
        "\tret;\n}\n";
    uint64_t out[64] = {0};
    KIT_OK(k, kit_run(k, ex, 64, NULL, 0, out, 64));
    HD_CHECK_U64(k->t, 9, out[0]);
    HD_CHECK_U64(k->t, 0, out[40]);

    static const char spin[] = HEAD REGS "$Lspin:\n\tbra.uni $Lspin;\n}\n";
    volatile sig_atomic_t flag = 1;
    hd_gpu_set_interrupt(k->gpu, &flag);
    st = kit_run(k, spin, 32, NULL, 0, NULL, 0);
    hd_gpu_set_interrupt(k->gpu, NULL);
    HD_CHECK_U64(k->t, (uint64_t)(int64_t)HD_ERR_INTERRUPTED, (uint64_t)(int64_t)st);
    HD_CHECK(k->t, strstr(k->err, "k: interrupted in block (0,0,0)") != NULL);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_divergence(&k);
    test_loops(&k);
    test_calls(&k);
    test_barriers(&k);
    test_deadlock_interrupt(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
