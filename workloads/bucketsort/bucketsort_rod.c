/* SPDX-License-Identifier: MIT
 * bucketsort_rod.c - host driver of the variant bucketsort_rod_ccbp: Rodinia hybridsort's
 * `bucketsort` kernel (the bucket scatter) alone, in Rodinia's form (srt_bucketsort_rod,
 * bucketsort.cu), as Lin thesis Table 4.2's SRT (issue 29; docs/blocks/ccbp.md "Session 25: SRT
 * in Rodinia's form").
 *
 * Rodinia runs histogram1024, bucketcount and bucketprefixoffset on the GPU before this kernel;
 * here the host computes what they would leave in memory, so that the run is the scatter alone
 * (as backprop_rod_ccbp is layerforward alone and kmeans_ccbp invert_mapping alone):
 *   - keys uniform in [0, 1) (Rodinia's `r` input: rand() / RAND_MAX);
 *   - 1,023 ascending pivots, the 1,024-quantiles of the keys (Rodinia interpolates them from a
 *     1,024-bin histogram, which for uniform keys gives buckets of the same n / 1,024 keys);
 *   - per element its bucket and its slot among the elements of the same bucket that its CTA
 *     owns (bucketcount's per-warp counters; Rodinia's slot order inside one warp step depends
 *     on a shared-memory race, ours is element order, one of the orders that race can give),
 *     packed as slot << 10 | bucket;
 *   - prefix[cta][b]: bucket b's elements in earlier CTAs (bucketprefixoffset's in-place scan);
 *   - starts[b]: the exclusive scan of the bucket sizes rounded up to whole float4s (Rodinia's
 *     host, for its float4 merge sort), the output zeroed over n + 4 x 1,024 floats.
 * The grid is Rodinia's: ceil(n / (32 x 128)) CTAs of 32 threads. Verified: the whole output
 * (keys and the zero padding) against the CPU's scatter of the same indices, exactly; then each
 * bucket's part against the keys of that bucket by value (a check of the indices themselves).
 */
#include "bucketsort_host.h"
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define SRT_DIV 1024   /* divisions (buckets); must match bucketsort.cu */
#define SRT_TB 32      /* threads per CTA (BUCKET_THREAD_N: one warp) */
#define SRT_BAND 128   /* elements per thread (BUCKET_BAND) */

static int srt_keys_of(enum hd_wl_size size)
{
    /* small: 2^16 keys, 16 CTAs, for CI. medium: 3 x 2^18 keys, 192 CTAs, 12 per SM on the 16
     * SMs of configs/maxwell-ccbp.ini (half of the 24 that 4 KB of shared memory per CTA allows:
     * less than one wave), 448,035 cycles alone, so that the CCBP experiment's 1 M-cycle budget
     * holds two instances; 2 waves (3 x 2^20 keys) take 3.8 M cycles. large: Rodinia's `r`
     * input, 2^22 keys, 1,024 CTAs (2.7 waves); Lin's ch.3 HG ran the same 4 million elements.
     * docs/blocks/ccbp.md "Session 25: SRT in Rodinia's form" gives the trade-off. */
    static const int s[3] = {1 << 16, 3 << 18, 1 << 22};
    return s[size];
}

/* Both variants' input: n keys uniform in [0, 1) (the same seed), sorted[] the CPU's sort of
 * them, and SRT_DIV - 1 ascending pivots, the keys' SRT_DIV-quantiles. */
static void srt_keys(float *keys, float *sorted, int n, float *piv)
{
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73727472u);
    for (int k = 0; k < n; k++)
        keys[k] = sorted[k] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    qsort(sorted, (size_t)n, sizeof(float), bs_key_cmp);
    for (int k = 0; k < SRT_DIV - 1; k++)
        piv[k] = sorted[(size_t)(k + 1) * (size_t)n / SRT_DIV];
}

static int srt_count_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);

