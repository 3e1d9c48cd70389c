/* SPDX-License-Identifier: MIT
 * test_zorua_decloop.c - Zorua's phase-specifier decoder in the timing loop
 * (model/mech/zorua/zorua_decloop.h; Zorua Sec. 3.6, L310-L319): the model's decoder (the
 * zorua_phase block's C reference) turns an arrival, §2.9's phase specifiers (NQU's scratchpad
 * 0 B -> 4224 B -> 384 B: 0, 5, 1 sets; DCT's registers 20 -> 40 -> 20: 5, 10, 5 sets) and an
 * exit into the coordinator's events; the block instances (C references through the factory)
 * replay them one per cycle, lagging while entries wait, with 0 mismatches; a corrupted
 * expectation stops with the located message; sizes the block is not built for are refused.
 */
#include "testutil.h"
#include "zorua_decloop.h"

#include <string.h>

static const struct hd_hw_factory *const no_factory = NULL; /* the C references */

/* Feed SM sm the walk; check the decoder's events. */
static void walk(struct hd_test_state *t, struct zdl *L, uint32_t sm)
{
    uint32_t rs = 99, ss = 99;
    zdl_arrive(L, sm, 0xFull << 4, 5, 0); /* warps 4-7: 20 registers, no scratchpad */
    HD_CHECK(t, zdl_phase(L, sm, 4, 20, 4224, &rs, &ss)); /* NQU phase 2 */
    HD_CHECK_U64(t, 5, rs);
    HD_CHECK_U64(t, 5, ss);
    HD_CHECK(t, zdl_phase(L, sm, 4, 40, 384, &rs, &ss)); /* DCT phase 2, NQU's last */
    HD_CHECK_U64(t, 10, rs);
    HD_CHECK_U64(t, 1, ss);
    HD_CHECK(t, zdl_phase(L, sm, 5, 17, 0, &rs, &ss)); /* ceil(17 / 4) */
    HD_CHECK_U64(t, 5, rs);
    HD_CHECK_U64(t, 0, ss);
    HD_CHECK(t, !zdl_phase(L, sm, 6, 65, 0, &rs, &ss)); /* past the 16 sets: no event */
    zdl_exit(L, sm, 4);
}

static void in_step(struct hd_test_state *t)
{
    hd_test_begin(t, "the decoder in the loop, in step");
    char err[512] = "";
    struct zdl *L = zdl_create(2, &no_factory, 0);
    HD_CHECK(t, L != NULL);
    HD_CHECK(t, zdl_add_sm(L, 0, 64, 16, 48, 4, 1024, err, sizeof err) == 0);
    HD_CHECK(t, zdl_add_sm(L, 1, 64, 16, 48, 4, 1024, err, sizeof err) == 0);
    HD_CHECK(t, zdl_make(L, err, sizeof err) == 0);
    walk(t, L, 0);
    walk(t, L, 1);
    uint32_t busy_cycles = 0;
    bool busy = true;
    for (uint64_t now = 1; now <= 20; now++) {
        HD_CHECK(t, zdl_cycle(L, now, &busy, err, sizeof err) == 0);
        busy_cycles += busy;
    }
    HD_CHECK_U64(t, 6, busy_cycles); /* 6 entries each (arrival, 4 specifiers, exit), one a cycle */
    HD_CHECK(t, !busy);
    zdl_arrive(L, 7, 1, 1, 1); /* an SM beyond the loop: nothing */
    HD_CHECK(t, zdl_cycle(L, 21, &busy, err, sizeof err) == 0 && !busy);
    zdl_destroy(L);
}

static void fault(struct hd_test_state *t)
{
    hd_test_begin(t, "a corrupted expectation is caught");
    char err[512] = "";
    struct zdl *L = zdl_create(1, &no_factory, 2);
    HD_CHECK(t, L && zdl_add_sm(L, 0, 64, 16, 48, 4, 1024, err, sizeof err) == 0);
    HD_CHECK(t, zdl_make(L, err, sizeof err) == 0);
    walk(t, L, 0);
    bool busy = false;
    int rc = 0;
    uint64_t now = 0;
    while (rc == 0 && now < 20)
        rc = zdl_cycle(L, ++now, &busy, err, sizeof err);
    HD_CHECK(t, rc == -1);
    HD_CHECK_U64(t, 3, now); /* the 2nd entry's outputs are due in the 3rd cycle */
    HD_CHECK(t, strstr(err, "MISMATCH at cycle 3, SM 0, block zorua_phase (sm0.zorua_phase") != NULL);
    HD_CHECK(t, strstr(err, "port ev_rsets_o = 5 (0x5), the model's decoder gave 4") != NULL);
    HD_CHECK(t, strstr(err, "phase specifier of warp 4 (20 registers, 4224 bytes)") != NULL);
    zdl_destroy(L);
}

static void sizes(struct hd_test_state *t)
{
    hd_test_begin(t, "sizes the block is not built for");
    char err[512] = "";
    struct zdl *L = zdl_create(1, &no_factory, 0);
    HD_CHECK(t, zdl_add_sm(L, 0, 96, 16, 48, 4, 1024, err, sizeof err) == -1); /* Kepler's */
    HD_CHECK(t, strstr(err, "key 'in_loop' ([zorua]): the zorua_phase block is built for 64 "
                            "logical warps") != NULL);
    HD_CHECK(t, strstr(err, "needs 96, 16 of 4 and 48 of 1024") != NULL);
    HD_CHECK(t, zdl_add_sm(L, 0, 64, 16, 64, 4, 1024, err, sizeof err) == -1); /* Maxwell's */
    HD_CHECK(t, zdl_add_sm(L, 0, 64, 16, 48, 8, 1024, err, sizeof err) == -1);
    HD_CHECK(t, zdl_add_sm(L, 3, 64, 16, 48, 4, 1024, err, sizeof err) == -1);
    zdl_destroy(L);
}

int main(void)
{
    struct hd_test_state t = {0};
    in_step(&t);
    fault(&t);
    sizes(&t);
    return hd_test_finish(&t);
}
