/* SPDX-License-Identifier: MIT
 * zorua_coordloop.h - Zorua's coordinator block (zorua_coord) in the GPU timing loop for what it
 * can decide today: the o_thresh controller (issue 32 item 5; Zorua Sec. 3.5, Algorithm 1,
 * Table 1, L255-L286; docs/blocks/zorua.md "In the loop", docs/zorua.md "The controller").
 *
 * Design. Per SM one zorua_coord block, its C reference or, under `heddle cosim --blocks zorua
 * --in-loop`, its RTL (--drive rtl: the RTL's outputs), stepped by the SM's allocator in each of
 * its per-cycle ticks while the SM runs a kernel (and at the tick after, for the registered
 * output) with the cycle's active_i, idle_i and mem_i (Table 1's c_idle and c_mem as one bit per
 * cycle each); no block arrives and no warp event is fed, so its queues stay empty and it decides
 * o_thresh only. The allocator takes the new percentage from the block's ep_pct_o when ep_v_o
 * rises, and every output is checked against the model's controller (zorua_othresh.h: the same
 * counting and the block's own Algorithm 1 function) and the model's thresholds: ep_rth_o,
 * ep_sth_o, ep_tth_o = pct x the GPU's register sets, scratchpad sets and warp slots / 100, every
 * other output 0. A mismatch stops the run with a located message. The block's configurations
 * (configs/rtl/zorua_coord.ini, Table 1's values: epoch 2048, 10 %, step 4 %, clamp 30 %,
 * hysteresis 16) are Fermi's ([default]: 64 logical warps, 16 logical CTAs, 256 register sets,
 * 48 scratchpad sets, 48 warp slots) and, since session 15, Kepler's and Maxwell's ([kepler],
 * [maxwell]: 96 logical warps over 64 slots, 512 register sets, 48 or 64 scratchpad sets; the
 * instance kinds "zorua_coord:kepler" and ":maxwell"): an SM of one of these sizes steps the
 * kind of its size; other keys are refused. Deterministic. No globals.
 */
#ifndef HD_ZORUA_COORDLOOP_H
#define HD_ZORUA_COORDLOOP_H

#include "hw_inst.h"
#include "zorua_coord.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zcl;

/* A loop for nsm SMs over the factory *hw (read at zcl_make; may point at NULL: C references).
 * NULL on host out of memory. */
struct zcl *zcl_create(uint32_t nsm, const struct hd_hw_factory *const *hw);
void zcl_destroy(struct zcl *L);
/* The block's configuration for an SM of these sizes (logical warps and CTAs, physical register
 * sets, scratchpad sets and warp slots; register sets a warp may ask, scratchpad sets a CTA may
 * ask; the deadlock floor in warps): the instance kind ("zorua_coord", "zorua_coord:kepler",
 * "zorua_coord:maxwell") and, with cfg, its parameters; NULL when none is built for them. */
const char *zcl_kind(uint32_t warps, uint32_t ctas, uint32_t reg_units, uint32_t smem_units,
                     uint32_t slots, uint32_t reg_sets, uint32_t smem_sets, uint32_t floor,
                     struct hd_zorua_coord_cfg *cfg);
/* Is one built for an SM of these physical sizes (register sets, scratchpad sets, warp slots)? */
bool zcl_fits(uint32_t reg_units, uint32_t smem_units, uint32_t slots);
/* Are the controller's keys (whole percent, cycles) the block's? */
bool zcl_keys(double o_default, double step, double max, uint32_t delta, uint32_t epoch);
/* SM sm's coordinator joins the loop as instance kind `kind` (zcl_kind's): the controller's keys
 * must be the block's. Returns 0, or -1 with a message naming the keys. */
int zcl_add_sm(struct zcl *L, uint32_t sm, const char *kind, double o_default, double step,
               double max, uint32_t delta, uint32_t epoch, char *err, size_t errlen);
/* Make the instances (before the first cycle). 0, or -1 with a message. */
int zcl_make(struct zcl *L, char *err, size_t errlen);
/* One cycle of SM sm's block with *in: *got its outputs during the cycle, each checked against
 * *want, the model's coordinator's (the block's C reference stepped with the same inputs). An SM
 * not in the loop: *got = *want. 0, or -1 with a located message. */
int zcl_step(struct zcl *L, uint32_t sm, uint64_t now, const struct hd_zorua_coord_in *in,
             const struct hd_zorua_coord_out *want, struct hd_zorua_coord_out *got, char *err,
             size_t errlen);

#endif
