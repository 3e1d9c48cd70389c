/* SPDX-License-Identifier: MIT
 * test_zorua_coordloop.c - Zorua's coordinator block in the timing loop
 * (model/mech/zorua/zorua_coordloop.h; Zorua Sec. 3.2-3.5, Algorithm 1): the model's
 * coordinator (the zorua_coord block's C reference) and the block instance (the C reference
 * through the factory) take the same inputs every cycle (an arrival of 8 warps, their phase
 * events and exits, 2048-cycle epochs of idle and memory bits) and give the same outputs,
 * admissions and Algorithm 1's epochs included; a corrupted expectation stops with the located
 * message; sizes and keys the block is not built for are refused or not stepped.
 */
#include "testutil.h"
#include "zorua_coordloop.h"

#include <string.h>

static const struct hd_hw_factory *const no_factory = NULL; /* the C references */

/* The inputs of cycle c: an arrival at 2, a phase event of each of its warps from 40 on, their
 * exits from 200 on, and the controller's bits (idle in the first half of each epoch, memory
 * stalls in a quarter: the epochs' counts differ, so o_thresh moves). */
static void inputs(uint64_t c, struct hd_zorua_coord_in *in)
{
    memset(in, 0, sizeof *in);
    in->active_i = 1;
    in->kwarps_i = 8;
    in->idle_i = (c % 2048) < (c < 2048 ? 1500u : 100u);
    in->mem_i = !in->idle_i && (c % 2048) > 1800;
    if (c == 2) {
        in->tb_v_i = 1;
        in->tb_rsets_i = 6;
        in->tb_ssets_i = 2;
    }
    if (c >= 40 && c < 48) {
        in->ev_v_i = 1;
        in->ev_kind_i = 0;
        in->ev_warp_i = c - 40;
        in->ev_rsets_i = 3;
        in->ev_ssets_i = 2;
    }
    if (c >= 200 && c < 208) {
        in->ev_v_i = 1;
        in->ev_kind_i = 2;
        in->ev_warp_i = c - 200;
    }
}

static void in_step(struct hd_test_state *t)
{
    hd_test_begin(t, "the coordinator in the loop, in step");
    char err[512] = "";
    struct zcl *L = zcl_create(2, &no_factory);
    HD_CHECK(t, L != NULL);
    HD_CHECK(t, zcl_add_sm(L, 1, "zorua_coord", 10, 4, 30, 16, 2048, err, sizeof err) == 0);
    HD_CHECK(t, zcl_make(L, err, sizeof err) == 0);
    struct hd_zorua_coord_state ref;
    hd_zorua_coord_ref_reset(&ref);
    uint64_t grants = 0, exits = 0, epochs = 0, fails = 0;
    uint32_t pcts[4] = {0};
    for (uint64_t c = 0; c < 3 * 2048 + 8; c++) {
        struct hd_zorua_coord_in in;
        struct hd_zorua_coord_out want, got;
        inputs(c, &in);
        hd_zorua_coord_ref_step(&ref, &in, &want);
        fails += zcl_step(L, 1, c, &in, &want, &got, err, sizeof err) != 0;
        fails += memcmp(&got, &want, sizeof got) != 0;
        grants += got.gr_v_o;
        exits += got.ev_v_o && got.rl_slot_o;
        if (got.ep_v_o && epochs < 4)
            pcts[epochs++] = (uint32_t)got.ep_pct_o;
    }
    HD_CHECK_U64(t, 0, fails);
    HD_CHECK_U64(t, 16, grants); /* 8 at arrival, 8 after their phase events */
    HD_CHECK_U64(t, 8, exits);
    HD_CHECK_U64(t, 3, epochs);
    /* Algorithm 1 on the epochs' counts against the previous epoch's: idle 1500 vs memory 247
       (up), then idle 100 vs 1500 before (down), then the same counts again (held) */
    HD_CHECK_U64(t, 14, pcts[0]);
    HD_CHECK_U64(t, 10, pcts[1]);
    HD_CHECK_U64(t, 10, pcts[2]);
    /* an SM not in the loop: the model's outputs come back */
    struct hd_zorua_coord_in in;
    struct hd_zorua_coord_out want, got;
    inputs(0, &in);
    memset(&want, 0, sizeof want);
    want.ep_pct_o = 7;
    HD_CHECK(t, zcl_step(L, 0, 1, &in, &want, &got, err, sizeof err) == 0);
    HD_CHECK_U64(t, 7, got.ep_pct_o);
    zcl_destroy(L);
}

