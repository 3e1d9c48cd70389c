/* SPDX-License-Identifier: MIT
 * ccbp_ctrl_fw.c - the CCBP controller's firmware around the ccbp_ctrl block (ccbp_ctrl_fw.h;
 * Lin thesis §4.5.2, digest §2.17 Algorithm 1): the profile's conversion to the block's fixed
 * point, and the sequence of edges of one run.
 */
#include "ccbp_ctrl_fw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define VMAX ((1u << CCBP_CTRL_VW) - 1u)
#define DMAX ((1u << CCBP_CTRL_DW) - 1u)
#define SHARE_ONE (1u << 20) /* resource 0 without demands: the SM's static resources */

enum { PH_IDLE, PH_WRITE, PH_WAIT, PH_READ, PH_DONE };
/* Results read per application: CTAs, NoC share, DRAM share, quota (rd_sel_i 0..3: what the
 * model applies and logs; the crossbar shares, 4 and 5, are not read, so a run's latency is
 * what it was before the block's per-crossbar CanAlloc) */
#define FW_READS 4u

/* x in Q.f, rounded to nearest, saturating at max. */
static uint32_t fix(double x, unsigned f, uint32_t max)
{
    const double v = floor(x * (double)(1u << f) + 0.5);
    return !(v > 0.0) ? 0u : v >= (double)max ? max : (uint32_t)v;
}

static bool has_demand(const struct ccbp_prof *p, unsigned k)
{
    return p->threads[k] || p->regs[k] || p->smem[k];
}

/* Application k's static share per CTA (ccbp_alg1.c's static_share of one CTA). */
static double share1(const struct ccbp_prof *p, const struct ccbp_caps *c, unsigned k)
{
    if (!has_demand(p, k))
        return p->nmax[k] ? 1.0 / p->nmax[k] : 1.0;
    double s = c->ctas ? 1.0 / c->ctas : 0.0;
    const double r[3] = {c->threads ? (double)p->threads[k] / c->threads : 0.0,
                         c->regs ? (double)p->regs[k] / c->regs : 0.0,
                         c->smem ? (double)p->smem[k] / c->smem : 0.0};
    for (unsigned i = 0; i < 3; i++)
        s = r[i] > s ? r[i] : s;
    return s;
}

int ccbp_ctl_check(const struct ccbp_prof *p, const struct ccbp_caps *c, uint32_t step_cycles,
                   char *err, size_t errlen)
{
    if (step_cycles > (1u << CCBP_CTRL_TW) - 1u) {
        snprintf(err, errlen, "[ccbp] alg1_step_cycles %u: the controller block counts at most "
                 "%u cycles per iteration (TW = %d bits)", step_cycles,
                 (1u << CCBP_CTRL_TW) - 1u, CCBP_CTRL_TW);
        return -1;
    }
    const uint32_t caps[4] = {c->threads, c->regs, c->smem, c->ctas};
    static const char *const rname[4] = {"threads", "registers", "shared bytes", "CTA slots"};
    for (unsigned r = 0; r < 4; r++)
        if (caps[r] > DMAX) {
            snprintf(err, errlen, "ccbp: the SM's %u %s do not fit the controller block's "
                     "%d-bit capacities", caps[r], rname[r], CCBP_CTRL_DW);
            return -1;
        }
    for (unsigned k = 0; k < p->k; k++) {
        const uint32_t d[3] = {p->threads[k], p->regs[k], p->smem[k]};
        for (unsigned r = 0; r < 3; r++)
            if (d[r] > DMAX) {
                snprintf(err, errlen, "[ccbp] profile: application %u's %u %s per CTA do not "
                         "fit the controller block's %d-bit demands", k + 1, d[r], rname[r],
                         CCBP_CTRL_DW);
                return -1;
            }
        for (unsigned n = 1; n <= p->nmax[k]; n++)
            if (p->nbw[k][n] >= 256.0 || p->dbw[k][n] >= 256.0 || p->req[k][n] >= 256.0 ||
                p->rep[k][n] >= 256.0) {
                snprintf(err, errlen, "[ccbp] profile: application %u's use at %u CTAs is "
                         "256 %% of peak or more; the controller block's shares are Q8.16",
                         k + 1, n);
                return -1;
            }
    }
    /* (a limit within 1 % of the largest share would let a saturated share commit forever) */
    if (c->noc_sustain * 100.0 >= 255.0 || c->dram_sustain * 100.0 >= 255.0 ||
        !(c->prior_ls > 0.0)) {
        snprintf(err, errlen, "[ccbp] noc_sustain and dram_sustain must be below 2.55 and "
                 "prior_ls above 0 for the controller block");
        return -1;
    }
    return 0;
}

