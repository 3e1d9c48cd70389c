/* SPDX-License-Identifier: MIT
 * test_func_cvt.c - conversions and moves: float-to-int rounding (.rni ties-to-even, .rzi of
 * negatives, .rmi, .rpi) with saturation and NaN -> 0, int-to-float rounding, float-to-float
 * narrowing, f16/bf16 conversions (rounding, overflow, subnormals, packing), integer
 * truncation/extension/saturation (cvt.sat to u8), and mov packing/unpacking of vectors.
 */
#include "func_testkit.h"

#define E(code, res, a, b, c, want) KIT_EXPECT(k, code, res, a, b, c, want)
#define ONE 0x3f800000u

static void test_float_to_int(struct kit *k)
{
    hd_test_begin(k->t, "float -> int: rounding modes, saturation, NaN and infinities");
    E("cvt.rni.s32.f32 %d32, %fa;", "d32", 0x40200000, 0, 0, 2);           /* 2.5 */
    E("cvt.rni.s32.f32 %d32, %fa;", "d32", 0x40600000, 0, 0, 4);           /* 3.5 */
    E("cvt.rni.s32.f32 %d32, %fa;", "d32", 0xc0200000, 0, 0, 0xfffffffeu); /* -2.5 */
    E("cvt.rzi.s32.f32 %d32, %fa;", "d32", 0xc02ccccd, 0, 0, 0xfffffffeu); /* -2.7 */
    E("cvt.rmi.s32.f32 %d32, %fa;", "d32", 0xc0066666, 0, 0, 0xfffffffdu); /* -2.1 */
    E("cvt.rpi.s32.f32 %d32, %fa;", "d32", 0x40066666, 0, 0, 3);           /* 2.1 */
    E("cvt.rzi.s32.f32 %d32, %fa;", "d32", 0x7fc00000, 0, 0, 0);
    E("cvt.rzi.s32.f32 %d32, %fa;", "d32", 0x7f800000, 0, 0, 0x7fffffffu);
    E("cvt.rzi.s32.f32 %d32, %fa;", "d32", 0xff800000, 0, 0, 0x80000000u);
    E("cvt.rzi.s32.f32 %d32, %fa;", "d32", 0x4f32d05e, 0, 0, 0x7fffffffu); /* 3e9 */
    E("cvt.rzi.u32.f32 %d32, %fa;", "d32", 0xbfc00000, 0, 0, 0);           /* -1.5 */
    E("cvt.rzi.u32.f32 %d32, %fa;", "d32", 0x4f9502f9, 0, 0, 0xffffffffu); /* 5e9 */
    E("cvt.rzi.u16.f32 %d16, %fa;", "d16", 0x4788b800, 0, 0, 0xffff);      /* 70000 */
    E("cvt.rzi.s16.f32 %d16, %fa;", "d16", 0xc788b800, 0, 0, 0x8000);      /* -70000 */
    E("cvt.rzi.s64.f64 %d64, %da;", "d64", 0xc3e158e460913d00ull, 0, 0, 0x8000000000000000ull);
    E("cvt.rzi.u64.f64 %d64, %da;", "d64", 0x43f0000000000000ull, 0, 0, 0xffffffffffffffffull);
    E("cvt.rni.s64.f64 %d64, %da;", "d64", 0x4004000000000000ull, 0, 0, 2);
    E("cvt.rzi.s32.f64 %d32, %da;", "d32", 0xc00c000000000000ull, 0, 0, 0xfffffffdu); /* -3.5 */
    E("cvt.rni.u32.f32 %d32, %fa;", "d32", 0xbf000000, 0, 0, 0); /* -0.5 -> -0 -> 0 */
    E("cvt.rmi.s32.f32 %d32, %fa;", "d32", 0x80000001u, 0, 0, 0xffffffffu); /* -denormal */
    E("cvt.rmi.ftz.s32.f32 %d32, %fa;", "d32", 0x80000001u, 0, 0, 0);       /* flushed */
}

