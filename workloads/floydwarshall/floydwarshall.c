/* SPDX-License-Identifier: MIT
 * floydwarshall.c - host driver for Floyd-Warshall all-pairs shortest paths.
 *
 * A random directed graph of n vertices: each ordered pair has an edge with probability 1/8
 * and weight 1..100, plus a ring i -> i+1 of weight 100 so that every pair is connected (paths
 * through the ring are long, so shortcuts matter). The host launches fw_relax n times, k = 0
 * .. n-1, in order on one stream, and compares the matrix exactly with a host Floyd-Warshall.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define FW_INF 0x3fffffff /* must match floydwarshall.cu */
#define FW_BX 32
#define FW_BY 8

/* Warp instructions: small 0.30M, medium 4.7M, large 37M. */
static const int fw_sizes[3] = {64, 160, 320};

#define FW_TRY(call)                                                                            \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static int fw_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = fw_sizes[ctx->size];
    const size_t nn = (size_t)n * (size_t)n;
    int32_t *h_dist = malloc(nn * sizeof(int32_t)), *ref = malloc(nn * sizeof(int32_t));
    hd_devptr ddist = 0;
    struct hd_module *mod = NULL;
    int st = HD_OK;

    if (!h_dist || !ref) {
        st = hd_wl_fail(ctx, "floydwarshall: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x4657415253480001ULL);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int32_t w = FW_INF;
            if (i == j)
                w = 0;
            else if (hd_wl_rng_u32(&rng) % 8 == 0)
                w = 1 + (int32_t)(hd_wl_rng_u32(&rng) % 100);
            if (j == (i + 1) % n && i != j && w > 100)
                w = 100;
            h_dist[(size_t)i * (size_t)n + (size_t)j] = w;
        }
    memcpy(ref, h_dist, nn * sizeof(int32_t));
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int32_t t = ref[(size_t)i * (size_t)n + (size_t)k] +
                            ref[(size_t)k * (size_t)n + (size_t)j];
                if (t < ref[(size_t)i * (size_t)n + (size_t)j])
                    ref[(size_t)i * (size_t)n + (size_t)j] = t;
            }

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    FW_TRY(hd_malloc(gpu, &ddist, nn * sizeof(int32_t)));
    FW_TRY(hd_memcpy_h2d(gpu, ddist, h_dist, nn * sizeof(int32_t)));
    struct hd_dim3 grid = {(uint32_t)((n + FW_BX - 1) / FW_BX), (uint32_t)((n + FW_BY - 1) / FW_BY),
                           1};
    struct hd_dim3 block = {FW_BX, FW_BY, 1};
    int nv = n;
    for (int k = 0; k < n; k++) {
        int kk = k;
        struct hd_arg args[] = {HD_ARG(ddist), HD_ARG(nv), HD_ARG(kk)};
        FW_TRY(hd_launch(gpu, mod, "fw_relax", grid, block, 0, 0, args, 3));
    }
    FW_TRY(hd_synchronize(gpu));
    FW_TRY(hd_memcpy_d2h(gpu, h_dist, ddist, nn * sizeof(int32_t)));
    st = hd_wl_compare_u32(ctx, "dist", (const uint32_t *)ref, (const uint32_t *)h_dist, nn);
    if (st == HD_OK)
        fprintf(ctx->log, "floydwarshall: %d vertices, %d launches verified\n", n, n);

out:
    hd_free(gpu, ddist);
    free(h_dist);
    free(ref);
    return st;
}

const struct hd_workload hd_workload_floydwarshall = {
    .name = "floydwarshall",
    .description = "Floyd-Warshall all-pairs shortest paths, one launch per vertex k",
    .klass = "memory",
    /* In place, but launch k only lowers dist[i][j] to min(dist[i][j], dist[i][k] +
     * dist[k][j]), and row/column k are fixed during launch k: re-running a CTA recomputes
     * the same minima from the same operands, so the final memory is the same. */
    .idempotent = true,
    .run = fw_run,
};
