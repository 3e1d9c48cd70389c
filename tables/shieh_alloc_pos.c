/* SPDX-License-Identifier: MIT
 * shieh_alloc_pos.c - the Preempting Kernel Allocation Positions table's C reference
 * (shieh_alloc_pos.h).
 *
 * Design: the entries, the fill state and the accumulators mirror the RTL's flops one for one.
 * One edge: a fill step (when busy), then init_v_i (which restarts the fill), then the read.
 */
#include "shieh_alloc_pos.h"

#include <string.h>

#define HD_PORTS_DEF "shieh_alloc_pos_ports.def"
#define HD_PORTS_IN_T struct hd_shieh_alloc_pos_in
#define HD_PORTS_OUT_T struct hd_shieh_alloc_pos_out
#define HD_PORTS_BLOCK_VAR hd_shieh_alloc_pos_block
#include "hd_ports_table.h"

#define ADDR_MASK ((1u << SHIEH_ALLOC_POS_AddrW) - 1u)
#define SIZE_MASK ((1u << (SHIEH_ALLOC_POS_AddrW + 1)) - 1u)
#define ACC_MASK ((1u << (SHIEH_ALLOC_POS_AddrW + 2)) - 1u)
#define IDX_MASK ((1u << SHIEH_ALLOC_POS_PosW) - 1u)

void hd_shieh_alloc_pos_ref_reset(struct hd_shieh_alloc_pos_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_shieh_alloc_pos_block, HD_DIR_OUT, &s->q);
}

/* One fill step: check position k (its end within both capacities), write it or end. */
static void fill_step(struct hd_shieh_alloc_pos_state *s)
{
    uint32_t reg_end = (s->reg_acc + s->r) & ACC_MASK;
    uint32_t smem_end = (s->smem_acc + s->sm) & ACC_MASK;
    bool ok = s->k < HD_SHIEH_POS_MAX && (s->r != 0 || s->sm != 0) &&
              (s->r == 0 || reg_end <= s->rf_cap) && (s->sm == 0 || smem_end <= s->smem_cap);
    if (ok) {
        s->reg[s->k] = s->reg_acc & ADDR_MASK;
        s->smem[s->k] = s->smem_acc & ADDR_MASK;
        s->k++;
        s->reg_acc = reg_end;
        s->smem_acc = smem_end;
    } else {
        s->busy = false;
        s->q.done_o = 1;
        s->q.k_o = s->k;
    }
}

void hd_shieh_alloc_pos_ref_step(struct hd_shieh_alloc_pos_state *s,
                                 const struct hd_shieh_alloc_pos_in *in,
                                 struct hd_shieh_alloc_pos_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (s->busy)
        fill_step(s);
    if (in->init_v_i & 1u) {
        s->q.done_o = 0;
        s->q.k_o = 0;
        s->busy = true;
        s->k = 0;
        s->r = (uint32_t)in->r_per_tb_i & SIZE_MASK;
        s->sm = (uint32_t)in->s_per_tb_i & SIZE_MASK;
        s->rf_cap = (uint32_t)in->rf_cap_i & SIZE_MASK;
        s->smem_cap = (uint32_t)in->smem_cap_i & SIZE_MASK;
        s->reg_acc = s->smem_acc = 0;
    }
    if (!(in->rd_v_i & 1u))
        return;
    uint32_t i = (uint32_t)in->rd_idx_i & IDX_MASK;
    s->q.rd_v_o = 1;
    s->q.k_o = s->k;
    if (i < s->k) {
        s->q.rd_ok_o = 1;
        s->q.rd_reg_o = s->reg[i];
        s->q.rd_smem_o = s->smem[i];
    }
}

bool hd_shieh_alloc_pos_ref_idle(const struct hd_shieh_alloc_pos_state *s,
                                 const struct hd_shieh_alloc_pos_in *in)
{
    return !s->busy && !((in->init_v_i | in->rd_v_i) & 1u) && !(s->q.done_o & 1u) &&
           !(s->q.rd_v_o & 1u);
}
