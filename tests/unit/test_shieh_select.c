/* SPDX-License-Identifier: MIT
 * test_shieh_select.c - Shieh's decision logic (model/mech/shieh/shieh_cands.h, shieh_cost.h,
 * shieh_select.h; thesis §2.2-2.6, digest Appendices A and B):
 *   - Appendix A: the golden candidate bitsets of all 17 Table 4.2 kernels against the
 *     synthetic preempting kernel (4096 registers, 2048 B per TB) on the Fermi SM, every one;
 *   - Fig 3.2: aligned placement gives two preempting TBs where the naive hole gives one;
 *   - Appendix B: the worked cost example (L_CS 2182, O_CS 873, drain 2056 / 3920, technique
 *     per row, candidate latency 2182 and overhead 873), from finished-TB statistics;
 *   - the lower-variance CPI predictor picks each side when it spreads less; insufficient
 *     statistics give the maximum; Chimera's estimate ignores progress;
 *   - Algorithm 1's rules: least overhead among those meeting the budget, least latency when
 *     none does, the flush bit respected, the budget shrinking with time.
 */
#include "shieh_cands.h"
#include "shieh_cost.h"
#include "shieh_select.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* Appendix A: kernel, registers and shared memory per TB, TBs per SM (Table 4.2), the eight
 * candidates as text (slot 0 leftmost; '-' = no such slot). */
struct appa_row {
    const char *name;
    uint32_t regs, smem, tbs;
    const char *cand[8];
};

static const struct appa_row appa[] = {
    {"pathfinder", 4096, 2048, 6, {"100000--", "010000--", "001000--", "000100--", "000010--", "000001--", "000000--", "000000--"}},
    {"hotspot", 9216, 3072, 3, {"100-----", "110-----", "110-----", "011-----", "011-----", "001-----", "001-----", "000-----"}},
    {"streamcluster", 6144, 0, 3, {"100-----", "110-----", "010-----", "001-----", "001-----", "000-----", "000-----", "000-----"}},
    {"dwt2d/c_Copy", 3584, 3096, 8, {"11000000", "11100000", "01110000", "01111000", "00111100", "00010110", "00011011", "00001100"}},
    {"dwt2d/Fdwt53", 3072, 768, 6, {"111000--", "011111--", "001101--", "000011--", "000001--", "000000--", "000000--", "000000--"}},
    {"kmeans", 3072, 3072, 6, {"110000--", "111000--", "011100--", "001011--", "001101--", "000100--", "000010--", "000011--"}},
    {"stencil", 3584, 0, 8, {"11000000", "01100000", "00110000", "00011000", "00001100", "00000110", "00000011", "00000000"}},
    {"srad_cuda_1", 5120, 6144, 6, {"100000--", "110000--", "111000--", "011100--", "010100--", "010010--", "001011--", "001001--"}},
    {"srad_cuda_2", 5120, 5120, 6, {"100000--", "110000--", "111000--", "011100--", "010100--", "001010--", "001011--", "001101--"}},
    {"b+tree/findRangeK", 5120, 0, 6, {"100000--", "110000--", "011000--", "001100--", "000100--", "000010--", "000011--", "000001--"}},
    {"b+tree/findK", 4096, 0, 6, {"100000--", "010000--", "001000--", "000100--", "000010--", "000001--", "000000--", "000000--"}},
    {"nw", 1536, 2180, 8, {"11100000", "11111100", "01100111", "00110000", "00011000", "00001100", "00000110", "00000011"}},
    {"bfs/Kernel", 8192, 0, 3, {"100-----", "100-----", "010-----", "010-----", "001-----", "001-----", "000-----", "000-----"}},
    {"bfs/Kernel2", 6144, 0, 3, {"100-----", "110-----", "010-----", "001-----", "001-----", "000-----", "000-----", "000-----"}},
    {"backprop/layerfwd", 3072, 1088, 6, {"110000--", "011100--", "001111--", "000011--", "000001--", "000000--", "000000--", "000000--"}},
    {"backprop/adjust", 6144, 0, 5, {"10000---", "11000---", "01000---", "00100---", "00110---", "00010---", "00001---", "00001---"}},
    {"heartwall", 8192, 11872, 4, {"1000----", "1000----", "1100----", "1100----", "1010----", "1110----", "0101----", "0101----"}},
};

