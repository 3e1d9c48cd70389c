/* SPDX-License-Identifier: MIT
 * missq_policy.c - the miss-queue admission policies (see missq_policy.h): FIFO and reads-first.
 *
 * Design: reads_first sends the oldest request a warp waits for (a read: load, instruction or
 * constant fetch, line fill; or an atomic, which returns a value) before older writes, which the
 * SM has already retired (stores are fire-and-forget: a warp waits for them only at a fence or
 * when its CTA exits). It is the read-over-write priority of write buffers and DRAM schedulers,
 * applied at the L1's exit. So that writes are never starved, the oldest request goes first
 * whenever it has waited `age_limit` core cycles ([l1d] missq_age_limit). Stateless: decisions
 * depend only on the queue's order, types and waiting times.
 */
#include "missq_policy.h"

#include "mem_txn.h"

#include <stddef.h>
#include <stdlib.h>

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

/* {==== reads_first ==== */
struct rf_state {
    uint64_t age_limit;
};

static int rf_select(void *impl, unsigned sm, const struct hd_mq_view *q, unsigned n,
                     uint64_t now)
{
    const struct rf_state *s = impl;
    (void)sm;
    (void)now;
    if (n == 0)
        return -1;
    if (q[0].waited >= s->age_limit)
        return 0;
    for (unsigned i = 0; i < n; i++)
        if (q[i].type == HD_TXN_READ || q[i].type == HD_TXN_ATOMIC)
            return (int)i;
    return 0;
}

static void rf_destroy(void *impl)
{
    free(impl);
}

static const struct hd_mq_policy_ops rf_ops = {"reads_first", rf_select, NULL, rf_destroy};
/* }==== */

int hd_mq_policy_create(enum hd_cfg_missq kind, uint64_t age_limit,
                        const struct hd_mq_policy_ops **ops, void **impl)
{
    switch (kind) {
    case HD_MISSQ_READS_FIRST: {
        struct rf_state *s = calloc(1, sizeof *s);
        if (!s)
            return -1;
        s->age_limit = age_limit ? age_limit : 1;
        *ops = &rf_ops;
        *impl = s;
        return 0;
    }
    case HD_MISSQ_FIFO:
    default:
        *ops = &hd_mq_policy_fifo;
        *impl = NULL;
        return 0;
    }
}
