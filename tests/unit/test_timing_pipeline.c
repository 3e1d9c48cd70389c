/* SPDX-License-Identifier: MIT
 * test_timing_pipeline.c - microbenchmarks of the SM pipeline of the timing model (model/timing):
 * dependent-chain latency, issue rate of independent instructions, register-bank conflicts,
 * shared-memory bank conflicts, branch divergence cost and barriers.
 *
 * Each kernel is PTX generated here as text and run through heddle.h on a one-SM configuration.
 * A kernel is launched twice and the second launch is measured, so its code is already in the
 * instruction cache. Expected values follow docs/timing.md: an instruction that depends on the
 * previous one issues lat + 2 cycles after it (issue, operand read, dispatch, lat cycles in the
 * pipeline, writeback); one SM issues at most num_schedulers x issue_width instructions per
 * cycle, limited by the pipelines' initiation intervals; a register bank serves reg_bank_reads
 * reads per cycle; a shared-memory access takes as many cycles as the most distinct words one
 * bank must deliver.
 */
#include "timing_testkit.h"

#include <stdarg.h>

/* {==== PTX text ==== */
struct ptx {
    char buf[65536];
    size_t n;
};

static void emit(struct ptx *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(p->buf + p->n, sizeof p->buf - p->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        p->n += (size_t)k;
}

/* out[warp * 4 + i]: a u32 result slot per warp */
static void prologue(struct ptx *p, const char *name)
{
    emit(p, TKIT_HEAD ".visible .entry %s(.param .u64 out)\n{\n", name);
    emit(p, "\t.reg .f32 %%f<48>;\n\t.reg .b32 %%r<48>;\n\t.reg .b64 %%rd<8>;\n"
            "\t.reg .pred %%p<4>;\n");
}

static void store_and_close(struct ptx *p, const char *val)
{
    emit(p, "\tld.param.u64 %%rd1, [out];\n\tcvta.to.global.u64 %%rd2, %%rd1;\n"
            "\tmov.u32 %%r40, %%tid.x;\n\tmul.wide.u32 %%rd3, %%r40, 4;\n"
            "\tadd.s64 %%rd4, %%rd2, %%rd3;\n\tst.global.u32 [%%rd4], %s;\n\tret;\n}\n",
         val);
}
/* }==== */

/* The SM core is measured behind the fixed-latency memory ([mem] model = fixed) so that its
 * figures do not move with the memory system; tests/unit/test_mem_*.c cover that. */
#define ONE_SM "[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n"

/* Run `ptx`'s kernel `name` twice (grid x block threads) and return the second launch's cycles. */
static uint64_t warm_cycles(struct hd_gpu *g, const char *ptx, const char *name, uint32_t grid,
                            uint32_t block)
{
    struct hd_module *m = tkit_module(g, ptx);
    hd_devptr out = 0;
    if (hd_malloc(g, &out, (size_t)grid * block * 4 + 64) != HD_OK)
        return 0;
    struct hd_arg a[1] = {HD_ARG(out)};
    unsigned first = hd_gpu_launch_timing_count(g);
    if (tkit_launch(g, m, name, grid, block, 0, a, 1) != HD_OK ||
        tkit_launch(g, m, name, grid, block, 0, a, 1) != HD_OK)
        return 0;
    uint64_t c = tkit_cycles(g, first + 1);
    hd_free(g, out);
    return c;
}

static void chain_kernel(struct ptx *p, unsigned n)
{
    p->n = 0;
    prologue(p, "chain");
    emit(p, "\tmov.b32 %%f1, 0;\n\tmov.b32 %%f2, 1065353216;\n");
    for (unsigned i = 0; i < n; i++)
        emit(p, "\tadd.f32 %%f1, %%f1, %%f2;\n");
    emit(p, "\tmov.b32 %%r1, %%f1;\n");
    store_and_close(p, "%r1");
}

static void test_dependent_chain(struct hd_test_state *t)
{
    hd_test_begin(t, "a dependent FP chain costs lat_fp + 2 cycles per instruction");
    static struct ptx p;
    uint64_t c[2][2];
    const unsigned lens[2] = {64, 192};
    const unsigned lats[2] = {4, 20};
    for (int li = 0; li < 2; li++) {
        char ini[256];
        snprintf(ini, sizeof ini, ONE_SM "[pipeline]\nlat_fp = %u\n", lats[li]);
        struct hd_gpu *g = tkit_gpu(ini);
        for (int ni = 0; ni < 2; ni++) {
            chain_kernel(&p, lens[ni]);
            c[li][ni] = warm_cycles(g, p.buf, "chain", 1, 32);
        }
        hd_gpu_destroy(g);
    }
    for (int li = 0; li < 2; li++) /* slope: exactly lat + 2 per added instruction */
        HD_CHECK_U64(t, (uint64_t)(lens[1] - lens[0]) * (lats[li] + 2), c[li][1] - c[li][0]);
    for (int ni = 0; ni < 2; ni++) /* and only the chain depends on lat_fp */
        HD_CHECK_U64(t, (uint64_t)lens[ni] * (lats[1] - lats[0]), c[1][ni] - c[0][ni]);
    /* the whole launch: the chain, the prologue, and the final store's 400-cycle round trip
     * (a CTA retires when its stores have completed) */
    HD_CHECK(t, c[0][0] >= 64 * 6 + 400 && c[0][0] < 64 * 6 + 400 + 100);
}

static void independent_kernel(struct ptx *p, unsigned n)
{
    p->n = 0;
    prologue(p, "indep");
    emit(p, "\tmov.b32 %%f0, 1065353216;\n");
    for (unsigned i = 0; i < n; i++)
        emit(p, "\tadd.f32 %%f%u, %%f0, %%f0;\n", 1 + i % 32);
    emit(p, "\tmov.b32 %%r1, %%f1;\n");
    store_and_close(p, "%r1");
}

/* Steady-state IPC of `warps` warps running independent instructions under `ini`: the extra
 * warp instructions of a longer kernel over its extra cycles (start-up and the final store's
 * memory latency cancel out). */
static double indep_ipc(const char *ini, unsigned warps)
{
    static struct ptx p;
    const unsigned n[2] = {64, 192}; /* ~200 instructions fit the 2 KB instruction cache */
    uint64_t c[2];
    for (int k = 0; k < 2; k++) {
        independent_kernel(&p, n[k]);
        struct hd_gpu *g = tkit_gpu(ini);
        c[k] = warm_cycles(g, p.buf, "indep", 1, warps * 32);
        hd_gpu_destroy(g);
    }
    return c[1] > c[0] ? (double)warps * (n[1] - n[0]) / (double)(c[1] - c[0]) : 0.0;
}

static void test_issue_rate(struct hd_test_state *t)
{
    hd_test_begin(t, "independent instructions reach the configured issue rate");
    double ipc[5];
    /* 2 schedulers, 2 SP pipelines with ii 1: 2 per cycle */
    ipc[0] = indep_ipc(ONE_SM, 16);
    /* initiation interval 2: each SP pipeline accepts every other cycle */
    ipc[1] = indep_ipc(ONE_SM "[pipeline]\nii_fp = 2\n", 16);
    /* one scheduler */
    ipc[2] = indep_ipc(ONE_SM "[sm]\nnum_schedulers = 1\n", 16);
    /* four schedulers but two SP pipelines (two warps fetched per cycle: with one, fetch
     * supplies exactly two instructions per cycle and any idle fetch slot is lost) */
    ipc[3] = indep_ipc(ONE_SM "[sm]\nnum_schedulers = 4\n[pipeline]\nfetch_per_cycle = 2\n", 16);
    /* four schedulers, four pipelines; fetch, result bus and collectors widened to match */
    ipc[4] = indep_ipc(ONE_SM "[sm]\nnum_schedulers = 4\n[pipeline]\nsp_units = 4\n"
                       "fetch_per_cycle = 2\nibuffer_entries = 4\nwb_ports = 4\ncu_sp = 8\n",
                       16);
    const double want[5] = {2.0, 1.0, 1.0, 2.0, 4.0};
    for (int k = 0; k < 5; k++)
        HD_CHECK_F64(t, want[k], ipc[k], 0.02 * want[k]);
    if (t->failures)
        fprintf(stderr, "    IPC %.3f %.3f %.3f %.3f %.3f\n", ipc[0], ipc[1], ipc[2], ipc[3],
                ipc[4]);
}

static void bank_kernel(struct ptx *p, unsigned n, unsigned second)
{
    p->n = 0;
    prologue(p, "banks");
    /* %f1 and %f<second> are read by every add; with reg_bank_source = ptx their banks are
     * (index + warp slot) mod reg_banks, indices being the declaration order (%f0.. first) */
    emit(p, "\tmov.b32 %%f1, 1065353216;\n\tmov.b32 %%f%u, 1073741824;\n", second);
    for (unsigned i = 0; i < n; i++)
        emit(p, "\tadd.f32 %%f%u, %%f1, %%f%u;\n", 20 + i % 16, second);
    emit(p, "\tmov.b32 %%r1, %%f20;\n");
    store_and_close(p, "%r1");
}

/* Cycles per add of one warp's bank kernel (slope between two lengths), and the conflicts of the
 * longer run. */
static double bank_slope(const char *ini, unsigned second, uint64_t *conflicts)
{
    static struct ptx p;
    const unsigned n[2] = {64, 192};
    uint64_t c[2];
    for (int k = 0; k < 2; k++) {
        bank_kernel(&p, n[k], second);
        struct hd_gpu *g = tkit_gpu(ini);
        c[k] = warm_cycles(g, p.buf, "banks", 1, 32);
        *conflicts = tkit_stat(g, "sm.reg_bank_conflicts");
        hd_gpu_destroy(g);
    }
    return (double)(c[1] - c[0]) / (double)(n[1] - n[0]);
}

static void test_register_banks(struct hd_test_state *t)
{
    hd_test_begin(t, "register-bank conflicts cost a cycle per extra read of a bank");
    const char *ptx1 = ONE_SM "[pipeline]\nreg_bank_source = ptx\n";
    const char *ptx2 = ONE_SM "[pipeline]\nreg_bank_source = ptx\nreg_bank_reads = 2\n";
    const char *b8 = ONE_SM "[sm]\nreg_banks = 8\n[pipeline]\nreg_bank_source = ptx\n";
    uint64_t conf[5];
    /* one warp: %f1 and %f2 in different banks, one add per cycle */
    double s0 = bank_slope(ptx1, 2, &conf[0]);
    /* %f1 and %f17 in the same bank of 16: the bank delivers one add's operands per 2 cycles */
    double s1 = bank_slope(ptx1, 17, &conf[1]);
    /* two reads per bank per cycle: no conflict */
    double s2 = bank_slope(ptx2, 17, &conf[2]);
    /* 8 banks: %f1 and %f9 collide, %f1 and %f17 too, %f1 and %f2 do not */
    double s3 = bank_slope(b8, 9, &conf[3]);
    double s4 = bank_slope(b8, 2, &conf[4]);
    HD_CHECK_F64(t, 1.0, s0, 0.02);
    HD_CHECK_F64(t, 2.0, s1, 0.02);
    HD_CHECK_F64(t, 1.0, s2, 0.02);
    HD_CHECK_F64(t, 2.0, s3, 0.02);
    HD_CHECK_F64(t, 1.0, s4, 0.02);
    HD_CHECK_U64(t, 0, conf[0]);
    HD_CHECK(t, conf[1] >= 2 * 192);
    HD_CHECK_U64(t, 0, conf[2]);
    HD_CHECK(t, conf[3] >= 2 * 192);
    HD_CHECK_U64(t, 0, conf[4]);
    if (t->failures)
        fprintf(stderr, "    cycles/add %.3f %.3f %.3f %.3f %.3f\n", s0, s1, s2, s3, s4);
}

static void shared_kernel_op(struct ptx *p, unsigned n, unsigned stride_words, bool atomic)
{
    p->n = 0;
    emit(p, TKIT_HEAD ".shared .align 16 .b8 sbuf[8192];\n");
    emit(p, ".visible .entry smem(.param .u64 out)\n{\n");
    emit(p, "\t.reg .f32 %%f<48>;\n\t.reg .b32 %%r<96>;\n\t.reg .b64 %%rd<8>;\n");
    emit(p, "\tmov.u32 %%r1, %%tid.x;\n\tmul.lo.u32 %%r2, %%r1, %u;\n", stride_words * 4);
    emit(p, "\tmov.u32 %%r3, sbuf;\n\tadd.u32 %%r4, %%r3, %%r2;\n");
    const char *op = atomic ? "\tatom.shared.add.u32 %%r%u, [%%r4], 1;\n"
                            : "\tld.shared.u32 %%r%u, [%%r4];\n";
    for (unsigned i = 0; i < n; i++)
        emit(p, op, 50 + i % 40); /* no WAW within latency */
    store_and_close(p, "%r50");
}

static void shared_kernel(struct ptx *p, unsigned n, unsigned stride_words)
{
    shared_kernel_op(p, n, stride_words, false);
}

static void test_shared_atomics(struct hd_test_state *t)
{
    hd_test_begin(t, "shared-memory atomics to one word serialize; to distinct banks they do not");
    static struct ptx p;
    const unsigned n[2] = {32, 96};
    const unsigned strides[2] = {0, 1};
    const unsigned degree[2] = {32, 1};
    for (int k = 0; k < 2; k++) {
        uint64_t c[2];
        for (int j = 0; j < 2; j++) {
            shared_kernel_op(&p, n[j], strides[k], true);
            struct hd_gpu *g = tkit_gpu(ONE_SM);
            c[j] = warm_cycles(g, p.buf, "smem", 1, 32);
            hd_gpu_destroy(g);
        }
        double slope = (double)(c[1] - c[0]) / (double)(n[1] - n[0]);
        HD_CHECK_F64(t, (double)degree[k], slope, 0.02 * degree[k]);
        if (t->failures)
            fprintf(stderr, "    stride %u: %.3f cycles per atomic\n", strides[k], slope);
    }
}

static void test_shared_banks(struct hd_test_state *t)
{
    hd_test_begin(t, "shared-memory bank conflicts: an access takes max-degree cycles");
    static struct ptx p;
    const unsigned n[2] = {64, 192};
    const unsigned strides[6] = {1, 2, 4, 32, 0, 33};
    /* stride 0: every lane reads one word (broadcast); stride 33 words: 32 banks, no conflict */
    const unsigned degree[6] = {1, 2, 4, 32, 1, 1};
    for (int k = 0; k < 6; k++) {
        uint64_t c[2], extra = 0;
        for (int j = 0; j < 2; j++) {
            shared_kernel(&p, n[j], strides[k]);
            struct hd_gpu *g = tkit_gpu(ONE_SM);
            c[j] = warm_cycles(g, p.buf, "smem", 1, 32);
            extra = tkit_stat(g, "sm.smem_conflict_cycles");
            hd_gpu_destroy(g);
        }
        /* two launches of n[1] loads, degree - 1 extra cycles each */
        HD_CHECK_U64(t, 2ull * n[1] * (degree[k] - 1), extra);
        /* the load/store unit is busy `degree` cycles per load */
        double slope = (double)(c[1] - c[0]) / (double)(n[1] - n[0]);
        HD_CHECK_F64(t, (double)degree[k], slope, 0.02 * degree[k]);
        if (t->failures)
            fprintf(stderr, "    stride %u: %.3f cycles per load\n", strides[k], slope);
    }
}

static void diverge_kernel(struct ptx *p)
{
    p->n = 0;
    prologue(p, "div");
    emit(p, "\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, 0;\n\tsetp.lt.u32 %%p1, %%r1, 16;\n"
            "\t@%%p1 bra $L_then;\n\tadd.u32 %%r2, %%r1, 7;\n\tbra.uni $L_join;\n"
            "$L_then:\n\tadd.u32 %%r2, %%r1, 9;\n$L_join:\n");
    store_and_close(p, "%r2");
}

static void test_divergence(struct hd_test_state *t)
{
    hd_test_begin(t, "a divergent branch costs diverge_cycles, every branch branch_cycles");
    static struct ptx p;
    diverge_kernel(&p);
    const char *ini[3] = {ONE_SM, ONE_SM "[pipeline]\ndiverge_cycles = 100\n",
                          ONE_SM "[pipeline]\nbranch_cycles = 30\n"};
    uint64_t c[3], br = 0, dv = 0;
    for (int k = 0; k < 3; k++) {
        struct hd_gpu *g = tkit_gpu(ini[k]);
        c[k] = warm_cycles(g, p.buf, "div", 1, 32);
        if (k == 0) {
            br = tkit_stat(g, "sm.branches");
            dv = tkit_stat(g, "sm.divergent_branches");
        }
        hd_gpu_destroy(g);
    }
    HD_CHECK_U64(t, 4, br); /* two launches: the guarded bra and the else path's bra.uni */
    HD_CHECK_U64(t, 2, dv);
    HD_CHECK_U64(t, c[0] + 100, c[1]);
    HD_CHECK_U64(t, c[0] + 2 * 30, c[2]);
    if (t->failures)
        fprintf(stderr, "    cycles %llu %llu %llu\n", (unsigned long long)c[0],
                (unsigned long long)c[1], (unsigned long long)c[2]);
}

static void test_barrier(struct hd_test_state *t)
{
    hd_test_begin(t, "a warp waiting at bar.sync does not issue until the barrier releases");
    static struct ptx p;
    p.n = 0;
    prologue(&p, "bar");
    /* warp 0 runs a 64-long dependent chain first; both read %clock before and after */
    emit(&p, "\tmov.u32 %%r1, %%tid.x;\n\tmov.b32 %%f1, 0;\n\tmov.b32 %%f2, 1065353216;\n"
             "\tsetp.ge.u32 %%p1, %%r1, 32;\n\t@%%p1 bra $L_wait;\n");
    for (unsigned i = 0; i < 64; i++)
        emit(&p, "\tadd.f32 %%f1, %%f1, %%f2;\n");
    emit(&p, "$L_wait:\n\tmov.u32 %%r5, %%clock;\n\tbar.sync 0;\n\tmov.u32 %%r6, %%clock;\n"
             "\tsub.u32 %%r7, %%r6, %%r5;\n");
    store_and_close(&p, "%r7");
    struct hd_gpu *g = tkit_gpu(ONE_SM);
    struct hd_module *m = tkit_module(g, p.buf);
    hd_devptr out;
    HD_CHECK_U64(t, HD_OK, hd_malloc(g, &out, 64 * 4));
    struct hd_arg a[1] = {HD_ARG(out)};
    HD_CHECK_U64(t, HD_OK, tkit_launch(g, m, "bar", 1, 64, 0, a, 1));
    HD_CHECK(t, tkit_cycles(g, 0) > 64 * 6);
    uint32_t wait[64];
    HD_CHECK_U64(t, HD_OK, hd_memcpy_d2h(g, wait, out, sizeof wait));
    /* warp 1 waited for warp 0's whole chain; warp 0 hardly waited */
    HD_CHECK(t, wait[32] >= 64 * 6 && wait[63] == wait[32]);
    HD_CHECK(t, wait[0] < 64);
    HD_CHECK(t, tkit_stat(g, "sched.stall_barrier") > 0);
    HD_CHECK_U64(t, 1, tkit_stat(g, "sm.barrier_waits")); /* the last arrival does not wait */
    if (t->failures)
        fprintf(stderr, "    waits %u %u\n", wait[0], wait[32]);
    hd_gpu_destroy(g);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_dependent_chain(&t);
    test_issue_rate(&t);
    test_register_banks(&t);
    test_shared_banks(&t);
    test_shared_atomics(&t);
    test_divergence(&t);
    test_barrier(&t);
    return hd_test_finish(&t);
}
