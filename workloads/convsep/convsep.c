/* SPDX-License-Identifier: MIT
 * convsep.c - host driver for the separable convolution (SDK-like).
 *
 * The image is w x h floats in [0, 1) (sizes deliberately not multiples of the tiles); the 17
 * taps are a normalised Gaussian (sigma 3) copied into the __constant__ array c_taps. conv_rows
 * writes a temporary image, conv_cols the result. The reference runs the same two passes in
 * double with the same clamp-to-edge rule; both the intermediate and the final images are
 * checked.
 *
 * Variants (ptx.flags, README) set the CTA heights (ROWS_BY, COLS_BY) and outputs per thread
 * (ROWS_STEPS, COLS_STEPS); the driver reads them back from the variant's flags and sizes the
 * grids accordingly.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONV_R 8 /* must match convsep.cu, as must the tile shapes below (the defaults) */
#define CONV_TAPS (2 * CONV_R + 1)
#define ROWS_BX 32
#define ROWS_BY 4
#define ROWS_STEPS 4
#define COLS_BX 32
#define COLS_BY 8
#define COLS_STEPS 4

struct conv_dims {
    int w, h;
};

static const struct conv_dims conv_sizes[3] = {
    {200, 120},   /* small: 0.15M warp instructions */
    {720, 480},   /* medium: 1.8M */
    {2000, 1500}, /* large: 16M */
};

#define CONV_TRY(call)                                                                          \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static int conv_clamp(int v, int n)
{
    return v < 0 ? 0 : (v >= n ? n - 1 : v);
}

/* One pass in double; dx, dy select rows (1, 0) or columns (0, 1). */
static void conv_reference(const double *in, double *out, int w, int h, const float *taps, int dx,
                           int dy)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double s = 0.0;
            for (int k = -CONV_R; k <= CONV_R; k++) {
                int sx = conv_clamp(x + k * dx, w), sy = conv_clamp(y + k * dy, h);
                s += (double)taps[k + CONV_R] * in[(size_t)sy * (size_t)w + (size_t)sx];
            }
            out[(size_t)y * (size_t)w + (size_t)x] = s;
        }
}

