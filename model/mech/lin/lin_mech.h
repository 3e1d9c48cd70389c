/* SPDX-License-Identifier: MIT
 * lin_mech.h - Lin ch.2, lightweight context switching and instruction-level preemption (Lin
 * thesis §2; digest §2-§3; docs/mechanisms.md): what this folder gives the core through its
 * registry entry (lin_mech.c). The context lifecycle the mechanism rests on (save and restore at
 * any instruction, live and compressed saves, selective preemption points, the save/restore
 * controller, the register pattern codec) is the shared substrate in model/ctx; this folder holds
 * Lin's policies over it: in-place switching (`[context] preempt_policy = inplace`) and the
 * allocation tables (`[sm] allocator = lin_tables`).
 */
#ifndef HD_LIN_MECH_H
#define HD_LIN_MECH_H

#include "mech.h"

/* Lin's allocation tables ("lin_tables", lin_alloc_tables.c). Returns 0, or -1 on allocation
 * failure or a memory larger than the tables' 12-bit units hold. */
int hd_sm_alloc_lin_tables(const struct hd_sm_params *p, struct hd_sm_alloc *out);
/* The `inplace` preemption policy (lin_inplace.c). */
int hd_lin_inplace_create(const struct hd_mech_env *env, struct hd_preempt_policy *out,
                          char *err, size_t errlen);

#endif
