/* SPDX-License-Identifier: MIT
 * stencil3d.c - host driver of the stencil3d workload: `iters` Jacobi steps of a 7-point 3-D
 * stencil on an nx x ny x nz float grid (Parboil "stencil"; Lin thesis Table 3.2 "ST", EXPARS
 * Table 3 "ST").
 *
 * The host fills the grid with uniform values in [0, 1), ping-pongs two device buffers for `iters`
 * launches of stencil7 and compares the final grid with a CPU loop doing the same float operations
 * in the same order (the six neighbours summed z+1, z-1, y+1, y-1, x+1, x-1, then one fmaf with
 * -c0 * centre), so the check is bit-exact. c0 and c1 are Parboil's (c0 = 1/6, c1 = 1/6/6), which
 * keep the values bounded.
 *
 * Variants (ptx.flags): the CTA shape and coarsening (HD_ST_BX, HD_ST_BY, HD_ST_CX) are read back
 * from the variant's flags, so the grid always matches the PTX; MAXREG changes no launch.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define ST_BX 32 /* defaults of HD_ST_BX, HD_ST_BY, HD_ST_CX; must match stencil3d.cu */
#define ST_BY 16
#define ST_CX 2

struct st_size {
    int nx, ny, nz, iters;
};

static struct st_size st_size_of(enum hd_wl_size size)
{
    /* 0.47 M, 5.1 M and 41 M warp instructions (measured, --functional); small is no multiple of the CTA's 64 x 16 points; large is Parboil's "large" grid 512x512x64 (256 CTAs
     * of 512 threads per launch: 8.5 waves of 2 CTAs on 15 SMs). */
    static const struct st_size s[3] = {
        {97, 61, 29, 2}, {256, 128, 64, 2}, {512, 512, 64, 2}};
    return s[size];
}

static void st_reference_step(const float *in, float *out, int nx, int ny, int nz, float c0,
                              float c1)
{
    size_t plane = (size_t)nx * ny;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t k = (size_t)z * plane + (size_t)y * nx + x;
                if (z == 0 || z == nz - 1 || y == 0 || y == ny - 1 || x == 0 || x == nx - 1) {
                    out[k] = in[k];
                    continue;
                }
                float sum = in[k + plane] + in[k - plane];
                sum += in[k + nx];
                sum += in[k - nx];
                sum += in[k + 1];
                sum += in[k - 1];
                out[k] = fmaf(c1, sum, -(c0 * in[k]));
            }
}

static int st_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct st_size sz = st_size_of(ctx->size);
    size_t n = (size_t)sz.nx * sz.ny * sz.nz, bytes = n * sizeof(float);
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_g[2] = {0, 0};
    float *ref = NULL, *tmp = NULL, *got = NULL;
    const char *flags = hd_wl_variant_flags(ctx);
    const long bx = hd_wl_flag(flags, "HD_ST_BX", ST_BX), by = hd_wl_flag(flags, "HD_ST_BY", ST_BY);
    const long cx = hd_wl_flag(flags, "HD_ST_CX", ST_CX);
    float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;

    /* Input-size variant (token wN; issue 24, Shieh Table 4.2 victims; issue 33, EXPARS Table 3
     * ST): WAVES=N (1..64) gives the small grid N full waves of CTAs per launch on fermi-gtx480
     * at the variant's CTAs per SM P there (8 for Table 4.2's 128-thread TBs, 2 for Table 3's
     * 512-thread CTAs at 28 registers): P/2 CTAs across x, 30 N down y (15 x P x N), 6 planes
     * deep (a run near 100,000 cycles), both axes ending in partial CTAs; same kernel and
     * reference. */
    const long waves = hd_wl_flag(flags, "WAVES", 0);
    const long st_thr = bx * by, st_regs = hd_wl_flag(flags, "MAXREG", 33);
    long per_sm = 8; /* fermi-gtx480: 8 CTAs, 1,536 threads, 32,768 registers per SM */
    if (st_thr > 0 && 1536 / st_thr < per_sm)
        per_sm = 1536 / st_thr;
    if (st_thr > 0 && 32768 / (st_regs * st_thr) < per_sm)
        per_sm = 32768 / (st_regs * st_thr);
    if (waves > 0 && waves <= 64 && ctx->size == HD_WL_SMALL && bx * cx > 4 && by > 1 &&
        per_sm >= 2 && per_sm % 2 == 0) {
        sz.nx = (int)(per_sm / 2 * bx * cx - 3);
        sz.ny = (int)(30 * waves * by - 1);
        sz.nz = 6;
    } else if (waves != 0 && ctx->size == HD_WL_SMALL) {
        rc = hd_wl_fail(ctx, "stencil3d: WAVES=%ld needs 1..64, CTAs of > 4 x 1 points and an "
                             "even number (%ld) of CTAs per SM", waves, per_sm);
        goto out;
    }
    n = (size_t)sz.nx * sz.ny * sz.nz;
    bytes = n * sizeof(float);
    ref = malloc(bytes);
    tmp = malloc(bytes);
    got = malloc(bytes);
    if (bx < 1 || by < 1 || cx < 1 || bx * by > 1024 || sz.nz < 2) {
        rc = hd_wl_fail(ctx, "stencil3d: bad CTA shape %ldx%ld (x%ld) or nz %d < 2", bx, by, cx,
                        sz.nz);
        goto out;
    }
    if (!ref || !tmp || !got) {
        rc = hd_wl_fail(ctx, "stencil3d: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73743364u);
    for (size_t k = 0; k < n; k++)
        ref[k] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    fprintf(ctx->log, "stencil3d: %dx%dx%d grid, %d steps, %ldx%ld CTAs, %ld x points per thread\n",
            sz.nx, sz.ny, sz.nz, sz.iters, bx, by, cx);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_g[0], bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_g[1], bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_g[0], ref, bytes));
    HD_WL_TRY(hd_memset(gpu, d_g[1], 0xff, bytes)); /* NaN: a point nothing writes shows */
    struct hd_dim3 grid = {(uint32_t)(((long)sz.nx + bx * cx - 1) / (bx * cx)),
                           (uint32_t)(((long)sz.ny + by - 1) / by), 1};
    struct hd_dim3 block = {(uint32_t)bx, (uint32_t)by, 1};
    int cur = 0;
    for (int it = 0; it < sz.iters; it++) {
        struct hd_arg args[] = {HD_ARG(d_g[cur]), HD_ARG(d_g[1 - cur]), HD_ARG(sz.nx),
                                HD_ARG(sz.ny),    HD_ARG(sz.nz),        HD_ARG(c0),
                                HD_ARG(c1)};
        HD_WL_TRY(hd_launch(gpu, mod, "stencil7", grid, block, 0, 0, args, 7));
        cur = 1 - cur;
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_g[cur], bytes));

    for (int it = 0; it < sz.iters; it++) {
        st_reference_step(ref, tmp, sz.nx, sz.ny, sz.nz, c0, c1);
        float *swap = ref;
        ref = tmp;
        tmp = swap;
    }
    rc = hd_wl_compare_f32(ctx, "grid", ref, got, n, 0.0f, 0.0f);

