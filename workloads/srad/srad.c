/* SPDX-License-Identifier: MIT
 * srad.c - host driver of the srad workload: speckle-reducing anisotropic diffusion of a synthetic
 * ultrasound-like image.
 *
 * The image is a piecewise-smooth scene (a background gradient and a few bright discs) multiplied
 * by speckle noise and mapped through exp() (the usual log-compressed-to-intensity step), so
 * J > 0. Each iteration the host reads back the region of interest (the top-left quarter, taken as
 * a homogeneous speckle sample) and computes q0^2 = var/mean^2 over it, then launches srad_coeff
 * and srad_update on 16x16 tiles. The final image is compared with the same iterations run on the
 * CPU.
 *
 * Input-size variant (ptx.flags, token `wN`; issue 24, Shieh Table 4.2 victims): WAVES=N (1..64)
 * sizes the small image so that every launch has N full waves of CTAs on fermi-gtx480 at Table
 * 4.2's 6 TBs per SM (15 x 6N tiles); same kernels and reference, medium and large the base's.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SR_TILE 16
#define SR_LAMBDA 0.5f

struct sr_size {
    int rows, cols, iters;
};

static struct sr_size sr_size_of(enum hd_wl_size size)
{
    /* ~0.21 M, 12 M and 50 M warp instructions; small has partial tiles on both axes. */
    static const struct sr_size s[3] = {{120, 136, 2}, {512, 512, 8}, {1024, 1024, 8}};
    return s[size];
}

/* The size the context asks for: the base's table, or a variant's WAVES-sized small image. */
static struct sr_size sr_size_for(const struct hd_wl_ctx *ctx)
{
    struct sr_size sz = sr_size_of(ctx->size);
    long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    if (waves > 0 && waves <= 64 && ctx->size == HD_WL_SMALL) {
        sz.cols = 15 * SR_TILE;                /* 15 SMs */
        sz.rows = 6 * (int)waves * SR_TILE;    /* x 6 TBs/SM x waves */
        sz.iters = 2;
    }
    return sz;
}

/* q0^2 of the region of interest: rows [0, roi_rows) x cols [0, roi_cols). */
static float sr_q0sqr(const float *img, int cols, int roi_rows, int roi_cols)
{
    double sum = 0.0, sum2 = 0.0;
    for (int y = 0; y < roi_rows; y++)
        for (int x = 0; x < roi_cols; x++) {
            double v = img[(size_t)y * cols + x];
            sum += v;
            sum2 += v * v;
        }
    double n = (double)roi_rows * roi_cols, mean = sum / n;
    return (float)((sum2 / n - mean * mean) / (mean * mean));
}

/* Per-pixel scratch of one time step: the four differences and the diffusion coefficient. */
struct sr_fields {
    float *dn, *ds, *dw, *de, *c;
};

/* One CPU time step with the kernels' formulas, in two passes as on the GPU. */
static void sr_ref_step(float *img, const struct sr_fields *f, int rows, int cols, float q0sqr)
{
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            int k = y * cols + x;
            float j = img[k];
            float dn = img[(y > 0 ? y - 1 : 0) * cols + x] - j;
            float ds = img[(y < rows - 1 ? y + 1 : y) * cols + x] - j;
            float dw = img[y * cols + (x > 0 ? x - 1 : 0)] - j;
            float de = img[y * cols + (x < cols - 1 ? x + 1 : x)] - j;
            float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (j * j);
            float l = (dn + ds + dw + de) / j;
            float num = 0.5f * g2 - 0.0625f * (l * l);
            float den = 1.0f + 0.25f * l;
            float q = num / (den * den);
            float c = 1.0f / (1.0f + (q - q0sqr) / (q0sqr * (1.0f + q0sqr)));
            f->dn[k] = dn;
            f->ds[k] = ds;
            f->dw[k] = dw;
            f->de[k] = de;
            f->c[k] = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
        }
    }
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            int k = y * cols + x;
            float c = f->c[k];
            float cs = f->c[(y < rows - 1 ? y + 1 : y) * cols + x];
            float ce = f->c[y * cols + (x < cols - 1 ? x + 1 : x)];
            float div = c * f->dn[k] + cs * f->ds[k] + c * f->dw[k] + ce * f->de[k];
            img[k] = img[k] + 0.25f * SR_LAMBDA * div;
        }
    }
}

/* Piecewise-smooth scene times speckle, mapped through exp(). */
static void sr_make_image(struct hd_wl_rng *rng, float *img, int rows, int cols)
{
    float disc_x[6], disc_y[6], disc_r[6], disc_v[6];
    for (int d = 0; d < 6; d++) {
        disc_x[d] = hd_wl_rng_float(rng, 0.3f, 1.0f) * (float)cols;
        disc_y[d] = hd_wl_rng_float(rng, 0.3f, 1.0f) * (float)rows;
        disc_r[d] = hd_wl_rng_float(rng, 0.05f, 0.2f) * (float)(rows < cols ? rows : cols);
        disc_v[d] = hd_wl_rng_float(rng, 0.3f, 0.8f);
    }
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            float v = 0.2f + 0.3f * (float)(x + y) / (float)(rows + cols);
            for (int d = 0; d < 6; d++) {
                float ex = (float)x - disc_x[d], ey = (float)y - disc_y[d];
                if (ex * ex + ey * ey < disc_r[d] * disc_r[d])
                    v += disc_v[d];
            }
            v *= hd_wl_rng_float(rng, 0.5f, 1.5f); /* multiplicative speckle */
            img[(size_t)y * cols + x] = expf(v);
        }
    }
}

