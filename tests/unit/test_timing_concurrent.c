/* SPDX-License-Identifier: MIT
 * test_timing_concurrent.c - concurrent launches in the timing model: CTAs of two kernels co-run
 * on one SM only when [sm] concurrent_kernels allows it, launches of one stream run in order,
 * the default stream waits for and blocks the other streams, the concurrent-kernel limit holds,
 * and CTA distribution follows its policy.
 *
 * Each kernel is one CTA of one warp that runs a long dependent loop (thousands of cycles), on a
 * one-SM GPU, so co-running shows as overlapping [start, end] cycle intervals and a total close
 * to one kernel's time, and serial execution as disjoint intervals and twice the time.
 */
#include "timing_testkit.h"

/* spin(out, n): n iterations of an 8-long dependent FP chain; out[tid] = %smid */
static const char spin_ptx[] = TKIT_HEAD
    ".visible .entry spin(.param .u64 out, .param .u32 n)\n{\n"
    "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n\tmov.b32 %f1, 0;\n\tmov.b32 %f2, 1065353216;\n"
    "$L_loop:\n"
    "\tadd.f32 %f1, %f1, %f2;\n\tadd.f32 %f1, %f1, %f2;\n\tadd.f32 %f1, %f1, %f2;\n"
    "\tadd.f32 %f1, %f1, %f2;\n\tadd.f32 %f1, %f1, %f2;\n\tadd.f32 %f1, %f1, %f2;\n"
    "\tadd.f32 %f1, %f1, %f2;\n\tadd.f32 %f1, %f1, %f2;\n"
    "\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra $L_loop;\n"
    "\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r3, %tid.x;\n\tmov.u32 %r4, %ctaid.x;\n\tmov.u32 %r5, %ntid.x;\n"
    "\tmad.lo.u32 %r6, %r4, %r5, %r3;\n\tmul.wide.u32 %rd3, %r6, 4;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n\tmov.u32 %r7, %smid;\n\tst.global.u32 [%rd4], %r7;\n"
    "\tret;\n}\n";

struct run2 {
    struct hd_launch_timing a, b;
    uint64_t total;
    uint64_t multi; /* sm.multi_kernel_cycles */
};

/* Two spin launches (streams sa, sb) on a GPU configured by ini. */
static void run_pair(const char *ini, int sa, int sb, struct run2 *r)
{
    struct hd_gpu *g = tkit_gpu(ini);
    struct hd_module *m = tkit_module(g, spin_ptx);
    int s1, s2;
    hd_stream_create(g, &s1);
    hd_stream_create(g, &s2);
    const int streams[3] = {0, s1, s2};
    hd_devptr out;
    hd_malloc(g, &out, 4096);
    uint32_t n = 100;
    struct hd_arg a[2] = {HD_ARG(out), HD_ARG(n)};
    tkit_launch(g, m, "spin", 1, 32, streams[sa], a, 2);
    tkit_launch(g, m, "spin", 1, 32, streams[sb], a, 2);
    hd_synchronize(g);
    hd_gpu_launch_timing(g, 0, &r->a);
    hd_gpu_launch_timing(g, 1, &r->b);
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(g, &tt);
    r->total = tt.cycles;
    r->multi = tkit_stat(g, "sm.multi_kernel_cycles");
    hd_gpu_destroy(g);
}

#define ONE_SM "[gpu]\nnum_sms = 1\n"
#define MIX_ON "[sm]\nconcurrent_kernels = true\n"

