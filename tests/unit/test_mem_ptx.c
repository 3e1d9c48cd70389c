/* SPDX-License-Identifier: MIT
 * test_mem_ptx.c - how PTX memory instructions reach the full memory system ([mem] model =
 * full; docs/memory.md "Requests and where they go"): PTX microbenchmarks run through heddle.h.
 *
 *   cache operators  a pointer chase that fits the L1: with ld.global (and .ca) every hop hits
 *                    the L1; with ld.global.cg and .cv no load looks the L1 up (0 L1 reads) and
 *                    a hop costs the SM's part plus the unloaded L2 latency of a 32-byte reply;
 *   constant cache   a kernel summing a __constant__ table: the first launch misses once per
 *                    constant-cache line, the second hits (cycles drop by at least the misses'
 *                    L2 round trips, two at a time through the two MSHRs); each launch's
 *                    parameters are new lines (no aliasing between launches); a warp whose
 *                    lanes read 32 different lines sends 32 requests; with [mem] model = fixed
 *                    the launches differ only by the cold instruction cache (const_latency,
 *                    no constant cache);
 *   transactions     uncached (.cg) warp loads of 4 bytes per lane at several strides become
 *                    trimmed 32/64/128-byte transactions and the DRAM reads exactly those bytes;
 *                    cached loads fill 128-byte lines;
 *   fetch addresses  two kernels with identical code: the second one's instruction-cache
 *                    misses never hit the first one's L2 lines (each kernel has its own code
 *                    window), while two SMs running one kernel share them.
 */
#include "coalesce.h"
#include "mem_testkit.h"
#include "timing_testkit.h"

#include <math.h>

#define FULL "[mem]\nmodel = full\n"

/* {==== JSON ==== */
/* Counter `key` of the memory system's record of launch `launch` (-1: the totals). */
static double mstat(const char *js, int launch, const char *key)
{
    const char *p = strstr(js, "\"memory\": {");
    char k[64];
    if (p && launch < 0) {
        p = strstr(p, "\"total\": ");
    } else if (p) {
        snprintf(k, sizeof k, "{\"launch\": %d, ", launch);
        p = strstr(p, k);
    }
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *v = p ? strstr(p, k) : NULL;
    const char *eol = p ? strchr(p, '\n') : NULL;
    if (!v || (launch >= 0 && eol && v > eol))
        return -1;
    return strtod(v + strlen(k), NULL);
}
/* }==== */

/* Unloaded latency of a read of `bytes` served by the L2 (tk_l2_hit_latency with a reply of
 * `bytes` instead of a line). */
static double l2_latency(const struct hd_config *c, uint32_t bytes)
{
    const double ri = c->clock_core_mhz / c->clock_icnt_mhz;
    const uint32_t port_flits = c->icnt_port_bytes / c->icnt_flit_bytes;
    const uint32_t line_rep =
        tk_ceil(tk_ceil(c->icnt_header_bytes + c->l1d_line, c->icnt_flit_bytes), port_flits);
    const uint32_t rep =
        tk_ceil(tk_ceil(c->icnt_header_bytes + bytes, c->icnt_flit_bytes), port_flits);
    return tk_l2_hit_latency(c) - ((double)line_rep - rep) * ri;
}

/* {==== Cache operators ==== */
static const char chase_ptx[] = TKIT_HEAD
    ".visible .entry chase_def(.param .u64 p, .param .u32 n, .param .u64 out)\n"
    "{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n"
    "LOOP:\n\tld.global.u64 %rd1, [%rd1];\n"
    "\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n"
    "\tld.param.u64 %rd2, [out];\n\tst.global.u64 [%rd2], %rd1;\n\tret;\n}\n"
    ".visible .entry chase_ca(.param .u64 p, .param .u32 n, .param .u64 out)\n"
    "{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n"
    "LOOP:\n\tld.global.ca.u64 %rd1, [%rd1];\n"
    "\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n"
    "\tld.param.u64 %rd2, [out];\n\tst.global.u64 [%rd2], %rd1;\n\tret;\n}\n"
    ".visible .entry chase_cg(.param .u64 p, .param .u32 n, .param .u64 out)\n"
    "{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n"
    "LOOP:\n\tld.global.cg.u64 %rd1, [%rd1];\n"
    "\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n"
    "\tld.param.u64 %rd2, [out];\n\tst.global.u64 [%rd2], %rd1;\n\tret;\n}\n"
    ".visible .entry chase_cv(.param .u64 p, .param .u32 n, .param .u64 out)\n"
    "{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n"
    "LOOP:\n\tld.global.cv.u64 %rd1, [%rd1];\n"
    "\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n"
    "\tld.param.u64 %rd2, [out];\n\tst.global.u64 [%rd2], %rd1;\n\tret;\n}\n";

