/* SPDX-License-Identifier: MIT
 * shieh_select.c - Algorithm 1: technique per TB and final victim (shieh_select.h).
 */
#include "shieh_select.h"

uint64_t hd_shieh_budget(uint64_t l_c, uint64_t t_req, uint64_t now)
{
    uint64_t spent = now > t_req ? now - t_req : 0;
    return spent < l_c ? l_c - spent : 0;
}

/* Is (la, oa) better than (lb, ob), ordering by the primary key first? Technique order breaks
 * the last tie (the caller scans drain, flush, switch and keeps the first best). */
static bool better(uint64_t pa, uint64_t sa, uint64_t pb, uint64_t sb)
{
    return pa < pb || (pa == pb && sa < sb);
}

unsigned hd_shieh_choose_tech(const struct hd_shieh_cost *c, uint64_t budget)
{
    int best = -1;
    for (unsigned t = 0; t < HD_SHIEH_NTECH; t++) /* meets the budget: least overhead */
        if (c->allowed[t] && c->lat[t] <= budget &&
            (best < 0 || better(c->ovh[t], c->lat[t], c->ovh[best], c->lat[best])))
            best = (int)t;
    if (best >= 0)
        return (unsigned)best;
    for (unsigned t = 0; t < HD_SHIEH_NTECH; t++) /* none does: least latency */
        if (c->allowed[t] &&
            (best < 0 || better(c->lat[t], c->ovh[t], c->lat[best], c->ovh[best])))
            best = (int)t;
    return best < 0 ? HD_SHIEH_SWITCH : (unsigned)best;
}

void hd_shieh_select(const uint64_t *cand, uint64_t valid, uint32_t k,
                     const struct hd_shieh_cost *cost, const unsigned *tech, uint64_t budget,
                     struct hd_shieh_pick *out)
{
    *out = (struct hd_shieh_pick){.cand = -1};
    int best_ok = -1, best_any = -1;
    uint64_t ok_l = 0, ok_o = 0, any_l = 0, any_o = 0;
    for (uint32_t p = 0; p < k && p < HD_SHIEH_MAX_POS; p++) {
        if (!((valid >> p) & 1u))
            continue;
        uint64_t l = 0, o = 0;
        for (unsigned j = 0; j < HD_SHIEH_MAX_TBS; j++) {
            if (!((cand[p] >> j) & 1u))
                continue;
            unsigned t = tech[j];
            if (cost[j].lat[t] > l)
                l = cost[j].lat[t];
            o += cost[j].ovh[t];
        }
        if (l <= budget && (best_ok < 0 || better(o, l, ok_o, ok_l))) {
            best_ok = (int)p;
            ok_l = l;
            ok_o = o;
        }
        if (best_any < 0 || better(l, o, any_l, any_o)) {
            best_any = (int)p;
            any_l = l;
            any_o = o;
        }
    }
    int pick = best_ok >= 0 ? best_ok : best_any;
    if (pick < 0)
        return;
    out->cand = pick;
    out->meets = best_ok >= 0;
    out->lat = best_ok >= 0 ? ok_l : any_l;
    out->ovh = best_ok >= 0 ? ok_o : any_o;
    out->victims = cand[pick];
}
