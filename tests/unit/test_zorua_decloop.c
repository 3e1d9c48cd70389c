/* SPDX-License-Identifier: MIT
 * test_zorua_decloop.c - Zorua's phase-specifier decoder in the timing loop
 * (model/mech/zorua/zorua_decloop.h; Zorua Sec. 3.6, L310-L319): the model's decoder (the
 * zorua_phase block's C reference) turns an arrival, §2.9's phase specifiers (NQU's scratchpad
 * 0 B -> 4224 B -> 384 B: 0, 5, 1 sets; DCT's registers 20 -> 40 -> 20: 5, 10, 5 sets) and an
 * exit into the coordinator's events; the block instances (C references through the factory)
 * replay them one per cycle, lagging while entries wait, with 0 mismatches; a corrupted
 * expectation stops with the located message; sizes the block is not built for are refused.
 * Session 20: Kepler's and Maxwell's kinds (96 logical warps: an arrival of warps 64-95, a
 * specifier of warp 90, Maxwell's whole 64 KB) in step, and their located mismatch.
 */
#include "testutil.h"
#include "zorua_decloop.h"

#include <string.h>

static const struct hd_hw_factory *const no_factory = NULL; /* the C references */

/* Feed SM sm the walk; check the decoder's events. */
static void walk(struct hd_test_state *t, struct zdl *L, uint32_t sm)
{
    uint32_t rs = 99, ss = 99;
    const uint32_t m[ZDL_MWORDS] = {0xFu << 4}; /* warps 4-7: 20 registers, no scratchpad */
    zdl_arrive(L, sm, m, 5, 0);
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
    const uint32_t one[ZDL_MWORDS] = {1};
    zdl_arrive(L, 7, one, 1, 1); /* an SM beyond the loop: nothing */
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

/* Kepler (SM 0) and Maxwell (SM 1): 96 logical warps, the top ones' arrival and phases. */
static void wide(struct hd_test_state *t)
{
    hd_test_begin(t, "Kepler's and Maxwell's kinds: 96 logical warps");
    char err[512] = "";
    HD_CHECK(t, strcmp(zdl_kind(64, 16, 48, 4, 1024, NULL), "zorua_phase") == 0);
    HD_CHECK(t, strcmp(zdl_kind(96, 16, 48, 4, 1024, NULL), "zorua_phase:kepler") == 0);
    HD_CHECK(t, strcmp(zdl_kind(96, 16, 64, 4, 1024, NULL), "zorua_phase:maxwell") == 0);
    HD_CHECK(t, strcmp(zdl_kind(64, 16, 64, 4, 1024, NULL), "zorua_phase:maxwell") == 0);
    struct zdl *L = zdl_create(2, &no_factory, 0);
    HD_CHECK(t, L && zdl_add_sm(L, 0, 96, 16, 48, 4, 1024, err, sizeof err) == 0);
    HD_CHECK(t, zdl_add_sm(L, 1, 96, 16, 64, 4, 1024, err, sizeof err) == 0);
    HD_CHECK(t, zdl_make(L, err, sizeof err) == 0);
    const uint32_t m[ZDL_MWORDS] = {0, 0x80000000u, 0xFFFFFFFFu}; /* warps 63-95 */
    uint32_t rs = 99, ss = 99;
    for (uint32_t sm = 0; sm < 2; sm++) {
        zdl_arrive(L, sm, m, 3, 2);
        HD_CHECK(t, zdl_phase(L, sm, 90, 33, 47 * 1024 + 1, &rs, &ss)); /* 9 sets, 48 KB */
        HD_CHECK_U64(t, 9, rs);
        HD_CHECK_U64(t, 48, ss);
        zdl_exit(L, sm, 95);
    }
    HD_CHECK(t, zdl_phase(L, 1, 64, 8, 65536, &rs, &ss)); /* Maxwell: all 64 KB */
    HD_CHECK_U64(t, 2, rs);
    HD_CHECK_U64(t, 64, ss);
    HD_CHECK(t, !zdl_phase(L, 0, 64, 8, 48 * 1024 + 1, &rs, &ss)); /* Kepler: past 48 KB */
    bool busy = true;
    uint32_t busy_cycles = 0;
    for (uint64_t now = 1; now <= 12; now++) {
        HD_CHECK(t, zdl_cycle(L, now, &busy, err, sizeof err) == 0);
        busy_cycles += busy;
    }
    HD_CHECK_U64(t, 4, busy_cycles); /* 4 entries each, one a cycle */
    HD_CHECK(t, !busy);
    zdl_destroy(L);
    /* the located message names the kind and a 96-bit mask in hex */
    L = zdl_create(1, &no_factory, 1);
    HD_CHECK(t, L && zdl_add_sm(L, 0, 96, 16, 48, 4, 1024, err, sizeof err) == 0);
    HD_CHECK(t, zdl_make(L, err, sizeof err) == 0);
    zdl_arrive(L, 0, m, 3, 2);
    int rc = 0;
    for (uint64_t now = 1; rc == 0 && now <= 4; now++)
        rc = zdl_cycle(L, now, &busy, err, sizeof err);
    HD_CHECK(t, rc == -1);
    HD_CHECK(t, strstr(err, "block zorua_phase:kepler (sm0.zorua_phase, the phase-specifier "
                            "decoder)") != NULL);
    HD_CHECK(t, strstr(err, "arrival of warps 0xffffffff8000000000000000 (3 register sets, 2 "
                            "scratchpad sets)") != NULL);
    zdl_destroy(L);
}

static void sizes(struct hd_test_state *t)
{
    hd_test_begin(t, "sizes the block is not built for");
    char err[512] = "";
    struct zdl *L = zdl_create(1, &no_factory, 0);
    HD_CHECK(t, zdl_add_sm(L, 0, 128, 16, 48, 4, 1024, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "key 'in_loop' ([zorua]): the zorua_phase block is built for 64 "
                            "logical warps") != NULL);
    HD_CHECK(t, strstr(err, "or up to 96, 16 and 64 (Kepler, Maxwell") != NULL);
    HD_CHECK(t, strstr(err, "needs 128, 16 of 4 and 48 of 1024") != NULL);
    HD_CHECK(t, zdl_add_sm(L, 0, 64, 16, 80, 4, 1024, err, sizeof err) == -1);
    HD_CHECK(t, zdl_add_sm(L, 0, 64, 17, 48, 4, 1024, err, sizeof err) == -1);
    HD_CHECK(t, zdl_add_sm(L, 0, 64, 16, 48, 8, 1024, err, sizeof err) == -1);
    HD_CHECK(t, zdl_add_sm(L, 3, 64, 16, 48, 4, 1024, err, sizeof err) == -1);
    HD_CHECK(t, !zdl_fits(96, 16, 65, 4, 1024));
    /* a configuration past the C reference's maxima or its own widths */
    struct hd_zorua_phase_state st;
    const struct hd_zorua_phase_cfg big = {129, 8, 8, 16, 16, 5, 48, 6},
                                    narrow = {96, 6, 8, 16, 16, 5, 48, 6},
                                    sets = {96, 7, 8, 16, 16, 5, 64, 6};
    HD_CHECK(t, hd_zorua_phase_ref_init(&st, &big, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "zorua_phase: configuration refused: 1..128 logical warps") != NULL);
    HD_CHECK(t, hd_zorua_phase_ref_init(&st, &narrow, err, sizeof err) == -1);
    HD_CHECK(t, hd_zorua_phase_ref_init(&st, &sets, err, sizeof err) == -1);
    HD_CHECK(t, strstr(err, "register-set, scratchpad-set and field widths") != NULL);
    zdl_destroy(L);
}

int main(void)
{
    struct hd_test_state t = {0};
    in_step(&t);
    fault(&t);
    wide(&t);
    sizes(&t);
    return hd_test_finish(&t);
}