static int conv_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const char *flags = hd_wl_variant_flags(ctx);
    const long rows_by = hd_wl_flag(flags, "ROWS_BY", ROWS_BY);
    const long rows_steps = hd_wl_flag(flags, "ROWS_STEPS", ROWS_STEPS);
    const long cols_by = hd_wl_flag(flags, "COLS_BY", COLS_BY);
    const long cols_steps = hd_wl_flag(flags, "COLS_STEPS", COLS_STEPS);
    const long waves = hd_wl_flag(flags, "WAVES", 0);
    struct conv_dims d = conv_sizes[ctx->size];
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "convsep: WAVES=%ld out of range 0..64", waves);
    /* Input-size variant (token wN; issue 33, EXPARS Table 3 CONV): WAVES=N sizes the small image
     * for N full waves of conv_rows CTAs on fermi-gtx480 at Table 3's 7 CTAs per SM: 7 row tiles
     * across, 15 N CTA heights down (15 x 7 x N CTAs); same kernels and reference. */
    if (waves > 0 && ctx->size == HD_WL_SMALL && rows_by >= 1 && rows_steps >= 1 &&
        rows_steps <= 16 && rows_by * ROWS_BX <= 1024) {
        d.w = 7 * ROWS_BX * (int)rows_steps;
        d.h = 15 * (int)waves * (int)rows_by;
    }
    const size_t np = (size_t)d.w * (size_t)d.h;
    float *h_img = malloc(np * sizeof(float)), *h_out = malloc(np * sizeof(float));
    float *ref = malloc(np * sizeof(float));
    double *r_in = malloc(np * sizeof(double)), *r_mid = malloc(np * sizeof(double));
    double *r_out = malloc(np * sizeof(double));
    float taps[CONV_TAPS];
    hd_devptr din = 0, dmid = 0, dout = 0, dtaps = 0;
    struct hd_module *mod = NULL;
    int st = HD_OK;

    if (rows_by < 1 || rows_by * ROWS_BX > 1024 || cols_by < 1 || cols_by * COLS_BX > 1024 ||
        rows_steps < 1 || rows_steps > 16 || cols_steps < 1 || cols_steps > 16) {
        st = hd_wl_fail(ctx, "convsep: ROWS_BY=%ld COLS_BY=%ld (CTAs of 32 x BY <= 1024 threads), "
                             "ROWS_STEPS=%ld COLS_STEPS=%ld (1 to 16)",
                        rows_by, cols_by, rows_steps, cols_steps);
        goto out;
    }
    if (!h_img || !h_out || !ref || !r_in || !r_mid || !r_out) {
        st = hd_wl_fail(ctx, "convsep: out of host memory");
        goto out;
    }
    double tsum = 0.0;
    for (int k = -CONV_R; k <= CONV_R; k++)
        tsum += exp(-(double)(k * k) / (2.0 * 3.0 * 3.0));
    for (int k = -CONV_R; k <= CONV_R; k++)
        taps[k + CONV_R] = (float)(exp(-(double)(k * k) / (2.0 * 3.0 * 3.0)) / tsum);
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x434f4e560001ULL);
    for (size_t i = 0; i < np; i++) {
        h_img[i] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
        r_in[i] = (double)h_img[i];
    }

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    size_t tap_bytes = 0;
    CONV_TRY(hd_module_symbol(gpu, mod, "c_taps", &dtaps, &tap_bytes));
    if (tap_bytes != sizeof(taps)) {
        st = hd_wl_fail(ctx, "convsep: c_taps is %zu bytes, expected %zu", tap_bytes,
                        sizeof(taps));
        goto out;
    }
    CONV_TRY(hd_memcpy_h2d(gpu, dtaps, taps, sizeof(taps)));
    CONV_TRY(hd_malloc(gpu, &din, np * sizeof(float)));
    CONV_TRY(hd_malloc(gpu, &dmid, np * sizeof(float)));
    CONV_TRY(hd_malloc(gpu, &dout, np * sizeof(float)));
    CONV_TRY(hd_memcpy_h2d(gpu, din, h_img, np * sizeof(float)));
    CONV_TRY(hd_memset(gpu, dmid, 0xff, np * sizeof(float)));
    CONV_TRY(hd_memset(gpu, dout, 0xff, np * sizeof(float)));

    int w = d.w, h = d.h;
    {
        struct hd_arg args[] = {HD_ARG(din), HD_ARG(dmid), HD_ARG(w), HD_ARG(h)};
        const long tile_w = ROWS_BX * rows_steps;
        struct hd_dim3 grid = {(uint32_t)((w + tile_w - 1) / tile_w),
                               (uint32_t)((h + rows_by - 1) / rows_by), 1};
        struct hd_dim3 block = {ROWS_BX, (uint32_t)rows_by, 1};
        CONV_TRY(hd_launch(gpu, mod, "conv_rows", grid, block, 0, 0, args, 4));
    }
    {
        struct hd_arg args[] = {HD_ARG(dmid), HD_ARG(dout), HD_ARG(w), HD_ARG(h)};
        const long tile_h = cols_by * cols_steps;
        struct hd_dim3 grid = {(uint32_t)((w + COLS_BX - 1) / COLS_BX),
                               (uint32_t)((h + tile_h - 1) / tile_h), 1};
        struct hd_dim3 block = {COLS_BX, (uint32_t)cols_by, 1};
        CONV_TRY(hd_launch(gpu, mod, "conv_cols", grid, block, 0, 0, args, 4));
    }
    CONV_TRY(hd_synchronize(gpu));

    /* Tolerance. Each output is a 17-term dot product with taps summing to 1 and inputs in
     * [0, 1): float summation is within 17 * 2^-24 ~ 1e-6 of exact per pass; the column pass
     * sees the row pass's error scaled by sum|c| = 1. So 1e-6 for the row image and 2.5e-6 for
     * the final one (the reference itself starts from the float taps, so tap rounding cancels).
     * A wrong tap, halo offset or clamp changes values by >= 1e-3. */
    conv_reference(r_in, r_mid, d.w, d.h, taps, 1, 0);
    for (size_t i = 0; i < np; i++)
        ref[i] = (float)r_mid[i];
    CONV_TRY(hd_memcpy_d2h(gpu, h_out, dmid, np * sizeof(float)));
    st = hd_wl_compare_f32(ctx, "rows", ref, h_out, np, 0.0f, 1e-6f);
    if (st != HD_OK)
        goto out;
    conv_reference(r_mid, r_out, d.w, d.h, taps, 0, 1);
    for (size_t i = 0; i < np; i++)
        ref[i] = (float)r_out[i];
    CONV_TRY(hd_memcpy_d2h(gpu, h_out, dout, np * sizeof(float)));
    st = hd_wl_compare_f32(ctx, "columns", ref, h_out, np, 0.0f, 2.5e-6f);
    if (st == HD_OK)
        fprintf(ctx->log, "convsep: %dx%d image, %d taps, CTAs 32x%ld (rows) and 32x%ld "
                          "(columns), rows and columns verified\n",
                d.w, d.h, CONV_TAPS, rows_by, cols_by);

