/* SPDX-License-Identifier: MIT
 * histo1024.c - host driver of histo1024: the 1,024-bin histogram of float keys that starts
 * Rodinia's hybridsort (Lin thesis Table 2.2 HG_1, Table 3.2 HG; histo1024.cu).
 *
 * Inputs (fixed seed): n float keys, seven in eight uniform in [0, 1000), one in eight in
 * [500, 501) so that a handful of bins take many more hits (the sub-histogram atomics contend as
 * with real data that clusters). The host finds the keys' minimum lo and maximum and gives the
 * kernel lo and scale = 1024 / (max - lo) (single precision), as hybridsort computes its pivots
 * from the min and max.
 *
 * Launches: histo1024_block on G CTAs of 96 threads (3 warps), G = ceil(n / (96 x 64)) capped at
 * 240 (a grid-stride loop takes the rest: 5.3 CTA waves at 3 CTAs/SM on 15 SMs), then
 * histo1024_merge on 4 CTAs of 256 threads (one thread per bin).
 *
 * Reference: the kernel's bin of every key is min(max((int)((key - lo) * scale), 0), 1023), one
 * float subtraction and one float multiplication (no fused form exists for (a - b) * c) and a
 * truncating conversion, all IEEE single precision; the host computes the same in float, so the
 * counts are compared exactly, and their sum must be n.
 *
 * Variant histo1024_lin22 (-DPARAM_SMEM=36): Lin's 12,324 B per TB are our 12,288 B of
 * sub-histograms plus 36 B that sm_1x compilers placed in shared memory (16 B of built-in
 * registers and this kernel's 20 B of parameters; Lin's bfs rows, 44 and 36 B with no shared
 * arrays, are exactly 16 B + their parameters too). The variant launches histo1024_block with 36
 * B of dynamic shared memory it does not touch, so the CTA holds Lin's 12,324 B: 3 CTAs/SM as
 * Lin's (the base's 12,288 B fit 4 in 48 KB).
 */
#include "workload.h"

#include <stdlib.h>

#define HISTO_WARPS 3    /* must match histo1024.cu */
#define HISTO_BINS 1024  /* must match histo1024.cu */
#define HISTO_ITEMS 64   /* keys per thread before the grid is capped */
#define HISTO_MAX_GRID 240
#define HISTO_MERGE_TB 256

static int histo_keys(enum hd_wl_size size)
{
    /* Warp instructions (functional): small ~0.15 M (49 CTAs; n not a multiple of 96, so the
     * last CTA's threads do not all take a key), medium ~1.6 M (Lin's 4 M elements), large ~6 M
     * (16 M keys, 64 MB). */
    static const int n[3] = {300007, 4194304, 16777216};
    return n[size];
}

static int histo_bin(float key, float lo, float scale)
{
    float x = (key - lo) * scale;
    int bin = (int)x;
    return bin < 0 ? 0 : (bin > HISTO_BINS - 1 ? HISTO_BINS - 1 : bin);
}

