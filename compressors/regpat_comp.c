/* SPDX-License-Identifier: MIT
 * regpat_comp.c - the warp-level register pattern compressor's C reference (regpat_comp.h).
 *
 * Design: the pipeline is two registers deep, as in the RTL: stage 1 holds the presented
 * register, stage 2 (the outputs) holds its analysis. Only the ports are cycle-exact; the RTL
 * keeps the differences rather than the lanes in stage 1, which is invisible at the ports.
 */
#include "regpat_comp.h"

#include <string.h>

#define HD_PORTS_DEF "regpat_comp_ports.def"
#define HD_PORTS_IN_T struct hd_regpat_comp_in
#define HD_PORTS_OUT_T struct hd_regpat_comp_out
#define HD_PORTS_BLOCK_VAR hd_regpat_comp_block
#include "hd_ports_table.h"

unsigned hd_regpat_pag_lanes(unsigned pag_sel)
{
    return pag_sel == HD_REGPAT_PAG8 ? 8u : pag_sel == HD_REGPAT_PAG16 ? 16u : 32u;
}

unsigned hd_regpat_pag_for_block(const uint32_t block[3])
{
    uint32_t x = block[0];
    if (x == 0 || x % 32u == 0)
        return HD_REGPAT_PAG32;
    if (x % 16u == 0)
        return HD_REGPAT_PAG16;
    return HD_REGPAT_PAG8;
}

const char *hd_regpat_code_name(unsigned code)
{
    static const char *const names[4] = {"dead", "uniform", "random", "strided"};
    return names[code & 3u];
}

void hd_regpat_comp_eval(const struct hd_regpat_comp_in *in, struct hd_regpat_comp_out *out)
{
    memset(out, 0, sizeof *out);
    if (!(in->valid_i & 1u))
        return;
    out->valid_o = 1;
    if (!(in->live_i & 1u)) {
        out->pat_o = HD_REGPAT_DEAD;
        return;
    }
    unsigned pag = hd_regpat_pag_lanes((unsigned)(in->pag_i & 3u));
    unsigned groups = HD_REGPAT_LANES / pag;
    bool all_uniform = true, all_b = true;
    uint32_t stride[HD_REGPAT_MAX_GROUPS];
    for (unsigned g = 0; g < groups; g++) {
        const uint32_t *v = &in->data_i[g * pag];
        uint32_t d0 = v[1] - v[0];
        bool b = true;
        for (unsigned i = 1; i + 1 < pag; i++)
            b &= (uint32_t)(v[i + 1] - v[i]) == d0;
        bool a = d0 != 0;
        all_b &= b;
        all_uniform &= b && !a;
        stride[g] = d0;
    }
    if (!all_b) {
        out->pat_o = HD_REGPAT_RANDOM;
        out->words_o = HD_REGPAT_LANES;
        return;
    }
    out->pat_o = all_uniform ? HD_REGPAT_UNIFORM : HD_REGPAT_STRIDED;
    out->words_o = all_uniform ? groups : 2u * groups;
    for (unsigned g = 0; g < groups; g++) {
        out->base_o[g] = in->data_i[g * pag];
        out->stride_o[g] = all_uniform ? 0u : stride[g];
    }
}

void hd_regpat_comp_ref_reset(struct hd_regpat_comp_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_regpat_comp_block, HD_DIR_IN, &s->s1);
    hd_block_reset_values(&hd_regpat_comp_block, HD_DIR_OUT, &s->q);
}

void hd_regpat_comp_ref_step(struct hd_regpat_comp_state *s, const struct hd_regpat_comp_in *in,
                             struct hd_regpat_comp_out *out)
{
    *out = s->q;
    hd_regpat_comp_eval(&s->s1, &s->q);
    s->s1 = *in;
    hd_block_clamp(&hd_regpat_comp_block, HD_DIR_IN, &s->s1);
    s->cycle++;
}

bool hd_regpat_comp_ref_idle(const struct hd_regpat_comp_state *s, const struct hd_regpat_comp_in *in)
{
    return !(in->valid_i & 1u) && !(s->s1.valid_i & 1u) && !(s->q.valid_o & 1u);
}
