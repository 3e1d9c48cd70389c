/* SPDX-License-Identifier: MIT
 * test_gpuduet.c - GPUDuet's decision files (model/mech/gpuduet; Lin thesis ch.3, issue 28):
 * the throughput monitor's classes (Table 3.3) at and around each threshold, the ME controller's
 * trajectory on hand-built counter traces against the worked examples of docs/gpuduet.md (from
 * §2.10's rule), the per-kernel plan (MC, limiting resources, switching level, ME upper bound)
 * on Table 3.1's SM for four kernel shapes, and the stalled/ready queues (the gpuduet_queues
 * block's C reference behind gpuduet_queues.c: the view's latency, rotation, a dropped push).
 */
#include "gpuduet.h"
#include "gpuduet_bitmap.h"
#include "gpuduet_bmap.h"
#include "gpuduet_tbct.h"
#include "gpuduet_tab.h"
#include "testutil.h"

#include <string.h>

/* A window with every resource at the given per-mille of a capacity of 1000. */
static struct gd_util util(unsigned sched, unsigned icnt, unsigned dram, unsigned l1, unsigned l2)
{
    return (struct gd_util){sched, 1000, l1, 1000, icnt, 1000, l2, 1000, dram, 1000};
}

static void test_classes(struct hd_test_state *t)
{
    hd_test_begin(t, "Table 3.3: underutilised, moderate, saturated at the thresholds");
    struct gd_util u = util(599, 599, 499, 599, 599);
    HD_CHECK_U64(t, GD_CLASS_UNDER, gd_classify(&u));
    u = util(600, 0, 0, 0, 0); /* sched 60 %: not below 60 % */
    HD_CHECK_U64(t, GD_CLASS_MODERATE, gd_classify(&u));
    u = util(0, 0, 500, 0, 0); /* DRAM 50 %: not below 50 % */
    HD_CHECK_U64(t, GD_CLASS_MODERATE, gd_classify(&u));
    u = util(800, 900, 700, 800, 800); /* every one at its saturation threshold: not above */
    HD_CHECK_U64(t, GD_CLASS_MODERATE, gd_classify(&u));
    u = util(0, 901, 0, 0, 0);
    HD_CHECK_U64(t, GD_CLASS_SATURATED, gd_classify(&u));
    u = util(0, 0, 701, 0, 0);
    HD_CHECK_U64(t, GD_CLASS_SATURATED, gd_classify(&u));
    u = util(0, 0, 0, 801, 0);
    HD_CHECK_U64(t, GD_CLASS_SATURATED, gd_classify(&u));
    u = util(801, 0, 0, 0, 0);
    HD_CHECK_U64(t, GD_CLASS_SATURATED, gd_classify(&u));
    u = util(0, 0, 0, 0, 801);
    HD_CHECK_U64(t, GD_CLASS_SATURATED, gd_classify(&u));
    u = (struct gd_util){0}; /* nothing to measure: idle */
    HD_CHECK_U64(t, GD_CLASS_UNDER, gd_classify(&u));
}

static void test_me_trajectory(struct hd_test_state *t)
{
    struct gd_me m;
    struct gd_util u;
    hd_test_begin(t, "ME controller: underutilised -> the upper bound at once, kept");
    gd_me_init(&m, 6);
    u = util(300, 200, 100, 50, 100);
    HD_CHECK_U64(t, 6, gd_me_window(&m, &u));
    u = util(900, 0, 0, 0, 0); /* later saturation does not re-classify (our choice) */
    HD_CHECK_U64(t, 6, gd_me_window(&m, &u));
    HD_CHECK_U64(t, GD_CLASS_UNDER, m.cls);

    hd_test_begin(t, "ME controller: saturated -> 0 (GPUDuet off)");
    gd_me_init(&m, 6);
    u = util(200, 950, 300, 100, 400); /* icnt 95 % */
    HD_CHECK_U64(t, 0, gd_me_window(&m, &u));
    u = util(100, 100, 100, 100, 100);
    HD_CHECK_U64(t, 0, gd_me_window(&m, &u));

    hd_test_begin(t, "ME controller: moderate -> +1 per window up to the upper bound");
    gd_me_init(&m, 3); /* trace: sched 70 %, 72 %, 75 %, then 85 % */
    const unsigned sched[4] = {700, 720, 750, 850};
    const unsigned want[4] = {1, 2, 3, 3};
    for (unsigned i = 0; i < 4; i++) {
        u = util(sched[i], 300, 200, 100, 300);
        HD_CHECK_U64(t, want[i], gd_me_window(&m, &u));
    }
    HD_CHECK(t, m.done);
    HD_CHECK_U64(t, 4, m.windows);

    hd_test_begin(t, "ME controller: moderate, a resource saturates -> back off by one, stop");
    gd_me_init(&m, 8); /* DRAM 55 %, 62 %, 68 %, 75 % (saturated), then 40 % */
    const unsigned dram[5] = {550, 620, 680, 750, 400};
    const unsigned want2[5] = {1, 2, 3, 2, 2};
    for (unsigned i = 0; i < 5; i++) {
        u = util(400, 300, dram[i], 100, 300);
        HD_CHECK_U64(t, want2[i], gd_me_window(&m, &u));
    }
    HD_CHECK_U64(t, GD_CLASS_MODERATE, m.cls);

    hd_test_begin(t, "ME controller: upper bound 0 keeps ME at 0 in every class");
    gd_me_init(&m, 0);
    u = util(700, 0, 0, 0, 0);
    HD_CHECK_U64(t, 0, gd_me_window(&m, &u));
    HD_CHECK_U64(t, 0, gd_me_window(&m, &u));
}

/* §2.10's L1D rule (session 24) on SPMV's plan at Table 3.1's SM (spmv_csr_scalar: 4 warps, 56
 * register units, 14 reduced, no shared memory; docs/gpuduet.md "Session 24"). */
