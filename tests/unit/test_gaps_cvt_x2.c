/* SPDX-License-Identifier: MIT
 * test_gaps_cvt_x2.c - the three-operand packing conversions cvt.{rn,rz}.f16x2.f32 and
 * cvt.{rn,rz}.bf16x2.f32 (what __floats2half2_rn / __floats2bfloat162_rn compile to): the front
 * end accepts `d, a, b` and the functional model packs cvt(a) into the high half and cvt(b) into
 * the low half (PTX ISA, cvt: "the value converted from input a is stored in the upper half of
 * d"). Expected bits are worked by hand from the IEEE half / bfloat16 encodings. Also checks that
 * the two-operand form with an x2 type, a missing rounding mode and a third operand on a scalar
 * cvt are rejected.
 */
#include "func_testkit.h"

#define E(code, a, b, want) KIT_EXPECT(k, code, "d32", a, b, 0, want)

static void test_pack(struct kit *k)
{
    hd_test_begin(k->t, "cvt.rn/rz.f16x2.f32 and .bf16x2.f32: a in the high half, b in the low");
    /* 1.0 -> 0x3c00, -2.0 -> 0xc000 */
    E("cvt.rn.f16x2.f32 %d32, %fa, %fb;", 0x3f800000u, 0xc0000000u, 0x3c00c000u);
    E("cvt.rn.f16x2.f32 %d32, %fb, %fa;", 0x3f800000u, 0xc0000000u, 0xc0003c00u);
    /* 1/3 -> 0x3555 (round to nearest); 65520 rounds up to infinity 0x7c00 */
    E("cvt.rn.f16x2.f32 %d32, %fa, %fb;", 0x3eaaaaabu, 0x477ff000u, 0x35557c00u);
    /* toward zero: 65520 -> largest finite 0x7bff; 1/3 -> 0x3555 */
    E("cvt.rz.f16x2.f32 %d32, %fa, %fb;", 0x477ff000u, 0x3eaaaaabu, 0x7bff3555u);
    /* 2^-24 is the least subnormal 0x0001; NaN -> canonical 0x7fff */
    E("cvt.rn.f16x2.f32 %d32, %fa, %fb;", 0x33800000u, 0x7fc00000u, 0x00017fffu);
    /* bf16: 1+2^-7+2^-23 -> 0x3f81 (above the tie), 1+3*2^-8 is a tie -> even 0x3f82 */
    E("cvt.rn.bf16x2.f32 %d32, %fa, %fb;", 0x3f808001u, 0x3f818000u, 0x3f813f82u);
    E("cvt.rz.bf16x2.f32 %d32, %fa, %fb;", 0x3f81ffffu, 0xbf800000u, 0x3f81bf80u);
    /* immediates in the f32 source slots */
    E("cvt.rn.f16x2.f32 %d32, 0f40000000, 0fBF800000;", 0, 0, 0x4000bc00u);
}

static int parses(struct kit *k, const char *code, char *err, size_t errlen)
{
    char body[512];
    snprintf(body, sizeof body,
             ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
             "\t.reg .b16 %%h<4>;\n\t.reg .b32 %%r<4>;\n\t.reg .f32 %%f<4>;\n\t%s\n\tret;\n}\n",
             code);
    char text[1024];
    snprintf(text, sizeof text, "%s%s", KIT_HEADER, body);
    struct hd_module *mod = NULL;
    int st = hd_module_load_text(k->gpu, text, strlen(text), "frag.ptx", &mod);
    if (st != HD_OK)
        snprintf(err, errlen, "%s", hd_last_error(k->gpu));
    return st == HD_OK;
}

static void test_shapes(struct kit *k)
{
    char err[1024];
    hd_test_begin(k->t, "cvt operand counts: x2 from f32 takes three, everything else two");
    HD_CHECK(k->t, parses(k, "cvt.rn.f16x2.f32 %r1, %f1, %f2;", err, sizeof err));
    HD_CHECK(k->t, parses(k, "cvt.rn.bf16x2.f32 %r1, %f1, %f2;", err, sizeof err));
    HD_CHECK(k->t, !parses(k, "cvt.rn.f16x2.f32 %r1, %f1;", err, sizeof err));
    HD_CHECK(k->t, strstr(err, "takes 3 operands") != NULL);
    HD_CHECK(k->t, !parses(k, "cvt.f16x2.f32 %r1, %f1, %f2;", err, sizeof err));
    HD_CHECK(k->t, strstr(err, "needs .rn or .rz") != NULL);
    HD_CHECK(k->t, !parses(k, "cvt.rn.f16.f32 %r1, %f1, %f2;", err, sizeof err));
    HD_CHECK(k->t, strstr(err, "takes 2 operands") != NULL);
    /* the sources are 32-bit (f32 or b32) registers, the destination 32 bits */
    HD_CHECK(k->t, parses(k, "cvt.rn.f16x2.f32 %r1, %r2, %f2;", err, sizeof err));
    HD_CHECK(k->t, !parses(k, "cvt.rn.f16x2.f32 %r1, %h2, %f2;", err, sizeof err));
    HD_CHECK(k->t, strstr(err, "does not match") != NULL);
    HD_CHECK(k->t, !parses(k, "cvt.rn.f16x2.f32 %h1, %f1, %f2;", err, sizeof err));
    HD_CHECK(k->t, strstr(err, "does not match") != NULL);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_pack(&k);
    test_shapes(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
