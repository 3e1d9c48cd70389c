/* SPDX-License-Identifier: MIT
 * ctx_tb.h - TB-level compression as a save mode ([context] save = compressed_tb; Lin thesis
 * §2.3.3 Fig 2.11, "evaluated but not adopted"; digest §2.3, §3.5): at a barrier point each live
 * register is classified over the TB's warps by the regpat_tbcls block, and the global classes
 * are stored once per TB instead of in every warp's record (ctx_tb.c says how).
 */
#ifndef HD_SM_CTX_TB_H
#define HD_SM_CTX_TB_H

#include "ctx_pool.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_sm;
struct hd_tcta;

/* With x->items planned (warp-major): is the CTA at a barrier point with the same live words in
 * every warp? If so, x->tb is set and the classification pass is ready to run (classifying).
 * Returns false (x->tb false: the save is warp-level), or false with *oom on host OOM. */
bool hd_sm_ctx_tb_plan(struct hd_sm *sm, struct hd_tcta *c, bool *oom);
/* The most bytes the TB part of a save of k registers per warp takes (its layout reserve). */
uint64_t hd_sm_ctx_tb_bound(uint32_t k);
/* One cycle of the classification pass of x (one warp's warp-level result into the classifier).
 * When the last class is back: the TB part is written, the global registers leave x->items and
 * the warp-level encoding of the rest starts (or the save is complete). Returns a status. */
int hd_sm_ctx_tb_cycle(struct hd_sm *sm, struct hd_ctx *x, uint64_t now, char *err,
                       size_t errlen);
/* On a restore of a TB-level save, once its bytes are back: every global register rebuilt from
 * its TB scalars must equal each warp's register, or a located error. Returns a status. */
int hd_sm_ctx_tb_check(struct hd_sm *sm, struct hd_ctx *x, uint64_t now, char *err,
                       size_t errlen);

#endif
