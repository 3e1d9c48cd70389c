/* SPDX-License-Identifier: MIT
 * shieh_alloc_status.c - the Preempting Kernel Allocation Status table's C reference
 * (shieh_alloc_status.h).
 *
 * Design: the issued bits and the ids mirror the RTL's flops one for one; one edge applies the
 * request, the dispatch and the finish report in the ports.def's order.
 */
#include "shieh_alloc_status.h"

#include <string.h>

#define HD_PORTS_DEF "shieh_alloc_status_ports.def"
#define HD_PORTS_IN_T struct hd_shieh_alloc_status_in
#define HD_PORTS_OUT_T struct hd_shieh_alloc_status_out
#define HD_PORTS_BLOCK_VAR hd_shieh_alloc_status_block
#include "hd_ports_table.h"

#define SM_MASK ((1u << SHIEH_ALLOC_STATUS_SmW) - 1u)
#define POS_MASK ((1u << SHIEH_ALLOC_STATUS_PosW) - 1u)

void hd_shieh_alloc_status_ref_reset(struct hd_shieh_alloc_status_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_shieh_alloc_status_block, HD_DIR_OUT, &s->q);
}

void hd_shieh_alloc_status_ref_step(struct hd_shieh_alloc_status_state *s,
                                    const struct hd_shieh_alloc_status_in *in,
                                    struct hd_shieh_alloc_status_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (in->req_v_i & 1u) {
        memset(s->issued, 0, sizeof s->issued);
        s->pid = (uint32_t)in->req_pid_i & 0x7fffu;
        s->kid = (uint32_t)in->req_kid_i & 0x1fu;
    }
    uint32_t dsm = (uint32_t)in->disp_sm_i & SM_MASK, dpos = (uint32_t)in->disp_pos_i & POS_MASK;
    if ((in->disp_v_i & 1u) && dsm < HD_SHIEH_AS_SMS && dpos < HD_SHIEH_AS_POS)
        s->issued[dsm] |= (uint64_t)1 << dpos;
    if (in->fin_v_i & 1u) {
        uint32_t fsm = (uint32_t)in->fin_sm_i & SM_MASK, fpos = (uint32_t)in->fin_pos_i & POS_MASK;
        bool hit = fsm < HD_SHIEH_AS_SMS && fpos < HD_SHIEH_AS_POS &&
                   ((uint32_t)in->fin_kid_i & 0x1fu) == s->kid && ((s->issued[fsm] >> fpos) & 1u);
        if (hit)
            s->issued[fsm] &= ~((uint64_t)1 << fpos);
        else
            s->q.fin_bad_o = 1;
    }
    if (!(in->rd_v_i & 1u))
        return;
    uint32_t rsm = (uint32_t)in->rd_sm_i & SM_MASK;
    s->q.rd_v_o = 1;
    s->q.rd_issued_o = rsm < HD_SHIEH_AS_SMS ? s->issued[rsm] : 0;
    for (unsigned m = 0; m < HD_SHIEH_AS_SMS; m++)
        if (s->issued[m])
            s->q.rd_busy_sms_o |= (uint64_t)1 << m;
    s->q.rd_pid_o = s->pid;
    s->q.rd_kid_o = s->kid;
}

bool hd_shieh_alloc_status_ref_idle(const struct hd_shieh_alloc_status_state *s,
                                    const struct hd_shieh_alloc_status_in *in)
{
    return !((in->req_v_i | in->disp_v_i | in->fin_v_i | in->rd_v_i) & 1u) &&
           !(s->q.fin_bad_o & 1u) && !(s->q.rd_v_o & 1u);
}
