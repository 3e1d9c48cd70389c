/* SPDX-License-Identifier: MIT
 * cutcp.c - host driver of the cutcp workload: the cutoff Coulombic potential of a set of charged
 * atoms on a 3-D lattice (Parboil "cutcp"; Lin thesis Table 3.2 "CP").
 *
 * Atoms: each bin of CP_BIN^3 lattice cells (4 A edge at a spacing CP_H of 0.5 A) gets 0 to 6
 * atoms at uniform positions inside it with charges uniform in [-1, 1) (about 0.05 atoms per A^3,
 * never more than the CP_DEPTH slots, so no atom is left for the CPU as Parboil's overflow is).
 * One launch of cutcp_lattice over the lattice's regions; the whole lattice is compared with a
 * CPU reference in double over the same 27 bins around each point.
 *
 * Tolerance, per lattice point with n atoms in range: each float term q s^2 / r (s = 1 - r^2 /
 * cut^2 <= 1) is off by at most ~10 u |q| / r (u = 2^-24: rounding of the distances and of s, and
 * rsqrt.approx's 2^-22.9 relative error), and summing n terms in float adds at most n u times the
 * sum of their magnitudes. So |got - exact| <= (n + 16) 2u sum |q| / r, computed per point. A lost
 * or wrong atom moves the potential by about |q| / r, well above that.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>

#define CP_BIN 8   /* lattice points per bin edge (a CTA's region); must match cutcp.cu */
#define CP_DEPTH 8 /* atom slots per bin; must match cutcp.cu */
#define CP_H 0.5f  /* lattice spacing (A) */
#define CP_MAX_PER_BIN 6

struct cp_size {
    int nx, ny, nz;
};

static struct cp_size cp_size_of(enum hd_wl_size size)
{
    /* 12, 144 and 1,152 regions (CTAs of 128 threads; 1,152 = 9.6 waves of 8 CTAs on 15 SMs);
     * small is not a multiple of the region. 0.28 M, 3.4 M and 28 M warp instructions (measured,
     * --functional). */
    static const struct cp_size s[3] = {{20, 14, 13}, {48, 48, 32}, {96, 96, 64}};
    return s[size];
}

struct cp_grid {
    int nbx, nby, nbz;
};

static void cp_make_bins(struct hd_wl_rng *rng, float *bins, struct cp_grid g, int *natoms)
{
    const float edge = CP_BIN * CP_H;
    *natoms = 0;
    for (int bz = 0; bz < g.nbz; bz++)
        for (int by = 0; by < g.nby; by++)
            for (int bx = 0; bx < g.nbx; bx++) {
                float *b = bins + (size_t)((bz * g.nby + by) * g.nbx + bx) * CP_DEPTH * 4;
                int count = (int)(hd_wl_rng_u32(rng) % (CP_MAX_PER_BIN + 1));
                for (int s = 0; s < CP_DEPTH; s++) {
                    float *a = b + 4 * s;
                    if (s < count) {
                        a[0] = hd_wl_rng_float(rng, bx * edge, (bx + 1) * edge);
                        a[1] = hd_wl_rng_float(rng, by * edge, (by + 1) * edge);
                        a[2] = hd_wl_rng_float(rng, bz * edge, (bz + 1) * edge);
                        a[3] = hd_wl_rng_float(rng, -1.0f, 1.0f);
                    } else {
                        a[0] = a[1] = a[2] = -1.0e4f; /* an empty slot: far away, no charge */
                        a[3] = 0.0f;
                    }
                }
                *natoms += count;
            }
}

