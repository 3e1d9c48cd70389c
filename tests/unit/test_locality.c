/* SPDX-License-Identifier: MIT
 * test_locality.c - Gong ch.6's locality-aware scheduling (issue 31, docs/locality.md): the warp
 * groups of §2.10 built by hand for a 2-D grid and compared with hd_locality_group for each hint;
 * the group scheduler's order (the active group first, round-robin inside it, the next group
 * once none of its warps is ready; hint 0 exactly lrr); the block distributor's chunked
 * placement on a hand-worked grid (linear and column order; hint 0 exactly round_robin); and the
 * CTA-aware and MASCAR baselines' priorities.
 */
#include "cta_dist_locality.h"
#include "sm_sched_ext.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* {==== Groups by hand ==== */
/* Warps of a 3 x 2 grid of CTAs with 2 warps each, in (y, x, k) order; index = (y*3 + x)*2 + k. */
#define GX 3
#define GY 2
#define NW 2
#define NWARPS (GX * GY * NW)

static int idx(int x, int y, int k)
{
    return (y * GX + x) * NW + k;
}

/* Two warps are in one group by the keys iff they are in one group of the hand-made partition. */
static void check_partition(struct hd_test_state *t, uint32_t hint, const int *hand, uint32_t ng)
{
    uint64_t key[NWARPS];
    for (int y = 0; y < GY; y++)
        for (int x = 0; x < GX; x++)
            for (int k = 0; k < NW; k++)
                key[idx(x, y, k)] = hd_locality_group(hint, (uint32_t)x, (uint32_t)y, (uint32_t)k,
                                                      NW, (uint64_t)idx(x, y, k), ng);
    unsigned bad = 0;
    for (int a = 0; a < NWARPS; a++)
        for (int b = 0; b < NWARPS; b++)
            bad += (key[a] == key[b]) != (hand[a] == hand[b]);
    if (!HD_CHECK_U64(t, 0, bad))
        fprintf(stderr, "  hint %u: %u warp pairs grouped differently from the hand-made groups\n",
                hint, bad);
}

static void test_groups(struct hd_test_state *t)
{
    hd_test_begin(t, "groups of §2.10 for a 3x2 grid of 2-warp CTAs");
    int hand[NWARPS];
    /* hint 1 (L1336): warp k of every CTA with the same blockIdx.y: 4 groups (y, k) */
    for (int y = 0; y < GY; y++)
        for (int x = 0; x < GX; x++)
            for (int k = 0; k < NW; k++)
                hand[idx(x, y, k)] = y * NW + k;
    check_partition(t, 1, hand, 1);
    /* hint 2 (L1350-1352): the last warp (k = 1) of (x, 0) with warp 0 of (x, 1): group 10 + x;
     * warp 0 of row 0 has no upper neighbour: its column x (group 20 + x); the last warp of row 1
     * has no lower neighbour in the grid: alone on its seam (group 30 + x) */
    for (int x = 0; x < GX; x++) {
        hand[idx(x, 0, 1)] = hand[idx(x, 1, 0)] = 10 + x;
        hand[idx(x, 0, 0)] = 20 + x;
        hand[idx(x, 1, 1)] = 30 + x;
    }
    check_partition(t, 2, hand, 1);
    /* hint 3 (L1356): warps dealt round-robin into 4 groups by arrival */
    for (int i = 0; i < NWARPS; i++)
        hand[i] = i % 4;
    check_partition(t, 3, hand, 4);
    /* hint 0: one group; the hint's upper bits are not Table 6.1's */
    for (int i = 0; i < NWARPS; i++)
        hand[i] = 0;
    check_partition(t, 0, hand, 4);
    check_partition(t, 4, hand, 4);
    for (int y = 0; y < GY; y++)
        for (int x = 0; x < GX; x++)
            for (int k = 0; k < NW; k++)
                hand[idx(x, y, k)] = y * NW + k;
    check_partition(t, 5, hand, 4); /* 5 & 3 = 1 */
    /* one warp per CTA (hint 2): by column */
    HD_CHECK(t, hd_locality_group(2, 1, 0, 0, 1, 0, 1) == hd_locality_group(2, 1, 3, 0, 1, 9, 1));
    HD_CHECK(t, hd_locality_group(2, 1, 0, 0, 1, 0, 1) != hd_locality_group(2, 2, 0, 0, 1, 0, 1));
}
/* }==== */

