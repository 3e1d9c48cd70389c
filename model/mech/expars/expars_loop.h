/* SPDX-License-Identifier: MIT
 * expars_loop.h - EXPARS's blocks in the GPU timing loop (Yu et al. TACO 2018 §3.3.3-3.3.7;
 * digest ../shared/reference/papers/expars.md §2.4, §2.6, §3.2; docs/blocks/expars.md "In the
 * loop"): per SM a register allocation table (expars_rat) and an operand-cache tag array
 * (expars_oc_tags), made through the GPU's block factory (hw_inst.h: the C references, or the
 * RTL in lockstep under `heddle cosim --blocks expars --in-loop`), stepped at the model's own
 * events, every answer compared with the model's.
 *
 * Design.
 *   events  The resource allocator (expars_alloc.c) reports each plan (the RAT's scalars and
 *           SBR table), each CTA slot taken or freed (used, mix) and each warp slot given to a
 *           CTA (CTA slot, index in it): one RAT write per edge, in that order. The operand-
 *           location policy (expars_oloc.c) asks the RAT about every source and destination
 *           word (in the scratchpad?); the operand cache (expars_oc.c) hands over each of its
 *           operations (lookups, reads, writes, fills, pins, unpins, steals, drops) from the
 *           policy, the register prefetcher (expars_rp.c) and the allocator, in the order the
 *           model performs them.
 *   clock   Both blocks register their answer (latency 1). The loop clocks a block at the
 *           model's event: the edge that takes the request, then a read-out edge whose output
 *           is the registered answer, both stamped with the model cycle, so a block runs faster
 *           than the core clock (2 edges per lookup or operation; 1 per table write) and its
 *           answer is the one the model uses in the same cycle: with --drive rtl the RTL's (the
 *           RAT's RF-or-scratchpad judgement, the operand cache's hit, line, victim and
 *           version). The alternative, one operation per core cycle, would need the policy to
 *           wait a cycle per operand and change EXPARS's cycles.
 *   check   Each answer must equal the model's (tables/expars_rat.h, tables/expars_oc_tags.h on
 *           the model's state): the RAT's judgement, and in the scratchpad its eq. 13 address
 *           and CTA slot; every output of the tag array. Otherwise the run stops with a located
 *           error (cycle, SM, block, operation, signal, both values), written to the SM's fault
 *           message and returned by the hook's cycle. [expars] blocks_fault = N corrupts the
 *           model's side of the Nth comparison (test only).
 * Deterministic; nothing depends on host state.
 */
#ifndef HD_EXPARS_LOOP_H
#define HD_EXPARS_LOOP_H

#include "expars_arb.h"
#include "expars_calc.h"
#include "expars_oc_tags.h"
#include "expars_pref.h"
#include "hw_inst.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_expars_loop;
struct hd_expars_sm;

/* The blocks for a GPU of params p. hw points at the GPU's factory (may point at NULL: the C
 * references); instances are made by hd_expars_loop_make. Returns NULL with a message when the
 * configuration does not fit the built blocks (configs/rtl/expars_*.ini). */
struct hd_expars_loop *hd_expars_loop_create(const struct hd_gpu_timing_params *p,
                                             const struct hd_hw_factory *const *hw, char *err,
                                             size_t errlen);
void hd_expars_loop_destroy(struct hd_expars_loop *L);
/* Make the instances (once). Returns 0 or -1 with a message. */
int hd_expars_loop_make(struct hd_expars_loop *L, char *err, size_t errlen);
/* SM `sm`'s EXPARS state: its events go to this loop from now on (sets s->loop, s->oc.loop). */
void hd_expars_loop_bind(struct hd_expars_loop *L, uint32_t sm, struct hd_expars_sm *s);
/* The end of cycle `now`. Returns 0, or -1 with the located message of a failed comparison. */
int hd_expars_loop_cycle(struct hd_expars_loop *L, uint64_t now, char *err, size_t errlen);

