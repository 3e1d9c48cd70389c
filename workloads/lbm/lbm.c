/* SPDX-License-Identifier: MIT
 * lbm.c - host driver for the D3Q19 lattice Boltzmann step (Parboil-like), ping-pong buffers.
 *
 * Grid nx x ny x nz, periodic, with a solid sphere (bounce-back) in the middle. The initial
 * state is the equilibrium of a density 1 +- 0.02 and a random velocity of magnitude <= 0.05
 * per axis, so every term of the collision matters. The host launches lbm_stream_collide
 * `steps` times, swapping source and destination, and compares the final distributions with a
 * double-precision reference that runs the same pull scheme.
 * Input-size variant (token `wN`; issue 33, EXPARS Table 3 LBM): WAVES=N sizes the small input so
 * that each of its 4 launches has N full waves of CTAs on fermi-gtx480 at Table 3's 7 CTAs per SM
 * (a 32 x 28 x 15N grid: 7 x 15N CTAs of 32 x 4 cells); same kernel and reference.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LBM_Q 19
#define LBM_BX 32
#define LBM_BY 4

struct lbm_dims {
    int nx, ny, nz, steps;
};

#define LBM_PAPER_STEPS 3

static const struct lbm_dims lbm_sizes[3] = {
    {32, 16, 8, 4},   /* small: 4096 cells, 0.27M warp instructions */
    {32, 32, 32, 8},  /* medium: 4.2M */
    {64, 64, 32, 16}, /* large: 34M */
};

