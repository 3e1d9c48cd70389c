/* SPDX-License-Identifier: MIT
 * stream.c - host driver for stream: the four STREAM kernels (copy c = a, scale b = s*c,
 * add c = a + b, triad a = b + s*c; McCalpin's STREAM, s = 3) in that order on float arrays,
 * then dot (sum of a[i] * b[i], one partial sum per CTA: a read-only stream of two arrays).
 *
 * The kernels run once each, in order, on one stream; after each one the driver copies its
 * output back and checks every element against the CPU reference, then fills the next kernel's
 * output with 0xff bytes (a NaN pattern) so an element a kernel forgot shows up as a mismatch.
 * The element count leaves both a partial last CTA and n % 4 = 3 scalar leftovers (stream.cu).
 *
 * Tolerance zero: the input a is a random integer k in [-16, 16), so every value the four
 * kernels produce (a, 3a, 4a, 15a) is an integer of magnitude at most 240, exact in binary32;
 * every product and sum is therefore exact, whether nvcc contracts triad's b + s*c into one FMA
 * or not, and the host's float reference gives the same bits.
 * dot runs after triad on a = 15k and b = 3k: each product 45k^2 <= 11520 is an integer, and a
 * CTA's partial (1024 elements) is at most 1024 * 11520 < 2^24, an integer binary32 holds exactly
 * whatever order the kernel's FMAs, shuffles and shared-memory steps add in. Every partial is
 * compared bit for bit with the host's (summed in int64), and the total of the kernel's partials
 * (summed on the host in int64: it exceeds 2^24) with the host's total.
 * (Small integers rather than STREAM's usual doubles: the bandwidth does not depend on the
 * values, and the check stays exact.)
 *
 * Variant stream_cg (ptx.flags: -DSTREAM_CG) loads through __ldcg() (ld.global.cg, L1 bypass);
 * it shares this run function, launch shapes and check.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#define STREAM_BLOCK 256    /* threads per CTA */
#define STREAM_SCALAR 3.0f  /* STREAM's scalar */
#define STREAM_ARRAYS 3

static size_t stream_elements(enum hd_wl_size size)
{
    switch (size) {
    /* Warp instructions (all four kernels) measured on the functional model. */
    case HD_WL_SMALL: return 262144 - 77;     /* 1 MiB per array; 0.2M */
    case HD_WL_MEDIUM: return 2097152 - 77;   /* 8 MiB per array; 1.6M */
    case HD_WL_LARGE: return 16777216 - 77;   /* 64 MiB per array; 12.8M */
    }
    return 0;
}

struct stream_kernel {
    const char *name;
    int out;     /* index of the array it writes: 0 a, 1 b, 2 c */
    int in0, in1; /* arrays it reads (in1 -1: one input) */
    bool scalar; /* takes s */
};

/* STREAM's order; each kernel's output feeds the next ones. */
static const struct stream_kernel stream_kernels[] = {
    {"stream_copy", 2, 0, -1, false},  /* c = a */
    {"stream_scale", 1, 2, -1, true},  /* b = s*c */
    {"stream_add", 2, 0, 1, false},    /* c = a + b */
    {"stream_triad", 0, 1, 2, true},   /* a = b + s*c */
};

/* dot: sum of a[i] * b[i] (after triad), one partial per CTA of STREAM_BLOCK threads, which
 * cover 4 * STREAM_BLOCK elements (the last CTA its rest and the n % 4 leftovers, stream.cu). */
#define STREAM_DOT_KERNEL "stream_dot"
#define STREAM_DOT_IN0 0 /* a */
#define STREAM_DOT_IN1 1 /* b */

/* Checks the kernel's partials got[0..ctas) against the host arrays x, y (n elements): each one
 * exactly, then the int64 total of the kernel's partials against the host's. */
static int stream_dot_check(struct hd_wl_ctx *ctx, const float *x, const float *y, size_t n,
                            const float *got, size_t ctas)
{
    const size_t per_cta = 4 * (size_t)STREAM_BLOCK;
    int64_t total = 0, got_total = 0;
    for (size_t c = 0; c < ctas; c++) {
        int64_t sum = 0;
        const size_t end = c + 1 == ctas ? n : (c + 1) * per_cta;
        for (size_t i = c * per_cta; i < end; i++)
            sum += (int64_t)x[i] * (int64_t)y[i]; /* integers (header) */
        if (sum <= -(1 << 24) || sum >= (1 << 24))
            return hd_wl_fail(ctx, "stream_dot: host partial %zu is %lld, not exact in float",
                              c, (long long)sum);
        const float want = (float)sum;
        if (memcmp(&want, &got[c], sizeof want) != 0)
            return hd_wl_fail(ctx, "stream_dot: partial %zu of %zu: expected %.1f, got %.9g",
                              c, ctas, (double)want, (double)got[c]);
        total += sum;
        got_total += (int64_t)got[c]; /* exact: equal to sum, an integer below 2^24 */
    }
    if (got_total != total)
        return hd_wl_fail(ctx, "stream_dot: total %lld, expected %lld", (long long)got_total,
                          (long long)total);
    fprintf(ctx->log, "stream: dot over %zu elements = %lld (%zu partials, all exact)\n", n,
            (long long)total, ctas);
    return HD_OK;
}

/* The reference of kernel k on the host arrays h[0..2] (a, b, c), in place. */
static void stream_reference(const struct stream_kernel *k, float *h[STREAM_ARRAYS], size_t n)
{
    const float s = STREAM_SCALAR;
    float *o = h[k->out];
    const float *x = h[k->in0], *y = k->in1 >= 0 ? h[k->in1] : NULL;
    for (size_t i = 0; i < n; i++) {
        if (!y)
            o[i] = k->scalar ? s * x[i] : x[i];
        else
            o[i] = k->scalar ? x[i] + s * y[i] : x[i] + y[i];
    }
}

