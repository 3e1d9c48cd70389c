/* SPDX-License-Identifier: MIT
 * streamcluster.c - host driver of the streamcluster workload: local search for facility location.
 *
 * Points are drawn around SC_CLUSTERS random cluster centers in [0,1]^dim, with integer weights
 * 1..4. The search starts from SC_K0 random centers; each of `iters` rounds draws a candidate
 * point x (not a center), runs sc_gain, adds the per-CTA fixed-point partial sums and evaluates
 *     gain = savings of switching points - F + sum over closable centers (F - their extra cost),
 * where F is the facility cost and a center is closable when moving its staying points to x costs
 * less than F. If the gain is positive (and a slot is free), sc_commit moves the points. A CPU
 * reference runs the same search in lockstep: the distance uses the same fused multiply-adds
 * (fmaf) and the sums are integers, so the partial sums of every round, the final assignment and
 * the final costs must all agree exactly.
 *
 * Variant (ptx.flags): HD_SC_BLOCK threads per CTA of both kernels (default SC_BLOCK; the kernels
 * use blockDim) is read back from the variant's flags, REGSPEC pins the register count occupancy
 * uses for sc_gain (zorua_spec.h); same inputs, same reference.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SC_DIM_MAX 64 /* these three must match streamcluster.cu */
#define SC_KMAX 64
#define SC_FIX 4096.0f
#define SC_BLOCK 256
#define SC_CLUSTERS 16
#define SC_K0 4

struct sc_size {
    int n, dim, iters;
};

static const struct sc_size sc_sizes[3] = {
    {3000, 32, 8},    /* ~0.49 M warp instructions */
    {20000, 32, 16},  /* ~5.5 M */
    {100000, 32, 24}, /* ~43 M */
};

struct sc_state {
    int n, dim;
    const float *coord, *weight;
    int *assign;
    float *cost;
    int *slot_of;              /* per point: slot of the center it is (valid for centers) */
    int slot_center[SC_KMAX];  /* per slot: the center point or -1 */
};

static float sc_dist(const float *coord, int n, int dim, int i, const float *cx)
{
    float acc = 0.0f;
    for (int d = 0; d < dim; d++) {
        float t = coord[(size_t)d * n + i] - cx[d];
        acc = fmaf(t, t, acc);
    }
    return acc;
}

static void sc_center_coords(const struct sc_state *s, int x, float *cx)
{
    for (int d = 0; d < s->dim; d++)
        cx[d] = s->coord[(size_t)d * s->n + x];
}

/* CPU version of sc_gain summed over all CTAs: out[0] savings, out[1 + slot] extra costs. */
static void sc_ref_gain(const struct sc_state *s, int x, uint64_t *out)
{
    float cx[SC_DIM_MAX];
    sc_center_coords(s, x, cx);
    memset(out, 0, sizeof(uint64_t) * (SC_KMAX + 1));
    for (int i = 0; i < s->n; i++) {
        float x_cost = sc_dist(s->coord, s->n, s->dim, i, cx) * s->weight[i];
        float c = s->cost[i];
        if (x_cost < c)
            out[0] += (unsigned)((c - x_cost) * SC_FIX);
        else
            out[1 + s->slot_of[s->assign[i]]] += (unsigned)((x_cost - c) * SC_FIX);
    }
}

static void sc_ref_commit(struct sc_state *s, int x, const int *closed)
{
    float cx[SC_DIM_MAX];
    sc_center_coords(s, x, cx);
    for (int i = 0; i < s->n; i++) {
        float x_cost = sc_dist(s->coord, s->n, s->dim, i, cx) * s->weight[i];
        if (x_cost < s->cost[i] || closed[s->slot_of[s->assign[i]]]) {
            s->cost[i] = x_cost;
            s->assign[i] = x;
        }
    }
}

/* The host decision from the summed gains: fills closed[], returns the slot for x or -1 if x
 * is not opened. Updates the slot tables when it opens. */