static void test_l1d_rule(struct hd_test_state *t)
{
    const struct gd_caps c = {64, 32, 2048, 768, 0}, cl = {64, 32, 2048, 768, 256};
    struct gd_plan p, pl;
    struct gd_me m;
    struct gd_util u;
    hd_test_begin(t, "L1D rule: the ME bound with the L1D's 256 units");
    gd_plan_make(&c, GD_MODE_GPUDUET, 4, 56, 14, 0, &p);
    gd_plan_make(&cl, GD_MODE_GPUDUET, 4, 56, 14, 0, &pl);
    HD_CHECK_U64(t, 9, p.mc);
    /* min(128/4 - 9, 32 - 9, (2816 - 9 x 224) / (4 x 15) = 13); with the L1D (3072 - 2016) / 60 */
    HD_CHECK_U64(t, 13, p.me_ub);
    HD_CHECK_U64(t, 17, pl.me_ub);

    hd_test_begin(t, "L1D rule: wanted only once ME has reached what the RF and shared memory hold");
    gd_me_init(&m, p.me_ub);
    u = util(10, 800, 300, 2, 200); /* icnt 80 %: moderate; L1D 0.2 % */
    for (uint32_t want = 1; want <= 13; want++) {
        HD_CHECK(t, !gd_me_wants_l1d(&m, pl.me_ub, &u, true)); /* (room left for ME) */
        HD_CHECK_U64(t, want, gd_me_window(&m, &u));
    }
    HD_CHECK(t, m.done);
    HD_CHECK(t, gd_me_wants_l1d(&m, pl.me_ub, &u, true));
    HD_CHECK(t, !gd_me_wants_l1d(&m, pl.me_ub, &u, false)); /* no TB left to place */
    HD_CHECK(t, !gd_me_wants_l1d(&m, p.me_ub, &u, true));   /* the L1D adds no TB */
    struct gd_util busy = util(10, 800, 300, 30, 200);       /* L1D at 3 %: not below */
    HD_CHECK(t, !gd_me_wants_l1d(&m, pl.me_ub, &busy, true));
    busy = util(10, 800, 300, 29, 200);
    HD_CHECK(t, gd_me_wants_l1d(&m, pl.me_ub, &busy, true));

    hd_test_begin(t, "L1D rule: a moderate kernel climbs on into the L1D's room");
    gd_me_raise_ub(&m, pl.me_ub);
    HD_CHECK(t, !m.done);
    const uint32_t next[5] = {14, 15, 16, 17, 17};
    for (unsigned i = 0; i < 5; i++)
        HD_CHECK_U64(t, next[i], gd_me_window(&m, &u));
    HD_CHECK(t, m.done);

    hd_test_begin(t, "L1D rule: not after a saturated window stopped the search below the bound");
    gd_me_init(&m, p.me_ub);
    HD_CHECK_U64(t, 1, gd_me_window(&m, &u));
    u = util(10, 950, 300, 2, 200); /* icnt 95 %: saturated -> back to 0, stop */
    HD_CHECK_U64(t, 0, gd_me_window(&m, &u));
    HD_CHECK(t, !gd_me_wants_l1d(&m, pl.me_ub, &u, true));
    gd_me_init(&m, p.me_ub);
    HD_CHECK_U64(t, 0, gd_me_window(&m, &u)); /* saturated from the first window */
    HD_CHECK(t, !gd_me_wants_l1d(&m, pl.me_ub, &u, true));

    hd_test_begin(t, "L1D rule: an underutilised kernel takes the new bound at once");
    gd_me_init(&m, p.me_ub);
    u = util(100, 300, 200, 2, 100);
    HD_CHECK_U64(t, 13, gd_me_window(&m, &u));
    HD_CHECK(t, gd_me_wants_l1d(&m, pl.me_ub, &u, true));
    gd_me_raise_ub(&m, pl.me_ub);
    HD_CHECK_U64(t, 17, m.me);
    HD_CHECK_U64(t, 17, gd_me_window(&m, &u));
}

/* Session 27 (§2.10: the limiting context is the one that must leave to host the ME extra TBs):
 * a warp-slot-limited kernel whose extra TBs' registers do not fit the RF at full size switches
 * its registers out as a register-limited one does; with room, or when leaving hosts no more,
 * they stay. */
static void test_plan_room(struct hd_test_state *t, const struct gd_caps *c)
{
    struct gd_plan p;
    hd_test_begin(t, "plan: warp-slot-limited, no RF room for the extra TBs -> registers leave");
    gd_plan_make(c, GD_MODE_GPUDUET, 8, 24, 6, 1, &p); /* btree's findRangeK: 24 units, 6 reduced */
    HD_CHECK_U64(t, 8, p.mc);
    HD_CHECK_U64(t, GD_LIM_WARPS, p.lim); /* RF 2048 / 192 = 10 TBs: 75 % used at MC */
    HD_CHECK_U64(t, GD_LEVEL_WARP, p.level);
    HD_CHECK(t, p.spill_regs && p.regs_room && !p.spill_smem);
    /* staying: min(8, 24, RF 10 - 8, unified (2816 - 8 x 193) / (8 x 25 + 1) = 6) = 2;
     * leaving: min(128/8 - 8, 32 - 8, shared 768 - 8, (2816 - 1544) / (8 x 7 + 1) = 22) = 8 */
    HD_CHECK_U64(t, 8, p.me_ub);
    HD_CHECK_U64(t, 8, gd_plan_ub(c, GD_MODE_GPUDUET, &p));
    gd_plan_make(c, GD_MODE_TB, 8, 24, 6, 1, &p); /* GPUDuet_TB: the same contexts leave */
    HD_CHECK_U64(t, GD_LEVEL_TB, p.level);
    HD_CHECK(t, p.spill_regs && p.regs_room && !p.spill_smem);
    HD_CHECK_U64(t, 8, p.me_ub);
    gd_plan_make(c, GD_MODE_VT, 8, 24, 6, 1, &p); /* Virtual Thread: RF and shared memory only */
    HD_CHECK(t, !p.spill_regs && !p.regs_room);
    HD_CHECK_U64(t, 2, p.me_ub);

    hd_test_begin(t, "plan: warp-slot-limited, RF room for the extra TBs -> registers stay");
    gd_plan_make(c, GD_MODE_GPUDUET, 8, 16, 4, 24, &p); /* hotspot: 16 units, 4 reduced */
    HD_CHECK_U64(t, GD_LIM_WARPS, p.lim);
    HD_CHECK(t, !p.spill_regs && !p.regs_room);
    /* staying: min(8, 24, RF 16 - 8, shared 32 - 8, (2816 - 8 x 152) / (8 x 17 + 24) = 10) = 8,
     * the warp context table's 8 either way: leaving would host no more */
    HD_CHECK_U64(t, 8, p.me_ub);
    HD_CHECK_U64(t, 8, gd_plan_ub(c, GD_MODE_GPUDUET, &p));

    hd_test_begin(t, "plan: no RF room, but shared memory bounds it too -> registers stay");
    gd_plan_make(c, GD_MODE_GPUDUET, 8, 24, 6, 80, &p); /* shared 768 / 80 = 9 TBs */
    HD_CHECK_U64(t, GD_LIM_WARPS, p.lim);
    HD_CHECK(t, !p.spill_regs && !p.regs_room);
    HD_CHECK_U64(t, 1, p.me_ub); /* shared 9 - 8 either way */

    hd_test_begin(t, "plan: shared memory limits, no RF room -> registers stay (both is off)");
    const struct gd_caps cl = {c->warps, c->ctas, c->rf_units, c->smem_units, 256};
    gd_plan_make(&cl, GD_MODE_GPUDUET, 4, 96, 8, 192, &p); /* RF 2048 / 384 = 5, shared 4 */
    HD_CHECK_U64(t, GD_LIM_SMEM, p.lim);
    HD_CHECK_U64(t, GD_LEVEL_TB, p.level);
    HD_CHECK(t, p.spill_smem && !p.spill_regs && !p.regs_room);
    /* min(28, 28, RF 5 - 4, (3072 - 4 x 576) / (4 x 97 + 192) = 1); leaving both would give 3 */
    HD_CHECK_U64(t, 1, p.me_ub);
}