/* {==== The scheduler over a fake SM ==== */
struct fake_sm {
    struct hd_warp_view v[64];
};

static void fake_view(const void *sm, uint32_t slot, struct hd_warp_view *out)
{
    *out = ((const struct fake_sm *)sm)->v[slot];
}

static struct hd_sm_params params(enum hd_cfg_sched kind, uint32_t max_warps)
{
    struct hd_sm_params p;
    memset(&p, 0, sizeof p);
    p.max_warps = max_warps;
    p.max_ctas = 16;
    p.num_sched = 1;
    p.sched_active = 2;
    p.sched = kind;
    return p;
}

/* slot s = warp of the 3 x 2 grid above, hint h */
static void fill_grid(struct fake_sm *f, uint32_t hint)
{
    memset(f, 0, sizeof *f);
    for (int y = 0; y < GY; y++)
        for (int x = 0; x < GX; x++)
            for (int k = 0; k < NW; k++) {
                struct hd_warp_view *v = &f->v[idx(x, y, k)];
                v->slot = (uint32_t)idx(x, y, k);
                v->launch = 1;
                v->cta = (uint64_t)(y * GX + x);
                v->cta_slot = (uint32_t)(y * GX + x);
                v->warp_in_cta = (uint32_t)k;
                v->ctaid[0] = (uint32_t)x;
                v->ctaid[1] = (uint32_t)y;
                v->grid[0] = GX;
                v->grid[1] = GY;
                v->grid[2] = 1;
                v->hint = hint;
                v->cta_warps = NW;
                v->age = (uint64_t)idx(x, y, k);
            }
}

static void test_group_sched(struct hd_test_state *t)
{
    hd_test_begin(t, "group scheduler: active group, round-robin inside, switch when stalled");
    struct fake_sm f;
    fill_grid(&f, 1);
    const struct hd_sched_env env = {&f, fake_view};
    struct hd_sm_params p = params(HD_SCHED_LOCALITY, 64);
    struct hd_sched s;
    HD_CHECK(t, hd_sched_create(&p, &s) == 0);
    for (uint32_t w = 0; w < NWARPS; w++)
        s.ops->add(s.impl, w, w);
    /* hint 1 groups: (y0,k0) = {0,2,4}, (y0,k1) = {1,3,5}, (y1,k0) = {6,8,10}, (y1,k1) = {7,9,11} */
    uint32_t all[NWARPS], out[NWARPS];
    for (uint32_t i = 0; i < NWARPS; i++)
        all[i] = i;
    unsigned n = s.ops->order(s.impl, &env, all, NWARPS, out);
    HD_CHECK_U64(t, NWARPS, n);
    const uint32_t first[NWARPS] = {0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11};
    HD_CHECK(t, memcmp(out, first, sizeof first) == 0);
    s.ops->issued(s.impl, 0); /* round-robin inside the active group: 2, 4, then 0 */
    s.ops->order(s.impl, &env, all, NWARPS, out);
    HD_CHECK_U64(t, 2, out[0]);
    HD_CHECK_U64(t, 4, out[1]);
    HD_CHECK_U64(t, 0, out[2]);
    HD_CHECK_U64(t, 1, out[3]); /* then the next group */
    /* every warp of the active group stalls: (y0,k1) becomes active and stays while ready */
    const uint32_t some[] = {1, 5, 6, 7};
    s.ops->issued(s.impl, 5);
    n = s.ops->order(s.impl, &env, some, 4, out);
    HD_CHECK_U64(t, 4, n);
    HD_CHECK_U64(t, 1, out[0]); /* after 5 inside the group: wraps to 1 */
    HD_CHECK_U64(t, 5, out[1]);
    HD_CHECK_U64(t, 6, out[2]);
    const uint32_t back[] = {0, 3, 6};
    s.ops->order(s.impl, &env, back, 3, out);
    HD_CHECK_U64(t, 3, out[0]); /* (y0,k1) stays active although (y0,k0) is ready again */
    HD_CHECK_U64(t, 6, out[1]); /* the ring goes on from the active group, wrapping to 0 last */
    HD_CHECK_U64(t, 0, out[2]);
    s.ops->destroy(s.impl);

    hd_test_begin(t, "group scheduler: hint 0 orders exactly as lrr");
    fill_grid(&f, 0);
    struct hd_sm_params pl = params(HD_SCHED_LRR, 64);
    struct hd_sched a, b;
    HD_CHECK(t, hd_sched_create(&p, &a) == 0 && hd_sched_create(&pl, &b) == 0);
    for (uint32_t w = 0; w < NWARPS; w++) {
        a.ops->add(a.impl, w, w);
        b.ops->add(b.impl, w, w);
    }
    uint64_t x = 88172645463325252ull;
    unsigned differ = 0;
    for (int it = 0; it < 2000; it++) {
        uint32_t ready[NWARPS], oa[NWARPS], ob[NWARPS];
        unsigned k = 0;
        for (uint32_t w = 0; w < NWARPS; w++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (x & 1)
                ready[k++] = w;
        }
        unsigned na = a.ops->order(a.impl, &env, ready, k, oa);
        unsigned nb = b.ops->order(b.impl, &env, ready, k, ob);
        differ += na != nb || memcmp(oa, ob, na * sizeof *oa) != 0;
        if (na) {
            a.ops->issued(a.impl, oa[x % na]);
            b.ops->issued(b.impl, oa[x % na]);
        }
    }
    HD_CHECK_U64(t, 0, differ);
    a.ops->destroy(a.impl);
    b.ops->destroy(b.impl);
}

