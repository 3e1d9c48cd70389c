/* SPDX-License-Identifier: MIT
 * test_gaps_warp_tiles.c - warp-wide .sync instructions whose member mask differs between lanes,
 * as cooperative_groups::tiled_partition<8> writes them (each tile passes 0xff << its first
 * lane): vote.sync ballot/all/any/uni, match.any/.all.sync and redux.sync work within each
 * lane's own mask. Expected values are worked out per tile by hand rules (lane % 3, lane / 8).
 */
#include "func_testkit.h"

#define PTX                                                                                        \
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"                                      \
    "\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<16>;\n\t.reg .pred %p<8>;\n"                            \
    "\tld.param.u64 %rd1, [out];\n"                                                                \
    "\tmov.u32 %r1, %laneid;\n\tmul.wide.u32 %rd3, %r1, 8;\n\tadd.s64 %rd4, %rd1, %rd3;\n"       \
    "\tand.b32 %r3, %r1, 24;\n\tmov.u32 %r5, 255;\n\tshl.b32 %r4, %r5, %r3;\n"                    \
    "\trem.u32 %r6, %r1, 3;\n\tsetp.eq.u32 %p1, %r6, 0;\n"                                         \
    "\tvote.sync.ballot.b32 %r7, %p1, %r4;\n"                                                      \
    "\tvote.sync.all.pred %p2, %p1, %r4;\n\tselp.u32 %r8, 1, 0, %p2;\n"                            \
    "\tvote.sync.any.pred %p2, %p1, %r4;\n\tselp.u32 %r9, 2, 0, %p2;\n"                            \
    "\tsetp.lt.u32 %p3, %r1, 12;\n"                                                                \
    "\tvote.sync.uni.pred %p2, %p3, %r4;\n\tselp.u32 %r10, 4, 0, %p2;\n"                           \
    "\tor.b32 %r8, %r8, %r9;\n\tor.b32 %r8, %r8, %r10;\n"                                          \
    "\tmov.b64 %rd5, {%r7, %r8};\n\tst.global.u64 [%rd4], %rd5;\n"                                 \
    "\tmatch.any.sync.b32 %r11, %r6, %r4;\n"                                                       \
    "\tshr.u32 %r12, %r1, 3;\n"                                                                    \
    "\tmatch.all.sync.b32 %r13|%p4, %r12, %r4;\n\tselp.u32 %r14, 1, 0, %p4;\n"                     \
    "\tmatch.all.sync.b32 %r15|%p5, %r6, %r4;\n\tselp.u32 %r16, 2, 0, %p5;\n"                      \
    "\tor.b32 %r14, %r14, %r16;\n"                                                                 \
    "\tmov.b64 %rd5, {%r11, %r13};\n\tst.global.u64 [%rd4+256], %rd5;\n"                           \
    "\tmad.lo.u32 %r17, %r1, 3, 1;\n"                                                              \
    "\tredux.sync.add.u32 %r18, %r17, %r4;\n"                                                      \
    "\tredux.sync.max.u32 %r19, %r17, %r4;\n"                                                      \
    "\tmov.b64 %rd5, {%r18, %r19};\n\tst.global.u64 [%rd4+512], %rd5;\n"                           \
    "\tmov.b64 %rd5, {%r14, %r15};\n\tst.global.u64 [%rd4+768], %rd5;\n"                           \
    "\tret;\n}\n"

static void test_tiles(struct kit *k)
{
    hd_test_begin(k->t, "vote/match/redux .sync with a different member mask per tile of 8");
    uint64_t out[4 * 32];
    memset(out, 0, sizeof out);
    KIT_OK(k, kit_run(k, PTX, 32, NULL, 0, out, 4 * 32));
    unsigned bad = 0;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t base = l & 24, tile = 0xffu << base, ballot = 0, same3 = 0, sum = 0, mx = 0;
        uint32_t lt12 = 0;
        for (uint32_t j = base; j < base + 8; j++) {
            ballot |= (uint32_t)(j % 3 == 0) << j;
            same3 |= (uint32_t)(j % 3 == l % 3) << j;
            lt12 |= (uint32_t)(j < 12) << j;
            sum += 3 * j + 1;
            mx = 3 * j + 1 > mx ? 3 * j + 1 : mx;
        }
        uint32_t flags = (ballot == tile) | (ballot != 0) << 1 | (lt12 == 0 || lt12 == tile) << 2;
        uint64_t want[4] = {
            (uint64_t)flags << 32 | ballot,
            (uint64_t)tile << 32 | same3, /* match.all over lane / 8: every tile agrees */
            (uint64_t)mx << 32 | sum,
            (uint64_t)0 << 32 | 1u,       /* match.all over lane % 3: never within a tile */
        };
        for (int s = 0; s < 4; s++)
            if (out[s * 32 + l] != want[s] && bad++ < 8)
                fprintf(stderr, "    lane %u slot %d: 0x%016llx, want 0x%016llx\n", l, s,
                        (unsigned long long)out[s * 32 + l], (unsigned long long)want[s]);
    }
    HD_CHECK_U64(k->t, 0, bad);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_tiles(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
