/* SPDX-License-Identifier: MIT
 * zorua_decloop.h - Zorua's phase-specifier decoder in the GPU timing loop (issue 32 item 5;
 * Zorua Sec. 3.6, L310-L319, event ii of L235; docs/blocks/zorua.md "In the loop"): per SM one
 * zorua_phase block (tables/zorua_phase.h), its C reference or, under `heddle cosim --blocks
 * zorua --in-loop`, its RTL, stepped on the model clock beside the model's decoder, every output
 * checked.
 *
 * Design. The model's decoder is the block's C reference (one per SM, held here): the model
 * hands it what the warp's decoder would see and takes the event it gives. A CTA's arrival sets
 * its warps' first phase (init_*: the specification's register and scratchpad sets), a phase
 * event of the model (a warp's located instruction in another phase, zorua_oloc.c) is a phase
 * specifier with the next phase's live registers (its register sets x reg_set) and scratchpad
 * bytes (sets x smem_set), and the model's coordinator takes the register and scratchpad sets of
 * the decoder's event (ev_rsets_o, ev_ssets_o), not its own; a warp's exit is an exit
 * instruction. Each input is journalled with the outputs the reference gave; the block takes one
 * entry per cycle at the end of each cycle, in order (it lags the model by the entries still
 * queued, then runs in step), and every output of every step must equal the model's (all zero
 * after a cycle without an entry), else the run stops with a located message (cycle, SM,
 * instance, port, both values, the entry). While entries wait the SM's cycles are not skipped.
 * The block's configurations (configs/rtl/zorua_phase.ini; 4 registers and 1 KB per set, 16
 * register sets) are Fermi's ([default]: 64 logical warps, 48 scratchpad sets) and, since session
 * 20, Kepler's and Maxwell's ([kepler], [maxwell]: 96 logical warps, 48 or 64 scratchpad sets, the
 * instance kinds "zorua_phase:kepler" and ":maxwell", the arrival's warp mask 96 bits): an SM
 * steps the first kind that holds its sizes, its model's decoder the C reference in that
 * configuration; another size is refused. Deterministic. No globals.
 */
#ifndef HD_ZORUA_DECLOOP_H
#define HD_ZORUA_DECLOOP_H

#include "hw_inst.h"
#include "zorua_phase.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zdl;

/* Words of an arrival's warp mask (bit w in word w / 32; up to 128 logical warps). */
#define ZDL_MWORDS HD_ZPH_MWORDS

/* A loop for nsm SMs over the factory *hw (read at zdl_make; may point at NULL: C references).
 * fault (tests only; 0: none): the model's expectation of the loop's Nth entry, counted over the
 * SMs as the blocks take them, is corrupted (ev_rsets_o ^ 1), which the check must catch.
 * NULL on host out of memory. */
struct zdl *zdl_create(uint32_t nsm, const struct hd_hw_factory *const *hw, uint64_t fault);
void zdl_destroy(struct zdl *L);
/* SM sm's decoder joins the loop: its logical warps, register sets per warp, scratchpad sets per
 * CTA, registers per thread in a set and bytes in a scratchpad set must fit the block. Returns 0,
 * or -1 with a message. */
int zdl_add_sm(struct zdl *L, uint32_t sm, uint32_t warps, uint32_t reg_sets, uint32_t smem_sets,
               uint32_t reg_set, uint32_t smem_set, char *err, size_t errlen);
/* The block's configuration for an SM of these sizes (logical warps, register sets a warp and
 * scratchpad sets a CTA may ask, registers per thread in a set, bytes in a scratchpad set): the
 * instance kind ("zorua_phase", "zorua_phase:kepler", "zorua_phase:maxwell": the first that holds
 * them) and, with cfg, its parameters; NULL when none is built for them. */
const char *zdl_kind(uint32_t warps, uint32_t reg_sets, uint32_t smem_sets, uint32_t reg_set,
                     uint32_t smem_set, struct hd_zorua_phase_cfg *cfg);
/* Does a kind fit an SM of these sizes (zdl_add_sm's test)? */
bool zdl_fits(uint32_t warps, uint32_t reg_sets, uint32_t smem_sets, uint32_t reg_set,
              uint32_t smem_set);
/* Make the instances (before the first cycle). 0, or -1 with a message. */
int zdl_make(struct zdl *L, char *err, size_t errlen);
/* The model's decoder of SM sm (an SM not in the loop: nothing, and zdl_phase returns false). */
/* A CTA arrived: its logical warps (mask, bit w in word w / 32) start with rsets register and
 * ssets scratchpad sets. */
void zdl_arrive(struct zdl *L, uint32_t sm, const uint32_t mask[ZDL_MWORDS], uint32_t rsets,
                uint32_t ssets);
/* Warp w meets a phase specifier of regs live registers and smem bytes: true with the event's
 * register and scratchpad sets in *rsets, *ssets (false: no event, e.g. past the tables). */
bool zdl_phase(struct zdl *L, uint32_t sm, uint32_t w, uint32_t regs, uint32_t smem,
               uint32_t *rsets, uint32_t *ssets);
/* Warp w exits. */
void zdl_exit(struct zdl *L, uint32_t sm, uint32_t w);
/* The end of cycle `now`: each SM's block takes its next entry; outputs checked. 0, or -1 with a
 * located message. *busy: entries wait. */
int zdl_cycle(struct zdl *L, uint64_t now, bool *busy, char *err, size_t errlen);

#endif
