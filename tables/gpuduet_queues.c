/* SPDX-License-Identifier: MIT
 * gpuduet_queues.c - the stalled/ready queues' C reference (gpuduet_queues.h).
 *
 * Design: each queue is the RTL's ring buffer (head index and count, the tail at head + count);
 * one edge applies each queue's pop, then its push, as the ports.def says.
 */
#include "gpuduet_queues.h"

#include <string.h>

#define HD_PORTS_DEF "gpuduet_queues_ports.def"
#define HD_PORTS_IN_T struct hd_gpuduet_queues_in
#define HD_PORTS_OUT_T struct hd_gpuduet_queues_out
#define HD_PORTS_BLOCK_VAR hd_gpuduet_queues_block
#include "hd_ports_table.h"

#define IW GPUDUET_QUEUES_IW

unsigned hd_gpuduet_queues_depth(unsigned q)
{
    return q < 2 ? GPUDUET_QUEUES_WD : GPUDUET_QUEUES_TD;
}

uint64_t hd_gpuduet_queues_field(uint64_t v, unsigned q, unsigned w)
{
    return (v >> (q * w)) & (((uint64_t)1 << w) - 1u);
}

uint64_t hd_gpuduet_queues_field_set(uint64_t v, unsigned q, unsigned w, uint64_t x)
{
    uint64_t m = (((uint64_t)1 << w) - 1u) << (q * w);
    return (v & ~m) | ((x << (q * w)) & m);
}

void hd_gpuduet_queues_ref_reset(struct hd_gpuduet_queues_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_gpuduet_queues_block, HD_DIR_OUT, &s->q);
}

void hd_gpuduet_queues_ref_step(struct hd_gpuduet_queues_state *s,
                                const struct hd_gpuduet_queues_in *in,
                                struct hd_gpuduet_queues_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    for (unsigned q = 0; q < HD_GQ_N; q++) { /* s->f[q] indexed directly: UBSan checks q */
        unsigned d = hd_gpuduet_queues_depth(q);
        unsigned w = q < 2 ? GPUDUET_QUEUES_IW : GPUDUET_QUEUES_TIW;
        if (((in->pop_v_i >> q) & 1u) && s->f[q].cnt != 0) {
            s->q.pop_v_o |= (uint64_t)1 << q;
            s->q.pop_id_o = hd_gpuduet_queues_field_set(s->q.pop_id_o, q, IW, s->f[q].id[s->f[q].head]);
            s->f[q].head = (s->f[q].head + 1u) % d;
            s->f[q].cnt--;
        }
        if ((in->push_v_i >> q) & 1u) {
            if (s->f[q].cnt == d) {
                s->q.drop_o |= (uint64_t)1 << q;
            } else {
                uint64_t id = hd_gpuduet_queues_field(in->push_id_i, q, IW) & (((uint64_t)1 << w) - 1u);
                s->f[q].id[(s->f[q].head + s->f[q].cnt) % d] = (uint16_t)id;
                s->f[q].cnt++;
            }
        }
        if (in->rd_v_i & 1u) {
            s->q.rd_cnt_o = hd_gpuduet_queues_field_set(s->q.rd_cnt_o, q, GPUDUET_QUEUES_CW, s->f[q].cnt);
            if (s->f[q].cnt != 0)
                s->q.rd_head_o = hd_gpuduet_queues_field_set(s->q.rd_head_o, q, IW, s->f[q].id[s->f[q].head]);
        }
    }
    s->q.rd_v_o = in->rd_v_i & 1u;
}

bool hd_gpuduet_queues_ref_idle(const struct hd_gpuduet_queues_state *s,
                                const struct hd_gpuduet_queues_in *in)
{
    return !(in->push_v_i & 15u) && !(in->pop_v_i & 15u) && !(in->rd_v_i & 1u) &&
           !s->q.pop_v_o && !s->q.drop_o && !(s->q.rd_v_o & 1u);
}
