/* SPDX-License-Identifier: MIT
 * sgemm.c - host driver for sgemm: C = alpha * A * B + beta * C0 with 16x16 shared-memory tiles,
 * and its resource-specification variants (tile edge, elements per thread, register cap; their
 * flags come from ptx.flags through hd_wl_variant_flags, so one run function serves them all).
 *
 * A, B and C0 are uniform in [-1, 1) from a fixed seed; the small size has dimensions that are not
 * multiples of 16, so the edge tiles exercise the kernel's bounds checks. The reference is
 * computed in double (every float product is exact in double).
 *
 * Tolerance, per element: the kernel accumulates k products with fused multiply-adds in float,
 * then scales. The standard bound for a length-k dot product gives |acc_f - acc| <= gamma_k * S
 * with S = sum_i |a_i * b_i| and gamma_k = k u / (1 - k u), u = 2^-24; the final multiply and add
 * add at most 2u of |alpha acc| + |beta c0|. The check uses twice that bound,
 * 2 (k + 4) u (|alpha| S + |beta c0|), which no correct kernel exceeds and which is orders of
 * magnitude below any real error (a lost tile or a wrong element changes a value by ~S / k).
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define SGEMM_TILE 16 /* defaults of TILE and RPT, must match sgemm.cu */
#define SGEMM_RPT 1

struct sgemm_dims {
    int m, n, k;
};

static struct sgemm_dims sgemm_dims_of(enum hd_wl_size size)
{
    switch (size) {
    /* Warp instructions measured on the functional model. */
    case HD_WL_SMALL: return (struct sgemm_dims){120, 104, 88};   /* 0.23M */
    case HD_WL_MEDIUM: return (struct sgemm_dims){256, 256, 256}; /* 2.6M */
    case HD_WL_LARGE: return (struct sgemm_dims){512, 512, 512};  /* 20.4M */
    }
    return (struct sgemm_dims){0, 0, 0};
}

/* First element outside the tolerance, or -1. */
static long sgemm_check(const struct sgemm_dims *d, const float *A, const float *B,
                        const float *C0, const float *C, float alpha, float beta, double *exp_out,
                        double *tol_out)
{
    const double u = 1.0 / 16777216.0;
    for (int r = 0; r < d->m; r++) {
        for (int c = 0; c < d->n; c++) {
            double acc = 0.0, mag = 0.0;
            for (int i = 0; i < d->k; i++) {
                double p = (double)A[(size_t)r * d->k + i] * (double)B[(size_t)i * d->n + c];
                acc += p;
                mag += fabs(p);
            }
            size_t idx = (size_t)r * d->n + c;
            double exp = (double)alpha * acc + (double)beta * (double)C0[idx];
            double tol = 2.0 * (d->k + 4) * u *
                         (fabs((double)alpha) * mag + fabs((double)beta * (double)C0[idx]));
            if (!(fabs((double)C[idx] - exp) <= tol)) {
                *exp_out = exp;
                *tol_out = tol;
                return (long)idx;
            }
        }
    }
    return -1;
}

static int sgemm_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct sgemm_dims d = sgemm_dims_of(ctx->size);
    /* --size paper, the base kernel (issue 28, session 21): Lin thesis Table 3.2's MMS data set,
     * 1024x1024 matrices (the SDK matrixMul); variants keep large (EXPARS's SGE is Parboil's). */
    if (ctx->paper && !hd_wl_variant_flags(ctx))
        d = (struct sgemm_dims){1024, 1024, 1024};
    const char *flags = hd_wl_variant_flags(ctx);
    const long tile = hd_wl_flag(flags, "TILE", SGEMM_TILE);
    const long rpt = hd_wl_flag(flags, "RPT", SGEMM_RPT);
    const long waves = hd_wl_flag(flags, "WAVES", 0);
    if ((tile != 8 && tile != 16 && tile != 32) || rpt < 1 || tile % rpt != 0)
        return hd_wl_fail(ctx, "sgemm: TILE=%ld RPT=%ld: TILE is 8, 16 or 32, RPT divides it",
                          tile, rpt);
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "sgemm: WAVES=%ld out of range 0..64", waves);
    /* Input-size variant (token wN; issue 33, EXPARS Table 3 SGE): WAVES=N sizes the small input
     * for N full waves of CTAs on fermi-gtx480 at Table 3's 5 CTAs per SM: 15 tiles across n,
     * 5 N tiles down m (15 x 5 x N CTAs), k = 256 (medium's); same kernel and reference. */
    if (waves > 0 && ctx->size == HD_WL_SMALL) {
        d.n = 15 * (int)tile;
        d.m = 5 * (int)waves * (int)tile;
        d.k = 256;
    }
    const size_t na = (size_t)d.m * d.k, nb = (size_t)d.k * d.n, nc = (size_t)d.m * d.n;
    float *A = malloc(na * sizeof(float)), *B = malloc(nb * sizeof(float));
    float *C0 = malloc(nc * sizeof(float)), *C = malloc(nc * sizeof(float));
    hd_devptr dA = 0, dB = 0, dC0 = 0, dC = 0;
    struct hd_module *mod = NULL;
    const float alpha = 0.75f, beta = -0.5f;
    int rc = HD_OK;

    if (!A || !B || !C0 || !C) {
        rc = hd_wl_fail(ctx, "sgemm: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x7367656d6d00ULL);
    for (size_t i = 0; i < na; i++)
        A[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    for (size_t i = 0; i < nb; i++)
        B[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    for (size_t i = 0; i < nc; i++)
        C0[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    fprintf(ctx->log, "sgemm: m=%d n=%d k=%d, %ldx%ld tiles", d.m, d.n, d.k, tile, tile);
    if (flags)
        fprintf(ctx->log, ", %ld threads per CTA (%s)", tile * tile / rpt, flags);
    fprintf(ctx->log, "\n");

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &dA, na * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &dB, nb * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &dC0, nc * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &dC, nc * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dA, A, na * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dB, B, nb * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dC0, C0, nc * sizeof(float)));
    HD_WL_TRY(hd_memset(gpu, dC, 0xff, nc * sizeof(float))); /* NaN: an unwritten element shows */

    struct hd_arg args[] = {HD_ARG(dA), HD_ARG(dB),    HD_ARG(dC0),   HD_ARG(dC),  HD_ARG(d.m),
                            HD_ARG(d.n), HD_ARG(d.k), HD_ARG(alpha), HD_ARG(beta)};
    struct hd_dim3 grid = {(uint32_t)((d.n + tile - 1) / tile),
                           (uint32_t)((d.m + tile - 1) / tile), 1};
    struct hd_dim3 block = {(uint32_t)tile, (uint32_t)(tile / rpt), 1};
    HD_WL_TRY(hd_launch(gpu, mod, "sgemm_tiled", grid, block, 0, 0, args, 9));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, C, dC, nc * sizeof(float)));

    double exp = 0.0, tol = 0.0;
    long bad = sgemm_check(&d, A, B, C0, C, alpha, beta, &exp, &tol);
    if (bad >= 0)
        rc = hd_wl_fail(ctx, "C[%ld] (row %ld, col %ld): expected %.9g, got %.9g (tolerance %.3g)",
                        bad, bad / d.n, bad % d.n, exp, (double)C[bad], tol);

out:
    if (gpu) {
        hd_free(gpu, dA);
        hd_free(gpu, dB);
        hd_free(gpu, dC0);
        hd_free(gpu, dC);
    }
    free(A);
    free(B);
    free(C0);
    free(C);
    return rc;
}

