/* SPDX-License-Identifier: MIT
 * sradv1.c - host driver of sradv1: Rodinia srad_v1-style speckle-reducing anisotropic diffusion
 * (sradv1.cu; Lin thesis Table 2.2 SR_1 reduce, SR_2 srad).
 *
 * Input (fixed seed): a rows x cols image in the intensity domain, a smooth pattern of bright
 * and dark regions times multiplicative speckle, values in about [0.5, 3] (Rodinia's extract
 * kernel maps 8-bit pixels to exp(p / 255) in [1, e]; ours is generated in that domain, so the
 * extract and compress kernels, one exp and one log per pixel at the start and end, are left
 * out). Border neighbours are clamped through the index arrays iN, iS (rows) and jW, jE
 * (columns), as srad_v1 does.
 *
 * Each iteration: prepare; reduce passes until one value is left (512 per CTA per pass, the host
 * swapping two buffer pairs); the host reads the sum and sum of squares and computes, in single
 * precision as srad_v1's host code, mean = sum / ne, var = sum2 / ne - mean^2 and
 * q0sqr = var / mean^2; srad; srad2 into the second image buffer (swapped).
 *
 * Reference: the host replays every kernel's float operations in the same order (the device code
 * uses explicit round-to-nearest intrinsics: nothing is left for nvcc to contract), so the sums
 * of every iteration and the final image are compared bit for bit (tolerance zero).
 *
 * Variant sradv1_lin22 (REGSPEC_SRAD=16, REGSPEC_REDUCE=14): Lin's counts for srad and reduce.
 * ptxas needs 22 for sradv1_srad, which gives 2 CTAs/SM by registers on fermi-gtx480 (512 x 22 x
 * 3 > 32,768); Lin's 16 give 3, by threads.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SR_TB 512 /* must match sradv1.cu */
#define SR_LAMBDA 0.5f

struct sr_size {
    int rows, cols, iters;
};

static struct sr_size sr_size_of(enum hd_wl_size size)
{
    /* Warp instructions (functional): small 0.22 M, medium 7.8 M (Rodinia's 502 x 458 image),
     * large 34 M. No size is a multiple of 512 pixels: the last CTA is partial. */
    static const struct sr_size s[3] = {{130, 101, 2}, {502, 458, 4}, {1000, 1000, 4}};
    return s[size];
}

/* One reduce pass on the host: out[b] = the tree of in[b*512 ..] exactly as sradv1_reduce. */
static int sr_reduce_pass(const float *in, const float *in2, float *out, float *out2, int m)
{
    float s1[SR_TB], s2[SR_TB];
    int blocks = (m + SR_TB - 1) / SR_TB;
    for (int b = 0; b < blocks; b++) {
        for (int t = 0; t < SR_TB; t++) {
            int k = b * SR_TB + t;
            s1[t] = k < m ? in[k] : 0.0f;
            s2[t] = k < m ? in2[k] : 0.0f;
        }
        for (int s = SR_TB / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++) {
                s1[t] = s1[t] + s1[t + s];
                s2[t] = s2[t] + s2[t + s];
            }
        out[b] = s1[0];
        out2[b] = s2[0];
    }
    return blocks;
}

static float sr_q0sqr(float sum, float sum2, int ne)
{
    float mean = sum / (float)ne;
    float var = sum2 / (float)ne - mean * mean;
    return var / (mean * mean);
}

/* The host's iteration step: sradv1_srad then sradv1_srad2, in the kernels' order. */
static void sr_step(const float *img, float *out, const int *in_, const int *is_, const int *jw,
                    const int *je, int rows, int cols, float q0sqr, float *dn, float *ds, float *dw,
                    float *de, float *coef)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int k = r * cols + c;
            float jc = img[k];
            float n = img[in_[r] * cols + c] - jc, s = img[is_[r] * cols + c] - jc;
            float w = img[r * cols + jw[c]] - jc, e = img[r * cols + je[c]] - jc;
            float g2 = n * n;
            g2 = fmaf(s, s, g2);
            g2 = fmaf(w, w, g2);
            g2 = fmaf(e, e, g2);
            g2 = g2 / (jc * jc);
            float l = ((n + s) + (w + e)) / jc;
            float ll = l * l;
            float num = 0.5f * g2 - 0.0625f * ll;
            float den = 1.0f + 0.25f * l;
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
            float cv = 1.0f / (1.0f + den);
            cv = cv < 0.0f ? 0.0f : (cv > 1.0f ? 1.0f : cv);
            dn[k] = n;
            ds[k] = s;
            dw[k] = w;
            de[k] = e;
            coef[k] = cv;
        }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int k = r * cols + c;
            float d = coef[k] * dn[k];
            d = fmaf(coef[is_[r] * cols + c], ds[k], d);
            d = fmaf(coef[k], dw[k], d);
            d = fmaf(coef[r * cols + je[c]], de[k], d);
            out[k] = fmaf(0.25f * SR_LAMBDA, d, img[k]);
        }
}

