/* SPDX-License-Identifier: MIT
 * exec_cvt.c - data movement and conversion: mov (including vector pack/unpack), cvt between all
 * integer and floating-point types, and the comparison/selection family setp, set, selp, slct.
 *
 * Design: cvt reads its source as an integer (sign- or zero-extended by the source type) or as a
 * double (every f16/bf16/f32 value is exact in a double) and converts with one rounding: host
 * conversions under the requested rounding mode for f32/f64 targets, an exact
 * round-to-format routine for f16/bf16. Float-to-integer conversions round as .rni/.rzi/.rmi/.rpi
 * say, saturate to the destination range and map NaN to 0, as PTX specifies; integer-to-integer
 * conversions truncate or extend unless .sat clamps. Comparisons implement all ordered and
 * unordered float relations and the signed/unsigned integer ones; setp combines with a predicate
 * through .and/.or/.xor and writes the complement to its optional second destination.
 */
#include "exec_impl.h"
#include "fp16.h"

#include <fenv.h>
#include <math.h>

/* {==== mov ==== */
static int x_mov(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const uint64_t *A = hd_src(x, d, 0).p;
    uint64_t *D = hd_dst(x, d, 0);
    const uint64_t wm = d->wmask;
    uint64_t r[32];
    for (uint32_t l = 0; l < 32; l++)
        r[l] = A[l] & wm;
    hd_store(D, r, mask);
    return HD_FUNC_OK;
}

/* mov.b64 d, {a, b} / mov.b32 d, {a, b} / ... : sources are packed low element first. */
static int x_mov_pack(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const unsigned n = d->nsrc, eb = d->bits / n;
    struct hd_lanes S[4];
    for (unsigned i = 0; i < n; i++)
        S[i] = hd_src(x, d, (int)i);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint64_t v = 0;
        for (unsigned i = 0; i < n; i++)
            v |= (HD_V(S[i], l) & hd_wmask(eb)) << (eb * i);
        D[l] = v;
    }
    return HD_FUNC_OK;
}

