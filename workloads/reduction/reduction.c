/* SPDX-License-Identifier: MIT
 * reduction.c - host driver for reduction: the sum of a float array in passes of reduce_sum.
 *
 * Pass 1 reduces the n inputs to ceil(n / 512) partial sums (256-thread CTAs, each summing 512
 * elements, 1 KiB of dynamic shared memory); the host launches the same kernel on the partial
 * sums until one value is left. Each pass writes its own buffer (none is reused), so every pass
 * can be checked after the run and every launch is idempotent.
 *
 * The reference replays the kernel's additions in the kernel's order (first the pair loaded by
 * each thread, then the shared-memory tree, then the shuffle tree) in binary32 with round to
 * nearest, which is what add.f32 computes; floating-point addition is commutative, so the
 * result is bit-identical and every pass is compared with zero tolerance. (A tolerance on the
 * final sum alone would hide a lost element: one value < 1 in a sum of millions is below the
 * rounding error.) Inputs are uniform in [0, 1): no cancellation, so the final sum is also
 * compared with the exact double-precision sum to bound the rounding error, as a sanity check.
 *
 * Variants (ptx.flags, README) change the threads per CTA (TB) and the elements each thread adds
 * before the tree (ITEMS); the driver reads them back from the variant's flags, sizes the passes
 * and the shared memory accordingly, and the replay follows the same order.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>

#define RED_BLOCK 256u /* default threads per CTA (TB); a power of two, 64 to 1024 */
#define RED_ITEMS 2u   /* default elements per thread before the tree (ITEMS); must match .cu */
#define RED_MAX_BLOCK 1024u
#define RED_MAX_PASSES 8

static size_t red_elements(enum hd_wl_size size)
{
    switch (size) {
    /* Warp instructions measured on the functional model. */
    case HD_WL_SMALL: return 262144 - 5;     /* 0.26M, 2 passes */
    case HD_WL_MEDIUM: return 4194304 - 5;   /* 4.1M, 3 passes */
    case HD_WL_LARGE: return 16777216 - 5;   /* 16.4M, 3 passes */
    }
    return 0;
}

/* One pass of reduce_sum (tb threads, items elements each) on the host, addition by addition. */
static void red_replay(const float *in, size_t n, float *out, unsigned tb, unsigned items)
{
    const size_t per_cta = (size_t)items * tb;
    size_t nctas = (n + per_cta - 1) / per_cta;
    float p[RED_MAX_BLOCK];
    for (size_t b = 0; b < nctas; b++) {
        size_t base = b * per_cta;
        for (unsigned t = 0; t < tb; t++) {
            size_t i = base + t;
            float v = 0.0f;
            if (i < n)
                v = in[i];
            for (unsigned c = 1; c < items; c++)
                if (i + (size_t)c * tb < n)
                    v = v + in[i + (size_t)c * tb];
            p[t] = v;
        }
        for (unsigned s = tb / 2; s >= 32; s >>= 1)
            for (unsigned t = 0; t < s; t++)
                p[t] = p[t] + p[t + s];
        for (unsigned off = 16; off > 0; off >>= 1)
            for (unsigned l = 0; l < off; l++)
                p[l] = p[l] + p[l + off];
        out[b] = p[0];
    }
}

