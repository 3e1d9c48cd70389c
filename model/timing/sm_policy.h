/* SPDX-License-Identifier: MIT
 * sm_policy.h - what the GPU top and the policies reach of an SM's policy state: the allocator's
 * timers, usage and victim plan (sm_alloc.h), the operand-location policy (sm_oloc.h), the
 * schedulers' policies and the warp views they read (sm_sched.h).
 *
 * Design: the SM owns its policies (struct hd_sm is opaque outside sm*.c); these functions are
 * the GPU's only way to them. The allocator's tick runs once per cycle in which the SM is awake;
 * its next_event bounds how long the GPU may let the SM sleep or skip idle cycles, so timers
 * fire in the cycle they are due whether or not the GPU skips (docs/timing.md, "Policy
 * interfaces"). With an allocator without timers (partitioned) both are a pointer test. A warp
 * view is computed only when a policy asks for it. Replacing a policy is allowed only while
 * nothing it governs is resident.
 */
#ifndef HD_SM_POLICY_H
#define HD_SM_POLICY_H

#include "preempt_policy.h"
#include "sm.h"
#include "sm_oloc.h"
#include "sm_sched.h"

#include <stdbool.h>
#include <stdint.h>

/* Does the SM's allocator have timers (tick/next_event)? */
bool hd_sm_alloc_timed(const struct hd_sm *sm);
/* Run the allocator's timers for cycle now; true if something changed (the CTA scheduler should
 * run). */
bool hd_sm_alloc_tick(struct hd_sm *sm, uint64_t now);
/* The first cycle > now at which the allocator's timers fire, or UINT64_MAX. */
uint64_t hd_sm_alloc_next_event(const struct hd_sm *sm, uint64_t now);
/* What the allocator holds now. */
void hd_sm_alloc_usage(const struct hd_sm *sm, struct hd_alloc_usage *u);
/* 0, or -1 with a located message when the allocator's blocks in the loop failed (sm_alloc.h
 * fault). */
int hd_sm_alloc_fault(const struct hd_sm *sm, char *err, size_t errlen);
/* The CTA slots whose CTAs, evicted, would let demand d fit (hd_alloc_ops.plan_victims):
 * count, 0 if it fits now, -1 if no allowed set does. slots needs room for max_ctas. */
int hd_sm_plan_victims(struct hd_sm *sm, const struct hd_cta_demand *d, uint32_t *slots);
/* Room for n CTAs of d in one plan, with the parts each victim gives (hd_alloc_ops.plan_room,
 * Lin Fig 2.4): count, 0 if they fit now, -1 if none does or the allocator cannot plan parts. */
int hd_sm_plan_room(struct hd_sm *sm, const struct hd_cta_demand *d, uint32_t n, uint32_t *slots,
                    uint8_t *parts);
/* Replace the SM's allocator by a (only while no CTA is resident: false otherwise); the old one
 * is returned in *old for the caller to destroy. */
bool hd_sm_alloc_replace(struct hd_sm *sm, const struct hd_sm_alloc *a, struct hd_sm_alloc *old);
/* Install an operand-location policy (NULL: the register file as it is). The caller keeps
 * ownership of impl. False if it asks for more than HD_OLOC_MAX_PORTS ports or CTAs are
 * resident. */
bool hd_sm_set_oloc(struct hd_sm *sm, const struct hd_oloc_ops *ops, void *impl);
/* The same, the SM owning impl (ops->destroy when the SM goes or another policy replaces it):
 * what a run-wide policy chosen by configuration uses (oloc_stress.h). */
bool hd_sm_own_oloc(struct hd_sm *sm, const struct hd_oloc_ops *ops, void *impl);
/* The SM's allocator (what a mechanism's sm_made hook is given, mech.h). */
const struct hd_sm_alloc *hd_sm_alloc_of(const struct hd_sm *sm);
/* Report the SM's TB placements, issues and exits to the mechanisms' hooks (mech.h; the GPU's,
 * which outlive the SM). */
struct hd_hooks;
void hd_sm_set_hooks(struct hd_sm *sm, const struct hd_hooks *hooks);
/* The read-only view of the warp in slot `slot` of SM `sm` (struct hd_sched_env's view). */
void hd_sm_warp_view(const void *sm, uint32_t slot, struct hd_warp_view *out);
/* Replace scheduler s's policy by *p (only while the SM has no resident warp: false otherwise);
 * the old one is returned in *old for the caller to destroy. */
bool hd_sm_sched_replace(struct hd_sm *sm, uint32_t s, const struct hd_sched *p,
                         struct hd_sched *old);
/* The resident CTAs as a preemption policy sees them (preempt_policy.h), in CTA-slot order;
 * out has room for max_ctas. Returns how many. */
uint32_t hd_sm_preempt_view(const struct hd_sm *sm, struct hd_preempt_cta *out);
/* CTAs resident on the SM now. */
uint32_t hd_sm_resident_ctas(const struct hd_sm *sm);
/* CTAs on the SM (placed, not yet vacated) of launch la, and of every launch of la's kernel (the
 * same timing kernel: one kernel image) (issue 25 item 7, cta_admit.h). */
void hd_sm_launch_residency(const struct hd_sm *sm, const struct hd_sm_launch *la,
                            uint32_t *launch_ctas, uint32_t *kernel_ctas);
/* Registers and threads held now by the SM's CTAs that are running (context RESIDENT: not
 * being suspended, saved or restored), of any kernel: the resources doing useful work (Shieh
 * Fig 4.4's utilisation during preemption, ctx_preempt.c). */
void hd_sm_working(const struct hd_sm *sm, uint64_t *regs, uint64_t *threads);

/* The SM's allocator (read-only: a mechanism's operand-location policy reads its own allocator's
 * state through it, mech.h's oloc). */
const struct hd_sm_alloc *hd_sm_alloc_of(const struct hd_sm *sm);

/* Warp scheduler s's policy (what a mechanism's sched_made hook is given, mech.h), or NULL when
 * the SM has no scheduler s. */
const struct hd_sched *hd_sm_sched_of(const struct hd_sm *sm, uint32_t s);

#endif
