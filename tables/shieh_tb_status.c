/* SPDX-License-Identifier: MIT
 * shieh_tb_status.c - the Running TB Status table's C reference (shieh_tb_status.h).
 *
 * Design: the entries mirror the RTL's flops one for one; one edge applies free, allocation and
 * the issue ports in the ports.def's order.
 */
#include "shieh_tb_status.h"

#include <string.h>

#define HD_PORTS_DEF "shieh_tb_status_ports.def"
#define HD_PORTS_IN_T struct hd_shieh_tb_status_in
#define HD_PORTS_OUT_T struct hd_shieh_tb_status_out
#define HD_PORTS_BLOCK_VAR hd_shieh_tb_status_block
#include "hd_ports_table.h"

#define CW_MAX (SHIEH_TB_STATUS_CW == 64 ? ~(uint64_t)0 : (((uint64_t)1 << SHIEH_TB_STATUS_CW) - 1u))
#define SLOT_MASK (((uint64_t)1 << SHIEH_TB_STATUS_TbW) - 1u)

void hd_shieh_tb_status_ref_reset(struct hd_shieh_tb_status_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_shieh_tb_status_block, HD_DIR_OUT, &s->q);
}

void hd_shieh_tb_status_ref_step(struct hd_shieh_tb_status_state *s,
                                 const struct hd_shieh_tb_status_in *in,
                                 struct hd_shieh_tb_status_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    uint64_t fs = in->free_slot_i & SLOT_MASK;
    if ((in->free_v_i & 1u) && fs < HD_SHIEH_TBS_SLOTS) {
        struct hd_shieh_tb_entry *e = &s->e[fs];
        if (e->valid) {
            s->q.fin_v_o = 1;
            s->q.fin_instr_o = e->instr;
            s->q.fin_issue_o = e->issue;
        }
        memset(e, 0, sizeof *e);
    }
    uint64_t as = in->alloc_slot_i & SLOT_MASK;
    if ((in->alloc_v_i & 1u) && as < HD_SHIEH_TBS_SLOTS) {
        struct hd_shieh_tb_entry *e = &s->e[as];
        e->valid = true;
        e->flush = in->alloc_flush_i & 1u;
        e->instr = in->alloc_instr_i & CW_MAX;
        e->issue = in->alloc_cycle_i & CW_MAX;
    }
    for (unsigned k = 0; k < HD_SHIEH_TBS_ISS; k++) {
        if (!((in->iss_v_i >> k) & 1u))
            continue;
        uint64_t sl = (in->iss_slot_i >> (k * SHIEH_TB_STATUS_TbW)) & SLOT_MASK;
        if (sl >= HD_SHIEH_TBS_SLOTS || !s->e[sl].valid)
            continue;
        struct hd_shieh_tb_entry *e = &s->e[sl];
        if (e->instr != CW_MAX)
            e->instr++;
        if ((in->iss_nonidem_i >> k) & 1u)
            e->flush = false;
    }
    if (!(in->rd_v_i & 1u))
        return;
    s->q.rd_v_o = 1;
    uint64_t rs = in->rd_slot_i & SLOT_MASK;
    if (rs < HD_SHIEH_TBS_SLOTS && s->e[rs].valid) {
        s->q.rd_valid_o = 1;
        s->q.rd_instr_o = s->e[rs].instr;
        s->q.rd_issue_o = s->e[rs].issue;
        s->q.rd_flush_o = s->e[rs].flush;
    }
    for (unsigned j = 0; j < HD_SHIEH_TBS_SLOTS; j++) {
        s->q.rd_slots_o |= (uint64_t)s->e[j].valid << j;
        s->q.rd_flushes_o |= (uint64_t)(s->e[j].valid && s->e[j].flush) << j;
    }
}

bool hd_shieh_tb_status_ref_idle(const struct hd_shieh_tb_status_state *s,
                                 const struct hd_shieh_tb_status_in *in)
{
    return !((in->alloc_v_i | in->free_v_i | in->rd_v_i) & 1u) && !in->iss_v_i &&
           !(s->q.fin_v_o & 1u) && !(s->q.rd_v_o & 1u);
}
