/* SPDX-License-Identifier: MIT
 * lud.c - host driver of the lud workload: blocked LU decomposition of an n x n matrix.
 *
 * The matrix is random in [-1, 1) with a diagonal that makes it strictly diagonally dominant, so
 * the factorisation without pivoting exists and is stable. For each 16-wide diagonal block the
 * driver launches lud_diagonal, then (unless it is the last block) lud_perimeter over the trailing
 * blocks of that block row/column and lud_internal over the trailing submatrix. The packed L\U
 * result is compared with an unblocked Doolittle factorisation computed in double precision.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>

#define LUD_B 16

static int lud_order(enum hd_wl_size size)
{
    /* ~0.2 M, 9 M and 68 M warp instructions (n must be a multiple of 16). */
    static const int n[3] = {128, 512, 1024};
    return n[size];
}

/* Unblocked right-looking Doolittle in double: A = L U, stored packed in `m`. */
static void lud_reference(double *m, int n)
{
    for (int k = 0; k < n; k++) {
        for (int i = k + 1; i < n; i++) {
            double l = m[(size_t)i * n + k] / m[(size_t)k * n + k];
            m[(size_t)i * n + k] = l;
            for (int j = k + 1; j < n; j++)
                m[(size_t)i * n + j] -= l * m[(size_t)k * n + j];
        }
    }
}

static int lud_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    int n = lud_order(ctx->size), nb = n / LUD_B;
    size_t elems = (size_t)n * n, bytes = sizeof(float) * elems;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_a = 0;
    float *a = malloc(bytes), *got = malloc(bytes);
    double *ref = malloc(sizeof(double) * elems);

    if (!a || !got || !ref) {
        rc = hd_wl_fail(ctx, "lud: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6c756421u);
    for (int i = 0; i < n; i++) {
        float off_sum = 0.0f;
        for (int j = 0; j < n; j++) {
            float v = hd_wl_rng_float(&rng, -1.0f, 1.0f);
            a[(size_t)i * n + j] = v;
            if (j != i)
                off_sum += fabsf(v);
        }
        a[(size_t)i * n + i] = 1.0f + off_sum;
    }
    for (size_t k = 0; k < elems; k++)
        ref[k] = a[k];
    fprintf(ctx->log, "lud: %dx%d matrix, %d diagonal blocks of %d\n", n, n, nb, LUD_B);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const lud_pinned[] = {"lud_internal"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, lud_pinned, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_a, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_a, a, bytes));

    for (int k = 0; k < nb; k++) {
        int off = k * LUD_B;
        uint32_t rest = (uint32_t)(nb - k - 1);
        struct hd_arg args[] = {HD_ARG(d_a), HD_ARG(n), HD_ARG(off)};
        HD_WL_TRY(hd_launch(gpu, mod, "lud_diagonal", (struct hd_dim3){1, 1, 1},
                          (struct hd_dim3){LUD_B, 1, 1}, 0, 0, args, 3));
        if (rest == 0)
            break;
        HD_WL_TRY(hd_launch(gpu, mod, "lud_perimeter", (struct hd_dim3){rest, 1, 1},
                          (struct hd_dim3){2 * LUD_B, 1, 1}, 0, 0, args, 3));
        HD_WL_TRY(hd_launch(gpu, mod, "lud_internal", (struct hd_dim3){rest, rest, 1},
                          (struct hd_dim3){LUD_B, LUD_B, 1}, 0, 0, args, 3));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_a, bytes));

    lud_reference(ref, n);
    /* Tolerance: single-precision Doolittle on a diagonally dominant matrix has no element growth,
     * so every entry stays within a few dozen ulp of the exact factor. U entries are judged with
     * 1e-5 relative plus 1e-6 times their row's pivot (for entries that cancel to near zero), L
     * entries, which are O(1/pivot), against 1e-6 / pivot. A float emulation of these kernels
     * (fma where nvcc contracts) stays 10x inside this bound at n = 1024, while one wrong term of
     * any dot product exceeds it. */
    for (int i = 0; i < n; i++) {
        double scale = fabs(ref[(size_t)i * n + i]);
        for (int j = 0; j < n; j++) {
            size_t k = (size_t)i * n + j;
            double e = ref[k], g = got[k];
            /* L entries (j < i) are scaled down by the pivot; judge them against 1/pivot. */
            double s = j < i ? 1.0 / fabs(ref[(size_t)j * n + j]) : scale;
            if (!(fabs(e - g) <= 1e-5 * fabs(e) + 1e-6 * s)) {
                rc = hd_wl_fail(ctx, "lud: %s[%d][%d] expected %.7g got %.7g", j < i ? "L" : "U",
                                i, j, e, g);
                goto out;
            }
        }
    }

out:
    hd_free(gpu, d_a);
    free(a);
    free(got);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_lud = {
    .name = "lud",
    .description = "blocked LU decomposition: diagonal, perimeter and internal 16x16 block kernels",
    .klass = "compute",
    .idempotent = false,
    .run = lud_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_lud_r9 = {
    .name = "lud_r9",
    .description = "lud variant: lud_internal counted at 9 registers per thread (Lin Table 2.2 LUD_3)",
    .klass = "compute",
    .idempotent = false,
    .run = lud_run,
    .variant_of = "lud",
    .variant_flags = "-DREGSPEC=9",
    .paper_row = "Lin Table 2.2 lud_internal (LUD_3): 8 warps/TB, 6 TBs/SM, 9 regs, 1,056 B",
};
/* }==== */