static const struct hd_shieh_footprint synthetic = {4096, 2048};

static void test_appendix_a(struct hd_test_state *t)
{
    hd_test_begin(t, "Appendix A: golden candidate bitsets, 17 kernels x 8 positions");
    for (unsigned r = 0; r < sizeof appa / sizeof appa[0]; r++) {
        const struct appa_row *a = &appa[r];
        struct hd_shieh_range tbs[8];
        memset(tbs, 0, sizeof tbs);
        for (unsigned j = 0; j < a->tbs; j++)
            tbs[j] = (struct hd_shieh_range){true, j * a->regs, a->regs, (uint64_t)j * a->smem, a->smem};
        uint32_t k = hd_shieh_positions(&synthetic, 32768, 49152, 8);
        HD_CHECK_U64(t, 8, k);
        uint64_t cand[8], valid;
        hd_shieh_candidates(&synthetic, k, tbs, 8, 0, cand, &valid);
        HD_CHECK_U64(t, 0xff, valid);
        for (unsigned p = 0; p < 8; p++) {
            char got[9];
            hd_shieh_bits_str(cand[p], 8, got);
            for (unsigned j = a->tbs; j < 8; j++)
                got[j] = got[j] == '0' ? '-' : '!'; /* a bit past the kernel's slots is a bug */
            if (!HD_CHECK(t, strcmp(got, a->cand[p]) == 0))
                printf("    %s P%u: want %s got %s\n", a->name, p, a->cand[p], got);
        }
    }
}

/* Fig 3.2: TB0-TB3 of the running kernel fill the SM, a preempting TB needs two of their
 * spaces. Naive: TB1 and TB2 leave, the new TB takes the hole; TB0 and TB3 leave later but
 * their halves are apart. Aligned: positions cover TB0+TB1 and TB2+TB3; nothing is placed until
 * TB0 leaves, then again when TB3 leaves: two TBs. */
static void test_fig32_alignment(struct hd_test_state *t)
{
    hd_test_begin(t, "Fig 3.2: aligned placement places two TBs where the naive hole places one");
    const struct hd_shieh_footprint f = {2048, 0};
    struct hd_shieh_range tbs[4];
    for (unsigned j = 0; j < 4; j++)
        tbs[j] = (struct hd_shieh_range){true, j * 1024u, 1024, 0, 0};
    uint32_t k = hd_shieh_positions(&f, 4096, 0, 8);
    HD_CHECK_U64(t, 2, k);
    uint64_t cand[2], valid, issued = 0;
    unsigned placed = 0;
    const unsigned order[4] = {1, 2, 0, 3}; /* TB1 and TB2 leave first */
    for (unsigned step = 0; step < 4; step++) {
        tbs[order[step]].valid = false;
        hd_shieh_candidates(&f, k, tbs, 4, issued, cand, &valid);
        int p = hd_shieh_place(cand, valid, issued, ~(uint64_t)0, k);
        if (step < 2)
            HD_CHECK(t, p < 0); /* Fig 3.2b: no position is wholly free yet */
        if (p >= 0) {
            issued |= (uint64_t)1 << p;
            placed++;
            HD_CHECK_U64(t, step == 2 ? 0 : 1, p); /* TB0 frees position 0, TB3 position 1 */
        }
    }
    HD_CHECK_U64(t, 2, placed);
    /* The naive placement: the hole [1024, 3072) takes one TB, then [0,1024) and [3072,4096)
     * are free but apart: no second TB (counted independently of the code under test). */
    unsigned naive = 1, run = 0, best = 0;
    const bool used[4] = {false, true, true, false}; /* the new TB over TB1+TB2's space */
    for (unsigned u = 0; u < 4; u++) {
        run = used[u] ? 0 : run + 1;
        best = run > best ? run : best;
    }
    naive += best >= 2;
    HD_CHECK_U64(t, 1, naive);
}

