/* SPDX-License-Identifier: MIT
 * test_regalloc.c - register allocation: validity (the checker, on hand-built kernels and on every
 * PTX function of the tree, with and without constant rematerialisation), the checker catching a
 * corrupted allocation, pair alignment and the stack pointer, predicate-file overflow, .maxnreg
 * spills, dead writes, the physical liveness vector under divergence, calls, determinism, and our
 * count against ptxas's recorded count for every workload kernel (printed as a table).
 */
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "ir_build.h"
#include "liveness.h"
#include "ptx_corpus.h"
#include "regalloc.h"
#include "testutil.h"

/* {==== Helpers ==== */
struct alloc {
    struct hd_cfg *cfg;
    struct hd_liveness *lv;
    struct hd_regalloc ra;
    bool ok;
};

static struct alloc allocate(struct hd_test_state *t, const struct hd_func *f,
                             const struct hd_regalloc_params *p)
{
    struct alloc a = { hd_cfg_build(f), NULL, { 0 }, false };
    char err[512] = "";
    if (a.cfg)
        a.lv = hd_liveness_build(f, a.cfg, err, sizeof(err));
    if (a.lv)
        a.ok = hd_regalloc_run(f, a.cfg, a.lv, p, &a.ra, err, sizeof(err)) == 0;
    if (!HD_CHECK(t, a.ok))
        fprintf(stderr, "  %s\n", err);
    return a;
}

static bool valid(const struct hd_func *f, const struct alloc *a)
{
    char err[512];
    if (hd_regalloc_check(f, a->lv, &a->ra, err, sizeof(err)) == 0)
        return true;
    fprintf(stderr, "  %s\n", err);
    return false;
}

static void release(struct alloc *a)
{
    hd_regalloc_free(&a->ra);
    hd_liveness_free(a->lv);
    hd_cfg_free(a->cfg);
}

static bool phys_bit(const uint64_t v[4], int32_t p)
{
    return p >= 0 && p < 256 && ((v[p >> 6] >> (p & 63)) & 1u);
}
/* }==== */

