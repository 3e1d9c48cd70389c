/* SPDX-License-Identifier: MIT
 * spmv_jds.c - host driver for spmv_jds: y = A x in jagged diagonal storage, a stand-in for
 * Parboil's spmv (Lin thesis Table 3.2's SPMV, "large" input: Dubcova3).
 *
 * Matrix: square, nrows x nrows, finite-element-like (Dubcova3 is a 2-D FEM matrix; its
 * pattern itself is not available here, so this generator has its shape, not its entries).
 * Rows come in element groups of JDS_GROUP consecutive rows (one element's unknowns) that share
 * a length class (9, 16, 25, 36 or 49 entries, mean about 25 as Dubcova3's 3.6 M / 146,689;
 * a quarter of the rows are 2 shorter or longer). About half of a row's columns are a run
 * around its own index (its element's neighbours), the rest two runs at positions drawn per
 * group (unknowns numbered elsewhere, as hp-FEM numbers vertex, edge and interior unknowns in
 * separate ranges), shifted by the row's place in its group so that neighbouring rows read
 * neighbouring x. Columns are sorted and unique within a row. Values and x are in [-1, 1).
 *
 * JDS (Parboil's layout, warp-padded): rows sorted by length, longest first, stably (ties keep
 * their order, so rows of one class stay neighbours); perm maps sorted to original rows; each
 * warp of 32 sorted rows walks as many jagged diagonals as its first (longest) row has entries,
 * shorter rows read padding (value 0, their own original index as column); diagonal k starts
 * at diag_ptr[k] and holds entry k of every sorted row of the warps deeper than k. The warp
 * depths and diagonal pointers go to the kernel's constant memory (c_warp_depth, c_diag_ptr).
 *
 * Launches: the kernel runs JDS_BLOCK = 192 threads per CTA, Parboil's choice for a matrix
 * larger than the GPU holds (its compute_active_thread: 1,536 threads per SM / 8 CTAs per SM),
 * and runs `launches` times into the same y as Parboil's driver runs it 50 times (large and
 * paper: 50; small and medium fewer to keep the tests short). Every launch writes the same y.
 *
 * Reference and tolerance: a double-precision sum per row in the original order. The kernel
 * adds len products in diagonal order (padding adds exact zeros), with or without fused
 * multiply-adds; the float result is within len * 2^-24 * sum|a_j x_j| of the exact sum
 * (recursive summation), plus the final rounding: (len + 1) * 2^-24 * sum|a_j x_j|, the
 * maximum over rows, is the absolute tolerance. One lost product of magnitude above that
 * fails.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JDS_WARP 32        /* rows per depth entry; must match spmv_jds.cu */
#define JDS_MAX_WARPS 8192 /* capacity of c_warp_depth; must match spmv_jds.cu */
#define JDS_MAX_DIAGS 1024 /* capacity of c_diag_ptr; must match spmv_jds.cu */
#define JDS_BLOCK 192      /* Parboil's threads per CTA for large matrices */
#define JDS_GROUP 16       /* rows per element group */
#define JDS_JITTER 8       /* a row's near run starts up to JDS_JITTER / 2 off centre */

struct jds_dims {
    int nrows;
    int launches;
};

/* Warp instructions (functional model) in the comments. Medium runs 2.6 CTA waves per launch
 * on maxwell-gpuduet (417 CTAs, 10 per SM on 16 SMs), so TBs beyond the resident ones exist to
 * be held (GPUDuet's extra TBs, gpuduet-lin's medium points). */
static const struct jds_dims jds_sizes[3] = {
    {3001, 6},    /* small: 0.19 M */
    {80001, 3},   /* medium: 2.7 M */
    {131072, 50}, /* large: 73 M */
};
/* --size paper: Dubcova3's 146,689 rows (about 3.6 M non-zeros), Parboil's 50 launches: 82 M. */
static const struct jds_dims jds_paper = {146689, 50};

static const int jds_len_class[5] = {9, 16, 25, 36, 49};
static const int jds_len_weight[5] = {15, 25, 30, 20, 10}; /* percent */

#define JDS_TRY(call)                                                                           \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static int jds_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Appends run columns start, start+1, ... (mod n) to c. */
static int jds_add_run(int *c, int m, int start, int len, int n)
{
    for (int q = 0; q < len; q++)
        c[m++] = ((start + q) % n + n) % n;
    return m;
}

