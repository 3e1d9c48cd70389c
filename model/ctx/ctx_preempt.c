/* SPDX-License-Identifier: MIT
 * ctx_preempt.c - preemption requests: when a launch of higher priority has arrived and no SM
 * can take its CTAs, the preemption policy ([context] preempt_policy, preempt_policy.h) chooses
 * SMs and, on each, which resident CTAs leave and how: switched out (the context lifecycle,
 * ctx_engine.c), drained (left to finish) or flushed (dropped and restarted later; a CTA that wrote
 * global memory is refused and drains instead; Shieh §2.1, Lin §2.2). A chosen SM is reserved:
 * it takes no lower-priority CTA (fresh or resumed) until the launch has placed every CTA.
 * Preemption signals ([context] signals / signal_at / signal_period; Lin L1052-L1057: one every
 * 10,000 cycles) free SMs the same way without a launch asking: the SM takes nothing until its
 * CTAs are gone, then they resume; [context] signal_kernel restricts them to SMs holding only
 * CTAs of one kernel (Lin measures each Table 2.2 kernel on its own).
 * Each request is recorded per SM (timing_stats.h): its signal, the cycle the SM took the
 * launch's first CTA (or emptied, for a signal), the victims' quiet and saved cycles, how many
 * CTAs left each way, the bytes saved, and whether the latency constraint was met; the SM's
 * utilisation from the request to that placement (the registers and threads of its running
 * CTAs, integrated per cycle: Shieh Fig 4.4); and per drained CTA the policy's drain estimates
 * by both estimators beside its true drain time (Shieh Fig 4.2).
 */
#include "gpu_impl.h"

#include "sm_policy.h"

#include <stdlib.h>
#include <string.h>

#define HD_RESERVED_SIGNAL (UINT32_MAX - 1)

/* Reserve SM s for launch index li (or a signal): only hd_gpu_preempt_tick releases it, so it
 * must run while any SM is reserved, whether or not a preemption record was made (issue 24: a
 * [context] preempt_hold_all hold of SMs the launch found room on makes none). */
static void reserve(struct hd_gpu_timing *g, uint32_t s, unsigned li)
{
    g->reserved[s] = li;
    g->held |= li != HD_RESERVED_NONE;
}

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

int hd_gpu_preempt_init(struct hd_gpu_timing *g, char *err, size_t errlen)
{
    const size_t nsms = g->p.num_sms, mc = g->p.sm.max_ctas;
    g->pview = calloc(nsms, sizeof *g->pview);
    g->pcta = calloc(nsms * mc, sizeof *g->pcta);
    g->pchosen = calloc(nsms, sizeof *g->pchosen);
    g->pact = calloc(nsms * mc, 1);
    g->sig_rec = calloc(nsms, sizeof *g->sig_rec);
    g->pest = calloc(nsms * mc * 2, sizeof *g->pest);
    if (!g->pview || !g->pcta || !g->pchosen || !g->pact || !g->sig_rec || !g->pest) {
        snprintf(err, errlen, "host out of memory creating the timing model");
        return -1;
    }
    if (hd_preempt_policy_create(&g->p, &g->hw, &g->ppol, &g->ppol_mech, err, errlen) != 0)
        return -1;
    return 0;
}

void hd_gpu_preempt_free(struct hd_gpu_timing *g)
{
    if (g->ppol.ops)
        g->ppol.ops->destroy(g->ppol.impl);
    free(g->pview);
    free(g->pcta);
    free(g->pchosen);
    free(g->pact);
    free(g->sig_rec);
    free(g->pest);
}

static int plan_victims(void *gpu, uint32_t sm, const struct hd_cta_demand *d, uint32_t *slots)
{
    struct hd_gpu_timing *g = gpu;
    return hd_sm_plan_victims(g->sm[sm], d, slots);
}

static int plan_room(void *gpu, uint32_t sm, const struct hd_cta_demand *d, uint32_t n,
                     uint32_t *slots, uint8_t *parts)
{
    struct hd_gpu_timing *g = gpu;
    /* Lin 2.5.5: every allowed CTA stops and leaves its slots; the tables name the victims */
    return hd_sm_plan_room(g->sm[sm], d, n | (g->p.ctx.inplace_stop ? HD_ALLOC_ROOM_STOP : 0),
                           slots, parts);
}

