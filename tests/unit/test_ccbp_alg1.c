/* SPDX-License-Identifier: MIT
 * test_ccbp_alg1.c - CCBP's Algorithm 1 (Lin ch.4 §4.5.2, model/mech/ccbp/ccbp_alg1.c) on a
 * two-kernel profile traced by hand, the share-to-quota conversion, the sustainable-bandwidth
 * bound per crossbar, and the profile reader's per-crossbar curves and located errors
 * (model/mech/ccbp/ccbp_profile.c).
 */
#include "ccbp.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* LS kernel 0 (nmax 4, 5 % NoC and DRAM per CTA) and NBI kernel 1 (NoC 20/35/45/50 %). */
static void profile(struct ccbp_prof *p)
{
    memset(p, 0, sizeof *p);
    p->k = 2;
    p->type[0] = CCBP_LS;
    p->type[1] = CCBP_NBI;
    p->nmax[0] = p->nmax[1] = 4;
    const double n0[] = {0, 5, 10, 15, 20}, n1[] = {0, 20, 35, 45, 50}, d1[] = {0, 2, 4, 6, 8};
    for (unsigned i = 0; i <= 4; i++) {
        p->nbw[0][i] = p->dbw[0][i] = n0[i];
        p->nbw[1][i] = n1[i];
        p->dbw[1][i] = d1[i];
    }
    memcpy(p->req, p->nbw, sizeof p->req); /* (no per-crossbar curves: both take nbw) */
    memcpy(p->rep, p->nbw, sizeof p->rep);
    p->cost_noc[1] = 5.0;
}

/* Two NBI kernels (nmax 2, 256 threads per CTA), each 20 / 40 % of its busy crossbar's peak
 * at 1 / 2 CTAs and a quarter of that on the other crossbar; kernel 1's busy crossbar `dir1`
 * (kernel 0's is the request crossbar). */
static void xbar_pair(struct ccbp_prof *p, unsigned dir1)
{
    memset(p, 0, sizeof *p);
    p->k = 2;
    for (unsigned k = 0; k < 2; k++) {
        p->type[k] = CCBP_NBI;
        p->nmax[k] = 2;
        p->threads[k] = 256;
        p->noc_dir[k] = (uint8_t)(k == 0 ? CCBP_NOC_REQ : dir1);
        for (unsigned n = 0; n <= 2; n++) {
            p->nbw[k][n] = 20.0 * n;
            p->dbw[k][n] = 1.0 * n;
            const bool req = p->noc_dir[k] == CCBP_NOC_REQ;
            p->req[k][n] = req ? 20.0 * n : 5.0 * n;
            p->rep[k][n] = req ? 5.0 * n : 20.0 * n;
        }
    }
}

