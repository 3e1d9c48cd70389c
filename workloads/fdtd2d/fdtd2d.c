/* SPDX-License-Identifier: MIT
 * fdtd2d.c - host driver of the fdtd2d workload: Polybench's FDTD-2D, `tmax` time steps of three
 * kernels each on an nx x ny grid (Lin thesis Table 3.2 "FDTD_1/FDTD_2", 2048x2048 = our large
 * size; Table 4.2 "FTD").
 *
 * The host fills ex, ey and hz with uniform values in [0, 1) and the source fict[t] = t, launches
 * fdtd_step1, fdtd_step2, fdtd_step3 per step on one stream (in order), and compares the three
 * final fields with a CPU loop doing the same float operations in the same order (a subtraction,
 * one fmaf per update; the curl of step 3 summed left to right), so the check is bit-exact.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define FD_BX 32 /* CTA shape; Polybench's 32x8 */
#define FD_BY 8

struct fd_size {
    int nx, ny, tmax;
};

static struct fd_size fd_size_of(enum hd_wl_size size)
{
    /* 0.44 M, 5.5 M and 44 M warp instructions (measured, --functional); small is not a multiple
     * of the CTA shape; large is Lin's 2048x2048 (16,384 CTAs per launch). */
    static const struct fd_size s[3] = {{161, 190, 4}, {512, 512, 6}, {2048, 2048, 3}};
    return s[size];
}

static void fd_reference(float *ex, float *ey, float *hz, const float *fict, int nx, int ny,
                         int tmax)
{
    for (int t = 0; t < tmax; t++) {
        for (int i = 0; i < nx; i++)
            for (int j = 0; j < ny; j++) {
                size_t k = (size_t)i * ny + j;
                ey[k] = i == 0 ? fict[t] : fmaf(-0.5f, hz[k] - hz[k - ny], ey[k]);
            }
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++) {
                size_t k = (size_t)i * ny + j;
                ex[k] = fmaf(-0.5f, hz[k] - hz[k - 1], ex[k]);
            }
        for (int i = 0; i < nx - 1; i++)
            for (int j = 0; j < ny - 1; j++) {
                size_t k = (size_t)i * ny + j;
                float curl = ex[k + 1] - ex[k] + ey[k + ny] - ey[k];
                hz[k] = fmaf(-0.7f, curl, hz[k]);
            }
    }
}

