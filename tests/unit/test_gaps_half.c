/* SPDX-License-Identifier: MIT
 * test_gaps_half.c - the cuda_fp16.h / cuda_bf16.h intrinsics of tests/ptx/good/half.cu (nvcc 13
 * output, both -O3 and -G builds) run on the functional model, every result bit-compared with a
 * CPU reference: exact arithmetic in long double rounded once by gaps_kit.h's own rounding (IEEE
 * half and bfloat16, every direction), float steps done in C float where the PTX does them in
 * .f32. Inputs are chosen lanes (overflow, infinities, NaN, subnormals, ties) and pseudo-random
 * values.
 */
#include "gaps_kit.h"

static const char *const ptx_files[] = {"tests/ptx/good/half.ptx",
                                        "tests/ptx/good/half_debug.ptx"};
#define N 96
#define NH 24 /* results per thread of half_ops (half.cu) */
#define NB 8  /* results per thread of bf16_ops */

/* {==== half_ops ==== */
static uint16_t neg_if(uint16_t h, bool neg)
{
    return neg ? (uint16_t)(h ^ 0x8000) : h;
}

/* A random half with exponent in [-8, 8] (keeps exact sums inside long double's 64 bits). */
static uint16_t rand_half(uint64_t *s)
{
    uint32_t r = gk_rand(s);
    uint16_t e = (uint16_t)(15 - 8 + (r >> 4) % 17);
    return neg_if((uint16_t)(e << 10 | (r >> 12 & 1023)), r & 1);
}

static uint16_t clamp_u16_of(double v, double lo, double hi)
{
    if (v != v)
        return 0;
    v = v < lo ? lo : v > hi ? hi : v;
    return (uint16_t)(int64_t)v;
}

/* The expected results of lane t; *mask gets the outputs to check. */
static void half_ref(int t, uint16_t ua, uint16_t ub, uint16_t uc, uint16_t o[NH], uint32_t *mask)
{
    const long double A = gk_half_val(ua), B = gk_half_val(ub), C = gk_half_val(uc);
    const bool nan_in = A != A || B != B || C != C;
    const bool inf_in = isinf(A) || isinf(B) || isinf(C);
    *mask = (1u << NH) - 1;
    if (nan_in || inf_in) /* only outputs with no NaN-encoding question */
        *mask = 1u << 7 | 1u << 8 | 1u << 9 | 1u << 10 | 1u << 20 | 1u << 21 | 1u << 22 |
                1u << 23 | (nan_in ? 0 : 1u << 1 | 1u << 2 | 1u << 6);
    o[0] = gk_half(A + B, GK_RN);
    o[1] = gk_half(A - B, GK_RN);
    o[2] = gk_half(A * B, GK_RN);
    o[3] = gk_half(A * B + C, GK_RN);
    o[4] = gk_half(A / B, GK_RN);
    long double s = gk_half_val(gk_half(A + B, GK_RN));
    o[5] = s != s || s <= 0 ? 0 : s >= 1 ? 0x3c00 : gk_half(s, GK_RN);
    o[6] = (uint16_t)(ua ^ 0x8000);
    o[7] = (uint16_t)(ub & 0x7fff);
    /* max.f32/min.f32 return the number when one input is NaN */
    o[8] = A != A ? ub : B != B ? ua : A > B ? ua : ub;
    o[9] = A != A ? ub : B != B ? ua : A < B ? ua : ub;
    o[10] = (uint16_t)((A < B) | (A >= C) << 1 | (B == C) << 2 | (A != A) << 3 |
                       (A != A || B != B || A > B) << 4);
    o[11] = gk_half(A * C + gk_half_val(gk_half(A + C, GK_RN)), GK_RN);
    o[12] = gk_half(B * A + gk_half_val(gk_half(B + A, GK_RN)), GK_RN);
    o[13] = gk_half(B * -C, GK_RN);
    o[14] = gk_half(A * -A, GK_RN);
    const float fa = (float)gk_half_val(ua), fb = (float)gk_half_val(ub);
    o[15] = gk_half(fmaf(fa, 3.0f, fb), GK_RZ);
    const float q = fa / 3.0f;
    o[16] = gk_half(q, GK_RD);
    o[17] = gk_half(q, GK_RU);
    o[18] = gk_half(fa * 0.1f, GK_RN);
    o[19] = gk_half(fb - 1.0f, GK_RN);
    o[20] = (uint16_t)(uint32_t)(int32_t)(A != A ? 0 : nearbyintl(A)); /* halves fit s32 */
    double tb = B != B ? 0 : (double)truncl(B);
    o[21] = (uint16_t)(int16_t)(tb > 32767 ? 32767 : tb < -32768 ? -32768 : tb);
    o[22] = gk_half((long double)(t * 1001 - 30000), GK_RN);
    o[23] = clamp_u16_of(C != C ? 0 : (double)ceill(C), 0, 65535);
    if (isinf(A))
        o[20] = A > 0 ? 0xffff : 0; /* cvt.rni.s32 saturates: 0x7fffffff / 0x80000000 */
}

