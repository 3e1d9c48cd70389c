/* SPDX-License-Identifier: MIT
 * missq_policy.c - the default miss-queue admission policy (see missq_policy.h).
 */
#include "missq_policy.h"

#include <stddef.h>

static int fifo_select(void *impl, unsigned sm, const struct hd_mq_view *q, unsigned n,
                       uint64_t now)
{
    (void)impl;
    (void)sm;
    (void)q;
    (void)now;
    return n ? 0 : -1;
}

const struct hd_mq_policy_ops hd_mq_policy_fifo = {"fifo", fifo_select, NULL, NULL};
