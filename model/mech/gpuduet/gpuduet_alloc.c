/* SPDX-License-Identifier: MIT
 * gpuduet_alloc.c - GPUDuet's unified on-chip storage as the SM's allocator ([sm] allocator =
 * gpuduet, gpuduet_tb, vt; Lin thesis §3.6.4, digest §3.7): the register file, shared memory
 * and the L1D's context part are one space of 128-byte units (RF 0x000-0x7FF, shared memory
 * 0x800-0xAFF, L1D 0xB00-0xBFF: the gpuduet_bitmap block's regions, Table 3.1's SM; a smaller
 * SM's register file or shared memory is its region's low part, the rest allocated once at the
 * start so that the block never gives it out), plus the physical warp slots. The map is the
 * SM's allocation bitmap block's and no other (gpuduet_bmap.h; issue 28 item 4): every
 * allocation is a request to the block answered S + 1 + M cycles later (gpuduet_alloc_priv.h),
 * so placing a TB (gpuduet_place.c), switching a warp in and reserving a switch-out's spill
 * take the block's cycles; frees are queued to it in order.
 *
 * What a TB holds (the plan of its kernel, gpuduet_plan.c, says what leaves the arrays):
 *   present warp   a warp slot and its R register units in the register file
 *   absent warp    registers limiting (plan.spill_regs): its reduced registers r plus one unit
 *                  of meta-data, spilled to shared memory (then L1D) - the warp-level switch;
 *                  otherwise its R units stay in the register file and only its meta-data unit
 *                  is spilled (Virtual Thread: nothing moves, the warp only loses its slot)
 *   shared memory  S units in the shared-memory region while any warp of the TB is present;
 *                  shared memory limiting (plan.spill_smem, TB level): an absent TB's S units
 *                  and its warps' meta-data go to the register file (then L1D)
 * A TB is taken while the SM holds fewer than MC + ME TBs of its kernel (gpuduet_mech.c) and
 * everything above fits; the warps the SM offers slots to (demand.warps) get one when their
 * registers fit too, the others start absent with their spill space allocated. The CSL reserves
 * the spill space of a warp (or TB) it is about to switch out (gd_alloc_reserve: false while the
 * block works, gd_alloc_pending); the warp's register units and slot are freed when the SM
 * gives the slot back (release_part). Switching back in (acquire) takes a slot and register
 * units (and shared memory) once the block gave them (false until then) and frees the spill.
 * A swap (§2.12) exchanges the two warps' context spaces with no bitmap operation (session 15:
 * §3.6.5 "the CSL will switch the context spaces of them"): the stalled warp's reduced context
 * goes into the ready warp's spill space, the ready warp's registers into the stalled warp's
 * register run once it has left (gd_alloc_reserve with `from`, ga_release_part, ga_acquire).
 * L1D as context storage (§2.10): the L1D region has 0 units until the mechanism turns it on
 * (gd_alloc_set_l1: the kernel unsaturated, out of RF and shared-memory room, L1D utilisation
 * < 3 %, its loads then bypassing the L1D; gpuduet_mech.c): the block's L1D region is allocated
 * whole until then, and freed for contexts then. Registers spill to shared memory then L1D;
 * shared memory to the RF then L1D. No preemption victims (plan_victims answers -1). First fit
 * is the block's; deterministic.
 */
#include "gpuduet_alloc_priv.h"
#include "hd_textbuf.h"

#include "gpuduet_bitmap.h"
#include "gpuduet_tbct.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t gda_tag(unsigned kind, uint32_t cta, uint32_t warp, uint32_t epoch, uint32_t n)
{
    return (uint64_t)kind | (uint64_t)(cta & 0xFFu) << 4 | (uint64_t)(warp & 0xFFu) << 12 |
           (uint64_t)(epoch & 0xFFFFFFu) << 20 | (uint64_t)(n & 0xFFFFu) << 44;
}

static uint32_t gda_region_n(const struct gd_alloc *a, int r)
{
    return r == R_RF ? a->caps.rf_units : r == R_SMEM ? a->caps.smem_units : a->caps.l1_units;
}

int gda_region_of(const struct gd_alloc *a, uint32_t u)
{
    return u >= a->base[R_L1] ? R_L1 : u >= a->base[R_SMEM] ? R_SMEM : R_RF;
}

void gda_ask(struct gd_alloc *a, int r, uint32_t n, uint64_t tag)
{
    if (!gd_bmap_alloc(a->bm, (unsigned)r, n, tag))
        a->oom = true;
}

