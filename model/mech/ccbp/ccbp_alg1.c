/* SPDX-License-Identifier: MIT
 * ccbp_alg1.c - Lin ch.4 Algorithm 1 (DRF over CTAs and NoC / DRAM bandwidth) and the share to
 * issue-rate quota conversion (see ccbp_alg1.h for the choices where the thesis text is lost).
 */
#include "ccbp_alg1.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Share of the SM's static resources n CTAs of application k take (the largest over the
 * resources; CTA / nmax when the profile gives no per-CTA demand). */
static double static_share(const struct ccbp_prof *p, const struct ccbp_caps *c, unsigned k,
                           unsigned n)
{
    if (!p->threads[k] && !p->regs[k] && !p->smem[k])
        return p->nmax[k] ? (double)n / p->nmax[k] : 1.0;
    double s = c->ctas ? (double)n / c->ctas : 0.0;
    const double r[3] = {c->threads ? (double)n * p->threads[k] / c->threads : 0.0,
                         c->regs ? (double)n * p->regs[k] / c->regs : 0.0,
                         c->smem ? (double)n * p->smem[k] / c->smem : 0.0};
    for (unsigned i = 0; i < 3; i++)
        s = r[i] > s ? r[i] : s;
    return s;
}

/* CanAlloc: the new CTAs within nmax, the static resources, and per crossbar and DRAM the sum
 * of the shares within the sustainable share (ccbp_alg1.h). */
static bool can_alloc(const struct ccbp_prof *p, const struct ccbp_caps *c, const unsigned *cta,
                      const double *req, const double *rep, const double *dbw)
{
    double st = 0.0, rq = 0.0, rp = 0.0, dram = 0.0;
    uint64_t thr = 0, regs = 0, smem = 0, ctas = 0;
    bool exact = true;
    for (unsigned k = 0; k < p->k; k++) {
        if (cta[k] > p->nmax[k])
            return false;
        if (!p->threads[k] && !p->regs[k] && !p->smem[k])
            exact = false;
        st += static_share(p, c, k, cta[k]);
        thr += (uint64_t)cta[k] * p->threads[k];
        regs += (uint64_t)cta[k] * p->regs[k];
        smem += (uint64_t)cta[k] * p->smem[k];
        ctas += cta[k];
        rq += req[k];
        rp += rep[k];
        dram += dbw[k];
    }
    if (exact ? (thr > c->threads || regs > c->regs || smem > c->smem || ctas > c->ctas)
              : st > 1.0 + 1e-9)
        return false;
    const double nlim = c->noc_sustain * 100.0 + 1e-9;
    return rq <= nlim && rp <= nlim && dram <= c->dram_sustain * 100.0 + 1e-9;
}

static double dom_share(const struct ccbp_prof *p, const struct ccbp_caps *c, unsigned k,
                        unsigned cta, double nbw, double dbw)
{
    switch (p->type[k]) {
    case CCBP_NBI:
        return nbw / (c->noc_sustain * 100.0);
    case CCBP_DBI:
        return dbw / (c->dram_sustain * 100.0);
    default:
        return static_share(p, c, k, cta) / c->prior_ls;
    }
}

/* A crossbar's share from the own share `own` at the own curve's value `at` and the crossbar's
 * curve's `cv` (the own share itself when the curves agree there: no rounding, so a profile
 * without per-crossbar curves allocates exactly as one NoC sum did; the curve when at is 0). */
static double scaled(double own, double cv, double at)
{
    return !(at > 0.0) ? cv : cv == at ? own : cv * own / at;
}

