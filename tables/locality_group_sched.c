/* SPDX-License-Identifier: MIT
 * locality_group_sched.c - the warp-group scheduler's C reference (locality_group_sched.h).
 *
 * Design: the fields mirror the RTL's flops one for one; one edge registers the selection made
 * from the state before it, then applies clear, write and issue in the ports.def's order.
 */
#include "locality_group_sched.h"

#include <string.h>

#define HD_PORTS_DEF "locality_group_sched_ports.def"
#define HD_PORTS_IN_T struct hd_locality_group_sched_in
#define HD_PORTS_OUT_T struct hd_locality_group_sched_out
#define HD_PORTS_BLOCK_VAR hd_locality_group_sched_block
#include "hd_ports_table.h"

#define WMASK (((uint64_t)1 << LOCALITY_GROUP_SCHED_WW) - 1u)
#define GMASK (((uint64_t)1 << LOCALITY_GROUP_SCHED_GW) - 1u)

void hd_locality_group_sched_ref_reset(struct hd_locality_group_sched_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_locality_group_sched_block, HD_DIR_OUT, &s->q);
}

void hd_locality_group_sched_ref_step(struct hd_locality_group_sched_state *s,
                                      const struct hd_locality_group_sched_in *in,
                                      struct hd_locality_group_sched_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    /* the selection, from the state before the edge */
    bool cand[HD_LGS_NW], any_act = false, nxt_found = false, min_found = false;
    uint32_t nxt = 0, mn = 0;
    for (uint32_t w = 0; w < HD_LGS_NW; w++) {
        cand[w] = s->res[w] && (in->ready_i >> w & 1u);
        if (!cand[w])
            continue;
        uint32_t g = s->gid[w];
        any_act |= s->act_v && g == s->act;
        if (!min_found || g < mn) {
            mn = g;
            min_found = true;
        }
        if (s->act_v && g > s->act && (!nxt_found || g < nxt)) {
            nxt = g;
            nxt_found = true;
        }
    }
    const uint32_t sel_g = any_act ? s->act : nxt_found ? nxt : mn;
    int lo = -1, hi = -1;
    for (uint32_t w = 0; w < HD_LGS_NW; w++) {
        if (!cand[w] || s->gid[w] != sel_g)
            continue;
        if (lo < 0)
            lo = (int)w;
        if (hi < 0 && s->last_v && w > s->last)
            hi = (int)w;
    }
    if (lo >= 0) {
        s->q.grant_v_o = 1;
        s->q.grant_warp_o = (uint32_t)(hi >= 0 ? hi : lo);
        s->q.grant_gid_o = sel_g;
        s->q.switch_o = !s->act_v || sel_g != s->act;
        s->act_v = true;
        s->act = sel_g;
    }
    /* table updates: clear, write, issue */
    const uint64_t cw = in->clr_warp_i & WMASK, ww = in->wr_warp_i & WMASK,
                   iw = in->iss_warp_i & WMASK;
    if ((in->clr_v_i & 1u) && cw < HD_LGS_NW) {
        s->res[cw] = false;
        if (s->last_v && s->last == cw)
            s->last_v = false;
    }
    if ((in->wr_v_i & 1u) && ww < HD_LGS_NW) {
        s->res[ww] = true;
        s->gid[ww] = (uint32_t)(in->wr_gid_i & GMASK);
    }
    if ((in->iss_v_i & 1u) && iw < HD_LGS_NW) {
        s->last_v = true;
        s->last = (uint32_t)iw;
    }
}

bool hd_locality_group_sched_ref_idle(const struct hd_locality_group_sched_state *s,
                                      const struct hd_locality_group_sched_in *in)
{
    bool ready = false;
    for (uint32_t w = 0; w < HD_LGS_NW; w++)
        ready |= s->res[w] && (in->ready_i >> w & 1u);
    return !ready && !(in->wr_v_i & 1u) && !(in->clr_v_i & 1u) && !(in->iss_v_i & 1u) &&
           !s->q.grant_v_o && !s->q.switch_o;
}
