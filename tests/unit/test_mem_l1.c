/* SPDX-License-Identifier: MIT
 * test_mem_l1.c - the SM side of the full memory system through fake SM ports: MSHR merging and
 * L1 bypass each show their effect (issue 5 acceptance), the GTX480 write policies (global
 * write-evict, local write-back write-allocate), the constant cache, instruction fetches,
 * atomics, requests spanning lines, L2 write-backs to DRAM, the duplicate-MSHR statistic and
 * observer, the miss-queue admission policy, flush, and the JSON report.
 */
#include "mem_report.h"
#include "mem_testkit.h"
#include "testutil.h"

#include <stdlib.h>

#define G 1u /* HD_MSPACE_GLOBAL */
#define L 3u /* HD_MSPACE_LOCAL */
#define C 5u /* HD_MSPACE_CONST */

static const uint64_t BASE = 0x7f0000000000ull;

static struct hd_mem_acct total(struct tk *k)
{
    struct hd_mem_acct a;
    hd_mem_stats_total(hd_mem_full_stats(&k->m), &a);
    return a;
}

/* Send every request of rs (one per cycle while accepted) and wait for all; returns the cycles
 * from the first send to the last completion. */
static uint64_t burst(struct tk *k, const struct hd_mem_req *rs, unsigned n)
{
    const uint64_t t0 = k->now;
    unsigned sent = 0, got = 0;
    struct hd_mem_req out[64];
    while (got < n && k->now - t0 < 1000000) {
        if (sent < n && k->m.ops->send(k->m.impl, &rs[sent], k->now))
            sent++;
        tk_tick(k);
        for (unsigned s = 0; s < k->cfg.gpu_num_sms; s++)
            got += k->m.ops->recv(k->m.impl, s, out, 64, k->now);
    }
    return k->now - t0;
}

static void test_merging(struct hd_test_state *t)
{
    hd_test_begin(t, "MSHR merging: one fill serves the requests of four warps");
    /* 64 lines, each read by 4 consecutive requests (4 warps touching the same line) */
    struct hd_mem_req rs[256];
    for (unsigned i = 0; i < 256; i++)
        rs[i] = tk_req(0, HD_MEM_LOAD, G, BASE + (i / 4) * 128, 128, 1, i);
    uint64_t cyc[2];
    struct hd_mem_acct a[2];
    for (int merge = 0; merge < 2; merge++) {
        struct hd_config c;
        hd_config_defaults(&c);
        c.l1d_mshr_merge = merge ? 8 : 1;
        struct tk k;
        tk_init(&k, &c);
        cyc[merge] = burst(&k, rs, 256);
        a[merge] = total(&k);
        tk_done(&k);
    }
    printf("  256 requests to 64 lines: %llu cycles merging (%llu merged), %llu without "
           "(%llu cycles waiting for MSHRs)\n",
           (unsigned long long)cyc[1], (unsigned long long)a[1].l1d_mshr_merges,
           (unsigned long long)cyc[0], (unsigned long long)a[0].l1d_stall_mshr);
    HD_CHECK_U64(t, 64, a[1].l1d_mshr_allocs);
    HD_CHECK_U64(t, 192, a[1].l1d_mshr_merges);
    HD_CHECK_U64(t, 64, a[1].l2_reads);
    HD_CHECK_U64(t, 0, a[0].l1d_mshr_merges);
    HD_CHECK_U64(t, 64, a[0].l2_reads);      /* no merging: the others wait, then hit */
    HD_CHECK_U64(t, 192, a[0].l1d_read_hits);
    HD_CHECK(t, a[0].l1d_stall_mshr > 0);
    HD_CHECK(t, cyc[0] > 3 * cyc[1]);
}

