/* SPDX-License-Identifier: MIT
 * asianoption.c - host driver of asianoption: Monte-Carlo price of one arithmetic-average Asian
 * call (SDK MC_SingleAsianOptionP-like): asian_init_rng, asian_gen_paths, asian_value.
 *
 * Option: spot 40, strike 35, rate 6 %, volatility 20 %, one year, `steps` time steps
 * (dt = 1 / steps). The host builds the XORWOW jump tables (estimatepi/xorwow_jump.c) and replays
 * every thread's stream; the paths are recomputed in double from the same uniforms.
 *
 * Verification:
 * - generator states after asian_init_rng: exact (integers).
 * - path points: relative 8 T u (u = 2^-24, T = steps), as derived here. In float, z = r cos or
 *   r sin with r = sqrt(-2 log u1): logf (1 ulp), sqrtf (correctly rounded), sincospif (1 ulp)
 *   and the product give |z_f - z| <= 4 u (r + |z|) <= 46 u (r <= 5.8 for 24-bit u1); with
 *   diffusion = 0.2 sqrt(dt) <= 0.036 the exponent's error is below 1.7 u + 2 u |exponent|
 *   (< 0.25); expf (2 ulp) and the product (0.5 ulp) bring each step to < 5 u relative, so
 *   point t (t + 1 steps) is within 5 (t + 1) u <= 5 T u; 8 T u leaves margin for fma
 *   contraction. A lost or repeated step changes a point by exp(exponent), typically 1e-2.
 * - CTA payoff sums: each path's average is within (8 T + T + 1) u avg (points, T sequential
 *   additions, one division), payoff = max(avg - K, 0) is 1-Lipschitz, and a thread's sum of
 *   P payoffs plus the 8-level tree adds (P + 8) u sum(payoff); the bound per CTA is that sum
 *   over its paths, doubled (computed from the reference).
 * The price exp(-rT) mean(payoff) is logged with its standard error.
 */
#include "workload.h"

#include "estimatepi/xorwow_jump.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ASIAN_TB 256 /* must match asianoption.cu */
#define ASIAN_SEED 0x61736961ULL
#define ASIAN_SPOT 40.0
#define ASIAN_STRIKE 35.0
#define ASIAN_RATE 0.06
#define ASIAN_VOL 0.2

struct asian_size {
    int threads, per_thread, steps; /* steps even */
};

static struct asian_size asian_size_of(enum hd_wl_size size)
{
    /* Warp instructions (functional model): see workloads/asianoption/README.md. Small has a
     * partial last CTA (2000 threads); large runs 240 CTAs of 8 warps per kernel (3 waves of 80
     * on 16 SMs at EXPARS's 5 CTAs per SM; the papers' length) and writes 31 MB of paths. */
    static const struct asian_size s[3] = {{2000, 2, 32}, {7680, 4, 32}, {61440, 4, 32}};
    return s[size];
}