/* CTA x drains for request ri: time it (est: the policy's two estimates, or NULL). */
static void observe_drain(struct hd_gpu_timing *g, const struct hd_ctx *x, uint32_t ri,
                          const uint64_t *est)
{
    struct hd_timing_stats *s = &g->stats;
    if (s->ndobs == s->cap_dobs) {
        const uint32_t n = s->cap_dobs ? 2 * s->cap_dobs : 64;
        struct hd_drain_obs *d = realloc(s->dobs, n * sizeof *d);
        if (!d)
            return; /* (an observation less; the run goes on) */
        s->dobs = d;
        s->cap_dobs = n;
    }
    s->dobs[s->ndobs++] = (struct hd_drain_obs){ri, x->id, x->epoch, g->now, x->t_left,
                                                est ? est[0] : HD_DRAIN_EST_NONE,
                                                est ? est[1] : HD_DRAIN_EST_NONE,
                                                HD_DRAIN_EST_NONE};
}

/* Ask CTA slot c of SM s to leave with action a for request ri; counts it in r. est: the
 * policy's drain estimates of the CTA (two, preempt_policy.h) or NULL. */
static void apply(struct hd_gpu_timing *g, uint32_t s, uint32_t c, uint8_t a,
                  struct hd_preempt_rec *r, uint32_t ri, const uint64_t *est)
{
    struct hd_ctx *x = hd_sm_cta_ctx(g->sm[s], c);
    if (!x || x->state != HD_CTX_RESIDENT || a == HD_PACT_KEEP)
        return;
    r->victim_instrs += x->insts;
    r->asked++;
    r->asked_estimated += est && est[0] < HD_DRAIN_EST_MAX;
    if (a == HD_PACT_DRAIN) {
        r->drained++;
        observe_drain(g, x, ri, est);
        return;
    }
    const enum hd_ctx_op op = a == HD_PACT_FLUSH ? HD_CTXOP_FLUSH : HD_CTXOP_SWITCH;
    x->preq = ri; /* (also when refused: a signal does not ask again) */
    x->keep_smem = a == HD_PACT_SWITCH_REGS || a == HD_PACT_SWITCH_STAY; /* Lin Fig 2.4 */
    x->keep_regs = a == HD_PACT_SWITCH_STAY; /* Lin 2.5.5: its save writes its stacks only */
    if (!hd_sm_cta_suspend(g->sm[s], c, op, g->now)) {
        x->keep_smem = x->keep_regs = false;
        r->refused++;
        r->drained++;
        observe_drain(g, x, ri, est);
        return;
    }
    if (op == HD_CTXOP_FLUSH) {
        r->flushed++;
        r->flushed_instrs += x->insts;
    } else {
        r->switched++;
        r->switch_ipc += g->now > x->t_first ? (double)x->insts / (double)(g->now - x->t_first) : 0;
    }
}

/* The record's primitive: the one way its CTAs were asked to leave, or mixed (none asked:
 * the configured one). */
static uint8_t summary(const struct hd_preempt_rec *r, enum hd_cfg_preempt configured)
{
    const unsigned kinds =
        !!r->switched + !!(r->flushed || r->refused) + !!(r->drained - r->refused);
    if (kinds > 1)
        return HD_PREEMPT_MIXED;
    return kinds == 0                 ? (uint8_t)configured
           : r->switched              ? HD_PREEMPT_SWITCH
           : r->flushed || r->refused ? HD_PREEMPT_FLUSH
                                      : HD_PREEMPT_DRAIN;
}

/* The first launch with a CTA on SM s other than `asker` (its id), or UINT32_MAX. */
static uint32_t victim_on(const struct hd_gpu_timing *g, uint32_t s, unsigned asker)
{
    for (unsigned i = g->first_unfinished; i < g->nl; i++)
        if (i != asker && !g->L[i]->finished && hd_sm_holds_launch(g->sm[s], &g->L[i]->sl))
            return g->L[i]->sl.id;
    return UINT32_MAX;
}

/* The fractions of SM s's registers and threads its running CTAs hold now. */
static void working(const struct hd_gpu_timing *g, uint32_t s, double *regs, double *threads)
{
    uint64_t r, t;
    hd_sm_working(g->sm[s], &r, &t);
    *regs = g->p.sm.registers ? (double)r / (double)g->p.sm.registers : 0.0;
    *threads = g->p.sm.max_threads ? (double)t / (double)g->p.sm.max_threads : 0.0;
}

