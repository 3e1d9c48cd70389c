/* SPDX-License-Identifier: MIT
 * ccbp_mech.c - Lin thesis ch.4 CCBP (issue 29): the registry entry and the parts the GPU calls.
 *
 * Design ([ccbp] enable; docs/blocks/ccbp.md):
 *   CTA combination  the admission policy (cta_admit.h, installed through hd_mech_env.admit):
 *                    an SM takes a CTA of application a only while it holds fewer than cta[a]
 *                    of that application's CTAs (0: no limit); the same on every SM (§4.5.2).
 *                    Its admit() also learns each launch's application from the launch hint.
 *   IRCs             ccbp_irc.c, installed as the miss-queue policy (hd_mech_env.mem).
 *   monitors         one monitor subscription of [ccbp] monitor_window cycles: per application
 *                    warp instructions, L1D-miss requests, NoC flits (both directions) and DRAM
 *                    data cycles, summed over the windows that end by [ccbp] budget (the
 *                    co-running window of the per-kernel IPC), and since the last Algorithm 1
 *                    run (its per-request costs).
 *   Algorithm 1      with [ccbp] profile: run at attach on the profiled curves; with [ccbp]
 *                    period, again at the first monitor close after each period, with each
 *                    application's per-request NoC and DRAM costs measured since the last run
 *                    (our run-time detection, §4.5.4 being lost); each run sets cta[] and
 *                    quota[] (NBI/DBI: ccbp_quota; LS: unlimited).
 *   log              [ccbp] log: per application the counts, at the end of the run.
 * Off ([ccbp] enable = false): attach returns no hook, nothing is installed.
 */
#include "ccbp.h"

#include "mem_full.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* {==== Launches and the CTA combination ==== */
static int note_launch(struct ccbp *c, uint32_t launch, uint32_t hint)
{
    if (launch >= c->napp_of) {
        uint32_t n = c->napp_of ? c->napp_of : 64;
        while (n <= launch)
            n *= 2;
        uint8_t *m = realloc(c->app_of, n);
        if (!m)
            return -1;
        memset(m + c->napp_of, CCBP_NO_APP, n - c->napp_of);
        c->app_of = m;
        c->napp_of = n;
    }
    if (c->app_of[launch] == CCBP_NO_APP) {
        const unsigned a = hint >= 1 && hint <= c->napps ? hint - 1 : 0;
        c->app_of[launch] = (uint8_t)a;
        c->st[a].launches++;
    }
    return 0;
}

static bool adm_admit(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    struct ccbp *c = impl;
    (void)now;
    if (note_launch(c, q->launch, q->hint) != 0)
        return true; /* (host memory: no quota rather than a wrong one) */
    const unsigned a = c->app_of[q->launch];
    return !c->cta[a] || c->res[q->sm * CCBP_APPS + a] < c->cta[a];
}

static void adm_placed(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    struct ccbp *c = impl;
    (void)now;
    const unsigned a = ccbp_app(c, q->launch);
    if (a != CCBP_NO_APP)
        c->res[q->sm * CCBP_APPS + a]++;
}

static void adm_left(void *impl, const struct hd_admit_query *q, bool finished, uint64_t now)
{
    struct ccbp *c = impl;
    (void)finished;
    (void)now;
    const unsigned a = ccbp_app(c, q->launch);
    if (a != CCBP_NO_APP && c->res[q->sm * CCBP_APPS + a])
        c->res[q->sm * CCBP_APPS + a]--;
}

static const struct hd_cta_admit_ops ccbp_admit_ops = {
    .name = "ccbp", .admit = adm_admit, .placed = adm_placed, .left = adm_left};
/* }==== */

