/* SPDX-License-Identifier: MIT
 * barneshut.c - host driver of the barneshut workload: build an octree over a Plummer-like star
 * cluster on the host, then compute every body's acceleration on the device with bh_force.
 *
 * Tree: a cube around all bodies is split into octants recursively until a cell holds at most
 * BH_BUCKET bodies (or BH_MAX_DEPTH is reached); nodes are emitted in depth-first preorder with
 * their skip index, center of mass and opening distance (width / theta)^2, and the bodies are
 * permuted into tree order. The CPU reference replays the kernel warp by warp (32 consecutive
 * bodies take the warp's vote at every node) with the same single-precision operations (fmaf for
 * the fused ones, IEEE division and square root), so the accelerations must agree exactly; an
 * opening decision or an interaction made differently would show at once. The warp width (32)
 * is part of the algorithm here, as in any warp-voting kernel.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BH_BLOCK 256
#define BH_BUCKET 8
#define BH_MAX_DEPTH 24
#define BH_THETA 0.5
#define BH_EPS2 1e-4f
/* --size waves (issue 32 item 6, workloads/README.md "Occupancy-length inputs"): many more bodies
 * (one thread each, so many more CTAs of the same footprint) at a wider opening angle, which
 * keeps the tree walk per body short enough for the Zorua grid's 342 runs. */
#define BH_WAVES_BODIES 24000
#define BH_WAVES_THETA 2.0
/* --size waves3 (session 21): 96,000 bodies at the same angle make ceil(n / T) / (15 SMs x CTAs
 * per SM) >= 3.1 Baseline waves at every Zorua specification on Kepler and Maxwell (2,048
 * threads per SM at most), 5.6 on Fermi. */
#define BH_W3_BODIES 96000

static int bh_bodies(const struct hd_wl_ctx *ctx)
{
    /* warp instructions: ~0.26 M, ~5.7 M, ~33 M. Paper (issue 26 item 4): 28,000 bodies, 110
     * CTAs of bh_force, 2.4 waves at its 3 CTAs/SM on 15 SMs (large's 63 CTAs make 1.4). */
    static const int n[3] = {500, 4000, 16000};
    if (ctx->waves3)
        return BH_W3_BODIES;
    if (ctx->waves)
        return BH_WAVES_BODIES;
    return ctx->paper ? 28000 : n[ctx->size];
}

struct bh_tree {
    int nnodes, cap;
    float *cm;   /* 4 per node: x, y, z, mass */
    float *open2;
    int *skip, *first, *count;
};

struct bh_build {
    struct bh_tree *t;
    const double *pos; /* 3 per body, original order */
    const double *mass;
    int *idx, *tmp;    /* body indices being partitioned */
    double theta;      /* opening angle: BH_THETA, or BH_WAVES_THETA at --size waves(3) */
};

