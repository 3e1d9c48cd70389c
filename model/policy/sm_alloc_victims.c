/* SPDX-License-Identifier: MIT
 * sm_alloc_victims.c - the baseline victim rule of plan_victims, once (sm_alloc_victims.h):
 * priority order, latest placed first, then pruned to a minimal set (Lin thesis §2.3.1: "the
 * minimum number of TBs"; the partitioned and lin_tables allocators share it).
 */
#include "sm_alloc_victims.h"

#include <string.h>

static bool before(const struct hd_victim_key *a, const struct hd_victim_key *b)
{
    return a->priority != b->priority ? a->priority < b->priority : a->seq > b->seq;
}

static bool listed(const uint32_t *v, uint32_t n, uint32_t c)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == c)
            return true;
    return false;
}

int hd_alloc_victims_complete(uint32_t nctas, const struct hd_cta_demand *d,
                              const struct hd_victim_ops *o, uint32_t *cand, uint32_t *victims,
                              uint32_t n)
{
    bool ok = o->fits(o->ctx, d);
    if (!ok) {
        struct hd_victim_key kc, kp;
        uint32_t nc = 0;
        for (uint32_t c = 0; c < nctas; c++) {
            if (!o->key(o->ctx, c, &kc) || kc.launch == d->launch || kc.priority >= d->priority ||
                listed(victims, n, c))
                continue;
            uint32_t i = nc++; /* insertion sort: at most nctas entries */
            while (i > 0 && o->key(o->ctx, cand[i - 1], &kp) && before(&kc, &kp)) {
                cand[i] = cand[i - 1];
                i--;
            }
            cand[i] = c;
        }
        for (uint32_t i = 0; i < nc && !ok; i++) {
            o->mark(o->ctx, cand[i], true);
            victims[n++] = cand[i];
            ok = o->fits(o->ctx, d);
        }
        if (!ok) {
            for (uint32_t i = 0; i < nc; i++)
                o->mark(o->ctx, cand[i], false);
            return -1;
        }
    }
    for (uint32_t i = n; i-- > 0;) { /* minimality: give back every victim not needed */
        o->mark(o->ctx, victims[i], false);
        if (o->fits(o->ctx, d)) {
            memmove(&victims[i], &victims[i + 1], (n - i - 1) * sizeof *victims);
            n--;
        } else {
            o->mark(o->ctx, victims[i], true);
        }
    }
    return (int)n;
}
