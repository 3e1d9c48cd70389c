/* SPDX-License-Identifier: MIT
 * shieh_alloc_pos.h - bit-exact, cycle-exact C reference of the Preempting Kernel Allocation
 * Positions table (Shieh thesis §3.2, §3.4.2, Fig 3.7; RTL rtl/shieh_alloc_pos/shieh_alloc_pos.sv).
 *
 * What it holds: the predetermined positions at which TBs of the preempting kernel may be
 * placed (allocation alignment, §2.2): position p starts at register p*r_p and at shared-memory
 * byte p*s_p, r_p and s_p being the kernel's per-TB footprint, so the register range and the
 * shared-memory range of one position have the same index (a column of Fig 3.7). The table is
 * filled when a request arrives, by an accumulator (base += r_p, base += s_p), one entry per
 * cycle; positions continue while both ranges fit the SM's capacities (a resource the kernel
 * does not use does not limit them) and the table has room: K = min(floor(RF/r_p),
 * floor(SMEM/s_p), PosMax). Start addresses are stored (AddrW bits: Fig 3.7's end value 65536
 * needs 17 bits, a start never does).
 *
 * Storage: PosMax x 2 AddrW bits (Kepler sizing: 64 x 32 bits = 256 B, Table 3.1's 128 + 128 B).
 * Timing: every output is registered; K positions take K + 2 cycles from init_v_i to done_o;
 * a read's result follows one cycle after rd_v_i (the table after that cycle's fill step);
 * every output is 0 in a cycle without a result. Interface:
 * rtl/shieh_alloc_pos/shieh_alloc_pos_ports.def.
 */
#ifndef HD_SHIEH_ALLOC_POS_H
#define HD_SHIEH_ALLOC_POS_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "shieh_alloc_pos_ports.def"
#define HD_PORTS_DIR IN
struct hd_shieh_alloc_pos_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_shieh_alloc_pos_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(SHIEH_ALLOC_POS_PosMax >= 1 && SHIEH_ALLOC_POS_PosMax <= (1u << SHIEH_ALLOC_POS_PosW),
               "shieh_alloc_pos: PosMax must fit PosW bits");
_Static_assert(SHIEH_ALLOC_POS_AddrW >= 4 && SHIEH_ALLOC_POS_AddrW <= 30, "shieh_alloc_pos: AddrW 4..30");
#endif

#define HD_SHIEH_POS_MAX SHIEH_ALLOC_POS_PosMax

extern const struct hd_block_desc hd_shieh_alloc_pos_block;

struct hd_shieh_alloc_pos_state {
    uint32_t reg[HD_SHIEH_POS_MAX], smem[HD_SHIEH_POS_MAX]; /* start addresses, AddrW bits */
    uint32_t k;                     /* positions written */
    bool busy;                      /* filling */
    uint32_t r, sm, rf_cap, smem_cap; /* latched footprint and capacities (AddrW + 1 bits) */
    uint32_t reg_acc, smem_acc;     /* next start addresses (AddrW + 2 bits) */
    struct hd_shieh_alloc_pos_out q;
    uint64_t cycle;
};

void hd_shieh_alloc_pos_ref_reset(struct hd_shieh_alloc_pos_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_shieh_alloc_pos_ref_step(struct hd_shieh_alloc_pos_state *s,
                                 const struct hd_shieh_alloc_pos_in *in,
                                 struct hd_shieh_alloc_pos_out *out);
/* Idle (hw_inst.h): not filling, no request on any input, nothing in the output registers. */
bool hd_shieh_alloc_pos_ref_idle(const struct hd_shieh_alloc_pos_state *s,
                                 const struct hd_shieh_alloc_pos_in *in);

#endif
