/* SPDX-License-Identifier: MIT
 * ccbp_ws.c - Warped-Slicer [Xu16] in its online form, a baseline of Lin thesis ch.4 (issue 29):
 * the sampling phase at the start of the co-run, the IPC-vs-CTA curves it measures, and the
 * choice of one CTA combination on them (ccbp_ws.h; docs/blocks/ccbp.md "Session 30").
 *
 * The phase ([ccbp] ws_online; from cycle 0 to ws_warmup + ws_sample):
 *   groups     SM s samples application s x napps / nsm (contiguous groups of SMs, one per
 *              application); the other applications get no CTA there while the phase holds.
 *   limits     an application's CTAs per SM, nmax, are learned from its launches' admission
 *              queries (per CTA: threads, registers, shared memory, warps; the grid): per
 *              launch the occupancy bound alone on an SM or its CTAs spread over the SMs
 *              (ceil), whichever is fewer; the most over its launches (experiments/ccbp.py
 *              input_ctas). At its first launch its group's limits are ccbp_ws_counts(nmax).
 *   counts     each SM counts each application's warp instructions issued in (ws_warmup,
 *              ws_warmup + ws_sample] (the hook's sched_warp: warp slot -> application, and
 *              its issues), and integrates its resident CTAs of each application (logged
 *              beside the limit: a grid that runs out leaves an SM below its limit).
 *   curves     per application, one point per SM of its group: x its mean resident CTAs over
 *              the sample, rounded (the limit, unless its launch ran out of CTAs or CTAs above a
 *              new limit were still finishing; an SM that held none gives no point), y its
 *              warp instructions per cycle; the mean y per x, ccbp_ws_interp'd over 1..nmax.
 *   choice     ccbp_ws_pick with [ccbp] ws_rule over the combinations that fit one SM (per
 *              CTA the largest demand of each resource over the application's launches);
 *              the combination becomes CCBP's ctas on every SM. When an application launched
 *              nothing, or its sample has fewer than two points with instructions (one when its
 *              nmax is 1: a launch too small to fill its SMs), the combination before the phase
 *              stays (after the first phase: none, every application unlimited).
 *   re-profile [ccbp] ws_reprofile: a kernel an application had not launched before (its stable
 *              kernel id; the experiment re-executes the same kernels, so only their first
 *              launches) starts a new phase at its first admission query after a choice; a
 *              kernel that arrives during a phase joins it. The log lists each phase and its
 *              choice, and the last phase's points and curves.
 * Deterministic: the counts are the SMs' events; the choice is made in the hook's cycle call
 * at ws_warmup + ws_sample (the hook is busy until then, so no cycle is skipped).
 * Keys: ctas and profile are refused (the phase chooses the combination), so are SMK's time
 * quotas (smk_epoch, smk_quota: SMK's scheme, not Warped-Slicer's); Dai18's limit (mil,
 * mil_epoch; ccbp_base.c) runs on top of the phase from cycle 0 (session 31: Dai18 on the
 * online form; ccbp_mech.c composes the two hooks).
 */
#include "ccbp_ws.h"

#include "ccbp.h"
#include "cta_admit.h"
#include "sm_alloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* {==== The choice (pure) ==== */
bool ccbp_ws_fits(const struct ccbp_ws_curve *cv, unsigned k, const struct ccbp_caps *caps,
                  const unsigned *n)
{
    uint64_t thr = 0, regs = 0, smem = 0, ctas = 0;
    for (unsigned i = 0; i < k; i++) {
        if (n[i] > cv[i].nmax)
            return false;
        thr += (uint64_t)n[i] * cv[i].threads;
        regs += (uint64_t)n[i] * cv[i].regs;
        smem += (uint64_t)n[i] * cv[i].smem;
        ctas += n[i];
    }
    return thr <= caps->threads && regs <= caps->regs && smem <= caps->smem && ctas <= caps->ctas;
}

static double top_of(const struct ccbp_ws_curve *c)
{
    double t = 0.0;
    for (unsigned n = 1; n <= c->nmax; n++)
        if (c->ipc[n] > t)
            t = c->ipc[n];
    return t;
}

