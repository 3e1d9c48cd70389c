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
    HD_CHECK(t, zcl_add_sm(L, 1, 10, 4, 30, 16, 2048, err, sizeof err) == 0);
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
    HD_CHECK(t, zcl_add_sm(L, 0, 10, 4, 30, 16, 2048, err, sizeof err) == 0);
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
    HD_CHECK(t, zcl_fits(256, 48, 48));  /* Fermi */
    HD_CHECK(t, !zcl_fits(512, 48, 64)); /* Kepler: not stepped */
    HD_CHECK(t, !zcl_fits(512, 64, 64)); /* Maxwell */
    HD_CHECK(t, zcl_keys(10, 4, 30, 16, 2048));
    HD_CHECK(t, !zcl_keys(10, 4, 40, 16, 2048));
    struct zcl *L = zcl_create(1, &no_factory);
    HD_CHECK(t, zcl_add_sm(L, 0, 10, 4, 40, 16, 2048, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "key 'in_loop' ([zorua]): the zorua_coord block's o_thresh "
                            "controller is built for o_default_pct = 10, o_step_pct = 4, "
                            "o_max_pct = 30") != NULL);
    HD_CHECK(t, strstr(err, "this run has 10, 4, 40, 16, 2048") != NULL);
    HD_CHECK(t, zcl_add_sm(L, 1, 10, 4, 30, 16, 2048, err, sizeof err) == -1); /* no SM 1 */
    zcl_destroy(L);
}

int main(void)
{
    struct hd_test_state t = {0};
    in_step(&t);
    fault(&t);
    sizes(&t);
    return hd_test_finish(&t);
}