/* Appendix B: pathfinder victim, L_c = 2 us = 2800 cycles at 1.4 GHz, B/N_SM = 8.45 B/cycle. */
static void test_appendix_b(struct hd_test_state *t)
{
    hd_test_begin(t, "Appendix B: worked cost example (pathfinder, L_c 2800 cycles)");
    uint64_t ctx = 4u * 4096u + 2048u; /* 4 B x registers + shared memory */
    HD_CHECK_U64(t, 18432, ctx);
    uint64_t l_cs = hd_shieh_switch_latency(ctx, 8.45);
    HD_CHECK_U64(t, 2182, l_cs); /* 18432 / 8.45 = 2181.3 -> 2182 */
    HD_CHECK_U64(t, 2182, hd_shieh_switch_latency(ctx, 177.4e9 / 15.0 / 1.4e9)); /* unrounded */
    /* Ibar = 1000 and CPI_pred = 4 from finished TBs (1000 instructions in 4000 cycles each;
     * their spread 0 is not beaten, so the finished mean is used). */
    struct hd_shieh_kstats ks = {0};
    hd_shieh_kstats_add(&ks, 1000, 4000);
    hd_shieh_kstats_add(&ks, 1000, 4000);
    /* Fig 3.10 rows 0 and 1 (486 at 2000 flushable, 20 at 2474 not) at cycle 4430. */
    struct hd_shieh_tb tb[2] = {{true, true, 486, 2000}, {true, false, 20, 2474}};
    struct hd_shieh_pred p;
    hd_shieh_predict(&ks, tb, 2, 4430, &p);
    HD_CHECK(t, p.have_fin && !p.use_own);
    HD_CHECK_F64(t, 1000.0, p.ibar, 1e-9);
    HD_CHECK_F64(t, 4.0, p.cpi_fin, 1e-9);
    p.ipc_avg = 0.2; /* Appendix B's illustrative IPC (measured IPCs: test_predictor) */
    struct hd_shieh_cost c[2];
    unsigned tech[2];
    for (unsigned i = 0; i < 2; i++) {
        hd_shieh_cost_tb(&p, &tb[i], 4430, l_cs, &c[i]);
        tech[i] = hd_shieh_choose_tech(&c[i], 2800);
    }
    HD_CHECK_U64(t, 873, c[0].ovh[HD_SHIEH_SWITCH]); /* 0.2 x 2 x 2182 = 872.8 */
    HD_CHECK_U64(t, 486, c[0].ovh[HD_SHIEH_FLUSH]);  /* flush wastes 486 < 873 */
    HD_CHECK_U64(t, 2056, c[0].lat[HD_SHIEH_DRAIN]); /* 514 x 4 */
    HD_CHECK_U64(t, HD_SHIEH_DRAIN, tech[0]);        /* drain meets 2800 at no cost */
    HD_CHECK_U64(t, 3920, c[1].lat[HD_SHIEH_DRAIN]); /* 980 x 4 > 2800 */
    HD_CHECK(t, !c[1].allowed[HD_SHIEH_FLUSH]);
    HD_CHECK_U64(t, HD_SHIEH_SWITCH, tech[1]);       /* 2182 <= 2800 */
    /* Candidate {row 0, row 1}: L = max(2056, 2182), O = 0 + 873. */
    uint64_t cand[1] = {0x3};
    struct hd_shieh_pick pick;
    hd_shieh_select(cand, 1, 1, c, tech, 2800, &pick);
    HD_CHECK_U64(t, 0, pick.cand);
    HD_CHECK(t, pick.meets);
    HD_CHECK_U64(t, 2182, pick.lat);
    HD_CHECK_U64(t, 873, pick.ovh);
    /* Row 0 with a flush bit but a drain that misses: flush (486) beats switch (873). */
    struct hd_shieh_cost c0 = c[0];
    c0.lat[HD_SHIEH_DRAIN] = 3000;
    HD_CHECK_U64(t, HD_SHIEH_FLUSH, hd_shieh_choose_tech(&c0, 2800));
}