/* Emit the subtree of bodies idx[lo..hi) in the cube (cx, cy, cz) +- hw; returns its node. */
static int bh_emit(struct bh_build *b, int lo, int hi, double cx, double cy, double cz, double hw,
                   int depth)
{
    struct bh_tree *t = b->t;
    if (t->nnodes == t->cap)
        return -1;
    int k = t->nnodes++;
    double m = 0.0, mx = 0.0, my = 0.0, mz = 0.0;
    for (int q = lo; q < hi; q++) {
        int j = b->idx[q];
        m += b->mass[j];
        mx += b->mass[j] * b->pos[3 * j];
        my += b->mass[j] * b->pos[3 * j + 1];
        mz += b->mass[j] * b->pos[3 * j + 2];
    }
    t->cm[4 * k + 0] = (float)(mx / m);
    t->cm[4 * k + 1] = (float)(my / m);
    t->cm[4 * k + 2] = (float)(mz / m);
    t->cm[4 * k + 3] = (float)m;
    t->open2[k] = (float)((2.0 * hw / b->theta) * (2.0 * hw / b->theta));
    t->first[k] = lo;
    t->count[k] = 0;
    if (hi - lo <= BH_BUCKET || depth >= BH_MAX_DEPTH) {
        t->count[k] = hi - lo;
    } else {
        int cnt[8] = {0}, start[9] = {0};
        for (int q = lo; q < hi; q++) {
            int j = b->idx[q];
            int o = (b->pos[3 * j] >= cx) | (b->pos[3 * j + 1] >= cy) << 1 |
                    (b->pos[3 * j + 2] >= cz) << 2;
            b->tmp[q] = o;
            cnt[o]++;
        }
        for (int o = 0; o < 8; o++)
            start[o + 1] = start[o] + cnt[o];
        int fill[8];
        for (int o = 0; o < 8; o++)
            fill[o] = lo + start[o];
        int *sorted = malloc(sizeof(int) * (size_t)(hi - lo));
        if (!sorted)
            return -1;
        for (int q = lo; q < hi; q++)
            sorted[fill[b->tmp[q]]++ - lo] = b->idx[q];
        memcpy(b->idx + lo, sorted, sizeof(int) * (size_t)(hi - lo));
        free(sorted);
        double h2 = hw / 2.0;
        for (int o = 0; o < 8; o++) {
            if (cnt[o] == 0)
                continue;
            if (bh_emit(b, lo + start[o], lo + start[o + 1], cx + (o & 1 ? h2 : -h2),
                        cy + (o & 2 ? h2 : -h2), cz + (o & 4 ? h2 : -h2), h2, depth + 1) < 0)
                return -1;
        }
    }
    t->skip[k] = t->nnodes;
    return k;
}

/* Plummer-like sphere: radius from the inverse of the cumulative mass (clipped), uniform
 * direction; equal masses summing to 1. */
static void bh_make_bodies(double *pos, double *mass, int n, struct hd_wl_rng *rng)
{
    const double two_pi = 6.28318530717958647692;
    for (int i = 0; i < n; i++) {
        double u = (double)hd_wl_rng_float(rng, 0.01f, 0.95f);
        double r = 1.0 / sqrt(pow(u, -2.0 / 3.0) - 1.0);
        double z = (double)hd_wl_rng_float(rng, -1.0f, 1.0f);
        double phi = two_pi * (double)hd_wl_rng_float(rng, 0.0f, 1.0f);
        double s = sqrt(1.0 - z * z);
        pos[3 * i] = r * s * cos(phi);
        pos[3 * i + 1] = r * s * sin(phi);
        pos[3 * i + 2] = r * z;
        mass[i] = 1.0 / n;
    }
}

static void bh_ref_interact(float dx, float dy, float dz, float d2, float m, float *a)
{
    float inv = 1.0f / sqrtf(d2 + BH_EPS2);
    float s = m * inv * inv * inv;
    a[0] = fmaf(dx, s, a[0]);
    a[1] = fmaf(dy, s, a[1]);
    a[2] = fmaf(dz, s, a[2]);
}

/* The kernel's walk for the warp of bodies w0 .. w0 + 31 (those < n), into acc[3 * i ..];
 * returns the number of nodes the warp visited. */