void gda_give(struct gd_alloc *a, uint32_t *u, uint32_t n)
{
    if (*u != GD_NONE && n) {
        if (!gd_bmap_free(a->bm, *u, n))
            a->oom = true;
        const int r = gda_region_of(a, *u);
        a->held[r] -= a->held[r] >= n ? n : a->held[r];
        a->gen++;
        a->poke |= a->stg.st == P_FAIL;
    }
    *u = GD_NONE;
}

const int gda_to_smem[2] = {R_SMEM, R_L1};     /* registers spill here (warp level) */
const int gda_to_rf[2] = {R_RF, R_L1};         /* shared memory spills here (TB level) */
const int gda_meta_any[3] = {R_SMEM, R_L1, R_RF};

/* The next region of order[0..k) from index *i on that has units (the L1D only while it holds
 * contexts); false when none is left. */
bool gda_next_region(const struct gd_alloc *a, const int *order, unsigned k, uint8_t *i)
{
    while (*i < k && !gda_region_n(a, order[*i]))
        (*i)++;
    return *i < k;
}

/* Is CTA slot ci's shared memory present? The TB context table's smem-present bit (the
 * gpuduet_tbct block's Smemaddr in 0x800-0xAFF: gd_wct_tb_smem); a TB with no shared memory has
 * none to miss. (Without the mechanism, the unit tests' allocator: the block's rule on the
 * allocator's own base.) */
bool gda_smem_present(const struct gd_alloc *a, uint32_t ci)
{
    const struct gd_cta *c = &a->cta[ci];
    if (!c->pl.S)
        return true;
    uint32_t u;
    if (a->g && gd_wct_tb_smem(&a->g->sm[a->sm].wct, ci, &u))
        return hd_gpuduet_tbct_smem_present(u);
    return c->smem != GD_NONE && hd_gpuduet_tbct_smem_present(c->smem);
}

/* CTA slot ci's shared memory moved to unit u (a TB-level switch out or in): the TBCT's TB-move
 * write of Smemaddr. */
static void gda_smem_moved(struct gd_alloc *a, uint32_t ci, uint32_t u)
{
    if (a->g)
        gd_wct_tb_smem_set(&a->g->sm[a->sm].wct, ci, u);
}

uint32_t gda_free_slot(const struct gd_alloc *a)
{
    for (uint32_t w = 0; w < a->caps.warps; w++)
        if (!a->wused[w])
            return w;
    return GD_NONE;
}

/* The units an absent warp of plan pl keeps spilled (0: nothing moves). */
uint32_t gda_spill_units(const struct gd_alloc *a, const struct gd_plan *pl)
{
    if (a->mode == GD_MODE_VT)
        return 0;
    return (pl->spill_regs ? pl->r : 0) + GD_ST_UNITS;
}

void gda_cta_init(struct gd_cta *c)
{
    const uint32_t ep = c->epoch;
    memset(c, 0, sizeof *c);
    c->epoch = ep;
    c->smem = c->smem_sp = GD_NONE;
    for (uint32_t i = 0; i < MAXW; i++)
        c->rf[i] = c->sp[i] = c->slot[i] = c->acq_rf[i] = c->swap_to[i] = c->pair_to[i] =
            c->slot_res[i] = GD_NONE;
    c->acq_smem = GD_NONE;
    c->tb_to = GD_NONE;
}

/* The warp that `from` (cta << 5 | warp) names, when it is resident and absent: its record and
 * index; NULL otherwise. */
struct gd_cta *gda_swap_partner(struct gd_alloc *a, uint32_t from, uint32_t *fw)
{
    if (from == GD_NONE)
        return NULL;
    const uint32_t fc = from >> 5;
    *fw = from & 31u;
    if (fc >= a->p->max_ctas || !a->cta[fc].used || *fw >= a->cta[fc].n ||
        a->cta[fc].slot[*fw] != GD_NONE)
        return NULL;
    return &a->cta[fc];
}

/* Stalled warp i of c no longer hands its registers to a ready warp. */
void gda_swap_cancel(struct gd_alloc *a, struct gd_cta *c, uint32_t i)
{
    uint32_t fw;
    struct gd_cta *pc = gda_swap_partner(a, c->swap_to[i], &fw);
    if (pc)
        pc->promised[fw] = false;
    c->swap_to[i] = GD_NONE;
}

/* The units of record c's shared-memory context: S at home (the shared-memory region), S + n
 * meta-data units when it is the spill run a switch-out left in the register file or L1D
 * (release_part: smem = smem_sp). Freeing S of such a run kept its n meta-data units set at the
 * block with no record naming them (session 19: 3 units per TB-level switch-in on histo1024,
 * islands that split the RF until an extra TB's 99-unit run found no room). */