static void test_plan(struct hd_test_state *t)
{
    /* Table 3.1's SM: 64 warp slots, 32 TB slots, 256 KB RF = 2048 units, 96 KB = 768 units. */
    const struct gd_caps c = {64, 32, 2048, 768, 0};
    struct gd_plan p;
    hd_test_begin(t, "plan: warp-slot-limited kernel -> warp level, registers stay");
    gd_plan_make(&c, GD_MODE_GPUDUET, 8, 16, 14, 24, &p); /* hotspot: 8 warps, 16 regs, 3 KB */
    HD_CHECK_U64(t, 8, p.mc);
    HD_CHECK_U64(t, GD_LIM_WARPS, p.lim);
    HD_CHECK_U64(t, GD_LEVEL_WARP, p.level);
    HD_CHECK(t, !p.spill_regs && !p.spill_smem);
    /* min(128/8 - 8, 32 - 8, RF 16 - 8, smem 32 - 8, unified (2816 - 8 x 152) / 160 = 10) */
    HD_CHECK_U64(t, 8, p.me_ub);

    hd_test_begin(t, "plan: register-limited kernel -> warp level, reduced registers spill");
    gd_plan_make(&c, GD_MODE_GPUDUET, 8, 64, 20, 0, &p); /* 64 regs/thread, 20 live */
    HD_CHECK_U64(t, 4, p.mc);
    HD_CHECK_U64(t, GD_LIM_REGS, p.lim);
    HD_CHECK_U64(t, GD_LEVEL_WARP, p.level);
    HD_CHECK(t, p.spill_regs);
    /* min(16 - 4, 28, (2816 - 4 x 512) / (8 x 21) = 4) */
    HD_CHECK_U64(t, 4, p.me_ub);
    hd_test_begin(t, "plan: Virtual Thread on it adds nothing (capacity is the RF)");
    gd_plan_make(&c, GD_MODE_VT, 8, 64, 20, 0, &p);
    HD_CHECK_U64(t, 0, p.me_ub);

    hd_test_begin(t, "plan: shared-memory-limited kernel -> TB level, shared memory spills");
    gd_plan_make(&c, GD_MODE_GPUDUET, 4, 8, 8, 192, &p); /* 24 KB per TB */
    HD_CHECK_U64(t, 4, p.mc);
    HD_CHECK_U64(t, GD_LIM_SMEM, p.lim);
    HD_CHECK_U64(t, GD_LEVEL_TB, p.level);
    HD_CHECK(t, p.spill_smem && !p.spill_regs);
    /* min(32 - 4, 28, RF 64 - 4, (2816 - 4 x 224) / (4 x 9 + 192) = 8) */
    HD_CHECK_U64(t, 8, p.me_ub);

    hd_test_begin(t, "plan: registers and shared memory both limit -> disabled");
    gd_plan_make(&c, GD_MODE_GPUDUET, 8, 64, 20, 192, &p);
    HD_CHECK_U64(t, 4, p.mc);
    HD_CHECK_U64(t, GD_LIM_REGS | GD_LIM_SMEM, p.lim);
    HD_CHECK_U64(t, GD_LEVEL_OFF, p.level);
    HD_CHECK_U64(t, 0, p.me_ub);
    gd_plan_make(&c, GD_MODE_TB, 8, 64, 20, 192, &p);
    HD_CHECK_U64(t, GD_LEVEL_OFF, p.level);

    hd_test_begin(t, "plan: GPUDuet_TB on a warp-slot-limited kernel -> TB level");
    gd_plan_make(&c, GD_MODE_TB, 8, 16, 14, 24, &p);
    HD_CHECK_U64(t, GD_LEVEL_TB, p.level);
    HD_CHECK_U64(t, 8, p.me_ub);
    test_plan_room(t, &c);
}

/* One edge of the queues; returns the ids whose pushes were dropped (queue k's in d[k]). */
static void edge(struct hd_test_state *t, struct gd_queues *q, uint64_t now, uint32_t d[GD_NQ])
{
    char err[256] = "";
    HD_CHECK(t, gd_queues_step(q, 0, now, d, err, sizeof err) == 0);
}

static void test_queues(struct hd_test_state *t)
{
    hd_test_begin(t, "queues: the gpuduet_queues block, its read one cycle behind the CSL");
    struct gd_queues q;
    char err[256] = "";
    uint32_t d[GD_NQ];
    HD_CHECK(t, gd_queues_make(&q, NULL, 0, err, sizeof err) == 0);
    uint64_t now = 1;
    HD_CHECK_U64(t, GD_NONE, gd_queues_head(&q, GD_QS));
    HD_CHECK(t, !gd_queues_pop(&q, GD_QS)); /* nothing known: no pop */
    HD_CHECK(t, !gd_queues_unknown(&q, GD_QRT)); /* empty and known so */
    /* cycle 1: push 5 onto the stalled queue and 9 onto the ready-TB queue; one push a cycle */
    HD_CHECK(t, gd_queues_push(&q, GD_QS, 5));
    HD_CHECK(t, !gd_queues_push(&q, GD_QS, 6));
    HD_CHECK(t, gd_queues_push(&q, GD_QRT, 9));
    edge(t, &q, now++, d);
    HD_CHECK_U64(t, GD_NONE, gd_queues_head(&q, GD_QS)); /* cycle 2: not shown yet */
    HD_CHECK(t, gd_queues_unknown(&q, GD_QS)); /* ... but a push is on its way */
    HD_CHECK(t, gd_queues_unknown(&q, GD_QRT));
    HD_CHECK(t, gd_queues_push(&q, GD_QS, 6));
    edge(t, &q, now++, d);
    HD_CHECK_U64(t, 5, gd_queues_head(&q, GD_QS)); /* cycle 3: the read of cycle 1's edge */
    HD_CHECK_U64(t, 1, gd_queues_count(&q, GD_QS));
    HD_CHECK_U64(t, 9, gd_queues_head(&q, GD_QRT));
    HD_CHECK(t, gd_queues_rotate(&q, GD_QS)); /* 5 to the back: 6 5 */
    HD_CHECK_U64(t, GD_NONE, gd_queues_head(&q, GD_QS)); /* popped: no head this cycle */
    edge(t, &q, now++, d);
    HD_CHECK_U64(t, GD_NONE, gd_queues_head(&q, GD_QS)); /* cycle 4: still the old read */
    /* not known, but not empty: the CSL's stalled TB waits for such a head instead of taking
     * "no head" for "no ready TB" (session 24's phase-lock fix) */
    HD_CHECK(t, gd_queues_unknown(&q, GD_QS));
    HD_CHECK(t, !gd_queues_unknown(&q, GD_QRT)); /* known: 9 */
    edge(t, &q, now++, d);
    HD_CHECK_U64(t, 6, gd_queues_head(&q, GD_QS)); /* cycle 5 */
    HD_CHECK_U64(t, 2, gd_queues_count(&q, GD_QS));
    HD_CHECK(t, gd_queues_pop(&q, GD_QS));
    edge(t, &q, now++, d);
    edge(t, &q, now++, d);
    HD_CHECK_U64(t, 5, gd_queues_head(&q, GD_QS));
    HD_CHECK(t, gd_queues_busy(&q));

    hd_test_begin(t, "queues: a push onto a full queue is dropped and reported");
    for (uint32_t i = 0; i < 16; i++) { /* the ready queue: 16 entries */
        HD_CHECK(t, gd_queues_push(&q, GD_QR, 100 + i));
        edge(t, &q, now++, d);
        HD_CHECK_U64(t, GD_NONE, d[GD_QR]);
    }
    HD_CHECK(t, gd_queues_push(&q, GD_QR, 99));
    edge(t, &q, now++, d);
    HD_CHECK_U64(t, GD_NONE, d[GD_QR]);
    edge(t, &q, now++, d);
    HD_CHECK_U64(t, 99, d[GD_QR]); /* answered the cycle after */
    HD_CHECK_U64(t, 16, gd_queues_count(&q, GD_QR));
    HD_CHECK_U64(t, 100, gd_queues_head(&q, GD_QR));
    for (uint32_t i = 0; i < 16; i++) { /* FIFO order, a pop every other cycle */
        HD_CHECK_U64(t, 100 + i, gd_queues_head(&q, GD_QR));
        HD_CHECK(t, gd_queues_pop(&q, GD_QR));
        edge(t, &q, now++, d);
        edge(t, &q, now++, d);
    }
    HD_CHECK_U64(t, 0, gd_queues_count(&q, GD_QR));
    HD_CHECK_U64(t, GD_NONE, gd_queues_head(&q, GD_QR));
    HD_CHECK_U64(t, 1, q.drops);
    gd_queues_destroy(&q);
}

/* The bitmap block stepped alone: allocations k of n[k] units in region r[k]; the first two may
 * be presented back to back (queued before the first step), each later one only from the cycle
 * after the last one's done_* showed (the allocator decides it from that answer). Returns the
 * cycles until the last done_* showed; base[k] the answers. */
