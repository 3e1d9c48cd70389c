/* SPDX-License-Identifier: MIT
 * test_ccbp_ctrl.c - CCBP's controller block (tables/ccbp_ctrl.c) driven by its firmware
 * (model/mech/ccbp/ccbp_ctrl_fw.c), the model's Algorithm 1 since the controller became a
 * block, against the double-precision Algorithm 1 (model/mech/ccbp/ccbp_alg1.c) that the model
 * used before: the same CTA combination, iterations and quotas, shares within 0.001 % of peak,
 * on the hand trace of test_ccbp_alg1, on a pair whose NoC shares load different crossbars, on
 * random profiles with per-crossbar curves and on every profile in the repository (the loop
 * tests' and the experiment's); the run's latency in edges; a re-run on new costs; the firmware's
 * located refusals of what does not fit the block's formats.
 */
#include "ccbp.h"
#include "testutil.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct ccbp_caps kCaps = {2048, 65536, 98304, 32, 0.6, 0.7, 1.0};
static const struct ccbp_machine kMach = {16, 16, 16, 1800.0, 1200.0, 1200.0};

static struct ccbp_ctl ctl; /* (large: the tables and the program) */

/* Run the block on p from its full load; *edges = the edges it took. */
static void run_block(const struct ccbp_prof *p, const struct ccbp_caps *c, bool all,
                      uint32_t step, struct ccbp_alloc *a, uint32_t *quota, uint64_t *edges)
{
    const uint64_t e0 = ctl.edges;
    ccbp_ctl_prepare(&ctl, p, c, &kMach, 200, step, all);
    unsigned guard = 0;
    while (!ccbp_ctl_edge(&ctl, NULL, NULL) && ++guard < 1000000) {
    }
    ccbp_ctl_result(&ctl, p, a, quota);
    *edges = ctl.edges - e0;
}

static void compare(struct hd_test_state *t, const char *name, const struct ccbp_prof *p)
{
    hd_test_begin(t, name);
    struct ccbp_alloc f, b;
    uint32_t quota[CCBP_APPS] = {0};
    uint64_t edges = 0;
    ccbp_alg1(p, &kCaps, &f);
    hd_ccbp_ctrl_ref_reset(&ctl.s);
    run_block(p, &kCaps, true, 50, &b, quota, &edges);
    HD_CHECK_U64(t, f.steps, b.steps);
    for (unsigned k = 0; k < p->k; k++) {
        HD_CHECK_U64(t, f.cta[k], b.cta[k]);
        HD_CHECK_F64(t, f.nbw[k], b.nbw[k], 1e-3);
        HD_CHECK_F64(t, f.dbw[k], b.dbw[k], 1e-3);
        HD_CHECK_F64(t, f.req[k], b.req[k], 1e-3);
        HD_CHECK_F64(t, f.rep[k], b.rep[k], 1e-3);
        HD_CHECK_F64(t, f.dom[k], b.dom[k], 1e-4);
        HD_CHECK_U64(t, ccbp_quota(p, &f, k, &kMach, 200), quota[k]);
    }
    /* the writes (the start with the last), 50 cycles per iteration, the edge that shows
     * done_o, 4 reads per application and the edge of the last result */
    HD_CHECK_U64(t, ctl.nprog + 50ull * b.steps + 4ull * p->k + 2, edges);
    printf("%s: (%u, %u) in %u iterations, quotas %u %u, %" PRIu64 " edges\n", name, b.cta[0],
           b.cta[1], b.steps, quota[0], quota[1], edges);
}

/* A random profile (seeded LCG): 2 to 4 applications of random classes, nmax 2 to 12, curves
 * in whole percent (own curve rising, the crossbars' and DRAM's anywhere in 0..40, some 0),
 * power-of-two thread demands (exact static shares: no near-ties of the dominant shares). */
static uint64_t lcg = 0x9e3779b97f4a7c15ull;
static unsigned below(unsigned n)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((lcg >> 33) % n);
}