void ccbp_alg1(const struct ccbp_prof *p, const struct ccbp_caps *c, struct ccbp_alloc *out)
{
    memset(out, 0, sizeof *out);
    bool live[CCBP_APPS] = {false};
    for (unsigned k = 0; k < p->k; k++)
        live[k] = true;
    for (;;) {
        int k = -1;
        for (unsigned j = 0; j < p->k; j++) /* argmin dom over unFinished (lower index wins) */
            if (live[j] && (k < 0 || out->dom[j] < out->dom[k]))
                k = (int)j;
        if (k < 0)
            break;
        out->steps++;
        unsigned cta[CCBP_APPS];
        double nbw[CCBP_APPS], dbw[CCBP_APPS], req[CCBP_APPS], rep[CCBP_APPS];
        memcpy(cta, out->cta, sizeof cta);
        memcpy(nbw, out->nbw, sizeof nbw);
        memcpy(dbw, out->dbw, sizeof dbw);
        memcpy(req, out->req, sizeof req);
        memcpy(rep, out->rep, sizeof rep);
        const unsigned c0 = out->cta[k];
        if (p->type[k] == CCBP_NBI) {
            nbw[k] = out->nbw[k] + 1.0;
            cta[k] = p->nbw[k][c0] < nbw[k] ? c0 + 1 : c0;
            if (cta[k] > CCBP_NMAX || cta[k] > p->nmax[k]) {
                live[k] = false;
                continue;
            }
            const double at = p->nbw[k][cta[k]];
            dbw[k] = at > 0.0 ? p->dbw[k][cta[k]] * nbw[k] / at : p->dbw[k][cta[k]];
            req[k] = scaled(nbw[k], p->req[k][cta[k]], at);
            rep[k] = scaled(nbw[k], p->rep[k][cta[k]], at);
        } else if (p->type[k] == CCBP_DBI) {
            dbw[k] = out->dbw[k] + 1.0;
            cta[k] = p->dbw[k][c0] < dbw[k] ? c0 + 1 : c0;
            if (cta[k] > CCBP_NMAX || cta[k] > p->nmax[k]) {
                live[k] = false;
                continue;
            }
            const double at = p->dbw[k][cta[k]];
            nbw[k] = at > 0.0 ? p->nbw[k][cta[k]] * dbw[k] / at : p->nbw[k][cta[k]];
            /* (as NBW is: a crossbar whose curve is NBW's takes exactly NBW's share) */
            req[k] = at > 0.0 ? p->req[k][cta[k]] * dbw[k] / at : p->req[k][cta[k]];
            rep[k] = at > 0.0 ? p->rep[k][cta[k]] * dbw[k] / at : p->rep[k][cta[k]];
        } else {
            cta[k] = c0 + 1;
            if (cta[k] > CCBP_NMAX || cta[k] > p->nmax[k]) {
                live[k] = false;
                continue;
            }
            nbw[k] = p->nbw[k][cta[k]];
            dbw[k] = p->dbw[k][cta[k]];
            req[k] = p->req[k][cta[k]];
            rep[k] = p->rep[k][cta[k]];
        }
        if (!can_alloc(p, c, cta, req, rep, dbw)) {
            live[k] = false;
            continue;
        }
        out->cta[k] = cta[k];
        out->nbw[k] = nbw[k];
        out->dbw[k] = dbw[k];
        out->req[k] = req[k];
        out->rep[k] = rep[k];
        out->dom[k] = dom_share(p, c, (unsigned)k, cta[k], nbw[k], dbw[k]);
    }
}

double ccbp_noc_ports(const struct ccbp_machine *m, unsigned noc_dir)
{
    return noc_dir == CCBP_NOC_REQ   ? (double)m->l2_slices
           : noc_dir == CCBP_NOC_REP ? (double)m->nsm
                                     : (double)(m->nsm + m->l2_slices);
}

double ccbp_noc_pct(const struct ccbp_machine *m, uint64_t flits, uint64_t cycles)
{
    const double icnt = (double)cycles * m->icnt_mhz / m->core_mhz;
    const double peak = icnt * (m->nsm + m->l2_slices); /* one flit per port per cycle */
    return peak > 0.0 ? 100.0 * (double)flits / peak : 0.0;
}

double ccbp_dram_pct(const struct ccbp_machine *m, uint64_t data, uint64_t cycles)
{
    const double peak = (double)cycles * m->dram_mhz / m->core_mhz * m->dram_channels;
    return peak > 0.0 ? 100.0 * (double)data / peak : 0.0;
}

uint32_t ccbp_quota(const struct ccbp_prof *p, const struct ccbp_alloc *a, unsigned k,
                    const struct ccbp_machine *m, uint32_t window)
{
    double per_sm;
    if (p->type[k] == CCBP_NBI && p->cost_noc[k] > 0.0) {
        const double peak = (double)window * m->icnt_mhz / m->core_mhz *
                            ccbp_noc_ports(m, p->noc_dir[k]);
        per_sm = a->nbw[k] / 100.0 * peak / p->cost_noc[k] / m->nsm;
    } else if (p->type[k] == CCBP_DBI && p->cost_dram[k] > 0.0) {
        const double peak = (double)window * m->dram_mhz / m->core_mhz * m->dram_channels;
        per_sm = a->dbw[k] / 100.0 * peak / p->cost_dram[k] / m->nsm;
    } else
        return 0;
    const double q = floor(per_sm + 0.5);
    return q < 1.0 ? 1u : q > 1e6 ? 1000000u : (uint32_t)q;
}
