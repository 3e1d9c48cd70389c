/* SPDX-License-Identifier: MIT
 * dct8x8.c - host driver for the 8x8 block DCT and inverse DCT (SDK-like).
 *
 * The image is w x h pixels in [0, 255) (w, h multiples of 8, w not always a multiple of the
 * 32-pixel strip). The host fills the __constant__ DCT matrix c_dct, runs dct8x8_forward into
 * a coefficient image and dct8x8_inverse back into a pixel image. Checks: the coefficients
 * against a double-precision forward transform of the input; the inverse against a double
 * inverse of the device's coefficients; and the round trip against the original pixels.
 *
 * Variants (ptx.flags, README) set the strip width DCT_BX (threads per CTA DCT_BX x 8) and a
 * register cap; the driver reads DCT_BX back from the variant's flags.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DCT_BX 32 /* default strip width; must match dct8x8.cu (variants set it in ptx.flags) */
#define DCT_BY 8

struct dct_dims {
    int w, h;
};

static const struct dct_dims dct_sizes[3] = {
    {128, 96},    /* small: 80K warp instructions */
    {520, 480},   /* medium: 1.7M; the last strip is partial */
    {2048, 1536}, /* large: 20M */
};

#define DCT_TRY(call)                                                                           \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

/* Transform every 8x8 block: inverse 0 computes C B C^T, inverse 1 computes C^T B C. */
static void dct_reference(const float *in, float *out, int w, int h, const float *c, int inverse)
{
    for (int by = 0; by < h; by += 8)
        for (int bx = 0; bx < w; bx += 8) {
            double tmp[8][8];
            for (int r = 0; r < 8; r++)
                for (int k = 0; k < 8; k++) {
                    double s = 0.0;
                    for (int i = 0; i < 8; i++) {
                        double m = (double)(inverse ? c[i * 8 + k] : c[k * 8 + i]);
                        s += m * (double)in[(size_t)(by + r) * (size_t)w + (size_t)(bx + i)];
                    }
                    tmp[r][k] = s;
                }
            for (int k = 0; k < 8; k++)
                for (int col = 0; col < 8; col++) {
                    double s = 0.0;
                    for (int i = 0; i < 8; i++)
                        s += (double)(inverse ? c[i * 8 + k] : c[k * 8 + i]) * tmp[i][col];
                    out[(size_t)(by + k) * (size_t)w + (size_t)(bx + col)] = (float)s;
                }
        }
}

int dct8x8_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    /* --size waves (issue 32 item 6, workloads/README.md "Occupancy-length inputs"): a larger
     * image, one thread per pixel, so more CTAs of the same footprint (the last strip partial). */
    static const struct dct_dims dct_waves = {392, 256};
    const struct dct_dims d = ctx->waves ? dct_waves : dct_sizes[ctx->size];
    const size_t np = (size_t)d.w * (size_t)d.h;
    float *h_img = malloc(np * sizeof(float)), *h_coef = malloc(np * sizeof(float));
    float *h_back = malloc(np * sizeof(float)), *ref = malloc(np * sizeof(float));
    float c[64];
    hd_devptr dimg = 0, dcoef = 0, dback = 0, dc = 0;
    struct hd_module *mod = NULL;
    int st = HD_OK;
    const long bx = hd_wl_flag(hd_wl_variant_flags(ctx), "DCT_BX", DCT_BX);

    if (bx < 8 || bx > 1024 / DCT_BY || bx % 8 != 0) {
        st = hd_wl_fail(ctx, "dct8x8: DCT_BX=%ld: a multiple of 8 from 8 to %d", bx,
                        1024 / DCT_BY);
        goto out;
    }
    if (!h_img || !h_coef || !h_back || !ref) {
        st = hd_wl_fail(ctx, "dct8x8: out of host memory");
        goto out;
    }
    const double pi = 3.14159265358979323846;
    for (int u = 0; u < 8; u++)
        for (int x = 0; x < 8; x++)
            c[u * 8 + x] = (float)((u == 0 ? sqrt(1.0 / 8.0) : sqrt(2.0 / 8.0)) *
                                   cos((2 * x + 1) * u * pi / 16.0));
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x44435438000001ULL);
    for (size_t i = 0; i < np; i++)
        h_img[i] = hd_wl_rng_float(&rng, 0.0f, 255.0f);

    hd_wl_work(ctx, hd_wl_hash(HD_WL_HASH_INIT, h_img, np * sizeof(float)), "dct8x8 %dx%d", d.w,
               d.h);
    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const dct_kernels[] = {"dct8x8_forward", "dct8x8_inverse"};
    if ((st = hd_wl_pin_regspec(gpu, ctx, mod, dct_kernels, 2)) != HD_OK)
        goto out;
    size_t cbytes = 0;
    DCT_TRY(hd_module_symbol(gpu, mod, "c_dct", &dc, &cbytes));
    if (cbytes != sizeof(c)) {
        st = hd_wl_fail(ctx, "dct8x8: c_dct is %zu bytes, expected %zu", cbytes, sizeof(c));
        goto out;
    }
    DCT_TRY(hd_memcpy_h2d(gpu, dc, c, sizeof(c)));
    DCT_TRY(hd_malloc(gpu, &dimg, np * sizeof(float)));
    DCT_TRY(hd_malloc(gpu, &dcoef, np * sizeof(float)));
    DCT_TRY(hd_malloc(gpu, &dback, np * sizeof(float)));
    DCT_TRY(hd_memcpy_h2d(gpu, dimg, h_img, np * sizeof(float)));
    DCT_TRY(hd_memset(gpu, dcoef, 0xff, np * sizeof(float)));
    DCT_TRY(hd_memset(gpu, dback, 0xff, np * sizeof(float)));

    int w = d.w, h = d.h;
    struct hd_dim3 grid = {(uint32_t)((w + bx - 1) / bx), (uint32_t)((h + DCT_BY - 1) / DCT_BY),
                           1};
    struct hd_dim3 block = {(uint32_t)bx, DCT_BY, 1};
    struct hd_arg fwd[] = {HD_ARG(dimg), HD_ARG(dcoef), HD_ARG(w), HD_ARG(h)};
    struct hd_arg inv[] = {HD_ARG(dcoef), HD_ARG(dback), HD_ARG(w), HD_ARG(h)};
    DCT_TRY(hd_launch(gpu, mod, "dct8x8_forward", grid, block, 0, 0, fwd, 4));
    DCT_TRY(hd_launch(gpu, mod, "dct8x8_inverse", grid, block, 0, 0, inv, 4));
    DCT_TRY(hd_synchronize(gpu));
    DCT_TRY(hd_memcpy_d2h(gpu, h_coef, dcoef, np * sizeof(float)));
    DCT_TRY(hd_memcpy_d2h(gpu, h_back, dback, np * sizeof(float)));

    /* Tolerance. Each pass is an 8-term dot product with a row of C, whose absolute values sum
     * to <= sqrt(8) (orthonormal rows). Inputs < 255: the row pass is within
     * 8 * 2^-24 * sqrt(8) * 255 = 3.5e-4 of exact, and the column pass adds its own error on
     * values <= sqrt(8) * 255 and scales the row error by <= sqrt(8): about 2e-3 in all, for
     * coefficients up to 2040. A wrong index or table entry moves values by units. */
    dct_reference(h_img, ref, d.w, d.h, c, 0);
    st = hd_wl_compare_f32(ctx, "dct coefficients", ref, h_coef, np, 0.0f, 2e-3f);
    if (st != HD_OK)
        goto out;
    dct_reference(h_coef, ref, d.w, d.h, c, 1);
    st = hd_wl_compare_f32(ctx, "inverse dct", ref, h_back, np, 0.0f, 2e-3f);
    if (st != HD_OK)
        goto out;
    /* Round trip: the forward error (2e-3) goes through the inverse, which scales a maximum
     * by <= sqrt(8) per pass, plus the inverse's own 2e-3; the float table is orthonormal to
     * ~1e-7. So 2e-2. */
    st = hd_wl_compare_f32(ctx, "round trip", h_img, h_back, np, 0.0f, 2e-2f);
    if (st == HD_OK)
        fprintf(ctx->log, "dct8x8: %dx%d image (%d blocks), %ldx%d CTAs, forward and inverse "
                          "verified\n", d.w, d.h, (d.w / 8) * (d.h / 8), bx, DCT_BY);

