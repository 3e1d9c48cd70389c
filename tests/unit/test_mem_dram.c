/* SPDX-License-Identifier: MIT
 * test_mem_dram.c - the GDDR5 channel alone (row hits and misses, bank groups, FR-FCFS against
 * FCFS, refresh, write batching with a separate write queue and its watermarks) with
 * expectations computed from the timing parameters, and the whole memory system streaming at
 * >= 85 % of the configured peak DRAM bandwidth (issue 5 acceptance).
 */
#include "dram.h"
#include "mem_params.h"
#include "mem_testkit.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>

struct chan {
    struct hd_config cfg;
    struct hd_mem_params p;
    struct hd_txn_pool pool;
    struct hd_mem_stats st;
    struct hd_dram d;
    uint64_t now;
};

/* write_queue 0: one shared queue (the default); else write batching with those watermarks */
static int chan_init_wb(struct chan *c, bool frfcfs, uint32_t write_queue, uint32_t high,
                        uint32_t low)
{
    memset(c, 0, sizeof *c);
    hd_config_defaults(&c->cfg);
    c->cfg.dram_scheduler = frfcfs ? HD_DRAMSCHED_FRFCFS : HD_DRAMSCHED_FCFS;
    c->cfg.dram_write_queue = write_queue;
    c->cfg.dram_write_high = high;
    c->cfg.dram_write_low = low;
    char err[200];
    if (hd_mem_params_init(&c->cfg, &c->p, err, sizeof err) || hd_txn_pool_init(&c->pool, 64) ||
        hd_mem_stats_init(&c->st, 1, 1, 1, 0) ||
        hd_dram_init(&c->d, &c->p.dram, 0, &c->pool, &c->st))
        return -1;
    return 0;
}

static int chan_init(struct chan *c, bool frfcfs)
{
    return chan_init_wb(c, frfcfs, 0, 0, 0);
}

static void chan_free(struct chan *c)
{
    hd_dram_free(&c->d);
    hd_mem_stats_free(&c->st);
    hd_txn_pool_free(&c->pool);
}

static void push(struct chan *c, uint16_t bank, uint32_t row, bool write)
{
    uint32_t id = hd_txn_alloc(&c->pool);
    struct hd_txn *t = hd_txn_get(&c->pool, id);
    t->bytes = 128;
    t->bank = bank;
    t->row = row;
    t->type = write ? HD_TXN_WRITEBACK : HD_TXN_READ;
    hd_dram_push(&c->d, id, c->now);
}

/* Tick until n reads have returned (and the queue is empty); returns the cycle of the last
 * (and of the first in *first if not NULL). */
static uint64_t run2(struct chan *c, unsigned n, uint64_t *first)
{
    unsigned got = 0;
    uint64_t last = 0;
    while (got < n || hd_dram_active(&c->d) || c->d.pipe.count) {
        c->now++;
        hd_dram_tick(&c->d, c->now);
        uint32_t id;
        while ((id = hd_dram_pop_done(&c->d, c->now)) != HD_TXN_NONE) {
            hd_txn_release(&c->pool, id);
            if (!got && first)
                *first = c->now;
            got++;
            last = c->now;
        }
        if (c->now > 10000000)
            break;
    }
    return last;
}

static uint64_t run(struct chan *c, unsigned n)
{
    return run2(c, n, NULL);
}

/* Latency of one read issued alone. */
static uint64_t one(struct chan *c, uint16_t bank, uint32_t row)
{
    uint64_t t0 = c->now;
    push(c, bank, row, false);
    return run(c, 1) - t0;
}

