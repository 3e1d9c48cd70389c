/* SPDX-License-Identifier: MIT
 * warpman_mech.c - the registry entry of Warpman (Xiang et al., HPCA 2014), the warp-level
 * resource management EXPARS compares with (Yu et al. TACO 2018 §5, digest
 * ../shared/reference/papers/expars.md §2.10): the allocator value `warpman`
 * (warpman_alloc.h). It has no hardware in the loop (no attach). docs/expars.md "Warpman at run
 * time".
 */
#include "mech.h"
#include "warpman_alloc.h"

static const struct hd_mech_alloc warpman_allocs[] = {
    {HD_ALLOC_WARPMAN, hd_warpman_alloc_create},
};

const struct hd_mech hd_mech_warpman = {
    "warpman",
    "Warpman (Xiang, Yang, Zhou, HPCA 2014) as EXPARS's baseline (Yu et al. TACO 2018, L37, "
    "L307-L309): whole CTAs plus one partial CTA, registers per warp",
    warpman_allocs, sizeof warpman_allocs / sizeof warpman_allocs[0],
    NULL, 0,
    NULL,
};
