/* SPDX-License-Identifier: MIT
 * ctx_ctl.c - the preemption controller's C reference (ctx_ctl.h): the transition table and the
 * output decode of the RTL, state by state.
 */
#include "ctx_ctl.h"

#include <string.h>

#define HD_PORTS_DEF "ctx_ctl_ports.def"
#define HD_PORTS_IN_T struct hd_ctx_ctl_in
#define HD_PORTS_OUT_T struct hd_ctx_ctl_out
#define HD_PORTS_BLOCK_VAR hd_ctx_ctl_block
#include "hd_ports_table.h"

const char *hd_ctx_ctl_state_name(unsigned st)
{
    static const char *const n[] = {"IDLE",       "DRAIN",     "SAVE_REGS", "SAVE_SMEM",
                                    "SAVE_SIMT",  "UPDATE_CCB", "READ_CCB", "READ_CTX",
                                    "RESTORE_REGS", "DONE"};
    return st <= HD_CTXCTL_DONE ? n[st] : "?";
}

void hd_ctx_ctl_outputs(unsigned st, struct hd_ctx_ctl_out *out)
{
    memset(out, 0, sizeof *out);
    out->state_o = st;
    switch (st) {
    case HD_CTXCTL_SAVE_REGS: out->part_o = HD_CTXCTL_PART_REGS; break;
    case HD_CTXCTL_SAVE_SMEM: out->part_o = HD_CTXCTL_PART_SMEM; break;
    case HD_CTXCTL_SAVE_SIMT: out->part_o = HD_CTXCTL_PART_STACK; break;
    case HD_CTXCTL_UPDATE_CCB: out->part_o = HD_CTXCTL_PART_CCB; break;
    case HD_CTXCTL_READ_CCB: out->part_o = HD_CTXCTL_PART_CCB; break;
    case HD_CTXCTL_READ_CTX: out->part_o = HD_CTXCTL_PART_ANY; break;
    default: break;
    }
    out->codec_o = st == HD_CTXCTL_SAVE_REGS || st == HD_CTXCTL_RESTORE_REGS;
    out->done_o = st == HD_CTXCTL_DONE;
}

/* The next state from st and the cycle's inputs. */
static unsigned hd_ctx_ctl_next(unsigned st, const struct hd_ctx_ctl_in *in)
{
    const unsigned next = (unsigned)(in->next_i & 7u);
    switch (st) {
    case HD_CTXCTL_IDLE:
        return (in->start_i & 1u) ? ((in->restore_i & 1u) ? HD_CTXCTL_READ_CCB : HD_CTXCTL_DRAIN)
                                  : st;
    case HD_CTXCTL_DRAIN:
        return (in->quiet_i & 1u) ? HD_CTXCTL_SAVE_REGS : st;
    case HD_CTXCTL_SAVE_REGS:
        return (in->regs_done_i & 1u) && next != HD_CTXCTL_PART_REGS ? HD_CTXCTL_SAVE_SMEM : st;
    case HD_CTXCTL_SAVE_SMEM:
        return next != HD_CTXCTL_PART_SMEM ? HD_CTXCTL_SAVE_SIMT : st;
    case HD_CTXCTL_SAVE_SIMT:
        return next != HD_CTXCTL_PART_STACK ? HD_CTXCTL_UPDATE_CCB : st;
    case HD_CTXCTL_UPDATE_CCB:
        return (in->all_sent_i & 1u) ? HD_CTXCTL_DONE : st;
    case HD_CTXCTL_READ_CCB:
        return next != HD_CTXCTL_PART_CCB ? HD_CTXCTL_READ_CTX : st;
    case HD_CTXCTL_READ_CTX:
        return (in->all_sent_i & 1u) && (in->data_i & 1u) ? HD_CTXCTL_RESTORE_REGS : st;
    case HD_CTXCTL_RESTORE_REGS:
        return (in->regs_done_i & 1u) ? HD_CTXCTL_DONE : st;
    default:
        return HD_CTXCTL_IDLE;
    }
}

void hd_ctx_ctl_ref_reset(struct hd_ctx_ctl_state *s)
{
    memset(s, 0, sizeof *s);
}

void hd_ctx_ctl_ref_step(struct hd_ctx_ctl_state *s, const struct hd_ctx_ctl_in *in_raw,
                         struct hd_ctx_ctl_out *out)
{
    struct hd_ctx_ctl_in in = *in_raw;
    hd_block_clamp(&hd_ctx_ctl_block, HD_DIR_IN, &in);
    hd_ctx_ctl_outputs(s->st, out);
    s->st = hd_ctx_ctl_next(s->st, &in);
    s->cycle++;
}

bool hd_ctx_ctl_ref_idle(const struct hd_ctx_ctl_state *s, const struct hd_ctx_ctl_in *in)
{
    return s->st == HD_CTXCTL_IDLE && !(in->start_i & 1u);
}
