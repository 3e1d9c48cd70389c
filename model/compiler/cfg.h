/* SPDX-License-Identifier: MIT
 * cfg.h - control-flow graph of one PTX function, its dominator and post-dominator trees, and the
 * SIMT reconvergence point (immediate post-dominator) of every branch.
 *
 * Basic blocks are maximal runs of instructions that start at a label target or after a branch /
 * exit / ret, and end at a branch, exit or ret. The CFG has a virtual EXIT node that every exit/ret
 * block (and a trap) reaches, so post-dominators are defined for every block. Dominators follow
 * Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order.
 *
 * The result is immutable and indexed by instruction index (PC), so that the functional model,
 * the timing model and later passes (liveness, hints, preemption points) share it.
 */
#ifndef HD_CFG_H
#define HD_CFG_H

#include "ptx_ir.h"

#define HD_PC_EXIT (-1) /* "reconverge at thread exit": the branch has no post-dominating PC */

struct hd_block {
    uint32_t first, last;      /* instruction index range [first, last] */
    uint32_t *succ, nsucc;     /* successor block ids (EXIT is not listed) */
    uint32_t *pred, npred;
    bool exits;                /* falls into the virtual EXIT node */
    int32_t idom;              /* immediate dominator block, -1 for the entry */
    int32_t ipdom;             /* immediate post-dominator block, -1 for EXIT */
};

struct hd_cfg {
    const struct hd_func *func;
    struct hd_block *blocks;
    uint32_t nblocks;
    uint32_t *block_of;        /* [ninstrs]: block id of each instruction */
    int32_t *reconv_pc;        /* [ninstrs]: for a branch, the PC of its IPDOM (or HD_PC_EXIT);
                                  HD_PC_EXIT for non-branches */
    uint32_t nbranches;        /* conditional (guarded, non-uni) branches */
};

/* Build the CFG of `f`. Returns NULL only on allocation failure. */
struct hd_cfg *hd_cfg_build(const struct hd_func *f);
void hd_cfg_free(struct hd_cfg *cfg);
/* Does block a dominate block b? (post = false) / post-dominate (post = true) */
bool hd_cfg_dominates(const struct hd_cfg *cfg, uint32_t a, uint32_t b, bool post);

#endif
