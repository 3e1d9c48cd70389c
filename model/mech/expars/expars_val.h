/* SPDX-License-Identifier: MIT
 * expars_val.h - the register values EXPARS's operand cache and scratchpad-resident registers
 * hold in the model, and the checker that compares every operand read through them with the
 * functional model's register value (issue 33 item 3; docs/expars.md "Checker").
 *
 * What is carried. Each operand-cache line holds the 32 lanes of one warp register (32-bit
 * words) with a mask of the lanes it holds; each scratchpad-resident register of a warp slot
 * holds its 32 lanes. A fill copies the scratchpad copy into the line (a line that holds some
 * lanes only takes the others: a merge); a write copies, into the lanes the instruction executed
 * with, the destination's value from the functional state at the write-back; a dirty eviction
 * copies the lanes the line holds back into the scratchpad. The scratchpad copy of a fresh warp
 * is zero, as the functional model's registers are.
 *
 * Lane masks ([CHOICE], always on: they decide timing, values do not). A write of a diverged
 * warp that allocates its line writes only its executing lanes; the line holds just those, and
 * a later read that needs other lanes misses and is filled (merged) from the scratchpad
 * (`partial_fills`). Without lane masks the hardware would write back lanes it never had.
 *
 * When the values are compared (execute at issue, docs/timing.md). The functional model
 * executes an instruction when it issues, before its collector reads its operands, and may
 * overwrite a source that is also a destination. So the value an operand read must find is
 * the functional register's value just before the instruction's step: `issue` (sm_oloc.h, in
 * the issue stage before the step) takes it for every scratchpad-resident source word of the
 * instruction, keyed by the collector, together with the lanes it executes with (the SIMT
 * mask and its guard, as model/func/exec.c computes them). Every read of such a word from the
 * operand cache, at allocation or in the cycle its fill lands, compares the line's lanes with
 * it. A later instruction that wrote the register before this read would be a write-after-read
 * hazard, which the checker catches as a mismatch: a read that misses waits for its fill, and an
 * instruction issued after it (a register the allocator reuses once the read's value dies) may
 * write back first. The warp pool therefore holds an instruction that writes a scratchpad
 * register one of the warp's earlier instructions still has to read (`war_holds`,
 * hd_expars_val_war: a WAR interlock on the operand cache; [CHOICE], the paper prefetches
 * before issue and has no demand fills). A word located in the cache counts as read then (its
 * port may grant the read a few cycles later: a write in between is not seen). A write-back takes the destination's lanes
 * from the functional state then: the scoreboard lets no other writer of that register issue
 * between the instruction's issue and its write-back (WAW), so that value is this instruction's.
 *
 * Registers are named as the operand-location hook names them: physical (the register
 * allocator's), folded into the launch's register budget (regs_source.h); the kernel image's
 * read and write lists and the allocation map them back to PTX registers and words. Not
 * compared: a constant read in a register (HD_RA_REMAT: the hardware's rematerialising move
 * writes it, which the timing model does not issue) and words 2-3 of a 128-bit register
 * (counted as `unchecked`).
 */
#ifndef HD_EXPARS_VAL_H
#define HD_EXPARS_VAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_expars_sm;
struct hd_oloc_query;
struct hd_annot;
struct hd_func_kernel;

#define HD_EXPARS_VAL_WORDS 16 /* source words of one instruction (tkernel.h's bound) */

enum { HD_EXPARS_VK_CHECK, HD_EXPARS_VK_REMAT, HD_EXPARS_VK_WIDE };

struct hd_expars_val_word {
    uint16_t reg;                /* register, numbered as the hook's queries */
    uint8_t kind;                /* HD_EXPARS_VK_* */
    uint8_t word;                /* its 32-bit word in the PTX register */
    bool pending;                /* located as a miss: not read yet (its fill is under way) */
    uint32_t kreg;               /* kernel-wide PTX register */
    uint32_t v[32];              /* lane values before the step */
};

struct hd_expars_val_cu {        /* the instruction a collector holds */
    bool valid;
    uint32_t warp, pc;
    uint32_t lanes;              /* lanes it executes with */
    uint8_t n;
    struct hd_expars_val_word w[HD_EXPARS_VAL_WORDS];
};

