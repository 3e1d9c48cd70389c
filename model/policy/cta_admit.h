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
 * Configured ([timing] admit, cta_admit_quota.c): all (the default), launch_quota and
 * kernel_quota (at most [timing] admit_quota CTAs of one launch, or of one kernel over its
 * launches, per SM; from the per-launch and per-kernel residency below). A mechanism's own
 * policy replaces the configured one (hd_gpu_timing_set_admit). docs/admission.md.
 */
#ifndef HD_CTA_ADMIT_H
#define HD_CTA_ADMIT_H

#include <stdbool.h>
#include <stdint.h>

struct hd_cta_demand; /* sm_alloc.h */

/* What the policy knows about the SM and the launch it is asked about. */
struct hd_admit_query {
    uint32_t sm;
    uint32_t launch;      /* launch id */
    int32_t priority;     /* the launch's priority (from its CTA demand) */
    uint32_t resident;    /* CTAs resident on the SM (every launch; in placed(): with it) */
    uint64_t cta;         /* linear index of the CTA the scheduler would place (left(): the
                             CTA that left; UINT64_MAX when a finished CTA is not named) */
    /* issue 25 item 7 */
    uint32_t launch_resident; /* CTAs of this launch on the SM (placed(), left(): after it) */
    uint32_t kernel;          /* the kernel's stable id (timing-kernel id: every launch of one
                                 kernel image shares it) */
    uint32_t kernel_resident; /* CTAs of launches of that kernel on the SM */
    uint32_t hint;            /* the launch's hint (heddle run --hint, the mix's hint key) */
    /* issue 29 (Warped-Slicer's online sampling, model/mech/ccbp/ccbp_ws.c): what the launch
     * asks per CTA and its grid, as the work distributor knows them (NULL / 0 in the default
     * policy's short query) */
    const struct hd_cta_demand *demand;
    uint64_t nctas;           /* the launch's CTAs */
};

struct hd_cta_admit_ops {
    const char *name;
    /* true: SM q->sm may take the CTA (resources permitting). */
    bool (*admit)(void *impl, const struct hd_admit_query *q, uint64_t now);
    /* A CTA of q->launch was placed on q->sm (may be NULL). */
    void (*placed)(void *impl, const struct hd_admit_query *q, uint64_t now);
    void (*destroy)(void *impl); /* may be NULL */
    /* A CTA of q->launch left q->sm: finished (retired), or its context left the SM (switched
     * out or flushed; it comes back through the scheduler). May be NULL. */
    void (*left)(void *impl, const struct hd_admit_query *q, bool finished, uint64_t now);
};

struct hd_cta_admit {
    const struct hd_cta_admit_ops *ops;
    void *impl;
};

/* The default: every SM admits every launch. */
extern const struct hd_cta_admit_ops hd_cta_admit_all;
/* [timing] admit = launch_quota / kernel_quota: at most `quota` CTAs of one launch (kernel) per
 * SM (cta_admit_quota.c). */
extern const struct hd_cta_admit_ops hd_cta_admit_launch_quota, hd_cta_admit_kernel_quota;

#endif
