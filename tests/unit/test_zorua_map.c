/* SPDX-License-Identifier: MIT
 * test_zorua_map.c - Zorua's mapping tables' C reference (tables/zorua_map.h; digest zorua.md
 * §2.5-§2.8, §3.1), one hand-worked case per table (issue 32's acceptance: allocate,
 * oversubscribe, swap out, swap in, release):
 *   RMT  warps' register sets through a phase change, the register file filled, o_default = 10%
 *        of 256 sets = 25 sets of swap, a spill and a fill; and the digest's MST cliff (640
 *        threads per block, 28 registers: two blocks need 280 sets of 256, 24 over, inside 10%)
 *   SMT  NQU's scratchpad phases (0 B, 4224 B = 5 sets, 384 B = 1 set per block) on 48 sets
 *   TMT  64 logical warps on 48 warp slots, a barrier waiter's slot swapped out and given away
 * plus the one-cycle latency, the refused requests (nothing changes) and the sizes' checks.
 */
#include "testutil.h"
#include "zorua_map.h"

#include <stdio.h>
#include <string.h>

/* One request: the result comes out of the registers one cycle later (latency 1). */
static struct hd_zorua_map_out req(struct hd_zorua_map_state *s, unsigned op, unsigned row,
                                   unsigned set, unsigned lim)
{
    struct hd_zorua_map_in in = {0}, idle = {0};
    in.op_i = op;
    in.row_i = row;
    in.set_i = set;
    in.lim_i = lim;
    struct hd_zorua_map_out out;
    hd_zorua_map_ref_step(s, &in, &out);
    hd_zorua_map_ref_step(s, &idle, &out);
    return out;
}

static struct hd_zorua_map_out look(struct hd_zorua_map_state *s, unsigned row, unsigned set)
{
    struct hd_zorua_map_in in = {0}, idle = {0};
    in.lk_v_i = 1;
    in.lk_row_i = row;
    in.lk_set_i = set;
    struct hd_zorua_map_out out;
    hd_zorua_map_ref_step(s, &in, &out);
    hd_zorua_map_ref_step(s, &idle, &out);
    return out;
}

/* ok, unit taken or freed, which unit, free count, swap count after the request. */
static void want(struct hd_test_state *t, struct hd_zorua_map_out o, unsigned ok, unsigned unit,
                 unsigned pset, unsigned nfree, unsigned nswap)
{
    HD_CHECK_U64(t, 1, o.up_v_o);
    HD_CHECK_U64(t, ok, o.up_ok_o);
    HD_CHECK_U64(t, unit, o.up_unit_o);
    HD_CHECK_U64(t, pset, o.up_pset_o);
    HD_CHECK_U64(t, nfree, o.free_o);
    HD_CHECK_U64(t, nswap, o.swap_o);
}

static void init(struct hd_test_state *t, struct hd_zorua_map_state *s,
                 const struct hd_zorua_map_cfg *c)
{
    char err[160];
    HD_CHECK_U64(t, 0, hd_zorua_map_ref_init(s, c, err, sizeof err));
}