static void test_bypass(struct hd_test_state *t)
{
    hd_test_begin(t, "L1 bypass: per kernel by name, by flag and for all kernels");
    struct hd_config c;
    hd_config_defaults(&c);
    snprintf(c.l1d_bypass_kernels.s, sizeof c.l1d_bypass_kernels.s, "other, stream_*");
    struct tk k;
    tk_init(&k, &c);
    hd_mem_full_launch(&k.m, 7, "stream_copy"); /* listed: bypasses */
    hd_mem_full_launch(&k.m, 8, "compute");     /* not listed */
    const uint64_t a = BASE + 0x10000, b = BASE + 0x20000;
    tk_access(&k, tk_req(0, HD_MEM_LOAD, G, a, 128, 7, 0), 100000);
    uint64_t again7 = tk_access(&k, tk_req(0, HD_MEM_LOAD, G, a, 128, 7, 0), 100000);
    tk_access(&k, tk_req(0, HD_MEM_LOAD, G, b, 128, 8, 0), 100000);
    uint64_t again8 = tk_access(&k, tk_req(0, HD_MEM_LOAD, G, b, 128, 8, 0), 100000);
    printf("  second read: bypassing kernel %llu cycles (L2), caching kernel %llu (L1)\n",
           (unsigned long long)again7, (unsigned long long)again8);
    HD_CHECK_F64(t, tk_l2_hit_latency(&k.cfg), (double)again7, 0.05 * tk_l2_hit_latency(&k.cfg));
    HD_CHECK_U64(t, k.cfg.l1d_latency, again8);
    /* the flag can be changed directly */
    hd_mem_full_set_bypass(&k.m, 8, true);
    uint64_t now8 = tk_access(&k, tk_req(0, HD_MEM_LOAD, G, b, 128, 8, 0), 100000);
    HD_CHECK(t, now8 > 100);
    const struct hd_mem_stats *st = hd_mem_full_stats(&k.m);
    struct hd_mem_acct tot = total(&k);
    HD_CHECK_U64(t, 3, tot.l1d_bypass);
    HD_CHECK_U64(t, 2, tot.l1d_reads);
    uint64_t by_kernel7 = 0;
    for (uint32_t i = 0; i < st->nkernels; i++)
        if (st->kernel_id[i] == 7)
            by_kernel7 = st->kernel[i].l1d_bypass;
    HD_CHECK_U64(t, 2, by_kernel7);
    /* local loads of a bypassing kernel still use the L1 */
    tk_access(&k, tk_req(0, HD_MEM_STORE, L, BASE + 0x30000, 128, 7, 0), 100000);
    HD_CHECK_U64(t, k.cfg.l1d_latency,
                 tk_access(&k, tk_req(0, HD_MEM_LOAD, L, BASE + 0x30000, 128, 7, 0), 100000));
    tk_done(&k);
    /* bypass_global: every kernel */
    hd_config_defaults(&c);
    c.l1d_bypass_global = true;
    tk_init(&k, &c);
    tk_access(&k, tk_req(0, HD_MEM_LOAD, G, a, 128, 3, 0), 100000);
    HD_CHECK(t, tk_access(&k, tk_req(0, HD_MEM_LOAD, G, a, 128, 3, 0), 100000) > 100);
    HD_CHECK_U64(t, 0, total(&k).l1d_reads);
    tk_done(&k);
}

static void test_write_policies(struct hd_test_state *t)
{
    hd_test_begin(t, "global stores write-evict, local stores write-back write-allocate");
    struct tk k;
    tk_init(&k, NULL);
    const double l2 = tk_l2_hit_latency(&k.cfg);
    const uint64_t g = BASE + 0x40000;
    tk_access(&k, tk_req(0, HD_MEM_LOAD, G, g, 128, 1, 0), 100000);
    HD_CHECK_U64(t, 20, tk_access(&k, tk_req(0, HD_MEM_LOAD, G, g, 128, 1, 0), 100000));
    uint64_t st = tk_access(&k, tk_req(0, HD_MEM_STORE, G, g, 128, 1, 0), 100000);
    HD_CHECK(t, st > 100); /* acknowledged by the L2 */
    uint64_t after = tk_access(&k, tk_req(0, HD_MEM_LOAD, G, g, 128, 1, 0), 100000);
    printf("  global: store acknowledged after %llu cycles; the load after it %llu (evicted, "
           "L2 hit %.0f)\n", (unsigned long long)st, (unsigned long long)after, l2);
    HD_CHECK_F64(t, l2, (double)after, 0.05 * l2);
    /* local: a store allocates without fetching; its sectors hit, the others miss */
    const uint64_t lo = BASE + 0x50000;
    HD_CHECK_U64(t, 20, tk_access(&k, tk_req(0, HD_MEM_STORE, L, lo, 32, 1, 0), 100000));
    HD_CHECK_U64(t, 20, tk_access(&k, tk_req(0, HD_MEM_LOAD, L, lo, 32, 1, 0), 100000));
    HD_CHECK(t, tk_access(&k, tk_req(0, HD_MEM_LOAD, L, lo + 64, 32, 1, 0), 100000) > 100);
    HD_CHECK_U64(t, 20, tk_access(&k, tk_req(0, HD_MEM_LOAD, L, lo + 96, 32, 1, 0), 100000));
    struct hd_mem_acct a = total(&k);
    HD_CHECK_U64(t, 0, a.l1d_writebacks);
    /* dirty local lines are written back when evicted (fill the cache with local stores) */
    const unsigned lines = 4 * k.cfg.l1d_sets * k.cfg.l1d_ways;
    for (unsigned i = 0; i < lines; i++)
        tk_access(&k, tk_req(0, HD_MEM_STORE, L, BASE + 0x100000 + i * 128, 128, 1, 0), 100000);
    tk_drain(&k, 100000);
    a = total(&k);
    printf("  %u local line stores: %llu write-backs, %llu L2 writes\n", lines,
           (unsigned long long)a.l1d_writebacks, (unsigned long long)a.l2_writes);
    HD_CHECK(t, a.l1d_writebacks >= lines - k.cfg.l1d_sets * k.cfg.l1d_ways);
    HD_CHECK_U64(t, a.l1d_writebacks + 1, a.l2_writes); /* + the global store */
    tk_done(&k);
}

