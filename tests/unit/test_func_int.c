/* SPDX-License-Identifier: MIT
 * test_func_int.c - integer and bit-manipulation instructions, one PTX instruction at a time,
 * against hand-computed values: wrap-around, saturation, .hi/.wide products, 24-bit multiplies,
 * division and remainder by zero and INT_MIN / -1, shifts by >= the width, bfe/bfi/prmt (every
 * mode), lop3, shf, bfind/clz/popc/brev, carry chains, dp4a/dp2a, sad, min/max, abs/neg.
 */
#include "func_testkit.h"

#define E(code, res, a, b, c, want) KIT_EXPECT(k, code, res, a, b, c, want)

static void test_add_sub_mul(struct kit *k)
{
    hd_test_begin(k->t, "add/sub/mul: wrap, saturation, .hi, .wide");
    E("add.s32 %d32, %a32, %b32;", "d32", 0x7fffffff, 1, 0, 0x80000000u);
    E("add.u16 %d16, %a16, %b16;", "d16", 0xffff, 2, 0, 1);
    E("add.s64 %d64, %a64, %b64;", "d64", 0xffffffffffffffffull, 1, 0, 0);
    E("add.sat.s32 %d32, %a32, %b32;", "d32", 0x7fffffff, 1, 0, 0x7fffffffu);
    E("add.sat.s32 %d32, %a32, %b32;", "d32", 0x80000000u, 0xffffffffu, 0, 0x80000000u);
    E("sub.sat.s32 %d32, %a32, %b32;", "d32", 0x80000000u, 1, 0, 0x80000000u);
    E("sub.s64 %d64, %a64, %b64;", "d64", 0, 1, 0, 0xffffffffffffffffull);
    E("sub.u32 %d32, %a32, 7;", "d32", 5, 0, 0, 0xfffffffeu);
    E("mul.lo.s32 %d32, %a32, %b32;", "d32", 0x10000, 0x10000, 0, 0);
    E("mul.lo.u16 %d16, %a16, %b16;", "d16", 0x100, 0x101, 0, 0x100);
    E("mul.hi.u32 %d32, %a32, %b32;", "d32", 0xffffffffu, 0xffffffffu, 0, 0xfffffffeu);
    E("mul.hi.s32 %d32, %a32, %b32;", "d32", 0xffffffffu, 0xffffffffu, 0, 0);
    E("mul.hi.s32 %d32, %a32, %b32;", "d32", 0x80000000u, 2, 0, 0xffffffffu);
    E("mul.hi.u64 %d64, %a64, %b64;", "d64", 0xffffffffffffffffull, 2, 0, 1);
    E("mul.hi.s64 %d64, %a64, %b64;", "d64", 0xffffffffffffffffull, 1, 0, 0xffffffffffffffffull);
    E("mul.hi.u16 %d16, %a16, %b16;", "d16", 0xffff, 0xffff, 0, 0xfffe);
    E("mul.wide.s32 %d64, %a32, %b32;", "d64", 0xfffffffeu, 3, 0, 0xfffffffffffffffaull);
    E("mul.wide.u32 %d64, %a32, %b32;", "d64", 0xffffffffu, 0xffffffffu, 0, 0xfffffffe00000001ull);
    E("mul.wide.u16 %d32, %a16, %b16;", "d32", 0xffff, 0xffff, 0, 0xfffe0001u);
    E("mul.wide.s16 %d32, %a16, %b16;", "d32", 0xffff, 0x7fff, 0, 0xffff8001u);
}

