/* SPDX-License-Identifier: MIT
 * backprop.c - host driver of the backprop workload: one training step of a perceptron with
 * n_in inputs, 16 hidden units and one output.
 *
 * Flow (as a training program would run it): bp_layer_forward gives per-CTA partial sums of the
 * hidden units; the host adds them, applies the sigmoid, evaluates the output unit against a target
 * and back-propagates the error to hidden-unit deltas; bp_adjust_weights then applies the momentum
 * gradient step to the input->hidden weights in place. Both results are checked: the partial sums
 * against a CPU reduction done in the same tree order, the adjusted weights and their deltas against
 * a CPU step that uses the same hidden deltas.
 *
 * Variants (ptx.flags, README) set HD_BP_TILE, the input units per CTA (threads per CTA 16 x
 * tile); the driver reads it back from the variant's flags, and the CPU tree follows it.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BP_HIDDEN 16
#define BP_TILE 16     /* default input units per CTA (HD_BP_TILE); must match backprop.cu */
#define BP_MAX_TILE 64
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

static int bp_inputs(enum hd_wl_size size)
{
    /* ~0.2 M, 3.2 M and 26 M warp instructions; small ends in a partial tile. */
    static const int n[3] = {4093, 65536, 524288};
    return n[size];
}

/* CPU reference of bp_layer_forward: the same products and the same tile->tile/2->...->1 tree. */
static void bp_ref_forward(const float *x, const float *w, float *partial, int n_in, int tile)
{
    int tiles = (n_in + tile - 1) / tile;
    for (int b = 0; b < tiles; b++) {
        for (int j = 0; j < BP_HIDDEN; j++) {
            float p[BP_MAX_TILE];
            for (int t = 0; t < tile; t++) {
                int i = b * tile + t;
                p[t] = i < n_in ? w[(size_t)i * BP_HIDDEN + j] * x[i] : 0.0f;
            }
            for (int s = tile / 2; s > 0; s >>= 1)
                for (int t = 0; t < s; t++)
                    p[t] += p[t + s];
            partial[(size_t)b * BP_HIDDEN + j] = p[0];
        }
    }
}

static double bp_sigmoid(double v)
{
    return 1.0 / (1.0 + exp(-v));
}

/* Host part between the kernels: hidden activations from the partials, the output unit, and the
 * hidden deltas of the squared-error loss. */
static void bp_hidden_deltas(const float *partial, int tiles, const float *w2, float target,
                             float *delta)
{
    double h[BP_HIDDEN], o = 0.0;
    for (int j = 0; j < BP_HIDDEN; j++) {
        double s = 0.0;
        for (int b = 0; b < tiles; b++)
            s += (double)partial[(size_t)b * BP_HIDDEN + j];
        h[j] = bp_sigmoid(s);
        o += (double)w2[j] * h[j];
    }
    o = bp_sigmoid(o);
    double out_delta = o * (1.0 - o) * ((double)target - o);
    for (int j = 0; j < BP_HIDDEN; j++)
        delta[j] = (float)(h[j] * (1.0 - h[j]) * (double)w2[j] * out_delta);
}

static void bp_ref_adjust(const float *x, const float *delta, float *w, float *dw_old, int n_in)
{
    for (int i = 0; i < n_in; i++) {
        for (int j = 0; j < BP_HIDDEN; j++) {
            size_t k = (size_t)i * BP_HIDDEN + j;
            float dw = BP_ETA * delta[j] * x[i] + BP_MOMENTUM * dw_old[k];
            w[k] += dw;
            dw_old[k] = dw;
        }
    }
}

/* Variant backprop_rod_ccbp (BP_RODINIA; docs/blocks/ccbp.md "Session 21"): Rodinia's form of the
 * forward kernel alone (bp_layer_forward_rod, backprop.cu). Weights (n_in + 1) x (hid + 1) with a
 * bias row and column, inputs x[1..n_in]; the tree pairs (0,1), (2,3), ... first; each thread
 * writes its final shared value back over its weight. n_in is rounded down to a whole tile (the
 * form has no bounds test). Checked: the partial sums and every weight written back, against a
 * CPU tree in the same order (the same single-precision operations: exact). */
