/* SPDX-License-Identifier: MIT
 * test_gaps_simd.c - the SIMD video instructions vabsdiff4/vabsdiff2 and fns: hand-worked single
 * instructions (signed and unsigned elements, .sat, the .add accumulate, fns in both directions
 * and with offset 0, the PTX ISA's own fns examples), front-end errors, and
 * tests/ptx/extra/simd.cu (nvcc 13 output: CUDA SIMD intrinsics and __fns) checked element by
 * element against definitions of the intrinsics written in C.
 */
#include "gaps_kit.h"

#define PTX "tests/ptx/extra/simd.ptx"
#define NS 18 /* results per thread of simd_ops (simd.cu) */
#define N 96

#define E(code, a, b, c, want) KIT_EXPECT(k, code, "d32", a, b, c, want)

static void test_instructions(struct kit *k)
{
    hd_test_begin(k->t, "vabsdiff4/vabsdiff2 and fns, one instruction at a time");
    /* bytes 0x10 0xf0 0x7f 0x80 vs 0x20 0x10 0x80 0x7f */
    /* a's bytes (low first) 0x10 0xf0 0x7f 0x80, b's 0x20 0x10 0x80 0x7f; c is unused by the
     * merge form with the full mask */
    E("vabsdiff4.u32.u32.u32 %d32, %a32, %b32, %c32;", 0x807ff010u, 0x7f801020u, 0x12345678u,
      0x0101e010u);
    E("vabsdiff4.s32.s32.s32 %d32, %a32, %b32, %c32;", 0x807ff010u, 0x7f801020u, 0,
      0xffff2010u); /* 16-32 -> 16; -16-16 -> 32; 127-(-128) -> 255; -128-127 -> 255 */
    E("vabsdiff4.s32.s32.s32.sat %d32, %a32, %b32, %c32;", 0x807ff010u, 0x7f801020u, 0,
      0x7f7f2010u);
    E("vabsdiff4.u32.u32.u32.add %d32, %a32, %b32, %c32;", 0x807ff010u, 0x7f801020u, 1000,
      1000 + 0x10 + 0xe0 + 0x01 + 0x01);
    E("vabsdiff2.u32.u32.u32 %d32, %a32, %b32, %c32;", 0x0001ffffu, 0xffff0001u, 0,
      0xfffefffeu);
    E("vabsdiff2.s32.s32.s32 %d32, %a32, %b32, %c32;", 0x0001ffffu, 0xffff0001u, 0,
      0x00020002u); /* 1-(-1) = 2, -1-1 = 2 */
    E("vabsdiff2.u32.u32.u32.add %d32, %a32, %b32, %c32;", 0x00050001u, 0x00010009u, 0xffffffffu,
      0xffffffffu + 4 + 8);
    E("fns.b32 %d32, 0xaaaaaaaa, 3, 1;", 0, 0, 0, 3); /* PTX ISA examples */
    E("fns.b32 %d32, 0xaaaaaaaa, 3, -1;", 0, 0, 0, 3);
    E("fns.b32 %d32, 0xaaaaaaaa, 2, 1;", 0, 0, 0, 3);
    E("fns.b32 %d32, 0xaaaaaaaa, 2, -1;", 0, 0, 0, 1);
    E("fns.b32 %d32, %a32, %b32, %c32;", 0x80000001u, 0, 2, 31);
    E("fns.b32 %d32, %a32, %b32, %c32;", 0x80000001u, 0, 3, 0xffffffffu);
    E("fns.b32 %d32, %a32, %b32, %c32;", 0x80000001u, 31, 0xfffffffeu, 0);
    E("fns.b32 %d32, %a32, %b32, %c32;", 0x00000010u, 4, 0, 4);
    E("fns.b32 %d32, %a32, %b32, %c32;", 0x00000010u, 5, 0, 0xffffffffu);
}

