/* SPDX-License-Identifier: MIT
 * zorua_maploop.h - Zorua's register mapping table in the GPU timing loop (issue 32 item 5;
 * docs/blocks/zorua.md "In the loop"): per SM one zorua_map block (its C reference, or its RTL
 * in lockstep under `heddle cosim --blocks zorua --in-loop`, made through the GPU's block
 * factory, hw_inst.h) stepped on the model clock beside the model's RMT, every output checked.
 *
 * Design. The model's RMT is the same block's C reference (zorua_mt.h: one copy of the logic);
 * each of its updates (allocate, release, swap out, swap in) is journalled with the outputs it
 * gave, and, in a cycle in which no update waits, one register-operand translation through the
 * lookup port. The model changes its table as its events happen (a CTA's arrival allocates all
 * its warps' sets at once); the block takes one journal entry per cycle, in order, at the end of
 * each cycle, so it lags the model by the updates still queued and then runs in step. Every
 * output of every step must equal what the model's table gave for that entry (all zero after a
 * cycle without one): otherwise the run stops with a located error (cycle, SM, instance, port,
 * the two values, the entry). Under the co-simulation the factory's instance also compares its
 * C reference with the RTL port by port, and with --drive rtl the outputs checked here are the
 * RTL's. While entries wait the SM's cycles are not skipped (busy). The block's configuration
 * is the built one (configs/rtl/zorua_map.ini [default]: 64 logical warps x 16 sets over 256
 * register sets): another RMT size is refused with a message. [zorua] loop_fault N corrupts the
 * expectation of the run's Nth block step (a test of the check). Deterministic. No globals.
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
/* SM sm's RMT joins the loop (its journal is turned on). Returns 0, or -1 with a message (the
 * table does not have the block's built sizes, host memory). */
int zml_add_sm(struct zml *L, uint32_t sm, struct zmt *rmt, char *err, size_t errlen);
/* Make the instances (before the first cycle, so waveforms declare them). 0 or -1 + message. */
int zml_make(struct zml *L, char *err, size_t errlen);
/* The end of cycle `now`: step each SM's block with its next journal entry and check its outputs.
 * Returns 0, or -1 with a located message. *busy: entries wait. */
int zml_cycle(struct zml *L, uint64_t now, bool *busy, char *err, size_t errlen);

#endif