static void test_half_ops(struct kit *k, struct hd_module *mod)
{
    static const uint16_t chosen[][3] = {
        {0x3c00, 0x4000, 0x3800}, /* 1, 2, 0.5 */
        {0x7bff, 0x7bff, 0xfbff}, /* 65504: overflow to infinity, saturation */
        {0xc300, 0x2e66, 0x8000}, /* -3.5, ~0.1, -0 */
        {0x0001, 0x0001, 0x0400}, /* subnormals: sums exact, products underflow */
        {0x7e00, 0x3c00, 0x4000}, /* NaN */
        {0x7c00, 0xfc00, 0x3c00}, /* +inf, -inf */
        {0x3555, 0x3c01, 0xb555}, /* 1/3, 1+ulp, -1/3: fma cancellation */
        {0x4d00, 0x4100, 0xd3d0}, /* 20, 2.5, -62 */
        {0x5bd0, 0xc8e0, 0x7800}, /* 250, -9.75, 32768 */
        {0x3800, 0x3800, 0x3800}, /* 0.5: ties in rni (0.5 -> 0) */
        {0x3e00, 0xbe00, 0x3e00}, /* 1.5, -1.5: rni ties to even, rzi, rpi */
    };
    uint16_t a[N], b[N], c[N], out[N * NH];
    uint64_t seed = 0x1234;
    for (int i = 0; i < N; i++) {
        if (i < (int)(sizeof chosen / sizeof chosen[0])) {
            a[i] = chosen[i][0], b[i] = chosen[i][1], c[i] = chosen[i][2];
        } else {
            a[i] = rand_half(&seed), b[i] = rand_half(&seed), c[i] = rand_half(&seed);
        }
    }
    hd_devptr da = gk_dev(k, a, sizeof a), db = gk_dev(k, b, sizeof b);
    hd_devptr dc = gk_dev(k, c, sizeof c), dout = gk_dev(k, NULL, sizeof out);
    int32_t n = N;
    struct hd_arg args[5] = {HD_ARG(da), HD_ARG(db), HD_ARG(dc), HD_ARG(dout), HD_ARG(n)};
    if (gk_launch(k, mod, "half_ops", N, 64, args, 5) == HD_OK) {
        gk_get(k, out, dout, sizeof out);
        int bad = 0;
        for (int t = 0; t < N; t++) {
            uint16_t want[NH];
            uint32_t mask;
            half_ref(t, a[t], b[t], c[t], want, &mask);
            for (int j = 0; j < NH; j++) {
                if (!(mask >> j & 1))
                    continue;
                if (!HD_CHECK_U64(k->t, want[j], out[t * NH + j]) && bad++ < 12)
                    fprintf(stderr, "    lane %d output %d: a=%04x b=%04x c=%04x\n", t, j, a[t],
                            b[t], c[t]);
            }
        }
    }
    hd_free(k->gpu, da);
    hd_free(k->gpu, db);
    hd_free(k->gpu, dc);
    hd_free(k->gpu, dout);
}
/* }==== */

