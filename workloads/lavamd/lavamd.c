/* SPDX-License-Identifier: MIT
 * lavamd.c - host driver of the lavamd workload: particle potential and relocation forces
 * between the particles of neighbouring boxes (Rodinia lavaMD; Lin thesis Table 4.2 "LAV").
 *
 * Inputs as Rodinia makes them: v, x, y, z and the charge of every particle are (k + 1) / 10 for
 * k uniform in 0..9. One launch of lavamd_forces, one CTA per box. The CPU reference sums the
 * same terms in double over the same boxes.
 *
 * Tolerance, per particle and component: r2 = v_i + v_j - dot(i, j) is rounded to within about
 * 6 u (|v_i| + |v_j| + |dot|) <= 30 u (u = 2^-24, coordinates <= 1), which changes vij =
 * exp(-0.5 r2) by 15 u relative, plus expf's own 2 ulp; (i - j).x is off by at most u; so each
 * float term is within about 40 u |q| vij (2 |dx| + 1) of the exact one, and summing n terms in
 * float adds n u times their magnitudes: |got - exact| <= (n + 64) u sum |q| vij (2 |d| + 1).
 * For n = 2,700 terms that is 1.6e-4 of the magnitude sum, while one lost neighbour box (100 terms
 * of the same sign in v) moves the result by percents.
 *
 * Variants lavamd_rod and lavamd_rod_ccbp (session 25, lv_run_rodinia): Rodinia 3.1's form of the
 * kernel (lavamd.cu's lavamd_rod) with its box table, fv zeroed and added to on the device; the
 * same reference and tolerance (the forces are still a float running sum of the same terms).
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define LV_PAR 100 /* particles per box; must match lavamd.cu */
#define LV_TB 128  /* threads per CTA; must match lavamd.cu */
#define LV_A2 0.5f /* 2 alpha^2 with Rodinia's alpha = 0.5 */

struct lv_size {
    int bx, by, bz;
};

static struct lv_size lv_size_of(enum hd_wl_size size)
{
    /* 4, 27 and 216 boxes (CTAs; 216 = 1.8 waves of 8 CTAs on 15 SMs; Rodinia's default is 10^3).
     * 0.24 M, 4.9 M and 58 M warp instructions (measured, --functional). */
    static const struct lv_size s[3] = {{2, 2, 1}, {3, 3, 3}, {6, 6, 6}};
    return s[size];
}

/* Exact (double) forces of box `home`'s particles and their error bounds; returns 0 or the index
 * of the first particle component outside the bound, as k + 1, with e/tol of that component. */
static size_t lv_check_box(const float *rv, const float *qv, const float *got, struct lv_size z,
                           int home, double *first_e, double *first_tol)
{
    const int hx = home % z.bx, hy = (home / z.bx) % z.by, hz = home / (z.bx * z.by);
    const double u = ldexp(1.0, -24);
    for (int i = 0; i < LV_PAR; i++) {
        const float *a = rv + ((size_t)home * LV_PAR + i) * 4;
        double f[4] = {0, 0, 0, 0}, mag[4] = {0, 0, 0, 0};
        int n = 0;
        for (int nb = 0; nb < 27; nb++) {
            int nx = hx + nb % 3 - 1, ny = hy + (nb / 3) % 3 - 1, nz = hz + nb / 9 - 1;
            if (nx < 0 || ny < 0 || nz < 0 || nx >= z.bx || ny >= z.by || nz >= z.bz)
                continue;
            int box = (nz * z.by + ny) * z.bx + nx;
            for (int j = 0; j < LV_PAR; j++) {
                const float *b = rv + ((size_t)box * LV_PAR + j) * 4;
                double q = qv[(size_t)box * LV_PAR + j];
                double r2 = (double)a[0] + (double)b[0] -
                            ((double)a[1] * (double)b[1] + (double)a[2] * (double)b[2] +
                             (double)a[3] * (double)b[3]);
                double vij = exp(-(double)LV_A2 * r2);
                f[0] += q * vij;
                mag[0] += fabs(q) * vij;
                for (int c = 1; c < 4; c++) {
                    double d = (double)a[c] - (double)b[c];
                    f[c] += q * 2.0 * vij * d;
                    mag[c] += fabs(q) * vij * (2.0 * fabs(d) + 1.0);
                }
                n++;
            }
        }
        for (int c = 0; c < 4; c++) {
            size_t k = ((size_t)home * LV_PAR + i) * 4 + (size_t)c;
            double tol = (n + 64) * u * mag[c];
            if (!(fabs((double)got[k] - f[c]) <= tol)) {
                *first_e = f[c];
                *first_tol = tol;
                return k + 1;
            }
        }
    }
    return 0;
}