static void test_dependent(struct hd_test_state *t)
{
    hd_test_begin(t, "dependent reads: closed bank, row hit, row conflict");
    struct chan c;
    if (chan_init(&c, true)) {
        HD_CHECK(t, false);
        return;
    }
    const struct hd_dram_params *p = &c.p.dram;
    const uint32_t nb = 128 / p->burst_bytes;
    const uint64_t hit = p->latency + (nb - 1) * p->tccdl + p->tcl + p->burst_cycles;
    HD_CHECK_U64(t, hit + p->trcd, one(&c, 0, 0)); /* closed bank: ACT first */
    HD_CHECK_U64(t, hit, one(&c, 0, 0));           /* row open */
    HD_CHECK_U64(t, hit, one(&c, 0, 0));
    uint64_t conflict = 0;
    for (unsigned i = 0; i < 20; i++)
        conflict += one(&c, 0, 1 + (i & 1)); /* the open row is always the other one */
    HD_CHECK_U64(t, 20 * (hit + p->trp + p->trcd), conflict);
    printf("  dependent: row hit %llu, row conflict %llu DRAM cycles (tRP + tRCD = %u)\n",
           (unsigned long long)hit, (unsigned long long)(conflict / 20), p->trp + p->trcd);
    HD_CHECK_U64(t, 21, c.st.channel[0].dram_row_misses);
    HD_CHECK_U64(t, 2, c.st.channel[0].dram_row_hits);
    chan_free(&c);
}

/* n reads, all queued at once, to bank(i) / row(i): DRAM cycles per request between the first
 * and the last completion. */
static double stream(bool frfcfs, unsigned n, uint16_t (*bank)(unsigned),
                     uint32_t (*row)(unsigned))
{
    struct chan c;
    if (chan_init(&c, frfcfs))
        return 0;
    for (unsigned i = 0; i < n; i++)
        push(&c, bank(i), row(i), false);
    uint64_t first = 0, last = run2(&c, n, &first);
    chan_free(&c);
    return (double)(last - first) / (n - 1);
}

static uint16_t bank0(unsigned i) { (void)i; return 0; }
static uint16_t bank_pair_same_group(unsigned i) { return (uint16_t)(i & 1 ? 4 : 0); }
static uint16_t bank_pair_two_groups(unsigned i) { return (uint16_t)(i & 1); }
static uint32_t row0(unsigned i) { (void)i; return 0; }
static uint32_t row_alt(unsigned i) { return i & 1; }

static void test_streams(struct hd_test_state *t)
{
    hd_test_begin(t, "queued reads: row hits against row conflicts, bank groups");
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    struct hd_mem_params pp;
    char err[200];
    hd_mem_params_init(&cfg, &pp, err, sizeof err);
    const struct hd_dram_params *p = &pp.dram;
    const unsigned n = 400, nb = 128 / p->burst_bytes;
    /* one bank, one row: every burst waits tCCDL after the previous one */
    const double hit_each = nb * p->tccdl;
    /* one bank, rows alternating, FCFS: ACT to ACT is the largest of tRC, tRAS + tRP and
     * tRCD + (nb-1) tCCDL + tRTP + tRP */
    double conf_each = p->trc;
    conf_each = fmax(conf_each, p->tras + p->trp);
    conf_each = fmax(conf_each, p->trcd + (nb - 1.0) * p->tccdl + p->trtp + p->trp);
    const double hit = stream(false, n, bank0, row0);
    const double conf = stream(false, n, bank0, row_alt);
    printf("  per request: row hits %.2f (expected %.2f), row conflicts %.2f (expected %.2f) "
           "DRAM cycles\n", hit, hit_each, conf, conf_each);
    HD_CHECK(t, fabs(hit - hit_each) <= 0.05 * hit_each);
    HD_CHECK(t, fabs(conf - conf_each) <= 0.05 * conf_each);
    HD_CHECK(t, conf > hit);
    /* FR-FCFS serves the queued hits of the open row first: far fewer activations */
    const double fr = stream(true, n, bank0, row_alt);
    printf("  alternating rows with FR-FCFS: %.2f per request\n", fr);
    HD_CHECK(t, fr < 0.5 * conf);
    /* two banks in one group: tCCDL between all bursts; in two groups: tCCD between them */
    const double same = stream(true, n, bank_pair_same_group, row0);
    const double two = stream(true, n, bank_pair_two_groups, row0);
    const double two_each = fmax(nb * p->tccd, nb * p->burst_cycles);
    printf("  two banks, same group %.2f (expected %.2f), different groups %.2f (expected "
           "%.2f)\n", same, hit_each, two, two_each);
    HD_CHECK(t, fabs(same - hit_each) <= 0.05 * hit_each);
    HD_CHECK(t, fabs(two - two_each) <= 0.05 * two_each);
}