static const int lbm_cx[LBM_Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int lbm_cy[LBM_Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int lbm_cz[LBM_Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};

#define LBM_TRY(call)                                                                           \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static double lbm_weight(int q)
{
    return q == 0 ? 1.0 / 3.0 : (q < 7 ? 1.0 / 18.0 : 1.0 / 36.0);
}

static double lbm_feq(int q, double rho, double ux, double uy, double uz)
{
    double cu = lbm_cx[q] * ux + lbm_cy[q] * uy + lbm_cz[q] * uz;
    double usq = ux * ux + uy * uy + uz * uz;
    return lbm_weight(q) * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq);
}

static int lbm_wrap(int v, int n)
{
    return v < 0 ? v + n : (v >= n ? v - n : v);
}

/* One pull stream+collide step, double precision. */
static void lbm_reference_step(const struct lbm_dims *d, const double *src, double *dst,
                               const unsigned char *flags, double omega)
{
    const size_t ncells = (size_t)d->nx * (size_t)d->ny * (size_t)d->nz;
    for (int z = 0; z < d->nz; z++)
        for (int y = 0; y < d->ny; y++)
            for (int x = 0; x < d->nx; x++) {
                size_t cell = ((size_t)z * (size_t)d->ny + (size_t)y) * (size_t)d->nx + (size_t)x;
                double f[LBM_Q];
                for (int q = 0; q < LBM_Q; q++) {
                    int sx = lbm_wrap(x - lbm_cx[q], d->nx), sy = lbm_wrap(y - lbm_cy[q], d->ny);
                    int sz = lbm_wrap(z - lbm_cz[q], d->nz);
                    size_t sc = ((size_t)sz * (size_t)d->ny + (size_t)sy) * (size_t)d->nx +
                                (size_t)sx;
                    f[q] = src[(size_t)q * ncells + sc];
                }
                if (flags[cell]) {
                    for (int q = 0; q < LBM_Q; q++)
                        dst[(size_t)q * ncells + cell] = f[q == 0 ? 0 : (q & 1 ? q + 1 : q - 1)];
                    continue;
                }
                double rho = 0, ux = 0, uy = 0, uz = 0;
                for (int q = 0; q < LBM_Q; q++) {
                    rho += f[q];
                    ux += lbm_cx[q] * f[q];
                    uy += lbm_cy[q] * f[q];
                    uz += lbm_cz[q] * f[q];
                }
                ux /= rho;
                uy /= rho;
                uz /= rho;
                for (int q = 0; q < LBM_Q; q++)
                    dst[(size_t)q * ncells + cell] =
                        f[q] - omega * (f[q] - lbm_feq(q, rho, ux, uy, uz));
            }
}

static int lbm_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct lbm_dims d = lbm_sizes[ctx->size];
    /* --size paper, the base workload (issue 28, session 21): Lin thesis Table 3.2's LBM "long",
     * Parboil's 120 x 120 x 150 lattice (2.16 M cells; its "short" and "long" inputs differ only
     * in time steps, 100 and 3,000). Lin measures the first 4 M cycles, fewer than LBM_PAPER_STEPS
     * of ours (about 3 M cycles each on maxwell-gpuduet); more steps change no measured cycle,
     * and 3,000 could not be verified (days of simulation; the tolerance below is argued for
     * <= 16), so the run stops after LBM_PAPER_STEPS and verifies. The variants (lbm_r36 for EXPARS) keep large. */
    if (ctx->paper && !hd_wl_variant_flags(ctx))
        d = (struct lbm_dims){120, 120, 150, LBM_PAPER_STEPS};
    /* CCBP input variant (ptx.flags token `ccbp`; issue 29, Lin Table 4.2 LBM; docs/blocks/ccbp.md
     * "The experiment's inputs"): at medium, the medium lattice (two 2.5 MB distribution
     * buffers, over the 2 MB L2 of configs/maxwell-ccbp.ini) for CCBP_STEPS steps, so that
     * several instances fit in the experiment's budget. */
    const long cc_steps = hd_wl_flag(hd_wl_variant_flags(ctx), "CCBP_STEPS", 0);
    if (cc_steps > 0 && ctx->size == HD_WL_MEDIUM) {
        if (cc_steps > 16)
            return hd_wl_fail(ctx, "lbm: CCBP_STEPS %ld out of range (1..16)", cc_steps);
        d.steps = (int)cc_steps;
    }
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "lbm: WAVES=%ld out of range 0..64", waves);
    if (waves > 0 && ctx->size == HD_WL_SMALL) {
        /* 15 SMs x 7 CTAs per SM per wave: 7 CTAs of 4 rows in y, 15 N planes in z. */
        d.nx = LBM_BX;
        d.ny = 7 * LBM_BY;
        d.nz = 15 * (int)waves;
        d.steps = 4;
    }
    const size_t ncells = (size_t)d.nx * (size_t)d.ny * (size_t)d.nz;
    const size_t nf = ncells * LBM_Q;
    float *h_f = malloc(nf * sizeof(float)), *ref_f = malloc(nf * sizeof(float));
    double *ra = malloc(nf * sizeof(double)), *rb = malloc(nf * sizeof(double));
    unsigned char *h_flags = malloc(ncells);
    hd_devptr dbuf[2] = {0, 0}, dflags = 0;
    struct hd_module *mod = NULL;
    int st = HD_OK;
    const float omega = 1.2f;

    if (!h_f || !ref_f || !ra || !rb || !h_flags) {
        st = hd_wl_fail(ctx, "lbm: out of host memory");
        goto out;
    }
    /* Solid sphere of radius ny/4 at the grid centre; the rest is fluid. */
    size_t solids = 0;
    for (int z = 0; z < d.nz; z++)
        for (int y = 0; y < d.ny; y++)
            for (int x = 0; x < d.nx; x++) {
                double dx = x - d.nx / 2.0 + 0.5, dy = y - d.ny / 2.0 + 0.5;
                double dz = z - d.nz / 2.0 + 0.5, r = d.ny / 4.0;
                size_t cell = ((size_t)z * (size_t)d.ny + (size_t)y) * (size_t)d.nx + (size_t)x;
                h_flags[cell] = dx * dx + dy * dy + dz * dz < r * r;
                solids += h_flags[cell];
            }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x4c424d0001ULL);
    for (size_t c = 0; c < ncells; c++) {
        double rho = (double)hd_wl_rng_float(&rng, 0.98f, 1.02f);
        double ux = (double)hd_wl_rng_float(&rng, -0.05f, 0.05f);
        double uy = (double)hd_wl_rng_float(&rng, -0.05f, 0.05f);
        double uz = (double)hd_wl_rng_float(&rng, -0.05f, 0.05f);
        if (h_flags[c])
            ux = uy = uz = 0.0;
        for (int q = 0; q < LBM_Q; q++) {
            h_f[(size_t)q * ncells + c] = (float)lbm_feq(q, rho, ux, uy, uz);
            ra[(size_t)q * ncells + c] = (double)h_f[(size_t)q * ncells + c];
        }
    }

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    LBM_TRY(hd_malloc(gpu, &dbuf[0], nf * sizeof(float)));
    LBM_TRY(hd_malloc(gpu, &dbuf[1], nf * sizeof(float)));
    LBM_TRY(hd_malloc(gpu, &dflags, ncells));
    LBM_TRY(hd_memcpy_h2d(gpu, dbuf[0], h_f, nf * sizeof(float)));
    LBM_TRY(hd_memset(gpu, dbuf[1], 0xff, nf * sizeof(float)));
    LBM_TRY(hd_memcpy_h2d(gpu, dflags, h_flags, ncells));

    int nx = d.nx, ny = d.ny, nz = d.nz;
    struct hd_dim3 block = {LBM_BX, LBM_BY, 1};
    struct hd_dim3 grid = {(uint32_t)((nx + LBM_BX - 1) / LBM_BX),
                           (uint32_t)((ny + LBM_BY - 1) / LBM_BY), (uint32_t)nz};
    for (int s = 0; s < d.steps; s++) {
        struct hd_arg args[] = {HD_ARG(dbuf[s & 1]), HD_ARG(dbuf[(s + 1) & 1]), HD_ARG(dflags),
                                HD_ARG(nx),          HD_ARG(ny),                HD_ARG(nz),
                                HD_ARG(omega)};
        LBM_TRY(hd_launch(gpu, mod, "lbm_stream_collide", grid, block, 0, 0, args, 7));
    }
    LBM_TRY(hd_synchronize(gpu));
    LBM_TRY(hd_memcpy_d2h(gpu, h_f, dbuf[d.steps & 1], nf * sizeof(float)));

    for (int s = 0; s < d.steps; s++) {
        lbm_reference_step(&d, ra, rb, h_flags, (double)omega);
        double *t = ra;
        ra = rb;
        rb = t;
    }
    for (size_t i = 0; i < nf; i++)
        ref_f[i] = (float)ra[i];
    /* Tolerance. Streaming and bounce-back are exact copies. A fluid collision in float is a
     * few dozen roundings on values <= 0.4, i.e. a few 1e-7 absolute per step, and BGK with
     * 0 < omega < 2 relaxes towards an equilibrium that depends smoothly on the (conserved)
     * moments, so errors add up rather than grow: <= 1e-6 per step, steps <= 16. A wrong
     * direction, weight or neighbour changes values by >= 1e-3. */
    st = hd_wl_compare_f32(ctx, "f", ref_f, h_f, nf, 0.0f, 1e-6f * (float)d.steps);
    if (st == HD_OK)
        fprintf(ctx->log, "lbm: %dx%dx%d cells (%zu solid), %d steps verified\n", d.nx, d.ny,
                d.nz, solids, d.steps);

