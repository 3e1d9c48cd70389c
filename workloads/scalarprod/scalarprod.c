/* SPDX-License-Identifier: MIT
 * scalarprod.c - host driver of scalarprod: the dot products of many pairs of float vectors
 * (CUDA SDK scalarProd-like; the SP of Zorua Table 3 and Gong Tables 4.2/5.3).
 *
 * Inputs: `pairs` pairs of vectors of `elements` floats, uniform in [-1, 1). The kernel's order
 * of evaluation is fixed by ACCUM_N alone (scalarprod.cu): accumulator i adds a[k] b[k] for k = i,
 * i + ACCUM_N, ... with one fused multiply-add each (the committed PTX contracts `sum += a * b`
 * to fma.rn.f32), then a tree folds the ACCUM_N sums at strides ACCUM_N/2 .. 1. The reference
 * replays exactly that with fmaf() and float additions, so the results are compared bit for bit
 * (tolerance zero). Every variant (threads per CTA, ACCUM_N) is checked against the replay of its
 * own ACCUM_N. As a check of the replay itself, each dot product is also compared with the exact
 * double sum: the error of k sequential fmas plus a tree of depth log2 ACCUM_N is below
 * (k + log2 ACCUM_N) u sum|a b| (u = 2^-24); that bound is asserted too.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>

#define SP_TB 256       /* must match scalarprod.cu's TB default */
#define SP_ACCUM_N 1024 /* must match scalarprod.cu's ACCUM_N default */
#define SP_WAVES_PAIRS 400
#define SP_GRID 128     /* CTAs per launch at most (the SDK's grid); more pairs loop in a CTA */

struct sp_size {
    int pairs, elements;
};

static struct sp_size sp_size_of(enum hd_wl_size size)
{
    /* Warp instructions (base variant, functional model): small 0.35 M, medium 2.9 M, large
     * 13 M. Small has 160 pairs (CTAs loop over pairs: 128 CTAs, 32 of them take a second pair)
     * and 1500 elements (not a multiple of ACCUM_N: some accumulators add one element, some
     * two). Large (256 x 65536, SDK-like 128 CTAs of 8 warps) is the length for the papers'
     * measurements: each CTA runs two pairs of 64K elements, ~100 K warp instructions each. */
    static const struct sp_size s[3] = {{160, 1500}, {256, 16384}, {256, 65536}};
    return s[size];
}

/* The kernel's arithmetic for one pair, in its order. */
static float sp_replay(const float *a, const float *b, int elements, int accum_n, float *acc)
{
    for (int i = 0; i < accum_n; i++) {
        float sum = 0.0f;
        for (int k = i; k < elements; k += accum_n)
            sum = fmaf(a[k], b[k], sum);
        acc[i] = sum;
    }
    for (int stride = accum_n / 2; stride > 0; stride >>= 1)
        for (int i = 0; i < stride; i++)
            acc[i] = acc[i] + acc[i + stride];
    return acc[0];
}

