/* SPDX-License-Identifier: MIT
 * test_liveness.c - per-PC liveness and the divergence-aware live set (Lin §2.3) on hand-built
 * kernels with hand-computed answers, the operand roles of defuse, a located error on bad IR, and
 * a differential check against a naive instruction-level fixpoint on every PTX file of the tree.
 */
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "defuse.h"
#include "ir_build.h"
#include "liveness.h"
#include "ptx_corpus.h"
#include "testutil.h"

/* {==== Helpers ==== */
struct built {
    struct hd_cfg *cfg;
    struct hd_liveness *lv;
};

static struct built build(struct hd_test_state *t, const struct hd_func *f)
{
    struct built b = { hd_cfg_build(f), NULL };
    char err[256];
    HD_CHECK(t, b.cfg != NULL);
    if (b.cfg) {
        b.lv = hd_liveness_build(f, b.cfg, err, sizeof(err));
        if (!HD_CHECK(t, b.lv != NULL))
            fprintf(stderr, "  %s\n", err);
    }
    return b;
}

static void unbuild(struct built *b)
{
    hd_liveness_free(b->lv);
    hd_cfg_free(b->cfg);
}

/* The set given by a -1-terminated list equals the live set (in or out) at pc exactly. */
static bool same_set(const struct hd_liveness *lv, uint32_t pc, bool out, const int32_t *want)
{
    for (uint32_t r = 0; r < lv->nregs; r++) {
        bool w = false;
        for (const int32_t *p = want; *p >= 0; p++)
            w |= (uint32_t)*p == r;
        bool got = out ? hd_liveness_live_out(lv, pc, r) : hd_liveness_live_in(lv, pc, r);
        if (w != got) {
            fprintf(stderr, "  PC %u live-%s: register %s is %s\n", pc, out ? "out" : "in",
                    lv->func->regs[r].name, got ? "live, expected dead" : "dead, expected live");
            return false;
        }
    }
    return true;
}
#define SET(...) ((const int32_t[]){ __VA_ARGS__, -1 })
#define EXPECT_IN(t, lv, pc, ...) HD_CHECK(t, same_set(lv, pc, false, SET(__VA_ARGS__)))
#define EXPECT_OUT(t, lv, pc, ...) HD_CHECK(t, same_set(lv, pc, true, SET(__VA_ARGS__)))

static bool div_has(const struct hd_liveness *lv, uint32_t pc, int32_t reg)
{
    enum hd_rclass c = hd_liveness_class(lv, (uint32_t)reg);
    uint64_t row[64] = { 0 };
    hd_liveness_divergent_row(lv, pc, c, row);
    uint32_t i = lv->index[reg];
    return (row[i >> 6] >> (i & 63)) & 1u;
}
/* }==== */

/* {==== Hand-built kernels ==== */
static void test_straight_line(struct hd_test_state *t)
{
    hd_test_begin(t, "straight line, 64-bit words");
    struct irb b;
    irb_init(&b, "line", true);
    int32_t rd0 = irb_reg(&b, "%rd0", HD_T_B64), r0 = irb_reg(&b, "%r0", HD_T_B32);
    int32_t r1 = irb_reg(&b, "%r1", HD_T_B32), r2 = irb_reg(&b, "%r2", HD_T_B32);
    irb_reg(&b, "%r3", HD_T_B32); /* declared, never named */
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opsreg(HD_SREG_TID, 0));          /* 1 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r1), opi(1));                          /* 2 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r2), opr(r0), opr(r1));                /* 3 */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd0, 4), opr(r2))->space = HD_SPACE_GLOBAL; /* 4 */
    IRB0(&b, HD_OP_EXIT);                                                   /* 5 */
    struct built x = build(t, &b.f);
    if (!x.lv)
        return;
    const struct hd_liveness *lv = x.lv;
    EXPECT_IN(t, lv, 0, -1);
    EXPECT_IN(t, lv, 1, rd0);
    EXPECT_IN(t, lv, 2, rd0, r0);
    EXPECT_IN(t, lv, 3, rd0, r0, r1);
    EXPECT_OUT(t, lv, 3, rd0, r2);
    EXPECT_IN(t, lv, 4, rd0, r2);
    EXPECT_OUT(t, lv, 4, -1);
    EXPECT_IN(t, lv, 5, -1);
    HD_CHECK_U64(t, 0, hd_liveness_words_in(lv, 0));
    HD_CHECK_U64(t, 2, hd_liveness_words_in(lv, 1));
    HD_CHECK_U64(t, 4, hd_liveness_words_in(lv, 3));
    HD_CHECK_U64(t, 3, hd_liveness_words_out(lv, 3));
    HD_CHECK_U64(t, 4, lv->max_words);
    HD_CHECK(t, !hd_liveness_tracked(lv, 4)); /* %r3 */
    HD_CHECK_U64(t, 4, lv->n[HD_RC_DATA]);
    HD_CHECK_U64(t, 0, lv->n[HD_RC_PRED]);
    HD_CHECK(t, !hd_liveness_may_diverge(lv, 3));
    HD_CHECK_U64(t, 4, hd_liveness_divergent_words(lv, 3));
    unbuild(&x);
}