/* {==== Hand-built kernels ==== */
static void test_basic(struct hd_test_state *t)
{
    hd_test_begin(t, "constants, pairs, stack pointer, count");
    struct irb b;
    irb_init(&b, "basic", true);
    int32_t rd0 = irb_reg(&b, "%rd0", HD_T_B64), r0 = irb_reg(&b, "%r0", HD_T_B32);
    int32_t r1 = irb_reg(&b, "%r1", HD_T_B32), r2 = irb_reg(&b, "%r2", HD_T_B32);
    int32_t rd1 = irb_reg(&b, "%rd1", HD_T_B64), r9 = irb_reg(&b, "%r9", HD_T_B32);
    int32_t rd2 = irb_reg(&b, "%rd2", HD_T_B64);
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 */
    b.ins[0].opnd[1].symbol = 0;
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opsreg(HD_SREG_TID, 0));          /* 1 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r1), opi(1));                          /* 2 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r2), opr(r0), opr(r1));                /* 3 */
    IRB(&b, HD_OP_MUL, HD_T_S32, opr(rd1), opr(r2), opi(4))->mode = HD_MODE_WIDE; /* 4 */
    IRB(&b, HD_OP_ADD, HD_T_S64, opr(rd1), opr(rd1), opr(rd0));             /* 5 */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd1, 0), opr(r0))->space = HD_SPACE_GLOBAL; /* 6 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r9), opi(3));                          /* 7: never read */
    struct hd_instr *cv = IRB(&b, HD_OP_CVTA, HD_T_U64, opr(rd2), opr(rd0)); /* 8 */
    cv->space = HD_SPACE_GLOBAL, cv->mode = HD_MODE_TO;
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rd2, 0), opr(r1))->space = HD_SPACE_GLOBAL; /* 9 */
    IRB0(&b, HD_OP_EXIT);                                                   /* 10 */
    struct alloc a = allocate(t, &b.f, NULL);
    if (!a.ok)
        return;
    const struct hd_regalloc *ra = &a.ra;
    HD_CHECK(t, valid(&b.f, &a));
    HD_CHECK_U64(t, HD_RA_REMAT, ra->kind[rd0]); /* kernel parameter: constant bank */
    HD_CHECK_U64(t, HD_RA_REMAT, ra->kind[r1]);  /* immediate */
    HD_CHECK_U64(t, HD_RA_REG, ra->kind[r0]);
    HD_CHECK_U64(t, HD_RA_REG, ra->kind[rd1]);   /* two writes */
    HD_CHECK_U64(t, HD_RA_NONE, ra->kind[r9]);
    HD_CHECK(t, ra->phys_of[r9] == -1);
    HD_CHECK(t, ra->phys_of[rd1] >= 0 && ra->phys_of[rd1] % 2 == 0);
    /* rd0 is only an ALU operand (constant bank): no register; rd2 (the same parameter through
     * cvta.to.global) is an address and r1 store data at PC 9: registers there only */
    HD_CHECK_U64(t, HD_RA_REMAT, ra->kind[rd2]);
    HD_CHECK(t, ra->phys_of[rd0] == -1);
    HD_CHECK(t, ra->phys_of[rd2] >= 0 && ra->phys_of[rd2] % 2 == 0);
    HD_CHECK(t, ra->phys_of[r1] >= 0 && ra->phys_of[r1] != ra->phys_of[rd2] &&
                ra->phys_of[r1] != ra->phys_of[rd2] + 1);
    uint32_t reads[HD_RA_MAX_READS];
    HD_CHECK_U64(t, 2, hd_regalloc_remat_reads(&b.f, a.lv, ra->kind, 9, reads));
    HD_CHECK_U64(t, 0, hd_regalloc_remat_reads(&b.f, a.lv, ra->kind, 8, reads)); /* cvta: no-op */
    HD_CHECK_U64(t, 0, hd_regalloc_remat_reads(&b.f, a.lv, ra->kind, 3, reads)); /* r1: operand */
    HD_CHECK_U64(t, 0, hd_regalloc_remat_reads(&b.f, a.lv, ra->kind, 5, reads)); /* rd0: operand */
    for (uint32_t r = 0; r < b.f.nregs; r++)
        HD_CHECK(t, ra->phys_of[r] != 1 && !(ra->phys_of[r] == 0 && a.lv->words[r] == 2));
    /* r0 (1 word) and rd1 (2, even) live together, R1 reserved: R0 + R2:R3 at best */
    HD_CHECK_U64(t, 4, ra->gpr_span);
    HD_CHECK_U64(t, 6, ra->regs_per_thread);
    HD_CHECK_U64(t, 3, ra->max_live_words);
    HD_CHECK_U64(t, ra->regs_per_thread, ra->regs_with_callees);
    HD_CHECK_U64(t, 0, ra->pred_regs);
    HD_CHECK(t, hd_regalloc_bank(ra, (uint32_t)rd1, 1, 4) == (ra->phys_of[rd1] + 1) % 4);
    HD_CHECK(t, hd_regalloc_bank(ra, (uint32_t)r9, 0, 4) == -1);
    /* without rematerialisation the parameter occupies a pair from PC 0 to PC 5 */
    struct hd_regalloc_params p;
    hd_regalloc_params_default(&p);
    p.remat = false;
    struct alloc c = allocate(t, &b.f, &p);
    if (c.ok) {
        HD_CHECK(t, valid(&b.f, &c));
        HD_CHECK_U64(t, HD_RA_REG, c.ra.kind[rd0]);
        HD_CHECK(t, c.ra.regs_per_thread > ra->regs_per_thread);
    }
    release(&c);
    release(&a);
}

/* ptxas -v reports 4 for an empty kernel on sm_75: R1 (stack pointer) + 1, plus 2 */
static void test_empty(struct hd_test_state *t)
{
    hd_test_begin(t, "empty kernel counts like ptxas");
    struct irb b;
    irb_init(&b, "empty", true);
    IRB0(&b, HD_OP_RET);
    struct alloc a = allocate(t, &b.f, NULL);
    if (a.ok) {
        HD_CHECK(t, valid(&b.f, &a));
        HD_CHECK_U64(t, 4, a.ra.regs_per_thread);
        HD_CHECK_U64(t, 2, a.ra.gpr_span);
        HD_CHECK_U64(t, 0, a.ra.pred_regs);
    }
    release(&a);
    struct hd_regalloc_params p;
    hd_regalloc_params_default(&p);
    p.sp_reg = -1;
    p.abi_regs = 0;
    a = allocate(t, &b.f, &p);
    if (a.ok)
        HD_CHECK_U64(t, 0, a.ra.regs_per_thread);
    release(&a);
}