static void random_profile(struct ccbp_prof *p)
{
    memset(p, 0, sizeof *p);
    p->k = 2 + below(3);
    for (unsigned k = 0; k < p->k; k++) {
        p->type[k] = (uint8_t)below(3);
        p->noc_dir[k] = (uint8_t)below(3);
        p->nmax[k] = 2 + below(11);
        p->threads[k] = 64u << below(3);
        p->cost_noc[k] = 1.0 + below(5);
        p->cost_dram[k] = 1.0 + below(5);
        double own = 0.0;
        for (unsigned n = 1; n <= p->nmax[k]; n++) {
            own += below(8);
            (p->type[k] == CCBP_DBI ? p->dbw : p->nbw)[k][n] = own;
            (p->type[k] == CCBP_DBI ? p->nbw : p->dbw)[k][n] = below(41);
            p->req[k][n] = below(5) ? below(41) : 0.0;
            p->rep[k][n] = below(5) ? below(41) : 0.0;
        }
    }
}

int main(void)
{
    struct hd_test_state t = {0};
    struct ccbp_prof p;
    char err[512];

    /* test_ccbp_alg1's hand trace: LS + NBI -> (2, 2), NBW 35 %, quota 19 */
    memset(&p, 0, sizeof p);
    p.k = 2;
    p.type[0] = CCBP_LS;
    p.type[1] = CCBP_NBI;
    p.nmax[0] = p.nmax[1] = 4;
    const double n0[] = {0, 5, 10, 15, 20}, n1[] = {0, 20, 35, 45, 50}, d1[] = {0, 2, 4, 6, 8};
    for (unsigned i = 0; i <= 4; i++) {
        p.nbw[0][i] = p.dbw[0][i] = n0[i];
        p.nbw[1][i] = n1[i];
        p.dbw[1][i] = d1[i];
    }
    memcpy(p.req, p.nbw, sizeof p.req); /* (no per-crossbar curves: both take nbw) */
    memcpy(p.rep, p.nbw, sizeof p.rep);
    p.cost_noc[1] = 5.0;
    compare(&t, "hand_trace", &p);
    HD_CHECK_U64(&t, 2, ctl.res[0][HD_CCBP_CTRL_RD_CTA]);
    HD_CHECK_U64(&t, 2, ctl.res[1][HD_CCBP_CTRL_RD_CTA]);
    HD_CHECK_U64(&t, 35u << 16, ctl.res[1][HD_CCBP_CTRL_RD_NBW]);
    HD_CHECK_U64(&t, 19, ctl.res[1][HD_CCBP_CTRL_RD_QUOTA]);

    /* with per-CTA demands (1024 threads each: 2 CTAs in all) */
    p.threads[0] = p.threads[1] = 1024;
    compare(&t, "hand_trace_demands", &p);
    p.threads[0] = p.threads[1] = 0;

    /* two NBI kernels of 40 % each on different crossbars (test_ccbp_alg1's
     * alg1_per_crossbar): both at nmax; then the reply crossbar's refusal (kernel 0 also loads
     * the reply crossbar, at 3/4 of its share: both stop at 34 %, the reply crossbar at
     * 25.5 + 34 = 59.5 %, the next point of either is refused by it) */
    {
        struct ccbp_prof x;
        memset(&x, 0, sizeof x);
        x.k = 2;
        for (unsigned k = 0; k < 2; k++) {
            x.type[k] = CCBP_NBI;
            x.nmax[k] = 2;
            x.threads[k] = 256;
            x.cost_noc[k] = 4.0;
            for (unsigned n = 0; n <= 2; n++) {
                x.nbw[k][n] = 20.0 * n;
                x.dbw[k][n] = 1.0 * n;
                x.req[k][n] = k == 0 ? 20.0 * n : 5.0 * n;
                x.rep[k][n] = k == 0 ? 5.0 * n : 20.0 * n;
            }
        }
        compare(&t, "xbar_pair", &x);
        HD_CHECK_U64(&t, 2, ctl.res[0][HD_CCBP_CTRL_RD_CTA]);
        HD_CHECK_U64(&t, 2, ctl.res[1][HD_CCBP_CTRL_RD_CTA]);
        HD_CHECK_U64(&t, 40u << 16, ctl.s.rep[1]);
        HD_CHECK_U64(&t, 10u << 16, ctl.s.req[1]);
        for (unsigned n = 0; n <= 2; n++)
            x.rep[0][n] = 15.0 * n;
        compare(&t, "xbar_pair_rep_refused", &x);
        HD_CHECK(&t, ctl.s.rep[0] + ctl.s.rep[1] <= 60u << 16);
        HD_CHECK_U64(&t, 34u << 16, ctl.res[0][HD_CCBP_CTRL_RD_NBW]);
        HD_CHECK_U64(&t, 34u << 16, ctl.res[1][HD_CCBP_CTRL_RD_NBW]);
    }

    /* random profiles with per-crossbar curves */
    for (unsigned i = 0; i < 200; i++) {
        struct ccbp_prof q;
        char name[32];
        random_profile(&q);
        snprintf(name, sizeof name, "random_%u", i);
        compare(&t, name, &q);
    }

    /* the repository's profiles */
    static const char *const files[] = {
        "tests/ccbp/loop_prof.txt", "experiments/results/ccbp/profiles/backprop_cfd.txt",
        "experiments/results/ccbp/profiles/btree_sad.txt",
        "experiments/results/ccbp/profiles/cfd_fdtd2d.txt",
        "experiments/results/ccbp/profiles/histogram_fdtd2d.txt",
        "experiments/results/ccbp/profiles/pathfinder_lbm.txt",
        "experiments/results/ccbp/profiles/bfs_spmv.txt",
        "experiments/results/ccbp/profiles/lavamd_bucketsort.txt",
        "experiments/results/ccbp/profiles/kmeans_lbm.txt",
        /* the experiment's current pairs (ccbp.py plan: per-crossbar NoC curves) */
        "experiments/results/ccbp/profiles/backprop_ccbp_cfd_ccbp.txt",
        "experiments/results/ccbp/profiles/backprop_cfd_ccbp.txt",
        "experiments/results/ccbp/profiles/backprop_rod_cfd_ccbp.txt",
        "experiments/results/ccbp/profiles/bfs_ccbp_spmv.txt",
        "experiments/results/ccbp/profiles/cfd_ccbp_fdtd2d_ccbp.txt",
        "experiments/results/ccbp/profiles/histo1024_fdtd2d_ccbp.txt",
        "experiments/results/ccbp/profiles/kmeans_ccbp_lbm_ccbp.txt",
        "experiments/results/ccbp/profiles/pathfinder_lbm_ccbp.txt"};
    for (unsigned i = 0; i < sizeof files / sizeof files[0]; i++) {
        struct ccbp_prof q;
        const bool ok = ccbp_profile_read(files[i], &q, err, sizeof err) == 0;
        HD_CHECK(&t, ok);
        if (ok)
            compare(&t, files[i], &q);
    }

    /* a re-run on new costs: only the quota factors are written; the combination stays, the
     * quota scales with 1 / cost */
    hd_test_begin(&t, "rerun_costs");
    struct ccbp_alloc b;
    uint32_t quota[CCBP_APPS] = {0}, q2[CCBP_APPS] = {0};
    uint64_t edges;
    hd_ccbp_ctrl_ref_reset(&ctl.s);
    run_block(&p, &kCaps, true, 50, &b, quota, &edges);
    p.cost_noc[1] = 2.5;
    run_block(&p, &kCaps, false, 50, &b, q2, &edges);
    HD_CHECK_U64(&t, 2, ctl.nprog); /* the two quota factors, the start on the second */
    HD_CHECK_U64(&t, 2, b.cta[1]);
    HD_CHECK_U64(&t, 37, q2[1]); /* 35 % x 0.5333 x 2 = 37.3 */
    HD_CHECK_U64(&t, 0, q2[0]);
    p.cost_noc[1] = 5.0;

    /* refusals */
    hd_test_begin(&t, "refusals");
    HD_CHECK(&t, ccbp_ctl_check(&p, &kCaps, 50, err, sizeof err) == 0);
    HD_CHECK(&t, ccbp_ctl_check(&p, &kCaps, 70000, err, sizeof err) != 0);
    HD_CHECK(&t, strstr(err, "alg1_step_cycles 70000") != NULL);
    p.regs[1] = 1u << 25;
    HD_CHECK(&t, ccbp_ctl_check(&p, &kCaps, 50, err, sizeof err) != 0);
    HD_CHECK(&t, strstr(err, "application 2's 33554432 registers") != NULL);
    p.regs[1] = 0;
    p.nbw[1][3] = 300.0;
    HD_CHECK(&t, ccbp_ctl_check(&p, &kCaps, 50, err, sizeof err) != 0);
    HD_CHECK(&t, strstr(err, "use at 3 CTAs") != NULL);
    return hd_test_finish(&t);
}