/* mov.b64 {a, b}, d : unpack, low element first; `_` sinks. */
static int x_mov_unpack(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const unsigned n = d->ndst, eb = d->bits / n;
    struct hd_lanes A = hd_src(x, d, 0);
    uint64_t v[32];
    HD_FOR_LANES(mask, l)
        v[l] = HD_V(A, l);
    for (unsigned i = 0; i < n; i++) {
        uint64_t *D = hd_dst(x, d, (int)i);
        HD_FOR_LANES(mask, l)
            D[l] = (v[l] >> (eb * i)) & hd_wmask(eb);
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== cvt ==== */
static int fe_mode(uint8_t rnd)
{
    switch (rnd) {
    case HD_RND_RZ:
        return FE_TOWARDZERO;
    case HD_RND_RM:
        return FE_DOWNWARD;
    case HD_RND_RP:
        return FE_UPWARD;
    default:
        return FE_TONEAREST;
    }
}

static double round_int(double v, uint8_t rnd)
{
    switch (rnd) {
    case HD_RND_RNI:
        return nearbyint(v); /* the default mode: ties to even */
    case HD_RND_RMI:
        return floor(v);
    case HD_RND_RPI:
        return ceil(v);
    default:
        return trunc(v);
    }
}

/* Saturating conversion of a (rounded, integral) double to an integer type. */
static uint64_t double_to_int(double r, unsigned bits, int sgn)
{
    if (r != r)
        return 0;
    if (sgn) {
        double hi = ldexp(1.0, (int)bits - 1);
        if (r >= hi)
            return hd_wmask(bits) >> 1;
        if (r < -hi)
            return (hd_wmask(bits) >> 1) + 1; /* INT_MIN of the width, masked below */
        return (uint64_t)(int64_t)r;
    }
    if (r >= ldexp(1.0, (int)bits))
        return hd_wmask(bits);
    if (r <= 0.0)
        return 0;
    return (uint64_t)r;
}

static double read_float(uint64_t v, uint8_t t, int ftz)
{
    switch (t) {
    case HD_T_F16:
        return hd_fp16_to_double(v & 0xffff, 0);
    case HD_T_BF16:
        return hd_fp16_to_double(v & 0xffff, 1);
    case HD_T_F32: {
        float f = hd_f32(v);
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        return (double)f;
    }
    default:
        return hd_f64(v);
    }
}

/* One lane of cvt. */
static uint64_t cvt_one(const struct hd_func_instr *d, uint64_t v)
{
    const uint8_t dt = d->type, st = d->type2, rnd = d->ir->rnd;
    const int ftz = (d->ir->flags & HD_F_FTZ) != 0, sat = (d->ir->flags & HD_F_SAT) != 0;
    const unsigned sbits = hd_type_bytes((enum hd_type)st) * 8, dbits = d->bits;
    const int sflt = hd_type_is_float((enum hd_type)st), dflt = hd_type_is_float((enum hd_type)dt);
    if (!sflt && !dflt) { /* integer to integer */
        int ssg = hd_type_is_signed((enum hd_type)st), dsg = hd_type_is_signed((enum hd_type)dt);
        uint64_t u = v & hd_wmask(sbits);
        int64_t s = ssg ? hd_sext(u, sbits) : (int64_t)u;
        if (!sat)
            return (uint64_t)s;
        if (dsg) {
            int64_t hi = (int64_t)(hd_wmask(dbits) >> 1), lo = -hi - 1;
            if (ssg)
                return (uint64_t)(s > hi ? hi : s < lo ? lo : s);
            return u > (uint64_t)hi ? (uint64_t)hi : u;
        }
        if (ssg && s < 0)
            return 0;
        return (uint64_t)s > hd_wmask(dbits) ? hd_wmask(dbits) : (uint64_t)s;
    }
    if (!sflt) { /* integer to float */
        int ssg = hd_type_is_signed((enum hd_type)st);
        uint64_t u = v & hd_wmask(sbits);
        int64_t s = ssg ? hd_sext(u, sbits) : (int64_t)u;
        double r;
        uint64_t out;
        if (dt == HD_T_F32) {
            float f = ssg ? (float)s : (float)u;
            if (sat)
                f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
            return hd_f32_bits(f);
        }
        r = ssg ? (double)s : (double)u;
        if (sat)
            r = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
        if (dt == HD_T_F64)
            return hd_f64_bits(r);
        out = hd_fp16_from_double(r, dt == HD_T_BF16, rnd);
        return out;
    }
    double a = read_float(v, st, ftz);
    if (!dflt) { /* float to integer */
        if (a != a)
            return 0;
        return double_to_int(round_int(a, rnd), dbits, hd_type_is_signed((enum hd_type)dt));
    }
    /* float to float */
    if (rnd >= HD_RND_RNI && rnd <= HD_RND_RPI)
        a = round_int(a, rnd);
    if (sat)
        a = (a != a) ? 0.0 : a < 0.0 ? 0.0 : a > 1.0 ? 1.0 : a;
    if (dt == HD_T_F64) {
        if (a != a)
            return 0x7fffffffffffffffull;
        return hd_f64_bits(a);
    }
    if (dt == HD_T_F32) {
        if (a != a)
            return 0x7fffffffu;
        float f = (float)a; /* rounded in the current (requested) mode */
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        return hd_f32_bits(f);
    }
    return hd_fp16_from_double(a, dt == HD_T_BF16,
                               (rnd >= HD_RND_RNI && rnd <= HD_RND_RPI) ? HD_RND_RN : rnd);
}

/* cvt between integer types without .sat: extend by the source type, truncate to the
 * destination (the common cvt.s64.s32 / cvt.u32.u64 / cvt.u64.u32 ...). */
static int x_cvt_int(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0);
    uint64_t *D = hd_dst(x, d, 0);
    const unsigned sbits = hd_type_bytes((enum hd_type)d->type2) * 8, dbits = d->bits;
    const uint64_t sm = hd_wmask(sbits), wm = d->wmask;
    const int ssg = hd_type_is_signed((enum hd_type)d->type2), dsg = d->sgn;
    uint64_t r[32];
    for (uint32_t l = 0; l < 32; l++) {
        uint64_t v = ssg ? (uint64_t)hd_sext(HD_V(A, l), sbits) : HD_V(A, l) & sm;
        /* truncate to the destination type, then extend to the register by its signedness */
        r[l] = (dsg ? (uint64_t)hd_sext(v, dbits) : v & hd_wmask(dbits)) & wm;
    }
    hd_store(D, r, mask);
    return HD_FUNC_OK;
}

static int x_cvt(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0);
    uint64_t *D = hd_dst(x, d, 0);
    const int mode = fe_mode(d->ir->rnd);
    if (mode != FE_TONEAREST)
        fesetround(mode);
    const int ext = d->sgn && d->bits < 64;
    HD_FOR_LANES(mask, l) {
        uint64_t v = cvt_one(d, HD_V(A, l));
        D[l] = (ext ? (uint64_t)hd_sext(v, d->bits) : v & hd_wmask(d->bits)) & d->wmask;
    }
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    return HD_FUNC_OK;
}

