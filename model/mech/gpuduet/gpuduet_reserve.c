/* SPDX-License-Identifier: MIT
 * gpuduet_reserve.c - the CSL's side of GPUDuet's unified storage before a switch-out (Lin thesis
 * §3.6.4-3.6.5, digest §2.12, §3.7, §3.11): a warp's (or a TB's) spill space reserved at the
 * SM's allocation bitmap block, or taken over from the ready warp (TB) of a swap, which
 * exchanges the two context spaces with no bitmap operation (session 15); and the pairing of a
 * swap (session 16): ONE stalled warp for ONE ready warp, the slot and register run the stalled
 * warp gives up reserved for that ready warp (gd_alloc_pair; gpuduet_alloc.c's release_part
 * hands them over, its acquire takes them). Split from gpuduet_alloc.c (the allocator's
 * placement, switch-in, answers and audit), whose records it shares (gpuduet_alloc_priv.h).
 * Deterministic; no state of its own.
 */
#include "gpuduet_alloc_priv.h"

bool gd_alloc_reserve(struct gd_alloc *a, uint32_t cta, uint32_t warp, bool tb, uint32_t from)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used)
        return false;
    struct gd_cta *c = &a->cta[cta];
    if (tb) {
        if (!c->pl.spill_smem || c->smem_sp != GD_NONE || !gda_smem_present(a, cta))
            return true;
        /* A swap (a ready TB named, its spill run the same size): the two exchange context
         * spaces, as §3.6.6 says ("the CSL swaps the context space of them"), with no bitmap
         * operation: this TB's shared memory goes where the ready TB's is, the ready TB's into
         * the home this one leaves (its switch-in asks for it). Session 20: before, the block
         * was asked for a fresh run first (one scan of the register file, then the warps'
         * meta-data units: HG's stalled TBs waited 188 cycles on average to leave) and the
         * exchange was taken only when that found no room. */
        if (c->rtb != P_RUN && from < a->p->max_ctas && a->cta[from].used &&
            !gda_smem_present(a, from) && a->cta[from].pl.S == c->pl.S &&
            a->cta[from].n == c->n && a->cta[from].smem != GD_NONE) {
            c->smem_sp = a->cta[from].smem;
            a->cta[from].smem = GD_NONE;
            c->rtb = P_NONE;
            a->bm->xchg_sp++;
            return true;
        }
        if (c->rtb == P_FAIL && c->rtb_fgen != a->gen)
            c->rtb = P_NONE;
        if (c->rtb == P_NONE) {
            c->rtb_k = 0;
            if (gda_next_region(a, gda_to_rf, 2, &c->rtb_k)) {
                const uint32_t n = c->pl.S + c->n * GD_ST_UNITS;
                c->rtb = P_RUN;
                c->rtb_fgen = a->gen;
                gda_ask(a, gda_to_rf[c->rtb_k], n, gda_tag(K_RES_TB, cta, 0, c->epoch, n));
                return false;
            }
            c->rtb = P_FAIL;
            c->rtb_fgen = a->gen;
        }
        if (c->rtb == P_FAIL && from < a->p->max_ctas && a->cta[from].used &&
            !gda_smem_present(a, from) && a->cta[from].pl.S == c->pl.S &&
            a->cta[from].n == c->n && a->cta[from].smem != GD_NONE) {
            c->smem_sp = a->cta[from].smem; /* the swap: the ready TB's spill space */
            a->cta[from].smem = GD_NONE;
            c->rtb = P_NONE;
        }
        return c->smem_sp != GD_NONE;
    }
    if (warp >= c->n)
        return false;
    if (c->pl.spill_smem && c->pl.level == GD_LEVEL_TB)
        return true; /* (its meta-data goes with the TB's shared memory: the run's n units) */
    const uint32_t spn = gda_spill_units(a, &c->pl);
    if (!spn || c->sp[warp] != GD_NONE)
        return true;
    /* A swap (a ready warp named): the two exchange context spaces, as §3.6.5 says ("the CSL
     * will switch the context spaces of them"), with no bitmap operation: this warp's reduced
     * context goes where the ready warp's is, and the ready warp's registers go where this
     * warp's were (handed over when it leaves, ga_release_part; the ready warp's acquire
     * waits for them instead of asking the block). Only between warps whose spaces are the
     * same size (the same plan's R and spill units); otherwise a fresh reservation below. */
    uint32_t fw;
    struct gd_cta *pc = gda_swap_partner(a, from, &fw);
    if (pc && !pc->promised[fw] && pc->spn[fw] == spn && pc->sp[fw] != GD_NONE) {
        c->sp[warp] = pc->sp[fw];
        c->spn[warp] = spn;
        pc->sp[fw] = GD_NONE;
        a->bm->xchg_sp++;
        c->swap_to[warp] = from; /* (its spill goes back to it if the switch-out is refused) */
        /* (a ready warp already given registers by the block keeps them; one whose request is
         * still at the block gives the answer's units back, answer()) */
        pc->promised[fw] = c->pl.spill_regs && pc->pl.spill_regs && pc->pl.R == c->pl.R &&
                           c->pl.R && c->rf[warp] != GD_NONE && pc->rf[fw] == GD_NONE &&
                           pc->acq[fw] != P_OK;
        return true;
    }
    const int *o = c->pl.spill_regs ? gda_to_smem : gda_meta_any;
    const unsigned no = c->pl.spill_regs ? 2 : 3;
    if (c->res[warp] == P_FAIL && c->res_fgen[warp] != a->gen)
        c->res[warp] = P_NONE;
    if (c->res[warp] == P_NONE) {
        c->res_k[warp] = 0;
        if (gda_next_region(a, o, no, &c->res_k[warp])) {
            c->res[warp] = P_RUN;
            c->res_fgen[warp] = a->gen;
            gda_ask(a, o[c->res_k[warp]], spn, gda_tag(K_RES, cta, warp, c->epoch, spn));
            return false;
        }
        c->res[warp] = P_FAIL;
        c->res_fgen[warp] = a->gen;
    }
    return c->sp[warp] != GD_NONE;
}