static void test_corun(struct hd_test_state *t)
{
    hd_test_begin(t, "two kernels co-run on one SM when allowed and not when forbidden");
    struct run2 on, off, one;
    run_pair(ONE_SM MIX_ON, 1, 2, &on);
    run_pair(ONE_SM, 1, 2, &off);
    /* one launch alone, for scale */
    {
        struct hd_gpu *g = tkit_gpu(ONE_SM);
        struct hd_module *m = tkit_module(g, spin_ptx);
        hd_devptr out;
        hd_malloc(g, &out, 4096);
        uint32_t n = 100;
        struct hd_arg a[2] = {HD_ARG(out), HD_ARG(n)};
        tkit_launch(g, m, "spin", 1, 32, 0, a, 2);
        hd_synchronize(g);
        hd_gpu_launch_timing(g, 0, &one.a);
        hd_gpu_destroy(g);
    }
    HD_CHECK(t, on.a.finished && on.b.finished && off.a.finished && off.b.finished);
    /* allowed: both resident at once, the intervals overlap, the pair costs about one launch */
    HD_CHECK_U64(t, 2, on.a.max_coresident);
    HD_CHECK_U64(t, 2, on.b.max_coresident);
    HD_CHECK(t, on.b.start_cycle < on.a.end_cycle);
    HD_CHECK(t, on.multi > one.a.cycles / 2);
    HD_CHECK(t, on.total < one.a.cycles * 13 / 10);
    /* forbidden: the second starts once the first has finished (its CTA is placed in the cycle
     * the first one's retires), about twice the time */
    HD_CHECK_U64(t, 1, off.a.max_coresident);
    HD_CHECK_U64(t, 1, off.b.max_coresident);
    HD_CHECK(t, off.b.start_cycle >= off.a.end_cycle);
    HD_CHECK_U64(t, 0, off.multi);
    /* (the second launch finds its code in the instruction cache, so a little less than 2x) */
    HD_CHECK(t, off.total > on.total * 17 / 10);
    if (t->failures)
        fprintf(stderr,
                "    one %llu; on: [%llu,%llu] [%llu,%llu] total %llu; off: [%llu,%llu] "
                "[%llu,%llu] total %llu\n",
                (unsigned long long)one.a.cycles, (unsigned long long)on.a.start_cycle,
                (unsigned long long)on.a.end_cycle, (unsigned long long)on.b.start_cycle,
                (unsigned long long)on.b.end_cycle, (unsigned long long)on.total,
                (unsigned long long)off.a.start_cycle, (unsigned long long)off.a.end_cycle,
                (unsigned long long)off.b.start_cycle, (unsigned long long)off.b.end_cycle,
                (unsigned long long)off.total);
}

static void test_streams(struct hd_test_state *t)
{
    hd_test_begin(t, "a stream's launches run in order; the default stream blocks the others");
    struct run2 same, dflt;
    run_pair(ONE_SM MIX_ON, 1, 1, &same);  /* both on stream 1 */
    run_pair(ONE_SM MIX_ON, 1, 0, &dflt);  /* stream 1 then the default stream */
    HD_CHECK(t, same.b.start_cycle >= same.a.end_cycle);
    HD_CHECK(t, dflt.b.start_cycle >= dflt.a.end_cycle);
    /* and the default stream first, then stream 2 */
    struct run2 d2;
    run_pair(ONE_SM MIX_ON, 0, 2, &d2);
    HD_CHECK(t, d2.b.start_cycle >= d2.a.end_cycle);
    /* at most one launch started at a time */
    struct run2 lim;
    run_pair(ONE_SM MIX_ON "[timing]\nmax_concurrent_kernels = 1\n", 1, 2, &lim);
    HD_CHECK(t, lim.b.start_cycle >= lim.a.end_cycle);
}

static void smids(const char *ini, uint32_t ctas, uint32_t *sm)
{
    struct hd_gpu *g = tkit_gpu(ini);
    struct hd_module *m = tkit_module(g, spin_ptx);
    hd_devptr out;
    hd_malloc(g, &out, 4096);
    uint32_t n = 2;
    struct hd_arg a[2] = {HD_ARG(out), HD_ARG(n)};
    tkit_launch(g, m, "spin", ctas, 32, 0, a, 2);
    hd_synchronize(g);
    uint32_t v[256];
    hd_memcpy_d2h(g, v, out, ctas * 32 * 4);
    for (uint32_t i = 0; i < ctas; i++)
        sm[i] = v[i * 32];
    hd_gpu_destroy(g);
}

static void test_distribution(struct hd_test_state *t)
{
    hd_test_begin(t, "CTA distribution: round-robin spreads, fill-first packs (%smid)");
    uint32_t rr[6], ff[6];
    smids("[gpu]\nnum_sms = 4\n", 6, rr);
    smids("[gpu]\nnum_sms = 4\n[timing]\ncta_dist = fill_first\n", 6, ff);
    /* round-robin: CTA i on SM i mod 4 (one CTA per SM per cycle, in turn) */
    for (uint32_t i = 0; i < 6; i++)
        HD_CHECK_U64(t, i % 4, rr[i]);
    /* fill-first: SM 0 takes one CTA per cycle while it has room (8 CTA slots) */
    for (uint32_t i = 0; i < 6; i++)
        HD_CHECK_U64(t, 0, ff[i]);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_corun(&t);
    test_streams(&t);
    test_distribution(&t);
    return hd_test_finish(&t);
}
