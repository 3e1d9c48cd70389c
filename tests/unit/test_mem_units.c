/* SPDX-License-Identifier: MIT
 * test_mem_units.c - the memory system's small units alone: address map (GPGPU-Sim's GTX480
 * mapping), bit lists, parameter checks, clock crossing, tags and LRU, MSHR table, crossbar
 * saturation (round-robin FIFO inputs: Karol's head-of-line limit; iSLIP: near 100 %),
 * histograms, and the state-space numbers shared with the PTX front end.
 */
#include "addrmap.h"
#include "cache_tags.h"
#include "clock_domain.h"
#include "coalesce.h"
#include "l1.h"
#include "mem_params.h"
#include "mem_stats.h"
#include "mshr.h"
#include "ptx_ir.h"
#include "testutil.h"
#include "xbar.h"

#include <stdlib.h>
#include <string.h>

static void test_spaces(struct hd_test_state *t)
{
    hd_test_begin(t, "state-space numbers agree with enum hd_space");
    HD_CHECK_U64(t, HD_SPACE_NONE, HD_MSPACE_NONE);
    HD_CHECK_U64(t, HD_SPACE_GLOBAL, HD_MSPACE_GLOBAL);
    HD_CHECK_U64(t, HD_SPACE_LOCAL, HD_MSPACE_LOCAL);
    HD_CHECK_U64(t, HD_SPACE_PARAM, HD_MSPACE_PARAM);
    HD_CHECK_U64(t, HD_SPACE_CONST, HD_MSPACE_CONST);
}

static void test_addrmap(struct hd_test_state *t)
{
    hd_test_begin(t, "GTX480 address map (GPGPU-Sim dramid@8, masks BK e100 ROW fff0000)");
    struct hd_config c;
    hd_config_defaults(&c);
    struct hd_mem_params p;
    char err[200];
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) == 0);
    uint64_t seed = 1;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t a = (seed >> 20) & ((1ull << 34) - 1);
        struct hd_addr_loc l;
        hd_addrmap_decode(&p.map, 2, a, &l);
        /* GPGPU-Sim: chip = (a >> 8) % 6; the rest stitched at bit 8 */
        const uint64_t rest = (((a >> 8) / 6) << 8) | (a & 0xff);
        const uint32_t bank = (uint32_t)(((rest >> 8) & 1) | ((rest >> 13) & 7) << 1);
        if (l.channel != (a >> 8) % 6 || l.bank != bank || l.row != ((rest >> 16) & 0xfff) ||
            l.sub != (bank & 1) || l.slice != l.channel * 2 + l.sub) {
            HD_CHECK(t, false);
            break;
        }
        /* the slice-local address maps back */
        struct hd_addr_loc b;
        hd_addrmap_from_local(&p.map, 2, l.slice, l.local, &b);
        if (b.bank != l.bank || b.row != l.row || b.col != l.col || b.channel != l.channel) {
            HD_CHECK(t, false);
            break;
        }
    }
    /* consecutive 128-byte lines of one slice are consecutive local lines (all sets used) */
    struct hd_addr_loc l0, l1;
    hd_addrmap_decode(&p.map, 2, 0x7f0000000000ull, &l0);
    hd_addrmap_decode(&p.map, 2, 0x7f0000000000ull + 128, &l1);
    HD_CHECK_U64(t, l0.slice, l1.slice);
    HD_CHECK_U64(t, (l0.local >> 7) + 1, l1.local >> 7);
}