static int bp_run_rodinia(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, int n_in)
{
    const int tile = BP_TILE, row = BP_HIDDEN + 1;
    n_in -= n_in % tile;
    const int tiles = n_in / tile;
    const size_t nw = (size_t)(n_in + 1) * row, np = (size_t)tiles * BP_HIDDEN;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_x = 0, d_w = 0, d_part = 0;
    float *x = malloc(sizeof(float) * ((size_t)n_in + 1));
    float *w = malloc(sizeof(float) * nw), *ref_w = malloc(sizeof(float) * nw);
    float *part = malloc(sizeof(float) * np), *ref_part = malloc(sizeof(float) * np);
    if (!x || !w || !ref_w || !part || !ref_part) {
        rc = hd_wl_fail(ctx, "backprop: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x62707271u);
    float scale = 2.0f / sqrtf((float)n_in);
    for (int i = 0; i <= n_in; i++)
        x[i] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    for (size_t k = 0; k < nw; k++)
        w[k] = hd_wl_rng_float(&rng, -scale, scale);
    fprintf(ctx->log, "backprop: Rodinia form, %d inputs, %d hidden units, %d CTAs of %dx%d\n",
            n_in, BP_HIDDEN, tiles, BP_HIDDEN, tile);

    /* The reference: the weights as the kernel leaves them, then the partial sums. */
    memcpy(ref_w, w, sizeof(float) * nw);
    for (int b = 0; b < tiles; b++) {
        for (int j = 0; j < BP_HIDDEN; j++) {
            float a[BP_TILE];
            for (int t = 0; t < tile; t++)
                a[t] = w[(size_t)(b * tile + t + 1) * row + j + 1] * x[b * tile + t + 1];
            for (int s = 2; s <= tile; s *= 2)
                for (int t = 0; t < tile; t += s)
                    a[t] = a[t] + a[t + s / 2];
            for (int t = 0; t < tile; t++)
                ref_w[(size_t)(b * tile + t + 1) * row + j + 1] = a[t];
            ref_part[(size_t)b * BP_HIDDEN + j] = a[0];
        }
    }

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_x, sizeof(float) * ((size_t)n_in + 1)));
    HD_WL_TRY(hd_malloc(gpu, &d_w, sizeof(float) * nw));
    HD_WL_TRY(hd_malloc(gpu, &d_part, sizeof(float) * np));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_x, x, sizeof(float) * ((size_t)n_in + 1)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_w, w, sizeof(float) * nw));
    HD_WL_TRY(hd_memset(gpu, d_part, 0xff, sizeof(float) * np)); /* NaN: an unwritten sum shows */
    {
        struct hd_dim3 grid = {1, (uint32_t)tiles, 1}, block = {BP_HIDDEN, (uint32_t)tile, 1};
        int hid = BP_HIDDEN;
        struct hd_arg args[] = {HD_ARG(d_x), HD_ARG(d_w), HD_ARG(d_part), HD_ARG(hid)};
        HD_WL_TRY(hd_launch(gpu, mod, "bp_layer_forward_rod", grid, block, 0, 0, args, 4));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, part, d_part, sizeof(float) * np));
    HD_WL_TRY(hd_memcpy_d2h(gpu, w, d_w, sizeof(float) * nw)); /* (the GPU's weights now) */
    rc = hd_wl_compare_f32(ctx, "hidden partial sum", ref_part, part, np, 1e-6f, 1e-7f);
    if (rc == HD_OK)
        rc = hd_wl_compare_f32(ctx, "weight written back", ref_w, w, nw, 1e-6f, 1e-7f);
out:
    hd_free(gpu, d_x);
    hd_free(gpu, d_w);
    hd_free(gpu, d_part);
    free(x);
    free(w);
    free(ref_w);
    free(part);
    free(ref_part);
    return rc;
}