out:
    hd_free(gpu, dbuf[0]);
    hd_free(gpu, dbuf[1]);
    hd_free(gpu, dflags);
    free(h_f);
    free(ref_f);
    free(ra);
    free(rb);
    free(h_flags);
    return st;
}

const struct hd_workload hd_workload_lbm = {
    .name = "lbm",
    .description = "lattice Boltzmann D3Q19 BGK stream+collide, ping-pong buffers",
    .klass = "memory",
    .idempotent = true, /* each launch reads one buffer and writes the other */
    .run = lbm_run,
    .paper_row = "Lin 3.2 LBM; Lin 4.2 LBM",
};
const struct hd_workload hd_workload_lbm_r36 = {
    .name = "lbm_r36",
    .description = "lbm variant: at most 36 registers per thread (EXPARS Table 3 LBM)",
    .klass = "memory",
    .idempotent = true,
    .run = lbm_run,
    .variant_of = "lbm",
    .variant_flags = "-DMAXREG=36",
    .paper_row = "EXPARS Table 3 LBM: 4 warps/CTA, 0 B, 36 regs",
};

/* CCBP input variant (ptx.flags; issue 29) */
const struct hd_workload hd_workload_lbm_ccbp = {
    .name = "lbm_ccbp",
    .description = "lbm with the CCBP experiment's medium input: the medium lattice for 4 steps",
    .klass = "memory",
    .idempotent = true,
    .run = lbm_run,
    .variant_of = "lbm",
    .variant_flags = "-DCCBP_STEPS=4",
    .paper_row = "Lin Table 4.2 LBM (DBI: NoC 15 %, DRAM 61 %, L2 miss 88 %)",
};
const struct hd_workload hd_workload_lbm_r36_w4 = {
    .name = "lbm_r36_w4",
    .description = "lbm_r36 with a small input of 4 launches of 4 full waves each (420 CTAs of 7 per SM on 15 SMs)",
    .klass = "memory",
    .idempotent = true,
    .run = lbm_run,
    .variant_of = "lbm",
    .variant_flags = "-DMAXREG=36 -DWAVES=4",
    .paper_row = "EXPARS Table 3 LBM: 4 warps/CTA, 0 B, 36 regs, >= 3 waves at EXPARS's 8 CTAs/SM",
};
