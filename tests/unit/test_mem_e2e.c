/* SPDX-License-Identifier: MIT
 * test_mem_e2e.c - the full memory system under the whole timing model ([mem] model = full):
 * PTX microbenchmarks run through heddle.h.
 *
 *   pointer chase   one thread follows a chain of pointers laid out in a region that fits the
 *                   L1, the L2, or neither; the cycles per added hop are the load-to-use time of
 *                   the SM plus the memory latency. The L1 chain gives the SM's part; the L2 and
 *                   DRAM chains must then cost the unloaded latencies of docs/memory.md (as
 *                   computed in mem_testkit.h) within 5 %.
 *   streaming       every SM reads a large array with coalesced, unrolled loads; DRAM traffic
 *                   over DRAM cycles must reach 85 % of the configured peak (issue 5).
 *   determinism     two runs give identical cycles.
 */
#include "mem_testkit.h"
#include "timing_testkit.h"

#include <math.h>

#define FULL "[mem]\nmodel = full\n"

static const char chase_ptx[] = TKIT_HEAD
    ".visible .entry chase(.param .u64 p, .param .u32 n, .param .u64 out)\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n"
    "LOOP:\n"
    "\tld.global.u64 %rd1, [%rd1];\n"
    "\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n"
    "\tld.param.u64 %rd2, [out];\n\tst.global.u64 [%rd2], %rd1;\n\tret;\n"
    "}\n";

/* Cycles of a launch of `n` hops over a chain of `lines` lines `stride` bytes apart (the
 * chain is laid out and run once first, so caches are warm as far as they can be). */
static uint64_t chase(struct hd_gpu *g, struct hd_module *m, hd_devptr buf, uint32_t lines,
                      uint32_t stride, uint32_t n, hd_devptr out)
{
    uint64_t *host = calloc((size_t)lines * stride / 8, 8);
    for (uint32_t i = 0; i < lines; i++)
        host[(size_t)i * stride / 8] = buf + (uint64_t)((i + 1) % lines) * stride;
    hd_memcpy_h2d(g, buf, host, (size_t)lines * stride);
    free(host);
    struct hd_arg a[3] = {HD_ARG(buf), HD_ARG(n), HD_ARG(out)};
    unsigned first = hd_gpu_launch_timing_count(g);
    uint32_t warm = lines;
    struct hd_arg w[3] = {HD_ARG(buf), HD_ARG(warm), HD_ARG(out)};
    if (tkit_launch(g, m, "chase", 1, 1, 0, w, 3) != HD_OK ||
        tkit_launch(g, m, "chase", 1, 1, 0, a, 3) != HD_OK)
        return 0;
    return tkit_cycles(g, first + 1);
}

/* Cycles per hop between n1 and n2 hops. */
static double per_hop(struct hd_gpu *g, struct hd_module *m, hd_devptr buf, uint32_t lines,
                      uint32_t stride, uint32_t n1, uint32_t n2, hd_devptr out)
{
    uint64_t c1 = chase(g, m, buf, lines, stride, n1, out);
    uint64_t c2 = chase(g, m, buf, lines, stride, n2, out);
    return (double)(c2 - c1) / (n2 - n1);
}

static void test_chase(struct hd_test_state *t)
{
    hd_test_begin(t, "pointer-chase kernel: L1, L2 and DRAM latencies");
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n" FULL);
    struct hd_module *m = tkit_module(g, chase_ptx);
    struct hd_config c;
    hd_config_defaults(&c);
    c.gpu_num_sms = 1;
    hd_devptr buf = 0, out = 0;
    const size_t big = 8u << 20;
    if (hd_malloc(g, &buf, big) != HD_OK || hd_malloc(g, &out, 64) != HD_OK) {
        HD_CHECK(t, false);
        return;
    }
    const uint32_t l1_lines = c.l1d_sets * c.l1d_ways;
    /* L1: a quarter of the L1 */
    double h1 = per_hop(g, m, buf, l1_lines / 4, 128, 200, 600, out);
    const double sm = h1 - c.l1d_latency; /* the SM's own part of a dependent load */
    /* L2: four times the L1 (cyclic, so LRU misses every time), well inside the L2 */
    double h2 = per_hop(g, m, buf, 4 * l1_lines, 128, 1024, 3072, out);
    /* DRAM: consecutive lines of 8 MB, ten times the L2: mostly row hits */
    const uint32_t dl = (uint32_t)(big / 128);
    double h3 = per_hop(g, m, buf, dl, 128, 2000, 6000, out);
    const double want2 = tk_l2_hit_latency(&c) + sm;
    const double want3 = tk_dram_latency(&c) - c.dram_trcd * c.clock_core_mhz / c.clock_dram_mhz +
                         sm;
    printf("  cycles per hop: L1 %.2f (SM part %.2f), L2 %.2f (expected %.2f), DRAM %.2f "
           "(expected %.2f with the row open)\n", h1, sm, h2, want2, h3, want3);
    HD_CHECK(t, sm > 0 && sm < 40);
    HD_CHECK(t, fabs(h2 - want2) <= 0.05 * want2);
    HD_CHECK(t, fabs(h3 - want3) <= 0.05 * want3);
    hd_gpu_destroy(g);
}