static void put(struct ccbp_ctl *t, unsigned sel, unsigned app, unsigned idx, uint32_t data)
{
    struct hd_ccbp_ctrl_in *in = &t->prog[t->nprog++];
    memset(in, 0, sizeof *in);
    in->wr_v_i = 1;
    in->wr_sel_i = sel;
    in->wr_app_i = app;
    in->wr_idx_i = idx;
    in->wr_data_i = data;
}

void ccbp_ctl_prepare(struct ccbp_ctl *t, const struct ccbp_prof *p, const struct ccbp_caps *c,
                      const struct ccbp_machine *m, uint32_t window, uint32_t step_cycles,
                      bool all)
{
    t->nprog = 0;
    t->k = p->k;
    bool exact = true;
    for (unsigned k = 0; k < p->k; k++)
        exact = exact && has_demand(p, k);
    for (unsigned k = 0; k < p->k; k++) {
        const unsigned ty = p->type[k];
        if (all) {
            put(t, HD_CCBP_CTRL_TYPE, k, 0, ty);
            put(t, HD_CCBP_CTRL_NMAX, k, 0, p->nmax[k]);
            const double d = ty == CCBP_NBI   ? c->noc_sustain * 100.0
                             : ty == CCBP_DBI ? c->dram_sustain * 100.0
                                              : c->prior_ls / share1(p, c, k);
            t->d[k] = fix(d, CCBP_CTRL_VF, VMAX);
            t->d[k] = t->d[k] ? t->d[k] : 1u;
            put(t, HD_CCBP_CTRL_D, k, 0, t->d[k]);
            const uint32_t dem[4] = {exact ? p->threads[k]
                                           : (uint32_t)floor(share1(p, c, k) * SHARE_ONE),
                                     exact ? p->regs[k] : 0u, exact ? p->smem[k] : 0u,
                                     exact ? 1u : 0u};
            for (unsigned r = 0; r < 4; r++)
                put(t, HD_CCBP_CTRL_DEM, k, r, dem[r]);
            for (unsigned n = 1; n <= p->nmax[k]; n++) {
                const double own = ty == CCBP_DBI ? p->dbw[k][n] : p->nbw[k][n];
                const uint32_t own_fx = fix(own, CCBP_CTRL_VF, VMAX);
                put(t, HD_CCBP_CTRL_OWN, k, n, own_fx);
                const double res[3] = {ty == CCBP_DBI ? p->nbw[k][n] : p->dbw[k][n],
                                       p->req[k][n], p->rep[k][n]};
                static const unsigned sel[3] = {HD_CCBP_CTRL_OTH, HD_CCBP_CTRL_REQ,
                                                HD_CCBP_CTRL_REP};
                const bool ratio = (ty == CCBP_NBI || ty == CCBP_DBI) && own_fx != 0;
                for (unsigned i = 0; i < 3; i++)
                    put(t, sel[i], k, n,
                        ratio ? fix(res[i] / own, CCBP_CTRL_RF, 0xffffffffu)
                              : fix(res[i], CCBP_CTRL_VF, VMAX));
            }
        }
        /* the quota factor: requests per SM per window per percent of peak */
        double f = 0.0;
        if (ty == CCBP_NBI && p->cost_noc[k] > 0.0)
            f = (double)window * m->icnt_mhz / m->core_mhz * ccbp_noc_ports(m, p->noc_dir[k]) /
                p->cost_noc[k] / m->nsm / 100.0;
        else if (ty == CCBP_DBI && p->cost_dram[k] > 0.0)
            f = (double)window * m->dram_mhz / m->core_mhz * m->dram_channels /
                p->cost_dram[k] / m->nsm / 100.0;
        uint32_t qf = fix(f, CCBP_CTRL_FF, 0xffffffffu);
        put(t, HD_CCBP_CTRL_QF, k, 0, f > 0.0 && !qf ? 1u : qf);
    }
    if (all) {
        const uint32_t caps[4] = {exact ? c->threads : SHARE_ONE, exact ? c->regs : DMAX,
                                  exact ? c->smem : DMAX, exact ? c->ctas : DMAX};
        for (unsigned r = 0; r < 4; r++)
            put(t, HD_CCBP_CTRL_CAP, 0, r, caps[r]);
        put(t, HD_CCBP_CTRL_NLIM, 0, 0, fix(c->noc_sustain * 100.0, CCBP_CTRL_VF, VMAX));
        put(t, HD_CCBP_CTRL_DLIM, 0, 0, fix(c->dram_sustain * 100.0, CCBP_CTRL_VF, VMAX));
        put(t, HD_CCBP_CTRL_NK, 0, 0, p->k);
        put(t, HD_CCBP_CTRL_STEP, 0, 0, step_cycles);
    }
    t->prog[t->nprog - 1].start_i = 1;
    t->pc = 0;
    t->rd = 0;
    t->phase = PH_WRITE;
    t->runs++;
}