static void test_baselines(struct hd_test_state *t)
{
    hd_test_begin(t, "cta_aware: the oldest CTA's warps first, round-robin inside it");
    struct fake_sm f;
    fill_grid(&f, 0);
    const struct hd_sched_env env = {&f, fake_view};
    struct hd_sm_params p = params(HD_SCHED_CTA_AWARE, 64);
    struct hd_sched s;
    HD_CHECK(t, hd_sched_create(&p, &s) == 0);
    for (uint32_t w = 0; w < NWARPS; w++)
        s.ops->add(s.impl, w, 100 - w); /* later slots are older: CTA 5 (slots 10, 11) oldest */
    const uint32_t r[] = {0, 1, 4, 10, 11};
    uint32_t out[8];
    s.ops->order(s.impl, &env, r, 5, out);
    const uint32_t want[] = {10, 11, 4, 0, 1};
    HD_CHECK(t, memcmp(out, want, sizeof want) == 0);
    s.ops->issued(s.impl, 10);
    s.ops->order(s.impl, &env, r, 5, out);
    HD_CHECK_U64(t, 11, out[0]);
    HD_CHECK_U64(t, 10, out[1]);
    s.ops->destroy(s.impl);

    hd_test_begin(t, "mascar: GTO until half the warps wait on memory, then the owner first");
    p = params(HD_SCHED_MASCAR, 64);
    HD_CHECK(t, hd_sched_create(&p, &s) == 0);
    HD_CHECK(t, s.ops->offer_blocked);
    for (uint32_t w = 0; w < 4; w++)
        s.ops->add(s.impl, w, w);
    const uint32_t four[] = {0, 1, 2, 3};
    s.ops->issued(s.impl, 2); /* compute priority: GTO: 2, then by age */
    s.ops->order(s.impl, &env, four, 4, out);
    const uint32_t gto[] = {2, 0, 1, 3};
    HD_CHECK(t, memcmp(out, gto, sizeof gto) == 0);
    f.v[1].long_loads = 1; /* warps 1 and 3 wait on loads: saturated */
    f.v[1].state = HD_WV_WAIT_MEM;
    f.v[3].long_loads = 2;
    f.v[3].state = HD_WV_WAIT_MEM;
    s.ops->order(s.impl, &env, four, 4, out);
    const uint32_t mp[] = {1, 0, 2, 3}; /* owner: the oldest waiting warp; then the computing */
    HD_CHECK(t, memcmp(out, mp, sizeof mp) == 0);
    f.v[1].long_loads = 0; /* the owner keeps its place while memory stays saturated */
    f.v[0].long_loads = 1;
    s.ops->order(s.impl, &env, four, 4, out);
    HD_CHECK_U64(t, 1, out[0]);
    s.ops->destroy(s.impl);
}
/* }==== */

