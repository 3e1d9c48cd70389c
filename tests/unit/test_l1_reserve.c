/* SPDX-License-Identifier: MIT
 * test_l1_reserve.c - L1D ways reserved for contexts in the full memory system (issue 25 item 3;
 * model/mem/l1_reserve.h; docs/mover.md), through a fake SM port:
 *   - a working set of every line the L1D holds (sets x ways lines of 128 B) read twice hits
 *     on the second pass; with half the ways reserved the second pass hits at most half as
 *     often (the cache's capacity is halved); given back, the cache hits as before;
 *   - reserving ways that hold dirty local lines writes each back as a transaction of class
 *     CONTEXT that reaches the L2 (real traffic), and clean lines are dropped.
 */
#include "l1_reserve.h"
#include "mem_testkit.h"
#include "testutil.h"

#define G 1u /* HD_MSPACE_GLOBAL */
#define L 3u /* HD_MSPACE_LOCAL */

static const uint64_t BASE = 0x7e0000000000ull;

static struct hd_mem_acct total(struct tk *k)
{
    struct hd_mem_acct a;
    hd_mem_stats_total(hd_mem_full_stats(&k->m), &a);
    return a;
}

/* Read every line of the working set once; the L1D read hits it had. */
static uint64_t pass(struct tk *k, unsigned lines)
{
    const uint64_t h0 = total(k).l1d_read_hits;
    for (unsigned i = 0; i < lines; i++)
        tk_access(k, tk_req(0, HD_MEM_LOAD, G, BASE + (uint64_t)i * 128, 128, 1, 0), 100000);
    return total(k).l1d_read_hits - h0;
}

int main(void)
{
    struct hd_test_state t = {0};
    struct tk k;

    hd_test_begin(&t, "half the ways reserved halves the hits of a cache-sized working set");
    HD_CHECK(&t, tk_init(&k, NULL) == 0);
    struct hd_l1 *l1 = hd_mem_full_l1(&k.m, 0);
    HD_CHECK(&t, l1 != NULL && hd_mem_full_l1(&k.m, 100000) == NULL);
    const unsigned ways = k.cfg.l1d_ways, lines = k.cfg.l1d_sets * ways;
    pass(&k, lines);
    const uint64_t full = pass(&k, lines);
    uint32_t wb = 99;
    HD_CHECK_U64(&t, ways / 2, hd_l1_reserve_ways(l1, ways / 2, 1, k.now, &wb));
    HD_CHECK_U64(&t, 0, wb); /* clean lines: nothing to write */
    HD_CHECK_U64(&t, ways / 2, hd_tags_reserved(&l1->d));
    pass(&k, lines);
    const uint64_t half = pass(&k, lines);
    HD_CHECK_U64(&t, 0, hd_l1_reserve_ways(l1, 0, 1, k.now, &wb));
    HD_CHECK_U64(&t, 0, hd_tags_reserved(&l1->d));
    pass(&k, lines);
    const uint64_t back = pass(&k, lines);
    printf("  %u lines (%u sets x %u ways): second-pass hits %llu; with %u ways reserved %llu; "
           "given back %llu\n", lines, k.cfg.l1d_sets, ways, (unsigned long long)full,
           ways / 2, (unsigned long long)half, (unsigned long long)back);
    HD_CHECK(&t, full >= lines * 9 / 10);
    HD_CHECK(&t, half <= full / 2);
    HD_CHECK_U64(&t, full, back);
    tk_done(&k);

    hd_test_begin(&t, "dirty lines of reserved ways are written back (class CONTEXT)");
    HD_CHECK(&t, tk_init(&k, NULL) == 0);
    l1 = hd_mem_full_l1(&k.m, 0);
    for (unsigned i = 0; i < lines; i++) /* local stores: write-back, write-allocate */
        tk_access(&k, tk_req(0, HD_MEM_STORE, L, BASE + (uint64_t)i * 128, 128, 1, 0), 100000);
    tk_drain(&k, 100000);
    unsigned dirty = 0;
    for (uint32_t e = 0; e < l1->d.sets * l1->d.ways; e++)
        dirty += e % l1->d.ways >= ways - 1 && l1->d.tag[e] && l1->d.dirty[e];
    const struct hd_mem_acct a0 = total(&k);
    HD_CHECK_U64(&t, 1, hd_l1_reserve_ways(l1, 1, 1, k.now, &wb));
    HD_CHECK_U64(&t, dirty, wb);
    HD_CHECK(&t, dirty > 0);
    HD_CHECK(&t, tk_drain(&k, 100000));
    const struct hd_mem_acct a1 = total(&k);
    const struct hd_mem_acct *cx = &hd_mem_full_stats(&k.m)->cls[HD_MCLASS_CONTEXT];
    printf("  %u dirty lines in the reserved way: %u write-backs, %llu L2 writes after\n", dirty,
           wb, (unsigned long long)(a1.l2_writes - a0.l2_writes));
    HD_CHECK_U64(&t, dirty, a1.l1d_writebacks - a0.l1d_writebacks);
    HD_CHECK_U64(&t, dirty, cx->l1d_writebacks);
    HD_CHECK_U64(&t, dirty, a1.l2_writes - a0.l2_writes);
    tk_done(&k);
    return hd_test_finish(&t);
}
