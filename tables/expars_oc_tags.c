/* SPDX-License-Identifier: MIT
 * expars_oc_tags.c - EXPARS's operand-cache tag array: the tag functions the timing model uses
 * and the block's C reference over them (expars_oc_tags.h; Yu et al. §3.3.4, §3.3.7; digest
 * §2.6).
 *
 * Design: LRU as a rank per line within its set (the RTL's AgW-bit age flops): a touch moves the
 * line to rank 0 and ages the lines that were more recent. This orders a set exactly as a
 * timestamp per line would (a fresh set: lower lines older), with log2(ways) bits per line.
 */
#include "expars_oc_tags.h"

#include <string.h>

#define HD_PORTS_DEF "expars_oc_tags_ports.def"
#define HD_PORTS_IN_T struct hd_expars_oc_tags_in
#define HD_PORTS_OUT_T struct hd_expars_oc_tags_out
#define HD_PORTS_BLOCK_VAR hd_expars_oc_tags_block
#include "hd_ports_table.h"

void hd_expars_oc_tags_init(struct hd_expars_oc_tags *t, uint32_t nlines, uint32_t nbanks,
                            uint32_t ways)
{
    memset(t, 0, sizeof *t);
    t->nlines = nlines > HD_EXPARS_OC_MAX_LINES ? HD_EXPARS_OC_MAX_LINES : nlines ? nlines : 1;
    t->nbanks = nbanks ? nbanks : 1;
    t->ways = ways && ways <= t->nlines ? ways : 1;
    t->nsets = t->nlines / t->ways;
    t->nlines = t->nsets * t->ways; /* (a partial set is not used) */
    for (uint32_t i = 0; i < t->nlines; i++)
        t->line[i].age = (uint8_t)(t->ways - 1 - i % t->ways);
}