static void test_predictor(struct hd_test_state *t)
{
    hd_test_begin(t, "lower-variance CPI predictor, IPC_avg, insufficient statistics, Chimera");
    struct hd_shieh_kstats none = {0};
    struct hd_shieh_tb tb[3] = {{true, true, 486, 2000}, {true, false, 20, 2474}, {true, true, 574, 1862}};
    struct hd_shieh_pred p;
    hd_shieh_predict(&none, tb, 3, 4000, &p);
    HD_CHECK(t, !p.have_fin);
    HD_CHECK_U64(t, HD_SHIEH_INF, hd_shieh_drain_latency(&p, &tb[0], 4000)); /* max value */
    HD_CHECK_U64(t, HD_SHIEH_INF, hd_chimera_drain_latency(&p, &tb[0], 4000));
    /* IPC_avg of Fig 3.10's rows at 4000: (486/2000 + 20/1526 + 574/2138) / 3. */
    HD_CHECK_F64(t, (486.0 / 2000 + 20.0 / 1526 + 574.0 / 2138) / 3.0, p.ipc_avg, 1e-12);
    /* Finished TBs that spread widely (CPI 2 and 10): the running TBs' own CPIs spread less
     * (CPIs 4 and 5) and are used. */
    struct hd_shieh_kstats wide = {0};
    hd_shieh_kstats_add(&wide, 1000, 2000);
    hd_shieh_kstats_add(&wide, 1000, 10000);
    struct hd_shieh_tb run[2] = {{true, true, 500, 0}, {true, true, 400, 0}};
    hd_shieh_predict(&wide, run, 2, 2000, &p); /* CPIs 4 and 5 */
    HD_CHECK(t, p.use_own);
    HD_CHECK_U64(t, 2000, hd_shieh_drain_latency(&p, &run[0], 2000));   /* 500 x 4 */
    HD_CHECK_U64(t, 3000, hd_shieh_drain_latency(&p, &run[1], 2000));   /* 600 x 5 */
    /* Finished TBs that agree (CPI 6 twice): their mean is used even for a fast TB. */
    struct hd_shieh_kstats tight = {0};
    hd_shieh_kstats_add(&tight, 1000, 6000);
    hd_shieh_kstats_add(&tight, 1000, 6000);
    hd_shieh_predict(&tight, run, 2, 2000, &p);
    HD_CHECK(t, !p.use_own);
    HD_CHECK_U64(t, 3000, hd_shieh_drain_latency(&p, &run[0], 2000));   /* 500 x 6 */
    /* A TB past the average has nothing left to drain. */
    struct hd_shieh_tb late = {true, true, 1500, 0};
    HD_CHECK_U64(t, 0, hd_shieh_drain_latency(&p, &late, 2000));
    /* Chimera: mean residency 6000 minus the TB's age, whatever its progress. */
    HD_CHECK_U64(t, 4000, hd_chimera_drain_latency(&p, &run[0], 2000));
    HD_CHECK_U64(t, 4000, hd_chimera_drain_latency(&p, &late, 2000));
    HD_CHECK_U64(t, 0, hd_chimera_drain_latency(&p, &run[0], 9000));
    /* Own CPI wanted but the TB has not issued: the maximum. */
    hd_shieh_predict(&wide, run, 2, 2000, &p);
    struct hd_shieh_tb fresh = {true, true, 0, 1990};
    HD_CHECK_U64(t, HD_SHIEH_INF, hd_shieh_drain_latency(&p, &fresh, 2000));
    HD_CHECK_U64(t, HD_SHIEH_INF, hd_shieh_switch_latency(100, 0.0));
}