/* Normalized IPC at n (a flat curve: 1 at any n >= 1). */
static double norm_at(const struct ccbp_ws_curve *c, double top, unsigned n)
{
    if (!n)
        return 0.0;
    return top > 0.0 ? c->ipc[n] / top : 1.0;
}

static double slowdown_at(const struct ccbp_ws_curve *c, double top, unsigned n)
{
    if (!(top > 0.0))
        return 1.0;
    return c->ipc[n] > 0.0 ? top / c->ipc[n] : 1e9;
}

static int pick_water(const struct ccbp_ws_curve *cv, unsigned k, const struct ccbp_caps *caps,
                      unsigned *n, double *score)
{
    double top[CCBP_APPS];
    for (unsigned i = 0; i < k; i++) {
        top[i] = top_of(&cv[i]);
        n[i] = 0;
    }
    for (;;) {
        int best = -1;
        double lo = 0.0;
        for (unsigned i = 0; i < k; i++) {
            n[i]++;
            const bool fit = ccbp_ws_fits(cv, k, caps, n);
            n[i]--;
            /* a CTA that does not raise its IPC is not given (a flat curve: only its first) */
            const bool gain = !n[i] || (top[i] > 0.0 && cv[i].ipc[n[i] + 1] > cv[i].ipc[n[i]]);
            if (!fit || !gain)
                continue;
            const double v = norm_at(&cv[i], top[i], n[i]);
            if (best < 0 || v < lo) {
                best = (int)i;
                lo = v;
            }
        }
        if (best < 0)
            break;
        n[best]++;
    }
    double lo = 1e300;
    for (unsigned i = 0; i < k; i++) {
        if (!n[i])
            return -1;
        const double v = norm_at(&cv[i], top[i], n[i]);
        lo = v < lo ? v : lo;
    }
    *score = lo;
    return 0;
}

static int pick_sum(const struct ccbp_ws_curve *cv, unsigned k, const struct ccbp_caps *caps,
                    unsigned *n, double *score)
{
    double top[CCBP_APPS];
    unsigned t[CCBP_APPS];
    for (unsigned i = 0; i < k; i++) {
        top[i] = top_of(&cv[i]);
        t[i] = 1;
        if (!cv[i].nmax)
            return -1;
    }
    bool any = false;
    for (;;) { /* lexicographic, application 0 outermost */
        if (ccbp_ws_fits(cv, k, caps, t)) {
            double s = 0.0;
            for (unsigned i = 0; i < k; i++)
                s += slowdown_at(&cv[i], top[i], t[i]);
            if (!any || s < *score) {
                *score = s;
                memcpy(n, t, k * sizeof *n);
                any = true;
            }
        }
        unsigned i = k;
        while (i > 0 && t[i - 1] == cv[i - 1].nmax)
            t[--i] = 1;
        if (i == 0)
            break;
        t[i - 1]++;
    }
    return any ? 0 : -1;
}

int ccbp_ws_pick(const struct ccbp_ws_curve *cv, unsigned k, const struct ccbp_caps *caps,
                 unsigned rule, unsigned *n, double *score)
{
    if (!k || k > CCBP_APPS)
        return -1;
    *score = 0.0;
    return rule == CCBP_WS_SUM ? pick_sum(cv, k, caps, n, score)
                               : pick_water(cv, k, caps, n, score);
}

void ccbp_ws_interp(const unsigned *x, const double *y, unsigned m, unsigned nmax, double *ipc)
{
    ipc[0] = 0.0;
    for (unsigned n = 1; n <= nmax; n++) {
        if (!m) {
            ipc[n] = 0.0;
        } else if (n <= x[0]) {
            ipc[n] = y[0] * n / x[0];
        } else if (n >= x[m - 1]) {
            ipc[n] = y[m - 1];
        } else {
            unsigned j = 0;
            while (x[j + 1] < n)
                j++;
            ipc[n] = y[j] + (y[j + 1] - y[j]) * (double)(n - x[j]) / (double)(x[j + 1] - x[j]);
        }
    }
}

