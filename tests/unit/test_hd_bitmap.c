/* SPDX-License-Identifier: MIT
 * test_hd_bitmap.c - the allocation bitmap helper of the table references (tables/hd_bitmap.h)
 * at the size GPUDuet's unified on-chip storage needs (Lin thesis §3.7: 3,072 bits, one per
 * 128 B unit; RF units 0x000-0x7FF, shared memory 0x800-0xAFF, L1D 0xB00-0xBFF):
 *   - seeded random set/clear ranges against a plain bool array: every bit, the count and the
 *     first fit of several run lengths and alignments match after each step;
 *   - a region is a view over the same words (the region bases are multiples of 64): a first
 *     fit in the shared-memory view stays in it, and the regions' counts add up to the map's;
 *   - the edges: count 0, a run longer than the map, a full map, a map of 100 bits whose bits
 *     past the end stay 0.
 */
#include "hd_bitmap.h"
#include "testutil.h"

#include <string.h>

#define UNITS 3072u
#define RF_UNITS 2048u
#define SMEM_UNITS 768u
#define L1_UNITS 256u

/* The reference: a bool per bit and the obvious first fit. */
static uint32_t ref_fit(const bool *b, uint32_t n, uint32_t count, uint32_t align)
{
    if (count == 0)
        return 0;
    for (uint32_t f = 0; f + count <= n; f += align) {
        uint32_t k = 0;
        while (k < count && !b[f + k])
            k++;
        if (k == count)
            return f;
    }
    return UINT32_MAX;
}

static uint32_t ref_count(const bool *b, uint32_t n)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < n; i++)
        c += b[i];
    return c;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_random(struct hd_test_state *t)
{
    hd_test_begin(t, "3072-bit map against a bool array");
    uint64_t w[HD_BITMAP_WORDS(UNITS)];
    struct hd_bitmap m = {w, UNITS};
    static bool ref[UNITS];
    memset(w, 0xA5, sizeof w); /* clear_all must clear whatever was there */
    hd_bitmap_clear_all(&m);
    memset(ref, 0, sizeof ref);
    static const uint32_t counts[] = {1, 2, 7, 16, 64, 65, 200};
    static const uint32_t aligns[] = {1, 2, 4, 8};
    uint64_t s = 0x9E3779B97F4A7C15ull;
    int bad = 0;
    for (int step = 0; step < 400 && bad < 5; step++) {
        uint32_t first = (uint32_t)(rng_next(&s) % UNITS);
        uint32_t count = (uint32_t)(rng_next(&s) % 97u);
        if (first + count > UNITS)
            count = UNITS - first;
        bool set = (rng_next(&s) % 3u) != 0; /* fill up over time, with frees between */
        if (set)
            hd_bitmap_set_range(&m, first, count);
        else
            hd_bitmap_clear_range(&m, first, count);
        for (uint32_t i = first; i < first + count; i++)
            ref[i] = set;
        for (uint32_t i = 0; i < UNITS; i++)
            if (hd_bitmap_test(&m, i) != ref[i]) {
                bad += !HD_CHECK(t, hd_bitmap_test(&m, i) == ref[i]);
                break;
            }
        bad += !HD_CHECK_U64(t, ref_count(ref, UNITS), hd_bitmap_count(&m));
        for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++)
            for (unsigned a = 0; a < sizeof aligns / sizeof aligns[0]; a++)
                bad += !HD_CHECK_U64(t, ref_fit(ref, UNITS, counts[c], aligns[a]),
                                     hd_bitmap_find_clear_run(&m, counts[c], aligns[a]));
    }
    HD_CHECK(t, bad == 0);
    /* the sequence reached a nearly full map (few long runs left), not only an empty one */
    HD_CHECK(t, hd_bitmap_count(&m) > UNITS / 2);
}

