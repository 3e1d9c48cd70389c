/* SPDX-License-Identifier: MIT
 * test_gaps_intrin.c - the integer and floating-point intrinsics of tests/ptx/good/intrin.cu
 * (nvcc 13 output) run on the functional model against CPU references written from the CUDA
 * math API definitions: 24-bit and high-half multiplies, funnel shifts, __byte_perm, __sad,
 * halving adds and bit counts computed with 64-bit C arithmetic; float operations with an
 * explicit rounding computed exactly in long double (operand exponents kept small enough) and
 * rounded by gaps_kit.h; double operations under the host's rounding modes; conversions
 * saturating as PTX cvt does; __fdividef within 2 ulp and 0 for divisors beyond 2^126.
 */
#include "gaps_kit.h"

#include <fenv.h>

#define PTX "tests/ptx/good/intrin.ptx"
#define N 80
#define NI 24 /* per thread, as in intrin.cu */
#define NL 6
#define NF 14
#define NN 12
#define ND 8

/* {==== int_intrin ==== */
static int64_t sext24(uint32_t v)
{
    return (int64_t)((int32_t)(v << 8) >> 8);
}

static uint64_t umulhi64(uint64_t x, uint64_t y)
{
    uint64_t xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
    uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t s)
{
    uint64_t v = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        r |= (uint32_t)(v >> (8 * ((s >> (4 * i)) & 7)) & 0xff) << (8 * i);
    return r;
}