void ccbp_ws_counts(unsigned nmax, unsigned g, unsigned *out)
{
    static const unsigned pts[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    unsigned l[sizeof pts / sizeof pts[0] + 1], m = 0;
    for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++)
        if (pts[i] < nmax)
            l[m++] = pts[i];
    l[m++] = nmax ? nmax : 1;
    for (unsigned j = 0; j < g; j++) {
        if (m <= g)
            out[j] = l[j % m];
        else if (g == 1)
            out[j] = l[m - 1];
        else /* (round(j (m - 1) / (g - 1))) */
            out[j] = l[(2 * j * (m - 1) + (g - 1)) / (2 * (g - 1))];
    }
}
/* }==== */

/* {==== The phase ==== */
#define WS_KERNELS 32            /* kernels per application told apart for re-profiling */
#define WS_PHASES 16             /* phases whose choice the log lists */

struct ccbp_ws_app {
    bool seen;                  /* a launch of it was queried */
    bool limits;                /* its group's sampling limits are set (this phase) */
    unsigned nkernels;
    uint32_t kernel[WS_KERNELS]; /* the stable kernel ids it launched */
    unsigned nmax;              /* CTAs per SM (the most over its launches) */
    uint32_t threads, regs, smem; /* per CTA, the most over its launches */
    unsigned launches;
};

struct ccbp_ws {
    unsigned rule;
    uint64_t warm_end, end;
    bool on;                    /* the sampling limits hold */
    bool chosen;                /* a combination was chosen (else: none fits / not launched) */
    uint64_t chosen_at;
    uint32_t nsm, max_warps;
    unsigned napps;
    uint32_t *lim;              /* [nsm * CCBP_APPS] the sampling limit (0: none of it here) */
    uint8_t *slot_app;          /* [nsm * max_warps] */
    uint64_t *issued;           /* [nsm * CCBP_APPS] warp instructions in the sample */
    uint64_t *area, *area_t;    /* [nsm * CCBP_APPS] resident CTAs x cycles in the sample */
    struct ccbp_ws_app app[CCBP_APPS];
    struct ccbp_ws_curve cv[CCBP_APPS];
    unsigned npts[CCBP_APPS], px[CCBP_APPS][CCBP_NMAX + 1];
    double py[CCBP_APPS][CCBP_NMAX + 1];
    unsigned n[CCBP_APPS];
    double score;
    bool reprofile;             /* [ccbp] ws_reprofile */
    uint64_t warmup, sample;
    unsigned phases;            /* phases begun */
    uint64_t ph_start[WS_PHASES], ph_end[WS_PHASES];
    unsigned ph_n[WS_PHASES][CCBP_APPS];
    bool ph_chosen[WS_PHASES];
    unsigned ph_npts[WS_PHASES][CCBP_APPS], ph_px[WS_PHASES][CCBP_APPS][CCBP_NMAX + 1];
    double ph_py[WS_PHASES][CCBP_APPS][CCBP_NMAX + 1];
};

static unsigned group_of(const struct ccbp_ws *w, uint32_t sm)
{
    return (unsigned)((uint64_t)sm * w->napps / w->nsm);
}

