/* SPDX-License-Identifier: MIT
 * exec_float.c - floating-point semantics: f32/f64 arithmetic with rounding modifiers, .ftz and
 * .sat, min/max, the special-function unit operations (.approx and IEEE forms), testp, copysign.
 *
 * Design: the host's IEEE arithmetic is used directly (SSE on x86-64: one rounding per
 * operation, fused multiply-add through fma()). Directed rounding (.rz/.rm/.rp) switches the host
 * rounding mode around the lane loop (this file is compiled with -frounding-math, so the compiler
 * does not move arithmetic across the switch). .ftz flushes subnormal inputs and results to
 * sign-preserving zero; .sat clamps to [0, 1] with NaN giving +0. NaN results are the canonical
 * NaN the hardware writes (0x7fffffff, 0x7fffffffffffffff). min/max return the non-NaN operand
 * when only one is NaN and order -0 below +0. The .approx functions use the host's correctly
 * or nearly-correctly rounded libm, which is within the PTX error bounds and deterministic.
 */
#include "exec_impl.h"
#include "fp16.h"

#include <fenv.h>
#include <math.h>

/* {==== Rounding, flushing, saturation ==== */
static int round_begin(const struct hd_func_instr *d)
{
    int mode;
    switch (d->ir->rnd) {
    case HD_RND_RZ:
        mode = FE_TOWARDZERO;
        break;
    case HD_RND_RM:
        mode = FE_DOWNWARD;
        break;
    case HD_RND_RP:
        mode = FE_UPWARD;
        break;
    default:
        return 0;
    }
    fesetround(mode);
    return 1;
}
static void round_end(int changed)
{
    if (changed)
        fesetround(FE_TONEAREST);
}

static inline float ftz32(float f)
{
    uint32_t u = (uint32_t)hd_f32_bits(f);
    if ((u & 0x7f800000u) == 0)
        u &= 0x80000000u;
    return hd_f32(u);
}
static inline double ftz64(double f)
{
    uint64_t u = hd_f64_bits(f);
    if ((u & 0x7ff0000000000000ull) == 0)
        u &= 0x8000000000000000ull;
    return hd_f64(u);
}

/* Final form of an f32 result. */
static inline uint64_t fin32(float r, int ftz, int sat)
{
    if (r != r)
        return sat ? 0 : 0x7fffffffu;
    if (ftz)
        r = ftz32(r);
    if (sat)
        r = r < 0.0f ? 0.0f : (r > 1.0f ? 1.0f : r);
    if (sat && r == 0.0f)
        r = 0.0f; /* -0 saturates to +0 */
    return hd_f32_bits(r);
}
static inline uint64_t fin64(double r, int ftz, int sat)
{
    if (r != r)
        return sat ? 0 : 0x7fffffffffffffffull;
    if (ftz)
        r = ftz64(r);
    if (sat)
        r = r < 0.0 ? 0.0 : (r > 1.0 ? 1.0 : r);
    if (sat && r == 0.0)
        r = 0.0;
    return hd_f64_bits(r);
}
/* }==== */

/* {==== Handler templates ==== */
#define F32_HEAD(nsrc_)                                                                            \
    const uint64_t *A = hd_src(x, d, 0).p;                                                         \
    const uint64_t *B = (nsrc_) > 1 ? hd_src(x, d, 1).p : A;                                       \
    const uint64_t *C = (nsrc_) > 2 ? hd_src(x, d, 2).p : A;                                       \
    uint64_t *D = hd_dst(x, d, 0);                                                                 \
    uint64_t r[32];                                                                                \
    const int ftz = (d->ir->flags & HD_F_FTZ) != 0, sat = (d->ir->flags & HD_F_SAT) != 0;         \
    const int rm = round_begin(d);                                                                 \
    (void)B;                                                                                       \
    (void)C;

/* Every lane is computed (inactive ones harmlessly) and the lanes in mask are stored; the common
 * case (no .ftz, no .sat) has a loop without per-lane branches. */
