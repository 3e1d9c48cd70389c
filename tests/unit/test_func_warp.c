/* SPDX-License-Identifier: MIT
 * test_func_warp.c - warp-wide instructions and special registers: shfl.sync in all four modes
 * with clamps, segments and the predicate output; vote.sync all/any/uni/ballot (member masks,
 * divergent warps, negated predicates); activemask; match.any/.all; redux.sync; and %tid,
 * %ntid, %ctaid, %nctaid, %laneid, %warpid, %nwarpid, %smid, %nsmid, %lanemask_*, %gridid,
 * %clock64 in a 2-D grid of 3-D blocks.
 */
#include "func_testkit.h"

#include <string.h>

#define HEAD ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
#define REGS                                                                                       \
    "\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<16>;\n\t.reg .pred %p<8>;\n"                            \
    "\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"                                   \
    "\tmov.u32 %r1, %laneid;\n\tmul.wide.u32 %rd3, %r1, 8;\n\tadd.s64 %rd4, %rd1, %rd3;\n"       \
    "\tmad.lo.u32 %r2, %r1, 3, 1;\n"

/* store value register r with predicate p (as bit 32) at byte offset off + lane * 8 */
#define PUT(off, r, p)                                                                             \
    "\tselp.u32 %r23, 1, 0, " p ";\n\tmov.b64 %rd5, {" r ", %r23};\n"                              \
    "\tst.global.u64 [%rd4+" off "], %rd5;\n"

static uint32_t v_of(uint32_t l)
{
    return 3 * l + 1;
}

static void test_shfl(struct kit *k)
{
    hd_test_begin(k->t, "shfl.sync idx/up/down/bfly, clamps, segments, predicate output");
    static const char ptx[] = HEAD REGS
        "\tshfl.sync.idx.b32 %r3|%p1, %r2, 5, 0x1f, -1;\n" PUT("0", "%r3", "%p1")
        "\tshfl.sync.up.b32 %r3|%p1, %r2, 3, 0, -1;\n" PUT("256", "%r3", "%p1")
        "\tshfl.sync.down.b32 %r3|%p1, %r2, 4, 0x1f, -1;\n" PUT("512", "%r3", "%p1")
        "\tshfl.sync.bfly.b32 %r3|%p1, %r2, 1, 0x1f, -1;\n" PUT("768", "%r3", "%p1")
        "\tshfl.sync.down.b32 %r3|%p1, %r2, 2, 0x181f, -1;\n" PUT("1024", "%r3", "%p1")
        "\tshfl.sync.idx.b32 %r3|%p1, %r2, 3, 0x181f, -1;\n" PUT("1280", "%r3", "%p1")
        "\tshfl.sync.up.b32 %r3|%p1, %r2, 1, 0x1800, -1;\n" PUT("1536", "%r3", "%p1")
        "\tshfl.sync.bfly.b32 %r3|%p1, %r2, 16, 0x1f, -1;\n" PUT("1792", "%r3", "%p1")
        "\tshfl.sync.idx.b32 %r3|%p1, %r2, %r1, 0x1f, -1;\n" PUT("2048", "%r3", "%p1")
        "\tret;\n}\n";
    uint64_t out[9 * 32];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 32, NULL, 0, out, 9 * 32));
    unsigned bad = 0;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t seg = l & 0x18;
#define WANT(slot, val, pred) bad += out[(slot) * 32 + l] != ((uint64_t)(val) | ((uint64_t)(pred) << 32))
        WANT(0, v_of(5), 1);
        WANT(1, l >= 3 ? v_of(l - 3) : v_of(l), l >= 3);
        WANT(2, l + 4 <= 31 ? v_of(l + 4) : v_of(l), l + 4 <= 31);
        WANT(3, v_of(l ^ 1), 1);
        WANT(4, l + 2 <= (seg | 7) ? v_of(l + 2) : v_of(l), l + 2 <= (seg | 7));
        WANT(5, v_of(seg | 3), 1);
        WANT(6, l >= seg + 1 ? v_of(l - 1) : v_of(l), l >= seg + 1);
        WANT(7, v_of(l ^ 16), 1);
        WANT(8, v_of(l), 1);
#undef WANT
    }
    HD_CHECK_U64(k->t, 0, bad);
}