static void test_refresh(struct hd_test_state *t)
{
    hd_test_begin(t, "refresh blocks the channel for tRFC every tREFI");
    struct chan c;
    if (chan_init(&c, true)) {
        HD_CHECK(t, false);
        return;
    }
    c.cfg.dram_refresh = true;
    char err[200];
    hd_mem_params_init(&c.cfg, &c.p, err, sizeof err);
    c.d.next_ref = c.p.dram.trefi;
    const unsigned n = 3000;
    for (unsigned i = 0; i < n; i++)
        push(&c, 0, 0, false);
    uint64_t first = 0, with = run2(&c, n, &first) - first;
    const uint64_t refs = c.st.dram_refs[0];
    chan_free(&c);
    uint64_t without = (uint64_t)(stream(true, n, bank0, row0) * (n - 1));
    printf("  %u reads: %llu cycles with refresh (%llu refreshes), %llu without\n", n,
           (unsigned long long)with, (unsigned long long)refs, (unsigned long long)without);
    HD_CHECK(t, refs >= with / c.p.dram.trefi);
    HD_CHECK(t, with > without + refs * (uint64_t)c.p.dram.trfc / 2);
}

/* {==== Write batching ==== */
/* A copy-like mix, all queued at once: per group of three requests two reads and one write,
 * the reads on row 0 and the writes on row 1 of banks walking through all groups (as a copy
 * kernel's read and write streams). Returns the data-bus utilization from the first push to
 * the end of the last request; *turns = read/write turnarounds. */
static double mixed(uint32_t write_queue, uint32_t high, uint32_t low, uint64_t *turns)
{
    struct chan c;
    if (chan_init_wb(&c, true, write_queue, high, low))
        return 0;
    const unsigned n = 600;
    unsigned reads = 0;
    for (unsigned i = 0; i < n; i++) {
        const bool w = i % 3 == 2;
        push(&c, (uint16_t)(i / 3 % c.p.dram.banks), w ? 1 : 0, w);
        reads += !w;
    }
    const uint64_t t0 = c.now;
    run(&c, reads);
    const double util = (double)c.st.dram_data_cycles[0] / (double)(c.now - t0 - c.p.dram.latency);
    *turns = c.st.channel[0].dram_rw_turnarounds;
    chan_free(&c);
    return util;
}

/* Tick once; returns the reads that completed. */
static unsigned step(struct chan *c)
{
    unsigned got = 0;
    c->now++;
    hd_dram_tick(&c->d, c->now);
    uint32_t id;
    while ((id = hd_dram_pop_done(&c->d, c->now)) != HD_TXN_NONE) {
        hd_txn_release(&c->pool, id);
        got++;
    }
    return got;
}