/* Integrate record r's utilisation up to cycle now (the fractions held since its last step). */
static void util_step(struct hd_gpu_timing *g, struct hd_preempt_rec *r)
{
    if (!r->util_open || g->now <= r->util_last)
        return;
    const uint64_t dt = g->now - r->util_last;
    r->util_cycles += dt;
    r->util_regs += r->util_cur_regs * (double)dt;
    r->util_threads += r->util_cur_threads * (double)dt;
    r->util_last = g->now;
}

/* One record for SM s, with the actions in act applied (est: the policy's drain estimates per
 * CTA slot, two each, or NULL); returns its index (or UINT32_MAX). */
static uint32_t request(struct hd_gpu_timing *g, uint32_t s, uint32_t launch, unsigned asker,
                    const uint8_t *act, uint64_t bound, const uint64_t *est)
{
    struct hd_preempt_rec *r = new_rec(&g->stats);
    if (!r)
        return UINT32_MAX;
    const uint32_t ri = g->stats.npreempt - 1;
    r->launch = launch;
    r->victim = victim_on(g, s, asker);
    r->sm = s;
    r->signal = g->now;
    r->bound = bound;
    hd_gpu_wake_sm(g, s);
    working(g, s, &r->regs_at_signal, &r->threads_at_signal);
    for (uint32_t c = 0; c < g->p.sm.max_ctas; c++) {
        const struct hd_ctx *x = hd_sm_cta_ctx(g->sm[s], c);
        r->ctas_at_signal += x && x->state == HD_CTX_RESIDENT &&
                             (asker == UINT32_MAX || x->la != &g->L[asker]->sl);
    }
    for (uint32_t c = 0; c < g->p.sm.max_ctas; c++)
        apply(g, s, c, act[c], r, ri, est ? &est[2 * c] : NULL);
    r->primitive = summary(r, g->p.ctx.preempt);
    r->util_open = true;
    r->util_last = g->now;
    working(g, s, &r->util_cur_regs, &r->util_cur_threads);
    return ri;
}

/* {==== Requests of launches of higher priority ==== */
static void view_sms(struct hd_gpu_timing *g, unsigned li)
{
    const struct tlaunch *t = g->L[li];
    const int32_t prio = t->sl.l->attr.priority;
    const uint32_t mc = g->p.sm.max_ctas;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        struct hd_preempt_sm *v = &g->pview[s];
        struct hd_preempt_cta *ctas = &g->pcta[(size_t)s * mc];
        memset(v, 0, sizeof *v);
        v->sm = s;
        v->reserved = g->reserved[s] != HD_RESERVED_NONE && g->reserved[s] != li;
        v->reserved_for_asker = g->reserved[s] == li;
        v->ncta = hd_sm_preempt_view(g->sm[s], ctas);
        v->cta = ctas;
        for (uint32_t c = 0; c < v->ncta; c++) {
            v->holds_asker |= ctas[c].launch == t->sl.id;
            v->holds_higher |= ctas[c].launch != t->sl.id && ctas[c].priority >= prio;
        }
        /* (hd_sm_holds_launch also sees contexts that hold no CTA slot yet) */
        for (unsigned i = g->first_unfinished; i < g->nl; i++) {
            const struct tlaunch *o = g->L[i];
            if (!o->started || o->finished || !hd_sm_holds_launch(g->sm[s], &o->sl))
                continue;
            v->holds_asker |= i == li;
            v->holds_higher |= i != li && o->sl.l->attr.priority >= prio;
        }
        hd_sm_alloc_usage(g->sm[s], &v->used);
    }
}