/* cvt.rn.f16x2.f32 d, a, b / cvt.rn.bf16x2.f32: d = {cvt(a) in the high half, cvt(b) low}. */
static int x_cvt_x2(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const int bf = d->type == HD_T_BF16X2;
    const int ftz = (d->ir->flags & HD_F_FTZ) != 0;
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint64_t hi = hd_fp16_from_double(read_float(HD_V(A, l), HD_T_F32, ftz), bf, d->ir->rnd);
        uint64_t lo = hd_fp16_from_double(read_float(HD_V(B, l), HD_T_F32, ftz), bf, d->ir->rnd);
        D[l] = (hi << 16) | lo;
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Comparisons ==== */
static int cmp_float(double a, double b, uint8_t cmp)
{
    int un = (a != a) || (b != b);
    switch (cmp) {
    case HD_CMP_EQ:
        return !un && a == b;
    case HD_CMP_NE:
        return !un && a != b;
    case HD_CMP_LT:
        return !un && a < b;
    case HD_CMP_LE:
        return !un && a <= b;
    case HD_CMP_GT:
        return !un && a > b;
    case HD_CMP_GE:
        return !un && a >= b;
    case HD_CMP_EQU:
        return un || a == b;
    case HD_CMP_NEU:
        return un || a != b;
    case HD_CMP_LTU:
        return un || a < b;
    case HD_CMP_LEU:
        return un || a <= b;
    case HD_CMP_GTU:
        return un || a > b;
    case HD_CMP_GEU:
        return un || a >= b;
    case HD_CMP_NUM:
        return !un;
    case HD_CMP_NAN:
        return un;
    default:
        return 0;
    }
}

static int cmp_int(uint64_t a, uint64_t b, unsigned bits, int sgn, uint8_t cmp)
{
    uint64_t ua = a & hd_wmask(bits), ub = b & hd_wmask(bits);
    int64_t sa = hd_sext(a, bits), sb = hd_sext(b, bits);
    switch (cmp) {
    case HD_CMP_EQ:
        return ua == ub;
    case HD_CMP_NE:
        return ua != ub;
    case HD_CMP_LT:
        return sgn ? sa < sb : ua < ub;
    case HD_CMP_LE:
        return sgn ? sa <= sb : ua <= ub;
    case HD_CMP_GT:
        return sgn ? sa > sb : ua > ub;
    case HD_CMP_GE:
        return sgn ? sa >= sb : ua >= ub;
    case HD_CMP_LO:
        return ua < ub;
    case HD_CMP_LS:
        return ua <= ub;
    case HD_CMP_HI:
        return ua > ub;
    case HD_CMP_HS:
        return ua >= ub;
    default:
        return 0;
    }
}

/* The type compared by setp/set (the front end puts set's destination type in type2). */
static uint8_t cmp_type(const struct hd_func_instr *d)
{
    return d->type;
}

#define CMP_LOOP(expr)                                                                             \
    do {                                                                                           \
        for (uint32_t l = 0; l < 32; l++) {                                                        \
            uint64_t a = HD_V(A, l) & im, b = HD_V(B, l) & im;                                     \
            int64_t sa = hd_sext(a, bits), sb = hd_sext(b, bits);                                  \
            (void)sa;                                                                              \
            (void)sb;                                                                              \
            res[l] = (uint8_t)(expr);                                                              \
        }                                                                                          \
    } while (0)

/* Evaluate the comparison of setp/set for the lanes in mask into res[] (0/1). */
static void compare_lanes(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask,
                          uint8_t res[32])
{
    (void)mask; /* every lane is compared; the caller stores the active ones */
    const uint8_t t = cmp_type(d), cmp = d->ir->cmp;
    const int ftz = (d->ir->flags & HD_F_FTZ) != 0;
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1);
    if (d->flt) {
        if (t == HD_T_F32 && !ftz) {
            HD_FOR_LANES(mask, l)
                res[l] = (uint8_t)cmp_float((double)hd_f32(HD_V(A, l)), (double)hd_f32(HD_V(B, l)), cmp);
        } else {
            HD_FOR_LANES(mask, l)
                res[l] = (uint8_t)cmp_float(read_float(HD_V(A, l), t, ftz),
                                            read_float(HD_V(B, l), t, ftz), cmp);
        }
        return;
    }
    const unsigned bits = d->bits;
    const uint64_t im = hd_wmask(bits);
    const int sgn = d->sgn;
    switch (cmp) {
    case HD_CMP_EQ:
        CMP_LOOP(a == b);
        break;
    case HD_CMP_NE:
        CMP_LOOP(a != b);
        break;
    case HD_CMP_LT:
        if (sgn)
            CMP_LOOP(sa < sb);
        else
            CMP_LOOP(a < b);
        break;
    case HD_CMP_LE:
        if (sgn)
            CMP_LOOP(sa <= sb);
        else
            CMP_LOOP(a <= b);
        break;
    case HD_CMP_GT:
        if (sgn)
            CMP_LOOP(sa > sb);
        else
            CMP_LOOP(a > b);
        break;
    case HD_CMP_GE:
        if (sgn)
            CMP_LOOP(sa >= sb);
        else
            CMP_LOOP(a >= b);
        break;
    default:
        HD_FOR_LANES(mask, l)
            res[l] = (uint8_t)cmp_int(HD_V(A, l), HD_V(B, l), bits, sgn, cmp);
        break;
    }
}