static uint32_t smem_units(const struct gd_alloc *a, const struct gd_cta *c)
{
    return c->smem != GD_NONE && gda_region_of(a, c->smem) != R_SMEM ? c->pl.S + c->n * GD_ST_UNITS
                                                                      : c->pl.S;
}

void gda_undo(struct gd_alloc *a, struct gd_cta *c)
{
    for (uint32_t i = 0; i < MAXW; i++) {
        if (c->swap_to[i] != GD_NONE)
            gda_swap_cancel(a, c, i);
        c->promised[i] = false;
        gda_give(a, &c->rf[i], c->pl.R);
        gda_give(a, &c->sp[i], c->spn[i]);
        gda_give(a, &c->acq_rf[i], c->pl.R);
        c->acq[i] = c->res[i] = P_NONE;
        if (c->slot[i] != GD_NONE)
            a->wused[c->slot[i]] = 0;
        if (c->slot_res[i] != GD_NONE)
            a->wused[c->slot_res[i]] = 0;
        c->slot[i] = c->slot_res[i] = c->pair_to[i] = GD_NONE;
    }
    gda_give(a, &c->smem, smem_units(a, c));
    gda_give(a, &c->smem_sp, c->pl.S + c->n * GD_ST_UNITS);
    gda_give(a, &c->acq_smem, c->pl.S);
    c->acq_sm = c->rtb = P_NONE;
    c->epoch++; /* (answers still at the block are given back as they come) */
}

const struct gd_plan *gda_plan_of(struct gd_alloc *a, const struct hd_cta_demand *d,
                                     struct gd_plan *local)
{
    const uint32_t n = d->all_warps ? d->all_warps : d->warps;
    if (a->g)
        return gd_plan_for(a->g, d->launch, n, d->regs, d->smem, &a->caps);
    const uint32_t R = n ? (d->regs / n + 31u) / 32u : 0;
    gd_plan_make(&a->caps, a->mode, n, R, R, (uint32_t)((d->smem + 127u) / 128u), local);
    local->me_ub = 0;
    return local;
}


static void ga_release(void *impl, const struct hd_cta_grant *g)
{
    struct gd_alloc *a = impl;
    if (g->cta_slot >= a->p->max_ctas || !a->cta[g->cta_slot].used)
        return;
    struct gd_cta *c = &a->cta[g->cta_slot];
    gda_undo(a, c);
    c->used = false;
    a->nctas--;
}