static int asian_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct asian_size sz = asian_size_of(ctx->size);
    /* Input-size variant (token wN; issue 33, EXPARS Table 3 SING1 and SING2): WAVES=N sizes the
     * small input for N full waves of CTAs per kernel on fermi-gtx480 at the CTAs per SM P of the
     * kernel the variant stands for: asian_init_rng at MAXREG's 24 registers (SING1, P = 5) or
     * asian_gen_paths at its 28 (SING2, the base, P = 4); 15 x P x N CTAs of 256 threads, 2
     * simulations each (small's); same kernels and reference. */
    const char *vflags = hd_wl_variant_flags(ctx);
    const long waves = hd_wl_flag(vflags, "WAVES", 0), kregs = hd_wl_flag(vflags, "MAXREG", 28);
    if (waves < 0 || waves > 64 || kregs < 1 || kregs > 255)
        return hd_wl_fail(ctx, "asianoption: WAVES=%ld out of range 0..64 (MAXREG=%ld)", waves,
                          kregs);
    if (waves > 0 && ctx->size == HD_WL_SMALL) {
        long per_sm = 1536 / ASIAN_TB; /* fermi-gtx480: 8 CTAs, 1,536 threads, 32,768 registers */
        if (32768 / (kregs * ASIAN_TB) < per_sm)
            per_sm = 32768 / (kregs * ASIAN_TB);
        sz.threads = (int)(15 * per_sm * waves) * ASIAN_TB;
        sz.per_thread = 2;
    }
    const int ctas = (sz.threads + ASIAN_TB - 1) / ASIAN_TB;
    const int nsims = sz.threads * sz.per_thread;
    int bits = 0, bad_k = 0;
    while ((1 << bits) < sz.threads)
        bits++;
    const size_t state_words = (size_t)sz.threads * 6, points = (size_t)nsims * sz.steps;
    uint32_t *states = malloc(state_words * sizeof(uint32_t));
    uint32_t *ref_states = malloc(state_words * sizeof(uint32_t));
    float *paths = malloc(points * sizeof(float)), *ref_paths = malloc(points * sizeof(float));
    float *sums = malloc((size_t)ctas * sizeof(float));
    double *ref_sums = calloc((size_t)ctas, sizeof(double));
    double *bounds = calloc((size_t)ctas, sizeof(double));
    struct xw_jumps jumps = {0, NULL, NULL};
    hd_devptr d_jump = 0, d_seed = 0, d_states = 0, d_paths = 0, d_sums = 0;
    struct hd_module *mod = NULL;
    struct xw_state seed;
    int rc = HD_OK;

    if (!states || !ref_states || !paths || !ref_paths || !sums || !ref_sums || !bounds) {
        rc = hd_wl_fail(ctx, "asianoption: out of host memory");
        goto out;
    }
    xw_seed(&seed, ASIAN_SEED);
    int jb = xw_jumps_build(&jumps, bits, &seed, &bad_k);
    if (jb == -1) {
        rc = hd_wl_fail(ctx, "asianoption: out of host memory");
        goto out;
    }
    if (jb == -2) {
        rc = hd_wl_fail(ctx, "asianoption: jump matrix M^(2^%d) differs from 2^%d steps (the host "
                             "table construction is wrong)", bad_k, bad_k);
        goto out;
    }
    const uint32_t seed_words[6] = {seed.x[0], seed.x[1], seed.x[2], seed.x[3], seed.x[4], seed.d};
    const double dt = 1.0 / sz.steps;
    const float spot = (float)ASIAN_SPOT, strike = (float)ASIAN_STRIKE;
    const float drift = (float)((ASIAN_RATE - 0.5 * ASIAN_VOL * ASIAN_VOL) * dt);
    const float diffusion = (float)(ASIAN_VOL * sqrt(dt));
    fprintf(ctx->log, "asianoption: %d generators in %d CTAs, %d paths of %d steps\n",
            sz.threads, ctas, nsims, sz.steps);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    const size_t table_bytes = (size_t)bits * XW_TABLE_WORDS * sizeof(uint32_t);
    HD_WL_TRY(hd_malloc(gpu, &d_jump, table_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_seed, sizeof seed_words));
    HD_WL_TRY(hd_malloc(gpu, &d_states, state_words * sizeof(uint32_t)));
    HD_WL_TRY(hd_malloc(gpu, &d_paths, points * sizeof(float)));
    HD_WL_TRY(hd_malloc(gpu, &d_sums, (size_t)ctas * sizeof(float)));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_jump, jumps.table, table_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_seed, seed_words, sizeof seed_words));
    HD_WL_TRY(hd_memset(gpu, d_states, 0xff, state_words * sizeof(uint32_t)));
    HD_WL_TRY(hd_memset(gpu, d_paths, 0xff, points * sizeof(float))); /* NaN: unwritten shows */
    HD_WL_TRY(hd_memset(gpu, d_sums, 0xff, (size_t)ctas * sizeof(float)));
    {
        int nthreads = sz.threads, ns = nsims, steps = sz.steps;
        struct hd_dim3 grid = {(uint32_t)ctas, 1, 1}, block = {ASIAN_TB, 1, 1};
        struct hd_arg init[] = {HD_ARG(d_jump), HD_ARG(d_seed), HD_ARG(d_states), HD_ARG(nthreads)};
        struct hd_arg gen[] = {HD_ARG(d_states), HD_ARG(d_paths), HD_ARG(nthreads), HD_ARG(ns),
                               HD_ARG(steps), HD_ARG(spot), HD_ARG(drift), HD_ARG(diffusion)};
        struct hd_arg val[] = {HD_ARG(d_paths), HD_ARG(d_sums), HD_ARG(nthreads), HD_ARG(ns),
                               HD_ARG(steps), HD_ARG(strike)};
        HD_WL_TRY(hd_launch(gpu, mod, "asian_init_rng", grid, block, 0, 0, init, 4));
        HD_WL_TRY(hd_launch(gpu, mod, "asian_gen_paths", grid, block, 0, 0, gen, 8));
        HD_WL_TRY(hd_launch(gpu, mod, "asian_value", grid, block, 0, 0, val, 6));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, states, d_states, state_words * sizeof(uint32_t)));
    HD_WL_TRY(hd_memcpy_d2h(gpu, paths, d_paths, points * sizeof(float)));
    HD_WL_TRY(hd_memcpy_d2h(gpu, sums, d_sums, (size_t)ctas * sizeof(float)));

    /* Reference: every thread's jump, stream and paths in double. */
    const double u = 0x1p-24, sdrift = (double)drift, sdiff = (double)diffusion;
    double total = 0.0, total_sq = 0.0;
    for (int t = 0; t < sz.threads; t++) {
        struct xw_state s = seed;
        xw_jump_thread(&jumps, &s, (uint32_t)t);
        memcpy(ref_states + (size_t)t * 6, s.x, sizeof s.x);
        ref_states[(size_t)t * 6 + 5] = s.d;
        double thread_payoff = 0.0;
        for (int i = t; i < nsims; i += sz.threads) {
            double price = ASIAN_SPOT, sum = 0.0;
            for (int k = 0; k < sz.steps; k += 2) {
                double u1 = (double)((xw_next(&s) >> 8) + 1) / 16777216.0;
                double u2 = (double)(xw_next(&s) >> 8) / 16777216.0;
                double r = sqrt(-2.0 * log(u1)), ang = 6.28318530717958647692 * u2;
                price *= exp(sdrift + sdiff * r * cos(ang));
                ref_paths[(size_t)k * nsims + i] = (float)price;
                sum += price;
                price *= exp(sdrift + sdiff * r * sin(ang));
                ref_paths[(size_t)(k + 1) * nsims + i] = (float)price;
                sum += price;
            }
            double avg = sum / sz.steps, pay = avg > ASIAN_STRIKE ? avg - ASIAN_STRIKE : 0.0;
            thread_payoff += pay;
            total += pay;
            total_sq += pay * pay;
            bounds[t / ASIAN_TB] += (9.0 * sz.steps + 1.0) * u * avg;
        }
        ref_sums[t / ASIAN_TB] += thread_payoff;
    }
    rc = hd_wl_compare_u32(ctx, "generator state word", ref_states, states, state_words);
    if (rc == HD_OK)
        rc = hd_wl_compare_f32(ctx, "path point", ref_paths, paths, points,
                               8.0f * (float)sz.steps * 0x1p-24f, 0.0f);
    if (rc != HD_OK)
        goto out;
    for (int c = 0; c < ctas; c++) {
        double bound = 2.0 * (bounds[c] + (sz.per_thread + 8.0) * u * ref_sums[c]);
        if (!(fabs((double)sums[c] - ref_sums[c]) <= bound)) {
            rc = hd_wl_fail(ctx, "CTA payoff sum[%d]: expected %.9g, got %.9g (bound %.3g)", c,
                            ref_sums[c], (double)sums[c], bound);
            goto out;
        }
    }
    {
        double disc = exp(-ASIAN_RATE), mean = total / nsims;
        double se = disc * sqrt(fmax(total_sq / nsims - mean * mean, 0.0) / nsims);
        fprintf(ctx->log, "asianoption: states exact, %zu path points and %d CTA sums within "
                          "bounds; price %.4f +- %.4f\n", points, ctas, disc * mean, se);
    }

