/* SPDX-License-Identifier: MIT
 * estimatepi.c - host driver of estimatepi: a Monte-Carlo estimate of pi from per-thread XORWOW
 * streams (inline-PTX step), curand-style subsequences set up by jump-ahead in est_init_rng.
 *
 * The host builds the jump tables (xorwow_jump.c, shared with asianoption): J_b = M^(2^(40 + b))
 * for every bit b a thread index can have, M the step's linear map on the 160-bit state; the
 * squaring is first checked against plain stepping (M^(2^k) = 2^k steps, k = 0 .. 12).
 *
 * Verification, all exact (integers): every thread's state after est_init_rng against the host's
 * jump (same matrices, applied bit by bit), then every CTA's count of points inside the quarter
 * circle against a replay of the thread streams. The replay evaluates the test as the committed
 * PTX does: y*y rounded (mul.f32), then fma.rn(x, x, y*y) <= 1 (fmaf). The estimate 4 * inside /
 * points is logged with its distance from pi in standard errors (statistical: not a criterion).
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "estimatepi/xorwow_jump.h"

#define EST_TB 256 /* must match estimatepi.cu */
#define EST_SEED 0x9e3779b97f4a7c15ULL

struct est_size {
    int threads, points;
};

static struct est_size est_size_of(enum hd_wl_size size)
{
    /* Warp instructions (functional model): small 0.79 M (3000 threads, a partial last CTA,
     * 64 points each; est_init_rng is 0.60 M of it: a warp runs the union of its lanes' jumps),
     * medium 5.4 M (60 CTAs, 128 points), large 30 M (240 CTAs of 8 warps per kernel, 256
     * points: 3 waves of 80 CTAs on 16 SMs at EXPARS's 5 CTAs per SM; the papers' length). */
    static const struct est_size s[3] = {{3000, 64}, {15360, 128}, {61440, 256}};
    return s[size];
}