static void fault(struct hd_test_state *t)
{
    hd_test_begin(t, "a corrupted expectation is caught");
    char err[512] = "";
    struct zcl *L = zcl_create(1, &no_factory);
    HD_CHECK(t, L != NULL);
    HD_CHECK(t, zcl_add_sm(L, 0, "zorua_coord", 10, 4, 30, 16, 2048, err, sizeof err) == 0);
    HD_CHECK(t, zcl_make(L, err, sizeof err) == 0);
    struct hd_zorua_coord_state ref;
    hd_zorua_coord_ref_reset(&ref);
    int r = 0;
    uint64_t c = 0;
    for (; c < 2048 + 8 && r == 0; c++) {
        struct hd_zorua_coord_in in;
        struct hd_zorua_coord_out want, got;
        inputs(c, &in);
        hd_zorua_coord_ref_step(&ref, &in, &want);
        if (want.ep_v_o)
            want.ep_pct_o ^= 1u; /* the model's o_thresh at the first epoch, corrupted */
        r = zcl_step(L, 0, c, &in, &want, &got, err, sizeof err);
    }
    HD_CHECK(t, r == -1);
    HD_CHECK_U64(t, 2049, c); /* the epoch's last cycle is 2047: its result shows at 2048 */
    HD_CHECK(t, strstr(err, "MISMATCH at cycle 2048, SM 0, block zorua_coord (sm0.zorua_coord, "
                            "the coordinator), port ep_pct_o = 14 (0xe), the model's "
                            "coordinator gave 15 (0xf) at an epoch's end") != NULL);
    zcl_destroy(L);
}

static void sizes(struct hd_test_state *t)
{
    hd_test_begin(t, "sizes and keys");
    char err[512] = "";
    HD_CHECK(t, zcl_fits(256, 48, 48)); /* Fermi */
    HD_CHECK(t, zcl_fits(512, 48, 64)); /* Kepler (session 15: 96 logical warps) */
    HD_CHECK(t, zcl_fits(512, 64, 64)); /* Maxwell */
    HD_CHECK(t, !zcl_fits(512, 48, 48));
    struct hd_zorua_coord_cfg c;
    const char *k = zcl_kind(64, 16, 256, 48, 48, 16, 48, 10, &c);
    HD_CHECK(t, k && strcmp(k, "zorua_coord") == 0 && c.warps == 64 && c.phys_slot == 48);
    k = zcl_kind(96, 16, 512, 48, 64, 16, 48, 13, &c);
    HD_CHECK(t, k && strcmp(k, "zorua_coord:kepler") == 0 && c.warps == 96 && c.ww == 7 &&
                    c.phys_reg == 512 && c.smem_sets == 48);
    k = zcl_kind(96, 16, 512, 64, 64, 16, 64, 13, &c);
    HD_CHECK(t, k && strcmp(k, "zorua_coord:maxwell") == 0 && c.phys_smem == 64 &&
                    c.ssw == 7);
    HD_CHECK(t, zcl_kind(64, 16, 512, 48, 64, 16, 48, 13, NULL) == NULL); /* 64 logical: none */
    HD_CHECK(t, zcl_kind(96, 16, 512, 48, 64, 16, 48, 10, NULL) == NULL); /* another floor */
    HD_CHECK(t, zcl_keys(10, 4, 30, 16, 2048));
    HD_CHECK(t, !zcl_keys(10, 4, 40, 16, 2048));
    struct zcl *L = zcl_create(1, &no_factory);
    HD_CHECK(t, zcl_add_sm(L, 0, "zorua_coord", 10, 4, 40, 16, 2048, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "key 'in_loop' ([zorua]): the zorua_coord block's o_thresh "
                            "controller is built for o_default_pct = 10, o_step_pct = 4, "
                            "o_max_pct = 30") != NULL);
    HD_CHECK(t, strstr(err, "this run has 10, 4, 40, 16, 2048") != NULL);
    HD_CHECK(t, zcl_add_sm(L, 1, "zorua_coord", 10, 4, 30, 16, 2048, err, sizeof err) == -1); /* no SM 1 */
    zcl_destroy(L);
}