void hd_gpu_preempt_for(struct hd_gpu_timing *g, unsigned li)
{
    struct tlaunch *t = g->L[li];
    if (g->p.ctx.preempt == HD_PREEMPT_NONE)
        return;
    const uint64_t left = t->nctas - t->next_cta + t->sl.ctxs.q_len;
    const uint32_t per_sm = t->sl.info->ctas_per_sm ? t->sl.info->ctas_per_sm : 1;
    uint64_t need = (left + per_sm - 1) / per_sm; /* SMs, minus the ones reserved for it */
    if (g->p.ctx.preempt_sms == HD_PREEMPTSMS_STANDALONE) /* one per CTA, as alone (round robin) */
        need = left < g->p.num_sms ? left : g->p.num_sms;
    else if (g->p.ctx.preempt_sms == HD_PREEMPTSMS_ALL)
        need = g->p.num_sms;
    for (uint32_t s = 0; s < g->p.num_sms && need; s++)
        if (g->reserved[s] == li)
            need--;
    const uint64_t bound = t->sl.l->attr.latency_bound ? t->sl.l->attr.latency_bound
                                                        : g->p.ctx.latency_bound;
    const struct hd_preempt_need nd = {
        t->sl.id, t->sl.l->attr.priority, t->sl.demand, left, per_sm,
        need > UINT32_MAX ? UINT32_MAX : (uint32_t)need, bound, g->now};
    if (g->p.ctx.preempt_hold && g->p.ctx.preempt_hold_all) /* its SMs stay its own */
        for (uint32_t s = 0; s < g->p.num_sms; s++)
            if (g->reserved[s] == HD_RESERVED_NONE && hd_sm_holds_launch(g->sm[s], &t->sl))
                reserve(g, s, li);
    view_sms(g, li);
    const uint32_t mc = g->p.sm.max_ctas;
    memset(g->pact, HD_PACT_KEEP, (size_t)g->p.num_sms * mc);
    for (size_t i = 0; i < (size_t)g->p.num_sms * mc * 2; i++)
        g->pest[i] = HD_DRAIN_EST_NONE;
    const struct hd_preempt_env env = {g, plan_victims, mc, g->p.sm.concurrent_kernels, g->ppol_tables,
                                       g->pest, g->p.ctx.inplace_split ? plan_room : NULL};
    const unsigned n =
        g->ppol.ops->plan(g->ppol.impl, &nd, g->pview, g->p.num_sms, &env, g->pchosen, g->pact);
    for (unsigned k = 0; k < n; k++) {
        const uint32_t s = g->pchosen[k];
        if (s >= g->p.num_sms || (g->reserved[s] != HD_RESERVED_NONE && g->reserved[s] != li))
            continue; /* (a policy cannot take an SM reserved for another request) */
        reserve(g, s, li);
        request(g, s, t->sl.id, li, &g->pact[(size_t)s * mc], bound, &g->pest[(size_t)s * mc * 2]);
    }
}

bool hd_gpu_reserved_against(const struct hd_gpu_timing *g, uint32_t s, unsigned li)
{
    return g->reserved[s] != HD_RESERVED_NONE && g->reserved[s] != li;
}

void hd_gpu_preempt_placed(struct hd_gpu_timing *g, uint32_t s, unsigned li)
{
    if (g->reserved[s] == HD_RESERVED_NONE && g->p.ctx.preempt_hold &&
        g->p.ctx.preempt_hold_all) { /* a launch that asked for room keeps every SM it runs on */
        for (uint32_t o = 0; o < g->p.num_sms; o++)
            if (g->reserved[o] == li) {
                reserve(g, s, li);
                break;
            }
        return;
    }
    if (g->reserved[s] != li)
        return;
    struct hd_timing_stats *st = &g->stats;
    for (uint32_t i = st->npreempt; i-- > 0;) {
        struct hd_preempt_rec *r = &st->preempt[i];
        if (r->sm == s && r->launch == g->L[li]->sl.id && !r->met) {
            util_step(g, r);
            r->util_open = false;
            r->met = true;
            r->freed = g->now;
            r->missed |= r->bound && g->now - r->signal > r->bound;
            break;
        }
    }
}
/* }==== */

/* {==== Preemption signals ==== */
static uint8_t signal_act(const struct hd_ctx_params *cp)
{
    return cp->preempt == HD_PREEMPT_DRAIN   ? HD_PACT_DRAIN
           : cp->preempt == HD_PREEMPT_FLUSH ? HD_PACT_FLUSH
                                             : HD_PACT_SWITCH;
}

/* The cycle of the next periodic signal ([context] signal_period, up to signal_until), or
 * UINT64_MAX. */
