/* SPDX-License-Identifier: MIT
 * spill.c - host driver for spill: 251 float values live at once per thread (spill.cu), the
 * robustness issue's register-spill reproducer (issue 17) as a verified workload.
 *
 * On a 63-register target (fermi-gtx480) the register allocator keeps 61 words in registers and
 * spills the rest to local memory; the timing model issues their fills and stores through the
 * LD/ST unit and the memory system (model/timing/sm_spill.c), so the run's cycles include the
 * spill traffic (sm.spill_fills, sm.spill_stores, sm.lmem_requests) while the result, computed
 * by the functional model from its registers, must stay exact. Inputs are uniform in [-1, 1)
 * from a fixed seed; n is not a multiple of the block, so the last CTA has idle threads (they
 * read a valid column and write nothing). The reference folds in the kernel's order,
 * acc = acc * 0.5f + v[k], in float: the halving is exact, so nvcc's fused multiply-add rounds as
 * the separate operations do and the check uses zero tolerance.
 */
#include "workload.h"

#include <stdlib.h>

#define SPILL_BLOCK 128
#define SPILL_LIVE 251 /* spill.cu's default */

static size_t spill_threads(enum hd_wl_size size)
{
    switch (size) {
    /* warp instructions on the functional model: about 520 per warp */
    case HD_WL_SMALL: return 2048 - 37;     /* 33K */
    case HD_WL_MEDIUM: return 16384 - 37;   /* 0.27M */
    case HD_WL_LARGE: return 131072 - 37;   /* 2.1M, 126 MiB of input */
    }
    return 0;
}

static int spill_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const size_t n = spill_threads(ctx->size);
    const size_t in_bytes = n * SPILL_LIVE * sizeof(float), out_bytes = n * sizeof(float);
    float *in = malloc(in_bytes), *out = malloc(out_bytes), *ref = malloc(out_bytes);
    hd_devptr din = 0, dout = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    if (!in || !out || !ref) {
        rc = hd_wl_fail(ctx, "spill: out of host memory (%zu threads)", n);
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x7370696c6cULL);
    for (size_t i = 0; i < n * SPILL_LIVE; i++)
        in[i] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = SPILL_LIVE - 1; k >= 0; k--)
            acc = acc * 0.5f + in[(size_t)k * n + i];
        ref[i] = acc;
    }
    fprintf(ctx->log, "spill: %zu threads, %d values live per thread, %u threads per block\n", n,
            SPILL_LIVE, SPILL_BLOCK);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &din, in_bytes));
    HD_WL_TRY(hd_malloc(gpu, &dout, out_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, din, in, in_bytes));
    HD_WL_TRY(hd_memset(gpu, dout, 0xff, out_bytes)); /* NaN: an unwritten element shows */

    int n32 = (int)n;
    struct hd_arg args[] = {HD_ARG(din), HD_ARG(dout), HD_ARG(n32)};
    struct hd_dim3 grid = {(uint32_t)((n + SPILL_BLOCK - 1) / SPILL_BLOCK), 1, 1};
    struct hd_dim3 block = {SPILL_BLOCK, 1, 1};
    HD_WL_TRY(hd_launch(gpu, mod, "spill_live", grid, block, 0, 0, args, 3));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, out, dout, out_bytes));

    rc = hd_wl_compare_f32(ctx, "out", ref, out, n, 0.0f, 0.0f);

out:
    if (gpu) {
        hd_free(gpu, din);
        hd_free(gpu, dout);
    }
    free(in);
    free(out);
    free(ref);
    return rc;
}

const struct hd_workload hd_workload_spill = {
    .name = "spill",
    .description = "251 float values live per thread: register spills to local memory",
    .klass = "memory",
    .idempotent = true,
    .run = spill_run,
};
