/* SPDX-License-Identifier: MIT
 * leukocyte.c - host driver of the leukocyte workload: find round cells in a synthetic frame.
 *
 * The frame is a bright noisy background with dark disks ("cells") of radius 5..9 and soft rims.
 * The driver fills the constant tables (unit normals of LK_NPTS circle points, their integer
 * offsets for the radii LK_R0 .. LK_R0 + LK_NRAD - 1, and the dilation disk), then runs
 * lk_gradient -> lk_gicov -> lk_dilate. Checks: the gradient exactly (same two IEEE operations),
 * the score against a CPU computation in single precision (tolerance below), and the dilation
 * exactly against a CPU dilation of the GPU's own score map (a maximum is exact).
 *
 * Variants (ptx.flags): the CTA shape HD_LK_TX x HD_LK_TY (default 16 x 16) is read back from the
 * variant's flags for all three kernels; MAXREG caps lk_gicov in the PTX and REGSPEC pins the
 * register count occupancy counts for lk_gicov (zorua_spec.h), same inputs, same reference.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LK_NPTS 32 /* these five must match leukocyte.cu (LK_NPTS: its default, read back) */
#define LK_NPTS_MAX 150 /* the most points per circle a variant may sample (Rodinia's NPOINTS) */
#define LK_NRAD 7
#define LK_MARGIN 12
#define LK_DIL_MAX 64
#define LK_EPS 1e-6f
#define LK_R0 4
#define LK_DIL_R 3
#define LK_TILE 16 /* default of HD_LK_TX and HD_LK_TY */

struct lk_size {
    int w, h, cells;
};

static const struct lk_size lk_sizes[3] = {
    {60, 52, 4},    /* ~0.41 M warp instructions */
    {160, 120, 12}, /* ~4.3 M */
    {400, 300, 60}, /* ~31 M */
};

struct lk_tables {
    int npts; /* points per circle (LK_NPTS of the PTX) */
    float cosv[LK_NPTS_MAX], sinv[LK_NPTS_MAX];
    int offx[LK_NRAD * LK_NPTS_MAX], offy[LK_NRAD * LK_NPTS_MAX];
    int dilx[LK_DIL_MAX], dily[LK_DIL_MAX];
    int ndil;
};

static void lk_make_tables(struct lk_tables *t, int npts)
{
    const double two_pi = 6.28318530717958647692;
    t->npts = npts;
    for (int p = 0; p < npts; p++) {
        double a = two_pi * p / npts;
        t->cosv[p] = (float)cos(a);
        t->sinv[p] = (float)sin(a);
        for (int r = 0; r < LK_NRAD; r++) {
            t->offx[r * npts + p] = (int)lrint((LK_R0 + r) * cos(a));
            t->offy[r * npts + p] = (int)lrint((LK_R0 + r) * sin(a));
        }
    }
    t->ndil = 0;
    for (int dy = -LK_DIL_R; dy <= LK_DIL_R; dy++)
        for (int dx = -LK_DIL_R; dx <= LK_DIL_R; dx++)
            if ((dx || dy) && dx * dx + dy * dy <= LK_DIL_R * LK_DIL_R) {
                t->dilx[t->ndil] = dx;
                t->dily[t->ndil] = dy;
                t->ndil++;
            }
}

static void lk_make_image(float *img, int w, int h, int cells, struct hd_wl_rng *rng)
{
    for (int i = 0; i < w * h; i++)
        img[i] = 0.8f + hd_wl_rng_float(rng, -0.05f, 0.05f);
    for (int c = 0; c < cells; c++) {
        float cx = hd_wl_rng_float(rng, 0.0f, (float)w), cy = hd_wl_rng_float(rng, 0.0f, (float)h);
        float rad = hd_wl_rng_float(rng, 5.0f, 9.0f);
        int x0 = (int)(cx - rad) - 3, x1 = (int)(cx + rad) + 3;
        int y0 = (int)(cy - rad) - 3, y1 = (int)(cy + rad) + 3;
        for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < h; y++)
            for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < w; x++) {
                double d = hypot((double)x - (double)cx, (double)y - (double)cy);
                double depth = 0.6 / (1.0 + exp(2.0 * (d - (double)rad))); /* soft rim */
                img[y * w + x] -= (float)depth;
            }
    }
}

