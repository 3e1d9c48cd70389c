/* SPDX-License-Identifier: MIT
 * cta_admit_quota.c - the configured quota admission policies ([timing] admit = launch_quota,
 * kernel_quota; cta_admit.h, docs/admission.md): an SM takes a CTA of a launch only while it
 * holds fewer than [timing] admit_quota CTAs of that launch, or of that launch's kernel over all
 * its launches. The simplest form of the per-(SM, kernel) CTA quotas CCBP's CTA combinations
 * (Lin ch.4) and Chimera's SM partitioning impose; the quota is the policy's impl (a pointer
 * to the GPU's parameter, which outlives it).
 */
#include "cta_admit.h"

#include <stddef.h>

static bool launch_admit(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    (void)now;
    return q->launch_resident < *(const uint32_t *)impl;
}

static bool kernel_admit(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    (void)now;
    return q->kernel_resident < *(const uint32_t *)impl;
}

const struct hd_cta_admit_ops hd_cta_admit_launch_quota = {.name = "launch_quota",
                                                           .admit = launch_admit};
const struct hd_cta_admit_ops hd_cta_admit_kernel_quota = {.name = "kernel_quota",
                                                           .admit = kernel_admit};