static uint64_t next_periodic(const struct hd_gpu_timing *g)
{
    const struct hd_ctx_params *cp = &g->p.ctx;
    if (!cp->signal_period || g->sig_periodic >= UINT64_MAX / cp->signal_period - 1)
        return UINT64_MAX;
    const uint64_t at = (g->sig_periodic + 1) * cp->signal_period;
    return cp->signal_until && at > cp->signal_until ? UINT64_MAX : at;
}

/* Does kernel name k contain one of the comma-separated names of list? */
static bool kernel_listed(const char *k, const char *list)
{
    char one[HD_CFG_STR_MAX];
    for (const char *p = list; *p;) {
        const size_t n = strcspn(p, ",");
        if (n && n < sizeof one) {
            memcpy(one, p, n);
            one[n] = '\0';
            if (strstr(k, one))
                return true;
        }
        p += n + (p[n] == ',');
    }
    return false;
}

/* May a signal take SM s under [context] signal_kernel: every launch with a CTA there is of a
 * kernel whose name contains one of the listed names (and there is one)? */
static bool kernel_ok(const struct hd_gpu_timing *g, uint32_t s)
{
    const char *want = g->p.ctx.signal_kernel;
    if (!want[0])
        return true;
    bool any = false;
    for (unsigned i = g->first_unfinished; i < g->nl; i++) {
        const struct tlaunch *t = g->L[i];
        if (!t->started || t->finished || !hd_sm_holds_launch(g->sm[s], &t->sl))
            continue;
        if (!kernel_listed(t->sl.info->kernel, want))
            return false;
        any = true;
    }
    return any;
}

void hd_gpu_preempt_signal(struct hd_gpu_timing *g)
{
    const struct hd_ctx_params *cp = &g->p.ctx;
    const uint32_t nsms = g->p.num_sms, mc = g->p.sm.max_ctas;
    if (g->next_signal < cp->nsignals && cp->signal_at[g->next_signal] <= g->now)
        g->next_signal++; /* (a listed signal first; a periodic one in the same cycle follows) */
    else
        g->sig_periodic++;
    const uint32_t count = cp->signal_sms && cp->signal_sms < nsms ? cp->signal_sms : nsms;
    memset(g->pact, signal_act(cp), mc);
    uint32_t taken = 0;
    for (uint32_t j = 0; j < nsms && taken < count; j++) {
        const uint32_t s = (g->sig_cursor + j) % nsms;
        if (g->reserved[s] != HD_RESERVED_NONE || hd_sm_resident_ctas(g->sm[s]) == 0 ||
            !kernel_ok(g, s))
            continue; /* being freed already, nothing to free, or not the kernel measured */
        const uint32_t ri =
            request(g, s, HD_PREEMPT_SIGNAL, UINT32_MAX, g->pact, cp->latency_bound, NULL);
        if (ri == UINT32_MAX)
            return;
        reserve(g, s, HD_RESERVED_SIGNAL);
        g->sig_rec[s] = ri;
        taken++;
        if (taken == count) /* the next signal starts after the last SM taken */
            g->sig_cursor = (s + 1) % nsms;
    }
}

/* SM s is being emptied for a signal: CTAs that were in transit when it came (being
 * restored) are asked to leave once they are resident; when none is left the SM is free. */
static void signal_tick(struct hd_gpu_timing *g, uint32_t s)
{
    struct hd_preempt_rec *r = &g->stats.preempt[g->sig_rec[s]];
    if (hd_sm_resident_ctas(g->sm[s]) != 0) {
        const uint8_t a = signal_act(&g->p.ctx);
        if (a == HD_PACT_DRAIN)
            return;
        for (uint32_t c = 0; c < g->p.sm.max_ctas; c++) {
            const struct hd_ctx *x = hd_sm_cta_ctx(g->sm[s], c);
            if (x && x->state == HD_CTX_RESIDENT && x->preq != g->sig_rec[s])
                apply(g, s, c, a, r, g->sig_rec[s], NULL);
        }
        return;
    }
    g->reserved[s] = HD_RESERVED_NONE; /* emptied: its CTAs may come back */
    g->dirty = true;
    util_step(g, r);
    r->util_open = false;
    r->met = true;
    r->freed = g->now;
    r->missed |= r->bound && g->now - r->signal > r->bound;
}