int main(void)
{
    struct hd_test_state t = {0};
    struct ccbp_prof p;
    struct ccbp_alloc a;
    const struct ccbp_caps caps = {2048, 65536, 98304, 32, 0.6, 0.7, 1.0};

    /* Hand trace (CanAlloc: CTA/nmax shares sum to <= 1 without per-CTA demands; ties to the
     * lower index): LS 1 CTA (dom .25); NBI climbs 1 % at a time to 15 % (dom .25, tie); LS 2
     * CTAs (.5); NBI to 30 % (a 2nd CTA at 21 %, above nbw[1][1] = 20); LS's 3rd CTA does not
     * fit (.75 + .5); NBI to 35 % (nbw[1][2]); its 3rd CTA does not fit: (2, 2), NBW 35 %. */
    hd_test_begin(&t, "alg1_hand_trace");
    profile(&p);
    ccbp_alg1(&p, &caps, &a);
    HD_CHECK_U64(&t, 2, a.cta[0]);
    HD_CHECK_U64(&t, 2, a.cta[1]);
    HD_CHECK_F64(&t, 35.0, a.nbw[1], 1e-9);
    HD_CHECK_F64(&t, 4.0, a.dbw[1], 1e-9);  /* dbw[1][2] x 35 / nbw[1][2] */
    HD_CHECK_F64(&t, 10.0, a.nbw[0], 1e-9); /* the LS kernel's profiled use at 2 CTAs */
    HD_CHECK_F64(&t, 35.0 / 60.0, a.dom[1], 1e-9);
    HD_CHECK_F64(&t, 0.5, a.dom[0], 1e-9);

    /* 35 % of the NoC's 2 x 16 ports x 200 x 1200/1800 flits per window at 5 flits per request,
     * over 16 SMs: 18.67 -> 19 requests per SM per window; the LS kernel is not throttled. */
    hd_test_begin(&t, "quota");
    const struct ccbp_machine m = {16, 16, 16, 1800.0, 1200.0, 1200.0};
    HD_CHECK_U64(&t, 19, ccbp_quota(&p, &a, 1, &m, 200));
    HD_CHECK_U64(&t, 0, ccbp_quota(&p, &a, 0, &m, 200));
    HD_CHECK_F64(&t, 50.0, ccbp_noc_pct(&m, 1067, 100), 0.05); /* 100 cycles: 66.7 x 32 ports */
    /* The same share of one crossbar (noc_dir rep: its 16 SM-side ports; req: its 16 L2-side
     * ports) is half the flits: 9.33 -> 9 requests per SM per window. */
    p.noc_dir[1] = CCBP_NOC_REP;
    HD_CHECK_U64(&t, 9, ccbp_quota(&p, &a, 1, &m, 200));
    const struct ccbp_machine m8 = {16, 8, 16, 1800.0, 1200.0, 1200.0};
    HD_CHECK_F64(&t, 16.0, ccbp_noc_ports(&m8, CCBP_NOC_REP), 0.0);
    HD_CHECK_F64(&t, 8.0, ccbp_noc_ports(&m8, CCBP_NOC_REQ), 0.0);
    HD_CHECK_F64(&t, 24.0, ccbp_noc_ports(&m8, CCBP_NOC_BOTH), 0.0);
    p.noc_dir[1] = CCBP_NOC_BOTH;

    /* Per-CTA demands decide the static fit: 1024-thread CTAs, so at most 2 of them in all. */
    hd_test_begin(&t, "alg1_static_demand");
    profile(&p);
    p.threads[0] = p.threads[1] = 1024;
    ccbp_alg1(&p, &caps, &a);
    HD_CHECK_U64(&t, 2, a.cta[0] + a.cta[1]);

    /* A lower sustainable NoC share caps the sum of the NoC shares. */
    hd_test_begin(&t, "alg1_noc_sustain");
    profile(&p);
    const struct ccbp_caps tight = {2048, 65536, 98304, 32, 0.2, 0.7, 1.0};
    ccbp_alg1(&p, &tight, &a);
    HD_CHECK(&t, a.nbw[0] + a.nbw[1] <= 20.0 + 1e-9);
    HD_CHECK_U64(&t, 1, a.cta[1]);

    /* CanAlloc per crossbar (session 26): two NBI kernels at 40 % each of different crossbars
     * both fit (request 40 + 10, reply 10 + 40 <= 60) and take their nmax; on the same
     * crossbar the second 40 % is refused: they climb in turn to 30 % each (60 % in all) and
     * the next point is refused for both. */
    hd_test_begin(&t, "alg1_per_crossbar");
    xbar_pair(&p, CCBP_NOC_REP);
    ccbp_alg1(&p, &caps, &a);
    HD_CHECK_U64(&t, 2, a.cta[0]);
    HD_CHECK_U64(&t, 2, a.cta[1]);
    HD_CHECK_F64(&t, 40.0, a.nbw[0], 1e-9);
    HD_CHECK_F64(&t, 40.0, a.nbw[1], 1e-9);
    HD_CHECK_F64(&t, 40.0, a.req[0], 1e-9);
    HD_CHECK_F64(&t, 10.0, a.rep[0], 1e-9); /* 5 x 2 at 2 CTAs, scaled by 40 / 40 */
    HD_CHECK_F64(&t, 10.0, a.req[1], 1e-9);
    HD_CHECK_F64(&t, 40.0, a.rep[1], 1e-9);
    xbar_pair(&p, CCBP_NOC_REQ);
    ccbp_alg1(&p, &caps, &a);
    HD_CHECK_F64(&t, 30.0, a.nbw[0], 1e-9);
    HD_CHECK_F64(&t, 30.0, a.nbw[1], 1e-9);
    HD_CHECK(&t, a.req[0] + a.req[1] <= 60.0 + 1e-9);
    HD_CHECK_F64(&t, 7.5, a.rep[1], 1e-9); /* 10 x 30 / 40 at 2 CTAs */
    /* the rule before session 26 (one sum of the kernels' NBW) is the profile without
     * per-crossbar curves: the different-crossbar pair is then refused as if on one */
    xbar_pair(&p, CCBP_NOC_REP);
    memcpy(p.req, p.nbw, sizeof p.req);
    memcpy(p.rep, p.nbw, sizeof p.rep);
    ccbp_alg1(&p, &caps, &a);
    HD_CHECK_F64(&t, 30.0, a.nbw[0], 1e-9);
    HD_CHECK_F64(&t, 30.0, a.nbw[1], 1e-9);

    /* priorLSK 4: the LS kernel's share counts a quarter, so it takes all 4 of its CTAs
     * before the NBI kernel passes 25 % ... and the NBI kernel still gets one CTA. */
    hd_test_begin(&t, "alg1_prior_ls");
    profile(&p);
    const struct ccbp_caps prior = {2048, 65536, 98304, 32, 0.6, 0.7, 4.0};
    ccbp_alg1(&p, &prior, &a);
    HD_CHECK(&t, a.cta[0] >= 3);
    HD_CHECK(&t, a.cta[1] >= 1);

    hd_test_begin(&t, "profile_errors");
    char err[256];
    const char *path = "/tmp/hd_test_ccbp_profile.txt";
    FILE *f = fopen(path, "w");
    HD_CHECK(&t, f != NULL);
    if (f) {
        fputs("app 1 type ls\napp 1 nbw 1 2\napp 1 dbw 1 2 3\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) != 0);
        HD_CHECK(&t, strstr(err, ":3: nbw/dbw") != NULL);
        f = fopen(path, "w");
        fputs("app 1 type ls\napp 1 nbw 1 2\napp 1 dbw 1 2\napp 2 type dbi\napp 2 dbw 5\n"
              "app 2 nbw 3\napp 2 cost_dram 2.5\napp 2 demand 256 8192 0\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) == 0);
        HD_CHECK_U64(&t, 2, p.k);
        HD_CHECK_U64(&t, 1, p.nmax[1]);
        HD_CHECK_F64(&t, 2.5, p.cost_dram[1], 1e-12);
        HD_CHECK_U64(&t, 8192, p.regs[1]);
        HD_CHECK_U64(&t, CCBP_NOC_BOTH, p.noc_dir[1]); /* absent: both crossbars */
        HD_CHECK_F64(&t, 3.0, p.req[1][1], 0.0);       /* absent: the nbw curve */
        HD_CHECK_F64(&t, 2.0, p.rep[0][2], 0.0);
        f = fopen(path, "w");
        fputs("app 1 type nbi\napp 1 nbw_rep 7 9\napp 1 nbw 40 50\napp 1 nbw_req 38 47\n"
              "app 1 dbw 5 6\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) == 0);
        HD_CHECK_F64(&t, 47.0, p.req[0][2], 0.0);
        HD_CHECK_F64(&t, 7.0, p.rep[0][1], 0.0);
        HD_CHECK_F64(&t, 50.0, p.nbw[0][2], 0.0);
        f = fopen(path, "w"); /* (a curve before nbw is checked against it at the end) */
        fputs("app 1 type nbi\napp 1 nbw_req 7 9 9\napp 1 nbw 40 50\napp 1 dbw 5 6\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) != 0);
        HD_CHECK(&t, strstr(err, "hd_test_ccbp_profile.txt:2: nbw_req/nbw_rep") != NULL);
        f = fopen(path, "w");
        fputs("app 1 type nbi\napp 1 nbw 40 50\napp 1 dbw 5 6\napp 1 nbw_rep 7 x\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) != 0);
        HD_CHECK(&t, strstr(err, ":4: nbw_req/nbw_rep") != NULL);
        f = fopen(path, "w");
        fputs("app 1 type nbi\napp 1 nbw 40 50\napp 1 dbw 5 6\napp 1 nbw_rep 7\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) != 0);
        HD_CHECK(&t, strstr(err, ":4: nbw_req/nbw_rep") != NULL);
        f = fopen(path, "w");
        fputs("app 1 type nbi\napp 1 noc_dir rep\napp 1 nbw 40\napp 1 dbw 5\n"
              "app 2 type dbi\napp 2 noc_dir req\napp 2 nbw 30\napp 2 dbw 50\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) == 0);
        HD_CHECK_U64(&t, CCBP_NOC_REP, p.noc_dir[0]);
        HD_CHECK_U64(&t, CCBP_NOC_REQ, p.noc_dir[1]);
        f = fopen(path, "w");
        fputs("app 1 type nbi\napp 1 nbw 40\napp 1 dbw 5\napp 1 noc_dir up\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) != 0);
        HD_CHECK(&t, strstr(err, ":4: noc_dir must be") != NULL);
        f = fopen(path, "w");
        fputs("app 5 type ls\n", f);
        fclose(f);
        HD_CHECK(&t, ccbp_profile_read(path, &p, err, sizeof err) != 0);
        HD_CHECK(&t, strstr(err, ":1: expected") != NULL);
        remove(path);
    }
    uint32_t v[CCBP_APPS];
    unsigned n;
    HD_CHECK(&t, ccbp_parse_list("ctas", "7 4", v, &n, err, sizeof err) == 0 && n == 2 &&
                     v[0] == 7 && v[1] == 4);
    HD_CHECK(&t, ccbp_parse_list("ctas", "7 x", v, &n, err, sizeof err) != 0);
    uint8_t ty[CCBP_APPS];
    HD_CHECK(&t, ccbp_parse_types("ls dbi", ty, &n, err, sizeof err) == 0 && n == 2 &&
                     ty[1] == CCBP_DBI);
    HD_CHECK(&t, ccbp_parse_types("ls fast", ty, &n, err, sizeof err) != 0);
    return hd_test_finish(&t);
}
