/* SPDX-License-Identifier: MIT
 * nw.c - host driver of the nw workload: Needleman-Wunsch alignment score matrix of two random
 * protein-like sequences.
 *
 * The sequences are drawn from a 24-letter alphabet and scored with a random symmetric
 * substitution table (matches positive, mismatches mostly negative) and a linear gap penalty.
 * The host expands the table into the per-cell similarity matrix, initialises the gap row and
 * column, and launches one kernel per 16x16 block anti-diagonal (2 * n/16 - 1 launches, the first
 * and last of a single CTA). The whole integer score matrix must equal the CPU's row-by-row
 * dynamic programme exactly.
 */
#include "workload.h"

#include <stdlib.h>

#define NW_B 16
#define NW_ALPHABET 24
#define NW_PENALTY 10

static int nw_length(enum hd_wl_size size)
{
    /* ~0.47 M, 13 M and 53 M warp instructions (n must be a multiple of 16). */
    static const int n[3] = {384, 2048, 4096};
    return n[size];
}

static void nw_reference(const int *sim, int n, int penalty, uint32_t *out)
{
    size_t stride = (size_t)n + 1;
    int32_t *m = (int32_t *)out; /* same bits; the caller compares as u32 */
    for (int j = 0; j <= n; j++)
        m[j] = -penalty * j;
    for (int i = 1; i <= n; i++) {
        m[i * stride] = -penalty * i;
        for (int j = 1; j <= n; j++) {
            int diag = m[(i - 1) * stride + j - 1] + sim[i * stride + j];
            int up = m[(i - 1) * stride + j] - penalty;
            int left = m[i * stride + j - 1] - penalty;
            int best = diag > up ? diag : up;
            m[i * stride + j] = best > left ? best : left;
        }
    }
}

static int nw_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    int n = nw_length(ctx->size), nb = n / NW_B;
    size_t stride = (size_t)n + 1, cells = stride * stride, bytes = sizeof(int) * cells;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_score = 0, d_sim = 0;
    int *sim = calloc(cells, sizeof(int)), *score = calloc(cells, sizeof(int));
    int *seq_a = malloc(sizeof(int) * stride), *seq_b = malloc(sizeof(int) * stride);
    uint32_t *got = malloc(bytes), *ref = malloc(bytes);
    int table[NW_ALPHABET][NW_ALPHABET];

    if (!sim || !score || !seq_a || !seq_b || !got || !ref) {
        rc = hd_wl_fail(ctx, "nw: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6e776e77u);
    for (int x = 0; x < NW_ALPHABET; x++) {
        table[x][x] = 4 + (int)(hd_wl_rng_u32(&rng) % 8u);
        for (int y = 0; y < x; y++)
            table[x][y] = table[y][x] = -4 + (int)(hd_wl_rng_u32(&rng) % 6u);
    }
    for (int i = 1; i <= n; i++) {
        seq_a[i] = (int)(hd_wl_rng_u32(&rng) % NW_ALPHABET);
        seq_b[i] = (int)(hd_wl_rng_u32(&rng) % NW_ALPHABET);
    }
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            sim[i * stride + j] = table[seq_a[i]][seq_b[j]];
    for (size_t k = 0; k < cells; k++)
        score[k] = INT32_MIN; /* the GPU must overwrite every interior cell */
    for (int j = 0; j <= n; j++)
        score[j] = -NW_PENALTY * j;
    for (int i = 0; i <= n; i++)
        score[i * stride] = -NW_PENALTY * i;
    fprintf(ctx->log, "nw: two sequences of %d, %d block diagonals of %dx%d blocks\n", n,
            2 * nb - 1, NW_B, NW_B);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_score, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_sim, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_score, score, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_sim, sim, bytes));

    int penalty = NW_PENALTY;
    for (int d = 0; d < 2 * nb - 1; d++) {
        uint32_t ctas = (uint32_t)(d < nb ? d + 1 : 2 * nb - 1 - d);
        struct hd_arg args[] = {HD_ARG(d_score), HD_ARG(d_sim), HD_ARG(n), HD_ARG(d),
                                HD_ARG(penalty)};
        HD_WL_TRY(hd_launch(gpu, mod, d < nb ? "nw_upper" : "nw_lower", (struct hd_dim3){ctas, 1, 1},
                         (struct hd_dim3){NW_B, 1, 1}, 0, 0, args, 5));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_score, bytes));

    nw_reference(sim, n, NW_PENALTY, ref);
    rc = hd_wl_compare_u32(ctx, "score (row-major, stride n+1)", ref, got, cells);

out:
    hd_free(gpu, d_score);
    hd_free(gpu, d_sim);
    free(sim);
    free(score);
    free(seq_a);
    free(seq_b);
    free(got);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_nw = {
    .name = "nw",
    .description = "Needleman-Wunsch scores, 16x16 blocks in anti-diagonal waves, 1 warp per CTA",
    .klass = "latency-bound",
    .idempotent = true,
    .run = nw_run,
};
