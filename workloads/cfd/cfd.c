/* SPDX-License-Identifier: MIT
 * cfd.c - host driver of the cfd workload: a few time steps of compressible flow over a distorted
 * quadrilateral mesh stored as an unstructured element/neighbour list.
 *
 * Mesh: W x H cells of a unit-width channel whose vertices are jittered by up to 20 % of the cell
 * size; face normals come from the jittered edges (shared faces get exactly opposite normals) and
 * areas from the shoelace formula. Left/right faces see the free stream, top/bottom faces are
 * slip walls. Elements are numbered by shuffling 8x8 tiles and then the cells inside each tile,
 * so a neighbour is often, but not always, close in memory (gathers are irregular).
 * Flow: free stream at Mach 0.5 with a Gaussian density bump in the middle of the channel.
 * The CPU reference runs the same scheme in single precision; see the tolerance below.
 */
#include "workload.h"
#include "zorua_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CFD_NNB 4 /* these seven must match cfd.cu */
#define CFD_NVAR 5
#define CFD_RK 3
#define CFD_GAMMA 1.4f
#define CFD_CFL 0.4f
#define CFD_WALL (-1)
#define CFD_FARFIELD (-2)
#define CFD_BLOCK 192
#define CFD_TILE 8

struct cfd_size {
    int w, h, steps;
};

static const struct cfd_size cfd_sizes[3] = {
    {60, 45, 2},   /* ~0.32 M warp instructions */
    {200, 150, 3}, /* ~5.2 M */
    {512, 384, 5}, /* ~57 M */
};

struct cfd_mesh {
    int nel;
    int *cell;  /* element number of grid cell y*w + x */
    int *nbr;   /* [j*nel + i] */
    float *nrm; /* [(j*3 + k)*nel + i] */
    float *area;
};

/* {==== CPU reference ==== */

struct cfd_ref_state {
    float rho, mx, my, mz, e, ux, uy, uz, p, c;
};

static void cfd_ref_derive(struct cfd_ref_state *s)
{
    s->ux = s->mx / s->rho;
    s->uy = s->my / s->rho;
    s->uz = s->mz / s->rho;
    float speed2 = s->ux * s->ux + s->uy * s->uy + s->uz * s->uz;
    s->p = (CFD_GAMMA - 1.0f) * (s->e - 0.5f * s->rho * speed2);
    s->c = sqrtf(CFD_GAMMA * s->p / s->rho);
}

static struct cfd_ref_state cfd_ref_load(const float *v, int i, int nel)
{
    struct cfd_ref_state s = {.rho = v[i], .mx = v[nel + i], .my = v[2 * nel + i],
                              .mz = v[3 * nel + i], .e = v[4 * nel + i]};
    cfd_ref_derive(&s);
    return s;
}

static void cfd_ref_flux(const struct cfd_mesh *m, const float *var, const float *ff, float *flux)
{
    const int nel = m->nel;
    for (int i = 0; i < nel; i++) {
        struct cfd_ref_state a = cfd_ref_load(var, i, nel);
        float lam_a = sqrtf(a.ux * a.ux + a.uy * a.uy + a.uz * a.uz) + a.c;
        float r[CFD_NVAR] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        for (int j = 0; j < CFD_NNB; j++) {
            int nb = m->nbr[(size_t)j * nel + i];
            float nx = m->nrm[(size_t)(j * 3 + 0) * nel + i];
            float ny = m->nrm[(size_t)(j * 3 + 1) * nel + i];
            float nz = m->nrm[(size_t)(j * 3 + 2) * nel + i];
            if (nb == CFD_WALL) {
                r[1] -= a.p * nx;
                r[2] -= a.p * ny;
                r[3] -= a.p * nz;
                continue;
            }
            struct cfd_ref_state b;
            if (nb >= 0) {
                b = cfd_ref_load(var, nb, nel);
            } else {
                b = (struct cfd_ref_state){.rho = ff[0], .mx = ff[1], .my = ff[2], .mz = ff[3],
                                           .e = ff[4]};
                cfd_ref_derive(&b);
            }
            float nlen = sqrtf(nx * nx + ny * ny + nz * nz);
            float lam_b = sqrtf(b.ux * b.ux + b.uy * b.uy + b.uz * b.uz) + b.c;
            float diss = 0.5f * fmaxf(lam_a, lam_b) * nlen;
            float una = a.ux * nx + a.uy * ny + a.uz * nz;
            float unb = b.ux * nx + b.uy * ny + b.uz * nz;
            r[0] += -0.5f * (a.rho * una + b.rho * unb) + diss * (b.rho - a.rho);
            r[1] += -0.5f * (a.mx * una + a.p * nx + b.mx * unb + b.p * nx) + diss * (b.mx - a.mx);
            r[2] += -0.5f * (a.my * una + a.p * ny + b.my * unb + b.p * ny) + diss * (b.my - a.my);
            r[3] += -0.5f * (a.mz * una + a.p * nz + b.mz * unb + b.p * nz) + diss * (b.mz - a.mz);
            r[4] += -0.5f * ((a.e + a.p) * una + (b.e + b.p) * unb) + diss * (b.e - a.e);
        }
        for (int v = 0; v < CFD_NVAR; v++)
            flux[(size_t)v * nel + i] = r[v];
    }
}