static void test_write_batching(struct hd_test_state *t)
{
    hd_test_begin(t, "write batching: fewer turnarounds, writes drain by the watermarks");
    /* a copy-like mix: batching turns the bus around less often and uses it better */
    uint64_t turns_one = 0, turns_wb = 0;
    const double one_q = mixed(0, 0, 0, &turns_one);
    const double wb = mixed(64, 48, 8, &turns_wb);
    printf("  copy-like mix: one queue %.1f%% of the bus, %llu turnarounds; write queue 64/48/8 "
           "%.1f%%, %llu turnarounds\n", 100 * one_q, (unsigned long long)turns_one, 100 * wb,
           (unsigned long long)turns_wb);
    HD_CHECK(t, turns_one > 0);
    HD_CHECK(t, 2 * turns_wb < turns_one);
    HD_CHECK(t, wb > one_q + 0.05);

    struct chan c;
    /* a lone write completes (the write queue drains when no read waits) */
    if (chan_init_wb(&c, true, 32, 28, 16)) {
        HD_CHECK(t, false);
        return;
    }
    const struct hd_dram_params *p = &c.p.dram;
    push(&c, 3, 7, true);
    for (unsigned i = 0; i < 1000 && (hd_dram_active(&c.d) || c.d.pipe.count); i++)
        step(&c);
    HD_CHECK(t, !hd_dram_active(&c.d) && !c.d.pipe.count);
    HD_CHECK_U64(t, 1, c.st.channel[0].dram_row_misses);
    HD_CHECK_U64(t, 1, c.st.dram_acts[0]);
    /* ACT as it enters the queue, tRCD to the first WR, tCCDL to the second (same bank): done,
     * and the transaction released, right then */
    HD_CHECK_U64(t, p->latency + p->trcd + p->tccdl, c.now);
    HD_CHECK_U64(t, 0, c.pool.used);

    /* below the high watermark, queued reads all go first, even when the writes came first;
     * then the writes drain without any read waiting */
    const unsigned nw = 10, nr = 10;
    for (unsigned i = 0; i < nw; i++)
        push(&c, (uint16_t)(i % p->banks), 1, true);
    for (unsigned i = 0; i < nr; i++)
        push(&c, (uint16_t)(i % p->banks), 2, false);
    unsigned reads = 0;
    bool order_ok = true;
    for (unsigned i = 0; i < 10000 && (hd_dram_active(&c.d) || c.d.pipe.count); i++) {
        reads += step(&c);
        if (c.d.nwq < nw && c.d.nq > 0)
            order_ok = false; /* a write went while a read was queued */
    }
    HD_CHECK(t, order_ok);
    HD_CHECK_U64(t, nr, reads);
    HD_CHECK_U64(t, 0, c.d.nwq);
    chan_free(&c);

    /* at the high watermark the controller drains writes down to the low one, then reads go
     * (the queued reads wait out exactly high - low writes) */
    if (chan_init_wb(&c, true, 32, 28, 16)) {
        HD_CHECK(t, false);
        return;
    }
    p = &c.p.dram;
    for (unsigned i = 0; i < 4; i++)
        push(&c, (uint16_t)(i % p->banks), 2, false);
    for (unsigned i = 0; i < 30; i++)
        push(&c, (uint16_t)(i % p->banks), 1, true);
    uint32_t nwq_first_read = UINT32_MAX, nwq_max = 0;
    for (unsigned i = 0; i < 10000 && (hd_dram_active(&c.d) || c.d.pipe.count); i++) {
        const uint32_t nq = c.d.nq;
        step(&c);
        nwq_max = c.d.nwq > nwq_max ? c.d.nwq : nwq_max;
        if (nq == 4 && c.d.nq == 3 && nwq_first_read == UINT32_MAX)
            nwq_first_read = c.d.nwq;
    }
    printf("  watermarks 28/16: the write queue reached %u, the first read went with %u writes "
           "queued\n", nwq_max, nwq_first_read);
    HD_CHECK_U64(t, 30, nwq_max);
    HD_CHECK_U64(t, 16, nwq_first_read);
    HD_CHECK(t, !hd_dram_active(&c.d));
    chan_free(&c);

    /* off by default (GPGPU-Sim 3.x's single queue); bad watermarks are named */
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    struct hd_mem_params mp;
    char err[200] = "";
    HD_CHECK(t, hd_mem_params_init(&cfg, &mp, err, sizeof err) == 0 && mp.dram.write_queue == 0);
    cfg.dram_write_queue = 16;
    HD_CHECK(t, hd_mem_params_init(&cfg, &mp, err, sizeof err) != 0 &&
                    strstr(err, "write_high") != NULL);
    cfg.dram_write_queue = 32;
    cfg.dram_write_low = 28;
    HD_CHECK(t, hd_mem_params_init(&cfg, &mp, err, sizeof err) != 0 &&
                    strstr(err, "write_low") != NULL);
}
/* }==== */

