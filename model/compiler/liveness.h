/* SPDX-License-Identifier: MIT
 * liveness.h - live PTX virtual registers at every PC, and the divergence-aware live set of
 * Lin's thesis §2.3 (the registers a preempted warp must save when its threads may be apart).
 *
 * What is computed (precisely):
 *   - Backward dataflow over the CFG (cfg.h) on bit vectors, one bit per register. Uses and
 *     writes per instruction come from defuse.h: guards, address bases, vector elements and
 *     predicate sources are uses; a guarded write is conditional and does not kill (the old
 *     value survives in the lanes whose guard is false); an unguarded write kills.
 *   - The result is then intersected with "maybe defined" (forward dataflow: some write of the
 *     register reaches the point on some path from the entry). A register that is read later but
 *     written on no path so far holds no value yet and is *not* live. This keeps conditionally
 *     written registers (`@p mov r,..; @!p mov r,..`) and reads of never-written registers from
 *     being live all the way back to the entry, and is exact per path: along any path, a value
 *     written on that path and read later on it is live at every point in between.
 *   - Live-in(pc) is the set just before instruction pc executes, live-out(pc) just after. A
 *     write whose value is never read is in neither (it still occupies a register at that one
 *     instruction; register allocation accounts for it).
 *   - Predicate registers (.pred) and data registers are numbered densely and separately
 *     (enum hd_rclass), each with its own bit vectors. Data registers have a width in 32-bit
 *     words: 64-bit types count 2, .b128 counts 4, every other data type (including 8/16-bit
 *     registers, which occupy a full 32-bit register on the hardware) counts 1.
 *   - Registers never named by any instruction are not tracked (a `.reg .b32 %r<100>` range that
 *     uses 40 names costs nothing).
 *
 * Divergence-aware live set (Lin §2.3, generalised to nesting): when a warp has diverged, some of
 * its threads wait while others run. Under post-dominator (IPDOM) reconvergence the waiting
 * threads sit only at the not-yet-run successor of an enclosing divergent branch d or at d's
 * reconvergence point r = IPDOM(d). A PC p is enclosed by d when p can be reached from d's
 * successors without passing r. So
 *     live_div(p) = live_in(p) ∪ ⋃_{d encloses p} ( live_out(d) ∪ live_in(r(d)) )
 * (live_out(d) covers the pending successor's live-in; Lin's formula is the single-branch case
 * "preemption point ∪ divergence point ∪ reconvergence point"). Potentially divergent branches
 * are guarded non-.uni `bra` and `brx.idx` with two or more successor blocks; a branch that
 * reconverges only at exit contributes live_out(d) alone; threads that executed `exit` hold
 * nothing. The union per block is precomputed, so a query costs one row OR.
 *
 * Invariants: immutable after hd_liveness_build(); rows are indexed by PC (instruction index),
 * like every other per-PC annotation; memory is ninstrs x (data + predicate registers) bits,
 * at most HD_LIVENESS_MAX_BYTES.
 */
#ifndef HD_LIVENESS_H
#define HD_LIVENESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "ptx_ir.h"

enum hd_rclass { HD_RC_DATA = 0, HD_RC_PRED = 1, HD_RC_COUNT = 2 };
#define HD_RC_NONE 0xFF /* hd_liveness_class() of a register that no instruction names */
/* The bit rows of one function (per PC and per block, every class) may take at most this much
 * memory; a larger function is refused with a message naming both sizes (a 1 MB PTX file with
 * 20,000 live registers needs ~100 MiB). */
#define HD_LIVENESS_MAX_BYTES (512ull << 20)

