/* SPDX-License-Identifier: MIT
 * shieh_victim_sets.h - bit-exact, cycle-exact C reference of the Candidate Victim Sets table
 * with its update logic (Shieh thesis §3.3.1, §3.4.3, Fig 3.8/3.9; RTL
 * rtl/shieh_victim_sets/shieh_victim_sets.sv), one per SM.
 *
 * What it holds: one row per predetermined position of the preempting kernel (CandMax rows),
 * each a bitset over the SM's running-TB slots (MaxTb bits): bit j set means the running TB in
 * slot j occupies part of the position's register or shared-memory range, so it must leave
 * before a preempting TB can be placed there. Rows are written by the block scheduler when a
 * request arrives (the generator is model/mech/shieh/shieh_cands.h); when TBs leave (a preempted
 * candidate, or a TB that finished) the "Signal" of Fig 3.9 clears their bits from every row in
 * one cycle; a row whose position took a preempting TB is invalidated. A valid, empty row is a
 * position that is free now.
 *
 * Storage: CandMax x MaxTb bits + CandMax valid bits (Kepler sizing: 16 x 16 + 16 = 34 B;
 * Table 3.1 costs the same contents as 4-bit TB-ID lists, 128 B).
 * Timing: every output is registered; a read's result appears one cycle after rd_v_i and shows
 * the table after that cycle's updates (order in the ports.def); every output is 0 in a cycle
 * without a read result. Interface: rtl/shieh_victim_sets/shieh_victim_sets_ports.def.
 */
#ifndef HD_SHIEH_VICTIM_SETS_H
#define HD_SHIEH_VICTIM_SETS_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "shieh_victim_sets_ports.def"
#define HD_PORTS_DIR IN
struct hd_shieh_victim_sets_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_shieh_victim_sets_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(SHIEH_VICTIM_SETS_MaxTb >= 1 && SHIEH_VICTIM_SETS_MaxTb <= 64,
               "shieh_victim_sets: MaxTb must be 1..64");
_Static_assert(SHIEH_VICTIM_SETS_CandMax >= 1 && SHIEH_VICTIM_SETS_CandMax <= 64 &&
                   SHIEH_VICTIM_SETS_CandMax <= (1u << SHIEH_VICTIM_SETS_CandW),
               "shieh_victim_sets: CandMax must be 1..64 and fit CandW bits");
#endif

#define HD_SHIEH_VS_ROWS SHIEH_VICTIM_SETS_CandMax
#define HD_SHIEH_VS_TBS SHIEH_VICTIM_SETS_MaxTb

extern const struct hd_block_desc hd_shieh_victim_sets_block;

struct hd_shieh_victim_sets_state {
    uint64_t row[HD_SHIEH_VS_ROWS]; /* bitsets, bit j = running-TB slot j */
    uint64_t valid;                 /* bit k: row k valid */
    struct hd_shieh_victim_sets_out q;
    uint64_t cycle;
};

void hd_shieh_victim_sets_ref_reset(struct hd_shieh_victim_sets_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_shieh_victim_sets_ref_step(struct hd_shieh_victim_sets_state *s,
                                   const struct hd_shieh_victim_sets_in *in,
                                   struct hd_shieh_victim_sets_out *out);
/* Idle (hw_inst.h): no request on any input and no read result in the output register. */
bool hd_shieh_victim_sets_ref_idle(const struct hd_shieh_victim_sets_state *s,
                                   const struct hd_shieh_victim_sets_in *in);

#endif