static void test_vote_match_redux(struct kit *k)
{
    hd_test_begin(k->t, "vote all/any/uni/ballot, member masks, divergence; match; redux");
    static const char ptx[] = HEAD REGS
        "\trem.u32 %r3, %r1, 3;\n"
        "\tsetp.eq.u32 %p1, %r3, 0;\n"
        "\tvote.sync.ballot.b32 %r4, %p1, -1;\n" PUT("0", "%r4", "%p1")
        "\tsetp.lt.u32 %p2, %r1, 32;\n"
        "\tvote.sync.all.pred %p3, %p2, -1;\n" PUT("256", "%r4", "%p3")
        "\tsetp.eq.u32 %p2, %r1, 31;\n"
        "\tvote.sync.any.pred %p3, %p2, -1;\n" PUT("512", "%r4", "%p3")
        "\tvote.sync.uni.pred %p3, %p1, -1;\n" PUT("768", "%r4", "%p3")
        "\tvote.sync.all.pred %p3, !%p1, -1;\n" PUT("1024", "%r4", "%p3")
        "\tsetp.lt.u32 %p2, %r1, 100;\n"
        "\tvote.sync.ballot.b32 %r4, %p2, 0x0000ffff;\n" PUT("1280", "%r4", "%p2")
        "\trem.u32 %r5, %r1, 4;\n"
        "\tmatch.any.sync.b32 %r6, %r5, -1;\n" PUT("1536", "%r6", "%p2")
        "\tmatch.all.sync.b32 %r6|%p3, 5, -1;\n" PUT("1792", "%r6", "%p3")
        "\tmatch.all.sync.b32 %r6|%p3, %r1, -1;\n" PUT("2048", "%r6", "%p3")
        "\tredux.sync.add.u32 %r7, %r2, -1;\n" PUT("2304", "%r7", "%p2")
        "\tsub.s32 %r8, %r1, 10;\n"
        "\tredux.sync.min.s32 %r7, %r8, -1;\n" PUT("2560", "%r7", "%p2")
        "\tredux.sync.max.u32 %r7, %r2, -1;\n" PUT("2816", "%r7", "%p2")
        "\tredux.sync.or.b32 %r7, %r2, -1;\n" PUT("3072", "%r7", "%p2")
        "\tand.b32 %r9, %r1, 1;\n"
        "\tsetp.ne.u32 %p4, %r9, 0;\n"
        "\t@%p4 bra $Lodd;\n"
        "\trem.u32 %r10, %r1, 4;\n"
        "\tsetp.eq.u32 %p5, %r10, 0;\n"
        "\tvote.ballot.b32 %r11, %p5;\n"
        "\tvote.any.pred %p6, %p5;\n"
        "\tactivemask.b32 %r12;\n"
        "\tmov.b64 %rd5, {%r11, %r12};\n"
        "\tst.global.u64 [%rd4+3328], %rd5;\n"
        "\tselp.u32 %r13, 1, 0, %p6;\n"
        "\tst.global.u32 [%rd4+3584], %r13;\n"
        "$Lodd:\n"
        "\tret;\n}\n";
    uint64_t out[15 * 32];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, ptx, 32, NULL, 0, out, 15 * 32));
    uint32_t ballot = 0, b4 = 0;
    for (uint32_t l = 0; l < 32; l++) {
        ballot |= (l % 3 == 0) << l;
        b4 |= (l % 4 == 0) << l;
    }
    unsigned bad = 0;
    for (uint32_t l = 0; l < 32; l++) {
#define WANT(slot, val, pred) bad += out[(slot) * 32 + l] != ((uint64_t)(val) | ((uint64_t)(pred) << 32))
        WANT(0, ballot, l % 3 == 0);
        WANT(1, ballot, 1);
        WANT(2, ballot, 1);
        WANT(3, ballot, 0);
        WANT(4, ballot, 0);
        WANT(5, 0x0000ffffu, 1);
        WANT(6, 0x11111111u << (l % 4), 1);
        WANT(7, 0xffffffffu, 1);
        WANT(8, 0, 0);
        WANT(9, 1520, 1);
        WANT(10, (uint32_t)-10, 1);
        WANT(11, 94, 1);
#undef WANT
        uint32_t orv = 0;
        for (uint32_t j = 0; j < 32; j++)
            orv |= v_of(j);
        bad += (uint32_t)out[12 * 32 + l] != orv;
        if (!(l & 1)) {
            bad += out[13 * 32 + l] != ((uint64_t)b4 | ((uint64_t)0x55555555u << 32));
            bad += out[14 * 32 + l] != 1;
        }
    }
    HD_CHECK_U64(k->t, 0, bad);
}

