/* SPDX-License-Identifier: MIT
 * sssp.c - host driver of the sssp workload: shortest distances from vertex 0 of a weighted
 * directed graph, by rounds of sssp_relax until no distance changes.
 *
 * Graph (road-network-like with shortcuts): side x side vertices on a grid; each vertex has an
 * edge to each of its 4 grid neighbours with probability 0.9 (weight 1..100) and, with
 * probability 1/4, one long edge to a random vertex (weight 100..1099). Edges are directed and
 * stored in CSR order. The result is checked exactly against Dijkstra's algorithm on the CPU
 * (unreachable vertices keep the distance 0xffffffff).
 *
 * --size waves3 (session 21; workloads/README.md "Occupancy-length inputs"): a uniform random
 * graph instead, SSSP_W3_N vertices with SSSP_W3_DEG out-edges each to uniformly drawn vertices
 * (weight 1..100), the kind of Lonestar's random inputs: its diameter grows as log n where a
 * side x side grid's grows as side, so >= 3 Baseline CTA waves per launch on Kepler and Maxwell
 * at every Zorua specification take far fewer rounds (launches) than a grid of as many vertices.
 * The same kernel and the same Dijkstra reference.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>
#include <string.h>

#define SSSP_BLOCK 256
#define SSSP_INF 0xffffffffu
/* --size waves3: 100,000 vertices make ceil(n / T) / (15 SMs x CTAs per SM) >= 3.26 Baseline
 * waves at every specification on Kepler and Maxwell (2,048 threads per SM at most: 3.26 x
 * 30,720 threads), 4.3 on Fermi. */
#define SSSP_W3_N 100000
#define SSSP_W3_DEG 4

static int sssp_side(enum hd_wl_size size)
{
    /* warp instructions: ~0.52 M, ~6.2 M, ~44 M (43, 57, 68 rounds) */
    static const int side[3] = {60, 200, 512};
    return side[size];
}

struct sssp_graph {
    int n, m;
    int *row, *col;
    unsigned *w;
};

static int sssp_make_graph(struct sssp_graph *g, int side, struct hd_wl_rng *rng)
{
    const int n = side * side, cap = n * 5;
    g->n = n;
    g->row = malloc(sizeof(int) * (size_t)(n + 1));
    g->col = malloc(sizeof(int) * (size_t)cap);
    g->w = malloc(sizeof(unsigned) * (size_t)cap);
    if (!g->row || !g->col || !g->w)
        return -1;
    int m = 0;
    for (int u = 0; u < n; u++) {
        int x = u % side, y = u / side;
        int nb[4] = {x > 0 ? u - 1 : -1, x < side - 1 ? u + 1 : -1, y > 0 ? u - side : -1,
                     y < side - 1 ? u + side : -1};
        g->row[u] = m;
        for (int k = 0; k < 4; k++) {
            uint32_t r = hd_wl_rng_u32(rng);
            if (nb[k] >= 0 && r % 10 != 0) {
                g->col[m] = nb[k];
                g->w[m++] = 1 + (r >> 8) % 100;
            }
        }
        if (hd_wl_rng_u32(rng) % 4 == 0) {
            g->col[m] = (int)(hd_wl_rng_u32(rng) % (uint32_t)n);
            g->w[m++] = 100 + hd_wl_rng_u32(rng) % 1000;
        }
    }
    g->row[n] = m;
    g->m = m;
    return 0;
}

/* n vertices, each with deg out-edges to uniformly drawn vertices (a self-loop is redrawn),
 * weights 1..100; CSR in vertex order. */
