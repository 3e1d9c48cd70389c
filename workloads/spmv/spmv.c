/* SPDX-License-Identifier: MIT
 * spmv.c - host driver for SpMV (Parboil-like): CSR scalar, CSR vector and ELL kernels.
 *
 * The matrix is square, nrows x nrows, with irregular row lengths: most rows have 1 to
 * 2*avg-1 entries, about 2% are "heavy" rows of max_len entries (the ELL width), so the CSR
 * scalar kernel diverges and ELL pays for its padding. Columns cluster in a band around the
 * diagonal with a fifth spread uniformly, sorted within the row. Values and x are in [-1, 1).
 * Each kernel runs on its own output buffer and is verified separately against one double
 * precision reference.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPMV_BLOCK 128

struct spmv_dims {
    int nrows;
    int avg_len;
    int max_len;
};

static const struct spmv_dims spmv_sizes[3] = {
    {2048, 8, 48},    /* small: 0.22M warp instructions */
    {16384, 10, 64},  /* medium: 1.9M */
    {131072, 16, 96}, /* large: 17M */
};

#define SPMV_TRY(call)                                                                          \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static int spmv_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Fills rowptr (nrows+1) and returns nnz; cols/vals must hold nrows*max_len entries. */
static int spmv_make_matrix(const struct spmv_dims *d, struct hd_wl_rng *rng, int *rowptr,
                            int *cols, float *vals)
{
    int nnz = 0;
    const int band = 1024;
    for (int r = 0; r < d->nrows; r++) {
        int len;
        if (hd_wl_rng_u32(rng) % 50 == 0)
            len = d->max_len;
        else
            len = 1 + (int)(hd_wl_rng_u32(rng) % (uint32_t)(2 * d->avg_len - 1));
        rowptr[r] = nnz;
        for (int k = 0; k < len; k++) {
            int c;
            if (hd_wl_rng_u32(rng) % 5 == 0)
                c = (int)(hd_wl_rng_u32(rng) % (uint32_t)d->nrows);
            else
                c = (r + (int)(hd_wl_rng_u32(rng) % (2 * band + 1)) - band + d->nrows) % d->nrows;
            cols[nnz + k] = c;
            vals[nnz + k] = hd_wl_rng_float(rng, -1.0f, 1.0f);
        }
        qsort(cols + nnz, (size_t)len, sizeof(int), spmv_cmp_int);
        nnz += len;
    }
    rowptr[d->nrows] = nnz;
    return nnz;
}

