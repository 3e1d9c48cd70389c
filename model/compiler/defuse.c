/* SPDX-License-Identifier: MIT
 * defuse.c - registers read and written by one PTX instruction (operand roles per opcode).
 *
 * The destination count is decided by the opcode alone (plus the setp combine operand, the
 * shfl/match predicate-out flag and the bar.red modes); everything after the destinations is a
 * source. Call sites keep their argument/return lists outside the operand array (hd_call_site).
 */
#include "defuse.h"

static void add_use(struct hd_defuse *du, int32_t reg, uint8_t opnd)
{
    if (reg < 0)
        return;
    if (du->nuses >= HD_DEFUSE_MAX_USES) {
        du->truncated = true;
        return;
    }
    du->use_opnd[du->nuses] = opnd;
    du->uses[du->nuses++] = reg;
}

static void add_def(struct hd_defuse *du, int32_t reg)
{
    if (reg < 0)
        return;
    if (du->ndefs >= HD_DEFUSE_MAX_DEFS) {
        du->truncated = true;
        return;
    }
    du->defs[du->ndefs++] = reg;
}

unsigned hd_defuse_ndst(const struct hd_instr *in)
{
    switch ((enum hd_op)in->op) {
    case HD_OP_ST:
    case HD_OP_RED:
    case HD_OP_PREFETCH:
    case HD_OP_MEMBAR:
    case HD_OP_FENCE:
    case HD_OP_BRA:
    case HD_OP_BRX:
    case HD_OP_CALL:
    case HD_OP_RET:
    case HD_OP_EXIT:
    case HD_OP_TRAP:
    case HD_OP_BRKPT:
    case HD_OP_NANOSLEEP:
    case HD_OP_PMEVENT:
        return 0;
    case HD_OP_BAR:
    case HD_OP_BARRIER:
        /* bar.red.{popc,and,or} d, a{, b}, {!}c writes d; bar.sync/arrive write nothing */
        return (in->mode == HD_MODE_BAR_RED_POPC || in->mode == HD_MODE_BAR_RED_AND ||
                in->mode == HD_MODE_BAR_RED_OR) ? 1u : 0u;
    case HD_OP_SETP: {
        /* setp.cmp p[|q], a, b[, {!}c]: c is present exactly when a combine op is written */
        unsigned srcs = 2u + (in->boolop != HD_BOOL_NONE ? 1u : 0u);
        return in->nopnds >= srcs + 2u ? 2u : 1u;
    }
    case HD_OP_SHFL:
    case HD_OP_MATCH:
        return (in->flags & HD_F_PRED_OUT) ? 2u : 1u;
    default:
        return in->nopnds > 0 ? 1u : 0u;
    }
}

static void operand_regs(struct hd_defuse *du, const struct hd_operand *o, uint8_t idx, bool dst)
{
    switch (o->kind) {
    case HD_OPND_REG:
        if (dst)
            add_def(du, o->reg);
        else
            add_use(du, o->reg, idx);
        break;
    case HD_OPND_VEC:
        for (unsigned k = 0; k < o->vec_n && k < 4; k++) {
            if (dst)
                add_def(du, o->vec[k]);
            else
                add_use(du, o->vec[k], idx);
        }
        break;
    case HD_OPND_ADDR:
        add_use(du, o->reg, idx); /* the base register is read even when the address is written */
        break;
    default:
        break;
    }
}

static void call_regs(struct hd_defuse *du, const struct hd_func *f, const struct hd_instr *in)
{
    if (in->nopnds < 1 || in->opnd[0].kind != HD_OPND_FUNC || !f->calls)
        return;
    int64_t site = in->opnd[0].imm;
    if (site < 0 || (uint64_t)site >= f->ncalls)
        return;
    const struct hd_call_site *cs = &f->calls[site];
    for (uint32_t k = 0; k < cs->nargs; k++)
        operand_regs(du, &cs->args[k], 0, false);
    for (uint32_t k = 0; k < cs->nrets; k++)
        operand_regs(du, &cs->rets[k], 0, true);
}

void hd_defuse_get(const struct hd_func *f, uint32_t pc, struct hd_defuse *du)
{
    const struct hd_instr *in = &f->instrs[pc];
    du->ndefs = du->nuses = 0;
    du->truncated = false;
    du->conditional = in->guard >= 0;
    if (in->guard >= 0)
        add_use(du, in->guard, HD_DEFUSE_GUARD);
    unsigned ndst = hd_defuse_ndst(in);
    unsigned n = in->nopnds < HD_MAX_OPERANDS ? in->nopnds : HD_MAX_OPERANDS;
    for (unsigned k = 0; k < n; k++)
        operand_regs(du, &in->opnd[k], (uint8_t)k, k < ndst);
    if (in->op == HD_OP_CALL)
        call_regs(du, f, in);
}
