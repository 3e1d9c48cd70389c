/* SPDX-License-Identifier: MIT
 * sm_alloc_victims.h - the baseline victim rule of plan_victims (sm_alloc.h), shared by the
 * allocators that use it: the partitioned allocator (sm_alloc.c) for the whole set, Lin's
 * tables (lin_alloc_tables.c, thesis §2.3.1) to complete the set their spill queries start and
 * to make it minimal.
 *
 * The rule: candidates are the resident CTAs of other launches with a lower priority than the
 * demand's, not already victims; taken in order of priority (lowest first), then most recently
 * placed first (least work lost), until the demand fits; then every victim (those given and
 * those taken) that is not needed is given back, latest first, so no victim can be left out.
 * The allocator supplies the CTAs' keys and a fit test over its own state; mark() counts a CTA
 * as gone (true) or back (false) in that state.
 */
#ifndef HD_SM_ALLOC_VICTIMS_H
#define HD_SM_ALLOC_VICTIMS_H

#include "sm_alloc.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_victim_key {
    uint32_t launch;
    int32_t priority;
    uint64_t seq; /* placement order */
};

struct hd_victim_ops {
    void *ctx;
    /* false: CTA slot c holds no CTA. */
    bool (*key)(const void *ctx, uint32_t c, struct hd_victim_key *k);
    void (*mark)(void *ctx, uint32_t c, bool gone);
    bool (*fits)(const void *ctx, const struct hd_cta_demand *d);
};

/* victims[0..n) are already marked gone. Takes further candidates until d fits, then prunes.
 * cand: scratch of nctas entries. Returns the number of victims in victims[] (those left marked
 * gone), or -1 if no set fits (the CTAs this call marked are marked back; victims[0..n) stay
 * gone). */
int hd_alloc_victims_complete(uint32_t nctas, const struct hd_cta_demand *d,
                              const struct hd_victim_ops *o, uint32_t *cand, uint32_t *victims,
                              uint32_t n);

#endif
