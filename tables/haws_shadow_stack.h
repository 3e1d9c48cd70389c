/* SPDX-License-Identifier: MIT
 * haws_shadow_stack.h - bit-exact, cycle-exact C reference of HAWS's shadow SIMT stack, one per
 * warp (Gong thesis ch. 5 §5.2.4, L1031, L1109; digest §3.4; RTL
 * rtl/haws_shadow_stack/haws_shadow_stack.sv; docs/blocks/haws.md "Shadow stack and warp
 * controller blocks").
 *
 * What it holds: Depth entries of {PC, reconvergence PC, active mask} (the thesis: 8 x (32 + 32
 * + 64) = 1,024 b per wavefront; Kepler: 8 x 96 = 768 b per warp). Entry 0 is the real stack's
 * top copied when hint mode begins; the hint-mode walk advances the top past the instructions it
 * skips or runs ahead, and a branch run ahead pushes and pops exactly as the functional model's
 * bra on the real stack (model/func/exec_ctrl.c), followed by the model's pops of reconverged or
 * empty top entries (hd_func_warp_normalize). The model's walk (model/timing/sm_ahead.c) parks as
 * soon as its shadow top falls below the copied entry, so the entries below it are never read
 * and are not copied: entry i here is the model's shadow entry base + i. A branch needing more
 * than Depth entries is not applied and sets ovf (the model's push overflow ends the chain with
 * nothing recorded; the model's stack is 64 deep, so there the chain would go on: the agreement
 * test tests/haws/haws_blocks_agree.c counts such cases). The real stack is never written.
 *
 * Timing: one step per cycle; within it clear, copy, adv_n advances, one branch (ports.def);
 * every output is registered and shows the stack after the edge. Interface:
 * rtl/haws_shadow_stack/haws_shadow_stack_ports.def. Step it from a loop with one state per warp
 * slot (docs/blocks/haws.md lists the model events that drive each input).
 */
#ifndef HD_HAWS_SHADOW_STACK_H
#define HD_HAWS_SHADOW_STACK_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "haws_shadow_stack_ports.def"
#define HD_PORTS_DIR IN
struct hd_haws_shadow_stack_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_haws_shadow_stack_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(HAWS_SHADOW_STACK_Depth >= 2 &&
                   HAWS_SHADOW_STACK_Depth < (1u << HAWS_SHADOW_STACK_DW),
               "haws_shadow_stack: Depth must be >= 2 and below 2^DW");
_Static_assert(HAWS_SHADOW_STACK_PCW >= 8 && HAWS_SHADOW_STACK_PCW <= 64 &&
                   HAWS_SHADOW_STACK_MW >= 1 && HAWS_SHADOW_STACK_MW <= 64,
               "haws_shadow_stack: PCW 8..64, MW 1..64");
_Static_assert(HAWS_SHADOW_STACK_AdvW >= 1 && HAWS_SHADOW_STACK_AdvW < HAWS_SHADOW_STACK_PCW,
               "haws_shadow_stack: AdvW 1..PCW-1");
#endif

#define HD_HAWS_SHADOW_DEPTH HAWS_SHADOW_STACK_Depth

extern const struct hd_block_desc hd_haws_shadow_stack_block;

struct hd_haws_shadow_entry {
    uint64_t pc, rpc, mask; /* PCW, PCW, MW bits */
};

struct hd_haws_shadow_stack_state {
    struct hd_haws_shadow_entry e[HD_HAWS_SHADOW_DEPTH];
    uint32_t cnt;
    bool ovf;
    struct hd_haws_shadow_stack_out q;
    uint64_t cycle;
};

void hd_haws_shadow_stack_ref_reset(struct hd_haws_shadow_stack_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_haws_shadow_stack_ref_step(struct hd_haws_shadow_stack_state *s,
                                   const struct hd_haws_shadow_stack_in *in,
                                   struct hd_haws_shadow_stack_out *out);
/* Idle (hw_inst.h): an empty stack without overflow, no request on any input and no read
 * result in the output registers (every output then reads 0). */
bool hd_haws_shadow_stack_ref_idle(const struct hd_haws_shadow_stack_state *s,
                                   const struct hd_haws_shadow_stack_in *in);

#endif
