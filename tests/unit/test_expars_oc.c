/* SPDX-License-Identifier: MIT
 * test_expars_oc.c - EXPARS's operand cache (model/mech/expars/expars_oc.h; Yu et al. §3.3.7,
 * digest §2.6, §8 item 10):
 *   - direct-mapped (the paper's reading): R8 and R24 of one warp, and R8 of two warps, take the
 *     same line (Reg[3:0]); the bank is Reg[1:0];
 *   - 4-way: four registers of one set stay together; the victim is an invalid line, else the
 *     least recently used unpinned clean line, else unpinned dirty, else a pinned one;
 *   - a dirty victim is handed back for its write-back; putting the line's own register again
 *     evicts nothing; dropping a warp invalidates only its lines.
 */
#include "expars_oc.h"
#include "testutil.h"

#include <string.h>

int main(void)
{
    struct hd_test_state t;
    memset(&t, 0, sizeof t);
    struct hd_expars_oc oc;
    struct hd_expars_oc_line v;

    hd_test_begin(&t, "direct-mapped: Reg[3:0] picks the line, Reg[1:0] the bank");
    hd_expars_oc_init(&oc, 16, 4, 1);
    HD_CHECK_U64(&t, 16, oc.t.nsets);
    HD_CHECK_U64(&t, 1, hd_expars_oc_bank(&oc, 25)); /* 25 = 0b11001 */
    HD_CHECK_U64(&t, 8, hd_expars_oc_put(&oc, 3, 8, 7, true, &v));
    HD_CHECK(&t, !v.valid);
    HD_CHECK(&t, hd_expars_oc_find(&oc, 3, 8) == 8);
    HD_CHECK(&t, hd_expars_oc_find(&oc, 4, 8) == -1);
    HD_CHECK_U64(&t, 8, hd_expars_oc_put(&oc, 3, 24, 1, false, &v)); /* R24 of the same warp */
    HD_CHECK(&t, v.valid && v.dirty && v.warp == 3 && v.reg == 8 && v.ver == 7);
    HD_CHECK(&t, hd_expars_oc_find(&oc, 3, 8) == -1);
    HD_CHECK_U64(&t, 8, hd_expars_oc_put(&oc, 5, 24, 2, false, &v)); /* R24 of another warp */
    HD_CHECK(&t, v.valid && !v.dirty && v.warp == 3 && v.reg == 24);
    hd_expars_oc_put(&oc, 5, 24, 3, true, &v); /* its own register again: nothing leaves */
    HD_CHECK(&t, !v.valid);

    hd_test_begin(&t, "4-way: LRU among unpinned clean lines, then dirty, then pinned");
    hd_expars_oc_init(&oc, 16, 4, 4);
    HD_CHECK_U64(&t, 4, oc.t.nsets);
    const uint32_t regs[4] = {1, 5, 9, 13}; /* one set (mod 4) */
    for (int i = 0; i < 4; i++)
        hd_expars_oc_put(&oc, 0, regs[i], 1, i == 0, &v);
    for (int i = 0; i < 4; i++)
        HD_CHECK(&t, hd_expars_oc_find(&oc, 0, regs[i]) >= 0);
    hd_expars_oc_touch(&oc, (uint32_t)hd_expars_oc_find(&oc, 0, 5)); /* R5 recently read */
    hd_expars_oc_put(&oc, 1, 17, 1, false, &v); /* victim: R9 (clean, oldest unpinned) */
    HD_CHECK(&t, v.valid && v.reg == 9);
    oc.t.line[hd_expars_oc_find(&oc, 0, 13)].pinned = true;
    oc.t.line[hd_expars_oc_find(&oc, 0, 5)].pinned = true;
    oc.t.line[hd_expars_oc_find(&oc, 1, 17)].pinned = true;
    hd_expars_oc_put(&oc, 2, 21, 1, false, &v); /* only R1 (dirty) is unpinned */
    HD_CHECK(&t, v.valid && v.reg == 1 && v.dirty);
    oc.t.line[hd_expars_oc_find(&oc, 2, 21)].pinned = true;
    const uint32_t vi = hd_expars_oc_victim(&oc, 3, 25); /* all pinned: the oldest */
    HD_CHECK(&t, oc.t.line[vi].pinned && oc.t.line[vi].reg == 13);

    hd_test_begin(&t, "dropping a warp invalidates only its lines");
    hd_expars_oc_drop_warp(&oc, 0);
    HD_CHECK(&t, hd_expars_oc_find(&oc, 0, 5) == -1 && hd_expars_oc_find(&oc, 0, 13) == -1);
    HD_CHECK(&t, hd_expars_oc_find(&oc, 1, 17) >= 0 && hd_expars_oc_find(&oc, 2, 21) >= 0);
    return hd_test_finish(&t);
}