static void test_loop_carried(struct hd_test_state *t)
{
    hd_test_begin(t, "loop-carried values");
    struct irb b;
    irb_init(&b, "loop", true);
    int32_t rd0 = irb_reg(&b, "%rd0", HD_T_B64), r0 = irb_reg(&b, "%r0", HD_T_B32);
    int32_t r1 = irb_reg(&b, "%r1", HD_T_B32), p0 = irb_reg(&b, "%p0", HD_T_PRED);
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opi(0));                          /* 1 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r1), opi(0));                          /* 2 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r1), opr(r1), opr(r0));                /* 3: loop */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r0), opr(r0), opi(1));                 /* 4 */
    IRB(&b, HD_OP_SETP, HD_T_S32, opr(p0), opr(r0), opi(10))->cmp = HD_CMP_LT; /* 5 */
    IRB_G(&b, p0, false, HD_OP_BRA, HD_T_NONE, opl(3));                     /* 6 */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd0, 0), opr(r1))->space = HD_SPACE_GLOBAL; /* 7 */
    IRB0(&b, HD_OP_EXIT);                                                   /* 8 */
    struct built x = build(t, &b.f);
    if (!x.lv)
        return;
    const struct hd_liveness *lv = x.lv;
    EXPECT_IN(t, lv, 1, rd0);
    EXPECT_IN(t, lv, 2, rd0, r0);          /* r1 is written at 2: not live before */
    EXPECT_IN(t, lv, 3, rd0, r0, r1);      /* both carried around the back edge */
    EXPECT_IN(t, lv, 5, rd0, r0, r1);
    EXPECT_OUT(t, lv, 5, rd0, r0, r1, p0);
    EXPECT_IN(t, lv, 6, rd0, r0, r1, p0);
    EXPECT_OUT(t, lv, 6, rd0, r0, r1);     /* union of the loop head and the exit */
    EXPECT_IN(t, lv, 7, rd0, r1);          /* r0 dies with the loop */
    HD_CHECK_U64(t, 1, hd_liveness_preds_in(lv, 6));
    HD_CHECK_U64(t, 0, hd_liveness_preds_in(lv, 5));
    /* threads that left the loop wait at PC 7 while the others iterate */
    HD_CHECK(t, hd_liveness_may_diverge(lv, 3));
    HD_CHECK(t, !hd_liveness_may_diverge(lv, 7));
    HD_CHECK(t, !hd_liveness_may_diverge(lv, 1));
    HD_CHECK(t, div_has(lv, 3, r1) && div_has(lv, 3, r0) && div_has(lv, 3, rd0));
    HD_CHECK(t, !div_has(lv, 3, p0));
    unbuild(&x);
}

