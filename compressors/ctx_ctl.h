/* SPDX-License-Identifier: MIT
 * ctx_ctl.h - bit-exact, cycle-exact C reference of the SM's preemption controller (Lin thesis
 * §2.7, Fig 2.13; digest §3.3; RTL rtl/ctx_ctl/ctx_ctl.sv): the state machine that sequences
 * one TB's save (drain, registers through the compressor and packer, shared memory, SIMT
 * stack, CCB entry) or restore (CCB entry, the context's reads, registers through the unpacker
 * and decompressor) for the SM's context engine.
 *
 * Timing: a step returns the outputs of the cycle, decoded from the state register (Moore), then
 * takes the transition for the cycle's inputs. The engine presents its status at the start of a
 * cycle (the part of its next unsent request, drain, whether all is sent, registers done, data
 * returned) and acts on the outputs in the same cycle; a condition therefore shows in the
 * outputs one cycle later. Interface: rtl/ctx_ctl/ctx_ctl_ports.def.
 */
#ifndef HD_CTX_CTL_H
#define HD_CTX_CTL_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "ctx_ctl_ports.def"
#define HD_PORTS_DIR IN
struct hd_ctx_ctl_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_ctx_ctl_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_ctx_ctl_block;

enum hd_ctx_ctl_st {
    HD_CTXCTL_IDLE, HD_CTXCTL_DRAIN, HD_CTXCTL_SAVE_REGS, HD_CTXCTL_SAVE_SMEM,
    HD_CTXCTL_SAVE_SIMT, HD_CTXCTL_UPDATE_CCB, HD_CTXCTL_READ_CCB, HD_CTXCTL_READ_CTX,
    HD_CTXCTL_RESTORE_REGS, HD_CTXCTL_DONE
};

/* Parts of a context (next_i, part_o). */
enum hd_ctx_ctl_part {
    HD_CTXCTL_PART_NONE, HD_CTXCTL_PART_REGS, HD_CTXCTL_PART_SMEM, HD_CTXCTL_PART_STACK,
    HD_CTXCTL_PART_CCB, HD_CTXCTL_PART_ANY
};

struct hd_ctx_ctl_state {
    unsigned st;     /* enum hd_ctx_ctl_st */
    uint64_t cycle;
};

/* The outputs of state st. */
void hd_ctx_ctl_outputs(unsigned st, struct hd_ctx_ctl_out *out);
/* Human name of a state ("IDLE", "DRAIN", ...). */
const char *hd_ctx_ctl_state_name(unsigned st);

void hd_ctx_ctl_ref_reset(struct hd_ctx_ctl_state *s);
void hd_ctx_ctl_ref_step(struct hd_ctx_ctl_state *s, const struct hd_ctx_ctl_in *in,
                         struct hd_ctx_ctl_out *out);
/* Idle (hw_inst.h): in IDLE with no start: a step changes nothing and the outputs are 0. */
bool hd_ctx_ctl_ref_idle(const struct hd_ctx_ctl_state *s, const struct hd_ctx_ctl_in *in);

#endif
