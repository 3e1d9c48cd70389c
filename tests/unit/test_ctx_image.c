/* SPDX-License-Identifier: MIT
 * test_ctx_image.c - a saved context's requests in Lin's layout (model/ctx/ctx_image.h,
 * model/hw/addr_map.h; thesis §2.6 Fig 2.12, §2.1), against hand-worked cases:
 *   - BP_1's TB under Occup (§2.1: 13 registers x 4 B x 32 threads = 1664 B per warp, 8 warps,
 *     1128 B of shared memory: 14440 B per TB): 8 x 13 register segments at the warps' slots,
 *     9 shared-memory requests (8 x 128 + 104), the SIMT stacks, then the 24-byte CCB entry;
 *     14440 B + stacks + 24 in total; the restore reads the CCB entry first, then the same parts;
 *   - a packed save: segments at each warp's slot in order, partial last segments, pattern
 *     vectors at the pattern area, the list not final (the restore not startable) until finish;
 *   - the CCB entries of two contexts of a launch 32 bytes apart, and of two launches apart.
 */
#include "ctx_image.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    struct hd_test_state t = {0};
    struct hd_ctx_image *m = NULL;

    hd_test_begin(&t, "BP_1 TB, Occup: 14440 bytes plus stacks and the CCB entry");
    const uint64_t stacks = 8 * (16 + 12 * 2); /* 8 warps, 2 SIMT entries each */
    HD_CHECK(&t, hd_ctx_image_begin(&m, 3, 5, 8, 13, false, 1128, stacks, 0));
    HD_CHECK_U64(&t, 0, m->lay.regs);             /* no pattern vectors */
    HD_CHECK_U64(&t, 1664, m->lay.slot_bytes);    /* 13 words x 128 B */
    HD_CHECK_U64(&t, 8 * 1664, m->lay.smem);
    HD_CHECK_U64(&t, 8 * 1664 + 1152, m->lay.stack);
    for (uint32_t w = 0; w < 8; w++)
        HD_CHECK(&t, hd_ctx_image_regs(m, w, 1664));
    HD_CHECK(&t, !m->final);
    struct hd_ctx_req r;
    HD_CHECK(&t, !hd_ctx_image_req(m, true, 0, &r)); /* no restore before the save is known */
    HD_CHECK(&t, hd_ctx_image_finish(m));
    HD_CHECK_U64(&t, 8 * 13 + 9 + 3 + 1, hd_ctx_image_nreqs(m));
    HD_CHECK_U64(&t, 14440 + stacks + 24, hd_ctx_image_bytes(m));
    HD_CHECK_U64(&t, 8 * 1664, m->part_bytes[HD_CTXP_REGS]);
    HD_CHECK_U64(&t, 1128, m->part_bytes[HD_CTXP_SMEM]);
    HD_CHECK_U64(&t, 24, m->part_bytes[HD_CTXP_CCB]);
    HD_CHECK(&t, hd_ctx_image_req(m, false, 13, &r)); /* warp 1's first segment */
    HD_CHECK_U64(&t, hd_win_context(5) + 1664, r.addr);
    HD_CHECK_U64(&t, 128, r.bytes);
    HD_CHECK(&t, hd_ctx_image_req(m, false, 8 * 13 + 8, &r)); /* the last of shared memory */
    HD_CHECK_U64(&t, hd_win_context(5) + 8 * 1664 + 1024, r.addr);
    HD_CHECK_U64(&t, 104, r.bytes);
    HD_CHECK(&t, hd_ctx_image_req(m, false, hd_ctx_image_nreqs(m) - 1, &r));
    HD_CHECK_U64(&t, hd_win_ccb_entry(3, 5), r.addr);
    HD_CHECK_U64(&t, HD_CTXP_CCB, r.part);
    HD_CHECK(&t, hd_ctx_image_req(m, true, 0, &r)); /* restore: the CCB entry first */
    HD_CHECK_U64(&t, hd_win_ccb_entry(3, 5), r.addr);
    HD_CHECK(&t, hd_ctx_image_req(m, true, 1, &r));
    HD_CHECK_U64(&t, hd_win_context(5), r.addr);
    HD_CHECK(&t, !hd_ctx_image_req(m, true, hd_ctx_image_nreqs(m), &r));

    hd_test_begin(&t, "packed: segments at the warps' slots, pattern vectors first in the area");
    HD_CHECK(&t, hd_ctx_image_begin(&m, 3, 6, 4, 70, true, 0, 4 * 16, 10));
    HD_CHECK_U64(&t, 32, m->lay.pv_bytes);        /* 70 words: two 16-byte vectors */
    HD_CHECK_U64(&t, 128, m->lay.regs);           /* 4 x 32 rounded to 128 */
    uint32_t words[32];
    for (unsigned i = 0; i < 32; i++)
        words[i] = i;
    HD_CHECK(&t, hd_ctx_image_segment(m, 0, words, 32));
    HD_CHECK(&t, hd_ctx_image_segment(m, 0, words, 12)); /* warp 0's last: 48 bytes */
    HD_CHECK(&t, hd_ctx_image_pattern(m, 0));
    HD_CHECK(&t, hd_ctx_image_segment(m, 2, words, 5));
    HD_CHECK(&t, hd_ctx_image_pattern(m, 2));
    HD_CHECK_U64(&t, 5, hd_ctx_image_nreqs(m));
    HD_CHECK(&t, hd_ctx_image_req(m, false, 1, &r));
    HD_CHECK_U64(&t, hd_win_context(6) + 128 + 128, r.addr);
    HD_CHECK_U64(&t, 48, r.bytes);
    HD_CHECK(&t, hd_ctx_image_req(m, false, 3, &r));
    HD_CHECK_U64(&t, hd_win_context(6) + 128 + 2 * 70 * 128, r.addr); /* warp 2's slot */
    HD_CHECK(&t, hd_ctx_image_req(m, false, 4, &r));
    HD_CHECK_U64(&t, hd_win_context(6) + 2 * 32, r.addr);              /* warp 2's vector */
    HD_CHECK_U64(&t, 16, r.bytes);
    HD_CHECK_U64(&t, 2, m->rec_seg_end[0]);
    HD_CHECK_U64(&t, 0, m->rec_seg_end[1]); /* no record: never read (ctx_pack.c reads only
                                               the warps that have one, in record order) */
    HD_CHECK_U64(&t, 3, m->rec_seg_end[2]);
    HD_CHECK_U64(&t, 12, m->segw[32 + 12 - 1] + 1); /* the kept words */
    HD_CHECK(&t, hd_ctx_image_finish(m));
    HD_CHECK_U64(&t, 128 + 48 + 20 + 32 + 64 + 24, hd_ctx_image_bytes(m));

    hd_test_begin(&t, "CCB entries");
    HD_CHECK_U64(&t, 32, hd_win_ccb_entry(1, 8) - hd_win_ccb_entry(1, 7));
    HD_CHECK(&t, hd_win_ccb_entry(2, 0) - hd_win_ccb_entry(1, 0) == HD_WIN_CCB_STRIDE);
    HD_CHECK(&t, hd_win_ccb_entry(0, 0) > hd_win_context(100000)); /* no overlap */
    hd_ctx_image_free(m);
    return hd_test_finish(&t);
}