/* Lin Fig 2.5: A diverges into B and C, which reconverge at D. */
static void test_divergent_if_else(struct hd_test_state *t)
{
    hd_test_begin(t, "divergent if/else (Lin Fig 2.5)");
    struct irb b;
    irb_init(&b, "ifelse", true);
    int32_t rd0 = irb_reg(&b, "%rd0", HD_T_B64), r0 = irb_reg(&b, "%r0", HD_T_B32);
    int32_t r1 = irb_reg(&b, "%r1", HD_T_B32), r2 = irb_reg(&b, "%r2", HD_T_B32);
    int32_t r3 = irb_reg(&b, "%r3", HD_T_B32), r6 = irb_reg(&b, "%r6", HD_T_B32);
    int32_t p0 = irb_reg(&b, "%p0", HD_T_PRED);
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 A */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opsreg(HD_SREG_TID, 0));          /* 1 */
    IRB(&b, HD_OP_SETP, HD_T_U32, opr(p0), opr(r0), opi(16))->cmp = HD_CMP_LT; /* 2 */
    IRB(&b, HD_OP_LD, HD_T_U32, opr(r1), opa(rd0, 0))->space = HD_SPACE_GLOBAL; /* 3 */
    IRB(&b, HD_OP_LD, HD_T_U32, opr(r2), opa(rd0, 4))->space = HD_SPACE_GLOBAL; /* 4 */
    IRB_G(&b, p0, false, HD_OP_BRA, HD_T_NONE, opl(9));                     /* 5 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r3), opr(r1), opi(1));                 /* 6 B */
    IRB(&b, HD_OP_MUL, HD_T_S32, opr(r6), opr(r3), opr(r3))->mode = HD_MODE_LO; /* 7 */
    IRB(&b, HD_OP_BRA, HD_T_NONE, opl(10));                                 /* 8 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r6), opr(r2), opi(2));                 /* 9 C */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r6), opr(r6), opr(r0));                /* 10 D */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd0, 8), opr(r6))->space = HD_SPACE_GLOBAL; /* 11 */
    IRB0(&b, HD_OP_EXIT);                                                   /* 12 */
    struct built x = build(t, &b.f);
    if (!x.lv)
        return;
    const struct hd_liveness *lv = x.lv;
    EXPECT_IN(t, lv, 9, rd0, r0, r2);
    EXPECT_OUT(t, lv, 5, rd0, r0, r1, r2);
    EXPECT_IN(t, lv, 10, rd0, r0, r6);
    EXPECT_IN(t, lv, 7, rd0, r0, r3);
    /* in C: union with the divergence point (end of A) and the reconvergence point (D) */
    HD_CHECK(t, hd_liveness_may_diverge(lv, 9));
    HD_CHECK_U64(t, 4, hd_liveness_words_in(lv, 9));
    HD_CHECK_U64(t, 6, hd_liveness_divergent_words(lv, 9)); /* rd0 r0 r1 r2 r6 */
    HD_CHECK(t, div_has(lv, 9, r1) && div_has(lv, 9, r6) && !div_has(lv, 9, r3));
    /* in B: r3 is B's own; C's r2 is pending at the divergence point */
    HD_CHECK(t, div_has(lv, 7, r3) && div_has(lv, 7, r2) && div_has(lv, 7, r6));
    HD_CHECK(t, !div_has(lv, 7, p0));
    /* A and D run converged */
    HD_CHECK(t, !hd_liveness_may_diverge(lv, 4));
    HD_CHECK(t, !hd_liveness_may_diverge(lv, 10));
    HD_CHECK_U64(t, hd_liveness_words_in(lv, 10), hd_liveness_divergent_words(lv, 10));
    unbuild(&x);
}

