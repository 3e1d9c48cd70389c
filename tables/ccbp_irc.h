/* SPDX-License-Identifier: MIT
 * ccbp_irc.h - bit-exact, cycle-exact C reference of CCBP's issue-rate controller of one SM (Lin
 * thesis §4.5.1, digest §2.16, §3.14; RTL rtl/ccbp_irc/ccbp_irc.sv).
 *
 * The IRC sits at the SM's L1D miss queue (the thesis's chosen placement: the warp scheduler
 * cannot see coalescing, the LSU would throttle L1 hits too). Per application (A = 4) it keeps
 * a counter of the requests sent to the NoC in the current 200-cycle window (CW = 8 bits,
 * saturating), a quota (QW = 8 bits, requests per SM per window from Algorithm 1; 0 unlimited)
 * and an LS bit: 4 x 17 = 68 bits of state per SM. The miss queue lets the IRC choose per
 * application (the digest's "scan out of order" alternative to split queues): a select presents
 * each class's oldest queue position (class A = requests never gated: another traffic class,
 * or a launch not yet placed), and the IRC names the class that goes: the oldest LS
 * application's request under quota, else the oldest request under quota (§2.14's miss-queue
 * example: LS +100 %, BI -25 %). The 200-cycle tick comes from one GPU-wide divider (tick_i).
 * This is model/mech/ccbp/ccbp_irc.c's policy with its oldest-first scan reduced to per-class
 * heads: the first eligible entry of a scan is the eligible class with the lowest head.
 *
 * Timing: every output is registered, one cycle after its request; 0 in a cycle without a
 * result. Within an edge: select (on the counters and quotas before it), configuration write,
 * the count of a request sent, the tick. Interface: rtl/ccbp_irc/ccbp_irc_ports.def. Use: reset
 * once, one step per cycle with a zeroed struct hd_ccbp_irc_in carrying the cycle's requests;
 * head_idx_i's fields are set with hd_ccbp_irc_field_set().
 */
#ifndef HD_CCBP_IRC_H
#define HD_CCBP_IRC_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "ccbp_irc_ports.def"
#define HD_PORTS_DIR IN
struct hd_ccbp_irc_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_ccbp_irc_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(CCBP_IRC_A >= 2 && CCBP_IRC_A <= 8 && (1u << CCBP_IRC_AW) == CCBP_IRC_A &&
                   (1u << CCBP_IRC_SW) > CCBP_IRC_A,
               "ccbp_irc: A a power of two in 2..8, A = 2^AW, SW wide enough");
_Static_assert((CCBP_IRC_A + 1) * CCBP_IRC_IW <= 64 && CCBP_IRC_A * CCBP_IRC_CW <= 64 &&
                   CCBP_IRC_QW <= 16 && CCBP_IRC_CW <= CCBP_IRC_QW,
               "ccbp_irc: packed ports fit 64 bits, a counter compares with a quota");
#endif

extern const struct hd_block_desc hd_ccbp_irc_block;

struct hd_ccbp_irc_state {
    uint32_t cnt[CCBP_IRC_A];   /* requests sent in the current window */
    uint32_t quota[CCBP_IRC_A]; /* requests per window, 0 unlimited */
    uint8_t ls[CCBP_IRC_A];     /* latency-sensitive */
    struct hd_ccbp_irc_out q;
    uint64_t cycle;
};

void hd_ccbp_irc_ref_reset(struct hd_ccbp_irc_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_ccbp_irc_ref_step(struct hd_ccbp_irc_state *s, const struct hd_ccbp_irc_in *in,
                          struct hd_ccbp_irc_out *out);
/* Idle (hw_inst.h): no request on any input and nothing in the output registers. */
bool hd_ccbp_irc_ref_idle(const struct hd_ccbp_irc_state *s, const struct hd_ccbp_irc_in *in);
/* Field c of a packed port value of `w` bits per field: get, and set (returns the new value). */
uint64_t hd_ccbp_irc_field(uint64_t v, unsigned c, unsigned w);
uint64_t hd_ccbp_irc_field_set(uint64_t v, unsigned c, unsigned w, uint64_t x);

#endif