static void test_regions(struct hd_test_state *t)
{
    hd_test_begin(t, "regions as views of one map (RF, shared memory, L1D)");
    uint64_t w[HD_BITMAP_WORDS(UNITS)];
    struct hd_bitmap all = {w, UNITS};
    struct hd_bitmap rf = {w, RF_UNITS};
    struct hd_bitmap smem = {w + RF_UNITS / 64u, SMEM_UNITS};
    struct hd_bitmap l1 = {w + (RF_UNITS + SMEM_UNITS) / 64u, L1_UNITS};
    hd_bitmap_clear_all(&all);
    /* shared memory full but for one 8-unit hole at 0x100 of the region */
    hd_bitmap_set_range(&smem, 0, SMEM_UNITS);
    hd_bitmap_clear_range(&smem, 0x100, 8);
    HD_CHECK_U64(t, 0x100, hd_bitmap_find_clear_run(&smem, 8, 1));
    HD_CHECK_U64(t, UINT32_MAX, hd_bitmap_find_clear_run(&smem, 9, 1));
    HD_CHECK(t, hd_bitmap_test(&all, RF_UNITS + 0x100) == false);
    HD_CHECK(t, hd_bitmap_test(&all, RF_UNITS + 0x0FF) == true);
    /* the RF and L1D views do not see it */
    HD_CHECK_U64(t, 0, hd_bitmap_count(&rf));
    HD_CHECK_U64(t, 0, hd_bitmap_count(&l1));
    hd_bitmap_set_range(&l1, L1_UNITS - 3, 3);
    HD_CHECK(t, hd_bitmap_test(&all, UNITS - 1));
    HD_CHECK_U64(t, hd_bitmap_count(&rf) + hd_bitmap_count(&smem) + hd_bitmap_count(&l1),
                 hd_bitmap_count(&all));
    HD_CHECK_U64(t, SMEM_UNITS - 8 + 3, hd_bitmap_count(&all));
    /* a first fit over the whole map finds the RF first; an aligned one skips a misaligned hole */
    HD_CHECK_U64(t, 0, hd_bitmap_find_clear_run(&all, RF_UNITS, 1));
    hd_bitmap_set_range(&rf, 0, RF_UNITS);
    hd_bitmap_clear_range(&rf, 4, 8); /* units 4..11 free */
    HD_CHECK_U64(t, 4, hd_bitmap_find_clear_run(&rf, 8, 4));
    HD_CHECK_U64(t, UINT32_MAX, hd_bitmap_find_clear_run(&rf, 8, 8));
    HD_CHECK_U64(t, 8, hd_bitmap_find_clear_run(&rf, 4, 8));
}

static void test_edges(struct hd_test_state *t)
{
    hd_test_begin(t, "edges");
    uint64_t w[HD_BITMAP_WORDS(100u)];
    struct hd_bitmap m = {w, 100};
    HD_CHECK_U64(t, 2, HD_BITMAP_WORDS(100u));
    hd_bitmap_clear_all(&m);
    HD_CHECK_U64(t, 0, hd_bitmap_find_clear_run(&m, 0, 1));
    HD_CHECK_U64(t, 0, hd_bitmap_find_clear_run(&m, 100, 1));
    HD_CHECK_U64(t, UINT32_MAX, hd_bitmap_find_clear_run(&m, 101, 1));
    HD_CHECK_U64(t, 0, hd_bitmap_find_clear_run(&m, 3, 0)); /* align 0 reads as 1 */
    hd_bitmap_set_range(&m, 90, 10);
    HD_CHECK_U64(t, 10, hd_bitmap_count(&m));
    HD_CHECK_U64(t, 0, w[1] >> 36); /* bits 100..127 of the last word stay 0 */
    HD_CHECK(t, !hd_bitmap_test(&m, 100));
    HD_CHECK(t, !hd_bitmap_test(&m, 1000));
    HD_CHECK_U64(t, 0, hd_bitmap_find_clear_run(&m, 90, 1));
    HD_CHECK_U64(t, UINT32_MAX, hd_bitmap_find_clear_run(&m, 91, 1));
    hd_bitmap_set_range(&m, 0, 100);
    HD_CHECK_U64(t, 100, hd_bitmap_count(&m));
    HD_CHECK_U64(t, UINT32_MAX, hd_bitmap_find_clear_run(&m, 1, 1));
    hd_bitmap_clear_range(&m, 63, 2); /* across the word boundary */
    HD_CHECK_U64(t, 63, hd_bitmap_find_clear_run(&m, 2, 1));
    HD_CHECK_U64(t, 98, hd_bitmap_count(&m));
    hd_bitmap_set_range(&m, 50, 0); /* count 0: no change */
    HD_CHECK_U64(t, 98, hd_bitmap_count(&m));
}

int main(void)
{
    struct hd_test_state t = {0};
    test_random(&t);
    test_regions(&t);
    test_edges(&t);
    return hd_test_finish(&t);
}
