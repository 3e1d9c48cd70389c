/* SPDX-License-Identifier: MIT
 * drain_profile.h - the Oracle baseline's profile (Shieh thesis §4.2/§5.3, digest §5.3, §7 item
 * 10: "Oracle = perfect latency knowledge from a profiling pass"): per CTA of every launch of a
 * profiling run, its true warp instructions and its true cycles from first placement to its end,
 * so that `[context] preempt_policy = oracle` (preempt_shieh.c with HD_DRAIN_EST_ORACLE,
 * preempt_costs.c) knows each TB's remaining drain time as
 *     (true instructions of that CTA - instructions executed so far) x its true CPI,
 * where the thesis's policy predicts both from the running and finished TBs.
 *
 * Producing one: `heddle run WORKLOAD --profile-out FILE` (the workload alone, not preempted)
 * writes every finished CTA (hd_drain_profile_write); `[context] oracle_profile = FILE` loads it
 * (hd_drain_profile_load). Launch ids and CTA indices must match the run that uses it: the
 * victim's launches in `heddle run --mix V+preempter --arrive preempter@T:1` carry the ids they
 * have alone as long as the preempter arrives after V's launches began (its id then follows
 * every V launch created so far; see docs/context.md "Oracle profile").
 *
 * Text format, one record per line, '#' starts a comment:
 *     heddle-drain-profile 1
 *     LAUNCH KERNEL CTA WARP_INSTRS CYCLES
 * A CTA not listed (never finished in the profiling run) is unknown to the Oracle, which then
 * falls back to its launch's mean (the per-launch arrays); a launch not listed at all falls back
 * to the thesis's estimator.
 */
#ifndef HD_DRAIN_PROFILE_H
#define HD_DRAIN_PROFILE_H

#include "preempt_costs.h"
#include "timing_stats.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HD_DP_KERNEL_MAX 256 /* bytes of a kernel name in a profile, with its NUL */

/* A profile with its own storage (the view `p` points into `mem`). */
struct hd_drain_profile_owned {
    struct hd_drain_profile p;
    void *mem;
    char (*kernel)[HD_DP_KERNEL_MAX]; /* [nkernel] the kernel each launch names ("": none) */
    uint32_t nkernel;
};

/* The kernel the profile names for launch `id`; NULL when the launch is not in it. The records
 * of one launch must name one kernel (a located error otherwise), and a run that uses the
 * profile refuses a launch of another kernel under that id (gpu_launch.c). */
const char *hd_drain_profile_kernel(const struct hd_drain_profile_owned *o, uint32_t id);

/* Load FILE; 0, or -1 with "FILE:LINE: why" (or "FILE: why") in err. */
int hd_drain_profile_load(const char *path, struct hd_drain_profile_owned *out, char *err,
                          size_t errlen);

/* Deep copy of src (which may be NULL or empty: out is then empty); 0 or -1 (out of memory). */
int hd_drain_profile_copy(const struct hd_drain_profile *src, struct hd_drain_profile_owned *out);

void hd_drain_profile_free(struct hd_drain_profile_owned *o);

/* The `oracle` policy: `shieh` with the profile of [context] oracle_profile (an error naming the
 * file and line when it is missing or bad). */
int hd_preempt_oracle_create(const struct hd_gpu_timing_params *p, struct hd_preempt_policy *out,
                             char *err, size_t errlen);

/* Write the finished CTAs of every launch of s in the format above; 0, or -1 if a launch's
 * per-CTA records could not be kept (host out of memory) or the write failed. */
int hd_drain_profile_write(const struct hd_timing_stats *s, FILE *f);

#endif
