/* SPDX-License-Identifier: MIT
 * test_zorua_coord.c - Zorua's coordinator replaying the Figure 11 walkthrough step by step
 * (model/mech/zorua/zorua_coordinator.h; Zorua Sec. 3.2-3.3, digest Sec. 2.3-2.4), on an SM of 4 warp
 * slots, 8 register sets (3 bits) and 4 scratchpad sets, 8 logical warps and 4 logical CTAs,
 * o_thresh = 2 register sets and no scratchpad swap:
 *   (1) CTA A arrives (warps 0, 1: 3 register sets each, 2 scratchpad sets): its warps wait in
 *       the thread queue (2); the event lets them through the thread (2), scratchpad (3) and
 *       register (4) queues; resources acquired (5), mapping tables written (6), schedulable (7);
 *   CTA B arrives (warps 2, 3, 4): warp 2 gets its third register set in swap (within
 *       o_thresh); warp 3 would need 3 sets in swap (4 > 2): it waits in the thread queue,
 *       holding nothing (deadlock rule 1); warp 4 behind it (no slot);
 *   (8) warp 0 changes phase to 1 register set: (9)-(10) its dead sets are released; the event
 *       lets it through at once (register queue first), then warp 3 (one set in swap);
 *   warps 2 and 3 reach B's barrier: they wait in the thread queue, unschedulable;
 *   warp 1 finishes: its slot and registers are freed (event iii), warp 4 gets them;
 *   warp 4 reaches the barrier: B's barrier completes, its three warps are schedulable again;
 *   CTA A's warps finish: its scratchpad stays allocated until the CTA finishes;
 *   the deadlock floor: below it the coordinator oversubscribes beyond o_thresh.
 */
#include "testutil.h"
#include "zorua_coordinator.h"

static uint32_t rset(const struct zcoord *z, uint32_t w, uint32_t s)
{
    return zmt_lookup(&z->rmt, w, s);
}