bool ccbp_ctl_edge(struct ccbp_ctl *t, ccbp_ctl_lock_fn lock, void *arg)
{
    struct hd_ccbp_ctrl_in in;
    struct hd_ccbp_ctrl_out out;
    memset(&in, 0, sizeof in);
    const unsigned nrd = FW_READS * t->k;
    if (t->phase == PH_WRITE)
        in = t->prog[t->pc];
    else if (t->phase == PH_READ && t->rd < nrd) {
        in.rd_v_i = 1;
        in.rd_app_i = t->rd / FW_READS;
        in.rd_sel_i = t->rd % FW_READS;
    }
    hd_ccbp_ctrl_ref_step(&t->s, &in, &out);
    if (lock)
        lock(arg, &in, &out);
    t->edges++;
    switch (t->phase) {
    case PH_WRITE:
        if (++t->pc == t->nprog)
            t->phase = PH_WAIT;
        break;
    case PH_WAIT:
        if (out.done_o & 1u) {
            t->steps = (unsigned)out.steps_o;
            t->phase = PH_READ;
        }
        break;
    case PH_READ:
        if ((out.rd_v_o & 1u) && t->rd >= 1) /* the result of read rd - 1 */
            t->res[(t->rd - 1) / FW_READS][(t->rd - 1) % FW_READS] = (uint32_t)out.rd_data_o;
        if (++t->rd == nrd + 1)
            t->phase = PH_DONE;
        break;
    default:
        break;
    }
    return t->phase == PH_DONE;
}

void ccbp_ctl_result(const struct ccbp_ctl *t, const struct ccbp_prof *p, struct ccbp_alloc *a,
                     uint32_t *quota)
{
    memset(a, 0, sizeof *a);
    const double one = (double)(1u << CCBP_CTRL_VF);
    for (unsigned k = 0; k < p->k; k++) {
        a->cta[k] = t->res[k][HD_CCBP_CTRL_RD_CTA];
        a->nbw[k] = t->res[k][HD_CCBP_CTRL_RD_NBW] / one;
        a->dbw[k] = t->res[k][HD_CCBP_CTRL_RD_DBW] / one;
        /* (the crossbar shares are not read through the port: the reference's registers) */
        a->req[k] = t->s.req[k] / one;
        a->rep[k] = t->s.rep[k] / one;
        const double x = p->type[k] == CCBP_NBI   ? a->nbw[k]
                         : p->type[k] == CCBP_DBI ? a->dbw[k]
                                                  : (double)a->cta[k];
        a->dom[k] = x / (t->d[k] / one);
        quota[k] = t->res[k][HD_CCBP_CTRL_RD_QUOTA];
    }
    a->steps = t->steps;
}
