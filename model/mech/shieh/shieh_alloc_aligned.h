/* SPDX-License-Identifier: MIT
 * shieh_alloc_aligned.h - Shieh's dual-kernel allocator with allocation alignment (Shieh thesis
 * §3.2, Fig 3.2): at most two launches per SM, the preempting launch's CTAs only at aligned
 * positions (shieh_alloc_aligned.c; the allocation layer's interface is sm_alloc.h).
 */
#ifndef HD_SM_ALLOC_ALIGNED_H
#define HD_SM_ALLOC_ALIGNED_H

#include "sm_alloc.h"

/* Returns 0, or -1 on host allocation failure or more CTA slots than a candidate bitset holds
 * (64). */
int hd_sm_alloc_aligned(const struct hd_sm_params *p, struct hd_sm_alloc *out);

#endif
