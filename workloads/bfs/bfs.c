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
 *
 * Variant bfs_k2_tb512 (Lin Table 2.2 BFS_1/BFS_2, Shieh Table 4.2 bfs Kernel/Kernel2): Rodinia's
 * form of the same search, two kernels per level (bfs_expand, bfs_advance) over byte masks, in
 * CTAs of TB = 512 threads, the host loop reading an `over` flag after each pair. Same graph, same
 * reference; the costs are compared exactly and the pairs launched must equal the levels. Its
 * kernels' register counts are pinned (REGSPEC_EXPAND, REGSPEC_ADVANCE) to Shieh's 16 and 12.
 */
#include "workload.h"
#include "zorua_spec.h"

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

/* The uniform graph of variant bfs_k2_ccbp (BFS_UNIFORM; docs/blocks/ccbp.md "Session 21"), the
 * kind of graph Rodinia's generator gives its bfs inputs (graph1MW_6: 1 M vertices, mean degree
 * 6): each vertex draws 2 to 4 edges to vertices drawn uniformly from all n, and every edge is kept
 * in both directions (mean degree 6). No locality: a frontier's neighbours are anywhere. Loops
 * and repeated edges are kept, as in that generator. */
static int bfs_generate_uniform(struct bfs_graph *g, int n, uint64_t seed)
{
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, seed);
    g->n = n;
    g->row_ptr = calloc((size_t)n + 1, sizeof(int));
    g->cols = NULL;
    int *src = malloc((size_t)n * 4 * sizeof(int)), *dst = malloc((size_t)n * 4 * sizeof(int));
    int *fill = NULL;
    size_t m = 0;
    int rc = -1;
    if (!g->row_ptr || !src || !dst)
        goto out;
    for (int v = 0; v < n; v++) {
        int k = 2 + (int)(hd_wl_rng_u32(&rng) % 3u);
        for (int e = 0; e < k; e++, m++) {
            src[m] = v;
            dst[m] = (int)(hd_wl_rng_u32(&rng) % (uint32_t)n);
            g->row_ptr[src[m] + 1]++;
            g->row_ptr[dst[m] + 1]++;
        }
    }
    for (int v = 0; v < n; v++)
        g->row_ptr[v + 1] += g->row_ptr[v];
    g->cols = malloc(2 * m * sizeof(int));
    fill = malloc((size_t)n * sizeof(int));
    if (!g->cols || !fill)
        goto out;
    memcpy(fill, g->row_ptr, (size_t)n * sizeof(int));
    for (size_t i = 0; i < m; i++) {
        g->cols[fill[src[i]]++] = dst[i];
        g->cols[fill[dst[i]]++] = src[i];
    }
    rc = 0;
out:
    free(src);
    free(dst);
    free(fill);
    return rc;
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

/* Rodinia's two-kernel loop (variant bfs_k2_tb512): the module is loaded and the graph is on the
 * device (drow, dcols); fills level[] with the costs and *iters with the kernel pairs launched. */
