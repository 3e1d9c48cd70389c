/* SPDX-License-Identifier: MIT
 * test_zorua_tables.c - Zorua's mapping tables with their free lists and the o_thresh
 * controller (model/mech/zorua/zorua_mt.h, zorua_othresh.h; Zorua Sec. 3.5, 4.2-4.3, Table 1):
 *   - the paper's sizes: RMT 64 x 16 x 9 b = 1.125 KB, SMT 16 x 48 x 7 b = 672 B, TMT 64 x 7 b
 *     = 56 B on Fermi (256 register sets, 48 scratchpad sets, 48 warp slots); Kepler's RMT
 *     10-bit entries (512 sets);
 *   - a hand-worked sequence on a 4 x 4 table over 6 units: allocate, oversubscribe (refused
 *     beyond the limit, then half in swap), swap out (spill), swap in (fill, from the free
 *     lowest free unit), release (top down; the lowest free unit is reused first), each entry
 *     word (the tables are the zorua_map block's C reference, tables/zorua_map.h);
 *   - Algorithm 1: no change inside an epoch, up on idleness, down on memory pressure, the
 *     hysteresis, the clamp, the limit in units.
 */
#include "testutil.h"
#include "zorua_mt.h"
#include "zorua_othresh.h"

static void sizes(struct hd_test_state *t)
{
    hd_test_begin(t, "paper sizes");
    struct zmt rmt, smt, tmt, krmt;
    HD_CHECK(t, zmt_init(&rmt, 64, 16, 32768 / 128) == 0);
    HD_CHECK(t, zmt_init(&smt, 16, 48, 48) == 0);
    HD_CHECK(t, zmt_init(&tmt, 64, 1, 48) == 0);
    HD_CHECK(t, zmt_init(&krmt, 64, 16, 65536 / 128) == 0);
    HD_CHECK_U64(t, 9216, zmt_bits(&rmt));  /* 1.125 KB */
    HD_CHECK_U64(t, 672 * 8, zmt_bits(&smt));
    HD_CHECK_U64(t, 56 * 8, zmt_bits(&tmt));
    HD_CHECK_U64(t, 64 * 16 * 10, zmt_bits(&krmt));
    zmt_free(&krmt);
    HD_CHECK(t, zmt_init(&krmt, 0, 16, 8) == -1);
    zmt_free(&rmt);
    zmt_free(&smt);
    zmt_free(&tmt);
}

static void walk(struct hd_test_state *t)
{
    hd_test_begin(t, "allocate, oversubscribe, swap out, swap in, release");
    struct zmt m;
    HD_CHECK(t, zmt_init(&m, 4, 4, 6) == 0); /* pbits 3: word = valid << 3 | unit */
    /* allocate: warp 0 two sets, warp 1 three, from the free list 0, 1, 2, ... */
    HD_CHECK_U64(t, 0, zmt_grow(&m, 0, 2, 0, false));
    HD_CHECK_U64(t, 0, zmt_grow(&m, 1, 3, 0, false));
    HD_CHECK_U64(t, 0, zmt_lookup(&m, 0, 0));
    HD_CHECK_U64(t, 1, zmt_lookup(&m, 0, 1));
    HD_CHECK_U64(t, 4, zmt_lookup(&m, 1, 2));
    HD_CHECK_U64(t, 8 | 1, zmt_word(&m, 0, 1));
    HD_CHECK_U64(t, 8 | 4, zmt_word(&m, 1, 2));
    HD_CHECK_U64(t, ZMT_NONE, zmt_lookup(&m, 0, 2));
    HD_CHECK_U64(t, 1, m.nfree);
    /* oversubscribe: 3 sets with 1 free need 2 in swap, above a limit of 1: refused whole */
    HD_CHECK(t, zmt_grow(&m, 2, 3, 1, false) == -1);
    HD_CHECK_U64(t, 0, zmt_held(&m, 2));
    HD_CHECK_U64(t, 1, m.nfree);
    /* ... the deadlock floor forces it; undo, then 2 sets: one on chip (unit 5), one in swap */
    HD_CHECK_U64(t, 2, zmt_grow(&m, 2, 3, 1, true));
    zmt_shrink(&m, 2, 0);
    HD_CHECK_U64(t, 0, m.swap_used);
    HD_CHECK_U64(t, 1, zmt_grow(&m, 2, 2, 1, false));
    HD_CHECK_U64(t, 5, zmt_lookup(&m, 2, 0));
    HD_CHECK_U64(t, ZMT_SWAP, zmt_lookup(&m, 2, 1));
    HD_CHECK_U64(t, 0, zmt_word(&m, 2, 1)); /* invalid: in swap */
    HD_CHECK_U64(t, 1, m.swap_used);
    HD_CHECK_U64(t, 0, m.nfree);
    HD_CHECK(t, !zmt_fill(&m, 2, 1)); /* no free unit */
    /* swap out warp 1's set 0 (unit 2): the unit goes to the free list */
    HD_CHECK(t, zmt_spill(&m, 1, 0));
    HD_CHECK(t, !zmt_spill(&m, 1, 0)); /* not on chip any more */
    HD_CHECK_U64(t, ZMT_SWAP, zmt_lookup(&m, 1, 0));
    HD_CHECK_U64(t, 2, m.swap_used);
    HD_CHECK_U64(t, 1, m.nfree);
    /* swap in warp 2's set 1: it takes the lowest free unit, 2 */
    HD_CHECK(t, zmt_fill(&m, 2, 1));
    HD_CHECK_U64(t, 2, zmt_lookup(&m, 2, 1));
    HD_CHECK_U64(t, 8 | 2, zmt_word(&m, 2, 1));
    HD_CHECK_U64(t, 1, m.swap_used);
    /* release warp 0 top down (units 1 then 0); warp 3 then gets the lowest free, unit 0 */
    zmt_shrink(&m, 0, 0);
    HD_CHECK_U64(t, 2, m.nfree);
    HD_CHECK_U64(t, 0, zmt_grow(&m, 3, 1, 0, false));
    HD_CHECK_U64(t, 0, zmt_lookup(&m, 3, 0));
    /* release warp 1: sets 2 (unit 4), 1 (unit 3) and 0 (in swap) */
    zmt_shrink(&m, 1, 0);
    HD_CHECK_U64(t, 0, m.swap_used);
    HD_CHECK_U64(t, 3, m.nfree);
    HD_CHECK_U64(t, 0, zmt_grow(&m, 1, 3, 0, false)); /* units 1, 3, 4: lowest free first */
    HD_CHECK_U64(t, 1, zmt_lookup(&m, 1, 0));
    HD_CHECK_U64(t, 3, zmt_lookup(&m, 1, 1));
    HD_CHECK_U64(t, 4, zmt_lookup(&m, 1, 2));
    HD_CHECK_U64(t, 2 + 3 + 3 + 2 + 1 + 3, m.allocs);
    HD_CHECK_U64(t, 3 + 2 + 3, m.releases);
    HD_CHECK_U64(t, 1, m.spills);
    HD_CHECK_U64(t, 1, m.fills);
    HD_CHECK(t, zmt_grow(&m, 1, 5, 9, true) == -1); /* beyond the row */
    zmt_free(&m);
}

