/* SPDX-License-Identifier: MIT
 * vecadd.c - host driver for vecadd: c = a + b on float vectors.
 *
 * Inputs are uniform in [-1, 1) from a fixed seed; the element count is deliberately not a
 * multiple of the block size so that the last CTA has idle threads. The reference is the same
 * single addition on the host: IEEE-754 binary32 addition rounded to nearest is exact-to-the-bit
 * on both sides (add.f32 defaults to .rn, and C evaluates float + float in float on x86-64 and
 * AArch64), so the check uses zero tolerance.
 */
#include "workload.h"

#include <stdlib.h>

#define VECADD_BLOCK 256

static size_t vecadd_elements(enum hd_wl_size size)
{
    switch (size) {
    /* Warp instructions measured on the functional model. */
    case HD_WL_SMALL: return 65536 - 77;      /* 45K */
    case HD_WL_MEDIUM: return 1048576 - 77;   /* 0.72M */
    case HD_WL_LARGE: return 8388608 - 77;    /* 5.8M, 96 MiB of device memory */
    }
    return 0;
}

static int vecadd_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const size_t n = vecadd_elements(ctx->size);
    const size_t bytes = n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *ref = malloc(bytes);
    hd_devptr da = 0, db = 0, dc = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!a || !b || !c || !ref) {
        rc = hd_wl_fail(ctx, "vecadd: out of host memory (%zu elements)", n);
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x766563616464ULL);
    for (size_t i = 0; i < n; i++) {
        a[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
        b[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
        ref[i] = a[i] + b[i];
    }
    fprintf(ctx->log, "vecadd: %zu elements, %u threads per block\n", n, VECADD_BLOCK);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &da, bytes));
    HD_WL_TRY(hd_malloc(gpu, &db, bytes));
    HD_WL_TRY(hd_malloc(gpu, &dc, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, da, a, bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, db, b, bytes));
    HD_WL_TRY(hd_memset(gpu, dc, 0xff, bytes)); /* NaN everywhere: an unwritten element shows */

    int n32 = (int)n;
    struct hd_arg args[] = {HD_ARG(da), HD_ARG(db), HD_ARG(dc), HD_ARG(n32)};
    struct hd_dim3 grid = {(uint32_t)((n + VECADD_BLOCK - 1) / VECADD_BLOCK), 1, 1};
    struct hd_dim3 block = {VECADD_BLOCK, 1, 1};
    HD_WL_TRY(hd_launch(gpu, mod, "vecadd", grid, block, 0, 0, args, 4));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, c, dc, bytes));

    rc = hd_wl_compare_f32(ctx, "c", ref, c, n, 0.0f, 0.0f);

out:
    if (gpu) {
        hd_free(gpu, da);
        hd_free(gpu, db);
        hd_free(gpu, dc);
    }
    free(a);
    free(b);
    free(c);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_vecadd = {
    .name = "vecadd",
    .description = "vector add c = a + b (float), one thread per element",
    .klass = "memory",
    .idempotent = true,
    .run = vecadd_run,
};
