/* SPDX-License-Identifier: MIT
 * mst.c - host driver of the mst workload: minimum spanning forest of a weighted undirected graph
 * by Boruvka rounds (mst_find_min, mst_union, mst_compress) until a round merges nothing.
 *
 * Graph: side x side vertices on a grid, an edge to the right and one downwards each with
 * probability 0.9, plus with probability 1/4 per vertex an edge to a random vertex; weights are
 * 1..255, so many weights tie and the edge index breaks the ties (the kernels order edges by
 * (weight, index), which makes the forest unique). The edge set is checked exactly against
 * Kruskal's algorithm on the CPU with the same order.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>
#include <string.h>

#define MST_BLOCK 256
#define MST_MAX_ROUNDS 64
#define MST_WAVES_SIDE 120
/* --size waves3 (session 21; workloads/README.md "Occupancy-length inputs"): 304 x 304 = 92,416
 * vertices make ceil(n / T) / (15 SMs x CTAs per SM) >= 3.01 Baseline waves at every
 * specification on Kepler and Maxwell (2,048 threads per SM at most), 5.4 on Fermi. Boruvka's
 * rounds grow as log n on any graph, so the grid kind stays. */
#define MST_W3_SIDE 304

static int mst_side(enum hd_wl_size size)
{
    /* warp instructions: ~0.47 M, ~4.0 M, ~35 M (7, 8, 9 rounds) */
    static const int side[3] = {90, 250, 700};
    return side[size];
}

struct mst_graph {
    int n, m;
    int *eu, *ev;
    unsigned *ew;
    int *row, *adj_v, *adj_e; /* CSR: every edge at both of its ends */
};

static int mst_make_graph(struct mst_graph *g, int side, struct hd_wl_rng *rng)
{
    const int n = side * side, cap = 3 * n;
    g->n = n;
    g->eu = malloc(sizeof(int) * (size_t)cap);
    g->ev = malloc(sizeof(int) * (size_t)cap);
    g->ew = malloc(sizeof(unsigned) * (size_t)cap);
    g->row = calloc((size_t)n + 1, sizeof(int));
    g->adj_v = malloc(sizeof(int) * 2 * (size_t)cap);
    g->adj_e = malloc(sizeof(int) * 2 * (size_t)cap);
    if (!g->eu || !g->ev || !g->ew || !g->row || !g->adj_v || !g->adj_e)
        return -1;
    int m = 0;
    for (int u = 0; u < n; u++) {
        int x = u % side, y = u / side;
        int cand[3] = {-1, -1, -1};
        if (hd_wl_rng_u32(rng) % 10 != 0 && x < side - 1)
            cand[0] = u + 1;
        if (hd_wl_rng_u32(rng) % 10 != 0 && y < side - 1)
            cand[1] = u + side;
        if (hd_wl_rng_u32(rng) % 4 == 0)
            cand[2] = (int)(hd_wl_rng_u32(rng) % (uint32_t)n);
        for (int k = 0; k < 3; k++)
            if (cand[k] >= 0) {
                g->eu[m] = u;
                g->ev[m] = cand[k];
                g->ew[m++] = 1 + hd_wl_rng_u32(rng) % 255;
            }
    }
    g->m = m;
    /* CSR by counting sort of the edge ends. */
    for (int e = 0; e < m; e++) {
        g->row[g->eu[e] + 1]++;
        g->row[g->ev[e] + 1]++;
    }
    for (int v = 0; v < n; v++)
        g->row[v + 1] += g->row[v];
    int *fill = malloc(sizeof(int) * (size_t)n);
    if (!fill)
        return -1;
    memcpy(fill, g->row, sizeof(int) * (size_t)n);
    for (int e = 0; e < m; e++) {
        int a = g->eu[e], b = g->ev[e];
        g->adj_v[fill[a]] = b;
        g->adj_e[fill[a]++] = e;
        g->adj_v[fill[b]] = a;
        g->adj_e[fill[b]++] = e;
    }
    free(fill);
    return 0;
}

