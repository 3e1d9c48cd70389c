/* SPDX-License-Identifier: MIT
 * test_zorua_coord_block.c - Zorua's coordinator's C reference (tables/zorua_coord.h; digest zorua.md
 * §2.3-§2.5, §2.11): the Figure 11 walkthrough step by step (tests/unit/zorua_fig11.h, which
 * the RTL testbench replays too) with the three mapping tables (tables/zorua_map.h) driven
 * from the grants and releases (steps 6 and 10): their on-chip and swap counts follow the
 * coordinator's virtual space; Algorithm 1 over epochs (raise on idleness, lower on memory
 * pressure, hysteresis, the clamps); refused events and arrivals.
 * Sizes: the Fermi configuration ([default] of configs/rtl/zorua_coord.ini).
 */
#include "testutil.h"
#include "zorua_coord.h"
#include "zorua_fig11.h"
#include "zorua_map.h"

#include <stdio.h>
#include <string.h>

/* The SM's three tables, driven from the coordinator's outputs (the mechanism's part). */
struct tables {
    struct hd_zorua_map_state t[3]; /* enum hd_zorua_coord_res: slot, smem, reg */
};

static void table_op(struct hd_test_state *t, struct hd_zorua_map_state *m, unsigned op,
                     unsigned row, unsigned set)
{
    struct hd_zorua_map_in in = {0}, idle = {0};
    in.op_i = op;
    in.row_i = row;
    in.set_i = set;
    in.lim_i = 1023; /* the coordinator bounds the virtual space (and may force past it) */
    struct hd_zorua_map_out o;
    hd_zorua_map_ref_step(m, &in, &o);
    hd_zorua_map_ref_step(m, &idle, &o);
    HD_CHECK_U64(t, 1, o.up_ok_o);
}

static void apply(struct hd_test_state *t, struct tables *tb, const struct hd_zorua_coord_out *o)
{
    if (o->gr_v_o) {
        if (o->gr_slot_o)
            table_op(t, &tb->t[HD_ZCO_SLOT], HD_ZMAP_ALLOC, (unsigned)o->gr_warp_o, 0);
        for (unsigned k = 0; k < o->gr_ssets_o; k++)
            table_op(t, &tb->t[HD_ZCO_SMEM], HD_ZMAP_ALLOC, (unsigned)o->gr_blk_o,
                     (unsigned)o->gr_sfrom_o + k);
        for (unsigned k = 0; k < o->gr_rsets_o; k++)
            table_op(t, &tb->t[HD_ZCO_REG], HD_ZMAP_ALLOC, (unsigned)o->gr_warp_o,
                     (unsigned)o->gr_rfrom_o + k);
    }
    if (o->ev_ok_o) {
        if (o->rl_slot_o)
            table_op(t, &tb->t[HD_ZCO_SLOT], HD_ZMAP_RELEASE, (unsigned)o->rl_warp_o, 0);
        for (unsigned k = 0; k < o->rl_rsets_o; k++)
            table_op(t, &tb->t[HD_ZCO_REG], HD_ZMAP_RELEASE, (unsigned)o->rl_warp_o,
                     (unsigned)o->rl_rfrom_o + k);
        for (unsigned k = 0; k < o->rl_ssets_o; k++)
            table_op(t, &tb->t[HD_ZCO_SMEM], HD_ZMAP_RELEASE, (unsigned)o->rl_blk_o, k);
    }
}

/* The tables' allocated entries (on chip + swap) of resource r. */
static uint32_t table_alloc(const struct tables *tb, unsigned r)
{
    const struct hd_zorua_map_state *m = &tb->t[r];
    return m->cfg.phys - m->nfree + m->nswap;
}

