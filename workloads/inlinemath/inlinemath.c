/* SPDX-License-Identifier: MIT
 * inlinemath.c - host driver of inlinemath: one thread per element, IM_TERMS = 64 terms of four
 * inline-PTX SFU approximations each (inlinemath.cu); the input feature is the grid size.
 *
 * Inputs x uniform in [0, 1). Reference: the same sum in double with exact functions.
 * Tolerance per element, from the PTX ISA's error bounds of the approximations: sin.approx
 * absolute 2^-20.9 on [-pi, pi] (arguments here are within [0, 2.5]); ex2.approx relative
 * ~2^-22; lg2.approx absolute ~2^-22; rsqrt.approx relative 2^-22.9; float rounding of each
 * argument (<= 65 u relative in 1 + (k+1) x) moves a result by less than 2^-22. With |sin| <= 1,
 * 2^(-e x) <= 1, lg2 <= 6.1 and rsqrt <= 1 a term errs by less than 2^-19.3 + 0.125 (6.1 + 2)
 * 2^-22 < 2^-19, so the 64 terms by less than 64 * 2^-19; the 64 float additions add at most
 * 64 u sum|term| (u = 2^-24). The check uses twice the first part: 64 * 2^-18 + 64 u sum|term|
 * (about 2.5e-4 against sums of ~20: one lost term, >= ~0.05 here, fails).
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define IM_TERMS 64 /* must match inlinemath.cu */
#define IM_TB 256   /* must match inlinemath.cu */

static int im_elements(enum hd_wl_size size)
{
    /* Gong's IM: grid sizes 32K - 1280K threads. Small is not a multiple of the CTA; large
     * (655,360 threads, within Gong's range) is 2560 CTAs: ~40 waves of 4 CTAs per SM on 16
     * SMs. Warp instructions in workloads/inlinemath/README.md. */
    static const int n[3] = {8000, 65536, 655360};
    return n[size];
}

static int im_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = im_elements(ctx->size);
    float *x = malloc((size_t)n * sizeof(float)), *y = malloc((size_t)n * sizeof(float));
    hd_devptr d_x = 0, d_y = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!x || !y) {
        rc = hd_wl_fail(ctx, "inlinemath: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x696d617468ULL);
    for (int i = 0; i < n; i++)
        x[i] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    const uint32_t ctas = (uint32_t)((n + IM_TB - 1) / IM_TB);
    fprintf(ctx->log, "inlinemath: %d threads (%u CTAs of %d), %d terms each\n", n, ctas, IM_TB,
            IM_TERMS);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_x, (size_t)n * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_y, (size_t)n * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_x, x, (size_t)n * sizeof(float)));
    HD_WL_TRY(hd_memset(gpu, d_y, 0xff, (size_t)n * sizeof(float))); /* NaN: unwritten shows */
    {
        int nn = n;
        struct hd_arg args[] = {HD_ARG(d_x), HD_ARG(d_y), HD_ARG(nn)};
        struct hd_dim3 grid = {ctas, 1, 1}, block = {IM_TB, 1, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "inline_math", grid, block, 0, 0, args, 3));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, y, d_y, (size_t)n * sizeof(float)));

    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        const double xd = (double)x[i];
        double sum = 0.0, mag = 0.0;
        for (int k = 0; k < IM_TERMS; k++) {
            double w = 0.5 * (1 + k % 5), e = 1 + (k & 3);
            double t = sin(w * xd) * exp2(-e * xd) +
                       0.125 * log2(1.0 + (k + 1) * xd) / sqrt(1.0 + k * xd);
            sum += t;
            mag += fabs(t);
        }
        double tol = IM_TERMS * 0x1p-18 + IM_TERMS * 0x1p-24 * mag;
        double err = fabs((double)y[i] - sum);
        if (!(err <= tol)) { /* also NaN */
            rc = hd_wl_fail(ctx, "out[%d]: expected %.9g, got %.9g (x = %.9g, tolerance %.3g)", i,
                            sum, (double)y[i], xd, tol);
            goto out;
        }
        worst = err / tol > worst ? err / tol : worst;
    }
    fprintf(ctx->log, "inlinemath: %d outputs verified; largest error %.3f of the tolerance\n", n,
            worst);

out:
    if (gpu) {
        hd_free(gpu, d_x);
        hd_free(gpu, d_y);
    }
    free(x);
    free(y);
    return rc;
}

const struct hd_workload hd_workload_inlinemath = {
    .name = "inlinemath",
    .description = "transcendental-heavy elementwise kernel: inline-PTX sin/ex2/lg2/rsqrt.approx",
    .klass = "compute",
    .idempotent = true, /* each thread reads its input and writes its own output */
    .run = im_run,
};