static void test_l2_writeback(struct hd_test_state *t)
{
    hd_test_begin(t, "the L2 writes dirty lines back to DRAM when it evicts them");
    struct tk k;
    tk_init(&k, NULL);
    const uint64_t l2_bytes = (uint64_t)k.cfg.l2_sets * k.cfg.l2_ways * k.cfg.l2_line *
                              k.cfg.l2_slices_per_channel * k.cfg.dram_channels;
    const unsigned n = (unsigned)(2 * l2_bytes / 128);
    struct hd_mem_req *rs = malloc(n * sizeof *rs);
    for (unsigned i = 0; i < n; i++)
        rs[i] = tk_req(i % 15, HD_MEM_STORE, G, BASE + (uint64_t)i * 128, 128, 1, i);
    burst(&k, rs, n);
    tk_drain(&k, 100000);
    struct hd_mem_acct a = total(&k);
    printf("  %u stores over twice the L2: %llu L2 write-backs, %llu DRAM writes (%llu bytes), "
           "%llu DRAM reads\n", n, (unsigned long long)a.l2_writebacks,
           (unsigned long long)a.dram_writes, (unsigned long long)a.dram_write_bytes,
           (unsigned long long)a.dram_reads);
    HD_CHECK(t, a.l2_writebacks >= n / 2 - 64);
    HD_CHECK_U64(t, a.l2_writebacks, a.dram_writes);
    HD_CHECK_U64(t, 128 * a.dram_writes, a.dram_write_bytes);
    HD_CHECK_U64(t, 0, a.dram_reads); /* write-validate: full-line writes never fetch */
    free(rs);
    tk_done(&k);
}

