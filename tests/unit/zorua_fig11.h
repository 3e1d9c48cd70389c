/* SPDX-License-Identifier: MIT
 * zorua_fig11.h - Zorua's Figure 11 walkthrough (digest zorua.md §2.3, paper L229-L239) as
 * coordinator stimulus with the expected result of every step, shared by the C reference's unit
 * test (tests/unit/test_zorua_coord.c) and the RTL testbench (testbenches/tb_zorua_coord.cpp,
 * which drives the same cycles into the RTL and compares it with the reference every cycle).
 * For the Fermi configuration of configs/rtl/zorua_coord.ini ([default]: 256 register sets,
 * 48 scratchpad sets, 48 warp slots, o_thresh 10% = 25 / 4 / 4, floor 10 warps), with vreq_i and
 * fbar_i 0 (blocks requested while logical warps are free; the floor counts schedulable warps
 * only: the barrier step below shows it firing; under fbar_i it does not, block A's barrier
 * completing without new resources: test_zorua_coord_block.c "session 19").
 *
 * The steps (one cycle each; a step's expectations are the outputs of the next cycle):
 *   (1)  the SM asks for a block; block A (16 warps, 12 register sets = 48 registers per
 *        thread, 20 KB of scratchpad) arrives: logical block 0, warps 0-15, thread queue
 *   (2)-(7) one warp per cycle traverses the queues and acquires what it misses: warp 0 a slot,
 *        the block's 20 scratchpad sets and 12 register sets; warps 1-15 a slot and 12 sets;
 *        each becomes schedulable
 *   block B (same shape): warps 16-22 fit the register virtual space (192 + 7 x 12 = 276 <=
 *        256 + 25); warps 23-31 do not (288 > 281) and wait in the thread queue, tried once
 *   (8)-(10) warp 0's phase specifier: 4 register sets live; sets 4-11 released (8 sets), the
 *        warp waits in the register queue; the event retries every waiting warp: warp 0 first
 *        (register queue), nothing to acquire; then warp 23 fits (268 + 12 = 280); 24-31 do not
 *   barrier: block A's warps arrive one by one, held in the thread/barrier queue; when only 9
 *        warps are left schedulable (< the floor of 10, L249) warp 24 is admitted regardless
 *        (292 sets in the virtual space); the 16th releases them; they return through the
 *        queues with what they hold
 *   exit (event C): block A's warps finish, each releasing its slot and register sets; the last
 *        releases the block's scratchpad (L237); warps 25-31 get in as room appears; then
 *        block C arrives and takes logical block 0 and warps 0-15 again
 */
#ifndef HD_ZORUA_FIG11_H
#define HD_ZORUA_FIG11_H

#include "zorua_coord.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum zf_field {
    ZF_TB_REQ, ZF_ARR_OK, ZF_ARR_BLK, ZF_ARR_WMASK, ZF_GR_V, ZF_GR_WARP, ZF_GR_SLOT,
    ZF_GR_SSETS, ZF_GR_RSETS, ZF_GR_RFROM, ZF_GR_FORCE, ZF_EV_OK, ZF_RL_RFROM, ZF_RL_RSETS,
    ZF_RL_SSETS, ZF_RL_SLOT, ZF_RL_BAR, ZF_SCHED, ZF_N
};

static const char *const zf_names[ZF_N] = {
    "tb_req_o", "arr_ok_o", "arr_blk_o", "arr_wmask_o", "gr_v_o", "gr_warp_o", "gr_slot_o",
    "gr_ssets_o", "gr_rsets_o", "gr_rfrom_o", "gr_force_o", "ev_ok_o", "rl_rfrom_o",
    "rl_rsets_o", "rl_ssets_o", "rl_slot_o", "rl_bar_o", "sched_o"};

struct zf_step {
    char what[64];
    struct hd_zorua_coord_in in;
    uint8_t check[ZF_N];
    uint64_t want[ZF_N];
};

#define ZF_MAX 200

struct zf_list {
    struct zf_step s[ZF_MAX];
    unsigned n;
};