/* {==== The block distributor ==== */
/* Place a launch of `gx` x `gy` CTAs on `nsms` SMs holding `cap` CTAs each (none finishes):
 * sm[i] = SM of CTA i, cyc[i] = the cycle it was placed. Returns the cycles taken. */
static unsigned distribute(struct hd_cta_dist *d, uint32_t hint, uint32_t gx, uint32_t gy,
                           uint32_t nsms, uint32_t cap, int *sm, unsigned *cyc)
{
    bool ok[16], busy[16];
    uint32_t held[16] = {0};
    const uint64_t n = (uint64_t)gx * gy;
    uint64_t next = 0;
    unsigned c = 0;
    d->ops->reset(d->impl);
    for (; next < n && c < 1000; c++) {
        for (uint32_t s = 0; s < nsms; s++) {
            busy[s] = false;
            ok[s] = held[s] < cap;
        }
        for (;;) { /* one CTA per SM per cycle, in order, as cta_sched.c */
            const struct hd_cta_dist_req r = {7, next, n, {gx, gy, 1},
                                              {(uint32_t)(next % gx), (uint32_t)(next / gx), 0},
                                              0, hint, false};
            int s = next < n ? d->ops->pick(d->impl, &r, ok, busy, nsms) : -1;
            if (s < 0)
                break;
            d->ops->placed(d->impl, (uint32_t)s);
            busy[s] = true;
            held[s]++;
            ok[s] = held[s] < cap;
            sm[next] = s;
            cyc[next++] = c;
        }
    }
    return c;
}