/* Register mapping table, 64 warps x 16 sets (4 registers x 32 lanes each), 256 physical sets. */
static void rmt(struct hd_test_state *t)
{
    hd_test_begin(t, "RMT: allocate, phase change, fill, oversubscribe, swap out/in, release");
    struct hd_zorua_map_state s;
    init(t, &s, &hd_zorua_map_rmt);
    const unsigned lim = 256 * 10 / 100; /* o_default = 10% of the physical sets: 25 */
    /* Warp 0 starts with 24 live registers (6 sets: units 0-5), warp 1 with 10 (3 sets: 6-8). */
    for (unsigned k = 0; k < 6; k++)
        want(t, req(&s, HD_ZMAP_ALLOC, 0, k, lim), 1, 1, k, 255 - k, 0);
    for (unsigned k = 0; k < 3; k++)
        want(t, req(&s, HD_ZMAP_ALLOC, 1, k, lim), 1, 1, 6 + k, 249 - k, 0);
    /* Warp 0's next phase needs 20 registers: set 5 is dead and released (unit 5 free)... */
    want(t, req(&s, HD_ZMAP_RELEASE, 0, 5, lim), 1, 1, 5, 248, 0);
    /* ...and the lowest free unit goes to warp 2's first set. */
    want(t, req(&s, HD_ZMAP_ALLOC, 2, 0, lim), 1, 1, 5, 247, 0);
    /* Allocating an allocated entry is refused; nothing changes. */
    want(t, req(&s, HD_ZMAP_ALLOC, 2, 0, lim), 0, 0, 0, 247, 0);
    /* Warps 3-17 take 16 sets each (units 9-248), warp 18 sets 0-6 (249-255): full. */
    unsigned u = 9;
    for (unsigned w = 3; w <= 18; w++)
        for (unsigned k = 0; k < (w == 18 ? 7u : 16u); k++, u++)
            want(t, req(&s, HD_ZMAP_ALLOC, w, k, lim), 1, 1, u, 255 - u, 0);
    HD_CHECK_U64(t, 256, u);
    /* Oversubscription: 25 sets in swap (warp 18 sets 7-15, warp 19 sets 0-15), then refused. */
    unsigned n = 0;
    for (unsigned w = 18; w <= 19; w++)
        for (unsigned k = (w == 18 ? 7u : 0u); k < 16; k++)
            want(t, req(&s, HD_ZMAP_ALLOC, w, k, lim), 1, 0, 0, 0, ++n);
    HD_CHECK_U64(t, lim, n);
    want(t, req(&s, HD_ZMAP_ALLOC, 20, 0, lim), 0, 0, 0, 0, 25);
    /* Swap out warp 0's set 0 (the caller's least frequently used): refused at the limit, done
     * when o_thresh grows by one set; unit 0 is free. */
    want(t, req(&s, HD_ZMAP_SPILL, 0, 0, lim), 0, 0, 0, 0, 25);
    want(t, req(&s, HD_ZMAP_SPILL, 0, 0, lim + 1), 1, 1, 0, 1, 26);
    /* Swap in warp 19's set 0: unit 0. */
    want(t, req(&s, HD_ZMAP_FILL, 19, 0, lim), 1, 1, 0, 0, 25);
    want(t, req(&s, HD_ZMAP_FILL, 19, 1, lim), 0, 0, 0, 0, 25); /* no unit free */
    /* Lookups: on chip, in swap, unallocated. */
    struct hd_zorua_map_out o = look(&s, 19, 0);
    HD_CHECK(t, o.lk_v_o && o.lk_alloc_o && o.lk_hit_o && o.lk_pset_o == 0);
    o = look(&s, 0, 0);
    HD_CHECK(t, o.lk_v_o && o.lk_alloc_o && !o.lk_hit_o && o.lk_pset_o == 0);
    o = look(&s, 17, 15);
    HD_CHECK(t, o.lk_hit_o && o.lk_pset_o == 248);
    o = look(&s, 63, 15);
    HD_CHECK(t, o.lk_v_o && !o.lk_alloc_o && !o.lk_hit_o);
    HD_CHECK_U64(t, 0, o.up_v_o);
    HD_CHECK_U64(t, 0, o.free_o); /* the counters come with every result */
    /* Release: one in swap (no unit), one on chip (unit 8), one unallocated (refused). */
    want(t, req(&s, HD_ZMAP_RELEASE, 0, 0, lim), 1, 0, 0, 0, 24);
    want(t, req(&s, HD_ZMAP_RELEASE, 1, 2, lim), 1, 1, 8, 1, 24);
    want(t, req(&s, HD_ZMAP_RELEASE, 1, 2, lim), 0, 0, 0, 1, 24);
    /* Swap in refused for an entry not in swap; swap out refused for one not on chip. */
    want(t, req(&s, HD_ZMAP_FILL, 17, 0, lim), 0, 0, 0, 1, 24);
    want(t, req(&s, HD_ZMAP_SPILL, 19, 1, 100), 0, 0, 0, 1, 24);
    want(t, req(&s, HD_ZMAP_FILL, 19, 1, lim), 1, 1, 8, 0, 23);
    want(t, req(&s, 6, 0, 0, lim), 0, 0, 0, 0, 23); /* op 6: refused */
    unsigned p = 99;
    HD_CHECK_U64(t, 1, hd_zorua_map_entry(&s, 19, 1, &p));
    HD_CHECK_U64(t, 8, p);
    HD_CHECK_U64(t, 2, hd_zorua_map_entry(&s, 19, 2, NULL));
    HD_CHECK_U64(t, 0, hd_zorua_map_entry(&s, 20, 0, NULL));
}