static int sc_decide(struct sc_state *s, int x, const uint64_t *sum, uint64_t fcost, int *closed)
{
    int64_t gain = (int64_t)sum[0] - (int64_t)fcost;
    int slot = -1;
    for (int k = 0; k < SC_KMAX; k++) {
        closed[k] = 0;
        if (s->slot_center[k] >= 0 && sum[1 + k] < fcost) {
            closed[k] = 1;
            gain += (int64_t)(fcost - sum[1 + k]);
        }
    }
    for (int k = 0; k < SC_KMAX && slot < 0; k++)
        if (closed[k])
            slot = k;
    for (int k = 0; k < SC_KMAX && slot < 0; k++)
        if (s->slot_center[k] < 0)
            slot = k;
    if (gain <= 0 || slot < 0) {
        memset(closed, 0, sizeof(int) * SC_KMAX);
        return -1;
    }
    for (int k = 0; k < SC_KMAX; k++)
        if (closed[k])
            s->slot_center[k] = -1;
    s->slot_center[slot] = x;
    s->slot_of[x] = slot;
    return slot;
}

/* Synthetic points, initial centers, and the initial nearest-center assignment. */
static void sc_init(struct sc_state *s, float *coord, float *weight, struct hd_wl_rng *rng)
{
    float ccent[SC_CLUSTERS][SC_DIM_MAX];
    for (int c = 0; c < SC_CLUSTERS; c++)
        for (int d = 0; d < s->dim; d++)
            ccent[c][d] = hd_wl_rng_float(rng, 0.0f, 1.0f);
    for (int i = 0; i < s->n; i++) {
        int c = (int)(hd_wl_rng_u32(rng) % SC_CLUSTERS);
        for (int d = 0; d < s->dim; d++) {
            float a = hd_wl_rng_float(rng, -0.1f, 0.1f);
            float b = hd_wl_rng_float(rng, -0.1f, 0.1f);
            coord[(size_t)d * s->n + i] = ccent[c][d] + a + b;
        }
        weight[i] = (float)(1 + hd_wl_rng_u32(rng) % 4);
    }
    for (int k = 0; k < SC_KMAX; k++)
        s->slot_center[k] = -1;
    for (int i = 0; i < s->n; i++)
        s->slot_of[i] = -1;
    for (int k = 0; k < SC_K0; k++) {
        int x;
        do
            x = (int)(hd_wl_rng_u32(rng) % (uint32_t)s->n);
        while (s->slot_of[x] >= 0);
        s->slot_center[k] = x;
        s->slot_of[x] = k;
    }
    for (int i = 0; i < s->n; i++) {
        float best = INFINITY, cx[SC_DIM_MAX];
        for (int k = 0; k < SC_K0; k++) {
            sc_center_coords(s, s->slot_center[k], cx);
            float c = sc_dist(coord, s->n, s->dim, i, cx) * weight[i];
            if (c < best) {
                best = c;
                s->assign[i] = s->slot_center[k];
            }
        }
        s->cost[i] = best;
    }
}