static void test_int_to_float(struct kit *k)
{
    hd_test_begin(k->t, "int -> float and float -> float: rounding, overflow, .sat, .rni");
    E("cvt.rn.f32.s32 %fd, %a32;", "fd", 16777217, 0, 0, 0x4b800000);
    E("cvt.rp.f32.s32 %fd, %a32;", "fd", 16777217, 0, 0, 0x4b800001);
    E("cvt.rz.f32.s32 %fd, %a32;", "fd", 0xfeffffffu, 0, 0, 0xcb800000u);
    E("cvt.rm.f32.s32 %fd, %a32;", "fd", 0xfeffffffu, 0, 0, 0xcb800001u);
    E("cvt.rn.f32.u32 %fd, %a32;", "fd", 0xffffffffu, 0, 0, 0x4f800000);
    E("cvt.rn.f32.u64 %fd, %a64;", "fd", 0xffffffffffffffffull, 0, 0, 0x5f800000);
    E("cvt.rz.f32.u64 %fd, %a64;", "fd", 0xffffffffffffffffull, 0, 0, 0x5f7fffff);
    E("cvt.rn.f32.s64 %fd, %a64;", "fd", 0x8000000000000000ull, 0, 0, 0xdf000000u);
    E("cvt.rn.f64.s64 %dd, %a64;", "dd", 0x20000000000001ull, 0, 0, 0x4340000000000000ull);
    E("cvt.rp.f64.s64 %dd, %a64;", "dd", 0x20000000000001ull, 0, 0, 0x4340000000000001ull);
    E("cvt.rn.f64.u32 %dd, %a32;", "dd", 0xffffffffu, 0, 0, 0x41efffffffe00000ull);
    E("cvt.rn.f32.s16 %fd, %a16;", "fd", 0xffff, 0, 0, 0xbf800000u);
    E("cvt.rn.sat.f32.s32 %fd, %a32;", "fd", 5, 0, 0, ONE);
    E("cvt.rn.f32.f64 %fd, %da;", "fd", 0x3fb999999999999aull, 0, 0, 0x3dcccccd);
    E("cvt.rz.f32.f64 %fd, %da;", "fd", 0x3fb999999999999aull, 0, 0, 0x3dcccccc);
    E("cvt.rn.f32.f64 %fd, %da;", "fd", 0x7e37e43c8800759cull, 0, 0, 0x7f800000); /* 1e300 */
    E("cvt.rz.f32.f64 %fd, %da;", "fd", 0x7e37e43c8800759cull, 0, 0, 0x7f7fffff);
    E("cvt.f64.f32 %dd, %fa;", "dd", 0x3dcccccd, 0, 0, 0x3fb99999a0000000ull);
    E("cvt.f64.f32 %dd, %fa;", "dd", 0x7f800000, 0, 0, 0x7ff0000000000000ull);
    E("cvt.sat.f32.f32 %fd, %fa;", "fd", 0x40000000, 0, 0, ONE);
    E("cvt.rni.f32.f32 %fd, %fa;", "fd", 0x40200000, 0, 0, 0x40000000);
    E("cvt.rmi.f32.f32 %fd, %fa;", "fd", 0xbf000000, 0, 0, 0xbf800000u);
    E("cvt.rzi.f32.f32 %fd, %fa;", "fd", 0xbf000000, 0, 0, 0x80000000u);
    E("cvt.rpi.f64.f64 %dd, %da;", "dd", 0x3ff8000000000000ull, 0, 0, 0x4000000000000000ull);
    E("cvt.ftz.f32.f32 %fd, %fa;", "fd", 0x00000001, 0, 0, 0);
    E("cvt.f32.f32 %fd, %fa;", "fd", 0x00000001, 0, 0, 0x00000001);
}

static void test_half(struct kit *k)
{
    hd_test_begin(k->t, "f16 and bf16 conversions: rounding, overflow, subnormals, NaN, packing");
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", ONE, 0, 0, 0x3c00);
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0xc0000000u, 0, 0, 0xc000);
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x477ff000, 0, 0, 0x7c00); /* 65520 -> inf */
    E("cvt.rz.f16.f32 %d16, %fa;", "d16", 0x477ff000, 0, 0, 0x7bff); /* -> max finite */
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x477fe000, 0, 0, 0x7bff); /* 65504 */
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x3eaaaaab, 0, 0, 0x3555); /* 1/3 */
    E("cvt.rp.f16.f32 %d16, %fa;", "d16", 0x3eaaaaab, 0, 0, 0x3556);
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x33800000, 0, 0, 0x0001); /* 2^-24 */
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x33000000, 0, 0, 0x0000); /* 2^-25: tie to even */
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x33400000, 0, 0, 0x0001); /* 0.75 * 2^-24 */
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x38800000, 0, 0, 0x0400); /* 2^-14: least normal */
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0x7fc00000, 0, 0, 0x7fff);
    E("cvt.rn.f16.f32 %d16, %fa;", "d16", 0xff800000u, 0, 0, 0xfc00);
    E("cvt.f32.f16 %fd, %a16;", "fd", 0x3c00, 0, 0, ONE);
    E("cvt.f32.f16 %fd, %a16;", "fd", 0x7c00, 0, 0, 0x7f800000);
    E("cvt.f32.f16 %fd, %a16;", "fd", 0x0001, 0, 0, 0x33800000);
    E("cvt.f32.f16 %fd, %a16;", "fd", 0xc000, 0, 0, 0xc0000000u);
    E("cvt.f32.f16 %fd, %a16;", "fd", 0x7e00, 0, 0, 0x7fffffff);
    E("cvt.f64.f16 %dd, %a16;", "dd", 0x3555, 0, 0, 0x3fd5540000000000ull);
    E("cvt.rn.bf16.f32 %d16, %fa;", "d16", ONE, 0, 0, 0x3f80);
    E("cvt.rn.bf16.f32 %d16, %fa;", "d16", 0x3f808000, 0, 0, 0x3f80); /* tie: even */
    E("cvt.rn.bf16.f32 %d16, %fa;", "d16", 0x3f818000, 0, 0, 0x3f82); /* tie: even */
    E("cvt.rn.bf16.f32 %d16, %fa;", "d16", 0x3f808001, 0, 0, 0x3f81);
    E("cvt.rz.bf16.f32 %d16, %fa;", "d16", 0x3f81ffff, 0, 0, 0x3f81);
    E("cvt.f32.bf16 %fd, %a16;", "fd", 0xbf80, 0, 0, 0xbf800000u);
}