static uint64_t zf_get(const struct hd_zorua_coord_out *o, unsigned f)
{
    switch (f) {
    case ZF_TB_REQ: return o->tb_req_o;
    case ZF_ARR_OK: return o->arr_ok_o;
    case ZF_ARR_BLK: return o->arr_blk_o;
    case ZF_ARR_WMASK: return hd_zco_low64(o->arr_wmask_o);
    case ZF_GR_V: return o->gr_v_o;
    case ZF_GR_WARP: return o->gr_warp_o;
    case ZF_GR_SLOT: return o->gr_slot_o;
    case ZF_GR_SSETS: return o->gr_ssets_o;
    case ZF_GR_RSETS: return o->gr_rsets_o;
    case ZF_GR_RFROM: return o->gr_rfrom_o;
    case ZF_GR_FORCE: return o->gr_force_o;
    case ZF_EV_OK: return o->ev_ok_o;
    case ZF_RL_RFROM: return o->rl_rfrom_o;
    case ZF_RL_RSETS: return o->rl_rsets_o;
    case ZF_RL_SSETS: return o->rl_ssets_o;
    case ZF_RL_SLOT: return o->rl_slot_o;
    case ZF_RL_BAR: return o->rl_bar_o;
    default: return hd_zco_low64(o->sched_o);
    }
}

static struct zf_step *zf_add(struct zf_list *l, const char *what)
{
    struct zf_step *s = &l->s[l->n < ZF_MAX ? l->n++ : ZF_MAX - 1];
    memset(s, 0, sizeof *s);
    snprintf(s->what, sizeof s->what, "%s", what);
    s->in.active_i = 1;
    s->in.kwarps_i = 16;
    return s;
}

static void zf_want(struct zf_step *s, unsigned f, uint64_t v)
{
    s->check[f] = 1;
    s->want[f] = v;
}

static void zf_grant(struct zf_step *s, unsigned warp, unsigned slot, unsigned ssets,
                     unsigned rsets)
{
    zf_want(s, ZF_GR_V, 1);
    zf_want(s, ZF_GR_WARP, warp);
    zf_want(s, ZF_GR_SLOT, slot);
    zf_want(s, ZF_GR_SSETS, ssets);
    zf_want(s, ZF_GR_RSETS, rsets);
    zf_want(s, ZF_GR_FORCE, 0);
}

static struct zf_step *zf_event(struct zf_list *l, const char *what, unsigned kind, unsigned warp,
                                unsigned rsets, unsigned ssets)
{
    struct zf_step *s = zf_add(l, what);
    s->in.ev_v_i = 1;
    s->in.ev_kind_i = kind;
    s->in.ev_warp_i = warp;
    s->in.ev_rsets_i = rsets;
    s->in.ev_ssets_i = ssets;
    zf_want(s, ZF_EV_OK, 1);
    return s;
}