out:
    hd_free(gpu, din);
    hd_free(gpu, dmid);
    hd_free(gpu, dout);
    free(h_img);
    free(h_out);
    free(ref);
    free(r_in);
    free(r_mid);
    free(r_out);
    return st;
}

const struct hd_workload hd_workload_convsep = {
    .name = "convsep",
    .description = "separable 17-tap convolution, row then column pass, shared-memory tiles",
    .klass = "memory",
    .idempotent = true, /* each pass reads one image and writes another */
    .run = conv_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_convsep_c1 = {
    .name = "convsep_c1",
    .description =
        "convsep variant: 1 output per thread in both passes (fewer registers, more halo)",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DROWS_STEPS=1 -DCOLS_STEPS=1",
};
const struct hd_workload hd_workload_convsep_c2 = {
    .name = "convsep_c2",
    .description = "convsep variant: 2 outputs per thread in both passes",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DROWS_STEPS=2 -DCOLS_STEPS=2",
};
const struct hd_workload hd_workload_convsep_c8 = {
    .name = "convsep_c8",
    .description =
        "convsep variant: 8 outputs per thread in both passes (more registers, 10 KB tiles)",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DROWS_STEPS=8 -DCOLS_STEPS=8",
};
const struct hd_workload hd_workload_convsep_tb64 = {
    .name = "convsep_tb64",
    .description = "convsep variant: 64-thread CTAs (32x2) in both passes",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DROWS_BY=2 -DCOLS_BY=2",
};
const struct hd_workload hd_workload_convsep_tb512 = {
    .name = "convsep_tb512",
    .description = "convsep variant: 512-thread CTAs (32x16) in both passes",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DROWS_BY=16 -DCOLS_BY=16",
};
const struct hd_workload hd_workload_convsep_r32 = {
    .name = "convsep_r32",
    .description = "convsep variant: at most 32 registers per thread in both passes (__maxnreg__)",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DMAXREG=32",
};
const struct hd_workload hd_workload_convsep_tb192_r24 = {
    .name = "convsep_tb192_r24",
    .description = "convsep variant: conv_rows 32x6 = 192 threads, at most 24 registers per thread",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DROWS_BY=6 -DMAXREG=24",
    .paper_row = "EXPARS Table 3 CONV: 6 warps/CTA, 0 B, 24 regs (ours 3,456 B: shared, not texture)",
};
const struct hd_workload hd_workload_convsep_tb192_r24_w4 = {
    .name = "convsep_tb192_r24_w4",
    .description = "convsep_tb192_r24 on a small image of 4 full waves of conv_rows (420 CTAs of 7 per SM on 15 SMs)",
    .klass = "memory",
    .idempotent = true,
    .run = conv_run,
    .variant_of = "convsep",
    .variant_flags = "-DROWS_BY=6 -DMAXREG=24 -DWAVES=4",
    .paper_row = "EXPARS Table 3 CONV: 6 warps/CTA, 0 B, 24 regs (ours 3,456 B: shared, not texture), >= 3 waves at EXPARS's 8 CTAs/SM",
};
/* }==== */
