/* SPDX-License-Identifier: MIT
 * zorua_maploop.h - Zorua's mapping tables in the GPU timing loop (issue 32 item 5;
 * docs/blocks/zorua.md "In the loop"): per SM three zorua_map blocks, the register mapping table
 * (the block in its built configuration, "zorua_map"), the scratchpad mapping table
 * ("zorua_map:smt") and the thread-slot mapping table ("zorua_map:tmt", the block in its smt and
 * tmt configurations, configs/rtl/zorua_map.ini [block] loop_configs), each its C reference, or
 * its RTL in lockstep under `heddle cosim --blocks zorua --in-loop`, made through the GPU's block
 * factory (hw_inst.h), stepped on the model clock beside the model's table, every output checked.
 *
 * Design. The model's three tables are the same block's C reference (zorua_mt.h, zorua_slots.h:
 * one copy of the logic, so the model's placements, the lowest free unit, are the block's); each
 * of their updates (allocate, release, swap out, swap in) is journalled with the outputs it gave,
 * and, in a cycle in which no update waits, one register-operand translation through the RMT's
 * lookup port. The model changes its tables as its events happen (a CTA's arrival allocates all
 * its warps' sets at once); each block takes one journal entry per cycle, in order, at the end of
 * each cycle, so it lags the model by the updates still queued and then runs in step. Every
 * output of every step must equal what the model's table gave for that entry (all zero after a
 * cycle without one): otherwise the run stops with a located error (cycle, SM, block, instance,
 * port, the two values, the entry). Under the co-simulation the factory's instance also compares
 * its C reference with the RTL port by port, and with --drive rtl the outputs checked here are
 * the RTL's. While entries wait the SM's cycles are not skipped (busy). Each table must have its
 * configuration's sizes (RMT [default]: 64 logical warps x 16 sets over 256 register sets; SMT
 * [smt]: 16 logical CTAs x 48 sets over 48 KB; TMT [tmt]: 64 logical warps over 48 warp slots):
 * another size is refused with a message. [zorua] loop_fault N corrupts the expectation of the
 * run's Nth RMT block step (a test of the check). Deterministic. No globals.
 */
#ifndef HD_ZORUA_MAPLOOP_H
#define HD_ZORUA_MAPLOOP_H

#include "hw_inst.h"
#include "zorua_mt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zml;

/* A loop for nsm SMs over the factory *hw (read at zml_make; may point at NULL: C references);
 * fault: [zorua] loop_fault. NULL on host out of memory. */
struct zml *zml_create(uint32_t nsm, const struct hd_hw_factory *const *hw, uint64_t fault);
void zml_destroy(struct zml *L);
/* SM sm's RMT, SMT and TMT join the loop (their journals are turned on). Returns 0, or -1 with a
 * message (a table does not have its block's built sizes, host memory). */
int zml_add_sm(struct zml *L, uint32_t sm, struct zmt *rmt, struct zmt *smt, struct zmt *tmt,
               char *err, size_t errlen);
/* Make the instances (before the first cycle, so waveforms declare them). 0 or -1 + message. */
int zml_make(struct zml *L, char *err, size_t errlen);
/* The end of cycle `now`: step each SM's block with its next journal entry and check its outputs.
 * Returns 0, or -1 with a located message. *busy: entries wait. */
int zml_cycle(struct zml *L, uint64_t now, bool *busy, char *err, size_t errlen);

#endif
