/* SPDX-License-Identifier: MIT
 * power_model.c - energies of event counts (power_model.h).
 */
#include "power_model.h"

#include <string.h>

static void totals(struct hd_power_energy *e)
{
    e->dynamic_j = e->static_j = e->total_j = 0;
    for (unsigned c = 0; c < HD_PC_COUNT; c++) {
        e->total_j += e->comp[c];
        e->static_j += e->comp_static[c];
    }
    e->dynamic_j = e->total_j - e->static_j;
}

void hd_power_energy_compute(const struct hd_power_params *p, const struct hd_power_events *ev,
                             double seconds, struct hd_power_energy *e)
{
    memset(e, 0, sizeof *e);
    for (unsigned i = 0; i < p->nterms; i++) {
        const struct hd_power_term *t = &p->term[i];
        const double j = ev->n[t->event] * t->joules;
        e->comp[t->comp] += j;
        if (t->is_static)
            e->comp_static[t->comp] += j;
    }
    e->seconds = seconds;
    totals(e);
}

double hd_power_watts(const struct hd_power_energy *e, unsigned c)
{
    if (e->seconds <= 0)
        return 0.0;
    return (c < HD_PC_COUNT ? e->comp[c] : e->total_j) / e->seconds;
}

void hd_power_energy_sub(const struct hd_power_energy *a, const struct hd_power_energy *b,
                         struct hd_power_energy *e)
{
    struct hd_power_energy r = *a;
    for (unsigned c = 0; c < HD_PC_COUNT; c++) {
        r.comp[c] -= b->comp[c];
        r.comp_static[c] -= b->comp_static[c];
    }
    totals(&r);
    *e = r;
}

void hd_power_energy_add(struct hd_power_energy *e, const struct hd_power_energy *a)
{
    for (unsigned c = 0; c < HD_PC_COUNT; c++) {
        e->comp[c] += a->comp[c];
        e->comp_static[c] += a->comp_static[c];
    }
    totals(e);
}
