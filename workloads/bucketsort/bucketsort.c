/* SPDX-License-Identifier: MIT
 * bucketsort.c - host driver of the bucketsort workload: sort n floats by distributing them into
 * BK_DIV buckets between pivots and sorting each bucket (Rodinia hybridsort's bucket sort; Lin
 * thesis Table 4.2 "SRT").
 *
 * Keys are uniform in [0, 1). The pivots are the BK_DIV-quantiles of the keys, taken from the
 * CPU's sorted copy (which is also the reference; Rodinia derives them from a histogram of all
 * keys; the kernels only need them ascending), so buckets hold n / BK_DIV keys give or take the
 * duplicates of a pivot value. The host runs
 * bucket_count and bucket_prefix, copies the bucket totals back, scans them into bucket starts
 * (as Rodinia's host does), picks the local sort's capacity (the power of two >= the largest
 * bucket, at least 16) and runs bucket_scatter and bucket_sort_local. The output must equal the
 * qsort-ed input exactly; the bucket totals are checked against a CPU count first.
 */
#include "bucketsort_host.h"
#include "workload.h"

#include <stdlib.h>

#define BK_DIV 1024 /* buckets; must match bucketsort.cu */
#define BK_TB 512   /* threads per CTA of bucket_count / bucket_scatter; must match bucketsort.cu */
#define BK_CAP 2048 /* largest bucket bucket_sort_local can sort; must match bucketsort.cu */
#define BK_PER_THREAD 16 /* elements per thread of bucket_count: sets its grid */
#define BK_PREFIX_TB 256

static int bk_keys_of(enum hd_wl_size size)
{
    /* About 15, 244 and 977 keys per bucket (local sorts of 16, 256 and 1024; bucket_count grids
     * of 2, 31 and 123 CTAs); no size is a multiple of a CTA's elements. 0.37 M, 4.7 M and 25 M
     * warp instructions (measured, --functional). */
    static const int s[3] = {15000, 250000, 1000000};
    return s[size];
}

