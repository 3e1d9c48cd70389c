/* SPDX-License-Identifier: MIT
 * expars_oc.c - EXPARS's operand cache in the timing model: each operation is one of the tag
 * block's (tables/expars_oc_tags.c, applied to the model's tags), handed to the blocks in the
 * loop when they are on (expars_oc.h; Yu et al. §3.3.4, §3.3.7; digest §2.6).
 */
#include "expars_oc.h"

#include "expars_loop.h"

#include <string.h>

void hd_expars_oc_init(struct hd_expars_oc *oc, uint32_t nlines, uint32_t nbanks, uint32_t ways)
{
    memset(oc, 0, sizeof *oc);
    hd_expars_oc_tags_init(&oc->t, nlines, nbanks, ways);
}

/* The model's answer, then the loop's (the block's with --drive rtl). */
static void op(struct hd_expars_oc *oc, unsigned o, uint32_t warp, uint32_t reg, uint32_t ver,
               bool dirty, struct hd_expars_oc_res *r)
{
    hd_expars_oc_tags_apply(&oc->t, o, warp, reg, ver, dirty, r);
    if (oc->loop)
        hd_expars_loop_oc(oc->loop, oc->sm, o, warp, reg, ver, dirty, r);
}

int hd_expars_oc_find(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_PEEK, warp, reg, 0, false, &r);
    return r.hit ? (int)r.line : -1;
}

uint32_t hd_expars_oc_victim(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_PEEK, warp, reg, 0, false, &r);
    return r.line;
}

int hd_expars_oc_read(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t *victim,
                      uint32_t *ver)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_READ, warp, reg, 0, false, &r);
    *victim = r.line;
    *ver = r.ver;
    return r.hit ? (int)r.line : -1;
}

uint32_t hd_expars_oc_write(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                            bool *hit, struct hd_expars_oc_line *evicted)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_WRITE, warp, reg, ver, true, &r);
    *hit = r.hit;
    *evicted = r.vic;
    return r.line;
}

uint32_t hd_expars_oc_put(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                          bool dirty, struct hd_expars_oc_line *victim)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_PUT, warp, reg, ver, dirty, &r);
    *victim = r.vic;
    return r.line;
}

bool hd_expars_oc_pin(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_PIN, warp, reg, 0, false, &r);
    return r.hit;
}

uint32_t hd_expars_oc_unpin_warp(struct hd_expars_oc *oc, uint32_t warp)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_UNPIN, warp, 0, 0, false, &r);
    return r.n;
}

uint32_t hd_expars_oc_steal(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_STEAL, warp, reg, 0, false, &r);
    return r.n;
}

void hd_expars_oc_drop_warp(struct hd_expars_oc *oc, uint32_t warp)
{
    struct hd_expars_oc_res r;
    op(oc, HD_EXPARS_OC_DROP, warp, 0, 0, false, &r);
}