static void test_other_kinds(struct hd_test_state *t)
{
    hd_test_begin(t, "constant cache, instruction fetch, atomics, requests spanning lines");
    struct tk k;
    tk_init(&k, NULL);
    const double l2 = tk_l2_hit_latency(&k.cfg);
    const uint64_t cst = BASE + 0x60000;
    HD_CHECK(t, tk_access(&k, tk_req(1, HD_MEM_LOAD, C, cst, 4, 1, 0), 100000) > 100);
    HD_CHECK_U64(t, k.cfg.l1c_latency, tk_access(&k, tk_req(1, HD_MEM_LOAD, C, cst + 8, 4, 1, 0),
                                                   100000));
    /* fetches are not cached in the L1D: the second one is an L2 hit */
    tk_access(&k, tk_req(1, HD_MEM_IFETCH, 0, 0x1000, 128, 1, 0), 100000);
    uint64_t f = tk_access(&k, tk_req(1, HD_MEM_IFETCH, 0, 0x1000, 128, 1, 0), 100000);
    HD_CHECK_F64(t, l2, (double)f, 0.05 * l2);
    /* atomics are performed at the L2 and drop the L1 copy */
    const uint64_t at = BASE + 0x70000;
    tk_access(&k, tk_req(1, HD_MEM_LOAD, G, at, 128, 1, 0), 100000);
    uint64_t ta = tk_access(&k, tk_req(1, HD_MEM_ATOMIC, G, at, 128, 1, 0), 100000);
    HD_CHECK(t, ta >= l2 * 0.95);
    HD_CHECK(t, tk_access(&k, tk_req(1, HD_MEM_LOAD, G, at, 128, 1, 0), 100000) > 100);
    /* a 256-byte request (two lines) completes when both have */
    tk_access(&k, tk_req(1, HD_MEM_LOAD, G, BASE + 0x80000, 128, 1, 0), 100000);
    uint64_t two = tk_access(&k, tk_req(1, HD_MEM_LOAD, G, BASE + 0x80000, 256, 1, 0), 100000);
    HD_CHECK(t, two > 100); /* the second line was not cached */
    struct hd_mem_acct a = total(&k);
    HD_CHECK_U64(t, 2, a.ifetch);
    HD_CHECK_U64(t, 1, a.atomics);
    HD_CHECK_U64(t, 1, a.l2_atomics);
    HD_CHECK_U64(t, 2, a.l1c_reads);
    HD_CHECK_U64(t, 1, a.l1c_hits);
    tk_done(&k);
}

/* {==== Duplicate MSHRs, observer, admission policy ==== */
struct obs_count {
    unsigned alloc, dup, merge, fill, served;
};

static void o_alloc(void *ctx, unsigned sm, uint64_t line, uint32_t kernel, bool dup,
                    uint64_t now)
{
    struct obs_count *o = ctx;
    (void)sm, (void)line, (void)kernel, (void)now;
    o->alloc++;
    o->dup += dup;
}

static void o_merge(void *ctx, unsigned sm, uint64_t line, uint32_t kernel, uint64_t now)
{
    struct obs_count *o = ctx;
    (void)sm, (void)line, (void)kernel, (void)now;
    o->merge++;
}

static void o_fill(void *ctx, unsigned sm, uint64_t line, uint32_t requests, uint64_t now)
{
    struct obs_count *o = ctx;
    (void)sm, (void)line, (void)now;
    o->fill++;
    o->served += requests;
}

static void test_dup(struct hd_test_state *t)
{
    hd_test_begin(t, "duplicate MSHR allocations across SMs within the window; observer");
    struct tk k;
    tk_init(&k, NULL);
    struct obs_count o = {0};
    const struct hd_mem_observer ob = {&o, o_alloc, o_merge, o_fill};
    hd_mem_full_set_observer(&k.m, &ob);
    const uint64_t a = BASE + 0x90000;
    tk_access(&k, tk_req(0, HD_MEM_LOAD, G, a, 128, 1, 0), 100000);       /* first */
    tk_access(&k, tk_req(1, HD_MEM_LOAD, G, a, 128, 1, 0), 100000);       /* duplicate */
    tk_access(&k, tk_req(0, HD_MEM_LOAD, G, a + 128, 128, 1, 0), 100000); /* new line */
    for (unsigned i = 0; i < 30; i++) /* let the window pass */
        tk_access(&k, tk_req(2, HD_MEM_LOAD, G, BASE + 0xa0000 + i * 4096, 128, 1, 0), 100000);
    tk_access(&k, tk_req(3, HD_MEM_LOAD, G, a + 128, 128, 1, 0), 100000); /* too late */
    struct hd_mem_req two[2] = {tk_req(4, HD_MEM_LOAD, G, a + 256, 128, 1, 0),
                                tk_req(4, HD_MEM_LOAD, G, a + 256, 128, 1, 1)};
    burst(&k, two, 2);
    struct hd_mem_acct s = total(&k);
    HD_CHECK_U64(t, 1, s.l1d_dup_mshr);
    HD_CHECK_U64(t, 35, s.l1d_mshr_allocs);
    HD_CHECK_U64(t, 35, o.alloc);
    HD_CHECK_U64(t, 1, o.dup);
    HD_CHECK_U64(t, 1, o.merge);
    HD_CHECK_U64(t, 35, o.fill);
    HD_CHECK_U64(t, 36, o.served);
    tk_done(&k);
}

