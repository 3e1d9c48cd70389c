/* SPDX-License-Identifier: MIT
 * zorua_phase.c - Zorua's phase-specifier decoder's C reference (zorua_phase.h).
 *
 * Design: the per-warp phase store mirrors the RTL's flops; an edge applies the arrival's
 * initial phase, then the instruction, as the ports.def says. The sizes are the state's
 * configuration (hd_zorua_phase_ref_init; session 20: Fermi's 64 logical warps or Kepler's and
 * Maxwell's 96 in one build).
 */
#include "zorua_phase.h"

#include <stdio.h>
#include <string.h>

#define HD_PORTS_DEF "zorua_phase_ports.def"
#define HD_PORTS_IN_T struct hd_zorua_phase_in
#define HD_PORTS_OUT_T struct hd_zorua_phase_out
#define HD_PORTS_BLOCK_VAR hd_zorua_phase_block
#include "hd_ports_table.h"

#define M(w) (((uint64_t)1 << (w)) - 1u)

int hd_zorua_phase_ref_init(struct hd_zorua_phase_state *s, const struct hd_zorua_phase_cfg *c,
                            char *err, unsigned errlen)
{
    const char *bad = hd_zorua_phase_cfg_check(c);
    if (bad) {
        if (err && errlen)
            snprintf(err, errlen, "zorua_phase: configuration refused: %s", bad);
        return -1;
    }
    memset(s, 0, sizeof *s);
    s->cfg = *c;
    hd_block_reset_values(&hd_zorua_phase_block, HD_DIR_OUT, &s->q);
    return 0;
}

void hd_zorua_phase_ref_reset(struct hd_zorua_phase_state *s)
{
    HD_ZORUA_PHASE_REF_RESET_CFG(s);
}

void hd_zorua_phase_ref_step(struct hd_zorua_phase_state *s, const struct hd_zorua_phase_in *in,
                             struct hd_zorua_phase_out *out)
{
    const struct hd_zorua_phase_cfg *c = &s->cfg;
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (in->init_v_i & 1u) {
        for (unsigned w = 0; w < c->warps; w++)
            if (hd_zph_bit(in->init_mask_i, w)) {
                s->rsets[w] = (uint8_t)(in->init_rsets_i & M(c->rsw));
                s->ssets[w] = (uint8_t)(in->init_ssets_i & M(c->ssw));
            }
    }
    unsigned w = (unsigned)(in->warp_i & M(c->ww));
    if (!(in->v_i & 1u) || w >= c->warps)
        return;
    uint64_t rs = ((in->regs_i & M(c->regw)) + 3u) >> 2;
    uint64_t ss = ((in->smem_i & M(c->smw)) + 1023u) >> 10;
    switch (in->cls_i & 7u) {
    case HD_ZPH_PHASE:
        if (rs > c->reg_sets || ss > c->smem_sets) {
            s->q.err_o = 1;
            s->q.ev_warp_o = w;
            return;
        }
        s->rsets[w] = (uint8_t)rs;
        s->ssets[w] = (uint8_t)ss;
        s->q.ev_rsets_o = rs;
        s->q.ev_ssets_o = ss;
        break;
    case HD_ZPH_BARRIER:
        s->q.ev_kind_o = 1;
        break;
    case HD_ZPH_FENCE:
        s->q.ev_rsets_o = s->rsets[w];
        s->q.ev_ssets_o = s->ssets[w];
        break;
    case HD_ZPH_EXIT:
        s->q.ev_kind_o = 2;
        s->rsets[w] = s->ssets[w] = 0;
        break;
    default:
        return;
    }
    s->q.ev_v_o = 1;
    s->q.ev_warp_o = w;
}

bool hd_zorua_phase_ref_idle(const struct hd_zorua_phase_state *s,
                             const struct hd_zorua_phase_in *in)
{
    return !((in->v_i | in->init_v_i) & 1u) && !(s->q.ev_v_o & 1u) && !(s->q.err_o & 1u);
}