static void test_distributor(struct hd_test_state *t)
{
    int sm[64];
    unsigned cyc[64];
    struct hd_cta_dist d, rr;

    hd_test_begin(t, "distributor: chunks of adjacent CTAs (linear, auto chunk)");
    /* 4 x 4 grid, 4 SMs of 8 slots: chunk = 16 / 4 = 4: CTAs 0-3 on SM 0, 4-7 on SM 1, ...;
     * the chunk's SM takes one CTA per cycle, and the next chunk's first CTA goes to the next SM
     * in the cycle the chunk's last one is placed: CTA 4j + k in cycle 3j + k */
    HD_CHECK(t, hd_cta_dist_locality_create(4, 0, HD_CHUNK_LINEAR, &d) == 0);
    distribute(&d, 1, 4, 4, 4, 8, sm, cyc);
    unsigned bad = 0;
    for (int i = 0; i < 16; i++)
        bad += sm[i] != i / 4 || cyc[i] != (unsigned)(3 * (i / 4) + i % 4);
    if (!HD_CHECK_U64(t, 0, bad))
        for (int i = 0; i < 16; i++)
            fprintf(stderr, "  CTA %d: SM %d cycle %u\n", i, sm[i], cyc[i]);

    hd_test_begin(t, "distributor: a full SM ends its chunk; chunk 3 on 3 SMs of 2 slots");
    /* 6 x 1 grid, chunk 3, SMs of 2 slots: CTAs 0,1 -> SM 0 (full), 2,3 -> SM 1, 4,5 -> SM 2 */
    d.ops->destroy(d.impl);
    HD_CHECK(t, hd_cta_dist_locality_create(3, 3, HD_CHUNK_LINEAR, &d) == 0);
    distribute(&d, 2, 6, 1, 3, 2, sm, cyc);
    const int want6[] = {0, 0, 1, 1, 2, 2};
    HD_CHECK(t, memcmp(sm, want6, sizeof want6) == 0);
    /* chunk 2 on 3 SMs of 4 slots, 12 CTAs: 0-1 SM0, 2-3 SM1, 4-5 SM2, 6-7 SM0, 8-9 SM1, 10-11 SM2 */
    d.ops->destroy(d.impl);
    HD_CHECK(t, hd_cta_dist_locality_create(3, 2, HD_CHUNK_LINEAR, &d) == 0);
    distribute(&d, 3, 12, 1, 3, 4, sm, cyc);
    bad = 0;
    for (int i = 0; i < 12; i++)
        bad += sm[i] != (i / 2) % 3;
    HD_CHECK_U64(t, 0, bad);

    hd_test_begin(t, "distributor: column order puts vertical neighbours together");
    /* 4 x 2 grid, chunk 2, 4 SMs: position x*2 + y, SM (position / 2) % 4 = x: column x on SM x,
     * and row 0 goes out in one cycle (different SMs) */
    d.ops->destroy(d.impl);
    HD_CHECK(t, hd_cta_dist_locality_create(4, 2, HD_CHUNK_COLUMN, &d) == 0);
    unsigned cycles = distribute(&d, 2, 4, 2, 4, 8, sm, cyc);
    bad = 0;
    for (int i = 0; i < 8; i++)
        bad += sm[i] != i % 4 || cyc[i] != (unsigned)(i / 4);
    HD_CHECK_U64(t, 0, bad);
    HD_CHECK_U64(t, 2, cycles);

    hd_test_begin(t, "distributor: hint 0 is round_robin exactly");
    d.ops->destroy(d.impl);
    HD_CHECK(t, hd_cta_dist_locality_create(5, 2, HD_CHUNK_LINEAR, &d) == 0);
    HD_CHECK(t, hd_cta_dist_create(HD_CTADIST_ROUND_ROBIN, 5, &rr) == 0);
    int sm2[64];
    unsigned cyc2[64];
    unsigned c1 = distribute(&d, 0, 7, 3, 5, 3, sm, cyc);
    unsigned c2 = distribute(&rr, 0, 7, 3, 5, 3, sm2, cyc2);
    HD_CHECK_U64(t, c2, c1);
    HD_CHECK(t, memcmp(sm, sm2, 15 * sizeof *sm) == 0 && memcmp(cyc, cyc2, 15 * sizeof *cyc) == 0);
    c1 = distribute(&d, 4, 7, 3, 5, 3, sm, cyc); /* 4: Table 6.1's bits are 0 */
    HD_CHECK(t, memcmp(sm, sm2, 15 * sizeof *sm) == 0);
    d.ops->destroy(d.impl);
    rr.ops->destroy(rr.impl);
}
/* One cycle of keep-mode placement as cta_sched.c does it: SMs with room[s] take one CTA each,
 * round after round, pick() then cta() then placed(); each placement appended to (sm, cta). */
static unsigned keep_cycle(struct hd_cta_dist *d, uint64_t nctas, uint64_t *placed,
                           const bool *room, uint32_t nsms, int *sm, uint64_t *cta, unsigned k)
{
    bool ok[16], busy[16] = {false};
    for (uint32_t s = 0; s < nsms; s++)
        ok[s] = room[s];
    while (*placed < nctas) {
        const struct hd_cta_dist_req r = {7, *placed, nctas, {(uint32_t)nctas, 1, 1},
                                          {(uint32_t)*placed, 0, 0}, 0, 1, false};
        const int s = d->ops->pick(d->impl, &r, ok, busy, nsms);
        if (s < 0)
            break;
        cta[k] = d->ops->cta(d->impl, &r, (uint32_t)s);
        sm[k++] = s;
        d->ops->placed(d->impl, (uint32_t)s);
        busy[s] = true;
        ++*placed;
    }
    return k;
}