static int sr_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct sr_size sz = sr_size_for(ctx);
    size_t pixels = (size_t)sz.rows * sz.cols, bytes = sizeof(float) * pixels;
    int roi_rows = sz.rows / 4, roi_cols = sz.cols / 4;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_img = 0, d_f[5] = {0, 0, 0, 0, 0};
    float *img = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
    float *scratch = malloc(5 * bytes);

    if (!img || !ref || !got || !scratch) {
        rc = hd_wl_fail(ctx, "srad: out of host memory");
        goto out;
    }
    struct sr_fields f = {scratch, scratch + pixels, scratch + 2 * pixels, scratch + 3 * pixels,
                          scratch + 4 * pixels};
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73726164u);
    sr_make_image(&rng, img, sz.rows, sz.cols);
    memcpy(ref, img, bytes);
    fprintf(ctx->log, "srad: %dx%d image, %d iterations, lambda %.2f\n", sz.rows, sz.cols,
            sz.iters, (double)SR_LAMBDA);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const sr_pinned[] = {"srad_coeff", "srad_update"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, sr_pinned, 2)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_img, bytes));
    for (int i = 0; i < 5; i++)
        HD_WL_TRY(hd_malloc(gpu, &d_f[i], bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_img, img, bytes));
    for (int i = 0; i < 5; i++)
        HD_WL_TRY(hd_memset(gpu, d_f[i], 0xff, bytes)); /* NaN: an unwritten field shows */

    struct hd_dim3 grid = {((uint32_t)sz.cols + SR_TILE - 1) / SR_TILE,
                           ((uint32_t)sz.rows + SR_TILE - 1) / SR_TILE, 1};
    struct hd_dim3 block = {SR_TILE, SR_TILE, 1};
    float lambda = SR_LAMBDA;
    for (int it = 0; it < sz.iters; it++) {
        /* The ROI is the first roi_rows rows (only their first roi_cols columns are used). */
        HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_img, sizeof(float) * (size_t)roi_rows * sz.cols));
        float q0sqr = sr_q0sqr(got, sz.cols, roi_rows, roi_cols);
        struct hd_arg a1[] = {HD_ARG(d_img), HD_ARG(d_f[0]), HD_ARG(d_f[1]), HD_ARG(d_f[2]),
                              HD_ARG(d_f[3]), HD_ARG(d_f[4]), HD_ARG(sz.rows), HD_ARG(sz.cols),
                              HD_ARG(q0sqr)};
        HD_WL_TRY(hd_launch(gpu, mod, "srad_coeff", grid, block, 0, 0, a1, 9));
        struct hd_arg a2[] = {HD_ARG(d_img), HD_ARG(d_f[0]), HD_ARG(d_f[1]), HD_ARG(d_f[2]),
                              HD_ARG(d_f[3]), HD_ARG(d_f[4]), HD_ARG(sz.rows), HD_ARG(sz.cols),
                              HD_ARG(lambda)};
        HD_WL_TRY(hd_launch(gpu, mod, "srad_update", grid, block, 0, 0, a2, 9));

        sr_ref_step(ref, &f, sz.rows, sz.cols, sr_q0sqr(ref, sz.cols, roi_rows, roi_cols));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_img, bytes));

    /* Tolerance: nvcc contracts products into fmas, the CPU does not, so c differs by a few ulp
     * and each step's J by a few ulp too. The update J + lambda/4 * sum(c_k d_k) is a convex
     * combination of J and its neighbours (weights c_k/8 <= 1/8), so it does not amplify earlier
     * differences, and q0^2 is an average over 1/16 of the image (insensitive to ulps). Allow
     * 5e-7 relative (about 4 ulp) per iteration; a float emulation with fma stays 20x below it
     * after 8 iterations, while a 0.1% change of one coefficient fails. */
    rc = hd_wl_compare_f32(ctx, "image", ref, got, pixels, 5e-7f * (float)(sz.iters + 1), 0.0f);

out:
    hd_free(gpu, d_img);
    for (int i = 0; i < 5; i++)
        hd_free(gpu, d_f[i]);
    free(img);
    free(ref);
    free(got);
    free(scratch);
    return rc;
}

const struct hd_workload hd_workload_srad = {
    .name = "srad",
    .description = "speckle-reducing anisotropic diffusion: coefficient + update stencils, 16x16 tiles",
    .klass = "memory",
    .idempotent = false,
    .run = sr_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_srad_r20 = {
    .name = "srad_r20",
    .description = "srad variant: srad_coeff and srad_update counted at 20 registers (Shieh Table 4.2 srad_cuda_1/2)",
    .klass = "memory",
    .idempotent = false,
    .run = sr_run,
    .variant_of = "srad",
    .variant_flags = "-DREGSPEC=20",
    .paper_row = "Shieh Table 4.2 srad_cuda_1, srad_cuda_2: 5,120 regs/TB (20/thread), 6,144 / 5,120 B, 256 threads, 6 TBs/SM",
};
const struct hd_workload hd_workload_srad_r20_w4 = {
    .name = "srad_r20_w4",
    .description = "srad_r20 with a small image whose every launch runs 4 full waves (360 CTAs of 6 per SM on 15 SMs)",
    .klass = "memory",
    .idempotent = false,
    .run = sr_run,
    .variant_of = "srad",
    .variant_flags = "-DREGSPEC=20 -DWAVES=4",
    .paper_row = "Shieh Table 4.2 srad_cuda_1, srad_cuda_2: 5,120 regs/TB (20/thread), 6,144 / 5,120 B, 256 threads, 6 TBs/SM, >= 3 waves",
};
/* }==== */
