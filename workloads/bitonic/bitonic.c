/* SPDX-License-Identifier: MIT
 * bitonic.c - host driver of the bitonic workload: sort n = 2^m key/value pairs ascending by key
 * with a bitonic network (CUDA SDK sortingNetworks; Gong thesis "BS"/"BI").
 *
 * Keys are distinct (a bijective mix of the index, so the sorted order and thus the value
 * permutation are unique), values are the original indices. The host launches
 * bitonic_sort_shared (src -> dst, every stage up to BS_CHUNK), then for each stage k = 2 BS_CHUNK
 * .. n the strides j >= BS_CHUNK as one bitonic_merge_global each and the strides below as one
 * bitonic_merge_shared. The CPU reference sorts the pairs with qsort; keys and values are compared
 * exactly (the first wrong position is named).
 */
#include "workload.h"

#include <stdlib.h>

#define BS_CHUNK 1024   /* elements per CTA of the shared-memory kernels; must match bitonic.cu */
#define BS_MERGE_TB 256 /* threads per CTA of bitonic_merge_global (the SDK's) */

struct bs_pair {
    uint32_t key, val;
};

static unsigned bs_log2_of(enum hd_wl_size size)
{
    /* 2^13 (Gong's range is 256 to 16k), 2^17 and 2^19 elements: 0.21 M, 6.7 M and 35 M warp
     * instructions (measured, --functional). */
    static const unsigned s[3] = {13, 17, 19};
    return s[size];
}

/* A bijection of 32-bit integers (odd multiplies and xor-shifts), so keys are distinct. */
static uint32_t bs_key(uint32_t i, uint32_t seed)
{
    uint32_t x = (i ^ seed) * 0x9e3779b1u;
    x ^= x >> 15;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    return x;
}

static int bs_cmp(const void *a, const void *b)
{
    uint32_t x = ((const struct bs_pair *)a)->key, y = ((const struct bs_pair *)b)->key;
    return x < y ? -1 : x > y;
}

static int bs_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const unsigned m = bs_log2_of(ctx->size);
    const uint32_t n = 1u << m;
    const size_t bytes = sizeof(uint32_t) * n;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_sk = 0, d_sv = 0, d_k = 0, d_v = 0;
    uint32_t *keys = malloc(bytes), *vals = malloc(bytes), *ek = malloc(bytes);
    uint32_t *ev = malloc(bytes), *got = malloc(bytes);
    struct bs_pair *ref = malloc(sizeof(struct bs_pair) * n);

    if (!keys || !vals || !ek || !ev || !got || !ref) {
        rc = hd_wl_fail(ctx, "bitonic: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6269746fu);
    const uint32_t seed = hd_wl_rng_u32(&rng);
    for (uint32_t i = 0; i < n; i++) {
        keys[i] = bs_key(i, seed);
        vals[i] = i;
        ref[i].key = keys[i];
        ref[i].val = i;
    }
    fprintf(ctx->log, "bitonic: %u key/value pairs, chunks of %d in shared memory\n", n,
            BS_CHUNK);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_sk, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_sv, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_k, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_v, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_sk, keys, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_sv, vals, bytes));
    HD_WL_TRY(hd_memset(gpu, d_k, 0xff, bytes)); /* an element nothing writes shows */
    HD_WL_TRY(hd_memset(gpu, d_v, 0xff, bytes));

    struct hd_dim3 chunk_grid = {n / BS_CHUNK, 1, 1}, chunk_block = {BS_CHUNK / 2, 1, 1};
    struct hd_arg a0[] = {HD_ARG(d_sk), HD_ARG(d_sv), HD_ARG(d_k), HD_ARG(d_v)};
    HD_WL_TRY(hd_launch(gpu, mod, "bitonic_sort_shared", chunk_grid, chunk_block, 0, 0, a0, 4));
    for (uint32_t k = 2 * BS_CHUNK; k <= n; k <<= 1) {
        for (uint32_t j = k / 2; j >= BS_CHUNK; j >>= 1) {
            struct hd_dim3 g = {(n / 2 + BS_MERGE_TB - 1) / BS_MERGE_TB, 1, 1};
            struct hd_dim3 b = {BS_MERGE_TB, 1, 1};
            struct hd_arg a1[] = {HD_ARG(d_k), HD_ARG(d_v), HD_ARG(n), HD_ARG(k), HD_ARG(j)};
            HD_WL_TRY(hd_launch(gpu, mod, "bitonic_merge_global", g, b, 0, 0, a1, 5));
        }
        struct hd_arg a2[] = {HD_ARG(d_k), HD_ARG(d_v), HD_ARG(k)};
        HD_WL_TRY(hd_launch(gpu, mod, "bitonic_merge_shared", chunk_grid, chunk_block, 0, 0, a2,
                            3));
    }
    HD_WL_TRY(hd_synchronize(gpu));

    qsort(ref, n, sizeof ref[0], bs_cmp);
    for (uint32_t i = 0; i < n; i++) {
        ek[i] = ref[i].key;
        ev[i] = ref[i].val;
    }
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_k, bytes));
    if ((rc = hd_wl_compare_u32(ctx, "keys", ek, got, n)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_v, bytes));
    rc = hd_wl_compare_u32(ctx, "values", ev, got, n);

out:
    hd_free(gpu, d_sk);
    hd_free(gpu, d_sv);
    hd_free(gpu, d_k);
    hd_free(gpu, d_v);
    free(keys);
    free(vals);
    free(ek);
    free(ev);
    free(got);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_bitonic = {
    .name = "bitonic",
    .description = "bitonic sort of key/value pairs (CUDA SDK), 1024-element chunks in shared memory",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bs_run,
    .locality_hint = 3, /* Gong Table 6.2 BS: type 3 */
};
