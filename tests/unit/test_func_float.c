/* SPDX-License-Identifier: MIT
 * test_func_float.c - floating-point instructions against hand-computed bit patterns: rounding
 * modifiers on values where they differ (.rn ties-to-even, .rz, .rm, .rp), fused vs unfused
 * multiply-add, IEEE special values (NaN propagation to the canonical NaN, sqrt(-1), rcp(0),
 * signed zeros), min/max NaN rules, .ftz of subnormal inputs and results, .sat, testp,
 * copysign, the .approx functions, and setp/set/selp/slct with ordered and unordered compares.
 */
#include "func_testkit.h"

#include <math.h>

#define E(code, res, a, b, c, want) KIT_EXPECT(k, code, res, a, b, c, want)

#define ONE 0x3f800000u
#define NAN32 0x7fc00000u
#define CNAN32 0x7fffffffu
#define INF32 0x7f800000u
#define NINF32 0xff800000u
#define NZERO32 0x80000000u

static void test_rounding(struct kit *k)
{
    hd_test_begin(k->t, "add/mul/div/sqrt/fma under .rn/.rz/.rm/.rp");
    const uint64_t small = 0x33c00000; /* 1.5 * 2^-24: 0.75 ulp of 1.0 */
    E("add.rn.f32 %fd, %fa, %fb;", "fd", ONE, small, 0, 0x3f800001);
    E("add.rz.f32 %fd, %fa, %fb;", "fd", ONE, small, 0, 0x3f800000);
    E("add.rm.f32 %fd, %fa, %fb;", "fd", ONE, small, 0, 0x3f800000);
    E("add.rp.f32 %fd, %fa, %fb;", "fd", ONE, small, 0, 0x3f800001);
    E("add.rn.f32 %fd, %fa, %fb;", "fd", 0xbf800000, 0xb3c00000, 0, 0xbf800001);
    E("add.rz.f32 %fd, %fa, %fb;", "fd", 0xbf800000, 0xb3c00000, 0, 0xbf800000);
    E("add.rm.f32 %fd, %fa, %fb;", "fd", 0xbf800000, 0xb3c00000, 0, 0xbf800001);
    E("add.rp.f32 %fd, %fa, %fb;", "fd", 0xbf800000, 0xb3c00000, 0, 0xbf800000);
    E("add.f32 %fd, %fa, %fb;", "fd", ONE, 0x33800000, 0, ONE);               /* tie: to even */
    E("add.f32 %fd, %fa, %fb;", "fd", 0x3f800001, 0x33800000, 0, 0x3f800002); /* tie: to even */
    E("sub.rz.f32 %fd, %fa, %fb;", "fd", ONE, 0xb3c00000, 0, 0x3f800000);
    E("mul.rn.f32 %fd, %fa, %fb;", "fd", 0x3f800001, 0x3f800001, 0, 0x3f800002);
    E("mul.rp.f32 %fd, %fa, %fb;", "fd", 0x3f800001, 0x3f800001, 0, 0x3f800003);
    E("mul.rz.f32 %fd, %fa, %fb;", "fd", 0x3f800001, 0x3f800001, 0, 0x3f800002);
    E("fma.rn.f32 %fd, %fa, %fb, %fc;", "fd", 0x3f800001, 0x3f7fffff, 0xbf800000, 0x337ffffe);
    E("mad.rn.f32 %fd, %fa, %fb, %fc;", "fd", 0x3f800001, 0x3f7fffff, 0xbf800000, 0x337ffffe);
    E("mul.rn.f32 %fd, %fa, %fb;\n\tadd.rn.f32 %fd, %fd, %fc;", "fd", 0x3f800001, 0x3f7fffff,
      0xbf800000, 0);
    E("fma.rz.f32 %fd, %fa, %fb, %fc;", "fd", ONE, ONE, small, 0x3f800000);
    E("fma.rp.f32 %fd, %fa, %fb, %fc;", "fd", ONE, ONE, small, 0x3f800001);
    E("add.rn.f64 %dd, %da, %db;", "dd", 0x3ff0000000000000ull, 0x3ca8000000000000ull, 0,
      0x3ff0000000000001ull);
    E("add.rz.f64 %dd, %da, %db;", "dd", 0x3ff0000000000000ull, 0x3ca8000000000000ull, 0,
      0x3ff0000000000000ull);
    E("fma.rn.f64 %dd, %da, %db, %dc;", "dd", 0x4000000000000000ull, 0x4008000000000000ull,
      0x3ff0000000000000ull, 0x401c000000000000ull); /* 2*3+1 = 7 */
    E("div.rn.f32 %fd, %fa, %fb;", "fd", ONE, 0x40400000, 0, 0x3eaaaaab);
    E("div.rz.f32 %fd, %fa, %fb;", "fd", ONE, 0x40400000, 0, 0x3eaaaaaa);
    E("div.rm.f32 %fd, %fa, %fb;", "fd", ONE, 0x40400000, 0, 0x3eaaaaaa);
    E("div.rp.f32 %fd, %fa, %fb;", "fd", ONE, 0x40400000, 0, 0x3eaaaaab);
    E("div.full.f32 %fd, %fa, %fb;", "fd", ONE, 0x40400000, 0, 0x3eaaaaab);
    E("div.rn.f64 %dd, %da, %db;", "dd", 0x3ff0000000000000ull, 0x4008000000000000ull, 0,
      0x3fd5555555555555ull);
    E("div.rz.f64 %dd, %da, %db;", "dd", 0x3ff0000000000000ull, 0x4008000000000000ull, 0,
      0x3fd5555555555555ull);
    E("div.rp.f64 %dd, %da, %db;", "dd", 0x3ff0000000000000ull, 0x4008000000000000ull, 0,
      0x3fd5555555555556ull);
    uint64_t approx = kit_op(k, "div.approx.f32 %fd, %fa, %fb;", "fd", ONE, 0x40400000, 0);
    HD_CHECK(k->t, approx >= 0x3eaaaaa9 && approx <= 0x3eaaaaad);
    E("sqrt.rn.f32 %fd, %fa;", "fd", 0x40000000, 0, 0, 0x3fb504f3);
    E("sqrt.rz.f32 %fd, %fa;", "fd", 0x40000000, 0, 0, 0x3fb504f3);
    E("sqrt.rp.f32 %fd, %fa;", "fd", 0x40000000, 0, 0, 0x3fb504f4);
    E("sqrt.rn.f64 %dd, %da;", "dd", 0x4010000000000000ull, 0, 0, 0x4000000000000000ull);
}

