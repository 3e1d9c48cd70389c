/* SPDX-License-Identifier: MIT
 * zorua_slots.c - the thread-slot mapping table over the zorua_map block's C reference
 * (zorua_slots.h; Zorua Sec. 4.2).
 */
#include "zorua_slots.h"

int zsl_init(struct zslots *t, uint32_t nwarps, uint32_t nphys)
{
    return zmt_init(&t->t, nwarps, 1, nphys);
}

void zsl_free(struct zslots *t)
{
    zmt_free(&t->t);
}

bool zsl_take(struct zslots *t, uint32_t w)
{
    if (w >= t->t.nids || zmt_held(&t->t, w) || !t->t.nfree)
        return false;
    return zmt_grow(&t->t, w, 1, 0, false) == 0;
}

void zsl_give(struct zslots *t, uint32_t w)
{
    zmt_shrink(&t->t, w, 0);
}

uint32_t zsl_of(const struct zslots *t, uint32_t w)
{
    return w < t->t.nids ? zmt_lookup(&t->t, w, 0) : ZSL_NONE;
}
