/* SPDX-License-Identifier: MIT
 * annot.h - the annotation store of one kernel image: CFG, liveness (incl. Lin §2.3's
 * divergence-aware rows) and register allocation of each of its functions, kept for the whole
 * run, plus per-PC facts and open per-PC columns that later compiler passes add.
 *
 * Design: a kernel image (model/func/module.h) flattens its functions into one code array with
 * kernel-wide PCs and one register numbering; the store is indexed the same way, so the timing
 * model (tkernel.c), the co-simulation and later passes (preemption points, hints, phase
 * specifiers, bundles) read one set of analyses instead of recomputing them with their own
 * parameters. The store stays below model/func: the caller describes the image's layout as
 * hd_annot_func rows (function IR, module index, first PC, first register).
 *   - Built once (hd_annot_build); the analyses are immutable afterwards. Register allocation
 *     runs over every function with hd_regalloc_link() for calls and the budget
 *     params.max_regs (the SM's max_regs_per_thread); if it fails for any function, `ra_ok` is
 *     false, `note` says why, and queries that need it answer "no register" (liveness stays).
 *   - Per PC: flags (branch, potentially divergent branch, may be diverged, loop header / body /
 *     back edge of a natural loop, barrier, call, exit), the kernel-wide reconvergence PC, the
 *     natural-loop depth, and `fetch_extra`: fetch cycles a virtual instruction (a preemption
 *     point, a phase marker) costs on top of a normal fetch (0 unless a pass sets it; sm_fetch.c
 *     honours it).
 *   - Columns: named uint32 rows over every PC (0 until set) that a pass creates with
 *     hd_annot_column() and fills before the first launch; the timing model and policies read
 *     them (the scheduler's warp view carries the column value of a warp's next PC).
 *   - Live-register queries use one scratch row owned by the store: the model is single-threaded
 *     and a query's result is consumed before the next query.
 * Deterministic: only indices decide.
 */
#ifndef HD_ANNOT_H
#define HD_ANNOT_H

#include "cfg.h"
#include "liveness.h"
#include "ptx_ir.h"
#include "regalloc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One function of the kernel image, as the image lays it out. */
struct hd_annot_func {
    const struct hd_func *ir;
    uint32_t index;    /* in the module's function list */
    uint32_t pc_base;  /* its first kernel-wide PC */
    uint32_t reg_base; /* its first kernel-wide register */
};

struct hd_annot_params {
    uint32_t max_regs; /* register budget per thread (0: the allocator's default) */
};

enum hd_annot_flag {
    HD_AN_BRANCH = 1u << 0,     /* bra / brx / call / ret / exit */
    HD_AN_DIVERGENT = 1u << 1,  /* a branch that may split the warp (guarded non-.uni bra, brx) */
    HD_AN_MAY_DIVERGE = 1u << 2,/* the warp may be diverged while threads are here */
    HD_AN_LOOP_HEAD = 1u << 3,  /* first instruction of a natural loop's header */
    HD_AN_IN_LOOP = 1u << 4,    /* inside some natural loop */
    HD_AN_BACK_EDGE = 1u << 5,  /* last instruction of a block with an edge to its loop header */
    HD_AN_BARRIER = 1u << 6,    /* bar / barrier */
    HD_AN_CALL = 1u << 7,
    HD_AN_EXIT = 1u << 8        /* exit / ret / trap */
};

struct hd_annot_pc {
    uint16_t flags;       /* enum hd_annot_flag */
    uint8_t fetch_extra;  /* extra fetch cycles (virtual instructions) */
    uint8_t loop_depth;   /* natural loops enclosing the PC */
    int32_t reconv;       /* a branch's kernel-wide reconvergence PC, else HD_PC_EXIT */
    uint32_t fn;          /* index of its function in hd_annot.fn */
};

struct hd_annot_fn {
    struct hd_annot_func f;
    struct hd_cfg *cfg;       /* NULL if the function has no body or the build failed */
    struct hd_liveness *lv;   /* NULL likewise */
    const struct hd_regalloc *ra; /* NULL unless the store's ra_ok */
};

struct hd_annot_col {
    char name[32];
    uint32_t *v;              /* [ncode] */
};

