/* SPDX-License-Identifier: MIT
 * haws_shadow_stack.c - the HAWS shadow SIMT stack's C reference (haws_shadow_stack.h).
 *
 * Design: written as the model does it, one advance at a time (PC+1, then pop while the top is
 * reconverged or empty), not as the RTL's per-pop stages: the two forms must agree bit for bit.
 */
#include "haws_shadow_stack.h"

#include <string.h>

#define HD_PORTS_DEF "haws_shadow_stack_ports.def"
#define HD_PORTS_IN_T struct hd_haws_shadow_stack_in
#define HD_PORTS_OUT_T struct hd_haws_shadow_stack_out
#define HD_PORTS_BLOCK_VAR hd_haws_shadow_stack_block
#include "hd_ports_table.h"

#define BITS(w) ((w) >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << (w)) - 1u))
#define PC_MASK BITS(HAWS_SHADOW_STACK_PCW)
#define M_MASK BITS(HAWS_SHADOW_STACK_MW)

void hd_haws_shadow_stack_ref_reset(struct hd_haws_shadow_stack_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_haws_shadow_stack_block, HD_DIR_OUT, &s->q);
}

/* hd_func_warp_normalize on the shadow entries: pop reconverged or empty tops. */
static void normalize(struct hd_haws_shadow_stack_state *s)
{
    while (s->cnt > 0) {
        const struct hd_haws_shadow_entry *t = &s->e[s->cnt - 1];
        if (t->mask != 0 && t->pc != t->rpc)
            break;
        s->cnt--;
    }
}

/* x_bra (model/func/exec_ctrl.c) on the top; false (nothing changed) on overflow. */
static bool branch(struct hd_haws_shadow_stack_state *s, uint64_t guard, uint64_t target,
                   uint64_t rpc)
{
    struct hd_haws_shadow_entry top = s->e[s->cnt - 1];
    const uint64_t npc = (top.pc + 1u) & PC_MASK;
    const uint64_t taken = top.mask & guard, fall = top.mask & ~guard & M_MASK;
    if (!fall) {
        s->e[s->cnt - 1].pc = target;
        return true;
    }
    if (!taken) {
        s->e[s->cnt - 1].pc = npc;
        return true;
    }
    struct hd_haws_shadow_entry e[HD_HAWS_SHADOW_DEPTH + 2];
    memcpy(e, s->e, sizeof s->e);
    uint32_t n = s->cnt;
    if (top.rpc == rpc)
        n--;
    else
        e[n - 1].pc = rpc;
    if (npc != rpc)
        e[n++] = (struct hd_haws_shadow_entry){npc, rpc, fall};
    if (target != rpc)
        e[n++] = (struct hd_haws_shadow_entry){target, rpc, taken};
    if (n > HD_HAWS_SHADOW_DEPTH)
        return false;
    memcpy(s->e, e, sizeof s->e);
    s->cnt = n;
    return true;
}

void hd_haws_shadow_stack_ref_step(struct hd_haws_shadow_stack_state *s,
                                   const struct hd_haws_shadow_stack_in *in,
                                   struct hd_haws_shadow_stack_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (in->clear_i & 1u) {
        s->cnt = 0;
        s->ovf = false;
    }
    if (in->copy_v_i & 1u) {
        s->e[0].pc = in->copy_pc_i & PC_MASK;
        s->e[0].rpc = in->copy_rpc_i & PC_MASK;
        s->e[0].mask = in->copy_mask_i & M_MASK;
        s->cnt = 1;
        s->ovf = false;
    }
    normalize(s);
    const uint64_t n = in->adv_n_i & BITS(HAWS_SHADOW_STACK_AdvW);
    for (uint64_t i = 0; i < n && s->cnt > 0; i++) {
        s->e[s->cnt - 1].pc = (s->e[s->cnt - 1].pc + 1u) & PC_MASK;
        normalize(s);
    }
    if ((in->br_v_i & 1u) && s->cnt > 0) {
        if (branch(s, in->br_taken_i & M_MASK, in->br_target_i & PC_MASK,
                   in->br_reconv_i & PC_MASK))
            normalize(s);
        else
            s->ovf = true;
    }
    s->q.depth_o = s->cnt;
    s->q.ovf_o = s->ovf;
    if (s->cnt > 0) {
        const struct hd_haws_shadow_entry *t = &s->e[s->cnt - 1];
        s->q.top_v_o = 1;
        s->q.top_pc_o = t->pc;
        s->q.top_rpc_o = t->rpc;
        s->q.top_mask_o = t->mask;
    }
    if (!(in->rd_v_i & 1u))
        return;
    s->q.rd_v_o = 1;
    const uint64_t r = in->rd_idx_i & BITS(HAWS_SHADOW_STACK_DW);
    if (r < s->cnt) {
        s->q.rd_hit_o = 1;
        s->q.rd_pc_o = s->e[r].pc;
        s->q.rd_rpc_o = s->e[r].rpc;
        s->q.rd_mask_o = s->e[r].mask;
    }
}

bool hd_haws_shadow_stack_ref_idle(const struct hd_haws_shadow_stack_state *s,
                                   const struct hd_haws_shadow_stack_in *in)
{
    return !((in->clear_i | in->copy_v_i | in->br_v_i | in->rd_v_i) & 1u) && !in->adv_n_i &&
           !((s->q.rd_v_o | s->q.top_v_o | s->q.ovf_o) & 1u);
}