static void build_loop(struct irb *b, int32_t *r0, int32_t *r1, int32_t *p0)
{
    irb_init(b, "loop", true);
    int32_t rd0 = irb_reg(b, "%rd0", HD_T_B64);
    *r0 = irb_reg(b, "%r0", HD_T_B32), *r1 = irb_reg(b, "%r1", HD_T_B32);
    *p0 = irb_reg(b, "%p0", HD_T_PRED);
    IRB(b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 */
    IRB(b, HD_OP_MOV, HD_T_U32, opr(*r0), opi(0));                           /* 1 */
    IRB(b, HD_OP_MOV, HD_T_U32, opr(*r1), opi(0));                           /* 2 */
    IRB(b, HD_OP_ADD, HD_T_S32, opr(*r1), opr(*r1), opr(*r0));               /* 3 */
    IRB(b, HD_OP_ADD, HD_T_S32, opr(*r0), opr(*r0), opi(1));                 /* 4 */
    IRB(b, HD_OP_SETP, HD_T_S32, opr(*p0), opr(*r0), opi(10))->cmp = HD_CMP_LT; /* 5 */
    IRB_G(b, *p0, false, HD_OP_BRA, HD_T_NONE, opl(3));                      /* 6 */
    IRB(b, HD_OP_ST, HD_T_U32, opa(rd0, 0), opr(*r1))->space = HD_SPACE_GLOBAL; /* 7 */
    IRB0(b, HD_OP_EXIT);                                                     /* 8 */
}

static void test_loop_and_checker(struct hd_test_state *t)
{
    hd_test_begin(t, "loop-carried values; the checker catches a collision");
    struct irb b;
    int32_t r0, r1, p0;
    build_loop(&b, &r0, &r1, &p0);
    struct alloc a = allocate(t, &b.f, NULL);
    if (!a.ok)
        return;
    HD_CHECK(t, valid(&b.f, &a));
    HD_CHECK_U64(t, HD_RA_REG, a.ra.kind[r0]); /* `mov 0` then `add`: not a constant */
    HD_CHECK(t, a.ra.phys_of[r0] != a.ra.phys_of[r1]);
    HD_CHECK_U64(t, 0, a.ra.phys_of[p0]);
    HD_CHECK_U64(t, 1, a.ra.pred_regs);
    int32_t keep = a.ra.phys_of[r1];
    a.ra.phys_of[r1] = a.ra.phys_of[r0];
    char err[512];
    HD_CHECK(t, hd_regalloc_check(&b.f, a.lv, &a.ra, err, sizeof(err)) != 0);
    HD_CHECK(t, strstr(err, "loop: PC ") && strstr(err, "%r0") && strstr(err, "%r1"));
    a.ra.phys_of[r1] = 1; /* the stack pointer */
    HD_CHECK(t, hd_regalloc_check(&b.f, a.lv, &a.ra, err, sizeof(err)) != 0);
    HD_CHECK(t, strstr(err, "stack pointer") != NULL);
    a.ra.phys_of[r1] = keep;
    a.ra.phys_of[p0] = -1;
    HD_CHECK(t, hd_regalloc_check(&b.f, a.lv, &a.ra, err, sizeof(err)) != 0);
    a.ra.phys_of[p0] = 0;
    HD_CHECK(t, valid(&b.f, &a));
    /* determinism */
    struct alloc c = allocate(t, &b.f, NULL);
    HD_CHECK(t, c.ok && memcmp(c.ra.phys_of, a.ra.phys_of, b.f.nregs * sizeof(int32_t)) == 0);
    release(&c);
    release(&a);
}

/* n predicates live at once, then all read */
static void test_predicate_overflow(struct hd_test_state *t)
{
    hd_test_begin(t, "more than 7 live predicates");
    struct irb b;
    irb_init(&b, "preds", true);
    int32_t r0 = irb_reg(&b, "%r0", HD_T_B32), acc = irb_reg(&b, "%acc", HD_T_B32), p[9];
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opsreg(HD_SREG_TID, 0));
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(acc), opsreg(HD_SREG_LANEID, 0));
    for (int k = 0; k < 9; k++) {
        char name[8];
        snprintf(name, sizeof(name), "%%p%d", k);
        p[k] = irb_reg(&b, name, HD_T_PRED);
        IRB(&b, HD_OP_SETP, HD_T_S32, opr(p[k]), opr(r0), opi(k))->cmp = HD_CMP_LT;
    }
    for (int k = 0; k < 9; k++)
        IRB(&b, HD_OP_SELP, HD_T_B32, opr(acc), opr(acc), opr(r0), opr(p[k]));
    IRB(&b, HD_OP_ST, HD_T_U32, opa(r0, 0), opr(acc))->space = HD_SPACE_SHARED;
    IRB0(&b, HD_OP_EXIT);
    struct alloc a = allocate(t, &b.f, NULL);
    if (!a.ok)
        return;
    HD_CHECK(t, valid(&b.f, &a));
    HD_CHECK_U64(t, 9, a.ra.max_live_preds);
    HD_CHECK_U64(t, 7, a.ra.pred_regs);
    HD_CHECK_U64(t, 2, a.ra.pred_spills);
    HD_CHECK(t, a.ra.pred_spill_reg >= 2 && (uint32_t)a.ra.pred_spill_reg + 1 == a.ra.gpr_span);
    uint32_t spilled = 0;
    for (int k = 0; k < 9; k++)
        spilled += a.ra.kind[p[k]] == HD_RA_SPILLED;
    HD_CHECK_U64(t, 2, spilled);
    release(&a);
}

