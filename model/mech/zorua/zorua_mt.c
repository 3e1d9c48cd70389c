/* SPDX-License-Identifier: MIT
 * zorua_mt.c - a Zorua mapping table with its FIFO free list (zorua_mt.h; Zorua Sec. 4.2-4.3).
 */
#include "zorua_mt.h"

#include <stdlib.h>
#include <string.h>

int zmt_init(struct zmt *t, uint32_t nids, uint32_t nsets, uint32_t nphys)
{
    memset(t, 0, sizeof *t);
    if (!nids || !nsets || !nphys || nphys > 0xFFF0u || (uint64_t)nids * nsets > 1u << 24)
        return -1;
    const size_t n = (size_t)nids * nsets;
    t->pset = calloc(n, sizeof *t->pset);
    t->valid = calloc(n, 1);
    t->alloc = calloc(n, 1);
    t->fl = calloc(nphys, sizeof *t->fl);
    if (!t->pset || !t->valid || !t->alloc || !t->fl) {
        zmt_free(t);
        return -1;
    }
    t->nids = nids;
    t->nsets = nsets;
    t->nphys = nphys;
    while ((1u << t->pbits) < nphys)
        t->pbits++;
    for (uint32_t i = 0; i < nphys; i++)
        t->fl[i] = (uint16_t)i;
    t->nfree = nphys;
    return 0;
}

void zmt_free(struct zmt *t)
{
    free(t->pset);
    free(t->valid);
    free(t->alloc);
    free(t->fl);
    memset(t, 0, sizeof *t);
}

static uint16_t fl_pop(struct zmt *t)
{
    const uint16_t u = t->fl[t->fl_head];
    t->fl_head = (t->fl_head + 1) % t->nphys;
    t->nfree--;
    return u;
}

static void fl_push(struct zmt *t, uint16_t u)
{
    t->fl[(t->fl_head + t->nfree) % t->nphys] = u;
    t->nfree++;
}

uint32_t zmt_held(const struct zmt *t, uint32_t id)
{
    uint32_t n = 0;
    while (n < t->nsets && t->alloc[(size_t)id * t->nsets + n])
        n++;
    return n;
}

uint32_t zmt_over(const struct zmt *t, uint32_t n)
{
    return n > t->nfree ? n - t->nfree : 0;
}

int zmt_grow(struct zmt *t, uint32_t id, uint32_t to, uint32_t swap_limit, bool force)
{
    const uint32_t from = zmt_held(t, id);
    if (id >= t->nids || to > t->nsets)
        return -1;
    if (to <= from)
        return 0;
    const uint32_t over = zmt_over(t, to - from);
    if (over && !force && t->swap_used + over > swap_limit)
        return -1;
    const uint32_t onchip = to - from - over;
    for (uint32_t s = from; s < to; s++) {
        const size_t e = (size_t)id * t->nsets + s;
        t->alloc[e] = 1;
        if (s < from + onchip) {
            t->pset[e] = fl_pop(t);
            t->valid[e] = 1;
        } else {
            t->pset[e] = 0;
            t->valid[e] = 0;
        }
    }
    t->swap_used += over;
    t->allocs += to - from;
    t->swapped_allocs += over;
    return (int)over;
}

void zmt_shrink(struct zmt *t, uint32_t id, uint32_t to)
{
    if (id >= t->nids)
        return;
    for (uint32_t s = zmt_held(t, id); s-- > to;) {
        const size_t e = (size_t)id * t->nsets + s;
        if (t->valid[e])
            fl_push(t, t->pset[e]);
        else
            t->swap_used--;
        t->alloc[e] = t->valid[e] = 0;
        t->pset[e] = 0;
        t->releases++;
    }
}

uint32_t zmt_lookup(const struct zmt *t, uint32_t id, uint32_t set)
{
    if (id >= t->nids || set >= t->nsets)
        return ZMT_NONE;
    const size_t e = (size_t)id * t->nsets + set;
    return !t->alloc[e] ? ZMT_NONE : t->valid[e] ? t->pset[e] : ZMT_SWAP;
}

bool zmt_spill(struct zmt *t, uint32_t id, uint32_t set)
{
    if (zmt_lookup(t, id, set) >= ZMT_SWAP)
        return false;
    const size_t e = (size_t)id * t->nsets + set;
    fl_push(t, t->pset[e]);
    t->valid[e] = 0;
    t->pset[e] = 0;
    t->swap_used++;
    t->spills++;
    return true;
}

bool zmt_fill(struct zmt *t, uint32_t id, uint32_t set)
{
    if (zmt_lookup(t, id, set) != ZMT_SWAP || !t->nfree)
        return false;
    const size_t e = (size_t)id * t->nsets + set;
    t->pset[e] = fl_pop(t);
    t->valid[e] = 1;
    t->swap_used--;
    t->fills++;
    return true;
}

uint32_t zmt_word(const struct zmt *t, uint32_t id, uint32_t set)
{
    if (id >= t->nids || set >= t->nsets)
        return 0;
    const size_t e = (size_t)id * t->nsets + set;
    return (uint32_t)t->valid[e] << t->pbits | (t->valid[e] ? t->pset[e] : 0u);
}

uint32_t zmt_bits(const struct zmt *t)
{
    return t->nids * t->nsets * (1 + t->pbits);
}
