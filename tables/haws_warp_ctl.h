/* SPDX-License-Identifier: MIT
 * haws_warp_ctl.h - bit-exact, cycle-exact C reference of HAWS's warp controller of one warp:
 * mode, the stall point's hint window, the hint-mode fetch-PC generator and the return fetch
 * filter (Gong thesis ch. 5 §5.2.4-5.2.6, L1021-L1076; digest §2.6-2.7, §3.5; RTL
 * rtl/haws_warp_ctl/haws_warp_ctl.sv; docs/blocks/haws.md "Shadow stack and warp controller
 * blocks").
 *
 * It is model/timing/sm_ahead.c's per-warp runtime state and decisions, as hardware: mode
 * (normal / hint / return), parked, the stall PC, the walk step, the in-order step, the popped
 * branch that is due, the episode number, and the stall point's window (length, selected, renamed
 * and reachable bits) latched at the trigger. The RCU (haws_rcu) is outside: its count and head
 * are inputs, its pop and clear are outputs. The filter's decision (none / wait / skip / copy)
 * is sm_ahead.c's hd_sm_ahead_filter, line for line; the walk's skip/issue/park decisions are
 * the model's (inputs), and the controller records each issue's step, rename bit, load tag and
 * whether the window selects its PC. The fetch-PC generator gives the window's next selected,
 * reachable PC after the last issued one in walk order (the hint's offset from the stall point).
 * The window's bit i is PC first + i (trig_first_i): first = stall PC + 1, or with a back-edge
 * window ([haws] back_edges, docs/blocks/haws.md §3) the innermost loop's first PC, whose walk
 * takes the PCs after the stall point, then through the back edge the loop's PCs before it.
 *
 * Storage per warp (default configuration): mode 2 + parked 1 + branch due 1 + stall PC 32 +
 * two steps 2 x 8 + episode 16 + window length 7 + fetch scan 7 + window 3 x 64 + the stall
 * point's bit 7 + scan wrapped 1 = 282 bits.
 * Timing: one step per cycle; order within it as in the ports.def (reset, filter, in-order step,
 * trigger, walk); every output registered. Step it from a loop with one state per warp slot.
 */
#ifndef HD_HAWS_WARP_CTL_H
#define HD_HAWS_WARP_CTL_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "haws_warp_ctl_ports.def"
#define HD_PORTS_DIR IN
struct hd_haws_warp_ctl_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_haws_warp_ctl_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(HAWS_WARP_CTL_PCW >= 8 && HAWS_WARP_CTL_PCW <= 64, "haws_warp_ctl: PCW 8..64");
_Static_assert(HAWS_WARP_CTL_Win >= 1 && HAWS_WARP_CTL_Win <= 64 &&
                   HAWS_WARP_CTL_Win < (1u << HAWS_WARP_CTL_LW),
               "haws_warp_ctl: Win 1..64, below 2^LW");
_Static_assert(HAWS_WARP_CTL_SW >= 4 && HAWS_WARP_CTL_SW <= 32 && HAWS_WARP_CTL_NW >= 1 &&
                   HAWS_WARP_CTL_NW <= 8 && HAWS_WARP_CTL_GW >= 1 && HAWS_WARP_CTL_GW <= 24,
               "haws_warp_ctl: SW 4..32, NW 1..8, GW 1..24");
#endif

enum { HD_HAWS_IDLE = 0, HD_HAWS_HINT = 1, HD_HAWS_RETURN = 2 };
enum { HD_HAWS_FLT_NONE = 0, HD_HAWS_FLT_WAIT = 1, HD_HAWS_FLT_SKIP = 2, HD_HAWS_FLT_COPY = 3 };

extern const struct hd_block_desc hd_haws_warp_ctl_block;

struct hd_haws_warp_ctl_state {
    uint32_t mode;
    bool parked, bdue;
    uint64_t stall_pc, win_sel, win_ren, win_reach;
    uint32_t step, io_step, gen, len, scan;
    uint32_t off; /* the window's bit of PC stall_pc + 1: stall_pc + 1 - first (back edges) */
    bool wrap;    /* the fetch scan is in a back-edge window's loop PCs before the stall point */
    struct hd_haws_warp_ctl_out q;
    uint64_t cycle;
};

void hd_haws_warp_ctl_ref_reset(struct hd_haws_warp_ctl_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_haws_warp_ctl_ref_step(struct hd_haws_warp_ctl_state *s,
                               const struct hd_haws_warp_ctl_in *in,
                               struct hd_haws_warp_ctl_out *out);
/* Idle (hw_inst.h): normal mode, no request on any input and no pulse in the output
 * registers (in normal mode every state output reads 0). */
bool hd_haws_warp_ctl_ref_idle(const struct hd_haws_warp_ctl_state *s,
                               const struct hd_haws_warp_ctl_in *in);

#endif