struct hd_annot {
    uint32_t ncode;
    uint32_t nregs;               /* kernel-wide registers */
    struct hd_annot_fn *fn;       /* [nfn], in the image's order */
    uint32_t nfn, entry_fn;
    struct hd_annot_pc *pc;       /* [ncode] */
    struct hd_regalloc *ra_mod;   /* [module nfuncs] (zeroed where not run) */
    bool *ra_run;                 /* [module nfuncs] */
    uint32_t nmod;
    bool ra_ok;                   /* every function allocated (physical registers valid) */
    uint32_t regs_per_thread;     /* the entry's regs_with_callees (0 unless ra_ok) */
    char note[200];               /* why ra_ok is false, or "" */
    bool any_fetch_extra;         /* some PC has a fetch_extra (the fetch stage's fast path) */
    struct hd_annot_col *col;
    uint32_t ncol;
    uint64_t *scratch;            /* one bit row (live queries) */
    uint32_t scratch_words;
};

/* Build the store of a kernel image: `fn[nfn]` its functions (fn[entry_fn] the entry), `ncode`
 * its kernel-wide PCs, `nregs` its kernel-wide registers, `m` the module. Returns 0, or -1 with a
 * message on host allocation failure (an analysis that fails is recorded in `note`, not fatal). */
int hd_annot_build(const struct hd_module *m, const struct hd_annot_func *fn, uint32_t nfn,
                   uint32_t entry_fn, uint32_t ncode, uint32_t nregs,
                   const struct hd_annot_params *p, struct hd_annot **out, char *err,
                   size_t errlen);
void hd_annot_free(struct hd_annot *a);

/* {==== Per-PC facts ==== */
/* The function of kernel-wide pc (NULL if out of range); *lpc its local PC. */
const struct hd_annot_fn *hd_annot_fn_at(const struct hd_annot *a, uint32_t pc, uint32_t *lpc);
static inline uint32_t hd_annot_flags(const struct hd_annot *a, uint32_t pc)
{
    return pc < a->ncode ? a->pc[pc].flags : 0;
}
static inline int32_t hd_annot_reconv(const struct hd_annot *a, uint32_t pc)
{
    return pc < a->ncode ? a->pc[pc].reconv : HD_PC_EXIT;
}
static inline uint32_t hd_annot_fetch_extra(const struct hd_annot *a, uint32_t pc)
{
    return pc < a->ncode ? a->pc[pc].fetch_extra : 0;
}
void hd_annot_set_fetch_extra(struct hd_annot *a, uint32_t pc, uint8_t cycles);
/* The extra fetch cycles of the n instructions from pc (one fetch delivers them). */
static inline uint32_t hd_annot_fetch_extra_range(const struct hd_annot *a, uint32_t pc,
                                                  uint32_t n)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; a->any_fetch_extra && i < n && pc + i < a->ncode; i++)
        sum += a->pc[pc + i].fetch_extra;
    return sum;
}
/* }==== */

/* {==== Registers (kernel-wide PTX register numbers) ==== */
/* 32-bit words of register kreg (0 for a predicate or an untracked register). */
uint32_t hd_annot_reg_words(const struct hd_annot *a, uint32_t kreg);
/* First physical register of kreg, or -1 (no register, a constant read as an operand, spilled,
 * or no allocation). */
int32_t hd_annot_phys(const struct hd_annot *a, uint32_t kreg);
/* The allocator's kind of kreg (enum hd_ra_kind); HD_RA_REG for every register without an
 * allocation (then every live value counts as held). */
uint8_t hd_annot_ra_kind(const struct hd_annot *a, uint32_t kreg);
/* Does kreg's value occupy a register or a spill slot (HD_RA_REG or HD_RA_SPILLED)? */
bool hd_annot_held(const struct hd_annot *a, uint32_t kreg);
/* Live data registers before pc (divergent: Lin §2.3's union row), kernel-wide numbers in
 * increasing order, into regs[max]; held_only skips values that occupy no register. Returns the
 * number of live registers (may exceed max: then only the first max are written). */
unsigned hd_annot_live_regs(const struct hd_annot *a, uint32_t pc, bool divergent,
                            bool held_only, uint32_t *regs, unsigned max);
/* 32-bit words of those registers. */
uint32_t hd_annot_live_words(const struct hd_annot *a, uint32_t pc, bool divergent,
                             bool held_only);
/* }==== */

/* {==== Columns added by later passes ==== */
/* The column called name, created (all zero) if absent. Returns its index, or -1 on host
 * allocation failure. */
int hd_annot_column(struct hd_annot *a, const char *name);
/* The column called name, or -1. */
int hd_annot_find_column(const struct hd_annot *a, const char *name);
static inline uint32_t hd_annot_get(const struct hd_annot *a, int col, uint32_t pc)
{
    return col >= 0 && (uint32_t)col < a->ncol && pc < a->ncode ? a->col[col].v[pc] : 0;
}
void hd_annot_set(struct hd_annot *a, int col, uint32_t pc, uint32_t v);
/* }==== */

#endif
