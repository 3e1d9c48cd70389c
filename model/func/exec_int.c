/* SPDX-License-Identifier: MIT
 * exec_int.c - integer and bit-manipulation semantics (PTX ISA "Integer Arithmetic" and "Logic
 * and Shift" instructions), and the selectors of the opcodes shared with floating point.
 *
 * Design: one handler per operation and signedness; the width comes from the decoded instruction
 * (bits, wmask), so add.u16/.s32/.u64 share a handler. Results are written masked to the
 * destination width (zero-extended in the 64-bit slot). Signed inputs are sign-extended from the
 * type width. Edge cases follow PTX: shifts by >= width give 0 (or the sign), division by zero
 * gives all ones for the quotient and the dividend for the remainder (no trap), INT_MIN / -1
 * wraps. The carry flag of add.cc/addc/sub.cc/subc/mad.cc/madc is one bit per lane in the warp.
 */
#include "exec_impl.h"

#include <limits.h>

/* {==== Handler templates ==== */
/* Each template computes every lane into r[] (a loop the compiler can vectorize; inactive lanes
 * compute harmless garbage) and stores the lanes in mask. */
#define HD_TEMPLATE_HEAD                                                                           \
    uint64_t *D = hd_dst(x, d, 0);                                                                 \
    const uint64_t wm = d->wmask;                                                                  \
    const unsigned bits = d->bits;                                                                 \
    const uint64_t im = hd_wmask(bits);                                                            \
    uint64_t r[32];                                                                                \
    (void)bits;                                                                                    \
    (void)im;

#define HD_BIN(name, expr)                                                                         \
    static int name(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)         \
    {                                                                                              \
        const uint64_t *A = hd_src(x, d, 0).p, *B = hd_src(x, d, 1).p;                             \
        HD_TEMPLATE_HEAD                                                                           \
        for (uint32_t l = 0; l < 32; l++) {                                                        \
            uint64_t a = A[l], b = B[l];                                                           \
            r[l] = (uint64_t)(expr)&wm;                                                            \
        }                                                                                          \
        hd_store(D, r, mask);                                                                      \
        return HD_FUNC_OK;                                                                         \
    }

#define HD_UN(name, expr)                                                                          \
    static int name(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)         \
    {                                                                                              \
        const uint64_t *A = hd_src(x, d, 0).p;                                                     \
        HD_TEMPLATE_HEAD                                                                           \
        for (uint32_t l = 0; l < 32; l++) {                                                        \
            uint64_t a = A[l] & im;                                                                \
            r[l] = (uint64_t)(expr)&wm;                                                            \
        }                                                                                          \
        hd_store(D, r, mask);                                                                      \
        return HD_FUNC_OK;                                                                         \
    }

#define HD_TER(name, expr)                                                                         \
    static int name(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)         \
    {                                                                                              \
        const uint64_t *A = hd_src(x, d, 0).p, *B = hd_src(x, d, 1).p, *C = hd_src(x, d, 2).p;     \
        HD_TEMPLATE_HEAD                                                                           \
        for (uint32_t l = 0; l < 32; l++) {                                                        \
            uint64_t a = A[l], b = B[l], c = C[l];                                                 \
            r[l] = (uint64_t)(expr)&wm;                                                            \
        }                                                                                          \
        hd_store(D, r, mask);                                                                      \
        return HD_FUNC_OK;                                                                         \
    }

#define SA hd_sext(a, bits)
#define SB hd_sext(b, bits)
#define SC hd_sext(c, bits)
/* }==== */

/* {==== Helpers ==== */
static int64_t smax_of(unsigned bits)
{
    return (int64_t)(hd_wmask(bits) >> 1);
}

static uint64_t sat_s(__int128 v, unsigned bits)
{
    int64_t hi = smax_of(bits), lo = -hi - 1;
    if (v > hi)
        return (uint64_t)hi;
    if (v < lo)
        return (uint64_t)lo;
    return (uint64_t)(int64_t)v;
}