static void walkthrough(struct hd_test_state *t)
{
    hd_test_begin(t, "Figure 11 walkthrough");
    struct zcoord z;
    HD_CHECK(t, zc_init(&z, 8, 4, 4, 8, 4, 4, 4) == 0);
    z.o_limit[ZC_REG] = 2;
    /* (1) CTA A arrives */
    const uint32_t a[2] = {0, 1}, b[3] = {2, 3, 4};
    HD_CHECK(t, zc_cta_arrive(&z, 0, a, 2, 3, 2) == 0);
    HD_CHECK_U64(t, ZC_Q_SLOT, z.w[0].where); /* (2) */
    HD_CHECK_U64(t, ZC_Q_SLOT, z.w[1].where);
    HD_CHECK_U64(t, 0, z.schedulable);
    HD_CHECK_U64(t, 2, zc_run(&z)); /* (2)(3)(4) -> (5)(6)(7) */
    HD_CHECK_U64(t, ZC_SCHED, z.w[0].where);
    HD_CHECK_U64(t, 0, zc_slot(&z, 0));
    HD_CHECK_U64(t, 1, zc_slot(&z, 1));
    HD_CHECK_U64(t, 2, zmt_held(&z.smt, 0));
    HD_CHECK_U64(t, 8 | 2, zmt_word(&z.rmt, 0, 2)); /* warp 0's set 2 -> register set 2 */
    HD_CHECK_U64(t, 5, rset(&z, 1, 2));
    HD_CHECK_U64(t, 2, z.rmt.nfree);
    HD_CHECK(t, zc_cta_arrive(&z, 0, b, 3, 3, 2) == -1); /* CTA id in use */
    /* CTA B arrives */
    HD_CHECK(t, zc_cta_arrive(&z, 1, b, 3, 3, 2) == 0);
    HD_CHECK_U64(t, 1, zc_run(&z));
    HD_CHECK_U64(t, ZC_SCHED, z.w[2].where);
    HD_CHECK_U64(t, 6, rset(&z, 2, 0));
    HD_CHECK_U64(t, 7, rset(&z, 2, 1));
    HD_CHECK_U64(t, ZMT_SWAP, rset(&z, 2, 2)); /* oversubscribed: within o_thresh */
    HD_CHECK_U64(t, 1, z.rmt.swap_used);
    HD_CHECK_U64(t, ZC_Q_SLOT, z.w[3].where); /* waits in the first queue... */
    HD_CHECK_U64(t, ZMT_NONE, zc_slot(&z, 3)); /* ... holding nothing */
    HD_CHECK_U64(t, 0, zmt_held(&z.rmt, 3));
    HD_CHECK_U64(t, ZC_Q_SLOT, z.w[4].where);
    HD_CHECK_U64(t, 3, z.schedulable);
    /* (8) warp 0 changes phase: 1 register set live */
    zc_phase(&z, 0, 1, 2, false);
    HD_CHECK_U64(t, ZC_Q_REG, z.w[0].where); /* nothing new to acquire */
    HD_CHECK_U64(t, 2, z.schedulable);
    HD_CHECK_U64(t, 1, zmt_held(&z.rmt, 0)); /* (9)(10) sets 1 and 2 released */
    HD_CHECK_U64(t, 2, z.rmt.nfree);
    HD_CHECK_U64(t, 2, zc_run(&z)); /* warp 0 (register queue first), then warp 3 */
    HD_CHECK_U64(t, ZC_SCHED, z.w[0].where);
    HD_CHECK_U64(t, ZC_SCHED, z.w[3].where);
    HD_CHECK_U64(t, 3, zc_slot(&z, 3));
    HD_CHECK_U64(t, 1, rset(&z, 3, 0)); /* the released sets, lowest free first (1, then 2) */
    HD_CHECK_U64(t, 2, rset(&z, 3, 1));
    HD_CHECK_U64(t, ZMT_SWAP, rset(&z, 3, 2));
    HD_CHECK_U64(t, 2, z.rmt.swap_used);
    HD_CHECK_U64(t, ZC_Q_SLOT, z.w[4].where); /* no slot yet */
    /* warps 2 and 3 reach B's barrier */
    zc_phase(&z, 2, 3, 2, true);
    zc_phase(&z, 3, 3, 2, true);
    HD_CHECK_U64(t, 0, zc_run(&z));
    HD_CHECK_U64(t, ZC_Q_SLOT, z.w[2].where);
    HD_CHECK(t, z.w[2].barrier && z.w[3].barrier);
    HD_CHECK_U64(t, 2, z.schedulable);
    HD_CHECK_U64(t, 3, zmt_held(&z.rmt, 2)); /* it keeps its registers */
    /* warp 1 finishes: warp 4 gets its slot and registers */
    zc_warp_exit(&z, 1);
    HD_CHECK_U64(t, 3, z.rmt.nfree); /* its 3 sets */
    HD_CHECK_U64(t, 1, zc_run(&z));
    HD_CHECK_U64(t, 0, z.rmt.nfree);
    HD_CHECK_U64(t, ZC_SCHED, z.w[4].where);
    HD_CHECK_U64(t, 1, zc_slot(&z, 4));
    HD_CHECK_U64(t, 3, rset(&z, 4, 0)); /* warp 1's sets, lowest free first: 3, 4, 5 */
    HD_CHECK_U64(t, 4, rset(&z, 4, 1));
    HD_CHECK_U64(t, 5, rset(&z, 4, 2));
    /* warp 4 reaches the barrier: it completes */
    zc_phase(&z, 4, 3, 2, true);
    HD_CHECK(t, !z.w[2].barrier && !z.w[3].barrier && !z.w[4].barrier);
    HD_CHECK_U64(t, 3, zc_run(&z));
    HD_CHECK_U64(t, 4, z.schedulable);
    HD_CHECK_U64(t, 3, z.barrier_waits);
    /* CTA A: its last warp finishes, its scratchpad stays until the CTA does */
    zc_warp_exit(&z, 0);
    HD_CHECK_U64(t, 2, zmt_held(&z.smt, 0));
    zc_cta_exit(&z, 0);
    HD_CHECK_U64(t, 0, zmt_held(&z.smt, 0));
    HD_CHECK_U64(t, 2, z.smt.nfree);
    HD_CHECK_U64(t, 0, z.forced);
    zc_free(&z);
}

static void floor_rule(struct hd_test_state *t)
{
    hd_test_begin(t, "deadlock floor");
    struct zcoord z;
    HD_CHECK(t, zc_init(&z, 8, 4, 4, 4, 4, 4, 4) == 0); /* 4 register sets, no swap allowed */
    const uint32_t a[2] = {0, 1};
    HD_CHECK(t, zc_cta_arrive(&z, 0, a, 2, 3, 0) == 0);
    HD_CHECK_U64(t, 1, zc_run(&z)); /* warp 1 would need 2 sets in swap: refused */
    HD_CHECK_U64(t, ZC_Q_SLOT, z.w[1].where);
    z.floor = 2; /* fewer than 2 schedulable: oversubscribe regardless */
    HD_CHECK_U64(t, 1, zc_run(&z));
    HD_CHECK_U64(t, 2, z.rmt.swap_used);
    HD_CHECK_U64(t, 1, z.forced);
    HD_CHECK_U64(t, 0, zc_run(&z));
    zc_cta_exit(&z, 0);
    HD_CHECK_U64(t, 0, z.rmt.swap_used);
    HD_CHECK_U64(t, 4, z.rmt.nfree);
    HD_CHECK_U64(t, 4, z.tmt.t.nfree);
    zc_free(&z);
}

int main(void)
{
    struct hd_test_state t = {0};
    walkthrough(&t);
    floor_rule(&t);
    return hd_test_finish(&t);
}