static int fd_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct fd_size sz = fd_size_of(ctx->size);
    /* --size paper, the base workload (issue 28, session 21): Lin thesis Table 3.2's FDTD,
     * 2048x2048 for more steps than large's 3, so that the run outlasts Lin's measured 4 M cycles
     * on maxwell-gpuduet (3 steps end near 1.6 M) as Polybench's 500 do; more steps change no
     * measured cycle, and 10 stay verifiable (a complete run is a few CPU-minutes). */
    if (ctx->paper && !hd_wl_variant_flags(ctx))
        sz.tmax = 10;
    /* CCBP input variant (ptx.flags token `ccbp`; issue 29, Lin Table 4.2 FTD; docs/blocks/ccbp.md
     * "The experiment's inputs"): at medium, the medium grid (three 1 MB fields, over the 2 MB L2
     * of configs/maxwell-ccbp.ini) for CCBP_STEPS steps, so that several instances fit in the
     * experiment's budget. */
    const long cc_steps = hd_wl_flag(hd_wl_variant_flags(ctx), "CCBP_STEPS", 0);
    if (cc_steps > 0 && ctx->size == HD_WL_MEDIUM) {
        if (cc_steps > 64)
            return hd_wl_fail(ctx, "fdtd2d: CCBP_STEPS %ld out of range (1..64)", cc_steps);
        sz.tmax = (int)cc_steps;
    }
    size_t n = (size_t)sz.nx * sz.ny, bytes = n * sizeof(float);
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_ex = 0, d_ey = 0, d_hz = 0, d_fict = 0;
    float *f[3] = {malloc(bytes), malloc(bytes), malloc(bytes)}; /* ex, ey, hz */
    float *got = malloc(bytes), *fict = malloc(sizeof(float) * (size_t)sz.tmax);

    if (!f[0] || !f[1] || !f[2] || !got || !fict) {
        rc = hd_wl_fail(ctx, "fdtd2d: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x66647464u);
    for (int a = 0; a < 3; a++)
        for (size_t k = 0; k < n; k++)
            f[a][k] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    for (int t = 0; t < sz.tmax; t++)
        fict[t] = (float)t;
    fprintf(ctx->log, "fdtd2d: %dx%d grid, %d steps of 3 kernels, %dx%d CTAs\n", sz.nx, sz.ny,
            sz.tmax, FD_BX, FD_BY);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_ex, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_ey, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_hz, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_fict, sizeof(float) * (size_t)sz.tmax));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_ex, f[0], bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_ey, f[1], bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_hz, f[2], bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_fict, fict, sizeof(float) * (size_t)sz.tmax));
    struct hd_dim3 grid = {((uint32_t)sz.ny + FD_BX - 1) / FD_BX,
                           ((uint32_t)sz.nx + FD_BY - 1) / FD_BY, 1};
    struct hd_dim3 block = {FD_BX, FD_BY, 1};
    for (int t = 0; t < sz.tmax; t++) {
        struct hd_arg a1[] = {HD_ARG(d_ey), HD_ARG(d_hz), HD_ARG(d_fict), HD_ARG(t),
                              HD_ARG(sz.nx), HD_ARG(sz.ny)};
        struct hd_arg a2[] = {HD_ARG(d_ex), HD_ARG(d_hz), HD_ARG(sz.nx), HD_ARG(sz.ny)};
        struct hd_arg a3[] = {HD_ARG(d_hz), HD_ARG(d_ex), HD_ARG(d_ey), HD_ARG(sz.nx),
                              HD_ARG(sz.ny)};
        HD_WL_TRY(hd_launch(gpu, mod, "fdtd_step1", grid, block, 0, 0, a1, 6));
        HD_WL_TRY(hd_launch(gpu, mod, "fdtd_step2", grid, block, 0, 0, a2, 4));
        HD_WL_TRY(hd_launch(gpu, mod, "fdtd_step3", grid, block, 0, 0, a3, 5));
    }
    HD_WL_TRY(hd_synchronize(gpu));

    fd_reference(f[0], f[1], f[2], fict, sz.nx, sz.ny, sz.tmax);
    static const char *const names[3] = {"ex", "ey", "hz"};
    const hd_devptr dev[3] = {d_ex, d_ey, d_hz};
    for (int a = 0; a < 3 && rc == HD_OK; a++) {
        HD_WL_TRY(hd_memcpy_d2h(gpu, got, dev[a], bytes));
        rc = hd_wl_compare_f32(ctx, names[a], f[a], got, n, 0.0f, 0.0f);
    }

out:
    hd_free(gpu, d_ex);
    hd_free(gpu, d_ey);
    hd_free(gpu, d_hz);
    hd_free(gpu, d_fict);
    for (int a = 0; a < 3; a++)
        free(f[a]);
    free(got);
    free(fict);
    return rc;
}

const struct hd_workload hd_workload_fdtd2d = {
    .name = "fdtd2d",
    .description = "2-D FDTD (Polybench FDTD-2D): 3 in-place field updates per step, 32x8 CTAs",
    .klass = "memory",
    .idempotent = false,
    .run = fd_run,
};

/* CCBP input variant (ptx.flags; issue 29) */
const struct hd_workload hd_workload_fdtd2d_ccbp = {
    .name = "fdtd2d_ccbp",
    .description = "fdtd2d with the CCBP experiment's medium input: the 512x512 grid for 3 steps",
    .klass = "memory",
    .idempotent = false,
    .run = fd_run,
    .variant_of = "fdtd2d",
    .variant_flags = "-DCCBP_STEPS=3",
    .paper_row = "Lin Table 4.2 FTD (DBI: NoC 32 %, DRAM 65 %, L2 miss 66 %)",
};
