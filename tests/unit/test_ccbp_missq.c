/* SPDX-License-Identifier: MIT
 * test_ccbp_missq.c - Lin ch.4 §2.14's miss-queue example (digest §2.14 item 2, §6.4) on the
 * issue-rate controller's C reference (tables/ccbp_irc.c, the model's IRC): an L1D miss queue
 * holds 2 requests of an LS kernel and 6 of a BI kernel, and the NoC takes 5 per period. FIFO
 * serves LS 1 and BI 4; with the LS bit the IRC serves LS 2 and BI 3: the LS kernel's
 * throughput +100 %, the BI kernel's -25 %. The queue's order (LS at positions 1 and 5) is the
 * one that gives the thesis's FIFO counts.
 */
#include "ccbp_irc.h"
#include "testutil.h"

#include <stdbool.h>
#include <string.h>

enum { LS = 0, BI = 1, NQ = 8, PER_PERIOD = 5 };

/* One edge with `in`; the registered outputs come with the next step. */
static void edge(struct hd_ccbp_irc_state *s, const struct hd_ccbp_irc_in *in,
                 struct hd_ccbp_irc_out *out)
{
    hd_ccbp_irc_ref_step(s, in, out);
}

/* Serve one period from the queue q[0..*n) (applications, oldest first); served[a] counts. */
static void period(struct hd_ccbp_irc_state *s, unsigned *q, unsigned *n, unsigned served[2],
                   struct hd_test_state *t)
{
    for (unsigned k = 0; k < PER_PERIOD && *n; k++) {
        struct hd_ccbp_irc_in in;
        struct hd_ccbp_irc_out out;
        memset(&in, 0, sizeof in);
        in.sel_v_i = 1;
        for (unsigned i = 0; i < *n; i++)
            if (!((in.head_v_i >> q[i]) & 1u)) {
                in.head_v_i |= 1u << q[i];
                in.head_idx_i = hd_ccbp_irc_field_set(in.head_idx_i, q[i], CCBP_IRC_IW, i);
            }
        edge(s, &in, &out);
        memset(&in, 0, sizeof in);
        edge(s, &in, &out); /* the registered decision */
        HD_CHECK(t, out.sel_v_o && (out.sel_hit_o & 1u));
        const unsigned idx = (unsigned)out.sel_idx_o, app = (unsigned)out.sel_app_o;
        HD_CHECK(t, idx < *n && q[idx] == app);
        if (idx >= *n)
            return;
        served[app]++;
        memmove(&q[idx], &q[idx + 1], (*n - idx - 1) * sizeof *q);
        (*n)--;
        memset(&in, 0, sizeof in);
        in.iss_v_i = 1;
        in.iss_app_i = app;
        edge(s, &in, &out);
    }
}

static void run(bool ls_bit, unsigned served[2], struct hd_test_state *t)
{
    struct hd_ccbp_irc_state s;
    struct hd_ccbp_irc_in in;
    struct hd_ccbp_irc_out out;
    hd_ccbp_irc_ref_reset(&s);
    memset(&in, 0, sizeof in);
    in.cfg_v_i = 1;
    in.cfg_app_i = LS;
    in.cfg_quota_i = 0; /* no quota: only the order differs */
    in.cfg_ls_i = ls_bit;
    edge(&s, &in, &out);
    unsigned q[NQ] = {BI, LS, BI, BI, BI, LS, BI, BI};
    unsigned n = NQ;
    served[LS] = served[BI] = 0;
    period(&s, q, &n, served, t);
}

int main(void)
{
    struct hd_test_state t = {0};
    unsigned fifo[2], lsf[2];
    hd_test_begin(&t, "missq_example_fifo");
    run(false, fifo, &t);
    HD_CHECK(&t, fifo[LS] == 1 && fifo[BI] == 4);
    hd_test_begin(&t, "missq_example_ls_first");
    run(true, lsf, &t);
    HD_CHECK(&t, lsf[LS] == 2 && lsf[BI] == 3);
    /* the thesis's figures: LS throughput +100 %, BI -25 % */
    HD_CHECK(&t, 100 * (lsf[LS] - fifo[LS]) / fifo[LS] == 100);
    HD_CHECK(&t, 100 * ((int)lsf[BI] - (int)fifo[BI]) / (int)fifo[BI] == -25);
    return hd_test_finish(&t);
}
