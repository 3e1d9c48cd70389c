/* SPDX-License-Identifier: MIT
 * alloc_table.h - bit-exact, cycle-exact C reference of Lin's allocation table (thesis §2.3.1,
 * Fig 2.4; digest lin-thesis-preemption-gpuduet-ccbp.md §2.2, §3.1; RTL
 * rtl/alloc_table/alloc_table.sv). One block serves both tables of in-place context switching:
 * the register-file table (units: vector registers, 32 x 32 bit) and the shared-memory table
 * (units: 128 B); the owner drives cap_i with its memory's size in units.
 *
 * What it holds: 16 entries {valid, start, size} (1 + 12 + 12 bits; the thesis gives 5 B per
 * entry and does not give the layout). Each resident TB holds one entry.
 * What it answers, one request per cycle:
 *   alloc  size_i: the lowest free entry takes the first-fit contiguous block of size_i units
 *          (the lowest start in [0, cap_i) where it overlaps no entry in use); ok_o = 0 and
 *          nothing changes if no entry is free or no block fits. A block of 0 units takes an
 *          entry at start 0 and overlaps nothing.
 *   free   entry_i: the entry leaves (ok_o = it was in use).
 *   spill  size_i, cand_i, drop_i: Lin's "minimum number of TBs to make enough space": the
 *          window [c, c + size_i) inside [0, cap_i), overlapping only entries of cand_i, that
 *          overlaps the fewest entries in use (entries of drop_i count as free); victims_o = the
 *          entries it overlaps. Windows are tried at c = 0 and at the end of every entry in use
 *          (not dropped), entry 0 first: a window that overlaps the fewest entries can always
 *          slide left to one of these starts without overlapping more, so the minimum over
 *          these 17 is the minimum over all windows. Ties: the lowest start, then the earliest
 *          tried. ok_o = 0 (victims 0) if no window fits. Nothing changes.
 * Why a window and not "any set": the blocks are contiguous, so making room for one block is
 * making one window free, and the TBs to spill are exactly those whose ranges overlap it. In
 * Fig 2.4 (1024 registers, three K1 TBs of 300 at 0, 300, 600; K2 wants 2 TBs of 200, i.e. 400
 * contiguous units) the minimum is ONE TB (the one at 600: [600, 1000) is then free); the
 * thesis's "2 TBs spilled" is what evicting from the lowest entry up gives (tests/unit/
 * test_alloc_table.c works both, docs/blocks/alloc_table.md).
 *
 * Timing: latency 1; the answer to a request presented in cycle t is on the outputs in cycle
 * t + 1 (registered; every output 0 when valid_o is 0), and a request in cycle t + 1 already
 * sees the entries the request of cycle t wrote. Interface: rtl/alloc_table/alloc_table_ports.def.
 */
#ifndef HD_ALLOC_TABLE_H
#define HD_ALLOC_TABLE_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_ALLOC_TABLE_ENTRIES 16
#define HD_ALLOC_TABLE_UNIT_MAX 4095u /* 12-bit start, size and capacity */
#define HD_ALLOC_TABLE_RF_UNIT 32u     /* 32-bit registers per register-file unit */
#define HD_ALLOC_TABLE_SMEM_UNIT 128u  /* bytes per shared-memory unit */

enum hd_alloc_table_op {
    HD_ATAB_NONE = 0,
    HD_ATAB_ALLOC = 1,
    HD_ATAB_FREE = 2,
    HD_ATAB_SPILL = 3
};

#define HD_PORTS_DEF "alloc_table_ports.def"
#define HD_PORTS_DIR IN
struct hd_alloc_table_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_alloc_table_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

extern const struct hd_block_desc hd_alloc_table_block;

struct hd_alloc_table_entry {
    bool valid;
    uint16_t start, size; /* units, 12 bits each */
};

struct hd_alloc_table_state {
    struct hd_alloc_table_entry e[HD_ALLOC_TABLE_ENTRIES];
    struct hd_alloc_table_out q; /* the output register */
    uint64_t cycle;
};

/* The answer to request `in` over the entries of s (what the output register takes). Pure. */
void hd_alloc_table_eval(const struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                         struct hd_alloc_table_out *out);
/* The entry write of request `in` whose answer is `out` (alloc: the entry taken; free: the
 * entry cleared; spill query, none: nothing). */
void hd_alloc_table_write(struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                          const struct hd_alloc_table_out *out);
/* eval + write, without a clock: a request as one transaction (the allocator that owns a table
 * keeps its copy of the entries with eval and write, the same code the block's step runs). */
void hd_alloc_table_exec(struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                         struct hd_alloc_table_out *out);

void hd_alloc_table_ref_reset(struct hd_alloc_table_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_alloc_table_ref_step(struct hd_alloc_table_state *s, const struct hd_alloc_table_in *in,
                             struct hd_alloc_table_out *out);
/* Idle (hw_inst.h): no request and nothing in the output register. */
bool hd_alloc_table_ref_idle(const struct hd_alloc_table_state *s,
                             const struct hd_alloc_table_in *in);

#endif