int ccbp_ws_make(struct ccbp *c, uint32_t max_warps, char *err, size_t errlen)
{
    const struct hd_ccbp_params *k = &c->cfg;
    if (!k->ws_online)
        return 0;
    unsigned rule;
    if (!strcmp(k->ws_rule, "water"))
        rule = CCBP_WS_WATER;
    else if (!strcmp(k->ws_rule, "sum"))
        rule = CCBP_WS_SUM;
    else {
        snprintf(err, errlen, "[ccbp] ws_rule '%s': water or sum", k->ws_rule);
        return -1;
    }
    const char *clash = k->ctas[0] ? "ctas" : k->profile[0] ? "profile" : NULL;
    if (clash) {
        snprintf(err, errlen, "[ccbp] ws_online chooses the CTA combination itself: [ccbp] %s "
                 "must not be set with it", clash);
        return -1;
    }
    /* Dai18's limit ([ccbp] mil, mil_epoch) runs on top of the phase and its choice (Dai18 is
     * Warped-Slicer plus the limit; ccbp_mech.c composes the hooks). SMK's time quotas are
     * SMK's own scheme beside its DRF combination: on Warped-Slicer's they are no scheme. */
    if (k->smk_epoch || k->smk_quota[0]) {
        snprintf(err, errlen, "[ccbp] smk_epoch / smk_quota (SMK's time quotas) cannot be "
                 "combined with [ccbp] ws_online: they go with SMK's own CTA combination, not "
                 "Warped-Slicer's (with ws_online only [ccbp] mil / mil_epoch, Dai18's limit)");
        return -1;
    }
    if (c->napps < 2 || c->napps > c->nsm) {
        snprintf(err, errlen, "[ccbp] ws_online samples two or more applications, one group of "
                 "SMs each ([ccbp] types names them): %u applications on %" PRIu32 " SMs",
                 c->napps, c->nsm);
        return -1;
    }
    struct ccbp_ws *w = calloc(1, sizeof *w);
    const size_t na = (size_t)c->nsm * CCBP_APPS;
    if (!w || !(w->lim = calloc(na, sizeof *w->lim)) ||
        !(w->issued = calloc(na, sizeof *w->issued)) ||
        !(w->area = calloc(na, sizeof *w->area)) ||
        !(w->area_t = calloc(na, sizeof *w->area_t)) ||
        !(w->slot_app = malloc((size_t)c->nsm * max_warps))) {
        c->ws = w;
        ccbp_ws_free(c);
        snprintf(err, errlen, "host out of memory creating Warped-Slicer's sampling phase");
        return -1;
    }
    memset(w->slot_app, CCBP_NO_APP, (size_t)c->nsm * max_warps);
    w->rule = rule;
    w->reprofile = k->ws_reprofile;
    w->warmup = k->ws_warmup;
    w->sample = k->ws_sample;
    w->warm_end = k->ws_warmup;
    w->end = k->ws_warmup + k->ws_sample;
    w->on = true;
    w->phases = 1;
    w->ph_end[0] = w->end;
    w->nsm = c->nsm;
    w->max_warps = max_warps;
    w->napps = c->napps;
    for (size_t i = 0; i < na; i++)
        w->area_t[i] = w->warm_end;
    c->ws = w;
    return 0;
}

void ccbp_ws_free(struct ccbp *c)
{
    struct ccbp_ws *w = c->ws;
    if (!w)
        return;
    free(w->lim);
    free(w->issued);
    free(w->area);
    free(w->area_t);
    free(w->slot_app);
    free(w);
    c->ws = NULL;
}

/* What a launch of application a asks: its CTAs per SM, its demand (the most of each). */
static void learn(struct ccbp *c, struct ccbp_ws *w, const struct hd_admit_query *q, unsigned a)
{
    struct ccbp_ws_app *p = &w->app[a];
    const struct hd_cta_demand *d = q->demand;
    if (!d)
        return;
    const struct hd_sm_params *sm = &c->p->sm;
    uint64_t occ = sm->max_ctas;
    if (d->threads && sm->max_threads / d->threads < occ)
        occ = sm->max_threads / d->threads;
    if (d->warps && sm->max_warps / d->warps < occ)
        occ = sm->max_warps / d->warps;
    if (d->regs && sm->registers / d->regs < occ)
        occ = sm->registers / d->regs;
    if (d->smem && sm->shared_bytes / d->smem < occ)
        occ = sm->shared_bytes / d->smem;
    const uint64_t spread = q->nctas ? (q->nctas + w->nsm - 1) / w->nsm : occ;
    uint64_t nmax = spread < occ ? spread : occ;
    nmax = nmax > CCBP_NMAX ? CCBP_NMAX : nmax ? nmax : 1;
    if (nmax > p->nmax)
        p->nmax = (unsigned)nmax;
    p->threads = d->threads > p->threads ? d->threads : p->threads;
    p->regs = d->regs > p->regs ? d->regs : p->regs;
    p->smem = d->smem > p->smem ? (uint32_t)d->smem : p->smem;
    p->seen = true;
}

