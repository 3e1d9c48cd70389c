/* SPDX-License-Identifier: MIT
 * histogram.c - host driver for histogram: 256-bin byte histogram with shared and global atomics.
 *
 * The input mixes two kinds of 4 KiB segments, from a fixed seed: most are "textured" (bytes
 * with a triangular distribution peaking at 127, the sum of two uniform 7-bit values), one in
 * eight is flat (a single byte value), where all 32 lanes of a warp hit the same shared bin and
 * the atomics serialize. A fixed grid of 240 CTAs of 256 threads (two CTAs per SM slot of a
 * 15-SM GPU with 8 slots) walks the input with a grid-stride loop. Bins are counts, compared
 * exactly with the host's; the global bins start at zero (hd_memset), so a re-run adds twice:
 * not idempotent.
 *
 * Variants (ptx.flags, README) set the threads per CTA (TB; the driver reads it back from the
 * variant's flags) and the sub-histograms per CTA (HIST_COPIES, device code only).
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define HIST_BINS 256
#define HIST_BLOCK 256 /* default threads per CTA (TB); a multiple of 32, at most 1024 */
#define HIST_GRID 240u
#define HIST_SEGMENT 4096

static size_t hist_bytes(enum hd_wl_size size)
{
    switch (size) {
    /* Warp instructions measured on the functional model. */
    case HD_WL_SMALL: return (size_t)2 << 20;    /* 2 MiB: 0.46M */
    case HD_WL_MEDIUM: return (size_t)16 << 20;  /* 3.1M */
    case HD_WL_LARGE: return (size_t)64 << 20;   /* 12.1M */
    }
    return 0;
}

static void hist_make_input(unsigned char *data, size_t n, uint64_t seed)
{
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, seed);
    for (size_t s = 0; s < n; s += HIST_SEGMENT) {
        size_t end = s + HIST_SEGMENT < n ? s + HIST_SEGMENT : n;
        uint32_t r = hd_wl_rng_u32(&rng);
        if ((r & 7u) == 0) {
            memset(data + s, (int)((r >> 8) & 0xffu), end - s);
            continue;
        }
        for (size_t i = s; i < end; i++) {
            uint32_t x = hd_wl_rng_u32(&rng);
            data[i] = (unsigned char)((x & 0x7fu) + ((x >> 8) & 0x7fu));
        }
    }
}

static int hist_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const size_t n = hist_bytes(ctx->size); /* a multiple of 4 */
    const size_t nwords = n / 4;
    unsigned char *data = malloc(n);
    uint32_t ref[HIST_BINS] = {0}, got[HIST_BINS];
    hd_devptr ddata = 0, dbins = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;
    const long tb = hd_wl_flag(hd_wl_variant_flags(ctx), "TB", HIST_BLOCK);

    if (tb < 32 || tb > 1024 || tb % 32 != 0) {
        rc = hd_wl_fail(ctx, "histogram: TB=%ld: a multiple of 32 from 32 to 1024", tb);
        goto out;
    }
    if (!data) {
        rc = hd_wl_fail(ctx, "histogram: out of host memory");
        goto out;
    }
    hist_make_input(data, n, 0x686973746f00ULL);
    for (size_t i = 0; i < n; i++)
        ref[data[i]]++;
    fprintf(ctx->log, "histogram: %zu bytes, %u blocks of %ld threads\n", n, HIST_GRID, tb);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &ddata, n));
    HD_WL_TRY(hd_malloc(gpu, &dbins, sizeof got));
    HD_WL_TRY(hd_memcpy_h2d(gpu, ddata, data, n)); /* little-endian words: byte i is bits 8*(i%4) */
    HD_WL_TRY(hd_memset(gpu, dbins, 0, sizeof got));

    unsigned int nw = (unsigned int)nwords;
    struct hd_arg args[] = {HD_ARG(ddata), HD_ARG(nw), HD_ARG(dbins)};
    struct hd_dim3 grid = {HIST_GRID, 1, 1};
    struct hd_dim3 block = {(uint32_t)tb, 1, 1};
    HD_WL_TRY(hd_launch(gpu, mod, "histogram256", grid, block, 0, 0, args, 3));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, dbins, sizeof got));

    rc = hd_wl_compare_u32(ctx, "bin", ref, got, HIST_BINS);

out:
    if (gpu) {
        hd_free(gpu, ddata);
        hd_free(gpu, dbins);
    }
    free(data);
    return rc;
}

const struct hd_workload hd_workload_histogram = {
    .name = "histogram",
    .description = "256-bin byte histogram: shared-memory atomics per CTA, then global atomics",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .locality_hint = 3, /* Gong Table 6.2 HS: type 3 */
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_histogram_tb64 = {
    .name = "histogram_tb64",
    .description = "histogram variant: 64 threads per CTA",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .variant_of = "histogram",
    .variant_flags = "-DTB=64",
};
const struct hd_workload hd_workload_histogram_tb128 = {
    .name = "histogram_tb128",
    .description = "histogram variant: 128 threads per CTA",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .variant_of = "histogram",
    .variant_flags = "-DTB=128",
};
const struct hd_workload hd_workload_histogram_tb512 = {
    .name = "histogram_tb512",
    .description = "histogram variant: 512 threads per CTA",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .variant_of = "histogram",
    .variant_flags = "-DTB=512",
};
const struct hd_workload hd_workload_histogram_tb1024 = {
    .name = "histogram_tb1024",
    .description = "histogram variant: 1024 threads per CTA",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .variant_of = "histogram",
    .variant_flags = "-DTB=1024",
};
const struct hd_workload hd_workload_histogram_s4 = {
    .name = "histogram_s4",
    .description =
        "histogram variant: 4 sub-histograms per CTA (4 KB shared memory), fewer collisions",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .variant_of = "histogram",
    .variant_flags = "-DHIST_COPIES=4",
};
const struct hd_workload hd_workload_histogram_s8 = {
    .name = "histogram_s8",
    .description = "histogram variant: 8 sub-histograms per CTA (8 KB shared memory), one per warp",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .variant_of = "histogram",
    .variant_flags = "-DHIST_COPIES=8",
};
const struct hd_workload hd_workload_histogram_tb1024_s8 = {
    .name = "histogram_tb1024_s8",
    .description = "histogram variant: 1024 threads and 8 sub-histograms (8 KB) per CTA",
    .klass = "memory",
    .idempotent = false,
    .run = hist_run,
    .variant_of = "histogram",
    .variant_flags = "-DTB=1024 -DHIST_COPIES=8",
};
/* }==== */