out:
    if (gpu) {
        hd_free(gpu, d_jump);
        hd_free(gpu, d_seed);
        hd_free(gpu, d_states);
        hd_free(gpu, d_paths);
        hd_free(gpu, d_sums);
    }
    xw_jumps_free(&jumps);
    free(states);
    free(ref_states);
    free(paths);
    free(ref_paths);
    free(sums);
    free(ref_sums);
    free(bounds);
    return rc;
}

const struct hd_workload hd_workload_asianoption = {
    .name = "asianoption",
    .description = "Monte-Carlo Asian call: RNG init, path generation, payoffs (SDK AsianOption)",
    .klass = "compute",
    .idempotent = true, /* each kernel writes only its thread's state, paths or CTA sum */
    .run = asian_run,
};
/* {==== Footprint variant (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_asianoption_r24 = {
    .name = "asianoption_r24",
    .description = "asianoption variant: asian_init_rng capped at 24 registers (EXPARS SING1)",
    .klass = "compute",
    .idempotent = true,
    .run = asian_run,
    .variant_of = "asianoption",
    .variant_flags = "-DMAXREG=24",
    .paper_row = "EXPARS Table 3 SING1 (asian_init_rng 24 regs) and SING2 (asian_gen_paths 28 regs)",
};
const struct hd_workload hd_workload_asianoption_r24_w4 = {
    .name = "asianoption_r24_w4",
    .description = "asianoption_r24 with a small input of 4 full waves of asian_init_rng (300 CTAs of 5 per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = asian_run,
    .variant_of = "asianoption",
    .variant_flags = "-DMAXREG=24 -DWAVES=4",
    .paper_row = "EXPARS Table 3 SING1 (asian_init_rng 24 regs), >= 3 waves at EXPARS's 6 CTAs/SM",
};
const struct hd_workload hd_workload_asianoption_w5 = {
    .name = "asianoption_w5",
    .description = "asianoption with a small input of 5 full waves of asian_gen_paths (300 CTAs of 4 per SM on 15 SMs)",
    .klass = "compute",
    .idempotent = true,
    .run = asian_run,
    .variant_of = "asianoption",
    .variant_flags = "-DWAVES=5",
    .paper_row = "EXPARS Table 3 SING2 (asian_gen_paths 28 regs), >= 3 waves at EXPARS's 6 CTAs/SM",
};