static void test_special_values(struct kit *k)
{
    hd_test_begin(k->t, "NaN propagation, sqrt(-1), rcp(0), signed zeros, min/max NaN rules");
    E("add.f32 %fd, %fa, %fb;", "fd", 0x7fc00001, ONE, 0, CNAN32);
    E("mul.f32 %fd, %fa, %fb;", "fd", INF32, 0, 0, CNAN32);
    E("sub.f32 %fd, %fa, %fb;", "fd", INF32, INF32, 0, CNAN32);
    E("add.f64 %dd, %da, %db;", "dd", 0x7ff8000000000001ull, 0, 0, 0x7fffffffffffffffull);
    E("sqrt.rn.f32 %fd, %fa;", "fd", 0xbf800000, 0, 0, CNAN32);
    E("sqrt.rn.f32 %fd, %fa;", "fd", NZERO32, 0, 0, NZERO32);
    E("sqrt.approx.f32 %fd, %fa;", "fd", 0xbf800000, 0, 0, CNAN32);
    E("rcp.rn.f32 %fd, %fa;", "fd", 0, 0, 0, INF32);
    E("rcp.rn.f32 %fd, %fa;", "fd", NZERO32, 0, 0, NINF32);
    E("rcp.approx.f32 %fd, %fa;", "fd", 0x40800000, 0, 0, 0x3e800000);
    E("rcp.rn.f64 %dd, %da;", "dd", 0x4000000000000000ull, 0, 0, 0x3fe0000000000000ull);
    E("rcp.rn.f64 %dd, %da;", "dd", 0, 0, 0, 0x7ff0000000000000ull);
    E("div.rn.f32 %fd, %fa, %fb;", "fd", ONE, 0, 0, INF32);
    E("div.rn.f32 %fd, %fa, %fb;", "fd", 0, 0, 0, CNAN32);
    E("min.f32 %fd, %fa, %fb;", "fd", NAN32, ONE, 0, ONE);
    E("max.f32 %fd, %fa, %fb;", "fd", ONE, NAN32, 0, ONE);
    E("min.f32 %fd, %fa, %fb;", "fd", NAN32, NAN32, 0, CNAN32);
    E("min.f32 %fd, %fa, %fb;", "fd", NZERO32, 0, 0, NZERO32);
    E("min.f32 %fd, %fa, %fb;", "fd", 0, NZERO32, 0, NZERO32);
    E("max.f32 %fd, %fa, %fb;", "fd", NZERO32, 0, 0, 0);
    E("max.f32 %fd, %fa, %fb;", "fd", 0xc0000000, 0xbf800000, 0, 0xbf800000);
    E("min.f64 %dd, %da, %db;", "dd", 0x7ff8000000000000ull, 0x4000000000000000ull, 0,
      0x4000000000000000ull);
    E("abs.f32 %fd, %fa;", "fd", NZERO32, 0, 0, 0);
    E("abs.f32 %fd, %fa;", "fd", NINF32, 0, 0, INF32);
    E("neg.f32 %fd, %fa;", "fd", 0, 0, 0, NZERO32);
    E("neg.f32 %fd, %fa;", "fd", 0x7fc00001, 0, 0, 0xffc00001u); /* a bit operation */
    E("neg.f64 %dd, %da;", "dd", 0x3ff0000000000000ull, 0, 0, 0xbff0000000000000ull);
    E("copysign.f32 %fd, %fa, %fb;", "fd", 0xbf800000, 0x40000000, 0, 0xc0000000u);
    E("copysign.f64 %dd, %da, %db;", "dd", 0, 0xbff0000000000000ull, 0, 0x3ff0000000000000ull);
}