static uint64_t bm_ref(const unsigned *r, const uint32_t *n, unsigned k, uint32_t *base)
{
    struct hd_gpuduet_bitmap_state s;
    hd_gpuduet_bitmap_ref_reset(&s);
    uint64_t cyc = 0, ready = 0;
    unsigned next = 0, done = 0;
    while (done < k && cyc < 100000) {
        struct hd_gpuduet_bitmap_in in;
        struct hd_gpuduet_bitmap_out out;
        memset(&in, 0, sizeof in);
        const bool pres = next < k && (next < 2 || (done >= next && cyc >= ready));
        if (pres) {
            in.al_v_i = 1;
            in.al_region_i = r[next];
            in.al_n_i = n[next];
        }
        hd_gpuduet_bitmap_ref_step(&s, &in, &out);
        cyc++;
        if (out.done_v_o & 1u) {
            base[done++] = out.done_ok_o & 1u ? (uint32_t)out.done_base_o : GD_NONE;
            ready = cyc; /* (the next is decided in the cycle after) */
        }
        if (pres && !(out.busy_o & 1u))
            next++;
    }
    return cyc;
}

/* The SM the allocator tests use (Table 3.1's: 64 warps, 32 CTAs, 2,048 threads, 96 KB of shared
 * memory) with a register file of `registers`. */
static struct hd_sm_params gd_test_sm(uint32_t registers)
{
    struct hd_sm_params p;
    memset(&p, 0, sizeof p);
    p.max_warps = 64;
    p.max_ctas = p.phys_ctas = 32;
    p.max_threads = 2048;
    p.registers = registers;
    p.shared_bytes = 96 * 1024;
    return p;
}

/* The common setup of the allocator tests: one SM's GPUDuet allocator of parameters p with its
 * allocation bitmap block, the C reference (no factory), 256 L1D units for the §2.10 rule. f
 * must outlive the allocator (the bitmap instance f->bm outlives it in the mechanism too). */
struct gd_fix {
    struct hd_sm_alloc sa;
    struct gd_alloc *a;
    struct gd_bmap bm;
};

static void gd_fix_open(struct hd_test_state *t, const struct hd_sm_params *p, struct gd_fix *f)
{
    char err[512] = "";
    HD_CHECK(t, gd_alloc_create(p, &f->sa) == 0);
    f->a = f->sa.impl;
    HD_CHECK(t, gd_alloc_make_bitmap(f->a, &f->bm, NULL, 256, err, sizeof err) == 0);
}

