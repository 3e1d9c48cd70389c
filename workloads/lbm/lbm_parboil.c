/* SPDX-License-Identifier: MIT
 * lbm_parboil.c - host driver of lbm_parboil: Parboil's own CUDA lbm (D3Q19 BGK, its layout).
 *
 * Lin thesis Table 3.2 / Table 4.2 LBM is Parboil's lbm ("long": 120 x 120 x 150). Our base `lbm`
 * (lbm.c) is a structure-of-arrays pull kernel; this variant follows the facts of Parboil's CUDA
 * kernel (workloads/lbm/README.md, "lbm_parboil"): cells of 20 floats (19 distributions and a
 * flag word) in x-fastest order with rows padded by 8 cells, margins of two planes before and
 * after the grid and 4 padding planes (Parboil's PADDING_Z), one CTA of nx threads per x row
 * (grid ny x nz), own-cell loads and pushes (SCATTER) into the neighbours' cells of the other
 * grid, omega 1.95, OBSTACLE (bounce-back) and ACCEL (fixed velocity) flags, two grids swapped
 * by the host between launches.
 *
 * Boundary cells are obstacles and the planes z = 1 and z = nz - 2 accelerate (Parboil's lid-
 * driven-cavity set-up, LBM_initializeSpecialCellsForLDC); a solid sphere stands in for the
 * obstacle file. Parboil starts at rest; we start from the equilibrium of a random density and
 * velocity per cell so that every direction carries a different value (a permuted direction
 * cannot verify by accident). Both grids hold the same initial cells (the kernel never writes
 * the flag words, and slots that no thread pushes to keep their initial value).
 *
 * Verification is bit-exact: the reference replays the kernel on the same memory image with the
 * same float operations in the same order, with fmaf where the committed PTX
 * (lbm_parboil.ptx, nvcc 13 -O3) contracted into fma.rn.f32 (the squared speed, 1.5 u2 - 1, the
 * rest direction's update and each 4.5 cu +- 3), and compares every word of the final grid.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PB_ENTRIES 20 /* 19 distributions + the flag word */
#define PB_FLAGS 19
#define PB_OBSTACLE 1u
#define PB_ACCEL 2u
#define PB_PAD_X 8     /* Parboil's PADDING_X: rows of nx + 8 cells */
#define PB_PAD_Z 4     /* Parboil's PADDING_Z */
#define PB_MARGIN_Z 2  /* planes before the grid (REAL_MARGIN) and after (TOTAL_MARGIN) */
#define PB_PAPER_STEPS 3 /* as lbm's LBM_PAPER_STEPS (lbm.c) */

enum { C = 0, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB };

struct pb_dims {
    int nx, ny, nz, steps;
};

/* nx = 120 (Parboil's SIZE_X, its CTA size) at every size. */
static const struct pb_dims pb_sizes[3] = {
    {120, 8, 8, 4},    /* small: 7,680 cells */
    {120, 16, 16, 8},  /* medium: 30,720 cells */
    {120, 32, 32, 16}, /* large: 122,880 cells */
};