/* Full product of a and b at twice the width (for .hi and .wide), signed or unsigned. */
static unsigned __int128 mul_full_s(uint64_t a, uint64_t b, unsigned bits)
{
    return (unsigned __int128)((__int128)hd_sext(a, bits) * (__int128)hd_sext(b, bits));
}
static unsigned __int128 mul_full_u(uint64_t a, uint64_t b, unsigned bits)
{
    uint64_t m = hd_wmask(bits);
    return (unsigned __int128)(a & m) * (unsigned __int128)(b & m);
}

static uint64_t div_u(uint64_t a, uint64_t b, uint64_t wm)
{
    a &= wm;
    b &= wm;
    return b ? a / b : wm;
}
static uint64_t rem_u(uint64_t a, uint64_t b, uint64_t wm)
{
    a &= wm;
    b &= wm;
    return b ? a % b : a;
}
static uint64_t div_s(uint64_t a, uint64_t b, unsigned bits)
{
    int64_t sa = hd_sext(a, bits), sb = hd_sext(b, bits);
    if (sb == 0)
        return ~0ull;
    if (sb == -1)
        return (uint64_t)0 - (uint64_t)sa; /* INT_MIN / -1 wraps to INT_MIN */
    return (uint64_t)(sa / sb);
}
static uint64_t rem_s(uint64_t a, uint64_t b, unsigned bits)
{
    int64_t sa = hd_sext(a, bits), sb = hd_sext(b, bits);
    if (sb == 0)
        return (uint64_t)sa;
    if (sb == -1)
        return 0;
    return (uint64_t)(sa % sb);
}

static uint64_t shl_w(uint64_t a, uint64_t b, unsigned bits)
{
    uint32_t n = (uint32_t)b;
    return n >= bits ? 0 : a << n;
}
static uint64_t shr_u(uint64_t a, uint64_t b, unsigned bits)
{
    uint32_t n = (uint32_t)b;
    return n >= bits ? 0 : (a & hd_wmask(bits)) >> n;
}
static uint64_t shr_s(uint64_t a, uint64_t b, unsigned bits)
{
    uint32_t n = (uint32_t)b;
    int64_t sa = hd_sext(a, bits);
    return (uint64_t)(sa >> (n >= bits ? bits - 1 : n));
}

static uint32_t clz_w(uint64_t a, unsigned bits)
{
    a &= hd_wmask(bits);
    if (!a)
        return bits;
    return (uint32_t)__builtin_clzll(a) - (64u - bits);
}

static uint64_t brev_w(uint64_t a, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((a >> i) & 1u) << (bits - 1 - i);
    return r;
}

static uint32_t bfind_w(uint64_t a, unsigned bits, int is_signed, int shiftamt)
{
    a &= hd_wmask(bits);
    if (is_signed && ((a >> (bits - 1)) & 1u))
        a = ~a & hd_wmask(bits);
    if (!a)
        return 0xffffffffu;
    uint32_t pos = 63u - (uint32_t)__builtin_clzll(a);
    return shiftamt ? (bits - 1 - pos) : pos;
}

static uint64_t bfe_w(uint64_t a, uint64_t b, uint64_t c, unsigned bits, int is_signed)
{
    uint32_t pos = (uint32_t)b & 0xff, len = (uint32_t)c & 0xff;
    a &= hd_wmask(bits);
    if (len == 0)
        return 0;
    uint64_t sbit = 0;
    if (is_signed) {
        uint32_t sb = pos + len - 1;
        if (sb > bits - 1)
            sb = bits - 1;
        sbit = (a >> sb) & 1u;
    }
    uint64_t r;
    uint32_t n; /* field bits that come from a */
    if (pos >= bits) {
        r = 0;
        n = 0;
    } else {
        n = len < bits - pos ? len : bits - pos;
        r = (a >> pos) & hd_wmask(n);
    }
    if (sbit && n < bits)
        r |= hd_wmask(bits) & ~hd_wmask(n);
    return r;
}

static uint64_t bfi_w(uint64_t f, uint64_t b, uint64_t c, uint64_t dd, unsigned bits)
{
    uint32_t pos = (uint32_t)c & 0xff, len = (uint32_t)dd & 0xff;
    if (len == 0 || pos >= bits)
        return b;
    uint32_t n = len < bits - pos ? len : bits - pos;
    uint64_t m = hd_wmask(n) << pos;
    return (b & ~m) | ((f << pos) & m);
}