/* The first lattice point outside its tolerance, or HD_OK. */
static int cp_check(struct hd_wl_ctx *ctx, const float *bins, const float *got, struct cp_size z,
                    struct cp_grid g, float cut2)
{
    size_t bad = 0, first = 0;
    double first_e = 0.0, first_tol = 0.0;
    for (int k = 0; k < z.nz; k++)
        for (int j = 0; j < z.ny; j++)
            for (int i = 0; i < z.nx; i++) {
                double px = (double)(i * CP_H), py = (double)(j * CP_H), pz = (double)(k * CP_H);
                double e = 0.0, mag = 0.0;
                int n = 0;
                for (int nb = 0; nb < 27; nb++) {
                    int bx = i / CP_BIN + nb % 3 - 1, by = j / CP_BIN + (nb / 3) % 3 - 1;
                    int bz = k / CP_BIN + nb / 9 - 1;
                    if (bx < 0 || by < 0 || bz < 0 || bx >= g.nbx || by >= g.nby || bz >= g.nbz)
                        continue;
                    const float *b = bins + (size_t)((bz * g.nby + by) * g.nbx + bx) * CP_DEPTH * 4;
                    for (int s = 0; s < CP_DEPTH; s++) {
                        const float *a = b + 4 * s;
                        double dx = (double)a[0] - px, dy = (double)a[1] - py, dz = (double)a[2] - pz;
                        double r2 = dx * dx + dy * dy + dz * dz;
                        if (r2 >= (double)cut2)
                            continue;
                        double sm = 1.0 - r2 / (double)cut2, r = sqrt(r2);
                        e += (double)a[3] / r * sm * sm;
                        mag += fabs((double)a[3]) / r;
                        n++;
                    }
                }
                size_t idx = ((size_t)k * z.ny + j) * z.nx + i;
                double tol = (n + 16) * 2.0 * ldexp(1.0, -24) * mag;
                if (!(fabs((double)got[idx] - e) <= tol)) {
                    if (bad++ == 0) {
                        first = idx;
                        first_e = e;
                        first_tol = tol;
                    }
                }
            }
    if (bad == 0)
        return HD_OK;
    size_t i = first % (size_t)z.nx, j = first / (size_t)z.nx % (size_t)z.ny;
    size_t k = first / ((size_t)z.nx * z.ny);
    return hd_wl_fail(ctx,
                      "lattice[%zu] (x %zu, y %zu, z %zu): expected %.9g, got %.9g (tolerance "
                      "%.3g; %zu of %zu points differ)",
                      first, i, j, k, first_e, (double)got[first], first_tol, bad,
                      (size_t)z.nx * z.ny * z.nz);
}

static int cp_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct cp_size z = cp_size_of(ctx->size);
    struct cp_grid g = {(z.nx + CP_BIN - 1) / CP_BIN, (z.ny + CP_BIN - 1) / CP_BIN,
                        (z.nz + CP_BIN - 1) / CP_BIN};
    const size_t nbins = (size_t)g.nbx * g.nby * g.nbz, bin_bytes = nbins * CP_DEPTH * 16;
    const size_t npts = (size_t)z.nx * z.ny * z.nz, lat_bytes = npts * sizeof(float);
    int rc = HD_OK, natoms = 0;
    struct hd_module *mod = NULL;
    hd_devptr d_bins = 0, d_lat = 0;
    float *bins = malloc(bin_bytes), *got = malloc(lat_bytes);
    float h = CP_H, cut = CP_BIN * CP_H, cut2 = cut * cut, inv_cut2 = 1.0f / cut2;

    if (!bins || !got) {
        rc = hd_wl_fail(ctx, "cutcp: out of host memory");
        goto out;
    }
    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x63757463u);
    cp_make_bins(&rng, bins, g, &natoms);
    fprintf(ctx->log, "cutcp: %dx%dx%d lattice (%.1f A spacing), %d atoms in %zu bins, cutoff %.1f A\n",
            z.nx, z.ny, z.nz, (double)h, natoms, nbins, (double)cut);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_malloc(gpu, &d_bins, bin_bytes));
    HD_WL_TRY(hd_malloc(gpu, &d_lat, lat_bytes));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_bins, bins, bin_bytes));
    HD_WL_TRY(hd_memset(gpu, d_lat, 0xff, lat_bytes)); /* NaN: a point nothing writes shows */
    struct hd_dim3 grid = {(uint32_t)g.nbx, (uint32_t)g.nby, (uint32_t)g.nbz};
    struct hd_dim3 block = {CP_BIN, CP_BIN, 2};
    struct hd_arg args[] = {HD_ARG(d_bins), HD_ARG(d_lat), HD_ARG(z.nx), HD_ARG(z.ny),
                            HD_ARG(z.nz),   HD_ARG(g.nbx), HD_ARG(g.nby), HD_ARG(g.nbz),
                            HD_ARG(h),      HD_ARG(cut2),  HD_ARG(inv_cut2)};
    HD_WL_TRY(hd_launch(gpu, mod, "cutcp_lattice", grid, block, 0, 0, args, 11));
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_lat, lat_bytes));
    rc = cp_check(ctx, bins, got, z, g, cut2);

out:
    hd_free(gpu, d_bins);
    hd_free(gpu, d_lat);
    free(bins);
    free(got);
    return rc;
}

const struct hd_workload hd_workload_cutcp = {
    .name = "cutcp",
    .description = "cutoff Coulombic potential (Parboil cutcp), 27 atom bins in shared memory per CTA",
    .klass = "compute",
    .idempotent = true,
    .run = cp_run,
};
