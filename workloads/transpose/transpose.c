/* SPDX-License-Identifier: MIT
 * transpose.c - host driver for the tiled matrix transpose (SDK-like).
 *
 * Input: an h x w matrix of random 32-bit words (h != w, neither always a multiple of the 32
 * tile, to exercise the partial tiles). Output: w x h. Checked word for word.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define TR_TILE 32 /* must match transpose.cu */
#define TR_ROWS 8

struct tr_dims {
    int w, h; /* of the input */
};

static const struct tr_dims tr_sizes[3] = {
    {400, 250},   /* small: 0.11M warp instructions */
    {2000, 1000}, /* medium: 2.1M */
    {4096, 4000}, /* large: 17M */
};

#define TR_TRY(call)                                                                            \
    do {                                                                                        \
        st = (call);                                                                            \
        if (st != HD_OK) {                                                                      \
            st = hd_wl_check(gpu, ctx, st);                                                     \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static int tr_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const struct tr_dims d = tr_sizes[ctx->size];
    const size_t ne = (size_t)d.w * (size_t)d.h;
    uint32_t *h_in = malloc(ne * sizeof(uint32_t)), *h_out = malloc(ne * sizeof(uint32_t));
    uint32_t *ref = malloc(ne * sizeof(uint32_t));
    hd_devptr din = 0, dout = 0;
    struct hd_module *mod = NULL;
    int st = HD_OK;

    if (!h_in || !h_out || !ref) {
        st = hd_wl_fail(ctx, "transpose: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x5452414e530001ULL);
    for (size_t i = 0; i < ne; i++)
        h_in[i] = hd_wl_rng_u32(&rng);
    for (size_t r = 0; r < (size_t)d.h; r++)
        for (size_t c = 0; c < (size_t)d.w; c++)
            ref[c * (size_t)d.h + r] = h_in[r * (size_t)d.w + c];

    if ((st = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    TR_TRY(hd_malloc(gpu, &din, ne * sizeof(uint32_t)));
    TR_TRY(hd_malloc(gpu, &dout, ne * sizeof(uint32_t)));
    TR_TRY(hd_memcpy_h2d(gpu, din, h_in, ne * sizeof(uint32_t)));
    TR_TRY(hd_memset(gpu, dout, 0xa5, ne * sizeof(uint32_t)));
    int w = d.w, h = d.h;
    struct hd_arg args[] = {HD_ARG(din), HD_ARG(dout), HD_ARG(w), HD_ARG(h)};
    struct hd_dim3 grid = {(uint32_t)((w + TR_TILE - 1) / TR_TILE),
                           (uint32_t)((h + TR_TILE - 1) / TR_TILE), 1};
    struct hd_dim3 block = {TR_TILE, TR_ROWS, 1};
    TR_TRY(hd_launch(gpu, mod, "transpose_tiled", grid, block, 0, 0, args, 4));
    TR_TRY(hd_synchronize(gpu));
    TR_TRY(hd_memcpy_d2h(gpu, h_out, dout, ne * sizeof(uint32_t)));
    st = hd_wl_compare_u32(ctx, "transposed", ref, h_out, ne);
    if (st == HD_OK)
        fprintf(ctx->log, "transpose: %dx%d -> %dx%d verified\n", d.h, d.w, d.w, d.h);

out:
    hd_free(gpu, din);
    hd_free(gpu, dout);
    free(h_in);
    free(h_out);
    free(ref);
    return st;
}

const struct hd_workload hd_workload_transpose = {
    .name = "transpose",
    .description = "matrix transpose through a padded 32x33 shared-memory tile",
    .klass = "memory",
    .idempotent = true, /* reads `in`, writes `out` */
    .run = tr_run,
    .locality_hint = 1, /* Gong Table 6.2 MT: type 1 */
};