/* 24 values live at once under .maxnreg 16 */
static void test_maxnreg_spill(struct hd_test_state *t)
{
    hd_test_begin(t, ".maxnreg budget");
    struct irb b;
    irb_init(&b, "pressure", true);
    int32_t base = irb_reg(&b, "%base", HD_T_B32), v[24], sum = irb_reg(&b, "%sum", HD_T_B32);
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(base), opsreg(HD_SREG_TID, 0));
    for (int k = 0; k < 24; k++) {
        char name[8];
        snprintf(name, sizeof(name), "%%v%d", k);
        v[k] = irb_reg(&b, name, HD_T_B32);
        IRB(&b, HD_OP_LD, HD_T_U32, opr(v[k]), opa(base, 4 * k))->space = HD_SPACE_SHARED;
    }
    IRB(&b, HD_OP_ADD, HD_T_U32, opr(sum), opr(v[0]), opr(v[1]));
    for (int k = 2; k < 24; k++)
        IRB(&b, HD_OP_ADD, HD_T_U32, opr(sum), opr(sum), opr(v[k]));
    IRB(&b, HD_OP_ST, HD_T_U32, opa(base, 0), opr(sum))->space = HD_SPACE_SHARED;
    IRB0(&b, HD_OP_EXIT);
    struct alloc a = allocate(t, &b.f, NULL);
    if (a.ok) {
        HD_CHECK(t, valid(&b.f, &a));
        HD_CHECK_U64(t, 0, a.ra.spill_words);
        HD_CHECK(t, a.ra.regs_per_thread >= 25 + 1 + 2); /* 25 live words, R1, ABI */
    }
    release(&a);
    b.f.maxnreg = 16;
    a = allocate(t, &b.f, NULL);
    if (a.ok) {
        HD_CHECK(t, valid(&b.f, &a));
        HD_CHECK(t, a.ra.regs_per_thread <= 16);
        HD_CHECK(t, a.ra.spill_words >= 25 - 13);
    }
    release(&a);
}