out:
    hd_free(gpu, d_g[0]);
    hd_free(gpu, d_g[1]);
    free(ref);
    free(tmp);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_stencil3d = {
    .name = "stencil3d",
    .description = "7-point 3-D Jacobi stencil (Parboil), 512-thread CTAs marching z in registers",
    .klass = "memory",
    .idempotent = true,
    .run = st_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_stencil3d_r28 = {
    .name = "stencil3d_r28",
    .description = "stencil3d variant: at most 28 registers per thread (EXPARS Table 3 ST)",
    .klass = "memory",
    .idempotent = true,
    .run = st_run,
    .variant_of = "stencil3d",
    .variant_flags = "-DMAXREG=28",
    .paper_row = "EXPARS Table 3 ST: 16 warps/CTA, 0 B, 14,436 regs/CTA (28.2/thread; ours 28)",
};
const struct hd_workload hd_workload_stencil3d_tb128_r28 = {
    .name = "stencil3d_tb128_r28",
    .description = "stencil3d variant: 32x4 CTAs (128 threads), at most 28 registers (Shieh Table 4.2 stencil)",
    .klass = "memory",
    .idempotent = true,
    .run = st_run,
    .variant_of = "stencil3d",
    .variant_flags = "-DHD_ST_BY=4 -DMAXREG=28",
    .paper_row = "Shieh Table 4.2 stencil: 3,584 regs/TB, 0 B, 128 threads, 8 TBs/SM",
};
const struct hd_workload hd_workload_stencil3d_tb128_r28_w4 = {
    .name = "stencil3d_tb128_r28_w4",
    .description = "stencil3d_tb128_r28 on a small grid of 4 full waves per launch (480 CTAs of 8 per SM on 15 SMs)",
    .klass = "memory",
    .idempotent = true,
    .run = st_run,
    .variant_of = "stencil3d",
    .variant_flags = "-DHD_ST_BY=4 -DMAXREG=28 -DWAVES=4",
    .paper_row = "Shieh Table 4.2 stencil: 3,584 regs/TB, 0 B, 128 threads, 8 TBs/SM, >= 3 waves",
};
const struct hd_workload hd_workload_stencil3d_r28_w5 = {
    .name = "stencil3d_r28_w5",
    .description = "stencil3d_r28 on a small grid of 5 full waves per launch (150 CTAs of 2 per SM on 15 SMs)",
    .klass = "memory",
    .idempotent = true,
    .run = st_run,
    .variant_of = "stencil3d",
    .variant_flags = "-DMAXREG=28 -DWAVES=5",
    .paper_row = "EXPARS Table 3 ST: 16 warps/CTA, 0 B, 28 regs, >= 3 waves at EXPARS's 3 CTAs/SM",
};
/* }==== */