static void test_int_int_mov(struct kit *k)
{
    hd_test_begin(k->t, "int -> int: truncation, sign/zero extension, .sat; mov packing");
    E("cvt.sat.u8.s32 %d16, %a32;", "d16", 300, 0, 0, 255);
    E("cvt.sat.u8.s32 %d16, %a32;", "d16", 0xfffffffbu, 0, 0, 0);
    E("cvt.u8.s32 %d16, %a32;", "d16", 300, 0, 0, 0x2c);
    E("cvt.s8.s32 %d16, %a32;", "d16", 200, 0, 0, 0xffc8);
    E("cvt.s32.s8 %d32, %a16;", "d32", 0x80, 0, 0, 0xffffff80u);
    E("cvt.u32.u8 %d32, %a16;", "d32", 0x1ff, 0, 0, 0xff);
    E("cvt.s64.s32 %d64, %a32;", "d64", 0x80000000u, 0, 0, 0xffffffff80000000ull);
    E("cvt.u64.u32 %d64, %a32;", "d64", 0x80000000u, 0, 0, 0x80000000u);
    E("cvt.u32.u64 %d32, %a64;", "d32", 0x100000005ull, 0, 0, 5);
    E("cvt.s16.s64 %d16, %a64;", "d16", 0x12345678ull, 0, 0, 0x5678);
    E("cvt.sat.s32.s64 %d32, %a64;", "d32", 0x100000000ull, 0, 0, 0x7fffffffu);
    E("cvt.sat.s32.s64 %d32, %a64;", "d32", 0xfffffffe00000000ull, 0, 0, 0x80000000u);
    E("cvt.sat.u32.s32 %d32, %a32;", "d32", 0xffffffffu, 0, 0, 0);
    E("cvt.sat.s16.u32 %d16, %a32;", "d16", 0xffffffffu, 0, 0, 0x7fff);
    E("cvt.sat.u64.s64 %d64, %a64;", "d64", 0x8000000000000000ull, 0, 0, 0);
    E("mov.b64 %d64, {%a32, %b32};", "d64", 0x11111111, 0x22222222, 0, 0x2222222211111111ull);
    E("mov.b32 %d32, {%a16, %b16};", "d32", 0x1234, 0xabcd, 0, 0xabcd1234u);
    E("mov.b64 {%d32, %e32}, %a64;", "d32", 0x2222222211111111ull, 0, 0, 0x11111111);
    E("mov.b64 {%e32, %d32}, %a64;", "d32", 0x2222222211111111ull, 0, 0, 0x22222222);
    E("mov.b32 {%d16, _}, %a32;", "d16", 0xabcd1234u, 0, 0, 0x1234);
    E("mov.f32 %fd, 0f3F800000;", "fd", 0, 0, 0, ONE);
    E("mov.f64 %dd, 0d4000000000000000;", "dd", 0, 0, 0, 0x4000000000000000ull);
    E("mov.u32 %d32, -1;", "d32", 0, 0, 0, 0xffffffffu);
    E("mov.pred %p, %pa;", "p", 7, 0, 0, 1);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_float_to_int(&k);
    test_int_to_float(&k);
    test_half(&k);
    test_int_int_mov(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