/* Every box's forces against the reference (lv_check_box); HD_OK or the first one off. */
static int lv_verify(struct hd_wl_ctx *ctx, const float *rv, const float *qv, const float *got,
                     struct lv_size z)
{
    const int boxes = z.bx * z.by * z.bz;
    size_t bad = 0, first = 0;
    double first_e = 0.0, first_tol = 0.0;
    for (int home = 0; home < boxes; home++) {
        double e, tol;
        size_t k = lv_check_box(rv, qv, got, z, home, &e, &tol);
        if (k && bad++ == 0) {
            first = k - 1;
            first_e = e;
            first_tol = tol;
        }
    }
    if (!bad)
        return HD_OK;
    static const char comp[4] = {'v', 'x', 'y', 'z'};
    return hd_wl_fail(ctx,
                      "fv[%zu] (particle %zu, %c): expected %.9g, got %.9g (tolerance %.3g; %zu "
                      "of %d boxes differ)",
                      first, first / 4, comp[first % 4], first_e, (double)got[first], first_tol,
                      bad, boxes);
}

/* Variant lavamd_rod_ccbp (LV_RODINIA; lavamd.cu's lavamd_rod, Rodinia 3.1's form; docs/blocks/
 * ccbp.md "Session 25: LAV in Rodinia's form"). The box table as Rodinia lays it out (the device
 * reads it per neighbour box): a box's coordinates, number, first particle, neighbour count and
 * neighbours, the home box's own interactions first, then the neighbours in dz, dy, dx order. */
struct lv_nei {
    int32_t x, y, z, number;
    int64_t offset;
};
struct lv_box {
    int32_t x, y, z, number;
    int64_t offset;
    int32_t nn;
    struct lv_nei nei[26];
};
_Static_assert(sizeof(struct lv_nei) == 24 && sizeof(struct lv_box) == 656,
               "lv_box must have the layout of lavamd.cu's (and Rodinia's) box_str");

static struct lv_size lv_rod_size_of(enum hd_wl_size size)
{
    /* small: 4 boxes (CI); medium: the CCBP experiment's input (docs/blocks/ccbp.md "Session
     * 25"): a row of 144 boxes, one wave of the 9 CTAs per SM lavamd_rod_ccbp's 52 registers
     * leave on configs/maxwell-ccbp.ini's 16 SMs (lavamd_rod: 64 registers, 8 per SM, 1.1 waves;
     * under a CCBP quota of fewer CTAs per SM, several), each box with the fewest neighbours a
     * grid gives (2), so that the per-interaction form's run stays short (the helper's 288-box
     * row, two waves, took 5.49 M cycles: the grid's 45-minute budget could not hold its
     * points); large: Rodinia's run, -boxes1d 10. */
    static const struct lv_size s[3] = {{2, 2, 1}, {144, 1, 1}, {10, 10, 10}};
    return s[size];
}

static int lv_run_rodinia(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct lv_size z = lv_rod_size_of(ctx->size);
    const int boxes = z.bx * z.by * z.bz;
    const size_t npar = (size_t)boxes * LV_PAR;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_box = 0, d_rv = 0, d_qv = 0, d_fv = 0;
    struct lv_box *box = calloc((size_t)boxes, sizeof(*box));
    float *rv = malloc(npar * 16), *qv = malloc(npar * 4), *got = malloc(npar * 16);
    float alpha = 0.5f; /* Rodinia's; a2 = 2 alpha^2 = LV_A2 */
    long long nboxes = boxes;

    if (!box || !rv || !qv || !got) {
        rc = hd_wl_fail(ctx, "lavamd: out of host memory");
        goto out;
    }
    for (int b = 0; b < boxes; b++) {
        struct lv_box *h = &box[b];
        h->x = b % z.bx;
        h->y = (b / z.bx) % z.by;
        h->z = b / (z.bx * z.by);
        h->number = b;
        h->offset = (int64_t)b * LV_PAR;
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = h->x + dx, ny = h->y + dy, nz = h->z + dz;
                    if ((dx == 0 && dy == 0 && dz == 0) || nx < 0 || ny < 0 || nz < 0 ||
                        nx >= z.bx || ny >= z.by || nz >= z.bz)
                        continue;
                    struct lv_nei *n = &h->nei[h->nn++];
                    n->x = nx;
                    n->y = ny;
                    n->z = nz;
                    n->number = (nz * z.by + ny) * z.bx + nx;
                    n->offset = (int64_t)n->number * LV_PAR;
                }
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6c61766du);
    for (size_t p = 0; p < npar; p++) {
        for (int c = 0; c < 4; c++)
            rv[p * 4 + (size_t)c] = (float)(hd_wl_rng_u32(&rng) % 10u + 1u) / 10.0f;
        qv[p] = (float)(hd_wl_rng_u32(&rng) % 10u + 1u) / 10.0f;
    }
    fprintf(ctx->log,
            "lavamd: Rodinia form, %dx%dx%d boxes of %d particles, %d threads per CTA, forces "
            "added in global memory\n",
            z.bx, z.by, z.bz, LV_PAR, LV_TB);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_box, sizeof(*box) * (size_t)boxes));
    HD_WL_TRY(hd_malloc(gpu, &d_rv, npar * 16));
    HD_WL_TRY(hd_malloc(gpu, &d_qv, npar * 4));
    HD_WL_TRY(hd_malloc(gpu, &d_fv, npar * 16));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_box, box, sizeof(*box) * (size_t)boxes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_rv, rv, npar * 16));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_qv, qv, npar * 4));
    HD_WL_TRY(hd_memset(gpu, d_fv, 0, npar * 16)); /* the kernel adds to it, as Rodinia's */
    {
        struct hd_dim3 grid = {(uint32_t)boxes, 1, 1}, block = {LV_TB, 1, 1};
        struct hd_arg args[] = {HD_ARG(alpha), HD_ARG(nboxes), HD_ARG(d_box),
                                HD_ARG(d_rv),  HD_ARG(d_qv),   HD_ARG(d_fv)};
        HD_WL_TRY(hd_launch(gpu, mod, "lavamd_rod", grid, block, 0, 0, args, 6));
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_fv, npar * 16));
    rc = lv_verify(ctx, rv, qv, got, z);

