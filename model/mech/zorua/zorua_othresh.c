/* SPDX-License-Identifier: MIT
 * zorua_othresh.c - Algorithm 1 of Zorua (zorua_othresh.h; Sec. 3.5, Table 1).
 */
#include "zorua_othresh.h"

void zoth_init(struct zoth *o, double o_default, double step, double max, uint64_t delta_thresh,
               uint64_t epoch)
{
    *o = (struct zoth){0};
    o->pct = o_default < max ? o_default : max;
    o->step = step;
    o->max = max;
    o->delta_thresh = delta_thresh;
    o->epoch = epoch ? epoch : 1;
    o->next = o->epoch;
}

bool zoth_update(struct zoth *o, uint64_t now, uint64_t c_idle, uint64_t c_mem)
{
    if (now < o->next)
        return false;
    const int64_t di = (int64_t)(c_idle - o->idle_prev), dm = (int64_t)(c_mem - o->mem_prev);
    const double before = o->pct;
    if (di - dm > (int64_t)o->delta_thresh) { /* more idleness: more TLP helps */
        o->pct += o->step;
        o->ups++;
    }
    if (dm - di > (int64_t)o->delta_thresh) { /* memory pressure: back off */
        o->pct -= o->step;
        o->downs++;
    }
    if (o->pct > o->max)
        o->pct = o->max;
    if (o->pct < 0)
        o->pct = 0;
    o->idle_prev = c_idle;
    o->mem_prev = c_mem;
    o->epochs++;
    o->next = (now / o->epoch + 1) * o->epoch;
    return o->pct != before;
}

uint32_t zoth_limit(const struct zoth *o, uint32_t units)
{
    return (uint32_t)(o->pct * units / 100.0);
}
