/* SPDX-License-Identifier: MIT
 * gpuduet_wct.c - GPUDuet's warp context table and TB context table of one SM (Lin thesis
 * §3.6.4, Fig 3.9, Table 3.4; digest §2.11, §3.8, §3.9).
 *   WCT   128 entries x 27 bits: Valid, State (running / stalled / absent / ready), Regaddr
 *         (unified-space unit of the register context: present iff in the register file),
 *         Metaaddr (warp slot when present, else the spilled meta-data's unit).
 *   TBCT  32 entries x 45 bits: Valid, Absmask (bit per warp, 1 = absent), Smemaddr.
 * Design: a TB's warps take consecutive free WCT entries (first fit), so a TB entry names its
 * first warp. Beside the hardware fields each entry keeps what the model needs to name the warp
 * to the SM (context id, warp index, warp slot); these are not part of the 27 or 45 bits.
 */
#include "gpuduet.h"

#include <string.h>

void gd_wct_clear(struct gd_wct *t)
{
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < 256; i++)
        t->slot_entry[i] = GD_NONE;
}

uint32_t gd_wct_add_tb(struct gd_wct *t, uint32_t ctx, uint32_t cta_slot, uint32_t nwarps,
                       const uint32_t *slot)
{
    uint32_t tb = GD_NONE, first = GD_NONE;
    for (uint32_t i = 0; i < GD_TBCT_ENTRIES && tb == GD_NONE; i++)
        if (!t->t[i].valid)
            tb = i;
    for (uint32_t i = 0; tb != GD_NONE && i + nwarps <= GD_WCT_ENTRIES && first == GD_NONE;
         i++) {
        uint32_t k = 0;
        while (k < nwarps && !t->w[i + k].valid)
            k++;
        if (k == nwarps)
            first = i;
    }
    if (tb == GD_NONE || first == GD_NONE)
        return GD_NONE;
    t->t[tb] = (struct gd_tbct_entry){true, 0, 0, ctx, nwarps, cta_slot, first, 0, false, false};
    for (uint32_t i = 0; i < nwarps; i++) {
        const bool present = slot[i] != GD_NONE;
        t->w[first + i] = (struct gd_wct_entry){
            true, present ? GD_WS_RUNNING : GD_WS_READY, 0,
            (uint16_t)(present ? slot[i] : 0), ctx, i, tb, slot[i], false, false, 0, 0, 0, false};
        if (present && slot[i] < 256)
            t->slot_entry[slot[i]] = first + i;
        if (!present)
            t->t[tb].absmask |= 1u << i;
    }
    return tb;
}

uint32_t gd_wct_tb_of_ctx(const struct gd_wct *t, uint32_t ctx)
{
    for (uint32_t i = 0; i < GD_TBCT_ENTRIES; i++)
        if (t->t[i].valid && t->t[i].ctx == ctx)
            return i;
    return GD_NONE;
}

void gd_wct_remove_tb(struct gd_wct *t, uint32_t ctx)
{
    const uint32_t tb = gd_wct_tb_of_ctx(t, ctx);
    if (tb == GD_NONE)
        return;
    const struct gd_tbct_entry *e = &t->t[tb];
    for (uint32_t i = 0; i < e->nwarps; i++) {
        struct gd_wct_entry *w = &t->w[e->first + i];
        if (w->slot != GD_NONE && w->slot < 256 && t->slot_entry[w->slot] == e->first + i)
            t->slot_entry[w->slot] = GD_NONE;
        w->valid = false;
    }
    t->t[tb].valid = false;
}

uint32_t gd_wct_find(const struct gd_wct *t, uint32_t ctx, uint32_t warp)
{
    const uint32_t tb = gd_wct_tb_of_ctx(t, ctx);
    return tb == GD_NONE || warp >= t->t[tb].nwarps ? GD_NONE : t->t[tb].first + warp;
}

void gd_wct_left(struct gd_wct *t, uint32_t e)
{
    struct gd_wct_entry *w = &t->w[e];
    if (w->slot != GD_NONE && w->slot < 256 && t->slot_entry[w->slot] == e)
        t->slot_entry[w->slot] = GD_NONE;
    w->slot = GD_NONE;
    w->state = GD_WS_ABSENT;
    t->t[w->tb].absmask |= 1u << w->warp;
}

void gd_wct_back(struct gd_wct *t, uint32_t e, uint32_t slot)
{
    struct gd_wct_entry *w = &t->w[e];
    w->slot = slot;
    w->metaaddr = (uint16_t)slot;
    w->state = GD_WS_RUNNING;
    w->barrier = false;
    w->lr = 0;
    if (slot < 256)
        t->slot_entry[slot] = e;
    t->t[w->tb].absmask &= ~(1u << w->warp);
}

bool gd_wct_tb_all(const struct gd_wct *t, uint32_t tb, uint8_t st)
{
    const struct gd_tbct_entry *e = &t->t[tb];
    bool any = false;
    for (uint32_t i = 0; i < e->nwarps; i++) {
        const struct gd_wct_entry *w = &t->w[e->first + i];
        if (w->slot == GD_NONE)
            continue;
        if (w->state != st)
            return false;
        any = true;
    }
    return any;
}
