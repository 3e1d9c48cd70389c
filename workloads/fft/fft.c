/* SPDX-License-Identifier: MIT
 * fft.c - host driver of fft: `signals` complex float signals of N = 1024 points, one CTA each.
 *
 * Inputs: real and imaginary parts uniform in [-1, 1). Reference: the same radix-2 transform in
 * double with twiddles from sin/cos in double (its error, ~log2 N 1e-16 relative, is negligible);
 * the host FFT is itself checked against a direct O(N^2) DFT on the first signal.
 *
 * Tolerance, per output element, from the norm-wise error of a radix-2 FFT: every stage adds at
 * most (mu + 3 u) sqrt(2) relative to the 2-norm of its values (mu: twiddle error, sincospif
 * <= 1 ulp on each part so mu <= 2 u; the complex multiply-add <= 3 u), and stage k's norm is
 * 2^(k/2) ||x||, so ||X_float - X|| <= 8 log2(N) u sqrt(N) ||x||_2 with room (u = 2^-24); one
 * element's error is at most the norm. For N = 1024 and these inputs that is ~4e-3 against
 * |X_k| of ~26: one wrong or lost input term moves every X_k by ~1.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define FFT_LOG2N 10 /* must match fft.cu */
#define FFT_N (1 << FFT_LOG2N)

static int fft_signals(enum hd_wl_size size)
{
    /* Warp instructions (functional model) in workloads/fft/README.md. Large: 2000 CTAs of 16
     * warps, ~60 waves of 2 CTAs per SM on 16 SMs. */
    static const int s[3] = {30, 300, 2000};
    return s[size];
}

/* In-place radix-2 DIT FFT of n = 2^lg complex doubles (re, im interleaved). */
static void fft_host(double *v, int lg)
{
    const int n = 1 << lg;
    for (int i = 0; i < n; i++) {
        int r = 0;
        for (int b = 0; b < lg; b++)
            r |= ((i >> b) & 1) << (lg - 1 - b);
        if (r > i) {
            double tr = v[2 * i], ti = v[2 * i + 1];
            v[2 * i] = v[2 * r];
            v[2 * i + 1] = v[2 * r + 1];
            v[2 * r] = tr;
            v[2 * r + 1] = ti;
        }
    }
    for (int half = 1; half < n; half <<= 1)
        for (int j = 0; j < half; j++) {
            double ang = -3.14159265358979323846 * j / half, cs = cos(ang), sn = sin(ang);
            for (int i0 = j; i0 < n; i0 += 2 * half) {
                int i1 = i0 + half;
                double br = v[2 * i1] * cs - v[2 * i1 + 1] * sn;
                double bi = v[2 * i1] * sn + v[2 * i1 + 1] * cs;
                v[2 * i1] = v[2 * i0] - br;
                v[2 * i1 + 1] = v[2 * i0 + 1] - bi;
                v[2 * i0] += br;
                v[2 * i0 + 1] += bi;
            }
        }
}

static int fft_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int signals = fft_signals(ctx->size);
    const size_t floats = (size_t)signals * FFT_N * 2;
    float *x = malloc(floats * sizeof(float)), *y = malloc(floats * sizeof(float));
    double *v = malloc(2 * FFT_N * sizeof(double));
    hd_devptr d_x = 0, d_y = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!x || !y || !v) {
        rc = hd_wl_fail(ctx, "fft: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x666674ULL);
    for (size_t i = 0; i < floats; i++)
        x[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    fprintf(ctx->log, "fft: %d signals of %d complex points, %d threads per CTA\n", signals, FFT_N,
            FFT_N / 2);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_x, floats * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_y, floats * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_x, x, floats * sizeof(float)));
    HD_WL_TRY(hd_memset(gpu, d_y, 0xff, floats * sizeof(float))); /* NaN: unwritten shows */
    {
        struct hd_arg args[] = {HD_ARG(d_x), HD_ARG(d_y)};
        struct hd_dim3 grid = {(uint32_t)signals, 1, 1}, block = {FFT_N / 2, 1, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "fft_radix2", grid, block, 0, 0, args, 2));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, y, d_y, floats * sizeof(float)));

    const double u = 0x1p-24;
    double worst = 0.0;
    for (int sgl = 0; sgl < signals; sgl++) {
        const float *xs = x + (size_t)sgl * FFT_N * 2, *ys = y + (size_t)sgl * FFT_N * 2;
        double norm2 = 0.0;
        for (int i = 0; i < 2 * FFT_N; i++) {
            v[i] = (double)xs[i];
            norm2 += v[i] * v[i];
        }
        fft_host(v, FFT_LOG2N);
        if (sgl == 0) { /* the host FFT against a direct DFT */
            for (int k = 0; k < FFT_N; k++) {
                double re = 0.0, im = 0.0;
                for (int j = 0; j < FFT_N; j++) {
                    double ang = -2.0 * 3.14159265358979323846 * (double)((j * k) % FFT_N) / FFT_N;
                    re += (double)xs[2 * j] * cos(ang) - (double)xs[2 * j + 1] * sin(ang);
                    im += (double)xs[2 * j] * sin(ang) + (double)xs[2 * j + 1] * cos(ang);
                }
                if (fabs(re - v[2 * k]) > 1e-9 || fabs(im - v[2 * k + 1]) > 1e-9) {
                    rc = hd_wl_fail(ctx, "fft: host FFT differs from the DFT at bin %d", k);
                    goto out;
                }
            }
        }
        const double bound = 8.0 * FFT_LOG2N * u * sqrt((double)FFT_N * norm2);
        for (int k = 0; k < FFT_N; k++) {
            double er = fabs((double)ys[2 * k] - v[2 * k]);
            double ei = fabs((double)ys[2 * k + 1] - v[2 * k + 1]);
            double e = er > ei ? er : ei;
            if (!(e <= bound)) { /* also NaN */
                rc = hd_wl_fail(ctx, "X[signal %d][bin %d]: expected %.9g%+.9gi, got %.9g%+.9gi "
                                     "(tolerance %.3g on each part)",
                                sgl, k, v[2 * k], v[2 * k + 1], (double)ys[2 * k],
                                (double)ys[2 * k + 1], bound);
                goto out;
            }
            worst = e / bound > worst ? e / bound : worst;
        }
    }
    fprintf(ctx->log, "fft: %d spectra verified; largest error %.3f of the bound\n", signals,
            worst);

out:
    if (gpu) {
        hd_free(gpu, d_x);
        hd_free(gpu, d_y);
    }
    free(x);
    free(y);
    free(v);
    return rc;
}

const struct hd_workload hd_workload_fft = {
    .name = "fft",
    .description = "batched complex float FFT, N = 1024, radix 2 in shared memory",
    .klass = "compute",
    .idempotent = true, /* a CTA reads its signal and writes its own spectrum */
    .run = fft_run,
};