static int bp_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    if (hd_wl_flag(hd_wl_variant_flags(ctx), "BP_RODINIA", 0))
        return bp_run_rodinia(gpu, ctx, bp_inputs(ctx->size));
    int n_in = bp_inputs(ctx->size);
    const long tl = hd_wl_flag(hd_wl_variant_flags(ctx), "HD_BP_TILE", BP_TILE);
    if (tl < 2 || tl > BP_MAX_TILE || (tl & (tl - 1)) != 0)
        return hd_wl_fail(ctx, "backprop: HD_BP_TILE=%ld: a power of two from 2 to %d", tl,
                          BP_MAX_TILE);
    const int tile = (int)tl;
    int tiles = (n_in + tile - 1) / tile;
    size_t nw = (size_t)n_in * BP_HIDDEN, np = (size_t)tiles * BP_HIDDEN;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_x = 0, d_w = 0, d_dw = 0, d_part = 0, d_delta = 0;
    float *x = malloc(sizeof(float) * (size_t)n_in);
    float *w = malloc(sizeof(float) * nw), *dw = malloc(sizeof(float) * nw);
    float *ref_w = malloc(sizeof(float) * nw), *ref_dw = malloc(sizeof(float) * nw);
    float *part = malloc(sizeof(float) * np), *ref_part = malloc(sizeof(float) * np);
    float w2[BP_HIDDEN], delta[BP_HIDDEN];

    if (!x || !w || !dw || !ref_w || !ref_dw || !part || !ref_part) {
        rc = hd_wl_fail(ctx, "backprop: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x62707270u);
    /* Weights scaled by 1/sqrt(n_in) so the hidden sums stay in the sigmoid's useful range. */
    float scale = 2.0f / sqrtf((float)n_in);
    for (int i = 0; i < n_in; i++)
        x[i] = hd_wl_rng_float(&rng, 0.0f, 1.0f);
    for (size_t k = 0; k < nw; k++) {
        w[k] = hd_wl_rng_float(&rng, -scale, scale);
        dw[k] = hd_wl_rng_float(&rng, -0.01f, 0.01f);
    }
    for (int j = 0; j < BP_HIDDEN; j++)
        w2[j] = hd_wl_rng_float(&rng, -1.0f, 1.0f);
    fprintf(ctx->log, "backprop: %d inputs, %d hidden units, %d CTAs of %dx%d\n", n_in, BP_HIDDEN,
            tiles, BP_HIDDEN, tile);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const ba_pinned[] = {"bp_adjust_weights"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, ba_pinned, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_x, sizeof(float) * (size_t)n_in));
    HD_WL_TRY(hd_malloc(gpu, &d_w, sizeof(float) * nw));
    HD_WL_TRY(hd_malloc(gpu, &d_dw, sizeof(float) * nw));
    HD_WL_TRY(hd_malloc(gpu, &d_part, sizeof(float) * np));
    HD_WL_TRY(hd_malloc(gpu, &d_delta, sizeof(float) * BP_HIDDEN));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_x, x, sizeof(float) * (size_t)n_in));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_w, w, sizeof(float) * nw));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_dw, dw, sizeof(float) * nw));
    HD_WL_TRY(hd_memset(gpu, d_part, 0xff, sizeof(float) * np)); /* NaN: an unwritten sum shows */

    struct hd_dim3 grid = {1, (uint32_t)tiles, 1}, block = {BP_HIDDEN, (uint32_t)tile, 1};
    {
        struct hd_arg args[] = {HD_ARG(d_x), HD_ARG(d_w), HD_ARG(d_part), HD_ARG(n_in)};
        HD_WL_TRY(hd_launch(gpu, mod, "bp_layer_forward", grid, block, 0, 0, args, 4));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, part, d_part, sizeof(float) * np));

    /* The CPU reduces in the GPU's order with the same single-precision operations, so the partials
     * should agree to the last bit; the tolerance (a few ulp) only absorbs a contraction of a
     * product into the first add that a compiler is free to make. */
    bp_ref_forward(x, w, ref_part, n_in, tile);
    rc = hd_wl_compare_f32(ctx, "hidden partial sum", ref_part, part, np, 1e-6f, 1e-7f);
    if (rc != HD_OK)
        goto out;

    /* CCBP input variant (ptx.flags token `ccbp`; issue 29, Lin Table 4.2 BP): CCBP_FORWARD=1
     * stops here, after bp_layer_forward (Lin's BP_1, the compute-intensive kernel of Ch.3; BP_2,
     * the weight adjustment, is DRAM-intensive there) and its checked partial sums;
     * docs/blocks/ccbp.md "The LS stand-ins again". */
    if (hd_wl_flag(hd_wl_variant_flags(ctx), "CCBP_FORWARD", 0))
        goto out;
    bp_hidden_deltas(part, tiles, w2, 1.0f, delta);
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_delta, delta, sizeof(delta)));
    {
        float eta = BP_ETA, momentum = BP_MOMENTUM;
        struct hd_arg args[] = {HD_ARG(d_x), HD_ARG(d_delta), HD_ARG(d_w), HD_ARG(d_dw),
                                HD_ARG(n_in), HD_ARG(eta), HD_ARG(momentum)};
        HD_WL_TRY(hd_launch(gpu, mod, "bp_adjust_weights", grid, block, 0, 0, args, 7));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, ref_w, d_w, sizeof(float) * nw));  /* GPU results, reused buffers */
    HD_WL_TRY(hd_memcpy_d2h(gpu, ref_dw, d_dw, sizeof(float) * nw));

    /* nvcc contracts eta*delta*x + momentum*dw_old into an fma, the CPU rounds each product: dw
     * differs by about one rounding of a term below 0.03 in magnitude (ulp 1.9e-9), and w by that
     * plus one rounding of the add. 1e-6 relative + 4e-9 absolute covers this (a float emulation
     * with fma stays below half of it) yet catches any wrong index, operand or lost update. */
    bp_ref_adjust(x, delta, w, dw, n_in);
    rc = hd_wl_compare_f32(ctx, "weight delta", dw, ref_dw, nw, 1e-6f, 4e-9f);
    if (rc == HD_OK)
        rc = hd_wl_compare_f32(ctx, "adjusted weight", w, ref_w, nw, 1e-6f, 4e-9f);

