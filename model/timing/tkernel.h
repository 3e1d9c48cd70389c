/* SPDX-License-Identifier: MIT
 * tkernel.h - the timing model's view of a kernel image: per-PC timing class, unit and the
 * register-file words each instruction reads, and the kernel's registers per thread.
 *
 * Design: built once per kernel image (and configuration) and shared read-only by every launch,
 * CTA and warp, like the image itself. Registers per thread come from the register allocator
 * (model/compiler/regalloc.h) run over every function of the module, with calls linked; if the
 * allocator fails for a kernel, the count of PTX register words is used instead and `regs_source`
 * says so. The banked words of an instruction are its non-predicate register reads (sources,
 * address base, store data, guard excluded since predicates live in their own file), each 64-bit
 * register counting two words and a 128-bit one four, duplicates read once. Their register
 * numbers are physical (the allocator's, bank = (phys + warp offset) mod banks) or, with
 * [pipeline] reg_bank_source = ptx, the kernel-wide PTX register index; constants that the
 * allocator keeps as operands read no bank. The analyses behind all this stay in `an`, the
 * image's annotation store, for later passes, policies and the co-simulation to read.
 */
#ifndef HD_TKERNEL_H
#define HD_TKERNEL_H

#include "annot.h"
#include "module.h"
#include "ppoints.h"
#include "timing_params.h"

#include <stddef.h>
#include <stdint.h>

#define HD_TK_MAX_WORDS 16
#define HD_TK_MAX_DST 8

struct hd_tinstr {
    uint8_t cls;     /* enum hd_tclass */
    uint8_t unit;    /* enum hd_tunit (HD_TU_NONE: completes at issue) */
    uint8_t nwords;  /* banked register words read */
    uint8_t to_sfu;  /* [pipeline] unit_* = sp_or_sfu: the SFU when no SP collector is free */
    uint16_t word[HD_TK_MAX_WORDS]; /* their register numbers (before warp offset and modulo) */
    uint8_t ndst;    /* destination words (the operand-location hook's writes, sm_oloc.h) */
    uint16_t dst[HD_TK_MAX_DST]; /* their register numbers, numbered as word[] */
};

/* Register spills (tkernel.c): a value the register allocator marked HD_RA_SPILLED lives in a
 * spill slot of local memory; every instruction that reads it is preceded by a fill (LDL) of its
 * slot and every instruction that writes it followed by a store (STL), as ptxas's spill code
 * ("N bytes spill stores, M bytes spill loads"). Slots follow the thread's .local frames, one
 * per spilled register of the image in register order (4 bytes per word: the figure occupancy
 * counts, hd_occ_local_per_thread). The timing model issues them through the LD/ST unit
 * (sm_spill.c); the functional model keeps every value in its registers, so results are
 * unchanged. */
struct hd_tspill_op {
    uint32_t reg;   /* kernel-wide PTX register */
    uint32_t word;  /* first word of its slot, from the start of the spill area */
    uint32_t words; /* 1, 2 or 4 */
};
struct hd_tspill_pc {
    uint32_t first;       /* its fills, then its stores, in tk->spill_op */
    uint16_t nfill, nstore;
};

struct hd_tkernel {
    const struct hd_func_kernel *k;
    uint32_t id;              /* order of creation: gives the code a deterministic address */
    uint64_t code_base;       /* instruction-cache address of PC 0 */
    struct hd_tinstr *in;     /* [k->ncode] */
    uint32_t regs_per_thread; /* for occupancy (regalloc, or PTX words as a fallback) */
    const char *regs_source;  /* "regalloc" or "ptx" */
    uint32_t ptx_words;       /* PTX register words of the kernel (for reports) */
    char note[256];           /* why the fallback was used, or "" */
    struct hd_annot *an;      /* CFG, liveness, register allocation and per-PC annotations of
                                 the image, kept for the whole run (model/compiler/annot.h) */
    struct hd_ppoints *pp;    /* Lin's selective preemption points ([context] points =
                                 selective; the store's "pp" column), else NULL */
    struct hd_tspill_pc *spill_pc; /* [k->ncode] fills and stores per PC, or NULL: no spill */
    struct hd_tspill_op *spill_op;
    uint32_t spill_words;     /* 32-bit words of spill slots per thread (every function) */
};

/* The annotation store of kernel image k (register budget max_regs), as the timing view builds
 * it (also for reports: heddle ptx-info). NULL with a message on host memory failure. */
struct hd_annot *hd_tkernel_annot_build(const struct hd_func_kernel *k, uint32_t max_regs,
                                        char *err, size_t errlen);
/* Build the timing view of kernel image k with SM parameters sp. `id` numbers the kernel.
 * Returns NULL with a message on allocation failure. */
struct hd_tkernel *hd_tkernel_build(const struct hd_func_kernel *k, const struct hd_sm_params *sp,
                                    uint32_t id, char *err, size_t errlen);
void hd_tkernel_free(struct hd_tkernel *tk);

/* The timing class of a decoded instruction (pure; exported for tests and reports). */
enum hd_tclass hd_tkernel_classify(const struct hd_func_instr *d);

#endif