static int bk_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = bk_keys_of(ctx->size);
    const int ctas = (n + BK_TB * BK_PER_THREAD - 1) / (BK_TB * BK_PER_THREAD);
    const size_t fbytes = sizeof(float) * (size_t)n, cbytes = sizeof(uint32_t) * ctas * BK_DIV;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_keys = 0, d_piv = 0, d_packed = 0, d_counts = 0, d_offsets = 0, d_totals = 0;
    hd_devptr d_start = 0, d_tmp = 0, d_out = 0;
    float *keys = malloc(fbytes), *ref = malloc(fbytes), *got = malloc(fbytes);
    float piv[BK_DIV - 1];
    uint32_t totals[BK_DIV], expect_totals[BK_DIV], start[BK_DIV];

    if (!keys || !ref || !got) {
        rc = hd_wl_fail(ctx, "bucketsort: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6275636bu);
    for (int k = 0; k < n; k++)
        keys[k] = ref[k] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    qsort(ref, (size_t)n, sizeof(float), bs_key_cmp);
    for (int k = 0; k < BK_DIV - 1; k++)
        piv[k] = ref[(size_t)(k + 1) * (size_t)n / BK_DIV];
    for (int b = 0; b < BK_DIV; b++)
        expect_totals[b] = 0;
    for (int k = 0; k < n; k++)
        expect_totals[bs_bucket(piv, BK_DIV, keys[k])]++;

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_keys, fbytes));
    HD_WL_TRY(hd_malloc(gpu, &d_piv, sizeof piv));
    HD_WL_TRY(hd_malloc(gpu, &d_packed, sizeof(uint32_t) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_counts, cbytes));
    HD_WL_TRY(hd_malloc(gpu, &d_offsets, cbytes));
    HD_WL_TRY(hd_malloc(gpu, &d_totals, sizeof totals));
    HD_WL_TRY(hd_malloc(gpu, &d_start, sizeof start));
    HD_WL_TRY(hd_malloc(gpu, &d_tmp, fbytes));
    HD_WL_TRY(hd_malloc(gpu, &d_out, fbytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_keys, keys, fbytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_piv, piv, sizeof piv));
    HD_WL_TRY(hd_memset(gpu, d_tmp, 0xff, fbytes)); /* NaN: a key nothing writes shows */
    HD_WL_TRY(hd_memset(gpu, d_out, 0xff, fbytes));

    struct hd_dim3 g1 = {(uint32_t)ctas, 1, 1}, b1 = {BK_TB, 1, 1};
    struct hd_arg a1[] = {HD_ARG(d_keys), HD_ARG(d_piv), HD_ARG(d_packed), HD_ARG(d_counts),
                          HD_ARG(n)};
    HD_WL_TRY(hd_launch(gpu, mod, "bucket_count", g1, b1, 0, 0, a1, 5));
    struct hd_dim3 g2 = {BK_DIV / BK_PREFIX_TB, 1, 1}, b2 = {BK_PREFIX_TB, 1, 1};
    struct hd_arg a2[] = {HD_ARG(d_counts), HD_ARG(d_offsets), HD_ARG(d_totals), HD_ARG(ctas)};
    HD_WL_TRY(hd_launch(gpu, mod, "bucket_prefix", g2, b2, 0, 0, a2, 4));
    HD_WL_TRY(hd_memcpy_d2h(gpu, totals, d_totals, sizeof totals));
    if ((rc = hd_wl_compare_u32(ctx, "totals", expect_totals, totals, BK_DIV)) != HD_OK)
        goto out;

    uint32_t run = 0, biggest = 0, cap = 16;
    for (int b = 0; b < BK_DIV; b++) {
        start[b] = run;
        run += totals[b];
        biggest = totals[b] > biggest ? totals[b] : biggest;
    }
    while (cap < biggest)
        cap <<= 1;
    if (cap > BK_CAP) {
        rc = hd_wl_fail(ctx, "bucketsort: a bucket holds %u keys, more than the %d the local sort "
                             "takes (pivots too uneven)", biggest, BK_CAP);
        goto out;
    }
    fprintf(ctx->log, "bucketsort: %d keys, %d buckets (largest %u, local sort of %u), %d CTAs "
            "of %d threads counting\n", n, BK_DIV, biggest, cap, ctas, BK_TB);
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_start, start, sizeof start));
    struct hd_arg a3[] = {HD_ARG(d_keys),  HD_ARG(d_packed), HD_ARG(d_offsets),
                          HD_ARG(d_start), HD_ARG(d_tmp),    HD_ARG(n)};
    HD_WL_TRY(hd_launch(gpu, mod, "bucket_scatter", g1, b1, 0, 0, a3, 6));
    struct hd_dim3 g4 = {BK_DIV, 1, 1}, b4 = {cap / 2, 1, 1};
    struct hd_arg a4[] = {HD_ARG(d_tmp), HD_ARG(d_start), HD_ARG(d_totals), HD_ARG(d_out),
                          HD_ARG(cap)};
    HD_WL_TRY(hd_launch(gpu, mod, "bucket_sort_local", g4, b4, 0, 0, a4, 5));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_out, fbytes));

    rc = hd_wl_compare_f32(ctx, "sorted", ref, got, (size_t)n, 0.0f, 0.0f);

out:
    hd_free(gpu, d_keys);
    hd_free(gpu, d_piv);
    hd_free(gpu, d_packed);
    hd_free(gpu, d_counts);
    hd_free(gpu, d_offsets);
    hd_free(gpu, d_totals);
    hd_free(gpu, d_start);
    hd_free(gpu, d_tmp);
    hd_free(gpu, d_out);
    free(keys);
    free(ref);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_bucketsort = {
    .name = "bucketsort",
    .description = "bucket sort of floats (Rodinia hybridsort): shared-atomic counts, scatter, bitonic per bucket",
    .klass = "memory",
    .idempotent = true,
    .run = bk_run,
};