static void cfd_ref_run(const struct cfd_mesh *m, float *var, const float *ff, int steps,
                        float *old, float *flux, float *step)
{
    const int nel = m->nel;
    const size_t nv = (size_t)CFD_NVAR * nel;
    for (int t = 0; t < steps; t++) {
        memcpy(old, var, nv * sizeof(float));
        for (int i = 0; i < nel; i++) {
            struct cfd_ref_state s = cfd_ref_load(var, i, nel);
            float speed = sqrtf(s.ux * s.ux + s.uy * s.uy + s.uz * s.uz);
            step[i] = CFD_CFL / (sqrtf(m->area[i]) * (speed + s.c));
        }
        for (int stage = 0; stage < CFD_RK; stage++) {
            cfd_ref_flux(m, var, ff, flux);
            for (int i = 0; i < nel; i++) {
                float f = step[i] / (float)(CFD_RK - stage);
                for (int v = 0; v < CFD_NVAR; v++)
                    var[(size_t)v * nel + i] =
                        old[(size_t)v * nel + i] + f * flux[(size_t)v * nel + i];
            }
        }
    }
}

/* }==== */

/* {==== Mesh and initial flow ==== */

static void cfd_shuffle(int *a, int n, struct hd_wl_rng *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(hd_wl_rng_u32(rng) % (uint32_t)(i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Element number of every cell (cx, cy): tiles shuffled, then the cells within each tile. */
static void cfd_numbering(int *id, int w, int h, struct hd_wl_rng *rng)
{
    int tw = (w + CFD_TILE - 1) / CFD_TILE, th = (h + CFD_TILE - 1) / CFD_TILE;
    int *tiles = malloc(sizeof(int) * (size_t)(tw * th));
    int cells[CFD_TILE * CFD_TILE];
    int next = 0;
    for (int t = 0; t < tw * th; t++)
        tiles[t] = t;
    cfd_shuffle(tiles, tw * th, rng);
    for (int k = 0; k < tw * th; k++) {
        int tx = tiles[k] % tw, ty = tiles[k] / tw, nc = 0;
        for (int y = ty * CFD_TILE; y < (ty + 1) * CFD_TILE && y < h; y++)
            for (int x = tx * CFD_TILE; x < (tx + 1) * CFD_TILE && x < w; x++)
                cells[nc++] = y * w + x;
        cfd_shuffle(cells, nc, rng);
        for (int c = 0; c < nc; c++)
            id[cells[c]] = next++;
    }
    free(tiles);
}

static int cfd_make_mesh(struct cfd_mesh *m, int w, int h, struct hd_wl_rng *rng)
{
    const int nel = w * h;
    const double dh = 1.0 / w;
    double *vx = malloc(sizeof(double) * (size_t)(w + 1) * (h + 1));
    double *vy = malloc(sizeof(double) * (size_t)(w + 1) * (h + 1));
    int *id = malloc(sizeof(int) * (size_t)nel);
    m->nel = nel;
    m->cell = id;
    m->nbr = malloc(sizeof(int) * (size_t)CFD_NNB * nel);
    m->nrm = malloc(sizeof(float) * (size_t)CFD_NNB * 3 * nel);
    m->area = malloc(sizeof(float) * (size_t)nel);
    if (!vx || !vy || !id || !m->nbr || !m->nrm || !m->area) {
        free(vx);
        free(vy);
        return -1;
    }
    for (int y = 0; y <= h; y++)
        for (int x = 0; x <= w; x++) {
            /* Jitter interior vertices only, so the boundary stays straight. */
            double jx = (x > 0 && x < w) ? (double)hd_wl_rng_float(rng, -0.2f, 0.2f) : 0.0;
            double jy = (y > 0 && y < h) ? (double)hd_wl_rng_float(rng, -0.2f, 0.2f) : 0.0;
            vx[y * (w + 1) + x] = (x + jx) * dh;
            vy[y * (w + 1) + x] = (y + jy) * dh;
        }
    cfd_numbering(id, w, h, rng);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int i = id[y * w + x];
            /* Corners counter-clockwise: (x,y) (x+1,y) (x+1,y+1) (x,y+1); faces S, E, N, W. */
            int cv[4] = {y * (w + 1) + x, y * (w + 1) + x + 1, (y + 1) * (w + 1) + x + 1,
                         (y + 1) * (w + 1) + x};
            int nb[4] = {y > 0 ? id[(y - 1) * w + x] : CFD_WALL,
                         x < w - 1 ? id[y * w + x + 1] : CFD_FARFIELD,
                         y < h - 1 ? id[(y + 1) * w + x] : CFD_WALL,
                         x > 0 ? id[y * w + x - 1] : CFD_FARFIELD};
            double area = 0.0;
            for (int j = 0; j < CFD_NNB; j++) {
                int a = cv[j], b = cv[(j + 1) % 4];
                m->nbr[(size_t)j * nel + i] = nb[j];
                m->nrm[(size_t)(j * 3 + 0) * nel + i] = (float)(vy[b] - vy[a]);
                m->nrm[(size_t)(j * 3 + 1) * nel + i] = (float)(vx[a] - vx[b]);
                m->nrm[(size_t)(j * 3 + 2) * nel + i] = 0.0f;
                area += vx[a] * vy[b] - vx[b] * vy[a];
            }
            m->area[i] = (float)(0.5 * area);
        }
    free(vx);
    free(vy);
    return 0;
}

/* Free stream (rho 1.4, p 1, so c = 1) at Mach 0.5 along x, plus a Gaussian density bump at the
 * channel's center at constant pressure. */
static void cfd_initial(float *var, float *ff, int w, int h, const int *id_of_cell)
{
    const float rho0 = 1.4f, p0 = 1.0f, u0 = 0.5f;
    const int nel = w * h;
    ff[0] = rho0;
    ff[1] = rho0 * u0;
    ff[2] = 0.0f;
    ff[3] = 0.0f;
    ff[4] = p0 / (CFD_GAMMA - 1.0f) + 0.5f * rho0 * u0 * u0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double dx = (x - 0.5 * w) / (0.1 * w), dy = (y - 0.5 * h) / (0.1 * w);
            float rho = rho0 * (1.0f + (float)(0.2 * exp(-(dx * dx + dy * dy))));
            int i = id_of_cell[y * w + x];
            var[i] = rho;
            var[nel + i] = rho * u0;
            var[2 * nel + i] = 0.0f;
            var[3 * nel + i] = 0.0f;
            var[4 * nel + i] = p0 / (CFD_GAMMA - 1.0f) + 0.5f * rho * u0 * u0;
        }
}

/* }==== */

static int cfd_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx)
{
    struct cfd_size sz = cfd_sizes[ctx->size];
    /* --size paper, the base workload (issue 28, session 21): Lin thesis Table 3.2's CFD, 0.2 M
     * cells = large's mesh (196,608; Rodinia's fvcorr.domn.193K: 193,474), for 10 time steps
     * rather than 5, so that the run outlasts Lin's measured 4 M cycles on maxwell-gpuduet (5
     * steps end near 4.4 M) as Rodinia's 2,000 iterations do; more steps change no measured
     * cycle. */
    if (ctx->paper && !hd_wl_variant_flags(ctx))
        sz.steps = 10;
    /* CCBP input variant (ptx.flags token `ccbp`; issue 29, Lin Table 4.2 CFD; docs/blocks/ccbp.md
     * "The experiment's inputs"): at medium, the same mesh (4 MB of element data, over the 2 MB L2
     * of configs/maxwell-ccbp.ini) for CCBP_STEPS time steps, so that several instances fit in
     * the experiment's budget. */
    const long cc_steps = hd_wl_flag(hd_wl_variant_flags(ctx), "CCBP_STEPS", 0);
    if (cc_steps > 0 && ctx->size == HD_WL_MEDIUM) {
        if (cc_steps > 100)
            return hd_wl_fail(ctx, "cfd: CCBP_STEPS %ld out of range (1..100)", cc_steps);
        sz.steps = (int)cc_steps;
    }
    const int nel = sz.w * sz.h;
    const size_t vb = sizeof(float) * (size_t)CFD_NVAR * nel, eb = sizeof(float) * (size_t)nel;
    int rc = HD_OK;
    struct hd_module *mod = NULL;
    struct cfd_mesh m = {0};
    hd_devptr d_var = 0, d_old = 0, d_flux = 0, d_step = 0, d_area = 0, d_nbr = 0, d_nrm = 0;
    hd_devptr d_ff = 0;
    size_t ff_bytes = 0;
    float ff[CFD_NVAR];
    float *var = malloc(vb), *got = malloc(vb), *old = malloc(vb), *flux = malloc(vb);
    float *step = malloc(eb);

    struct hd_wl_rng rng;
    hd_wl_rng_seed(&rng, 0x63666421u);
    if (!var || !got || !old || !flux || !step || cfd_make_mesh(&m, sz.w, sz.h, &rng) != 0) {
        rc = hd_wl_fail(ctx, "cfd: out of host memory");
        goto out;
    }
    cfd_initial(var, ff, sz.w, sz.h, m.cell);
    fprintf(ctx->log, "cfd: %d elements (%dx%d), %d time steps x %d stages\n", nel, sz.w, sz.h,
            sz.steps, CFD_RK);

    if ((rc = hd_wl_load_module(gpu, ctx, &mod)) != HD_OK)
        goto out;
    static const char *const cfd_pinned[] = {"cfd_flux"};
    if ((rc = hd_wl_pin_regspec(gpu, ctx, mod, cfd_pinned, 1)) != HD_OK)
        goto out;
    /* cfd_lin22: each of Lin Table 2.2's three CFD kernels at its own count. */
    static const char *const cfd_kernels[] = {"cfd_copy", "cfd_step_factor", "cfd_flux"};
    static const char *const cfd_pins[] = {"REGSPEC_COPY", "REGSPEC_STEP", "REGSPEC_FLUX"};
    if ((rc = hd_wl_pin_kernel_regs(gpu, ctx, mod, cfd_kernels, cfd_pins, 3)) != HD_OK)
        goto out;
    HD_WL_TRY(hd_module_symbol(gpu, mod, "cfd_ff", &d_ff, &ff_bytes));
    if (ff_bytes < sizeof(ff)) {
        rc = hd_wl_fail(ctx, "cfd: symbol cfd_ff has %zu bytes, need %zu", ff_bytes, sizeof(ff));
        goto out;
    }
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_ff, ff, sizeof(ff)));
    HD_WL_TRY(hd_malloc(gpu, &d_var, vb));
    HD_WL_TRY(hd_malloc(gpu, &d_old, vb));
    HD_WL_TRY(hd_malloc(gpu, &d_flux, vb));
    HD_WL_TRY(hd_malloc(gpu, &d_step, eb));
    HD_WL_TRY(hd_malloc(gpu, &d_area, eb));
    HD_WL_TRY(hd_malloc(gpu, &d_nbr, sizeof(int) * (size_t)CFD_NNB * nel));
    HD_WL_TRY(hd_malloc(gpu, &d_nrm, sizeof(float) * (size_t)CFD_NNB * 3 * nel));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_var, var, vb));
    HD_WL_TRY(hd_memset(gpu, d_old, 0xff, vb));
    HD_WL_TRY(hd_memset(gpu, d_flux, 0xff, vb));
    HD_WL_TRY(hd_memset(gpu, d_step, 0xff, eb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_area, m.area, eb));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_nbr, m.nbr, sizeof(int) * (size_t)CFD_NNB * nel));
    HD_WL_TRY(hd_memcpy_h2d(gpu, d_nrm, m.nrm, sizeof(float) * (size_t)CFD_NNB * 3 * nel));

    struct hd_dim3 grid = {(uint32_t)((nel + CFD_BLOCK - 1) / CFD_BLOCK), 1, 1};
    struct hd_dim3 block = {CFD_BLOCK, 1, 1};
    for (int t = 0; t < sz.steps; t++) {
        struct hd_arg ca[] = {HD_ARG(d_var), HD_ARG(d_old), HD_ARG(nel)};
        HD_WL_TRY(hd_launch(gpu, mod, "cfd_copy", grid, block, 0, 0, ca, 3));
        struct hd_arg sa[] = {HD_ARG(d_var), HD_ARG(d_area), HD_ARG(d_step), HD_ARG(nel)};
        HD_WL_TRY(hd_launch(gpu, mod, "cfd_step_factor", grid, block, 0, 0, sa, 4));
        for (int stage = 0; stage < CFD_RK; stage++) {
            struct hd_arg fa[] = {HD_ARG(d_var), HD_ARG(d_nbr), HD_ARG(d_nrm), HD_ARG(d_flux),
                                  HD_ARG(nel)};
            HD_WL_TRY(hd_launch(gpu, mod, "cfd_flux", grid, block, 0, 0, fa, 5));
            struct hd_arg ta[] = {HD_ARG(d_old),  HD_ARG(d_var),   HD_ARG(d_flux),
                                  HD_ARG(d_step), HD_ARG(stage), HD_ARG(nel)};
            HD_WL_TRY(hd_launch(gpu, mod, "cfd_time_step", grid, block, 0, 0, ta, 6));
        }
    }
    HD_WL_TRY(hd_synchronize(gpu));
    HD_WL_TRY(hd_memcpy_d2h(gpu, got, d_var, vb));

    cfd_ref_run(&m, var, ff, sz.steps, old, flux, step);
    /* Tolerance: the kernels and the reference do the same single-precision operations in the
     * same order, except that nvcc contracts products into fused multiply-adds. Those differences
     * (an ulp here and there, ~1e-7 relative) pass through the pressure (E - rho u^2 / 2, a mild
     * cancellation at Mach 0.5) and a few explicit stages that average neighbours, which damps
     * them. Compiling the reference with and without contraction differs by < 1e-6 relative after
     * the large size's 5 steps; the variables are O(1), so 2e-5 relative + 2e-5 absolute
     * leaves margin while a wrong neighbour, normal or stage factor changes values by > 1e-3. */
    const char *names[CFD_NVAR] = {"density", "momentum x", "momentum y", "momentum z", "energy"};
    for (int v = 0; v < CFD_NVAR && rc == HD_OK; v++)
        rc = hd_wl_compare_f32(ctx, names[v], var + (size_t)v * nel, got + (size_t)v * nel,
                               (size_t)nel, 2e-5f, 2e-5f);

