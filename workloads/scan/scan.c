/* SPDX-License-Identifier: MIT
 * scan.c - host driver for the exclusive prefix sum (SDK scanLargeArray-like).
 *
 * Input: n random 32-bit unsigned integers (sums wrap modulo 2^32, as on the device); n is not
 * a multiple of the tile. The host scans recursively: scan_block over the data leaves one
 * total per tile; if there is more than one tile, those totals are scanned the same way and
 * scan_add adds each tile's prefix to its elements. Three levels at the large size. The
 * result must equal a sequential exclusive scan exactly.
 *
 * Variants (ptx.flags, README) set SCAN_THREADS (threads per CTA of scan_block, so the tile) and
 * a register cap; the driver reads SCAN_THREADS back from the variant's flags.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>
#include <string.h>

#define SCAN_THREADS 256 /* default; must match scan.cu (variants set it in ptx.flags) */
#define SCAN_ADD_BLOCK 256
#define SCAN_MAX_BUFS 32

/* Warp instructions: small 94K, medium 2.3M, large 18M. */
static const unsigned scan_sizes[3] = {20000, 500000, 4000000};
#define SCAN_WAVES_N 131000u

struct scan_state {
    struct hd_gpu *gpu;
    struct hd_wl_ctx *ctx;
    struct hd_module *mod;
    unsigned threads, tile;        /* of scan_block: SCAN_THREADS and 2 * SCAN_THREADS */
    hd_devptr bufs[SCAN_MAX_BUFS]; /* every allocation, freed at the end */
    int nbufs;
    int levels;
    int launches;
};

static int scan_alloc(struct scan_state *s, hd_devptr *out, size_t bytes)
{
    if (s->nbufs == SCAN_MAX_BUFS)
        return hd_wl_fail(s->ctx, "scan: more than %d device buffers", SCAN_MAX_BUFS);
    int st = hd_malloc(s->gpu, out, bytes);
    if (st != HD_OK)
        return hd_wl_check(s->gpu, s->ctx, st);
    s->bufs[s->nbufs++] = *out;
    return HD_OK;
}

/* Queues the exclusive scan of n words at `in` into `out` (distinct buffers). */
static int scan_level(struct scan_state *s, hd_devptr in, hd_devptr out, unsigned n)
{
    const unsigned tiles = (n + s->tile - 1) / s->tile;
    hd_devptr sums = 0, partial = out;
    int st;
    s->levels++;
    if ((st = scan_alloc(s, &sums, tiles * sizeof(uint32_t))) != HD_OK)
        return st;
    if (tiles > 1 && (st = scan_alloc(s, &partial, (size_t)n * sizeof(uint32_t))) != HD_OK)
        return st;
    struct hd_arg a_block[] = {HD_ARG(in), HD_ARG(partial), HD_ARG(sums), HD_ARG(n)};
    struct hd_dim3 grid = {tiles, 1, 1}, block = {s->threads, 1, 1};
    st = hd_launch(s->gpu, s->mod, "scan_block", grid, block, 0, 0, a_block, 4);
    if (st != HD_OK)
        return hd_wl_check(s->gpu, s->ctx, st);
    s->launches++;
    if (tiles == 1)
        return HD_OK;

    hd_devptr scanned = 0;
    if ((st = scan_alloc(s, &scanned, tiles * sizeof(uint32_t))) != HD_OK)
        return st;
    if ((st = scan_level(s, sums, scanned, tiles)) != HD_OK)
        return st;
    struct hd_arg a_add[] = {HD_ARG(partial), HD_ARG(scanned), HD_ARG(out), HD_ARG(n)};
    struct hd_dim3 grid_add = {(n + SCAN_ADD_BLOCK - 1) / SCAN_ADD_BLOCK, 1, 1};
    struct hd_dim3 block_add = {SCAN_ADD_BLOCK, 1, 1};
    st = hd_launch(s->gpu, s->mod, "scan_add", grid_add, block_add, 0, 0, a_add, 4);
    if (st != HD_OK)
        return hd_wl_check(s->gpu, s->ctx, st);
    s->launches++;
    return HD_OK;
}

