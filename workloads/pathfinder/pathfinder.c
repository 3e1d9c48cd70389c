/* SPDX-License-Identifier: MIT
 * pathfinder.c - host driver of the pathfinder workload: the cost of the cheapest path from the
 * top row of a weight grid to every cell of the bottom row, moving one row down per step to the
 * same or an adjacent column.
 *
 * Row 0 of the grid is the initial cost row; each launch of pf_dynproc advances up to PF_PYRAMID
 * rows, ping-ponging two device cost rows. Integer arithmetic, so the final row must equal the
 * CPU's dynamic programme exactly.
 *
 * Input-size variant (ptx.flags, token `wN`; issue 24, Shieh Table 4.2 victims): WAVES=N sizes the
 * small input so that its one launch has N full waves of CTAs on fermi-gtx480 (15 SMs x 6 CTAs per
 * SM, Table 4.2's occupancy of pathfinder): N x 90 CTAs of 256 - 2 x 20 output columns, 21 rows.
 * Same kernel, same reference; medium and large are the base's.
 */
#include "workload.h"

#include <stdlib.h>

#define PF_BLOCK 256
#define PF_PYRAMID 20

struct pf_size {
    int cols, rows;
};

/* CTAs per full wave of pf_dynproc on fermi-gtx480: 15 SMs x 6 (Shieh Table 4.2). */
#define PF_WAVE_CTAS 90

static struct pf_size pf_size_of(enum hd_wl_size size, long waves)
{
    /* ~0.4 M, 12 M and 62 M warp instructions. */
    static const struct pf_size s[3] = {{8000, 41}, {100000, 101}, {500000, 101}};
    if (waves > 0 && size == HD_WL_SMALL) /* one launch of `waves` x 90 CTAs (w4: ~2.2 M) */
        return (struct pf_size){(int)waves * PF_WAVE_CTAS * (PF_BLOCK - 2 * PF_PYRAMID),
                                PF_PYRAMID + 1};
    return s[size];
}

/* The CPU dynamic programme; `prev` and `next` are scratch rows of `cols` ints. */
static void pf_reference(const int *wall, int rows, int cols, int *prev, int *next,
                         uint32_t *result)
{
    for (int c = 0; c < cols; c++)
        prev[c] = wall[c];
    for (int r = 1; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int best = prev[c];
            if (c > 0 && prev[c - 1] < best)
                best = prev[c - 1];
            if (c < cols - 1 && prev[c + 1] < best)
                best = prev[c + 1];
            next[c] = wall[(size_t)r * cols + c] + best;
        }
        int *swap = prev;
        prev = next;
        next = swap;
    }
    for (int c = 0; c < cols; c++)
        result[c] = (uint32_t)prev[c];
}

static int pf_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    if (waves < 0 || waves > 64)
        return hd_wl_fail(ctx, "pathfinder: WAVES=%ld out of range 0..64", waves);
    struct pf_size sz = pf_size_of(ctx->size, waves);
    size_t cells = (size_t)sz.rows * sz.cols, row_bytes = sizeof(int) * (size_t)sz.cols;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_wall = 0, d_row[2] = {0, 0};
    int *wall = malloc(sizeof(int) * cells);
    uint32_t *got = malloc(row_bytes), *ref = malloc(row_bytes);
    int *scratch = malloc(2 * row_bytes);

    if (!wall || !got || !ref || !scratch) {
        rc = hd_wl_fail(ctx, "pathfinder: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x70617468u);
    for (size_t k = 0; k < cells; k++)
        wall[k] = (int)(hd_wl_rng_u32(&rng) % 10u);
    fprintf(ctx->log, "pathfinder: %d columns, %d rows, pyramid height %d\n", sz.cols, sz.rows,
            PF_PYRAMID);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_wall, sizeof(int) * cells));
    HD_WL_TRY(hd_malloc(gpu, &d_row[0], row_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_row[1], row_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_wall, wall, sizeof(int) * cells));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_row[0], wall, row_bytes)); /* row 0 is the initial cost */
    HD_WL_TRY(hd_memset(gpu, d_row[1], 0xff, row_bytes));     /* -1: an unwritten column shows */

    int cur = 0, cols = sz.cols;
    for (int row = 0; row < sz.rows - 1;) {
        int steps = sz.rows - 1 - row < PF_PYRAMID ? sz.rows - 1 - row : PF_PYRAMID;
        uint32_t out_per_cta = (uint32_t)(PF_BLOCK - 2 * steps);
        struct hd_dim3 grid = {((uint32_t)cols + out_per_cta - 1) / out_per_cta, 1, 1};
        struct hd_dim3 block = {PF_BLOCK, 1, 1};
        struct hd_arg args[] = {HD_ARG(d_wall), HD_ARG(d_row[cur]), HD_ARG(d_row[1 - cur]),
                                HD_ARG(cols), HD_ARG(row), HD_ARG(steps)};
        HD_WL_TRY(hd_launch(gpu, mod, "pf_dynproc", grid, block, 0, 0, args, 6));
        cur = 1 - cur;
        row += steps;
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_row[cur], row_bytes));

    pf_reference(wall, sz.rows, sz.cols, scratch, scratch + sz.cols, ref);
    rc = hd_wl_compare_u32(ctx, "path cost", ref, got, (size_t)sz.cols);

out:
    hd_free(gpu, d_wall);
    hd_free(gpu, d_row[0]);
    hd_free(gpu, d_row[1]);
    free(wall);
    free(got);
    free(ref);
    free(scratch);
    return rc;
}

const struct hd_workload hd_workload_pathfinder = {
    .name = "pathfinder",
    .description = "grid shortest-path dynamic programme, 20 rows per launch in shared memory",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = pf_run,
};

/* {==== Input-size variant (ptx.flags; README.md, "Variants": token wN) ==== */
const struct hd_workload hd_workload_pathfinder_w4 = {
    .name = "pathfinder_w4",
    .description = "pathfinder variant: small input of one launch of 4 full waves (360 CTAs of 6 per SM on 15 SMs)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = pf_run,
    .variant_of = "pathfinder",
    .variant_flags = "-DWAVES=4",
    .paper_row = "Shieh Table 4.2 pathfinder dynproc_kernel: 256 threads, 6 TBs/SM, >= 3 waves",
};

/* Session 19: 8 waves, so that uniform preemption requests find finished-TB statistics (after the
 * first wave) 89 % of the time instead of 77 % (docs/blocks/shieh.md, issue 24 item 3). */
const struct hd_workload hd_workload_pathfinder_w8 = {
    .name = "pathfinder_w8",
    .description = "pathfinder variant: small input of one launch of 8 full waves (720 CTAs of 6 per SM on 15 SMs)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = pf_run,
    .variant_of = "pathfinder",
    .variant_flags = "-DWAVES=8",
    .paper_row = "Shieh Table 4.2 pathfinder dynproc_kernel: 256 threads, 6 TBs/SM, >= 3 waves",
};
/* }==== */