#define F32_OP(name, nsrc_, expr) F32_OP_A(name, , nsrc_, expr)
#define F32_OP_A(name, attr, nsrc_, expr)                                                          \
    attr static int name(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)    \
    {                                                                                              \
        F32_HEAD(nsrc_)                                                                            \
        if (!ftz && !sat) {                                                                        \
            for (uint32_t l = 0; l < 32; l++) {                                                    \
                float a = hd_f32(A[l]), b = hd_f32(B[l]), c = hd_f32(C[l]);                        \
                (void)b;                                                                           \
                (void)c;                                                                           \
                float v = (expr);                                                                  \
                r[l] = v != v ? 0x7fffffffu : hd_f32_bits(v);                                      \
            }                                                                                      \
        } else {                                                                                   \
            for (uint32_t l = 0; l < 32; l++) {                                                    \
                float a = hd_f32(A[l]), b = hd_f32(B[l]), c = hd_f32(C[l]);                        \
                if (ftz) {                                                                         \
                    a = ftz32(a);                                                                  \
                    b = ftz32(b);                                                                  \
                    c = ftz32(c);                                                                  \
                }                                                                                  \
                (void)b;                                                                           \
                (void)c;                                                                           \
                r[l] = fin32((expr), ftz, sat);                                                    \
            }                                                                                      \
        }                                                                                          \
        round_end(rm);                                                                             \
        hd_store(D, r, mask);                                                                      \
        return HD_FUNC_OK;                                                                         \
    }

#define F64_OP(name, nsrc_, expr) F64_OP_A(name, , nsrc_, expr)
#define F64_OP_A(name, attr, nsrc_, expr)                                                          \
    attr static int name(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)    \
    {                                                                                              \
        F32_HEAD(nsrc_)                                                                            \
        for (uint32_t l = 0; l < 32; l++) {                                                        \
            double a = hd_f64(A[l]), b = hd_f64(B[l]), c = hd_f64(C[l]);                           \
            if (ftz) {                                                                             \
                a = ftz64(a);                                                                      \
                b = ftz64(b);                                                                      \
                c = ftz64(c);                                                                      \
            }                                                                                      \
            (void)b;                                                                               \
            (void)c;                                                                               \
            r[l] = fin64((expr), ftz, sat);                                                        \
        }                                                                                          \
        round_end(rm);                                                                             \
        hd_store(D, r, mask);                                                                      \
        return HD_FUNC_OK;                                                                         \
    }

/* Bit operations that must not canonicalize NaN (abs, neg, copysign). */
#define BITS_OP(name, expr)                                                                        \
    static int name(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)         \
    {                                                                                              \
        struct hd_lanes A = hd_src(x, d, 0);                                                       \
        struct hd_lanes B = d->nsrc > 1 ? hd_src(x, d, 1) : A;                                     \
        uint64_t *D = hd_dst(x, d, 0);                                                             \
        const int ftz = (d->ir->flags & HD_F_FTZ) != 0;                                            \
        const unsigned bits = d->bits;                                                             \
        const uint64_t sign = 1ull << (bits - 1);                                                  \
        HD_FOR_LANES(mask, l) {                                                                    \
            uint64_t a = HD_V(A, l), b = HD_V(B, l);                                               \
            (void)b;                                                                               \
            if (ftz && bits == 32)                                                                 \
                a = hd_f32_bits(ftz32(hd_f32(a)));                                                 \
            D[l] = (expr)&d->wmask;                                                                \
        }                                                                                          \
        return HD_FUNC_OK;                                                                         \
    }
/* }==== */