static int srt_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    if (hd_wl_flag(hd_wl_variant_flags(ctx), "SRT_COUNT", 0))
        return srt_count_run(gpu, ctx);
    const int n = srt_keys_of(ctx->size);
    const int ctas = (n - 1) / (SRT_TB * SRT_BAND) + 1, threads = ctas * SRT_TB;
    const size_t nout = (size_t)n + 4 * SRT_DIV, npre = (size_t)ctas * SRT_DIV;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_keys = 0, d_packed = 0, d_out = 0, d_prefix = 0, d_starts = 0;
    float *keys = malloc(sizeof(float) * (size_t)n), *sorted = malloc(sizeof(float) * (size_t)n);
    float *ref = calloc(nout, sizeof(float)), *got = malloc(sizeof(float) * nout);
    int32_t *packed = malloc(sizeof(int32_t) * (size_t)n);
    uint32_t *prefix = calloc(npre, sizeof(uint32_t)), *bucket_of = malloc(sizeof(uint32_t) * (size_t)n);
    uint32_t totals[SRT_DIV], starts[SRT_DIV + 1];
    float piv[SRT_DIV - 1];

    if (!keys || !sorted || !ref || !got || !packed || !prefix || !bucket_of) {
        rc = hd_wl_fail(ctx, "bucketsort_rod: out of host memory");
        goto out;
    }
    srt_keys(keys, sorted, n, piv);

    /* bucketcount's result: per CTA the count of each bucket (first as counts in prefix[]),
     * each element's slot in element order. Element e is CTA (e mod threads) / SRT_TB's. */
    for (int e = 0; e < n; e++) {
        const int b = bs_bucket(piv, SRT_DIV, keys[e]), c = (e % threads) / SRT_TB;
        const uint32_t slot = prefix[(size_t)c * SRT_DIV + b]++;
        bucket_of[e] = (uint32_t)b;
        packed[e] = (int32_t)((slot << 10) | (uint32_t)b);
    }
    /* bucketprefixoffset: per bucket an exclusive scan over the CTAs; the totals. */
    for (int b = 0; b < SRT_DIV; b++) {
        uint32_t run = 0;
        for (int c = 0; c < ctas; c++) {
            uint32_t x = prefix[(size_t)c * SRT_DIV + b];
            prefix[(size_t)c * SRT_DIV + b] = run;
            run += x;
        }
        totals[b] = run;
    }
    /* The host's float4-aligned starts. */
    starts[0] = 0;
    uint32_t biggest = 0;
    for (int b = 0; b < SRT_DIV; b++) {
        starts[b + 1] = starts[b] + ((totals[b] + 3u) & ~3u);
        biggest = totals[b] > biggest ? totals[b] : biggest;
    }
    /* The reference: the same scatter on the CPU. */
    for (int e = 0; e < n; e++) {
        const uint32_t b = bucket_of[e], slot = (uint32_t)packed[e] >> 10;
        const int c = (e % threads) / SRT_TB;
        ref[starts[b] + prefix[(size_t)c * SRT_DIV + b] + slot] = keys[e];
    }
    fprintf(ctx->log, "bucketsort_rod: %d keys, %d buckets (largest %u, %u floats with the "
            "float4 padding), %d CTAs of %d threads, %d elements each\n", n, SRT_DIV, biggest,
            starts[SRT_DIV], ctas, SRT_TB, SRT_BAND);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_keys, sizeof(float) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_packed, sizeof(int32_t) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_out, sizeof(float) * nout));
    HD_WL_TRY(hd_malloc(gpu, &d_prefix, sizeof(uint32_t) * npre));
    HD_WL_TRY(hd_malloc(gpu, &d_starts, sizeof(uint32_t) * SRT_DIV));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_keys, keys, sizeof(float) * (size_t)n));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_packed, packed, sizeof(int32_t) * (size_t)n));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_prefix, prefix, sizeof(uint32_t) * npre));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_starts, starts, sizeof(uint32_t) * SRT_DIV));
    HD_WL_TRY(hd_memset(gpu, d_out, 0, sizeof(float) * nout)); /* Rodinia's cudaMemset */
    {
        struct hd_dim3 grid = {(uint32_t)ctas, 1, 1}, block = {SRT_TB, 1, 1};
        struct hd_arg args[] = {HD_ARG(d_keys), HD_ARG(d_packed), HD_ARG(d_out), HD_ARG(n),
                                HD_ARG(d_prefix), HD_ARG(d_starts)};
        HD_WL_TRY(hd_launch(gpu, mod, "srt_bucketsort_rod", grid, block, 0, 0, args, 6));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_out, sizeof(float) * nout));
    if ((rc = hd_wl_compare_f32(ctx, "scattered key", ref, got, nout, 0.0f, 0.0f)) != HD_OK)
        goto out;
    /* Each bucket's part, sorted, is the next run of the sorted keys: the indices put every key
     * in its own bucket (bucket parts are disjoint and in pivot order, so this checks them). */
    for (int b = 0, k = 0; b < SRT_DIV; b++) {
        float *part = got + starts[b];
        qsort(part, totals[b], sizeof(float), bs_key_cmp);
        for (uint32_t i = 0; i < totals[b]; i++, k++)
            if (part[i] != sorted[k]) {
                rc = hd_wl_fail(ctx, "bucketsort_rod: bucket %d holds %g where the sorted keys "
                                     "have %g (key %d)", b, (double)part[i], (double)sorted[k], k);
                goto out;
            }
    }