static void test_bitmap_alloc(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator: a TB's units are the bitmap block's answers, in its cycles");
    const struct hd_sm_params p = gd_test_sm(65536);
    struct gd_fix f;
    gd_fix_open(t, &p, &f);
    struct hd_sm_alloc sa = f.sa;
    struct gd_alloc *a = f.a;
    char err[512] = "";
    /* 8 warps of 40 registers (R = 40 units), 4 KB of shared memory (S = 32 units) */
    const struct hd_cta_demand d = {8, 256, 8 * 32 * 40, 4096, 0, 0, 0, 0};
    uint64_t cyc = 0;
    HD_CHECK(t, !sa.ops->can_accept(a, &d)); /* the block works on it */
    bool ok = false;
    while (!ok && cyc < 10000) {
        HD_CHECK(t, gd_alloc_step(a, cyc, err, sizeof err) == 0);
        cyc++;
        ok = sa.ops->can_accept(a, &d);
    }
    /* the same operations on a block stepped alone: the L1D region's fill (256), the shared
     * memory (32), then the eight warps' registers in one search (8 x 40, session 15) */
    unsigned r[3] = {2, 1, 0};
    uint32_t n[3] = {256, 32, 320}, base[3];
    const uint64_t want = bm_ref(r, n, 3, base);
    HD_CHECK(t, ok);
    HD_CHECK_U64(t, want, cyc);
    /* a search per warp (the allocator before session 15) takes longer */
    unsigned r8[10] = {2, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t n8[10] = {256, 32, 40, 40, 40, 40, 40, 40, 40, 40}, base8[10];
    HD_CHECK(t, bm_ref(r8, n8, 10, base8) > cyc + 8);
    struct hd_cta_grant g;
    HD_CHECK(t, sa.ops->accept(a, &d, &g));
    for (uint32_t w = 0; w < 8; w++) {
        uint32_t reg, meta, smem;
        gd_alloc_where(a, g.cta_slot, w, &reg, &meta, &smem);
        HD_CHECK_U64(t, base[2] + w * 40u, reg); /* the run's warp w: 0, 40, 80, ... */
        HD_CHECK_U64(t, base8[2 + w], reg);      /* where a search per warp put them */
        HD_CHECK_U64(t, base[1], smem);          /* 0x800 */
        HD_CHECK_U64(t, w, meta);                /* its warp slot */
    }
    HD_CHECK_U64(t, 0x800, base[1]);
    /* registers limit here (MC = 6: 2,048 / (8 x 40)), so a warp that gives its slot back gives
     * its registers back too; switching it in again asks the block, and acquire answers false
     * until the block gave them (first fit: the hole it left) */
    struct hd_alloc_part part = {3, 0, 0};
    sa.ops->release_part(a, &g, &part);
    uint32_t reg, meta, smem;
    gd_alloc_where(a, g.cta_slot, 3, &reg, &meta, &smem);
    HD_CHECK_U64(t, GD_NONE, reg);
    HD_CHECK(t, !sa.ops->acquire(a, &g, &part));
    uint32_t waited = 0;
    while (!sa.ops->acquire(a, &g, &part) && waited < 1000) {
        HD_CHECK(t, gd_alloc_step(a, cyc++, err, sizeof err) == 0);
        waited++;
    }
    gd_alloc_where(a, g.cta_slot, 3, &reg, &meta, &smem);
    HD_CHECK_U64(t, 120, reg);
    HD_CHECK(t, waited >= 4); /* (the free, then the allocation: scan, resolve, mark) */
    HD_CHECK(t, waited < 1000);
    sa.ops->release(a, &g);
    for (uint64_t i = 0; i < 200; i++) /* the frees */
        HD_CHECK(t, gd_alloc_step(a, cyc++, err, sizeof err) == 0);
    HD_CHECK(t, !gd_alloc_busy(a));
    HD_CHECK_U64(t, 4, f.bm.allocs); /* fill, shared memory, the TB's registers, warp 3's */
    HD_CHECK_U64(t, 10, f.bm.frees); /* warp 3's registers, then the TB's 9 (the fill stays) */
    HD_CHECK_U64(t, 1, f.bm.tb_one);
    sa.ops->destroy(a);
    gd_bmap_destroy(&f.bm);
}

/* Step the allocator until its bitmap block has nothing left; the cycles taken. */
static uint64_t drain(struct hd_test_state *t, struct gd_alloc *a, uint64_t *cyc)
{
    char err[256] = "";
    uint64_t n = 0;
    while (gd_alloc_busy(a) && n < 10000) {
        HD_CHECK(t, gd_alloc_step(a, (*cyc)++, err, sizeof err) == 0);
        n++;
    }
    return n;
}

static void test_swap_exchange(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator: a swap exchanges two warps' context spaces, no bitmap operation");
    const struct hd_sm_params p = gd_test_sm(65536);
    struct gd_fix f;
    gd_fix_open(t, &p, &f);
    struct hd_sm_alloc sa = f.sa;
    struct gd_alloc *a = f.a;
    uint64_t cyc = 0;
    /* TB A: 8 warps of 40 registers, every warp with a slot; TB B: the same kernel, placed
     * with no slot offered (an extra TB: its warps start absent, their reduced registers and
     * meta-data spilled to shared memory in one search) */
    const struct hd_cta_demand da = {8, 256, 8 * 32 * 40, 4096, 0, 0, 0, 0};
    const struct hd_cta_demand db = {0, 256, 8 * 32 * 40, 4096, 0, 0, 0, 8};
    struct hd_cta_grant ga, gb;
    HD_CHECK(t, !sa.ops->can_accept(a, &da));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &da));
    HD_CHECK(t, sa.ops->accept(a, &da, &ga));
    HD_CHECK(t, !sa.ops->can_accept(a, &db));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &db));
    HD_CHECK(t, sa.ops->accept(a, &db, &gb));
    HD_CHECK_U64(t, 2, f.bm.tb_one); /* A's registers, B's spill: one search each */
    uint32_t areg, bsp, meta, smem;
    gd_alloc_where(a, ga.cta_slot, 2, &areg, &meta, &smem);
    gd_alloc_where(a, gb.cta_slot, 5, &bsp, &meta, &smem);
    HD_CHECK_U64(t, 80, areg);                /* A's warp 2 in the register file */
    HD_CHECK(t, bsp >= 0x800 && bsp < 0xB00); /* B's warp 5 spilled to shared memory */
    const uint64_t allocs = f.bm.allocs, frees = f.bm.frees;
    /* the swap: A's warp 2 stalled, B's warp 5 ready. The reservation is B5's spill space,
     * at once; B5's switch-in waits for A2's registers without asking the block */
    const uint32_t from = gb.cta_slot << 5 | 5u;
    HD_CHECK(t, gd_alloc_swap_open(a, gb.cta_slot, 5));
    HD_CHECK(t, gd_alloc_reserve(a, ga.cta_slot, 2, false, from));
    HD_CHECK(t, !gd_alloc_busy(a));
    HD_CHECK(t, !gd_alloc_swap_open(a, gb.cta_slot, 5)); /* (not a second swap's) */
    HD_CHECK(t, gd_alloc_spill_region(a, ga.cta_slot, 2) == 1); /* shared memory */
    struct hd_alloc_part pa = {2, 0, 0}, pb = {5, 0, 0};
    HD_CHECK(t, !sa.ops->acquire(a, &gb, &pb));
    HD_CHECK(t, !gd_alloc_busy(a));
    sa.ops->release_part(a, &ga, &pa); /* A2's move out is done: its slot and registers go */
    HD_CHECK(t, sa.ops->acquire(a, &gb, &pb)); /* B5 comes in at once, where A2 was */
    uint32_t reg;
    gd_alloc_where(a, gb.cta_slot, 5, &reg, &meta, &smem);
    HD_CHECK_U64(t, 80, reg);
    gd_alloc_where(a, ga.cta_slot, 2, &reg, &meta, &smem);
    HD_CHECK_U64(t, bsp, reg); /* A2's reduced registers where B5's were */
    drain(t, a, &cyc);
    HD_CHECK_U64(t, allocs, f.bm.allocs); /* no allocation and no free for the swap */
    HD_CHECK_U64(t, frees, f.bm.frees);
    HD_CHECK_U64(t, 1, f.bm.xchg_sp);
    HD_CHECK_U64(t, 1, f.bm.xchg_rf);
    /* a switch-out with no ready warp still reserves at the block; refused, it gives back */
    HD_CHECK(t, !gd_alloc_reserve(a, ga.cta_slot, 3, false, GD_NONE));
    HD_CHECK(t, drain(t, a, &cyc) > 3);
    HD_CHECK(t, gd_alloc_reserve(a, ga.cta_slot, 3, false, GD_NONE));
    HD_CHECK_U64(t, allocs + 1, f.bm.allocs);
    /* a swap whose switch-out the SM refuses: the ready warp keeps its spill space */
    gd_alloc_where(a, gb.cta_slot, 6, &bsp, &meta, &smem);
    HD_CHECK(t, gd_alloc_reserve(a, ga.cta_slot, 4, false, gb.cta_slot << 5 | 6u));
    gd_alloc_unreserve(a, ga.cta_slot, 4);
    gd_alloc_where(a, gb.cta_slot, 6, &reg, &meta, &smem);
    HD_CHECK_U64(t, bsp, reg);
    HD_CHECK(t, gd_alloc_swap_open(a, gb.cta_slot, 6));
    /* session 16: A3, with a spill of its own (reserved above for no ready warp), is paired
     * with the ready B7: its registers are promised to B7 (not freed to the block, where a
     * TB's placement could take them), and B7 comes in with them in A3's slot */
    const uint32_t from7 = gb.cta_slot << 5 | 7u;
    HD_CHECK(t, gd_alloc_reserve(a, ga.cta_slot, 3, false, from7));
    gd_alloc_pair(a, ga.cta_slot, 3, from7);
    uint32_t a3reg;
    gd_alloc_where(a, ga.cta_slot, 3, &a3reg, &meta, &smem);
    const uint16_t a3slot = ga.warp_slot[3];
    struct hd_alloc_part pa3 = {3, 0, 0}, pb7 = {7, 0, 0};
    HD_CHECK(t, !sa.ops->acquire(a, &gb, &pb7)); /* (waits for A3's registers) */
    HD_CHECK(t, !gd_alloc_busy(a));               /* (and asks the block nothing) */
    sa.ops->release_part(a, &ga, &pa3);
    HD_CHECK(t, sa.ops->acquire(a, &gb, &pb7));
    gd_alloc_where(a, gb.cta_slot, 7, &reg, &meta, &smem);
    HD_CHECK_U64(t, a3reg, reg);
    HD_CHECK_U64(t, a3slot, gb.warp_slot[7]);
    uint32_t named[3], held[3]; /* every unit named once through the exchanges */
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    sa.ops->release(a, &ga);
    sa.ops->release(a, &gb);
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 0, held[0] + held[1] + held[2]);
    sa.ops->destroy(a);
    gd_bmap_destroy(&f.bm);
}

/* §2.12: a swap pairs ONE stalled warp with ONE ready warp. The slot the stalled warp gives up
 * is the paired ready warp's (gd_alloc_pair): no TB placement or other warp takes it between
 * the stalled warp's leaving and the ready warp's switch-in. (Before session 16 the slot went
 * back to the free pool, so several stalled warps left for one ready warp that could not come
 * in yet: docs/blocks/gpuduet.md "Where the cycles go".) Warp slots limit here: 8 slots, a TB
 * of 8 warps; the ready warp keeps its registers, only its meta-data moves. */