/* Application a's group's sampling limits for this phase (ccbp_ws_counts over its nmax). */
static void set_limits(struct ccbp_ws *w, unsigned a)
{
    unsigned cnt[CCBP_NMAX * 64], g = 0;
    for (uint32_t s = 0; s < w->nsm; s++)
        g += group_of(w, s) == a;
    if (g > sizeof cnt / sizeof cnt[0])
        g = sizeof cnt / sizeof cnt[0];
    ccbp_ws_counts(w->app[a].nmax, g, cnt);
    unsigned j = 0;
    for (uint32_t s = 0; s < w->nsm && j < g; s++)
        if (group_of(w, s) == a)
            w->lim[s * CCBP_APPS + a] = cnt[j++];
    w->app[a].limits = true;
}

/* A new sampling phase from now (a kernel new to its application arrived): the counts start
 * again; the limits of every application seen are made again at once (one not seen yet: at
 * its first query). */
static void restart(struct ccbp_ws *w, uint64_t now)
{
    const size_t na = (size_t)w->nsm * CCBP_APPS;
    w->warm_end = now + w->warmup;
    w->end = w->warm_end + w->sample;
    memset(w->issued, 0, na * sizeof *w->issued);
    memset(w->area, 0, na * sizeof *w->area);
    memset(w->lim, 0, na * sizeof *w->lim);
    for (size_t i = 0; i < na; i++)
        w->area_t[i] = w->warm_end;
    for (unsigned a = 0; a < CCBP_APPS; a++) { /* (an application seen: its limits at once) */
        w->app[a].limits = false;
        if (a < w->napps && w->app[a].seen)
            set_limits(w, a);
    }
    if (w->phases < WS_PHASES) {
        w->ph_start[w->phases] = now;
        w->ph_end[w->phases] = w->end;
    }
    w->phases++;
    w->on = true;
}

/* Is q's kernel new to application a (then recorded)? Past WS_KERNELS kernels of one
 * application none counts as new (no phase at every launch). */
static bool new_kernel(struct ccbp_ws *w, const struct hd_admit_query *q, unsigned a)
{
    struct ccbp_ws_app *p = &w->app[a];
    for (unsigned i = 0; i < p->nkernels; i++)
        if (p->kernel[i] == q->kernel)
            return false;
    if (p->nkernels >= WS_KERNELS)
        return false;
    p->kernel[p->nkernels++] = q->kernel;
    return true;
}

int ccbp_ws_admit(struct ccbp *c, const struct hd_admit_query *q, unsigned a, uint64_t now)
{
    struct ccbp_ws *w = c->ws;
    if (!w || a >= w->napps || q->sm >= w->nsm)
        return w && w->on ? 0 : -1;
    const bool fresh = new_kernel(w, q, a);
    if (w->on || fresh)
        learn(c, w, q, a); /* (its demand and grid; the most over its launches is kept) */
    if (fresh && !w->on && w->reprofile) /* [ccbp] ws_reprofile */
        restart(w, now);
    if (!w->on)
        return -1;
    if (!w->app[a].limits)
        set_limits(w, a); /* (at its first launch) */
    if (group_of(w, q->sm) != a)
        return 0;
    return c->res[q->sm * CCBP_APPS + a] < w->lim[q->sm * CCBP_APPS + a];
}

/* The integral of SM sm's resident CTAs of a up to t (clipped to the sample). */
static void integrate(struct ccbp *c, struct ccbp_ws *w, size_t i, uint64_t t)
{
    t = t < w->warm_end ? w->warm_end : t > w->end ? w->end : t;
    if (t > w->area_t[i]) {
        w->area[i] += (uint64_t)c->res[i] * (t - w->area_t[i]);
        w->area_t[i] = t;
    }
}