static void test_bitlists(struct hd_test_state *t)
{
    hd_test_begin(t, "bit lists and parameter errors name the key");
    struct hd_bitlist b;
    char err[200];
    HD_CHECK(t, hd_bitlist_parse("8 13-15", &b, err, sizeof err) == 0 && b.n == 4 &&
                    b.bit[0] == 8 && b.bit[3] == 15);
    HD_CHECK(t, hd_bitlist_parse("", &b, err, sizeof err) == 0 && b.n == 0);
    HD_CHECK(t, hd_bitlist_parse("3,3", &b, err, sizeof err) != 0 && strstr(err, "twice"));
    HD_CHECK(t, hd_bitlist_parse("9-4", &b, err, sizeof err) != 0);
    HD_CHECK(t, hd_bitlist_parse("64", &b, err, sizeof err) != 0);
    HD_CHECK(t, hd_bitlist_parse("x", &b, err, sizeof err) != 0);
    struct hd_config c;
    struct hd_mem_params p;
    hd_config_defaults(&c);
    snprintf(c.addrmap_bank_bits.s, sizeof c.addrmap_bank_bits.s, "13-15");
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) != 0 && strstr(err, "bank_bits"));
    hd_config_defaults(&c);
    snprintf(c.addrmap_row_bits.s, sizeof c.addrmap_row_bits.s, "15-27");
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) != 0 && strstr(err, "overlap"));
    hd_config_defaults(&c);
    c.l2_slices_per_channel = 4;
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) != 0 &&
                    strstr(err, "subpartition_bits"));
    hd_config_defaults(&c);
    c.l1d_line = 96; /* (any set count is taken since issue 29: Lin T4.1's 24-set L1D) */
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) != 0 && strstr(err, "'line'") &&
                    strstr(err, "[l1d]"));
    hd_config_defaults(&c);
    c.l1d_sets = 24;
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) == 0 && p.l1d.c.sets == 24);
    hd_config_defaults(&c);
    c.icnt_port_bytes = 48;
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) != 0 && strstr(err, "port_bytes"));
    hd_config_defaults(&c);
    c.dram_bank_groups = 3;
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) != 0 && strstr(err, "bank_groups"));
    hd_config_defaults(&c);
    c.icnt_input_flits = 2;
    HD_CHECK(t, hd_mem_params_init(&c, &p, err, sizeof err) != 0 && strstr(err, "input_flits"));
    HD_CHECK(t, hd_mem_params_kernel_listed("a, sgemm_*  b", "sgemm_nn"));
    HD_CHECK(t, hd_mem_params_kernel_listed("a, sgemm_*  b", "b"));
    HD_CHECK(t, !hd_mem_params_kernel_listed("a, sgemm_*  b", "bb"));
    HD_CHECK(t, !hd_mem_params_kernel_listed("", "a"));
}

static void test_clock(struct hd_test_state *t)
{
    hd_test_begin(t, "clock crossing: exact ratio, skipping, inverse");
    struct hd_clock c, d;
    hd_clock_init(&c, 924000, 700000);
    hd_clock_init(&d, 924000, 700000);
    uint64_t n = 0;
    for (int i = 0; i < 7000; i++) {
        uint32_t k = hd_clock_step(&c);
        HD_CHECK(t, k == 1 || k == 2);
        c.now += k;
        n += k;
    }
    HD_CHECK_U64(t, 9240, n);
    hd_clock_skip(&d, 7000);
    HD_CHECK_U64(t, c.now, d.now);
    HD_CHECK_U64(t, c.acc, d.acc);
    for (uint64_t target = c.now + 1; target < c.now + 50; target++) {
        struct hd_clock e = c;
        uint64_t k = hd_clock_core_delay(&e, target), steps = 0;
        while (e.now < target) {
            e.now += hd_clock_step(&e);
            steps++;
        }
        HD_CHECK_U64(t, steps, k);
    }
}

static void test_tags(struct hd_test_state *t)
{
    hd_test_begin(t, "tags: LRU victim, sectors, xor index keeps tags exact");
    struct hd_tags g;
    HD_CHECK(t, hd_tags_init(&g, 4, 2, 128, true) == 0);
    HD_CHECK_U64(t, 0xf, hd_tags_all(&g));
    HD_CHECK_U64(t, 0xc, hd_tags_sectors(&g, 0x1040, 40));
    HD_CHECK_U64(t, 0x8, hd_tags_sectors(&g, 0x1060, 400));
    /* three lines into one set of two ways: the least recently used goes */
    uint64_t a[3];
    unsigned n = 0;
    for (uint64_t x = 0; n < 3; x += 128) {
        struct hd_tags *q = &g;
        if (hd_tags_victim(q, x) / 2 == hd_tags_victim(q, 0) / 2)
            a[n++] = x;
    }
    uint32_t e0 = hd_tags_victim(&g, a[0]);
    hd_tags_install(&g, e0, a[0]);
    uint32_t e1 = hd_tags_victim(&g, a[1]);
    hd_tags_install(&g, e1, a[1]);
    HD_CHECK(t, e0 != e1);
    hd_tags_touch(&g, e0);
    HD_CHECK_U64(t, e1, hd_tags_victim(&g, a[2]));
    HD_CHECK_U64(t, e0, hd_tags_find(&g, a[0]));
    HD_CHECK_U64(t, HD_TAGS_NONE, hd_tags_find(&g, a[2]));
    HD_CHECK_U64(t, a[1], hd_tags_addr(&g, e1));
    hd_tags_free(&g);
    /* 24 sets (Lin T4.1's L1D): lines k and k + 24 share a set, k + 1 does not; 8 ways */
    HD_CHECK(t, hd_tags_init(&g, 24, 8, 128, false) == 0);
    HD_CHECK_U64(t, hd_tags_victim(&g, 5 * 128) / 8, hd_tags_victim(&g, 29 * 128) / 8);
    HD_CHECK(t, hd_tags_victim(&g, 5 * 128) / 8 != hd_tags_victim(&g, 6 * 128) / 8);
    HD_CHECK_U64(t, 23, hd_tags_victim(&g, 23 * 128) / 8);
    HD_CHECK_U64(t, 0, hd_tags_victim(&g, 24 * 128) / 8);
    hd_tags_free(&g);
}

