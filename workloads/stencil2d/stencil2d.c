/* SPDX-License-Identifier: MIT
 * stencil2d.c - host driver for stencil2d: Jacobi iterations of a 5-point stencil, ping-ponging.
 *
 * The grid starts uniform in [0, 1) from a fixed seed; each iteration computes
 * out = 0.5 * centre + 0.125 * (north + south + west + east) inside and copies the boundary, on
 * 32x8 CTAs (the small grid is not a multiple of the CTA shape). The host swaps the two device
 * buffers between launches and copies the last one back.
 *
 * The reference runs the same iterations in double. Tolerance: all values and weights are
 * non-negative and the weights sum to 1, so there is no cancellation and an iteration's
 * rounding (at most 6 float operations, each within u = 2^-24 relative) adds at most about 6u
 * relative error while the averaging does not amplify earlier errors; after T iterations the
 * relative error is below 6 T u (1.4e-6 for T = 4). The check uses twice that bound, 12 T u.
 */
#include "workload.h"

#include <stdlib.h>

#define ST_BX 32
#define ST_BY 8

struct st_dims {
    int width, height, iters;
};

static struct st_dims st_dims_of(enum hd_wl_size size)
{
    switch (size) {
    /* Warp instructions measured on the functional model (about 53 per warp of 32 points and
     * iteration: 2048x2048 x 8 iterations gave 55.7M). */
    case HD_WL_SMALL: return (struct st_dims){250, 190, 4};     /* 0.33M */
    case HD_WL_MEDIUM: return (struct st_dims){768, 768, 4};    /* 3.9M */
    case HD_WL_LARGE: return (struct st_dims){2048, 2048, 4};   /* 27.8M */
    }
    return (struct st_dims){0, 0, 0};
}

static void st_reference(const struct st_dims *d, double *a, double *b, double c0, double c1)
{
    const int w = d->width, h = d->height;
    for (int it = 0; it < d->iters; it++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = y * w + x;
                if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                    b[i] = a[i];
                else
                    b[i] = c0 * a[i] + c1 * (a[i - w] + a[i + w] + a[i - 1] + a[i + 1]);
            }
        }
        double *t = a;
        a = b;
        b = t;
    }
}

static int st_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const struct st_dims d = st_dims_of(ctx->size);
    const size_t cells = (size_t)d.width * d.height;
    float *grid0 = malloc(cells * sizeof(float)), *got = malloc(cells * sizeof(float));
    float *ref = malloc(cells * sizeof(float));
    double *ra = malloc(cells * sizeof(double)), *rb = malloc(cells * sizeof(double));
    hd_devptr dbuf[2] = {0, 0};
    struct hd_module *mod = NULL;
    const float c0 = 0.5f, c1 = 0.125f;
    int rc = HD_OK;

    if (!grid0 || !got || !ref || !ra || !rb) {
        rc = hd_wl_fail(ctx, "stencil2d: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x7374656e6369ULL);
    for (size_t i = 0; i < cells; i++) {
        grid0[i] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
        ra[i] = (double)grid0[i];
    }
    st_reference(&d, ra, rb, (double)c0, (double)c1);
    const double *final = (d.iters % 2 == 0) ? ra : rb;
    for (size_t i = 0; i < cells; i++)
        ref[i] = (float)final[i];
    fprintf(ctx->log, "stencil2d: %dx%d grid, %d iterations, %dx%d blocks\n", d.width, d.height,
            d.iters, ST_BX, ST_BY);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &dbuf[0], cells * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &dbuf[1], cells * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, dbuf[0], grid0, cells * sizeof(float)));
    HD_WL_TRY(hd_memset(gpu, dbuf[1], 0xff, cells * sizeof(float))); /* NaN: unwritten shows */

    struct hd_dim3 grid = {(uint32_t)((d.width + ST_BX - 1) / ST_BX),
                           (uint32_t)((d.height + ST_BY - 1) / ST_BY), 1};
    struct hd_dim3 block = {ST_BX, ST_BY, 1};
    for (int it = 0; it < d.iters; it++) {
        hd_devptr src = dbuf[it % 2], dst = dbuf[(it + 1) % 2];
        struct hd_arg args[] = {HD_ARG(src),      HD_ARG(dst), HD_ARG(d.width),
                                HD_ARG(d.height), HD_ARG(c0),  HD_ARG(c1)};
        HD_WL_TRY(hd_launch(gpu, mod, "stencil5", grid, block, 0, 0, args, 6));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, dbuf[d.iters % 2], cells * sizeof(float)));

    const float rel_tol = 12.0f * (float)d.iters / 16777216.0f; /* 2 x 6 T u, see above */
    rc = hd_wl_compare_f32(ctx, "grid", ref, got, cells, rel_tol, 0.0f);

out:
    if (gpu) {
        hd_free(gpu, dbuf[0]);
        hd_free(gpu, dbuf[1]);
    }
    free(grid0);
    free(got);
    free(ref);
    free(ra);
    free(rb);
    return rc;
}

const struct hd_workload hd_workload_stencil2d = {
    .name = "stencil2d",
    .description = "5-point 2-D Jacobi stencil, a few iterations ping-ponging two buffers",
    .klass = "memory",
    .idempotent = true,
    .run = st_run,
    .locality_hint = 2, /* Gong Table 6.2 JS: type 2 */
};