out:
    hd_free(gpu, d_box);
    hd_free(gpu, d_rv);
    hd_free(gpu, d_qv);
    hd_free(gpu, d_fv);
    free(box);
    free(rv);
    free(qv);
    free(got);
    return rc;
}

static int lv_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    if (hd_wl_flag(hd_wl_variant_flags(ctx), "LV_RODINIA", 0))
        return lv_run_rodinia(gpu, ctx);
    struct lv_size z = lv_size_of(ctx->size);
    const int boxes = z.bx * z.by * z.bz;
    const size_t npar = (size_t)boxes * LV_PAR;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    hd_devptr d_rv = 0, d_qv = 0, d_fv = 0;
    float *rv = malloc(npar * 16), *qv = malloc(npar * 4), *got = malloc(npar * 16);
    float a2 = LV_A2;

    if (!rv || !qv || !got) {
        rc = hd_wl_fail(ctx, "lavamd: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x6c61766du);
    for (size_t p = 0; p < npar; p++) {
        for (int c = 0; c < 4; c++)
            rv[p * 4 + (size_t)c] = (float)(hd_wl_rng_u32(&rng) % 10u + 1u) / 10.0f;
        qv[p] = (float)(hd_wl_rng_u32(&rng) % 10u + 1u) / 10.0f;
    }
    fprintf(ctx->log, "lavamd: %dx%dx%d boxes of %d particles, %d threads per CTA\n", z.bx, z.by,
            z.bz, LV_PAR, LV_TB);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_rv, npar * 16));
    HD_WL_TRY(hd_malloc(gpu, &d_qv, npar * 4));
    HD_WL_TRY(hd_malloc(gpu, &d_fv, npar * 16));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_rv, rv, npar * 16));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_qv, qv, npar * 4));
    HD_WL_TRY(hd_memset(gpu, d_fv, 0xff, npar * 16)); /* NaN: a force nothing writes shows */
    struct hd_dim3 grid = {(uint32_t)boxes, 1, 1}, block = {LV_TB, 1, 1};
    struct hd_arg args[] = {HD_ARG(d_rv), HD_ARG(d_qv), HD_ARG(d_fv), HD_ARG(z.bx),
                            HD_ARG(z.by), HD_ARG(z.bz), HD_ARG(a2)};
    HD_WL_TRY(hd_launch(gpu, mod, "lavamd_forces", grid, block, 0, 0, args, 7));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_fv, npar * 16));

    rc = lv_verify(ctx, rv, qv, got, z);

out:
    hd_free(gpu, d_rv);
    hd_free(gpu, d_qv);
    hd_free(gpu, d_fv);
    free(rv);
    free(qv);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_lavamd = {
    .name = "lavamd",
    .description = "particle forces between neighbouring boxes (Rodinia lavaMD), 128-thread CTAs, expf",
    .klass = "compute",
    .idempotent = true,
    .run = lv_run,
};
const struct hd_workload hd_workload_lavamd_rod = {
    .name = "lavamd_rod",
    .description = "Rodinia's form of lavaMD as nvcc 13 compiles it: forces added into global "
                   "memory once per neighbour box, box table in global memory, 16-byte records",
    .klass = "compute",
    .idempotent = false,
    .run = lv_run,
    .variant_of = "lavamd",
    .variant_flags = "-DLV_RODINIA=1",
    .paper_row = "Rodinia lavaMD kernel_gpu_cuda (the sums promoted to registers per neighbour box "
                 "by nvcc 13; Lin Table 4.2 LAV is lavamd_rod_ccbp)",
};
const struct hd_workload hd_workload_lavamd_rod_ccbp = {
    .name = "lavamd_rod_ccbp",
    .description = "Rodinia's form of lavaMD (Lin's LAV): every interaction added into fv in "
                   "global memory (volatile), box table in global memory, 16-byte records",
    .klass = "memory",
    .idempotent = false,
    .run = lv_run,
    .variant_of = "lavamd",
    .variant_flags = "-DLV_RODINIA=1 -DLV_FV_EACH=1",
    .paper_row = "Lin Table 4.2 LAV (NBI: throughput 5 %, NoC 53 %, DRAM 1 %, L2 miss 1 %) = Rodinia "
                 "lavaMD kernel_gpu_cuda",
};
