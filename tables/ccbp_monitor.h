/* SPDX-License-Identifier: MIT
 * ccbp_monitor.h - bit-exact, cycle-exact C reference of CCBP's per-application bandwidth
 * monitors (Lin thesis §4.5.1, §4.5.4; digest §2.16, §3.15; RTL rtl/ccbp_monitor/ccbp_monitor.sv),
 * one per GPU in the CCBP logic.
 *
 * The CCBP logic "monitors the bandwidth use" of each kernel (§2.16) to drive Algorithm 1 and
 * its run-time detection: per application (A = 4) and per measure, a window counter of MW = 20
 * bits (saturating): warp instructions issued, L1D-miss requests sent to the NoC, NoC flits
 * toward the L2, NoC flits back, DRAM data-bus cycles (the measures of model/monitor's
 * struct hd_mon_counts that model/mech/ccbp/ccbp_mech.c sums per application). Each cycle brings
 * one NW = 8-bit increment per application and measure (the sum over the SMs, crossbar ports or
 * channels: at most 64 instructions, 32 flits). At the window's end (tick) the live counters go
 * to a snapshot, which the firmware reads one counter per cycle while the next window counts:
 * 2 x 5 x 4 x 20 = 800 bits.
 *
 * Timing: every output is registered, one cycle after its request; 0 in a cycle without a
 * result. Within an edge: the increments, then the tick. Interface:
 * rtl/ccbp_monitor/ccbp_monitor_ports.def. Use: reset once, one step per cycle with a zeroed
 * struct hd_ccbp_monitor_in carrying the cycle's increments; fields set with
 * hd_ccbp_monitor_field_set().
 */
#ifndef HD_CCBP_MONITOR_H
#define HD_CCBP_MONITOR_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "ccbp_monitor_ports.def"
#define HD_PORTS_DIR IN
struct hd_ccbp_monitor_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_ccbp_monitor_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(CCBP_MONITOR_A >= 2 && CCBP_MONITOR_A <= 8 &&
                   (1u << CCBP_MONITOR_AW) == CCBP_MONITOR_A &&
                   CCBP_MONITOR_A * CCBP_MONITOR_NW <= 64 && CCBP_MONITOR_NW <= CCBP_MONITOR_MW &&
                   CCBP_MONITOR_MW <= 32,
               "ccbp_monitor: A = 2^AW in 2..8, packed increments fit 64 bits, NW <= MW <= 32");
#endif

enum { HD_CCBP_MON_ISS, HD_CCBP_MON_REQ, HD_CCBP_MON_FQ, HD_CCBP_MON_FR, HD_CCBP_MON_DRAM,
       HD_CCBP_MON_KINDS };

extern const struct hd_block_desc hd_ccbp_monitor_block;

struct hd_ccbp_monitor_state {
    uint32_t live[HD_CCBP_MON_KINDS][CCBP_MONITOR_A]; /* the current window */
    uint32_t snap[HD_CCBP_MON_KINDS][CCBP_MONITOR_A]; /* the last closed window */
    struct hd_ccbp_monitor_out q;
    uint64_t cycle;
};

void hd_ccbp_monitor_ref_reset(struct hd_ccbp_monitor_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_ccbp_monitor_ref_step(struct hd_ccbp_monitor_state *s,
                              const struct hd_ccbp_monitor_in *in,
                              struct hd_ccbp_monitor_out *out);
/* Idle (hw_inst.h): no increment, tick or read, and nothing in the output registers. */
bool hd_ccbp_monitor_ref_idle(const struct hd_ccbp_monitor_state *s,
                              const struct hd_ccbp_monitor_in *in);
/* Field a of a packed port value of `w` bits per field: get, and set (returns the new value). */
uint64_t hd_ccbp_monitor_field(uint64_t v, unsigned a, unsigned w);
uint64_t hd_ccbp_monitor_field_set(uint64_t v, unsigned a, unsigned w, uint64_t x);

#endif
