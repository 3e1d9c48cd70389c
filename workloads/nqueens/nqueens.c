/* SPDX-License-Identifier: MIT
 * nqueens.c - host driver of the nqueens workload: count the N-queens solutions by completing every
 * legal placement of the first `prefix` rows on the device (nq_solve, one thread per prefix).
 *
 * The driver enumerates the prefixes depth-first, launches one thread each with a stack of
 * (n - prefix - 1) levels x 4 words per thread in dynamic shared memory, and checks every
 * per-prefix count exactly against a recursive CPU count, and the total against the known number
 * of solutions.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <stdlib.h>

#define NQ_BLOCK 128

struct nq_size {
    int n, prefix;
};

static const struct nq_size nq_sizes[3] = {
    {10, 4}, /* 1400 prefixes, ~0.24 M warp instructions */
    {12, 4}, /* 4080 prefixes, ~6.6 M */
    {13, 4}, /* 6404 prefixes, ~36 M */
};
/* Paper (issue 26 item 4): the same board split one row deeper, 31,100 prefixes (244 CTAs of 128,
 * 5.4 waves at 3 CTAs/SM on 15 SMs; large's 51 CTAs make 1.1), 7 x 16 B of stack per thread. */
static const struct nq_size nq_paper = {13, 5};
/* --size waves (issue 32 item 6, workloads/README.md "Occupancy-length inputs"): a board split
 * deeper, so many more prefixes (threads, hence CTAs of the same footprint) with less search
 * each: n = 11 at 6 rows, 21,362 prefixes, 4 rows of stack (the grid's SMEM holds up to 10). */
static const struct nq_size nq_waves = {11, 6};

/* Known totals (OEIS A000170) for n = 0 .. 16, a check independent of both searches. */
static const uint64_t nq_known[17] = {1,   1,    0,     0,     2,      10,     4,       40,      92,
                                      352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};

struct nq_prefixes {
    unsigned *mask; /* 3 per prefix: cols, left, right */
    int count, cap;
};

static int nq_enum(struct nq_prefixes *p, int n, int rows_left, unsigned cols, unsigned left,
                   unsigned right)
{
    const unsigned full = (1u << n) - 1u;
    if (rows_left == 0) {
        if (p->count == p->cap) {
            int cap = p->cap ? 2 * p->cap : 1024;
            unsigned *m = realloc(p->mask, sizeof(unsigned) * 3 * (size_t)cap);
            if (!m)
                return -1;
            p->mask = m;
            p->cap = cap;
        }
        p->mask[3 * p->count] = cols;
        p->mask[3 * p->count + 1] = left;
        p->mask[3 * p->count + 2] = right;
        p->count++;
        return 0;
    }
    for (unsigned avail = full & ~(cols | left | right); avail;) {
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        if (nq_enum(p, n, rows_left - 1, cols | bit, ((left | bit) << 1) & full,
                    (right | bit) >> 1) != 0)
            return -1;
    }
    return 0;
}

static unsigned nq_ref_count(int n, int rows_left, unsigned cols, unsigned left, unsigned right)
{
    const unsigned full = (1u << n) - 1u;
    unsigned total = 0;
    for (unsigned avail = full & ~(cols | left | right); avail;) {
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        total += rows_left == 1 ? 1u
                                : nq_ref_count(n, rows_left - 1, cols | bit,
                                               ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    return total;
}

int nqueens_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const struct nq_size sz = ctx->waves ? nq_waves : ctx->paper ? nq_paper : nq_sizes[ctx->size];
    const int rows = sz.n - sz.prefix;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    struct nq_prefixes pre = {0};
    hd_devptr d_prefix = 0, d_count = 0;
    unsigned *count = NULL;

    if (nq_enum(&pre, sz.n, sz.prefix, 0, 0, 0) != 0 ||
        !(count = malloc(sizeof(unsigned) * (size_t)pre.count))) {
        rc = hd_wl_fail(ctx, "nqueens: out of host memory");
        goto out;
    }
    /* A grid point gives threads per CTA (TB) and scratchpad per CTA (SMEM, bytes); the stack
     * needs (rows - 1) x 4 words per thread of it, and the rest stays unused, as in a program
     * that specifies more scratchpad than it touches. */
    const long tb = hd_wl_spec_threads(ctx, "nqueens", "TB", NQ_BLOCK);
    if (tb < 0) {
        rc = HD_WL_MISMATCH;
        goto out;
    }
    const long need = (long)(rows - 1) * 4 * tb * (long)sizeof(unsigned);
    const long smeml = hd_wl_flag(hd_wl_variant_flags(ctx), "SMEM", need);
    if (smeml < need || smeml > 65536) {
        rc = hd_wl_fail(ctx, "nqueens: SMEM=%ld: the stack of %ld threads needs %ld bytes (at "
                        "most 65536)", smeml, tb, need);
        goto out;
    }
    const uint32_t smem = (uint32_t)smeml;
    fprintf(ctx->log, "nqueens: n=%d, %d prefixes of %d rows, %d rows each by backtracking, "
            "%u B shared per CTA\n", sz.n, pre.count, sz.prefix, rows, smem);
    hd_wl_work(ctx, hd_wl_hash(HD_WL_HASH_INIT, pre.mask, sizeof(unsigned) * 3 * (size_t)pre.count),
               "nqueens n=%d prefixes=%d", sz.n, pre.count);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_prefix, sizeof(unsigned) * 3 * (size_t)pre.count));
    HD_WL_TRY(hd_malloc(gpu, &d_count, sizeof(unsigned) * (size_t)pre.count));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_prefix, pre.mask, sizeof(unsigned) * 3 * (size_t)pre.count));
    HD_WL_TRY(hd_memset(gpu, d_count, 0xff, sizeof(unsigned) * (size_t)pre.count));
    struct hd_dim3 grid = {(uint32_t)((pre.count + tb - 1) / tb), 1, 1};
    struct hd_dim3 block = {(uint32_t)tb, 1, 1};
    struct hd_arg args[] = {HD_ARG(d_prefix), HD_ARG(pre.count), HD_ARG(sz.n), HD_ARG(rows),
                            HD_ARG(d_count)};
    HD_WL_TRY(hd_launch(gpu, mod, "nq_solve", grid, block, smem, 0, args, 5));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, count, d_count, sizeof(unsigned) * (size_t)pre.count));

    uint64_t total = 0;
    for (int p = 0; p < pre.count; p++) {
        const unsigned *m = pre.mask + 3 * p;
        unsigned want = nq_ref_count(sz.n, rows, m[0], m[1], m[2]);
        if (count[p] != want) {
            rc = hd_wl_fail(ctx, "nqueens: prefix %d (cols 0x%x): expected %u solutions, got %u",
                            p, m[0], want, count[p]);
            goto out;
        }
        total += count[p];
    }
    if (total != nq_known[sz.n]) {
        rc = hd_wl_fail(ctx, "nqueens: %d queens: %llu solutions, the known count is %llu", sz.n,
                        (unsigned long long)total, (unsigned long long)nq_known[sz.n]);
        goto out;
    }
    fprintf(ctx->log, "nqueens: %llu solutions\n", (unsigned long long)total);

out:
    hd_free(gpu, d_prefix);
    hd_free(gpu, d_count);
    free(pre.mask);
    free(count);
    return rc;
}

const struct hd_workload hd_workload_nqueens = {
    .name = "nqueens",
    .description = "N-queens solution count: per-thread backtracking with a shared-memory stack",
    .klass = "divergent",
    .idempotent = true,
    .run = nqueens_run,
};
