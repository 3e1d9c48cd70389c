/* SPDX-License-Identifier: MIT
 * gaussian.c - host driver of the gaussian workload: solve A x = b by Gaussian elimination.
 *
 * A is an n x n dense matrix with entries in [-1, 1) plus n on the diagonal, so it is strictly
 * diagonally dominant and elimination without pivoting is stable. For each column t the driver
 * launches gauss_fan1 (multipliers) and gauss_fan2 (trailing update), 2(n-1) launches in all, then
 * copies back the upper triangle U, the updated right-hand side and the multipliers L, and checks
 * all three against a CPU elimination that performs the same single-precision operations in the
 * same order. Finally it solves U x = b' by back substitution on the host (double) and reports the
 * residual of the original system, a sanity check that the factorization is a real one.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GS_FAN1_BLOCK 256
#define GS_FAN2_TILE 16

static int gs_order(enum hd_wl_size size)
{
    /* warp instructions: ~0.54 M, ~3.9 M, ~41 M (about n^3 / 2200) */
    static const int n[3] = {100, 200, 450};
    return n[size];
}

/* CPU reference: the kernels' operations, column by column. */
static void gs_reference(float *a, float *b, float *m, int n)
{
    for (int t = 0; t < n - 1; t++) {
        for (int i = t + 1; i < n; i++)
            m[(size_t)i * n + t] = a[(size_t)i * n + t] / a[(size_t)t * n + t];
        for (int i = t + 1; i < n; i++) {
            float mi = m[(size_t)i * n + t];
            for (int j = t; j < n; j++)
                a[(size_t)i * n + j] -= mi * a[(size_t)t * n + j];
            b[i] -= mi * b[t];
        }
    }
}

static int gs_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    int n = gs_order(ctx->size);
    size_t nn = (size_t)n * (size_t)n;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_a = 0, d_b = 0, d_m = 0;
    float *a0 = malloc(nn * sizeof(float)), *b0 = malloc((size_t)n * sizeof(float));
    float *a = malloc(nn * sizeof(float)), *b = malloc((size_t)n * sizeof(float));
    float *m = malloc(nn * sizeof(float));
    float *ra = malloc(nn * sizeof(float)), *rb = malloc((size_t)n * sizeof(float));
    float *rm = malloc(nn * sizeof(float));
    double *x = malloc((size_t)n * sizeof(double));

    if (!a0 || !b0 || !a || !b || !m || !ra || !rb || !rm || !x) {
        rc = hd_wl_fail(ctx, "gaussian: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x67617573u);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            a0[(size_t)i * n + j] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
        a0[(size_t)i * n + i] += (float)n;
        b0[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    }
    fprintf(ctx->log, "gaussian: n=%d, %d launches\n", n, 2 * (n - 1));

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_a, nn * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_b, (size_t)n * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_m, nn * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_a, a0, nn * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_b, b0, (size_t)n * sizeof(float)));
    /* Only the strictly lower part of m is written: the rest must keep the 0xff (NaN) fill,
     * which the reference reproduces. */
    HD_WL_TRY(hd_memset(gpu, d_m, 0xff, nn * sizeof(float)));

    for (int t = 0; t < n - 1; t++) {
        int rows = n - 1 - t, cols = n - t;
        struct hd_arg a1[] = {HD_ARG(d_a), HD_ARG(d_m), HD_ARG(n), HD_ARG(t)};
        struct hd_dim3 g1 = {(uint32_t)((rows + GS_FAN1_BLOCK - 1) / GS_FAN1_BLOCK), 1, 1};
        struct hd_dim3 b1 = {GS_FAN1_BLOCK, 1, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "gauss_fan1", g1, b1, 0, 0, a1, 4));
        struct hd_arg a2[] = {HD_ARG(d_a), HD_ARG(d_b), HD_ARG(d_m), HD_ARG(n), HD_ARG(t)};
        struct hd_dim3 g2 = {(uint32_t)((cols + GS_FAN2_TILE - 1) / GS_FAN2_TILE),
                             (uint32_t)((rows + GS_FAN2_TILE - 1) / GS_FAN2_TILE), 1};
        struct hd_dim3 b2 = {GS_FAN2_TILE, GS_FAN2_TILE, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "gauss_fan2", g2, b2, 0, 0, a2, 5));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, a, d_a, nn * sizeof(float)));
    HD_WL_TRY(hd_memcpy_d2h(gpu, b, d_b, (size_t)n * sizeof(float)));
    HD_WL_TRY(hd_memcpy_d2h(gpu, m, d_m, nn * sizeof(float)));

    /* The kernels compute each value with one IEEE division or one multiply and one subtract
     * (nvcc keeps them separate: a[i][j] -= m*a[t][j] is emitted as mul.f32 + sub.f32), in the
     * same order as the reference, so the results agree to the last bit; the tolerance of a few
     * ulp only absorbs a multiply-add contraction that another compiler version may choose. */
    memcpy(ra, a0, nn * sizeof(float));
    memcpy(rb, b0, (size_t)n * sizeof(float));
    memset(rm, 0xff, nn * sizeof(float));
    gs_reference(ra, rb, rm, n);
    rc = hd_wl_compare_f32(ctx, "eliminated matrix a", ra, a, nn, 1e-5f, 1e-5f);
    if (rc == HD_OK)
        rc = hd_wl_compare_f32(ctx, "right-hand side b", rb, b, (size_t)n, 1e-5f, 1e-5f);
    if (rc == HD_OK)
        rc = hd_wl_compare_f32(ctx, "multipliers m", rm, m, nn, 1e-5f, 1e-7f);
    if (rc != HD_OK)
        goto out;

    /* Back substitution on the GPU's U and b', then the residual of the original system. */
    double res = 0.0;
    for (int i = n - 1; i >= 0; i--) {
        double s = (double)b[i];
        for (int j = i + 1; j < n; j++)
            s -= (double)a[(size_t)i * n + j] * x[j];
        x[i] = s / (double)a[(size_t)i * n + i];
    }
    for (int i = 0; i < n; i++) {
        double s = -(double)b0[i];
        for (int j = 0; j < n; j++)
            s += (double)a0[(size_t)i * n + j] * x[j];
        res = fmax(res, fabs(s));
    }
    fprintf(ctx->log, "gaussian: max |A x - b| = %.3g\n", res);
    /* Single-precision elimination of a diagonally dominant system (|a_ii| ~ n, |b| < 1): the
     * residual is of order n * eps * |A| * |x| ~ 1e-4; 1e-2 catches any real breakdown. */
    if (!(res < 1e-2))
        rc = hd_wl_fail(ctx, "gaussian: residual %.3g of the solved system is too large", res);

out:
    hd_free(gpu, d_a);
    hd_free(gpu, d_b);
    hd_free(gpu, d_m);
    free(a0);
    free(b0);
    free(a);
    free(b);
    free(m);
    free(ra);
    free(rb);
    free(rm);
    free(x);
    return rc;
}

const struct hd_workload hd_workload_gaussian = {
    .name = "gaussian",
    .description = "Gaussian elimination, Fan1 (multipliers) + Fan2 (trailing update) per column",
    .klass = "memory",
    .idempotent = false,
    .run = gs_run,
};
