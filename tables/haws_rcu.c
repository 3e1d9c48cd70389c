/* SPDX-License-Identifier: MIT
 * haws_rcu.c - the HAWS result collection unit's C reference (haws_rcu.h).
 *
 * Design: the fields mirror the RTL's flops one for one; the outputs are computed from them
 * before the edge, then the edge applies clear, or pop, write-back and allocation.
 */
#include "haws_rcu.h"

#include <string.h>

#define HD_PORTS_DEF "haws_rcu_ports.def"
#define HD_PORTS_IN_T struct hd_haws_rcu_in
#define HD_PORTS_OUT_T struct hd_haws_rcu_out
#define HD_PORTS_BLOCK_VAR hd_haws_rcu_block
#include "hd_ports_table.h"

#define D HD_HAWS_RCU_DEPTH
#define IMASK ((uint32_t)D - 1u)
#define OMASK (((uint64_t)1 << HAWS_RCU_OFFW) - 1u)
#define RMASK (((uint64_t)1 << HAWS_RCU_REGW) - 1u)

void hd_haws_rcu_ref_reset(struct hd_haws_rcu_state *s)
{
    memset(s, 0, sizeof *s);
}

static void outputs(const struct hd_haws_rcu_state *s, struct hd_haws_rcu_out *out)
{
    memset(out, 0, sizeof *out);
    out->count_o = s->cnt;
    out->full_o = s->cnt == D;
    out->tail_o = s->tail;
    for (uint32_t i = 0; i < D; i++) {
        out->valid_o |= (uint64_t)s->val[i] << i;
        out->ready_o |= (uint64_t)(s->val[i] && s->rdy[i]) << i;
    }
    out->head_idx_o = s->head;
    if (s->cnt) {
        const uint32_t h = s->head;
        out->head_v_o = 1;
        out->head_off_o = s->off[h];
        out->head_dst_o = s->dst[h];
        out->head_ren_o = s->ren[h];
        out->head_ready_o = s->rdy[h];
        out->head_ctrl_o = s->ctl[h];
    }
}

void hd_haws_rcu_ref_step(struct hd_haws_rcu_state *s, const struct hd_haws_rcu_in *in,
                          struct hd_haws_rcu_out *out)
{
    outputs(s, out);
    s->cycle++;
    if (in->clr_i & 1u) {
        memset(s->val, 0, sizeof s->val);
        memset(s->rdy, 0, sizeof s->rdy);
        s->head = s->tail = s->cnt = 0;
        return;
    }
    const bool full = s->cnt == D, empty = s->cnt == 0;
    const bool pop = (in->pop_i & 1u) && !empty, alloc = (in->alloc_v_i & 1u) && !full;
    const uint32_t wi = (uint32_t)(in->wb_idx_i & IMASK), h = s->head, t = s->tail;
    const bool wb = (in->wb_v_i & 1u) && s->val[wi];
    if (pop) {
        s->val[h] = false;
        s->rdy[h] = false;
        s->head = (h + 1u) & IMASK;
    }
    if (wb && !(pop && wi == h))
        s->rdy[wi] = true;
    if (alloc) {
        s->off[t] = (uint32_t)(in->alloc_off_i & OMASK);
        s->dst[t] = (uint32_t)(in->alloc_dst_i & RMASK);
        s->ren[t] = (uint32_t)(in->alloc_ren_i & RMASK);
        s->ctl[t] = in->alloc_ctrl_i & 1u;
        s->val[t] = true;
        s->rdy[t] = false;
        s->tail = (t + 1u) & IMASK;
    }
    s->cnt = s->cnt + (alloc ? 1u : 0u) - (pop ? 1u : 0u);
}

bool hd_haws_rcu_ref_idle(const struct hd_haws_rcu_state *s, const struct hd_haws_rcu_in *in)
{
    return s->cnt == 0 && s->head == 0 && s->tail == 0 && !(in->clr_i & 1u) &&
           !(in->alloc_v_i & 1u) && !(in->pop_i & 1u);
}