int reduction_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const size_t n = red_elements(ctx->size);
    const char *flags = hd_wl_variant_flags(ctx);
    const long tbl = hd_wl_flag(flags, "TB", RED_BLOCK);
    const long itl = hd_wl_flag(flags, "ITEMS", RED_ITEMS);
    if (tbl < 64 || tbl > (long)RED_MAX_BLOCK || (tbl & (tbl - 1)) != 0 || itl < 1 || itl > 16)
        return hd_wl_fail(ctx, "reduction: TB=%ld ITEMS=%ld: TB is a power of two from 64 to %u, "
                               "ITEMS 1 to 16", tbl, itl, RED_MAX_BLOCK);
    const unsigned tb = (unsigned)tbl, items = (unsigned)itl;
    const size_t per_cta = (size_t)tb * items;
    size_t count[RED_MAX_PASSES + 1]; /* count[0] = n, count[k] = outputs of pass k */
    hd_devptr dbuf[RED_MAX_PASSES + 1] = {0};
    float *hbuf[RED_MAX_PASSES + 1] = {NULL};
    float *ref = NULL, *got = NULL;
    struct hd_module *mod = NULL;
    unsigned passes = 0;
    int rc = HD_OK;

    count[0] = n;
    while (count[passes] > 1 && passes < RED_MAX_PASSES) {
        count[passes + 1] = (count[passes] + per_cta - 1) / per_cta;
        passes++;
    }
    for (unsigned k = 0; k <= passes; k++) {
        hbuf[k] = malloc(count[k] * sizeof(float));
        if (!hbuf[k]) {
            rc = hd_wl_fail(ctx, "reduction: out of host memory");
            goto out;
        }
    }
    ref = malloc(count[1] * sizeof(float));
    got = malloc(count[1] * sizeof(float));
    if (!ref || !got) {
        rc = hd_wl_fail(ctx, "reduction: out of host memory");
        goto out;
    }

    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x726564756365ULL);
    double exact = 0.0;
    for (size_t i = 0; i < n; i++) {
        hbuf[0][i] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
        exact += (double)hbuf[0][i];
    }
    fprintf(ctx->log, "reduction: %zu elements, %u passes, %u threads per block, %u elements per "
                      "thread\n", n, passes, tb, items);

    hd_wl_work(ctx, hd_wl_hash(HD_WL_HASH_INIT, hbuf[0], n * sizeof(float)), "reduction n=%zu", n);
    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const red_kernels[] = {"reduce_sum"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, red_kernels, 1)) != HD_OK)
        goto out;
    for (unsigned k = 0; k <= passes; k++)
        HD_WL_TRY(hd_malloc(gpu, &dbuf[k], count[k] * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dbuf[0], hbuf[0], n * sizeof(float)));
    for (unsigned k = 1; k <= passes; k++)
        HD_WL_TRY(hd_memset(gpu, dbuf[k], 0xff, count[k] * sizeof(float))); /* NaN: unwritten shows */

    for (unsigned k = 1; k <= passes; k++) {
        unsigned int cnt = (unsigned int)count[k - 1];
        struct hd_arg args[] = {HD_ARG(dbuf[k - 1]), HD_ARG(dbuf[k]), HD_ARG(cnt)};
        struct hd_dim3 grid = {(uint32_t)count[k], 1, 1};
        struct hd_dim3 block = {tb, 1, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "reduce_sum", grid, block, tb * (uint32_t)sizeof(float), 0, args,
                      3));
    }
    HD_WL_TRY(hd_synchronize(gpu));

    /* Check every pass against the replay of that pass on the device's own input of it (the
     * previous pass's reference equals the device's when that pass verified). */
    for (unsigned k = 1; k <= passes; k++) {
        rc = hd_wl_check(gpu, ctx, hd_memcpy_d2h(gpu, got, dbuf[k], count[k] * sizeof(float)));
        if (rc != HD_OK)
            goto out;
        red_replay(hbuf[k - 1], count[k - 1], ref, tb, items);
        char what[32];
        snprintf(what, sizeof what, "pass %u partial", k);
        if ((rc = hd_wl_compare_f32(ctx, what, ref, got, count[k], 0.0f, 0.0f)) != HD_OK)
            goto out;
        for (size_t i = 0; i < count[k]; i++)
            hbuf[k][i] = ref[i];
    }

    /* Summing n values in [0, 1) in a tree of depth d = ceil(log2 n) + ITEMS - 1 has a relative
     * error below d * 2^-24 (about 1.5e-6 for 16M elements, 2.4e-6 with ITEMS = 16); 1e-5 leaves
     * a wide margin. */
    float sum = hbuf[passes][0];
    if (fabs((double)sum - exact) > 1e-5 * exact)
        rc = hd_wl_fail(ctx, "sum: %.9g is too far from the exact %.17g", (double)sum, exact);
    else
        fprintf(ctx->log, "reduction: sum %.9g (exact %.17g)\n", (double)sum, exact);

out:
    for (unsigned k = 0; k <= passes; k++) {
        if (gpu)
            hd_free(gpu, dbuf[k]);
        free(hbuf[k]);
    }
    free(ref);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_reduction = {
    .name = "reduction",
    .description = "float sum: shared-memory tree with barriers + warp shuffles, multi-pass",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = reduction_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_reduction_tb64 = {
    .name = "reduction_tb64",
    .description = "reduction variant: 64 threads and 256 B shared memory per CTA",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = reduction_run,
    .variant_of = "reduction",
    .variant_flags = "-DTB=64",
};
const struct hd_workload hd_workload_reduction_tb128 = {
    .name = "reduction_tb128",
    .description = "reduction variant: 128 threads and 512 B shared memory per CTA",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = reduction_run,
    .variant_of = "reduction",
    .variant_flags = "-DTB=128",
};
const struct hd_workload hd_workload_reduction_tb512 = {
    .name = "reduction_tb512",
    .description = "reduction variant: 512 threads and 2 KB shared memory per CTA",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = reduction_run,
    .variant_of = "reduction",
    .variant_flags = "-DTB=512",
};
const struct hd_workload hd_workload_reduction_tb1024 = {
    .name = "reduction_tb1024",
    .description = "reduction variant: 1024 threads and 4 KB shared memory per CTA",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = reduction_run,
    .variant_of = "reduction",
    .variant_flags = "-DTB=1024",
};
const struct hd_workload hd_workload_reduction_c8 = {
    .name = "reduction_c8",
    .description = "reduction variant: 8 elements per thread before the tree (more registers)",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = reduction_run,
    .variant_of = "reduction",
    .variant_flags = "-DITEMS=8",
};
const struct hd_workload hd_workload_reduction_c8_r16 = {
    .name = "reduction_c8_r16",
    .description = "reduction variant: 8 elements per thread, at most 16 registers",
    .klass = "barrier-heavy",
    .idempotent = true,
    .run = reduction_run,
    .variant_of = "reduction",
    .variant_flags = "-DITEMS=8 -DMAXREG=16",
};
/* }==== */