static int sssp_make_random(struct sssp_graph *g, int n, int deg, struct hd_wl_rng *rng)
{
    const int m = n * deg;
    g->n = n;
    g->m = m;
    g->row = malloc(sizeof(int) * (size_t)(n + 1));
    g->col = malloc(sizeof(int) * (size_t)m);
    g->w = malloc(sizeof(unsigned) * (size_t)m);
    if (!g->row || !g->col || !g->w)
        return -1;
    for (int u = 0, e = 0; u < n; u++) {
        g->row[u] = e;
        for (int k = 0; k < deg; k++, e++) {
            int v;
            do
                v = (int)(hd_wl_rng_u32(rng) % (uint32_t)n);
            while (v == u);
            g->col[e] = v;
            g->w[e] = 1 + hd_wl_rng_u32(rng) % 100;
        }
    }
    g->row[n] = m;
    return 0;
}

/* Dijkstra with a binary heap of (distance, vertex) and lazy deletion. */
static int sssp_dijkstra(const struct sssp_graph *g, int src, unsigned *dist)
{
    size_t cap = (size_t)g->m + 1, len = 0;
    uint64_t *heap = malloc(sizeof(uint64_t) * cap);
    if (!heap)
        return -1;
    for (int v = 0; v < g->n; v++)
        dist[v] = SSSP_INF;
    dist[src] = 0;
    heap[len++] = (uint64_t)src;
    while (len > 0) {
        uint64_t top = heap[0];
        heap[0] = heap[--len];
        for (size_t i = 0;;) { /* sift down */
            size_t l = 2 * i + 1, r = l + 1, s = i;
            if (l < len && heap[l] < heap[s])
                s = l;
            if (r < len && heap[r] < heap[s])
                s = r;
            if (s == i)
                break;
            uint64_t t = heap[i];
            heap[i] = heap[s];
            heap[s] = t;
            i = s;
        }
        unsigned d = (unsigned)(top >> 32);
        int u = (int)(top & 0xffffffffu);
        if (d != dist[u])
            continue;
        for (int e = g->row[u]; e < g->row[u + 1]; e++) {
            int v = g->col[e];
            unsigned nd = d + g->w[e];
            if (nd < dist[v]) {
                dist[v] = nd;
                size_t i = len++; /* sift up */
                heap[i] = ((uint64_t)nd << 32) | (uint32_t)v;
                while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
                    uint64_t t = heap[i];
                    heap[i] = heap[(i - 1) / 2];
                    heap[(i - 1) / 2] = t;
                    i = (i - 1) / 2;
                }
            }
        }
    }
    free(heap);
    return 0;
}