/* {==== switching in: the TB's shared memory (when it spilled) and the warp's registers ==== */
static bool ga_acquire(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct gd_alloc *a = impl;
    if (g->cta_slot >= a->p->max_ctas || p->warp >= MAXW)
        return p->warp == HD_ALLOC_NO_WARP;
    const uint32_t ci = g->cta_slot;
    struct gd_cta *c = &a->cta[ci];
    const uint32_t i = p->warp;
    if (!c->used || i >= c->n || c->slot[i] != GD_NONE ||
        (c->slot_res[i] == GD_NONE && gda_free_slot(a) == GD_NONE))
        return false;
    const bool need_sm = c->pl.S && !gda_smem_present(a, ci);
    const bool need_rf = c->rf[i] == GD_NONE && c->pl.R;
    if (need_rf && c->promised[i])
        return false; /* a swap: the stalled warp's registers come when it has left */
    bool wait = false;
    if (need_sm) {
        if (c->acq_sm == P_FAIL && c->acq_sm_fgen != a->gen)
            c->acq_sm = P_NONE;
        if (c->acq_sm == P_NONE) {
            c->acq_sm = P_RUN;
            c->acq_sm_fgen = a->gen; /* (a free from here on comes after the block's search) */
            gda_ask(a, R_SMEM, c->pl.S, gda_tag(K_ACQ_SM, ci, 0, c->epoch, c->pl.S));
        }
        wait |= c->acq_sm != P_OK;
    }
    if (need_rf) {
        if (c->acq[i] == P_FAIL && c->acq_fgen[i] != a->gen)
            c->acq[i] = P_NONE;
        if (c->acq[i] == P_NONE && (!need_sm || c->acq_sm != P_FAIL)) {
            c->acq[i] = P_RUN;
            c->acq_fgen[i] = a->gen;
            gda_ask(a, R_RF, c->pl.R, gda_tag(K_ACQ_RF, ci, i, c->epoch, c->pl.R));
        }
        wait |= c->acq[i] != P_OK;
    }
    if (wait) {
        /* a resident warp before a TB not placed yet: a staged TB gives its units back */
        /* (only when it holds units of the region this one found none in: session 20, before
         * any staged TB was dropped, and nothing told the CTA scheduler to ask again) */
        if (a->stg.st == P_OK && ((c->acq_sm == P_FAIL && gda_stage_holds(a, R_SMEM)) ||
                                  (c->acq[i] == P_FAIL && gda_stage_holds(a, R_RF)))) {
            a->bm->stg_drop_acq++;
            gda_stage_yield(a);
        }
        /* one part without room: the other's units go back (they would hold room for nothing) */
        if (need_sm && need_rf && (c->acq_sm == P_FAIL || c->acq[i] == P_FAIL)) {
            if (c->acq_sm == P_OK) {
                gda_give(a, &c->acq_smem, c->pl.S);
                c->acq_sm = P_NONE;
            }
            if (c->acq[i] == P_OK) {
                gda_give(a, &c->acq_rf[i], c->pl.R);
                c->acq[i] = P_NONE;
            }
        }
        return false;
    }
    if (need_rf) {
        c->rf[i] = c->acq_rf[i];
        c->acq_rf[i] = GD_NONE;
        c->acq[i] = P_NONE;
    } else if (c->rf[i] == GD_NONE) {
        c->rf[i] = 0; /* (no registers) */
    }
    if (need_sm) {
        gda_give(a, &c->smem, smem_units(a, c)); /* (the spilled copy, its meta-data too) */
        gda_give(a, &c->smem_sp, c->pl.S + c->n * GD_ST_UNITS);
        c->smem = c->acq_smem;
        c->acq_smem = GD_NONE;
        c->acq_sm = P_NONE;
        gda_smem_moved(a, ci, c->smem); /* (home: the TBCT's bit says so from now on) */
    }
    gda_give(a, &c->sp[i], c->spn[i]);
    const uint32_t s = c->slot_res[i] != GD_NONE ? c->slot_res[i] : gda_free_slot(a);
    c->slot_res[i] = GD_NONE; /* (a swap's: its stalled partner's slot) */
    c->slot[i] = s;
    a->wused[s] = 1;
    g->warp_slot[i] = (uint16_t)s;
    return true;
}
/* }==== */

static void ga_release_part(void *impl, struct hd_cta_grant *g, const struct hd_alloc_part *p)
{
    struct gd_alloc *a = impl;
    if (g->cta_slot >= a->p->max_ctas || p->warp >= MAXW)
        return;
    struct gd_cta *c = &a->cta[g->cta_slot];
    const uint32_t i = p->warp;
    if (!c->used || i >= c->n || c->slot[i] == GD_NONE)
        return;
    uint32_t fw;
    struct gd_cta *rc = gda_swap_partner(a, c->pair_to[i], &fw);
    if (rc && rc->slot_res[fw] == GD_NONE)
        rc->slot_res[fw] = c->slot[i]; /* the swap's ready warp's, no other's (stays used) */
    else
        a->wused[c->slot[i]] = 0;
    c->pair_to[i] = GD_NONE;
    c->slot[i] = GD_NONE;
    g->warp_slot[i] = HD_ALLOC_NO_SLOT;
    struct gd_cta *pc = gda_swap_partner(a, c->swap_to[i], &fw);
    if (c->pl.spill_regs) { /* (its reduced copy is in its reserved spill) */
        if (pc && pc->promised[fw] && pc->rf[fw] == GD_NONE && c->rf[i] != GD_NONE) {
            pc->rf[fw] = c->rf[i]; /* the swap: the ready warp's registers go where these were */
            c->rf[i] = GD_NONE;
            if (pc->acq[fw] != P_RUN)
                pc->acq[fw] = P_NONE;
            a->bm->xchg_rf++;
        } else {
            gda_give(a, &c->rf[i], c->pl.R);
        }
    }
    if (pc)
        pc->promised[fw] = false;
    c->swap_to[i] = GD_NONE;
    struct gd_cta *tc = c->tb_to < a->p->max_ctas ? &a->cta[c->tb_to] : NULL;
    if (tc && tc->used && (tc->acq_sm == P_NONE || tc->acq_sm == P_FAIL) &&
        !gda_smem_present(a, c->tb_to) && c->smem_sp != GD_NONE &&
        gda_smem_present(a, g->cta_slot)) {
        tc->acq_smem = c->smem; /* a TB swap: the ready TB's home run, no bitmap search */
        tc->acq_sm = P_OK;
        c->smem = c->smem_sp; /* (its shared memory leaves with its warps, this cycle) */
        c->smem_sp = GD_NONE;
        gda_smem_moved(a, g->cta_slot, c->smem);
    }
    c->tb_to = GD_NONE;
    bool any = false;
    for (uint32_t k = 0; k < c->n; k++)
        any |= c->slot[k] != GD_NONE;
    if (!any && c->smem_sp != GD_NONE && gda_smem_present(a, g->cta_slot)) {
        gda_give(a, &c->smem, smem_units(a, c)); /* the TB's shared memory leaves */
        c->smem = c->smem_sp;
        c->smem_sp = GD_NONE;
        gda_smem_moved(a, g->cta_slot, c->smem);
    }
}