static uint32_t popc64(uint64_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static uint32_t clz64(uint64_t x)
{
    uint32_t n = 0;
    for (uint64_t m = 1ull << 63; m && !(x & m); m >>= 1)
        n++;
    return n;
}

static uint32_t ffs64(uint64_t x) /* 1-based index of the lowest set bit, 0 for none */
{
    for (uint32_t i = 0; i < 64; i++)
        if (x >> i & 1)
            return i + 1;
    return 0;
}

static uint64_t brev64(uint64_t x)
{
    uint64_t r = 0;
    for (int i = 0; i < 64; i++)
        r |= (x >> i & 1) << (63 - i);
    return r;
}

static void int_ref(int t, uint32_t a, uint32_t b, uint64_t x, uint64_t y, uint32_t o[NI],
                    uint64_t o64[NL])
{
    const int32_t sa = (int32_t)a, sb = (int32_t)b;
    const uint32_t sh = (uint32_t)t * 5u;
    const uint64_t hilo = (uint64_t)b << 32 | a;
    o[0] = (uint32_t)(sext24(a) * sext24(b));
    o[1] = (a & 0xffffffu) * (b & 0xffffffu);
    o[2] = (uint32_t)(((uint64_t)a * b) >> 32);
    o[3] = (uint32_t)(((int64_t)sa * sb) >> 32);
    o[4] = (uint32_t)((hilo << (sh & 31)) >> 32);
    o[5] = sh >= 32 ? a : (uint32_t)((hilo << sh) >> 32);
    o[6] = (uint32_t)(hilo >> (sh & 31));
    o[7] = sh >= 32 ? b : (uint32_t)(hilo >> sh);
    o[8] = byte_perm(a, b, (b >> 7) & 0x7777);
    o[9] = byte_perm(a, b, (0x3210u + (uint32_t)t) & 0x7777);
    o[10] = (uint32_t)(sa > sb ? (int64_t)sa - sb : (int64_t)sb - sa) + (a >> 12);
    o[11] = (a > b ? a - b : b - a) + 7u;
    o[12] = (uint32_t)(brev64(a) >> 32);
    o[13] = a ? clz64(a) - 32 : 32;
    o[14] = ffs64(b);
    o[15] = popc64(a);
    o[16] = (uint32_t)(int32_t)(((int64_t)sa + sb) >> 1);
    o[17] = (uint32_t)(int32_t)(((int64_t)sa + sb + 1) >> 1);
    o[18] = (uint32_t)(((uint64_t)a + b) >> 1);
    o[19] = (uint32_t)(((uint64_t)a + b + 1) >> 1);
    o[20] = (uint32_t)(sext24(a) * 7) + (b & 0xffffffu);
    o[21] = (uint32_t)(sa >> (t & 31)) ^ (b >> (t & 31));
    o[22] = (uint32_t)(sa < sb ? sa : sb) + (a > b ? a : b);
    o[23] = sa < 0 ? 0u - a : a;
    const int64_t sx = (int64_t)x, sy = (int64_t)y;
    o64[0] = umulhi64(x, y) - (sx < 0 ? y : 0) - (sy < 0 ? x : 0);
    o64[1] = umulhi64(x, y);
    o64[2] = brev64(x);
    o64[3] = popc64(x) + 64ull * clz64(y) + 4096ull * ffs64(x);
    o64[4] = (uint64_t)(sx / (int64_t)(y | 1)) ^ (x % (y | 1));
    o64[5] = x * y + (x >> 17) + (uint64_t)(sy >> 40);
}

static void test_int(struct kit *k, struct hd_module *mod)
{
    hd_test_begin(k->t, "intrin.cu int_intrin: __mul24, __umulhi, funnel shifts, __byte_perm...");
    static const uint32_t chosen[][2] = {
        {0, 0}, {0xffffffffu, 0xffffffffu}, {0x80000000u, 0x7fffffffu}, {0x00800000u, 0x00ffffffu},
        {0x12345678u, 0x9abcdef0u}, {0xff7fffffu, 0x00000001u}, {5, 0xfffffffbu}, {0x80000000u, 0},
    };
    static const uint64_t chosen64[][2] = {
        {0, 1},
        {~0ull, ~0ull},
        {0x8000000000000000ull, 3},
        {0x0123456789abcdefull, 0xfedcba9876543210ull},
    };
    uint32_t a[N], b[N], out[N * NI];
    uint64_t l[2 * N], out64[N * NL];
    uint64_t seed = 7;
    for (int i = 0; i < N; i++) {
        bool pick = i < (int)(sizeof chosen / sizeof chosen[0]);
        a[i] = pick ? chosen[i][0] : gk_rand(&seed);
        b[i] = pick ? chosen[i][1] : gk_rand(&seed) >> (i % 9); /* varied magnitudes */
        bool pick64 = i < (int)(sizeof chosen64 / sizeof chosen64[0]);
        l[2 * i] = pick64 ? chosen64[i][0] : (uint64_t)gk_rand(&seed) << 32 | gk_rand(&seed);
        uint64_t r64 = (uint64_t)gk_rand(&seed) << 32 | gk_rand(&seed);
        l[2 * i + 1] = pick64 ? chosen64[i][1] : r64 >> (i % 50);
    }
    hd_devptr da = gk_dev(k, a, sizeof a), db = gk_dev(k, b, sizeof b), dl = gk_dev(k, l, sizeof l);
    hd_devptr dout = gk_dev(k, NULL, sizeof out), dout64 = gk_dev(k, NULL, sizeof out64);
    int32_t n = N;
    struct hd_arg args[6] = {HD_ARG(da), HD_ARG(db), HD_ARG(dl), HD_ARG(dout), HD_ARG(dout64),
                             HD_ARG(n)};
    if (gk_launch(k, mod, "int_intrin", N, 32, args, 6) == HD_OK) {
        gk_get(k, out, dout, sizeof out);
        gk_get(k, out64, dout64, sizeof out64);
        int bad = 0;
        for (int t = 0; t < N; t++) {
            uint32_t w[NI];
            uint64_t w64[NL];
            int_ref(t, a[t], b[t], l[2 * t], l[2 * t + 1], w, w64);
            for (int j = 0; j < NI; j++)
                if (!HD_CHECK_U64(k->t, w[j], out[t * NI + j]) && bad++ < 12)
                    fprintf(stderr, "    lane %d output %d: a=%08x b=%08x\n", t, j, a[t], b[t]);
            for (int j = 0; j < NL; j++)
                if (!HD_CHECK_U64(k->t, w64[j], out64[t * NL + j]) && bad++ < 12)
                    fprintf(stderr, "    lane %d output64 %d: x=%016llx y=%016llx\n", t, j,
                            (unsigned long long)l[2 * t], (unsigned long long)l[2 * t + 1]);
        }
    }
    hd_free(k->gpu, da);
    hd_free(k->gpu, db);
    hd_free(k->gpu, dl);
    hd_free(k->gpu, dout);
    hd_free(k->gpu, dout64);
}
/* }==== */

/* {==== float_intrin ==== */
/* One double operation under a host rounding mode; volatile keeps it between the mode changes. */
static double dround(int mode, char op, double x, double y, double z)
{
    volatile double a = x, b = y, c = z, r;
    fesetround(mode);
    switch (op) {
    case '+': r = a + b; break;
    case '*': r = a * b; break;
    case '/': r = a / b; break;
    case 's': r = sqrt(a); break;
    default: r = fma(a, b, c); break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

/* cvt.rXi.{s,u}{32,64} of an already rounded value: saturate, NaN -> 0. */
static int64_t sat_int(long double v, int bits, bool sgn)
{
    if (v != v)
        return 0;
    long double hi = sgn ? ldexpl(1, bits - 1) : ldexpl(1, bits), lo = sgn ? -hi : 0;
    if (v >= hi)
        return sgn ? (int64_t)((1ull << (bits - 1)) - 1)
                   : (int64_t)(bits == 64 ? ~0ull : (1ull << bits) - 1);
    if (v <= lo)
        return sgn ? (int64_t)(0 - (1ull << (bits - 1))) : 0;
    return sgn ? (int64_t)v : (int64_t)(uint64_t)v;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void float_ref(int t, float a, float b, double d, float f[NF], int64_t i[NN], double r[ND])
{
    const long double A = a, B = b;
    f[0] = 0; /* checked separately (approximate) */
    f[1] = a != a ? 0.0f : a < 0 ? 0.0f : a > 1 ? 1.0f : a;
    f[2] = gk_f32_round(A + B, GK_RZ);
    f[3] = gk_f32_round(A + B, GK_RU);
    f[4] = gk_f32_round(A * B, GK_RD);
    f[5] = gk_f32_round(A * B, GK_RU);
    f[6] = gk_f32_round(A * B + 1, GK_RZ);
    f[7] = gk_f32_round(1 / B, GK_RN);
    f[8] = gk_f32_round(sqrtl(fabsl(A)), GK_RN);
    f[9] = gk_f32_round(A / B, GK_RN);
    f[10] = gk_f32_round(A / B, GK_RZ);
    f[11] = gk_f32_round(d, GK_RD);
    f[12] = gk_f32_round(d, GK_RU);
    float m = a * 1000000.0f;
    f[13] = gk_f32_round(sat_int(truncl(m), 32, true), GK_RZ) +
            gk_f32_round((uint32_t)(t - 127), GK_RD);
    i[0] = sat_int(nearbyintl(A), 32, true);
    i[1] = sat_int(truncl(A), 32, true);
    i[2] = sat_int(ceill(A), 32, true);
    i[3] = sat_int(floorl(A), 32, true);
    i[4] = sat_int(nearbyintl(A), 32, false);
    i[5] = sat_int(truncl(B), 32, false);
    i[6] = sat_int(nearbyintl(a * 1e10f), 64, true);
    i[7] = sat_int(ceill(b * 4.0f), 64, false);
    i[8] = (int32_t)(uint32_t)(f64_bits(d) >> 32);
    i[9] = (int32_t)(uint32_t)f64_bits(d);
    i[10] = sat_int(floorl(d), 32, true);
    i[11] = sat_int(ceill(d * 1e9), 64, true);
    uint64_t sw = f64_bits(d) << 32 | f64_bits(d) >> 32;
    memcpy(&r[0], &sw, 8);
    r[1] = dround(FE_TOWARDZERO, '+', d, (double)a, 0);
    r[2] = dround(FE_UPWARD, '*', d, (double)b, 0);
    r[3] = dround(FE_DOWNWARD, '/', d, (double)b, 0);
    r[4] = 1.0 / d;
    r[5] = dround(FE_UPWARD, 's', fabs(d), 0, 0);
    r[6] = dround(FE_TOWARDZERO, 'f', d, d, -1.0);
    r[7] = (double)sat_int(truncl(d * 1e18), 64, true) + -d;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* A random float with exponent in [-7, 7]: every exact sum, product and a*b+1 fits long double. */
static float rand_f32(uint64_t *s)
{
    uint32_t r = gk_rand(s), m = gk_rand(s);
    return bits_f32((r & 0x80000000u) | (uint32_t)(120 + r % 15) << 23 | (m & 0x7fffff));
}

static bool same_f32(float want, float got)
{
    return kit_f32_bits(want) == kit_f32_bits(got) || (want != want && got != got);
}

static bool same_f64(double want, double got)
{
    return f64_bits(want) == f64_bits(got) || (want != want && got != got);
}

static void check_fdividef(struct kit *k, int t, float a, float b, float got)
{
    float ab = fabsf(b);
    if (!isfinite(a) || ab < 0x1p-126f || !isfinite(b)) {
        if (isinf(a) && ab > 0x1p126f && !HD_CHECK(k->t, got != got))
            fprintf(stderr, "    lane %d: __fdividef(inf, %a) should be NaN\n", t, (double)b);
        return;
    }
    if (ab > 0x1p126f) { /* PTX div.approx.f32: 0 for 2^126 < |b| < 2^128 */
        if (!HD_CHECK(k->t, got == 0.0f))
            fprintf(stderr, "    lane %d: __fdividef(%a, %a) = %a, want 0\n", t, (double)a,
                    (double)b, (double)got);
        return;
    }
    long double q = (long double)a / b;
    int e;
    frexpl(q, &e);
    long double ulp = ldexpl(1, (e - 1 < -126 ? -126 : e - 1) - 23);
    if (!HD_CHECK(k->t, fabsl((long double)got - q) <= 2 * ulp))
        fprintf(stderr, "    lane %d: __fdividef(%a, %a) = %a, more than 2 ulp from %La\n", t,
                (double)a, (double)b, (double)got, q);
}

static void test_float(struct kit *k, struct hd_module *mod)
{
    hd_test_begin(k->t, "intrin.cu float_intrin: directed roundings, conversions, __fdividef");
    /* arith: the operands' exponents are close enough for exact long double sums */
    static const struct { uint32_t a, b; double d; bool arith; } chosen[] = {
        {0x3fc00000, 0x40000000, 1.0, true},          /* 1.5, 2 */
        {0xc0200000, 0x40400000, -0.1, true},         /* -2.5, 3 */
        {0x3f000000, 0xbf000000, 2.5, true},          /* 0.5, -0.5: ties */
        {0x7fc00000, 0x3f800000, 1e-310, false},      /* NaN; a subnormal double */
        {0x4f32d05e, 0xbf800000, 1e300, true},        /* 3e9, -1: saturation */
        {0xcf32d05e, 0x7f000000, -1e300, false},      /* -3e9, 2^127: __fdividef -> 0 */
        {0x7f800000, 0x7f000000, 3.0, false},         /* inf / 2^127 -> NaN */
        {0x40800000, 0x7e800000, 0.75, false},        /* 4 / 2^126: still in range */
        {0x3a83126f, 0x3f800001, 123456.789, true},   /* 1e-3, 1 + ulp */
    };
    float a[N], b[N], of[N * NF];
    double d[N], od[N * ND];
    int64_t oi[N * NN];
    uint64_t seed = 11;
    const int nchosen = (int)(sizeof chosen / sizeof chosen[0]);
    for (int i = 0; i < N; i++) {
        if (i < nchosen) {
            a[i] = bits_f32(chosen[i].a), b[i] = bits_f32(chosen[i].b), d[i] = chosen[i].d;
        } else {
            a[i] = rand_f32(&seed), b[i] = rand_f32(&seed);
            double m = (double)gk_rand(&seed) / 4294967296.0 + 0.5;
            d[i] = ldexp(m, (int)(gk_rand(&seed) % 40) - 20);
            d[i] = (gk_rand(&seed) & 1) ? -d[i] : d[i];
        }
    }
    hd_devptr da = gk_dev(k, a, sizeof a), db = gk_dev(k, b, sizeof b), dd = gk_dev(k, d, sizeof d);
    hd_devptr dof = gk_dev(k, NULL, sizeof of), doi = gk_dev(k, NULL, sizeof oi);
    hd_devptr dod = gk_dev(k, NULL, sizeof od);
    int32_t n = N;
    struct hd_arg args[7] = {HD_ARG(da), HD_ARG(db), HD_ARG(dd), HD_ARG(dof), HD_ARG(doi),
                             HD_ARG(dod), HD_ARG(n)};
    if (gk_launch(k, mod, "float_intrin", N, 64, args, 7) == HD_OK) {
        gk_get(k, of, dof, sizeof of);
        gk_get(k, oi, doi, sizeof oi);
        gk_get(k, od, dod, sizeof od);
        int bad = 0;
        for (int t = 0; t < N; t++) {
            float wf[NF];
            int64_t wi[NN];
            double wd[ND];
            float_ref(t, a[t], b[t], d[t], wf, wi, wd);
            check_fdividef(k, t, a[t], b[t], of[t * NF]);
            bool arith = t >= nchosen || chosen[t].arith;
            for (int j = 1; j < NF; j++) {
                if (!arith && j >= 2 && j <= 10)
                    continue;
                if (!HD_CHECK(k->t, same_f32(wf[j], of[t * NF + j])) && bad++ < 12)
                    fprintf(stderr, "    lane %d f[%d] = %a, want %a (a=%a b=%a d=%a)\n", t, j,
                            (double)of[t * NF + j], (double)wf[j], (double)a[t], (double)b[t],
                            d[t]);
            }
            for (int j = 0; j < NN; j++)
                if (!HD_CHECK_U64(k->t, (uint64_t)wi[j], (uint64_t)oi[t * NN + j]) && bad++ < 12)
                    fprintf(stderr, "    lane %d i[%d] (a=%a b=%a d=%a)\n", t, j, (double)a[t],
                            (double)b[t], d[t]);
            for (int j = 0; j < ND; j++) {
                if (!arith && (a[t] != a[t] || isinf(a[t])) && (j == 1 || j == 2 || j == 3))
                    continue;
                if (!HD_CHECK(k->t, same_f64(wd[j], od[t * ND + j])) && bad++ < 12)
                    fprintf(stderr, "    lane %d r[%d] = %a, want %a (a=%a b=%a d=%a)\n", t, j,
                            od[t * ND + j], wd[j], (double)a[t], (double)b[t], d[t]);
            }
        }
    }
    hd_free(k->gpu, da);
    hd_free(k->gpu, db);
    hd_free(k->gpu, dd);
    hd_free(k->gpu, dof);
    hd_free(k->gpu, doi);
    hd_free(k->gpu, dod);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    struct hd_module *mod = gk_load(&k, PTX);
    if (mod) {
        test_int(&k, mod);
        test_float(&k, mod);
    }
    kit_close(&k);
    return hd_test_finish(&t);
}