static int est_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct est_size sz = est_size_of(ctx->size);
    /* Input-size variant (token wN; issue 33, EXPARS Table 3 EST): WAVES=N sizes the small input
     * for N full waves of CTAs per kernel on fermi-gtx480 at Table 3's 5 CTAs per SM (15 x 5 x N
     * CTAs of 256 threads), 64 points each (small's); same kernels and reference. */
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "estimatepi: WAVES=%ld out of range 0..64", waves);
    if (waves > 0 && ctx->size == HD_WL_SMALL) {
        sz.threads = 15 * 5 * (int)waves * EST_TB;
        sz.points = 64;
    }
    const int ctas = (sz.threads + EST_TB - 1) / EST_TB;
    int bits = 0, bad_k = 0;
    while ((1 << bits) < sz.threads)
        bits++;
    const size_t state_words = (size_t)sz.threads * 6;
    uint32_t *states = malloc(state_words * sizeof(uint32_t));
    uint32_t *ref_states = malloc(state_words * sizeof(uint32_t));
    uint32_t *counts = malloc((size_t)ctas * sizeof(uint32_t));
    uint32_t *ref_counts = malloc((size_t)ctas * sizeof(uint32_t));
    struct xw_jumps jumps = {0, NULL, NULL};
    hd_devptr d_jump = 0, d_seed = 0, d_states = 0, d_counts = 0;
    struct hd_module *mod = NULL;
    struct xw_state seed;
    int rc = HD_OK;

    if (!states || !ref_states || !counts || !ref_counts) {
        rc = hd_wl_fail(ctx, "estimatepi: out of host memory");
        goto out;
    }
    xw_seed(&seed, EST_SEED);
    int jb = xw_jumps_build(&jumps, bits, &seed, &bad_k);
    if (jb == -1) {
        rc = hd_wl_fail(ctx, "estimatepi: out of host memory");
        goto out;
    }
    if (jb == -2) {
        rc = hd_wl_fail(ctx, "estimatepi: jump matrix M^(2^%d) differs from 2^%d steps (the host "
                             "table construction is wrong)", bad_k, bad_k);
        goto out;
    }
    const uint32_t seed_words[6] = {seed.x[0], seed.x[1], seed.x[2], seed.x[3], seed.x[4], seed.d};
    fprintf(ctx->log, "estimatepi: %d threads in %d CTAs, %d points each, %d jump matrices\n",
            sz.threads, ctas, sz.points, bits);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    const size_t table_bytes = (size_t)bits * XW_TABLE_WORDS * sizeof(uint32_t);
    HD_WL_TRY(hd_malloc(gpu, &d_jump, table_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_seed, sizeof seed_words));
    HD_WL_TRY(hd_malloc(gpu, &d_states, state_words * sizeof(uint32_t)));
    HD_WL_TRY(hd_malloc(gpu, &d_counts, (size_t)ctas * sizeof(uint32_t)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_jump, jumps.table, table_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_seed, seed_words, sizeof seed_words));
    HD_WL_TRY(hd_memset(gpu, d_states, 0xff, state_words * sizeof(uint32_t)));
    HD_WL_TRY(hd_memset(gpu, d_counts, 0xff, (size_t)ctas * sizeof(uint32_t)));
    {
        int nthreads = sz.threads, points = sz.points;
        struct hd_dim3 grid = {(uint32_t)ctas, 1, 1}, block = {EST_TB, 1, 1};
        struct hd_arg init[] = {HD_ARG(d_jump), HD_ARG(d_seed), HD_ARG(d_states), HD_ARG(nthreads)};
        struct hd_arg cnt[] = {HD_ARG(d_states), HD_ARG(d_counts), HD_ARG(nthreads),
                               HD_ARG(points)};
        HD_WL_TRY(hd_launch(gpu, mod, "est_init_rng", grid, block, 0, 0, init, 4));
        HD_WL_TRY(hd_launch(gpu, mod, "est_count", grid, block, 0, 0, cnt, 4));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, states, d_states, state_words * sizeof(uint32_t)));
    HD_WL_TRY(hd_memcpy_d2h(gpu, counts, d_counts, (size_t)ctas * sizeof(uint32_t)));

    memset(ref_counts, 0, (size_t)ctas * sizeof(uint32_t));
    uint64_t inside = 0;
    for (int t = 0; t < sz.threads; t++) {
        struct xw_state s = seed;
        xw_jump_thread(&jumps, &s, (uint32_t)t);
        memcpy(ref_states + (size_t)t * 6, s.x, sizeof s.x);
        ref_states[(size_t)t * 6 + 5] = s.d;
        uint32_t in = 0;
        for (int p = 0; p < sz.points; p++) {
            float x = (float)(xw_next(&s) >> 8) * (1.0f / 16777216.0f);
            float y = (float)(xw_next(&s) >> 8) * (1.0f / 16777216.0f);
            float yy = y * y;
            in += fmaf(x, x, yy) <= 1.0f;
        }
        ref_counts[t / EST_TB] += in;
        inside += in;
    }
    rc = hd_wl_compare_u32(ctx, "thread state word", ref_states, states, state_words);
    if (rc == HD_OK)
        rc = hd_wl_compare_u32(ctx, "CTA count", ref_counts, counts, (size_t)ctas);
    if (rc == HD_OK) {
        double n = (double)sz.threads * sz.points, p = (double)inside / n;
        double est = 4.0 * p, se = 4.0 * sqrt(p * (1.0 - p) / n);
        fprintf(ctx->log, "estimatepi: states and counts exact; pi ~ %.6f (%.2f standard errors "
                          "from pi)\n", est, fabs(est - 3.14159265358979) / se);
    }

out:
    if (gpu) {
        hd_free(gpu, d_jump);
        hd_free(gpu, d_seed);
        hd_free(gpu, d_states);
        hd_free(gpu, d_counts);
    }
    xw_jumps_free(&jumps);
    free(states);
    free(ref_states);
    free(counts);
    free(ref_counts);
    return rc;
}

const struct hd_workload hd_workload_estimatepi = {
    .name = "estimatepi",
    .description = "Monte-Carlo pi: XORWOW jump-ahead init, inline-PTX draws (EstimatePiInlineP)",
    .klass = "compute",
    .idempotent = true, /* each thread writes its own state; each CTA its own count */
    .run = est_run,
};
/* {==== Footprint variant (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_estimatepi_r24 = {
    .name = "estimatepi_r24",
    .description = "estimatepi variant: at most 24 registers per thread (EXPARS Table 3, EST)",
    .klass = "compute",
    .idempotent = true,
    .run = est_run,
    .variant_of = "estimatepi",
    .variant_flags = "-DMAXREG=24",
    .paper_row = "EXPARS Table 3 EST: 8 warps/CTA, 0 B, 24 regs",
};
const struct hd_workload hd_workload_estimatepi_r24_w4 = {
    .name = "estimatepi_r24_w4",
    .description = "estimatepi_r24 with a small input of 4 full waves per kernel (300 CTAs of 5 per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = est_run,
    .variant_of = "estimatepi",
    .variant_flags = "-DMAXREG=24 -DWAVES=4",
    .paper_row = "EXPARS Table 3 EST initRNG: 8 warps/CTA, 0 B, 24 regs, >= 3 waves at EXPARS's 6 CTAs/SM",
};