/* {==== the block's answers ==== */
static void answer(void *ctx, uint64_t tag, bool ok, uint32_t base)
{
    struct gd_alloc *a = ctx;
    const unsigned kind = (unsigned)(tag & 0xFu);
    const uint32_t ci = (uint32_t)(tag >> 4 & 0xFFu), w = (uint32_t)(tag >> 12 & 0xFFu);
    const uint32_t ep = (uint32_t)(tag >> 20 & 0xFFFFFFu), n = (uint32_t)(tag >> 44 & 0xFFFFu);
    if (kind == K_FILL)
        return;
    uint32_t u = ok ? base : GD_NONE;
    if (ok) {
        a->held[gda_region_of(a, base)] += n;
        if (base + n > a->base[gda_region_of(a, base)] + gda_region_n(a, gda_region_of(a, base)))
            gda_give(a, &u, n); /* (past the model's region: cannot happen with the fill) */
    }
    ok = u != GD_NONE;
    if (kind == K_PLACE) {
        if (a->stg.st != P_RUN || (a->stg.epoch & 0xFFFFFFu) != ep) {
            gda_give(a, &u, n); /* (the stage was dropped) */
            return;
        }
        gda_stage_answer(a, ok, base);
        return;
    }
    struct gd_cta *c = ci < a->p->max_ctas ? &a->cta[ci] : NULL;
    if (!c || !c->used || (c->epoch & 0xFFFFFFu) != ep || w >= MAXW) {
        gda_give(a, &u, n); /* (the TB left meanwhile) */
        return;
    }
    switch (kind) {
    case K_ACQ_RF:
        if (c->promised[w] || c->rf[w] != GD_NONE) { /* a swap's registers came first */
            gda_give(a, &u, n);
            c->acq[w] = P_NONE;
            break;
        }
        c->acq[w] = ok ? P_OK : P_FAIL;
        c->acq_rf[w] = u;
        break;
    case K_ACQ_SM:
        c->acq_sm = ok ? P_OK : P_FAIL;
        c->acq_smem = u;
        break;
    case K_RES: {
        const int *o = c->pl.spill_regs ? gda_to_smem : gda_meta_any;
        const unsigned no = c->pl.spill_regs ? 2 : 3;
        if (ok && c->sp[w] == GD_NONE) {
            c->sp[w] = u;
            c->spn[w] = n;
            c->res[w] = P_NONE;
            break;
        }
        if (ok) { /* (a swap's hand-over came first) */
            gda_give(a, &u, n);
            c->res[w] = P_NONE;
            break;
        }
        c->res_k[w]++;
        if (gda_next_region(a, o, no, &c->res_k[w])) {
            gda_ask(a, o[c->res_k[w]], n, gda_tag(K_RES, ci, w, c->epoch, n));
            break;
        }
        c->res[w] = P_FAIL; /* (res_fgen: the gen its first search was asked at) */
        break;
    }
    case K_RES_TB:
        if (ok && c->smem_sp == GD_NONE && gda_smem_present(a, ci)) {
            c->smem_sp = u;
            c->rtb = P_NONE;
            break;
        }
        if (ok) {
            gda_give(a, &u, n);
            c->rtb = P_NONE;
            break;
        }
        c->rtb_k++;
        if (gda_next_region(a, gda_to_rf, 2, &c->rtb_k)) {
            gda_ask(a, gda_to_rf[c->rtb_k], n, gda_tag(K_RES_TB, ci, 0, c->epoch, n));
            break;
        }
        c->rtb = P_FAIL;
        break;
    default:
        gda_give(a, &u, n);
        break;
    }
}
/* }==== */

/* Where warp `warp` of c keeps its meta-data while absent: its own spill, or at TB level when
 * shared memory spills the TB's run (S units then one per warp: gd_alloc_reserve), GD_NONE. */