static void expect_error(struct kit *k, const char *code, const char *where, const char *what)
{
    char text[1024];
    snprintf(text, sizeof text,
             "%s.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %%r<4>;\n\t%s\n\tret;\n}\n",
             KIT_HEADER, code);
    struct hd_module *mod = NULL;
    int st = hd_module_load_text(k->gpu, text, strlen(text), "v.ptx", &mod);
    const char *err = st == HD_OK ? "loaded" : hd_last_error(k->gpu);
    if (!HD_CHECK(k->t, st == HD_ERR_PTX && strstr(err, where) && strstr(err, what)))
        fprintf(stderr, "    '%s': %s (want %s ... %s)\n", code, err, where, what);
}

static void test_errors(struct kit *k)
{
    hd_test_begin(k->t, "vabsdiff/fns forms the model does not take are located errors");
    /* the instruction is at line 7, column 2 */
    expect_error(k, "vabsdiff4.u32.u32.s32 %r1, %r2, %r3, %r1;", "v.ptx:7:19:",
                 "different .atype and .btype");
    expect_error(k, "vabsdiff4.u32.u32.u32.min %r1, %r2, %r3, %r1;", "v.ptx:7:2:",
                 "only secondary operation");
    expect_error(k, "vabsdiff4.u32.u32.u32.sat.add %r1, %r2, %r3, %r1;", "v.ptx:7:2:",
                 "cannot saturate");
    expect_error(k, "vabsdiff4.u32.u32 %r1, %r2, %r3, %r1;", "v.ptx:7:2:", "needs three types");
    expect_error(k, "vabsdiff2.f32.f32.f32 %r1, %r2, %r3, %r1;", "v.ptx:7:2:",
                 "does not take this type");
    expect_error(k, "fns.u32 %r1, %r2, %r3, %r1;", "v.ptx:7:2:", "does not take this type");
    expect_error(k, "fns.b64 %r1, %r2, %r3, %r1;", "v.ptx:7:2:", "needs .b32");
    expect_error(k, "fns.b32 %r1, %r2, %r3;", "v.ptx:7:2:", "takes 4 operands");
}

/* {==== simd.cu: the intrinsics from their CUDA math API definitions ==== */
enum op { ABSDIFF, ADD, SUBSS, ADDUS, AVGU, HADDU, CMPGTU, SETLES, MAXS, MINU, ABSSS, NEGSS };

static int32_t elem(uint32_t v, unsigned i, unsigned w, bool sgn)
{
    uint32_t u = (v >> (w * i)) & ((1u << w) - 1);
    return sgn && (u >> (w - 1)) ? (int32_t)u - (int32_t)(1u << w) : (int32_t)u;
}