/* Two nested divergent branches: inside the inner one, threads may wait at both levels. */
static void test_nested_divergence(struct hd_test_state *t)
{
    hd_test_begin(t, "nested divergence");
    struct irb b;
    irb_init(&b, "nested", true);
    int32_t r0 = irb_reg(&b, "%r0", HD_T_B32), r1 = irb_reg(&b, "%r1", HD_T_B32);
    int32_t r2 = irb_reg(&b, "%r2", HD_T_B32), r3 = irb_reg(&b, "%r3", HD_T_B32);
    int32_t r4 = irb_reg(&b, "%r4", HD_T_B32), rd0 = irb_reg(&b, "%rd0", HD_T_B64);
    int32_t p0 = irb_reg(&b, "%p0", HD_T_PRED), p1 = irb_reg(&b, "%p1", HD_T_PRED);
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opsreg(HD_SREG_TID, 0));          /* 1 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r4), opsreg(HD_SREG_CTAID, 0));        /* 2 */
    IRB(&b, HD_OP_SETP, HD_T_U32, opr(p0), opr(r0), opi(16))->cmp = HD_CMP_LT; /* 3 */
    IRB_G(&b, p0, false, HD_OP_BRA, HD_T_NONE, opl(11));                    /* 4 outer */
    IRB(&b, HD_OP_SETP, HD_T_U32, opr(p1), opr(r0), opi(8))->cmp = HD_CMP_LT; /* 5 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r1), opr(r0), opi(1));                 /* 6 */
    IRB_G(&b, p1, false, HD_OP_BRA, HD_T_NONE, opl(9));                     /* 7 inner */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r1), opr(r1), opi(5));                 /* 8 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r2), opr(r1), opr(r0));                /* 9 inner reconv */
    IRB(&b, HD_OP_BRA, HD_T_NONE, opl(12));                                 /* 10 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r2), opr(r4), opi(3));                 /* 11 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r3), opr(r2), opi(7));                 /* 12 outer reconv */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd0, 0), opr(r3))->space = HD_SPACE_GLOBAL; /* 13 */
    IRB0(&b, HD_OP_EXIT);                                                   /* 14 */
    struct built x = build(t, &b.f);
    if (!x.lv)
        return;
    const struct hd_liveness *lv = x.lv;
    EXPECT_IN(t, lv, 8, rd0, r0, r1);
    /* at 8: inner pending (9: r1 r0), outer pending (11: r4), outer reconvergence (12: r2) */
    HD_CHECK(t, div_has(lv, 8, r4) && div_has(lv, 8, r2) && div_has(lv, 8, r1));
    HD_CHECK(t, !div_has(lv, 8, r3) && !div_has(lv, 8, p1));
    /* at 9 (inner reconvergence) only the outer branch can still be apart */
    HD_CHECK(t, hd_liveness_may_diverge(lv, 9));
    HD_CHECK(t, div_has(lv, 9, r4) && div_has(lv, 9, r2));
    /* at 11 (outer else) the others wait at 5 (p0's not-taken side) or at 12 */
    HD_CHECK(t, div_has(lv, 11, r0) && div_has(lv, 11, r2) && !div_has(lv, 11, r1));
    HD_CHECK(t, !hd_liveness_may_diverge(lv, 12));
    unbuild(&x);
}

static void test_conditional_writes(struct hd_test_state *t)
{
    hd_test_begin(t, "guarded writes do not kill");
    struct irb b;
    irb_init(&b, "guarded", true);
    int32_t rd0 = irb_reg(&b, "%rd0", HD_T_B64), r0 = irb_reg(&b, "%r0", HD_T_B32);
    int32_t r1 = irb_reg(&b, "%r1", HD_T_B32), r2 = irb_reg(&b, "%r2", HD_T_B32);
    int32_t p0 = irb_reg(&b, "%p0", HD_T_PRED);
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opsreg(HD_SREG_TID, 0));          /* 1 */
    IRB(&b, HD_OP_SETP, HD_T_U32, opr(p0), opr(r0), opi(0))->cmp = HD_CMP_EQ; /* 2 */
    IRB_G(&b, p0, false, HD_OP_MOV, HD_T_U32, opr(r1), opi(1));             /* 3 */
    IRB_G(&b, p0, true, HD_OP_MOV, HD_T_U32, opr(r1), opi(2));              /* 4 */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd0, 0), opr(r1))->space = HD_SPACE_GLOBAL; /* 5 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r2), opi(0));                          /* 6 */
    IRB_G(&b, p0, false, HD_OP_MOV, HD_T_U32, opr(r2), opr(r0));            /* 7 */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd0, 4), opr(r2))->space = HD_SPACE_GLOBAL; /* 8 */
    IRB0(&b, HD_OP_EXIT);                                                   /* 9 */
    struct built x = build(t, &b.f);
    if (!x.lv)
        return;
    const struct hd_liveness *lv = x.lv;
    EXPECT_IN(t, lv, 3, rd0, r0, p0);     /* r1 holds nothing yet: not live */
    EXPECT_IN(t, lv, 4, rd0, r0, p0, r1); /* the first write survives where !p0 fails */
    EXPECT_IN(t, lv, 7, rd0, r0, p0, r2); /* 0 survives where p0 is false */
    EXPECT_IN(t, lv, 6, rd0, r0, p0);
    EXPECT_OUT(t, lv, 7, rd0, r2);
    HD_CHECK_U64(t, 1, hd_liveness_preds_in(lv, 7));
    unbuild(&x);
}

