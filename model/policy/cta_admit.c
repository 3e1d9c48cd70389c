/* SPDX-License-Identifier: MIT
 * cta_admit.c - the default admission policy: allow all (see cta_admit.h).
 */
#include "cta_admit.h"

#include <stddef.h>

static bool all_admit(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    (void)impl;
    (void)q;
    (void)now;
    return true;
}

const struct hd_cta_admit_ops hd_cta_admit_all = {.name = "allow_all", .admit = all_admit};