/* The digest's cliff example (§2.5): MST at 640 threads per block and 28 registers per thread:
 * 20 warps x 7 sets per block; two blocks need 280 sets of 256, 24 over, within o_default. */
static void rmt_mst(struct hd_test_state *t)
{
    hd_test_begin(t, "RMT: MST's two blocks resident with 24 sets in swap (o_default 10%)");
    struct hd_zorua_map_state s;
    init(t, &s, &hd_zorua_map_rmt);
    unsigned ok = 0, onchip = 0;
    struct hd_zorua_map_out o = {0};
    for (unsigned w = 0; w < 40; w++)
        for (unsigned k = 0; k < 7; k++) {
            o = req(&s, HD_ZMAP_ALLOC, w, k, 25);
            ok += (unsigned)o.up_ok_o;
            onchip += (unsigned)o.up_unit_o;
        }
    HD_CHECK_U64(t, 280, ok);
    HD_CHECK_U64(t, 256, onchip);
    HD_CHECK_U64(t, 24, o.swap_o);
    /* A third block: its first warp's first set is the 25th in swap, its second refused. */
    want(t, req(&s, HD_ZMAP_ALLOC, 40, 0, 25), 1, 0, 0, 0, 25);
    want(t, req(&s, HD_ZMAP_ALLOC, 40, 1, 25), 0, 0, 0, 0, 25);
    /* Without oversubscription (o_thresh 0) the second block could not have been resident. */
    init(t, &s, &hd_zorua_map_rmt);
    ok = 0;
    for (unsigned w = 0; w < 40; w++)
        for (unsigned k = 0; k < 7; k++)
            ok += (unsigned)req(&s, HD_ZMAP_ALLOC, w, k, 0).up_ok_o;
    HD_CHECK_U64(t, 256, ok);
}

/* Scratchpad mapping table, 16 blocks x 48 sets of 1 KB, 48 physical sets. NQU (§2.9, L186):
 * phase 1 no scratchpad, phase 2 4224 B (5 sets), phase 3 384 B (1 set). */