/* {==== The whole memory system streaming ==== */
static double stream_full(struct hd_config *cfg, bool bypass, double *row_hit_rate)
{
    struct tk k;
    if (tk_init(&k, cfg) != 0)
        return 0;
    const unsigned nsm = k.cfg.gpu_num_sms;
    const uint64_t base = 0x7f0000000000ull;
    /* one array read front to back, line by line, the SMs taking the lines in turn (as the
     * CTAs of a streaming kernel do) */
    uint64_t next = 0, *mine = calloc(nsm, sizeof *mine);
    for (unsigned s = 0; s < nsm; s++)
        mine[s] = UINT64_MAX;
    hd_mem_full_set_bypass(&k.m, 1, bypass);
    const struct hd_mem_stats *st = hd_mem_full_stats(&k.m);
    const uint64_t warm = 5000, span = 60000;
    uint64_t bytes0 = 0, cyc0 = 0;
    struct hd_mem_req out[64];
    for (uint64_t c = 0; c < warm + span; c++) {
        if (c == warm) {
            hd_mem_full_reset_stats(&k.m);
            bytes0 = 0;
            cyc0 = 0;
        }
        tk_tick(&k);
        for (unsigned s = 0; s < nsm; s++) {
            while (k.m.ops->recv(k.m.impl, s, out, 64, k.now))
                ;
            if (mine[s] == UINT64_MAX)
                mine[s] = next++;
            struct hd_mem_req r = tk_req(s, HD_MEM_LOAD, 1, base + mine[s] * 128, 128, 1, 0);
            if (k.m.ops->send(k.m.impl, &r, k.now))
                mine[s] = UINT64_MAX;
        }
    }
    struct hd_mem_acct tot;
    hd_mem_stats_total(st, &tot);
    const double peak = (double)k.cfg.dram_channels * k.cfg.dram_bus_bytes * k.cfg.dram_data_rate;
    const double bw = (double)(tot.dram_read_bytes - bytes0) / (double)(st->dram_cycles - cyc0);
    *row_hit_rate = (double)tot.dram_row_hits / (double)(tot.dram_row_hits + tot.dram_row_misses);
    free(mine);
    tk_done(&k);
    return bw / peak;
}

static void test_peak(struct hd_test_state *t)
{
    hd_test_begin(t, "streaming reaches >= 85% of the peak DRAM bandwidth");
    double rh;
    double cached = stream_full(NULL, false, &rh);
    printf("  GTX480, L1-cached loads: %.1f%% of peak (row hits %.1f%%)\n", 100 * cached,
           100 * rh);
    HD_CHECK(t, cached >= 0.85);
    HD_CHECK(t, rh >= 0.9);
    /* Bypassed loads are not limited by the L1 MSHRs, so far more of them wait in front of the
     * L2, whose 32 MSHRs per slice then limit the lines in flight to the DRAM; with twice as
     * many the stream again reaches the peak. */
    double bypass = stream_full(NULL, true, &rh);
    printf("  GTX480, L1-bypassing loads: %.1f%% of peak (row hits %.1f%%)\n", 100 * bypass,
           100 * rh);
    HD_CHECK(t, bypass >= 0.75);
    struct hd_config c;
    hd_config_defaults(&c);
    c.l2_mshr_entries = 64;
    double big = stream_full(&c, true, &rh);
    printf("  L1-bypassing loads, 64 L2 MSHRs per slice: %.1f%% of peak\n", 100 * big);
    HD_CHECK(t, big >= 0.85);
    hd_config_defaults(&c);
    c.l2_dram_queue = 0;
    double unb = stream_full(&c, true, &rh);
    printf("  L1-bypassing loads, unbounded L2-to-DRAM queue: %.1f%% of peak\n", 100 * unb);
    HD_CHECK(t, unb >= 0.75);
}
/* }==== */

/* {==== The L2-to-DRAM queue ([l2] dram_queue) ==== */
/* SMs 1..N-1 stream L1-bypassing loads that miss the L2 (the DRAM saturates); SM 0 reads one
 * line that stays in the L2, one dependent read at a time. Returns the mean latency of SM 0's
 * reads (core cycles) and the slices' stall cycles on a full L2-to-DRAM queue. */