/* The line holding (warp, reg), or -1. */
static int hd_expars_oc_tags_find(const struct hd_expars_oc_tags *t, uint32_t warp,
                                  uint32_t reg)
{
    const uint32_t base = hd_expars_oc_tags_set(t, reg) * t->ways;
    for (uint32_t i = base; i < base + t->ways; i++) {
        const struct hd_expars_oc_line *l = &t->line[i];
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

/* The line a fill of (warp, reg) would take (its own if present). */
static uint32_t hd_expars_oc_tags_victim(const struct hd_expars_oc_tags *t, uint32_t warp,
                                         uint32_t reg)
{
    const int hit = hd_expars_oc_tags_find(t, warp, reg);
    if (hit >= 0)
        return (uint32_t)hit;
    const uint32_t base = hd_expars_oc_tags_set(t, reg) * t->ways;
    uint32_t best = base;
    for (uint32_t i = base + 1; i < base + t->ways; i++) {
        const unsigned a = badness(&t->line[i]), b = badness(&t->line[best]);
        if (a < b || (a == b && t->line[i].age > t->line[best].age))
            best = i;
    }
    return best;
}

void hd_expars_oc_tags_touch(struct hd_expars_oc_tags *t, uint32_t i)
{
    const uint32_t base = i / t->ways * t->ways;
    const uint8_t a = t->line[i].age;
    for (uint32_t j = base; j < base + t->ways; j++)
        if (t->line[j].age < a)
            t->line[j].age++;
    t->line[i].age = 0;
}

/* Install (warp, reg, ver, dirty) in its victim line; r->vic = what left (valid = false: none). */
static void put(struct hd_expars_oc_tags *t, uint32_t warp, uint32_t reg, uint32_t ver, bool dirty,
                struct hd_expars_oc_res *r)
{
    const uint32_t i = hd_expars_oc_tags_victim(t, warp, reg);
    struct hd_expars_oc_line *l = &t->line[i];
    r->line = i;
    r->hit = l->valid && l->warp == warp && l->reg == reg;
    if (l->valid && !r->hit)
        r->vic = *l;
    const uint8_t age = l->age;
    *l = (struct hd_expars_oc_line){true, dirty, false, (uint16_t)warp, (uint16_t)reg, ver, age};
    hd_expars_oc_tags_touch(t, i);
}

void hd_expars_oc_tags_apply(struct hd_expars_oc_tags *t, unsigned op, uint32_t warp,
                             uint32_t reg, uint32_t ver, bool dirty, struct hd_expars_oc_res *r)
{
    memset(r, 0, sizeof *r);
    r->bank = hd_expars_oc_tags_bank(t, reg);
    const int f = hd_expars_oc_tags_find(t, warp, reg);
    switch (op) {
    case HD_EXPARS_OC_PEEK:
    case HD_EXPARS_OC_READ:
        r->hit = f >= 0;
        r->line = f >= 0 ? (uint32_t)f : hd_expars_oc_tags_victim(t, warp, reg);
        if (f >= 0) {
            r->ver = t->line[f].ver;
            if (op == HD_EXPARS_OC_READ)
                hd_expars_oc_tags_touch(t, (uint32_t)f);
        } else if (t->line[r->line].valid) {
            r->vic = t->line[r->line];
        }
        break;
    case HD_EXPARS_OC_WRITE:
        if (f >= 0) {
            r->hit = true;
            r->line = (uint32_t)f;
            t->line[f].ver = ver;
            t->line[f].dirty = true;
            hd_expars_oc_tags_touch(t, (uint32_t)f);
        } else {
            put(t, warp, reg, ver, true, r);
        }
        break;
    case HD_EXPARS_OC_PUT:
        put(t, warp, reg, ver, dirty, r);
        break;
    case HD_EXPARS_OC_PIN:
        r->hit = f >= 0;
        r->line = f >= 0 ? (uint32_t)f : 0;
        if (f >= 0)
            t->line[f].pinned = true;
        break;
    case HD_EXPARS_OC_STEAL: {
        const uint32_t base = hd_expars_oc_tags_set(t, reg) * t->ways;
        for (uint32_t j = base; j < base + t->ways; j++) {
            struct hd_expars_oc_line *l = &t->line[j];
            if (l->valid && l->pinned && l->warp != warp) {
                l->pinned = false;
                r->n++;
            }
        }
        break;
    }
    default: /* UNPIN, DROP: every line of the warp */
        for (uint32_t j = 0; j < t->nlines; j++) {
            struct hd_expars_oc_line *l = &t->line[j];
            if (!l->valid || l->warp != warp)
                continue;
            if (op == HD_EXPARS_OC_DROP) {
                l->valid = false;
                r->n++;
            } else if (l->pinned) {
                l->pinned = false;
                r->n++;
            }
        }
        break;
    }
}

/* {==== The block ==== */
#define WMASK ((1u << EXPARS_OC_TAGS_WW) - 1u)
#define RMASK ((1u << EXPARS_OC_TAGS_RW) - 1u)
#define VMASK ((uint32_t)((1ull << EXPARS_OC_TAGS_VW) - 1u))

void hd_expars_oc_tags_ref_reset(struct hd_expars_oc_tags_state *s)
{
    memset(s, 0, sizeof *s);
    hd_expars_oc_tags_init(&s->t, EXPARS_OC_TAGS_Lines, EXPARS_OC_TAGS_Banks,
                           EXPARS_OC_TAGS_Ways);
    hd_block_reset_values(&hd_expars_oc_tags_block, HD_DIR_OUT, &s->q);
}

void hd_expars_oc_tags_ref_step(struct hd_expars_oc_tags_state *s,
                                const struct hd_expars_oc_tags_in *in,
                                struct hd_expars_oc_tags_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (!(in->op_v_i & 1u))
        return;
    struct hd_expars_oc_res r;
    hd_expars_oc_tags_apply(&s->t, (unsigned)(in->op_i & 7u), (uint32_t)in->warp_i & WMASK,
                            (uint32_t)in->reg_i & RMASK, (uint32_t)in->ver_i & VMASK,
                            in->dirty_i & 1u, &r);
    s->q.res_v_o = 1;
    s->q.hit_o = r.hit;
    s->q.line_o = r.line;
    s->q.bank_o = r.bank;
    s->q.ver_o = r.ver;
    s->q.vic_v_o = r.vic.valid;
    if (r.vic.valid) {
        s->q.vic_dirty_o = r.vic.dirty;
        s->q.vic_pinned_o = r.vic.pinned;
        s->q.vic_warp_o = r.vic.warp;
        s->q.vic_reg_o = r.vic.reg;
        s->q.vic_ver_o = r.vic.ver;
    }
    s->q.n_o = r.n;
}

bool hd_expars_oc_tags_ref_idle(const struct hd_expars_oc_tags_state *s,
                                const struct hd_expars_oc_tags_in *in)
{
    return !(in->op_v_i & 1u) && !(s->q.res_v_o & 1u);
}
/* }==== */