static int mst_uf_find(int *p, int x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

/* Kruskal over edges in (weight, index) order: a counting sort by weight keeps index order. */
static int mst_kruskal(const struct mst_graph *g, uint32_t *in_mst, uint64_t *total)
{
    int *order = malloc(sizeof(int) * (size_t)g->m), *p = malloc(sizeof(int) * (size_t)g->n);
    int start[257] = {0};
    if (!order || !p) {
        free(order);
        free(p);
        return -1;
    }
    for (int e = 0; e < g->m; e++)
        start[g->ew[e] + 1]++;
    for (int w = 0; w < 256; w++)
        start[w + 1] += start[w];
    for (int e = 0; e < g->m; e++)
        order[start[g->ew[e]]++] = e;
    for (int v = 0; v < g->n; v++)
        p[v] = v;
    *total = 0;
    memset(in_mst, 0, sizeof(uint32_t) * (size_t)g->m);
    for (int k = 0; k < g->m; k++) {
        int e = order[k], a = mst_uf_find(p, g->eu[e]), b = mst_uf_find(p, g->ev[e]);
        if (a != b) {
            p[a > b ? a : b] = a > b ? b : a;
            in_mst[e] = 1;
            *total += g->ew[e];
        }
    }
    free(order);
    free(p);
    return 0;
}

int mst_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    int rc = HD_OK, rounds = 0;
    struct hd_module *mod = NULL;
    struct mst_graph g = {0};
    hd_devptr d_row = 0, d_adjv = 0, d_adje = 0, d_eu = 0, d_ev = 0, d_ew = 0, d_comp = 0;
    hd_devptr d_parent = 0, d_best = 0, d_in = 0, d_unions = 0;
    int *ident = NULL;
    uint32_t *in_mst = NULL, *ref = NULL;

    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6d737421u);
    /* --size waves (issue 32 item 6, workloads/README.md "Occupancy-length inputs"): a larger
     * grid graph, one thread per vertex, so more CTAs of the same footprint. */
    const int side = ctx->waves3  ? MST_W3_SIDE
                     : ctx->waves ? MST_WAVES_SIDE
                                  : mst_side(ctx->size);
    if (mst_make_graph(&g, side, &rng) != 0) {
        rc = hd_wl_fail(ctx, "mst: out of host memory");
        goto out;
    }
    const int n = g.n, m = g.m;
    const size_t vb = sizeof(int) * (size_t)n, eb = sizeof(int) * (size_t)m;
    ident = malloc(vb);
    in_mst = malloc(eb);
    ref = malloc(eb);
    if (!ident || !in_mst || !ref) {
        rc = hd_wl_fail(ctx, "mst: out of host memory");
        goto out;
    }
    for (int v = 0; v < n; v++)
        ident[v] = v;
    fprintf(ctx->log, "mst: %d vertices, %d undirected edges\n", n, m);
    const long tb = hd_wl_spec_threads(ctx, "mst", "TB", MST_BLOCK);
    if (tb < 0) {
        rc = HD_WL_MISMATCH;
        goto out;
    }
    {
        uint64_t h = hd_wl_hash(HD_WL_HASH_INIT, g.eu, eb);
        h = hd_wl_hash(h, g.ev, eb);
        hd_wl_work(ctx, hd_wl_hash(h, g.ew, eb), "mst n=%d m=%d", n, m);
    }

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const mst_kernels[] = {"mst_find_min", "mst_union", "mst_compress"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, mst_kernels, 3)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_row, vb + sizeof(int)));
    HD_WL_TRY(hd_malloc(gpu, &d_adjv, 2 * eb));
    HD_WL_TRY(hd_malloc(gpu, &d_adje, 2 * eb));
    HD_WL_TRY(hd_malloc(gpu, &d_eu, eb));
    HD_WL_TRY(hd_malloc(gpu, &d_ev, eb));
    HD_WL_TRY(hd_malloc(gpu, &d_ew, eb));
    HD_WL_TRY(hd_malloc(gpu, &d_comp, vb));
    HD_WL_TRY(hd_malloc(gpu, &d_parent, vb));
    HD_WL_TRY(hd_malloc(gpu, &d_best, sizeof(uint64_t) * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_in, eb));
    HD_WL_TRY(hd_malloc(gpu, &d_unions, sizeof(int)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_row, g.row, vb + sizeof(int)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_adjv, g.adj_v, 2 * eb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_adje, g.adj_e, 2 * eb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_eu, g.eu, eb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_ev, g.ev, eb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_ew, g.ew, eb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_comp, ident, vb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_parent, ident, vb));
    HD_WL_TRY(hd_memset(gpu, d_best, 0xff, sizeof(uint64_t) * (size_t)n));
    HD_WL_TRY(hd_memset(gpu, d_in, 0, eb));

    struct hd_dim3 grid = {(uint32_t)((n + tb - 1) / tb), 1, 1};
    struct hd_dim3 block = {(uint32_t)tb, 1, 1};
    for (int unions = 1; unions > 0; rounds++) {
        /* Every round at least halves the number of components that still have an outgoing
         * edge, so more than MST_MAX_ROUNDS rounds means the kernels are broken. */
        if (rounds >= MST_MAX_ROUNDS) {
            rc = hd_wl_fail(ctx, "mst: no convergence after %d rounds", rounds);
            goto out;
        }
        HD_WL_TRY(hd_memset(gpu, d_unions, 0, sizeof(int)));
        struct hd_arg fa[] = {HD_ARG(d_row),  HD_ARG(d_adjv), HD_ARG(d_adje), HD_ARG(d_ew),
                              HD_ARG(d_comp), HD_ARG(d_best), HD_ARG(n)};
        HD_WL_TRY(hd_launch(gpu, mod, "mst_find_min", grid, block, 0, 0, fa, 7));
        struct hd_arg ua[] = {HD_ARG(d_best), HD_ARG(d_eu),     HD_ARG(d_ev), HD_ARG(d_parent),
                              HD_ARG(d_in),   HD_ARG(d_unions), HD_ARG(n)};
        HD_WL_TRY(hd_launch(gpu, mod, "mst_union", grid, block, 0, 0, ua, 7));
        struct hd_arg ca[] = {HD_ARG(d_parent), HD_ARG(d_comp), HD_ARG(d_best), HD_ARG(n)};
        HD_WL_TRY(hd_launch(gpu, mod, "mst_compress", grid, block, 0, 0, ca, 4));
        HD_WL_TRY(hd_memcpy_d2h(gpu, &unions, d_unions, sizeof(int)));
    }
    HD_WL_TRY(hd_memcpy_d2h(gpu, in_mst, d_in, eb));
    uint64_t total = 0;
    if (mst_kruskal(&g, ref, &total) != 0) {
        rc = hd_wl_fail(ctx, "mst: out of host memory");
        goto out;
    }
    rc = hd_wl_compare_u32(ctx, "edge in forest", ref, in_mst, (size_t)m);
    if (rc == HD_OK) {
        int nedges = 0;
        for (int e = 0; e < m; e++)
            nedges += (int)in_mst[e];
        fprintf(ctx->log, "mst: %d rounds, forest of %d edges, total weight %llu\n", rounds,
                nedges, (unsigned long long)total);
    }

out:
    hd_free(gpu, d_row);
    hd_free(gpu, d_adjv);
    hd_free(gpu, d_adje);
    hd_free(gpu, d_eu);
    hd_free(gpu, d_ev);
    hd_free(gpu, d_ew);
    hd_free(gpu, d_comp);
    hd_free(gpu, d_parent);
    hd_free(gpu, d_best);
    hd_free(gpu, d_in);
    hd_free(gpu, d_unions);
    free(g.eu);
    free(g.ev);
    free(g.ew);
    free(g.row);
    free(g.adj_v);
    free(g.adj_e);
    free(ident);
    free(in_mst);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_mst = {
    .name = "mst",
    .description = "Boruvka minimum spanning forest: per-component min edge, CAS union-find",
    .klass = "irregular",
    .idempotent = false,
    .run = mst_run,
};
