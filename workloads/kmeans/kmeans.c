/* SPDX-License-Identifier: MIT
 * kmeans.c - host driver of the kmeans workload: Lloyd's algorithm on synthetic clustered points.
 *
 * Points are drawn around K hidden centres; the initial centroids are the first K points. The
 * driver transposes the points once on the GPU (km_invert_mapping, checked exactly), then runs up
 * to KM_MAX_ITERS iterations: copy the centroids into the module's constant bank, launch
 * km_assign, copy the memberships back, check them, and recompute the centroids on the host as
 * the means of their members (an empty cluster keeps its centroid). It stops early when no
 * membership changes.
 *
 * Checking memberships: the CPU computes every point's distances in double. The GPU's choice must
 * be the CPU's nearest centroid, unless the two distances differ by less than 1e-5 relative: such
 * a near tie is legitimately decided by single-precision rounding (and fma contraction).
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>
#include <string.h>

#define KM_BLOCK 256
#define KM_MAX_ITERS 5
#define KM_MAX_CLUSTERS 16
#define KM_MAX_FEATURES 64

struct km_size {
    int npoints, nfeatures, nclusters;
};

static struct km_size km_size_of(enum hd_wl_size size)
{
    /* ~0.65 M, 11 M and 102 M warp instructions (large: the KDD-Cup-sized set of the papers);
     * small ends in a partial CTA. */
    static const struct km_size s[3] = {{4000, 16, 8}, {65536, 34, 5}, {494020, 34, 5}};
    return s[size];
}

static double km_dist(const float *pt, const float *centroid, int nf)
{
    double d = 0.0;
    for (int f = 0; f < nf; f++) {
        double x = (double)pt[f] - (double)centroid[f];
        d += x * x;
    }
    return d;
}

/* Check the GPU memberships of iteration `it` against the CPU's nearest centroids; counts the
 * accepted near ties into *ties. */
static int km_check(struct hd_wl_ctx *ctx, const struct km_size *sz, const float *points,
                    const float *centroids, const uint32_t *got, int it, int *ties)
{
    *ties = 0;
    for (int p = 0; p < sz->npoints; p++) {
        const float *pt = points + (size_t)p * sz->nfeatures;
        int best = 0;
        double best_d = km_dist(pt, centroids, sz->nfeatures);
        for (int k = 1; k < sz->nclusters; k++) {
            double d = km_dist(pt, centroids + (size_t)k * sz->nfeatures, sz->nfeatures);
            if (d < best_d) {
                best_d = d;
                best = k;
            }
        }
        if ((int)got[p] == best)
            continue;
        if (got[p] < (uint32_t)sz->nclusters) {
            double d = km_dist(pt, centroids + (size_t)got[p] * sz->nfeatures, sz->nfeatures);
            if (d - best_d <= 1e-5 * best_d) {
                ++*ties;
                continue;
            }
        }
        return hd_wl_fail(ctx, "kmeans: iteration %d: membership[%d] expected %d got %u", it, p,
                          best, got[p]);
    }
    return HD_OK;
}

/* Centroids as the means of their members; an empty cluster keeps its previous centroid. */
static void km_update(const struct km_size *sz, const float *points, const uint32_t *member,
                      float *centroids, double *sum, int *count)
{
    memset(sum, 0, sizeof(double) * (size_t)sz->nclusters * sz->nfeatures);
    memset(count, 0, sizeof(int) * (size_t)sz->nclusters);
    for (int p = 0; p < sz->npoints; p++) {
        int k = (int)member[p];
        count[k]++;
        for (int f = 0; f < sz->nfeatures; f++)
            sum[(size_t)k * sz->nfeatures + f] += (double)points[(size_t)p * sz->nfeatures + f];
    }
    for (int k = 0; k < sz->nclusters; k++)
        if (count[k] > 0)
            for (int f = 0; f < sz->nfeatures; f++)
                centroids[(size_t)k * sz->nfeatures + f] =
                    (float)(sum[(size_t)k * sz->nfeatures + f] / count[k]);
}

