/* SPDX-License-Identifier: MIT
 * expars_oc.c - EXPARS's operand cache: tags, sets, replacement, fills and evictions
 * (expars_oc.h; Yu et al. §3.3.4, §3.3.7; digest §2.6).
 */
#include "expars_oc.h"

#include <string.h>

void hd_expars_oc_init(struct hd_expars_oc *oc, uint32_t nlines, uint32_t nbanks, uint32_t ways)
{
    memset(oc, 0, sizeof *oc);
    oc->nlines = nlines > HD_EXPARS_OC_MAX_LINES ? HD_EXPARS_OC_MAX_LINES : nlines ? nlines : 1;
    oc->nbanks = nbanks ? nbanks : 1;
    oc->ways = ways && ways <= oc->nlines ? ways : 1;
    oc->nsets = oc->nlines / oc->ways;
    oc->nlines = oc->nsets * oc->ways; /* (a partial set is not used) */
}

int hd_expars_oc_find(const struct hd_expars_oc *oc, uint32_t warp, uint32_t reg)
{
    const uint32_t base = hd_expars_oc_set(oc, reg) * oc->ways;
    for (uint32_t i = base; i < base + oc->ways; i++) {
        const struct hd_expars_oc_line *l = &oc->line[i];
        if (l->valid && l->warp == warp && l->reg == reg)
            return (int)i;
    }
    return -1;
}

/* rank of a candidate victim: lower is better */
static unsigned badness(const struct hd_expars_oc_line *l)
{
    if (!l->valid)
        return 0;
    return l->pinned ? 3 : l->dirty ? 2 : 1;
}

uint32_t hd_expars_oc_victim(const struct hd_expars_oc *oc, uint32_t warp, uint32_t reg)
{
    const int hit = hd_expars_oc_find(oc, warp, reg);
    if (hit >= 0)
        return (uint32_t)hit;
    const uint32_t base = hd_expars_oc_set(oc, reg) * oc->ways;
    uint32_t best = base;
    for (uint32_t i = base + 1; i < base + oc->ways; i++) {
        const unsigned a = badness(&oc->line[i]), b = badness(&oc->line[best]);
        if (a < b || (a == b && oc->line[i].used < oc->line[best].used))
            best = i;
    }
    return best;
}

uint32_t hd_expars_oc_put(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                          bool dirty, struct hd_expars_oc_line *victim)
{
    const uint32_t i = hd_expars_oc_victim(oc, warp, reg);
    struct hd_expars_oc_line *l = &oc->line[i];
    *victim = *l;
    if (victim->valid && victim->warp == warp && victim->reg == reg)
        victim->valid = false; /* the same register: nothing leaves */
    *l = (struct hd_expars_oc_line){true, dirty, false, (uint16_t)warp, (uint16_t)reg, ver,
                                    ++oc->clock};
    return i;
}

void hd_expars_oc_drop_warp(struct hd_expars_oc *oc, uint32_t warp)
{
    for (uint32_t i = 0; i < oc->nlines; i++)
        if (oc->line[i].valid && oc->line[i].warp == warp)
            oc->line[i].valid = false;
}