static int sradv1_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const struct sr_size sz = sr_size_of(ctx->size);
    const int rows = sz.rows, cols = sz.cols, ne = rows * cols;
    const size_t fb = sizeof(float) * (size_t)ne;
    const int nblk = (ne + SR_TB - 1) / SR_TB;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    float *img = malloc(fb), *ref = malloc(fb), *ref2 = malloc(fb), *got = malloc(fb);
    float *hd = malloc(5 * fb), *hs = malloc(2 * fb), *hs2 = malloc(2 * fb);
    int *idx = malloc(sizeof(int) * 2 * ((size_t)rows + (size_t)cols));
    hd_devptr dimg[2] = {0, 0}, dd[5] = {0, 0, 0, 0, 0}, dsum[2] = {0, 0}, dsum2[2] = {0, 0};
    hd_devptr didx = 0;

    if (!img || !ref || !ref2 || !got || !hd || !hs || !hs2 || !idx) {
        rc = hd_wl_fail(ctx, "sradv1: out of host memory");
        goto out;
    }
    int *in_ = idx, *is_ = idx + rows, *jw = idx + 2 * rows, *je = idx + 2 * rows + cols;
    for (int r = 0; r < rows; r++) {
        in_[r] = r == 0 ? 0 : r - 1;
        is_[r] = r == rows - 1 ? rows - 1 : r + 1;
    }
    for (int c = 0; c < cols; c++) {
        jw[c] = c == 0 ? 0 : c - 1;
        je[c] = c == cols - 1 ? cols - 1 : c + 1;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x7372616476310001ull);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            double base = 1.6 + 0.8 * sin(0.07 * r) * cos(0.05 * c) + (((r / 40) + (c / 40)) % 2 ? 0.3 : -0.3);
            img[r * cols + c] = (float)(base * (double)hd_wl_rng_float(&rng, 0.6f, 1.4f));
        }
    memcpy(ref, img, fb);
    fprintf(ctx->log, "sradv1: %d x %d image, %d iterations, lambda %.2f, %d CTAs of %d threads\n",
            rows, cols, sz.iters, (double)SR_LAMBDA, nblk, SR_TB);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const kernels[] = {"sradv1_srad", "sradv1_reduce"};
    static const char *const pins[] = {"REGSPEC_SRAD", "REGSPEC_REDUCE"};
    if ((rc = hd_wl_pin_kernel_regs(gpu, ctx, mod, kernels, pins, 2)) != HD_OK)
        goto out;
    for (int b = 0; b < 2; b++) {
        HD_WL_TRY(hd_malloc(gpu, &dimg[b], fb));
        HD_WL_TRY(hd_malloc(gpu, &dsum[b], fb));
        HD_WL_TRY(hd_malloc(gpu, &dsum2[b], fb));
    }
    for (int a = 0; a < 5; a++) {
        HD_WL_TRY(hd_malloc(gpu, &dd[a], fb));
        HD_WL_TRY(hd_memset(gpu, dd[a], 0xff, fb));
    }
    HD_WL_TRY(hd_malloc(gpu, &didx, sizeof(int) * 2 * ((size_t)rows + (size_t)cols)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, didx, idx, sizeof(int) * 2 * ((size_t)rows + (size_t)cols)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dimg[0], img, fb));
    HD_WL_TRY(hd_memset(gpu, dimg[1], 0xff, fb));
    const hd_devptr din = didx, dis = didx + sizeof(int) * (size_t)rows;
    const hd_devptr djw = didx + sizeof(int) * 2 * (size_t)rows;
    const hd_devptr dje = djw + sizeof(int) * (size_t)cols;
    const struct hd_dim3 grid = {(uint32_t)nblk, 1, 1}, block = {SR_TB, 1, 1};
    int cur = 0, nr = rows, nc = cols, nn = ne;
    float lambda = SR_LAMBDA;

    for (int it = 0; it < sz.iters; it++) {
        /* the reference's sums, pass by pass as the device */
        float *h1 = hs, *h2 = hs2, *o1 = hs + ne, *o2 = hs2 + ne;
        for (int k = 0; k < ne; k++) {
            h1[k] = ref[k];
            h2[k] = ref[k] * ref[k];
        }
        int m = ne;
        while (m > 1) {
            m = sr_reduce_pass(h1, h2, o1, o2, m);
            float *t1 = h1, *t2 = h2;
            h1 = o1, h2 = o2, o1 = t1, o2 = t2;
        }
        const float rsum = h1[0], rsum2 = h2[0];

        struct hd_arg ap[] = {HD_ARG(dimg[cur]), HD_ARG(dsum[0]), HD_ARG(dsum2[0]), HD_ARG(nn)};
        HD_WL_TRY(hd_launch(gpu, mod, "sradv1_prepare", grid, block, 0, 0, ap, 4));
        int src = 0;
        m = ne;
        while (m > 1) {
            int blocks = (m + SR_TB - 1) / SR_TB, mm = m;
            struct hd_arg ar[] = {HD_ARG(dsum[src]), HD_ARG(dsum2[src]), HD_ARG(dsum[1 - src]),
                                  HD_ARG(dsum2[1 - src]), HD_ARG(mm)};
            HD_WL_TRY(hd_launch(gpu, mod, "sradv1_reduce", (struct hd_dim3){(uint32_t)blocks, 1, 1},
                                block, 0, 0, ar, 5));
            m = blocks;
            src = 1 - src;
        }
        float sum = 0.0f, sum2 = 0.0f;
        HD_WL_TRY(hd_memcpy_d2h(gpu, &sum, dsum[src], sizeof(float)));
        HD_WL_TRY(hd_memcpy_d2h(gpu, &sum2, dsum2[src], sizeof(float)));
        if (memcmp(&sum, &rsum, sizeof sum) != 0 || memcmp(&sum2, &rsum2, sizeof sum2) != 0) {
            const bool first = memcmp(&sum, &rsum, sizeof sum) != 0;
            rc = hd_wl_fail(ctx, "%s[%d]: expected %.9g, got %.9g (the image's %s reduced on the "
                            "device in iteration %d)", first ? "sum" : "sum2", it,
                            (double)(first ? rsum : rsum2), (double)(first ? sum : sum2),
                            first ? "sum" : "sum of squares", it);
            goto out;
        }
        float q0sqr = sr_q0sqr(sum, sum2, ne);
        sr_step(ref, ref2, in_, is_, jw, je, rows, cols, q0sqr, hd, hd + ne, hd + 2 * (size_t)ne,
                hd + 3 * (size_t)ne, hd + 4 * (size_t)ne);
        float *t = ref;
        ref = ref2, ref2 = t;

        struct hd_arg as[] = {HD_ARG(dimg[cur]), HD_ARG(din),   HD_ARG(dis),   HD_ARG(djw),
                              HD_ARG(dje),       HD_ARG(nr),    HD_ARG(nc),    HD_ARG(q0sqr),
                              HD_ARG(dd[0]),     HD_ARG(dd[1]), HD_ARG(dd[2]), HD_ARG(dd[3]),
                              HD_ARG(dd[4])};
        HD_WL_TRY(hd_launch(gpu, mod, "sradv1_srad", grid, block, 0, 0, as, 13));
        struct hd_arg a2[] = {HD_ARG(dimg[cur]), HD_ARG(dis),   HD_ARG(dje),   HD_ARG(nr),
                              HD_ARG(nc),        HD_ARG(lambda), HD_ARG(dd[0]), HD_ARG(dd[1]),
                              HD_ARG(dd[2]),     HD_ARG(dd[3]), HD_ARG(dd[4]), HD_ARG(dimg[1 - cur])};
        HD_WL_TRY(hd_launch(gpu, mod, "sradv1_srad2", grid, block, 0, 0, a2, 12));
        cur = 1 - cur;
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, dimg[cur], fb));
    rc = hd_wl_compare_f32(ctx, "image", ref, got, (size_t)ne, 0.0f, 0.0f);