static void fig11(struct hd_test_state *t)
{
    hd_test_begin(t, "Figure 11 walkthrough, step by step, with the three mapping tables");
    static struct zf_list l;
    zf_build(&l);
    HD_CHECK(t, l.n > 100 && l.n < ZF_MAX);
    struct hd_zorua_coord_state s;
    hd_zorua_coord_ref_reset(&s);
    struct tables tb;
    char err[120];
    HD_CHECK_U64(t, 0, hd_zorua_map_ref_init(&tb.t[HD_ZCO_SLOT], &hd_zorua_map_tmt, err, sizeof err));
    HD_CHECK_U64(t, 0, hd_zorua_map_ref_init(&tb.t[HD_ZCO_SMEM], &hd_zorua_map_smt, err, sizeof err));
    HD_CHECK_U64(t, 0, hd_zorua_map_ref_init(&tb.t[HD_ZCO_REG], &hd_zorua_map_rmt, err, sizeof err));
    unsigned forced = 0, swap_peak = 0;
    for (unsigned k = 0; k < l.n; k++) {
        struct hd_zorua_coord_out o;
        uint32_t before[3]; /* the counters after the previous edge, whose results o holds */
        memcpy(before, s.alloc, sizeof before);
        hd_zorua_coord_ref_step(&s, &l.s[k].in, &o);
        if (k > 0) {
            char msg[400];
            unsigned bad = zf_check(&l.s[k - 1], &o, msg, sizeof msg);
            if (bad)
                printf("  step %u \"%s\":%s\n", k - 1, l.s[k - 1].what, msg);
            HD_CHECK_U64(t, 0, bad);
        }
        apply(t, &tb, &o);
        forced += (unsigned)o.gr_force_o;
        for (unsigned r = 0; r < 3; r++) /* the tables hold what the coordinator counts */
            HD_CHECK_U64(t, before[r], table_alloc(&tb, r));
        if (tb.t[HD_ZCO_REG].nswap > swap_peak)
            swap_peak = tb.t[HD_ZCO_REG].nswap;
        /* Block B's 7 warps in: 276 register sets, 256 on chip and 20 in swap. */
        if (strstr(l.s[k].what, "block B warp 23: 288") && k > 0) {
            HD_CHECK_U64(t, 276, before[HD_ZCO_REG]);
            HD_CHECK_U64(t, 0, tb.t[HD_ZCO_REG].nfree);
            HD_CHECK_U64(t, 20, tb.t[HD_ZCO_REG].nswap);
            HD_CHECK_U64(t, 40, before[HD_ZCO_SMEM]);
            HD_CHECK_U64(t, 23, before[HD_ZCO_SLOT]);
        }
    }
    HD_CHECK_U64(t, 1, forced);
    HD_CHECK_U64(t, 36, swap_peak); /* 292 sets with warp 24 forced in: 256 + 36 */
    /* At the end: block B's 16 warps (192 sets), its 20 scratchpad sets, block C's warps 0
     * and 1 (the last step's edge admitted warp 1). */
    HD_CHECK_U64(t, 192 + 2 * 8, s.alloc[HD_ZCO_REG]);
    HD_CHECK_U64(t, 20, s.alloc[HD_ZCO_SMEM]);
    HD_CHECK_U64(t, 18, s.alloc[HD_ZCO_SLOT]);
    /* Block B's sets that went to swap stay there (the paper gives no fill-back policy); with
     * block A gone there are free units again, and the mechanism's fill-back (the digest's
     * migrate-on-free) swaps them in: every one gets a unit. (Block C's warp 1 is not in the
     * tables yet: its grant is the output of the next cycle.) */
    struct hd_zorua_map_state *rmt = &tb.t[HD_ZCO_REG];
    HD_CHECK_U64(t, 36, rmt->nswap);
    HD_CHECK_U64(t, 256 - (192 + 8 - 36), rmt->nfree);
    unsigned filled = 0;
    for (unsigned w = 0; w < 64; w++)
        for (unsigned k = 0; k < 16; k++)
            if (hd_zorua_map_entry(rmt, w, k, NULL) == 2) {
                table_op(t, rmt, HD_ZMAP_FILL, w, k);
                filled++;
            }
    HD_CHECK_U64(t, 36, filled);
    HD_CHECK_U64(t, 0, rmt->nswap);
    HD_CHECK_U64(t, 256 - (192 + 8), rmt->nfree);
}

static struct hd_zorua_coord_out cycle(struct hd_zorua_coord_state *s, unsigned active,
                                       unsigned idle, unsigned mem)
{
    struct hd_zorua_coord_in in = {0};
    in.active_i = active;
    in.idle_i = idle;
    in.mem_i = mem;
    struct hd_zorua_coord_out o;
    hd_zorua_coord_ref_step(s, &in, &o);
    return o;
}