/* n active cycles of the controller, the first `idle` of them idle and the next `mem` stalled on
 * memory; true when an epoch's result showed on the registered output meanwhile. */
static bool cycles(struct zoth *o, uint32_t n, uint32_t idle, uint32_t mem, uint32_t *pct)
{
    bool seen = false;
    for (uint32_t i = 0; i < n; i++) {
        bool v;
        uint32_t p;
        zoth_step(o, true, i < idle, i >= idle && i < idle + mem, &v, &p);
        if (v) {
            seen = true;
            *pct = p;
        }
    }
    return seen;
}

static void othresh(struct hd_test_state *t)
{
    hd_test_begin(t, "Algorithm 1 (the block's counting: active cycles, per-epoch counts)");
    struct zoth o;
    zoth_init(&o, 10, 4, 30, 16, 2048);
    uint32_t pct = 99;
    bool v;
    HD_CHECK_U64(t, 25, zoth_limit(o.pct, 256)); /* o_default 10 % of 256 register sets */
    HD_CHECK(t, !cycles(&o, 2047, 500, 100, &pct)); /* inside the first epoch */
    for (int i = 0; i < 5; i++) /* inactive cycles do not count */
        zoth_step(&o, false, true, false, &v, &pct);
    HD_CHECK(t, !cycles(&o, 1, 0, 0, &pct)); /* the epoch's last cycle: computed, not yet seen */
    HD_CHECK_U64(t, 14, o.pct);                 /* idle 500 vs memory 100 (prev 0, 0): up */
    HD_CHECK(t, cycles(&o, 1, 0, 0, &pct));      /* the registered output, one cycle later */
    HD_CHECK_U64(t, 14, pct);
    HD_CHECK_U64(t, 35, zoth_limit(o.pct, 256));
    /* epoch 2 (2047 cycles to go): idle 400, memory 1000 vs the previous 500, 100: the
     * differences -100 and +900: down */
    HD_CHECK(t, !cycles(&o, 2047, 400, 1000, &pct));
    HD_CHECK_U64(t, 10, o.pct);
    /* epoch 3: idle 416, memory 1000: +16 against the previous epoch: inside the hysteresis */
    HD_CHECK(t, cycles(&o, 2048, 416, 1000, &pct));
    HD_CHECK_U64(t, 10, pct);
    HD_CHECK_U64(t, 10, o.pct);
    /* epoch 4: idle 433 (+17): up */
    cycles(&o, 2048, 433, 1000, &pct);
    HD_CHECK_U64(t, 14, o.pct);
    /* the same counts again: no difference between epochs, no change (Algorithm 1 compares an
     * epoch with the previous one, not idle with memory) */
    cycles(&o, 2048, 433, 1000, &pct);
    HD_CHECK_U64(t, 14, o.pct);
    for (uint32_t e = 0; e < 10; e++) /* idleness growing by 100 each epoch: up to the clamp */
        cycles(&o, 2048, 533 + 100 * e, 0, &pct);
    HD_CHECK_U64(t, 30, o.pct);
    for (uint32_t e = 0; e < 12; e++) /* memory stalls growing: down to 0 */
        cycles(&o, 2048, 0, 100 + 100 * e, &pct);
    HD_CHECK_U64(t, 0, o.pct);
    HD_CHECK_U64(t, 0, zoth_limit(o.pct, 256));
    HD_CHECK_U64(t, 27, o.epochs);
    HD_CHECK(t, o.ups >= 5 && o.downs >= 4);
}

int main(void)
{
    struct hd_test_state t = {0};
    sizes(&t);
    walk(&t);
    othresh(&t);
    return hd_test_finish(&t);
}