/* Lin Fig 2.5 shape: the physical liveness vector grows under divergence */
static void test_phys_live_divergent(struct hd_test_state *t)
{
    hd_test_begin(t, "physical liveness vector under divergence");
    struct irb b;
    irb_init(&b, "ifelse", true);
    int32_t rd0 = irb_reg(&b, "%rd0", HD_T_B64), r0 = irb_reg(&b, "%r0", HD_T_B32);
    int32_t r1 = irb_reg(&b, "%r1", HD_T_B32), r2 = irb_reg(&b, "%r2", HD_T_B32);
    int32_t r6 = irb_reg(&b, "%r6", HD_T_B32), p0 = irb_reg(&b, "%p0", HD_T_PRED);
    int32_t rdx = irb_reg(&b, "%rdx", HD_T_B64);
    IRB(&b, HD_OP_LD, HD_T_U64, opr(rd0), opparam(0))->space = HD_SPACE_PARAM; /* 0 */
    IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opsreg(HD_SREG_TID, 0));          /* 1 */
    IRB(&b, HD_OP_MUL, HD_T_U32, opr(rdx), opr(r0), opi(4))->mode = HD_MODE_WIDE; /* 2 */
    IRB(&b, HD_OP_ADD, HD_T_S64, opr(rdx), opr(rdx), opr(rd0));             /* 3 */
    IRB(&b, HD_OP_SETP, HD_T_U32, opr(p0), opr(r0), opi(16))->cmp = HD_CMP_LT; /* 4 */
    IRB(&b, HD_OP_LD, HD_T_U32, opr(r1), opa(rdx, 0))->space = HD_SPACE_GLOBAL; /* 5 */
    IRB(&b, HD_OP_LD, HD_T_U32, opr(r2), opa(rdx, 4))->space = HD_SPACE_GLOBAL; /* 6 */
    IRB_G(&b, p0, false, HD_OP_BRA, HD_T_NONE, opl(10));                    /* 7 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r6), opr(r1), opi(1));                 /* 8 */
    IRB(&b, HD_OP_BRA, HD_T_NONE, opl(11));                                 /* 9 */
    IRB(&b, HD_OP_ADD, HD_T_S32, opr(r6), opr(r2), opi(2));                 /* 10 */
    IRB(&b, HD_OP_ST, HD_T_U32, opa(rdx, 8), opr(r6))->space = HD_SPACE_GLOBAL; /* 11 */
    IRB0(&b, HD_OP_EXIT);                                                   /* 12 */
    struct alloc a = allocate(t, &b.f, NULL);
    if (!a.ok)
        return;
    HD_CHECK(t, valid(&b.f, &a));
    uint64_t conv[4], div[4];
    hd_regalloc_phys_live(&a.ra, a.lv, 10, false, conv);
    hd_regalloc_phys_live(&a.ra, a.lv, 10, true, div);
    HD_CHECK(t, phys_bit(conv, a.ra.phys_of[r2]) && phys_bit(conv, a.ra.phys_of[rdx]));
    HD_CHECK(t, phys_bit(conv, a.ra.phys_of[rdx] + 1));
    HD_CHECK(t, !phys_bit(conv, a.ra.phys_of[r1]) && phys_bit(div, a.ra.phys_of[r1]));
    HD_CHECK(t, phys_bit(div, a.ra.phys_of[r6])); /* the reconvergence point reads r6 */
    HD_CHECK(t, !phys_bit(div, 1));               /* the stack pointer is not a value */
    HD_CHECK_U64(t, 3, (uint64_t)__builtin_popcountll(conv[0])); /* r2, rdx pair */
    release(&a);
}
/* }==== */

/* {==== Random programs executed on physical registers ==== */
/* An independent check of the allocation that does not trust the liveness: random programs (loops,
 * guarded writes, vectors, 64-bit values, constants, dead writes) are run along random paths
 * writing every value into its physical registers; each read of a register written earlier on
 * the path must find its own value there. Constants read in a register are written into theirs
 * just before the instruction, as a rematerialising move would. */