static int sc_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct sc_size sz = sc_sizes[ctx->size];
    const long tb = hd_wl_spec_threads(ctx, "streamcluster", "HD_SC_BLOCK", SC_BLOCK);
    if (tb < 0)
        return HD_WL_MISMATCH;
    /* Input-size variant (token wN; issue 24, Shieh Table 4.2 victims): WAVES=N (1..64) gives the
     * small set N full waves of sc_gain CTAs on fermi-gtx480 at Table 4.2's 3 TBs per SM (15 x 3
     * x N CTAs of tb points, the last one partial) and 2 rounds (a candidate each); same dims,
     * same reference. */
    const long waves = hd_wl_flag(hd_wl_variant_flags(ctx), "WAVES", 0);
    if (waves > 0 && waves <= 64 && ctx->size == HD_WL_SMALL) {
        sz.n = 15 * 3 * (int)waves * (int)tb - (int)tb / 4;
        sz.iters = 2;
    }
    const int n = sz.n, dim = sz.dim, nblk = (int)((n + tb - 1) / tb);
    const size_t nb = sizeof(float) * (size_t)n, ib = sizeof(int) * (size_t)n;
    const size_t ob = sizeof(unsigned) * (size_t)nblk * (SC_KMAX + 1);
    int rc = HD_OK, opened = 0, nclosed = 0;
    struct hd_module *mod = NULL;
    hd_devptr d_coord = 0, d_weight = 0, d_cost = 0, d_assign = 0, d_slot = 0, d_closed = 0;
    hd_devptr d_switch = 0, d_out = 0;
    float *coord = malloc(nb * (size_t)dim), *weight = malloc(nb), *cost = malloc(nb);
    int *assign = malloc(ib), *slot_of = malloc(ib), *gassign = malloc(ib);
    float *gcost = malloc(nb);
    unsigned *bout = malloc(ob);
    struct sc_state s = {.n = n, .dim = dim, .coord = coord, .weight = weight, .assign = assign,
                         .cost = cost, .slot_of = slot_of};

    if (!coord || !weight || !cost || !assign || !slot_of || !gassign || !gcost || !bout) {
        rc = hd_wl_fail(ctx, "streamcluster: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x73636c75u);
    sc_init(&s, coord, weight, &rng);
    /* Facility cost: about twice what the points of one true cluster pay when served well. */
    const uint64_t fcost = (uint64_t)((double)n / SC_CLUSTERS * 2.0 * (double)SC_FIX);
    fprintf(ctx->log, "streamcluster: %d points x %d dims, %d candidates, %d CTAs\n", n, dim,
            sz.iters, nblk);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const sc_pinned[] = {"sc_gain"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, sc_pinned, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_coord, nb * (size_t)dim));
    HD_WL_TRY(hd_malloc(gpu, &d_weight, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_cost, nb));
    HD_WL_TRY(hd_malloc(gpu, &d_assign, ib));
    HD_WL_TRY(hd_malloc(gpu, &d_slot, ib));
    HD_WL_TRY(hd_malloc(gpu, &d_closed, sizeof(int) * SC_KMAX));
    HD_WL_TRY(hd_malloc(gpu, &d_switch, ib));
    HD_WL_TRY(hd_malloc(gpu, &d_out, ob));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_coord, coord, nb * (size_t)dim));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_weight, weight, nb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_cost, cost, nb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_assign, assign, ib));
    HD_WL_TRY(hd_memset(gpu, d_switch, 0xff, ib));
    HD_WL_TRY(hd_memset(gpu, d_out, 0xff, ob));

    struct hd_dim3 grid = {(uint32_t)nblk, 1, 1}, block = {(uint32_t)tb, 1, 1};
    for (int it = 0; it < sz.iters; it++) {
        int x, k_slots = SC_KMAX, closed[SC_KMAX];
        uint64_t gsum[SC_KMAX + 1], rsum[SC_KMAX + 1];
        do
            x = (int)(hd_wl_rng_u32(&rng) % (uint32_t)n);
        while (slot_of[x] >= 0 && s.slot_center[slot_of[x]] == x);

        HD_WL_TRY(hd_memcpy_h2d(gpu, d_slot, slot_of, ib));
        struct hd_arg ga[] = {HD_ARG(d_coord),  HD_ARG(d_weight), HD_ARG(d_cost), HD_ARG(d_assign),
                              HD_ARG(d_slot),   HD_ARG(n),        HD_ARG(dim),    HD_ARG(x),
                              HD_ARG(k_slots),  HD_ARG(d_switch), HD_ARG(d_out)};
        HD_WL_TRY(hd_launch(gpu, mod, "sc_gain", grid, block, 0, 0, ga, 11));
        HD_WL_TRY(hd_memcpy_d2h(gpu, bout, d_out, ob));
        memset(gsum, 0, sizeof(gsum));
        for (int b = 0; b < nblk; b++)
            for (int k = 0; k <= SC_KMAX; k++)
                gsum[k] += bout[(size_t)b * (SC_KMAX + 1) + k];
        sc_ref_gain(&s, x, rsum);
        for (int k = 0; k <= SC_KMAX; k++)
            if (gsum[k] != rsum[k]) {
                rc = hd_wl_fail(ctx,
                                "streamcluster: round %d (candidate %d): gain sum %d expected %llu, "
                                "got %llu",
                                it, x, k, (unsigned long long)rsum[k],
                                (unsigned long long)gsum[k]);
                goto out;
            }
        int slot = sc_decide(&s, x, gsum, fcost, closed);
        if (slot < 0)
            continue;
        opened++;
        for (int k = 0; k < SC_KMAX; k++)
            nclosed += closed[k];
        HD_WL_TRY(hd_memcpy_h2d(gpu, d_slot, slot_of, ib));
        HD_WL_TRY(hd_memcpy_h2d(gpu, d_closed, closed, sizeof(closed)));
        struct hd_arg ca[] = {HD_ARG(d_coord), HD_ARG(d_weight), HD_ARG(d_cost), HD_ARG(d_assign),
                              HD_ARG(d_slot),  HD_ARG(d_closed), HD_ARG(n),      HD_ARG(dim),
                              HD_ARG(x),       HD_ARG(d_switch)};
        HD_WL_TRY(hd_launch(gpu, mod, "sc_commit", grid, block, 0, 0, ca, 10));
        sc_ref_commit(&s, x, closed);
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, gassign, d_assign, ib));
    HD_WL_TRY(hd_memcpy_d2h(gpu, gcost, d_cost, nb));
    rc = hd_wl_compare_u32(ctx, "assignment", (const uint32_t *)assign, (const uint32_t *)gassign,
                           (size_t)n);
    if (rc == HD_OK) /* bit-exact: same fused multiply-adds, same product */
        rc = hd_wl_compare_f32(ctx, "cost", cost, gcost, (size_t)n, 0.0f, 0.0f);
    if (rc == HD_OK) {
        double total = 0.0;
        for (int i = 0; i < n; i++)
            total += (double)cost[i];
        fprintf(ctx->log, "streamcluster: opened %d centers, closed %d, final cost %.1f\n", opened,
                nclosed, total);
    }

