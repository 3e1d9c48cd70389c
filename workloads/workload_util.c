/* SPDX-License-Identifier: MIT
 * workload_util.c - helpers shared by the workload host drivers (declared in workload.h).
 *
 * Error reporting into ctx->err, a deterministic pseudo-random generator, and array comparisons
 * that name the first wrong element. The generator is xorshift64* (Vigna, "An experimental
 * exploration of Marsaglia's xorshift generators, scrambled", 2016): 64-bit state, never zero,
 * upper 32 bits of the scrambled output returned. The seed goes through one splitmix64 step so
 * that small or similar seeds give unrelated streams and seed 0 is valid. Nothing here keeps
 * global state: every stream lives in the caller's struct hd_wl_rng.
 */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* {==== Errors ==== */

int hd_wl_fail(struct hd_wl_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    return HD_WL_MISMATCH;
}

int hd_wl_check(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, int status)
{
    if (status == HD_OK)
        return HD_OK;
    const char *msg = gpu ? hd_last_error(gpu) : NULL;
    if (msg && msg[0])
        snprintf(ctx->err, sizeof ctx->err, "%s", msg);
    else
        snprintf(ctx->err, sizeof ctx->err, "runtime error %d", status);
    return status;
}

/* The base name of ctx's PTX file ("workloads/sgemm/sgemm_t8.ptx" -> "sgemm_t8") into name;
 * false when there is none. */
static bool ptx_base_name(const struct hd_wl_ctx *ctx, char *name, size_t len)
{
    if (!ctx || !ctx->ptx_name)
        return false;
    const char *base = strrchr(ctx->ptx_name, '/');
    base = base ? base + 1 : ctx->ptx_name;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".ptx") == 0)
        n -= 4;
    if (n == 0 || n >= len)
        return false;
    memcpy(name, base, n);
    name[n] = '\0';
    return true;
}

int hd_wl_load_module(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module **out)
{
    *out = NULL;
    if (!ctx->ptx_text || ctx->ptx_len == 0) {
        snprintf(ctx->err, sizeof ctx->err, "%s: no PTX text was given to the driver",
                 ctx->ptx_name ? ctx->ptx_name : "(unnamed PTX)");
        return HD_ERR_PTX;
    }
    const char *name = ctx->ptx_name ? ctx->ptx_name : "(embedded PTX)";
    int st = hd_wl_check(gpu, ctx,
                         hd_module_load_text(gpu, ctx->ptx_text, ctx->ptx_len, name, out));
    if (st != HD_OK)
        return st;
    /* ptxas's register counts of that PTX (NAME.ptxas.txt, embedded beside it): occupancy counts
     * them (issue 15). Only when ctx holds the registered PTX itself, so the summary matches. */
    char base[128], sname[160];
    size_t plen = 0, slen = 0;
    const char *ptx = ptx_base_name(ctx, base, sizeof base) ? hd_workload_ptx(base, &plen) : NULL;
    const char *summary = ptx ? hd_workload_ptxas(base, &slen) : NULL;
    if (!summary || plen != ctx->ptx_len ||
        (ptx != ctx->ptx_text && memcmp(ptx, ctx->ptx_text, plen) != 0))
        return HD_OK;
    size_t nl = strlen(name); /* "workloads/X/X.ptx" -> "workloads/X/X.ptxas.txt" */
    snprintf(sname, sizeof sname, "%.*s.ptxas.txt", (int)(nl > 4 ? nl - 4 : nl), name);
    return hd_wl_check(gpu, ctx, hd_module_set_ptxas(gpu, *out, summary, slen, sname));
}

const char *hd_wl_size_name(enum hd_wl_size size)
{
    switch (size) {
    case HD_WL_SMALL: return "small";
    case HD_WL_MEDIUM: return "medium";
    case HD_WL_LARGE: return "large";
    }
    return "?";
}

int hd_wl_size_parse(const char *name, enum hd_wl_size *out)
{
    /* "paper": the length for the papers' measurements (issue 26 item 4; workloads/README.md,
     * "Paper-length inputs"): HD_WL_LARGE, with hd_wl_ctx.paper set by the caller (the drivers
     * with their own paper input read it); checked by scripts/check-paper-size.py. */
    if (strcmp(name, "paper") == 0) {
        *out = HD_WL_LARGE;
        return 0;
    }
    /* "waves": HD_WL_SMALL, with hd_wl_ctx.waves set by the caller (issue 32 item 6; the drivers
     * with their own several-CTA-waves input read it). "waves3" likewise, with hd_wl_ctx.waves3
     * also set (the drivers with their own input of at least three Kepler waves read it). */
    if (strcmp(name, "waves") == 0 || strcmp(name, "waves3") == 0) {
        *out = HD_WL_SMALL;
        return 0;
    }
    for (int k = HD_WL_SMALL; k <= HD_WL_LARGE; k++)
        if (strcmp(name, hd_wl_size_name((enum hd_wl_size)k)) == 0) {
            *out = (enum hd_wl_size)k;
            return 0;
        }
    return -1;
}

