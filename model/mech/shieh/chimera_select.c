/* SPDX-License-Identifier: MIT
 * chimera_select.c - the Chimera baseline's per-SM technique choice and SM order
 * (chimera_select.h).
 */
#include "chimera_select.h"

#include "shieh_select.h"

#include <math.h>

void hd_chimera_plan_sm(const struct hd_shieh_cost *cost, const bool *present, unsigned n,
                        double ipc_avg, uint64_t budget, unsigned *tech, struct hd_chimera_sm *out)
{
    uint64_t l_sm = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!present[i])
            continue;
        tech[i] = hd_shieh_choose_tech(&cost[i], budget);
        if (cost[i].lat[tech[i]] > l_sm)
            l_sm = cost[i].lat[tech[i]];
    }
    *out = (struct hd_chimera_sm){0};
    for (unsigned i = 0; i < n; i++) {
        if (!present[i])
            continue;
        struct hd_shieh_cost c = cost[i];
        uint64_t ld = c.lat[HD_SHIEH_DRAIN];
        if (ld < HD_SHIEH_INF) {
            double idle = ipc_avg * (double)(l_sm > ld ? l_sm - ld : 0);
            c.ovh[HD_SHIEH_DRAIN] = idle >= (double)HD_SHIEH_INF ? HD_SHIEH_INF
                                                                 : (uint64_t)floor(idle + 0.5);
        }
        tech[i] = hd_shieh_choose_tech(&c, budget < l_sm ? budget : l_sm);
        if (c.lat[tech[i]] > l_sm) /* nothing within L_SM: keep the first choice */
            tech[i] = hd_shieh_choose_tech(&cost[i], budget);
        if (c.lat[tech[i]] > out->lat)
            out->lat = c.lat[tech[i]];
        out->ovh += c.ovh[tech[i]];
    }
    out->meets = out->lat <= budget;
}

static bool sm_before(const struct hd_chimera_sm *a, unsigned ia, const struct hd_chimera_sm *b,
                      unsigned ib)
{
    if (a->meets != b->meets)
        return a->meets;
    uint64_t pa = a->meets ? a->ovh : a->lat, pb = b->meets ? b->ovh : b->lat;
    uint64_t sa = a->meets ? a->lat : a->ovh, sb = b->meets ? b->lat : b->ovh;
    return pa != pb ? pa < pb : sa != sb ? sa < sb : ia < ib;
}

void hd_chimera_order_sms(const struct hd_chimera_sm *sms, unsigned nsms, unsigned *order)
{
    for (unsigned i = 0; i < nsms; i++) { /* insertion sort: at most a few dozen SMs */
        unsigned j = i;
        while (j > 0 && sm_before(&sms[i], i, &sms[order[j - 1]], order[j - 1])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}