static void test_distributor_keep(struct hd_test_state *t)
{
    struct hd_cta_dist d;
    int sm[16];
    uint64_t cta[16], placed = 0;
    const bool all[4] = {true, true, true, true}, last[4] = {false, false, false, true};

    hd_test_begin(t, "distributor keep: each SM continues its own range in the next wave");
    /* 8 CTAs, 4 SMs of one slot: ranges of 2; wave 1 (one cycle, one CTA per SM) CTAs 0, 2, 4,
     * 6; every SM frees its slot; wave 2 CTAs 1, 3, 5, 7 (linear order would give 4-7) */
    HD_CHECK(t, hd_cta_dist_locality_create(4, 0, HD_CHUNK_KEEP, &d) == 0);
    d.ops->reset(d.impl);
    unsigned k = keep_cycle(&d, 8, &placed, all, 4, sm, cta, 0);
    HD_CHECK_U64(t, 4, k);
    k = keep_cycle(&d, 8, &placed, all, 4, sm, cta, k);
    HD_CHECK_U64(t, 8, k);
    const uint64_t want8[] = {0, 2, 4, 6, 1, 3, 5, 7};
    unsigned bad = 0;
    for (unsigned i = 0; i < 8; i++)
        bad += sm[i] != (int)(i % 4) || cta[i] != want8[i];
    HD_CHECK_U64(t, 0, bad);

    hd_test_begin(t, "distributor keep: a used-up SM takes the last CTA of the next SM's range");
    /* 7 CTAs, 4 SMs: ranges [0,2) [2,4) [4,6) [6,7); wave 1: 0, 2, 4, 6; only SM 3 frees: its
     * range is used up, it takes SM 0's last (1), then SM 1's (3); then SM 0 (used up: SM 1 is
     * too) takes SM 2's last (5) */
    placed = 0;
    k = keep_cycle(&d, 7, &placed, all, 4, sm, cta, 0);
    k = keep_cycle(&d, 7, &placed, last, 4, sm, cta, k);
    k = keep_cycle(&d, 7, &placed, last, 4, sm, cta, k);
    k = keep_cycle(&d, 7, &placed, all, 4, sm, cta, k);
    HD_CHECK_U64(t, 7, k);
    const int wsm[] = {0, 1, 2, 3, 3, 3, 0};
    const uint64_t wcta[] = {0, 2, 4, 6, 1, 3, 5};
    bad = 0;
    for (unsigned i = 0; i < 7; i++)
        bad += sm[i] != wsm[i] || cta[i] != wcta[i];
    HD_CHECK_U64(t, 0, bad);

    hd_test_begin(t, "distributor keep: [timing] cta_dist_chunk larger than CTAs / SMs");
    /* 6 CTAs, chunk 4, 4 SMs: ranges [0,4) [4,6) [] []: SMs 2 and 3 take from the back of the
     * next range with CTAs (SM 0's: 3, 2); SM 0 and 1 their own fronts (0, 4) */
    d.ops->destroy(d.impl);
    HD_CHECK(t, hd_cta_dist_locality_create(4, 4, HD_CHUNK_KEEP, &d) == 0);
    placed = 0;
    k = keep_cycle(&d, 6, &placed, all, 4, sm, cta, 0);
    const uint64_t w6[] = {0, 4, 3, 2};
    bad = k != 4;
    for (unsigned i = 0; i < 4 && !bad; i++)
        bad += cta[i] != w6[i];
    HD_CHECK_U64(t, 0, bad);

    hd_test_begin(t, "distributor keep: hint 0 is round_robin exactly, in linear order");
    struct hd_cta_dist rr;
    HD_CHECK(t, hd_cta_dist_create(HD_CTADIST_ROUND_ROBIN, 5, &rr) == 0);
    d.ops->destroy(d.impl);
    HD_CHECK(t, hd_cta_dist_locality_create(5, 0, HD_CHUNK_KEEP, &d) == 0);
    int s1[64], s2[64]; /* (15 CTAs fit: 5 SMs of 3 slots, none finishes) */
    unsigned c1[64], c2[64];
    HD_CHECK_U64(t, distribute(&rr, 0, 7, 3, 5, 3, s2, c2), distribute(&d, 0, 7, 3, 5, 3, s1, c1));
    HD_CHECK(t, memcmp(s1, s2, 15 * sizeof *s1) == 0 && memcmp(c1, c2, 15 * sizeof *c1) == 0);
    const struct hd_cta_dist_req r0 = {9, 5, 21, {7, 3, 1}, {5, 0, 0}, 0, 0, false};
    HD_CHECK_U64(t, 5, d.ops->cta(d.impl, &r0, 2));
    rr.ops->destroy(rr.impl);
    d.ops->destroy(d.impl);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_groups(&t);
    test_group_sched(&t);
    test_baselines(&t);
    test_distributor(&t);
    test_distributor_keep(&t);
    return hd_test_finish(&t);
}