static int bfs_run_two_kernels(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module *mod,
                               hd_devptr drow, hd_devptr dcols, int n, int src, int *level,
                               int *iters)
{
    static const char *const kernels[] = {"bfs_expand", "bfs_advance"};
    static const char *const pins[] = {"REGSPEC_EXPAND", "REGSPEC_ADVANCE"};
    const long tb = hd_wl_spec_threads(ctx, "bfs", "TB", BFS_BLOCK);
    hd_devptr dmask = 0, dnext = 0, dvisited = 0, dcost = 0, dover = 0;
    unsigned char *m = calloc((size_t)n, 1);
    int rc = HD_OK;
    if (tb < 0)
        return HD_WL_MISMATCH;
    if (!m)
        return hd_wl_fail(ctx, "bfs: out of host memory");
    if ((rc = hd_wl_pin_kernel_regs(gpu, ctx, mod, kernels, pins, 2)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &dmask, (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &dnext, (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &dvisited, (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &dcost, (size_t)n * sizeof(int)));
    HD_WL_TRY(hd_malloc(gpu, &dover, sizeof(int)));
    m[src] = 1;
    HD_WL_TRY(hd_memcpy_h2d(gpu, dmask, m, (size_t)n));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dvisited, m, (size_t)n));
    HD_WL_TRY(hd_memset(gpu, dnext, 0, (size_t)n));
    for (int v = 0; v < n; v++)
        level[v] = v == src ? 0 : -1;
    HD_WL_TRY(hd_memcpy_h2d(gpu, dcost, level, (size_t)n * sizeof(int)));

    struct hd_dim3 grid = {(uint32_t)((n + tb - 1) / tb), 1, 1};
    struct hd_dim3 block = {(uint32_t)tb, 1, 1};
    int over = 1, nn = n;
    *iters = 0;
    while (over) {
        if (*iters > n) {
            rc = hd_wl_fail(ctx, "bfs: %d kernel pairs with the over flag still set", *iters);
            goto out;
        }
        HD_WL_TRY(hd_memset(gpu, dover, 0, sizeof(int)));
        struct hd_arg a1[] = {HD_ARG(drow),     HD_ARG(dcols), HD_ARG(dmask), HD_ARG(dnext),
                              HD_ARG(dvisited), HD_ARG(dcost), HD_ARG(nn)};
        HD_WL_TRY(hd_launch(gpu, mod, "bfs_expand", grid, block, 0, 0, a1, 7));
        struct hd_arg a2[] = {HD_ARG(dmask), HD_ARG(dnext), HD_ARG(dvisited), HD_ARG(dover),
                              HD_ARG(nn)};
        HD_WL_TRY(hd_launch(gpu, mod, "bfs_advance", grid, block, 0, 0, a2, 5));
        HD_WL_TRY(hd_memcpy_d2h(gpu, &over, dover, sizeof(int)));
        (*iters)++;
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, level, dcost, (size_t)n * sizeof(int)));
out:
    hd_free(gpu, dmask);
    hd_free(gpu, dnext);
    hd_free(gpu, dvisited);
    hd_free(gpu, dcost);
    hd_free(gpu, dover);
    free(m);
    return rc;
}