out:
    hd_free(gpu, d_keys);
    hd_free(gpu, d_packed);
    hd_free(gpu, d_out);
    hd_free(gpu, d_prefix);
    hd_free(gpu, d_starts);
    free(keys);
    free(sorted);
    free(ref);
    free(got);
    free(packed);
    free(prefix);
    free(bucket_of);
    return rc;
}

/* Rodinia's pivot search in srt_bucketcount_rod: from index 511, 9 halving steps, a last compare
 * (0 .. SRT_DIV - 1 over SRT_DIV pivots). */
static int srt_search(const float *piv, float key)
{
    int at = SRT_DIV / 2 - 1;
    float p = piv[at];
    for (int step = SRT_DIV / 4; step >= 1; step >>= 1) {
        at = key < p ? at - step : at + step;
        p = piv[at];
    }
    return key < p ? at : at + 1;
}

/* Variant bucketcount_rod_ccbp (SRT_COUNT): Rodinia's bucketcount alone on the same keys and
 * grid. Pivots: SRT_DIV ascending values, the keys' 1,024-quantiles and 2.0 last. Checked: every
 * CTA's count of every bucket against the CPU's, every key's bucket against the CPU's search, and
 * the slots of each CTA's bucket a permutation of 0 .. count - 1 (the order is the warp's). */