static long bh_ref_warp(const struct bh_tree *t, const float *body, int n, int w0, float *acc)
{
    const int w1 = w0 + 32 < n ? w0 + 32 : n;
    long visits = 0;
    for (int i = w0; i < w1; i++)
        acc[3 * i] = acc[3 * i + 1] = acc[3 * i + 2] = 0.0f;
    for (int k = 0; k < t->nnodes; visits++) {
        const float *c = t->cm + 4 * k;
        int open = 0;
        for (int i = w0; i < w1; i++) {
            const float *p = body + 4 * i;
            float dx = c[0] - p[0], dy = c[1] - p[1], dz = c[2] - p[2];
            open |= fmaf(dz, dz, fmaf(dy, dy, dx * dx)) <= t->open2[k];
        }
        if (!open) {
            for (int i = w0; i < w1; i++) {
                const float *p = body + 4 * i;
                float dx = c[0] - p[0], dy = c[1] - p[1], dz = c[2] - p[2];
                bh_ref_interact(dx, dy, dz, fmaf(dz, dz, fmaf(dy, dy, dx * dx)), c[3],
                                acc + 3 * i);
            }
            k = t->skip[k];
        } else if (t->count[k] > 0) {
            for (int i = w0; i < w1; i++) {
                const float *p = body + 4 * i;
                for (int j = t->first[k]; j < t->first[k] + t->count[k]; j++) {
                    if (j == i)
                        continue;
                    const float *q = body + 4 * j;
                    float ex = q[0] - p[0], ey = q[1] - p[1], ez = q[2] - p[2];
                    bh_ref_interact(ex, ey, ez, fmaf(ez, ez, fmaf(ey, ey, ex * ex)), q[3],
                                    acc + 3 * i);
                }
            }
            k = t->skip[k];
        } else {
            k++;
        }
    }
    return visits;
}