void ccbp_ws_resident(struct ccbp *c, uint32_t sm, unsigned a, uint64_t now)
{
    struct ccbp_ws *w = c->ws;
    if (w && w->on && sm < w->nsm && a < CCBP_APPS)
        integrate(c, w, (size_t)sm * CCBP_APPS + a, now);
}

void ccbp_ws_sched_warp(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                        const struct hd_warp_view *v, uint64_t now)
{
    struct ccbp *c = impl;
    struct ccbp_ws *w = c->ws;
    if (!w || sm >= w->nsm || slot >= w->max_warps)
        return;
    uint8_t *sa = &w->slot_app[(size_t)sm * w->max_warps + slot];
    if (ev == HD_HSCHED_ADD) /* (the slots are followed between phases too) */
        *sa = (uint8_t)(v ? ccbp_app(c, v->launch) : CCBP_NO_APP);
    else if (ev == HD_HSCHED_REMOVE)
        *sa = CCBP_NO_APP;
    else if (ev == HD_HSCHED_ISSUE && w->on && *sa != CCBP_NO_APP && now > w->warm_end &&
             now <= w->end)
        w->issued[sm * CCBP_APPS + *sa]++;
}

/* The sample's end: the curves, the choice, the new combination. */
static void choose(struct ccbp *c, struct ccbp_ws *w, uint64_t now)
{
    const double len = (double)(w->end - w->warm_end);
    for (unsigned a = 0; a < w->napps; a++) {
        struct ccbp_ws_app *p = &w->app[a];
        struct ccbp_ws_curve *cv = &w->cv[a];
        memset(cv, 0, sizeof *cv);
        cv->nmax = p->nmax;
        cv->threads = p->threads;
        cv->regs = p->regs;
        cv->smem = p->smem;
        double sum[CCBP_NMAX + 1] = {0};
        unsigned cnt[CCBP_NMAX + 1] = {0};
        for (uint32_t s = 0; s < w->nsm; s++) {
            const size_t i = (size_t)s * CCBP_APPS + a;
            integrate(c, w, i, w->end);
            /* the point's CTA count: the SM's mean resident CTAs of a over the sample, rounded
             * (its limit unless the launch ran out of CTAs, or CTAs above a new limit were
             * still finishing); an SM that held none gives no point */
            const double r = (double)w->area[i] / len;
            if (group_of(w, s) != a || r < 0.5)
                continue;
            const unsigned x = r + 0.5 > CCBP_NMAX ? CCBP_NMAX : (unsigned)(r + 0.5);
            sum[x] += (double)w->issued[i] / len;
            cnt[x]++;
        }
        w->npts[a] = 0;
        for (unsigned n = 1; n <= CCBP_NMAX; n++)
            if (cnt[n]) {
                w->px[a][w->npts[a]] = n;
                w->py[a][w->npts[a]++] = sum[n] / cnt[n];
            }
        ccbp_ws_interp(w->px[a], w->py[a], w->npts[a], cv->nmax, cv->ipc);
    }
    /* every application launched and ran in the sample, on SMs holding at least two different
     * CTA counts of it (one when its nmax is 1): a curve needs two points to say how its IPC
     * scales (a launch too small to fill its SMs gives one point, not a flat curve) */
    bool all = true;
    for (unsigned a = 0; a < w->napps; a++) {
        unsigned pos = 0;
        for (unsigned j = 0; j < w->npts[a]; j++)
            pos += w->py[a][j] > 0.0;
        all &= w->app[a].seen && w->app[a].nmax > 0 && pos >= (w->app[a].nmax > 1 ? 2u : 1u);
    }
    const struct hd_sm_params *sm = &c->p->sm;
    const struct ccbp_caps caps = {sm->max_threads, sm->registers, (uint32_t)sm->shared_bytes,
                                   sm->max_ctas, 0.0, 0.0, 1.0};
    unsigned n[CCBP_APPS];
    double score = 0.0;
    w->chosen = all && ccbp_ws_pick(w->cv, w->napps, &caps, w->rule, n, &score) == 0;
    if (w->chosen) { /* (else the combination before the phase stays: none after the first) */
        memcpy(w->n, n, sizeof n);
        w->score = score;
        for (unsigned a = 0; a < w->napps; a++)
            c->cta[a] = n[a];
    }
    w->chosen_at = now;
    w->on = false;
    const unsigned ph = w->phases - 1;
    if (ph < WS_PHASES) {
        w->ph_chosen[ph] = w->chosen;
        memcpy(w->ph_n[ph], n, sizeof w->ph_n[ph]);
        memcpy(w->ph_npts[ph], w->npts, sizeof w->ph_npts[ph]);
        memcpy(w->ph_px[ph], w->px, sizeof w->ph_px[ph]);
        memcpy(w->ph_py[ph], w->py, sizeof w->ph_py[ph]);
    }
}