/* Runs one random path; returns false (with a message) on a value found clobbered. */
static bool run_path(const struct hd_func *f, const struct alloc *a, uint64_t *rng, char *why,
                     size_t len)
{
    enum { WORDS = 1024 };
    static uint64_t phys[WORDS], pphys[WORDS];
    uint64_t val[IRB_MAX_REGS] = { 0 }, next = 1;
    const struct hd_regalloc *ra = &a->ra;
    const struct hd_liveness *lv = a->lv;
    memset(phys, 0, sizeof(phys));
    memset(pphys, 0, sizeof(pphys));
    uint32_t pc = 0;
    for (int steps = 0; steps < 400 && pc < f->ninstrs; steps++) {
        const struct hd_instr *in = &f->instrs[pc];
        uint32_t rd[HD_RA_MAX_READS], nr = hd_regalloc_remat_reads(f, lv, ra->kind, pc, rd);
        for (uint32_t k = 0; k < nr; k++) { /* rematerialise */
            if (!val[rd[k]])
                val[rd[k]] = next++;
            uint64_t *file = lv->rclass[rd[k]] == HD_RC_PRED ? pphys : phys;
            for (uint32_t w = 0; w < lv->words[rd[k]]; w++)
                file[ra->phys_of[rd[k]] + (int32_t)w] = val[rd[k]] << 2 | w;
        }
        uint32_t nu, ndf;
        const int32_t *u = hd_liveness_uses(lv, pc, &nu), *d = hd_liveness_defs(lv, pc, &ndf);
        for (uint32_t k = 0; k < nu; k++) {
            uint32_t r = (uint32_t)u[k];
            if (!val[r] || ra->kind[r] != HD_RA_REG) /* constants hold one value */
                continue;
            const uint64_t *file = lv->rclass[r] == HD_RC_PRED ? pphys : phys;
            for (uint32_t w = 0; w < lv->words[r]; w++)
                if (file[ra->phys_of[r] + (int32_t)w] != (val[r] << 2 | w)) {
                    snprintf(why, len, "PC %u reads %s (phys %d word %u): clobbered", pc,
                             f->regs[r].name, ra->phys_of[r], w);
                    return false;
                }
        }
        bool on = in->guard < 0 || (irb_rng(rng) & 1);
        for (uint32_t k = 0; on && k < ndf; k++) {
            uint32_t r = (uint32_t)d[k];
            val[r] = next++;
            if (ra->kind[r] != HD_RA_REG)
                continue;
            uint64_t *file = lv->rclass[r] == HD_RC_PRED ? pphys : phys;
            for (uint32_t w = 0; w < lv->words[r]; w++)
                file[ra->phys_of[r] + (int32_t)w] = val[r] << 2 | w;
        }
        if (in->op == HD_OP_EXIT && on)
            break;
        pc = in->op == HD_OP_BRA && on ? (uint32_t)in->opnd[0].imm : pc + 1;
    }
    return true;
}

static void test_random_programs(struct hd_test_state *t)
{
    hd_test_begin(t, "random programs keep their values in physical registers");
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    static struct irb b;
    unsigned programs = 0, paths = 0;
    for (int prog = 0; prog < 400; prog++) {
        irb_random_program(&b, &rng);
        for (int remat = 1; remat >= 0; remat--) {
            struct hd_regalloc_params p;
            hd_regalloc_params_default(&p);
            p.remat = remat;
            p.pred_regs = 64; /* this check runs on the allocation, not on the P2R model */
            struct alloc a = allocate(t, &b.f, &p);
            if (!a.ok)
                return;
            HD_CHECK(t, valid(&b.f, &a));
            char why[256];
            for (int k = 0; k < 20; k++, paths++)
                if (!HD_CHECK(t, run_path(&b.f, &a, &rng, why, sizeof(why)))) {
                    fprintf(stderr, "  program %d (remat %d): %s\n", prog, remat, why);
                    if (getenv("HD_RA_DUMP"))
                        for (uint32_t i = 0; i < b.f.ninstrs; i++) {
                            char line[160];
                            hd_ptx_format_instr(&b.f, &b.f.instrs[i], line, sizeof(line));
                            fprintf(stderr, "    %2u %s\n", i, line);
                        }
                    for (uint32_t r = 0; getenv("HD_RA_DUMP") && r < b.f.nregs; r++)
                        fprintf(stderr, "    %s kind %u phys %d\n", b.regs[r].name, a.ra.kind[r],
                                a.ra.phys_of[r]);
                    k = 20, prog = 400;
                }
            release(&a);
        }
        programs++;
    }
    printf("random programs: %u, paths executed: %u\n", programs, paths);
}
/* }==== */

/* {==== Every PTX function, and the comparison with ptxas ==== */
struct corpus {
    struct hd_test_state *t;
    unsigned kernels, compared, within;
};