/* On a fresh one-SM GPU: a chain of `lines` lines 128 bytes apart, kernel `k` run for n1 and
 * then n2 hops (after a warming run); returns the cycles per added hop and the L1 reads, L1
 * read hits and L1 bypasses of the whole run. */
static double chase(const char *k, uint32_t lines, uint32_t n1, uint32_t n2, double *l1r,
                    double *l1h, double *byp)
{
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n" FULL);
    struct hd_module *m = tkit_module(g, chase_ptx);
    hd_devptr buf = 0, out = 0;
    const uint32_t stride = 128;
    if (hd_malloc(g, &buf, (size_t)lines * stride) != HD_OK || hd_malloc(g, &out, 64) != HD_OK)
        return -1;
    uint64_t *host = calloc((size_t)lines * stride / 8, 8);
    for (uint32_t i = 0; i < lines; i++)
        host[(size_t)i * stride / 8] = buf + (uint64_t)((i + 1) % lines) * stride;
    hd_memcpy_h2d(g, buf, host, (size_t)lines * stride);
    free(host);
    uint32_t n[3] = {lines, n1, n2};
    uint64_t c[3] = {0};
    for (int i = 0; i < 3; i++) {
        struct hd_arg a[3] = {HD_ARG(buf), HD_ARG(n[i]), HD_ARG(out)};
        if (tkit_launch(g, m, k, 1, 1, 0, a, 3) != HD_OK)
            return -1;
        c[i] = tkit_cycles(g, (unsigned)i);
    }
    char *js = tkit_stats_json(g);
    *l1r = mstat(js, -1, "l1d_reads");
    *l1h = mstat(js, -1, "l1d_read_hits");
    *byp = mstat(js, -1, "l1d_bypass");
    free(js);
    hd_gpu_destroy(g);
    return (double)(c[2] - c[1]) / (n2 - n1);
}

static void test_cache_ops(struct hd_test_state *t)
{
    hd_test_begin(t, "ld.global.cg/.cv bypass the L1 (L2 latency on re-reads); default/.ca hit");
    struct hd_config c;
    hd_config_defaults(&c);
    const uint32_t lines = c.l1d_sets * c.l1d_ways / 4; /* a quarter of the L1 */
    double r[4], h[4], b[4], hop[4];
    const char *k[4] = {"chase_def", "chase_ca", "chase_cg", "chase_cv"};
    for (int i = 0; i < 4; i++)
        hop[i] = chase(k[i], lines, 200, 600, &r[i], &h[i], &b[i]);
    const double sm = hop[0] - c.l1d_latency; /* the SM's part of a dependent load */
    const double want = sm + l2_latency(&c, HD_SECTOR_BYTES);
    printf("  cycles per hop: ld %.2f, ld.ca %.2f, ld.cg %.2f, ld.cv %.2f (expected %.2f: SM "
           "part %.2f + L2 %.2f)\n", hop[0], hop[1], hop[2], hop[3], want, sm,
           l2_latency(&c, HD_SECTOR_BYTES));
    printf("  L1 reads / hits / bypasses: ld %.0f/%.0f/%.0f, ld.cg %.0f/%.0f/%.0f\n", r[0], h[0],
           b[0], r[2], h[2], b[2]);
    const double hops = lines + 200 + 600;
    for (int i = 0; i < 2; i++) { /* cached: every hop after the first pass hits */
        HD_CHECK(t, r[i] >= hops && h[i] >= hops - lines && b[i] == 0);
        HD_CHECK_F64(t, hop[i], hop[0], 0);
    }
    for (int i = 2; i < 4; i++) { /* bypassing: no L1 lookup at all */
        HD_CHECK(t, r[i] == 0 && h[i] == 0 && b[i] == hops);
        HD_CHECK(t, fabs(hop[i] - want) <= 0.05 * want);
    }
    HD_CHECK(t, sm > 0 && sm < 40);
}
/* }==== */

/* {==== Constant cache ==== */
/* sum over i < n of tab[(i * 16) mod 4096 bytes]: every 16 bytes of a 4 KB table, all lanes
 * reading the same word (one request per load) */