static void test_swap_pair(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator: a swap's freed slot is its paired ready warp's, no other's");
    struct hd_sm_params p = gd_test_sm(65536);
    p.max_warps = 8;
    struct gd_fix f;
    gd_fix_open(t, &p, &f);
    struct hd_sm_alloc sa = f.sa;
    struct gd_alloc *a = f.a;
    uint64_t cyc = 0;
    const struct hd_cta_demand da = {8, 256, 8 * 32 * 40, 4096, 0, 0, 0, 0};
    /* (B of another launch: each kernel's native MC is 1 here) */
    const struct hd_cta_demand db = {0, 256, 8 * 32 * 40, 4096, 1, 0, 0, 8};
    struct hd_cta_grant ga, gb;
    HD_CHECK(t, !sa.ops->can_accept(a, &da));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->accept(a, &da, &ga));
    HD_CHECK(t, !sa.ops->can_accept(a, &db));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->accept(a, &db, &gb));
    HD_CHECK_U64(t, 0, gd_alloc_free_slots(a)); /* A holds all 8 slots; B is absent */
    const uint16_t a2 = ga.warp_slot[2];
    struct hd_alloc_part pa = {2, 0, 0}, pb = {5, 0, 0}, pb6 = {6, 0, 0};
    /* A2 stalled, B5 ready: the swap pairs them */
    const uint32_t from = gb.cta_slot << 5 | 5u;
    HD_CHECK(t, gd_alloc_reserve(a, ga.cta_slot, 2, false, from));
    gd_alloc_pair(a, ga.cta_slot, 2, from);
    HD_CHECK(t, !sa.ops->acquire(a, &gb, &pb)); /* A2 still holds its slot */
    sa.ops->release_part(a, &ga, &pa);           /* A2 has left */
    HD_CHECK_U64(t, 0, gd_alloc_free_slots(a)); /* the slot is B5's: not free */
    HD_CHECK(t, !sa.ops->acquire(a, &gb, &pb6)); /* another ready warp does not get it */
    HD_CHECK(t, sa.ops->acquire(a, &gb, &pb));   /* B5 does, the very slot A2 left */
    HD_CHECK_U64(t, a2, gb.warp_slot[5]);
    HD_CHECK_U64(t, 0, gd_alloc_free_slots(a));
    /* without a pairing (a switch-out for a TB waiting for room) the slot is free */
    struct hd_alloc_part pa3 = {3, 0, 0};
    HD_CHECK(t, !gd_alloc_reserve(a, ga.cta_slot, 3, false, GD_NONE));
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_reserve(a, ga.cta_slot, 3, false, GD_NONE));
    sa.ops->release_part(a, &ga, &pa3);
    HD_CHECK_U64(t, 1, gd_alloc_free_slots(a));
    uint32_t named[3], held[3];
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    sa.ops->release(a, &ga);
    sa.ops->release(a, &gb);
    drain(t, a, &cyc);
    HD_CHECK_U64(t, 8, gd_alloc_free_slots(a));
    sa.ops->destroy(a);
    gd_bmap_destroy(&f.bm);
}

/* Session 15's cfd livelock: a switch-in's search that found no room while a present warp's
 * registers were being freed (the free queued after the search) must be asked again: its
 * failure dates from its ask, not from its answer. */
static void test_fail_after_free(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator: a search that missed a later free is asked again");
    const struct hd_sm_params p = gd_test_sm(80 * 32); /* a register file of 80 units: two warps of 40 */
    struct hd_sm_alloc sa;
    HD_CHECK(t, gd_alloc_create(&p, &sa) == 0);
    struct gd_alloc *a = sa.impl;
    struct gd_bmap bm;
    char err[512] = "";
    HD_CHECK(t, gd_alloc_make_bitmap(a, &bm, NULL, 0, err, sizeof err) == 0);
    uint64_t cyc = 0;
    drain(t, a, &cyc);
    /* TB A: 2 warps of 40 registers, both present (the register file full); TB B: 1 warp of
     * the same kernel, placed absent */
    const struct hd_cta_demand da = {2, 64, 2 * 32 * 40, 0, 0, 0, 0, 0};
    const struct hd_cta_demand db = {0, 32, 32 * 40, 0, 0, 0, 0, 1};
    struct hd_cta_grant ga, gb;
    HD_CHECK(t, !sa.ops->can_accept(a, &da));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &da));
    HD_CHECK(t, sa.ops->accept(a, &da, &ga));
    HD_CHECK(t, !sa.ops->can_accept(a, &db));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &db));
    HD_CHECK(t, sa.ops->accept(a, &db, &gb));
    uint32_t named[3], held[3];
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 80, held[0]);
    /* B0 asks for registers; before the block searches, A0 leaves and its registers are freed
     * (queued after the search): the search finds no room */
    struct hd_alloc_part pa = {0, 0, 0}, pb = {0, 0, 0};
    HD_CHECK(t, !sa.ops->acquire(a, &gb, &pb));
    sa.ops->release_part(a, &ga, &pa);
    drain(t, a, &cyc);
    HD_CHECK_U64(t, 1, bm.nospace);
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 40, held[0]);
    /* nothing else is ever freed: B0 must still come in (asked again, it finds A0's units) */
    bool in = false;
    for (int k = 0; k < 4 && !in; k++) {
        in = sa.ops->acquire(a, &gb, &pb);
        drain(t, a, &cyc);
    }
    HD_CHECK(t, in);
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 80, held[0]);
    sa.ops->release(a, &ga);
    sa.ops->release(a, &gb);
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 0, held[0] + held[1] + held[2]);
    sa.ops->destroy(a);
    gd_bmap_destroy(&bm);
}

/* Session 17: "a TB waits for room" (the CSL's plain switch-out and §2.10's L1D rule) holds only
 * while the refused TB's launch has TBs left to place. The CTA scheduler asks no more once the
 * grid is dispatched, so the refusal alone stayed set through the kernel's tail (MM and KM
 * switched warps out for nobody there, and the L1D rule fired in the tail's idle windows). */
/* Session 19: a TB switched out at TB level and back gives the block every unit of its spill run
 * (S shared-memory units + one meta-data unit per warp); freeing only S of it kept 3 units per
 * switch-in set at the block with no record naming them (histo1024: islands that split the
 * register file until an extra TB's 99-unit run found no room). */
static void test_tb_spill_return(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator: a TB's shared-memory spill run goes back whole when it returns");
    const struct hd_sm_params p = gd_test_sm(65536);
    struct gd_fix f;
    gd_fix_open(t, &p, &f);
    struct hd_sm_alloc sa = f.sa;
    struct gd_alloc *a = f.a;
    char err[512] = "";
    uint64_t cyc = 0;
    /* histo1024_r10's TB: 3 warps of 24 registers, 12 KB of shared memory (MC 8 by shared
     * memory: TB level, its shared memory spills to the register file) */
    const struct hd_cta_demand d = {3, 96, 3 * 32 * 24, 12288, 0, 0, 0, 0};
    struct hd_cta_grant g;
    HD_CHECK(t, !sa.ops->can_accept(a, &d));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &d));
    HD_CHECK(t, sa.ops->accept(a, &d, &g));
    uint32_t named[3], held[3];
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 72, held[0]); /* its registers */
    /* the CSL's reservations: the TB's run (96 + 3 units) and each warp's meta-data unit */
    HD_CHECK(t, !gd_alloc_reserve(a, g.cta_slot, 0, true, GD_NONE));
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_reserve(a, g.cta_slot, 0, true, GD_NONE));
    for (uint32_t k = 0; k < 3; k++) {
        gd_alloc_reserve(a, g.cta_slot, k, false, GD_NONE);
        drain(t, a, &cyc);
        HD_CHECK(t, gd_alloc_reserve(a, g.cta_slot, k, false, GD_NONE));
    }
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 72 + 99, held[0]); /* + the TB's run (the meta-data units: shared memory) */
    for (uint32_t k = 0; k < 3; k++) { /* its warps' moves out complete */
        struct hd_alloc_part part = {k, 0, 0};
        sa.ops->release_part(a, &g, &part);
    }
    drain(t, a, &cyc);
    for (uint32_t k = 0; k < 3; k++) { /* and back: its shared memory home again */
        struct hd_alloc_part part = {k, 0, 0};
        uint32_t waited = 0;
        while (!sa.ops->acquire(a, &g, &part) && waited++ < 1000)
            HD_CHECK(t, gd_alloc_step(a, cyc++, err, sizeof err) == 0);
        HD_CHECK(t, waited < 1000);
    }
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 72, held[0]); /* its registers only: the spill run is back (75 before) */
    HD_CHECK_U64(t, 96, held[1]);
    sa.ops->release(a, &g);
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_audit(a, named, held));
    HD_CHECK_U64(t, 0, held[0]);
    HD_CHECK_U64(t, 0, held[1]);
    sa.ops->destroy(a);
    gd_bmap_destroy(&f.bm);
}