int scalarprod_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    /* --size waves (issue 32 item 6, workloads/README.md "Occupancy-length inputs"): more pairs,
     * one CTA each (the grid is not capped at SP_GRID), so more CTAs of the same footprint. */
    static const struct sp_size sp_waves = {SP_WAVES_PAIRS, 1500};
    const struct sp_size sz = ctx->waves ? sp_waves : sp_size_of(ctx->size);
    const char *flags = hd_wl_variant_flags(ctx);
    const long tbl = hd_wl_flag(flags, "TB", SP_TB);
    const long accl = hd_wl_flag(flags, "ACCUM_N", SP_ACCUM_N);
    if (tbl < 32 || tbl > 1024 || tbl % 32 != 0 || accl < tbl || accl > 8192 ||
        (accl & (accl - 1)) != 0)
        return hd_wl_fail(ctx, "scalarprod: TB=%ld ACCUM_N=%ld: TB is a multiple of 32 up to "
                               "1024, ACCUM_N a power of two from TB to 8192", tbl, accl);
    const int accum_n = (int)accl;
    const size_t n = (size_t)sz.pairs * (size_t)sz.elements;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *ref = malloc((size_t)sz.pairs * sizeof(float));
    float *got = malloc((size_t)sz.pairs * sizeof(float));
    float *acc = malloc((size_t)accum_n * sizeof(float));
    hd_devptr da = 0, db = 0, dc = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!a || !b || !ref || !got || !acc) {
        rc = hd_wl_fail(ctx, "scalarprod: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73636c7270726f64ULL);
    for (size_t i = 0; i < n; i++) {
        a[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
        b[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    }
    const int grid = ctx->waves || sz.pairs < SP_GRID ? sz.pairs : SP_GRID;
    fprintf(ctx->log, "scalarprod: %d pairs of %d elements, %d CTAs of %ld threads, %d "
                      "accumulators (%d B shared memory per CTA)\n",
            sz.pairs, sz.elements, grid, tbl, accum_n, accum_n * 4);

    {
        uint64_t h = hd_wl_hash(HD_WL_HASH_INIT, a, n * sizeof(float));
        hd_wl_work(ctx, hd_wl_hash(h, b, n * sizeof(float)), "scalarprod pairs=%d elements=%d",
                   sz.pairs, sz.elements);
    }
    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &da, n * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &db, n * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &dc, (size_t)sz.pairs * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, da, a, n * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, db, b, n * sizeof(float)));
    /* NaN: an unwritten result shows */
    HD_WL_TRY(hd_memset(gpu, dc, 0xff, (size_t)sz.pairs * sizeof(float)));
    {
        int pairs = sz.pairs, elements = sz.elements;
        struct hd_arg args[] = {HD_ARG(da), HD_ARG(db), HD_ARG(dc), HD_ARG(pairs),
                                HD_ARG(elements)};
        struct hd_dim3 g = {(uint32_t)grid, 1, 1}, blk = {(uint32_t)tbl, 1, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "scalar_prod", g, blk, 0, 0, args, 5));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, dc, (size_t)sz.pairs * sizeof(float)));

    double worst = 0.0;
    for (int p = 0; p < sz.pairs; p++) {
        const float *pa = a + (size_t)p * sz.elements, *pb = b + (size_t)p * sz.elements;
        ref[p] = sp_replay(pa, pb, sz.elements, accum_n, acc);
        double exact = 0.0, mag = 0.0;
        for (int k = 0; k < sz.elements; k++) {
            exact += (double)pa[k] * (double)pb[k];
            mag += fabs((double)pa[k] * (double)pb[k]);
        }
        int depth = (sz.elements + accum_n - 1) / accum_n;
        for (int s = accum_n; s > 1; s >>= 1)
            depth++;
        double err = fabs((double)ref[p] - exact), bound = depth * 0x1p-24 * mag;
        if (err > bound) {
            rc = hd_wl_fail(ctx, "scalarprod: reference replay of pair %d is %.9g, %.3g from the "
                                 "exact %.17g, beyond the error bound %.3g",
                            p, (double)ref[p], err, exact, bound);
            goto out;
        }
        worst = err / bound > worst ? err / bound : worst;
    }
    rc = hd_wl_compare_f32(ctx, "dot product", ref, got, (size_t)sz.pairs, 0.0f, 0.0f);
    if (rc == HD_OK)
        fprintf(ctx->log, "scalarprod: %d dot products bit-exact; replay error at most %.2f of "
                          "its bound\n", sz.pairs, worst);

out:
    if (gpu) {
        hd_free(gpu, da);
        hd_free(gpu, db);
        hd_free(gpu, dc);
    }
    free(a);
    free(b);
    free(ref);
    free(got);
    free(acc);
    return rc;
}

const struct hd_workload hd_workload_scalarprod = {
    .name = "scalarprod",
    .description = "dot products of vector pairs: shared accumulators and a tree (SDK scalarProd)",
    .klass = "memory",
    .idempotent = true, /* a CTA reads a, b and writes only its pairs' results */
    .run = scalarprod_run,
};