static uint32_t prmt_w(uint32_t a, uint32_t b, uint32_t c, uint8_t mode)
{
    uint64_t src = ((uint64_t)b << 32) | a;
    uint32_t sel[4];
    uint32_t rs = c & 3u;
    int generic = 0;
    switch (mode) {
    case HD_MODE_PRMT_F4E:
        for (unsigned i = 0; i < 4; i++)
            sel[i] = (rs + i) & 7u;
        break;
    case HD_MODE_PRMT_B4E:
        for (unsigned i = 0; i < 4; i++)
            sel[i] = (rs - i) & 7u;
        break;
    case HD_MODE_PRMT_RC8:
        for (unsigned i = 0; i < 4; i++)
            sel[i] = rs;
        break;
    case HD_MODE_PRMT_ECL:
        for (unsigned i = 0; i < 4; i++)
            sel[i] = i > rs ? i : rs;
        break;
    case HD_MODE_PRMT_ECR:
        for (unsigned i = 0; i < 4; i++)
            sel[i] = i < rs ? i : rs;
        break;
    case HD_MODE_PRMT_RC16:
        for (unsigned i = 0; i < 4; i++)
            sel[i] = (rs & 1u) * 2u + (i & 1u);
        break;
    default:
        generic = 1;
        for (unsigned i = 0; i < 4; i++)
            sel[i] = (c >> (4 * i)) & 0xfu;
        break;
    }
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t byte = (uint32_t)(src >> (8 * (sel[i] & 7u))) & 0xffu;
        if (generic && (sel[i] & 8u))
            byte = (byte & 0x80u) ? 0xffu : 0;
        r |= byte << (8 * i);
    }
    return r;
}

static uint64_t lop3_w(uint64_t a, uint64_t b, uint64_t c, uint32_t lut)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++) {
        if (!((lut >> i) & 1u))
            continue;
        uint64_t t = ((i & 4u) ? a : ~a) & ((i & 2u) ? b : ~b) & ((i & 1u) ? c : ~c);
        r |= t;
    }
    return r;
}
/* }==== */

/* {==== Simple arithmetic ==== */
HD_BIN(x_add, a + b)
HD_BIN(x_sub, a - b)
HD_BIN(x_add_sat, sat_s((__int128)SA + SB, bits))
HD_BIN(x_sub_sat, sat_s((__int128)SA - SB, bits))
HD_BIN(x_mul_lo, a * b)
HD_BIN(x_mul_hi_s, mul_full_s(a, b, bits) >> bits)
HD_BIN(x_mul_hi_u, mul_full_u(a, b, bits) >> bits)
HD_BIN(x_div_u, div_u(a, b, im))
HD_BIN(x_div_s, div_s(a, b, bits))
HD_BIN(x_rem_u, rem_u(a, b, im))
HD_BIN(x_rem_s, rem_s(a, b, bits))
HD_BIN(x_min_u, (a & im) < (b & im) ? a : b)
HD_BIN(x_max_u, (a & im) > (b & im) ? a : b)
HD_BIN(x_min_s, SA < SB ? a : b)
HD_BIN(x_max_s, SA > SB ? a : b)
HD_BIN(x_min_s_relu, (SA < SB ? SA : SB) < 0 ? 0 : (SA < SB ? a : b))
HD_BIN(x_max_s_relu, (SA > SB ? SA : SB) < 0 ? 0 : (SA > SB ? a : b))
HD_BIN(x_and, a &b)
HD_BIN(x_or, a | b)
HD_BIN(x_xor, a ^ b)
HD_BIN(x_shl, shl_w(a, b, bits))
HD_BIN(x_shr_u, shr_u(a, b, bits))
HD_BIN(x_shr_s, shr_s(a, b, bits))
HD_BIN(x_mul24_lo_u, (a & 0xffffffu) * (b & 0xffffffu))
HD_BIN(x_mul24_lo_s, (uint64_t)(hd_sext(a, 24) * hd_sext(b, 24)))
HD_BIN(x_mul24_hi_u, ((a & 0xffffffu) * (b & 0xffffffu)) >> 16)
HD_BIN(x_mul24_hi_s, (uint64_t)((hd_sext(a, 24) * hd_sext(b, 24)) >> 16))