/* {==== Algorithm 1 ==== */
static void run_alg1(struct ccbp *c)
{
    const struct hd_sm_params *sm = &c->p->sm;
    const struct ccbp_caps caps = {sm->max_threads, sm->registers, (uint32_t)sm->shared_bytes,
                                   sm->max_ctas, c->cfg.noc_sustain, c->cfg.dram_sustain,
                                   c->cfg.prior_ls};
    ccbp_alg1(&c->prof, &caps, &c->alloc);
    for (unsigned a = 0; a < c->prof.k; a++) {
        c->cta[a] = c->alloc.cta[a];
        c->quota[a] = ccbp_quota(&c->prof, &c->alloc, a, &c->mach, c->cfg.window);
        c->type[a] = c->prof.type[a];
    }
    c->alg1_runs++;
}

/* [ccbp] period: the costs measured since the last run replace the profiled ones. */
static void rerun_alg1(struct ccbp *c, uint64_t now)
{
    for (unsigned a = 0; a < c->prof.k; a++) {
        if (c->per_req[a]) {
            c->prof.cost_noc[a] = (double)c->per_flits[a] / c->per_req[a];
            c->prof.cost_dram[a] = (double)c->per_dram[a] / c->per_req[a];
        }
        c->per_req[a] = c->per_flits[a] = c->per_dram[a] = 0;
    }
    run_alg1(c);
    c->next_run = now + c->cfg.period;
}
/* }==== */

/* {==== The hook: monitor windows, the log ==== */
static void cb_window(void *impl, const struct hd_mon_window *win, uint64_t now)
{
    struct ccbp *c = impl;
    const bool counted = !c->cfg.budget || win->end <= c->cfg.budget;
    for (uint32_t i = 0; i < win->nkernel; i++) {
        const unsigned a = ccbp_app(c, win->kernel[i]);
        if (a == CCBP_NO_APP)
            continue;
        const struct hd_mon_counts *k = &win->kern[i];
        if (counted) {
            c->st[a].issue += k->issue;
            c->st[a].requests += k->requests;
            c->st[a].flits += k->flits_req + k->flits_rep;
            c->st[a].dram_data += k->dram_data;
        }
        c->per_req[a] += k->requests;
        c->per_flits[a] += k->flits_req + k->flits_rep;
        c->per_dram[a] += k->dram_data;
    }
    if (counted)
        c->mon_end = win->end;
    if (c->alg1 && c->cfg.period && now >= c->next_run)
        rerun_alg1(c, now);
}

static const char *type_name(unsigned t)
{
    return t == CCBP_NBI ? "nbi" : t == CCBP_DBI ? "dbi" : "ls";
}

static void write_log(const struct ccbp *c, FILE *f)
{
    fprintf(f, "# CCBP (model/mech/ccbp): per application (launch hint), counts over cycles (0, "
               "%" PRIu64 "]\n",
            c->mon_end);
    fprintf(f, "window %u\nmonitor_window %" PRIu64 "\nbudget_end %" PRIu64 "\nalg1_runs %u\n",
            c->cfg.window, c->cfg.monitor_window, c->mon_end, c->alg1_runs);
    for (unsigned a = 0; a < c->napps; a++) {
        const struct ccbp_app_stats *s = &c->st[a];
        fprintf(f,
                "app %u type %s ctas %u quota %u launches %" PRIu64 " issue %" PRIu64
                " ipc %.4f requests %" PRIu64 " noc_pct %.3f dram_pct %.3f irc_sent %" PRIu64
                " irc_held %" PRIu64 " irc_max_window %u irc_windows_at_quota %" PRIu64 "\n",
                a + 1, type_name(c->type[a]), c->cta[a], c->quota[a], s->launches, s->issue,
                c->mon_end ? (double)s->issue / c->mon_end : 0.0, s->requests,
                ccbp_noc_pct(&c->mach, s->flits, c->mon_end),
                ccbp_dram_pct(&c->mach, s->dram_data, c->mon_end), s->sent, s->held,
                s->max_window, s->windows_at_quota);
        if (c->alg1)
            fprintf(f, "alg1 %u cta %u nbw %.2f dbw %.2f dom %.4f\n", a + 1, c->alloc.cta[a],
                    c->alloc.nbw[a], c->alloc.dbw[a], c->alloc.dom[a]);
    }
}

