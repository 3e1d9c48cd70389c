/* SPDX-License-Identifier: MIT
 * test_gaps_calls.c - tests/ptx/good/calls.cu (nvcc 13 output, -O3 and -G builds) on the
 * functional model: three levels of __noinline__ device functions passing and returning structs
 * by value (a 12-byte vector, a 40-byte matrix with a tag, a 40-byte record of doubles, ints, a
 * char, a short and a long long with padding), a struct kernel parameter, a call made by odd
 * lanes only and calls in a loop of per-lane trip count. The CPU reference is the same C code on
 * the host; the inputs are small integers and quarters, so every float and double step is exact
 * whatever nvcc contracts.
 */
#include "gaps_kit.h"

static const char *const ptx_files[] = {"tests/ptx/good/calls.ptx",
                                        "tests/ptx/good/calls_debug.ptx"};
#define N 90

/* {==== The device code's host twin (calls.cu) ==== */
struct vec3 { float x, y, z; };
struct mat3 { struct vec3 r[3]; int tag; };
struct rec { double d[2]; int i[3]; char c; short s; long long l; };

static struct vec3 add3(struct vec3 a, struct vec3 b)
{
    return (struct vec3){a.x + b.x, a.y + b.y, a.z + b.z};
}
static float dot3(struct vec3 a, struct vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static struct vec3 mulmv(struct mat3 m, struct vec3 v)
{
    return (struct vec3){dot3(m.r[0], v), dot3(m.r[1], v), dot3(m.r[2], v) + (float)m.tag};
}
static struct rec fold(struct rec r, int k)
{
    struct rec o = r;
    o.d[0] = r.d[0] * k + r.d[1];
    o.d[1] = r.d[1] - k;
    for (int j = 0; j < 3; j++)
        o.i[j] = r.i[(j + k) % 3] * (j + 1);
    o.c = (char)(r.c + k);
    o.s = (short)(r.s * -3);
    o.l = r.l * k + r.i[0];
    return o;
}
static long long level3(struct rec r, int k)
{
    struct rec f = fold(r, k);
    return (long long)f.d[0] + (long long)f.d[1] * 100 + f.i[0] + f.i[1] * 7 + f.i[2] * 49 + f.c +
           f.s + f.l;
}
static long long level2(struct rec r, int k)
{
    return level3(r, k) - level3(r, k + 1);
}
static long long level1(struct rec r, int k, struct vec3 v, struct mat3 m)
{
    struct vec3 w = add3(mulmv(m, v), v);
    return level2(r, k) * 3 + (long long)(w.x + 2.0f * w.y + 4.0f * w.z);
}
/* }==== */

static void test_calls(struct kit *k, struct hd_module *mod)
{
    _Static_assert(sizeof(struct rec) == 40 && sizeof(struct mat3) == 40, "layout as in PTX");
    struct rec recs[N];
    struct vec3 vs[N];
    struct mat3 m;
    long long out[N];
    uint64_t seed = 31;
    for (int j = 0; j < 3; j++)
        m.r[j] = (struct vec3){(float)((int)(gk_rand(&seed) % 17) - 8),
                               (float)((int)(gk_rand(&seed) % 17) - 8),
                               (float)((int)(gk_rand(&seed) % 17) - 8)};
    m.tag = 5;
    memset(recs, 0, sizeof recs); /* padding bytes too */
    for (int i = 0; i < N; i++) {
        recs[i].d[0] = (double)((int)(gk_rand(&seed) % 4001) - 2000) / 4.0;
        recs[i].d[1] = (double)((int)(gk_rand(&seed) % 4001) - 2000) / 4.0;
        for (int j = 0; j < 3; j++)
            recs[i].i[j] = (int)(gk_rand(&seed) % 200001) - 100000;
        recs[i].c = (char)gk_rand(&seed);
        recs[i].s = (short)gk_rand(&seed);
        recs[i].l = (long long)(int32_t)gk_rand(&seed) * 1000;
        vs[i] = (struct vec3){(float)((int)(gk_rand(&seed) % 33) - 16),
                              (float)((int)(gk_rand(&seed) % 33) - 16),
                              (float)((int)(gk_rand(&seed) % 33) - 16)};
    }
    hd_devptr drecs = gk_dev(k, recs, sizeof recs), dvs = gk_dev(k, vs, sizeof vs);
    hd_devptr dout = gk_dev(k, NULL, sizeof out);
    int32_t n = N;
    struct hd_arg args[5] = {HD_ARG(drecs), HD_ARG(dvs), HD_ARG(m), HD_ARG(dout), HD_ARG(n)};
    if (gk_launch(k, mod, "nested_calls", N, 64, args, 5) == HD_OK) {
        gk_get(k, out, dout, sizeof out);
        int bad = 0;
        for (int t = 0; t < N; t++) {
            long long acc = level1(recs[t], t % 5, vs[t], m);
            if (t & 1)
                acc += level3(recs[N - 1 - t], 2);
            for (int j = 0; j < (t & 3); j++) {
                struct vec3 u = mulmv(m, vs[j]);
                acc += (long long)dot3(u, u);
            }
            if (!HD_CHECK_U64(k->t, (uint64_t)acc, (uint64_t)out[t]) && bad++ < 8)
                fprintf(stderr, "    thread %d\n", t);
        }
    }
    hd_free(k->gpu, drecs);
    hd_free(k->gpu, dvs);
    hd_free(k->gpu, dout);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    for (int f = 0; f < 2; f++) {
        char name[160];
        snprintf(name, sizeof name, "%s: nested_calls (structs by value, three call levels)",
                 ptx_files[f]);
        hd_test_begin(&t, name);
        struct hd_module *mod = gk_load(&k, ptx_files[f]);
        if (mod)
            test_calls(&k, mod);
    }
    kit_close(&k);
    return hd_test_finish(&t);
}