bool ccbp_ws_cycle(struct ccbp *c, uint64_t now, bool *ready)
{
    struct ccbp_ws *w = c->ws;
    if (!w || !w->on)
        return false;
    if (now < w->end)
        return true;
    choose(c, w, now);
    *ready = true; /* the SMs' answers changed: the CTA scheduler looks again */
    return false;
}

void ccbp_ws_log(const struct ccbp *c, FILE *f)
{
    const struct ccbp_ws *w = c->ws;
    if (!w)
        return;
    fprintf(f, "ws_online rule %s warmup %" PRIu64 " sample %" PRIu64 " end %" PRIu64
               " chosen_at %" PRIu64 " chosen %d phases %u\n",
            w->rule == CCBP_WS_SUM ? "sum" : "water", w->warmup, w->sample, w->end,
            w->chosen_at, w->chosen ? 1 : 0, w->phases);
    for (unsigned ph = 0; ph < w->phases && ph < WS_PHASES; ph++) {
        fprintf(f, "ws_phase %u start %" PRIu64 " end %" PRIu64 " choice", ph + 1,
                w->ph_start[ph], w->ph_end[ph]);
        for (unsigned a = 0; a < w->napps; a++)
            fprintf(f, " %u", w->ph_chosen[ph] ? w->ph_n[ph][a] : 0);
        fprintf(f, "\n");
        for (unsigned a = 0; a < w->napps; a++) {
            fprintf(f, "ws_phase_points %u app %u", ph + 1, a + 1);
            for (unsigned j = 0; j < w->ph_npts[ph][a]; j++)
                fprintf(f, " %u:%.4f", w->ph_px[ph][a][j], w->ph_py[ph][a][j]);
            fprintf(f, "\n");
        }
    }
    const double len = (double)(w->end - w->warm_end);
    for (uint32_t s = 0; s < w->nsm; s++) {
        const unsigned a = group_of(w, s);
        const size_t i = (size_t)s * CCBP_APPS + a;
        fprintf(f, "ws_sm %" PRIu32 " app %u limit %" PRIu32 " ipc %.4f resident %.2f\n", s,
                a + 1, w->lim[i], (double)w->issued[i] / len, (double)w->area[i] / len);
    }
    for (unsigned a = 0; a < w->napps; a++) {
        const struct ccbp_ws_curve *p = &w->cv[a]; /* (the last choice's) */
        fprintf(f, "ws_app %u nmax %u threads %" PRIu32 " regs %" PRIu32 " smem %" PRIu32
                   " points",
                a + 1, p->nmax, p->threads, p->regs, p->smem);
        for (unsigned j = 0; j < w->npts[a]; j++)
            fprintf(f, " %u:%.4f", w->px[a][j], w->py[a][j]);
        fprintf(f, "\nws_curve %u", a + 1);
        for (unsigned n = 1; n <= w->cv[a].nmax; n++)
            fprintf(f, " %.4f", w->cv[a].ipc[n]);
        fprintf(f, "\n");
    }
    fprintf(f, "ws_choice"); /* (the combination in force: the last phase that chose) */
    for (unsigned a = 0; a < w->napps; a++)
        fprintf(f, " %u", w->n[a]);
    fprintf(f, " score %.4f\n", w->score);
}
/* }==== */