/* A policy that holds kernel 2's requests until cycle `until`. */
struct hold {
    uint64_t until;
    unsigned issued;
};

static int hold_select(void *impl, unsigned sm, const struct hd_mq_view *q, unsigned n,
                       uint64_t now)
{
    const struct hold *h = impl;
    (void)sm;
    for (unsigned i = 0; i < n; i++)
        if (q[i].kernel != 2 || now >= h->until)
            return (int)i;
    return -1;
}

static void hold_issued(void *impl, unsigned sm, const struct hd_mq_view *q, uint64_t now)
{
    struct hold *h = impl;
    (void)sm, (void)q, (void)now;
    h->issued++;
}

static const struct hd_mq_policy_ops hold_ops = {"hold", hold_select, hold_issued, NULL};

static void test_policy(struct hd_test_state *t)
{
    hd_test_begin(t, "miss-queue admission policy: a held kernel waits, the other passes it");
    struct tk k;
    tk_init(&k, NULL);
    struct hold h = {k.now + 2000, 0};
    hd_mem_full_set_mq_policy(&k.m, &hold_ops, &h);
    struct hd_mem_req rs[2] = {tk_req(0, HD_MEM_LOAD, G, BASE + 0xb0000, 128, 2, 0),
                               tk_req(0, HD_MEM_LOAD, G, BASE + 0xc0000, 128, 1, 1)};
    uint64_t lat[2] = {0, 0};
    unsigned sent = 0, got = 0;
    while (got < 2 && k.now < 100000) {
        if (sent < 2 && k.m.ops->send(k.m.impl, &rs[sent], k.now))
            sent++;
        tk_tick(&k);
        struct hd_mem_req out;
        while (k.m.ops->recv(k.m.impl, 0, &out, 1, k.now)) {
            lat[out.tag] = out.done_cycle - out.issue_cycle;
            got++;
        }
    }
    printf("  held kernel %llu cycles, other kernel %llu cycles\n", (unsigned long long)lat[0],
           (unsigned long long)lat[1]);
    HD_CHECK(t, lat[0] >= 2000);
    HD_CHECK(t, lat[1] < 400);
    HD_CHECK_U64(t, 2, h.issued);
    HD_CHECK(t, hd_mem_full_stats(&k.m)->sm[0].mq_held > 1000);
    tk_done(&k);
}
/* }==== */

static void test_flush_report(struct hd_test_state *t)
{
    hd_test_begin(t, "flush drops what is in flight; the JSON report");
    struct tk k;
    tk_init(&k, NULL);
    struct hd_mem_req rs[40];
    for (unsigned i = 0; i < 40; i++)
        rs[i] = tk_req(i % 3, HD_MEM_LOAD, G, BASE + i * 4096, 128, 1, i);
    for (unsigned i = 0; i < 8; i++) {
        k.m.ops->send(k.m.impl, &rs[i], k.now);
        tk_tick(&k);
    }
    HD_CHECK(t, !k.m.ops->idle(k.m.impl));
    char d[4096];
    k.m.ops->describe(k.m.impl, d, sizeof d);
    HD_CHECK(t, strstr(d, "SM 0") != NULL);
    k.m.ops->flush(k.m.impl);
    HD_CHECK(t, k.m.ops->idle(k.m.impl));
    HD_CHECK_U64(t, 0, k.m.ops->pending(k.m.impl, 0));
    HD_CHECK(t, burst(&k, rs, 40) < 5000); /* and it works afterwards */
    FILE *f = tmpfile();
    hd_mem_report_json(f, &k.m, "");
    long len = ftell(f);
    rewind(f);
    char *buf = calloc(1, (size_t)len + 1);
    HD_CHECK(t, fread(buf, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    HD_CHECK(t, strstr(buf, "\"latency_histograms\"") && strstr(buf, "\"per_kernel\"") &&
                    strstr(buf, "\"dram_channels\"") && strstr(buf, "\"mq_wait\""));
    free(buf);
    tk_done(&k);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_merging(&t);
    test_bypass(&t);
    test_write_policies(&t);
    test_l2_writeback(&t);
    test_other_kinds(&t);
    test_dup(&t);
    test_policy(&t);
    test_flush_report(&t);
    return hd_test_finish(&t);
}