static int32_t clamp(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Element-wise operation on w-bit elements (8 or 16); sum != NULL receives the sum of results. */
static uint32_t simd(uint32_t a, uint32_t b, unsigned w, enum op op, bool sgn, int64_t *sum)
{
    const int32_t smax = (1 << (w - 1)) - 1, smin = -(1 << (w - 1)), umax = (1 << w) - 1;
    uint32_t r = 0;
    int64_t s = 0;
    for (unsigned i = 0; i < 32 / w; i++) {
        int32_t x = elem(a, i, w, sgn), y = elem(b, i, w, sgn), v;
        switch (op) {
        case ABSDIFF: v = x > y ? x - y : y - x; break;
        case ADD: v = x + y; break;
        case SUBSS: v = clamp(x - y, smin, smax); break;
        case ADDUS: v = clamp(x + y, 0, umax); break;
        case AVGU: v = (x + y + 1) >> 1; break;
        case HADDU: v = (x + y) >> 1; break;
        case CMPGTU: v = x > y ? umax : 0; break;
        case SETLES: v = x <= y; break;
        case MAXS: v = x > y ? x : y; break;
        case MINU: v = x < y ? x : y; break;
        case ABSSS: v = clamp(x < 0 ? -x : x, smin, smax); break;
        default: v = clamp(-x, smin, smax); break; /* NEGSS */
        }
        s += v;
        r |= ((uint32_t)v & (uint32_t)umax) << (w * i);
    }
    if (sum)
        *sum = s;
    return r;
}

static uint32_t fns_ref(uint32_t m, uint32_t base, int32_t off)
{
    if (off == 0)
        return (m >> base) & 1u ? base : 0xffffffffu;
    int found = 0;
    for (int32_t p = (int32_t)base; p >= 0 && p < 32; p += off > 0 ? 1 : -1)
        if (((m >> p) & 1u) && ++found == (off > 0 ? off : -off))
            return (uint32_t)p;
    return 0xffffffffu;
}

static void simd_ref(uint32_t a, uint32_t b, uint32_t o[NS])
{
    int64_t s;
    o[0] = simd(a, b, 8, ABSDIFF, false, NULL);
    o[1] = simd(a, b, 16, ABSDIFF, false, NULL);
    o[2] = simd(a, b, 8, ABSDIFF, true, NULL);
    simd(a, b, 8, ABSDIFF, false, &s);
    o[3] = (uint32_t)s;
    simd(a, b, 16, ABSDIFF, false, &s);
    o[4] = (uint32_t)s;
    simd(a, b, 8, ABSDIFF, true, &s);
    o[5] = (uint32_t)s;
    o[6] = simd(a, b, 8, ADD, false, NULL);
    o[7] = simd(a, b, 8, SUBSS, true, NULL);
    o[8] = simd(a, b, 16, ADDUS, false, NULL);
    o[9] = simd(a, b, 8, AVGU, false, NULL);
    o[10] = simd(a, b, 16, HADDU, false, NULL);
    o[11] = simd(a, b, 8, CMPGTU, false, NULL);
    o[12] = simd(a, b, 8, SETLES, true, NULL);
    o[13] = simd(a, b, 16, MAXS, true, NULL);
    o[14] = simd(a, b, 8, MINU, false, NULL);
    o[15] = simd(a, 0, 8, ABSSS, true, NULL);
    o[16] = simd(b, 0, 16, NEGSS, true, NULL);
    o[17] = fns_ref(a, b & 31, (int32_t)(b >> 27) - 16);
}

static void test_corpus(struct kit *k)
{
    hd_test_begin(k->t, "simd.cu simd_ops: CUDA SIMD intrinsics and __fns against C definitions");
    struct hd_module *mod = gk_load(k, PTX);
    if (!mod)
        return;
    static const uint32_t chosen[][2] = {
        {0x807ff010u, 0x7f801020u}, {0, 0}, {0xffffffffu, 0}, {0x80008000u, 0x7fff7fffu},
        {0x80808080u, 0x01010101u}, {0x7f7f7f7fu, 0x81818181u}, {0xaaaaaaaau, 0x70000003u},
    };
    uint32_t a[N], b[N], out[N * NS];
    uint64_t seed = 41;
    for (int i = 0; i < N; i++) {
        bool pick = i < (int)(sizeof chosen / sizeof chosen[0]);
        a[i] = pick ? chosen[i][0] : gk_rand(&seed);
        b[i] = pick ? chosen[i][1] : gk_rand(&seed);
    }
    hd_devptr da = gk_dev(k, a, sizeof a), db = gk_dev(k, b, sizeof b);
    hd_devptr dout = gk_dev(k, NULL, sizeof out);
    int32_t n = N;
    struct hd_arg args[4] = {HD_ARG(da), HD_ARG(db), HD_ARG(dout), HD_ARG(n)};
    if (gk_launch(k, mod, "simd_ops", N, 64, args, 4) == HD_OK) {
        gk_get(k, out, dout, sizeof out);
        int bad = 0;
        for (int t = 0; t < N; t++) {
            uint32_t want[NS];
            simd_ref(a[t], b[t], want);
            for (int j = 0; j < NS; j++)
                if (!HD_CHECK_U64(k->t, want[j], out[t * NS + j]) && bad++ < 10)
                    fprintf(stderr, "    thread %d output %d: a=%08x b=%08x\n", t, j, a[t], b[t]);
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
    test_instructions(&k);
    test_errors(&k);
    test_corpus(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
