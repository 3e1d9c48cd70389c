/* SPDX-License-Identifier: MIT
 * haws_warp_ctl.c - the HAWS warp controller's C reference (haws_warp_ctl.h).
 *
 * Design: the filter is written as model/timing/sm_ahead.c's hd_sm_ahead_filter (early returns,
 * one discard helper), the in-order step as hd_sm_ahead_stepped, the trigger as trigger(), so
 * that a reviewer can hold them side by side; the RTL's single-pass form must agree with it.
 */
#include "haws_warp_ctl.h"

#include <string.h>

#define HD_PORTS_DEF "haws_warp_ctl_ports.def"
#define HD_PORTS_IN_T struct hd_haws_warp_ctl_in
#define HD_PORTS_OUT_T struct hd_haws_warp_ctl_out
#define HD_PORTS_BLOCK_VAR hd_haws_warp_ctl_block
#include "hd_ports_table.h"

#define BITS(w) ((w) >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << (w)) - 1u))
#define PC_MASK BITS(HAWS_WARP_CTL_PCW)
#define S_MASK ((uint32_t)BITS(HAWS_WARP_CTL_SW))
#define N_MASK ((uint32_t)BITS(HAWS_WARP_CTL_NW))
#define G_MASK ((uint32_t)BITS(HAWS_WARP_CTL_GW))
#define L_MASK ((uint32_t)BITS(HAWS_WARP_CTL_LW))
#define W_MASK BITS(HAWS_WARP_CTL_Win)

void hd_haws_warp_ctl_ref_reset(struct hd_haws_warp_ctl_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_haws_warp_ctl_block, HD_DIR_OUT, &s->q);
}

/* sm_ahead.c discard(): the episode ends, the RCU (n) and the shadow stack are cleared. */
static void discard(struct hd_haws_warp_ctl_state *s, uint32_t *n)
{
    s->mode = HD_HAWS_IDLE;
    s->parked = false;
    s->bdue = false;
    *n = 0;
    s->q.clear_o = 1;
}

/* hd_sm_ahead_filter */
static uint32_t filter(struct hd_haws_warp_ctl_state *s, const struct hd_haws_warp_ctl_in *in,
                       uint32_t *n)
{
    const uint64_t pc = in->flt_pc_i & PC_MASK;
    if (s->mode == HD_HAWS_IDLE || s->bdue)
        return HD_HAWS_FLT_NONE;
    if (s->mode == HD_HAWS_HINT) { /* the head issues again: the long-latency flag cleared */
        s->mode = HD_HAWS_RETURN;
        if (pc != s->stall_pc) {
            s->q.mism_o = 1;
            discard(s, n);
            return HD_HAWS_FLT_NONE;
        }
    }
    if (*n == 0) {
        discard(s, n);
        return HD_HAWS_FLT_NONE;
    }
    const uint32_t hs = in->head_step_i & S_MASK;
    if (hs < s->io_step || (hs == s->io_step && (in->head_pc_i & PC_MASK) != pc)) {
        s->q.mism_o = 1;
        discard(s, n);
        return HD_HAWS_FLT_NONE;
    }
    if (hs > s->io_step)
        return HD_HAWS_FLT_NONE;
    if (in->head_br_i & 1u) {
        s->q.pop_o = 1;
        (*n)--;
        s->bdue = true;
        return HD_HAWS_FLT_NONE;
    }
    if (!(in->head_ready_i & 1u))
        return HD_HAWS_FLT_WAIT;
    if (!(in->flt_mask_ok_i & 1u)) { /* hd_func_ahead_commit refused */
        s->q.mism_o = 1;
        discard(s, n);
        return HD_HAWS_FLT_NONE;
    }
    s->q.pop_o = 1;
    (*n)--;
    s->io_step = (s->io_step + 1u) & S_MASK;
    if (*n == 0)
        discard(s, n);
    return (in->head_ren_i & 1u) ? HD_HAWS_FLT_COPY : HD_HAWS_FLT_SKIP;
}

