/* SPDX-License-Identifier: MIT
 * fwt.c - host driver of fwt: the fast Walsh-Hadamard transform of N = 2^L floats, in place.
 *
 * Launches: fwt_radix4_global for stride pairs (2^(l-1), 2^(l-2)) while l > FWT_SHARED_LOG2
 * (l = L, L-2, ...), then fwt_shared once for the remaining l <= FWT_SHARED_LOG2 stages on chunks
 * of 2^l elements (dynamic shared memory 4 * 2^l bytes, 2^l / 4 threads per CTA), as the SDK's
 * fastWalshTransform does.
 *
 * Inputs are small integers (-2 .. 2) stored as floats. Every partial sum of the transform is an
 * integer of magnitude at most 2 N <= 2^24 (N <= 2^23), and floats represent all such integers, so
 * each addition and subtraction is exact in any order: the output must equal the integer
 * transform (computed on the host with int32 butterflies) exactly, tolerance zero.
 */
#include "workload.h"

#include <stdlib.h>

#define FWT_SHARED_LOG2 11 /* must match fwt.cu */
#define FWT_TB 256         /* threads per CTA of fwt_radix4_global (its launch bounds) */

static int fwt_log2n(enum hd_wl_size size)
{
    /* Warp instructions: small (2^17) 0.30 M: three radix-4 launches and 64 chunks of 2048;
     * medium (2^20) 2.6 M; large (2^23, Gong's range ends at 2^19) 24 M: 8192 CTAs per radix-4
     * launch, 4096 in fwt_shared, many waves on 16 SMs. */
    static const int l[3] = {17, 20, 23};
    return l[size];
}

static void fwt_reference(int32_t *v, size_t n)
{
    for (size_t s = n / 2; s >= 1; s /= 2)
        for (size_t i = 0; i < n; i++)
            if (!(i & s)) {
                int32_t x = v[i], y = v[i + s];
                v[i] = x + y;
                v[i + s] = x - y;
            }
}

static int fwt_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int log2n = fwt_log2n(ctx->size);
    const size_t n = (size_t)1 << log2n;
    float *h = malloc(n * sizeof(float)), *ref = malloc(n * sizeof(float));
    int32_t *iv = malloc(n * sizeof(int32_t));
    hd_devptr dd = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK, launches = 0;

    if (!h || !ref || !iv) {
        rc = hd_wl_fail(ctx, "fwt: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x77616c7368ULL);
    for (size_t i = 0; i < n; i++) {
        iv[i] = (int32_t)(hd_wl_rng_u32(&rng) % 5u) - 2;
        h[i] = (float)iv[i];
    }

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &dd, n * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dd, h, n * sizeof(float)));
    int l = log2n;
    for (; l > FWT_SHARED_LOG2; l -= 2) {
        int stride_log2 = l - 2, quads = (int)(n / 4);
        struct hd_arg args[] = {HD_ARG(dd), HD_ARG(stride_log2), HD_ARG(quads)};
        struct hd_dim3 grid = {(uint32_t)((quads + FWT_TB - 1) / FWT_TB), 1, 1};
        struct hd_dim3 block = {FWT_TB, 1, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "fwt_radix4_global", grid, block, 0, 0, args, 3));
        launches++;
    }
    {
        int chunk_log2 = l;
        struct hd_arg args[] = {HD_ARG(dd), HD_ARG(chunk_log2)};
        struct hd_dim3 grid = {(uint32_t)(n >> l), 1, 1};
        struct hd_dim3 block = {(uint32_t)1 << (l - 2), 1, 1};
        HD_WL_TRY(hd_launch(gpu, mod, "fwt_shared", grid, block, (uint32_t)(4u << l), 0, args, 2));
        launches++;
    }
    fprintf(ctx->log, "fwt: N = 2^%d, %d radix-4 launches, chunks of 2^%d in shared memory\n",
            log2n, launches - 1, l);
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, h, dd, n * sizeof(float)));

    fwt_reference(iv, n);
    for (size_t i = 0; i < n; i++)
        ref[i] = (float)iv[i];
    rc = hd_wl_compare_f32(ctx, "X", ref, h, n, 0.0f, 0.0f);
    if (rc == HD_OK)
        fprintf(ctx->log, "fwt: %zu coefficients exact\n", n);

out:
    if (gpu)
        hd_free(gpu, dd);
    free(h);
    free(ref);
    free(iv);
    return rc;
}

const struct hd_workload hd_workload_fwt = {
    .name = "fwt",
    .description = "fast Walsh-Hadamard transform: radix-4 global passes, shared-memory chunks",
    .klass = "memory",
    .idempotent = false, /* in-place butterflies (see fwt.cu) */
    .run = fwt_run,
    .locality_hint = 3, /* Gong Table 6.2 FW: type 3 */
};