static void test_ftz_sat(struct kit *k)
{
    hd_test_begin(k->t, ".ftz flushes subnormal inputs and results (sign kept); .sat clamps");
    E("add.ftz.f32 %fd, %fa, %fb;", "fd", 0x00000001, 0, 0, 0);
    E("add.f32 %fd, %fa, %fb;", "fd", 0x00000001, 0, 0, 0x00000001);
    E("add.ftz.f32 %fd, %fa, %fb;", "fd", 0x80000001u, NZERO32, 0, NZERO32);
    E("mul.ftz.f32 %fd, %fa, %fb;", "fd", 0x0d800000, 0x2e800000, 0, 0);
    E("mul.f32 %fd, %fa, %fb;", "fd", 0x0d800000, 0x2e800000, 0, 0x00008000);
    E("mul.ftz.f32 %fd, %fa, %fb;", "fd", 0x8d800000u, 0x2e800000, 0, NZERO32);
    E("fma.rn.ftz.f32 %fd, %fa, %fb, %fc;", "fd", 0x00400000, 0x4b000000, 0, 0);
    E("fma.rn.f32 %fd, %fa, %fb, %fc;", "fd", 0x00400000, 0x4b000000, 0, 0x0b800000);
    E("min.ftz.f32 %fd, %fa, %fb;", "fd", 0x80000001u, 0x00000001, 0, NZERO32);
    E("add.sat.f32 %fd, %fa, %fb;", "fd", 0x3f400000, 0x3f000000, 0, ONE);
    E("add.sat.f32 %fd, %fa, %fb;", "fd", 0xbf000000, 0, 0, 0);
    E("mul.sat.f32 %fd, %fa, %fb;", "fd", NAN32, ONE, 0, 0);
    E("add.sat.f32 %fd, %fa, %fb;", "fd", NZERO32, NZERO32, 0, 0);
    E("add.sat.f32 %fd, %fa, %fb;", "fd", 0x3e800000, 0, 0, 0x3e800000);
    E("fma.rn.sat.f32 %fd, %fa, %fb, %fc;", "fd", 0x40000000, 0x40000000, 0, ONE);
}