static void smt(struct hd_test_state *t)
{
    hd_test_begin(t, "SMT: NQU's phases, 48 KB filled, oversubscribed, swapped out and in");
    struct hd_zorua_map_state s;
    init(t, &s, &hd_zorua_map_smt);
    const unsigned lim = 48 * 10 / 100; /* 4 sets */
    /* Blocks 0-8 enter phase 2: 5 sets each, units 0-44. */
    for (unsigned b = 0; b < 9; b++)
        for (unsigned k = 0; k < 5; k++)
            want(t, req(&s, HD_ZMAP_ALLOC, b, k, lim), 1, 1, b * 5 + k, 47 - (b * 5 + k), 0);
    /* Block 9: 3 sets on chip (45-47), 2 in swap. */
    for (unsigned k = 0; k < 3; k++)
        want(t, req(&s, HD_ZMAP_ALLOC, 9, k, lim), 1, 1, 45 + k, 2 - k, 0);
    want(t, req(&s, HD_ZMAP_ALLOC, 9, 3, lim), 1, 0, 0, 0, 1);
    want(t, req(&s, HD_ZMAP_ALLOC, 9, 4, lim), 1, 0, 0, 0, 2);
    /* Block 10: 2 sets in swap, the third refused (o_thresh = 4 sets). */
    want(t, req(&s, HD_ZMAP_ALLOC, 10, 0, lim), 1, 0, 0, 0, 3);
    want(t, req(&s, HD_ZMAP_ALLOC, 10, 1, lim), 1, 0, 0, 0, 4);
    want(t, req(&s, HD_ZMAP_ALLOC, 10, 2, lim), 0, 0, 0, 0, 4);
    /* Block 0 reaches phase 3 (384 B: 1 set): sets 1-4 released, units 1-4 free. */
    for (unsigned k = 1; k < 5; k++)
        want(t, req(&s, HD_ZMAP_RELEASE, 0, k, lim), 1, 1, k, k, 4);
    /* Block 9's swapped sets come back on chip, lowest units first. */
    want(t, req(&s, HD_ZMAP_FILL, 9, 3, lim), 1, 1, 1, 3, 3);
    want(t, req(&s, HD_ZMAP_FILL, 9, 4, lim), 1, 1, 2, 2, 2);
    /* A swap out of block 1's set 0 (limit 4, 2 in swap): unit 5 freed. */
    want(t, req(&s, HD_ZMAP_SPILL, 1, 0, lim), 1, 1, 5, 3, 3);
    struct hd_zorua_map_out o = look(&s, 9, 4);
    HD_CHECK(t, o.lk_hit_o && o.lk_pset_o == 2);
    o = look(&s, 1, 0);
    HD_CHECK(t, o.lk_alloc_o && !o.lk_hit_o);
    /* Logical set 48 (past 48 KB) does not exist: refused, and a lookup finds nothing. */
    want(t, req(&s, HD_ZMAP_ALLOC, 0, 48, lim), 0, 0, 0, 3, 3);
    o = look(&s, 0, 63);
    HD_CHECK(t, o.lk_v_o && !o.lk_alloc_o);
    /* Block 9 completes: its scratchpad is released (L237), 5 sets. */
    for (unsigned k = 0; k < 5; k++)
        HD_CHECK_U64(t, 1, req(&s, HD_ZMAP_RELEASE, 9, k, lim).up_ok_o);
    HD_CHECK_U64(t, 8, look(&s, 0, 0).free_o);
}

/* Thread-slot mapping table: 64 logical warps, 48 physical warp slots (§2.7, L304). */
static void tmt(struct hd_test_state *t)
{
    hd_test_begin(t, "TMT: 64 logical warps on 48 slots, a barrier waiter swapped out");
    struct hd_zorua_map_state s;
    init(t, &s, &hd_zorua_map_tmt);
    const unsigned lim = 48 * 10 / 100; /* 4 warps */
    for (unsigned w = 0; w < 48; w++)
        want(t, req(&s, HD_ZMAP_ALLOC, w, 0, lim), 1, 1, w, 47 - w, 0);
    for (unsigned w = 48; w < 52; w++) /* PC and SIMT stack in memory */
        want(t, req(&s, HD_ZMAP_ALLOC, w, 0, lim), 1, 0, 0, 0, w - 47);
    want(t, req(&s, HD_ZMAP_ALLOC, 52, 0, lim), 0, 0, 0, 0, 4);
    /* Warp 3 waits at a barrier: its context is saved (swap out, slot 3 free) once o_thresh
     * allows a fifth; warp 48 is bound to slot 3 (swap in). */
    want(t, req(&s, HD_ZMAP_SPILL, 3, 0, lim), 0, 0, 0, 0, 4);
    want(t, req(&s, HD_ZMAP_SPILL, 3, 0, lim + 1), 1, 1, 3, 1, 5);
    want(t, req(&s, HD_ZMAP_FILL, 48, 0, lim), 1, 1, 3, 0, 4);
    /* Warp 10 exits: slot 10 free; the barrier releases warp 3, which takes slot 10. */
    want(t, req(&s, HD_ZMAP_RELEASE, 10, 0, lim), 1, 1, 10, 1, 4);
    want(t, req(&s, HD_ZMAP_FILL, 3, 0, lim), 1, 1, 10, 0, 3);
    struct hd_zorua_map_out o = look(&s, 3, 0);
    HD_CHECK(t, o.lk_hit_o && o.lk_pset_o == 10);
    o = look(&s, 49, 0);
    HD_CHECK(t, o.lk_alloc_o && !o.lk_hit_o);
    /* Set 1 does not exist in a one-set table. */
    want(t, req(&s, HD_ZMAP_ALLOC, 60, 1, lim), 0, 0, 0, 0, 3);
    want(t, req(&s, HD_ZMAP_RELEASE, 49, 0, lim), 1, 0, 0, 0, 2);
}