static void lk_ref_gradient(const float *img, float *gx, float *gy, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int i = y * w + x;
            gx[i] = (x > 0 && x < w - 1) ? (img[i + 1] - img[i - 1]) * 0.5f : 0.0f;
            gy[i] = (y > 0 && y < h - 1) ? (img[i + w] - img[i - w]) * 0.5f : 0.0f;
        }
}

static void lk_ref_gicov(const struct lk_tables *t, const float *gx, const float *gy, float *out,
                         int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float best = 0.0f;
            if (x >= LK_MARGIN && x < w - LK_MARGIN && y >= LK_MARGIN && y < h - LK_MARGIN) {
                for (int r = 0; r < LK_NRAD; r++) {
                    const int n = t->npts;
                    float g[LK_NPTS_MAX], sum = 0.0f, var = 0.0f;
                    for (int p = 0; p < n; p++) {
                        int j = (y + t->offy[r * n + p]) * w + x + t->offx[r * n + p];
                        g[p] = gx[j] * t->cosv[p] + gy[j] * t->sinv[p];
                        sum += g[p];
                    }
                    float mean = sum / (float)n;
                    for (int p = 0; p < n; p++)
                        var += (g[p] - mean) * (g[p] - mean);
                    var /= (float)(n - 1);
                    float s = mean / sqrtf(var + LK_EPS);
                    if (r == 0 || s > best)
                        best = s;
                }
            }
            out[y * w + x] = best;
        }
}

static void lk_ref_dilate(const struct lk_tables *t, const float *in, float *out, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float m = in[y * w + x];
            for (int k = 0; k < t->ndil; k++) {
                int xx = x + t->dilx[k], yy = y + t->dily[k];
                if (xx >= 0 && xx < w && yy >= 0 && yy < h)
                    m = fmaxf(m, in[yy * w + xx]);
            }
            out[y * w + x] = m;
        }
}

/* Copy a host table into a __constant__ symbol of the module, checking its size. */
static int lk_to_symbol(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module *mod,
                        const char *name, const void *src, size_t bytes)
{
    hd_devptr addr = 0;
    size_t have = 0;
    int rc = hd_wl_check(gpu, ctx, hd_module_symbol(gpu, mod, name, &addr, &have));
    if (rc != HD_OK)
        return rc;
    if (have < bytes)
        return hd_wl_fail(ctx, "leukocyte: symbol %s has %zu bytes, need %zu", name, have, bytes);
    return hd_wl_check(gpu, ctx, hd_memcpy_h2d(gpu, addr, src, bytes));
}

