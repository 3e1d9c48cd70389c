/* SPDX-License-Identifier: MIT
 * mm2.c - host driver of the mm2 workload: Polybench 2MM, D' = alpha A B C + beta D with two naive
 * matrix-product kernels (Lin thesis Table 3.2 "MM", Gong thesis Table 6.2 "2MM").
 *
 * Inputs are uniform in [-1, 1); the two kernels run back to back on one stream. The CPU reference
 * computes tmp and D' with the same float operations in the same order (a running fmaf over the
 * inner index, then the alpha multiply; beta D as the first term of the second sum), so both tmp
 * and D' are compared bit-exactly.
 *
 * mm2_poly (ptx.flags -DMM2_POLY=1; issue 28, session 22) runs PolyBench/GPU 1.0's own 2MM
 * kernels on the same inputs: tmp = A B and D' = tmp C, each sum added into its output element in
 * global memory every iteration (each output zeroed by its thread first; no alpha, beta or D).
 * Its PTX keeps the running sum in a register between the store and the next fma (one fma.rn.f32
 * and one store per term), so the reference is a running fmaf from 0.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define MM2_BX 32 /* CTA shape; must match mm2.cu */
#define MM2_BY 8
#define MM2_ALPHA 1.5f
#define MM2_BETA 1.2f

struct mm2_size {
    int ni, nj, nk, nl;
};

static struct mm2_size mm2_size_of(enum hd_wl_size size)
{
    /* 0.28 M, 6.0 M and 47 M warp instructions (measured, --functional; 2 n^3 inner-loop terms).
     * Small has no dimension a multiple of 32 or 8. Lin's 2048^3 (about 3 G warp instructions)
     * is out of reach of the functional model's speed; large is Polybench's "standard" 512. */
    static const struct mm2_size s[3] = {
        {97, 83, 71, 89}, {256, 256, 256, 256}, {512, 512, 512, 512}};
    return s[size];
}

static void mm2_reference(const float *a, const float *b, const float *c, const float *d,
                          float *tmp, float *dout, struct mm2_size z, bool poly)
{
    if (poly) { /* mm2_poly: fma.rn.f32 per term onto the zeroed output, in index order */
        for (int i = 0; i < z.ni; i++)
            for (int j = 0; j < z.nj; j++) {
                float acc = 0.0f;
                for (int k = 0; k < z.nk; k++)
                    acc = fmaf(a[(size_t)i * z.nk + k], b[(size_t)k * z.nj + j], acc);
                tmp[(size_t)i * z.nj + j] = acc;
            }
        for (int i = 0; i < z.ni; i++)
            for (int l = 0; l < z.nl; l++) {
                float acc = 0.0f;
                for (int j = 0; j < z.nj; j++)
                    acc = fmaf(tmp[(size_t)i * z.nj + j], c[(size_t)j * z.nl + l], acc);
                dout[(size_t)i * z.nl + l] = acc;
            }
        return;
    }
    for (int i = 0; i < z.ni; i++)
        for (int j = 0; j < z.nj; j++) {
            float acc = 0.0f;
            for (int k = 0; k < z.nk; k++)
                acc = fmaf(a[(size_t)i * z.nk + k], b[(size_t)k * z.nj + j], acc);
            tmp[(size_t)i * z.nj + j] = MM2_ALPHA * acc;
        }
    for (int i = 0; i < z.ni; i++)
        for (int l = 0; l < z.nl; l++) {
            float acc = MM2_BETA * d[(size_t)i * z.nl + l];
            for (int j = 0; j < z.nj; j++)
                acc = fmaf(tmp[(size_t)i * z.nj + j], c[(size_t)j * z.nl + l], acc);
            dout[(size_t)i * z.nl + l] = acc;
        }
}

static float *mm2_fill(struct hd_wl_rng *rng, size_t n)
{
    float *p = malloc(n * sizeof(float));
    for (size_t k = 0; p && k < n; k++)
        p[k] = hd_wl_rng_float(rng, -1.0f, 1.0f);
    return p;
}

