/* SPDX-License-Identifier: MIT
 * cta_admit.h - the admission veto of the CTA scheduler: may SM s take a CTA of launch L now?
 *
 * Design (style rule C9): the CTA scheduler asks, for every SM and every launch it tries, first
 * the SM (resources through its allocator, kernel-mixing rules: hd_sm_can_accept) and then this
 * policy. A veto only removes the SM from the candidates of that launch in this round; nothing
 * else changes, so "allow all" (the default, and the only policy configured today) leaves the
 * baseline's cycles exactly as they were. Mechanisms that must keep a launch's CTAs off an SM
 * install their own ops: draining an SM for a preemption (stop placing the victim's CTAs there;
 * Shieh's and Lin's drain primitive), per-(SM, kernel) CTA quotas (CCBP's CTA combinations,
 * Chimera's SM partitioning), "only an empty SM" (Chimera's SM-granular variant). A policy gets
 * the time as an argument and keeps its state in impl (rule C7).
 */
#ifndef HD_CTA_ADMIT_H
#define HD_CTA_ADMIT_H

#include <stdbool.h>
#include <stdint.h>

/* What the policy knows about the SM and the launch it is asked about. */
struct hd_admit_query {
    uint32_t sm;
    uint32_t launch;      /* launch id */
    int32_t priority;     /* the launch's priority (from its CTA demand) */
    uint32_t resident;    /* CTAs resident on the SM (every launch; in placed(): with it) */
    uint64_t cta;         /* linear index of the CTA the scheduler would place */
};

struct hd_cta_admit_ops {
    const char *name;
    /* true: SM q->sm may take the CTA (resources permitting). */
    bool (*admit)(void *impl, const struct hd_admit_query *q, uint64_t now);
    /* A CTA of q->launch was placed on q->sm (may be NULL). */
    void (*placed)(void *impl, const struct hd_admit_query *q, uint64_t now);
    void (*destroy)(void *impl); /* may be NULL */
};

struct hd_cta_admit {
    const struct hd_cta_admit_ops *ops;
    void *impl;
};

/* The default: every SM admits every launch. */
extern const struct hd_cta_admit_ops hd_cta_admit_all;

#endif