out:
    hd_free(gpu, d_x);
    hd_free(gpu, d_w);
    hd_free(gpu, d_dw);
    hd_free(gpu, d_part);
    hd_free(gpu, d_delta);
    free(x);
    free(w);
    free(dw);
    free(ref_w);
    free(ref_dw);
    free(part);
    free(ref_part);
    return rc;
}

const struct hd_workload hd_workload_backprop = {
    .name = "backprop",
    .description = "perceptron training step: layer forward (smem tree reduction) + weight adjust",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_backprop_tb64 = {
    .name = "backprop_tb64",
    .description =
        "backprop variant: 4 inputs per CTA (64 threads, 272 B shared memory, 2-step tree)",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
    .variant_of = "backprop",
    .variant_flags = "-DHD_BP_TILE=4",
};
const struct hd_workload hd_workload_backprop_tb128 = {
    .name = "backprop_tb128",
    .description =
        "backprop variant: 8 inputs per CTA (128 threads, 544 B shared memory, 3-step tree)",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
    .variant_of = "backprop",
    .variant_flags = "-DHD_BP_TILE=8",
};
const struct hd_workload hd_workload_backprop_tb512 = {
    .name = "backprop_tb512",
    .description =
        "backprop variant: 32 inputs per CTA (512 threads, 2.1 KB shared memory, 5-step tree)",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
    .variant_of = "backprop",
    .variant_flags = "-DHD_BP_TILE=32",
};
const struct hd_workload hd_workload_backprop_tb1024 = {
    .name = "backprop_tb1024",
    .description =
        "backprop variant: 64 inputs per CTA (1024 threads, 4.3 KB shared memory, 6-step tree)",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
    .variant_of = "backprop",
    .variant_flags = "-DHD_BP_TILE=64",
};
const struct hd_workload hd_workload_backprop_r24 = {
    .name = "backprop_r24",
    .description = "backprop variant: bp_adjust_weights counted at 24 registers (Shieh Table 4.2 adjust_weights)",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
    .variant_of = "backprop",
    .variant_flags = "-DREGSPEC=24",
    .paper_row = "Shieh Table 4.2 backprop bpnn_adjust_weights_cuda: 6,144 regs/TB (24/thread), 0 B, 256 threads, 5 TBs/SM",
};
/* }==== */

/* CCBP input variant (ptx.flags; issue 29) */
const struct hd_workload hd_workload_backprop_ccbp = {
    .name = "backprop_ccbp",
    .description = "backprop's bp_layer_forward alone (Lin's BP_1), partial sums checked",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
    .variant_of = "backprop",
    .variant_flags = "-DCCBP_FORWARD=1",
    .paper_row = "Lin Table 4.2 BP (LS, compute-intensive: throughput 68 %, DRAM 36 %) = Ch.3's BP_1",
};
const struct hd_workload hd_workload_backprop_rod_ccbp = {
    .name = "backprop_rod_ccbp",
    .description = "Rodinia's form of backprop's layer forward alone (Lin's BP_1 as GPGPU-Sim ran it): "
                   "17-float weight rows, run-time tree, weights written back",
    .klass = "barrier-heavy",
    .idempotent = false,
    .run = bp_run,
    .variant_of = "backprop",
    .variant_flags = "-DCCBP_FORWARD=1 -DBP_RODINIA=1",
    .paper_row = "Lin Table 4.2 BP (LS: throughput 68 %, NoC 19 %, DRAM 36 %, L2 miss 51 %) = Rodinia bpnn_layerforward_CUDA",
};
