/* SPDX-License-Identifier: MIT
 * regpat_tbcls.c - the TB-level register pattern classifier's C reference (regpat_tbcls.h).
 *
 * Design: the accumulator registers mirror the RTL's one for one (they decide the class, so the
 * RTL has exactly these); a warp's groups are folded in order within the cycle.
 */
#include "regpat_tbcls.h"

#include <string.h>

#define HD_PORTS_DEF "regpat_tbcls_ports.def"
#define HD_PORTS_IN_T struct hd_regpat_tbcls_in
#define HD_PORTS_OUT_T struct hd_regpat_tbcls_out
#define HD_PORTS_BLOCK_VAR hd_regpat_tbcls_block
#include "hd_ports_table.h"

const char *hd_regpat_tb_class_name(unsigned cls)
{
    static const char *const names[HD_REGPAT_TB_NCLASSES] = {
        "dead", "random", "global-uniform", "local-uniform", "global-strided", "local-strided"};
    return cls < HD_REGPAT_TB_NCLASSES ? names[cls] : "?";
}

static void start(struct hd_regpat_tbcls_state *s)
{
    s->have_first = s->have_step = false;
    s->base_uni = s->base_str = s->stride_uni = s->stride_zero = true;
    s->any_rand = s->any_dead = false;
    s->all_dead = true;
    s->first_base = s->prev_base = s->step = s->stride0 = 0;
}

static void fold(struct hd_regpat_tbcls_state *s, uint32_t base, uint32_t stride)
{
    if (!s->have_first) {
        s->have_first = true;
        s->first_base = base;
        s->stride0 = stride;
    } else {
        uint32_t diff = base - s->prev_base;
        if (!s->have_step) {
            s->have_step = true;
            s->step = diff;
        } else {
            s->base_str &= diff == s->step;
        }
        s->base_uni &= base == s->first_base;
        s->stride_uni &= stride == s->stride0;
    }
    s->stride_zero &= stride == 0;
    s->prev_base = base;
}

static unsigned classify(const struct hd_regpat_tbcls_state *s, unsigned pag)
{
    if (s->all_dead)
        return HD_REGPAT_TB_DEAD;
    if (s->any_dead || s->any_rand)
        return HD_REGPAT_TB_RANDOM;
    if (s->stride_zero)
        return s->base_uni ? HD_REGPAT_TB_GLOBAL_UNIFORM : HD_REGPAT_TB_LOCAL_UNIFORM;
    if (s->stride_uni && s->base_str && (!s->have_step || s->step == (uint32_t)(s->stride0 * pag)))
        return HD_REGPAT_TB_GLOBAL_STRIDED;
    return HD_REGPAT_TB_LOCAL_STRIDED;
}

void hd_regpat_tbcls_ref_reset(struct hd_regpat_tbcls_state *s)
{
    memset(s, 0, sizeof *s);
    start(s);
    hd_block_reset_values(&hd_regpat_tbcls_block, HD_DIR_OUT, &s->q);
}

void hd_regpat_tbcls_ref_step(struct hd_regpat_tbcls_state *s, const struct hd_regpat_tbcls_in *in,
                              struct hd_regpat_tbcls_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (!(in->valid_i & 1u))
        return;
    if ((in->first_i & 1u) || !s->open)
        start(s);
    unsigned pat = (unsigned)(in->pat_i & 3u);
    unsigned pag = hd_regpat_pag_lanes((unsigned)(in->pag_i & 3u));
    if (pat == HD_REGPAT_DEAD) {
        s->any_dead = true;
    } else {
        s->all_dead = false;
        if (pat == HD_REGPAT_RANDOM)
            s->any_rand = true;
        else
            for (unsigned g = 0; g < HD_REGPAT_LANES / pag; g++)
                fold(s, in->base_i[g], in->stride_i[g]);
    }
    s->open = !(in->last_i & 1u);
    if (!s->open) {
        unsigned cls = classify(s, pag);
        s->q.valid_o = 1;
        s->q.cls_o = cls;
        if (cls == HD_REGPAT_TB_GLOBAL_UNIFORM || cls == HD_REGPAT_TB_GLOBAL_STRIDED)
            s->q.gbase_o = s->first_base;
        if (cls == HD_REGPAT_TB_GLOBAL_STRIDED)
            s->q.gstride_o = s->stride0;
    }
}

bool hd_regpat_tbcls_ref_idle(const struct hd_regpat_tbcls_state *s,
                              const struct hd_regpat_tbcls_in *in)
{
    return !(in->valid_i & 1u) && !(s->q.valid_o & 1u);
}