out:
    hd_free(gpu, d_coord);
    hd_free(gpu, d_weight);
    hd_free(gpu, d_cost);
    hd_free(gpu, d_assign);
    hd_free(gpu, d_slot);
    hd_free(gpu, d_closed);
    hd_free(gpu, d_switch);
    hd_free(gpu, d_out);
    free(coord);
    free(weight);
    free(cost);
    free(assign);
    free(slot_of);
    free(gassign);
    free(gcost);
    free(bout);
    return rc;
}

const struct hd_workload hd_workload_streamcluster = {
    .name = "streamcluster",
    .description = "facility-location local search: weighted distance + per-center gain, commit",
    .klass = "memory",
    .idempotent = true,
    .run = sc_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_streamcluster_tb512_r12 = {
    .name = "streamcluster_tb512_r12",
    .description = "streamcluster variant: 512-thread CTAs, sc_gain counted at 12 registers (Shieh Table 4.2 Kernel_compute_cost)",
    .klass = "memory",
    .idempotent = true,
    .run = sc_run,
    .variant_of = "streamcluster",
    .variant_flags = "-DHD_SC_BLOCK=512 -DREGSPEC=12",
    .paper_row = "Shieh Table 4.2 streamcluster Kernel_compute_cost: 6,144 regs/TB (12/thread), 0 B, 512 threads, 3 TBs/SM",
};
const struct hd_workload hd_workload_streamcluster_tb512_r12_w3 = {
    .name = "streamcluster_tb512_r12_w3",
    .description = "streamcluster_tb512_r12 on a small set of 3 full waves per launch (135 CTAs of 3 per SM on 15 SMs)",
    .klass = "memory",
    .idempotent = true,
    .run = sc_run,
    .variant_of = "streamcluster",
    .variant_flags = "-DHD_SC_BLOCK=512 -DREGSPEC=12 -DWAVES=3",
    .paper_row = "Shieh Table 4.2 streamcluster Kernel_compute_cost: 6,144 regs/TB (12/thread), 0 B, 512 threads, 3 TBs/SM, >= 3 waves",
};
/* }==== */