out:
    hd_free(gpu, dimg);
    hd_free(gpu, dcoef);
    hd_free(gpu, dback);
    free(h_img);
    free(h_coef);
    free(h_back);
    free(ref);
    return st;
}

const struct hd_workload hd_workload_dct8x8 = {
    .name = "dct8x8",
    .description = "8x8 block DCT-II and inverse in shared memory, table in constant memory",
    .klass = "barrier-heavy",
    .idempotent = true, /* each kernel reads one image and writes another */
    .run = dct8x8_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_dct8x8_tb64 = {
    .name = "dct8x8_tb64",
    .description = "dct8x8 variant: 8x8-pixel CTAs (64 threads, one block, 512 B shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dct8x8_run,
    .variant_of = "dct8x8",
    .variant_flags = "-DDCT_BX=8",
};
const struct hd_workload hd_workload_dct8x8_tb128 = {
    .name = "dct8x8_tb128",
    .description = "dct8x8 variant: 16x8-pixel CTAs (128 threads, two blocks, 1 KB shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dct8x8_run,
    .variant_of = "dct8x8",
    .variant_flags = "-DDCT_BX=16",
};
const struct hd_workload hd_workload_dct8x8_tb512 = {
    .name = "dct8x8_tb512",
    .description =
        "dct8x8 variant: 64x8-pixel CTAs (512 threads, eight blocks, 4 KB shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dct8x8_run,
    .variant_of = "dct8x8",
    .variant_flags = "-DDCT_BX=64",
};
const struct hd_workload hd_workload_dct8x8_tb1024 = {
    .name = "dct8x8_tb1024",
    .description = "dct8x8 variant: 128x8-pixel CTAs (1024 threads, 16 blocks, 8 KB shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dct8x8_run,
    .variant_of = "dct8x8",
    .variant_flags = "-DDCT_BX=128",
};
const struct hd_workload hd_workload_dct8x8_r24 = {
    .name = "dct8x8_r24",
    .description = "dct8x8 variant: at most 24 registers per thread (__maxnreg__)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dct8x8_run,
    .variant_of = "dct8x8",
    .variant_flags = "-DMAXREG=24",
};
const struct hd_workload hd_workload_dct8x8_r12 = {
    .name = "dct8x8_r12",
    .description = "dct8x8 variant: at most 12 registers per thread (__maxnreg__; ptxas keeps 24)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = dct8x8_run,
    .variant_of = "dct8x8",
    .variant_flags = "-DMAXREG=12",
};
/* }==== */