static const char const_ptx[] = TKIT_HEAD
    ".const .align 4 .b8 tab[4096];\n"
    ".visible .entry csum(.param .u64 out, .param .u32 n)\n"
    "{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 0;\n\tmov.u64 %rd3, tab;\n"
    "LOOP:\n\tshl.b32 %r4, %r2, 4;\n\tand.b32 %r4, %r4, 4095;\n\tcvt.u64.u32 %rd2, %r4;\n"
    "\tadd.s64 %rd2, %rd2, %rd3;\n\tld.const.u32 %r6, [%rd2];\n\tadd.s32 %r3, %r3, %r6;\n"
    "\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n"
    "\tld.param.u64 %rd1, [out];\n\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n"
    /* lane l reads tab[64 l]: 32 lanes, 32 different 64-byte lines */
    ".visible .entry cdiv(.param .u64 out)\n"
    "{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 64;\n\tmov.u64 %rd3, tab;\n"
    "\tadd.s64 %rd2, %rd2, %rd3;\n\tld.const.u32 %r3, [%rd2];\n"
    "\tld.param.u64 %rd1, [out];\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";

static void test_const(struct hd_test_state *t)
{
    hd_test_begin(t, "__constant__ table: constant-cache misses then hits; params per launch");
    struct hd_config c;
    hd_config_defaults(&c);
    const uint32_t n = 1024, tlines = 4096 / c.l1c_line;
    uint64_t cyc[2][2] = {{0}};
    for (int full = 0; full < 2; full++) {
        struct hd_gpu *g = tkit_gpu(full ? "[gpu]\nnum_sms = 1\n" FULL
                                         : "[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n");
        struct hd_module *m = tkit_module(g, const_ptx);
        hd_devptr out = 0;
        if (hd_malloc(g, &out, 4096) != HD_OK) {
            HD_CHECK(t, false);
            return;
        }
        uint32_t tab[1024];
        for (uint32_t i = 0; i < 1024; i++)
            tab[i] = i * 7 + 1;
        hd_devptr tp = 0;
        size_t tb = 0;
        HD_CHECK(t, hd_module_symbol(g, m, "tab", &tp, &tb) == HD_OK && tb == sizeof tab);
        HD_CHECK(t, hd_memcpy_h2d(g, tp, tab, sizeof tab) == HD_OK);
        const hd_devptr out2 = out + 128;
        struct hd_arg a[2] = {HD_ARG(out), HD_ARG(n)};
        struct hd_arg d[1] = {HD_ARG(out2)};
        for (int i = 0; i < 2; i++)
            if (tkit_launch(g, m, "csum", 1, 32, 0, a, 2) != HD_OK)
                return;
        if (tkit_launch(g, m, "cdiv", 1, 32, 0, d, 1) != HD_OK)
            return;
        cyc[full][0] = tkit_cycles(g, 0);
        cyc[full][1] = tkit_cycles(g, 1);
        uint32_t want = 0, got[33];
        for (uint32_t i = 0; i < n; i++)
            want += tab[(i * 16 % 4096) / 4];
        hd_memcpy_d2h(g, got, out, 4);
        hd_memcpy_d2h(g, got + 1, out2, 32 * 4);
        HD_CHECK(t, got[0] == want);
        for (uint32_t l = 0; l < 32; l++)
            HD_CHECK(t, got[1 + l] == tab[16 * l]);
        if (full) {
            char *js = tkit_stats_json(g);
            double rd[3], hit[3];
            for (int i = 0; i < 3; i++) {
                rd[i] = mstat(js, i, "l1c_reads");
                hit[i] = mstat(js, i, "l1c_hits");
            }
            printf("  csum cold: %.0f constant-cache reads, %.0f misses, %llu cycles; warm: %.0f "
                   "reads, %.0f misses, %llu cycles\n", rd[0], rd[0] - hit[0],
                   (unsigned long long)cyc[1][0], rd[1], rd[1] - hit[1],
                   (unsigned long long)cyc[1][1]);
            printf("  cdiv: %.0f constant-cache reads (32 lines + parameters)\n", rd[2]);
            /* n table loads + 2 parameter loads, one request each */
            HD_CHECK(t, rd[0] == n + 2 && rd[1] == n + 2);
            /* cold: one miss per table line and one for the parameters (one line) */
            HD_CHECK(t, rd[0] - hit[0] == tlines + 1);
            /* warm: the table hits; the new launch's parameters miss (no aliasing) */
            HD_CHECK(t, rd[1] - hit[1] == 1);
            HD_CHECK(t, rd[2] == 32 + 1);
            /* at most two misses in flight (two MSHRs), each at least an L2 round trip */
            HD_CHECK(t, (double)cyc[1][0] - (double)cyc[1][1] >=
                            tlines * tk_l2_hit_latency(&c) / c.l1c_mshr_entries);
            free(js);
        }
        hd_gpu_destroy(g);
    }
    printf("  fixed memory: csum %llu then %llu cycles\n", (unsigned long long)cyc[0][0],
           (unsigned long long)cyc[0][1]);
    /* no constant cache: const_latency each time; only the cold instruction cache differs */
    HD_CHECK(t, cyc[0][0] >= cyc[0][1] &&
                    (cyc[0][0] - cyc[0][1]) * 10 < cyc[1][0] - cyc[1][1]);
}
/* }==== */

