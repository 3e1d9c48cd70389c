/* SPDX-License-Identifier: MIT
 * test_alloc_table.c - Lin's allocation table's C reference (tables/alloc_table.h, thesis
 * §2.3.1 Fig 2.4): the hand-worked Fig 2.4 case (register file and shared memory), the thesis's
 * "2 TBs spilled" reproduced as bottom-up eviction, first fit after frees, the 16-entry limit,
 * the drop mask, the one-cycle latency of the stepped block, and the spill query's victim count
 * against a brute-force minimum over every subset of candidates on random tables.
 */
#include "alloc_table.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static struct hd_alloc_table_out req(struct hd_alloc_table_state *s, unsigned op, uint32_t size,
                                     uint32_t cap, unsigned entry, uint32_t cand, uint32_t drop)
{
    struct hd_alloc_table_in in = {0};
    in.op_i = op;
    in.size_i = size;
    in.cap_i = cap;
    in.entry_i = entry;
    in.cand_i = cand;
    in.drop_i = drop;
    struct hd_alloc_table_out out;
    hd_alloc_table_exec(s, &in, &out);
    return out;
}

/* Fig 2.4: 1024 vector registers, 48 KB shared memory (384 units of 128 B); K1 has 3 TBs of 300
 * registers and 8 KB; K2 wants 2 TBs of 200 registers and 10 KB each. */
static void fig_2_4(struct hd_test_state *t)
{
    hd_test_begin(t, "Lin Fig 2.4");
    struct hd_alloc_table_state rf, sm;
    hd_alloc_table_ref_reset(&rf);
    hd_alloc_table_ref_reset(&sm);
    for (unsigned i = 0; i < 3; i++) {
        struct hd_alloc_table_out o = req(&rf, HD_ATAB_ALLOC, 300, 1024, 0, 0, 0);
        HD_CHECK_U64(t, 1, o.ok_o);
        HD_CHECK_U64(t, i, o.entry_o);
        HD_CHECK_U64(t, 300 * i, o.start_o);
        o = req(&sm, HD_ATAB_ALLOC, 8192 / 128, 384, 0, 0, 0);
        HD_CHECK_U64(t, 64 * i, o.start_o);
        HD_CHECK_U64(t, i + 1, o.used_o);
    }
    /* one K2 TB of 200 does not fit in the 124 free registers: */
    HD_CHECK_U64(t, 0, req(&rf, HD_ATAB_ALLOC, 200, 1024, 0, 0, 0).ok_o);
    /* K2's two TBs side by side: 400 contiguous registers, 160 contiguous smem units */
    struct hd_alloc_table_out o = req(&rf, HD_ATAB_SPILL, 400, 1024, 0, 0x7, 0);
    HD_CHECK_U64(t, 1, o.ok_o);
    HD_CHECK_U64(t, 1, o.nvict_o);     /* the minimum is one TB ... */
    HD_CHECK_U64(t, 0x4, o.victims_o); /* ... the one at 600: [600, 1000) */
    HD_CHECK_U64(t, 600, o.start_o);
    o = req(&sm, HD_ATAB_SPILL, 2 * 10240 / 128, 384, 0, 0x7, 0);
    HD_CHECK_U64(t, 1, o.ok_o); /* "none of shared memory needs to be deallocated" */
    HD_CHECK_U64(t, 0, o.nvict_o);
    HD_CHECK_U64(t, 192, o.start_o);
    /* the thesis's "2 TBs spilled": evicting from the lowest entry up. Without TB 2 as a
     * candidate the minimum is TBs 0 and 1 ... */
    o = req(&rf, HD_ATAB_SPILL, 400, 1024, 0, 0x3, 0);
    HD_CHECK_U64(t, 2, o.nvict_o);
    HD_CHECK_U64(t, 0x3, o.victims_o);
    /* ... and per TB of K2, bottom up: TB 0 leaves, the first K2 TB takes [0, 200); the second
     * fits in neither [200, 300) nor [900, 1024), so TB 1 leaves too. */
    HD_CHECK_U64(t, 1, req(&rf, HD_ATAB_FREE, 0, 1024, 0, 0, 0).ok_o);
    o = req(&rf, HD_ATAB_ALLOC, 200, 1024, 0, 0, 0);
    HD_CHECK_U64(t, 0, o.start_o);
    HD_CHECK_U64(t, 0, req(&rf, HD_ATAB_ALLOC, 200, 1024, 0, 0, 0).ok_o);
    o = req(&rf, HD_ATAB_SPILL, 200, 1024, 0, 0x2, 0);
    HD_CHECK_U64(t, 0x2, o.victims_o);
    HD_CHECK_U64(t, 1, req(&rf, HD_ATAB_FREE, 0, 1024, 1, 0, 0).ok_o);
    o = req(&rf, HD_ATAB_ALLOC, 200, 1024, 0, 0, 0);
    HD_CHECK_U64(t, 1, o.ok_o);
    HD_CHECK_U64(t, 200, o.start_o);
    HD_CHECK_U64(t, 1, o.entry_o); /* the lowest free entry */
}

