/* SPDX-License-Identifier: MIT
 * regpat_decomp.c - the warp-level register decompressor's C reference (regpat_decomp.h).
 */
#include "regpat_decomp.h"

#include <string.h>

#define HD_PORTS_DEF "regpat_decomp_ports.def"
#define HD_PORTS_IN_T struct hd_regpat_decomp_in
#define HD_PORTS_OUT_T struct hd_regpat_decomp_out
#define HD_PORTS_BLOCK_VAR hd_regpat_decomp_block
#include "hd_ports_table.h"

void hd_regpat_decomp_eval(const struct hd_regpat_decomp_in *in, struct hd_regpat_decomp_out *out)
{
    memset(out, 0, sizeof *out);
    if (!(in->valid_i & 1u))
        return;
    out->valid_o = 1;
    unsigned pat = (unsigned)(in->pat_i & 3u);
    unsigned pag = hd_regpat_pag_lanes((unsigned)(in->pag_i & 3u));
    for (unsigned i = 0; i < HD_REGPAT_LANES; i++) {
        unsigned g = i / pag, k = i % pag;
        uint32_t v = 0;
        if (pat == HD_REGPAT_RANDOM)
            v = in->raw_i[i];
        else if (pat == HD_REGPAT_UNIFORM)
            v = in->base_i[g];
        else if (pat == HD_REGPAT_STRIDED)
            v = in->base_i[g] + (uint32_t)k * in->stride_i[g];
        out->data_o[i] = v;
    }
}

void hd_regpat_decomp_ref_reset(struct hd_regpat_decomp_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_regpat_decomp_block, HD_DIR_OUT, &s->q);
}

void hd_regpat_decomp_ref_step(struct hd_regpat_decomp_state *s,
                               const struct hd_regpat_decomp_in *in,
                               struct hd_regpat_decomp_out *out)
{
    *out = s->q;
    struct hd_regpat_decomp_in c = *in;
    hd_block_clamp(&hd_regpat_decomp_block, HD_DIR_IN, &c);
    hd_regpat_decomp_eval(&c, &s->q);
    s->cycle++;
}

bool hd_regpat_decomp_ref_idle(const struct hd_regpat_decomp_state *s,
                               const struct hd_regpat_decomp_in *in)
{
    return !(in->valid_i & 1u) && !(s->q.valid_o & 1u);
}