/* One epoch of 2048 active cycles with `idle` idle and `mem` memory-stall cycles; returns the
 * percentage reported at its end (-1 if none). */
static int epoch(struct hd_zorua_coord_state *s, unsigned idle, unsigned mem, unsigned *n_ep)
{
    int pct = -1;
    for (unsigned c = 0; c < 2048; c++) {
        struct hd_zorua_coord_out o = cycle(s, 1, c < idle, c < mem);
        if (o.ep_v_o) {
            pct = (int)o.ep_pct_o;
            (*n_ep)++;
        }
    }
    return pct;
}

static void algorithm1(struct hd_test_state *t)
{
    hd_test_begin(t, "Algorithm 1: o_thresh over epochs");
    struct hd_zorua_coord_state s;
    hd_zorua_coord_ref_reset(&s);
    HD_CHECK_U64(t, 10, s.pct);
    HD_CHECK_U64(t, 25, s.oth[HD_ZCO_REG]); /* o_default: 10% of 256 sets */
    HD_CHECK_U64(t, 4, s.oth[HD_ZCO_SMEM]);
    HD_CHECK_U64(t, 4, s.oth[HD_ZCO_SLOT]);
    unsigned n = 0;
    /* Inactive cycles do not count. */
    for (unsigned c = 0; c < 5000; c++)
        cycle(&s, 0, 1, 0);
    HD_CHECK_U64(t, 0, s.ecnt);
    /* The first epoch's result comes out in the first cycle of the next: 100 idle cycles more
     * than the (empty) previous epoch: +4%. */
    int p = epoch(&s, 100, 0, &n);
    HD_CHECK_U64(t, 0, n); /* reported one cycle later */
    p = epoch(&s, 100, 0, &n);
    HD_CHECK_U64(t, 14, p);
    HD_CHECK_U64(t, 35, s.oth[HD_ZCO_REG]); /* 14% of 256 = 35.84 */
    HD_CHECK_U64(t, 6, s.oth[HD_ZCO_SMEM]);
    /* The second epoch had as much idleness as the first: no change. */
    p = epoch(&s, 0, 200, &n);
    HD_CHECK_U64(t, 14, p);
    /* The third: 100 fewer idle and 200 more memory cycles: -4%. */
    p = epoch(&s, 0, 200, &n);
    HD_CHECK_U64(t, 10, p);
    /* Hysteresis: a difference of 16 changes nothing, 17 does. */
    p = epoch(&s, 16, 200, &n); /* 5th epoch: di - dm = 16 - 0 */
    p = epoch(&s, 33, 200, &n); /* 6th: di - dm = 17 */
    HD_CHECK_U64(t, 10, p);     /* the 5th's result */
    p = epoch(&s, 33, 200, &n);
    HD_CHECK_U64(t, 14, p); /* the 6th's */
    /* Rising idleness saturates at PctMax (30). */
    unsigned idle = 33;
    for (unsigned e = 0; e < 6; e++) {
        idle += 100;
        p = epoch(&s, idle, 200, &n);
    }
    HD_CHECK_U64(t, ZORUA_COORD_PctMax, s.pct);
    /* Rising memory pressure walks it down to 0 and no further. */
    unsigned mem = 200;
    for (unsigned e = 0; e < 10; e++) {
        mem += 100;
        epoch(&s, idle, mem, &n);
    }
    HD_CHECK_U64(t, 0, s.pct);
    HD_CHECK_U64(t, 0, s.oth[HD_ZCO_REG]);
    HD_CHECK(t, n > 20);
}