struct hd_expars_val {
    bool values;                 /* carry values ([expars] check); lane masks always */
    uint32_t nlines, nwarps;
    uint32_t *lanes;             /* [nlines] lanes a line holds */
    uint32_t *line;              /* [nlines x 32] values (values only) */
    uint32_t *spm;               /* [nwarps x HD_EXPARS_MAX_REGS x 32] (values only) */
    uint32_t *wlanes;            /* [nwarps x HD_EXPARS_MAX_REGS] lanes its last writer executes */
    uint32_t *wreg;              /* [...] that writer's PTX register << 2 | word; UINT32_MAX none */
    struct hd_expars_val_cu *cu; /* [ncu], grown to the collectors seen */
    uint32_t ncu;
    uint16_t *unread;            /* [nwarps x HD_EXPARS_MAX_REGS] in-flight reads still to come */
    uint32_t *unread_w;          /* [nwarps] their sum per warp */
    const struct hd_func_kernel **wk; /* [nwarps] the kernel of its last issue, and its budget */
    uint32_t *wbudget;
    uint64_t checked, unchecked, partial_fills, mismatches, war_holds;
};

/* Make / free (values: carry values and check them). -1 on host memory failure. */
int hd_expars_val_init(struct hd_expars_val *v, uint32_t nlines, uint32_t nwarps, bool values);
void hd_expars_val_free(struct hd_expars_val *v);
/* Warp slot `warp` got a fresh warp: its scratchpad registers are zero, no writer recorded. */
void hd_expars_val_fresh_warp(struct hd_expars_val *v, uint32_t warp);

/* The issue stage, before the functional step (sm_oloc.h issue): snapshot the instruction's
 * scratchpad-resident source words into q->cu's entry and record its scratchpad-resident
 * destination words' lanes. Returns -1 with s->fault set on a collector beyond the host's
 * memory. */
int hd_expars_val_issue(struct hd_expars_sm *s, const struct hd_oloc_query *q);
/* Word q was located: a miss (its fill is under way: not read yet) or present (read). */
void hd_expars_val_located(struct hd_expars_sm *s, const struct hd_oloc_query *q, bool miss);
/* Would warp slot `warp`'s instruction at pc write a scratchpad register that one of its
 * in-flight instructions has not read yet (a write-after-read hazard)? Counts war_holds. */
bool hd_expars_val_war(struct hd_expars_sm *s, uint32_t warp, uint32_t pc,
                       const struct hd_annot *an);
/* The lanes the read of word q needs (its instruction's executing lanes; all if unknown). */
uint32_t hd_expars_val_need(const struct hd_expars_sm *s, const struct hd_oloc_query *q);
/* Line i holds every lane of `need`? */
static inline bool hd_expars_val_holds(const struct hd_expars_val *v, uint32_t i, uint32_t need)
{
    return (v->lanes[i] & need) == need;
}
/* A read of word q from line i: compare its lanes with the snapshot (a mismatch sets s->fault,
 * located). */
void hd_expars_val_check(struct hd_expars_sm *s, const struct hd_oloc_query *q, uint32_t i);
/* Line i's victim (warp, reg) was dirty: its lanes go back to the scratchpad copy. */
void hd_expars_val_writeback(struct hd_expars_val *v, uint32_t i, uint32_t warp, uint32_t reg);
/* Line i now holds (warp, reg) from the scratchpad: every lane (`corrupt`: the fault injection
 * flips bits of every lane). */
void hd_expars_val_fill(struct hd_expars_val *v, uint32_t i, uint32_t warp, uint32_t reg,
                        bool corrupt);
/* Line i holds (warp, reg) partly: the missing lanes come from the scratchpad (a merge). */
void hd_expars_val_merge(struct hd_expars_val *v, uint32_t i, uint32_t warp, uint32_t reg);
/* Destination word q written into line i (alloc: the line was just allocated, it held nothing
 * of this register): its writer's lanes from the functional state. -1 with s->fault set when
 * no writer was recorded (a model bug). */
int hd_expars_val_write(struct hd_expars_sm *s, const struct hd_oloc_query *q, uint32_t i,
                        bool alloc);

#endif