HD_UN(x_neg, 0 - a)
HD_UN(x_abs, hd_sext(a, bits) < 0 ? 0 - a : a)
HD_UN(x_not, ~a)
HD_UN(x_not_pred, a ? 0 : 1)
HD_UN(x_cnot, a == 0 ? 1 : 0)
HD_UN(x_popc, (uint64_t)__builtin_popcountll(a))
HD_UN(x_clz, clz_w(a, bits))
HD_UN(x_brev, brev_w(a, bits))
HD_UN(x_bfind_u, bfind_w(a, bits, 0, 0))
HD_UN(x_bfind_s, bfind_w(a, bits, 1, 0))
HD_UN(x_bfind_u_sh, bfind_w(a, bits, 0, 1))
HD_UN(x_bfind_s_sh, bfind_w(a, bits, 1, 1))

HD_TER(x_mad_lo, a *b + c)
HD_TER(x_mad_hi_s, (uint64_t)(mul_full_s(a, b, bits) >> bits) + c)
HD_TER(x_mad_hi_u, (uint64_t)(mul_full_u(a, b, bits) >> bits) + c)
HD_TER(x_mad_hi_sat_s, sat_s((__int128)(int64_t)(mul_full_s(a, b, bits) >> bits) + SC, bits))
HD_TER(x_mad24_lo_u, (a & 0xffffffu) * (b & 0xffffffu) + c)
HD_TER(x_mad24_lo_s, (uint64_t)(hd_sext(a, 24) * hd_sext(b, 24)) + c)
HD_TER(x_mad24_hi_u, (((a & 0xffffffu) * (b & 0xffffffu)) >> 16) + c)
HD_TER(x_mad24_hi_s, (uint64_t)((hd_sext(a, 24) * hd_sext(b, 24)) >> 16) + c)
HD_TER(x_sad_u, ((a & im) > (b & im) ? (a & im) - (b & im) : (b & im) - (a & im)) + c)
HD_TER(x_sad_s, (SA > SB ? (uint64_t)SA - (uint64_t)SB : (uint64_t)SB - (uint64_t)SA) + c)
HD_TER(x_bfe_u, bfe_w(a, b, c, bits, 0))
HD_TER(x_bfe_s, bfe_w(a, b, c, bits, 1))
HD_TER(x_prmt, prmt_w((uint32_t)a, (uint32_t)b, (uint32_t)c, d->ir->mode))
/* }==== */

/* {==== Wide, carry, multi-operand ==== */
HD_BIN(x_mul_wide_s, (uint64_t)mul_full_s(a, b, bits))
HD_BIN(x_mul_wide_u, (uint64_t)mul_full_u(a, b, bits))
HD_TER(x_mad_wide_s, (uint64_t)mul_full_s(a, b, bits) + c)
HD_TER(x_mad_wide_u, (uint64_t)mul_full_u(a, b, bits) + c)

/* add/sub/mad with carry-in (addc, subc, madc) and/or carry-out (.cc). */
static int x_carry(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const unsigned op = d->op, bits = d->bits;
    const uint64_t im = hd_wmask(bits);
    const int cin = (op == HD_OP_ADDC || op == HD_OP_SUBC || op == HD_OP_MADC);
    const int cout = (d->ir->flags & HD_F_CC) != 0;
    const int is_mad = (op == HD_OP_MAD || op == HD_OP_MADC);
    const int hi = d->ir->mode == HD_MODE_HI;
    const int sgn = hd_type_is_signed((enum hd_type)d->type);
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1);
    struct hd_lanes C = is_mad ? hd_src(x, d, 2) : A;
    uint64_t *D = hd_dst(x, d, 0);
    uint32_t carry = x->w->carry;
    HD_FOR_LANES(mask, l) {
        uint64_t a = HD_V(A, l) & im, b = HD_V(B, l) & im;
        unsigned __int128 ci = cin ? (carry >> l) & 1u : 0;
        unsigned __int128 s;
        int out;
        if (op == HD_OP_SUB || op == HD_OP_SUBC) {
            s = (unsigned __int128)a - b - ci;
            out = (unsigned __int128)a < (unsigned __int128)b + ci;
        } else {
            uint64_t p = a;
            uint64_t q = b;
            if (is_mad) {
                unsigned __int128 full = sgn ? mul_full_s(a, b, bits) : mul_full_u(a, b, bits);
                p = (uint64_t)(hi ? full >> bits : full) & im;
                q = HD_V(C, l) & im;
            }
            s = (unsigned __int128)p + q + ci;
            out = (int)((s >> bits) & 1u);
        }
        D[l] = (uint64_t)s & im;
        if (cout)
            carry = (carry & ~(1u << l)) | ((uint32_t)out << l);
    }
    x->w->carry = carry;
    return HD_FUNC_OK;
}

