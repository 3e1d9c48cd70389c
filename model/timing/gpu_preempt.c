/* SPDX-License-Identifier: MIT
 * gpu_preempt.c - preemption requests: when a launch of higher priority has arrived and no SM
 * can take its CTAs, SMs that hold only CTAs of lower-priority launches are reserved for it and
 * freed with the configured primitive ([context] preempt; Shieh §2.1, Lin §2.2): `switch` saves
 * every resident CTA (the context lifecycle, sm_ctx.c), `drain` places no more lower-priority
 * CTAs there and waits for the resident ones, `flush` drops the CTAs whose flush bit allows a
 * restart (a CTA that wrote global memory is refused and drains instead). A reservation keeps
 * lower-priority CTAs (fresh or resumed) off the SM until the launch has placed every CTA.
 * Each request is recorded (timing_stats.h): its signal, the cycle the SM took the first CTA of
 * the launch, and whether that met the launch's preemption-latency constraint.
 */
#include "gpu_impl.h"

#include <stdlib.h>
#include <string.h>

static struct hd_preempt_rec *new_rec(struct hd_timing_stats *s)
{
    if (s->npreempt == s->cap_preempt) {
        uint32_t ncap = s->cap_preempt ? s->cap_preempt * 2 : 16;
        struct hd_preempt_rec *r = realloc(s->preempt, ncap * sizeof *r);
        if (!r)
            return NULL;
        s->preempt = r;
        s->cap_preempt = ncap;
    }
    struct hd_preempt_rec *r = &s->preempt[s->npreempt++];
    memset(r, 0, sizeof *r);
    return r;
}

/* Does SM s hold a CTA of a launch with priority >= prio (or one being restored)? */
static bool holds_equal_or_higher(const struct hd_gpu_timing *g, uint32_t s, int32_t prio)
{
    for (unsigned i = g->first_unfinished; i < g->nl; i++) {
        const struct tlaunch *t = &g->L[i];
        if (t->started && !t->finished && t->sl.l->attr.priority >= prio &&
            hd_sm_holds_launch(g->sm[s], &t->sl))
            return true;
    }
    return false;
}

/* The first lower-priority launch with a CTA on SM s (its id), or UINT32_MAX. */
static uint32_t victim_on(const struct hd_gpu_timing *g, uint32_t s)
{
    for (unsigned i = g->first_unfinished; i < g->nl; i++)
        if (!g->L[i].finished && hd_sm_holds_launch(g->sm[s], &g->L[i].sl))
            return g->L[i].sl.id;
    return UINT32_MAX;
}

void hd_gpu_preempt_for(struct hd_gpu_timing *g, unsigned li)
{
    const enum hd_cfg_preempt prim = g->p.ctx.preempt;
    struct tlaunch *t = &g->L[li];
    if (prim == HD_PREEMPT_NONE)
        return;
    /* SMs it needs: its CTAs still to place over its occupancy, minus SMs already reserved */
    const uint64_t left = t->nctas - t->next_cta + t->sl.ctxs.q_len;
    const uint32_t per_sm = t->sl.info->ctas_per_sm ? t->sl.info->ctas_per_sm : 1;
    uint64_t need = (left + per_sm - 1) / per_sm;
    for (uint32_t s = 0; s < g->p.num_sms && need; s++)
        if (g->reserved[s] == li)
            need--;
    const int32_t prio = t->sl.l->attr.priority;
    const uint64_t bound = t->sl.l->attr.latency_bound ? t->sl.l->attr.latency_bound
                                                        : g->p.ctx.latency_bound;
    for (uint32_t s = 0; s < g->p.num_sms && need; s++) {
        if (g->reserved[s] != HD_RESERVED_NONE || holds_equal_or_higher(g, s, prio))
            continue;
        const uint32_t victim = victim_on(g, s);
        if (victim == UINT32_MAX)
            continue; /* free already: the launch will take it */
        struct hd_preempt_rec *r = new_rec(&g->stats);
        if (!r)
            return;
        g->reserved[s] = li;
        need--;
        r->launch = t->sl.id;
        r->victim = victim;
        r->sm = s;
        r->primitive = (uint8_t)prim;
        r->signal = g->now;
        r->bound = bound;
        hd_gpu_wake_sm(g, s);
        if (prim == HD_PREEMPT_DRAIN)
            continue;
        const uint32_t ri = g->stats.npreempt - 1;
        for (uint32_t c = 0; c < g->p.sm.max_ctas; c++) {
            struct hd_ctx *x = hd_sm_cta_ctx(g->sm[s], c);
            if (!x)
                continue;
            bool ok = hd_sm_cta_suspend(g->sm[s], c,
                                        prim == HD_PREEMPT_FLUSH ? HD_CTXOP_FLUSH : HD_CTXOP_SWITCH,
                                        g->now);
            r->refused += !ok && prim == HD_PREEMPT_FLUSH;
            if (ok)
                x->preq = ri;
        }
    }
}

bool hd_gpu_reserved_against(const struct hd_gpu_timing *g, uint32_t s, unsigned li)
{
    return g->reserved[s] != HD_RESERVED_NONE && g->reserved[s] != li;
}

void hd_gpu_preempt_placed(struct hd_gpu_timing *g, uint32_t s, unsigned li)
{
    if (g->reserved[s] != li)
        return;
    struct hd_timing_stats *st = &g->stats;
    for (uint32_t i = st->npreempt; i-- > 0;) {
        struct hd_preempt_rec *r = &st->preempt[i];
        if (r->sm == s && r->launch == g->L[li].sl.id && !r->met) {
            r->met = true;
            r->freed = g->now;
            r->missed |= r->bound && g->now - r->signal > r->bound;
            break;
        }
    }
}

void hd_gpu_preempt_tick(struct hd_gpu_timing *g)
{
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        const unsigned li = g->reserved[s];
        if (li == HD_RESERVED_NONE)
            continue;
        const struct tlaunch *t = &g->L[li];
        if (t->finished || (t->next_cta >= t->nctas && t->sl.ctxs.q_len == 0)) {
            g->reserved[s] = HD_RESERVED_NONE; /* it has placed everything: others may return */
            g->dirty = true;
        }
    }
    struct hd_timing_stats *st = &g->stats;
    for (uint32_t i = 0; i < st->npreempt; i++) {
        struct hd_preempt_rec *r = &st->preempt[i];
        if (!r->met && !r->missed && r->bound && g->now - r->signal > r->bound)
            r->missed = true;
    }
}
