/* SPDX-License-Identifier: MIT
 * defuse.h - which PTX virtual registers one instruction reads and writes.
 *
 * The single place that knows the operand roles of every opcode, shared by liveness, register
 * allocation and the later per-PC passes (hints, bundles, preemption points). Rules:
 *   - destinations are the leading operands (ptx_ir.h: "destination(s) first, as written"); their
 *     number depends on the opcode: none for st/red/bar/branches/..., two for `setp p|q`,
 *     `shfl d|p` and `match.all d|p`, one otherwise; a vector destination {a,b,...} writes each
 *     named element (`_` writes nothing);
 *   - every other register operand is read: plain registers, vector elements, the base register
 *     of an address [r+imm], predicate sources (also when negated), and the guard predicate;
 *   - the register operands of a call site (f->calls) are read (arguments) and written (returns);
 *   - a guarded instruction (`@p ...`) writes its destinations only in the lanes where the guard
 *     holds, so its writes are *conditional*: they do not end the live range of the old value.
 *     Every write in PTX is otherwise a full write of the register (ld/cvt into a wider register
 *     extend the value), so conditional writes are the only partial definitions.
 * The carry flag of add.cc/addc is not a virtual register and is not reported.
 */
#ifndef HD_DEFUSE_H
#define HD_DEFUSE_H

#include "ptx_ir.h"

#define HD_DEFUSE_MAX_DEFS 8
#define HD_DEFUSE_MAX_USES 32
#define HD_DEFUSE_GUARD 0xFF /* use_opnd value of the guard predicate */

struct hd_defuse {
    uint8_t ndefs, nuses;
    bool conditional;                   /* guarded: the writes do not kill */
    bool truncated;                     /* a call site had more registers than fit (not for nvcc PTX) */
    int32_t defs[HD_DEFUSE_MAX_DEFS];   /* registers written, in operand order (may repeat) */
    int32_t uses[HD_DEFUSE_MAX_USES];   /* registers read, in operand order (may repeat) */
    uint8_t use_opnd[HD_DEFUSE_MAX_USES]; /* operand index of each use, or HD_DEFUSE_GUARD */
};

/* Number of leading destination operands of `in` (0, 1 or 2). */
unsigned hd_defuse_ndst(const struct hd_instr *in);
/* Registers read and written by instruction `pc` of `f` (pc < f->ninstrs). */
void hd_defuse_get(const struct hd_func *f, uint32_t pc, struct hd_defuse *du);

#endif