static void first_fit_and_limits(struct hd_test_state *t)
{
    hd_test_begin(t, "first fit, frees, 16 entries, drop mask");
    struct hd_alloc_table_state s;
    hd_alloc_table_ref_reset(&s);
    for (unsigned i = 0; i < 16; i++)
        HD_CHECK_U64(t, 10 * i, req(&s, HD_ATAB_ALLOC, 10, 4095, 0, 0, 0).start_o);
    struct hd_alloc_table_out o = req(&s, HD_ATAB_ALLOC, 1, 4095, 0, 0, 0);
    HD_CHECK_U64(t, 0, o.ok_o); /* no entry free, although the memory has room */
    HD_CHECK_U64(t, 16, o.used_o);
    HD_CHECK_U64(t, 1, req(&s, HD_ATAB_FREE, 3, 4095, 3, 0, 0).ok_o);
    HD_CHECK_U64(t, 1, req(&s, HD_ATAB_FREE, 4, 4095, 4, 0, 0).ok_o);
    HD_CHECK_U64(t, 0, req(&s, HD_ATAB_FREE, 4, 4095, 4, 0, 0).ok_o); /* twice */
    o = req(&s, HD_ATAB_ALLOC, 15, 4095, 0, 0, 0);
    HD_CHECK_U64(t, 3, o.entry_o);
    HD_CHECK_U64(t, 30, o.start_o); /* the hole [30, 50) */
    o = req(&s, HD_ATAB_ALLOC, 6, 4095, 0, 0, 0);
    HD_CHECK_U64(t, 160, o.start_o); /* [45, 50) is too small */
    /* a zero-size block takes an entry and no room */
    hd_alloc_table_ref_reset(&s);
    o = req(&s, HD_ATAB_ALLOC, 0, 8, 0, 0, 0);
    HD_CHECK_U64(t, 1, o.ok_o);
    HD_CHECK_U64(t, 0, req(&s, HD_ATAB_ALLOC, 8, 8, 0, 0, 0).start_o);
    HD_CHECK_U64(t, 0, req(&s, HD_ATAB_ALLOC, 1, 8, 0, 0, 0).ok_o); /* full */
    /* dropped entries count as free; a window past cap does not fit */
    o = req(&s, HD_ATAB_SPILL, 8, 8, 0, 0, 0x2);
    HD_CHECK_U64(t, 1, o.ok_o);
    HD_CHECK_U64(t, 0, o.nvict_o);
    HD_CHECK_U64(t, 0, req(&s, HD_ATAB_SPILL, 9, 8, 0, 0xffff, 0).ok_o);
    HD_CHECK_U64(t, 0, req(&s, HD_ATAB_SPILL, 1, 8, 0, 0, 0).ok_o); /* entry 1 not a candidate */
}