static void test_sfu_testp(struct kit *k)
{
    hd_test_begin(k->t, "approx functions, rsqrt, testp classes");
    E("ex2.approx.f32 %fd, %fa;", "fd", 0x40400000, 0, 0, 0x41000000);
    E("ex2.approx.ftz.f32 %fd, %fa;", "fd", NINF32, 0, 0, 0);
    E("lg2.approx.f32 %fd, %fa;", "fd", 0x41000000, 0, 0, 0x40400000);
    E("lg2.approx.f32 %fd, %fa;", "fd", 0, 0, 0, NINF32);
    E("lg2.approx.f32 %fd, %fa;", "fd", 0xbf800000, 0, 0, CNAN32);
    E("sin.approx.f32 %fd, %fa;", "fd", 0, 0, 0, 0);
    E("cos.approx.f32 %fd, %fa;", "fd", 0, 0, 0, ONE);
    E("tanh.approx.f32 %fd, %fa;", "fd", 0, 0, 0, 0);
    E("rsqrt.approx.f32 %fd, %fa;", "fd", 0x40800000, 0, 0, 0x3f000000);
    E("rsqrt.approx.f32 %fd, %fa;", "fd", 0, 0, 0, INF32);
    uint64_t s = kit_op(k, "sin.approx.f32 %fd, %fa;", "fd", 0x3fc90fdb /* pi/2 */, 0, 0);
    HD_CHECK_F64(k->t, 1.0, (double)kit_f32(s), 1e-6);
    uint64_t c = kit_op(k, "cos.approx.f32 %fd, %fa;", "fd", 0x40490fdb /* pi */, 0, 0);
    HD_CHECK_F64(k->t, -1.0, (double)kit_f32(c), 1e-6);
    uint64_t th = kit_op(k, "tanh.approx.f32 %fd, %fa;", "fd", ONE, 0, 0);
    HD_CHECK_F64(k->t, tanh(1.0), (double)kit_f32(th), 1e-5);
    E("testp.finite.f32 %p, %fa;", "p", INF32, 0, 0, 0);
    E("testp.finite.f32 %p, %fa;", "p", ONE, 0, 0, 1);
    E("testp.infinite.f32 %p, %fa;", "p", NINF32, 0, 0, 1);
    E("testp.notanumber.f32 %p, %fa;", "p", NAN32, 0, 0, 1);
    E("testp.number.f32 %p, %fa;", "p", NAN32, 0, 0, 0);
    E("testp.subnormal.f32 %p, %fa;", "p", 0x00000001, 0, 0, 1);
    E("testp.normal.f32 %p, %fa;", "p", ONE, 0, 0, 1);
    E("testp.normal.f32 %p, %fa;", "p", 0, 0, 0, 0);
    E("testp.infinite.f64 %p, %da;", "p", 0x7ff0000000000000ull, 0, 0, 1);
    E("testp.subnormal.f64 %p, %da;", "p", 1, 0, 0, 1);
}

