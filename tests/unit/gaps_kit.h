/* SPDX-License-Identifier: MIT
 * gaps_kit.h - helpers for the tests that run the extra CUDA corpus (tests/ptx/good/half.cu,
 * intrin.cu, coop.cu, calls.cu; test_gaps_*.c) on the functional model: load a committed PTX
 * file, copy host arrays to fresh device buffers, launch, copy back; a deterministic generator
 * for inputs; and reference roundings to IEEE half, bfloat16 and float written independently of
 * the model (exact scaling by powers of two in long double, then one rounding of the integer
 * significand in the requested direction). Header-only (static functions), on top of
 * func_testkit.h (whose GPU runs the functional executor).
 */
#ifndef HD_GAPS_KIT_H
#define HD_GAPS_KIT_H

#include "func_testkit.h"

#include <math.h>

/* {==== Modules, buffers, launches ==== */
static inline struct hd_module *gk_load(struct kit *k, const char *path)
{
    struct hd_module *mod = NULL;
    if (!HD_CHECK(k->t, hd_module_load_file(k->gpu, path, &mod) == HD_OK)) {
        fprintf(stderr, "    %s: %s\n", path, hd_last_error(k->gpu));
        return NULL;
    }
    return mod;
}

/* A device copy of `bytes` of host memory (zeroed when host is NULL). */
static inline hd_devptr gk_dev(struct kit *k, const void *host, size_t bytes)
{
    hd_devptr d = 0;
    int st = hd_malloc(k->gpu, &d, bytes ? bytes : 1);
    if (st == HD_OK)
        st = host ? hd_memcpy_h2d(k->gpu, d, host, bytes) : hd_memset(k->gpu, d, 0, bytes);
    if (!HD_CHECK(k->t, st == HD_OK))
        fprintf(stderr, "    device buffer of %zu bytes: %s\n", bytes, hd_last_error(k->gpu));
    return d;
}

static inline void gk_get(struct kit *k, void *host, hd_devptr d, size_t bytes)
{
    if (!HD_CHECK(k->t, hd_memcpy_d2h(k->gpu, host, d, bytes) == HD_OK))
        fprintf(stderr, "    copy back: %s\n", hd_last_error(k->gpu));
}

/* Launch `kernel` over `threads` threads in CTAs of `block` and wait; 0 on success. */
static inline int gk_launch(struct kit *k, struct hd_module *mod, const char *kernel,
                            unsigned threads, unsigned block, const struct hd_arg *args,
                            unsigned nargs)
{
    struct hd_dim3 g = {(threads + block - 1) / block, 1, 1}, b = {block, 1, 1};
    int st = hd_launch(k->gpu, mod, kernel, g, b, 0, 0, args, nargs);
    if (st == HD_OK)
        st = hd_synchronize(k->gpu);
    if (!HD_CHECK(k->t, st == HD_OK))
        fprintf(stderr, "    %s: %s\n", kernel, hd_last_error(k->gpu));
    return st;
}
/* }==== */

/* {==== Inputs ==== */
static inline uint32_t gk_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}
/* }==== */

/* {==== Reference roundings ==== */
enum gk_round { GK_RN, GK_RZ, GK_RD, GK_RU };

/* v rounded to a binary format with `frac` fraction bits and exponent bias `bias` (IEEE layout:
 * sign, exponent, fraction; subnormals; overflow to infinity or the largest finite value as the
 * direction says); the encoding. NaN gives `qnan`. */
static inline uint64_t gk_round_fmt(long double v, unsigned frac, int bias, enum gk_round r,
                                    uint64_t qnan)
{
    const unsigned ebits = bias == 15 ? 5u : 8u;
    const uint64_t sign = (uint64_t)(v < 0 || (v == 0 && signbit(v))) << (frac + ebits);
    const uint64_t inf = ((1ull << ebits) - 1) << frac, maxf = inf - 1;
    if (v != v)
        return qnan;
    long double a = fabsl(v);
    if (isinf(a))
        return sign | inf;
    if (a == 0)
        return sign;
    int e;
    frexpl(a, &e);                  /* a = m * 2^e, m in [0.5, 1): leading bit 2^(e-1) */
    int E = e - 1 < 1 - bias ? 1 - bias : e - 1;
    bool up_away = (r == GK_RU && !sign) || (r == GK_RD && sign);
    if (E > bias) /* beyond the largest binade */
        return sign | (r == GK_RN || up_away ? inf : maxf);
    long double n = ldexpl(a, (int)frac - E); /* the significand in units of the last place */
    n = r == GK_RN ? nearbyintl(n) : up_away ? ceill(n) : floorl(n);
    uint64_t q = (uint64_t)n;       /* <= 2^(frac+1): 2^(frac+1) carries into the exponent */
    uint64_t bits = E == 1 - bias ? q : ((uint64_t)(E + bias) << frac) + (q - (1ull << frac));
    if (bits >= inf) /* rounded past the largest finite value */
        bits = r == GK_RN || up_away ? inf : maxf;
    return sign | bits;
}

static inline uint16_t gk_half(long double v, enum gk_round r)
{
    return (uint16_t)gk_round_fmt(v, 10, 15, r, 0x7fff);
}
static inline uint16_t gk_bf16(long double v, enum gk_round r)
{
    return (uint16_t)gk_round_fmt(v, 7, 127, r, 0x7fff);
}
static inline float gk_f32_round(long double v, enum gk_round r)
{
    uint32_t u = (uint32_t)gk_round_fmt(v, 23, 127, r, 0x7fffffffu);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The value of a half / bfloat16 encoding. */
static inline double gk_half_val(uint16_t h)
{
    int e = (h >> 10) & 31;
    double m = h & 1023, s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31)
        return m ? (double)NAN : s * (double)INFINITY;
    return s * (e ? ldexp(m + 1024, e - 25) : ldexp(m, -24));
}
static inline float gk_bf16_val(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/* }==== */

#endif
