/* SPDX-License-Identifier: MIT
 * conv2d.c - host driver of the conv2d workload: a non-separable 3x3 convolution of a float image
 * (Polybench 2DCONV; Lin thesis ch.3 Table 3.2 "CONV", 4096x4096 there = our large size).
 *
 * The host makes an ni x nj image of uniform values in [0, 1), launches conv2d_3x3 once (one
 * thread per pixel, 32x8 CTAs) and compares the whole output with a CPU loop that performs the
 * same float operations in the same order (one multiply, eight fmaf), so the check is bit-exact
 * (tolerance 0): border pixels must be 0, every other pixel the exact weighted sum.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define CV_BX 32 /* CTA shape (HD_CV_BX x HD_CV_BY); must match conv2d.cu */
#define CV_BY 8

/* The 3x3 weights, row-major (Polybench's c11..c33); must match conv2d.cu. */
static const float cv_w[9] = {0.2f, -0.3f, 0.4f, 0.5f, 0.6f, 0.7f, -0.8f, -0.9f, 0.10f};

struct cv_size {
    int ni, nj;
};

static struct cv_size cv_size_of(enum hd_wl_size size)
{
    /* 0.36 M, 9.4 M and 38 M warp instructions (measured, --functional); small is not a multiple
     * of the CTA shape; large is Lin's 4096x4096 (65,536 CTAs: hundreds of waves on 15 SMs). */
    static const struct cv_size s[3] = {{333, 479}, {2048, 2048}, {4096, 4096}};
    return s[size];
}

static void cv_reference(const float *a, float *b, int ni, int nj)
{
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++) {
            if (i == 0 || j == 0 || i == ni - 1 || j == nj - 1) {
                b[(size_t)i * nj + j] = 0.0f;
                continue;
            }
            const float *r0 = a + (size_t)(i - 1) * nj + j;
            const float *r1 = r0 + nj, *r2 = r1 + nj;
            const float px[9] = {r0[-1], r0[0], r0[1], r1[-1], r1[0], r1[1], r2[-1], r2[0], r2[1]};
            float acc = cv_w[0] * px[0];
            for (int k = 1; k < 9; k++)
                acc = fmaf(cv_w[k], px[k], acc);
            b[(size_t)i * nj + j] = acc;
        }
    }
}

static int cv_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct cv_size sz = cv_size_of(ctx->size);
    size_t n = (size_t)sz.ni * sz.nj, bytes = n * sizeof(float);
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_a = 0, d_b = 0;
    float *a = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);

    if (!a || !ref || !got) {
        rc = hd_wl_fail(ctx, "conv2d: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x32636f6eu);
    for (size_t k = 0; k < n; k++)
        a[k] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    fprintf(ctx->log, "conv2d: %dx%d image, 3x3 weights, %dx%d CTAs\n", sz.ni, sz.nj, CV_BX,
            CV_BY);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_a, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_b, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_a, a, bytes));
    HD_WL_TRY(hd_memset(gpu, d_b, 0xff, bytes)); /* NaN: a pixel no thread writes shows */
    struct hd_dim3 grid = {((uint32_t)sz.nj + CV_BX - 1) / CV_BX,
                           ((uint32_t)sz.ni + CV_BY - 1) / CV_BY, 1};
    struct hd_dim3 block = {CV_BX, CV_BY, 1};
    struct hd_arg args[] = {HD_ARG(d_a), HD_ARG(d_b), HD_ARG(sz.ni), HD_ARG(sz.nj)};
    HD_WL_TRY(hd_launch(gpu, mod, "conv2d_3x3", grid, block, 0, 0, args, 4));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_b, bytes));

    cv_reference(a, ref, sz.ni, sz.nj);
    rc = hd_wl_compare_f32(ctx, "b", ref, got, n, 0.0f, 0.0f);

out:
    hd_free(gpu, d_a);
    hd_free(gpu, d_b);
    free(a);
    free(ref);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_conv2d = {
    .name = "conv2d",
    .description = "non-separable 3x3 2-D convolution (Polybench 2DCONV), 32x8 CTAs, global loads",
    .klass = "memory",
    .idempotent = true,
    .run = cv_run,
    .locality_hint = 2, /* Gong Table 6.2 CONV: type 2 */
};