static void test_mad_24_sad(struct kit *k)
{
    hd_test_begin(k->t, "mad lo/hi/wide, mul24/mad24, sad");
    E("mad.lo.s32 %d32, %a32, %b32, %c32;", "d32", 3, 4, 5, 17);
    E("mad.lo.s32 %d32, %a32, %b32, %c32;", "d32", 0x7fffffff, 2, 3, 1);
    E("mad.hi.u32 %d32, %a32, %b32, %c32;", "d32", 0xffffffffu, 0xffffffffu, 1, 0xffffffffu);
    E("mad.hi.s32 %d32, %a32, %b32, %c32;", "d32", 0x80000000u, 2, 5, 4);
    E("mad.wide.s32 %d64, %a32, %b32, %c64;", "d64", 0xfffffffeu, 3, 10, 4);
    E("mad.wide.u32 %d64, %a32, %b32, %c64;", "d64", 0xffffffffu, 2, 2, 0x200000000ull);
    E("mad.hi.sat.s32 %d32, %a32, %b32, %c32;", "d32", 0x40000000, 4, 0x7fffffff, 0x7fffffff);
    E("mul24.lo.u32 %d32, %a32, %b32;", "d32", 0x01000003, 2, 0, 6);
    E("mul24.hi.u32 %d32, %a32, %b32;", "d32", 0xffffff, 0xffffff, 0, 0xfffffe00u);
    E("mul24.lo.s32 %d32, %a32, %b32;", "d32", 0x00ffffff, 2, 0, 0xfffffffeu);
    E("mad24.lo.u32 %d32, %a32, %b32, %c32;", "d32", 0xff000010, 0x10, 1, 0x101);
    E("mad24.lo.s32 %d32, %a32, %b32, %c32;", "d32", 0x00ffffff, 3, 10, 7);
    E("sad.u32 %d32, %a32, %b32, %c32;", "d32", 3, 10, 100, 107);
    E("sad.s32 %d32, %a32, %b32, %c32;", "d32", 0xfffffffdu, 4, 1, 8);
    E("sad.u16 %d16, %a16, %b16, %c16;", "d16", 0xffff, 1, 1, 0xffff);
}

static void test_div_rem(struct kit *k)
{
    hd_test_begin(k->t, "div/rem: truncation, by zero, INT_MIN / -1 (no trap)");
    E("div.u32 %d32, %a32, %b32;", "d32", 7, 2, 0, 3);
    E("div.u32 %d32, %a32, %b32;", "d32", 7, 0, 0, 0xffffffffu);
    E("div.s32 %d32, %a32, %b32;", "d32", 0xfffffff9u, 2, 0, 0xfffffffdu);
    E("div.s32 %d32, %a32, %b32;", "d32", 0x80000000u, 0xffffffffu, 0, 0x80000000u);
    E("div.s32 %d32, %a32, %b32;", "d32", 5, 0, 0, 0xffffffffu);
    E("div.s64 %d64, %a64, %b64;", "d64", 0x8000000000000000ull, 0xffffffffffffffffull, 0,
      0x8000000000000000ull);
    E("div.u64 %d64, %a64, %b64;", "d64", 100, 0, 0, 0xffffffffffffffffull);
    E("div.s16 %d16, %a16, %b16;", "d16", 0x8000, 0xffff, 0, 0x8000);
    E("rem.s32 %d32, %a32, %b32;", "d32", 0xfffffff9u, 2, 0, 0xffffffffu);
    E("rem.s32 %d32, %a32, %b32;", "d32", 5, 0, 0, 5);
    E("rem.s32 %d32, %a32, %b32;", "d32", 0x80000000u, 0xffffffffu, 0, 0);
    E("rem.u32 %d32, %a32, %b32;", "d32", 7, 0, 0, 7);
    E("rem.u64 %d64, %a64, %b64;", "d64", 1000000000001ull, 1000, 0, 1);
}

static void test_min_max_abs_neg(struct kit *k)
{
    hd_test_begin(k->t, "min/max signed vs unsigned, abs/neg incl. INT_MIN");
    E("min.s32 %d32, %a32, %b32;", "d32", 0xffffffffu, 1, 0, 0xffffffffu);
    E("min.u32 %d32, %a32, %b32;", "d32", 0xffffffffu, 1, 0, 1);
    E("max.s16 %d16, %a16, %b16;", "d16", 0xfffb, 3, 0, 3);
    E("max.u64 %d64, %a64, %b64;", "d64", 0x8000000000000000ull, 5, 0, 0x8000000000000000ull);
    E("max.s64 %d64, %a64, %b64;", "d64", 0x8000000000000000ull, 5, 0, 5);
    E("abs.s32 %d32, %a32;", "d32", 0xfffffffbu, 0, 0, 5);
    E("abs.s32 %d32, %a32;", "d32", 0x80000000u, 0, 0, 0x80000000u);
    E("abs.s16 %d16, %a16;", "d16", 0xffff, 0, 0, 1);
    E("neg.s32 %d32, %a32;", "d32", 5, 0, 0, 0xfffffffbu);
    E("neg.s64 %d64, %a64;", "d64", 1, 0, 0, 0xffffffffffffffffull);
}