const struct hd_workload hd_workload_sgemm = {
    .name = "sgemm",
    .description = "SGEMM C = alpha*A*B + beta*C0, 16x16 shared-memory tiles",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .locality_hint = 1, /* Gong Table 6.2 GEMM: type 1 */
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_sgemm_t8 = {
    .name = "sgemm_t8",
    .description = "sgemm variant: 8x8 tiles, 64 threads and 512 B shared memory per CTA",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DTILE=8",
};
const struct hd_workload hd_workload_sgemm_c4 = {
    .name = "sgemm_c4",
    .description = "sgemm variant: 4 elements of C per thread (more registers), 64 threads per CTA",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DRPT=4",
};
const struct hd_workload hd_workload_sgemm_c2 = {
    .name = "sgemm_c2",
    .description =
        "sgemm variant: 2 elements of C per thread (more registers), 128 threads per CTA",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DRPT=2",
};
const struct hd_workload hd_workload_sgemm_t32_c2 = {
    .name = "sgemm_t32_c2",
    .description =
        "sgemm variant: 32x32 tiles, 2 elements per thread, 512 threads and 8 KB shared per CTA",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DTILE=32 -DRPT=2",
};
const struct hd_workload hd_workload_sgemm_t32_r32 = {
    .name = "sgemm_t32_r32",
    .description =
        "sgemm variant: 32x32 tiles, 1024 threads and 8 KB shared per CTA, at most 32 registers",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DTILE=32 -DMAXREG=32",
};
const struct hd_workload hd_workload_sgemm_r32 = {
    .name = "sgemm_r32",
    .description = "sgemm variant: at most 32 registers per thread (__maxnreg__)",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DMAXREG=32",
};
const struct hd_workload hd_workload_sgemm_r16 = {
    .name = "sgemm_r16",
    .description = "sgemm variant: at most 16 registers per thread (__maxnreg__; spills)",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DMAXREG=16",
};
const struct hd_workload hd_workload_sgemm_c4_r32 = {
    .name = "sgemm_c4_r32",
    .description = "sgemm variant: 4 elements per thread, 64 threads per CTA, at most 32 registers",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DRPT=4 -DMAXREG=32",
};
const struct hd_workload hd_workload_sgemm_c2_r44 = {
    .name = "sgemm_c2_r44",
    .description = "sgemm variant: 2 elements per thread, 128 threads per CTA, at most 44 registers",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DRPT=2 -DMAXREG=44",
    .paper_row = "EXPARS Table 3 SGE: 4 warps/CTA, 512 B, 44 regs (ours 2,048 B)",
};
const struct hd_workload hd_workload_sgemm_c2_r44_w5 = {
    .name = "sgemm_c2_r44_w5",
    .description = "sgemm_c2_r44 with a small input of 5 full waves (375 CTAs of 5 per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = sgemm_run,
    .variant_of = "sgemm",
    .variant_flags = "-DRPT=2 -DMAXREG=44 -DWAVES=5",
    .paper_row = "EXPARS Table 3 SGE: 4 warps/CTA, 512 B, 44 regs (ours 2,048 B), >= 3 waves at EXPARS's 7 CTAs/SM",
};
/* }==== */
