/* SPDX-License-Identifier: MIT
 * regalloc.h - maps PTX virtual registers to physical 32-bit registers and predicate registers,
 * giving the registers per thread that occupancy uses and the register numbers that the
 * register-bank model (bank = physical register mod banks) and the register tables of later
 * hardware (Zorua, EXPARS, preemption) read.
 *
 * Model (what ptxas does on sm_7x, as far as it shows in `ptxas -v`):
 *   - Physical data registers R0..R(max_regs-1) are 32 bits; a 64-bit value takes an even-aligned
 *     pair, a 128-bit value a 4-aligned quad. R1 is the stack pointer (ptxas sets it up in every
 *     kernel), so values never use it. Predicates live in a separate file of 7 (P0..P6; PT is
 *     the constant true).
 *   - The reported count is (highest register index used + 1) + 2: ptxas on sm_7x reports two
 *     registers more than the highest it names (an empty kernel, which uses only R1, reports 4).
 *   - Constants are not kept in registers across their live range (remat = true): a value written
 *     only by ld.param of a kernel parameter, a move of an immediate, of a variable's address or of
 *     %ntid/%nctaid (constant-bank values on the hardware), or by a copy / cvta(.to).global of
 *     such a value, needs no register across its live range: an ALU instruction takes one such
 *     value as its constant-bank / immediate operand for free; an address, the data of a memory
 *     access, a call argument, or a second constant of one instruction needs a register at that
 *     instruction only (a move rematerialises it there). Such a value gets one register number
 *     (phys_of), valid at those reads only, or none if it never needs one. Registers read but
 *     never written get the same treatment (their value is undefined).
 *   - A register written but never read takes no register (the hardware writes RZ / PT).
 *
 * Allocation: an interference graph (two registers interfere when one is live after an
 * instruction that writes the other, when both are live on entry to a join block, or when both
 * are constants read in a register by one instruction: so no two registers live at the same PC
 * share a physical register), colored
 * greedily in a dominance order (reverse post-order of blocks, first write), each value at the
 * lowest free aligned position; this is optimal for SSA-like code, which nvcc's PTX nearly is.
 * A second order (smallest-last by weighted degree) is also tried and the smaller result kept.
 * Values that do not fit below the budget (max_regs, or .maxnreg, minus the 2) are marked
 * spilled, and predicates beyond the predicate file are kept in one extra data register (ptxas's
 * P2R/R2P), both counted in the result. Calls: see hd_regalloc_link(). Deterministic: only
 * indices decide.
 */
#ifndef HD_REGALLOC_H
#define HD_REGALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "liveness.h"
#include "ptx_ir.h"

enum hd_ra_kind {
    HD_RA_NONE = 0, /* never named, or written but never read: no register */
    HD_RA_REG,      /* a physical register for its whole live range */
    HD_RA_REMAT,    /* a constant: phys_of (-1 if never needed) is valid only at the
                       instructions that read it in a register (hd_regalloc_remat_reads) */
    HD_RA_SPILLED   /* did not fit in the register budget (local memory) */
};

struct hd_regalloc_params {
    uint32_t max_regs;  /* addressable data registers per thread (255 on sm_3x+: R0..R254) */
    int32_t sp_reg;     /* register reserved as stack pointer (1), or -1 for none */
    uint32_t abi_regs;  /* registers added to the reported count (2 on sm_7x) */
    uint32_t pred_regs; /* predicate registers (7) */
    bool remat;         /* constants occupy registers only where read (see above) */
};

/* A call site: what the caller keeps in registers while the callee runs. */
struct hd_ra_call {
    uint32_t pc;
    int32_t callee;            /* function index in the module (call operand), -1 if unknown */
    uint32_t live_words;       /* data words live across the call */
};