uint64_t hd_gpu_preempt_next_signal(const struct hd_gpu_timing *g)
{
    const uint64_t listed =
        g->next_signal < g->p.ctx.nsignals ? g->p.ctx.signal_at[g->next_signal] : UINT64_MAX;
    const uint64_t periodic = next_periodic(g);
    return listed < periodic ? listed : periodic;
}
/* }==== */

/* [context] preempt_hold: the launch that inherits a finished launch li's SMs, the next one
 * of its stream (it waits for li) if that has at least li's priority (the preempting task's
 * next kernel: Shieh's task keeps the GPU until its last kernel finished), else none. */
static unsigned hold_successor(const struct hd_gpu_timing *g, unsigned li)
{
    const struct tlaunch *t = g->L[li];
    for (unsigned j = li + 1; j < g->nl; j++) {
        const struct tlaunch *n = g->L[j];
        if (n->prev_same == (int)li)
            return !n->finished && n->sl.l->attr.priority >= t->sl.l->attr.priority
                       ? j
                       : HD_RESERVED_NONE;
    }
    return HD_RESERVED_NONE;
}

void hd_gpu_preempt_tick(struct hd_gpu_timing *g)
{
    struct hd_timing_stats *st = &g->stats;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        const unsigned li = g->reserved[s];
        if (li == HD_RESERVED_NONE)
            continue;
        if (li == HD_RESERVED_SIGNAL) {
            signal_tick(g, s);
            continue;
        }
        const struct tlaunch *t = g->L[li];
        if (t->finished || (!g->p.ctx.preempt_hold && t->next_cta >= t->nctas &&
                            t->sl.ctxs.q_len == 0)) {
            /* it has placed everything ([context] preempt_hold: it has finished, and its
             * stream's next launch of its priority, if any, keeps the SM): others may return */
            g->reserved[s] = g->p.ctx.preempt_hold && t->finished ? hold_successor(g, li)
                                                                   : HD_RESERVED_NONE;
            g->dirty = true;
        }
    }
    bool any = false;
    for (uint32_t s = 0; s < g->p.num_sms && !any; s++)
        any = g->reserved[s] != HD_RESERVED_NONE;
    g->held = any;
    /* utilisation: integrate every record still open up to now, then take the SM's state now
     * (records whose SM is no longer reserved for them close unmet) */
    for (uint32_t i = g->open_util; i < st->npreempt; i++) {
        struct hd_preempt_rec *r = &st->preempt[i];
        if (!r->util_open)
            continue;
        util_step(g, r);
        const unsigned li = g->reserved[r->sm];
        const bool held = r->launch == HD_PREEMPT_SIGNAL
                              ? li == HD_RESERVED_SIGNAL
                              : li != HD_RESERVED_NONE && li != HD_RESERVED_SIGNAL &&
                                    g->L[li]->sl.id == r->launch;
        if (held)
            working(g, r->sm, &r->util_cur_regs, &r->util_cur_threads);
        else
            r->util_open = false;
    }
    while (g->open_util < st->npreempt && !st->preempt[g->open_util].util_open)
        g->open_util++;
    /* drained CTAs that left the SM: their true drain time */
    for (uint32_t i = g->open_dobs; i < st->ndobs; i++) {
        struct hd_drain_obs *d = &st->dobs[i];
        if (d->actual != HD_DRAIN_EST_NONE)
            continue;
        const struct hd_ctx *x = hd_ctx_get(&g->pool, d->ctx);
        if (x && x->t_left != d->left0 && x->t_left >= d->asked)
            d->actual = x->t_left - d->asked; /* (it left: the first vacate since) */
        else if (!x || x->epoch != d->epoch)
            d->actual = HD_DRAIN_LOST;
    }
    while (g->open_dobs < st->ndobs && st->dobs[g->open_dobs].actual != HD_DRAIN_EST_NONE)
        g->open_dobs++;
    while (g->open_rec < st->npreempt) { /* (records are in signal order) */
        const struct hd_preempt_rec *r = &st->preempt[g->open_rec];
        if (!r->met && !r->missed && r->bound)
            break;
        g->open_rec++;
    }
    for (uint32_t i = g->open_rec; i < st->npreempt; i++) {
        struct hd_preempt_rec *r = &st->preempt[i];
        if (!r->met && !r->missed && r->bound && g->now - r->signal > r->bound)
            r->missed = true;
    }
}
