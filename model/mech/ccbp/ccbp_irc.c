/* SPDX-License-Identifier: MIT
 * ccbp_irc.c - CCBP's issue-rate controllers (Lin ch.4 §4.5.1, digest §2.16, §3.14): one per
 * SM at the L1D miss queue, as the miss queue's admission policy (missq_policy.h).
 *
 * Design: each SM's IRC is the block's C reference (tables/ccbp_irc.c, one struct
 * hd_ccbp_irc_state per SM): per application a counter of the L1D-miss requests sent to the NoC
 * in the current time unit of [ccbp] window core cycles, a quota ([ccbp] quota, or Algorithm
 * 1's: requests per SM per window, 0 = unlimited) and an LS bit ([ccbp] ls_first and the
 * application's type). Windows are aligned to multiples of the window: the tick comes when
 * `now / window` changes. The IRC is clocked at the miss queue's events (ccbp_loop.h "IRC"):
 *   select    the edges of what happened since the last one (one per quota write, the last
 *             carrying the tick), the select edge with each class's oldest queue position
 *             (the applications, and class A: requests of another traffic class or of a launch
 *             not yet seen, never held), then a read-out edge whose output is the decision: the
 *             oldest LS application's request under quota, else the oldest request under quota
 *             (§2.14's miss-queue example: LS +100 %, BI -25 %); none: -1, the queue waits (the
 *             memory system counts a held cycle);
 *   issued    one edge counting the request for its application.
 * With [ccbp] blocks the SM's block instance takes the same edges and the decision is the
 * instance's (ccbp_loop_irc). Only the queue's first 2^IW = 128 entries are seen (Table 4.1's
 * transaction queue; the ring may hold a few more). With no quota and ls_first off it always
 * grants position 0: FIFO, the baseline's cycles.
 */
#include "ccbp.h"
#include "ccbp_loop.h"

#include <string.h>

#define QMAX ((1u << CCBP_IRC_QW) - 1u)
#define NPOS (1u << CCBP_IRC_IW)

static void edge(struct ccbp *c, unsigned sm, const struct hd_ccbp_irc_in *in,
                 struct hd_ccbp_irc_out *out, uint64_t now)
{
    hd_ccbp_irc_ref_step(&c->irc[sm], in, out);
    if (c->loop)
        ccbp_loop_irc(c->loop, sm, in, out, now);
    for (unsigned a = 0; a < CCBP_APPS; a++)
        c->st[a].windows_at_quota += (out->atq_o >> a) & 1u;
}

/* The quota writes and the window tick since the SM's last edge. */
static void catch_up(struct ccbp *c, unsigned sm, uint64_t now)
{
    const uint64_t w = now / c->cfg.window;
    const bool tick = w != c->win[sm];
    unsigned pend = c->cfg_pend[sm];
    if (!tick && !pend)
        return;
    c->win[sm] = w;
    c->cfg_pend[sm] = 0;
    struct hd_ccbp_irc_in in;
    struct hd_ccbp_irc_out out;
    do {
        memset(&in, 0, sizeof in);
        if (pend) {
            const unsigned a = (unsigned)__builtin_ctz(pend);
            pend &= pend - 1u;
            in.cfg_v_i = 1;
            in.cfg_app_i = a;
            in.cfg_quota_i = c->quota[a] < QMAX ? c->quota[a] : QMAX;
            in.cfg_ls_i = c->cfg.ls_first && c->type[a] == CCBP_LS;
        }
        in.tick_i = !pend && tick;
        edge(c, sm, &in, &out, now);
    } while (pend);
}

/* The class of a queued request: its application, or CCBP_IRC_A (never held). */
static unsigned cls_of(const struct ccbp *c, const struct hd_mq_view *v)
{
    const unsigned a = v->cls == HD_MCLASS_DEMAND ? ccbp_app(c, v->kernel) : CCBP_NO_APP;
    return a == CCBP_NO_APP ? CCBP_IRC_A : a;
}

static int irc_select(void *impl, unsigned sm, const struct hd_mq_view *q, unsigned n,
                      uint64_t now)
{
    struct ccbp *c = impl;
    catch_up(c, sm, now);
    struct hd_ccbp_irc_in in;
    memset(&in, 0, sizeof in);
    in.sel_v_i = 1;
    for (unsigned i = 0; i < n && i < NPOS; i++) {
        const unsigned k = cls_of(c, &q[i]);
        if (!((in.head_v_i >> k) & 1u)) {
            in.head_v_i |= 1u << k;
            in.head_idx_i = hd_ccbp_irc_field_set(in.head_idx_i, k, CCBP_IRC_IW, i);
        }
    }
    if (n) { /* the statistics: the oldest request waits over its application's quota */
        const unsigned k = cls_of(c, &q[0]);
        const struct hd_ccbp_irc_state *s = &c->irc[sm];
        if (k < CCBP_IRC_A && s->quota[k] && s->cnt[k] >= s->quota[k])
            c->st[k].held++;
    }
    struct hd_ccbp_irc_out out;
    edge(c, sm, &in, &out, now);
    memset(&in, 0, sizeof in);
    edge(c, sm, &in, &out, now); /* the read-out: the registered decision */
    return (out.sel_hit_o & 1u) ? (int)out.sel_idx_o : -1;
}

static void irc_issued(void *impl, unsigned sm, const struct hd_mq_view *q, uint64_t now)
{
    struct ccbp *c = impl;
    catch_up(c, sm, now);
    const unsigned a = cls_of(c, q);
    if (a == CCBP_IRC_A)
        return;
    struct hd_ccbp_irc_in in;
    struct hd_ccbp_irc_out out;
    memset(&in, 0, sizeof in);
    in.iss_v_i = 1;
    in.iss_app_i = a;
    edge(c, sm, &in, &out, now);
    const uint32_t cnt = c->irc[sm].cnt[a];
    c->st[a].sent++;
    c->per_req[a]++; /* (Algorithm 1's re-run: requests since the last one) */
    if (cnt > c->st[a].max_window)
        c->st[a].max_window = cnt;
}

/* destroy NULL: the hook owns the state (mech.h) */
const struct hd_mq_policy_ops ccbp_irc_ops = {"ccbp_irc", irc_select, irc_issued, NULL};