static void test_vectors_and_dual_dests(struct hd_test_state *t)
{
    hd_test_begin(t, "vector operands, packing, dual destinations");
    struct irb b;
    irb_init(&b, "vec", true);
    int32_t rd0 = irb_reg(&b, "%rd0", HD_T_B64), rd1 = irb_reg(&b, "%rd1", HD_T_B64);
    int32_t r1 = irb_reg(&b, "%r1", HD_T_B32), r2 = irb_reg(&b, "%r2", HD_T_B32);
    int32_t r3 = irb_reg(&b, "%r3", HD_T_B32), r4 = irb_reg(&b, "%r4", HD_T_B32);
    int32_t r5 = irb_reg(&b, "%r5", HD_T_B32), p1 = irb_reg(&b, "%p1", HD_T_PRED);
    int32_t p2 = irb_reg(&b, "%p2", HD_T_PRED), p3 = irb_reg(&b, "%p3", HD_T_PRED);
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM;  /* 0 */
    struct hd_instr *in = IRB(&b, HD_OP_LD, HD_T_U32, opv(2, r1, r2, -1, -1), opa(rd0, 0)); /* 1 */
    in->space = HD_SPACE_GLOBAL, in->vec = 2;
    IRB(&b, HD_OP_MOV, HD_T_B64, opr(rd1), opv(2, r1, r2, -1, -1));          /* 2: pack */
    IRB(&b, HD_OP_MOV, HD_T_B64, opv(2, r3, -1, -1, -1), opr(rd1));          /* 3: {r3,_} */
    IRB(&b, HD_OP_SETP, HD_T_S32, opr(p1), opr(p2), opr(r3), opi(5))->cmp = HD_CMP_LT; /* 4 */
    in = IRB(&b, HD_OP_SHFL, HD_T_B32, opr(r4), opr(p3), opr(r3), opi(1), opi(31), opi(-1));
    in->flags = HD_F_PRED_OUT | HD_F_SYNC, in->mode = HD_MODE_SHFL_IDX;      /* 5 */
    IRB(&b, HD_OP_SELP, HD_T_B32, opr(r5), opr(r4), opr(r3), opr(p2));       /* 6 */
    in = IRB_G(&b, p3, false, HD_OP_ST, HD_T_U32, opa(rd0, 0), opv(2, r5, r1, -1, -1)); /* 7 */
    in->space = HD_SPACE_GLOBAL, in->vec = 2;
    IRB0(&b, HD_OP_EXIT);                                                    /* 8 */
    struct built x = build(t, &b.f);
    if (!x.lv)
        return;
    const struct hd_liveness *lv = x.lv;
    EXPECT_IN(t, lv, 2, rd0, r1, r2);
    EXPECT_IN(t, lv, 3, rd0, rd1, r1);
    HD_CHECK_U64(t, 5, hd_liveness_words_in(lv, 3));
    EXPECT_IN(t, lv, 4, rd0, r1, r3);
    EXPECT_OUT(t, lv, 4, rd0, r1, r3, p2); /* p1 is written but never read */
    EXPECT_IN(t, lv, 6, rd0, r1, r3, r4, p2, p3);
    EXPECT_IN(t, lv, 7, rd0, r1, r5, p3);
    HD_CHECK_U64(t, 2, hd_liveness_preds_in(lv, 6));
    HD_CHECK(t, hd_liveness_tracked(lv, (uint32_t)p1) && !hd_liveness_live_out(lv, 4, (uint32_t)p1));
    HD_CHECK_U64(t, HD_RC_PRED, hd_liveness_class(lv, (uint32_t)p3));
    unbuild(&x);
}