static void test_algorithm1(struct hd_test_state *t)
{
    hd_test_begin(t, "Algorithm 1: technique per TB and final victim under the budget");
    /* Three TBs: A drains in 500, B in 5000 (flushable, 300 done), C in 5000 (not flushable). */
    struct hd_shieh_cost c[3] = {
        {{500, 0, 2182}, {0, 100, 873}, {true, true, true}},
        {{5000, 0, 2182}, {0, 300, 873}, {true, true, true}},
        {{5000, 0, 2182}, {0, 900, 873}, {true, false, true}},
    };
    unsigned tech[3];
    for (unsigned i = 0; i < 3; i++)
        tech[i] = hd_shieh_choose_tech(&c[i], 2800);
    HD_CHECK_U64(t, HD_SHIEH_DRAIN, tech[0]);
    HD_CHECK_U64(t, HD_SHIEH_FLUSH, tech[1]);
    HD_CHECK_U64(t, HD_SHIEH_SWITCH, tech[2]);
    /* Budget 1000: C can do nothing that meets it; the least latency is the switch. */
    HD_CHECK_U64(t, HD_SHIEH_SWITCH, hd_shieh_choose_tech(&c[2], 1000));
    /* Candidates {A,B} (O 300, L 500), {B,C} (O 1173, L 2182), {C} (O 873, L 2182), {} */
    uint64_t cand[4] = {0x3, 0x6, 0x4, 0x0};
    struct hd_shieh_pick pk;
    hd_shieh_select(cand, 0x7, 4, c, tech, 2800, &pk); /* position 3 invalid */
    HD_CHECK_U64(t, 0, pk.cand);
    HD_CHECK_U64(t, 500, pk.lat);
    HD_CHECK_U64(t, 300, pk.ovh);
    hd_shieh_select(cand, 0xf, 4, c, tech, 2800, &pk); /* the empty one costs nothing */
    HD_CHECK_U64(t, 3, pk.cand);
    /* Budget 400: A's drain misses it, so A and B flush; C still cannot meet it. */
    for (unsigned i = 0; i < 3; i++)
        tech[i] = hd_shieh_choose_tech(&c[i], 400);
    HD_CHECK_U64(t, HD_SHIEH_FLUSH, tech[0]);
    HD_CHECK_U64(t, HD_SHIEH_FLUSH, tech[1]);
    hd_shieh_select(cand, 0x6, 4, c, tech, 400, &pk);
    HD_CHECK(t, !pk.meets); /* among {B,C} and {C} only: none meets, least latency */
    HD_CHECK_U64(t, 2, pk.cand); /* {C} L 2182 O 873 beats {B,C} L 2182 O 1173 */
    /* The budget shrinks with time. */
    HD_CHECK_U64(t, 2800, hd_shieh_budget(2800, 1000, 1000));
    HD_CHECK_U64(t, 800, hd_shieh_budget(2800, 1000, 3000));
    HD_CHECK_U64(t, 0, hd_shieh_budget(2800, 1000, 9000));
    /* Placement skips an issued position and one whose space a drained TB still holds. */
    uint64_t pc[3] = {0, 0, 0};
    HD_CHECK_U64(t, 1, hd_shieh_place(pc, 0x7, 0x1, 0x6, 3));
    HD_CHECK_U64(t, 2, hd_shieh_place(pc, 0x7, 0x1, 0x4, 3));
    HD_CHECK(t, hd_shieh_place(pc, 0x7, 0x7, 0x7, 3) < 0);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_appendix_a(&t);
    test_fig32_alignment(&t);
    test_appendix_b(&t);
    test_predictor(&t);
    test_algorithm1(&t);
    return hd_test_finish(&t);
}