static void test_mshr(struct hd_test_state *t)
{
    hd_test_begin(t, "MSHR table against a reference under random use");
    struct hd_mshr m;
    HD_CHECK(t, hd_mshr_init(&m, 16, 4) == 0);
    uint64_t ref[16];
    bool used[16] = {false};
    uint64_t seed = 7;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 6364136223846793005ull + 1;
        uint64_t line = (seed >> 33) % 40;
        uint32_t e = hd_mshr_find(&m, line);
        int r = -1;
        for (int k = 0; k < 16; k++)
            if (used[k] && ref[k] == line)
                r = k;
        if ((r < 0) != (e == HD_MSHR_NONE) || (r >= 0 && (uint32_t)r != e)) {
            HD_CHECK(t, false);
            break;
        }
        if (e != HD_MSHR_NONE && (seed >> 20) % 3 == 0) {
            hd_mshr_release(&m, e);
            used[e] = false;
        } else if (e == HD_MSHR_NONE && !hd_mshr_full(&m)) {
            e = hd_mshr_alloc(&m, line, 0);
            used[e] = true;
            ref[e] = line;
        }
    }
    hd_mshr_free(&m);
}

/* {==== Crossbar saturation ==== */
struct sat {
    uint32_t n;
};

static bool sat_ok(void *ctx, unsigned out, unsigned in_flight)
{
    (void)ctx;
    (void)out;
    return in_flight < 4;
}

static const struct hd_xbar_ops sat_ops = {sat_ok, NULL};

/* Saturated uniform random traffic, single-flit packets: packets delivered per output per
 * cycle. `voq`: iSLIP over virtual output queues, or over the head packet only ([icnt] voq). */
static double saturate_voq(bool islip, bool voq, uint32_t n, uint32_t buffer, uint32_t iters)
{
    struct hd_config c;
    hd_config_defaults(&c);
    struct hd_mem_params p;
    char err[200];
    hd_mem_params_init(&c, &p, err, sizeof err);
    p.icnt.islip = islip;
    p.icnt.voq = voq;
    p.icnt.latency = 1;
    p.icnt.input_flits = buffer;
    p.icnt.iters = iters;
    struct hd_xbar x;
    struct sat s = {n};
    if (hd_xbar_init(&x, n, n, &p.icnt, &sat_ops, &s) != 0)
        return 0;
    uint64_t seed = 99, got = 0;
    const uint64_t cycles = 20000;
    for (uint64_t now = 1; now <= cycles; now++) {
        for (uint32_t o = 0; o < n; o++)
            while (hd_xbar_pop(&x, o, now) != HD_TXN_NONE)
                got += now > 2000;
        for (uint32_t i = 0; i < n; i++)
            while (hd_xbar_can_inject(&x, i, 1)) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                hd_xbar_inject(&x, i, (uint32_t)((seed >> 33) % n), 0, 1, now);
            }
        hd_xbar_cycle(&x, now);
    }
    hd_xbar_free(&x);
    return (double)got / (double)(cycles - 2000) / n;
}

static double saturate(bool islip, uint32_t n, uint32_t buffer, uint32_t iters)
{
    return saturate_voq(islip, true, n, buffer, iters);
}

