/* SPDX-License-Identifier: MIT
 * func_instr.h - a pre-decoded PTX instruction, as the executor (and the timing model) see it.
 *
 * Design: a kernel image (module.h) flattens the kernel and every .func it calls into one array
 * of these, indexed by a kernel-wide PC. Decoding happens once at module load: the semantic
 * handler is chosen from the opcode, type and modifiers; register numbers are made kernel-wide;
 * immediates are converted to the operand's type; symbols and param/local/shared variables are
 * resolved to addresses in their state space; branch targets and reconvergence points (IPDOM,
 * from hd_cfg) are kernel-wide PCs. The IR instruction stays reachable for messages (PTX line).
 * The lists of registers read and written are static per instruction, so a timing model can run
 * its scoreboard before it calls the functional step.
 */
#ifndef HD_FUNC_INSTR_H
#define HD_FUNC_INSTR_H

#include "ptx_ir.h"

#include <stdint.h>

#define HD_FUNC_MAX_SRCS 5
#define HD_FUNC_MAX_DSTS 4
#define HD_FUNC_MAX_READS 10

struct hd_func_exec;
struct hd_func_instr;

/* A `call` resolved at decode time: where each argument is copied from (the caller's .param
 * variables, in the thread's local memory) to the callee's parameters, and where each return
 * value goes back to. */
struct hd_func_copy {
    uint64_t from, to; /* local-memory offsets */
    uint32_t bytes;
};
struct hd_func_call {
    uint32_t kfunc;    /* callee's index in the kernel's function list */
    uint32_t nargs, nrets;
    struct hd_func_copy *args, *rets; /* rets: callee return parameter -> caller variable */
};
/* Execute `d` for the lanes in `mask` (SIMT-active lanes whose guard holds). */
typedef int (*hd_func_exec_fn)(struct hd_func_exec *x, const struct hd_func_instr *d,
                               uint32_t mask);

enum hd_func_src_kind { HD_SRC_NONE = 0, HD_SRC_REG, HD_SRC_IMM, HD_SRC_SREG };

struct hd_func_src {
    uint8_t kind;  /* enum hd_func_src_kind */
    uint8_t sreg;  /* enum hd_special_reg (HD_SRC_SREG) */
    uint8_t dim;   /* .x .y .z */
    uint8_t neg;   /* `!%p` */
    int32_t reg;   /* kernel-wide register index (HD_SRC_REG) */
    uint64_t imm;  /* value (HD_SRC_IMM), already in the operand's type */
};

/* Where a memory operand's address points after decoding. */
enum hd_func_as {
    HD_AS_NONE = 0,
    HD_AS_GLOBAL,  /* device memory: .global and .const (regions checked) */
    HD_AS_SHARED,  /* offset in the CTA's shared memory */
    HD_AS_LOCAL,   /* offset in the thread's local memory (also .func param/return frames) */
    HD_AS_PARAM,   /* offset in the kernel parameter buffer */
    HD_AS_GENERIC  /* resolved per lane through the generic address map */
};

struct hd_func_instr {
    hd_func_exec_fn exec;
    const struct hd_instr *ir;   /* source instruction (line, col, modifiers) */
    const struct hd_func *func;  /* PTX function it belongs to */
    uint16_t op;                 /* enum hd_op */
    uint8_t type, type2;         /* copied from ir */
    uint8_t nsrc, ndst;
    uint8_t bits;                /* width of `type` in bits (1 for pred) */
    uint8_t space;               /* PTX state space as written (enum hd_space) */
    uint8_t as;                  /* enum hd_func_as of the memory operand */
    uint8_t vec;                 /* elements of a vector ld/st (1, 2, 4) */
    uint8_t elem_bytes;          /* bytes per element of a memory access */
    uint8_t guard_neg;
    uint8_t addr32;              /* the address base register is 32-bit: sums wrap at 2^32 */
    uint8_t sgn, flt;            /* `type` is signed / floating point */
    int32_t guard;               /* kernel-wide predicate register or -1 */
    uint64_t wmask;              /* destination width mask (the register's width for ld/cvt,
                                    2 x bits for .wide, 32 bits for popc/clz/...) */
    int32_t dst[HD_FUNC_MAX_DSTS]; /* kernel-wide registers, -1 = sink */
    struct hd_func_src src[HD_FUNC_MAX_SRCS];
    int32_t addr_reg;            /* base register of the address, or -1 */
    int64_t addr_off;            /* constant part of the address (symbol resolved) */
    int32_t target;              /* branch target PC, or callee entry PC */
    int32_t reconv;              /* IPDOM PC of a branch, -1 = at exit/return */
    const struct hd_func_call *call; /* CALL: the resolved call site */
    /* registers for scoreboarding (kernel-wide indices, guard included) */
    uint8_t nread, nwrite;
    int32_t read[HD_FUNC_MAX_READS];
    int32_t write[HD_FUNC_MAX_DSTS];
};

#endif
