/* SPDX-License-Identifier: MIT
 * haws_rcu.h - bit-exact, cycle-exact C reference of the HAWS result collection unit of one warp
 * (Gong thesis ch.5 §5.2.4, L1037-1063; digest §3.2; RTL rtl/haws_rcu/haws_rcu.sv).
 *
 * What it holds: DEPTH entries {offset OFFW, dst REGW, renamed REGW, ready, control, valid} in
 * program order (a circular FIFO: head, tail, count). An entry is allocated when a hint-mode
 * instruction issues, made ready at its write-back, and popped when in-order execution reaches
 * it (committed by a skip when renamed == dst, by a copy otherwise; a branch executes again).
 * Cleared when an episode is triggered or discarded.
 *
 * Storage: DEPTH x (OFFW + 2 REGW + 3) bits + pointers (the thesis's 8 x 28 = 224 bits per warp
 * with OFFW 9, REGW 8). Timing: the outputs are functions of the entries before the edge (Moore):
 * a step returns them, then the edge applies clear, or pop, write-back and allocation (refused
 * when full before the edge). Interface: rtl/haws_rcu/haws_rcu_ports.def.
 */
#ifndef HD_HAWS_RCU_H
#define HD_HAWS_RCU_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "haws_rcu_ports.def"
#define HD_PORTS_DIR IN
struct hd_haws_rcu_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_haws_rcu_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(HAWS_RCU_DEPTH >= 2 && HAWS_RCU_DEPTH <= 64 &&
                   (1u << HAWS_RCU_IW) == HAWS_RCU_DEPTH && (1u << HAWS_RCU_CW) > HAWS_RCU_DEPTH,
               "haws_rcu: DEPTH a power of two 2..64, IW = log2(DEPTH), CW bits hold DEPTH");
_Static_assert(HAWS_RCU_OFFW >= 1 && HAWS_RCU_OFFW <= 16 && HAWS_RCU_REGW >= 1 &&
                   HAWS_RCU_REGW <= 16,
               "haws_rcu: OFFW and REGW 1..16");
#endif

#define HD_HAWS_RCU_DEPTH HAWS_RCU_DEPTH

extern const struct hd_block_desc hd_haws_rcu_block;

struct hd_haws_rcu_state {
    uint32_t off[HD_HAWS_RCU_DEPTH], dst[HD_HAWS_RCU_DEPTH], ren[HD_HAWS_RCU_DEPTH];
    bool val[HD_HAWS_RCU_DEPTH], rdy[HD_HAWS_RCU_DEPTH], ctl[HD_HAWS_RCU_DEPTH];
    uint32_t head, tail, cnt;
    uint64_t cycle;
};

void hd_haws_rcu_ref_reset(struct hd_haws_rcu_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_haws_rcu_ref_step(struct hd_haws_rcu_state *s, const struct hd_haws_rcu_in *in,
                          struct hd_haws_rcu_out *out);
/* Idle (hw_inst.h): no clear, allocation, write-back or pop, and the unit is empty (all-zero
 * outputs). */
bool hd_haws_rcu_ref_idle(const struct hd_haws_rcu_state *s, const struct hd_haws_rcu_in *in);

#endif