/* {==== Streaming ==== */
/* One float4 per thread (four consecutive lines per warp), as a copy or vector-add kernel
 * reads; it stores only on a sentinel sum that the zeroed input never has, so the traffic is
 * reads. */
static const char stream_ptx[] = TKIT_HEAD
    ".visible .entry stream(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .f32 %f<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [in];\n"
    "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n"
    "\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "\tmul.wide.u32 %rd2, %r5, 16;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tld.global.v4.f32 {%f2, %f3, %f4, %f5}, [%rd3];\n"
    "\tadd.f32 %f1, %f2, %f3;\n\tadd.f32 %f1, %f1, %f4;\n\tadd.f32 %f1, %f1, %f5;\n"
    "\tsetp.neu.f32 %p1, %f1, 0f46C0E400;\n\t@%p1 bra DONE;\n"
    "\tld.param.u64 %rd5, [out];\n\tst.global.f32 [%rd5], %f1;\n"
    "DONE:\n\tret;\n"
    "}\n";

/* A number of the memory section of the JSON report: the first "key": after `within` (an
 * object key such as "total" or "derived"; NULL: anywhere in the section). */
static double json_mem(const char *js, const char *within, const char *key)
{
    const char *p = strstr(js, "\"memory\": {");
    char k[64];
    if (p && within) {
        snprintf(k, sizeof k, "\"%s\": ", within);
        p = strstr(p, k);
    }
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *v = p ? strstr(p, k) : NULL;
    return v ? strtod(v + strlen(k), NULL) : -1;
}

/* Run the streaming kernel over ctas x 256 threads x 16 bytes with `mshrs` L1 and L2 MSHRs;
 * returns its cycles, the DRAM bandwidth as a fraction of the peak and the row-hit rate. */
static uint64_t run_stream(struct hd_test_state *t, uint32_t ctas, unsigned mshrs, double *eff,
                           double *rows)
{
    char ini[256];
    snprintf(ini, sizeof ini, FULL "[l1d]\nmshr_entries = %u\n[l2]\nmshr_entries = %u\n",
             mshrs, mshrs);
    struct hd_gpu *g = tkit_gpu(ini);
    struct hd_module *m = tkit_module(g, stream_ptx);
    const uint32_t block = 256;
    const size_t bytes = (size_t)ctas * block * 16;
    hd_devptr in = 0, out = 0;
    if (hd_malloc(g, &in, bytes) != HD_OK || hd_malloc(g, &out, 64) != HD_OK) {
        HD_CHECK(t, false);
        return 0;
    }
    hd_memset(g, in, 0, bytes);
    struct hd_arg a[2] = {HD_ARG(in), HD_ARG(out)};
    uint64_t cyc = 0;
    if (tkit_launch(g, m, "stream", ctas, block, 0, a, 2) == HD_OK)
        cyc = tkit_cycles(g, 0);
    char *js = tkit_stats_json(g);
    const double rd = json_mem(js, "total", "dram_read_bytes");
    const double wr = json_mem(js, "total", "dram_write_bytes");
    *eff = (rd + wr) / json_mem(js, "cycles", "dram") /
           json_mem(js, "derived", "dram_peak_bytes_per_dram_cycle");
    *rows = json_mem(js, "derived", "dram_row_hit_rate");
    HD_CHECK(t, rd >= (double)bytes && rd < (double)bytes + 4096);
    free(js);
    hd_gpu_destroy(g);
    return cyc;
}

static void test_stream(struct hd_test_state *t)
{
    hd_test_begin(t, "streaming kernel: DRAM bandwidth against the peak; deterministic");
    double eff, rows, eff2, rows2;
    /* GTX480 (32 L1 and 32 L2 MSHRs): the lines in flight, not the DRAM, limit the stream
     * (Little: 15 x 32 lines over a loaded round trip of ~320 cycles is ~1.5 of the 1.98 lines
     * per core cycle the DRAM can deliver); the papers' baseline saturates its DRAM at 60-70 %
     * of the peak (Lin §2.15). */
    run_stream(t, 1024, 32, &eff, &rows);
    printf("  streaming kernel, GTX480: DRAM at %.1f%% of peak (row hits %.1f%%)\n", 100 * eff,
           100 * rows);
    HD_CHECK(t, eff >= 0.65 && eff < 0.85);
    HD_CHECK(t, rows >= 0.9);
    /* with MSHRs covering the bandwidth-delay product it runs at >= 85 % of the peak */
    uint64_t c1 = run_stream(t, 2048, 64, &eff, &rows);
    uint64_t c2 = run_stream(t, 2048, 64, &eff2, &rows2);
    printf("  streaming kernel, 64 L1 and L2 MSHRs: %llu cycles, DRAM at %.1f%% of peak\n",
           (unsigned long long)c1, 100 * eff);
    HD_CHECK(t, eff >= 0.85);
    HD_CHECK_U64(t, c1, c2);
    HD_CHECK_F64(t, eff, eff2, 0);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_chase(&t);
    test_stream(&t);
    return hd_test_finish(&t);
}