static int srt_count_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = srt_keys_of(ctx->size);
    const int ctas = (n - 1) / (SRT_TB * SRT_BAND) + 1, threads = ctas * SRT_TB;
    const size_t npre = (size_t)ctas * SRT_DIV;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_keys = 0, d_packed = 0, d_counts = 0, d_piv = 0;
    float *keys = malloc(sizeof(float) * (size_t)n), *sorted = malloc(sizeof(float) * (size_t)n);
    int32_t *packed = malloc(sizeof(int32_t) * (size_t)n);
    uint32_t *ref = calloc(npre, sizeof(uint32_t)), *got = malloc(sizeof(uint32_t) * npre);
    uint32_t *base = malloc(sizeof(uint32_t) * npre);
    unsigned char *seen = calloc((size_t)n, 1);
    float piv[SRT_DIV];

    if (!keys || !sorted || !packed || !ref || !got || !base || !seen) {
        rc = hd_wl_fail(ctx, "bucketcount_rod: out of host memory");
        goto out;
    }
    srt_keys(keys, sorted, n, piv);
    piv[SRT_DIV - 1] = 2.0f;
    for (int e = 0; e < n; e++)
        ref[(size_t)((e % threads) / SRT_TB) * SRT_DIV + (size_t)srt_search(piv, keys[e])]++;
    uint32_t run = 0;
    for (size_t i = 0; i < npre; i++) {
        base[i] = run;
        run += ref[i];
    }
    fprintf(ctx->log, "bucketcount_rod: %d keys, %d pivots, %d CTAs of %d threads, %d elements "
            "each\n", n, SRT_DIV, ctas, SRT_TB, SRT_BAND);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_keys, sizeof(float) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_packed, sizeof(int32_t) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_counts, sizeof(uint32_t) * npre));
    HD_WL_TRY(hd_malloc(gpu, &d_piv, sizeof piv));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_keys, keys, sizeof(float) * (size_t)n));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_piv, piv, sizeof piv));
    HD_WL_TRY(hd_memset(gpu, d_packed, 0xff, sizeof(int32_t) * (size_t)n));
    HD_WL_TRY(hd_memset(gpu, d_counts, 0xff, sizeof(uint32_t) * npre));
    {
        struct hd_dim3 grid = {(uint32_t)ctas, 1, 1}, block = {SRT_TB, 1, 1};
        struct hd_arg args[] = {HD_ARG(d_keys), HD_ARG(d_packed), HD_ARG(d_counts), HD_ARG(n),
                                HD_ARG(d_piv)};
        HD_WL_TRY(hd_launch(gpu, mod, "srt_bucketcount_rod", grid, block, 0, 0, args, 5));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_counts, sizeof(uint32_t) * npre));
    HD_WL_TRY(hd_memcpy_d2h(gpu, packed, d_packed, sizeof(int32_t) * (size_t)n));
    if ((rc = hd_wl_compare_u32(ctx, "CTA bucket count", ref, got, npre)) != HD_OK)
        goto out;
    for (int e = 0; e < n; e++) {
        const uint32_t p = (uint32_t)packed[e], b = p & (SRT_DIV - 1), slot = p >> 10;
        const size_t cb = (size_t)((e % threads) / SRT_TB) * SRT_DIV + b;
        if ((int)b != srt_search(piv, keys[e]) || slot >= ref[cb] || seen[base[cb] + slot]++) {
            rc = hd_wl_fail(ctx, "bucketcount_rod: key %d (%g) has index 0x%08x: bucket %u, slot %u "
                                 "(its bucket %d, count %u)", e, (double)keys[e], p, b, slot,
                            srt_search(piv, keys[e]), ref[cb]);
            goto out;
        }
    }

out:
    hd_free(gpu, d_keys);
    hd_free(gpu, d_packed);
    hd_free(gpu, d_counts);
    hd_free(gpu, d_piv);
    free(keys);
    free(sorted);
    free(packed);
    free(ref);
    free(got);
    free(base);
    free(seen);
    return rc;
}

const struct hd_workload hd_workload_bucketcount_rod_ccbp = {
    .name = "bucketcount_rod_ccbp",
    .description = "Rodinia hybridsort's bucketcount alone in Rodinia's form (32-thread CTAs, "
                   "pivot binary search, shared retry-loop counters), the other SRT candidate",
    .klass = "memory",
    .idempotent = true,
    .run = srt_run,
    .variant_of = "bucketsort",
    .variant_flags = "-DSRT_RODINIA=1 -DSRT_COUNT=1",
    .paper_row = "Lin Table 4.2 SRT (DBI: throughput 25 %, NoC 37 %, DRAM 59 %, L2 miss 69 %) = "
                 "Rodinia hybridsort's bucketcount kernel (the other candidate)",
};
const struct hd_workload hd_workload_bucketsort_rod_ccbp = {
    .name = "bucketsort_rod_ccbp",
    .description = "Rodinia hybridsort's bucketsort scatter alone in Rodinia's form (32-thread CTAs, "
                   "4 KB shared pointers, 128 keys per thread), Lin's SRT",
    .klass = "memory",
    .idempotent = true,
    .run = srt_run,
    .variant_of = "bucketsort",
    .variant_flags = "-DSRT_RODINIA=1",
    .paper_row = "Lin Table 4.2 SRT (DBI: throughput 25 %, NoC 37 %, DRAM 59 %, L2 miss 69 %) = "
                 "Rodinia hybridsort's bucketsort kernel",
};