static int spmv_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    /* --size paper (issue 28, session 21): Lin thesis Table 3.2's SPMV "large", Parboil's large
     * matrix (Dubcova3: 146,689 rows, 3.6 M non-zeros, about 25 a row) in size; the rows stay
     * this generator's (uniform lengths with 2 % heavy rows), not Dubcova3's structure. */
    static const struct spmv_dims spmv_paper = {146689, 24, 96};
    const struct spmv_dims d = ctx->paper ? spmv_paper : spmv_sizes[ctx->size];
    const size_t n = (size_t)d.nrows, cap = n * (size_t)d.max_len;
    int *h_rowptr = malloc((n + 1) * sizeof(int));
    int *h_cols = malloc(cap * sizeof(int)), *h_ecols = malloc(cap * sizeof(int));
    float *h_vals = malloc(cap * sizeof(float)), *h_evals = malloc(cap * sizeof(float));
    float *h_x = malloc(n * sizeof(float)), *h_y = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float));
    hd_devptr drow = 0, dcols = 0, dvals = 0, decols = 0, devals = 0, dx = 0, dy[3] = {0, 0, 0};
    struct hd_module *mod = NULL;
    int st = HD_OK;

    if (!h_rowptr || !h_cols || !h_ecols || !h_vals || !h_evals || !h_x || !h_y || !ref) {
        st = hd_wl_fail(ctx, "spmv: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x53504d560001ULL);
    const int nnz = spmv_make_matrix(&d, &rng, h_rowptr, h_cols, h_vals);
    for (size_t i = 0; i < n; i++)
        h_x[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    /* ELL, column-major, padded with value 0 and the row's own index as column. */
    int width = 0;
    for (int r = 0; r < d.nrows; r++) {
        int len = h_rowptr[r + 1] - h_rowptr[r];
        width = len > width ? len : width;
    }
    for (int r = 0; r < d.nrows; r++) {
        int len = h_rowptr[r + 1] - h_rowptr[r];
        for (int k = 0; k < width; k++) {
            size_t e = (size_t)k * n + (size_t)r;
            h_ecols[e] = k < len ? h_cols[h_rowptr[r] + k] : r;
            h_evals[e] = k < len ? h_vals[h_rowptr[r] + k] : 0.0f;
        }
    }
    /* Reference and tolerance. Float accumulation of len products (with or without fused
     * multiply-adds) is within len * 2^-24 * sum|a_j x_j| of the exact sum (standard
     * recursive-summation bound), plus the final rounding. The vector kernel's tree order has
     * a smaller bound (log2 32 + len/32 additions), so the sequential bound covers all. */
    double tol = 0.0;
    for (int r = 0; r < d.nrows; r++) {
        double s = 0.0, sabs = 0.0;
        int len = h_rowptr[r + 1] - h_rowptr[r];
        for (int j = h_rowptr[r]; j < h_rowptr[r + 1]; j++) {
            s += (double)h_vals[j] * (double)h_x[h_cols[j]];
            sabs += fabs((double)h_vals[j] * (double)h_x[h_cols[j]]);
        }
        ref[r] = (float)s;
        double b = (double)(len + 1) * ldexp(1.0, -24) * sabs;
        tol = b > tol ? b : tol;
    }

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    SPMV_TRY(hd_malloc(gpu, &drow, (n + 1) * sizeof(int)));
    SPMV_TRY(hd_malloc(gpu, &dcols, (size_t)nnz * sizeof(int)));
    SPMV_TRY(hd_malloc(gpu, &dvals, (size_t)nnz * sizeof(float)));
    SPMV_TRY(hd_malloc(gpu, &decols, (size_t)width * n * sizeof(int)));
    SPMV_TRY(hd_malloc(gpu, &devals, (size_t)width * n * sizeof(float)));
    SPMV_TRY(hd_malloc(gpu, &dx, n * sizeof(float)));
    for (int k = 0; k < 3; k++) {
        SPMV_TRY(hd_malloc(gpu, &dy[k], n * sizeof(float)));
        SPMV_TRY(hd_memset(gpu, dy[k], 0xff, n * sizeof(float))); /* NaN: unwritten shows */
    }
    SPMV_TRY(hd_memcpy_h2d(gpu, drow, h_rowptr, (n + 1) * sizeof(int)));
    SPMV_TRY(hd_memcpy_h2d(gpu, dcols, h_cols, (size_t)nnz * sizeof(int)));
    SPMV_TRY(hd_memcpy_h2d(gpu, dvals, h_vals, (size_t)nnz * sizeof(float)));
    SPMV_TRY(hd_memcpy_h2d(gpu, decols, h_ecols, (size_t)width * n * sizeof(int)));
    SPMV_TRY(hd_memcpy_h2d(gpu, devals, h_evals, (size_t)width * n * sizeof(float)));
    SPMV_TRY(hd_memcpy_h2d(gpu, dx, h_x, n * sizeof(float)));

    int nrows = d.nrows;
    struct hd_dim3 block = {SPMV_BLOCK, 1, 1};
    struct hd_dim3 grid_row = {(uint32_t)((n + SPMV_BLOCK - 1) / SPMV_BLOCK), 1, 1};
    struct hd_dim3 grid_warp = {(uint32_t)((n * 32 + SPMV_BLOCK - 1) / SPMV_BLOCK), 1, 1};
    struct hd_arg a_scalar[] = {HD_ARG(nrows), HD_ARG(drow), HD_ARG(dcols),
                                HD_ARG(dvals), HD_ARG(dx),   HD_ARG(dy[0])};
    struct hd_arg a_vector[] = {HD_ARG(nrows), HD_ARG(drow), HD_ARG(dcols),
                                HD_ARG(dvals), HD_ARG(dx),   HD_ARG(dy[1])};
    struct hd_arg a_ell[] = {HD_ARG(nrows),  HD_ARG(width), HD_ARG(decols),
                             HD_ARG(devals), HD_ARG(dx),    HD_ARG(dy[2])};
    SPMV_TRY(hd_launch(gpu, mod, "spmv_csr_scalar", grid_row, block, 0, 0, a_scalar, 6));
    SPMV_TRY(hd_launch(gpu, mod, "spmv_csr_vector", grid_warp, block, 0, 0, a_vector, 6));
    SPMV_TRY(hd_launch(gpu, mod, "spmv_ell", grid_row, block, 0, 0, a_ell, 6));
    SPMV_TRY(hd_synchronize(gpu));

    static const char *const names[3] = {"y (csr_scalar)", "y (csr_vector)", "y (ell)"};
    for (int k = 0; k < 3; k++) {
        SPMV_TRY(hd_memcpy_d2h(gpu, h_y, dy[k], n * sizeof(float)));
        st = hd_wl_compare_f32(ctx, names[k], ref, h_y, n, 0.0f, (float)tol + 1e-30f);
        if (st != HD_OK)
            goto out;
    }
    fprintf(ctx->log, "spmv: %d rows, %d nonzeros, ELL width %d, 3 kernels verified (tol %.3g)\n",
            d.nrows, nnz, width, tol);

out:
    hd_free(gpu, drow);
    hd_free(gpu, dcols);
    hd_free(gpu, dvals);
    hd_free(gpu, decols);
    hd_free(gpu, devals);
    hd_free(gpu, dx);
    for (int k = 0; k < 3; k++)
        hd_free(gpu, dy[k]);
    free(h_rowptr);
    free(h_cols);
    free(h_ecols);
    free(h_vals);
    free(h_evals);
    free(h_x);
    free(h_y);
    free(ref);
    return st;
}

const struct hd_workload hd_workload_spmv = {
    .name = "spmv",
    .description = "sparse matrix-vector product, CSR scalar/vector and ELL kernels",
    .klass = "irregular",
    .idempotent = true, /* each kernel reads A and x, writes only its own y */
    .run = spmv_run,
};