static int64_t dp_ext(uint32_t v, unsigned bits, int sgn)
{
    return sgn ? hd_sext(v, bits) : (int64_t)(v & hd_wmask(bits));
}

/* fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of mask counting from
 * bit `base` upwards (offset > 0) or downwards (offset < 0); offset 0 asks whether bit `base` is
 * set. Not found: 0xffffffff (PTX ISA, fns). A base above 31 is undefined in PTX; here nothing
 * is found. */
static int x_fns(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes M = hd_src(x, d, 0), B = hd_src(x, d, 1), O = hd_src(x, d, 2);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        const uint32_t m = (uint32_t)HD_V(M, l), base = (uint32_t)HD_V(B, l);
        const int32_t off = (int32_t)(uint32_t)HD_V(O, l);
        uint32_t r = 0xffffffffu;
        if (off == 0) {
            if (base < 32 && ((m >> base) & 1u))
                r = base;
        } else {
            int64_t count = (off > 0 ? (int64_t)off : -(int64_t)off) - 1;
            for (int32_t pos = (int32_t)base; base < 32 && pos >= 0 && pos < 32;
                 pos += off > 0 ? 1 : -1) {
                if (!((m >> pos) & 1u))
                    continue;
                if (count-- == 0) {
                    r = (uint32_t)pos;
                    break;
                }
            }
        }
        D[l] = r;
    }
    return HD_FUNC_OK;
}

static int x_dp4a(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const int sa = hd_type_is_signed((enum hd_type)d->type);
    const int sb = hd_type_is_signed((enum hd_type)d->type2);
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint32_t a = (uint32_t)HD_V(A, l), b = (uint32_t)HD_V(B, l);
        int64_t s = (int64_t)(int32_t)(uint32_t)HD_V(C, l);
        for (unsigned i = 0; i < 4; i++)
            s += dp_ext(a >> (8 * i), 8, sa) * dp_ext(b >> (8 * i), 8, sb);
        D[l] = (uint64_t)s & 0xffffffffu;
    }
    return HD_FUNC_OK;
}

static int x_dp2a(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const int sa = hd_type_is_signed((enum hd_type)d->type);
    const int sb = hd_type_is_signed((enum hd_type)d->type2);
    const unsigned base = d->ir->mode == HD_MODE_HI ? 2 : 0;
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint32_t a = (uint32_t)HD_V(A, l), b = (uint32_t)HD_V(B, l);
        int64_t s = (int64_t)(int32_t)(uint32_t)HD_V(C, l);
        for (unsigned i = 0; i < 2; i++)
            s += dp_ext(a >> (16 * i), 16, sa) * dp_ext(b >> (8 * (base + i)), 8, sb);
        D[l] = (uint64_t)s & 0xffffffffu;
    }
    return HD_FUNC_OK;
}

static int x_bfi(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes F = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2),
                    L = hd_src(x, d, 3);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l)
        D[l] = bfi_w(HD_V(F, l), HD_V(B, l), HD_V(C, l), HD_V(L, l), d->bits) & d->wmask;
    return HD_FUNC_OK;
}

static int x_lop3(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2),
                    L = hd_src(x, d, 3);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l)
        D[l] = lop3_w(HD_V(A, l), HD_V(B, l), HD_V(C, l), (uint32_t)HD_V(L, l) & 0xffu) & d->wmask;
    return HD_FUNC_OK;
}