static void test_defuse_roles(struct hd_test_state *t)
{
    hd_test_begin(t, "destination counts");
    struct irb b;
    irb_init(&b, "roles", true);
    int32_t p = irb_reg(&b, "%p", HD_T_PRED), q = irb_reg(&b, "%q", HD_T_PRED);
    int32_t c = irb_reg(&b, "%c", HD_T_PRED), a = irb_reg(&b, "%a", HD_T_B32);
    int32_t rd = irb_reg(&b, "%rd", HD_T_B64);
    struct hd_instr *in = IRB(&b, HD_OP_SETP, HD_T_S32, opr(p), opr(a), opi(1));
    HD_CHECK_U64(t, 1, hd_defuse_ndst(in));
    in = IRB(&b, HD_OP_SETP, HD_T_S32, opr(p), opr(q), opr(a), opi(1));
    HD_CHECK_U64(t, 2, hd_defuse_ndst(in));
    in = IRB(&b, HD_OP_SETP, HD_T_S32, opr(p), opr(a), opi(1), opnot(c));
    in->boolop = HD_BOOL_AND;
    HD_CHECK_U64(t, 1, hd_defuse_ndst(in));
    in = IRB(&b, HD_OP_SETP, HD_T_S32, opr(p), opr(q), opr(a), opi(1), opr(c));
    in->boolop = HD_BOOL_OR;
    HD_CHECK_U64(t, 2, hd_defuse_ndst(in));
    in = IRB(&b, HD_OP_ST, HD_T_U32, opa(rd, 0), opr(a));
    HD_CHECK_U64(t, 0, hd_defuse_ndst(in));
    in = IRB(&b, HD_OP_BAR, HD_T_U32, opr(a), opi(0), opr(c));
    in->mode = HD_MODE_BAR_RED_POPC;
    HD_CHECK_U64(t, 1, hd_defuse_ndst(in));
    in = IRB(&b, HD_OP_ATOM, HD_T_U32, opr(a), opa(rd, 0), opi(1));
    HD_CHECK_U64(t, 1, hd_defuse_ndst(in));
    struct hd_defuse du;
    in = IRB_G(&b, q, true, HD_OP_ST, HD_T_U32, opa(rd, 8), opr(a)); /* PC 7 */
    hd_defuse_get(&b.f, 7, &du);
    HD_CHECK_U64(t, 0, du.ndefs);
    HD_CHECK_U64(t, 3, du.nuses);
    HD_CHECK(t, du.uses[0] == q && du.use_opnd[0] == HD_DEFUSE_GUARD && du.conditional);
    HD_CHECK(t, du.uses[1] == rd && du.uses[2] == a);
    hd_defuse_get(&b.f, 2, &du); /* setp.and p, a, 1, !c */
    HD_CHECK(t, du.ndefs == 1 && du.defs[0] == p && du.nuses == 2 && du.uses[1] == c);
}

static void test_bad_register(struct hd_test_state *t)
{
    hd_test_begin(t, "register index out of range");
    struct irb b;
    irb_init(&b, "bad", true);
    int32_t r0 = irb_reg(&b, "%r0", HD_T_B32);
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opi(1));
    IRB(&b, HD_OP_ADD, HD_T_U32, opr(r0), opr(r0), opr(7));
    IRB0(&b, HD_OP_EXIT);
    struct hd_cfg *cfg = hd_cfg_build(&b.f);
    char err[256];
    struct hd_liveness *lv = cfg ? hd_liveness_build(&b.f, cfg, err, sizeof(err)) : NULL;
    HD_CHECK(t, cfg && lv == NULL);
    HD_CHECK(t, cfg && strstr(err, "bad: PC 1 (PTX line 101)") != NULL);
    HD_CHECK(t, cfg && strstr(err, "7 out of range") != NULL);
    hd_liveness_free(lv);
    hd_cfg_free(cfg);
}
/* }==== */

/* {==== Differential check against a naive fixpoint ==== */
/* Instruction-level dataflow straight from the definitions, on byte matrices. */
static bool naive_matches(const struct hd_func *f, const struct hd_cfg *cfg,
                          const struct hd_liveness *lv, char *why, size_t len)
{
    uint32_t n = f->ninstrs, R = f->nregs;
    uint8_t *in = calloc((size_t)n * R + 1, 1), *out = calloc((size_t)n * R + 1, 1);
    uint8_t *din = calloc((size_t)n * R + 1, 1), *dout = calloc((size_t)n * R + 1, 1);
    bool ok = in && out && din && dout;
    for (bool changed = ok; changed;) {
        changed = false;
        for (uint32_t pc = n; pc-- > 0;) {
            const struct hd_block *blk = &cfg->blocks[cfg->block_of[pc]];
            struct hd_defuse du;
            hd_defuse_get(f, pc, &du);
            for (uint32_t r = 0; r < R; r++) {
                uint8_t o = 0;
                if (pc != blk->last)
                    o = in[(size_t)(pc + 1) * R + r];
                else
                    for (uint32_t s = 0; s < blk->nsucc; s++)
                        o |= in[(size_t)cfg->blocks[blk->succ[s]].first * R + r];
                uint8_t i = o;
                for (unsigned k = 0; k < du.ndefs && !du.conditional; k++)
                    i &= du.defs[k] != (int32_t)r;
                for (unsigned k = 0; k < du.nuses; k++)
                    i |= du.uses[k] == (int32_t)r;
                changed |= o != out[(size_t)pc * R + r] || i != in[(size_t)pc * R + r];
                out[(size_t)pc * R + r] = o, in[(size_t)pc * R + r] = i;
            }
        }
        for (uint32_t pc = 0; pc < n; pc++) { /* maybe-defined, forward */
            const struct hd_block *blk = &cfg->blocks[cfg->block_of[pc]];
            struct hd_defuse du;
            hd_defuse_get(f, pc, &du);
            for (uint32_t r = 0; r < R; r++) {
                uint8_t d = 0;
                if (pc != blk->first)
                    d = dout[(size_t)(pc - 1) * R + r];
                else
                    for (uint32_t p = 0; p < blk->npred; p++)
                        d |= dout[(size_t)cfg->blocks[blk->pred[p]].last * R + r];
                uint8_t e = d;
                for (unsigned k = 0; k < du.ndefs; k++)
                    e |= du.defs[k] == (int32_t)r;
                changed |= d != din[(size_t)pc * R + r] || e != dout[(size_t)pc * R + r];
                din[(size_t)pc * R + r] = d, dout[(size_t)pc * R + r] = e;
            }
        }
    }
    for (uint32_t pc = 0; ok && pc < n; pc++)
        for (uint32_t r = 0; ok && r < R; r++) {
            bool ei = in[(size_t)pc * R + r] && din[(size_t)pc * R + r];
            bool eo = out[(size_t)pc * R + r] && dout[(size_t)pc * R + r];
            if (ei != hd_liveness_live_in(lv, pc, r) || eo != hd_liveness_live_out(lv, pc, r)) {
                snprintf(why, len, "%s PC %u (line %u) register %s: naive in=%d out=%d",
                         f->name, pc, f->instrs[pc].line, f->regs[r].name, ei, eo);
                ok = false;
            }
        }
    free(in), free(out), free(din), free(dout);
    return ok;
}