out:
    if (gpu) {
        for (int b = 0; b < 2; b++) {
            hd_free(gpu, dimg[b]);
            hd_free(gpu, dsum[b]);
            hd_free(gpu, dsum2[b]);
        }
        for (int a = 0; a < 5; a++)
            hd_free(gpu, dd[a]);
        hd_free(gpu, didx);
    }
    free(img);
    free(ref);
    free(ref2);
    free(got);
    free(hd);
    free(hs);
    free(hs2);
    free(idx);
    return rc;
}

const struct hd_workload hd_workload_sradv1 = {
    .name = "sradv1",
    .description = "srad_v1-style diffusion: per-pixel srad/srad2, multi-pass device reduction",
    .klass = "memory",
    .idempotent = true,
    .run = sradv1_run,
    .paper_row = "Lin Table 2.2 reduce (SR_1), srad (SR_2) (srad_v1)",
};

const struct hd_workload hd_workload_sradv1_lin22 = {
    .name = "sradv1_lin22",
    .description = "sradv1 with Lin's counts: sradv1_srad 16, sradv1_reduce 14 registers",
    .klass = "memory",
    .idempotent = true,
    .run = sradv1_run,
    .variant_of = "sradv1",
    .variant_flags = "-DREGSPEC_SRAD=16 -DREGSPEC_REDUCE=14",
    .paper_row = "Lin Table 2.2 reduce (SR_1), srad (SR_2): 16 warps/TB, 3 TBs/SM, 14 / 16 regs",
};
