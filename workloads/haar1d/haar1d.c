/* SPDX-License-Identifier: MIT
 * haar1d.c - host driver of haar1d: the full Haar decomposition of N = 2^L floats, in launches of
 * haar_levels that each run up to log2(2 HAAR_TB) = 9 levels on chunks of 512 coefficients.
 *
 * Inputs uniform in [-1, 1). Each coefficient is computed as (x + y) * c or (x - y) * c in float
 * (c = 1/sqrt(2) rounded to float), operations that nvcc cannot contract into an fma and that
 * the host evaluates identically, so the reference replays the levels in float and compares bit
 * for bit (tolerance zero). The replay is itself checked against the transform in double with the
 * exact 1/sqrt(2): a level-j coefficient is 2^(-j/2) times a signed sum of 2^j inputs, and j
 * levels of two roundings plus the error of c (< u/2 relative) keep it within 3 j u m, m =
 * 2^(-j/2) sum |x| over its support (u = 2^-24); that bound is asserted for every coefficient.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define HAAR_TB 256 /* must match haar1d.cu */

static int haar_log2n(enum hd_wl_size size)
{
    /* Warp instructions (functional model) in workloads/haar1d/README.md; small: 2^17 (256 CTAs,
     * then one of 128 threads), large: 2^23 (16384 CTAs in the first launch, 32 in the second,
     * one in the third). */
    static const int l[3] = {17, 20, 23};
    return l[size];
}

static int haar_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int log2n = haar_log2n(ctx->size);
    const size_t n = (size_t)1 << log2n;
    float *x = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float)), *cur = malloc(n * sizeof(float));
    double *dcur = malloc(n * sizeof(double)), *dmag = malloc(n * sizeof(double));
    hd_devptr d_x = 0, d_out = 0, d_ap[2] = {0, 0};
    struct hd_module *mod = NULL;
    int rc = HD_OK, launches = 0;

    if (!x || !got || !ref || !cur || !dcur || !dmag) {
        rc = hd_wl_fail(ctx, "haar1d: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x68616172ULL);
    for (size_t i = 0; i < n; i++)
        x[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    const size_t ap_len = n / (2 * HAAR_TB) > 0 ? n / (2 * HAAR_TB) : 1;
    HD_WL_TRY(hd_malloc(gpu, &d_x, n * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_out, n * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_ap[0], ap_len * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_ap[1], ap_len * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_x, x, n * sizeof(float)));
    HD_WL_TRY(hd_memset(gpu, d_out, 0xff, n * sizeof(float))); /* NaN: unwritten shows */
    {
        hd_devptr in = d_x;
        size_t len = n;
        int base = 0, lg = log2n;
        while (len > 1) {
            size_t chunk = len < 2 * HAAR_TB ? len : 2 * HAAR_TB;
            int levels = 0;
            while (((size_t)1 << levels) < chunk)
                levels++;
            size_t ctas = len / chunk;
            hd_devptr ap = ctas == 1 ? d_out : d_ap[launches & 1]; /* the last approx: out[0] */
            struct hd_arg args[] = {HD_ARG(in), HD_ARG(d_out), HD_ARG(ap), HD_ARG(base),
                                    HD_ARG(lg)};
            struct hd_dim3 grid = {(uint32_t)ctas, 1, 1}, block = {(uint32_t)(chunk / 2), 1, 1};
            HD_WL_TRY(hd_launch(gpu, mod, "haar_levels", grid, block, 0, 0, args, 5));
            launches++;
            in = ap;
            len = ctas;
            base += levels;
        }
    }
    fprintf(ctx->log, "haar1d: N = 2^%d, %d levels in %d launches\n", log2n, log2n, launches);
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_out, n * sizeof(float)));

    /* Float replay (bit-exact reference) and the double transform with magnitudes. */
    const float c = 0.70710678118654752f;
    const double cd = 0.70710678118654752440;
    for (size_t i = 0; i < n; i++) {
        cur[i] = x[i];
        dcur[i] = (double)x[i];
        dmag[i] = fabs((double)x[i]);
    }
    double worst = 0.0;
    for (int j = 1; j <= log2n; j++) {
        size_t half = n >> j;
        for (size_t i = 0; i < half; i++) {
            float fx = cur[2 * i], fy = cur[2 * i + 1];
            float fa = (fx + fy) * c, fd = (fx - fy) * c;
            double da = (dcur[2 * i] + dcur[2 * i + 1]) * cd;
            double dd = (dcur[2 * i] - dcur[2 * i + 1]) * cd;
            double m = (dmag[2 * i] + dmag[2 * i + 1]) * cd, bound = 3.0 * j * 0x1p-24 * m;
            double e = fmax(fabs((double)fa - da), fabs((double)fd - dd));
            if (e > bound) {
                rc = hd_wl_fail(ctx, "haar1d: reference replay at level %d, index %zu is %.3g from "
                                     "the double transform, beyond %.3g", j, i, e, bound);
                goto out;
            }
            worst = bound > 0.0 && e / bound > worst ? e / bound : worst;
            ref[half + i] = fd;
            cur[i] = fa;
            dcur[i] = da;
            dmag[i] = m;
        }
    }
    ref[0] = cur[0];
    rc = hd_wl_compare_f32(ctx, "coefficient", ref, got, n, 0.0f, 0.0f);
    if (rc == HD_OK)
        fprintf(ctx->log, "haar1d: %zu coefficients bit-exact; replay within %.2f of its bound\n",
                n, worst);

out:
    if (gpu) {
        hd_free(gpu, d_x);
        hd_free(gpu, d_out);
        hd_free(gpu, d_ap[0]);
        hd_free(gpu, d_ap[1]);
    }
    free(x);
    free(got);
    free(ref);
    free(cur);
    free(dcur);
    free(dmag);
    return rc;
}

const struct hd_workload hd_workload_haar1d = {
    .name = "haar1d",
    .description = "1-D Haar wavelet decomposition, 9 levels per launch in shared memory",
    .klass = "barrier-heavy",
    .idempotent = true, /* a launch never writes its own input (see haar1d.cu) */
    .run = haar_run,
};
