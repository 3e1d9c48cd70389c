/* SPDX-License-Identifier: MIT
 * mvt.c - host driver of mvt (Polybench MVT): x1 = x1_in + A y1 (mvt_rows) and
 * x2 = x2_in + A^T y2 (mvt_cols), one launch each, on an n x n row-major matrix.
 *
 * Inputs: A, y1, y2, x1_in, x2_in uniform in [-1, 1) (fixed seed). Each output is one thread's
 * chain sum = x_in[i]; sum = fma(a, y, sum) for j = 0 .. n-1 (the committed PTX contracts every
 * step of the unrolled loop to fma.rn.f32 and keeps the order), so the reference replays the chain
 * with fmaf() and the outputs are compared bit for bit (tolerance zero). The replay is itself
 * checked against the double-precision product: n sequential fmas err by at most
 * n u (|x_in| + sum|a y|) (u = 2^-24), asserted for every element.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define MVT_TB 256 /* must match mvt.cu */

static int mvt_n(enum hd_wl_size size)
{
    /* Warp instructions: small 0.16 M, medium 4.5 M, large 19 M. Small is not a multiple of the
     * CTA (a partial last CTA). Large (6144: 24 CTAs per kernel, 147 MB matrix) is long but has
     * only n threads per kernel, like Polybench's MVT: 1.5 CTAs per SM on 16 SMs, no waves. */
    static const int n[3] = {700, 3000, 6144};
    return n[size];
}

/* sum = x_in; sum = fma(a[j], y[j], sum) over j, with a[j] at a + j * stride. Also returns the
 * exact double value and the magnitude |x_in| + sum |a y| for the replay's own error check. */
static float mvt_chain(const float *a, size_t stride, const float *y, float x_in, int n,
                       double *exact, double *mag)
{
    float sum = x_in;
    double e = x_in, m = fabs((double)x_in);
    for (int j = 0; j < n; j++) {
        float aj = a[(size_t)j * stride];
        sum = fmaf(aj, y[j], sum);
        e += (double)aj * (double)y[j];
        m += fabs((double)aj * (double)y[j]);
    }
    *exact = e;
    *mag = m;
    return sum;
}

static int mvt_verify(struct hd_wl_ctx *ctx, const char *what, const float *a, size_t row_step,
                      size_t col_step, const float *y, const float *x_in, const float *got,
                      float *ref, int n)
{
    for (int i = 0; i < n; i++) {
        double exact, mag;
        ref[i] = mvt_chain(a + (size_t)i * row_step, col_step, y, x_in[i], n, &exact, &mag);
        double bound = (double)n * 0x1p-24 * mag;
        if (fabs((double)ref[i] - exact) > bound)
            return hd_wl_fail(ctx, "mvt: reference replay of %s[%d] = %.9g is farther than %.3g "
                                   "from the exact %.17g", what, i, (double)ref[i], bound, exact);
    }
    return hd_wl_compare_f32(ctx, what, ref, got, (size_t)n, 0.0f, 0.0f);
}

static int mvt_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = mvt_n(ctx->size);
    const size_t nn = (size_t)n * (size_t)n, vb = (size_t)n * sizeof(float);
    float *a = malloc(nn * sizeof(float)), *vec = malloc(6 * vb), *ref = malloc(vb);
    hd_devptr da = 0, dv[6] = {0};
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!a || !vec || !ref) {
        rc = hd_wl_fail(ctx, "mvt: out of host memory");
        goto out;
    }
    /* vec: y1, y2, x1_in, x2_in, x1 (result), x2 (result) */
    float *y1 = vec, *y2 = vec + n, *x1_in = vec + 2 * (size_t)n, *x2_in = vec + 3 * (size_t)n;
    float *x1 = vec + 4 * (size_t)n, *x2 = vec + 5 * (size_t)n;
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6d76745f706f6c79ULL);
    for (size_t k = 0; k < nn; k++)
        a[k] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    for (size_t k = 0; k < 4 * (size_t)n; k++)
        vec[k] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    const uint32_t ctas = (uint32_t)((n + MVT_TB - 1) / MVT_TB);
    fprintf(ctx->log, "mvt: n = %d, %u CTAs of %d threads per kernel\n", n, ctas, MVT_TB);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &da, nn * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, da, a, nn * sizeof(float)));
    for (int k = 0; k < 6; k++) {
        HD_WL_TRY(hd_malloc(gpu, &dv[k], vb));
        if (k < 4)
            HD_WL_TRY(hd_memcpy_h2d(gpu, dv[k], vec + (size_t)k * n, vb));
        else
            HD_WL_TRY(hd_memset(gpu, dv[k], 0xff, vb)); /* NaN: an unwritten output shows */
    }
    {
        struct hd_dim3 grid = {ctas, 1, 1}, block = {MVT_TB, 1, 1};
        struct hd_arg rows[] = {HD_ARG(da), HD_ARG(dv[0]), HD_ARG(dv[2]), HD_ARG(dv[4]), HD_ARG(n)};
        struct hd_arg cols[] = {HD_ARG(da), HD_ARG(dv[1]), HD_ARG(dv[3]), HD_ARG(dv[5]), HD_ARG(n)};
        HD_WL_TRY(hd_launch(gpu, mod, "mvt_rows", grid, block, 0, 0, rows, 5));
        HD_WL_TRY(hd_launch(gpu, mod, "mvt_cols", grid, block, 0, 0, cols, 5));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, x1, dv[4], vb));
    HD_WL_TRY(hd_memcpy_d2h(gpu, x2, dv[5], vb));

    /* x1[i]: row i of A (elements 1 apart); x2[i]: column i (elements n apart). */
    rc = mvt_verify(ctx, "x1", a, (size_t)n, 1, y1, x1_in, x1, ref, n);
    if (rc == HD_OK)
        rc = mvt_verify(ctx, "x2", a, 1, (size_t)n, y2, x2_in, x2, ref, n);
    if (rc == HD_OK)
        fprintf(ctx->log, "mvt: x1 and x2 (%d elements each) bit-exact\n", n);

out:
    if (gpu) {
        hd_free(gpu, da);
        for (int k = 0; k < 6; k++)
            hd_free(gpu, dv[k]);
    }
    free(a);
    free(vec);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_mvt = {
    .name = "mvt",
    .description = "matrix-vector product and transpose (Polybench MVT): row walk and column walk",
    .klass = "memory",
    .idempotent = true, /* outputs are separate from the inputs x1_in, x2_in (see mvt.cu) */
    .run = mvt_run,
    .locality_hint = 3, /* Gong Table 6.2 MVT: type 3 */
};