/* {==== bf16_ops ==== */
static void bf16_ref(float fa, float fb, uint16_t o[NB])
{
    o[0] = gk_bf16(fa, GK_RN);
    o[1] = gk_bf16(fb, GK_RZ);
    const float A = gk_bf16_val(o[0]), B = gk_bf16_val(o[1]);
    o[2] = gk_bf16(A + B, GK_RN); /* emulated in .f32: one float rounding, then bf16 */
    o[3] = gk_bf16(A * B, GK_RN);
    o[4] = gk_bf16(A - B, GK_RN);
    o[5] = gk_bf16(fa, GK_RN);
    o[6] = gk_bf16(fb * 2.0f, GK_RN);
    float q = A * 4.0f;
    o[7] = (uint16_t)(uint32_t)(q != q ? 0 : isinf(q) ? (q > 0 ? 0x7fffffff : INT32_MIN)
                                                       : (int32_t)nearbyintf(q));
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void test_bf16_ops(struct kit *k, struct hd_module *mod)
{
    static const uint32_t chosen[][2] = {
        {0x3f800000, 0x40000000}, /* 1, 2 */
        {0x3f808000, 0x3f818000}, /* ties: to even (down), rz */
        {0x3f818000, 0xbf818000}, /* ties: to even (up) */
        {0x7f7fffff, 0x7f7fffff}, /* FLT_MAX: rn overflows, rz keeps the largest finite */
        {0x00012345, 0x80012345}, /* subnormal floats */
        {0x7fc00000, 0x3f800000}, /* NaN */
        {0x7f800000, 0xff800000}, /* infinities */
        {0x42f6e979, 0xc2f6e979}, /* 123.456 */
    };
    float fa[N], fb[N];
    uint16_t out[N * NB];
    uint64_t seed = 99;
    for (int i = 0; i < N; i++) {
        if (i < (int)(sizeof chosen / sizeof chosen[0])) {
            fa[i] = bits_f32(chosen[i][0]), fb[i] = bits_f32(chosen[i][1]);
        } else { /* exponents within +-20 */
            uint32_t r1 = gk_rand(&seed), r2 = gk_rand(&seed);
            fa[i] = bits_f32((r1 & 0x807fffffu) | (uint32_t)(107 + r1 % 41) << 23);
            fb[i] = bits_f32((r2 & 0x807fffffu) | (uint32_t)(107 + r2 % 41) << 23);
        }
    }
    hd_devptr da = gk_dev(k, fa, sizeof fa), db = gk_dev(k, fb, sizeof fb);
    hd_devptr dout = gk_dev(k, NULL, sizeof out);
    int32_t n = N;
    struct hd_arg args[4] = {HD_ARG(da), HD_ARG(db), HD_ARG(dout), HD_ARG(n)};
    if (gk_launch(k, mod, "bf16_ops", N, 32, args, 4) == HD_OK) {
        gk_get(k, out, dout, sizeof out);
        int bad = 0;
        for (int t = 0; t < N; t++) {
            uint16_t want[NB];
            bf16_ref(fa[t], fb[t], want);
            bool nan_lane = fa[t] != fa[t] || fb[t] != fb[t];
            bool inf_lane = isinf(fa[t]) || isinf(fb[t]);
            for (int j = 0; j < NB; j++) {
                /* inf + -inf: the emulation's NaN is 0x7fff like ours, but skip NaN results
                 * of arithmetic; conversions of NaN are checked */
                if ((nan_lane || inf_lane) && j >= 2 && j <= 4)
                    continue;
                if (!HD_CHECK_U64(k->t, want[j], out[t * NB + j]) && bad++ < 12)
                    fprintf(stderr, "    lane %d output %d: a=%08x b=%08x\n", t, j,
                            (unsigned)kit_f32_bits(fa[t]), (unsigned)kit_f32_bits(fb[t]));
            }
        }
    }
    hd_free(k->gpu, da);
    hd_free(k->gpu, db);
    hd_free(k->gpu, dout);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    for (int f = 0; f < 2; f++) {
        char name[160];
        snprintf(name, sizeof name, "%s: half_ops (__hadd ... __hfma2, comparisons, conversions)",
                 ptx_files[f]);
        hd_test_begin(&t, name);
        struct hd_module *mod = gk_load(&k, ptx_files[f]);
        if (!mod)
            continue;
        test_half_ops(&k, mod);
        snprintf(name, sizeof name, "%s: bf16_ops (__float2bfloat16 rn/rz, add/mul/sub, packing)",
                 ptx_files[f]);
        hd_test_begin(&t, name);
        test_bf16_ops(&k, mod);
    }
    kit_close(&k);
    return hd_test_finish(&t);
}