static double hit_under_stream(uint32_t dram_queue, uint64_t *dq_stalls, uint64_t *done)
{
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    cfg.l2_dram_queue = dram_queue;
    cfg.l2_mshr_entries = 256; /* Lin Table 4.1's L2: the MSHRs do not bound the misses first */
    struct tk k;
    if (tk_init(&k, &cfg) != 0)
        return 0;
    const unsigned nsm = k.cfg.gpu_num_sms;
    const uint64_t base = 0x7f0000000000ull, probe = 0x7e0000000000ull;
    hd_mem_full_set_bypass(&k.m, 1, true);
    /* warm the probe line into its L2 slice, alone */
    tk_access(&k, tk_req(0, HD_MEM_LOAD, 1, probe, 128, 1, 0), 100000);
    uint64_t next = 0, sum = 0, n = 0;
    bool waiting = false;
    struct hd_mem_req out[64];
    for (uint64_t c = 0; c < 40000; c++) {
        tk_tick(&k);
        for (unsigned s = 0; s < nsm; s++) {
            unsigned got;
            while ((got = k.m.ops->recv(k.m.impl, s, out, 64, k.now)) != 0)
                for (unsigned i = 0; s == 0 && i < got; i++) {
                    waiting = false;
                    if (c > 5000) { /* after the warm-up: the queues are full */
                        sum += out[i].done_cycle - out[i].issue_cycle;
                        n++;
                    }
                }
            if (s == 0) {
                struct hd_mem_req r = tk_req(0, HD_MEM_LOAD, 1, probe, 128, 1, 0);
                if (!waiting && k.m.ops->send(k.m.impl, &r, k.now))
                    waiting = true;
                continue;
            }
            struct hd_mem_req r = tk_req(s, HD_MEM_LOAD, 1, base + next * 128, 128, 1, 0);
            if (k.m.ops->send(k.m.impl, &r, k.now))
                next++;
        }
    }
    struct hd_mem_acct tot;
    hd_mem_stats_total(hd_mem_full_stats(&k.m), &tot);
    *dq_stalls = tot.l2_dramq_stall;
    *done = n;
    tk_done(&k);
    return n ? (double)sum / (double)n : 0;
}

static void test_l2_dram_queue(struct hd_test_state *t)
{
    hd_test_begin(t, "a full L2-to-DRAM queue stalls the slice's L2 hits ([l2] dram_queue)");
    uint64_t st0, st8, n0, n8;
    const double lat0 = hit_under_stream(0, &st0, &n0);
    const double lat8 = hit_under_stream(8, &st8, &n8);
    printf("  L2 hit under a DRAM-saturating stream: %.1f cycles unbounded (%llu reads), %.1f "
           "with 8 entries (%llu reads, %llu slice stall cycles)\n", lat0,
           (unsigned long long)n0, lat8, (unsigned long long)n8, (unsigned long long)st8);
    HD_CHECK(t, n0 > 10 && n8 > 10);
    HD_CHECK(t, st0 == 0); /* unbounded: the slice never waits for the DRAM */
    HD_CHECK(t, st8 > 0);
    /* the hit waits behind the misses the DRAM cannot take (bounded or not: unbounded, the
     * slice's 256 MSHRs fill and a miss at the head of its input queue holds the hit) */
    struct hd_config c;
    hd_config_defaults(&c);
    const double unloaded = tk_l2_hit_latency(&c);
    HD_CHECK(t, lat8 > 1.5 * unloaded);
    HD_CHECK(t, lat0 > 1.5 * unloaded);
}
/* }==== */

/* {==== The L2's write-miss and line-fetch policies ([l2] write_miss_fetch, fetch_whole_line) ==== */
static void dram_bytes(struct tk *k, uint64_t *rd, uint64_t *wr)
{
    struct hd_mem_acct tot;
    hd_mem_stats_total(hd_mem_full_stats(&k->m), &tot);
    *rd = tot.dram_read_bytes;
    *wr = tot.dram_write_bytes;
}