/* Session 25: a ready TB whose switch-in has begun is no swap partner. HG's stalled TBs "swapped"
 * with a ready head that was already coming in (its shared memory asked for or brought home into
 * room another TB left), so they left for nobody (docs/gpuduet.md "Session 25: HG"). The CSL asks
 * gd_alloc_tb_arriving: false for a TB that is out and has asked nothing, true from its first
 * switch-in request on; and a TB arriving cannot take a stalled TB's home run
 * (gd_alloc_pair_tb false). */
static void test_tb_arriving(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator: a TB coming in is no swap partner (gd_alloc_tb_arriving)");
    const struct hd_sm_params p = gd_test_sm(65536);
    struct gd_fix f;
    gd_fix_open(t, &p, &f);
    struct hd_sm_alloc sa = f.sa;
    struct gd_alloc *a = f.a;
    char err[512] = "";
    uint64_t cyc = 0;
    const struct hd_cta_demand d = {3, 96, 3 * 32 * 24, 12288, 0, 0, 0, 0}; /* histo1024_r10 */
    struct hd_cta_grant ga, gb;
    HD_CHECK(t, !sa.ops->can_accept(a, &d));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &d) && sa.ops->accept(a, &d, &ga));
    HD_CHECK(t, !sa.ops->can_accept(a, &d));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &d) && sa.ops->accept(a, &d, &gb));
    HD_CHECK(t, gd_alloc_tb_arriving(a, ga.cta_slot)); /* present: its warps hold slots */
    /* TB A leaves: its run reserved, its warps' moves out complete */
    HD_CHECK(t, !gd_alloc_reserve(a, ga.cta_slot, 0, true, GD_NONE));
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_reserve(a, ga.cta_slot, 0, true, GD_NONE));
    for (uint32_t k = 0; k < 3; k++) {
        struct hd_alloc_part part = {k, 0, 0};
        sa.ops->release_part(a, &ga, &part);
    }
    drain(t, a, &cyc);
    HD_CHECK(t, !gd_alloc_tb_arriving(a, ga.cta_slot)); /* out, nothing asked: a partner */
    /* B, stalled, with its run reserved, could hand A its home (a swap) */
    HD_CHECK(t, !gd_alloc_reserve(a, gb.cta_slot, 0, true, GD_NONE));
    drain(t, a, &cyc);
    HD_CHECK(t, gd_alloc_reserve(a, gb.cta_slot, 0, true, GD_NONE));
    HD_CHECK(t, gd_alloc_pair_tb(a, gb.cta_slot, ga.cta_slot));
    gd_alloc_unpair_tb(a, gb.cta_slot);
    /* A's switch-in begins on its own (the shared memory A left is free): from its first request
     * on it is coming in, and B cannot hand it its home */
    struct hd_alloc_part p0 = {0, 0, 0};
    const bool in0 = sa.ops->acquire(a, &ga, &p0);
    HD_CHECK(t, !in0); /* (its shared memory asked of the block) */
    HD_CHECK(t, gd_alloc_tb_arriving(a, ga.cta_slot));
    HD_CHECK(t, !gd_alloc_pair_tb(a, gb.cta_slot, ga.cta_slot));
    uint32_t waited = 0;
    while (!sa.ops->acquire(a, &ga, &p0) && waited++ < 1000)
        HD_CHECK(t, gd_alloc_step(a, cyc++, err, sizeof err) == 0);
    HD_CHECK(t, waited < 1000);
    HD_CHECK(t, gd_alloc_tb_arriving(a, ga.cta_slot)); /* its first warp in */
    sa.ops->release(a, &ga);
    sa.ops->release(a, &gb);
    drain(t, a, &cyc);
    sa.ops->destroy(a);
    gd_bmap_destroy(&f.bm);
}

static bool fake_ctas_waiting(void *gpu, uint32_t launch)
{
    const bool *left = gpu;
    return launch == 1 && *left;
}

static void test_waiting_grid(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator: a TB waits for room only while its launch has TBs to place");
    const struct hd_sm_params p = gd_test_sm(80 * 32); /* two warps of 40 registers */
    struct hd_sm_alloc sa;
    HD_CHECK(t, gd_alloc_create(&p, &sa) == 0);
    struct gd_alloc *a = sa.impl;
    struct gd_bmap bm;
    char err[512] = "";
    HD_CHECK(t, gd_alloc_make_bitmap(a, &bm, NULL, 0, err, sizeof err) == 0);
    uint64_t cyc = 0;
    drain(t, a, &cyc);
    /* TB A (launch 0) takes the whole register file and shared memory; TB B (launch 1) finds
     * room neither for its registers nor for a spill */
    const struct hd_cta_demand da = {2, 64, 2 * 32 * 40, 96 * 1024, 0, 0, 0, 0};
    const struct hd_cta_demand db = {2, 64, 2 * 32 * 40, 0, 1, 0, 0, 0};
    struct hd_cta_grant ga;
    HD_CHECK(t, !sa.ops->can_accept(a, &da));
    drain(t, a, &cyc);
    HD_CHECK(t, sa.ops->can_accept(a, &da));
    HD_CHECK(t, sa.ops->accept(a, &da, &ga));
    HD_CHECK(t, !gd_alloc_waiting(a));
    for (int k = 0; k < 4; k++) {
        HD_CHECK(t, !sa.ops->can_accept(a, &db));
        drain(t, a, &cyc);
    }
    HD_CHECK(t, gd_alloc_waiting(a)); /* (no GPU to ask: the refusal alone) */
    bool left = true;
    struct hd_mech_act act;
    memset(&act, 0, sizeof act);
    act.gpu = &left;
    act.ctas_waiting = fake_ctas_waiting;
    struct gd g;
    memset(&g, 0, sizeof g);
    g.act = &act;
    gd_alloc_bind(a, &g, 0);
    HD_CHECK(t, gd_alloc_waiting(a));  /* launch 1 has TBs left: B's refusal stands */
    left = false;                      /* its grid dispatched: nobody waits any more */
    HD_CHECK(t, !gd_alloc_waiting(a));
    gd_alloc_bind(a, NULL, 0);
    sa.ops->release(a, &ga);
    drain(t, a, &cyc);
    sa.ops->destroy(a);
    gd_bmap_destroy(&bm);
}

/* Step the tables until nothing is in flight; the cycles it took. */
static uint64_t tab_drain(struct hd_test_state *t, struct gd_tab *T, uint64_t *now)
{
    char err[512] = "";
    bool busy = true;
    const uint64_t t0 = *now;
    while (busy && *now < t0 + 200) {
        busy = false;
        HD_CHECK(t, gd_tab_cycle(T, (*now)++, &busy, err, sizeof err) == 0);
    }
    HD_CHECK(t, !busy);
    return *now - t0;
}

