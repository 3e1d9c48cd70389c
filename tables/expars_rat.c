/* SPDX-License-Identifier: MIT
 * expars_rat.c - the Register Allocation Table's C reference (expars_rat.h; Yu et al. §3.3.3,
 * eq. 11-13; digest §2.4).
 *
 * Design: the state mirrors the RTL's flops; one edge applies the configuration, SBR, CTA-slot
 * and warp-slot writes in that order, then the lookup reads the result through the same
 * judgement and address functions the timing model calls.
 */
#include "expars_rat.h"

#include <string.h>

#define HD_PORTS_DEF "expars_rat_ports.def"
#define HD_PORTS_IN_T struct hd_expars_rat_in
#define HD_PORTS_OUT_T struct hd_expars_rat_out
#define HD_PORTS_BLOCK_VAR hd_expars_rat_block
#include "hd_ports_table.h"

#define M(w) ((uint32_t)((1ull << (w)) - 1u))

/* The block's lookup on its state (the model's answer is hd_expars_sm_in_spm, expars_sm.h). */
static void hd_expars_rat_lookup(const struct hd_expars_rat_state *s, uint32_t warp, uint32_t reg,
                                 bool *spm, uint32_t *addr, uint32_t *cta)
{
    *spm = false;
    *addr = *cta = 0;
    if (warp >= EXPARS_RAT_Warps)
        return;
    const uint32_t c = s->wcta[warp];
    *cta = c;
    if (c >= EXPARS_RAT_Slots || !s->used[c] || !hd_expars_rat_in_spm(&s->rat, s->mix[c], reg))
        return;
    *spm = true;
    struct hd_expars_rat r = s->rat; /* (the address at the block's widths) */
    r.max_reg &= M(EXPARS_RAT_RW);
    *addr = hd_expars_rat_addr(&r, (c - r.start_cta) & M(EXPARS_RAT_SW), s->wlocal[warp], reg) &
            M(EXPARS_RAT_AW);
}

void hd_expars_rat_ref_reset(struct hd_expars_rat_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_expars_rat_block, HD_DIR_OUT, &s->q);
}

void hd_expars_rat_ref_step(struct hd_expars_rat_state *s, const struct hd_expars_rat_in *in,
                            struct hd_expars_rat_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (in->cfg_v_i & 1u) {
        memset(&s->rat, 0, sizeof s->rat);
        s->rat.on = in->cfg_on_i & 1u;
        s->rat.start_cta = (uint32_t)in->cfg_start_cta_i & M(EXPARS_RAT_SW);
        s->rat.start_reg = (uint32_t)in->cfg_start_reg_i & M(EXPARS_RAT_RW);
        s->rat.max_reg = (uint32_t)in->cfg_max_reg_i & M(EXPARS_RAT_RW);
    }
    const uint32_t si = (uint32_t)in->sbr_idx_i & M(EXPARS_RAT_SW);
    if ((in->sbr_v_i & 1u) && si < EXPARS_RAT_Slots)
        s->rat.sbr[si] = (uint32_t)in->sbr_i & M(EXPARS_RAT_AW);
    const uint32_t cs = (uint32_t)in->cta_slot_i & M(EXPARS_RAT_SW);
    if ((in->cta_v_i & 1u) && cs < EXPARS_RAT_Slots) {
        s->used[cs] = in->cta_used_i & 1u;
        s->mix[cs] = in->cta_mix_i & 1u;
    }
    const uint32_t w = (uint32_t)in->wrp_warp_i & M(EXPARS_RAT_WW);
    if ((in->wrp_v_i & 1u) && w < EXPARS_RAT_Warps) {
        s->wcta[w] = (uint8_t)(in->wrp_cta_i & M(EXPARS_RAT_SW));
        s->wlocal[w] = (uint8_t)(in->wrp_local_i & M(EXPARS_RAT_WW));
    }
    if (!(in->q_v_i & 1u))
        return;
    bool spm;
    uint32_t addr, cta;
    hd_expars_rat_lookup(s, (uint32_t)in->q_warp_i & M(EXPARS_RAT_WW),
                         (uint32_t)in->q_reg_i & M(EXPARS_RAT_RW), &spm, &addr, &cta);
    s->q.q_v_o = 1;
    s->q.q_spm_o = spm;
    s->q.q_addr_o = addr;
    s->q.q_cta_o = cta;
}

bool hd_expars_rat_ref_idle(const struct hd_expars_rat_state *s, const struct hd_expars_rat_in *in)
{
    return !((in->cfg_v_i | in->sbr_v_i | in->cta_v_i | in->wrp_v_i | in->q_v_i) & 1u) &&
           !(s->q.q_v_o & 1u);
}