/* One stream+collide step of every cell, as the kernel does it (one thread = one cell). */
static void pb_reference_step(const struct pb_dims *d, const float *src, float *dst)
{
    const float dfl1 = 1.0f / 3.0f, dfl2 = 1.0f / 18.0f, dfl3 = 1.0f / 36.0f;
    const float omega = 1.95f;
    const long px = d->nx + PB_PAD_X, py = d->ny;
    const long sx = PB_ENTRIES, sy = PB_ENTRIES * px, sz = PB_ENTRIES * px * py;
    for (int z = 0; z < d->nz; z++)
        for (int y = 0; y < d->ny; y++)
            for (int x = 0; x < d->nx; x++) {
                const long me = PB_ENTRIES * (x + y * px + z * px * py);
                float f[PB_FLAGS];
                for (int q = 0; q < PB_FLAGS; q++)
                    f[q] = src[me + q];
                uint32_t flags;
                memcpy(&flags, &src[me + PB_FLAGS], sizeof flags);
                if (flags & PB_OBSTACLE) {
                    static const int pairs[9][2] = {{N, S},   {E, W},   {T, B},
                                                    {NE, SW}, {NW, SE}, {NT, SB},
                                                    {NB, ST}, {ET, WB}, {EB, WT}};
                    for (int i = 0; i < 9; i++) {
                        float t = f[pairs[i][0]];
                        f[pairs[i][0]] = f[pairs[i][1]];
                        f[pairs[i][1]] = t;
                    }
                } else {
                    float rho = f[C];
                    for (int q = 1; q < PB_FLAGS; q++)
                        rho = rho + f[q];
                    float ux = f[E] - f[W] + f[NE] - f[NW] + f[SE] - f[SW] + f[ET] + f[EB] -
                               f[WT] - f[WB];
                    float uy = f[N] - f[S] + f[NE] + f[NW] - f[SE] - f[SW] + f[NT] + f[NB] -
                               f[ST] - f[SB];
                    float uz = f[T] - f[B] + f[NT] - f[NB] + f[ST] - f[SB] + f[ET] - f[EB] +
                               f[WT] - f[WB];
                    ux = ux / rho;
                    uy = uy / rho;
                    uz = uz / rho;
                    if (flags & PB_ACCEL) {
                        ux = 0.005f;
                        uy = 0.002f;
                        uz = 0.000f;
                    }
                    /* PTX: mul uy*uy; fma ux*ux + that; fma uz*uz + that; fma s*1.5 - 1 */
                    const float u2 = fmaf(fmaf(uz, uz, fmaf(ux, ux, uy * uy)), 1.5f, -1.0f);
                    const float base = omega * rho;
                    const float keep = 1.0f - omega;
                    f[C] = fmaf(f[C], keep, (dfl1 * base) * (-u2));
                    /* the other 18: w * (cu * fma(4.5, cu, 3) - u2) + keep * f, unfused */
                    const float cu[PB_FLAGS] = {
                        [N] = uy,         [S] = -uy,        [T] = uz,         [B] = -uz,
                        [E] = ux,         [W] = -ux,        [NT] = +uy + uz,  [NB] = +uy - uz,
                        [ST] = -uy + uz,  [SB] = -uy - uz,  [NE] = +ux + uy,  [SE] = +ux - uy,
                        [ET] = +ux + uz,  [EB] = +ux - uz,  [NW] = -ux + uy,  [SW] = -ux - uy,
                        [WT] = -ux + uz,  [WB] = -ux - uz,
                    };
                    for (int q = 1; q < PB_FLAGS; q++) {
                        const float w = (q < NE ? dfl2 : dfl3) * base;
                        const float m = w * (cu[q] * fmaf(4.5f, cu[q], 3.0f) - u2);
                        f[q] = m + keep * f[q];
                    }
                }
                static const int dxyz[PB_FLAGS][3] = {
                    [C] = {0, 0, 0},   [N] = {0, 1, 0},   [S] = {0, -1, 0},  [E] = {1, 0, 0},
                    [W] = {-1, 0, 0},  [T] = {0, 0, 1},   [B] = {0, 0, -1},  [NE] = {1, 1, 0},
                    [NW] = {-1, 1, 0}, [SE] = {1, -1, 0}, [SW] = {-1, -1, 0}, [NT] = {0, 1, 1},
                    [NB] = {0, 1, -1}, [ST] = {0, -1, 1}, [SB] = {0, -1, -1}, [ET] = {1, 0, 1},
                    [EB] = {1, 0, -1}, [WT] = {-1, 0, 1}, [WB] = {-1, 0, -1},
                };
                for (int q = 0; q < PB_FLAGS; q++)
                    dst[me + dxyz[q][0] * sx + dxyz[q][1] * sy + dxyz[q][2] * sz + q] = f[q];
            }
}

static double pb_feq(int q, double rho, double ux, double uy, double uz)
{
    static const int c[PB_FLAGS][3] = {
        {0, 0, 0},  {0, 1, 0},  {0, -1, 0},  {1, 0, 0},  {-1, 0, 0}, {0, 0, 1},  {0, 0, -1},
        {1, 1, 0},  {-1, 1, 0}, {1, -1, 0},  {-1, -1, 0}, {0, 1, 1}, {0, 1, -1}, {0, -1, 1},
        {0, -1, -1}, {1, 0, 1}, {1, 0, -1},  {-1, 0, 1}, {-1, 0, -1},
    };
    double cu = c[q][0] * ux + c[q][1] * uy + c[q][2] * uz;
    double w = q == 0 ? 1.0 / 3.0 : (q < NE ? 1.0 / 18.0 : 1.0 / 36.0);
    return w * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * (ux * ux + uy * uy + uz * uz));
}

