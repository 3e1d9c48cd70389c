/* SPDX-License-Identifier: MIT
 * gpuduet_csl.c - the context switching logic's data mover, C reference (gpuduet_csl.h).
 *
 * Design: the RTL's ring buffer of jobs (head index and count); one edge serves the head job
 * (a beat when neither of its arrays is the pipeline's, its completion after the last), then
 * takes the cycle's command, as the ports.def says. The beat's width is the state's pw (the
 * configuration's PW, set by the reset), so that one step function serves every configuration.
 */
#include "gpuduet_csl.h"

#include <string.h>

#define HD_PORTS_DEF "gpuduet_csl_ports.def"
#define HD_PORTS_IN_T struct hd_gpuduet_csl_in
#define HD_PORTS_OUT_T struct hd_gpuduet_csl_out
#define HD_PORTS_BLOCK_VAR hd_gpuduet_csl_block
#include "hd_ports_table.h"

#define BW_MASK ((uint32_t)(((uint64_t)1 << GPUDUET_CSL_BW) - 1u))
#define IW_MASK ((uint32_t)((1u << GPUDUET_CSL_IW) - 1u))

uint32_t hd_gpuduet_csl_beats(uint32_t bytes, uint32_t bytes2)
{
    return (bytes + GPUDUET_CSL_PW - 1u) / GPUDUET_CSL_PW +
           (bytes2 + GPUDUET_CSL_PW - 1u) / GPUDUET_CSL_PW;
}

void hd_gpuduet_csl_ref_reset(struct hd_gpuduet_csl_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_gpuduet_csl_block, HD_DIR_OUT, &s->o);
    s->pw = GPUDUET_CSL_PW;
}

void hd_gpuduet_csl_ref_step(struct hd_gpuduet_csl_state *s, const struct hd_gpuduet_csl_in *in,
                             struct hd_gpuduet_csl_out *out)
{
    *out = s->o;
    s->cycle++;
    memset(&s->o, 0, sizeof s->o);
    if (s->cnt != 0) {
        struct hd_gpuduet_csl_job *j = &s->q[s->head];
        if ((in->busy_i >> j->src & 1u) || (in->busy_i >> j->dst & 1u)) {
            s->o.wait_o = 1;
        } else {
            const uint32_t src = j->src, dst = j->dst;
            s->o.beat_v_o = 1;
            s->o.beat_src_o = src;
            s->o.beat_dst_o = dst;
            if (j->rem > s->pw) {
                j->rem -= s->pw;
            } else if (j->rem2 != 0) { /* a swap's second part: the other way */
                j->rem = j->rem2;
                j->rem2 = 0;
                j->src = dst;
                j->dst = src;
            } else {
                s->o.done_v_o = 1;
                s->o.done_wid_o = j->wid;
                s->o.done_kind_o = j->kind;
                s->head = (s->head + 1u) % GPUDUET_CSL_QD;
                s->cnt--;
            }
        }
    }
    if (in->cmd_v_i & 1u) {
        const uint32_t kind = (uint32_t)in->cmd_kind_i & 3u, src = (uint32_t)in->cmd_src_i & 3u,
                       dst = (uint32_t)in->cmd_dst_i & 3u;
        const uint32_t bytes = (uint32_t)in->cmd_bytes_i & BW_MASK;
        if (kind == 3u || src == 3u || dst == 3u || src == dst || bytes == 0 ||
            s->cnt == GPUDUET_CSL_QD) {
            s->o.drop_o = 1;
        } else {
            struct hd_gpuduet_csl_job *t = &s->q[(s->head + s->cnt) % GPUDUET_CSL_QD];
            t->kind = kind;
            t->wid = (uint32_t)in->cmd_wid_i & IW_MASK;
            t->src = src;
            t->dst = dst;
            t->rem = bytes;
            t->rem2 = kind == HD_GCSL_SWAP ? (uint32_t)in->cmd_bytes2_i & BW_MASK : 0;
            s->cnt++;
        }
    }
    s->o.full_o = s->cnt == GPUDUET_CSL_QD;
    s->o.qcnt_o = s->cnt;
}

bool hd_gpuduet_csl_ref_idle(const struct hd_gpuduet_csl_state *s,
                             const struct hd_gpuduet_csl_in *in)
{
    return !(in->cmd_v_i & 1u) && s->cnt == 0 && !s->o.drop_o && !s->o.beat_v_o &&
           !s->o.wait_o && !s->o.done_v_o && s->o.qcnt_o == 0 && !s->o.full_o;
}