static uint32_t meta_unit(const struct gd_alloc *a, const struct gd_cta *c, uint32_t cta,
                          uint32_t warp)
{
    if (c->sp[warp] != GD_NONE || !c->pl.spill_smem || c->pl.level != GD_LEVEL_TB)
        return c->sp[warp];
    const bool home = gda_smem_present(a, cta);
    const uint32_t run = home ? c->smem_sp : c->smem;
    return run == GD_NONE || (!home && gda_region_of(a, run) == R_SMEM) ? GD_NONE
                                                                        : run + c->pl.S + warp;
}

void gd_alloc_where(const struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t *reg,
                    uint32_t *meta, uint32_t *smem)
{
    *reg = *meta = *smem = GD_NONE;
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n)
        return;
    const struct gd_cta *c = &a->cta[cta];
    *reg = c->rf[warp] != GD_NONE ? c->rf[warp] : c->sp[warp];
    *meta = c->slot[warp] != GD_NONE ? c->slot[warp] : meta_unit(a, c, cta, warp);
    *smem = c->smem;
}

void gd_alloc_where_out(const struct gd_alloc *a, uint32_t cta, uint32_t warp, uint32_t *reg,
                        uint32_t *meta, uint32_t *smem)
{
    *reg = *meta = *smem = GD_NONE;
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n)
        return;
    const struct gd_cta *c = &a->cta[cta];
    *reg = c->pl.spill_regs || c->rf[warp] == GD_NONE ? c->sp[warp] : c->rf[warp];
    *meta = meta_unit(a, c, cta, warp);
    bool others = false; /* another warp of the TB keeps a slot */
    for (uint32_t k = 0; k < c->n; k++)
        others |= k != warp && c->slot[k] != GD_NONE;
    *smem = !others && c->smem_sp != GD_NONE && gda_smem_present(a, cta) ? c->smem_sp : c->smem;
}

static int ga_plan_victims(void *impl, const struct hd_cta_demand *d, uint32_t *victims)
{
    (void)impl;
    (void)d;
    (void)victims;
    return -1;
}

static bool ga_is_idle(const void *impl)
{
    return ((const struct gd_alloc *)impl)->nctas == 0;
}

static void ga_usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct gd_alloc *a = impl;
    *u = (struct hd_alloc_usage){0};
    u->ctas = a->nctas;
    for (uint32_t w = 0; w < a->caps.warps; w++)
        u->warps += a->wused[w] != 0;
    u->threads = u->warps * 32u;
    u->regs = a->held[R_RF] * 32u;
    u->smem = (uint64_t)a->held[R_SMEM] * 128u;
}

static void ga_destroy(void *impl)
{
    struct gd_alloc *a = impl;
    if (!a)
        return;
    free(a->wused);
    free(a->cta);
    free(a);
}

/* The watchdog's view (sm_alloc.h describe): what the units are held by, whether a TB waits for
 * room or for the block, and the CSL's four queues (the view's counts; '?' marks a queue whose
 * head the view does not show this cycle) with the switching counters that tell a stuck
 * exchange from a stuck allocation (the session-24 livelock showed as TB queues full and
 * tb_nopart rising). */
static void ga_describe(const void *impl, char *buf, size_t len)
{
    const struct gd_alloc *a = impl;
    static const char *const level[] = {"off", "warp", "TB"};
    size_t n = 0;
#define PUT(...) (n = hd_textbuf_put(buf, len, n, __VA_ARGS__))
    PUT("%u TBs, units held RF %u / smem %u / L1D %u, stage %u, %s%s%s", a->nctas, a->held[R_RF],
        a->held[R_SMEM], a->held[R_L1], a->stg.st, a->waiting ? "a TB waits for room" : "no TB waits",
        a->room_short ? " (last refusal: room)" : "", a->oom ? ", host out of memory" : "");
    if (a->g && a->sm < a->g->nsm) {
        const struct gd_sm *s = &a->g->sm[a->sm];
        static const char *const qname[GD_NQ] = {"stalled warps", "ready warps", "stalled TBs",
                                                 "ready TBs"};
        PUT("\n  level %s, %u warps absent; queues", s->level < 3 ? level[s->level] : "?",
            s->absent);
        for (unsigned k = 0; k < GD_NQ; k++)
            PUT("%s %s %u%s", k ? "," : "", qname[k], gd_queues_count(&s->q, k),
                gd_queues_unknown(&s->q, k) ? "?" : "");
        PUT("\n  switched out %" PRIu64 " (TBs %" PRIu64 "), in %" PRIu64 " (TBs %" PRIu64
            "), swaps %" PRIu64 ", refused %" PRIu64 ", no room %" PRIu64 ", TB heads rotated: no"
            " partner %" PRIu64 ", run %" PRIu64 ", blind %" PRIu64,
            s->st.outs, s->st.tb_outs, s->st.ins, s->st.tb_ins, s->st.swaps, s->st.refused,
            s->st.no_room, s->st.tb_nopart, s->st.tb_run_wait, s->st.tb_blind);
    }
#undef PUT
}