static void latency_and_sizes(struct hd_test_state *t)
{
    hd_test_begin(t, "latency 1, idle outputs zero, sizes checked, built configuration");
    struct hd_zorua_map_state s;
    hd_zorua_map_ref_reset(&s);
    HD_CHECK_U64(t, ZORUA_MAP_Rows, s.cfg.rows);
    HD_CHECK_U64(t, ZORUA_MAP_PhysN, s.nfree);
    struct hd_zorua_map_in in = {0}, idle = {0};
    in.op_i = HD_ZMAP_ALLOC;
    struct hd_zorua_map_out out;
    hd_zorua_map_ref_step(&s, &in, &out);
    HD_CHECK_U64(t, 0, out.up_v_o); /* not yet */
    HD_CHECK(t, !hd_zorua_map_ref_idle(&s, &idle));
    hd_zorua_map_ref_step(&s, &idle, &out);
    HD_CHECK_U64(t, 1, out.up_v_o);
    HD_CHECK_U64(t, 1, out.up_ok_o);
    HD_CHECK(t, hd_zorua_map_ref_idle(&s, &idle));
    hd_zorua_map_ref_step(&s, &idle, &out);
    HD_CHECK_U64(t, 0, out.up_v_o);
    HD_CHECK_U64(t, 0, out.free_o);
    /* Sizes: the paper's three tables are 9216, 5376 and 448 bits. */
    const struct hd_zorua_map_cfg *c[3] = {&hd_zorua_map_rmt, &hd_zorua_map_smt, &hd_zorua_map_tmt};
    const unsigned bits[3] = {9216, 5376, 448};
    for (unsigned i = 0; i < 3; i++)
        HD_CHECK_U64(t, bits[i], c[i]->rows * c[i]->sets * (c[i]->pw + 1));
    char err[160] = "";
    struct hd_zorua_map_cfg bad = hd_zorua_map_smt;
    bad.phys = 65; /* more units than 6 bits index */
    HD_CHECK_U64(t, (uint64_t)-1, (uint64_t)hd_zorua_map_ref_init(&s, &bad, err, sizeof err));
    HD_CHECK(t, strstr(err, "phys") != NULL);
    bad = hd_zorua_map_rmt;
    bad.cnt_w = 10; /* 1024 entries do not fit 10 bits */
    HD_CHECK_U64(t, (uint64_t)-1, (uint64_t)hd_zorua_map_ref_init(&s, &bad, err, sizeof err));
}

int main(void)
{
    struct hd_test_state t = {0};
    rmt(&t);
    rmt_mst(&t);
    smt(&t);
    tmt(&t);
    latency_and_sizes(&t);
    return hd_test_finish(&t);
}