/* CSR of the FEM-like matrix. rowptr holds n + 1 entries; cols/vals n * (49 + 2). */
static int jds_make_matrix(int n, struct hd_wl_rng *rng, int *rowptr, int *cols,
                           float *vals)
{
    int nnz = 0;
    for (int g0 = 0; g0 < n; g0 += JDS_GROUP) {
        uint32_t pick = hd_wl_rng_u32(rng) % 100u, acc = 0;
        int cls = 0;
        for (int c = 0; c < 5; c++) {
            acc += (uint32_t)jds_len_weight[c];
            if (pick < acc) {
                cls = c;
                break;
            }
        }
        const int far0 = (int)(hd_wl_rng_u32(rng) % (uint32_t)n);
        const int far1 = (int)(hd_wl_rng_u32(rng) % (uint32_t)n);
        for (int r = g0; r < g0 + JDS_GROUP && r < n; r++) {
            int len = jds_len_class[cls];
            if (hd_wl_rng_u32(rng) % 4u == 0)
                len += (hd_wl_rng_u32(rng) % 2u) ? 2 : -2;
            if (len > n)
                len = n;
            const int near = (len + 1) / 2, rest = len - near, in_group = r - g0;
            int *c = cols + nnz, m = 0;
            int start = r - near / 2 - (int)(hd_wl_rng_u32(rng) % JDS_JITTER) + JDS_JITTER / 2;
            if (start < 0)
                start = 0;
            if (start + near > n)
                start = n - near;
            m = jds_add_run(c, m, start, near, n);
            m = jds_add_run(c, m, far0 + in_group, (rest + 1) / 2, n);
            m = jds_add_run(c, m, far1 + 2 * in_group, rest / 2, n);
            qsort(c, (size_t)m, sizeof(int), jds_cmp_int);
            int u = 0;
            for (int k = 0; k < m; k++)
                if (u == 0 || c[k] != c[u - 1])
                    c[u++] = c[k];
            rowptr[r] = nnz;
            for (int k = 0; k < u; k++)
                vals[nnz + k] = hd_wl_rng_float(rng, -1.0f, 1.0f);
            nnz += u;
        }
    }
    rowptr[n] = nnz;
    return nnz;
}