static int combine(int r, int c, uint8_t op)
{
    switch (op) {
    case HD_BOOL_AND:
        return r && c;
    case HD_BOOL_OR:
        return r || c;
    case HD_BOOL_XOR:
        return r != c;
    default:
        return r;
    }
}

static int x_setp(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    uint8_t res[32];
    uint64_t p[32], q[32];
    compare_lanes(x, d, mask, res);
    const uint8_t bop = d->ir->boolop;
    if (bop) {
        const uint64_t *C = hd_src(x, d, 2).p;
        for (uint32_t l = 0; l < 32; l++) {
            int c = (C[l] & 1u) != 0;
            p[l] = (uint64_t)combine(res[l], c, bop);
            q[l] = (uint64_t)combine(!res[l], c, bop);
        }
    } else {
        for (uint32_t l = 0; l < 32; l++) {
            p[l] = res[l];
            q[l] = res[l] ^ 1u;
        }
    }
    hd_store(hd_dst(x, d, 0), p, mask);
    if (d->ndst > 1)
        hd_store(hd_dst(x, d, 1), q, mask);
    return HD_FUNC_OK;
}

static int x_set(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    uint8_t res[32];
    compare_lanes(x, d, mask, res);
    const uint8_t bop = d->ir->boolop;
    struct hd_lanes C = bop ? hd_src(x, d, 2) : hd_src(x, d, 0);
    uint64_t *D = hd_dst(x, d, 0);
    uint64_t yes = d->type2 == HD_T_F32 ? 0x3f800000u : d->wmask;
    HD_FOR_LANES(mask, l) {
        int c = bop ? (HD_V(C, l) & 1u) != 0 : 0;
        D[l] = combine(res[l], c, bop) ? yes : 0;
    }
    return HD_FUNC_OK;
}

static int x_selp(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const uint64_t *A = hd_src(x, d, 0).p, *B = hd_src(x, d, 1).p, *C = hd_src(x, d, 2).p;
    uint64_t *D = hd_dst(x, d, 0);
    const uint64_t wm = d->wmask;
    uint64_t r[32];
    for (uint32_t l = 0; l < 32; l++)
        r[l] = ((C[l] & 1u) ? A[l] : B[l]) & wm;
    hd_store(D, r, mask);
    return HD_FUNC_OK;
}

static int x_slct(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2);
    uint64_t *D = hd_dst(x, d, 0);
    const int ftz = (d->ir->flags & HD_F_FTZ) != 0;
    const int cf = d->type2 == HD_T_F32;
    HD_FOR_LANES(mask, l) {
        uint64_t c = HD_V(C, l);
        int pick_a = cf ? read_float(c, HD_T_F32, ftz) >= 0.0 : hd_sext(c, 32) >= 0;
        D[l] = (pick_a ? HD_V(A, l) : HD_V(B, l)) & d->wmask;
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Selectors ==== */
hd_func_exec_fn hd_func_sel_MOV(const struct hd_instr *in)
{
    if (in->nopnds >= 1 && in->opnd[0].kind == HD_OPND_VEC)
        return x_mov_unpack;
    if (in->nopnds >= 2 && in->opnd[1].kind == HD_OPND_VEC)
        return x_mov_pack;
    return x_mov;
}
hd_func_exec_fn hd_func_sel_CVT(const struct hd_instr *in)
{
    if (in->type == HD_T_F16X2 || in->type == HD_T_BF16X2)
        return in->type2 == HD_T_F32 ? x_cvt_x2 : NULL;
    if (in->type2 == HD_T_F16X2 || in->type2 == HD_T_BF16X2 || in->type == HD_T_B128 ||
        in->type2 == HD_T_B128)
        return NULL;
    if (!hd_type_is_float((enum hd_type)in->type) && !hd_type_is_float((enum hd_type)in->type2) &&
        !(in->flags & HD_F_SAT))
        return x_cvt_int;
    return x_cvt;
}
hd_func_exec_fn hd_func_sel_SETP(const struct hd_instr *in)
{
    (void)in;
    return x_setp;
}
hd_func_exec_fn hd_func_sel_SET(const struct hd_instr *in)
{
    (void)in;
    return x_set;
}
hd_func_exec_fn hd_func_sel_SELP(const struct hd_instr *in)
{
    (void)in;
    return x_selp;
}
hd_func_exec_fn hd_func_sel_SLCT(const struct hd_instr *in)
{
    (void)in;
    return x_slct;
}
/* }==== */
