/* SPDX-License-Identifier: MIT
 * ccbp_irc.c - the issue-rate controller's C reference (ccbp_irc.h).
 *
 * Design: the state is the RTL's registers (per application counter, quota, LS bit, and the
 * output registers); one edge applies the select, the configuration write, the count and the
 * tick in the order the ports.def gives.
 */
#include "ccbp_irc.h"

#include <string.h>

#define HD_PORTS_DEF "ccbp_irc_ports.def"
#define HD_PORTS_IN_T struct hd_ccbp_irc_in
#define HD_PORTS_OUT_T struct hd_ccbp_irc_out
#define HD_PORTS_BLOCK_VAR hd_ccbp_irc_block
#include "hd_ports_table.h"

#define A CCBP_IRC_A
#define CMAX ((1u << CCBP_IRC_CW) - 1u)

uint64_t hd_ccbp_irc_field(uint64_t v, unsigned c, unsigned w)
{
    return (v >> (c * w)) & (((uint64_t)1 << w) - 1u);
}

uint64_t hd_ccbp_irc_field_set(uint64_t v, unsigned c, unsigned w, uint64_t x)
{
    const uint64_t m = (((uint64_t)1 << w) - 1u) << (c * w);
    return (v & ~m) | ((x << (c * w)) & m);
}

void hd_ccbp_irc_ref_reset(struct hd_ccbp_irc_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_ccbp_irc_block, HD_DIR_OUT, &s->q);
}

static bool under(const struct hd_ccbp_irc_state *s, unsigned a)
{
    return s->quota[a] == 0 || s->cnt[a] < s->quota[a];
}

/* The select's answer on the state before the edge: the class that goes (0..A) and *idx its
 * queue position, or -1 and *idx 0 when none may. */
static int pick(const struct hd_ccbp_irc_state *s, const struct hd_ccbp_irc_in *in,
                unsigned *idx)
{
    int best = -1, best_ls = -1;
    unsigned bi = 0, bli = 0;
    for (unsigned c = 0; c <= A; c++) {
        if (!((in->head_v_i >> c) & 1u) || (c < A && !under(s, c)))
            continue;
        const unsigned i = (unsigned)hd_ccbp_irc_field(in->head_idx_i, c, CCBP_IRC_IW);
        if (best < 0 || i < bi) {
            best = (int)c;
            bi = i;
        }
        if (c < A && s->ls[c] && (best_ls < 0 || i < bli)) {
            best_ls = (int)c;
            bli = i;
        }
    }
    if (best_ls >= 0) {
        *idx = bli;
        return best_ls;
    }
    *idx = bi; /* (0 when nothing is eligible) */
    return best;
}

void hd_ccbp_irc_ref_step(struct hd_ccbp_irc_state *s, const struct hd_ccbp_irc_in *in,
                          struct hd_ccbp_irc_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (in->sel_v_i & 1u) {
        unsigned idx;
        const int c = pick(s, in, &idx);
        s->q.sel_v_o = 1;
        s->q.sel_idx_o = idx; /* (0 without a hit) */
        if (c >= 0) {
            s->q.sel_hit_o = 1;
            s->q.sel_app_o = (uint64_t)c;
        }
    }
    if (in->cfg_v_i & 1u) {
        const unsigned a = (unsigned)in->cfg_app_i; /* < A = 2^AW; s->quota[a] indexed directly */
        s->quota[a] = (uint32_t)in->cfg_quota_i;
        s->ls[a] = (uint8_t)(in->cfg_ls_i & 1u);
    }
    if (in->iss_v_i & 1u) {
        const unsigned a = (unsigned)in->iss_app_i;
        if (s->cnt[a] < CMAX)
            s->cnt[a]++;
    }
    if (in->tick_i & 1u) {
        for (unsigned a = 0; a < A; a++) {
            if (s->quota[a] && s->cnt[a] >= s->quota[a])
                s->q.atq_o |= (uint64_t)1 << a;
            s->cnt[a] = 0;
        }
    }
    if (in->rd_v_i & 1u) {
        s->q.rd_v_o = 1;
        for (unsigned a = 0; a < A; a++)
            s->q.rd_cnt_o = hd_ccbp_irc_field_set(s->q.rd_cnt_o, a, CCBP_IRC_CW, s->cnt[a]);
    }
}

bool hd_ccbp_irc_ref_idle(const struct hd_ccbp_irc_state *s, const struct hd_ccbp_irc_in *in)
{
    return !(in->cfg_v_i & 1u) && !(in->sel_v_i & 1u) && !(in->iss_v_i & 1u) &&
           !(in->tick_i & 1u) && !(in->rd_v_i & 1u) && !s->q.sel_v_o && !s->q.atq_o &&
           !s->q.rd_v_o;
}
