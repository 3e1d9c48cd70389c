/* SPDX-License-Identifier: MIT
 * gpu_observe.c - the timing model's side of model/func/observer.h: after every cycle, the
 * observer of the running launches (co-simulation, sampling studies) sees each resident CTA of
 * every SM at the context-sample cycles (every obs->every cycles; a sample point that falls in
 * skipped idle cycles is taken at the first simulated cycle after it, the state being the same)
 * and at the cycle in which all warps of a CTA were released from a barrier.
 *
 * Design: costs one pointer test per cycle without an observer. All launches of a batch come
 * from one GPU and so carry the same observer. Per CTA slot, the release count already seen and
 * the CTA's start cycle (to tell a new CTA in the slot) live in struct hd_tcta.
 */
#include "gpu_impl.h"
#include "sm_impl.h"

#include "func_status.h"
#include "observer.h"

#include <stdio.h>

int hd_gpu_observe(struct hd_gpu_timing *g, char *err, size_t errlen)
{
    if (g->nl == 0 || !g->L[0]->sl.l->observer)
        return HD_FUNC_OK;
    const struct hd_func_observer *obs = g->L[0]->sl.l->observer;
    bool sample = false;
    if (obs->every) {
        if (g->obs_next == 0)
            g->obs_next = (g->now / obs->every + 1) * obs->every;
        if (g->now >= g->obs_next) {
            sample = true;
            g->obs_next = (g->now / obs->every + 1) * obs->every;
        }
    }
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        struct hd_sm *sm = g->sm[s];
        for (uint32_t i = 0; i < sm->p->max_ctas; i++) {
            struct hd_tcta *c = &sm->cta[i];
            if (!c->used)
                continue;
            struct hd_func_launch *l = c->la->l;
            int st = HD_FUNC_OK;
            if (c->obs_start != c->start + 1) {
                c->obs_start = c->start + 1;
                c->obs_releases = c->fc->bar_releases;
            } else if (c->fc->bar_releases != c->obs_releases) {
                c->obs_releases = c->fc->bar_releases;
                if (obs->barrier)
                    st = obs->barrier(obs->ctx, l, c->fc, g->now);
            }
            if (st == HD_FUNC_OK && sample && obs->sample)
                st = obs->sample(obs->ctx, l, c->fc, g->now);
            if (st != HD_FUNC_OK) {
                snprintf(err, errlen, "%s", l->err);
                return st;
            }
        }
    }
    return HD_FUNC_OK;
}