static void test_xbar(struct hd_test_state *t)
{
    hd_test_begin(t, "crossbar saturation: FIFO inputs ~ 2 - sqrt(2), iSLIP near 1");
    double rr = saturate(false, 16, 64, 1), is = saturate(true, 16, 256, 1);
    double is16 = saturate(true, 16, 16, 1), is16x4 = saturate(true, 16, 16, 4);
    printf("  16x16 uniform saturation throughput: rr %.3f, islip %.3f (deep VOQs), %.3f "
           "(16-flit buffers), %.3f (16 flits, 4 iterations)\n", rr, is, is16, is16x4);
    HD_CHECK(t, rr > 0.55 && rr < 0.66);
    HD_CHECK(t, is > 0.95);
    HD_CHECK(t, is16 > rr && is16x4 >= is16);
    /* iSLIP over one FIFO per input (GPGPU-Sim's single virtual channel): the head-of-line
     * limit again, whatever the buffer depth and the iterations */
    double fifo = saturate_voq(true, false, 16, 256, 1);
    double fifo4 = saturate_voq(true, false, 16, 256, 4);
    printf("  islip with one FIFO per input (voq = false): %.3f, %.3f with 4 iterations\n", fifo,
           fifo4);
    HD_CHECK(t, fifo > 0.55 && fifo < 0.66 && fifo4 > 0.55 && fifo4 < 0.66);
}
/* }==== */

static void test_hist(struct hd_test_state *t)
{
    hd_test_begin(t, "log-linear histogram");
    struct hd_hist h;
    memset(&h, 0, sizeof h);
    for (uint64_t v = 0; v < 5000; v++)
        hd_hist_add(&h, v);
    HD_CHECK_U64(t, 5000, h.n);
    HD_CHECK_U64(t, 4999, h.max);
    uint64_t total = 0;
    for (unsigned i = 0; i < HD_HIST_BUCKETS; i++) {
        uint64_t lo, hi;
        hd_hist_bounds(i, &lo, &hi);
        uint64_t want = lo >= 5000 ? 0 : (hi < 5000 ? hi : 4999) - lo + 1;
        total += h.b[i];
        if (h.b[i] != want) {
            HD_CHECK_U64(t, want, h.b[i]);
            break;
        }
    }
    HD_CHECK_U64(t, 5000, total);
    uint64_t med = hd_hist_quantile(&h, 0.5);
    HD_CHECK(t, med >= 2500 && med <= 3200);
}

static void test_coalesce(struct hd_test_state *t)
{
    hd_test_begin(t, "32/64/128-byte transactions and sector splits");
    const uint64_t s = 0x1000;
    uint64_t a;
    uint32_t b;
    /* 32 lanes x 4 bytes, consecutive: the whole segment */
    uint64_t m = hd_mem_sector_mask(s, 128, s, 128);
    HD_CHECK_U64(t, 0xf, m);
    hd_mem_segment_trim(s, 128, m, &a, &b);
    HD_CHECK(t, a == s && b == 128);
    /* one word: 32 bytes */
    m = hd_mem_sector_mask(s, 128, s + 100, 4);
    HD_CHECK_U64(t, 0x8, m);
    hd_mem_segment_trim(s, 128, m, &a, &b);
    HD_CHECK(t, a == s + 96 && b == 32);
    /* the upper half: 64 bytes */
    m = hd_mem_sector_mask(s, 128, s + 70, 4) | hd_mem_sector_mask(s, 128, s + 120, 8);
    hd_mem_segment_trim(s, 128, m, &a, &b);
    HD_CHECK(t, a == s + 64 && b == 64);
    /* sectors 1 and 2 straddle the middle: 128 bytes, as GPGPU-Sim */
    m = hd_mem_sector_mask(s, 128, s + 40, 48);
    HD_CHECK_U64(t, 0x6, m);
    hd_mem_segment_trim(s, 128, m, &a, &b);
    HD_CHECK(t, a == s && b == 128);
    uint64_t out[8];
    HD_CHECK_U64(t, 2, hd_mem_segment_sectors(s, 128, m, out, 8));
    HD_CHECK(t, out[0] == s + 32 && out[1] == s + 64);
    HD_CHECK_U64(t, 0, hd_mem_sector_mask(s, 128, s + 128, 4));
    HD_CHECK_U64(t, 0x1, hd_mem_sector_mask(s, 128, s - 2, 4));
}

int main(void)
{
    struct hd_test_state t = {0};
    test_spaces(&t);
    test_addrmap(&t);
    test_bitlists(&t);
    test_clock(&t);
    test_tags(&t);
    test_mshr(&t);
    test_xbar(&t);
    test_hist(&t);
    test_coalesce(&t);
    return hd_test_finish(&t);
}
