/* SPDX-License-Identifier: MIT
 * estimatepi.c - host driver of estimatepi: a Monte-Carlo estimate of pi from per-thread XORWOW
 * streams (inline-PTX step), curand-style subsequences set up by jump-ahead in est_init_rng.
 *
 * The host builds the jump tables: M is the XORWOW step's linear map on the 160-bit state (column
 * j = the step applied to unit vector e_j); squaring it 40 times gives M^(2^40), and squaring on
 * gives J_b = M^(2^(40 + b)) for every bit b a thread index can have. Each J_b is stored as 40
 * slices x 16 nibble values x 5 words (the XOR of the columns the nibble's set bits select). Before
 * use, the squaring is checked against plain stepping: M^(2^k) applied to the seed state equals
 * 2^k steps for k = 0 .. 12.
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

#define EST_TB 256        /* must match estimatepi.cu */
#define EST_SKIP_LOG2 40  /* must match estimatepi.cu */
#define EST_SLICES 40     /* must match estimatepi.cu */
#define EST_WEYL 362437u
#define EST_TABLE_WORDS (EST_SLICES * 16 * 5) /* per jump matrix */
#define EST_SEED 0x9e3779b97f4a7c15ULL

struct est_size {
    int threads, points;
};

static struct est_size est_size_of(enum hd_wl_size size)
{
    /* Warp instructions: small 0.36 M (3000 threads, a partial last CTA; 64 points each),
     * medium 4.6 M (120 CTAs, 256 points), large 35 M (480 CTAs of 8 warps, 256 points; each
     * kernel runs ~6 waves of 80 CTAs on 16 SMs at 5 CTAs per SM: the papers' length). */
    static const struct est_size s[3] = {{3000, 64}, {30720, 256}, {122880, 256}};
    return s[size];
}

/* A 160 x 160 GF(2) matrix as 160 columns of 5 words. */
typedef uint32_t est_mat[160][5];

static void est_step_linear(const uint32_t in[5], uint32_t out[5])
{
    uint32_t t = in[0] ^ (in[0] >> 2);
    out[0] = in[1];
    out[1] = in[2];
    out[2] = in[3];
    out[3] = in[4];
    out[4] = (in[4] ^ (in[4] << 4)) ^ (t ^ (t << 1));
}

static void est_apply(const est_mat m, const uint32_t v[5], uint32_t out[5])
{
    uint32_t o[5] = {0, 0, 0, 0, 0};
    for (int j = 0; j < 160; j++)
        if ((v[j >> 5] >> (j & 31)) & 1u)
            for (int w = 0; w < 5; w++)
                o[w] ^= m[j][w];
    memcpy(out, o, sizeof o);
}

static void est_square(est_mat m, est_mat tmp)
{
    for (int j = 0; j < 160; j++)
        est_apply(m, m[j], tmp[j]);
    memcpy(m, tmp, sizeof(est_mat));
}

static uint32_t est_next(uint32_t s[5], uint32_t *d)
{
    uint32_t n[5];
    est_step_linear(s, n);
    memcpy(s, n, sizeof n);
    *d += EST_WEYL;
    return s[4] + *d;
}

/* The seeded start state (5 words and d), the same for every thread before its jump. */
static void est_seed_state(uint32_t st[6])
{
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, EST_SEED);
    static const uint32_t base[5] = {123456789u, 362436069u, 521288629u, 88675123u, 5783321u};
    for (int w = 0; w < 5; w++)
        st[w] = base[w] ^ hd_wl_rng_u32(&rng);
    st[5] = 6615241u + hd_wl_rng_u32(&rng);
}