static void cb_destroy(void *impl)
{
    struct ccbp *c = impl;
    if (c->cfg.log[0]) {
        FILE *f = fopen(c->cfg.log, "w");
        if (f) {
            write_log(c, f);
            fclose(f);
        }
    }
    free(c->app_of);
    free(c->res);
    free(c->cnt);
    free(c->win);
    free(c);
}

static const struct hd_hook_ops ccbp_hook_ops = {
    .name = "ccbp", .destroy = cb_destroy, .window = cb_window};
/* }==== */

static int configure(struct ccbp *c, char *err, size_t errlen)
{
    const struct hd_ccbp_params *k = &c->cfg;
    unsigned nc = 0, nq = 0, nt = 0;
    if (ccbp_parse_list("ctas", k->ctas, c->cta, &nc, err, errlen) != 0 ||
        ccbp_parse_list("quota", k->quota, c->quota, &nq, err, errlen) != 0 ||
        ccbp_parse_types(k->types, c->type, &nt, err, errlen) != 0)
        return -1;
    c->napps = nc > nq ? nc : nq;
    c->napps = nt > c->napps ? nt : c->napps;
    if (k->profile[0]) {
        if (ccbp_profile_read(k->profile, &c->prof, err, errlen) != 0)
            return -1;
        c->alg1 = true;
        c->napps = c->prof.k > c->napps ? c->prof.k : c->napps;
        run_alg1(c);
        c->next_run = k->period;
    }
    if (!c->napps)
        c->napps = 1;
    if (k->budget && k->budget % k->monitor_window) {
        snprintf(err, errlen, "[ccbp] budget %" PRIu64 " is not a multiple of monitor_window %"
                 PRIu64, k->budget, k->monitor_window);
        return -1;
    }
    if (k->log[0]) { /* refuse a bad path before the run */
        FILE *f = fopen(k->log, "w");
        if (!f) {
            snprintf(err, errlen, "[ccbp] log '%s': cannot write it", k->log);
            return -1;
        }
        fclose(f);
    }
    return 0;
}

static int ccbp_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                       size_t errlen)
{
    if (!env->p->ccbp.enable)
        return 0;
    if (!env->mem || !hd_mem_is_full(env->mem) || !env->admit || !env->mon) {
        snprintf(err, errlen, "[ccbp] enable: CCBP's issue-rate controllers sit at the L1D miss "
                              "queue; they need [mem] model = full");
        return -1;
    }
    struct ccbp *c = calloc(1, sizeof *c);
    const uint32_t nsm = env->p->num_sms;
    if (!c || !(c->res = calloc((size_t)nsm * CCBP_APPS, sizeof *c->res)) ||
        !(c->cnt = calloc((size_t)nsm * CCBP_APPS, sizeof *c->cnt)) ||
        !(c->win = calloc(nsm, sizeof *c->win))) {
        if (c) {
            free(c->res);
            free(c->cnt);
        }
        free(c);
        snprintf(err, errlen, "host out of memory creating CCBP");
        return -1;
    }
    c->p = env->p;
    c->cfg = env->p->ccbp;
    c->nsm = nsm;
    c->mach = (struct ccbp_machine){nsm, c->cfg.l2_slices, c->cfg.dram_channels, env->p->core_mhz,
                                    c->cfg.icnt_mhz, c->cfg.dram_mhz};
    if (configure(c, err, errlen) != 0 ||
        (c->sub = hd_monitor_subscribe(env->mon, c->cfg.monitor_window, err, errlen)) < 0) {
        c->cfg.log[0] = 0; /* (no log of a run that did not start) */
        cb_destroy(c);
        return -1;
    }
    hd_mem_full_set_mq_policy(env->mem, &ccbp_irc_ops, c);
    *env->admit = (struct hd_cta_admit){&ccbp_admit_ops, c};
    *out = (struct hd_hook){&ccbp_hook_ops, c};
    return 0;
}

const struct hd_mech hd_mech_ccbp = {
    "ccbp",
    "Lin thesis ch.4 (CCBP): CTA combination, issue-rate controllers, bandwidth monitors, "
    "Algorithm 1",
    NULL, 0, NULL, 0, ccbp_attach,
};
