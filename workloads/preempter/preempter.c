/* SPDX-License-Identifier: MIT
 * preempter.c - host driver of the preempter workload: Shieh's synthetic high-priority
 * preempting task (256 threads, 4096 registers and 2048 B of shared memory per CTA), given
 * pathfinder-like behaviour: the cost of the cheapest vertical seam through an energy map
 * (seam carving, a diagonal step costs PE_PENALTY more), row by row in shared memory.
 *
 * Row 0 of the energy map is the initial cost row; each launch of pe_seam_rows advances up to
 * PE_PYRAMID rows, ping-ponging two device cost rows. Integers, so the final row must equal the
 * CPU's dynamic programme exactly. The task is meant to arrive while another kernel runs
 * (heddle run --mix ... --arrive preempter@CYCLE), so its sizes are short.
 */
#include "workload.h"

#include <stdlib.h>

#define PE_BLOCK 256 /* must match preempter.cu */
#define PE_PYRAMID 20
#define PE_PENALTY 3

struct pe_size {
    int cols, rows;
};

static struct pe_size pe_size_of(enum hd_wl_size size)
{
    /* ~0.055 M, 1.2 M and 13 M warp instructions; one launch of 10 CTAs at small. */
    static const struct pe_size s[3] = {{2000, 21}, {15000, 61}, {100000, 101}};
    return s[size];
}

static void pe_reference(const int *energy, int rows, int cols, int *prev, int *next,
                         uint32_t *result)
{
    for (int c = 0; c < cols; c++)
        prev[c] = energy[c];
    for (int r = 1; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int best = prev[c];
            if (c > 0 && prev[c - 1] + PE_PENALTY < best)
                best = prev[c - 1] + PE_PENALTY;
            if (c < cols - 1 && prev[c + 1] + PE_PENALTY < best)
                best = prev[c + 1] + PE_PENALTY;
            next[c] = energy[(size_t)r * cols + c] + best;
        }
        int *swap = prev;
        prev = next;
        next = swap;
    }
    for (int c = 0; c < cols; c++)
        result[c] = (uint32_t)prev[c];
}

static int pe_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct pe_size sz = pe_size_of(ctx->size);
    /* preempter_gpu: PE_CTAS CTAs per launch (each advances PE_PYRAMID rows over
     * PE_BLOCK - 2 x PE_PYRAMID inner columns), the size's rows */
    const long nctas = hd_wl_flag(hd_wl_variant_flags(ctx), "PE_CTAS", 0);
    if (nctas > 0)
        sz.cols = (int)nctas * (PE_BLOCK - 2 * PE_PYRAMID);
    size_t cells = (size_t)sz.rows * sz.cols, row_bytes = sizeof(int) * (size_t)sz.cols;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_energy = 0, d_row[2] = {0, 0};
    int *energy = malloc(sizeof(int) * cells), *scratch = malloc(2 * row_bytes);
    uint32_t *got = malloc(row_bytes), *ref = malloc(row_bytes);

    if (!energy || !got || !ref || !scratch) {
        rc = hd_wl_fail(ctx, "preempter: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x7072656du);
    for (size_t k = 0; k < cells; k++)
        energy[k] = (int)(hd_wl_rng_u32(&rng) % 16u);
    fprintf(ctx->log, "preempter: seam costs over %d columns, %d rows, pyramid height %d\n",
            sz.cols, sz.rows, PE_PYRAMID);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_energy, sizeof(int) * cells));
    HD_WL_TRY(hd_malloc(gpu, &d_row[0], row_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_row[1], row_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_energy, energy, sizeof(int) * cells));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_row[0], energy, row_bytes)); /* row 0: the initial cost */
    HD_WL_TRY(hd_memset(gpu, d_row[1], 0xff, row_bytes));       /* -1: an unwritten column shows */

    int cur = 0, cols = sz.cols, penalty = PE_PENALTY;
    for (int row = 0; row < sz.rows - 1;) {
        int steps = sz.rows - 1 - row < PE_PYRAMID ? sz.rows - 1 - row : PE_PYRAMID;
        uint32_t width = (uint32_t)(PE_BLOCK - 2 * steps);
        struct hd_dim3 grid = {((uint32_t)cols + width - 1) / width, 1, 1};
        struct hd_dim3 block = {PE_BLOCK, 1, 1};
        struct hd_arg args[] = {HD_ARG(d_energy), HD_ARG(d_row[cur]), HD_ARG(d_row[1 - cur]),
                                HD_ARG(cols), HD_ARG(row), HD_ARG(steps), HD_ARG(penalty)};
        HD_WL_TRY(hd_launch(gpu, mod, "pe_seam_rows", grid, block, 0, 0, args, 7));
        cur = 1 - cur;
        row += steps;
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_row[cur], row_bytes));

    pe_reference(energy, sz.rows, sz.cols, scratch, scratch + sz.cols, ref);
    rc = hd_wl_compare_u32(ctx, "seam cost", ref, got, (size_t)sz.cols);

out:
    hd_free(gpu, d_energy);
    hd_free(gpu, d_row[0]);
    hd_free(gpu, d_row[1]);
    free(energy);
    free(scratch);
    free(got);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_preempter = {
    .name = "preempter",
    .description = "Shieh's synthetic preempting task: seam-cost DP, 16 regs x 256 threads, 2 KB smem",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = pe_run,
};

/* {==== Variants (ptx.flags; README.md) ==== */
const struct hd_workload hd_workload_preempter_gpu = {
    .name = "preempter_gpu",
    .description = "preempter variant: 270 CTAs per launch (3 waves of the GTX480), 58,320 columns",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = pe_run,
    .variant_of = "preempter",
    .variant_flags = "-DMAXREG=16 -DPE_CTAS=270",
};
/* }==== */
