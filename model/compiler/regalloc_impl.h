/* SPDX-License-Identifier: MIT
 * regalloc_impl.h - internal interface between regalloc.c (classification, results) and
 * regalloc_color.c (interference graph and coloring). Not for other units.
 */
#ifndef HD_REGALLOC_IMPL_H
#define HD_REGALLOC_IMPL_H

#include "regalloc.h"

struct hd_ra_ctx {
    const struct hd_func *f;
    const struct hd_liveness *lv;
    const uint8_t *kind;    /* [nregs] enum hd_ra_kind */
    uint32_t *rr_off;       /* [ninstrs + 1]: constants each PC reads in a register ... */
    uint32_t *rr_regs;      /* ... (hd_regalloc_remat_reads), flattened */
};

/* Color the registers of class c (HD_RA_REG, and HD_RA_REMAT ones read in a register) into
 * color[] (other entries untouched); `reserved` is a position never handed out (-1: none).
 * Returns the span (highest position + 1, at least reserved + 1) or -1 on allocation failure.
 * *max_words receives the most words of HD_RA_REG registers of the class live at once (live
 * before, or live after plus written), a lower bound on the span. */
int64_t hd_ra_color_class(const struct hd_ra_ctx *x, enum hd_rclass c, int32_t reserved,
                          int32_t *color, uint32_t *max_words);

#endif