/* The walkthrough's steps into l. */
static void zf_build(struct zf_list *l)
{
    char w[64];
    l->n = 0;
    struct zf_step *s = zf_add(l, "reset, SM idle");
    s->in.active_i = 0;
    s->in.kwarps_i = 0;
    zf_want(s, ZF_TB_REQ, 0);
    zf_want(s, ZF_SCHED, 0);
    s = zf_add(l, "(1) kernel running: room for a block of 16 warps");
    zf_want(s, ZF_TB_REQ, 1);
    s = zf_add(l, "(1) block A arrives");
    s->in.tb_v_i = 1;
    s->in.tb_rsets_i = 12;
    s->in.tb_ssets_i = 20;
    zf_want(s, ZF_ARR_OK, 1);
    zf_want(s, ZF_ARR_BLK, 0);
    zf_want(s, ZF_ARR_WMASK, 0xffffu);
    zf_want(s, ZF_GR_V, 0);
    for (unsigned k = 0; k < 16; k++) {
        snprintf(w, sizeof w, "(2)-(7) block A warp %u acquires, schedulable", k);
        s = zf_add(l, w);
        zf_grant(s, k, 1, k == 0 ? 20 : 0, 12);
        zf_want(s, ZF_GR_RFROM, 0);
        zf_want(s, ZF_SCHED, ((uint64_t)1 << (k + 1)) - 1u);
    }
    s = zf_add(l, "(1) block B arrives");
    s->in.tb_v_i = 1;
    s->in.tb_rsets_i = 12;
    s->in.tb_ssets_i = 20;
    zf_want(s, ZF_ARR_OK, 1);
    zf_want(s, ZF_ARR_BLK, 1);
    zf_want(s, ZF_ARR_WMASK, 0xffff0000u);
    zf_want(s, ZF_GR_V, 0);
    for (unsigned k = 16; k < 23; k++) {
        snprintf(w, sizeof w, "block B warp %u fits the virtual space", k);
        s = zf_add(l, w);
        zf_grant(s, k, 1, k == 16 ? 20 : 0, 12);
    }
    for (unsigned k = 23; k < 32; k++) {
        snprintf(w, sizeof w, "block B warp %u: 288 > 256 + 25, waits", k);
        s = zf_add(l, w);
        zf_want(s, ZF_GR_V, 0);
        zf_want(s, ZF_SCHED, 0x7fffffu);
    }
    s = zf_add(l, "nothing to try");
    zf_want(s, ZF_GR_V, 0);
    s = zf_event(l, "(8)-(10) warp 0's phase: 4 sets live, 8 released", HD_ZCO_PHASE, 0, 4, 20);
    zf_want(s, ZF_RL_RFROM, 4);
    zf_want(s, ZF_RL_RSETS, 8);
    zf_want(s, ZF_SCHED, 0x7ffffeu);
    s = zf_add(l, "warp 0 through the register queue first");
    zf_grant(s, 0, 0, 0, 0);
    zf_want(s, ZF_SCHED, 0x7fffffu);
    s = zf_add(l, "warp 23 fits now (268 + 12 = 280)");
    zf_grant(s, 23, 1, 0, 12);
    zf_want(s, ZF_SCHED, 0xffffffu);
    for (unsigned k = 24; k < 32; k++) {
        snprintf(w, sizeof w, "warp %u still waits (292 > 281)", k);
        s = zf_add(l, w);
        zf_want(s, ZF_GR_V, 0);
    }
    for (unsigned k = 0; k < 16; k++) {
        snprintf(w, sizeof w, "barrier: warp %u arrives%s", k, k == 15 ? ", the block's last" : "");
        s = zf_event(l, w, HD_ZCO_BARRIER, k, 0, 0);
        zf_want(s, ZF_RL_BAR, k == 15);
        if (k < 15) {
            zf_want(s, ZF_GR_V, 0);
            zf_want(s, ZF_SCHED, 0xffffffu & ~(((uint64_t)2 << k) - 1u));
        } else { /* 9 schedulable warps < the floor of 10: warp 24 is forced in (L249) */
            zf_want(s, ZF_GR_V, 1);
            zf_want(s, ZF_GR_WARP, 24);
            zf_want(s, ZF_GR_FORCE, 1);
            zf_want(s, ZF_GR_RSETS, 12);
            zf_want(s, ZF_SCHED, 0x1ff0000u);
        }
    }
    for (unsigned k = 0; k < 16; k++) {
        snprintf(w, sizeof w, "barrier done: warp %u schedulable again", k);
        s = zf_add(l, w);
        zf_grant(s, k, 0, 0, 0);
    }
    for (unsigned k = 25; k < 32; k++) {
        snprintf(w, sizeof w, "warp %u tried again, still waits (304 > 281)", k);
        s = zf_add(l, w);
        zf_want(s, ZF_GR_V, 0);
        zf_want(s, ZF_SCHED, 0x1ffffffu);
    }
    for (unsigned k = 0; k < 16; k++) {
        snprintf(w, sizeof w, "(C) warp %u exits%s", k, k == 15 ? ": block A ends" : "");
        s = zf_event(l, w, HD_ZCO_EXIT, k, 0, 0);
        zf_want(s, ZF_RL_SLOT, 1);
        zf_want(s, ZF_RL_RSETS, k == 0 ? 4 : 12);
        zf_want(s, ZF_RL_SSETS, k == 15 ? 20 : 0);
    }
    for (unsigned k = 0; k < 12; k++) {
        s = zf_add(l, "warps 25-31 get in as room appears");
        if (k == 11)
            zf_want(s, ZF_SCHED, 0xffff0000u);
    }
    s = zf_add(l, "(1) block C arrives: logical block 0, warps 0-15");
    s->in.tb_v_i = 1;
    s->in.tb_rsets_i = 8;
    s->in.tb_ssets_i = 0;
    zf_want(s, ZF_ARR_OK, 1);
    zf_want(s, ZF_ARR_BLK, 0);
    zf_want(s, ZF_ARR_WMASK, 0xffffu);
    s = zf_add(l, "block C warp 0 acquires (no scratchpad)");
    zf_grant(s, 0, 1, 0, 8);
    zf_add(l, "end");
}

/* Checks step k's expectations against the outputs of the cycle after it; returns the number
 * of mismatches, described in msg. */
static unsigned zf_check(const struct zf_step *s, const struct hd_zorua_coord_out *o, char *msg,
                         size_t n)
{
    unsigned bad = 0;
    size_t at = 0;
    msg[0] = 0;
    for (unsigned f = 0; f < ZF_N; f++) {
        uint64_t got = zf_get(o, f);
        if (!s->check[f] || got == s->want[f])
            continue;
        bad++;
        if (at < n) {
            int k = snprintf(msg + at, n - at, " %s=%llu (want %llu)", zf_names[f],
                             (unsigned long long)got, (unsigned long long)s->want[f]);
            at += k > 0 ? (size_t)k : 0;
        }
    }
    return bad;
}

#endif