static int stream_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    static const char names[STREAM_ARRAYS] = {'a', 'b', 'c'};
    const size_t n = stream_elements(ctx->size);
    const size_t bytes = n * sizeof(float);
    const char *flags = hd_wl_variant_flags(ctx);
    const bool cg = hd_wl_flag(flags, "STREAM_CG", 0) != 0;
    float *h[STREAM_ARRAYS] = {NULL, NULL, NULL}, *got = malloc(bytes);
    hd_devptr d[STREAM_ARRAYS] = {0, 0, 0}, d_part = 0;
    struct hd_module *mod = NULL;
    int rc = HD_OK;

    for (int j = 0; j < STREAM_ARRAYS; j++)
        h[j] = malloc(bytes);
    if (!h[0] || !h[1] || !h[2] || !got) {
        rc = hd_wl_fail(ctx, "stream: out of host memory (%zu elements)", n);
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73747265616dULL);
    for (size_t i = 0; i < n; i++) {
        const int k = (int)(hd_wl_rng_u32(&rng) % 32u) - 16;
        h[0][i] = (float)k; /* exact: see the header */
    }
    /* Threads: one per float4, plus one per leftover element (n % 4 of them). */
    const size_t threads = n / 4 + n % 4;
    const struct hd_dim3 grid = {(uint32_t)((threads + STREAM_BLOCK - 1) / STREAM_BLOCK), 1, 1};
    const struct hd_dim3 block = {STREAM_BLOCK, 1, 1};
    fprintf(ctx->log,
            "stream: %zu floats per array (%.1f MiB), %u CTAs of %u threads per kernel, "
            "loads %s; dot: %u partials\n",
            n, (double)bytes / 1048576.0, grid.x, STREAM_BLOCK,
            cg ? "ld.global.cg (__ldcg)" : "ld.global.nc (const __restrict__)", grid.x);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    for (int j = 0; j < STREAM_ARRAYS; j++)
        HD_WL_TRY(hd_malloc(gpu, &d[j], bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d[0], h[0], bytes));
    HD_WL_TRY(hd_memset(gpu, d[1], 0xff, bytes)); /* NaN everywhere until a kernel writes it */
    HD_WL_TRY(hd_memset(gpu, d[2], 0xff, bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_part, grid.x * sizeof(float)));

    const float s = STREAM_SCALAR;
    const int n32 = (int)n;
    for (size_t q = 0; q < sizeof stream_kernels / sizeof stream_kernels[0]; q++) {
        const struct stream_kernel *k = &stream_kernels[q];
        struct hd_arg args[5];
        unsigned na = 0;
        args[na++] = (struct hd_arg)HD_ARG(d[k->in0]);
        if (k->in1 >= 0)
            args[na++] = (struct hd_arg)HD_ARG(d[k->in1]);
        args[na++] = (struct hd_arg)HD_ARG(d[k->out]);
        if (k->scalar)
            args[na++] = (struct hd_arg)HD_ARG(s);
        args[na++] = (struct hd_arg)HD_ARG(n32);
        HD_WL_TRY(hd_memset(gpu, d[k->out], 0xff, bytes));
        HD_WL_TRY(hd_launch(gpu, mod, k->name, grid, block, 0, 0, args, na));
        HD_WL_TRY(hd_synchronize(gpu));
        HD_WL_TRY(hd_memcpy_d2h(gpu, got, d[k->out], bytes));
        stream_reference(k, h, n);
        char what[64];
        snprintf(what, sizeof what, "%s (%c)", k->name, names[k->out]);
        if ((rc = hd_wl_compare_f32(ctx, what, h[k->out], got, n, 0.0f, 0.0f)) != HD_OK)
            goto out;
    }

    /* dot on triad's a and scale's b; `got` (n floats) holds the grid.x partials. */
    {
        struct hd_arg args[4] = {HD_ARG(d[STREAM_DOT_IN0]), HD_ARG(d[STREAM_DOT_IN1]),
                                 HD_ARG(d_part), HD_ARG(n32)};
        HD_WL_TRY(hd_memset(gpu, d_part, 0xff, grid.x * sizeof(float)));
        HD_WL_TRY(hd_launch(gpu, mod, STREAM_DOT_KERNEL, grid, block, 0, 0, args, 4));
        HD_WL_TRY(hd_synchronize(gpu));
        HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_part, grid.x * sizeof(float)));
        rc = stream_dot_check(ctx, h[STREAM_DOT_IN0], h[STREAM_DOT_IN1], n, got, grid.x);
    }

out:
    if (gpu) {
        for (int j = 0; j < STREAM_ARRAYS; j++)
            hd_free(gpu, d[j]);
        hd_free(gpu, d_part);
    }
    for (int j = 0; j < STREAM_ARRAYS; j++)
        free(h[j]);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_stream = {
    .name = "stream",
    .description = "STREAM copy, scale, add, triad, dot (float4 per thread), cached loads",
    .klass = "memory",
    .idempotent = true,
    .run = stream_run,
};

/* {==== Variants (ptx.flags; workloads/README.md, "Variants") ==== */
const struct hd_workload hd_workload_stream_cg = {
    .name = "stream_cg",
    .description = "stream variant: loads through __ldcg (ld.global.cg, L1 bypass)",
    .klass = "memory",
    .idempotent = true,
    .run = stream_run,
    .variant_of = "stream",
    .variant_flags = "-DSTREAM_CG",
};
/* }==== */