static void test_tables(struct hd_test_state *t)
{
    hd_test_begin(t, "WCT / TBCT blocks: the view is the block's read plus the writes in flight");
    char err[512] = "";
    struct gd_wct w;
    memset(&w, 0, sizeof w);
    gd_wct_clear(&w);
    HD_CHECK(t, (w.tab = gd_tab_create(NULL, 0, 0, err, sizeof err)) != NULL);
    if (!w.tab)
        return;
    /* a TB of 3 warps of context 7 in CTA slot 2: warps 0 and 2 in slots 4 and 5, warp 1
     * placed absent (its contexts spilled) */
    const uint32_t slot[3] = {4, GD_NONE, 5}, reg[3] = {0, 0x900, 80}, meta[3] = {4, 0x901, 5};
    const uint32_t tb = gd_wct_add_tb(&w, 7, 2, 3, slot, reg, meta, 0x800);
    HD_CHECK_U64(t, 0, tb);
    /* seen at once though no edge took the writes yet */
    HD_CHECK(t, gd_w_valid(&w, 0) && gd_w_valid(&w, 1) && gd_w_valid(&w, 2));
    HD_CHECK(t, !gd_w_valid(&w, 3));
    HD_CHECK_U64(t, GD_WS_RUNNING, gd_w_state(&w, 0));
    HD_CHECK_U64(t, GD_WS_READY, gd_w_state(&w, 1)); /* §2.11: launched ready */
    HD_CHECK_U64(t, 2, gd_t_abs(&w, tb));
    HD_CHECK_U64(t, 0, gd_wct_find(&w, 7, 0));
    HD_CHECK_U64(t, 2, gd_wct_find(&w, 7, 2));
    /* warp 0 stalls, runs on (its load landed first), stalls again: three writes of one entry
     * behind its launch, taken one per edge in the order made (stall, response, stall) */
    gd_w_set_state(&w, 0, GD_WS_STALLED);
    gd_w_set_state(&w, 0, GD_WS_RUNNING);
    gd_w_set_state(&w, 0, GD_WS_STALLED);
    HD_CHECK_U64(t, GD_WS_STALLED, gd_w_state(&w, 0));
    /* entry 0: launch, stall, response, stall on edges 0-3 (the launch port takes entries 1
     * and 2 on edges 1 and 2; the read port reads 0, 1, 2 back on edges 0-2), entry 0 read
     * back at edge 3, the read's result checked at the step of cycle 4 */
    uint64_t now = 0;
    HD_CHECK_U64(t, 5, tab_drain(t, w.tab, &now));
    uint64_t c[4] = {0, 0, 0, 0};
    gd_tab_counts(w.tab, c);
    HD_CHECK_U64(t, 6, c[0]); /* 3 launches, stall, response, stall */
    HD_CHECK_U64(t, 1, c[2]);
    HD_CHECK(t, c[1] >= 3 && c[3] >= 1);
    /* nothing in flight: the view is the blocks' reads */
    HD_CHECK_U64(t, GD_WS_STALLED, gd_w_state(&w, 0));
    HD_CHECK_U64(t, GD_WS_READY, gd_w_state(&w, 1));
    HD_CHECK_U64(t, GD_WS_RUNNING, gd_w_state(&w, 2));
    const struct gd_wf f2 = gd_tab_w(w.tab, 2);
    HD_CHECK_U64(t, 80, f2.reg);
    HD_CHECK_U64(t, 5, f2.meta);
    /* warp 0 is switched out (its contexts to 0x910 / 0x911), warp 1 switched in (slot 6, its
     * registers to 120): the Absmask bits follow */
    gd_wct_left(&w, 0, 0x910, 0x911);
    gd_wct_back(&w, 1, 6, 120);
    HD_CHECK_U64(t, GD_WS_ABSENT, gd_w_state(&w, 0));
    HD_CHECK_U64(t, GD_WS_RUNNING, gd_w_state(&w, 1));
    HD_CHECK_U64(t, 1, gd_t_abs(&w, tb));
    HD_CHECK_U64(t, 6, w.slot_entry[6] == 1 ? 6 : 0);
    HD_CHECK_U64(t, GD_NONE, w.slot_entry[4]);
    gd_w_set_state(&w, 0, GD_WS_READY); /* its load returned: the memory response port */
    tab_drain(t, w.tab, &now);
    HD_CHECK_U64(t, GD_WS_READY, gd_w_state(&w, 0));
    HD_CHECK_U64(t, 0x911, gd_tab_w(w.tab, 0).meta);
    HD_CHECK_U64(t, 1, gd_t_abs(&w, tb));
    HD_CHECK(t, gd_wct_tb_all(&w, tb, GD_WS_RUNNING)); /* warps 1 and 2, the present ones */
    /* session 16: the TB's shared memory (CTA slot 2) as the allocator sees it is the TBCT's
     * Smemaddr: present at 0x800, absent once moved to the register file (0x100, a TB move
     * that keeps Absmask), present again at home; the block's read agrees after the edges */
    uint32_t sm_u = 0;
    HD_CHECK(t, gd_wct_tb_smem(&w, 2, &sm_u));
    HD_CHECK(t, hd_gpuduet_tbct_smem_present(sm_u));
    HD_CHECK(t, !gd_wct_tb_smem(&w, 3, &sm_u)); /* (no TB in CTA slot 3) */
    gd_wct_tb_smem_set(&w, 2, 0x100);
    HD_CHECK(t, gd_wct_tb_smem(&w, 2, &sm_u));
    HD_CHECK_U64(t, 0x100, sm_u);
    HD_CHECK(t, !hd_gpuduet_tbct_smem_present(sm_u));
    HD_CHECK_U64(t, 1, gd_t_abs(&w, tb));
    tab_drain(t, w.tab, &now);
    HD_CHECK_U64(t, 0x100, gd_tab_t(w.tab, tb).smem);
    gd_wct_tb_smem_set(&w, 2, 0x840);
    tab_drain(t, w.tab, &now);
    HD_CHECK(t, gd_wct_tb_smem(&w, 2, &sm_u) && hd_gpuduet_tbct_smem_present(sm_u));
    HD_CHECK_U64(t, 0x840, sm_u);
    /* the TB leaves: every entry free at once, the blocks empty after the edges */
    gd_wct_remove_tb(&w, 7);
    HD_CHECK(t, !gd_w_valid(&w, 0) && !gd_w_valid(&w, 2) && !gd_t_valid(&w, tb));
    HD_CHECK_U64(t, GD_NONE, gd_wct_find(&w, 7, 0));
    tab_drain(t, w.tab, &now);
    HD_CHECK(t, !gd_w_valid(&w, 1) && !gd_t_valid(&w, tb));
    gd_tab_destroy(w.tab);

    /* the test-only fault: the first CSL write from cycle 2 on carries a wrong state; the
     * read-back shows it and the run stops with a located message */
    struct gd_tab *T = gd_tab_create(NULL, 5, 2, err, sizeof err);
    HD_CHECK(t, T != NULL);
    if (!T)
        return;
    gd_tab_w_launch(T, 9, GD_WS_RUNNING, 0, 1);
    now = 0;
    HD_CHECK_U64(t, 2, tab_drain(t, T, &now)); /* launch and read back, no fault before 2 */
    gd_tab_w_move(T, 9, GD_WS_ABSENT, 0x900, 0x901);
    bool busy = false;
    int rc = 0;
    for (uint32_t k = 0; k < 3 && rc == 0; k++)
        rc = gd_tab_cycle(T, now++, &busy, err, sizeof err);
    HD_CHECK(t, rc == -1);
    HD_CHECK(t, strstr(err, "MISMATCH at cycle") != NULL);
    HD_CHECK(t, strstr(err, "SM 5, block gpuduet_wct, signal rd_state_o: the block gives 3, "
                            "the model's warp context table has 2") != NULL);
    gd_tab_destroy(T);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_classes(&t);
    test_l1d_rule(&t);
    test_me_trajectory(&t);
    test_plan(&t);
    test_queues(&t);
    test_bitmap_alloc(&t);
    test_tables(&t);
    test_swap_exchange(&t);
    test_swap_pair(&t);
    test_fail_after_free(&t);
    test_waiting_grid(&t);
    test_tb_spill_return(&t);
    test_tb_arriving(&t);
    return hd_test_finish(&t);
}