/* Kepler's coordinator (session 15): the instance kind of 96 logical warps through the factory
 * against the reference in the same configuration. Blocks of 64 and 32 warps of 4 register sets
 * arrive at cycles 2 and 3: the warp slots' virtual space is 64 + 10 % of 64 = 70, so warps 0-69
 * are admitted (one per cycle) and 70-95 wait; the second block's mask is bits 64-95 and the
 * schedulable bits reach above bit 63. A corrupted bit 80 of sched_o is caught, in hex. */
static void kepler(struct hd_test_state *t)
{
    hd_test_begin(t, "Kepler's coordinator (96 logical warps) in the loop");
    char err[512] = "";
    struct hd_zorua_coord_cfg c;
    const char *k = zcl_kind(96, 16, 512, 48, 64, 16, 48, 13, &c);
    HD_CHECK(t, k != NULL);
    if (!k)
        return;
    struct zcl *L = zcl_create(1, &no_factory);
    HD_CHECK(t, L != NULL);
    HD_CHECK(t, zcl_add_sm(L, 0, k, 10, 4, 30, 16, 2048, err, sizeof err) == 0);
    HD_CHECK(t, zcl_make(L, err, sizeof err) == 0);
    struct hd_zorua_coord_state ref;
    HD_CHECK(t, hd_zorua_coord_ref_init(&ref, &c, err, sizeof err) == 0);
    uint64_t grants = 0, fails = 0, arr = 0;
    uint32_t mask2[HD_ZCO_MWORDS] = {0}, sched[HD_ZCO_MWORDS] = {0};
    for (uint64_t cy = 0; cy < 200; cy++) {
        struct hd_zorua_coord_in in;
        struct hd_zorua_coord_out want, got;
        memset(&in, 0, sizeof in);
        in.active_i = 1;
        in.kwarps_i = cy == 3 ? 32 : 64;
        if (cy == 2 || cy == 3) {
            in.tb_v_i = 1;
            in.tb_rsets_i = 4;
        }
        hd_zorua_coord_ref_step(&ref, &in, &want);
        fails += zcl_step(L, 0, cy, &in, &want, &got, err, sizeof err) != 0;
        fails += memcmp(&got, &want, sizeof got) != 0;
        grants += got.gr_v_o;
        if (got.arr_v_o && got.arr_ok_o && ++arr == 2)
            memcpy(mask2, got.arr_wmask_o, sizeof mask2);
        memcpy(sched, got.sched_o, sizeof sched);
    }
    HD_CHECK_U64(t, 0, fails);
    HD_CHECK_U64(t, 2, arr);
    HD_CHECK_U64(t, 70, grants);
    HD_CHECK_U64(t, 0, mask2[0] | mask2[1]);
    HD_CHECK_U64(t, 0xffffffffu, mask2[2]);
    HD_CHECK_U64(t, 70, hd_zco_count(sched));
    HD_CHECK(t, hd_zco_bit(sched, 69) && !hd_zco_bit(sched, 70));
    HD_CHECK_U64(t, 70, ref.alloc[HD_ZCO_SLOT]);
    struct hd_zorua_coord_in in;
    struct hd_zorua_coord_out want, got;
    memset(&in, 0, sizeof in);
    in.active_i = 1;
    hd_zorua_coord_ref_step(&ref, &in, &want);
    want.sched_o[2] ^= 1u << 16; /* warp 80 */
    HD_CHECK(t, zcl_step(L, 0, 200, &in, &want, &got, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "MISMATCH at cycle 200, SM 0, block zorua_coord:kepler "
                            "(sm0.zorua_coord, the coordinator), port sched_o = "
                            "0x0000003fffffffffffffffff, the model's coordinator gave "
                            "0x0001003fffffffffffffffff") != NULL);
    zcl_destroy(L);
}

int main(void)
{
    struct hd_test_state t = {0};
    in_step(&t);
    fault(&t);
    sizes(&t);
    kepler(&t);
    return hd_test_finish(&t);
}
