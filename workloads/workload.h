/* SPDX-License-Identifier: MIT
 * workload.h - what a workload's host driver exports, and the helpers it may use.
 *
 * Each workloads/NAME/ folder holds NAME.cu (device code), NAME.ptx (committed nvcc output) and
 * NAME.c (the host driver). The driver defines exactly one
 *     const struct hd_workload hd_workload_NAME = { ... };
 * The build finds every folder, embeds the PTX text, and generates the registry that `heddle
 * list` and `heddle run` read, so adding a workload touches no shared file.
 *
 * A driver makes its inputs deterministically from the size, launches through heddle.h only,
 * copies the results back and checks them against a CPU reference. run() returns HD_OK when
 * the output verified, HD_ERR_* from the runtime as is, or HD_WL_MISMATCH with a message in
 * ctx->err naming the first wrong element (index, expected, got).
 */
#ifndef HD_WORKLOAD_H
#define HD_WORKLOAD_H

#include "heddle.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#define HD_WL_MISMATCH (-100)

enum hd_wl_size { HD_WL_SMALL = 0, HD_WL_MEDIUM = 1, HD_WL_LARGE = 2 };

struct hd_wl_ctx {
    enum hd_wl_size size;
    const char *ptx_text;   /* the workload's PTX (embedded at build time) */
    size_t ptx_len;
    const char *ptx_name;   /* "workloads/NAME/NAME.ptx", for messages */
    FILE *log;              /* progress/details (may be stderr); never NULL */
    char err[4096];         /* filled on failure (a watchdog report runs to a few KB) */
    /* `--size paper` (issue 26 item 4; workloads/README.md "Paper-length inputs"): size is
     * HD_WL_LARGE and this is true. A driver with its own paper input (barneshut, chase,
     * montecarlo, nqueens) picks it when set; every other driver runs its large input. */
    bool paper;
    /* `--size waves` (issue 32 item 6; workloads/README.md "Occupancy-length inputs"): size is
     * HD_WL_SMALL and this is true. A driver with its own waves input (the eight Zorua grid
     * applications) picks it: the same kernels on an input that runs several CTA waves at most
     * resource specifications, so occupancy can limit the run; every other driver runs small. */
    bool waves;
    /* `--size waves3` (issue 32, session 21; workloads/README.md "Occupancy-length inputs"):
     * size is HD_WL_SMALL and both waves and waves3 are true. A driver with its own waves3
     * input (barneshut, mst, sssp: >= 3 Baseline CTA waves at every Zorua specification on
     * Kepler and Maxwell) picks it; every other driver runs its waves input (or small). */
    bool waves3;
};

struct hd_workload {
    const char *name;
    const char *description;  /* one line */
    const char *klass;        /* compute, memory, latency-bound, barrier-heavy, divergent, irregular */
    bool idempotent;          /* re-running any CTA from its start gives the same result (flush-able) */
    int (*run)(struct hd_gpu *gpu, struct hd_wl_ctx *ctx);
    /* Resource-specification variants (workloads/README.md, "Variants"; added by the mixes
     * helper): the base workload's name and the extra nvcc flags of the variant's PTX, exactly
     * its line in the folder's ptx.flags (e.g. "-DTILE=8"); both NULL for a base workload. */
    const char *variant_of;
    const char *variant_flags;
    /* The paper row(s) this workload or variant stands for (issue 26 item 2; `heddle list
     * --variants` shows it), e.g. "EXPARS Table 3 ST" or "Zorua Table 3 BH: R 28-44 x T
     * 128-1024"; NULL when it stands for none. */
    const char *paper_row;
    /* Gong thesis Table 6.1 locality hint of the Table 6.2 row this workload stands for (issue
     * 31, docs/locality.md): 1 multiple cache lines shared among CTAs, 2 boundary lines shared,
     * 3 some data and constants shared, 0 none given. `heddle list` shows it; heddle run gives
     * it to every launch with [timing] workload_hint = true and no --hint. */
    uint32_t locality_hint;
};