static int corpus_one(void *ctx, const char *path, const struct hd_func *f)
{
    struct corpus *c = ctx;
    struct hd_test_state *t = c->t;
    struct hd_regalloc_params p;
    hd_regalloc_params_default(&p);
    for (int remat = 1; remat >= 0; remat--) {
        p.remat = remat;
        struct alloc a = allocate(t, f, &p);
        if (a.ok && !HD_CHECK(t, valid(f, &a)))
            fprintf(stderr, "  in %s (remat %d)\n", path, remat);
        if (a.ok && remat && f->is_entry) {
            int px = hd_ptx_corpus_ptxas_regs(path, f->name);
            c->kernels++;
            if (px > 0) {
                /* ptxas schedules for ILP (hoisted loads, its own unrolling) and often uses
                 * more; it also folds addresses and so sometimes uses fewer */
                bool sane = a.ra.regs_per_thread * 6 >= (uint32_t)px &&
                            a.ra.regs_per_thread <= 2u * (uint32_t)px;
                HD_CHECK(t, sane);
                c->compared++;
                c->within += 4 * a.ra.regs_per_thread >= 3u * (uint32_t)px &&
                             3 * a.ra.regs_per_thread <= 4u * (uint32_t)px;
                printf("  %-22s %-26s ours %3u  ptxas %3d  (max live %u words, %u preds)\n",
                       strchr(path, '/') ? strchr(path, '/') + 1 : path, f->name,
                       a.ra.regs_per_thread, px, a.ra.max_live_words, a.ra.pred_regs);
            }
        }
        release(&a);
    }
    return 0;
}

static void test_corpus(struct hd_test_state *t)
{
    hd_test_begin(t, "every PTX function: valid allocation; counts beside ptxas");
    struct corpus c = { t, 0, 0, 0 };
    unsigned nfuncs = 0;
    HD_CHECK(t, hd_ptx_corpus_each(corpus_one, &c, &nfuncs) == 0);
    HD_CHECK(t, nfuncs > 0);
    printf("allocated %u functions; %u of %u workload kernels within 25%% of ptxas\n", nfuncs,
           c.within, c.compared);
}

static void test_calls(struct hd_test_state *t)
{
    hd_test_begin(t, "calls: callee registers stack above the caller's");
    char err[512];
    struct hd_module *m = hd_ptx_parse_file("tests/ptx/good/recursion.ptx", err, sizeof(err));
    if (!HD_CHECK(t, m != NULL)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    struct hd_regalloc *ra = calloc(m->nfuncs, sizeof(*ra));
    struct alloc *al = calloc(m->nfuncs, sizeof(*al));
    for (uint32_t i = 0; ra && al && i < m->nfuncs; i++)
        if (m->funcs[i].has_body) {
            al[i] = allocate(t, &m->funcs[i], NULL);
            ra[i] = al[i].ra;
        }
    if (ra && al) {
        hd_regalloc_link(m, ra);
        int k = hd_ptx_find_func(m, "calls");
        HD_CHECK(t, k >= 0 && ra[k].ncalls > 0);
        for (uint32_t j = 0; k >= 0 && j < ra[k].ncalls; j++) {
            int32_t c = ra[k].calls[j].callee;
            HD_CHECK(t, c >= 0 && (uint32_t)c < m->nfuncs);
            if (c >= 0 && c != k)
                HD_CHECK(t, ra[k].regs_with_callees >= ra[c].gpr_span + ra[k].calls[j].live_words);
        }
        HD_CHECK(t, k >= 0 && ra[k].regs_with_callees >= ra[k].regs_per_thread);
        int fib = hd_ptx_find_func(m, "_Z3fibi"); /* recursive: its own span */
        HD_CHECK(t, fib >= 0 && ra[fib].regs_with_callees == ra[fib].regs_per_thread);
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            al[i].ra = ra[i];
            if (m->funcs[i].has_body)
                release(&al[i]);
        }
    }
    free(ra), free(al);
    hd_ptx_module_free(m);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = { 0 };
    test_basic(&t);
    test_empty(&t);
    test_loop_and_checker(&t);
    test_predicate_overflow(&t);
    test_maxnreg_spill(&t);
    test_phys_live_divergent(&t);
    test_calls(&t);
    test_random_programs(&t);
    test_corpus(&t);
    return hd_test_finish(&t);
}
