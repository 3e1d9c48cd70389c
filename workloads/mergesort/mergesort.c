/* SPDX-License-Identifier: MIT
 * mergesort.c - host driver for the stable key/value merge sort (SDK-like).
 *
 * Keys are random 32-bit numbers drawn from a range of n/4 values, so equal keys are common
 * and stability is tested; each value is the pair's input index. msort_block sorts tiles of
 * MSORT_TILE pairs, then msort_merge doubles the run width until one run covers n, ping-ponging
 * between two key/value buffer pairs. n is deliberately not a multiple of the tile. The
 * reference is qsort by (key, input index), which is the stable order.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define MSORT_THREADS 256 /* must match mergesort.cu */
#define MSORT_TILE (2 * MSORT_THREADS)
#define MSORT_MERGE_BLOCK 256

/* Warp instructions: small 0.43M, medium 3.7M, large 29M. */
static const unsigned msort_sizes[3] = {8000, 50000, 300000};

#define MSORT_TRY(call)                                                                         \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

struct msort_pair {
    uint32_t key, val;
};

static int msort_cmp(const void *a, const void *b)
{
    const struct msort_pair *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->val > y->val) - (x->val < y->val);
}

static int msort_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    /* Input-size variant (token wN; issue 33, EXPARS Table 3 MERG): WAVES=N sizes the small input
     * for N full waves of msort_block CTAs on fermi-gtx480 at Table 3's 2 CTAs per SM (15 x 2 x N
     * tiles of 2 x MSORT_THREADS keys); the merge passes follow as for every size; same kernels
     * and reference. */
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    const long thr_w = hd_wl_flag(hd_wl_variant_flags(ctx), "MSORT_THREADS", MSORT_THREADS);
    if (waves < 0 || waves > 64 || (waves > 0 && (thr_w < 32 || thr_w > 1024)))
        return hd_wl_fail(ctx, "mergesort: WAVES=%ld out of range 0..64 (MSORT_THREADS=%ld)",
                          waves, thr_w);
    const unsigned n = waves > 0 && ctx->size == HD_WL_SMALL
                           ? (unsigned)(15 * 2 * waves * 2 * thr_w)
                           : msort_sizes[ctx->size];
    uint32_t *h_keys = malloc(n * sizeof(uint32_t)), *h_vals = malloc(n * sizeof(uint32_t));
    uint32_t *ref_keys = malloc(n * sizeof(uint32_t)), *ref_vals = malloc(n * sizeof(uint32_t));
    struct msort_pair *pairs = malloc(n * sizeof(struct msort_pair));
    hd_devptr dk[2] = {0, 0}, dv[2] = {0, 0};
    struct hd_module *mod = NULL;
    int st = HD_OK, passes = 0;
    const long thr = hd_wl_flag(hd_wl_variant_flags(ctx), "MSORT_THREADS", MSORT_THREADS);
    if (thr < 32 || thr > 1024 || (thr & (thr - 1)) != 0) {
        st = hd_wl_fail(ctx, "mergesort: MSORT_THREADS=%ld: a power of two from 32 to 1024", thr);
        goto out;
    }
    const unsigned threads = (unsigned)thr, tile = 2 * threads;

    if (!h_keys || !h_vals || !ref_keys || !ref_vals || !pairs) {
        st = hd_wl_fail(ctx, "mergesort: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x4d534f52540001ULL);
    for (unsigned i = 0; i < n; i++) {
        h_keys[i] = hd_wl_rng_u32(&rng) % (n / 4);
        h_vals[i] = i;
        pairs[i].key = h_keys[i];
        pairs[i].val = i;
    }
    qsort(pairs, n, sizeof(*pairs), msort_cmp);
    for (unsigned i = 0; i < n; i++) {
        ref_keys[i] = pairs[i].key;
        ref_vals[i] = pairs[i].val;
    }

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    for (int b = 0; b < 2; b++) {
        MSORT_TRY(hd_malloc(gpu, &dk[b], n * sizeof(uint32_t)));
        MSORT_TRY(hd_malloc(gpu, &dv[b], n * sizeof(uint32_t)));
    }
    MSORT_TRY(hd_memcpy_h2d(gpu, dk[0], h_keys, n * sizeof(uint32_t)));
    MSORT_TRY(hd_memcpy_h2d(gpu, dv[0], h_vals, n * sizeof(uint32_t)));

    unsigned nn = n;
    int cur = 1; /* the block sort writes buffer 1 */
    {
        struct hd_arg args[] = {HD_ARG(dk[0]), HD_ARG(dv[0]), HD_ARG(dk[1]), HD_ARG(dv[1]),
                                HD_ARG(nn)};
        struct hd_dim3 grid = {(n + tile - 1) / tile, 1, 1};
        struct hd_dim3 block = {threads, 1, 1};
        MSORT_TRY(hd_launch(gpu, mod, "msort_block", grid, block, 0, 0, args, 5));
    }
    for (unsigned w = tile; w < n; w *= 2, passes++) {
        unsigned ww = w;
        struct hd_arg args[] = {HD_ARG(dk[cur]),     HD_ARG(dv[cur]), HD_ARG(dk[cur ^ 1]),
                                HD_ARG(dv[cur ^ 1]), HD_ARG(nn),      HD_ARG(ww)};
        struct hd_dim3 grid = {(n + MSORT_MERGE_BLOCK - 1) / MSORT_MERGE_BLOCK, 1, 1};
        struct hd_dim3 block = {MSORT_MERGE_BLOCK, 1, 1};
        MSORT_TRY(hd_launch(gpu, mod, "msort_merge", grid, block, 0, 0, args, 6));
        cur ^= 1;
    }
    MSORT_TRY(hd_synchronize(gpu));
    MSORT_TRY(hd_memcpy_d2h(gpu, h_keys, dk[cur], n * sizeof(uint32_t)));
    MSORT_TRY(hd_memcpy_d2h(gpu, h_vals, dv[cur], n * sizeof(uint32_t)));

    st = hd_wl_compare_u32(ctx, "keys", ref_keys, h_keys, n);
    if (st == HD_OK)
        st = hd_wl_compare_u32(ctx, "values (stability)", ref_vals, h_vals, n);
    if (st == HD_OK)
        fprintf(ctx->log, "mergesort: %u pairs, %u tiles, %d merge passes verified\n", n,
                (n + tile - 1) / tile, passes);

out:
    for (int b = 0; b < 2; b++) {
        hd_free(gpu, dk[b]);
        hd_free(gpu, dv[b]);
    }
    free(h_keys);
    free(h_vals);
    free(ref_keys);
    free(ref_vals);
    free(pairs);
    return st;
}

const struct hd_workload hd_workload_mergesort = {
    .name = "mergesort",
    .description = "stable key/value merge sort: shared-memory block sort, global merge passes",
    .klass = "barrier-heavy",
    .idempotent = true, /* every launch reads one buffer pair and writes the other */
    .run = msort_run,
};
const struct hd_workload hd_workload_mergesort_tb512_r24 = {
    .name = "mergesort_tb512_r24",
    .description = "mergesort variant: msort_block 512 threads, 8 KB shared, at most 24 registers",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = msort_run,
    .variant_of = "mergesort",
    .variant_flags = "-DMSORT_THREADS=512 -DMAXREG=24",
    .paper_row = "EXPARS Table 3 MERG: 16 warps/CTA, 8,192 B, 24 regs",
};
const struct hd_workload hd_workload_mergesort_tb512_r24_w5 = {
    .name = "mergesort_tb512_r24_w5",
    .description = "mergesort_tb512_r24 with a small input of 5 full waves of msort_block (150 CTAs of 2 per SM on 15 SMs)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = msort_run,
    .variant_of = "mergesort",
    .variant_flags = "-DMSORT_THREADS=512 -DMAXREG=24 -DWAVES=5",
    .paper_row = "EXPARS Table 3 MERG: 16 warps/CTA, 8,192 B, 24 regs, >= 3 waves at EXPARS's 3 CTAs/SM",
};
