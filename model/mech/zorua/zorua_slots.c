/* SPDX-License-Identifier: MIT
 * zorua_slots.c - the thread-slot mapping table with its FIFO free list (zorua_slots.h; Zorua
 * Sec. 4.2).
 */
#include "zorua_slots.h"

#include <stdlib.h>
#include <string.h>

int zsl_init(struct zslots *t, uint32_t nwarps, uint32_t nphys)
{
    memset(t, 0, sizeof *t);
    if (!nwarps || !nphys || nwarps > 0xFFF0u || nphys > 0xFFF0u)
        return -1;
    t->slot = malloc(nwarps * sizeof *t->slot);
    t->fl = malloc(nphys * sizeof *t->fl);
    if (!t->slot || !t->fl) {
        zsl_free(t);
        return -1;
    }
    for (uint32_t w = 0; w < nwarps; w++)
        t->slot[w] = ZSL_NONE;
    for (uint32_t i = 0; i < nphys; i++)
        t->fl[i] = (uint16_t)i;
    t->nwarps = nwarps;
    t->nphys = t->nfree = nphys;
    return 0;
}

void zsl_free(struct zslots *t)
{
    free(t->slot);
    free(t->fl);
    memset(t, 0, sizeof *t);
}

bool zsl_take(struct zslots *t, uint32_t w)
{
    if (w >= t->nwarps || t->slot[w] != ZSL_NONE || !t->nfree)
        return false;
    t->slot[w] = t->fl[t->fl_head];
    t->fl_head = (t->fl_head + 1) % t->nphys;
    t->nfree--;
    return true;
}

void zsl_give(struct zslots *t, uint32_t w)
{
    if (w >= t->nwarps || t->slot[w] == ZSL_NONE)
        return;
    t->fl[(t->fl_head + t->nfree) % t->nphys] = t->slot[w];
    t->nfree++;
    t->slot[w] = ZSL_NONE;
}

uint32_t zsl_of(const struct zslots *t, uint32_t w)
{
    return w < t->nwarps ? t->slot[w] : ZSL_NONE;
}
