/* SPDX-License-Identifier: MIT
 * locality_loop.h - Gong's two locality blocks in the GPU timing loop (thesis ch.6 §6.3.1-6.3.2;
 * digest ../shared/reference/papers/gong-thesis-haws-locality.md §3.7; docs/blocks/locality.md
 * "In the loop"): one block distributor (locality_cta_dist) for the GPU and one group table
 * with its selection (locality_group_sched) per warp scheduler, made through the GPU's block
 * factory (hw_inst.h: the C references, or the RTL in lockstep under `heddle cosim --blocks
 * locality --in-loop`), stepped in lockstep with the policies they implement
 * (model/policy/cta_dist_locality.c, sm_sched_locality.c), every decision compared.
 *
 * Design.
 *   clock   Both blocks register their decision (latency 1); the policies decide within the
 *           model cycle. The loop clocks a block at the decision: the edges that take what
 *           happened since its last decision (group table writes, clears and the issue, one of
 *           each per edge, in the order they happened), the edge that samples the request (the
 *           ready warps / the CTA with the SMs that have room), and one read-out edge whose
 *           output is the registered decision. So a block runs faster than the core clock (2 to
 *           4 edges per decision, all stamped with the model cycle), and its decision is the one
 *           the model uses in the same cycle: with --drive rtl the RTL's. The alternative, the
 *           SM issuing from the grant registered a cycle earlier, would change the policies'
 *           cycles; docs/blocks/locality.md "In the loop".
 *   check   Each decision must equal the policy's: the granted warp slot is the first of the
 *           policy's order, the picked SM the policy's pick. Otherwise the run stops with a
 *           located error (cycle, SM, scheduler, block, signal, both values, the request).
 *   groups  The policy orders groups by 64-bit keys (launch, hd_locality_group); the table holds
 *           GW-bit ids. The loop's id allocator gives a new group an id between the ids of its
 *           neighbours in key order on a ring of 2^GW (the table's selection is cyclic: the
 *           active group, then ascending ids wrapping), and keeps the active group's id while no
 *           warp of it is resident (the policy keeps its key). Before the first selection the
 *           ids also ascend without wrapping (both pick the smallest then). No free id between
 *           the neighbours is a located error (more distinct groups than the ids can order).
 *   picks   A pick the policy defers (-1: the chunk's SM took a CTA this cycle) is not a
 *           request: the one-CTA-per-cycle distributor sees the CTA in the cycle the policy
 *           places it. ok_i = room && not yet given a CTA this cycle. cta_dist_order = column
 *           is not built (an attach error). cta_dist_order = keep: the request carries the
 *           launch's CTA count and whether it is a fresh CTA, and the block's pick_cta_o must
 *           equal the CTA the policy's cta() chose (the check makes the block's CTA the one
 *           used under --drive rtl); the block holds one launch's ranges, so a fresh CTA of
 *           another launch while one still has CTAs left is a located error.
 * Deterministic; nothing depends on host state.
 */
#ifndef HD_LOCALITY_LOOP_H
#define HD_LOCALITY_LOOP_H

#include "cta_dist.h"
#include "hw_inst.h"
#include "sm_sched.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_locality_loop;

/* The blocks for a GPU of params p: the group tables when [sm] scheduler = locality, the
 * distributor when [timing] cta_dist = locality. hw points at the GPU's factory (may point at
 * NULL: the C references); instances are made by hd_locality_loop_make. Returns NULL with a
 * message when the configuration does not fit the built blocks. */
struct hd_locality_loop *hd_locality_loop_create(const struct hd_gpu_timing_params *p,
                                                 const struct hd_hw_factory *const *hw,
                                                 char *err, size_t errlen);
void hd_locality_loop_destroy(struct hd_locality_loop *L);
/* Make the instances (once). Returns 0 or -1 with a message. */
int hd_locality_loop_make(struct hd_locality_loop *L, char *err, size_t errlen);

/* {==== Events (mech.h issue 31) ==== */
void hd_locality_loop_warp(struct hd_locality_loop *L, uint32_t sm, uint32_t slot, uint8_t ev,
                           const struct hd_warp_view *v);
int hd_locality_loop_order(struct hd_locality_loop *L, uint32_t sm, uint32_t sched,
                           const uint32_t *w, unsigned n, uint32_t *order, unsigned k,
                           uint64_t now, char *err, size_t errlen);
void hd_locality_loop_dist_reset(struct hd_locality_loop *L);
int hd_locality_loop_pick(struct hd_locality_loop *L, const struct hd_cta_dist_req *r,
                          const bool *ok, const bool *busy, uint32_t n, int *pick, uint64_t now,
                          char *err, size_t errlen);
/* }==== */

#endif