void hd_haws_warp_ctl_ref_step(struct hd_haws_warp_ctl_state *s,
                               const struct hd_haws_warp_ctl_in *in,
                               struct hd_haws_warp_ctl_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    uint32_t n = (uint32_t)in->rcu_n_i & N_MASK;
    if (in->reset_i & 1u) /* hd_sm_ahead_reset */
        discard(s, &n);
    if (in->flt_v_i & 1u) {
        s->q.flt_v_o = 1;
        s->q.flt_o = filter(s, in, &n);
    }
    if ((in->stepped_i & 1u) && s->mode == HD_HAWS_RETURN) { /* hd_sm_ahead_stepped */
        s->io_step = (s->io_step + 1u) & S_MASK;
        s->bdue = false;
        if (n == 0)
            discard(s, &n);
    }
    if ((in->trig_v_i & 1u) && s->mode == HD_HAWS_IDLE && n == 0) { /* trigger() */
        s->mode = HD_HAWS_HINT;
        s->parked = false;
        s->bdue = false;
        s->stall_pc = in->trig_pc_i & PC_MASK;
        s->len = (uint32_t)in->trig_len_i & L_MASK;
        s->win_sel = in->trig_sel_i & W_MASK;
        s->win_ren = in->trig_ren_i & W_MASK;
        s->win_reach = in->trig_reach_i & W_MASK;
        /* the window's bit of PC stall_pc + 1 (0, or a back-edge window's loop PCs before it) */
        s->off = (uint32_t)((s->stall_pc + 1u - in->trig_first_i) & PC_MASK) & L_MASK;
        s->scan = s->off;
        s->wrap = false;
        s->step = 1;
        s->io_step = 0;
        s->gen = (s->gen + 1u) & G_MASK;
        s->q.trig_ok_o = 1;
    }
    if (s->mode == HD_HAWS_HINT && !s->parked) { /* try_issue's walk */
        s->step = (s->step + (uint32_t)(in->wk_skip_n_i & S_MASK)) & S_MASK;
        if (in->wk_iss_v_i & 1u) {
            const uint64_t idx =
                ((in->wk_iss_pc_i & PC_MASK) - s->stall_pc - 1u + s->off) & PC_MASK; /* pc - first */
            s->q.iss_v_o = 1;
            s->q.iss_step_o = s->step;
            s->q.iss_tag_o = (uint64_t)s->gen << 8 | n;
            s->step = (s->step + 1u) & S_MASK;
            if (idx < HAWS_WARP_CTL_Win && idx < s->len && (s->win_sel >> idx & 1u) &&
                (s->win_reach >> idx & 1u)) {
                s->q.iss_ok_o = 1;
                s->q.iss_ren_o = s->win_ren >> idx & 1u;
                s->scan = (uint32_t)(idx + 1u) & L_MASK;
                s->wrap = idx < s->off; /* issued in the loop's PCs before the stall point */
            }
        }
        if (in->wk_park_i & 1u)
            s->parked = true;
    }
    if (s->mode == HD_HAWS_HINT && !s->parked) { /* the fetch-PC generator, in walk order */
        /* from the scan position to the window's end (wrapped: to the stall point), then (not
         * wrapped) the loop's PCs before the stall point from the window's first PC */
        const uint32_t end = s->wrap ? s->off : s->len;
        bool found = false;
        uint32_t j = s->scan;
        for (; j < end && j < s->len && j < HAWS_WARP_CTL_Win; j++)
            if ((s->win_sel & s->win_reach) >> j & 1u) {
                found = true;
                break;
            }
        if (!found && !s->wrap)
            for (j = 0; j < s->off && j < s->len && j < HAWS_WARP_CTL_Win; j++)
                if ((s->win_sel & s->win_reach) >> j & 1u) {
                    found = true;
                    break;
                }
        if (found) {
            s->q.fetch_v_o = 1;
            s->q.fetch_pc_o = (s->stall_pc + 1u + j - s->off) & PC_MASK; /* first + j */
        }
    }
    s->q.mode_o = s->mode;
    s->q.parked_o = s->parked;
    s->q.branch_due_o = s->bdue;
    if (s->mode != HD_HAWS_IDLE) { /* shown outside normal mode only (the idle contract) */
        s->q.stall_pc_o = s->stall_pc;
        s->q.step_o = s->step;
        s->q.io_step_o = s->io_step;
        s->q.gen_o = s->gen;
    }
}

bool hd_haws_warp_ctl_ref_idle(const struct hd_haws_warp_ctl_state *s,
                               const struct hd_haws_warp_ctl_in *in)
{
    return !((in->reset_i | in->flt_v_i | in->stepped_i | in->trig_v_i | in->wk_iss_v_i |
              in->wk_park_i) & 1u) && !in->wk_skip_n_i &&
           !((s->q.flt_v_o | s->q.pop_o | s->q.clear_o | s->q.mism_o | s->q.trig_ok_o |
              s->q.iss_v_o) & 1u) &&
           s->mode == HD_HAWS_IDLE;
}
