/* SPDX-License-Identifier: MIT
 * expars_mech.h - what EXPARS's registry entry (expars_mech.c) is made of: the resource
 * allocator ([sm] allocator = expars, expars_sm.h) and the operand-location policy
 * (expars_oloc.c) that mech.h's oloc installs on every SM whose allocator is EXPARS's.
 */
#ifndef HD_EXPARS_MECH_H
#define HD_EXPARS_MECH_H

#include "expars_sm.h"
#include "mech.h"

/* The policy of SM `sm` over its EXPARS allocator (*ops NULL: the allocator is not EXPARS's). */
int hd_expars_oloc_create(const struct hd_sm_params *p, uint32_t sm,
                          const struct hd_sm_alloc *alloc, const struct hd_oloc_ops **ops,
                          void **impl, char *err, size_t errlen);

#endif