const struct hd_alloc_ops gd_alloc_ops = {
    "gpuduet", gda_can_accept, gda_accept, ga_release, ga_acquire, ga_release_part,
    ga_plan_victims, NULL, NULL, ga_is_idle, ga_usage, ga_destroy, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, ga_describe,
};

static int create(const struct hd_sm_params *p, struct hd_sm_alloc *out, uint8_t mode)
{
    struct gd_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return -1;
    a->p = p;
    a->mode = mode;
    a->caps = (struct gd_caps){p->max_warps, p->phys_ctas, p->registers / 32u,
                               (uint32_t)(p->shared_bytes / 128u), 0};
    for (unsigned r = 0; r < 3; r++)
        a->base[r] = hd_gpuduet_bitmap_region_lo(r);
    a->wused = calloc(a->caps.warps ? a->caps.warps : 1, 1);
    a->cta = calloc(p->max_ctas, sizeof *a->cta);
    if (!a->wused || !a->cta) {
        ga_destroy(a);
        return -1;
    }
    for (uint32_t i = 0; i < p->max_ctas; i++)
        gda_cta_init(&a->cta[i]);
    out->ops = &gd_alloc_ops;
    out->impl = a;
    return 0;
}

int gd_alloc_create(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, out, GD_MODE_GPUDUET);
}
int gd_alloc_create_tb(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, out, GD_MODE_TB);
}
int gd_alloc_create_vt(const struct hd_sm_params *p, struct hd_sm_alloc *out)
{
    return create(p, out, GD_MODE_VT);
}

void gd_alloc_bind(struct gd_alloc *a, struct gd *g, uint32_t sm)
{
    a->g = g;
    a->sm = sm;
}

int gd_alloc_make_bitmap(struct gd_alloc *a, struct gd_bmap *bm, const struct hd_hw_factory *f,
                         uint32_t l1_max, char *err, size_t errlen)
{
    const uint32_t want[3] = {a->caps.rf_units, a->caps.smem_units, l1_max};
    static const char *const rn[3] = {"register-file", "shared-memory", "L1D"};
    for (unsigned r = 0; r < 3; r++)
        if (want[r] > hd_gpuduet_bitmap_region_units(r)) {
            snprintf(err, errlen,
                     "[sm] allocator = gpuduet/gpuduet_tb/vt: SM %u's %s region has %u units of "
                     "128 B, more than the allocation bitmap block's %u (configs/rtl/"
                     "gpuduet_bitmap.ini, Table 3.1's SM: [sm] registers <= 65536, "
                     "shared_mem_bytes <= 96K, [gpuduet] l1d_units <= 256)",
                     a->sm, rn[r], want[r], hd_gpuduet_bitmap_region_units(r));
            return -1;
        }
    if (gd_bmap_make(bm, f, a->sm, answer, a, err, errlen) != 0)
        return -1;
    a->bm = bm;
    a->bm_made = true;
    /* The block's regions are Table 3.1's; a smaller SM's register file or shared memory is the
     * region's low part, the rest allocated once (fill) so the block never gives it out. The
     * L1D region is allocated whole until the §2.10 rule makes it a context store. */
    for (unsigned r = 0; r < 2; r++) {
        const uint32_t b = hd_gpuduet_bitmap_region_units(r), m = want[r];
        if (m == b)
            continue;
        if (m)
            gda_ask(a, (int)r, m, gda_tag(K_FILL, 0, 0, 0, m));
        gda_ask(a, (int)r, b - m, gda_tag(K_FILL, 0, 0, 0, b - m));
        if (m && !gd_bmap_free(a->bm, a->base[r], m))
            a->oom = true;
    }
    gda_ask(a, R_L1, hd_gpuduet_bitmap_region_units(R_L1), gda_tag(K_FILL, 0, 0, 0, 0));
    return 0;
}