static void refused(struct hd_test_state *t)
{
    hd_test_begin(t, "refused events and arrivals; the idle contract");
    struct hd_zorua_coord_state s;
    hd_zorua_coord_ref_reset(&s);
    struct hd_zorua_coord_in in = {0}, z = {0};
    struct hd_zorua_coord_out o;
    HD_CHECK(t, hd_zorua_coord_ref_idle(&s, &z));
    /* An event of a warp that is not schedulable. */
    in.ev_v_i = 1;
    in.ev_kind_i = HD_ZCO_EXIT;
    in.ev_warp_i = 3;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK(t, o.ev_v_o && !o.ev_ok_o);
    /* An arrival of 0 warps, of 65 (more than the logical warps), of a need past the table. */
    memset(&in, 0, sizeof in);
    in.tb_v_i = 1;
    in.active_i = 1;
    const unsigned kws[3] = {0, 64, 4}, rss[3] = {1, 1, 17};
    for (unsigned i = 0; i < 3; i++) {
        in.kwarps_i = kws[i];
        in.tb_rsets_i = rss[i];
        hd_zorua_coord_ref_step(&s, &in, &o);
        hd_zorua_coord_ref_step(&s, &z, &o);
        HD_CHECK_U64(t, i == 1, o.arr_ok_o);
    }
    /* 64 warps live: no room for another block, tb_req_o low. */
    in.kwarps_i = 1;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK(t, o.arr_v_o && !o.arr_ok_o && !o.tb_req_o);
    /* The 64 warps get in one per cycle while the 48 + 4 slots of the virtual space last. */
    for (unsigned c = 0; c < 70; c++)
        hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK_U64(t, 52, s.alloc[HD_ZCO_SLOT]); /* 48 slots + o_thresh 4; 12 warps wait */
    HD_CHECK_U64(t, 52, s.alloc[HD_ZCO_REG]);
    HD_CHECK_U64(t, 0xfffffffffffffull, hd_zco_low64(o.sched_o));
    /* Kind 3, and a phase past the table, are refused. */
    memset(&in, 0, sizeof in);
    in.ev_v_i = 1;
    in.ev_kind_i = 3;
    in.ev_warp_i = 0;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK(t, o.ev_v_o && !o.ev_ok_o);
    in.ev_kind_i = HD_ZCO_PHASE;
    in.ev_rsets_i = 17;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK(t, o.ev_v_o && !o.ev_ok_o);
    in.ev_rsets_i = 0;
    in.ev_ssets_i = 49;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK(t, o.ev_v_o && !o.ev_ok_o);
}

/* Session 15: the configurations at run time. The built one is what reset gives; Kepler's (96
 * logical warps, 7-bit warp indices) takes an arrival of 96 warps and a 96-bit mask; sizes past
 * the maxima or their own widths are refused with a message. */
static void configs(struct hd_test_state *t)
{
    hd_test_begin(t, "configurations at run time");
    static struct hd_zorua_coord_state s, r;
    const struct hd_zorua_coord_cfg built = HD_ZCO_CFG(ZORUA_COORD_);
    hd_zorua_coord_ref_reset(&r);
    char err[160] = "";
    HD_CHECK_U64(t, 0, (uint64_t)hd_zorua_coord_ref_init(&s, &built, err, sizeof err));
    HD_CHECK(t, memcmp(&s, &r, sizeof s) == 0);
    struct hd_zorua_coord_cfg k = built;
    k.warps = 96;
    k.ww = 7;
    k.phys_reg = 512;
    k.phys_slot = 64;
    k.floor = 13;
    HD_CHECK_U64(t, 0, (uint64_t)hd_zorua_coord_ref_init(&s, &k, err, sizeof err));
    HD_CHECK_U64(t, 51, s.oth[HD_ZCO_REG]); /* 10 % of 512 */
    HD_CHECK_U64(t, 6, s.oth[HD_ZCO_SLOT]); /* 10 % of 64 */
    struct hd_zorua_coord_in in, z;
    struct hd_zorua_coord_out o;
    memset(&in, 0, sizeof in);
    memset(&z, 0, sizeof z);
    in.tb_v_i = 1;
    in.kwarps_i = 96;
    in.tb_rsets_i = 1;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK(t, o.arr_v_o && o.arr_ok_o);
    HD_CHECK_U64(t, 96, hd_zco_count(o.arr_wmask_o));
    HD_CHECK(t, hd_zco_bit(o.arr_wmask_o, 95) && !hd_zco_bit(o.arr_wmask_o, 96));
    for (int c = 0; c < 100; c++) /* one admission per cycle: 70 fit 64 + 6 slots */
        hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK_U64(t, 70, hd_zco_count(o.sched_o));
    struct hd_zorua_coord_cfg bad = k;
    bad.warps = 129;
    bad.ww = 8;
    bad.kww = 8;
    HD_CHECK(t, hd_zorua_coord_ref_init(&s, &bad, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "zorua_coord: configuration refused: 1..128 logical warps") != NULL);
    bad = k;
    bad.ww = 6; /* 96 warps need 7 bits */
    HD_CHECK(t, hd_zorua_coord_ref_init(&s, &bad, err, sizeof err) == -1);
    bad = k;
    bad.ssw = 5; /* 48 scratchpad sets need 6 bits */
    HD_CHECK(t, hd_zorua_coord_ref_init(&s, &bad, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "scratchpad-set widths") != NULL);
    bad = k;
    bad.cw = 10; /* 96 x 16 register sets need 11 bits */
    HD_CHECK(t, hd_zorua_coord_ref_init(&s, &bad, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "counter, epoch and percentage widths") != NULL);
}