static int km_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct km_size sz = km_size_of(ctx->size);
    /* Input-size variant (token wN; issue 24, Shieh Table 4.2 victims): WAVES=N (1..64) gives the
     * small set N full waves of CTAs per launch on fermi-gtx480 at Table 4.2's 6 TBs per SM (15 x
     * 6 x N CTAs of KM_BLOCK, the last one partial), 4 features, 5 clusters (Rodinia's default
     * count) and at most 2 iterations, so that a run stays near 100,000 cycles. */
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    int max_iters = KM_MAX_ITERS;
    if (waves > 0 && waves <= 64 && ctx->size == HD_WL_SMALL) {
        sz.npoints = 15 * 6 * (int)waves * KM_BLOCK - KM_BLOCK / 4;
        sz.nfeatures = 4;
        sz.nclusters = 5;
        max_iters = 2;
    }
    /* CCBP input variant (ptx.flags token `ccbp`; issue 29, Lin Table 4.2 KM, NBI with a 17 % L2
     * miss rate; docs/blocks/ccbp.md "The experiment's inputs"): at medium, CCBP_POINTS points of
     * CCBP_FEATURES features, so that km_assign's transposed features stay in the 2 MB L2 of
     * configs/maxwell-ccbp.ini (NoC-bound, not DRAM-bound) while its grid still fills 16 SMs at
     * 8 CTAs each; Rodinia's 5 clusters and iterations. */
    const long cc_pts = hd_wl_flag(hd_wl_variant_flags(ctx), "CCBP_POINTS", 0);
    if (cc_pts > 0 && ctx->size == HD_WL_MEDIUM) {
        long nf = hd_wl_flag(hd_wl_variant_flags(ctx), "CCBP_FEATURES", sz.nfeatures);
        if (cc_pts > 1000000 || nf < 1 || nf > KM_MAX_FEATURES)
            return hd_wl_fail(ctx, "kmeans: CCBP_POINTS %ld / CCBP_FEATURES %ld out of range",
                              cc_pts, nf);
        sz.npoints = (int)cc_pts;
        sz.nfeatures = (int)nf;
    }
    /* CCBP_ITERS=N (0..KM_MAX_ITERS, at medium; issue 29, Lin Table 4.2 KM): at most N
     * km_assign iterations. 0 runs only km_invert_mapping, Lin's KM_1 (Table 2.2 names no other
     * kmeans kernel), checked exactly as always; docs/blocks/ccbp.md "The LS stand-ins again". */
    const long cc_iters = hd_wl_flag(hd_wl_variant_flags(ctx), "CCBP_ITERS", -1);
    if (cc_iters >= 0 && ctx->size == HD_WL_MEDIUM) {
        if (cc_iters > KM_MAX_ITERS)
            return hd_wl_fail(ctx, "kmeans: CCBP_ITERS %ld out of range (0..%d)", cc_iters,
                              KM_MAX_ITERS);
        max_iters = (int)cc_iters;
    }
    size_t nvals = (size_t)sz.npoints * sz.nfeatures, vbytes = sizeof(float) * nvals;
    size_t mbytes = sizeof(uint32_t) * (size_t)sz.npoints;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_points = 0, d_features = 0, d_member = 0, d_centroids = 0;
    size_t centroid_bytes = 0;
    float *points = malloc(vbytes), *features = malloc(vbytes);
    uint32_t *member = malloc(mbytes), *prev = malloc(mbytes);
    float centroids[KM_MAX_CLUSTERS * KM_MAX_FEATURES];
    double sum[KM_MAX_CLUSTERS * KM_MAX_FEATURES];
    int count[KM_MAX_CLUSTERS];

    if (!points || !features || !member || !prev) {
        rc = hd_wl_fail(ctx, "kmeans: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6b6d6e73u);
    {
        float centre[KM_MAX_CLUSTERS * KM_MAX_FEATURES];
        for (int k = 0; k < sz.nclusters * sz.nfeatures; k++)
            centre[k] = hd_wl_rng_float(&rng, 0.0f, 10.0f);
        for (int p = 0; p < sz.npoints; p++) {
            int k = (int)(hd_wl_rng_u32(&rng) % (uint32_t)sz.nclusters);
            for (int f = 0; f < sz.nfeatures; f++)
                points[(size_t)p * sz.nfeatures + f] =
                    centre[k * sz.nfeatures + f] + hd_wl_rng_float(&rng, -6.0f, 6.0f);
        }
    }
    memcpy(centroids, points, sizeof(float) * (size_t)sz.nclusters * sz.nfeatures);
    fprintf(ctx->log, "kmeans: %d points, %d features, %d clusters, up to %d iterations\n",
            sz.npoints, sz.nfeatures, sz.nclusters, max_iters);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const km_pinned[] = {"km_invert_mapping", "km_assign"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, km_pinned, 2)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_module_symbol(gpu, mod, "km_centroids", &d_centroids, &centroid_bytes));
    if (centroid_bytes < sizeof(float) * (size_t)sz.nclusters * sz.nfeatures) {
        rc = hd_wl_fail(ctx, "kmeans: km_centroids holds %zu bytes, need %zu", centroid_bytes,
                        sizeof(float) * (size_t)sz.nclusters * sz.nfeatures);
        goto out;
    }
    HD_WL_TRY(hd_malloc(gpu, &d_points, vbytes));
    HD_WL_TRY(hd_malloc(gpu, &d_features, vbytes));
    HD_WL_TRY(hd_malloc(gpu, &d_member, mbytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_points, points, vbytes));
    HD_WL_TRY(hd_memset(gpu, d_features, 0xff, vbytes)); /* NaN / -1: unwritten outputs show */
    HD_WL_TRY(hd_memset(gpu, d_member, 0xff, mbytes));

    struct hd_dim3 grid = {((uint32_t)sz.npoints + KM_BLOCK - 1) / KM_BLOCK, 1, 1};
    struct hd_dim3 block = {KM_BLOCK, 1, 1};
    {
        struct hd_arg args[] = {HD_ARG(d_points), HD_ARG(d_features), HD_ARG(sz.npoints),
                                HD_ARG(sz.nfeatures)};
        HD_WL_TRY(hd_launch(gpu, mod, "km_invert_mapping", grid, block, 0, 0, args, 4));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, features, d_features, vbytes));
    for (int p = 0; p < sz.npoints; p++) {
        for (int f = 0; f < sz.nfeatures; f++) {
            float e = points[(size_t)p * sz.nfeatures + f];
            float g = features[(size_t)f * sz.npoints + p];
            if (memcmp(&e, &g, sizeof e) != 0) {
                rc = hd_wl_fail(ctx, "kmeans: transposed feature[%d][%d] expected %g got %g", f,
                                p, (double)e, (double)g);
                goto out;
            }
        }
    }

    for (int it = 0; it < max_iters; it++) {
        HD_WL_TRY(hd_memcpy_h2d(gpu, d_centroids, centroids,
                             sizeof(float) * (size_t)sz.nclusters * sz.nfeatures));
        struct hd_arg args[] = {HD_ARG(d_features), HD_ARG(d_member), HD_ARG(sz.npoints),
                                HD_ARG(sz.nclusters), HD_ARG(sz.nfeatures)};
        HD_WL_TRY(hd_launch(gpu, mod, "km_assign", grid, block, 0, 0, args, 5));
        HD_WL_TRY(hd_synchronize(gpu));
        HD_WL_TRY(hd_memcpy_d2h(gpu, member, d_member, mbytes));
        int ties = 0;
        rc = km_check(ctx, &sz, points, centroids, member, it, &ties);
        if (rc != HD_OK)
            goto out;
        int changed = 0;
        for (int p = 0; p < sz.npoints; p++)
            changed += it == 0 || member[p] != prev[p];
        fprintf(ctx->log, "kmeans: iteration %d: %d memberships changed, %d near ties\n", it,
                changed, ties);
        if (changed == 0)
            break;
        km_update(&sz, points, member, centroids, sum, count);
        memcpy(prev, member, mbytes);
    }