int scan_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    /* --size waves (issue 32 item 6, workloads/README.md "Occupancy-length inputs"): more
     * elements, two per thread, so more tiles (CTAs) of the same footprint. */
    const unsigned n = ctx->waves ? SCAN_WAVES_N : scan_sizes[ctx->size];
    uint32_t *h_in = malloc(n * sizeof(uint32_t)), *h_out = malloc(n * sizeof(uint32_t));
    uint32_t *ref = malloc(n * sizeof(uint32_t));
    struct scan_state s = {.gpu = gpu, .ctx = ctx};
    hd_devptr din = 0, dout = 0;
    int st = HD_OK;
    const long threads = hd_wl_flag(hd_wl_variant_flags(ctx), "SCAN_THREADS", SCAN_THREADS);
    if (threads < 32 || threads > 1024 || (threads & (threads - 1)) != 0) {
        free(h_in);
        free(h_out);
        free(ref);
        return hd_wl_fail(ctx, "scan: SCAN_THREADS=%ld: a power of two from 32 to 1024", threads);
    }
    s.threads = (unsigned)threads;
    s.tile = 2 * s.threads;

    if (!h_in || !h_out || !ref) {
        st = hd_wl_fail(ctx, "scan: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x5343414e0001ULL);
    uint32_t acc = 0;
    for (unsigned i = 0; i < n; i++) {
        h_in[i] = hd_wl_rng_u32(&rng);
        ref[i] = acc;
        acc += h_in[i];
    }

    hd_wl_work(ctx, hd_wl_hash(HD_WL_HASH_INIT, h_in, n * sizeof(uint32_t)), "scan n=%u", n);
    if ((st = hd_wl_load_module(gpu, ctx, &s.mod)) != HD_OK)
        goto out;
    static const char *const scan_kernels[] = {"scan_block"};
    if ((st = hd_wl_pin_regspec(gpu, ctx, s.mod, scan_kernels, 1)) != HD_OK)
        goto out;
    if ((st = scan_alloc(&s, &din, n * sizeof(uint32_t))) != HD_OK ||
        (st = scan_alloc(&s, &dout, n * sizeof(uint32_t))) != HD_OK)
        goto out;
    st = hd_memcpy_h2d(gpu, din, h_in, n * sizeof(uint32_t));
    if (st == HD_OK)
        st = hd_memset(gpu, dout, 0xa5, n * sizeof(uint32_t));
    if (st != HD_OK) {
        st = hd_wl_check(gpu, ctx, st);
        goto out;
    }
    if ((st = scan_level(&s, din, dout, n)) != HD_OK)
        goto out;
    st = hd_synchronize(gpu);
    if (st == HD_OK)
        st = hd_memcpy_d2h(gpu, h_out, dout, n * sizeof(uint32_t));
    if (st != HD_OK) {
        st = hd_wl_check(gpu, ctx, st);
        goto out;
    }
    st = hd_wl_compare_u32(ctx, "exclusive scan", ref, h_out, n);
    if (st == HD_OK)
        fprintf(ctx->log, "scan: %u elements, %u-element tiles, %d levels, %d launches verified\n",
                n, s.tile, s.levels, s.launches);

out:
    for (int i = 0; i < s.nbufs; i++)
        hd_free(gpu, s.bufs[i]);
    free(h_in);
    free(h_out);
    free(ref);
    return st;
}

const struct hd_workload hd_workload_scan = {
    .name = "scan",
    .description = "exclusive prefix sum: Blelloch scan per CTA, recursive block-sums pass",
    .klass = "barrier-heavy",
    .idempotent = true, /* every kernel writes buffers it does not read */
    .run = scan_run,
    .locality_hint = 3, /* Gong Table 6.2 SC: type 3 */
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_scan_tb64 = {
    .name = "scan_tb64",
    .description = "scan variant: 64 threads per CTA, 128-element tiles (528 B shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = scan_run,
    .variant_of = "scan",
    .variant_flags = "-DSCAN_THREADS=64",
};
const struct hd_workload hd_workload_scan_tb128 = {
    .name = "scan_tb128",
    .description = "scan variant: 128 threads per CTA, 256-element tiles (1 KB shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = scan_run,
    .variant_of = "scan",
    .variant_flags = "-DSCAN_THREADS=128",
};
const struct hd_workload hd_workload_scan_tb512 = {
    .name = "scan_tb512",
    .description = "scan variant: 512 threads per CTA, 1024-element tiles (4 KB shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = scan_run,
    .variant_of = "scan",
    .variant_flags = "-DSCAN_THREADS=512",
};
const struct hd_workload hd_workload_scan_tb1024 = {
    .name = "scan_tb1024",
    .description = "scan variant: 1024 threads per CTA, 2048-element tiles (8 KB shared memory)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = scan_run,
    .variant_of = "scan",
    .variant_flags = "-DSCAN_THREADS=1024",
};
const struct hd_workload hd_workload_scan_r24 = {
    .name = "scan_r24",
    .description = "scan variant: scan_block with at most 24 registers per thread (__maxnreg__)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = scan_run,
    .variant_of = "scan",
    .variant_flags = "-DMAXREG=24",
};
const struct hd_workload hd_workload_scan_r16 = {
    .name = "scan_r16",
    .description = "scan variant: scan_block with at most 16 registers per thread (__maxnreg__)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = scan_run,
    .variant_of = "scan",
    .variant_flags = "-DMAXREG=16",
};
/* }==== */
