/* SPDX-License-Identifier: MIT
 * shieh_victim_sets.c - the Candidate Victim Sets table's C reference (shieh_victim_sets.h).
 *
 * Design: the rows and valid bits mirror the RTL's flops one for one; one edge applies clear,
 * write, invalidate and eviction in the ports.def's order.
 */
#include "shieh_victim_sets.h"

#include <string.h>

#define HD_PORTS_DEF "shieh_victim_sets_ports.def"
#define HD_PORTS_IN_T struct hd_shieh_victim_sets_in
#define HD_PORTS_OUT_T struct hd_shieh_victim_sets_out
#define HD_PORTS_BLOCK_VAR hd_shieh_victim_sets_block
#include "hd_ports_table.h"

#define TB_MASK (HD_SHIEH_VS_TBS == 64 ? ~(uint64_t)0 : (((uint64_t)1 << HD_SHIEH_VS_TBS) - 1u))
#define IDX_MASK (((uint64_t)1 << SHIEH_VICTIM_SETS_CandW) - 1u)

void hd_shieh_victim_sets_ref_reset(struct hd_shieh_victim_sets_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_shieh_victim_sets_block, HD_DIR_OUT, &s->q);
}

void hd_shieh_victim_sets_ref_step(struct hd_shieh_victim_sets_state *s,
                                   const struct hd_shieh_victim_sets_in *in,
                                   struct hd_shieh_victim_sets_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (in->clr_i & 1u) {
        memset(s->row, 0, sizeof s->row);
        s->valid = 0;
    }
    uint64_t wi = in->wr_idx_i & IDX_MASK;
    if ((in->wr_v_i & 1u) && wi < HD_SHIEH_VS_ROWS) {
        s->row[wi] = in->wr_bits_i & TB_MASK;
        s->valid |= (uint64_t)1 << wi;
    }
    uint64_t ii = in->inv_idx_i & IDX_MASK;
    if ((in->inv_v_i & 1u) && ii < HD_SHIEH_VS_ROWS) {
        s->row[ii] = 0;
        s->valid &= ~((uint64_t)1 << ii);
    }
    if (in->ev_v_i & 1u)
        for (unsigned k = 0; k < HD_SHIEH_VS_ROWS; k++)
            s->row[k] &= ~(in->ev_mask_i & TB_MASK);
    if (!(in->rd_v_i & 1u))
        return;
    uint64_t ri = in->rd_idx_i & IDX_MASK;
    s->q.rd_v_o = 1;
    s->q.rd_bits_o = ri < HD_SHIEH_VS_ROWS ? s->row[ri] : 0;
    s->q.row_valid_o = s->valid;
    for (unsigned k = 0; k < HD_SHIEH_VS_ROWS; k++)
        if (((s->valid >> k) & 1u) && s->row[k] == 0)
            s->q.row_empty_o |= (uint64_t)1 << k;
}

bool hd_shieh_victim_sets_ref_idle(const struct hd_shieh_victim_sets_state *s,
                                   const struct hd_shieh_victim_sets_in *in)
{
    return !((in->clr_i | in->wr_v_i | in->inv_v_i | in->ev_v_i | in->rd_v_i) & 1u) &&
           !(s->q.rd_v_o & 1u);
}
