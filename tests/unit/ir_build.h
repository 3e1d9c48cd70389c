/* SPDX-License-Identifier: MIT
 * ir_build.h - builds small struct hd_func bodies directly in C for compiler-pass unit tests, so
 * those tests do not depend on the PTX parser (header-only; static inline helpers).
 *
 *     struct irb b; irb_init(&b, "k", true);
 *     int32_t r0 = irb_reg(&b, "%r0", HD_T_B32);
 *     IRB(&b, HD_OP_MOV, HD_T_U32, opr(r0), opi(1));           // mov.u32 %r0, 1
 *     IRB_G(&b, p, false, HD_OP_BRA, HD_T_NONE, opl(7));       // @%p bra PC7
 * Every instruction gets line = 100 + PC so error messages can be checked.
 */
#ifndef HD_IR_BUILD_H
#define HD_IR_BUILD_H

#include <stdio.h>
#include <string.h>

#include "ptx_ir.h"

#define IRB_MAX_INSTRS 256
#define IRB_MAX_REGS 128

struct irb {
    struct hd_func f;
    struct hd_instr ins[IRB_MAX_INSTRS];
    struct hd_reg regs[IRB_MAX_REGS];
    char names[IRB_MAX_REGS][16];
    char fname[32];
};

static inline void irb_init(struct irb *b, const char *name, bool entry)
{
    memset(b, 0, sizeof(*b));
    snprintf(b->fname, sizeof(b->fname), "%s", name);
    b->f.name = b->fname;
    b->f.is_entry = entry;
    b->f.has_body = true;
    b->f.instrs = b->ins;
    b->f.regs = b->regs;
}

static inline int32_t irb_reg(struct irb *b, const char *name, enum hd_type t)
{
    uint32_t i = b->f.nregs++;
    snprintf(b->names[i], sizeof(b->names[i]), "%s", name);
    b->regs[i].name = b->names[i];
    b->regs[i].type = (uint8_t)t;
    return (int32_t)i;
}

static inline struct hd_operand irb_blank(uint8_t kind)
{
    struct hd_operand o;
    memset(&o, 0, sizeof(o));
    o.kind = kind;
    o.reg = -1;
    o.symbol = -1;
    for (int k = 0; k < 4; k++)
        o.vec[k] = -1;
    return o;
}
static inline struct hd_operand opr(int32_t r)
{
    struct hd_operand o = irb_blank(HD_OPND_REG);
    o.reg = r;
    return o;
}
static inline struct hd_operand opnot(int32_t r)
{
    struct hd_operand o = opr(r);
    o.neg = 1;
    return o;
}
static inline struct hd_operand opi(int64_t v)
{
    struct hd_operand o = irb_blank(HD_OPND_IMM_INT);
    o.imm = v;
    return o;
}
static inline struct hd_operand opl(uint32_t pc)
{
    struct hd_operand o = irb_blank(HD_OPND_LABEL);
    o.imm = pc;
    return o;
}
static inline struct hd_operand opa(int32_t base, int64_t off)
{
    struct hd_operand o = irb_blank(HD_OPND_ADDR);
    o.reg = base;
    o.imm = off;
    return o;
}
static inline struct hd_operand opparam(int32_t index) /* [param] address */
{
    struct hd_operand o = irb_blank(HD_OPND_ADDR);
    o.symbol = index;
    o.scope = HD_SCOPE_PARAM;
    return o;
}
static inline struct hd_operand opsreg(uint8_t sreg, uint8_t dim)
{
    struct hd_operand o = irb_blank(HD_OPND_SPECIAL);
    o.sreg = sreg;
    o.dim = dim;
    return o;
}
static inline struct hd_operand opv(uint8_t n, int32_t a, int32_t b, int32_t c, int32_t d)
{
    struct hd_operand o = irb_blank(HD_OPND_VEC);
    o.vec_n = n;
    o.vec[0] = a, o.vec[1] = b, o.vec[2] = c, o.vec[3] = d;
    return o;
}

static inline struct hd_instr *irb_ins(struct irb *b, int32_t guard, bool neg, uint16_t op,
                                       uint8_t type, const struct hd_operand *ops, unsigned n)
{
    uint32_t pc = b->f.ninstrs++;
    struct hd_instr *in = &b->ins[pc];
    memset(in, 0, sizeof(*in));
    in->op = op;
    in->type = type;
    in->guard = guard;
    in->guard_neg = neg;
    in->vec = 1;
    in->line = 100 + pc;
    in->col = 1;
    in->nopnds = (uint8_t)n;
    for (unsigned k = 0; k < n && k < HD_MAX_OPERANDS; k++)
        in->opnd[k] = ops[k];
    return in;
}