static int spmv_jds_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const struct jds_dims d = ctx->paper ? jds_paper : jds_sizes[ctx->size];
    const int n = d.nrows, max_len = jds_len_class[4] + 2;
    const int nwarps = (n + JDS_WARP - 1) / JDS_WARP;
    int *rowptr = malloc(((size_t)n + 1) * sizeof(int));
    int *cols = malloc((size_t)n * (size_t)max_len * sizeof(int));
    float *vals = malloc((size_t)n * (size_t)max_len * sizeof(float));
    int *perm = malloc((size_t)n * sizeof(int)), *count = calloc((size_t)max_len + 2, sizeof(int));
    int *depth = calloc(JDS_MAX_WARPS, sizeof(int)), *dptr = calloc(JDS_MAX_DIAGS, sizeof(int));
    float *x = malloc((size_t)n * sizeof(float)), *y = malloc((size_t)n * sizeof(float));
    float *ref = malloc((size_t)n * sizeof(float));
    int *jcols = NULL;
    float *jvals = NULL;
    hd_devptr dvals = 0, dcols = 0, dperm = 0, dx = 0, dy = 0, cdepth = 0, cdptr = 0;
    struct hd_module *mod = NULL;
    int st = HD_OK;

    if (!rowptr || !cols || !vals || !perm || !count || !depth || !dptr || !x || !y || !ref) {
        st = hd_wl_fail(ctx, "spmv_jds: out of host memory");
        goto out;
    }
    if (nwarps > JDS_MAX_WARPS) {
        st = hd_wl_fail(ctx, "spmv_jds: %d rows need %d warp depths, c_warp_depth holds %d", n,
                        nwarps, JDS_MAX_WARPS);
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x4a445330001ULL);
    const int nnz = jds_make_matrix(n, &rng, rowptr, cols, vals);
    for (int i = 0; i < n; i++)
        x[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);

    /* Stable counting sort of the rows by length, longest first. */
    for (int r = 0; r < n; r++)
        count[rowptr[r + 1] - rowptr[r]]++;
    for (int len = max_len, at = 0; len >= 0; len--) {
        int c = count[len];
        count[len] = at;
        at += c;
    }
    for (int r = 0; r < n; r++)
        perm[count[rowptr[r + 1] - rowptr[r]]++] = r;
    /* Warp depths, diagonal pointers, padded diagonal-major arrays. */
    for (int w = 0; w < nwarps; w++)
        depth[w] = rowptr[perm[w * JDS_WARP] + 1] - rowptr[perm[w * JDS_WARP]];
    const int ndiag = depth[0];
    if (ndiag > JDS_MAX_DIAGS) {
        st = hd_wl_fail(ctx, "spmv_jds: %d jagged diagonals, c_diag_ptr holds %d", ndiag,
                        JDS_MAX_DIAGS);
        goto out;
    }
    size_t total = 0;
    for (int k = 0, w = nwarps; k < ndiag; k++) {
        while (w > 0 && depth[w - 1] <= k)
            w--;
        dptr[k] = (int)total;
        total += (size_t)w * JDS_WARP;
    }
    jcols = malloc(total * sizeof(int));
    jvals = malloc(total * sizeof(float));
    if (!jcols || !jvals) {
        st = hd_wl_fail(ctx, "spmv_jds: out of host memory");
        goto out;
    }
    for (int i = 0; i < nwarps * JDS_WARP; i++) {
        const int r = i < n ? perm[i] : -1, len = r >= 0 ? rowptr[r + 1] - rowptr[r] : 0;
        for (int k = 0; k < depth[i / JDS_WARP]; k++) {
            size_t e = (size_t)dptr[k] + (size_t)i;
            jcols[e] = k < len ? cols[rowptr[r] + k] : (r >= 0 ? r : 0);
            jvals[e] = k < len ? vals[rowptr[r] + k] : 0.0f;
        }
    }

    double tol = 0.0;
    for (int r = 0; r < n; r++) {
        double s = 0.0, sabs = 0.0;
        for (int j = rowptr[r]; j < rowptr[r + 1]; j++) {
            double p = (double)vals[j] * (double)x[cols[j]];
            s += p;
            sabs += fabs(p);
        }
        ref[r] = (float)s;
        double b = (double)(rowptr[r + 1] - rowptr[r] + 1) * ldexp(1.0, -24) * sabs;
        tol = b > tol ? b : tol;
    }

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    size_t bytes_depth = 0, bytes_dptr = 0;
    JDS_TRY(hd_module_symbol(gpu, mod, "c_warp_depth", &cdepth, &bytes_depth));
    JDS_TRY(hd_module_symbol(gpu, mod, "c_diag_ptr", &cdptr, &bytes_dptr));
    if (bytes_depth < (size_t)nwarps * sizeof(int) || bytes_dptr < (size_t)ndiag * sizeof(int)) {
        st = hd_wl_fail(ctx, "spmv_jds: constant tables hold %zu and %zu bytes, need %zu and %zu",
                        bytes_depth, bytes_dptr, (size_t)nwarps * sizeof(int),
                        (size_t)ndiag * sizeof(int));
        goto out;
    }
    JDS_TRY(hd_malloc(gpu, &dvals, total * sizeof(float)));
    JDS_TRY(hd_malloc(gpu, &dcols, total * sizeof(int)));
    JDS_TRY(hd_malloc(gpu, &dperm, (size_t)n * sizeof(int)));
    JDS_TRY(hd_malloc(gpu, &dx, (size_t)n * sizeof(float)));
    JDS_TRY(hd_malloc(gpu, &dy, (size_t)n * sizeof(float)));
    JDS_TRY(hd_memset(gpu, dy, 0xff, (size_t)n * sizeof(float))); /* NaN: unwritten shows */
    JDS_TRY(hd_memcpy_h2d(gpu, dvals, jvals, total * sizeof(float)));
    JDS_TRY(hd_memcpy_h2d(gpu, dcols, jcols, total * sizeof(int)));
    JDS_TRY(hd_memcpy_h2d(gpu, dperm, perm, (size_t)n * sizeof(int)));
    JDS_TRY(hd_memcpy_h2d(gpu, dx, x, (size_t)n * sizeof(float)));
    JDS_TRY(hd_memcpy_h2d(gpu, cdepth, depth, (size_t)nwarps * sizeof(int)));
    JDS_TRY(hd_memcpy_h2d(gpu, cdptr, dptr, (size_t)ndiag * sizeof(int)));

    int nrows = n;
    struct hd_dim3 block = {JDS_BLOCK, 1, 1};
    struct hd_dim3 grid = {(uint32_t)((n + JDS_BLOCK - 1) / JDS_BLOCK), 1, 1};
    struct hd_arg args[] = {HD_ARG(nrows), HD_ARG(dvals), HD_ARG(dcols),
                            HD_ARG(dperm), HD_ARG(dx),    HD_ARG(dy)};
    for (int l = 0; l < d.launches; l++)
        JDS_TRY(hd_launch(gpu, mod, "spmv_jds", grid, block, 0, 0, args, 6));
    JDS_TRY(hd_synchronize(gpu));
    JDS_TRY(hd_memcpy_d2h(gpu, y, dy, (size_t)n * sizeof(float)));
    st = hd_wl_compare_f32(ctx, "y", ref, y, (size_t)n, 0.0f, (float)tol + 1e-30f);
    if (st != HD_OK)
        goto out;
    fprintf(ctx->log,
            "spmv_jds: %d rows, %d nonzeros, %d jagged diagonals, %zu stored entries (%.1f %% "
            "padding), %d launches of %u CTAs verified (tol %.3g)\n",
            n, nnz, ndiag, total, 100.0 * (double)(total - (size_t)nnz) / (double)total,
            d.launches, grid.x, tol);

out:
    hd_free(gpu, dvals);
    hd_free(gpu, dcols);
    hd_free(gpu, dperm);
    hd_free(gpu, dx);
    hd_free(gpu, dy);
    free(rowptr);
    free(cols);
    free(vals);
    free(perm);
    free(count);
    free(depth);
    free(dptr);
    free(x);
    free(y);
    free(ref);
    free(jcols);
    free(jvals);
    return st;
}

const struct hd_workload hd_workload_spmv_jds = {
    .name = "spmv_jds",
    .description = "sparse matrix-vector product, JDS, one thread per row (Parboil spmv)",
    .klass = "irregular",
    .idempotent = true, /* reads A, x and the tables, writes each y element once */
    .run = spmv_jds_run,
    .paper_row = "Lin thesis Table 3.2 SPMV (Parboil spmv, large: Dubcova3)",
};
