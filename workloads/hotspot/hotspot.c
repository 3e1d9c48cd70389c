/* SPDX-License-Identifier: MIT
 * hotspot.c - host driver of the hotspot workload: a transient thermal simulation of a chip.
 *
 * The host makes a temperature map near the ambient with a few hot functional blocks in the power
 * map, then advances `iters` time steps by launching hs_calculate_temp with a pyramid height of
 * HS_PYRAMID steps per launch, ping-ponging two device buffers. The final map is compared with a
 * straightforward CPU stencil run of the same number of steps.
 *
 * Variants (ptx.flags, README) set the tile HD_HS_TX x HD_HS_TY (threads and shared memory per
 * CTA); the driver reads them back from the variant's flags and sizes the grid accordingly.
 * REGSPEC=R pins the register count occupancy uses for hs_calculate_temp (zorua_spec.h).
 * Input-size variant (token `wN`; issue 24, Shieh Table 4.2 victims): WAVES=N sizes the small
 * input so that each of its 2 launches has N full waves of CTAs on fermi-gtx480 at Table 4.2's 3
 * TBs per SM (15 x 3N tiles of output); same kernel and reference, medium and large the base's.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>

#define HS_TILE 16 /* default tile edge (HD_HS_TX, HD_HS_TY); must match hotspot.cu */
#define HS_PYRAMID 2

/* Per-step coefficients of the discretised heat equation (dimensionless, per time step): lateral
 * conduction to the E/W and N/S neighbours, vertical conduction to the ambient, and the heating of
 * one unit of power. 2*cx + 2*cy + cz < 1 keeps the explicit scheme stable and monotone. */
#define HS_CX 0.12f
#define HS_CY 0.10f
#define HS_CZ 0.002f
#define HS_CP 0.5f
#define HS_AMB 318.15f

struct hs_size {
    int rows, cols;
    int iters; /* time steps */
};

static struct hs_size hs_size_of(enum hd_wl_size size)
{
    /* ~0.33 M, 10 M and 41 M warp instructions; small is not square nor a multiple of 12. */
    static const struct hs_size s[3] = {{120, 136, 4}, {512, 512, 8}, {1024, 1024, 8}};
    return s[size];
}

static void hs_ref_step(const float *power, const float *src, float *dst, int rows, int cols)
{
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            float t = src[y * cols + x];
            float n = y > 0 ? src[(y - 1) * cols + x] : t;
            float s = y < rows - 1 ? src[(y + 1) * cols + x] : t;
            float w = x > 0 ? src[y * cols + x - 1] : t;
            float e = x < cols - 1 ? src[y * cols + x + 1] : t;
            dst[y * cols + x] = t + HS_CP * power[y * cols + x] + HS_CY * (n + s - 2.0f * t) +
                                HS_CX * (e + w - 2.0f * t) + HS_CZ * (HS_AMB - t);
        }
    }
}

/* Power map: a low background plus a few rectangular hot blocks (cores, caches...). */
static void hs_make_inputs(struct hd_wl_rng *rng, float *power, float *temp, int rows, int cols)
{
    for (int k = 0; k < rows * cols; k++) {
        power[k] = hd_wl_rng_float(rng, 0.0f, 0.2f);
        temp[k] = HS_AMB + hd_wl_rng_float(rng, 0.0f, 10.0f);
    }
    for (int b = 0; b < 8; b++) {
        int h = 1 + (int)(hd_wl_rng_u32(rng) % (uint32_t)(rows / 4));
        int w = 1 + (int)(hd_wl_rng_u32(rng) % (uint32_t)(cols / 4));
        int y0 = (int)(hd_wl_rng_u32(rng) % (uint32_t)(rows - h));
        int x0 = (int)(hd_wl_rng_u32(rng) % (uint32_t)(cols - w));
        float p = hd_wl_rng_float(rng, 0.5f, 2.0f);
        for (int y = y0; y < y0 + h; y++)
            for (int x = x0; x < x0 + w; x++)
                power[y * cols + x] += p;
    }
}