int barneshut_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    const int n = bh_bodies(ctx);
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    struct bh_tree t = {.cap = 4 * n + 64};
    hd_devptr d_body = 0, d_cm = 0, d_open = 0, d_skip = 0, d_first = 0, d_count = 0, d_acc = 0;
    double *pos = malloc(sizeof(double) * 3 * (size_t)n), *mass = malloc(sizeof(double) * (size_t)n);
    int *idx = malloc(sizeof(int) * (size_t)n), *tmp = malloc(sizeof(int) * (size_t)n);
    float *body = malloc(sizeof(float) * 4 * (size_t)n);
    float *acc = malloc(sizeof(float) * 3 * (size_t)n), *ref = malloc(sizeof(float) * 3 * (size_t)n);
    t.cm = malloc(sizeof(float) * 4 * (size_t)t.cap);
    t.open2 = malloc(sizeof(float) * (size_t)t.cap);
    t.skip = malloc(sizeof(int) * (size_t)t.cap);
    t.first = malloc(sizeof(int) * (size_t)t.cap);
    t.count = malloc(sizeof(int) * (size_t)t.cap);
    if (!pos || !mass || !idx || !tmp || !body || !acc || !ref || !t.cm || !t.open2 || !t.skip ||
        !t.first || !t.count) {
        rc = hd_wl_fail(ctx, "barneshut: out of host memory");
        goto out;
    }

    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x62686e62u);
    bh_make_bodies(pos, mass, n, &rng);
    double lo[3] = {pos[0], pos[1], pos[2]}, hi[3] = {pos[0], pos[1], pos[2]};
    for (int i = 0; i < n; i++) {
        idx[i] = i;
        for (int d = 0; d < 3; d++) {
            lo[d] = fmin(lo[d], pos[3 * i + d]);
            hi[d] = fmax(hi[d], pos[3 * i + d]);
        }
    }
    double hw = 0.0;
    for (int d = 0; d < 3; d++)
        hw = fmax(hw, 0.5 * (hi[d] - lo[d]) * 1.001);
    struct bh_build b = {.t = &t, .pos = pos, .mass = mass, .idx = idx, .tmp = tmp,
                         .theta = ctx->waves ? BH_WAVES_THETA : BH_THETA};
    if (bh_emit(&b, 0, n, 0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2]), hw,
                0) < 0) {
        rc = hd_wl_fail(ctx, "barneshut: tree node budget exceeded or out of memory");
        goto out;
    }
    for (int q = 0; q < n; q++) { /* bodies in tree order */
        int j = idx[q];
        body[4 * q + 0] = (float)pos[3 * j];
        body[4 * q + 1] = (float)pos[3 * j + 1];
        body[4 * q + 2] = (float)pos[3 * j + 2];
        body[4 * q + 3] = (float)mass[j];
    }
    const float eps2 = BH_EPS2;
    fprintf(ctx->log, "barneshut: %d bodies, %d tree nodes, theta %.2f\n", n, t.nnodes, b.theta);
    const long tb = hd_wl_spec_threads(ctx, "barneshut", "TB", BH_BLOCK);
    if (tb < 0) {
        rc = HD_WL_MISMATCH;
        goto out;
    }
    hd_wl_work(ctx, hd_wl_hash(HD_WL_HASH_INIT, body, sizeof(float) * 4 * (size_t)n),
               "barneshut n=%d nodes=%d", n, t.nnodes);

    const size_t nn = (size_t)t.nnodes;
    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const bh_kernels[] = {"bh_force"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, bh_kernels, 1)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_body, sizeof(float) * 4 * (size_t)n));
    HD_WL_TRY(hd_malloc(gpu, &d_cm, sizeof(float) * 4 * nn));
    HD_WL_TRY(hd_malloc(gpu, &d_open, sizeof(float) * nn));
    HD_WL_TRY(hd_malloc(gpu, &d_skip, sizeof(int) * nn));
    HD_WL_TRY(hd_malloc(gpu, &d_first, sizeof(int) * nn));
    HD_WL_TRY(hd_malloc(gpu, &d_count, sizeof(int) * nn));
    HD_WL_TRY(hd_malloc(gpu, &d_acc, sizeof(float) * 3 * (size_t)n));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_body, body, sizeof(float) * 4 * (size_t)n));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_cm, t.cm, sizeof(float) * 4 * nn));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_open, t.open2, sizeof(float) * nn));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_skip, t.skip, sizeof(int) * nn));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_first, t.first, sizeof(int) * nn));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_count, t.count, sizeof(int) * nn));
    HD_WL_TRY(hd_memset(gpu, d_acc, 0xff, sizeof(float) * 3 * (size_t)n));

    struct hd_dim3 grid = {(uint32_t)((n + tb - 1) / tb), 1, 1};
    struct hd_dim3 block = {(uint32_t)tb, 1, 1};
    struct hd_arg args[] = {HD_ARG(d_body),  HD_ARG(d_cm),    HD_ARG(d_open),
                            HD_ARG(d_skip),  HD_ARG(d_first), HD_ARG(d_count),
                            HD_ARG(t.nnodes), HD_ARG(eps2),   HD_ARG(d_acc),
                            HD_ARG(n)};
    HD_WL_TRY(hd_launch(gpu, mod, "bh_force", grid, block, 0, 0, args, 10));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, acc, d_acc, sizeof(float) * 3 * (size_t)n));

    long visits = 0;
    for (int w0 = 0; w0 < n; w0 += 32)
        visits += bh_ref_warp(&t, body, n, w0, ref);
    fprintf(ctx->log, "barneshut: %.1f nodes visited per warp\n", (double)visits / ((n + 31) / 32));
    /* Exact: the same IEEE operations in the same order (see the header comment). */
    rc = hd_wl_compare_f32(ctx, "acceleration", ref, acc, 3 * (size_t)n, 0.0f, 0.0f);

out:
    hd_free(gpu, d_body);
    hd_free(gpu, d_cm);
    hd_free(gpu, d_open);
    hd_free(gpu, d_skip);
    hd_free(gpu, d_first);
    hd_free(gpu, d_count);
    hd_free(gpu, d_acc);
    free(pos);
    free(mass);
    free(idx);
    free(tmp);
    free(body);
    free(acc);
    free(ref);
    free(t.cm);
    free(t.open2);
    free(t.skip);
    free(t.first);
    free(t.count);
    return rc;
}

const struct hd_workload hd_workload_barneshut = {
    .name = "barneshut",
    .description = "Barnes-Hut force phase: warp-voted stackless octree walk, tree built on host",
    .klass = "irregular",
    .idempotent = true,
    .run = barneshut_run,
};
