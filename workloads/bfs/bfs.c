/* SPDX-License-Identifier: MIT
 * bfs.c - host driver for bfs: level-synchronous breadth-first search on a generated graph.
 *
 * The graph is directed, in CSR form, generated from a fixed seed. Out-degrees are irregular:
 * most vertices have 1-10 edges, about 2% are hubs with 32-127 edges. Seven in eight edges go to
 * a nearby vertex (an offset in [-16, 48) modulo n), the rest anywhere, so the search runs for a
 * dozen or more levels and its frontier grows, peaks and shrinks, like road/social graph mixes.
 * The host launches bfs_level once per level, reads the `changed` flag back after each one
 * (a blocking copy, as a CUDA host loop does) and stops when it stays 0. The reference is a
 * queue-based BFS on the host; levels are integers and compared exactly.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define BFS_BLOCK 256

static int bfs_vertices(enum hd_wl_size size)
{
    switch (size) {
    /* Warp instructions measured on the functional model (262144 vertices: 10.3M, 15 levels;
     * 2M vertices: 84M, 16 levels). */
    case HD_WL_SMALL: return 16384;     /* 0.59M, 112K edges, 11 levels */
    case HD_WL_MEDIUM: return 131072;   /* 5.1M, 0.9M edges, 14 levels */
    case HD_WL_LARGE: return 1048576;   /* 41M, 7.3M edges, 15 levels */
    }
    return 0;
}

struct bfs_graph {
    int n;
    int *row_ptr; /* n + 1 */
    int *cols;    /* row_ptr[n] */
};

static int bfs_generate(struct bfs_graph *g, int n, uint64_t seed)
{
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, seed);
    g->n = n;
    g->row_ptr = malloc(((size_t)n + 1) * sizeof(int));
    g->cols = NULL;
    if (!g->row_ptr)
        return -1;
    /* Degrees first, then the targets (two passes over one random stream). */
    g->row_ptr[0] = 0;
    for (int v = 0; v < n; v++) {
        uint32_t r = hd_wl_rng_u32(&rng) % 100u;
        int deg = r < 2 ? 32 + (int)(hd_wl_rng_u32(&rng) % 96u) : 1 + (int)(hd_wl_rng_u32(&rng) % 10u);
        g->row_ptr[v + 1] = g->row_ptr[v] + deg;
    }
    g->cols = malloc((size_t)g->row_ptr[n] * sizeof(int));
    if (!g->cols)
        return -1;
    for (int v = 0; v < n; v++) {
        for (int e = g->row_ptr[v]; e < g->row_ptr[v + 1]; e++) {
            uint32_t r = hd_wl_rng_u32(&rng);
            int u;
            if ((r & 7u) == 0)
                u = (int)(hd_wl_rng_u32(&rng) % (uint32_t)n);
            else
                u = (int)(((int64_t)v + (int64_t)((r >> 3) % 64u) - 16 + n) % n);
            g->cols[e] = u;
        }
    }
    return 0;
}

/* Host BFS from `src`; level[v] = -1 for unreachable vertices. Returns the number of levels. */
static int bfs_reference(const struct bfs_graph *g, int src, int *level, int *queue)
{
    for (int v = 0; v < g->n; v++)
        level[v] = -1;
    int head = 0, tail = 0, depth = 0;
    level[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        if (level[v] + 1 > depth)
            depth = level[v] + 1;
        for (int e = g->row_ptr[v]; e < g->row_ptr[v + 1]; e++) {
            int u = g->cols[e];
            if (level[u] == -1) {
                level[u] = level[v] + 1;
                queue[tail++] = u;
            }
        }
    }
    return depth;
}

static int bfs_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = bfs_vertices(ctx->size);
    struct bfs_graph g = {0, NULL, NULL};
    int *level = malloc((size_t)n * sizeof(int)), *ref = malloc((size_t)n * sizeof(int));
    int *queue = malloc((size_t)n * sizeof(int));
    hd_devptr drow = 0, dcols = 0, dlevel = 0, dchanged = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!level || !ref || !queue || bfs_generate(&g, n, 0x626673000001ULL) != 0) {
        rc = hd_wl_fail(ctx, "bfs: out of host memory");
        goto out;
    }
    const int src = 0;
    int depth = bfs_reference(&g, src, ref, queue);
    const size_t edges = (size_t)g.row_ptr[n];
    fprintf(ctx->log, "bfs: %d vertices, %zu edges, source %d, %d levels\n", n, edges, src, depth);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &drow, ((size_t)n + 1) * sizeof(int)));
    HD_WL_TRY(hd_malloc(gpu, &dcols, edges * sizeof(int)));
    HD_WL_TRY(hd_malloc(gpu, &dlevel, (size_t)n * sizeof(int)));
    HD_WL_TRY(hd_malloc(gpu, &dchanged, sizeof(int)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, drow, g.row_ptr, ((size_t)n + 1) * sizeof(int)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dcols, g.cols, edges * sizeof(int)));
    for (int v = 0; v < n; v++)
        level[v] = v == src ? 0 : -1;
    HD_WL_TRY(hd_memcpy_h2d(gpu, dlevel, level, (size_t)n * sizeof(int)));

    struct hd_dim3 grid = {(uint32_t)((n + BFS_BLOCK - 1) / BFS_BLOCK), 1, 1};
    struct hd_dim3 block = {BFS_BLOCK, 1, 1};
    int cur = 0, changed = 1, nn = n;
    while (changed) {
        if (cur > n) { /* a correct search ends after at most n levels */
            rc = hd_wl_fail(ctx, "bfs: level %d reached with the changed flag still set", cur);
            goto out;
        }
        HD_WL_TRY(hd_memset(gpu, dchanged, 0, sizeof(int)));
        struct hd_arg args[] = {HD_ARG(drow), HD_ARG(dcols), HD_ARG(dlevel),
                                HD_ARG(nn),   HD_ARG(cur),   HD_ARG(dchanged)};
        HD_WL_TRY(hd_launch(gpu, mod, "bfs_level", grid, block, 0, 0, args, 6));
        HD_WL_TRY(hd_memcpy_d2h(gpu, &changed, dchanged, sizeof(int)));
        cur++;
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, level, dlevel, (size_t)n * sizeof(int)));

    fprintf(ctx->log, "bfs: %d kernel launches\n", cur);
    rc = hd_wl_compare_i32(ctx, "level", ref, level, (size_t)n);
    if (rc == HD_OK && cur != depth)
        rc = hd_wl_fail(ctx, "bfs: %d launches, expected %d (one per level of the reference)",
                        cur, depth);

out:
    if (gpu) {
        hd_free(gpu, drow);
        hd_free(gpu, dcols);
        hd_free(gpu, dlevel);
        hd_free(gpu, dchanged);
    }
    free(g.row_ptr);
    free(g.cols);
    free(level);
    free(ref);
    free(queue);
    return rc;
}

const struct hd_workload hd_workload_bfs = {
    .name = "bfs",
    .description = "level-synchronous BFS on a generated irregular CSR graph, one kernel per level",
    .klass = "irregular",
    .idempotent = true,
    .run = bfs_run,
};