static int lk_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const char *flags = hd_wl_variant_flags(ctx);
    const long tx = hd_wl_flag(flags, "HD_LK_TX", LK_TILE), ty = hd_wl_flag(flags, "HD_LK_TY", LK_TILE);
    const long waves = hd_wl_flag(flags, "WAVES", 0);
    struct lk_size sz = lk_sizes[ctx->size];
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "leukocyte: WAVES=%ld out of range 0..64", waves);
    /* Input-size variant (token wN; issue 33, EXPARS Table 3 LEUK): WAVES=N sizes the small frame
     * for N full waves of CTAs per launch on fermi-gtx480 at Table 3's 7 CTAs per SM (21 tiles
     * across, 5 N down: 15 x 7 x N CTAs), one cell per 1,600 pixels (medium's density); same
     * kernels and reference. */
    if (waves > 0 && ctx->size == HD_WL_SMALL && tx >= 1 && ty >= 1 && tx * ty <= 1024) {
        sz.w = 21 * (int)tx;
        sz.h = 5 * (int)waves * (int)ty;
        sz.cells = sz.w * sz.h / 1600;
    }
    const int w = sz.w, h = sz.h;
    const size_t np = (size_t)w * (size_t)h, nb = np * sizeof(float);
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_img = 0, d_gx = 0, d_gy = 0, d_score = 0, d_dil = 0;
    float *img = malloc(nb), *gx = malloc(nb), *gy = malloc(nb), *score = malloc(nb);
    float *dil = malloc(nb), *rx = malloc(nb), *ry = malloc(nb), *rs = malloc(nb);
    struct lk_tables tab;
    const long npts = hd_wl_flag(flags, "LK_NPTS", LK_NPTS);

    if (tx < 1 || ty < 1 || tx * ty > 1024) {
        rc = hd_wl_fail(ctx, "leukocyte: bad CTA shape %ldx%ld", tx, ty);
        goto out;
    }
    if (npts < 2 || npts > LK_NPTS_MAX) {
        rc = hd_wl_fail(ctx, "leukocyte: LK_NPTS %ld outside 2..%d", npts, LK_NPTS_MAX);
        goto out;
    }
    if (!img || !gx || !gy || !score || !dil || !rx || !ry || !rs) {
        rc = hd_wl_fail(ctx, "leukocyte: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6c65756bu);
    lk_make_image(img, w, h, sz.cells, &rng);
    lk_make_tables(&tab, (int)npts);
    fprintf(ctx->log,
            "leukocyte: %dx%d frame, %d cells, %d radii x %ld points, dilation %d, %ldx%ld CTAs\n",
            w, h, sz.cells, LK_NRAD, npts, tab.ndil, tx, ty);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const lk_pinned[] = {"lk_gicov"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, lk_pinned, 1)) != HD_OK)
        goto out;
    const size_t pb = (size_t)npts * sizeof(float), ob = (size_t)LK_NRAD * (size_t)npts * sizeof(int);
    if ((rc = lk_to_symbol(gpu, ctx, mod, "lk_cos", tab.cosv, pb)) != HD_OK ||
        (rc = lk_to_symbol(gpu, ctx, mod, "lk_sin", tab.sinv, pb)) != HD_OK ||
        (rc = lk_to_symbol(gpu, ctx, mod, "lk_off_x", tab.offx, ob)) != HD_OK ||
        (rc = lk_to_symbol(gpu, ctx, mod, "lk_off_y", tab.offy, ob)) != HD_OK ||
        (rc = lk_to_symbol(gpu, ctx, mod, "lk_dil_x", tab.dilx, sizeof(tab.dilx))) != HD_OK ||
        (rc = lk_to_symbol(gpu, ctx, mod, "lk_dil_y", tab.dily, sizeof(tab.dily))) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_img, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_gx, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_gy, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_score, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_dil, nb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_img, img, nb));
    HD_WL_TRY(hd_memset(gpu, d_gx, 0xff, nb));
    HD_WL_TRY(hd_memset(gpu, d_gy, 0xff, nb));
    HD_WL_TRY(hd_memset(gpu, d_score, 0xff, nb));
    HD_WL_TRY(hd_memset(gpu, d_dil, 0xff, nb));

    struct hd_dim3 grid = {(uint32_t)((w + tx - 1) / tx), (uint32_t)((h + ty - 1) / ty), 1};
    struct hd_dim3 block = {(uint32_t)tx, (uint32_t)ty, 1};
    {
        struct hd_arg args[] = {HD_ARG(d_img), HD_ARG(d_gx), HD_ARG(d_gy), HD_ARG(w), HD_ARG(h)};
        HD_WL_TRY(hd_launch(gpu, mod, "lk_gradient", grid, block, 0, 0, args, 5));
    }
    {
        struct hd_arg args[] = {HD_ARG(d_gx), HD_ARG(d_gy), HD_ARG(d_score), HD_ARG(w), HD_ARG(h)};
        HD_WL_TRY(hd_launch(gpu, mod, "lk_gicov", grid, block, 0, 0, args, 5));
    }
    {
        struct hd_arg args[] = {HD_ARG(d_score), HD_ARG(d_dil), HD_ARG(w), HD_ARG(h),
                                HD_ARG(tab.ndil)};
        HD_WL_TRY(hd_launch(gpu, mod, "lk_dilate", grid, block, 0, 0, args, 5));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, gx, d_gx, nb));
    HD_WL_TRY(hd_memcpy_d2h(gpu, gy, d_gy, nb));
    HD_WL_TRY(hd_memcpy_d2h(gpu, score, d_score, nb));
    HD_WL_TRY(hd_memcpy_d2h(gpu, dil, d_dil, nb));

    lk_ref_gradient(img, rx, ry, w, h);
    if ((rc = hd_wl_compare_f32(ctx, "gradient x", rx, gx, np, 0.0f, 0.0f)) != HD_OK ||
        (rc = hd_wl_compare_f32(ctx, "gradient y", ry, gy, np, 0.0f, 0.0f)) != HD_OK)
        goto out;
    /* Score tolerance: each projection and each of the 32-term sums may differ by a few ulp
     * (nvcc contracts products into fused multiply-adds, the reference rounds them apart). With
     * |g| < 0.4 that is |d mean| < ~1e-6; the noise keeps the standard deviation above ~0.01, so
     * |d score| < ~1e-4 on scores of magnitude up to ~20. A wrong sample offset, normal or radius
     * changes scores by far more than 1e-3 + 1e-4 * |score|. */
    lk_ref_gicov(&tab, rx, ry, rs, w, h);
    if ((rc = hd_wl_compare_f32(ctx, "gicov score", rs, score, np, 1e-4f, 1e-3f)) != HD_OK)
        goto out;
    lk_ref_dilate(&tab, score, rs, w, h);
    if ((rc = hd_wl_compare_f32(ctx, "dilated score", rs, dil, np, 0.0f, 0.0f)) != HD_OK)
        goto out;
    float peak = 0.0f;
    for (size_t i = 0; i < np; i++)
        peak = fmaxf(peak, dil[i]);
    fprintf(ctx->log, "leukocyte: peak dilated score %.3f\n", (double)peak);