static void test_bits(struct kit *k)
{
    hd_test_begin(k->t, "popc, clz, bfind, brev, bfe, bfi");
    E("popc.b32 %d32, %a32;", "d32", 0xf0f0f0f0u, 0, 0, 16);
    E("popc.b64 %d32, %a64;", "d32", 0xffffffffffffffffull, 0, 0, 64);
    E("clz.b32 %d32, %a32;", "d32", 0, 0, 0, 32);
    E("clz.b32 %d32, %a32;", "d32", 1, 0, 0, 31);
    E("clz.b64 %d32, %a64;", "d32", 1, 0, 0, 63);
    E("clz.b64 %d32, %a64;", "d32", 0x8000000000000000ull, 0, 0, 0);
    E("bfind.u32 %d32, %a32;", "d32", 0x00010000, 0, 0, 16);
    E("bfind.u32 %d32, %a32;", "d32", 0, 0, 0, 0xffffffffu);
    E("bfind.s32 %d32, %a32;", "d32", 0xffffffffu, 0, 0, 0xffffffffu);
    E("bfind.s32 %d32, %a32;", "d32", 0xffff0000u, 0, 0, 15);
    E("bfind.shiftamt.u32 %d32, %a32;", "d32", 0x00010000, 0, 0, 15);
    E("bfind.u64 %d32, %a64;", "d32", 0x100000000ull, 0, 0, 32);
    E("brev.b32 %d32, %a32;", "d32", 1, 0, 0, 0x80000000u);
    E("brev.b32 %d32, %a32;", "d32", 0x12345678, 0, 0, 0x1e6a2c48);
    E("brev.b64 %d64, %a64;", "d64", 1, 0, 0, 0x8000000000000000ull);
    E("bfe.u32 %d32, %a32, %b32, %c32;", "d32", 0x12345678, 4, 8, 0x67);
    E("bfe.s32 %d32, %a32, %b32, %c32;", "d32", 0x000000f0, 4, 4, 0xffffffffu);
    E("bfe.s32 %d32, %a32, %b32, %c32;", "d32", 0x00000070, 4, 4, 7);
    E("bfe.u32 %d32, %a32, %b32, %c32;", "d32", 0xffffffffu, 32, 8, 0);
    E("bfe.u32 %d32, %a32, %b32, %c32;", "d32", 0xffffffffu, 4, 0, 0);
    E("bfe.u32 %d32, %a32, %b32, %c32;", "d32", 0xf0000000u, 28, 16, 0xf);
    E("bfe.s32 %d32, %a32, %b32, %c32;", "d32", 0x80000000u, 40, 8, 0xffffffffu);
    E("bfe.s32 %d32, %a32, %b32, %c32;", "d32", 0x80000000u, 28, 16, 0xfffffff8u);
    E("bfe.u64 %d64, %a64, %b32, %c32;", "d64", 0xabcd000000000000ull, 48, 16, 0xabcd);
    E("bfe.u32 %d32, %a32, %b32, %c32;", "d32", 0x12345678, 0x104, 0x108, 0x67); /* low bytes only */
    E("bfi.b32 %d32, %a32, %b32, 8, 8;", "d32", 0xff, 0x12345678, 0, 0x1234ff78);
    E("bfi.b32 %d32, %a32, %b32, 8, 0;", "d32", 0xff, 0x12345678, 0, 0x12345678);
    E("bfi.b32 %d32, %a32, %b32, 28, 8;", "d32", 0xff, 0x12345678, 0, 0xf2345678u);
    E("bfi.b32 %d32, %a32, %b32, 32, 8;", "d32", 0xff, 0x12345678, 0, 0x12345678);
    E("bfi.b64 %d64, %a64, %b64, 60, 8;", "d64", 0xff, 0, 0, 0xf000000000000000ull);
}