static void test_compare_select(struct kit *k)
{
    hd_test_begin(k->t, "setp ordered/unordered, boolean combination, two destinations; set, selp, slct");
    E("setp.lt.f32 %p, %fa, %fb;", "p", NAN32, ONE, 0, 0);
    E("setp.ltu.f32 %p, %fa, %fb;", "p", NAN32, ONE, 0, 1);
    E("setp.neu.f32 %p, %fa, %fb;", "p", NAN32, NAN32, 0, 1);
    E("setp.ne.f32 %p, %fa, %fb;", "p", NAN32, ONE, 0, 0);
    E("setp.equ.f32 %p, %fa, %fb;", "p", NAN32, ONE, 0, 1);
    E("setp.eq.f32 %p, %fa, %fb;", "p", NZERO32, 0, 0, 1);
    E("setp.num.f32 %p, %fa, %fb;", "p", ONE, 0x40000000, 0, 1);
    E("setp.nan.f32 %p, %fa, %fb;", "p", ONE, NAN32, 0, 1);
    E("setp.geu.f32 %p, %fa, %fb;", "p", ONE, 0x40000000, 0, 0);
    E("setp.leu.f64 %p, %da, %db;", "p", 0x7ff8000000000000ull, 0, 0, 1);
    E("setp.gt.f64 %p, %da, %db;", "p", 0x4000000000000000ull, 0x3ff0000000000000ull, 0, 1);
    E("setp.lt.s32 %p, %a32, %b32;", "p", 0xffffffffu, 1, 0, 1);
    E("setp.lt.u32 %p, %a32, %b32;", "p", 0xffffffffu, 1, 0, 0);
    E("setp.hi.u32 %p, %a32, %b32;", "p", 0xffffffffu, 1, 0, 1);
    E("setp.ls.u64 %p, %a64, %b64;", "p", 5, 5, 0, 1);
    E("setp.ge.s16 %p, %a16, %b16;", "p", 0x8000, 1, 0, 0);
    E("setp.ne.b32 %p, %a32, %b32;", "p", 1, 1, 0, 0);
    E("setp.lt.and.s32 %p|%q, %a32, %b32, %pc;", "p", 1, 2, 0, 0);
    E("setp.lt.and.s32 %p|%q, %a32, %b32, %pc;", "q", 1, 2, 1, 0);
    E("setp.lt.or.s32 %p|%q, %a32, %b32, %pc;", "p", 1, 2, 0, 1);
    E("setp.lt.or.s32 %p|%q, %a32, %b32, %pc;", "q", 1, 2, 1, 1);
    E("setp.lt.or.s32 %p|%q, %a32, %b32, %pc;", "q", 1, 2, 0, 0);
    E("setp.lt.xor.s32 %p, %a32, %b32, %pc;", "p", 1, 2, 1, 0);
    E("setp.lt.and.s32 %p, %a32, %b32, !%pc;", "p", 1, 2, 0, 1);
    E("setp.gt.s32 %p|%q, %a32, %b32;", "q", 1, 2, 0, 1);
    E("set.lt.u32.s32 %d32, %a32, %b32;", "d32", 0xffffffffu, 1, 0, 0xffffffffu);
    E("set.lt.f32.s32 %fd, %a32, %b32;", "fd", 0xffffffffu, 1, 0, ONE);
    E("set.gt.u32.f32 %d32, %fa, %fb;", "d32", NAN32, ONE, 0, 0);
    E("set.gtu.u32.f32 %d32, %fa, %fb;", "d32", NAN32, ONE, 0, 0xffffffffu);
    E("selp.b32 %d32, %a32, %b32, %pc;", "d32", 11, 22, 1, 11);
    E("selp.b32 %d32, %a32, %b32, %pc;", "d32", 11, 22, 0, 22);
    E("selp.f64 %dd, %da, %db, %pc;", "dd", 1, 2, 0, 2);
    E("slct.s32.s32 %d32, %a32, %b32, %c32;", "d32", 11, 22, 0xffffffffu, 22);
    E("slct.s32.s32 %d32, %a32, %b32, %c32;", "d32", 11, 22, 0, 11);
    E("slct.f32.f32 %fd, %fa, %fb, %fc;", "fd", ONE, 0x40000000, NZERO32, ONE);
    E("slct.f32.f32 %fd, %fa, %fb, %fc;", "fd", ONE, 0x40000000, NAN32, 0x40000000);
}

static void test_half_arith(struct kit *k)
{
    hd_test_begin(k->t, "f16 / f16x2 arithmetic: rounding to half, overflow, NaN, packed lanes");
    E("add.f16 %d16, %a16, %b16;", "d16", 0x3c00, 0x4000, 0, 0x4200);          /* 1 + 2 = 3 */
    E("add.rn.f16 %d16, %a16, %b16;", "d16", 0x3c00, 0x1000, 0, 0x3c00);       /* 1 + 2^-11 tie */
    E("sub.f16 %d16, %a16, %b16;", "d16", 0x3c00, 0x3c00, 0, 0);
    E("mul.f16 %d16, %a16, %b16;", "d16", 0x7bff, 0x4000, 0, 0x7c00);          /* overflow */
    E("mul.rz.f16 %d16, %a16, %b16;", "d16", 0x7bff, 0x4000, 0, 0x7bff);
    E("fma.rn.f16 %d16, %a16, %b16, %c16;", "d16", 0x4000, 0x4200, 0x3c00, 0x4700); /* 2*3+1 = 7 */
    E("min.f16 %d16, %a16, %b16;", "d16", 0x7e00, 0x3c00, 0, 0x3c00);
    E("neg.f16 %d16, %a16;", "d16", 0x3c00, 0, 0, 0xbc00);
    E("add.sat.f16 %d16, %a16, %b16;", "d16", 0x3c00, 0x3c00, 0, 0x3c00);
    E("add.f16x2 %d32, %a32, %b32;", "d32", 0x3c004000, 0x40003c00, 0, 0x42004200);
    E("mul.f16x2 %d32, %a32, %b32;", "d32", 0xc0004000, 0x40004000, 0, 0xc4004400);
    E("abs.f16x2 %d32, %a32;", "d32", 0xbc00bc00u, 0, 0, 0x3c003c00);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_rounding(&k);
    test_special_values(&k);
    test_ftz_sat(&k);
    test_sfu_testp(&k);
    test_compare_select(&k);
    test_half_arith(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
