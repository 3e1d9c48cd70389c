/* SPDX-License-Identifier: MIT
 * test_expars_val.c - the values EXPARS's operand cache and scratchpad registers carry and the
 * checker's comparison (model/mech/expars/expars_val.h; issue 33 item 3):
 *   - a fill copies the scratchpad register's 32 lanes into the line (every lane held); the
 *     fault injection flips bits of every lane;
 *   - a write of a diverged warp into a line it allocates holds only the lanes it executed with,
 *     taken from the functional registers (word 0 or 1 of a 64-bit register); a read needing
 *     other lanes is not a hit; a merge takes the missing lanes from the scratchpad;
 *   - a dirty eviction writes back only the lanes the line holds;
 *   - the check compares the lanes the reader executes with against the snapshot and names the
 *     first lane that differs, with both values; a remat word is not compared;
 *   - a read located as a miss counts as unread until it is located present (the WAR
 *     interlock's count), and a fresh warp forgets everything.
 */
#include "expars_sm.h"
#include "sm_oloc.h"
#include "testutil.h"
#include "warp.h"

#include <stdlib.h>
#include <string.h>

static size_t at(uint32_t w, uint32_t r, uint32_t l)
{
    return ((size_t)w * HD_EXPARS_MAX_REGS + r) * 32 + l;
}

