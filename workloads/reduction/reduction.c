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
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define RED_BLOCK 256u                 /* threads per CTA; a power of two >= 64 */
#define RED_PER_CTA (2u * RED_BLOCK)   /* elements summed by one CTA */
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

/* One pass of reduce_sum on the host, addition by addition. */
static void red_replay(const float *in, size_t n, float *out)
{
    size_t nctas = (n + RED_PER_CTA - 1) / RED_PER_CTA;
    float p[RED_BLOCK];
    for (size_t b = 0; b < nctas; b++) {
        size_t base = b * RED_PER_CTA;
        for (unsigned t = 0; t < RED_BLOCK; t++) {
            size_t i = base + t, j = i + RED_BLOCK;
            float v = 0.0f;
            if (i < n)
                v = in[i];
            if (j < n)
                v = v + in[j];
            p[t] = v;
        }
        for (unsigned s = RED_BLOCK / 2; s >= 32; s >>= 1)
            for (unsigned t = 0; t < s; t++)
                p[t] = p[t] + p[t + s];
        for (unsigned off = 16; off > 0; off >>= 1)
            for (unsigned l = 0; l < off; l++)
                p[l] = p[l] + p[l + off];
        out[b] = p[0];
    }
}

static int red_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const size_t n = red_elements(ctx->size);
    size_t count[RED_MAX_PASSES + 1]; /* count[0] = n, count[k] = outputs of pass k */
    hd_devptr dbuf[RED_MAX_PASSES + 1] = {0};
    float *hbuf[RED_MAX_PASSES + 1] = {NULL};
    float *ref = NULL, *got = NULL;
    struct hd_module *mod = NULL;
    unsigned passes = 0;
    int rc = HD_OK;

    count[0] = n;
    while (count[passes] > 1 && passes < RED_MAX_PASSES) {
        count[passes + 1] = (count[passes] + RED_PER_CTA - 1) / RED_PER_CTA;
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
    fprintf(ctx->log, "reduction: %zu elements, %u passes, %u threads per block\n", n, passes,
            RED_BLOCK);

#define TRY(call)                              \
    do {                                       \
        rc = hd_wl_check(gpu, ctx, (call));    \
        if (rc != HD_OK)                       \
            goto out;                          \
    } while (0)

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    for (unsigned k = 0; k <= passes; k++)
        TRY(hd_malloc(gpu, &dbuf[k], count[k] * sizeof(float)));
    TRY(hd_memcpy_h2d(gpu, dbuf[0], hbuf[0], n * sizeof(float)));
    for (unsigned k = 1; k <= passes; k++)
        TRY(hd_memset(gpu, dbuf[k], 0xff, count[k] * sizeof(float))); /* NaN: unwritten shows */

    for (unsigned k = 1; k <= passes; k++) {
        unsigned int cnt = (unsigned int)count[k - 1];
        struct hd_arg args[] = {HD_ARG(dbuf[k - 1]), HD_ARG(dbuf[k]), HD_ARG(cnt)};
        struct hd_dim3 grid = {(uint32_t)count[k], 1, 1};
        struct hd_dim3 block = {RED_BLOCK, 1, 1};
        TRY(hd_launch(gpu, mod, "reduce_sum", grid, block, RED_BLOCK * sizeof(float), 0, args, 3));
    }
    TRY(hd_synchronize(gpu));
#undef TRY

    /* Check every pass against the replay of that pass on the device's own input of it (the
     * previous pass's reference equals the device's when that pass verified). */
    for (unsigned k = 1; k <= passes; k++) {
        rc = hd_wl_check(gpu, ctx, hd_memcpy_d2h(gpu, got, dbuf[k], count[k] * sizeof(float)));
        if (rc != HD_OK)
            goto out;
        red_replay(hbuf[k - 1], count[k - 1], ref);
        char what[32];
        snprintf(what, sizeof what, "pass %u partial", k);
        if ((rc = hd_wl_compare_f32(ctx, what, ref, got, count[k], 0.0f, 0.0f)) != HD_OK)
            goto out;
        for (size_t i = 0; i < count[k]; i++)
            hbuf[k][i] = ref[i];
    }

    /* Summing n values in [0, 1) in a tree of depth d = ceil(log2 n) + 1 has a relative error
     * below d * 2^-24 (about 1.5e-6 for 16M elements); 1e-5 leaves a wide margin. */
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
    .run = red_run,
};