static void test_special_registers(struct kit *k)
{
    hd_test_begin(k->t, "special registers in a 2-D grid of 3-D blocks");
    static const char ptx[] = HEAD
        "\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<16>;\n"
        "\tld.param.u64 %rd1, [out];\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, %tid.z;\n"
        "\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %ntid.y;\n\tmov.u32 %r6, %ntid.z;\n"
        "\tmov.u32 %r7, %ctaid.x;\n\tmov.u32 %r8, %ctaid.y;\n\tmov.u32 %r9, %ctaid.z;\n"
        "\tmov.u32 %r10, %nctaid.x;\n\tmov.u32 %r11, %nctaid.y;\n\tmov.u32 %r12, %nctaid.z;\n"
        "\tmov.u32 %r13, %laneid;\n\tmov.u32 %r14, %warpid;\n\tmov.u32 %r15, %nwarpid;\n"
        "\tmov.u32 %r16, %smid;\n\tmov.u32 %r17, %nsmid;\n\tmov.u32 %r18, %lanemask_lt;\n"
        "\tmov.u32 %r19, %lanemask_ge;\n\tmov.u32 %r20, %lanemask_eq;\n"
        "\tmov.u64 %rd7, %gridid;\n\tcvt.u32.u64 %r21, %rd7;\n"
        "\tmov.u64 %rd2, %clock64;\n\tmov.u64 %rd3, %clock64;\n\tsub.s64 %rd4, %rd3, %rd2;\n"
        "\tcvt.u32.u64 %r22, %rd4;\n"
        /* g = ((ctaid.y * nctaid.x + ctaid.x) * 16 + (tid.z * 8 + tid.y * 4 + tid.x)) * 24 words */
        "\tmad.lo.u32 %r23, %r8, %r10, %r7;\n"
        "\tmad.lo.u32 %r24, %r3, 8, %r1;\n"
        "\tmad.lo.u32 %r24, %r2, 4, %r24;\n"
        "\tmad.lo.u32 %r25, %r23, 16, %r24;\n"
        "\tmul.lo.u32 %r25, %r25, 24;\n"
        "\tmul.wide.u32 %rd5, %r25, 4;\n"
        "\tadd.s64 %rd6, %rd1, %rd5;\n"
        "\tst.global.v4.u32 [%rd6], {%r1, %r2, %r3, %r4};\n"
        "\tst.global.v4.u32 [%rd6+16], {%r5, %r6, %r7, %r8};\n"
        "\tst.global.v4.u32 [%rd6+32], {%r9, %r10, %r11, %r12};\n"
        "\tst.global.v4.u32 [%rd6+48], {%r13, %r14, %r15, %r16};\n"
        "\tst.global.v4.u32 [%rd6+64], {%r17, %r18, %r19, %r20};\n"
        "\tst.global.v2.u32 [%rd6+80], {%r21, %r22};\n"
        "\tret;\n}\n";
    enum { N = 6 * 16 };
    uint64_t out[N * 12];
    memset(out, 0, sizeof out);
    struct hd_dim3 g = {2, 3, 1}, b = {4, 2, 2};
    KIT_OK(k, kit_run_dims(k, ptx, "k", g, b, 0, NULL, 0, out, N * 12));
    const uint32_t *w = (const uint32_t *)out;
    unsigned bad = 0;
    uint32_t gridid = w[20];
    HD_CHECK(k->t, gridid >= 1);
    for (uint32_t cy = 0; cy < 3; cy++)
        for (uint32_t cx = 0; cx < 2; cx++)
            for (uint32_t tz = 0; tz < 2; tz++)
                for (uint32_t ty = 0; ty < 2; ty++)
                    for (uint32_t tx = 0; tx < 4; tx++) {
                        uint32_t cta = cy * 2 + cx, t = tz * 8 + ty * 4 + tx;
                        const uint32_t *r = w + (cta * 16 + t) * 24;
                        uint32_t want[22] = {tx, ty, tz, 4, 2, 2, cx, cy, 0, 2, 3, 1, t, 0, 48,
                                             cta % 15, 15, (1u << t) - 1, ~((1u << t) - 1),
                                             1u << t, gridid, 1};
                        for (int i = 0; i < 21; i++)
                            bad += r[i] != want[i];
                        bad += r[21] < 1; /* %clock64 advances */
                    }
    HD_CHECK_U64(k->t, 0, bad);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_shfl(&k);
    test_vote_match_redux(&k);
    test_special_registers(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