static int est_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const struct est_size sz = est_size_of(ctx->size);
    const int ctas = (sz.threads + EST_TB - 1) / EST_TB;
    int bits = 0;
    while ((1 << bits) < sz.threads)
        bits++;
    est_mat *m = malloc(2 * sizeof(est_mat)), *jm = malloc((size_t)bits * sizeof(est_mat));
    uint32_t *table = malloc((size_t)bits * EST_TABLE_WORDS * sizeof(uint32_t));
    uint32_t *states = malloc((size_t)sz.threads * 6 * sizeof(uint32_t));
    uint32_t *ref_states = malloc((size_t)sz.threads * 6 * sizeof(uint32_t));
    uint32_t *counts = malloc((size_t)ctas * sizeof(uint32_t));
    uint32_t *ref_counts = malloc((size_t)ctas * sizeof(uint32_t));
    hd_devptr d_jump = 0, d_seed = 0, d_states = 0, d_counts = 0;
    struct hd_module *mod = NULL;
    uint32_t seed[6];
    int rc = HD_OK;

    if (!m || !jm || !table || !states || !ref_states || !counts || !ref_counts) {
        rc = hd_wl_fail(ctx, "estimatepi: out of host memory");
        goto out;
    }
    est_seed_state(seed);
    /* M, checked by squaring against stepping, then J_b. */
    for (int j = 0; j < 160; j++) {
        uint32_t e[5] = {0, 0, 0, 0, 0};
        e[j >> 5] = 1u << (j & 31);
        est_step_linear(e, m[0][j]);
    }
    {
        uint32_t stepped[5], jumped[5], dd = 0;
        memcpy(stepped, seed, sizeof stepped);
        for (int k = 0; k <= 12; k++) {
            for (long i = 0; i < (k == 0 ? 1L : 1L << (k - 1)); i++)
                est_next(stepped, &dd);
            est_apply(m[0], seed, jumped);
            if (memcmp(jumped, stepped, sizeof jumped) != 0) {
                rc = hd_wl_fail(ctx, "estimatepi: jump matrix M^(2^%d) differs from %ld steps "
                                     "(host table construction is wrong)", k, 1L << k);
                goto out;
            }
            est_square(m[0], m[1]);
        }
    }
    for (int k = 13; k < EST_SKIP_LOG2; k++)
        est_square(m[0], m[1]);
    for (int b = 0; b < bits; b++) {
        memcpy(jm[b], m[0], sizeof(est_mat));
        uint32_t *tb = table + (size_t)b * EST_TABLE_WORDS;
        for (int slice = 0; slice < EST_SLICES; slice++)
            for (int nib = 0; nib < 16; nib++) {
                uint32_t *p = tb + (slice * 16 + nib) * 5;
                memset(p, 0, 5 * sizeof(uint32_t));
                for (int i = 0; i < 4; i++)
                    if (nib & (1 << i))
                        for (int w = 0; w < 5; w++)
                            p[w] ^= m[0][slice * 4 + i][w];
            }
        est_square(m[0], m[1]);
    }
    fprintf(ctx->log, "estimatepi: %d threads in %d CTAs, %d points each, %d jump matrices\n",
            sz.threads, ctas, sz.points, bits);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    const size_t state_bytes = (size_t)sz.threads * 6 * sizeof(uint32_t);
    HD_WL_TRY(hd_malloc(gpu, &d_jump, (size_t)bits * EST_TABLE_WORDS * sizeof(uint32_t)));
    HD_WL_TRY(hd_malloc(gpu, &d_seed, sizeof seed));
    HD_WL_TRY(hd_malloc(gpu, &d_states, state_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_counts, (size_t)ctas * sizeof(uint32_t)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_jump, table, (size_t)bits * EST_TABLE_WORDS * sizeof(uint32_t)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_seed, seed, sizeof seed));
    HD_WL_TRY(hd_memset(gpu, d_states, 0xff, state_bytes));
    HD_WL_TRY(hd_memset(gpu, d_counts, 0xff, (size_t)ctas * sizeof(uint32_t)));
    {
        int nthreads = sz.threads, points = sz.points;
        struct hd_dim3 grid = {(uint32_t)ctas, 1, 1}, block = {EST_TB, 1, 1};
        struct hd_arg init[] = {HD_ARG(d_jump), HD_ARG(d_seed), HD_ARG(d_states), HD_ARG(nthreads)};
        struct hd_arg cnt[] = {HD_ARG(d_states), HD_ARG(d_counts), HD_ARG(nthreads), HD_ARG(points)};
        HD_WL_TRY(hd_launch(gpu, mod, "est_init_rng", grid, block, 0, 0, init, 4));
        HD_WL_TRY(hd_launch(gpu, mod, "est_count", grid, block, 0, 0, cnt, 4));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, states, d_states, state_bytes));
    HD_WL_TRY(hd_memcpy_d2h(gpu, counts, d_counts, (size_t)ctas * sizeof(uint32_t)));

    memset(ref_counts, 0, (size_t)ctas * sizeof(uint32_t));
    uint64_t inside = 0;
    for (int t = 0; t < sz.threads; t++) {
        uint32_t s[5], d = seed[5];
        memcpy(s, seed, sizeof s);
        for (int b = 0; b < bits; b++)
            if ((t >> b) & 1)
                est_apply(jm[b], s, s);
        memcpy(ref_states + (size_t)t * 6, s, sizeof s);
        ref_states[(size_t)t * 6 + 5] = d;
        uint32_t in = 0;
        for (int p = 0; p < sz.points; p++) {
            float x = (float)(est_next(s, &d) >> 8) * (1.0f / 16777216.0f);
            float y = (float)(est_next(s, &d) >> 8) * (1.0f / 16777216.0f);
            float yy = y * y;
            in += fmaf(x, x, yy) <= 1.0f;
        }
        ref_counts[t / EST_TB] += in;
        inside += in;
    }
    rc = hd_wl_compare_u32(ctx, "thread state word", ref_states, states,
                           (size_t)sz.threads * 6);
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
    free(m);
    free(jm);
    free(table);
    free(states);
    free(ref_states);
    free(counts);
    free(ref_counts);
    return rc;
}

const struct hd_workload hd_workload_estimatepi = {
    .name = "estimatepi",
    .description = "Monte-Carlo pi: XORWOW jump-ahead init (initRNG) and inline-PTX draws (SDK EstimatePiInlineP)",
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
};
