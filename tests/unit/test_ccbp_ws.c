/* SPDX-License-Identifier: MIT
 * test_ccbp_ws.c - Warped-Slicer's online form (a baseline of Lin ch.4, issue 29;
 * model/mech/ccbp/ccbp_ws.c, docs/blocks/ccbp.md "Session 30"): the choice of a CTA combination
 * on hand-made IPC-vs-CTA curves (water-filling and the smallest sum of slowdowns, worked out
 * by hand below), the fit rule, the curves made from sampled points, the sampled CTA limits.
 */
#include "ccbp.h"
#include "testutil.h"

#include <string.h>

static void curve(struct ccbp_ws_curve *c, unsigned nmax, const double *ipc, uint32_t threads)
{
    memset(c, 0, sizeof *c);
    c->nmax = nmax;
    for (unsigned n = 0; n <= nmax; n++)
        c->ipc[n] = ipc[n];
    c->threads = threads;
}

int main(void)
{
    struct hd_test_state t = {0};
    struct ccbp_ws_curve cv[2];
    unsigned n[2];
    double score;

    /* Two 512-thread kernels on a 2,048-thread SM (a + b <= 4). Kernel 0 saturates (top 2.4),
     * kernel 1 scales linearly (top 2.0). Sum of slowdowns: (1,1) 6.4, (1,2) 4.4, (1,3) 3.73,
     * (2,1) 5.33, (2,2) 2.4/1.8 + 2 = 3.33, (3,1) 5.09: (2,2). Water-filling: (0,0) ties to
     * kernel 0 -> (1,0); kernel 1 at 0 -> (1,1) (.25 < .417) -> (1,2) (.5 > .417) -> (2,2);
     * no third CTA fits either: (2,2), the lowest normalized IPC .5. */
    hd_test_begin(&t, "ws_pick_hand");
    const double s0[] = {0, 1.0, 1.8, 2.2, 2.4}, l1[] = {0, 0.5, 1.0, 1.5, 2.0};
    curve(&cv[0], 4, s0, 512);
    curve(&cv[1], 4, l1, 512);
    const struct ccbp_caps caps = {2048, 65536, 98304, 32, 0.6, 0.7, 1.0};
    HD_CHECK_U64(&t, 0, (uint64_t)ccbp_ws_pick(cv, 2, &caps, CCBP_WS_SUM, n, &score));
    HD_CHECK_U64(&t, 2, n[0]);
    HD_CHECK_U64(&t, 2, n[1]);
    HD_CHECK_F64(&t, 2.4 / 1.8 + 2.0, score, 1e-9);
    HD_CHECK_U64(&t, 0, (uint64_t)ccbp_ws_pick(cv, 2, &caps, CCBP_WS_WATER, n, &score));
    HD_CHECK_U64(&t, 2, n[0]);
    HD_CHECK_U64(&t, 2, n[1]);
    HD_CHECK_F64(&t, 0.5, score, 1e-9);

    /* Where the two rules differ (4 CTA slots, no other demand): kernel 0 normalized
     * .3/.6/.9/1, kernel 1 .55/.7/.75/1. Water-filling raises the lowest: (1,0) .3 -> (1,1)
     * .55 -> (2,1) .6 -> (2,2) .7, full: (2,2). The sum of slowdowns is smallest at (3,1):
     * 1/.9 + 1/.55 = 2.929 against (2,2)'s 1/.6 + 1/.7 = 3.095. */
    hd_test_begin(&t, "ws_pick_rules_differ");
    const double a0[] = {0, 0.3, 0.6, 0.9, 1.0}, a1[] = {0, 0.55, 0.7, 0.75, 1.0};
    curve(&cv[0], 4, a0, 0);
    curve(&cv[1], 4, a1, 0);
    const struct ccbp_caps slots4 = {2048, 65536, 98304, 4, 0.6, 0.7, 1.0};
    HD_CHECK_U64(&t, 0, (uint64_t)ccbp_ws_pick(cv, 2, &slots4, CCBP_WS_WATER, n, &score));
    HD_CHECK_U64(&t, 2, n[0]);
    HD_CHECK_U64(&t, 2, n[1]);
    HD_CHECK_F64(&t, 0.6, score, 1e-9);
    HD_CHECK_U64(&t, 0, (uint64_t)ccbp_ws_pick(cv, 2, &slots4, CCBP_WS_SUM, n, &score));
    HD_CHECK_U64(&t, 3, n[0]);
    HD_CHECK_U64(&t, 1, n[1]);
    HD_CHECK_F64(&t, 1.0 / 0.9 + 1.0 / 0.55, score, 1e-9);

    /* Water-filling gives no CTA that does not raise a kernel's IPC: kernel 1 peaks at one CTA
     * (2.0, then 1.8, 1.6, 1.4) and keeps it; kernel 0 takes all it may (8 slots: its nmax 4). */
    hd_test_begin(&t, "ws_pick_no_gain");
    const double g0[] = {0, 1.0, 1.2, 1.3, 1.35}, g1[] = {0, 2.0, 1.8, 1.6, 1.4};
    curve(&cv[0], 4, g0, 0);
    curve(&cv[1], 4, g1, 0);
    const struct ccbp_caps slots8 = {2048, 65536, 98304, 8, 0.6, 0.7, 1.0};
    HD_CHECK_U64(&t, 0, (uint64_t)ccbp_ws_pick(cv, 2, &slots8, CCBP_WS_WATER, n, &score));
    HD_CHECK_U64(&t, 4, n[0]);
    HD_CHECK_U64(&t, 1, n[1]);

    /* The fit rule: threads, registers, shared memory, CTA slots, each kernel's nmax; no
     * combination with a CTA of each fits: -1. */
    hd_test_begin(&t, "ws_fits");
    curve(&cv[0], 4, s0, 512);
    curve(&cv[1], 4, l1, 512);
    cv[1].regs = 40000;
    unsigned c2[2] = {1, 1};
    HD_CHECK(&t, ccbp_ws_fits(cv, 2, &caps, c2));
    c2[1] = 2; /* 80,000 registers */
    HD_CHECK(&t, !ccbp_ws_fits(cv, 2, &caps, c2));
    cv[1].regs = 0;
    c2[0] = 5; /* above kernel 0's nmax */
    c2[1] = 1;
    HD_CHECK(&t, !ccbp_ws_fits(cv, 2, &caps, c2));
    cv[0].smem = 60000;
    cv[1].smem = 40000;
    HD_CHECK(&t, ccbp_ws_pick(cv, 2, &caps, CCBP_WS_SUM, n, &score) == -1);
    HD_CHECK(&t, ccbp_ws_pick(cv, 2, &caps, CCBP_WS_WATER, n, &score) == -1);

    /* The curve from sampled points: linear between them, from 0 to the first, flat after. */
    hd_test_begin(&t, "ws_interp");
    double ipc[CCBP_NMAX + 1];
    const unsigned x[] = {1, 2, 4};
    const double y[] = {1.0, 1.6, 2.0};
    ccbp_ws_interp(x, y, 3, 6, ipc);
    const double want[] = {0, 1.0, 1.6, 1.8, 2.0, 2.0, 2.0};
    for (unsigned i = 0; i <= 6; i++)
        HD_CHECK_F64(&t, want[i], ipc[i], 1e-12);
    const unsigned x1[] = {2};
    const double y1[] = {1.0};
    ccbp_ws_interp(x1, y1, 1, 3, ipc);
    HD_CHECK_F64(&t, 0.5, ipc[1], 1e-12);
    HD_CHECK_F64(&t, 1.0, ipc[3], 1e-12);

    /* The limits a group of 8 SMs samples. */
    hd_test_begin(&t, "ws_counts");
    unsigned cnt[8];
    ccbp_ws_counts(24, 8, cnt); /* 1 2 3 4 6 8 12 16 24: nine for eight SMs, spread */
    const unsigned w24[] = {1, 2, 3, 4, 8, 12, 16, 24};
    for (unsigned j = 0; j < 8; j++)
        HD_CHECK_U64(&t, w24[j], cnt[j]);
    ccbp_ws_counts(4, 8, cnt); /* 1 2 3 4, twice */
    for (unsigned j = 0; j < 8; j++)
        HD_CHECK_U64(&t, j % 4 + 1, cnt[j]);
    ccbp_ws_counts(12, 8, cnt); /* 1 2 3 4 6 8 12, then 1 again */
    const unsigned w12[] = {1, 2, 3, 4, 6, 8, 12, 1};
    for (unsigned j = 0; j < 8; j++)
        HD_CHECK_U64(&t, w12[j], cnt[j]);

    return hd_test_finish(&t);
}
