/* SPDX-License-Identifier: MIT
 * gpuduet_wct.c - GPUDuet's warp context table and TB context table of one SM (Lin thesis
 * §3.6.4, Fig 3.9, Table 3.4; digest §2.11, §3.8, §3.9).
 *   WCT   128 entries x 27 bits: Valid, State (running / stalled / absent / ready), Regaddr
 *         (unified-space unit of the register context: present iff in the register file),
 *         Metaaddr (warp slot when present, else the spilled meta-data's unit).
 *   TBCT  32 entries x 45 bits: Valid, Absmask (bit per warp, 1 = absent), Smemaddr.
 * The fields are the gpuduet_wct and gpuduet_tbct blocks' (gpuduet_tab.h): every change here is
 * a write on a block's port and every test reads the blocks' view. Design: a TB's warps take
 * consecutive free WCT entries (first fit over the blocks' Valid bits), so a TB entry names its
 * first warp. Beside the blocks each entry keeps what the model needs to name the warp to the SM
 * (context id, warp index, warp slot) and the CSL's queue flags; none is a field of the 27 or 45
 * bits.
 */
#include "gpuduet.h"
#include "gpuduet_tab.h"

#include <string.h>

void gd_wct_clear(struct gd_wct *t)
{
    struct gd_tab *tab = t->tab;
    memset(t, 0, sizeof *t);
    t->tab = tab;
    for (uint32_t i = 0; i < 256; i++)
        t->slot_entry[i] = GD_NONE;
    for (uint32_t i = 0; i < GD_WCT_ENTRIES; i++)
        t->w[i].pair = GD_NONE;
}

void gd_w_set_state(struct gd_wct *t, uint32_t e, uint8_t st)
{
    if (t->tab)
        gd_tab_w_state(t->tab, e, st);
}

static uint32_t unit(uint32_t u)
{
    return u == GD_NONE ? 0 : u;
}

uint32_t gd_wct_add_tb(struct gd_wct *t, uint32_t ctx, uint32_t cta_slot, uint32_t nwarps,
                       const uint32_t *slot, const uint32_t *reg, const uint32_t *meta,
                       uint32_t smem)
{
    if (!t->tab)
        return GD_NONE;
    uint32_t tb = GD_NONE, first = GD_NONE;
    for (uint32_t i = 0; i < GD_TBCT_ENTRIES && tb == GD_NONE; i++)
        if (!gd_t_valid(t, i))
            tb = i;
    for (uint32_t i = 0; tb != GD_NONE && i + nwarps <= GD_WCT_ENTRIES && first == GD_NONE;
         i++) {
        uint32_t k = 0;
        while (k < nwarps && !gd_w_valid(t, i + k))
            k++;
        if (k == nwarps)
            first = i;
    }
    if (tb == GD_NONE || first == GD_NONE)
        return GD_NONE;
    t->t[tb] = (struct gd_tbct_entry){.ctx = ctx, .nwarps = nwarps, .cta_slot = cta_slot,
                                      .first = first, .swap_rt = GD_NONE};
    uint32_t abs = 0;
    for (uint32_t i = 0; i < nwarps; i++) {
        const bool present = slot[i] != GD_NONE;
        t->w[first + i] = (struct gd_wct_entry){.ctx = ctx, .warp = i, .tb = tb, .slot = slot[i],
                                                .pair = GD_NONE};
        /* launched running when its contexts are present, else ready (§2.11) */
        gd_tab_w_launch(t->tab, first + i, present ? GD_WS_RUNNING : GD_WS_READY, unit(reg[i]),
                        unit(meta[i]));
        if (present && slot[i] < 256)
            t->slot_entry[slot[i]] = first + i;
        if (!present)
            abs |= 1u << i;
    }
    gd_tab_t_launch(t->tab, tb, abs, unit(smem));
    return tb;
}

uint32_t gd_wct_tb_of_ctx(const struct gd_wct *t, uint32_t ctx)
{
    for (uint32_t i = 0; i < GD_TBCT_ENTRIES; i++)
        if (t->t[i].ctx == ctx && gd_t_valid(t, i))
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
        gd_tab_w_finish(t->tab, e->first + i);
    }
    gd_tab_t_finish(t->tab, tb);
}

uint32_t gd_wct_find(const struct gd_wct *t, uint32_t ctx, uint32_t warp)
{
    const uint32_t tb = gd_wct_tb_of_ctx(t, ctx);
    return tb == GD_NONE || warp >= t->t[tb].nwarps ? GD_NONE : t->t[tb].first + warp;
}

void gd_wct_left(struct gd_wct *t, uint32_t e, uint32_t reg, uint32_t meta)
{
    struct gd_wct_entry *w = &t->w[e];
    if (w->slot != GD_NONE && w->slot < 256 && t->slot_entry[w->slot] == e)
        t->slot_entry[w->slot] = GD_NONE;
    w->slot = GD_NONE;
    w->coming = false;
    gd_tab_w_move(t->tab, e, GD_WS_ABSENT, unit(reg), unit(meta));
    gd_tab_t_warp(t->tab, w->tb, w->warp, true, gd_tab_t(t->tab, w->tb).smem);
}

void gd_wct_back(struct gd_wct *t, uint32_t e, uint32_t slot, uint32_t reg)
{
    struct gd_wct_entry *w = &t->w[e];
    w->slot = slot;
    w->coming = false;
    w->barrier = false;
    w->lr = 0;
    w->named = 0;
    if (w->pair < GD_WCT_ENTRIES && t->w[w->pair].pair == e)
        t->w[w->pair].pair = GD_NONE; /* (the swap is done: its stalled side is out) */
    w->pair = GD_NONE;
    if (slot < 256)
        t->slot_entry[slot] = e;
    gd_tab_w_move(t->tab, e, GD_WS_RUNNING, unit(reg), slot);
    gd_tab_t_warp(t->tab, w->tb, w->warp, false, gd_tab_t(t->tab, w->tb).smem);
}

static uint32_t tb_of_slot(const struct gd_wct *t, uint32_t cta_slot)
{
    for (uint32_t i = 0; i < GD_TBCT_ENTRIES; i++)
        if (t->t[i].cta_slot == cta_slot && gd_t_valid(t, i))
            return i;
    return GD_NONE;
}

bool gd_wct_tb_smem(const struct gd_wct *t, uint32_t cta_slot, uint32_t *smem)
{
    const uint32_t tb = tb_of_slot(t, cta_slot);
    if (tb == GD_NONE)
        return false;
    *smem = gd_tab_t(t->tab, tb).smem;
    return true;
}

void gd_wct_tb_smem_set(struct gd_wct *t, uint32_t cta_slot, uint32_t smem)
{
    const uint32_t tb = tb_of_slot(t, cta_slot);
    if (tb != GD_NONE)
        gd_tab_t_smem(t->tab, tb, unit(smem));
}

bool gd_wct_tb_all(const struct gd_wct *t, uint32_t tb, uint8_t st)
{
    const struct gd_tbct_entry *e = &t->t[tb];
    bool any = false;
    for (uint32_t i = 0; i < e->nwarps; i++) {
        const struct gd_wct_entry *w = &t->w[e->first + i];
        if (w->slot == GD_NONE)
            continue;
        if (gd_w_state(t, e->first + i) != st)
            return false;
        any = true;
    }
    return any;
}