/* {==== min / max ==== */
static inline float fmin32(float a, float b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline float fmax32(float a, float b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
static inline double fmin64(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline double fmax64(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
/* }==== */

/* {==== Operations ==== */
F32_OP(f32_add, 2, a + b)
F32_OP(f32_sub, 2, a - b)
F32_OP(f32_mul, 2, a *b)
F32_OP(f32_fma, 3, fmaf(a, b, c))
F32_OP(f32_div, 2, a / b)
F32_OP(f32_div_approx, 2, (fabsf(b) > 0x1p126f && isfinite(b)) ? 0.0f * a : a * (1.0f / b))
F32_OP(f32_min, 2, fmin32(a, b))
F32_OP(f32_max, 2, fmax32(a, b))
F32_OP(f32_rcp, 1, 1.0f / a)
F32_OP(f32_sqrt, 1, sqrtf(a))
F32_OP(f32_rsqrt, 1, 1.0f / sqrtf(a))
F32_OP(f32_sin, 1, sinf(a))
F32_OP(f32_cos, 1, cosf(a))
F32_OP(f32_lg2, 1, log2f(a))
F32_OP(f32_ex2, 1, exp2f(a))
F32_OP(f32_tanh, 1, tanhf(a))

F64_OP(f64_add, 2, a + b)
F64_OP(f64_sub, 2, a - b)
F64_OP(f64_mul, 2, a *b)
F64_OP(f64_fma, 3, fma(a, b, c))

/* Fused multiply-add through the FMA instruction when the host has it (chosen at decode time);
 * the library fma() above is the portable, equally exact fallback. */
#if defined(__GNUC__) && defined(__x86_64__)
#define HD_HAVE_FMA_HW 1
F32_OP_A(f32_fma_hw, __attribute__((target("fma"))), 3, __builtin_fmaf(a, b, c))
F64_OP_A(f64_fma_hw, __attribute__((target("fma"))), 3, __builtin_fma(a, b, c))
#endif

static hd_func_exec_fn fma_handler(int f64)
{
#ifdef HD_HAVE_FMA_HW
    if (__builtin_cpu_supports("fma"))
        return f64 ? f64_fma_hw : f32_fma_hw;
#endif
    return f64 ? f64_fma : f32_fma;
}
F64_OP(f64_div, 2, a / b)
F64_OP(f64_min, 2, fmin64(a, b))
F64_OP(f64_max, 2, fmax64(a, b))
F64_OP(f64_rcp, 1, 1.0 / a)
F64_OP(f64_sqrt, 1, sqrt(a))
F64_OP(f64_rsqrt, 1, 1.0 / sqrt(a))
F64_OP(f64_sin, 1, sin(a))
F64_OP(f64_cos, 1, cos(a))
F64_OP(f64_lg2, 1, log2(a))
F64_OP(f64_ex2, 1, exp2(a))
F64_OP(f64_tanh, 1, tanh(a))

BITS_OP(fx_abs, a & ~sign)
BITS_OP(fx_neg, a ^ sign)
BITS_OP(fx_copysign, (b & ~sign) | (a & sign))
/* }==== */

/* {==== testp ==== */
/* The property tested is the instruction's mode (HD_MODE_TESTP_*). */
static int testp_one(uint64_t v, unsigned bits, uint8_t what)
{
    int cls;
    if (bits == 32)
        cls = fpclassify(hd_f32(v));
    else
        cls = fpclassify(hd_f64(v));
    switch (what) {
    case HD_MODE_TESTP_FINITE:
        return cls != FP_INFINITE && cls != FP_NAN;
    case HD_MODE_TESTP_INFINITE:
        return cls == FP_INFINITE;
    case HD_MODE_TESTP_NUMBER:
        return cls != FP_NAN;
    case HD_MODE_TESTP_NOTANUMBER:
        return cls == FP_NAN;
    case HD_MODE_TESTP_NORMAL:
        return cls == FP_NORMAL;
    case HD_MODE_TESTP_SUBNORMAL:
        return cls == FP_SUBNORMAL;
    default:
        return 0;
    }
}

static int f_testp(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l)
        D[l] = (uint64_t)testp_one(HD_V(A, l), d->bits, d->ir->mode);
    return HD_FUNC_OK;
}
/* }==== */

/* {==== f16 / bf16 (scalar and x2) arithmetic ==== */
/* Each 16-bit element is widened exactly to double, computed there (sums and products of two
 * halves are exact in double; fma's final addition is rounded once more before the conversion,
 * which can differ from a fused result in the last place only for extreme exponent ranges) and
 * rounded to the format with the instruction's rounding mode. */
static double h16_flush(double v, int bf)
{
    double tiny = bf ? 0x1p-126 : 0x1p-14;
    return (v != 0.0 && fabs(v) < tiny) ? copysign(0.0, v) : v;
}

static uint64_t h16_one(const struct hd_func_instr *d, uint64_t a, uint64_t b, uint64_t c, int bf)
{
    const int ftz = (d->ir->flags & HD_F_FTZ) != 0, sat = (d->ir->flags & HD_F_SAT) != 0;
    const uint64_t sign = 0x8000;
    switch (d->op) {
    case HD_OP_NEG:
        return (a ^ sign) & 0xffff;
    case HD_OP_ABS:
        return a & 0x7fff;
    default:
        break;
    }
    double x = hd_fp16_to_double(a, bf), y = hd_fp16_to_double(b, bf), z = hd_fp16_to_double(c, bf);
    if (ftz) {
        x = h16_flush(x, bf);
        y = h16_flush(y, bf);
        z = h16_flush(z, bf);
    }
    double r;
    switch (d->op) {
    case HD_OP_ADD:
        r = x + y;
        break;
    case HD_OP_SUB:
        r = x - y;
        break;
    case HD_OP_MUL:
        r = x * y;
        break;
    case HD_OP_MIN:
        r = fmin64(x, y);
        break;
    case HD_OP_MAX:
        r = fmax64(x, y);
        break;
    default: /* fma, mad */
        r = x * y + z;
        break;
    }
    if (r != r)
        return 0x7fff;
    if (sat)
        r = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    uint64_t h = hd_fp16_from_double(r, bf, d->ir->rnd);
    if (ftz && h16_flush(hd_fp16_to_double(h, bf), bf) == 0.0)
        h &= sign;
    return h;
}

static int h16_op(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const int bf = d->type == HD_T_BF16 || d->type == HD_T_BF16X2;
    const int pairs = d->type == HD_T_F16X2 || d->type == HD_T_BF16X2;
    const uint64_t *A = hd_src(x, d, 0).p;
    const uint64_t *B = d->nsrc > 1 ? hd_src(x, d, 1).p : A;
    const uint64_t *C = d->nsrc > 2 ? hd_src(x, d, 2).p : A;
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint64_t r = h16_one(d, A[l] & 0xffff, B[l] & 0xffff, C[l] & 0xffff, bf);
        if (pairs)
            r |= h16_one(d, (A[l] >> 16) & 0xffff, (B[l] >> 16) & 0xffff, (C[l] >> 16) & 0xffff,
                         bf) << 16;
        D[l] = r;
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Selectors ==== */
hd_func_exec_fn hd_func_float_sel(const struct hd_instr *in)
{
    const int f64 = in->type == HD_T_F64;
    if (in->type == HD_T_F16 || in->type == HD_T_F16X2 || in->type == HD_T_BF16 ||
        in->type == HD_T_BF16X2) {
        switch (in->op) {
        case HD_OP_ADD: case HD_OP_SUB: case HD_OP_MUL: case HD_OP_MAD: case HD_OP_FMA:
        case HD_OP_MIN: case HD_OP_MAX: case HD_OP_NEG: case HD_OP_ABS:
            return h16_op;
        default:
            return NULL;
        }
    }
    if (in->type != HD_T_F32 && !f64)
        return NULL;
    const int approx = (in->flags & HD_F_APPROX) != 0;
    switch (in->op) {
    case HD_OP_ADD:
        return f64 ? f64_add : f32_add;
    case HD_OP_SUB:
        return f64 ? f64_sub : f32_sub;
    case HD_OP_MUL:
        return f64 ? f64_mul : f32_mul;
    case HD_OP_MAD:
    case HD_OP_FMA:
        return fma_handler(f64);
    case HD_OP_DIV:
        if (f64)
            return f64_div;
        return approx ? f32_div_approx : f32_div;
    case HD_OP_MIN:
        return f64 ? f64_min : f32_min;
    case HD_OP_MAX:
        return f64 ? f64_max : f32_max;
    case HD_OP_ABS:
        return fx_abs;
    case HD_OP_NEG:
        return fx_neg;
    default:
        return NULL;
    }
}

static hd_func_exec_fn pick(const struct hd_instr *in, hd_func_exec_fn f32, hd_func_exec_fn f64)
{
    if (in->type == HD_T_F32)
        return f32;
    if (in->type == HD_T_F64)
        return f64;
    return NULL;
}

hd_func_exec_fn hd_func_sel_FMA(const struct hd_instr *in)
{
    return hd_func_float_sel(in);
}
hd_func_exec_fn hd_func_sel_COPYSIGN(const struct hd_instr *in)
{
    return pick(in, fx_copysign, fx_copysign);
}
hd_func_exec_fn hd_func_sel_TESTP(const struct hd_instr *in)
{
    return pick(in, f_testp, f_testp);
}
hd_func_exec_fn hd_func_sel_RCP(const struct hd_instr *in)
{
    return pick(in, f32_rcp, f64_rcp);
}
hd_func_exec_fn hd_func_sel_SQRT(const struct hd_instr *in)
{
    return pick(in, f32_sqrt, f64_sqrt);
}
hd_func_exec_fn hd_func_sel_RSQRT(const struct hd_instr *in)
{
    return pick(in, f32_rsqrt, f64_rsqrt);
}
hd_func_exec_fn hd_func_sel_SIN(const struct hd_instr *in)
{
    return pick(in, f32_sin, f64_sin);
}
hd_func_exec_fn hd_func_sel_COS(const struct hd_instr *in)
{
    return pick(in, f32_cos, f64_cos);
}
hd_func_exec_fn hd_func_sel_LG2(const struct hd_instr *in)
{
    return pick(in, f32_lg2, f64_lg2);
}
hd_func_exec_fn hd_func_sel_EX2(const struct hd_instr *in)
{
    return pick(in, f32_ex2, f64_ex2);
}
hd_func_exec_fn hd_func_sel_TANH(const struct hd_instr *in)
{
    return pick(in, f32_tanh, f64_tanh);
}
/* }==== */
