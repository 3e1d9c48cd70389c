/* SPDX-License-Identifier: MIT
 * test_gaps_coop.c - tests/ptx/good/coop.cu (nvcc 13 output) on the functional model: 64-bit
 * atomicCAS loops from every thread of several CTAs (a double maximum, a product modulo 2^64 and
 * packed 32+32-bit counters: order-independent, so the results are exact), cooperative_groups
 * tiles (thread_block_tile<32>::shfl_down sums per warp; tiles of 8 with shfl_xor, shfl, ballot,
 * any, all, meta_group_rank and cg::reduce), and __ldg loads of float4, int2, double, u8, s16
 * and u64 (ld.global.nc). Expected values are computed on the CPU from the same inputs.
 */
#include "gaps_kit.h"

#define PTX "tests/ptx/good/coop.ptx"

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void test_cas64(struct kit *k, struct hd_module *mod)
{
    hd_test_begin(k->t, "coop.cu cas64: double max, 64-bit product, packed counters by CAS loops");
    enum { N = 200 };
    double in[N];
    uint64_t mul[N], seed = 5;
    double want_max = -INFINITY;
    uint64_t want_prod = 1, want_sum = 0;
    for (int i = 0; i < N; i++) {
        in[i] = ldexp((double)(int32_t)gk_rand(&seed), (int)(gk_rand(&seed) % 20) - 10);
        mul[i] = ((uint64_t)gk_rand(&seed) << 32 | gk_rand(&seed)) | 1;
        want_max = in[i] > want_max ? in[i] : want_max;
        want_prod *= mul[i];
        want_sum += (uint64_t)i;
    }
    uint64_t acc[3] = {f64_bits(-INFINITY), 1, 0};
    hd_devptr din = gk_dev(k, in, sizeof in), dmul = gk_dev(k, mul, sizeof mul);
    hd_devptr dacc = gk_dev(k, acc, sizeof acc);
    int32_t n = N;
    struct hd_arg args[4] = {HD_ARG(din), HD_ARG(dmul), HD_ARG(dacc), HD_ARG(n)};
    if (gk_launch(k, mod, "cas64", N, 64, args, 4) == HD_OK) {
        gk_get(k, acc, dacc, sizeof acc);
        HD_CHECK_U64(k->t, f64_bits(want_max), acc[0]);
        HD_CHECK_U64(k->t, want_prod, acc[1]);
        HD_CHECK_U64(k->t, (uint64_t)N << 32 | (want_sum & 0xffffffffu), acc[2]);
    }
    hd_free(k->gpu, din);
    hd_free(k->gpu, dmul);
    hd_free(k->gpu, dacc);
}

static void test_tiles(struct kit *k, struct hd_module *mod)
{
    hd_test_begin(k->t, "coop.cu cg_tiles: tile<32> shfl_down sums, tile<8> xor/idx/ballot/...");
    enum { N = 300, B = 128, CTAS = (N + B - 1) / B, T = CTAS * B, W = T / 32 };
    int32_t in[N], sums[W], out[4 * N];
    uint64_t seed = 17;
    for (int i = 0; i < N; i++) /* mostly positive, some negative and zero */
        in[i] = (int32_t)(gk_rand(&seed) % 2001) - 200;
    hd_devptr din = gk_dev(k, in, sizeof in), dsums = gk_dev(k, NULL, sizeof sums);
    hd_devptr dout = gk_dev(k, NULL, sizeof out);
    int32_t n = N;
    struct hd_arg args[4] = {HD_ARG(din), HD_ARG(dsums), HD_ARG(dout), HD_ARG(n)};
    if (gk_launch(k, mod, "cg_tiles", N, B, args, 4) == HD_OK) {
        gk_get(k, sums, dsums, sizeof sums);
        gk_get(k, out, dout, sizeof out);
        for (int w = 0; w < W; w++) {
            int32_t s = 0;
            for (int i = w * 32; i < w * 32 + 32; i++)
                s += i < N ? in[i] : 0;
            if (!HD_CHECK_U64(k->t, (uint32_t)s, (uint32_t)sums[w]))
                fprintf(stderr, "    warp %d\n", w);
        }
        int bad = 0;
        for (int t = 0; t < N; t++) {
            int base = t & ~7; /* tiles of 8 threads never straddle a CTA (B % 8 == 0) */
            int32_t v[8], mx = INT32_MIN, sum = 0;
            uint32_t odd = 0;
            int anyneg = 0, allpos = 1;
            for (int r = 0; r < 8; r++) {
                v[r] = base + r < N ? in[base + r] : 0;
                mx = v[r] > mx ? v[r] : mx;
                sum += v[r];
                odd |= (uint32_t)(v[r] & 1) << r;
                anyneg |= v[r] < 0;
                allpos &= v[r] > 0;
            }
            int32_t want[4] = {mx, v[3] + (t & 7) * 1000,
                               (int32_t)odd | anyneg << 8 | allpos << 9 | ((t % B) / 8) << 10,
                               sum};
            for (int j = 0; j < 4; j++)
                if (!HD_CHECK_U64(k->t, (uint32_t)want[j], (uint32_t)out[4 * t + j]) &&
                    bad++ < 10)
                    fprintf(stderr, "    thread %d output %d\n", t, j);
        }
    }
    hd_free(k->gpu, din);
    hd_free(k->gpu, dsums);
    hd_free(k->gpu, dout);
}