static void latency(struct hd_test_state *t)
{
    hd_test_begin(t, "stepped: latency 1, back-to-back requests, idle");
    struct hd_alloc_table_state s;
    hd_alloc_table_ref_reset(&s);
    struct hd_alloc_table_in in = {0}, none = {0};
    struct hd_alloc_table_out o;
    HD_CHECK(t, hd_alloc_table_ref_idle(&s, &none));
    in.op_i = HD_ATAB_ALLOC;
    in.size_i = 100;
    in.cap_i = 1024;
    hd_alloc_table_ref_step(&s, &in, &o); /* cycle 0: request */
    HD_CHECK_U64(t, 0, o.valid_o);
    HD_CHECK(t, !hd_alloc_table_ref_idle(&s, &none));
    hd_alloc_table_ref_step(&s, &in, &o); /* cycle 1: answer of cycle 0; a second request */
    HD_CHECK_U64(t, 1, o.valid_o);
    HD_CHECK_U64(t, 0, o.start_o);
    hd_alloc_table_ref_step(&s, &none, &o); /* cycle 2: the second sees the first's entry */
    HD_CHECK_U64(t, 100, o.start_o);
    HD_CHECK_U64(t, 1, o.entry_o);
    HD_CHECK_U64(t, 2, o.used_o);
    hd_alloc_table_ref_step(&s, &none, &o);
    HD_CHECK_U64(t, 0, o.valid_o);
    HD_CHECK_U64(t, 0, o.start_o | o.entry_o | o.used_o | o.op_o);
    HD_CHECK(t, hd_alloc_table_ref_idle(&s, &none));
}

/* Brute force: the fewest candidates whose removal leaves size units free in a row. */
static int brute_min(const struct hd_alloc_table_state *s, uint32_t size, uint32_t cap,
                     uint32_t cand)
{
    int best = -1;
    for (uint32_t sub = cand;; sub = (sub - 1) & cand) {
        bool used[4096] = {false};
        for (unsigned e = 0; e < 16; e++)
            if (s->e[e].valid && !(sub >> e & 1u))
                for (unsigned u = s->e[e].start; u < (unsigned)s->e[e].start + s->e[e].size; u++)
                    used[u] = true;
        unsigned run = 0;
        bool fits = size == 0;
        for (unsigned u = 0; u < cap && !fits; u++) {
            run = used[u] ? 0 : run + 1;
            fits = run >= size;
        }
        int n = __builtin_popcount(sub);
        if (fits && (best < 0 || n < best))
            best = n;
        if (sub == 0)
            break;
    }
    return best;
}

static void random_minimum(struct hd_test_state *t)
{
    hd_test_begin(t, "spill query = brute-force minimum (random tables)");
    uint64_t r = 12345;
    unsigned bad = 0, cases = 0;
    for (unsigned iter = 0; iter < 400; iter++) {
        struct hd_alloc_table_state s;
        hd_alloc_table_ref_reset(&s);
        const uint32_t cap = 64 + (uint32_t)(iter % 7) * 37;
        for (unsigned k = 0; k < 40; k++) { /* random allocs and frees */
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            unsigned v = (unsigned)(r >> 33);
            if (v % 3 == 0)
                req(&s, HD_ATAB_FREE, 0, cap, (v >> 4) % 16, 0, 0);
            else
                req(&s, HD_ATAB_ALLOC, 1 + (v >> 8) % (cap / 4), cap, 0, 0, 0);
        }
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t cand = (uint32_t)(r >> 20) & 0xffffu, size = 1 + (uint32_t)(r >> 40) % cap;
        struct hd_alloc_table_out o = req(&s, HD_ATAB_SPILL, size, cap, 0, cand, 0);
        int want = brute_min(&s, size, cap, cand);
        cases++;
        if ((want < 0) != !(o.ok_o & 1u) || (want >= 0 && (unsigned)want != o.nvict_o)) {
            if (bad++ < 5)
                printf("  table %u: size %u cand %#x: brute %d, query ok %u nvict %u\n", iter,
                       size, cand, want, (unsigned)o.ok_o, (unsigned)o.nvict_o);
            continue;
        }
        if (want < 0)
            continue;
        /* the window is free once the victims leave */
        for (unsigned e = 0; e < 16; e++)
            if (s.e[e].valid && !(o.victims_o >> e & 1u) && s.e[e].size)
                bad += s.e[e].start < o.start_o + size && o.start_o < s.e[e].start + s.e[e].size;
        bad += (o.victims_o & ~cand) != 0 || o.start_o + size > cap;
    }
    HD_CHECK_U64(t, 0, bad);
    HD_CHECK_U64(t, 400, cases);
}

int main(void)
{
    struct hd_test_state t = {0};
    fig_2_4(&t);
    first_fit_and_limits(&t);
    latency(&t);
    random_minimum(&t);
    return hd_test_finish(&t);
}