static int hs_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const char *flags = hd_wl_variant_flags(ctx);
    const long tx = hd_wl_flag(flags, "HD_HS_TX", HS_TILE);
    const long ty = hd_wl_flag(flags, "HD_HS_TY", HS_TILE);
    const long waves = hd_wl_flag(flags, "WAVES", 0);
    struct hs_size sz = hs_size_of(ctx->size);
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "hotspot: WAVES=%ld out of range 0..64", waves);
    if (waves > 0 && ctx->size == HD_WL_SMALL && tx > 2 * HS_PYRAMID && ty > 2 * HS_PYRAMID) {
        /* 15 SMs x 3 TBs/SM (Table 4.2) per wave: 15 tiles across, 3 x waves down. */
        sz.cols = 15 * (int)(tx - 2 * HS_PYRAMID);
        sz.rows = 3 * (int)waves * (int)(ty - 2 * HS_PYRAMID);
        sz.iters = 2 * HS_PYRAMID;
    }
    int rows = sz.rows, cols = sz.cols;
    size_t cells = (size_t)rows * cols, bytes = sizeof(float) * cells;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_power = 0, d_t[2] = {0, 0};
    float *power = malloc(bytes), *temp = malloc(bytes), *ref = malloc(bytes);
    float *tmp = malloc(bytes), *got = malloc(bytes);

    if (tx < 2 * HS_PYRAMID + 1 || ty < 2 * HS_PYRAMID + 1 || tx * ty > 1024) {
        rc = hd_wl_fail(ctx, "hotspot: %ldx%ld tiles: each edge > 2 x pyramid height %d, at most "
                             "1024 threads", tx, ty, HS_PYRAMID);
        goto out;
    }
    if (!power || !temp || !ref || !tmp || !got) {
        rc = hd_wl_fail(ctx, "hotspot: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x686f7473u);
    hs_make_inputs(&rng, power, temp, rows, cols);
    fprintf(ctx->log, "hotspot: %dx%d grid, %d steps, pyramid height %d, %ldx%ld tiles\n", rows,
            cols, sz.iters, HS_PYRAMID, tx, ty);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const hs_pinned[] = {"hs_calculate_temp"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, hs_pinned, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_power, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_t[0], bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_t[1], bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_power, power, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_t[0], temp, bytes));
    HD_WL_TRY(hd_memset(gpu, d_t[1], 0xff, bytes)); /* NaN: a cell no CTA writes shows */

    int cur = 0;
    float cp = HS_CP, cx = HS_CX, cy = HS_CY, cz = HS_CZ, amb = HS_AMB;
    for (int done = 0; done < sz.iters;) {
        int steps = sz.iters - done < HS_PYRAMID ? sz.iters - done : HS_PYRAMID;
        uint32_t out_x = (uint32_t)(tx - 2 * steps), out_y = (uint32_t)(ty - 2 * steps);
        struct hd_dim3 grid = {((uint32_t)cols + out_x - 1) / out_x,
                               ((uint32_t)rows + out_y - 1) / out_y, 1};
        struct hd_dim3 block = {(uint32_t)tx, (uint32_t)ty, 1};
        struct hd_arg args[] = {HD_ARG(d_power), HD_ARG(d_t[cur]), HD_ARG(d_t[1 - cur]),
                                HD_ARG(rows), HD_ARG(cols), HD_ARG(steps), HD_ARG(cp),
                                HD_ARG(cx), HD_ARG(cy), HD_ARG(cz), HD_ARG(amb)};
        HD_WL_TRY(hd_launch(gpu, mod, "hs_calculate_temp", grid, block, 0, 0, args, 11));
        cur = 1 - cur;
        done += steps;
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_t[cur], bytes));

    for (size_t k = 0; k < cells; k++)
        ref[k] = temp[k];
    for (int it = 0; it < sz.iters; it++) {
        hs_ref_step(power, ref, tmp, rows, cols);
        float *swap = ref;
        ref = tmp;
        tmp = swap;
    }
    /* The GPU contracts the update into fmas, the CPU rounds every product; that changes each step
     * by at most a few ulp of T (ulp(330) = 3.1e-5, i.e. ~1e-7 relative). The stencil is an
     * average with non-negative weights summing to < 1, so earlier differences are not amplified:
     * after `iters` steps they stay below ~4e-7 * iters relative (a float emulation with fma
     * measures 2 ulp after 8 steps). A wrong neighbour or coefficient moves T by 1e-3 or more. */
    rc = hd_wl_compare_f32(ctx, "temperature", ref, got, cells, 4e-7f * (float)(sz.iters + 1),
                           0.0f);