/* Helpers shared by drivers (workloads/workload_util.c). */
int hd_wl_fail(struct hd_wl_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Propagate a runtime error: copies hd_last_error() into ctx->err and returns status. */
int hd_wl_check(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, int status);
/* In a driver whose status is `rc`, GPU `gpu`, context `ctx` and clean-up label `out`: run a
 * runtime call, and on failure report it (hd_wl_check) and jump to `out`. */
#define HD_WL_TRY(call)                          \
    do {                                         \
        rc = hd_wl_check(gpu, ctx, (call));      \
        if (rc != HD_OK)                         \
            goto out;                            \
    } while (0)
/* Deterministic pseudo-random numbers (xorshift64*), seeded per workload. */
struct hd_wl_rng {
    uint64_t s;
};
void hd_wl_rng_seed(struct hd_wl_rng *r, uint64_t seed);
uint32_t hd_wl_rng_u32(struct hd_wl_rng *r);
float hd_wl_rng_float(struct hd_wl_rng *r, float lo, float hi); /* uniform in [lo, hi) */
/* Compare float arrays with a relative+absolute tolerance; fills ctx->err on the first miss. */
int hd_wl_compare_f32(struct hd_wl_ctx *ctx, const char *what, const float *expected,
                      const float *got, size_t n, float rel_tol, float abs_tol);
int hd_wl_compare_u32(struct hd_wl_ctx *ctx, const char *what, const uint32_t *expected,
                      const uint32_t *got, size_t n);
int hd_wl_compare_i32(struct hd_wl_ctx *ctx, const char *what, const int32_t *expected,
                      const int32_t *got, size_t n);
/* Load ctx->ptx_text as a module named ctx->ptx_name; on failure ctx->err holds the message.
 * When it is a registered workload's PTX, ptxas's recorded register counts (NAME.ptxas.txt) are
 * attached (hd_module_set_ptxas), so occupancy counts them ([sm] regs_source = ptxas). */
int hd_wl_load_module(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module **out);
const char *hd_wl_size_name(enum hd_wl_size size); /* "small", "medium", "large" */
/* The size a name stands for (the inverse of hd_wl_size_name). Returns 0, or -1 if none. */
int hd_wl_size_parse(const char *name, enum hd_wl_size *out);
/* The value of macro `name` in a variant's flags ("-DTILE=8 -DTB=64": TILE -> 8), or `dflt` when
 * flags is NULL or does not define it (a bare -DNAME counts as 1). For drivers whose variants
 * share one run function with the base workload. */
long hd_wl_flag(const char *flags, const char *name, long dflt);
/* The variant flags of the PTX that ctx holds: the registered workload named like ctx->ptx_name's
 * base name ("workloads/sgemm/sgemm_t8.ptx" -> sgemm_t8), its variant_flags; NULL for a base
 * workload (or no ptx_name). So the base and all its variants can share one run function. */
const char *hd_wl_variant_flags(const struct hd_wl_ctx *ctx);

/* The registry generated by the build. */
extern const struct hd_workload *const hd_workload_registry[];
extern const unsigned hd_workload_registry_count;
/* Embedded PTX of a workload, by name (NULL if unknown). */
const char *hd_workload_ptx(const char *name, size_t *len);
/* Additions (generated with the registry). PTX files are named by their base name: the main
 * one of workloads/NAME/ is "NAME", variants in the same folder carry their own base name. */
const struct hd_workload *hd_workload_find(const char *name); /* NULL if unknown */
/* Source-relative path of a PTX file ("workloads/NAME/NAME.ptx"), for messages; NULL if unknown. */
const char *hd_workload_ptx_path(const char *name);
/* The recorded `ptxas -v` summary (NAME.ptxas.txt, lines "kernel=K registers=R shared=S
 * local=L", '#' comments), or NULL when the folder has none. */
const char *hd_workload_ptxas(const char *name, size_t *len);

#endif