int sssp_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    int rc = HD_OK, rounds = 0;
    struct hd_module *mod = NULL;
    struct sssp_graph g = {0};
    hd_devptr d_row = 0, d_col = 0, d_w = 0, d_dist = 0, d_act[2] = {0, 0}, d_changed = 0;
    unsigned *dist = NULL, *ref = NULL;
    int *act = NULL;

    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73737370u);
    if ((ctx->waves3 ? sssp_make_random(&g, SSSP_W3_N, SSSP_W3_DEG, &rng)
                     : sssp_make_graph(&g, sssp_side(ctx->size), &rng)) != 0) {
        rc = hd_wl_fail(ctx, "sssp: out of host memory");
        goto out;
    }
    const int n = g.n;
    const size_t nb = sizeof(unsigned) * (size_t)n;
    dist = malloc(nb);
    ref = malloc(nb);
    act = calloc((size_t)n, sizeof(int));
    if (!dist || !ref || !act) {
        rc = hd_wl_fail(ctx, "sssp: out of host memory");
        goto out;
    }
    fprintf(ctx->log, "sssp: %d vertices, %d edges (%s), source 0\n", n, g.m,
            ctx->waves3 ? "random graph" : "grid with shortcuts");
    const long tb = hd_wl_spec_threads(ctx, "sssp", "TB", SSSP_BLOCK);
    if (tb < 0) {
        rc = HD_WL_MISMATCH;
        goto out;
    }
    {
        uint64_t h = hd_wl_hash(HD_WL_HASH_INIT, g.row, sizeof(int) * (size_t)(n + 1));
        h = hd_wl_hash(h, g.col, sizeof(int) * (size_t)g.m);
        hd_wl_work(ctx, hd_wl_hash(h, g.w, sizeof(unsigned) * (size_t)g.m), "sssp n=%d m=%d", n,
                   g.m);
    }

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const sssp_kernels[] = {"sssp_relax"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, sssp_kernels, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_row, sizeof(int) * (size_t)(n + 1)));
    HD_WL_TRY(hd_malloc(gpu, &d_col, sizeof(int) * (size_t)g.m));
    HD_WL_TRY(hd_malloc(gpu, &d_w, sizeof(unsigned) * (size_t)g.m));
    HD_WL_TRY(hd_malloc(gpu, &d_dist, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_act[0], sizeof(int) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_act[1], sizeof(int) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_changed, sizeof(int)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_row, g.row, sizeof(int) * (size_t)(n + 1)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_col, g.col, sizeof(int) * (size_t)g.m));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_w, g.w, sizeof(unsigned) * (size_t)g.m));
    for (int v = 0; v < n; v++)
        dist[v] = SSSP_INF;
    dist[0] = 0;
    act[0] = 1;
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_dist, dist, nb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_act[0], act, sizeof(int) * (size_t)n));

    struct hd_dim3 grid = {(uint32_t)((n + tb - 1) / tb), 1, 1};
    struct hd_dim3 block = {(uint32_t)tb, 1, 1};
    for (int changed = 1; changed; rounds++) {
        /* Each round lowers at least one distance or stops, and a shortest path has at most
         * n - 1 edges, so more than n rounds means the kernel is broken. */
        if (rounds > n) {
            rc = hd_wl_fail(ctx, "sssp: no convergence after %d rounds", rounds);
            goto out;
        }
        hd_devptr in = d_act[rounds & 1], outp = d_act[(rounds + 1) & 1];
        HD_WL_TRY(hd_memset(gpu, outp, 0, sizeof(int) * (size_t)n));
        HD_WL_TRY(hd_memset(gpu, d_changed, 0, sizeof(int)));
        struct hd_arg args[] = {HD_ARG(d_row), HD_ARG(d_col),  HD_ARG(d_w),       HD_ARG(d_dist),
                                HD_ARG(in),    HD_ARG(outp),   HD_ARG(d_changed), HD_ARG(n)};
        HD_WL_TRY(hd_launch(gpu, mod, "sssp_relax", grid, block, 0, 0, args, 8));
        HD_WL_TRY(hd_memcpy_d2h(gpu, &changed, d_changed, sizeof(int)));
    }
    HD_WL_TRY(hd_memcpy_d2h(gpu, dist, d_dist, nb));
    if (sssp_dijkstra(&g, 0, ref) != 0) {
        rc = hd_wl_fail(ctx, "sssp: out of host memory");
        goto out;
    }
    rc = hd_wl_compare_u32(ctx, "distance", ref, dist, (size_t)n);
    if (rc == HD_OK) {
        int reached = 0;
        for (int v = 0; v < n; v++)
            reached += ref[v] != SSSP_INF;
        fprintf(ctx->log, "sssp: converged after %d rounds, %d vertices reached\n", rounds,
                reached);
    }

out:
    hd_free(gpu, d_row);
    hd_free(gpu, d_col);
    hd_free(gpu, d_w);
    hd_free(gpu, d_dist);
    hd_free(gpu, d_act[0]);
    hd_free(gpu, d_act[1]);
    hd_free(gpu, d_changed);
    free(g.row);
    free(g.col);
    free(g.w);
    free(dist);
    free(ref);
    free(act);
    return rc;
}

const struct hd_workload hd_workload_sssp = {
    .name = "sssp",
    .description = "single-source shortest paths: Bellman-Ford rounds with atomicMin over CSR",
    .klass = "irregular",
    .idempotent = false,
    .run = sssp_run,
};
