/* SPDX-License-Identifier: MIT
 * ccbp_irc.c - CCBP's issue-rate controllers (Lin ch.4 §4.5.1, digest §2.16, §3.14): one per
 * SM at the L1D miss queue, as the miss queue's admission policy (missq_policy.h).
 *
 * Design: per SM and per application a counter of the L1D-miss requests sent to the NoC in the
 * current time unit of [ccbp] window core cycles (windows aligned to multiples of it: the count
 * restarts when `now / window` changes) and a quota ([ccbp] quota, or Algorithm 1's: requests
 * per SM per window, 0 = unlimited). select() scans the queue oldest first and takes the first
 * request whose application is under its quota; with [ccbp] ls_first a latency-sensitive
 * application's request goes before older requests of the others (the per-kernel selection of
 * §2.14's miss-queue example: LS +100 %, BI -25 %). Requests of another traffic class (context
 * save/restore) and of a launch not yet seen are not gated. Nothing eligible: -1, the queue
 * waits (the memory system counts a held cycle). With no quota and ls_first off it always
 * returns 0: FIFO, the baseline's cycles.
 */
#include "ccbp.h"

static void roll(struct ccbp *c, unsigned sm, uint64_t now)
{
    const uint64_t w = now / c->cfg.window;
    if (w == c->win[sm])
        return;
    for (unsigned a = 0; a < CCBP_APPS; a++) {
        uint32_t *n = &c->cnt[sm * CCBP_APPS + a];
        if (c->quota[a] && *n >= c->quota[a])
            c->st[a].windows_at_quota++;
        *n = 0;
    }
    c->win[sm] = w;
}

static int irc_select(void *impl, unsigned sm, const struct hd_mq_view *q, unsigned n,
                      uint64_t now)
{
    struct ccbp *c = impl;
    roll(c, sm, now);
    int first = -1;
    for (unsigned i = 0; i < n; i++) {
        const unsigned a = q[i].cls == HD_MCLASS_DEMAND ? ccbp_app(c, q[i].kernel) : CCBP_NO_APP;
        if (a != CCBP_NO_APP && c->quota[a] && c->cnt[sm * CCBP_APPS + a] >= c->quota[a]) {
            if (i == 0)
                c->st[a].held++;
            continue;
        }
        if (!c->cfg.ls_first || (a != CCBP_NO_APP && c->type[a] == CCBP_LS))
            return (int)i;
        if (first < 0)
            first = (int)i;
    }
    return first;
}

static void irc_issued(void *impl, unsigned sm, const struct hd_mq_view *q, uint64_t now)
{
    struct ccbp *c = impl;
    roll(c, sm, now);
    const unsigned a = q->cls == HD_MCLASS_DEMAND ? ccbp_app(c, q->kernel) : CCBP_NO_APP;
    if (a == CCBP_NO_APP)
        return;
    uint32_t *cnt = &c->cnt[sm * CCBP_APPS + a];
    ++*cnt;
    c->st[a].sent++;
    if (*cnt > c->st[a].max_window)
        c->st[a].max_window = *cnt;
}

/* destroy NULL: the hook owns the state (mech.h) */
const struct hd_mq_policy_ops ccbp_irc_ops = {"ccbp_irc", irc_select, irc_issued, NULL};
