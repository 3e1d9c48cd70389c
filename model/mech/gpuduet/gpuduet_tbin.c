/* SPDX-License-Identifier: MIT
 * gpuduet_tbin.c - a TB switched in as a whole in GPUDuet's unified storage (Lin thesis §3.6.5
 * and §3.6.6, digest §2.9, §3.11: at TB level a TB is present or absent as a whole; GPUDuet_TB
 * switches at TB granularity only): the parts its absent warps lack asked of the SM's
 * allocation bitmap block together, before any warp of it takes a slot, and whether its switch-in
 * is under way (then it is no swap partner). Shares gpuduet_alloc.c's records
 * (gpuduet_alloc_priv.h); deterministic; no state of its own.
 *
 * Session 26: until then the CSL switched a ready TB in warp by warp, each warp's acquire asking
 * for its own registers, and stopped at the first warp the block had no room for. A TB whose
 * registers spill (GPUDuet_TB on a register-limited kernel) so came in part way: some warps in,
 * stalled at the TB's barrier, the others absent waiting for registers the present ones held.
 * With the SM no longer returning placed-absent warps for gpuduet_tb (hd_sm_params.absent_by_mech)
 * 11 of SM 7's 12 TBs ended so on sgemm at medium (docs/gpuduet.md "Session 26: GPUDuet_TB's TBs
 * as a whole"): each counted as coming in (a warp held a slot: session 25's rule), so no stalled
 * TB left for any, and the register file stayed full of their stalled halves.
 */
#include "gpuduet_alloc_priv.h"

/* Give back the parts of CTA slot c's mask warps' switch-in the block granted (the TB's shared
 * memory home, registers); the failed ones are asked again only after a free other than these
 * since they were asked (their own frees are no new room for them: as a failed stage,
 * gpuduet_place.c). */
static void give_back(struct gd_alloc *a, struct gd_cta *c, uint32_t mask)
{
    const uint32_t g0 = a->gen;
    if (c->acq_sm == P_OK) {
        gda_give(a, &c->acq_smem, c->pl.S);
        c->acq_sm = P_NONE;
    }
    for (uint32_t k = 0; k < c->n; k++)
        if ((mask >> k & 1u) && c->acq[k] == P_OK) {
            gda_give(a, &c->acq_rf[k], c->pl.R);
            c->acq[k] = P_NONE;
        }
    if (c->acq_sm == P_FAIL)
        c->acq_sm_fgen += a->gen - g0;
    for (uint32_t k = 0; k < c->n; k++)
        if ((mask >> k & 1u) && c->acq[k] == P_FAIL)
            c->acq_fgen[k] += a->gen - g0;
}

bool gd_alloc_tb_gather(struct gd_alloc *a, uint32_t cta, uint32_t mask)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used)
        return false;
    struct gd_cta *c = &a->cta[cta];
    uint32_t slots = 0;
    for (uint32_t k = 0; k < c->n; k++)
        slots += (mask >> k & 1u) && c->slot[k] == GD_NONE && c->slot_res[k] == GD_NONE;
    if (slots > gd_alloc_free_slots(a))
        return false;
    const bool need_sm = c->pl.S && !gda_smem_present(a, cta);
    uint32_t need_rf = 0; /* (the mask warps that need registers of the block) */
    for (uint32_t k = 0; k < c->n; k++)
        if ((mask >> k & 1u) && c->slot[k] == GD_NONE && c->rf[k] == GD_NONE && c->pl.R)
            need_rf |= 1u << k;
    /* The parts are one request: a part the block found no room for gives the others back at
     * once (they would hold room for nothing, and TBs holding all but one warp's registers each
     * keep each other out: session 26, sgemm at large size), and the whole is asked again after
     * another free. */
    bool sm_fail = need_sm && c->acq_sm == P_FAIL, rf_fail = false, stale = false;
    for (uint32_t k = 0; k < c->n; k++)
        rf_fail |= (need_rf >> k & 1u) && !c->promised[k] && c->acq[k] == P_FAIL;
    if (sm_fail || rf_fail) {
        give_back(a, c, need_rf);
        stale = (sm_fail && c->acq_sm_fgen != a->gen);
        for (uint32_t k = 0; k < c->n; k++)
            stale |= (need_rf >> k & 1u) && c->acq[k] == P_FAIL && c->acq_fgen[k] != a->gen;
        if (!stale) {
            /* a resident TB before a TB not placed yet: a staged TB gives back the units of the
             * region this one found none in (as acquire's rule) */
            if (a->stg.st == P_OK && ((sm_fail && gda_stage_holds(a, R_SMEM)) ||
                                      (rf_fail && gda_stage_holds(a, R_RF)))) {
                a->bm->stg_drop_acq++;
                gda_stage_yield(a);
            }
            return false;
        }
        if (sm_fail)
            c->acq_sm = P_NONE;
        for (uint32_t k = 0; k < c->n; k++)
            if ((need_rf >> k & 1u) && c->acq[k] == P_FAIL)
                c->acq[k] = P_NONE;
    }
    bool wait = false;
    if (need_sm) { /* (as acquire asks it: the first warp brings the TB's shared memory home) */
        if (c->acq_sm == P_NONE) {
            c->acq_sm = P_RUN;
            c->acq_sm_fgen = a->gen;
            gda_ask(a, R_SMEM, c->pl.S, gda_tag(K_ACQ_SM, cta, 0, c->epoch, c->pl.S));
        }
        wait |= c->acq_sm != P_OK;
    }
    for (uint32_t k = 0; k < c->n; k++) {
        if (!(need_rf >> k & 1u))
            continue;
        if (c->promised[k]) { /* a swap's: its stalled partner's registers when it has left */
            wait = true;
            continue;
        }
        if (c->acq[k] == P_NONE) {
            c->acq[k] = P_RUN;
            c->acq_fgen[k] = a->gen;
            gda_ask(a, R_RF, c->pl.R, gda_tag(K_ACQ_RF, cta, k, c->epoch, c->pl.R));
        }
        wait |= c->acq[k] != P_OK;
    }
    return !wait;
}

bool gd_alloc_tb_arriving(const struct gd_alloc *a, uint32_t cta)
{
    if (cta >= a->p->max_ctas || !a->cta[cta].used)
        return false;
    const struct gd_cta *c = &a->cta[cta];
    bool begun = c->pl.spill_smem && (c->acq_sm == P_RUN || c->acq_sm == P_OK);
    bool failed = c->acq_sm == P_FAIL;
    for (uint32_t k = 0; k < c->n; k++) {
        if (c->slot[k] != GD_NONE) {
            begun = true;
            continue;
        }
        begun |= c->acq[k] == P_RUN || c->acq[k] == P_OK;
        failed |= c->acq[k] == P_FAIL;
    }
    return begun && !failed;
}
