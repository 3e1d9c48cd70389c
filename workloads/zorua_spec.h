/* SPDX-License-Identifier: MIT
 * zorua_spec.h - what the drivers of Zorua's eight applications share for the resource-
 * specification grid (Zorua, Vijaykumar et al., ISCA 2016, Table 3; workloads/zorua-grid.toml,
 * scripts/gen-zorua-grid.py, workloads/README.md "Zorua's specification grid").
 *
 * A grid point is a variant whose ptx.flags line carries the specification:
 *   -DMAXREG=R -DREGSPEC=R   R registers per thread: ptxas caps the kernels at R (.maxnreg R) and
 *                            the driver pins every capped kernel's count to R (hd_kernel_set_regs),
 *                            so occupancy counts the specified R even where ptxas needed fewer
 *   -DTB=T (or the base's own threads knob)   T threads per CTA
 *   -DSMEM=S (or the base's own scratchpad knob)   S bytes of scratchpad per CTA
 * Every point solves the base's problem with the base's inputs and CPU reference. To let a test
 * assert that, each of the eight drivers prints one line "work: <problem> inputs=<hash>" naming
 * the problem's size and an FNV-1a hash of its input arrays; the grid runner
 * (scripts/zorua-grid-run.py) requires it to equal the base's line at the same size.
 */
#ifndef HD_ZORUA_SPEC_H
#define HD_ZORUA_SPEC_H

#include "workload.h"

#include <stdbool.h>
#include <string.h>

#define HD_WL_HASH_INIT 0xcbf29ce484222325ull

/* FNV-1a (64-bit) over n bytes at p, continuing from h (HD_WL_HASH_INIT to start). */
uint64_t hd_wl_hash(uint64_t h, const void *p, size_t n);

/* Print "work: <fmt...> inputs=<hash as 16 hex digits>" to ctx->log. */
void hd_wl_work(struct hd_wl_ctx *ctx, uint64_t input_hash, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* When the PTX ctx holds is a grid point with -DREGSPEC=R, give each of the n kernels R registers
 * per thread (hd_kernel_set_regs: wins over ptxas's count) and log it; otherwise do nothing.
 * Returns HD_OK, or an error with ctx->err filled (R outside the configuration's limit). */
int hd_wl_pin_regspec(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module *mod,
                      const char *const *kernels, unsigned n);

/* Per-kernel pins for paper-footprint variants whose kernels need different counts (issue 26 item
 * 2: cfd_lin22, bfs_k2_tb512): for each k < n, when the variant's flags define macro flags[k]
 * (e.g. -DREGSPEC_FLUX=39), give kernel kernels[k] that many registers per thread
 * (hd_kernel_set_regs) and log it; kernels whose macro is absent keep ptxas's count.
 * Returns HD_OK, or an error with ctx->err filled. */
int hd_wl_pin_kernel_regs(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module *mod,
                          const char *const *kernels, const char *const *flags, unsigned n);

/* Threads per CTA of a point: the flag `name` (default dflt), checked to be a multiple of 32
 * from 32 to 1024; -1 with ctx->err filled otherwise. */
long hd_wl_spec_threads(struct hd_wl_ctx *ctx, const char *who, const char *name, long dflt);

/* Is w a Zorua grid point (a variant named BASE_z_...; `heddle list` hides them unless --zorua)? */
static inline bool hd_wl_is_zgrid(const struct hd_workload *w)
{
    return w && w->variant_of && strstr(w->name, "_z_") != NULL;
}

/* The run functions of the eight bases, registered again by the generated grid files
 * (workloads/NAME/NAME_zgrid.c). */
int barneshut_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
int dct8x8_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
int mst_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
int reduction_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
int nqueens_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
int scan_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
int scalarprod_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
int sssp_run(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);

#endif
