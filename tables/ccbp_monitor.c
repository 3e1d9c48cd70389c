/* SPDX-License-Identifier: MIT
 * ccbp_monitor.c - the bandwidth monitors' C reference (ccbp_monitor.h).
 *
 * Design: the state is the RTL's registers (live and snapshot counters per measure and
 * application, the output registers); one edge adds the increments, then applies the tick,
 * then answers the read, as the ports.def says.
 */
#include "ccbp_monitor.h"

#include <string.h>

#define HD_PORTS_DEF "ccbp_monitor_ports.def"
#define HD_PORTS_IN_T struct hd_ccbp_monitor_in
#define HD_PORTS_OUT_T struct hd_ccbp_monitor_out
#define HD_PORTS_BLOCK_VAR hd_ccbp_monitor_block
#include "hd_ports_table.h"

#define A CCBP_MONITOR_A
#define MMAX ((1u << CCBP_MONITOR_MW) - 1u)

uint64_t hd_ccbp_monitor_field(uint64_t v, unsigned a, unsigned w)
{
    return (v >> (a * w)) & (((uint64_t)1 << w) - 1u);
}

uint64_t hd_ccbp_monitor_field_set(uint64_t v, unsigned a, unsigned w, uint64_t x)
{
    const uint64_t m = (((uint64_t)1 << w) - 1u) << (a * w);
    return (v & ~m) | ((x << (a * w)) & m);
}

void hd_ccbp_monitor_ref_reset(struct hd_ccbp_monitor_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_ccbp_monitor_block, HD_DIR_OUT, &s->q);
}

void hd_ccbp_monitor_ref_step(struct hd_ccbp_monitor_state *s,
                              const struct hd_ccbp_monitor_in *in,
                              struct hd_ccbp_monitor_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    const uint64_t inc[HD_CCBP_MON_KINDS] = {in->inc_iss_i, in->inc_req_i, in->inc_fq_i,
                                             in->inc_fr_i, in->inc_dram_i};
    for (unsigned k = 0; k < HD_CCBP_MON_KINDS; k++) {
        for (unsigned a = 0; a < A; a++) {
            /* s->live[k][a] indexed directly: UBSan checks a */
            const uint64_t sum = (uint64_t)s->live[k][a] +
                                 hd_ccbp_monitor_field(inc[k], a, CCBP_MONITOR_NW);
            s->live[k][a] = sum > MMAX ? MMAX : (uint32_t)sum;
        }
    }
    if (in->tick_i & 1u) {
        memcpy(s->snap, s->live, sizeof s->snap);
        memset(s->live, 0, sizeof s->live);
        s->q.win_o = 1;
    }
    if (in->rd_v_i & 1u) {
        const unsigned k = (unsigned)in->rd_kind_i, a = (unsigned)in->rd_app_i;
        s->q.rd_v_o = 1;
        if (k < HD_CCBP_MON_KINDS) /* a < A = 2^AW */
            s->q.rd_cnt_o = s->snap[k][a];
    }
}

bool hd_ccbp_monitor_ref_idle(const struct hd_ccbp_monitor_state *s,
                              const struct hd_ccbp_monitor_in *in)
{
    return !in->inc_iss_i && !in->inc_req_i && !in->inc_fq_i && !in->inc_fr_i &&
           !in->inc_dram_i && !(in->tick_i & 1u) && !(in->rd_v_i & 1u) && !s->q.win_o &&
           !s->q.rd_v_o;
}