struct hd_liveness {
    const struct hd_func *func;
    const struct hd_cfg *cfg;
    uint32_t ninstrs, nregs, nblocks;
    uint32_t *rpo;                   /* [nblocks] reverse post-order from the entry, unreachable last */
    /* registers */
    uint8_t *rclass;                 /* [nregs] enum hd_rclass, or HD_RC_NONE */
    uint8_t *words;                  /* [nregs] 32-bit words (1 for a predicate, 0 if untracked) */
    uint32_t *index;                 /* [nregs] dense index within its class */
    uint32_t n[HD_RC_COUNT];         /* tracked registers per class */
    uint32_t *reg_of[HD_RC_COUNT];   /* [n[c]] dense index -> register */
    uint32_t stride[HD_RC_COUNT];    /* uint64_t words per bit row */
    /* per-instruction register lists (from defuse), flattened: defs then uses */
    uint32_t *du_off;                /* [ninstrs + 1] */
    uint8_t *ndefs;                  /* [ninstrs] */
    bool *conditional;               /* [ninstrs] guarded: writes do not kill */
    int32_t *du_regs;
    /* results */
    uint64_t *in[HD_RC_COUNT];       /* [ninstrs][stride]: live-in at each PC */
    uint64_t *blk_out[HD_RC_COUNT];  /* [nblocks][stride]: live-out of each block */
    uint64_t *div[HD_RC_COUNT];      /* [nblocks][stride]: union over enclosing divergent branches */
    bool *may_diverge;               /* [nblocks]: some divergent branch encloses the block */
    uint32_t *words_in;              /* [ninstrs]: live-in data words */
    uint32_t max_words;              /* maximum of words_in and of the words live after a write */
    uint32_t max_words_pc;           /* a PC where max_words is reached */
    uint32_t max_preds;              /* maximum live predicates at any point */
};

/* Build the liveness of `f` over `cfg` (built from the same function). Returns NULL with a message
 * in err[errlen] on malformed IR (a register index out of range, named with kernel, PC and PTX
 * line) or allocation failure. */
struct hd_liveness *hd_liveness_build(const struct hd_func *f, const struct hd_cfg *cfg, char *err,
                                      size_t errlen);
void hd_liveness_free(struct hd_liveness *lv);

/* {==== Registers ==== */
static inline enum hd_rclass hd_liveness_class(const struct hd_liveness *lv, uint32_t reg)
{
    return (enum hd_rclass)lv->rclass[reg];
}
static inline bool hd_liveness_tracked(const struct hd_liveness *lv, uint32_t reg)
{
    return reg < lv->nregs && lv->rclass[reg] != HD_RC_NONE;
}
/* Registers read / written by instruction pc (from defuse; may repeat). */
const int32_t *hd_liveness_uses(const struct hd_liveness *lv, uint32_t pc, uint32_t *n);
const int32_t *hd_liveness_defs(const struct hd_liveness *lv, uint32_t pc, uint32_t *n);
/* }==== */

/* {==== Queries ==== */
/* Bit rows (lv->stride[rc] words, bit i = register lv->reg_of[rc][i]). */
const uint64_t *hd_liveness_in_row(const struct hd_liveness *lv, uint32_t pc, enum hd_rclass rc);
const uint64_t *hd_liveness_out_row(const struct hd_liveness *lv, uint32_t pc, enum hd_rclass rc);
bool hd_liveness_live_in(const struct hd_liveness *lv, uint32_t pc, uint32_t reg);
bool hd_liveness_live_out(const struct hd_liveness *lv, uint32_t pc, uint32_t reg);
/* 32-bit words of live data registers / number of live predicates. */
uint32_t hd_liveness_words_in(const struct hd_liveness *lv, uint32_t pc);
uint32_t hd_liveness_words_out(const struct hd_liveness *lv, uint32_t pc);
uint32_t hd_liveness_preds_in(const struct hd_liveness *lv, uint32_t pc);
/* }==== */

/* {==== Divergence-aware liveness (Lin §2.3) ==== */
/* Can the warp be diverged while some of its threads are at pc? */
bool hd_liveness_may_diverge(const struct hd_liveness *lv, uint32_t pc);
/* live_div(pc) into out[lv->stride[rc]] (equals live_in(pc) where the warp cannot be diverged). */
void hd_liveness_divergent_row(const struct hd_liveness *lv, uint32_t pc, enum hd_rclass rc,
                               uint64_t *out);
uint32_t hd_liveness_divergent_words(const struct hd_liveness *lv, uint32_t pc);
/* }==== */

#endif
