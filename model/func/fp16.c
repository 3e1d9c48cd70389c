/* SPDX-License-Identifier: MIT
 * fp16.c - IEEE half (f16) and bfloat16 encodings: exact decoding to double, and rounding a
 * double to either format under any PTX rounding mode (.rn ties-to-even, .rz, .rm, .rp) with
 * correct overflow (infinity or the largest finite value, by mode) and subnormals.
 *
 * Design: rounding works on the magnitude as an integer multiple of the format's quantum at the
 * value's exponent (a power-of-two scaling, so exact in double), then re-encodes; NaN becomes the
 * canonical 0x7fff. Both formats share the code through a small format descriptor.
 */
#include "fp16.h"

#include "ptx_ir.h"

#include <math.h>

struct fmt {
    int mbits, emin, emax; /* fraction bits, least normal exponent, greatest exponent */
};
static const struct fmt FMT_F16 = {10, -14, 15};
static const struct fmt FMT_BF16 = {7, -126, 127};

static double to_double(uint64_t h, const struct fmt *f)
{
    unsigned ebits = f == &FMT_F16 ? 5 : 8;
    uint64_t frac = h & ((1u << f->mbits) - 1);
    uint64_t e = (h >> f->mbits) & ((1u << ebits) - 1);
    double s = (h >> (f->mbits + ebits)) & 1u ? -1.0 : 1.0;
    if (e == ((1u << ebits) - 1))
        return frac ? (double)NAN : s * (double)INFINITY;
    if (e == 0)
        return s * ldexp((double)frac, f->emin - f->mbits);
    return s * ldexp((double)(frac | (1ull << f->mbits)), (int)e - f->emax - f->mbits);
}

/* Round a double to format f with rounding `rnd` (HD_RND_*), encode it. */
static uint64_t from_double(double v, const struct fmt *f, uint8_t rnd)
{
    unsigned ebits = f == &FMT_F16 ? 5 : 8;
    uint64_t sign = signbit(v) ? 1ull << (f->mbits + ebits) : 0;
    uint64_t inf = ((1ull << ebits) - 1) << f->mbits;
    if (v != v)
        return 0x7fff;
    double a = fabs(v);
    if (isinf(a))
        return sign | inf;
    if (a == 0.0)
        return sign;
    int e = ilogb(a);
    if (e < f->emin)
        e = f->emin;
    double q = ldexp(1.0, e - f->mbits);
    double n = a / q; /* exact: scaling by a power of two */
    int up;           /* round the magnitude up on a tie/inexact? */
    switch (rnd) {
    case HD_RND_RZ:
        n = trunc(n);
        break;
    case HD_RND_RM:
        up = sign != 0;
        n = up ? ceil(n) : floor(n);
        break;
    case HD_RND_RP:
        up = sign == 0;
        n = up ? ceil(n) : floor(n);
        break;
    default: {
        double t = floor(n), r = n - t;
        n = (r > 0.5 || (r == 0.5 && fmod(t, 2.0) != 0.0)) ? t + 1.0 : t;
        break;
    }
    }
    double m = n * q;
    double maxf = ldexp(2.0 - ldexp(1.0, -f->mbits), f->emax);
    if (m > maxf) {
        int to_inf = rnd == HD_RND_RZ ? 0 : rnd == HD_RND_RM ? sign != 0 : rnd == HD_RND_RP ? sign == 0 : 1;
        return to_inf ? (sign | inf) : (sign | (inf - 1));
    }
    if (m == 0.0)
        return sign;
    if (m < ldexp(1.0, f->emin))
        return sign | (uint64_t)(m / ldexp(1.0, f->emin - f->mbits));
    int E = ilogb(m);
    uint64_t frac = (uint64_t)((m / ldexp(1.0, E) - 1.0) * ldexp(1.0, f->mbits));
    return sign | ((uint64_t)(E + f->emax) << f->mbits) | frac;
}


double hd_fp16_to_double(uint64_t bits, int bf16)
{
    return to_double(bits & 0xffff, bf16 ? &FMT_BF16 : &FMT_F16);
}

uint64_t hd_fp16_from_double(double v, int bf16, uint8_t rnd)
{
    return from_double(v, bf16 ? &FMT_BF16 : &FMT_F16, rnd);
}
