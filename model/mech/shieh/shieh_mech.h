/* SPDX-License-Identifier: MIT
 * shieh_mech.h - Shieh's dual-kernel preemption with allocation alignment (Shieh thesis §2-§3;
 * digest shieh-dual-kernel-preemption.md; docs/blocks/shieh.md, docs/mechanisms.md) and its
 * baselines (Chimera, Chimera+, the Oracle): what this folder gives the core through its
 * registry entry (shieh_mech.c): the `aligned` allocator, the `shieh`, `oracle`, `chimera` and
 * `chimera_plus` preemption policies, and Shieh's four tables stepped in the loop
 * (shieh_loop.h) through the hooks of model/policy/mech.h.
 */
#ifndef HD_SHIEH_MECH_H
#define HD_SHIEH_MECH_H

#include "mech.h"

/* Shieh's policy (preempt_shieh.c; oracle: with the profiled drain latency of prof,
 * preempt_costs.h; prof may be NULL otherwise). */
struct hd_drain_profile;
int hd_preempt_shieh_create(const struct hd_gpu_timing_params *p, bool oracle,
                            const struct hd_drain_profile *prof, struct hd_preempt_policy *out,
                            char *err, size_t errlen);
/* Chimera's (preempt_chimera.c; plus: with Shieh's drain estimator). */
int hd_preempt_chimera_create(const struct hd_gpu_timing_params *p, bool plus,
                              struct hd_preempt_policy *out, char *err, size_t errlen);

#endif