/* Session 19's two readings (docs/zorua.md "Session 19: the decisions"). vreq_i (L206, L237):
 * a block is requested only when its warps fit the thread slots' virtual space beside the live
 * warps: after a 32-warp block on Fermi (48 slots, o_thresh 10 % = 4), 32 + 32 > 52 holds a
 * second 32-warp block that 32 free logical warps would allow; 32 + 16 <= 52 does not. fbar_i
 * (L249): Figure 11's barrier, where block A's warps wait at a barrier that completes without
 * new resources, forces warp 24 in only when the floor counts schedulable warps alone. */
static void readings(struct hd_test_state *t)
{
    hd_test_begin(t, "session 19: the block request in the virtual space; the floor and barriers");
    struct hd_zorua_coord_state s;
    struct hd_zorua_coord_in in, z;
    struct hd_zorua_coord_out o;
    hd_zorua_coord_ref_reset(&s);
    memset(&z, 0, sizeof z);
    z.active_i = 1;
    z.kwarps_i = 32;
    z.vreq_i = 1;
    hd_zorua_coord_ref_step(&s, &z, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK_U64(t, 1, o.tb_req_o); /* nothing live: 32 <= 52 */
    in = z;
    in.tb_v_i = 1;
    in.tb_rsets_i = 1;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &z, &o);
    HD_CHECK(t, o.arr_v_o && o.arr_ok_o);
    HD_CHECK_U64(t, 0, o.tb_req_o); /* 32 live + 32 > 48 + 4 */
    in = z;
    in.vreq_i = 0;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &in, &o);
    HD_CHECK_U64(t, 1, o.tb_req_o); /* 32 free logical warps */
    in = z;
    in.kwarps_i = 16;
    hd_zorua_coord_ref_step(&s, &in, &o);
    hd_zorua_coord_ref_step(&s, &in, &o);
    HD_CHECK_U64(t, 1, o.tb_req_o); /* 32 + 16 <= 52 */
    HD_CHECK(t, hd_zorua_coord_room(32, 16, 64, true, 48, 4, true));
    HD_CHECK(t, !hd_zorua_coord_room(32, 21, 64, true, 48, 4, true));
    HD_CHECK(t, hd_zorua_coord_room(32, 21, 64, true, 48, 4, false));
    HD_CHECK(t, !hd_zorua_coord_room(60, 5, 64, true, 48, 30, false));
    HD_CHECK(t, !hd_zorua_coord_room(0, 4, 64, false, 48, 4, false));
    HD_CHECK(t, !hd_zorua_coord_room(0, 0, 64, true, 48, 4, true));
    static struct zf_list l;
    zf_build(&l);
    for (unsigned fbar = 0; fbar < 2; fbar++) {
        unsigned forced = 0, bars = 0;
        hd_zorua_coord_ref_reset(&s);
        for (unsigned k = 0; k < l.n; k++) {
            in = l.s[k].in;
            in.fbar_i = fbar;
            hd_zorua_coord_ref_step(&s, &in, &o);
            forced += o.gr_v_o && o.gr_force_o;
            bars += o.rl_bar_o;
        }
        HD_CHECK_U64(t, fbar ? 0 : 1, forced);
        HD_CHECK_U64(t, 1, bars); /* block A's barrier completes either way */
    }
}

int main(void)
{
    struct hd_test_state t = {0};
    fig11(&t);
    readings(&t);
    algorithm1(&t);
    refused(&t);
    configs(&t);
    return hd_test_finish(&t);
}