static int lbm_parboil_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    /* --size paper: Parboil's "long" lattice (Lin Table 3.2), LBM_PAPER_STEPS steps as lbm. */
    struct pb_dims d = ctx->paper ? (struct pb_dims){120, 120, 150, PB_PAPER_STEPS}
                                  : pb_sizes[ctx->size];
    const int px = d.nx + PB_PAD_X, py = d.ny;
    const size_t plane = (size_t)PB_ENTRIES * (size_t)px * (size_t)py;
    const size_t nwords = plane * (size_t)(d.nz + PB_PAD_Z + 2 * PB_MARGIN_Z);
    const size_t origin = plane * PB_MARGIN_Z; /* word of cell (0, 0, 0) */
    float *h_grid = calloc(nwords, sizeof(float)), *h_out = malloc(nwords * sizeof(float));
    float *ra = malloc(nwords * sizeof(float)), *rb = malloc(nwords * sizeof(float));
    hd_devptr dbuf[2] = {0, 0};
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!h_grid || !h_out || !ra || !rb) {
        rc = hd_wl_fail(ctx, "lbm_parboil: out of host memory");
        goto out;
    }
    /* Flags of z = -2 .. nz + 1 (Parboil's LDC set-up), plus the sphere; distributions of the
     * nz planes; margins and padding stay 0. */
    size_t solids = 0, accels = 0;
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x4c424d5042ULL);
    for (int z = -PB_MARGIN_Z; z < d.nz + PB_MARGIN_Z; z++)
        for (int y = 0; y < d.ny; y++)
            for (int x = 0; x < d.nx; x++) {
                float *cell = h_grid + origin + (size_t)((long)PB_ENTRIES *
                                                         (x + (long)y * px + (long)z * px * py));
                double dx = x - d.nx / 2.0 + 0.5, dy = y - d.ny / 2.0 + 0.5;
                double dz = z - d.nz / 2.0 + 0.5, r = d.ny / 4.0;
                uint32_t flags = 0;
                if (x == 0 || x == d.nx - 1 || y == 0 || y == d.ny - 1 || z == 0 || z == d.nz - 1 ||
                    dx * dx + dy * dy + dz * dz < r * r)
                    flags = PB_OBSTACLE;
                else if ((z == 1 || z == d.nz - 2) && x > 1 && x < d.nx - 2 && y > 1 &&
                         y < d.ny - 2)
                    flags = PB_ACCEL;
                memcpy(&cell[PB_FLAGS], &flags, sizeof flags);
                if (z < 0 || z >= d.nz)
                    continue;
                solids += (flags & PB_OBSTACLE) != 0;
                accels += (flags & PB_ACCEL) != 0;
                double rho = (double)hd_wl_rng_float(&rng, 0.98f, 1.02f);
                double ux = (double)hd_wl_rng_float(&rng, -0.05f, 0.05f);
                double uy = (double)hd_wl_rng_float(&rng, -0.05f, 0.05f);
                double uz = (double)hd_wl_rng_float(&rng, -0.05f, 0.05f);
                for (int q = 0; q < PB_FLAGS; q++)
                    cell[q] = (float)pb_feq(q, rho, ux, uy, uz);
            }

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &dbuf[0], nwords * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &dbuf[1], nwords * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dbuf[0], h_grid, nwords * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dbuf[1], h_grid, nwords * sizeof(float)));

    struct hd_dim3 block = {(uint32_t)d.nx, 1, 1};
    struct hd_dim3 grid = {(uint32_t)d.ny, (uint32_t)d.nz, 1};
    for (int s = 0; s < d.steps; s++) {
        hd_devptr src = dbuf[s & 1] + origin * sizeof(float);
        hd_devptr dst = dbuf[(s + 1) & 1] + origin * sizeof(float);
        int pitch_x = px, pitch_y = py;
        struct hd_arg args[] = {HD_ARG(src), HD_ARG(dst), HD_ARG(pitch_x), HD_ARG(pitch_y)};
        HD_WL_TRY(hd_launch(gpu, mod, "lbm_parboil_stream_collide", grid, block, 0, 0, args, 4));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, h_out, dbuf[d.steps & 1], nwords * sizeof(float)));

    memcpy(ra, h_grid, nwords * sizeof(float));
    memcpy(rb, h_grid, nwords * sizeof(float));
    for (int s = 0; s < d.steps; s++) {
        pb_reference_step(&d, ra + origin, rb + origin);
        float *t = ra;
        ra = rb;
        rb = t;
    }
    /* Bit-exact, every word (distributions, flags, padding, margins). */
    rc = hd_wl_compare_u32(ctx, "grid", (const uint32_t *)(const void *)ra,
                           (const uint32_t *)(const void *)h_out, nwords);
    if (rc == HD_OK)
        fprintf(ctx->log,
                "lbm_parboil: %dx%dx%d cells (%zu obstacle, %zu accel), %d steps verified "
                "bit-exact\n",
                d.nx, d.ny, d.nz, solids, accels, d.steps);

out:
    hd_free(gpu, dbuf[0]);
    hd_free(gpu, dbuf[1]);
    free(h_grid);
    free(h_out);
    free(ra);
    free(rb);
    return rc;
}

/* Variant of lbm (ptx.flags -DLBM_PARBOIL=1; issues 28 and 29, session 22). */
const struct hd_workload hd_workload_lbm_parboil = {
    .name = "lbm_parboil",
    .description = "lbm in Parboil's CUDA form: 20-float cells, rows padded to nx+8, one CTA per "
                   "x row, own-cell loads, pushes to the neighbours",
    .klass = "memory",
    .idempotent = true, /* a launch reads one grid and writes the other */
    .run = lbm_parboil_run,
    .variant_of = "lbm",
    .variant_flags = "-DLBM_PARBOIL=1",
    .paper_row = "Lin 3.2 LBM (Parboil lbm long 120x120x150); Lin 4.2 LBM",
};