struct hd_regalloc {
    uint32_t nregs;
    int32_t *phys_of;          /* [nregs] first physical register (R index for data, P index for
                                  predicates), -1 for HD_RA_NONE / HD_RA_SPILLED and for a
                                  constant only ever read as an operand */
    uint8_t *kind;             /* [nregs] enum hd_ra_kind */
    uint32_t regs_per_thread;  /* the occupancy count: gpr_span + abi_regs (as ptxas -v) */
    uint32_t gpr_span;         /* highest data register used + 1 (at least sp_reg + 1) */
    uint32_t pred_regs;        /* predicate registers used (at most params.pred_regs) */
    uint32_t pred_spills;      /* predicates that did not fit the predicate file */
    int32_t pred_spill_reg;    /* data register holding them, or -1 */
    uint32_t spill_words;      /* 32-bit words of values marked HD_RA_SPILLED */
    uint32_t max_live_words;   /* lower bound: most data words live at once (constants excluded) */
    uint32_t max_live_preds;
    struct hd_ra_call *calls;  /* [ncalls] in PC order */
    uint32_t ncalls;
    uint32_t regs_with_callees; /* regs_per_thread including called functions (hd_regalloc_link);
                                   equal to regs_per_thread for a function without calls */
    struct hd_regalloc_params params;
};

/* The sm_7x defaults described above. */
void hd_regalloc_params_default(struct hd_regalloc_params *p);
/* Allocate `f` (cfg and lv built from it). params may be NULL (defaults). Returns 0, or -1 with a
 * message in err (allocation failure). Free with hd_regalloc_free(). */
int hd_regalloc_run(const struct hd_func *f, const struct hd_cfg *cfg, const struct hd_liveness *lv,
                    const struct hd_regalloc_params *params, struct hd_regalloc *out, char *err,
                    size_t errlen);
void hd_regalloc_free(struct hd_regalloc *ra);

/* Account for calls, once every function of module m has been allocated (ra[i] for m->funcs[i];
 * a function without a body may be left zeroed): sets ra[i].regs_with_callees to
 *     max(gpr_span, max over call sites (live_words + callee's demand)) + abi_regs
 * capped at the budget, i.e. the callee's registers stacked above what the caller keeps across
 * the call. A call that closes a recursion cycle adds nothing: the caller's live values go to its
 * stack frame (ptxas spills around recursive calls). */
void hd_regalloc_link(const struct hd_module *m, struct hd_regalloc *ra);

/* The constants (HD_RA_REMAT registers) instruction pc reads in a register, into regs (room for
 * HD_RA_MAX_READS): all of them for a memory access or call (address, data), otherwise all but
 * the first data constant, which the hardware takes as its one constant-bank / immediate operand
 * (predicates always need a register). A constant never read in a register has phys_of -1. */
#define HD_RA_MAX_READS 32
unsigned hd_regalloc_remat_reads(const struct hd_func *f, const struct hd_liveness *lv,
                                 const uint8_t *kind, uint32_t pc, uint32_t *regs);

/* Check an allocation against the liveness: at every PC, the registers live before it (plus the
 * constants it reads) occupy pairwise disjoint physical registers, and so do the registers live
 * after it plus those it writes; pairs and quads are aligned; nothing uses the stack pointer or
 * lies beyond gpr_span. Returns 0, or -1 with the first violation (function, PC, PTX line, both
 * registers, physical register) in err. Used by the tests on every kernel. */
int hd_regalloc_check(const struct hd_func *f, const struct hd_liveness *lv,
                      const struct hd_regalloc *ra, char *err, size_t errlen);

/* Physical data registers live before pc (bits 0..255; constants excluded), or under divergence
 * the union of Lin §2.3 (hd_liveness_divergent_row). This is the liveness vector of a preemption
 * point over the register file. */
void hd_regalloc_phys_live(const struct hd_regalloc *ra, const struct hd_liveness *lv, uint32_t pc,
                           bool divergent, uint64_t out[4]);

/* Register bank of word `word` of data register `reg` ((phys_of + word) mod nbanks), or -1 if it
 * has no register (a constant read as an operand, a spilled or unused register). */
static inline int hd_regalloc_bank(const struct hd_regalloc *ra, uint32_t reg, unsigned word,
                                   unsigned nbanks)
{
    int32_t p = reg < ra->nregs ? ra->phys_of[reg] : -1;
    return p < 0 || nbanks == 0 ? -1 : (int)(((uint32_t)p + word) % nbanks);
}

#endif