#define IRB_OPS(...) (const struct hd_operand[]){ __VA_ARGS__ }
#define IRB_N(...) (unsigned)(sizeof(IRB_OPS(__VA_ARGS__)) / sizeof(struct hd_operand))
/* Unguarded / guarded instruction with at least one operand. */
#define IRB(b, op, ty, ...) irb_ins((b), -1, false, (op), (ty), IRB_OPS(__VA_ARGS__), IRB_N(__VA_ARGS__))
#define IRB_G(b, g, neg, op, ty, ...) \
    irb_ins((b), (g), (neg), (op), (ty), IRB_OPS(__VA_ARGS__), IRB_N(__VA_ARGS__))
/* Instruction without operands (exit, ret, ...). */
#define IRB0(b, op) irb_ins((b), -1, false, (op), HD_T_NONE, NULL, 0)

/* Deterministic xorshift64 for random programs. */
static inline uint64_t irb_rng(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* A random kernel body: 6-19 data registers (32/64-bit), 2-9 predicates, 12-71 instructions of
 * moves, constants (immediates, ld.param), stores, setp, vector loads, selp, adds, guarded
 * writes, forward and backward branches and guarded exits, ending in exit. Reads often come
 * before any write on some path. */
static inline void irb_random_program(struct irb *b, uint64_t *rng)
{
    irb_init(b, "random", true);
    int32_t nd = 6 + (int32_t)(irb_rng(rng) % 14), np = 2 + (int32_t)(irb_rng(rng) % 8);
    int32_t data[24], pred[12];
    for (int32_t i = 0; i < nd; i++) {
        char name[16];
        snprintf(name, sizeof(name), "%%r%d", i);
        data[i] = irb_reg(b, name, irb_rng(rng) % 3 ? HD_T_B32 : HD_T_B64);
    }
    for (int32_t i = 0; i < np; i++) {
        char name[16];
        snprintf(name, sizeof(name), "%%p%d", i);
        pred[i] = irb_reg(b, name, HD_T_PRED);
    }
    uint32_t n = 12 + (uint32_t)(irb_rng(rng) % 60);
#define RD data[irb_rng(rng) % (uint64_t)nd]
#define RP pred[irb_rng(rng) % (uint64_t)np]
    for (uint32_t pc = 0; pc + 1 < n; pc++) {
        int32_t g = irb_rng(rng) % 5 == 0 ? RP : -1;
        bool neg = irb_rng(rng) & 1;
        struct hd_instr *in;
        switch (irb_rng(rng) % 10) {
        case 0:
            IRB_G(b, g, neg, HD_OP_MOV, HD_T_U32, opr(RD), opi((int64_t)(irb_rng(rng) % 100)));
            break;
        case 1:
            IRB(b, HD_OP_LD, HD_T_U32, opr(RD), opparam(0))->space = HD_SPACE_PARAM;
            break;
        case 2:
            IRB_G(b, g, neg, HD_OP_ST, HD_T_U32, opa(RD, 0), opr(RD))->space = HD_SPACE_GLOBAL;
            break;
        case 3:
            IRB_G(b, g, neg, HD_OP_SETP, HD_T_S32, opr(RP), opr(RD), opr(RD))->cmp = HD_CMP_LT;
            break;
        case 4: {
            int32_t x = RD, y = RD;
            in = IRB_G(b, g, neg, HD_OP_LD, HD_T_U32, opv(2, x, y == x ? -1 : y, -1, -1),
                       opa(RD, 8));
            in->space = HD_SPACE_GLOBAL, in->vec = 2;
            break;
        }
        case 5:
            IRB_G(b, g, neg, HD_OP_SELP, HD_T_B32, opr(RD), opr(RD), opr(RD), opr(RP));
            break;
        case 6: /* branch forward or backward, usually guarded */
            IRB_G(b, irb_rng(rng) % 4 ? RP : -1, neg, HD_OP_BRA, HD_T_NONE,
                  opl((uint32_t)(irb_rng(rng) % n)));
            break;
        case 7:
            if (irb_rng(rng) % 3 == 0) {
                IRB_G(b, RP, neg, HD_OP_EXIT, HD_T_NONE, opi(0))->nopnds = 0;
                break;
            }
            /* fall through */
        default:
            IRB_G(b, g, neg, HD_OP_ADD, HD_T_S32, opr(RD), opr(RD),
                  irb_rng(rng) & 1 ? opr(RD) : opi(7));
            break;
        }
    }
#undef RD
#undef RP
    IRB0(b, HD_OP_EXIT);
}

#endif
