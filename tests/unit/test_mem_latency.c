/* SPDX-License-Identifier: MIT
 * test_mem_latency.c - pointer-chase latencies of the full memory system (issue 5 acceptance):
 * dependent requests, one at a time, so nothing queues; each level's measured latency must equal
 * the configured latencies plus the fixed hops of docs/memory.md within 5 %, for the GTX480
 * defaults and for a configuration with other clocks and latencies. Also: skipping idle cycles
 * with next_event() changes nothing.
 */
#include "addrmap.h"
#include "mem_testkit.h"
#include "testutil.h"

#include <math.h>

#define G 1u /* HD_MSPACE_GLOBAL */

static bool within(double expected, double got, double frac)
{
    return fabs(got - expected) <= frac * expected;
}

/* Average latency of a chase over n lines (stride bytes apart) starting at base. */
static double chase(struct tk *k, uint64_t base, uint64_t stride, unsigned n, unsigned sm,
                    uint64_t *maxlat)
{
    double sum = 0;
    *maxlat = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t lat = tk_access(k, tk_req(sm, HD_MEM_LOAD, G, base + i * stride, 128, 1, i),
                                 100000);
        sum += (double)lat;
        *maxlat = lat > *maxlat ? lat : *maxlat;
    }
    return sum / n;
}

static void check_levels(struct hd_test_state *t, const struct hd_config *cfg, bool skip)
{
    struct tk k;
    if (tk_init(&k, cfg) != 0) {
        HD_CHECK(t, false);
        return;
    }
    k.skip = skip;
    const uint64_t base = 0x7f0000000000ull;
    uint64_t mx;
    /* DRAM: every line in a different (channel, bank) that has not been opened yet */
    const struct hd_mem_params *p = hd_mem_full_params(&k.m);
    uint64_t lines[64];
    unsigned nl = 0;
    bool used[1024] = {false};
    for (uint64_t a = base; nl < 64 && a < base + (64ull << 20); a += 128 * 97) {
        struct hd_addr_loc loc;
        hd_addrmap_decode(&p->map, p->l2.per_channel, a, &loc);
        unsigned key = loc.channel * p->dram.banks + loc.bank;
        if (key < 1024 && !used[key]) {
            used[key] = true;
            lines[nl++] = a & ~127ull;
        }
    }
    HD_CHECK(t, nl >= 32);
    double dram = 0, dmax = 0;
    for (unsigned i = 0; i < nl; i++) {
        uint64_t lat = tk_access(&k, tk_req(0, HD_MEM_LOAD, G, lines[i], 128, 1, i), 100000);
        dram += (double)lat;
        dmax = (double)lat > dmax ? (double)lat : dmax;
    }
    dram /= nl;
    const double want_dram = tk_dram_latency(&k.cfg);
    printf("  DRAM (closed bank): %.1f cycles (max %.0f), expected %.1f\n", dram, dmax,
           want_dram);
    HD_CHECK(t, within(want_dram, dram, 0.05));
    HD_CHECK(t, within(want_dram, dmax, 0.05));
    /* L2: a region larger than the L1 (so each line was evicted from it), touched once */
    const unsigned n2 = 4 * k.cfg.l1d_sets * k.cfg.l1d_ways;
    const uint64_t r2 = base + (1ull << 24);
    chase(&k, r2, 128, n2, 1, &mx);
    double l2 = chase(&k, r2, 128, n2, 1, &mx);
    const double want_l2 = tk_l2_hit_latency(&k.cfg);
    printf("  L2 hit: %.1f cycles (max %llu), expected %.1f\n", l2, (unsigned long long)mx,
           want_l2);
    HD_CHECK(t, within(want_l2, l2, 0.05));
    HD_CHECK(t, within(want_l2, (double)mx, 0.05));
    /* L1: a few lines, touched once */
    chase(&k, base + (1ull << 25), 128, 8, 2, &mx);
    double l1 = chase(&k, base + (1ull << 25), 128, 8, 2, &mx);
    printf("  L1 hit: %.1f cycles (max %llu), expected %u\n", l1, (unsigned long long)mx,
           k.cfg.l1d_latency);
    HD_CHECK_F64(t, (double)k.cfg.l1d_latency, l1, 0);
    const struct hd_mem_stats *st = hd_mem_full_stats(&k.m);
    HD_CHECK_U64(t, 8, st->hist[HD_HIST_L1].n);       /* the second L1 pass */
    HD_CHECK_U64(t, n2, st->hist[HD_HIST_L2].n);      /* the second L2 pass */
    HD_CHECK_U64(t, nl + n2 + 8, st->hist[HD_HIST_DRAM].n); /* every first touch */
    tk_done(&k);
}

static void test_gtx480(struct hd_test_state *t)
{
    hd_test_begin(t, "pointer chase, GTX480 defaults");
    check_levels(t, NULL, false);
    hd_test_begin(t, "pointer chase, GTX480 defaults, skipping idle cycles");
    check_levels(t, NULL, true);
}

static void test_other(struct hd_test_state *t)
{
    hd_test_begin(t, "pointer chase, other clocks and latencies");
    struct hd_config c;
    hd_config_defaults(&c);
    c.clock_core_mhz = 1000;
    c.clock_icnt_mhz = 1200;
    c.clock_l2_mhz = 1000;
    c.clock_dram_mhz = 1200;
    c.l1d_latency = 28;
    c.l2_latency = 200;
    c.icnt_latency = 6;
    c.dram_latency = 300;
    c.dram_trcd = 14;
    c.dram_tcl = 16;
    check_levels(t, &c, true);
}

static void test_deterministic(struct hd_test_state *t)
{
    hd_test_begin(t, "identical latencies with and without skipping");
    uint64_t sums[2] = {0, 0};
    for (int skip = 0; skip < 2; skip++) {
        struct tk k;
        if (tk_init(&k, NULL) != 0)
            return;
        k.skip = skip;
        for (unsigned i = 0; i < 300; i++) {
            uint64_t a = 0x7f0000000000ull + ((i * 7919u) % 4096u) * 128u;
            sums[skip] += tk_access(&k, tk_req(i % 15, HD_MEM_LOAD, G, a, 128, 1, i), 100000);
        }
        tk_done(&k);
    }
    HD_CHECK_U64(t, sums[0], sums[1]);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_gtx480(&t);
    test_other(&t);
    test_deterministic(&t);
    return hd_test_finish(&t);
}