int main(void)
{
    struct hd_test_state t;
    memset(&t, 0, sizeof t);
    static struct hd_expars_sm s; /* (large: static) */
    struct hd_expars_val *v = &s.val;
    s.nwarps = 2;
    s.id = 3;

    hd_test_begin(&t, "fill: the scratchpad register's lanes, all held; the fault flips them");
    HD_CHECK(&t, hd_expars_val_init(v, 4, 2, true) == 0);
    for (uint32_t l = 0; l < 32; l++)
        v->spm[at(1, 20, l)] = 1000 + l;
    hd_expars_val_fill(v, 1, 1, 20, false);
    HD_CHECK_U64(&t, 0xffffffffu, v->lanes[1]);
    HD_CHECK_U64(&t, 1007, v->line[1 * 32 + 7]);
    HD_CHECK(&t, hd_expars_val_holds(v, 1, 0xffffffffu));
    hd_expars_val_fill(v, 2, 1, 20, true);
    HD_CHECK_U64(&t, 1007u ^ 0x5a5a5a5au, v->line[2 * 32 + 7]);

    hd_test_begin(&t, "write of a diverged warp: its lanes from the functional registers");
    uint64_t regs[8 * 32];
    memset(regs, 0, sizeof regs);
    for (uint32_t l = 0; l < 32; l++)
        regs[5 * 32 + l] = (uint64_t)(0xab00 + l) << 32 | (0xcd00 + l); /* a 64-bit %rd5 */
    struct hd_func_warp fw;
    memset(&fw, 0, sizeof fw);
    fw.regs = regs;
    fw.nregs = 8;
    struct hd_oloc_query q;
    memset(&q, 0, sizeof q);
    q.warp = 1;
    q.reg = 21;
    q.pc = 9;
    q.dst = true;
    q.fw = &fw;
    HD_CHECK(&t, hd_expars_val_write(&s, &q, 3, true) == -1); /* no writer recorded: located */
    HD_CHECK(&t, strstr(s.fault, "no issued instruction writes it") != NULL);
    s.fault[0] = '\0';
    v->wreg[1 * HD_EXPARS_MAX_REGS + 21] = 5u << 2 | 1u; /* word 1 of %rd5 */
    v->wlanes[1 * HD_EXPARS_MAX_REGS + 21] = 0x0000ffffu;
    HD_CHECK(&t, hd_expars_val_write(&s, &q, 3, true) == 0);
    HD_CHECK_U64(&t, 0x0000ffffu, v->lanes[3]);
    HD_CHECK_U64(&t, 0xab04, v->line[3 * 32 + 4]);
    HD_CHECK(&t, hd_expars_val_holds(v, 3, 0x00000f0fu));
    HD_CHECK(&t, !hd_expars_val_holds(v, 3, 0x00010000u));

    hd_test_begin(&t, "dirty eviction writes back the lanes held; a merge fills the others");
    for (uint32_t l = 0; l < 32; l++)
        v->spm[at(1, 21, l)] = 77;
    hd_expars_val_writeback(v, 3, 1, 21);
    HD_CHECK_U64(&t, 0xab02, v->spm[at(1, 21, 2)]);
    HD_CHECK_U64(&t, 77, v->spm[at(1, 21, 20)]);
    v->spm[at(1, 21, 20)] = 88;
    hd_expars_val_merge(v, 3, 1, 21);
    HD_CHECK_U64(&t, 0xffffffffu, v->lanes[3]);
    HD_CHECK_U64(&t, 88, v->line[3 * 32 + 20]);
    HD_CHECK_U64(&t, 0xab02, v->line[3 * 32 + 2]); /* the written lanes win */
    HD_CHECK_U64(&t, 1, v->partial_fills);

    hd_test_begin(&t, "check: the reader's lanes against its snapshot, the first difference named");
    hd_expars_val_free(v);
    HD_CHECK(&t, hd_expars_val_init(v, 4, 2, true) == 0);
    v->cu = calloc(2, sizeof *v->cu);
    HD_CHECK(&t, v->cu != NULL);
    v->ncu = 2;
    struct hd_expars_val_cu *e = &v->cu[1];
    e->valid = true;
    e->warp = 1;
    e->pc = 9;
    e->lanes = 0x000000f0u; /* lanes 4-7 execute */
    e->n = 2;
    e->w[0].reg = 21;
    e->w[0].kind = HD_EXPARS_VK_CHECK;
    e->w[0].kreg = 5;
    e->w[1].reg = 22;
    e->w[1].kind = HD_EXPARS_VK_REMAT;
    for (uint32_t l = 0; l < 32; l++) {
        e->w[0].v[l] = 500 + l;
        v->line[2 * 32 + l] = l >= 4 && l < 8 ? 500 + l : 0; /* only lanes 4-7 agree */
    }
    v->lanes[2] = 0xffffffffu;
    q.dst = false;
    q.cu = 1;
    q.now = 1234;
    HD_CHECK_U64(&t, 0x000000f0u, hd_expars_val_need(&s, &q));
    hd_expars_val_check(&s, &q, 2);
    HD_CHECK(&t, s.fault[0] == '\0');
    HD_CHECK_U64(&t, 1, v->checked);
    q.reg = 22; /* a remat word: not compared */
    hd_expars_val_check(&s, &q, 2);
    HD_CHECK_U64(&t, 1, v->unchecked);
    q.reg = 21;
    v->line[2 * 32 + 6] = 0xdead;
    hd_expars_val_check(&s, &q, 2);
    HD_CHECK(&t, strstr(s.fault, "SM 3 warp slot 1") != NULL);
    HD_CHECK(&t, strstr(s.fault, "register 21") != NULL && strstr(s.fault, "PC 9") != NULL);
    HD_CHECK(&t, strstr(s.fault, "cycle 1234: lane 6") != NULL);
    HD_CHECK(&t, strstr(s.fault, "holds 0x0000dead, the functional model's value is 0x000001fa") !=
                     NULL);
    HD_CHECK_U64(&t, 1, v->mismatches);
    q.pc = 10; /* another instruction in the collector: no snapshot, every lane needed */
    HD_CHECK_U64(&t, 0xffffffffu, hd_expars_val_need(&s, &q));
    s.fault[0] = '\0';

    hd_test_begin(&t, "a miss is unread until located present; a fresh warp forgets");
    q.pc = 9;
    hd_expars_val_located(&s, &q, true);
    hd_expars_val_located(&s, &q, true); /* (located again while its fill is under way) */
    HD_CHECK_U64(&t, 1, v->unread[1 * HD_EXPARS_MAX_REGS + 21]);
    HD_CHECK_U64(&t, 1, v->unread_w[1]);
    hd_expars_val_located(&s, &q, false);
    HD_CHECK_U64(&t, 0, v->unread[1 * HD_EXPARS_MAX_REGS + 21]);
    HD_CHECK_U64(&t, 0, v->unread_w[1]);
    hd_expars_val_located(&s, &q, true);
    v->spm[at(1, 21, 3)] = 9;
    hd_expars_val_fresh_warp(v, 1);
    HD_CHECK_U64(&t, 0, v->unread_w[1]);
    HD_CHECK_U64(&t, 0, v->spm[at(1, 21, 3)]);
    HD_CHECK(&t, !v->cu[1].valid);
    HD_CHECK_U64(&t, UINT32_MAX, v->wreg[1 * HD_EXPARS_MAX_REGS + 21]);
    hd_expars_val_free(v);

    return hd_test_finish(&t);
}
