/* SPDX-License-Identifier: MIT
 * bsearch.c - host driver for the many-key binary search (SDK-like).
 *
 * The sorted array holds n strictly increasing words with random gaps of 1 to 8; the m query
 * keys are, half and half, elements of the array and random values in its range (mostly
 * absent), in random order. Expected results come from a host lower-bound search and must
 * match exactly (position, or the complement of the insertion point).
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define BS_BLOCK 256

struct bs_dims {
    int n; /* sorted array length */
    int m; /* queries */
};

static const struct bs_dims bs_sizes[3] = {
    {65536, 16384},     /* small: 0.11M warp instructions */
    {1048576, 131072},  /* medium: 1.0M */
    {4194304, 2097152}, /* large: 18M */
};

#define BS_TRY(call)                                                                            \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static int32_t bs_expected(const uint32_t *a, int n, uint32_t key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < n && a[lo] == key) ? lo : ~lo;
}

static int bs_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const struct bs_dims d = bs_sizes[ctx->size];
    uint32_t *h_sorted = malloc((size_t)d.n * sizeof(uint32_t));
    uint32_t *h_keys = malloc((size_t)d.m * sizeof(uint32_t));
    uint32_t *h_out = malloc((size_t)d.m * sizeof(uint32_t));
    uint32_t *ref = malloc((size_t)d.m * sizeof(uint32_t));
    hd_devptr dsorted = 0, dkeys = 0, dout = 0;
    struct hd_module *mod = NULL;
    int st = HD_OK;

    if (!h_sorted || !h_keys || !h_out || !ref) {
        st = hd_wl_fail(ctx, "bsearch: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x42534541524348ULL);
    uint32_t v = hd_wl_rng_u32(&rng) % 16;
    for (int i = 0; i < d.n; i++) {
        h_sorted[i] = v;
        v += 1 + hd_wl_rng_u32(&rng) % 8;
    }
    int found = 0;
    for (int i = 0; i < d.m; i++) {
        if (hd_wl_rng_u32(&rng) & 1)
            h_keys[i] = h_sorted[hd_wl_rng_u32(&rng) % (uint32_t)d.n];
        else
            h_keys[i] = hd_wl_rng_u32(&rng) % (v + 16); /* may fall past the last element */
        int32_t e = bs_expected(h_sorted, d.n, h_keys[i]);
        ref[i] = (uint32_t)e;
        found += e >= 0;
    }

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    BS_TRY(hd_malloc(gpu, &dsorted, (size_t)d.n * sizeof(uint32_t)));
    BS_TRY(hd_malloc(gpu, &dkeys, (size_t)d.m * sizeof(uint32_t)));
    BS_TRY(hd_malloc(gpu, &dout, (size_t)d.m * sizeof(uint32_t)));
    BS_TRY(hd_memcpy_h2d(gpu, dsorted, h_sorted, (size_t)d.n * sizeof(uint32_t)));
    BS_TRY(hd_memcpy_h2d(gpu, dkeys, h_keys, (size_t)d.m * sizeof(uint32_t)));
    BS_TRY(hd_memset(gpu, dout, 0xa5, (size_t)d.m * sizeof(uint32_t)));
    int n = d.n, m = d.m;
    struct hd_arg args[] = {HD_ARG(dsorted), HD_ARG(n), HD_ARG(dkeys), HD_ARG(m), HD_ARG(dout)};
    struct hd_dim3 grid = {(uint32_t)((m + BS_BLOCK - 1) / BS_BLOCK), 1, 1};
    struct hd_dim3 block = {BS_BLOCK, 1, 1};
    BS_TRY(hd_launch(gpu, mod, "bsearch_keys", grid, block, 0, 0, args, 5));
    BS_TRY(hd_synchronize(gpu));
    BS_TRY(hd_memcpy_d2h(gpu, h_out, dout, (size_t)d.m * sizeof(uint32_t)));
    st = hd_wl_compare_u32(ctx, "search result", ref, h_out, (size_t)d.m);
    if (st == HD_OK)
        fprintf(ctx->log, "bsearch: %d keys (%d present) in %d sorted words verified\n", d.m,
                found, d.n);

out:
    hd_free(gpu, dsorted);
    hd_free(gpu, dkeys);
    hd_free(gpu, dout);
    free(h_sorted);
    free(h_keys);
    free(h_out);
    free(ref);
    return st;
}

const struct hd_workload hd_workload_bsearch = {
    .name = "bsearch",
    .description = "binary search of many keys in a sorted array, one thread per key",
    .klass = "latency-bound",
    .idempotent = true, /* reads the array and keys, writes only `out` */
    .run = bs_run,
};