out:
    hd_free(gpu, d_points);
    hd_free(gpu, d_features);
    hd_free(gpu, d_member);
    free(points);
    free(features);
    free(member);
    free(prev);
    return rc;
}

const struct hd_workload hd_workload_kmeans = {
    .name = "kmeans",
    .description = "k-means: nearest-centroid kernel (centroids in constant memory) + host update",
    .klass = "memory",
    .idempotent = true,
    .run = km_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_kmeans_r12 = {
    .name = "kmeans_r12",
    .description = "kmeans variant: km_invert_mapping and km_assign counted at 12 registers (Shieh Table 4.2)",
    .klass = "memory",
    .idempotent = true,
    .run = km_run,
    .variant_of = "kmeans",
    .variant_flags = "-DREGSPEC=12",
    .paper_row = "Shieh Table 4.2 kmeans invert_mapping, kmeansPoint: 3,072 regs/TB (12/thread), 3,072 B, 256 threads, 6 TBs/SM",
};
const struct hd_workload hd_workload_kmeans_r12_w4 = {
    .name = "kmeans_r12_w4",
    .description = "kmeans_r12 with a small set of 4 full waves per launch (360 CTAs of 6 per SM on 15 SMs)",
    .klass = "memory",
    .idempotent = true,
    .run = km_run,
    .variant_of = "kmeans",
    .variant_flags = "-DREGSPEC=12 -DWAVES=4",
    .paper_row = "Shieh Table 4.2 kmeans invert_mapping, kmeansPoint: 3,072 regs/TB (12/thread), 3,072 B, 256 threads, 6 TBs/SM, >= 3 waves",
};
const struct hd_workload hd_workload_kmeans_ccbp = {
    .name = "kmeans_ccbp",
    .description = "kmeans's km_invert_mapping alone (Lin's KM_1) on 32,768 points x 34 features (one wave of 128 CTAs), the transposition checked",
    .klass = "memory",
    .idempotent = true,
    .run = km_run,
    .variant_of = "kmeans",
    .variant_flags = "-DCCBP_POINTS=32768 -DCCBP_ITERS=0",
    .paper_row = "Lin Table 4.2 KM (NBI: throughput 2 %, NoC 52 %, DRAM 22 %, L2 miss 17 %) = Table 2.2 KM_1 invert_mapping",
};
/* }==== */
