/* SPDX-License-Identifier: MIT
 * shieh_cost.c - preemption cost estimation (shieh_cost.h).
 */
#include "shieh_cost.h"

#include <math.h>

void hd_shieh_kstats_add(struct hd_shieh_kstats *k, uint64_t instrs, uint64_t cycles)
{
    k->n++;
    k->sum_instr += (double)instrs;
    k->sum_cycles += (double)cycles;
    if (instrs > 0) {
        double cpi = (double)cycles / (double)instrs;
        k->sum_cpi += cpi;
        k->sum_cpi2 += cpi * cpi;
        k->n_cpi++;
    }
}

/* A double of cycles or instructions as a saturating integer, rounded up / to nearest. */
static uint64_t sat_ceil(double x)
{
    if (!(x >= 0.0))
        return 0;
    return x >= (double)HD_SHIEH_INF ? HD_SHIEH_INF : (uint64_t)ceil(x);
}

static uint64_t sat_round(double x)
{
    if (!(x >= 0.0))
        return 0;
    return x >= (double)HD_SHIEH_INF ? HD_SHIEH_INF : (uint64_t)floor(x + 0.5);
}

void hd_shieh_predict(const struct hd_shieh_kstats *k, const struct hd_shieh_tb *tbs, unsigned ntbs,
                      uint64_t now, struct hd_shieh_pred *p)
{
    *p = (struct hd_shieh_pred){0};
    p->have_fin = k->n > 0 && k->n_cpi > 0;
    if (k->n > 0) {
        p->ibar = k->sum_instr / (double)k->n;
        p->tbar = k->sum_cycles / (double)k->n;
    }
    if (k->n_cpi > 0) {
        p->cpi_fin = k->sum_cpi / (double)k->n_cpi;
        double m2 = k->sum_cpi2 / (double)k->n_cpi - p->cpi_fin * p->cpi_fin;
        p->var_fin = m2 > 0.0 ? m2 : 0.0;
    }
    double s = 0.0, s2 = 0.0, ipc = 0.0;
    unsigned n = 0, nipc = 0;
    for (unsigned i = 0; i < ntbs; i++) {
        const struct hd_shieh_tb *t = &tbs[i];
        if (!t->valid)
            continue;
        double age = now > t->issue ? (double)(now - t->issue) : 0.0;
        if (age > 0.0) {
            ipc += (double)t->instrs / age;
            nipc++;
        }
        if (t->instrs > 0) {
            double cpi = age / (double)t->instrs;
            s += cpi;
            s2 += cpi * cpi;
            n++;
        }
    }
    p->ipc_avg = nipc ? ipc / (double)nipc : 0.0;
    if (n > 0) {
        double m = s / (double)n, v = s2 / (double)n - m * m;
        p->var_run = v > 0.0 ? v : 0.0;
    }
    p->use_own = n >= 2 && k->n_cpi >= 2 && p->var_run < p->var_fin;
}

uint64_t hd_shieh_switch_latency(uint64_t ctx_bytes, double bytes_per_cycle)
{
    if (!(bytes_per_cycle > 0.0))
        return HD_SHIEH_INF;
    return sat_ceil((double)ctx_bytes / bytes_per_cycle);
}

uint64_t hd_shieh_drain_latency(const struct hd_shieh_pred *p, const struct hd_shieh_tb *t,
                                uint64_t now)
{
    if (!p->have_fin)
        return HD_SHIEH_INF;
    double cpi = p->cpi_fin;
    if (p->use_own) {
        if (t->instrs == 0 || now <= t->issue)
            return HD_SHIEH_INF;
        cpi = (double)(now - t->issue) / (double)t->instrs;
    }
    double left = p->ibar - (double)t->instrs;
    return sat_ceil((left > 0.0 ? left : 0.0) * cpi);
}

uint64_t hd_chimera_drain_latency(const struct hd_shieh_pred *p, const struct hd_shieh_tb *t,
                                  uint64_t now)
{
    if (p->tbar <= 0.0)
        return HD_SHIEH_INF;
    double age = now > t->issue ? (double)(now - t->issue) : 0.0;
    double left = p->tbar - age;
    return sat_ceil(left > 0.0 ? left : 0.0);
}

void hd_shieh_cost_tb(const struct hd_shieh_pred *p, const struct hd_shieh_tb *t, uint64_t now,
                      uint64_t l_cs, struct hd_shieh_cost *c)
{
    c->lat[HD_SHIEH_DRAIN] = hd_shieh_drain_latency(p, t, now);
    c->ovh[HD_SHIEH_DRAIN] = c->lat[HD_SHIEH_DRAIN] == HD_SHIEH_INF ? HD_SHIEH_INF : 0;
    c->allowed[HD_SHIEH_DRAIN] = true;
    c->lat[HD_SHIEH_FLUSH] = 0;
    c->ovh[HD_SHIEH_FLUSH] = t->instrs;
    c->allowed[HD_SHIEH_FLUSH] = t->flushable;
    c->lat[HD_SHIEH_SWITCH] = l_cs;
    c->ovh[HD_SHIEH_SWITCH] =
        l_cs >= HD_SHIEH_INF ? HD_SHIEH_INF : sat_round(p->ipc_avg * 2.0 * (double)l_cs);
    c->allowed[HD_SHIEH_SWITCH] = true;
}