out:
    hd_free(gpu, d_var);
    hd_free(gpu, d_old);
    hd_free(gpu, d_flux);
    hd_free(gpu, d_step);
    hd_free(gpu, d_area);
    hd_free(gpu, d_nbr);
    hd_free(gpu, d_nrm);
    free(var);
    free(got);
    free(old);
    free(flux);
    free(step);
    free(m.cell);
    free(m.nbr);
    free(m.nrm);
    free(m.area);
    return rc;
}

const struct hd_workload hd_workload_cfd = {
    .name = "cfd",
    .description = "unstructured-mesh Euler solver: Rusanov flux over an element-neighbour list",
    .klass = "memory",
    .idempotent = true,
    .run = cfd_run,
};

/* {==== Resource-specification variants (ptx.flags; README.md, "Variants") ==== */
const struct hd_workload hd_workload_cfd_r39 = {
    .name = "cfd_r39",
    .description = "cfd variant: cfd_flux counted at 39 registers per thread (Lin Table 2.2 CFD_3)",
    .klass = "memory",
    .idempotent = true,
    .run = cfd_run,
    .variant_of = "cfd",
    .variant_flags = "-DREGSPEC=39",
    .paper_row = "Lin Table 2.2 compute_flux (CFD_3): 6 warps/TB, 4 TBs/SM, 39 regs, 36 B",
};
const struct hd_workload hd_workload_cfd_lin22 = {
    .name = "cfd_lin22",
    .description = "cfd variant: cfd_copy, cfd_step_factor, cfd_flux counted at 6, 8, 39 registers",
    .klass = "memory",
    .idempotent = true,
    .run = cfd_run,
    .variant_of = "cfd",
    .variant_flags = "-DREGSPEC_COPY=6 -DREGSPEC_STEP=8 -DREGSPEC_FLUX=39",
    .paper_row = "Lin Table 2.2 CFD_1 (6 regs), CFD_2 (8), CFD_3 (39): 192 threads; 8, 8, 4 TBs/SM",
};
const struct hd_workload hd_workload_cfd_ccbp = {
    .name = "cfd_ccbp",
    .description = "cfd with the CCBP experiment's medium input: the medium mesh for one time step",
    .klass = "memory",
    .idempotent = true,
    .run = cfd_run,
    .variant_of = "cfd",
    .variant_flags = "-DCCBP_STEPS=1",
    .paper_row = "Lin Table 4.2 CFD (NBI: NoC 54 %, DRAM 14 %, L2 miss 15 %)",
};
/* }==== */