static int bfs_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    int n = bfs_vertices(ctx->size);
    /* --size paper, the base workload (issue 28, session 21): Lin thesis Table 3.2's BFS data set,
     * 16 M nodes (2^24; about 117 M edges, 0.9 GB of host memory with the device copy); the
     * variants keep large. */
    if (ctx->paper && !hd_wl_variant_flags(ctx))
        n = 16777216;
    /* Input-size variant (token wN; issue 24, Shieh Table 4.2 victims): WAVES=N (1..64) gives the
     * small graph N full waves of TB-thread CTAs per launch on fermi-gtx480 at Table 4.2's 3 TBs
     * per SM (15 x 3 x N CTAs, the last one partial); same generator, same reference. */
    const char *vflags = hd_wl_variant_flags(ctx);
    const long waves = hd_wl_flag(vflags, "WAVES", 0);
    if (waves > 0 && waves <= 64 && ctx->size == HD_WL_SMALL)
        n = 15 * 3 * (int)waves * (int)hd_wl_flag(vflags, "TB", BFS_BLOCK) - 100;
    /* CCBP input variant (ptx.flags token `ccbp`; issue 29, Lin Table 4.2 BFS; docs/blocks/ccbp.md
     * "The experiment's inputs"): at medium, a graph of CCBP_VERTICES vertices (the medium one's
     * generator), so that several instances fit in the experiment's budget. */
    const long cc_n = hd_wl_flag(vflags, "CCBP_VERTICES", 0);
    if (cc_n > 0 && ctx->size == HD_WL_MEDIUM) {
        if (cc_n < 1024 || cc_n > 4194304)
            return hd_wl_fail(ctx, "bfs: CCBP_VERTICES %ld out of range (1024..4194304)", cc_n);
        n = (int)cc_n;
    }
    struct bfs_graph g = {0, NULL, NULL};
    int *level = malloc((size_t)n * sizeof(int)), *ref = malloc((size_t)n * sizeof(int));
    int *queue = malloc((size_t)n * sizeof(int));
    hd_devptr drow = 0, dcols = 0, dlevel = 0, dchanged = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    const int uniform = (int)hd_wl_flag(vflags, "BFS_UNIFORM", 0);
    if (!level || !ref || !queue ||
        (uniform ? bfs_generate_uniform(&g, n, 0x626673000002ULL)
                 : bfs_generate(&g, n, 0x626673000001ULL)) != 0) {
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
    int cur = 0;
    if (hd_wl_flag(hd_wl_variant_flags(ctx), "BFS_TWO_KERNELS", 0)) {
        if ((rc = bfs_run_two_kernels(gpu, ctx, mod, drow, dcols, n, src, level, &cur)) != HD_OK)
            goto out;
        fprintf(ctx->log, "bfs: %d kernel pairs (bfs_expand, bfs_advance)\n", cur);
        goto verify;
    }
    for (int v = 0; v < n; v++)
        level[v] = v == src ? 0 : -1;
    HD_WL_TRY(hd_memcpy_h2d(gpu, dlevel, level, (size_t)n * sizeof(int)));

    struct hd_dim3 grid = {(uint32_t)((n + BFS_BLOCK - 1) / BFS_BLOCK), 1, 1};
    struct hd_dim3 block = {BFS_BLOCK, 1, 1};
    int changed = 1, nn = n;
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
verify:
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

const struct hd_workload hd_workload_bfs_k2_tb512 = {
    .name = "bfs_k2_tb512",
    .description = "bfs in Rodinia's two-kernel form (frontier masks), 512-thread CTAs",
    .klass = "irregular",
    .idempotent = true,
    .run = bfs_run,
    .variant_of = "bfs",
    .variant_flags = "-DBFS_TWO_KERNELS -DTB=512 -DREGSPEC_EXPAND=16 -DREGSPEC_ADVANCE=12",
    .paper_row = "Lin Table 2.2 BFS_1/BFS_2; Shieh Table 4.2 bfs Kernel/Kernel2",
};
const struct hd_workload hd_workload_bfs_k2_tb512_w3 = {
    .name = "bfs_k2_tb512_w3",
    .description = "bfs_k2_tb512 on a small graph of 3 full waves per launch (135 CTAs of 3 per SM on 15 SMs)",
    .klass = "irregular",
    .idempotent = true,
    .run = bfs_run,
    .variant_of = "bfs",
    .variant_flags = "-DBFS_TWO_KERNELS -DTB=512 -DREGSPEC_EXPAND=16 -DREGSPEC_ADVANCE=12 -DWAVES=3",
    .paper_row = "Shieh Table 4.2 bfs Kernel/Kernel2: 512 threads, 3 TBs/SM, >= 3 waves",
};

/* CCBP input variant (ptx.flags; issue 29) */
const struct hd_workload hd_workload_bfs_ccbp = {
    .name = "bfs_ccbp",
    .description = "bfs with the CCBP experiment's medium input: 32,768 vertices (a quarter of the medium graph)",
    .klass = "irregular",
    .idempotent = true,
    .run = bfs_run,
    .variant_of = "bfs",
    .variant_flags = "-DCCBP_VERTICES=32768",
    .paper_row = "Lin Table 4.2 BFS (LS: thread-divergent; NoC 14 %, DRAM 24 %)",
};
const struct hd_workload hd_workload_bfs_k2_ccbp = {
    .name = "bfs_k2_ccbp",
    .description = "bfs_k2_tb512 (Rodinia's two kernels, 512 threads) on a uniform random graph of 1 M vertices, mean degree 6 (Rodinia's graph1MW_6 kind) at medium",
    .klass = "irregular",
    .idempotent = true,
    .run = bfs_run,
    .variant_of = "bfs",
    .variant_flags = "-DBFS_TWO_KERNELS -DTB=512 -DREGSPEC_EXPAND=16 -DREGSPEC_ADVANCE=12 -DCCBP_VERTICES=1048576 -DBFS_UNIFORM=1",
    .paper_row = "Lin Table 4.2 BFS (LS: NoC 14 %, DRAM 24 %, L2 miss 100 %; T3.2: 16 M nodes) = Rodinia bfs Kernel/Kernel2",
};