static int histo_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = histo_keys(ctx->size);
    const long pad = hd_wl_flag(hd_wl_variant_flags(ctx), "PARAM_SMEM", 0);
    float *keys = malloc(sizeof(float) * (size_t)n);
    unsigned *ref = calloc(HISTO_BINS, sizeof(unsigned)), *got = malloc(sizeof(unsigned) * HISTO_BINS);
    hd_devptr dkeys = 0, dpartial = 0, dhist = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!keys || !ref || !got) {
        rc = hd_wl_fail(ctx, "histo1024: out of host memory");
        goto out;
    }
    if (pad < 0 || pad > 4096) {
        rc = hd_wl_fail(ctx, "histo1024: PARAM_SMEM=%ld must be 0 to 4096 bytes", pad);
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6869737431303234ull);
    float lo = 1e30f, hi = -1e30f;
    for (int i = 0; i < n; i++) {
        float k = (hd_wl_rng_u32(&rng) & 7u) == 0 ? hd_wl_rng_float(&rng, 500.0f, 501.0f)
                                                 : hd_wl_rng_float(&rng, 0.0f, 1000.0f);
        keys[i] = k;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    const float scale = 1024.0f / (hi - lo);
    for (int i = 0; i < n; i++)
        ref[histo_bin(keys[i], lo, scale)]++;

    const int per_cta = HISTO_WARPS * 32;
    int grid = (n + per_cta * HISTO_ITEMS - 1) / (per_cta * HISTO_ITEMS);
    grid = grid > HISTO_MAX_GRID ? HISTO_MAX_GRID : grid;
    fprintf(ctx->log, "histo1024: %d keys in [%.4f, %.4f], %d CTAs of %d threads, %ld B of "
            "dynamic shared memory\n", n, (double)lo, (double)hi, grid, per_cta, pad);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    const size_t pbytes = sizeof(unsigned) * HISTO_BINS * (size_t)grid;
    HD_WL_TRY(hd_malloc(gpu, &dkeys, sizeof(float) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &dpartial, pbytes));
    HD_WL_TRY(hd_malloc(gpu, &dhist, sizeof(unsigned) * HISTO_BINS));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dkeys, keys, sizeof(float) * (size_t)n));
    HD_WL_TRY(hd_memset(gpu, dpartial, 0xff, pbytes));
    HD_WL_TRY(hd_memset(gpu, dhist, 0xff, sizeof(unsigned) * HISTO_BINS));

    int nn = n, blocks = grid;
    float flo = lo, fscale = scale;
    struct hd_arg a1[] = {HD_ARG(dkeys), HD_ARG(nn), HD_ARG(flo), HD_ARG(fscale), HD_ARG(dpartial)};
    HD_WL_TRY(hd_launch(gpu, mod, "histo1024_block", (struct hd_dim3){(uint32_t)grid, 1, 1},
                        (struct hd_dim3){(uint32_t)per_cta, 1, 1}, (uint32_t)pad, 0, a1, 5));
    struct hd_arg a2[] = {HD_ARG(dpartial), HD_ARG(blocks), HD_ARG(dhist)};
    HD_WL_TRY(hd_launch(gpu, mod, "histo1024_merge",
                        (struct hd_dim3){HISTO_BINS / HISTO_MERGE_TB, 1, 1},
                        (struct hd_dim3){HISTO_MERGE_TB, 1, 1}, 0, 0, a2, 3));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, dhist, sizeof(unsigned) * HISTO_BINS));

    rc = hd_wl_compare_u32(ctx, "hist", ref, got, HISTO_BINS);
    if (rc == HD_OK) {
        unsigned long long sum = 0;
        for (int b = 0; b < HISTO_BINS; b++)
            sum += got[b];
        if (sum != (unsigned long long)n)
            rc = hd_wl_fail(ctx, "histo1024: the bins hold %llu keys, expected %d", sum, n);
    }

out:
    if (gpu) {
        hd_free(gpu, dkeys);
        hd_free(gpu, dpartial);
        hd_free(gpu, dhist);
    }
    free(keys);
    free(ref);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_histo1024 = {
    .name = "histo1024",
    .description = "hybridsort's 1,024-bin float-key histogram: per-warp shared sub-histograms, merge",
    .klass = "memory",
    .idempotent = true,
    .run = histo_run,
    .paper_row = "Lin Table 2.2 histogram1024 (HG_1); Lin Table 3.2 HG (hybridsort)",
};

const struct hd_workload hd_workload_histo1024_lin22 = {
    .name = "histo1024_lin22",
    .description = "histo1024 with Lin's 12,324 B per CTA (36 B of sm_1x parameter space added)",
    .klass = "memory",
    .idempotent = true,
    .run = histo_run,
    .variant_of = "histo1024",
    .variant_flags = "-DPARAM_SMEM=36",
    .paper_row = "Lin Table 2.2 histogram1024 (HG_1): 3 warps/TB, 3 TBs/SM, 10 regs, 12,324 B",
};

const struct hd_workload hd_workload_histo1024_r10 = {
    .name = "histo1024_r10",
    .description = "histo1024 with histo1024_block capped at Lin's 10 registers per thread",
    .klass = "memory",
    .idempotent = true,
    .run = histo_run,
    .variant_of = "histo1024",
    .variant_flags = "-DMAXREG=10",
    .paper_row = "Lin Table 2.2 histogram1024 (HG_1): 10 regs; Lin Table 3.2 HG (GPUDuet)",
};