out:
    hd_free(gpu, d_img);
    hd_free(gpu, d_gx);
    hd_free(gpu, d_gy);
    hd_free(gpu, d_score);
    hd_free(gpu, d_dil);
    free(img);
    free(gx);
    free(gy);
    free(score);
    free(dil);
    free(rx);
    free(ry);
    free(rs);
    return rc;
}

const struct hd_workload hd_workload_leukocyte = {
    .name = "leukocyte",
    .description = "cell detection: gradient, GICOV-like circle score (7 radii x 32 points), dilation",
    .klass = "compute",
    .idempotent = true,
    .run = lk_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_leukocyte_tb192_r18 = {
    .name = "leukocyte_tb192_r18",
    .description = "leukocyte variant: 16x12 CTAs (192 threads), lk_gicov counted at 18 registers (Lin Table 2.2 GICOV)",
    .klass = "compute",
    .idempotent = true,
    .run = lk_run,
    .variant_of = "leukocyte",
    .variant_flags = "-DHD_LK_TX=16 -DHD_LK_TY=12 -DMAXREG=18 -DREGSPEC=18",
    .paper_row = "Lin Table 2.2 GICOV_kernel (LK_1): 6 warps/TB, 8 TBs/SM, 18 regs, 24 B",
};
const struct hd_workload hd_workload_leukocyte_tb192_r24 = {
    .name = "leukocyte_tb192_r24",
    .description = "leukocyte variant: 16x12 CTAs (192 threads), lk_gicov capped at 24 registers (EXPARS Table 3 LEUK)",
    .klass = "compute",
    .idempotent = true,
    .run = lk_run,
    .variant_of = "leukocyte",
    .variant_flags = "-DHD_LK_TX=16 -DHD_LK_TY=12 -DMAXREG=24",
    .paper_row = "EXPARS Table 3 LEUK GICOV_kernel: 6 warps/CTA, 0 B, 24 regs, 7 CTAs/SM",
};
const struct hd_workload hd_workload_leukocyte_tb192_r24_w4 = {
    .name = "leukocyte_tb192_r24_w4",
    .description = "leukocyte_tb192_r24 with a small frame of 4 full waves per launch (420 CTAs of 7 per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = lk_run,
    .variant_of = "leukocyte",
    .variant_flags = "-DHD_LK_TX=16 -DHD_LK_TY=12 -DMAXREG=24 -DWAVES=4",
    .paper_row = "EXPARS Table 3 LEUK GICOV_kernel: 6 warps/CTA, 0 B, 24 regs, 7 CTAs/SM, >= 3 waves at EXPARS's 8",
};
/* Lin's LK_1 with Rodinia's per-thread work: 150 points per circle (Rodinia's GICOV NPOINTS;
 * issue 24: SM-draining waits for TBs whose length this sets) */
const struct hd_workload hd_workload_leukocyte_tb192_r18_p150 = {
    .name = "leukocyte_tb192_r18_p150",
    .description = "leukocyte variant: leukocyte_tb192_r18 sampling 150 points per circle (Rodinia GICOV's NPOINTS)",
    .klass = "compute",
    .idempotent = true,
    .run = lk_run,
    .variant_of = "leukocyte",
    .variant_flags = "-DHD_LK_TX=16 -DHD_LK_TY=12 -DMAXREG=18 -DREGSPEC=18 -DLK_NPTS=150",
    .paper_row = "Lin Table 2.2 GICOV_kernel (LK_1) geometry, Rodinia's 150 points per circle",
};
/* }==== */