int gd_alloc_step(struct gd_alloc *a, uint64_t now, char *err, size_t errlen)
{
    if (a->oom) {
        snprintf(err, errlen, "host out of memory queueing SM %u's bitmap operations", a->sm);
        return -1;
    }
    return a->bm_made ? gd_bmap_step(a->bm, a->sm, now, err, errlen) : 0;
}

bool gd_alloc_poke(struct gd_alloc *a)
{
    const bool p = a->poke;
    a->poke = false;
    return p;
}

bool gd_alloc_busy(const struct gd_alloc *a)
{
    return a->bm_made && gd_bmap_busy(a->bm);
}

uint32_t gd_alloc_free_slots(const struct gd_alloc *a)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < a->caps.warps; w++)
        n += !a->wused[w];
    return n;
}

/* A TB refused for room since the last placement, whose launch still has TBs to place (the
 * CTA scheduler asks no more once the grid is dispatched, so the refusal alone stays set through
 * the kernel's tail, where it made the CSL switch warps out for nobody and the L1D rule see a
 * shortage of room: session 17). */
bool gd_alloc_waiting(const struct gd_alloc *a)
{
    if (!a->waiting)
        return false;
    const struct hd_mech_act *act = a->g ? a->g->act : NULL;
    return !act || !act->ctas_waiting || act->ctas_waiting(act->gpu, a->wait_launch);
}

uint32_t gd_alloc_set_l1(struct gd_alloc *a, uint32_t units)
{
    const uint32_t max = hd_gpuduet_bitmap_region_units(R_L1);
    if (units > max)
        units = max;
    if (units == a->caps.l1_units || !a->bm_made)
        return a->caps.l1_units;
    if (!units) { /* given back only while no context is there */
        if (a->held[R_L1])
            return a->caps.l1_units;
        gda_ask(a, R_L1, a->caps.l1_units, gda_tag(K_FILL, 0, 0, 0, 0));
        a->caps.l1_units = 0;
        return 0;
    }
    if (a->caps.l1_units)
        return a->caps.l1_units; /* (from one size to another: not needed) */
    if (!gd_bmap_free(a->bm, a->base[R_L1], units))
        a->oom = true;
    a->gen++;
    a->poke = true;
    a->caps.l1_units = units;
    return units;
}

void gd_alloc_caps(const struct gd_alloc *a, struct gd_caps *c)
{
    *c = a->caps;
}

/* (issue 28 item 4: the CSL block's data mover, gpuduet_mover.c) */
int gd_alloc_spill_region(const struct gd_alloc *a, uint32_t cta, uint32_t warp)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used || warp >= a->cta[cta].n)
        return -1;
    const struct gd_cta *c = &a->cta[cta];
    uint32_t u = c->sp[warp];
    if (c->pl.spill_smem) /* TB level: the TB's shared memory, reserved or already away */
        u = c->smem_sp != GD_NONE ? c->smem_sp : !gda_smem_present(a, cta) ? c->smem : GD_NONE;
    if (u == GD_NONE)
        return -1;
    for (int r = R_L1; r >= R_RF; r--)
        if (gda_region_n(a, r) && u >= a->base[r])
            return r;
    return -1;
}

/* {==== the audit: every unit the block gave is named by a record ==== */
static void count(const struct gd_alloc *a, uint32_t u, uint32_t n, uint32_t *units)
{
    if (u != GD_NONE && n)
        units[gda_region_of(a, u)] += n;
}

static void count_cta(const struct gd_alloc *a, const struct gd_cta *c, uint32_t *units)
{
    for (uint32_t i = 0; i < c->n && i < MAXW; i++) {
        count(a, c->rf[i], c->pl.R, units);
        count(a, c->sp[i], c->spn[i], units);
        count(a, c->acq_rf[i], c->pl.R, units);
    }
    count(a, c->smem, smem_units(a, c), units);
    count(a, c->smem_sp, c->pl.S + c->n * GD_ST_UNITS, units);
    count(a, c->acq_smem, c->pl.S, units);
}

bool gd_alloc_audit(const struct gd_alloc *a, uint32_t named[3], uint32_t held[3])
{
    for (unsigned r = 0; r < 3; r++)
        named[r] = 0, held[r] = a->held[r];
    for (uint32_t k = 0; k < a->p->max_ctas; k++)
        if (a->cta[k].used)
            count_cta(a, &a->cta[k], named);
    if (a->stg.st == P_RUN || a->stg.st == P_OK)
        count_cta(a, &a->stg.c, named);
    return named[0] == held[0] && named[1] == held[1] && named[2] == held[2];
}
/* }==== */