/* }==== */

/* {==== Pseudo-random numbers ==== */

void hd_wl_rng_seed(struct hd_wl_rng *r, uint64_t seed)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    r->s = z ? z : 0x9e3779b97f4a7c15ULL; /* xorshift state must not be zero */
}

uint32_t hd_wl_rng_u32(struct hd_wl_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return (uint32_t)((x * 0x2545f4914f6cdd1dULL) >> 32);
}

float hd_wl_rng_float(struct hd_wl_rng *r, float lo, float hi)
{
    /* 24 random bits give every float of [0, 1) on a 2^-24 grid exactly. */
    float u = (float)(hd_wl_rng_u32(r) >> 8) * (1.0f / 16777216.0f);
    float v = lo + u * (hi - lo);
    /* Rounding can land on hi when the range is wide; keep the interval half-open. */
    if (v >= hi)
        v = nextafterf(hi, lo);
    if (v < lo)
        v = lo;
    return v;
}

/* }==== */

/* {==== Comparisons ==== */

static int wl_f32_equal(float e, float g, float rel_tol, float abs_tol)
{
    if (isnan(e) || isnan(g))
        return isnan(e) && isnan(g);
    if (isinf(e) || isinf(g))
        return e == g;
    double diff = fabs((double)e - (double)g);
    return diff <= (double)abs_tol + (double)rel_tol * fabs((double)e);
}

int hd_wl_compare_f32(struct hd_wl_ctx *ctx, const char *what, const float *expected,
                      const float *got, size_t n, float rel_tol, float abs_tol)
{
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++) {
        if (!wl_f32_equal(expected[i], got[i], rel_tol, abs_tol)) {
            if (first == n)
                first = i;
            bad++;
        }
    }
    if (bad == 0)
        return HD_OK;
    return hd_wl_fail(ctx,
                      "%s[%zu]: expected %.9g, got %.9g (tolerance rel %.3g abs %.3g; %zu of %zu "
                      "elements differ)",
                      what, first, (double)expected[first], (double)got[first], (double)rel_tol,
                      (double)abs_tol, bad, n);
}

int hd_wl_compare_u32(struct hd_wl_ctx *ctx, const char *what, const uint32_t *expected,
                      const uint32_t *got, size_t n)
{
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++) {
        if (expected[i] != got[i]) {
            if (first == n)
                first = i;
            bad++;
        }
    }
    if (bad == 0)
        return HD_OK;
    return hd_wl_fail(ctx,
                      "%s[%zu]: expected %u (0x%08x), got %u (0x%08x) (%zu of %zu elements differ)",
                      what, first, expected[first], expected[first], got[first], got[first], bad,
                      n);
}

int hd_wl_compare_i32(struct hd_wl_ctx *ctx, const char *what, const int32_t *expected,
                      const int32_t *got, size_t n)
{
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++) {
        if (expected[i] != got[i]) {
            if (first == n)
                first = i;
            bad++;
        }
    }
    if (bad == 0)
        return HD_OK;
    return hd_wl_fail(ctx, "%s[%zu]: expected %d, got %d (%zu of %zu elements differ)", what,
                      first, (int)expected[first], (int)got[first], bad, n);
}

/* }==== */

/* {==== Variant flags ==== */

long hd_wl_flag(const char *flags, const char *name, long dflt)
{
    size_t n = name ? strlen(name) : 0;
    for (const char *p = flags; p && n && *p;) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, " \t");
        if (len >= 2 + n && strncmp(p, "-D", 2) == 0 && strncmp(p + 2, name, n) == 0) {
            const char *v = p + 2 + n, *end = p + len;
            if (v == end)
                return 1; /* -DNAME */
            if (*v == '=' && v + 1 < end) {
                char *stop;
                long x = strtol(v + 1, &stop, 0);
                if (stop == end)
                    return x;
            }
        }
        p += len;
    }
    return dflt;
}

const char *hd_wl_variant_flags(const struct hd_wl_ctx *ctx)
{
    char name[128];
    const struct hd_workload *w = ptx_base_name(ctx, name, sizeof name) ? hd_workload_find(name)
                                                                         : NULL;
    return w ? w->variant_flags : NULL;
}
/* }==== */