out:
    hd_free(gpu, d_power);
    hd_free(gpu, d_t[0]);
    hd_free(gpu, d_t[1]);
    free(power);
    free(temp);
    free(ref);
    free(tmp);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_hotspot = {
    .name = "hotspot",
    .description = "thermal simulation, 16x16 shared-memory tiles with a pyramid of 2 steps per launch",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_hotspot_tb64 = {
    .name = "hotspot_tb64",
    .description = "hotspot variant: 8x8 tiles (64 threads, 768 B shared memory per CTA)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DHD_HS_TX=8 -DHD_HS_TY=8",
};
const struct hd_workload hd_workload_hotspot_tb128 = {
    .name = "hotspot_tb128",
    .description = "hotspot variant: 16x8 tiles (128 threads, 1.5 KB shared memory per CTA)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DHD_HS_TX=16 -DHD_HS_TY=8",
};
const struct hd_workload hd_workload_hotspot_tb512 = {
    .name = "hotspot_tb512",
    .description = "hotspot variant: 32x16 tiles (512 threads, 6 KB shared memory per CTA)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DHD_HS_TX=32 -DHD_HS_TY=16",
};
const struct hd_workload hd_workload_hotspot_tb1024 = {
    .name = "hotspot_tb1024",
    .description = "hotspot variant: 32x32 tiles (1024 threads, 12 KB shared memory per CTA)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DHD_HS_TX=32 -DHD_HS_TY=32",
};
const struct hd_workload hd_workload_hotspot_r16 = {
    .name = "hotspot_r16",
    .description = "hotspot variant: at most 16 registers per thread (__maxnreg__)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DMAXREG=16",
};
const struct hd_workload hd_workload_hotspot_r36 = {
    .name = "hotspot_r36",
    .description = "hotspot variant: hs_calculate_temp counted at 36 registers per thread (Shieh Table 4.2, EXPARS Table 3 HS)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DMAXREG=36 -DREGSPEC=36",
    .paper_row = "Shieh Table 4.2 hotspot: 9,216 regs/TB (36/thread), 3,072 B, 256 threads, 3 TBs/SM",
};
const struct hd_workload hd_workload_hotspot_r36_w4 = {
    .name = "hotspot_r36_w4",
    .description = "hotspot_r36 with a small input of 2 launches of 4 full waves each (180 CTAs of 3 per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DMAXREG=36 -DREGSPEC=36 -DWAVES=4",
    .paper_row = "Shieh Table 4.2 hotspot: 9,216 regs/TB (36/thread), 3,072 B, 256 threads, 3 TBs/SM, >= 3 waves",
};
/* Session 19: 8 waves per launch, so that uniform preemption requests find finished-TB statistics
 * (after the first wave) ~90 % of the time instead of 80 % (docs/blocks/shieh.md, issue 24 item 3). */
const struct hd_workload hd_workload_hotspot_r36_w8 = {
    .name = "hotspot_r36_w8",
    .description = "hotspot_r36 with a small input of 2 launches of 8 full waves each (360 CTAs of 3 per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DMAXREG=36 -DREGSPEC=36 -DWAVES=8",
    .paper_row = "Shieh Table 4.2 hotspot: 9,216 regs/TB (36/thread), 3,072 B, 256 threads, 3 TBs/SM, >= 3 waves",
};
const struct hd_workload hd_workload_hotspot_r31 = {
    .name = "hotspot_r31",
    .description = "hotspot variant: hs_calculate_temp counted at 31 registers per thread (Lin Table 2.2 HS_1)",
    .klass = "compute",
    .idempotent = true,
    .run = hs_run,
    .variant_of = "hotspot",
    .variant_flags = "-DMAXREG=31 -DREGSPEC=31",
    .paper_row = "Lin Table 2.2 calculate_temp (HS_1): 8 warps/TB, 4 TBs/SM, 31 regs, 3,144 B",
};
/* }==== */