static int x_shf(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    const int left = d->ir->mode == HD_MODE_SHF_L;
    const int clamp = (d->ir->flags & HD_F_CLAMP) != 0;
    struct hd_lanes A = hd_src(x, d, 0), B = hd_src(x, d, 1), C = hd_src(x, d, 2);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint64_t v = ((HD_V(B, l) & 0xffffffffu) << 32) | (HD_V(A, l) & 0xffffffffu);
        uint32_t n = (uint32_t)HD_V(C, l);
        n = clamp ? (n > 32 ? 32 : n) : (n & 31u);
        D[l] = left ? (v << n) >> 32 : (v >> n) & 0xffffffffu;
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== Selectors ==== */
static int is_signed_t(const struct hd_instr *in)
{
    return hd_type_is_signed((enum hd_type)in->type);
}
static int is_float_t(const struct hd_instr *in)
{
    return hd_type_is_float((enum hd_type)in->type);
}

hd_func_exec_fn hd_func_sel_ADD(const struct hd_instr *in)
{
    if (is_float_t(in))
        return hd_func_float_sel(in);
    if (in->flags & HD_F_CC)
        return x_carry;
    if (in->flags & HD_F_SAT)
        return x_add_sat;
    return x_add;
}
hd_func_exec_fn hd_func_sel_SUB(const struct hd_instr *in)
{
    if (is_float_t(in))
        return hd_func_float_sel(in);
    if (in->flags & HD_F_CC)
        return x_carry;
    if (in->flags & HD_F_SAT)
        return x_sub_sat;
    return x_sub;
}
hd_func_exec_fn hd_func_sel_ADDC(const struct hd_instr *in)
{
    (void)in;
    return x_carry;
}
hd_func_exec_fn hd_func_sel_SUBC(const struct hd_instr *in)
{
    (void)in;
    return x_carry;
}
hd_func_exec_fn hd_func_sel_MADC(const struct hd_instr *in)
{
    return in->mode == HD_MODE_WIDE ? NULL : x_carry;
}
hd_func_exec_fn hd_func_sel_MUL(const struct hd_instr *in)
{
    if (is_float_t(in))
        return hd_func_float_sel(in);
    switch (in->mode) {
    case HD_MODE_HI:
        return is_signed_t(in) ? x_mul_hi_s : x_mul_hi_u;
    case HD_MODE_WIDE:
        return is_signed_t(in) ? x_mul_wide_s : x_mul_wide_u;
    default:
        return x_mul_lo;
    }
}
hd_func_exec_fn hd_func_sel_MAD(const struct hd_instr *in)
{
    if (is_float_t(in))
        return hd_func_float_sel(in);
    if (in->flags & HD_F_CC)
        return in->mode == HD_MODE_WIDE ? NULL : x_carry;
    switch (in->mode) {
    case HD_MODE_HI:
        if (in->flags & HD_F_SAT)
            return is_signed_t(in) ? x_mad_hi_sat_s : NULL;
        return is_signed_t(in) ? x_mad_hi_s : x_mad_hi_u;
    case HD_MODE_WIDE:
        return is_signed_t(in) ? x_mad_wide_s : x_mad_wide_u;
    default:
        return x_mad_lo;
    }
}
hd_func_exec_fn hd_func_sel_MUL24(const struct hd_instr *in)
{
    if (in->mode == HD_MODE_HI)
        return is_signed_t(in) ? x_mul24_hi_s : x_mul24_hi_u;
    return is_signed_t(in) ? x_mul24_lo_s : x_mul24_lo_u;
}
hd_func_exec_fn hd_func_sel_MAD24(const struct hd_instr *in)
{
    if (in->flags & HD_F_SAT)
        return NULL;
    if (in->mode == HD_MODE_HI)
        return is_signed_t(in) ? x_mad24_hi_s : x_mad24_hi_u;
    return is_signed_t(in) ? x_mad24_lo_s : x_mad24_lo_u;
}
hd_func_exec_fn hd_func_sel_SAD(const struct hd_instr *in)
{
    return is_signed_t(in) ? x_sad_s : x_sad_u;
}
hd_func_exec_fn hd_func_sel_DIV(const struct hd_instr *in)
{
    if (is_float_t(in))
        return hd_func_float_sel(in);
    return is_signed_t(in) ? x_div_s : x_div_u;
}
hd_func_exec_fn hd_func_sel_REM(const struct hd_instr *in)
{
    return is_signed_t(in) ? x_rem_s : x_rem_u;
}
hd_func_exec_fn hd_func_sel_NEG(const struct hd_instr *in)
{
    return is_float_t(in) ? hd_func_float_sel(in) : x_neg;
}
hd_func_exec_fn hd_func_sel_ABS(const struct hd_instr *in)
{
    return is_float_t(in) ? hd_func_float_sel(in) : x_abs;
}
hd_func_exec_fn hd_func_sel_MIN(const struct hd_instr *in)
{
    if (is_float_t(in))
        return hd_func_float_sel(in);
    if (in->flags & HD_F_SAT) /* min.relu is parsed as a saturation to 0 */
        return is_signed_t(in) ? x_min_s_relu : NULL;
    return is_signed_t(in) ? x_min_s : x_min_u;
}
hd_func_exec_fn hd_func_sel_MAX(const struct hd_instr *in)
{
    if (is_float_t(in))
        return hd_func_float_sel(in);
    if (in->flags & HD_F_SAT)
        return is_signed_t(in) ? x_max_s_relu : NULL;
    return is_signed_t(in) ? x_max_s : x_max_u;
}
hd_func_exec_fn hd_func_sel_POPC(const struct hd_instr *in)
{
    (void)in;
    return x_popc;
}
hd_func_exec_fn hd_func_sel_CLZ(const struct hd_instr *in)
{
    (void)in;
    return x_clz;
}
hd_func_exec_fn hd_func_sel_BREV(const struct hd_instr *in)
{
    (void)in;
    return x_brev;
}
hd_func_exec_fn hd_func_sel_BFIND(const struct hd_instr *in)
{
    int sh = (in->flags & HD_F_SHIFTAMT) != 0;
    if (is_signed_t(in))
        return sh ? x_bfind_s_sh : x_bfind_s;
    return sh ? x_bfind_u_sh : x_bfind_u;
}
hd_func_exec_fn hd_func_sel_BFE(const struct hd_instr *in)
{
    return is_signed_t(in) ? x_bfe_s : x_bfe_u;
}
hd_func_exec_fn hd_func_sel_BFI(const struct hd_instr *in)
{
    (void)in;
    return x_bfi;
}
hd_func_exec_fn hd_func_sel_FNS(const struct hd_instr *in)
{
    (void)in;
    return x_fns;
}
hd_func_exec_fn hd_func_sel_DP4A(const struct hd_instr *in)
{
    (void)in;
    return x_dp4a;
}
hd_func_exec_fn hd_func_sel_DP2A(const struct hd_instr *in)
{
    (void)in;
    return x_dp2a;
}
hd_func_exec_fn hd_func_sel_AND(const struct hd_instr *in)
{
    (void)in;
    return x_and;
}
hd_func_exec_fn hd_func_sel_OR(const struct hd_instr *in)
{
    (void)in;
    return x_or;
}
hd_func_exec_fn hd_func_sel_XOR(const struct hd_instr *in)
{
    (void)in;
    return x_xor;
}
hd_func_exec_fn hd_func_sel_NOT(const struct hd_instr *in)
{
    return in->type == HD_T_PRED ? x_not_pred : x_not;
}
hd_func_exec_fn hd_func_sel_CNOT(const struct hd_instr *in)
{
    (void)in;
    return x_cnot;
}
hd_func_exec_fn hd_func_sel_LOP3(const struct hd_instr *in)
{
    (void)in;
    return x_lop3;
}
hd_func_exec_fn hd_func_sel_SHL(const struct hd_instr *in)
{
    (void)in;
    return x_shl;
}
hd_func_exec_fn hd_func_sel_SHR(const struct hd_instr *in)
{
    return is_signed_t(in) ? x_shr_s : x_shr_u;
}
hd_func_exec_fn hd_func_sel_SHF(const struct hd_instr *in)
{
    (void)in;
    return x_shf;
}
hd_func_exec_fn hd_func_sel_PRMT(const struct hd_instr *in)
{
    (void)in;
    return x_prmt;
}
/* }==== */
