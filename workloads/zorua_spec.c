/* SPDX-License-Identifier: MIT
 * zorua_spec.c - helpers of the Zorua specification grid (declared in zorua_spec.h): the input
 * hash and "work:" line that let the grid runner assert every point does the base's work, the
 * pinning of a point's specified registers per thread, and the check of its threads per CTA.
 */
#include "zorua_spec.h"

#include <stdarg.h>
#include <stdio.h>

uint64_t hd_wl_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

void hd_wl_work(struct hd_wl_ctx *ctx, uint64_t input_hash, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("work: ", ctx->log);
    vfprintf(ctx->log, fmt, ap);
    va_end(ap);
    fprintf(ctx->log, " inputs=%016llx\n", (unsigned long long)input_hash);
}

int hd_wl_pin_regspec(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module *mod,
                      const char *const *kernels, unsigned n)
{
    const long r = hd_wl_flag(hd_wl_variant_flags(ctx), "REGSPEC", 0);
    if (r == 0)
        return HD_OK;
    for (unsigned k = 0; k < n; k++) {
        int rc = hd_wl_check(gpu, ctx, hd_kernel_set_regs(gpu, mod, kernels[k], (uint32_t)r));
        if (rc != HD_OK)
            return rc;
    }
    fprintf(ctx->log, "spec: %ld registers per thread pinned for %u kernel(s)\n", r, n);
    return HD_OK;
}

int hd_wl_pin_kernel_regs(struct hd_gpu *gpu, struct hd_wl_ctx *ctx, struct hd_module *mod,
                          const char *const *kernels, const char *const *flags, unsigned n)
{
    const char *vf = hd_wl_variant_flags(ctx);
    for (unsigned k = 0; k < n; k++) {
        const long r = hd_wl_flag(vf, flags[k], 0);
        if (r == 0)
            continue;
        if (r < 0 || r > 255)
            return hd_wl_fail(ctx, "%s=%ld: a register count must be 1 to 255", flags[k], r);
        int rc = hd_wl_check(gpu, ctx, hd_kernel_set_regs(gpu, mod, kernels[k], (uint32_t)r));
        if (rc != HD_OK)
            return rc;
        fprintf(ctx->log, "spec: %s pinned to %ld registers per thread (%s)\n", kernels[k], r,
                flags[k]);
    }
    return HD_OK;
}

long hd_wl_spec_threads(struct hd_wl_ctx *ctx, const char *who, const char *name, long dflt)
{
    const long t = hd_wl_flag(hd_wl_variant_flags(ctx), name, dflt);
    if (t < 32 || t > 1024 || t % 32 != 0) {
        hd_wl_fail(ctx, "%s: %s=%ld: threads per CTA must be a multiple of 32 from 32 to 1024",
                   who, name, t);
        return -1;
    }
    return t;
}