static int corpus_one(void *ctx, const char *path, const struct hd_func *f)
{
    struct hd_test_state *t = ctx;
    struct hd_cfg *cfg = hd_cfg_build(f);
    char err[512] = "";
    struct hd_liveness *lv = cfg ? hd_liveness_build(f, cfg, err, sizeof(err)) : NULL;
    if (!HD_CHECK(t, lv != NULL))
        fprintf(stderr, "  %s: %s: %s\n", path, f->name, err);
    else if (!HD_CHECK(t, naive_matches(f, cfg, lv, err, sizeof(err))))
        fprintf(stderr, "  %s: %s\n", path, err);
    hd_liveness_free(lv);
    hd_cfg_free(cfg);
    return 0;
}

static void test_random(struct hd_test_state *t)
{
    hd_test_begin(t, "random programs: equals the naive fixpoint");
    uint64_t rng = 0x2545F4914F6CDD1Dull;
    static struct irb b;
    for (int prog = 0; prog < 300; prog++) {
        irb_random_program(&b, &rng);
        struct hd_cfg *cfg = hd_cfg_build(&b.f);
        char err[512] = "";
        struct hd_liveness *lv = cfg ? hd_liveness_build(&b.f, cfg, err, sizeof(err)) : NULL;
        bool ok = HD_CHECK(t, lv != NULL) && HD_CHECK(t, naive_matches(&b.f, cfg, lv, err,
                                                                       sizeof(err)));
        /* the divergence union contains the own live set */
        for (uint32_t pc = 0; ok && lv && pc < b.f.ninstrs; pc++)
            ok = HD_CHECK(t, hd_liveness_divergent_words(lv, pc) >= hd_liveness_words_in(lv, pc));
        if (!ok)
            fprintf(stderr, "  random program %d: %s\n", prog, err);
        hd_liveness_free(lv);
        hd_cfg_free(cfg);
        if (!ok)
            break;
    }
}

static void test_corpus(struct hd_test_state *t)
{
    hd_test_begin(t, "every PTX file: equals the naive fixpoint");
    unsigned nfuncs = 0;
    int rc = hd_ptx_corpus_each(corpus_one, t, &nfuncs);
    HD_CHECK(t, rc == 0);
    printf("liveness cross-checked on %u functions\n", nfuncs);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = { 0 };
    test_straight_line(&t);
    test_loop_carried(&t);
    test_divergent_if_else(&t);
    test_nested_divergence(&t);
    test_conditional_writes(&t);
    test_vectors_and_dual_dests(&t);
    test_defuse_roles(&t);
    test_bad_register(&t);
    test_random(&t);
    test_corpus(&t);
    return hd_test_finish(&t);
}
