/* SPDX-License-Identifier: MIT
 * expars_oc.c - EXPARS's operand cache: tags, fills, evictions (expars_oc.h; Yu et al. §3.3.4,
 * §3.3.7; digest §2.6).
 */
#include "expars_oc.h"

#include <string.h>

void hd_expars_oc_init(struct hd_expars_oc *oc, uint32_t nlines, uint32_t nbanks)
{
    memset(oc, 0, sizeof *oc);
    oc->nlines = nlines > HD_EXPARS_OC_MAX_LINES ? HD_EXPARS_OC_MAX_LINES : nlines ? nlines : 1;
    oc->nbanks = nbanks ? nbanks : 1;
}

int hd_expars_oc_find(const struct hd_expars_oc *oc, uint32_t warp, uint32_t reg)
{
    const uint32_t i = hd_expars_oc_index(oc, reg);
    const struct hd_expars_oc_line *l = &oc->line[i];
    return l->valid && l->warp == warp && l->reg == reg ? (int)i : -1;
}

void hd_expars_oc_put(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                      bool dirty, struct hd_expars_oc_line *victim)
{
    struct hd_expars_oc_line *l = &oc->line[hd_expars_oc_index(oc, reg)];
    *victim = *l;
    if (victim->valid && victim->warp == warp && victim->reg == reg)
        victim->valid = false; /* the same register: nothing leaves */
    *l = (struct hd_expars_oc_line){true, dirty, false, (uint16_t)warp, (uint16_t)reg, ver};
}

void hd_expars_oc_drop_warp(struct hd_expars_oc *oc, uint32_t warp)
{
    for (uint32_t i = 0; i < oc->nlines; i++)
        if (oc->line[i].valid && oc->line[i].warp == warp)
            oc->line[i].valid = false;
}
