/* SPDX-License-Identifier: MIT
 * test_policy_missq.c - the miss-queue admission policies (missq_policy.h) chosen by
 * [l1d] missq_policy: FIFO; reads_first (the oldest read or atomic before older writes, the
 * oldest anyway once it has waited missq_age_limit cycles); both verify a whole kernel.
 */
#include "config.h"
#include "mem_txn.h"
#include "missq_policy.h"
#include "timing_testkit.h"

static void test_select(struct hd_test_state *t)
{
    hd_test_begin(t, "fifo and reads_first choose as documented");
    const struct hd_mq_policy_ops *ops;
    void *impl;
    HD_CHECK(t, hd_mq_policy_create(HD_MISSQ_FIFO, 256, &ops, &impl) == 0);
    HD_CHECK(t, ops == &hd_mq_policy_fifo && impl == NULL);
    struct hd_mq_view q[4];
    memset(q, 0, sizeof q);
    q[0].type = HD_TXN_WRITE, q[0].waited = 40;
    q[1].type = HD_TXN_WRITEBACK, q[1].waited = 30;
    q[2].type = HD_TXN_ATOMIC, q[2].waited = 20;
    q[3].type = HD_TXN_READ, q[3].waited = 10;
    HD_CHECK_U64(t, 0, ops->select(impl, 0, q, 4, 100));
    HD_CHECK(t, ops->select(impl, 0, q, 0, 100) == -1);
    HD_CHECK(t, hd_mq_policy_create(HD_MISSQ_READS_FIRST, 256, &ops, &impl) == 0);
    HD_CHECK(t, strcmp(ops->name, "reads_first") == 0);
    HD_CHECK_U64(t, 2, ops->select(impl, 0, q, 4, 100));   /* the atomic: the oldest read */
    HD_CHECK_U64(t, 1, ops->select(impl, 0, q + 1, 3, 100)); /* the atomic again */
    HD_CHECK_U64(t, 0, ops->select(impl, 0, q, 2, 100));   /* only writes: the oldest */
    HD_CHECK(t, ops->select(impl, 0, q, 0, 100) == -1);
    q[0].waited = 256;                                      /* the age limit */
    HD_CHECK_U64(t, 0, ops->select(impl, 0, q, 4, 100));
    if (ops->destroy)
        ops->destroy(impl);
}

/* n floats: out[i] = in[i] + 1 with a store between two loads of each thread, so that reads
 * and writes share the miss queue. */
static const char rw_ptx[] = TKIT_HEAD
    ".visible .entry rw(.param .u64 in, .param .u64 out)\n{\n"
    "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<12>;\n"
    "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
    "\tmad.lo.u32 %r4, %r2, %r3, %r1;\n\tmul.wide.u32 %rd3, %r4, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
    "\tld.global.f32 %f1, [%rd4];\n\tst.global.f32 [%rd5], %f1;\n"
    "\tadd.f32 %f2, %f1, 0f3F800000;\n\tst.global.f32 [%rd5], %f2;\n\tret;\n}\n";

static uint64_t run(struct hd_test_state *t, const char *ini)
{
    struct hd_gpu *g = tkit_gpu(ini);
    struct hd_module *m = tkit_module(g, rw_ptx);
    enum { N = 64 * 256 };
    float *h = malloc(N * sizeof *h);
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    hd_devptr in, out;
    hd_malloc(g, &in, N * 4);
    hd_malloc(g, &out, N * 4);
    hd_memcpy_h2d(g, in, h, N * 4);
    struct hd_arg a[2] = {HD_ARG(in), HD_ARG(out)};
    tkit_launch(g, m, "rw", 64, 256, 0, a, 2);
    uint64_t c = tkit_cycles(g, 0);
    hd_memcpy_d2h(g, h, out, N * 4);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += h[i] != (float)i + 1.0f;
    HD_CHECK_U64(t, 0, bad);
    free(h);
    hd_gpu_destroy(g);
    return c;
}

static void test_runs(struct hd_test_state *t)
{
    hd_test_begin(t, "a kernel verifies under each policy; fifo is the default");
    uint64_t def = run(t, NULL);
    uint64_t fifo = run(t, "[l1d]\nmissq_policy = fifo\n");
    uint64_t rf = run(t, "[l1d]\nmissq_policy = reads_first\nmissq_age_limit = 64\n");
    HD_CHECK_U64(t, def, fifo);
    HD_CHECK(t, rf > 0);
    fprintf(stderr, "  cycles: fifo %llu, reads_first %llu\n", (unsigned long long)fifo,
            (unsigned long long)rf);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_select(&t);
    test_runs(&t);
    return hd_test_finish(&t);
}