/* {==== Transactions ==== */
/* thread i loads the u32 at p + i x stride x 4 (ld.global.cg in partg, ld.global in partc) */
static const char part_ptx[] = TKIT_HEAD
    ".visible .entry partg(.param .u64 p, .param .u32 stride)\n"
    "{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [stride];\n\tmov.u32 %r2, %tid.x;\n"
    "\tmul.lo.s32 %r2, %r2, %r1;\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
    "\tld.global.cg.u32 %r3, [%rd1];\n\tret;\n}\n"
    ".visible .entry partc(.param .u64 p, .param .u32 stride)\n"
    "{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [stride];\n\tmov.u32 %r2, %tid.x;\n"
    "\tmul.lo.s32 %r2, %r2, %r1;\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
    "\tld.global.u32 %r3, [%rd1];\n\tret;\n}\n";

static void test_transactions(struct hd_test_state *t)
{
    hd_test_begin(t, "warp loads: 32/64/128-byte transactions uncached, 128-byte lines cached");
    struct hd_config c;
    hd_config_defaults(&c);
    static const struct {
        const char *k;
        uint32_t threads, stride;
        uint32_t n32, n64, n128; /* expected transactions below the L1 */
    } cs[] = {
        {"partg", 32, 1, 0, 0, 1},   /* 128 contiguous bytes: one 128-byte transaction */
        {"partg", 16, 1, 0, 1, 0},   /* 64 bytes: trimmed to 64 */
        {"partg", 8, 1, 1, 0, 0},    /* 32 bytes: one sector */
        {"partg", 32, 8, 0, 0, 8},   /* 32-byte stride: 8 full segments */
        {"partg", 32, 64, 32, 0, 0}, /* 256-byte stride: one sector per lane */
        {"partc", 8, 1, 0, 0, 1},    /* cached: the whole line */
        {"partc", 32, 64, 0, 0, 32}, /* cached: one line per lane */
    };
    const unsigned ncase = sizeof cs / sizeof cs[0];
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n" FULL);
    struct hd_module *m = tkit_module(g, part_ptx);
    hd_devptr buf = 0;
    const size_t region = 65536;
    if (hd_malloc(g, &buf, region * (ncase + 2)) != HD_OK) {
        HD_CHECK(t, false);
        return;
    }
    hd_memset(g, buf, 0, region * (ncase + 2));
    /* warm the instruction cache with both kernels (regions ncase, ncase + 1) */
    const uint32_t one = 1;
    for (unsigned i = 0; i < 2; i++) {
        const hd_devptr p = buf + region * (ncase + i);
        struct hd_arg a[2] = {HD_ARG(p), HD_ARG(one)};
        tkit_launch(g, m, i ? "partc" : "partg", 1, 32, 0, a, 2);
    }
    for (unsigned i = 0; i < ncase; i++) {
        const hd_devptr p = buf + region * i;
        struct hd_arg a[2] = {HD_ARG(p), HD_ARG(cs[i].stride)};
        tkit_launch(g, m, cs[i].k, 1, cs[i].threads, 0, a, 2);
    }
    tkit_cycles(g, 0);
    char *js = tkit_stats_json(g);
    for (unsigned i = 0; i < ncase; i++) {
        const int L = (int)i + 2;
        /* the two parameter loads: one constant-cache line of this launch, filled once (the
         * second load merges into its MSHR entry or hits) */
        const double cmiss = 1;
        const double n = mstat(js, L, "mq_requests") - cmiss;          /* the loads' */
        const double b = mstat(js, L, "mq_bytes") - cmiss * c.l1c_line; /* transactions */
        const double dram = mstat(js, L, "dram_read_bytes") - cmiss * c.l1c_line;
        const uint32_t wn = cs[i].n32 + cs[i].n64 + cs[i].n128;
        const uint32_t wb = 32 * cs[i].n32 + 64 * cs[i].n64 + 128 * cs[i].n128;
        printf("  %s, %2u threads, stride %2u words: %.0f transactions, %.0f bytes "
               "(expected %u x 32 + %u x 64 + %u x 128 B), DRAM %.0f bytes\n", cs[i].k,
               cs[i].threads, cs[i].stride, n, b, cs[i].n32, cs[i].n64, cs[i].n128, dram);
        HD_CHECK(t, mstat(js, L, "ifetch") == 0 && mstat(js, L, "l1c_reads") == 2);
        HD_CHECK(t, n == wn && b == wb && dram == wb);
        if (!strcmp(cs[i].k, "partg"))
            HD_CHECK(t, mstat(js, L, "l1d_bypass") == wn && mstat(js, L, "l1d_reads") == 0);
        else
            HD_CHECK(t, mstat(js, L, "l1d_mshr_allocs") == wn && mstat(js, L, "l1d_bypass") == 0);
    }
    free(js);
    hd_gpu_destroy(g);
}
/* }==== */

