/* SPDX-License-Identifier: MIT
 * zorua_othresh.c - Algorithm 1 of Zorua as the zorua_coord block counts it (zorua_othresh.h;
 * Sec. 3.5, Table 1).
 */
#include "zorua_othresh.h"

#include "zorua_coord.h"

void zoth_init(struct zoth *o, uint32_t o_default, uint32_t step, uint32_t max, uint32_t delta,
               uint32_t epoch)
{
    *o = (struct zoth){0};
    o->pct = o_default < max ? o_default : max;
    o->step = step;
    o->max = max;
    o->delta = delta;
    o->epoch = epoch ? epoch : 1;
}

void zoth_step(struct zoth *o, bool active, bool idle, bool mem, bool *ep_v, uint32_t *ep_pct)
{
    *ep_v = o->ep_v;
    *ep_pct = o->ep_pct;
    o->ep_v = false;
    o->ep_pct = 0;
    if (!active)
        return;
    if (o->ecnt != o->epoch - 1u) {
        o->ecnt++;
        o->cidle += idle;
        o->cmem += mem;
        return;
    }
    const uint32_t ci = o->cidle + idle, cm = o->cmem + mem;
    const uint32_t pct = hd_zorua_coord_alg1(o->pct, (int32_t)ci - (int32_t)o->pidle,
                                             (int32_t)cm - (int32_t)o->pmem, o->step, o->max,
                                             o->delta);
    o->ups += pct > o->pct;
    o->downs += pct < o->pct;
    o->epochs++;
    o->pct = pct;
    o->pidle = ci;
    o->pmem = cm;
    o->cidle = o->cmem = 0;
    o->ecnt = 0;
    o->ep_v = true;
    o->ep_pct = pct;
}

uint32_t zoth_limit(uint32_t pct, uint32_t units)
{
    return (uint32_t)((uint64_t)pct * units / 100u);
}