bool gd_alloc_pending(const struct gd_alloc *a, uint32_t cta, uint32_t warp, bool tb)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used)
        return false;
    const struct gd_cta *c = &a->cta[cta];
    return tb ? c->rtb == P_RUN : warp < MAXW && c->res[warp] == P_RUN;
}

void gd_alloc_unreserve(struct gd_alloc *a, uint32_t cta, uint32_t warp)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n ||
        a->cta[cta].slot[warp] == GD_NONE)
        return;
    struct gd_cta *c = &a->cta[cta];
    uint32_t fw;
    struct gd_cta *pc = gda_swap_partner(a, c->swap_to[warp], &fw);
    if (pc && pc->sp[fw] == GD_NONE && c->sp[warp] != GD_NONE) { /* the swap is off: back */
        pc->sp[fw] = c->sp[warp];
        c->sp[warp] = GD_NONE;
        a->bm->xchg_sp--;
    }
    if (c->swap_to[warp] != GD_NONE)
        gda_swap_cancel(a, c, warp);
    c->pair_to[warp] = GD_NONE;
    gda_give(a, &c->sp[warp], c->spn[warp]);
}

void gd_alloc_pair(struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t from)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n ||
        a->cta[cta].slot[warp] == GD_NONE)
        return;
    struct gd_cta *c = &a->cta[cta];
    c->pair_to[warp] = from;
    /* its registers too, when the ready warp needs a run of the same size and no exchange
     * promised one (the stalled warp had its own spill already): a TB's placement must not
     * take them between the two moves (sgemm with the controller: the ready head waited for
     * registers forever, no other warp leaving for it) */
    uint32_t fw;
    struct gd_cta *pc = gda_swap_partner(a, from, &fw);
    if (pc && c->swap_to[warp] == GD_NONE && !pc->promised[fw] && c->pl.spill_regs &&
        pc->pl.spill_regs && pc->pl.R == c->pl.R && c->pl.R && c->rf[warp] != GD_NONE &&
        pc->rf[fw] == GD_NONE && pc->acq[fw] != P_OK) {
        c->swap_to[warp] = from;
        pc->promised[fw] = true;
    }
}

bool gd_alloc_pair_tb(struct gd_alloc *a, uint32_t cta, uint32_t from)
{
    if (cta >= a->p->max_ctas || from >= a->p->max_ctas || cta == from || !a->cta[cta].used ||
        !a->cta[from].used)
        return false;
    struct gd_cta *c = &a->cta[cta], *r = &a->cta[from];
    if (!c->pl.spill_smem || r->pl.S != c->pl.S || c->smem_sp == GD_NONE ||
        c->smem == GD_NONE || !gda_smem_present(a, cta) || gda_smem_present(a, from) ||
        (r->acq_sm != P_NONE && r->acq_sm != P_FAIL))
        return false;
    c->tb_to = from;
    return true;
}

void gd_alloc_unpair_tb(struct gd_alloc *a, uint32_t cta)
{
    if (cta < a->p->max_ctas)
        a->cta[cta].tb_to = GD_NONE;
}

bool gd_alloc_starved(const struct gd_alloc *a, uint32_t cta, uint32_t warp)
{
    return cta < a->p->max_ctas && a->cta[cta].used && warp < a->cta[cta].n &&
           a->cta[cta].slot[warp] == GD_NONE && !a->cta[cta].promised[warp] &&
           (a->cta[cta].acq[warp] == P_FAIL || a->cta[cta].acq_sm == P_FAIL);
}

bool gd_alloc_swap_open(const struct gd_alloc *a, uint32_t cta, uint32_t warp)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n)
        return false;
    const struct gd_cta *c = &a->cta[cta];
    return !c->promised[warp]; /* (one holding no spill space to exchange: a fresh reservation
                                  for the stalled warp, whose leaving frees the slot it needs) */
}