/* {==== Instruction fetch addresses ==== */
/* kernels `name` of `n` independent adds: the same code, several instruction-cache lines */
static char *fetch_ptx(const char *const *names, unsigned nk, unsigned n)
{
    size_t cap = 256 + (size_t)nk * (200 + 32 * n);
    char *s = malloc(cap), *p = s;
    p += sprintf(p, "%s", TKIT_HEAD);
    for (unsigned k = 0; k < nk; k++) {
        p += sprintf(p, ".visible .entry %s()\n{\n\t.reg .b32 %%r<4>;\n\tmov.u32 %%r1, %%tid.x;\n",
                     names[k]);
        for (unsigned i = 0; i < n; i++)
            p += sprintf(p, "\tadd.s32 %%r%u, %%r1, %u;\n", 2 + i % 2, i);
        p += sprintf(p, "\tret;\n}\n");
    }
    return s;
}

static void test_fetch(struct hd_test_state *t)
{
    hd_test_begin(t, "instruction fetch: each kernel has its own code lines in the L2");
    const char *names[2] = {"fa", "fb"};
    char *ptx = fetch_ptx(names, 2, 200);
    /* one SM: fa, then fb (identical code) */
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n" FULL);
    struct hd_module *m = tkit_module(g, ptx);
    tkit_launch(g, m, "fa", 1, 32, 0, NULL, 0);
    tkit_launch(g, m, "fb", 1, 32, 0, NULL, 0);
    tkit_cycles(g, 0);
    char *js = tkit_stats_json(g);
    const double fa = mstat(js, 0, "ifetch"), fb = mstat(js, 1, "ifetch");
    const double hb = mstat(js, 1, "l2_read_hits") + mstat(js, 1, "l2_mshr_merges");
    const double db = mstat(js, 1, "dram_reads");
    printf("  fa then fb on one SM: %.0f and %.0f line fetches; fb: %.0f L2 hits or merges, "
           "%.0f DRAM reads\n", fa, fb, hb, db);
    HD_CHECK(t, fa >= 4 && fb == fa);
    HD_CHECK(t, hb == 0 && db == fb);
    free(js);
    hd_gpu_destroy(g);
    /* control: two SMs running fa share its lines in the L2 */
    g = tkit_gpu("[gpu]\nnum_sms = 2\n" FULL);
    m = tkit_module(g, ptx);
    tkit_launch(g, m, "fa", 2, 32, 0, NULL, 0);
    tkit_cycles(g, 0);
    js = tkit_stats_json(g);
    const double f2 = mstat(js, 0, "ifetch"), d2 = mstat(js, 0, "dram_reads");
    printf("  fa on two SMs: %.0f line fetches, %.0f DRAM reads\n", f2, d2);
    HD_CHECK(t, f2 == 2 * fa && d2 == fa);
    free(js);
    hd_gpu_destroy(g);
    free(ptx);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_cache_ops(&t);
    test_const(&t);
    test_transactions(&t);
    test_fetch(&t);
    return hd_test_finish(&t);
}