static void test_l2_write_miss_fetch(struct hd_test_state *t)
{
    hd_test_begin(t, "an L2 write miss: sectors allocated dirty, or through to DRAM with the "
                     "line fetched (GPGPU-Sim 3.x write-allocate)");
    const uint64_t line = 0x7f0000000000ull;
    for (int fetch = 0; fetch < 2; fetch++) {
        struct hd_config c;
        hd_config_defaults(&c);
        c.l2_write_miss_fetch = fetch;
        c.l2_fetch_whole_line = fetch;
        struct tk k;
        if (tk_init(&k, &c) != 0) {
            HD_CHECK(t, false);
            return;
        }
        hd_mem_full_set_bypass(&k.m, 1, true);
        uint64_t rd, wr;
        /* a 32-byte store to a line the L2 does not hold */
        const uint64_t st1 = tk_access(&k, tk_req(0, HD_MEM_STORE, 1, line, 32, 1, 0), 100000);
        HD_CHECK(t, tk_drain(&k, 100000));
        dram_bytes(&k, &rd, &wr);
        printf("  write_miss_fetch=%d: store miss acknowledged after %llu cycles; DRAM read %llu "
               "B, written %llu B\n", fetch, (unsigned long long)st1, (unsigned long long)rd,
               (unsigned long long)wr);
        if (fetch) { /* written through (32 B) and the whole line fetched (128 B) */
            HD_CHECK_U64(t, 32, wr);
            HD_CHECK_U64(t, 128, rd);
            HD_CHECK(t, st1 > (uint64_t)tk_l2_hit_latency(&c) + 50); /* the DRAM acknowledges */
        } else { /* allocated dirty in the slice: nothing moves yet */
            HD_CHECK_U64(t, 0, wr);
            HD_CHECK_U64(t, 0, rd);
            HD_CHECK(t, st1 < (uint64_t)tk_l2_hit_latency(&c) + 20);
        }
        /* a bypassing load of another sector of that line */
        const uint64_t ld = tk_access(&k, tk_req(0, HD_MEM_LOAD, 1, line + 64, 32, 1, 0), 100000);
        HD_CHECK(t, tk_drain(&k, 100000));
        uint64_t rd2, wr2;
        dram_bytes(&k, &rd2, &wr2);
        printf("  then a load of another sector: %llu cycles, DRAM read +%llu B\n",
               (unsigned long long)ld, (unsigned long long)(rd2 - rd));
        /* fetched with the write: an L2 hit; else that sector alone comes from DRAM */
        HD_CHECK_U64(t, fetch ? 0 : 32, rd2 - rd);
        /* a load missing a new line: the whole line (line cache) or its one sector */
        tk_access(&k, tk_req(0, HD_MEM_LOAD, 1, line + 0x100000, 32, 1, 0), 100000);
        HD_CHECK(t, tk_drain(&k, 100000));
        uint64_t rd3, wr3;
        dram_bytes(&k, &rd3, &wr3);
        HD_CHECK_U64(t, fetch ? 128 : 32, rd3 - rd2);
        /* two stores to a line in flight: both written through, the line fetched once */
        struct hd_mem_req a = tk_req(0, HD_MEM_STORE, 1, line + 0x200000, 32, 1, 1);
        struct hd_mem_req b = tk_req(1, HD_MEM_STORE, 1, line + 0x200020, 32, 1, 2);
        while (!k.m.ops->send(k.m.impl, &a, k.now))
            tk_tick(&k);
        while (!k.m.ops->send(k.m.impl, &b, k.now))
            tk_tick(&k);
        HD_CHECK(t, tk_drain(&k, 100000));
        uint64_t rd4, wr4;
        dram_bytes(&k, &rd4, &wr4);
        HD_CHECK_U64(t, fetch ? 128 : 0, rd4 - rd3);
        HD_CHECK_U64(t, fetch ? 64 : 0, wr4 - wr3);
        tk_done(&k);
    }
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_dependent(&t);
    test_streams(&t);
    test_refresh(&t);
    test_write_batching(&t);
    test_peak(&t);
    test_l2_dram_queue(&t);
    test_l2_write_miss_fetch(&t);
    return hd_test_finish(&t);
}