static int mm2_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct mm2_size z = mm2_size_of(ctx->size);
    bool poly = hd_wl_flag(hd_wl_variant_flags(ctx), "MM2_POLY", 0) != 0;
    /* --size paper (issue 28, session 21): Lin thesis Table 3.2's MM data set, 2048x2048
     * matrices (about 3 G warp instructions: measured by its first cycles, `heddle run
     * --window`; a complete run is hours of simulation, its CPU reference about a minute). */
    if (ctx->paper)
        z = (struct mm2_size){2048, 2048, 2048, 2048};
    size_t na = (size_t)z.ni * z.nk, nb = (size_t)z.nk * z.nj, nc = (size_t)z.nj * z.nl;
    size_t nd = (size_t)z.ni * z.nl, nt = (size_t)z.ni * z.nj;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_a = 0, d_b = 0, d_c = 0, d_d = 0, d_t = 0, d_o = 0;
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x326d6d00u);
    float *a = mm2_fill(&rng, na), *b = mm2_fill(&rng, nb), *c = mm2_fill(&rng, nc);
    float *d = mm2_fill(&rng, nd);
    float *tmp = malloc(nt * sizeof(float)), *dout = malloc(nd * sizeof(float));
    float *got = malloc((nt > nd ? nt : nd) * sizeof(float));
    float alpha = MM2_ALPHA, beta = MM2_BETA;

    if (!a || !b || !c || !d || !tmp || !dout || !got) {
        rc = hd_wl_fail(ctx, "mm2: out of host memory");
        goto out;
    }
    fprintf(ctx->log, "mm2%s: ni %d nj %d nk %d nl %d, %dx%d CTAs\n", poly ? "_poly" : "", z.ni,
            z.nj, z.nk, z.nl, MM2_BX, MM2_BY);
    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_a, na * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_b, nb * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_c, nc * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_d, nd * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_t, nt * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_o, nd * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_a, a, na * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_b, b, nb * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_c, c, nc * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_d, d, nd * sizeof(float)));
    HD_WL_TRY(hd_memset(gpu, d_t, 0xff, nt * sizeof(float))); /* NaN where nothing is written */
    HD_WL_TRY(hd_memset(gpu, d_o, 0xff, nd * sizeof(float)));

    struct hd_dim3 block = {MM2_BX, MM2_BY, 1};
    struct hd_dim3 g1 = {((uint32_t)z.nj + MM2_BX - 1) / MM2_BX,
                         ((uint32_t)z.ni + MM2_BY - 1) / MM2_BY, 1};
    struct hd_dim3 g2 = {((uint32_t)z.nl + MM2_BX - 1) / MM2_BX,
                         ((uint32_t)z.ni + MM2_BY - 1) / MM2_BY, 1};
    struct hd_arg a1[] = {HD_ARG(d_a),  HD_ARG(d_b),  HD_ARG(d_t),  HD_ARG(z.ni),
                          HD_ARG(z.nj), HD_ARG(z.nk), HD_ARG(alpha)};
    struct hd_arg a2[] = {HD_ARG(d_t),  HD_ARG(d_c),  HD_ARG(d_d),  HD_ARG(d_o),
                          HD_ARG(z.ni), HD_ARG(z.nl), HD_ARG(z.nj), HD_ARG(beta)};
    /* mm2_poly: (a, b, tmp, ni, nj, nk) and (tmp, c, dout, ni, nl, nj) */
    struct hd_arg p1[] = {HD_ARG(d_a), HD_ARG(d_b), HD_ARG(d_t), HD_ARG(z.ni), HD_ARG(z.nj),
                          HD_ARG(z.nk)};
    struct hd_arg p2[] = {HD_ARG(d_t), HD_ARG(d_c), HD_ARG(d_o), HD_ARG(z.ni), HD_ARG(z.nl),
                          HD_ARG(z.nj)};
    HD_WL_TRY(hd_launch(gpu, mod, "mm2_kernel1", g1, block, 0, 0, poly ? p1 : a1, poly ? 6 : 7));
    HD_WL_TRY(hd_launch(gpu, mod, "mm2_kernel2", g2, block, 0, 0, poly ? p2 : a2, poly ? 6 : 8));
    HD_WL_TRY(hd_synchronize(gpu));

    mm2_reference(a, b, c, d, tmp, dout, z, poly);
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_t, nt * sizeof(float)));
    if ((rc = hd_wl_compare_f32(ctx, "tmp", tmp, got, nt, 0.0f, 0.0f)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_o, nd * sizeof(float)));
    rc = hd_wl_compare_f32(ctx, "dout", dout, got, nd, 0.0f, 0.0f);

out:
    hd_free(gpu, d_a);
    hd_free(gpu, d_b);
    hd_free(gpu, d_c);
    hd_free(gpu, d_d);
    hd_free(gpu, d_t);
    hd_free(gpu, d_o);
    free(a);
    free(b);
    free(c);
    free(d);
    free(tmp);
    free(dout);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_mm2 = {
    .name = "mm2",
    .description = "two chained naive matrix products (Polybench 2MM), 32x8 CTAs, global loads",
    .klass = "memory",
    .idempotent = true,
    .run = mm2_run,
    .locality_hint = 1, /* Gong Table 6.2 2MM: type 1 */
};

/* PolyBench/GPU 1.0's own 2MM kernels (ptx.flags; issue 28, session 22): Lin thesis Table 3.2 MM */
const struct hd_workload hd_workload_mm2_poly = {
    .name = "mm2_poly",
    .description = "Polybench/GPU 2MM's own kernels: each term added into the output in global memory",
    .klass = "memory",
    .idempotent = true, /* each thread zeroes its output before adding into it */
    .run = mm2_run,
    .variant_of = "mm2",
    .variant_flags = "-DMM2_POLY=1",
    .paper_row = "Lin 3.2 MM (Polybench/GPU 2MM, 2048x2048; Fig 3.4 SM->L2 stores of intermediates)",
    .locality_hint = 1,
};