/* {==== Events (the model) ==== */
/* The RAT's scalars and SBR table were written (a plan). */
void hd_expars_loop_plan(struct hd_expars_loop *L, const struct hd_expars_sm *s);
/* CTA slot `slot`'s used and mix bits changed. */
void hd_expars_loop_slot(struct hd_expars_loop *L, const struct hd_expars_sm *s, uint32_t slot);
/* Warp slot `warp` now belongs to a CTA (its CTA slot and index). */
void hd_expars_loop_warp(struct hd_expars_loop *L, const struct hd_expars_sm *s, uint32_t warp);
/* The RAT's judgement of (warp, reg) at cycle now: the model's is `model`; returns the block's. */
bool hd_expars_loop_rat(struct hd_expars_loop *L, const struct hd_expars_sm *s, uint32_t warp,
                        uint32_t reg, bool model, uint64_t now);
/* An operand-cache operation of SM sm; *r holds the model's answer and gets the block's. */
void hd_expars_loop_oc(struct hd_expars_loop *L, uint32_t sm, unsigned op, uint32_t warp,
                       uint32_t reg, uint32_t ver, bool dirty, struct hd_expars_oc_res *r);
/* A plan (an idle SM taking a CTA of a new shape, expars_alloc.c set_plan): the maximum-CTA
 * calculator is started with the model's operands *e and clocked to its answer, which must equal
 * the model's (rc and *pl from hd_expars_plan, and its latency). Returns the block's rc and puts
 * its answer in *pl (with --drive rtl the RTL's). */
int hd_expars_loop_calc(struct hd_expars_loop *L, const struct hd_expars_sm *s,
                        const struct hd_expars_in *e, int rc, struct hd_expars_plan *pl);
/* The bank arbitrator (expars_arb) of SM sm at cycle now: a route of a register word
 * (expars_oloc.c) or a decision over the scratchpad banks (the substrate's spad_arb,
 * sm_oloc_port.c). *req is the request (op_i and its operands; op_v_i and now_i are set here),
 * *ans the model's answer, which gets the block's. */
void hd_expars_loop_arb(struct hd_expars_loop *L, uint32_t sm,
                        const struct hd_expars_arb_in *req, struct hd_expars_arb_out *ans,
                        uint64_t now);
/* The register prefetcher (expars_pref) of SM s at cycle now (0: the loop's current cycle): a
 * request of the model's prefetcher (expars_rp.c) *r, the model's answer *a (the block's C
 * reference on the model's state), which gets the block's (expars_loop_pref.c). */
void hd_expars_loop_pref(struct hd_expars_loop *L, const struct hd_expars_sm *s,
                         const struct hd_expars_pref_req *r, struct hd_expars_pref_ans *a,
                         uint64_t now);
/* }==== */

/* {==== For the blocks stepped from their own files ==== */
/* SM sm's instance of the prefetcher, or NULL when the loop cannot step it (not made, failed).
 * A nonzero now advances the loop's cycle. */
struct hd_hw_inst *hd_expars_loop_pref_inst(struct hd_expars_loop *L, uint32_t sm, uint64_t now);
/* Step x one edge (tagged {sm, tag}); -1 stops the loop with the instance's error. */
int hd_expars_loop_step(struct hd_expars_loop *L, uint32_t sm, struct hd_hw_inst *x,
                        const void *in, void *out, uint64_t tag);
/* A failed comparison: the located message; the run stops at the end of the cycle. */
void hd_expars_loop_mismatch(struct hd_expars_loop *L, const char *msg);

/* For the blocks stepped by other files (expars_loop_pref.c, expars_loop_ltlws.c): */
/* Made, and no comparison has failed. */
bool hd_expars_loop_live(const struct hd_expars_loop *L);
/* The factory the blocks are made by (the C references' when the GPU gives none). */
const struct hd_hw_factory *hd_expars_loop_factory(const struct hd_expars_loop *L);
/* The model cycle the events belong to. */
uint64_t hd_expars_loop_now(const struct hd_expars_loop *L);
/* Count one comparison: is it the one [expars] blocks_fault corrupts? */
bool hd_expars_loop_faulted(struct hd_expars_loop *L);
/* Stop the run at the end of the cycle with this located message. */
void hd_expars_loop_fail(struct hd_expars_loop *L, const char *msg);
/* }==== */

#endif