static void test_prmt(struct kit *k)
{
    hd_test_begin(k->t, "prmt: generic (with sign replication) and every mode");
    const uint64_t a = 0x33221100, b = 0x77665544;
    E("prmt.b32 %d32, %a32, %b32, %c32;", "d32", a, b, 0x3210, 0x33221100);
    E("prmt.b32 %d32, %a32, %b32, %c32;", "d32", a, b, 0x7654, 0x77665544);
    E("prmt.b32 %d32, %a32, %b32, %c32;", "d32", a, b, 0x0123, 0x00112233);
    E("prmt.b32 %d32, %a32, %b32, %c32;", "d32", 0x00008000, 0, 0x0009, 0x000000ff);
    E("prmt.b32 %d32, %a32, %b32, %c32;", "d32", 0x00007f00, 0, 0x0009, 0);
    E("prmt.b32.f4e %d32, %a32, %b32, %c32;", "d32", a, b, 1, 0x44332211);
    E("prmt.b32.b4e %d32, %a32, %b32, %c32;", "d32", a, b, 1, 0x66770011);
    E("prmt.b32.rc8 %d32, %a32, %b32, %c32;", "d32", a, b, 2, 0x22222222);
    E("prmt.b32.ecl %d32, %a32, %b32, %c32;", "d32", a, b, 2, 0x33222222);
    E("prmt.b32.ecr %d32, %a32, %b32, %c32;", "d32", a, b, 1, 0x11111100);
    E("prmt.b32.rc16 %d32, %a32, %b32, %c32;", "d32", a, b, 1, 0x33223322);
}

static void test_logic_shift(struct kit *k)
{
    hd_test_begin(k->t, "and/or/xor/not/cnot/lop3, shl/shr by >= width, shf clamp/wrap");
    E("and.b32 %d32, %a32, %b32;", "d32", 0xff00ff00u, 0x0ff00ff0, 0, 0x0f000f00);
    E("or.b64 %d64, %a64, %b64;", "d64", 0xf000000000000000ull, 1, 0, 0xf000000000000001ull);
    E("xor.b16 %d16, %a16, %b16;", "d16", 0xffff, 0x00f0, 0, 0xff0f);
    E("not.b32 %d32, %a32;", "d32", 0, 0, 0, 0xffffffffu);
    E("cnot.b32 %d32, %a32;", "d32", 0, 0, 0, 1);
    E("cnot.b32 %d32, %a32;", "d32", 5, 0, 0, 0);
    E("and.pred %p, %pa, %pb;", "p", 1, 0, 0, 0);
    E("or.pred %p, %pa, %pb;", "p", 1, 0, 0, 1);
    E("xor.pred %p, %pa, %pb;", "p", 1, 1, 0, 0);
    E("not.pred %p, %pa;", "p", 0, 0, 0, 1);
    E("lop3.b32 %d32, %a32, %b32, %c32, 0x96;", "d32", 0xf0f0f0f0u, 0xcccccccc, 0xaaaaaaaa,
      0xf0f0f0f0u ^ 0xccccccccu ^ 0xaaaaaaaau);
    E("lop3.b32 %d32, %a32, %b32, %c32, 0xe8;", "d32", 0xf0f0f0f0u, 0xcccccccc, 0xaaaaaaaa,
      0xe8e8e8e8u);
    E("lop3.b32 %d32, %a32, %b32, %c32, 0xf0;", "d32", 0x12345678, 1, 2, 0x12345678);
    E("lop3.b32 %d32, %a32, %b32, %c32, 0xcc;", "d32", 1, 0x12345678, 2, 0x12345678);
    E("lop3.b32 %d32, %a32, %b32, %c32, 0xaa;", "d32", 1, 2, 0x12345678, 0x12345678);
    E("shl.b32 %d32, %a32, %b32;", "d32", 1, 31, 0, 0x80000000u);
    E("shl.b32 %d32, %a32, %b32;", "d32", 1, 32, 0, 0);
    E("shl.b64 %d64, %a64, %b32;", "d64", 1, 64, 0, 0);
    E("shl.b16 %d16, %a16, %b32;", "d16", 0x8001, 1, 0, 2);
    E("shr.u32 %d32, %a32, %b32;", "d32", 0x80000000u, 40, 0, 0);
    E("shr.s32 %d32, %a32, %b32;", "d32", 0x80000000u, 40, 0, 0xffffffffu);
    E("shr.s32 %d32, %a32, %b32;", "d32", 0x80000000u, 4, 0, 0xf8000000u);
    E("shr.u32 %d32, %a32, %b32;", "d32", 0x80000000u, 4, 0, 0x08000000u);
    E("shr.s16 %d16, %a16, %b32;", "d16", 0x8000, 20, 0, 0xffff);
    E("shr.b64 %d64, %a64, %b32;", "d64", 0x8000000000000000ull, 63, 0, 1);
    E("shf.l.wrap.b32 %d32, %a32, %b32, %c32;", "d32", 0x80000001u, 1, 4, 0x18);
    E("shf.l.wrap.b32 %d32, %a32, %b32, %c32;", "d32", 0x80000001u, 1, 36, 0x18);
    E("shf.l.clamp.b32 %d32, %a32, %b32, %c32;", "d32", 0x80000001u, 1, 36, 0x80000001u);
    E("shf.r.wrap.b32 %d32, %a32, %b32, %c32;", "d32", 0x80000001u, 1, 4, 0x18000000);
    E("shf.r.clamp.b32 %d32, %a32, %b32, %c32;", "d32", 0x80000001u, 1, 40, 1);
}