static void test_ldg(struct kit *k, struct hd_module *mod)
{
    hd_test_begin(k->t, "coop.cu ldg_mix: __ldg of float4, int2, double, u8, s16, u64");
    enum { N = 70 };
    float f4[4 * N];
    int32_t i2[2 * N];
    double d[N], out[N];
    uint8_t uc[N];
    int16_t s[N];
    uint64_t u[N], seed = 23;
    /* small integers and eighths: every sum below is exact in float and double */
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 4; j++)
            f4[4 * i + j] = (float)((int)(gk_rand(&seed) % 200) - 100) * 0.5f;
        i2[2 * i] = (int32_t)(gk_rand(&seed) % 20001) - 10000;
        i2[2 * i + 1] = (int32_t)gk_rand(&seed);
        d[i] = (double)((int)(gk_rand(&seed) % 8001) - 4000) / 8.0;
        uc[i] = (uint8_t)gk_rand(&seed);
        s[i] = (int16_t)gk_rand(&seed);
        u[i] = (uint64_t)gk_rand(&seed) << 32 | gk_rand(&seed);
    }
    hd_devptr df4 = gk_dev(k, f4, sizeof f4), di2 = gk_dev(k, i2, sizeof i2);
    hd_devptr dd = gk_dev(k, d, sizeof d), duc = gk_dev(k, uc, sizeof uc);
    hd_devptr ds = gk_dev(k, s, sizeof s), du = gk_dev(k, u, sizeof u);
    hd_devptr dout = gk_dev(k, NULL, sizeof out);
    int32_t n = N;
    struct hd_arg args[8] = {HD_ARG(df4), HD_ARG(di2), HD_ARG(dd), HD_ARG(duc),
                             HD_ARG(ds), HD_ARG(du), HD_ARG(dout), HD_ARG(n)};
    if (gk_launch(k, mod, "ldg_mix", N, 32, args, 8) == HD_OK) {
        gk_get(k, out, dout, sizeof out);
        for (int t = 0; t < N; t++) {
            const float *a = &f4[4 * t];
            const int32_t *b = &i2[2 * (N - 1 - t)];
            double want = (double)(a[0] + a[1] * 2.0f + a[2] * 4.0f + a[3] * 8.0f) +
                          (double)b[0] * 16.0 - (double)b[1] + d[t] + (double)uc[t] * 0.5 +
                          (double)s[t] * 0.25 + (double)(u[t] >> 40);
            if (!HD_CHECK_U64(k->t, f64_bits(want), f64_bits(out[t])))
                fprintf(stderr, "    thread %d: %.17g, want %.17g\n", t, out[t], want);
        }
    }
    hd_free(k->gpu, df4);
    hd_free(k->gpu, di2);
    hd_free(k->gpu, dd);
    hd_free(k->gpu, duc);
    hd_free(k->gpu, ds);
    hd_free(k->gpu, du);
    hd_free(k->gpu, dout);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    struct hd_module *mod = gk_load(&k, PTX);
    if (mod) {
        test_cas64(&k, mod);
        test_tiles(&k, mod);
        test_ldg(&k, mod);
    }
    kit_close(&k);
    return hd_test_finish(&t);
}