static void test_carry_dp(struct kit *k)
{
    hd_test_begin(k->t, "carry chains (add.cc/addc/sub.cc/subc/mad.cc/madc), dp4a/dp2a");
    E("add.cc.u32 %e32, %a32, %b32;\n\taddc.u32 %d32, 0, 0;", "d32", 0xffffffffu, 1, 0, 1);
    E("add.cc.u32 %e32, %a32, %b32;\n\taddc.u32 %d32, 0, 0;", "d32", 0xfffffffeu, 1, 0, 0);
    /* a 64-bit add from 32-bit halves: (0x1ffffffff + 1) high word */
    E("add.cc.u32 %e32, %a32, 1;\n\taddc.cc.u32 %d32, %b32, 0;", "d32", 0xffffffffu, 1, 0, 2);
    E("sub.cc.u32 %e32, %a32, %b32;\n\tsubc.u32 %d32, 5, 1;", "d32", 0, 1, 0, 3);
    E("sub.cc.u32 %e32, %a32, %b32;\n\tsubc.u32 %d32, 5, 1;", "d32", 2, 1, 0, 4);
    E("add.cc.u64 %e64, %a64, %b64;\n\taddc.u64 %d64, 0, 0;", "d64", 0xffffffffffffffffull, 1, 0, 1);
    E("mad.lo.cc.u32 %e32, %a32, %b32, %c32;\n\tmadc.hi.u32 %d32, %a32, %b32, 0;", "d32",
      0x80000001u, 2, 0xffffffffu, 2);
    E("dp4a.u32.u32 %d32, %a32, %b32, %c32;", "d32", 0x01020304, 0x01010101, 10, 20);
    E("dp4a.s32.s32 %d32, %a32, %b32, %c32;", "d32", 0xff020304u, 0x02020202, 0, 16);
    E("dp4a.s32.u32 %d32, %a32, %b32, %c32;", "d32", 0xff000000u, 0xff000000u, 0,
      0xffffff01u); /* -1 * 255 */
    E("dp2a.lo.u32.u32 %d32, %a32, %b32, %c32;", "d32", 0x00020003, 0x04030201, 1, 8);
    E("dp2a.hi.u32.u32 %d32, %a32, %b32, %c32;", "d32", 0x00020003, 0x04030201, 0, 17);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_add_sub_mul(&k);
    test_mad_24_sad(&k);
    test_div_rem(&k);
    test_min_max_abs_neg(&k);
    test_bits(&k);
    test_prmt(&k);
    test_logic_shift(&k);
    test_carry_dp(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
