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
 *                    period, again after the first monitor close after each period, with each
 *                    application's per-request NoC and DRAM costs measured since the last run
 *                    (our run-time detection, §4.5.4 being lost); each run sets cta[] and
 *                    quota[] (NBI/DBI: the block's share x quota factor; LS: unlimited).
 *                    Algorithm 1 is the ccbp_ctrl block (its C reference is the model's
 *                    controller; ccbp_ctrl_fw.c): the first run before the first cycle; a
 *                    re-run requested at the close T reads the monitor's snapshot (5 measures
 *                    x applications, one per cycle), and from T + reads + 2 the firmware steps
 *                    the block one edge per cycle: the quota factors written (the start with
 *                    the last), [ccbp] alg1_step_cycles per iteration of the algorithm's loop,
 *                    the wait for done, 4 reads per application; the new CTA combination and
 *                    quotas apply when the last result is in (the IRCs take the quotas at
 *                    their next edge).
 *   blocks           [ccbp] blocks: the IRCs and the monitor as blocks in the loop
 *                    (ccbp_loop.h): a one-cycle monitor subscription feeds the monitor block,
 *                    whose snapshot reads give the re-run its costs.
 *   baselines        [ccbp] smk_epoch/smk_quota (SMK's time quotas) and mil (Dai18's limit):
 *                    ccbp_base.c, through the hooks' sched_warp, hold, load_sent and
 *                    load_returned (a second ops table, so runs without them keep their cycles).
 *   Warped-Slicer    [ccbp] ws_online: the online form's sampling phase and its choice of the
 *                    CTA combination (ccbp_ws.c, through the admission policy and sched_warp);
 *                    with [ccbp] mil (and mil_epoch) Dai18's limit on top of it, from cycle 0
 *                    (a fourth ops table: both sched_warps, the limit's hold and load events).
 *   log              [ccbp] log: per application the counts, at the end of the run.
 * Off ([ccbp] enable = false): attach returns no hook, nothing is installed.
 */
#include "ccbp.h"
#include "ccbp_loop.h"

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
    if (note_launch(c, q->launch, q->hint) != 0)
        return true; /* (host memory: no quota rather than a wrong one) */
    const unsigned a = c->app_of[q->launch];
    const int ws = ccbp_ws_admit(c, q, a, now); /* Warped-Slicer's sampling limits */
    if (ws >= 0)
        return ws != 0;
    return !c->cta[a] || c->res[q->sm * CCBP_APPS + a] < c->cta[a];
}

static void adm_placed(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    struct ccbp *c = impl;
    const unsigned a = ccbp_app(c, q->launch);
    if (a != CCBP_NO_APP) {
        ccbp_ws_resident(c, q->sm, a, now);
        c->res[q->sm * CCBP_APPS + a]++;
    }
}

static void adm_left(void *impl, const struct hd_admit_query *q, bool finished, uint64_t now)
{
    struct ccbp *c = impl;
    (void)finished;
    const unsigned a = ccbp_app(c, q->launch);
    if (a != CCBP_NO_APP && c->res[q->sm * CCBP_APPS + a]) {
        ccbp_ws_resident(c, q->sm, a, now);
        c->res[q->sm * CCBP_APPS + a]--;
    }
}

static const struct hd_cta_admit_ops ccbp_admit_ops = {
    .name = "ccbp", .admit = adm_admit, .placed = adm_placed, .left = adm_left};
/* }==== */

/* {==== Algorithm 1 ==== */
static struct ccbp_caps caps_of(const struct ccbp *c)
{
    const struct hd_sm_params *sm = &c->p->sm;
    return (struct ccbp_caps){sm->max_threads, sm->registers, (uint32_t)sm->shared_bytes,
                              sm->max_ctas, c->cfg.noc_sustain, c->cfg.dram_sustain,
                              c->cfg.prior_ls};
}

/* The controller block's edges: with [ccbp] blocks its instance takes each one too, and its
 * outputs are the ones the firmware uses. */
static void ctl_lock(void *arg, const struct hd_ccbp_ctrl_in *in, struct hd_ccbp_ctrl_out *out)
{
    struct ccbp *c = arg;
    if (c->loop)
        ccbp_loop_ctrl(c->loop, in, out, c->ctl_now);
}

/* Start a run of the controller: the whole profile, or the re-run's quota factors. */
static void ctl_prepare(struct ccbp *c, bool all)
{
    const struct ccbp_caps caps = caps_of(c);
    ccbp_ctl_prepare(&c->ctl, &c->prof, &caps, &c->mach, c->cfg.window, c->cfg.alg1_step_cycles,
                     all);
}

/* Apply the controller's results: the CTA combination, and the quotas and LS bits every IRC
 * takes at its next edge. */
static void apply_alg1(struct ccbp *c)
{
    uint32_t quota[CCBP_APPS] = {0};
    ccbp_ctl_result(&c->ctl, &c->prof, &c->alloc, quota);
    for (unsigned a = 0; a < c->prof.k; a++) {
        c->cta[a] = c->alloc.cta[a];
        c->quota[a] = quota[a];
        c->type[a] = c->prof.type[a];
    }
    for (uint32_t sm = 0; sm < c->nsm; sm++)
        c->cfg_pend[sm] |= (uint8_t)((1u << c->prof.k) - 1u);
    c->alg1_runs++;
}

/* [ccbp] period, at the close `now` that requests a re-run: the requests the IRCs let go so far
 * are the costs' denominators; the snapshot reads follow. */
static void request_alg1(struct ccbp *c, uint64_t now)
{
    for (unsigned a = 0; a < c->prof.k; a++) {
        c->fw_req[a] = c->per_req[a];
        c->per_req[a] = 0;
    }
    c->fw_pending = true;
    c->fw_computed = false;
    c->fw_compute_at = now + ccbp_loop_reads(c->napps) + 2;
    c->next_run = now + c->cfg.period;
}

/* The firmware when its reads are in: the costs measured since the last run (NoC flits and DRAM
 * data cycles per L1D-miss request the IRCs let go) replace the profiled ones; a cost measured
 * on fewer than CCBP_MIN_REQ requests, or 0, keeps the previous one (no evidence is not a cost
 * of 0). The flits and DRAM cycles are the monitor's snapshot reads (ccbp_mon.c; with the
 * blocks the instance's, with --drive rtl the RTL's). */
#define CCBP_MIN_REQ 64
static void firmware(struct ccbp *c, uint64_t now)
{
    if (!c->fw_computed) {
        uint64_t got[HD_CCBP_MON_KINDS][CCBP_APPS];
        memset(got, 0, sizeof got);
        ccbp_mon_take(c, got); /* the snapshot reads since the last run */
        for (unsigned a = 0; a < CCBP_APPS; a++) {
            /* the flits of the profile's NoC measure (noc_dir) */
            const unsigned d = a < c->prof.k ? c->prof.noc_dir[a] : CCBP_NOC_BOTH;
            c->per_flits[a] = (d != CCBP_NOC_REP ? got[HD_CCBP_MON_FQ][a] : 0) +
                              (d != CCBP_NOC_REQ ? got[HD_CCBP_MON_FR][a] : 0);
            c->per_dram[a] = got[HD_CCBP_MON_DRAM][a];
        }
        for (unsigned a = 0; a < c->prof.k; a++) {
            if (c->fw_req[a] >= CCBP_MIN_REQ) {
                if (c->per_flits[a])
                    c->prof.cost_noc[a] = (double)c->per_flits[a] / c->fw_req[a];
                if (c->per_dram[a])
                    c->prof.cost_dram[a] = (double)c->per_dram[a] / c->fw_req[a];
            }
            c->per_flits[a] = c->per_dram[a] = 0;
        }
        ctl_prepare(c, false); /* the new quota factors, then the start */
        c->fw_computed = true;
    }
    c->ctl_now = now;
    if (ccbp_ctl_edge(&c->ctl, ctl_lock, c)) { /* one edge per cycle */
        apply_alg1(c);
        c->fw_pending = false;
        c->fw_cycles += now + ccbp_loop_reads(c->napps) + 2 - c->fw_compute_at;
    }
}
/* }==== */

/* {==== The hook: monitor windows, the log ==== */
/* The counts of a monitor window (of one cycle: the monitor block's increments), per measure and
 * application. */
static void per_app(const struct ccbp *c, const struct hd_mon_window *win,
                    uint64_t v[HD_CCBP_MON_KINDS][CCBP_APPS])
{
    memset(v, 0, sizeof(uint64_t) * HD_CCBP_MON_KINDS * CCBP_APPS);
    for (uint32_t i = 0; i < win->nkernel; i++) {
        const unsigned a = ccbp_app(c, win->kernel[i]);
        if (a == CCBP_NO_APP)
            continue;
        const struct hd_mon_counts *k = &win->kern[i];
        v[HD_CCBP_MON_ISS][a] += k->issue;
        v[HD_CCBP_MON_REQ][a] += k->requests;
        v[HD_CCBP_MON_FQ][a] += k->flits_req;
        v[HD_CCBP_MON_FR][a] += k->flits_rep;
        v[HD_CCBP_MON_DRAM][a] += k->dram_data;
    }
}

static void cb_window(void *impl, const struct hd_mon_window *win, uint64_t now)
{
    struct ccbp *c = impl;
    if (c->sub1 >= 0) {
        uint64_t v[HD_CCBP_MON_KINDS][CCBP_APPS];
        per_app(c, win, v);
        if (win == hd_monitor_last(c->mon, c->sub1)) {
            char e[768];
            if (!c->loop_err[0] && ccbp_mon_cycle(c, v, now, e, sizeof e) != 0)
                snprintf(c->loop_err, sizeof c->loop_err, "%s", e);
            return;
        }
        ccbp_mon_window(c, v, now);
    }
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
    }
    if (counted)
        c->mon_end = win->end;
    if (c->alg1 && c->cfg.period && now >= c->next_run && !c->fw_pending)
        request_alg1(c, now);
}

/* Before the first cycle: the blocks' instances, then the controller's first run (the whole
 * profile written, Algorithm 1 on the profiled costs, the results read; its edges are stamped
 * with cycle 0 and cost the run no cycles). */
static int cb_start(void *impl, char *err, size_t errlen)
{
    struct ccbp *c = impl;
    if (c->loop && ccbp_loop_make(c->loop, err, errlen) != 0)
        return -1;
    if (c->alg1) {
        ctl_prepare(c, true);
        c->ctl_now = 0;
        uint64_t n = 0;
        while (!ccbp_ctl_edge(&c->ctl, ctl_lock, c))
            if (++n > CCBP_CTL_MAX_EDGES) {
                snprintf(err, errlen, "ccbp: the controller (Algorithm 1) did not finish in %u "
                         "edges", CCBP_CTL_MAX_EDGES);
                return -1;
            }
        apply_alg1(c);
    }
    return c->loop ? ccbp_loop_cycle(c->loop, 0, err, errlen) : 0;
}

static int cb_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen)
{
    struct ccbp *c = impl;
    *ready = false;
    if (c->fw_pending && now >= c->fw_compute_at)
        firmware(c, now);
    const bool ws = ccbp_ws_cycle(c, now, ready); /* Warped-Slicer's phase, its choice */
    *busy = c->fw_pending || ws; /* (the GPU must not skip the firmware's cycles) */
    if (c->loop_err[0]) {
        c->err_told = true;
        snprintf(err, errlen, "%s", c->loop_err);
        return -1;
    }
    return c->loop ? ccbp_loop_cycle(c->loop, now, err, errlen) : 0;
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
    fprintf(f, "alg1_firmware_cycles %" PRIu64 "\n", c->fw_cycles);
    if (c->loop)
        ccbp_loop_log(c->loop, f);
    ccbp_base_log(c, f);
    ccbp_ws_log(c, f);
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
    if (c->loop_err[0] && !c->err_told) /* (in the run's last cycle: no cycle() after it) */
        fprintf(stderr, "heddle: %s\n", c->loop_err);
    ccbp_loop_destroy(c->loop);
    free(c->app_of);
    free(c->res);
    free(c->irc);
    free(c->cfg_pend);
    free(c->win);
    ccbp_base_free(&c->base);
    ccbp_ws_free(c);
    free(c);
}

static const struct hd_hook_ops ccbp_hook_ops = {
    .name = "ccbp", .start = cb_start, .cycle = cb_cycle, .destroy = cb_destroy,
    .window = cb_window};
/* The same with the baselines' gates (ccbp_base.c). */
static const struct hd_hook_ops ccbp_hook_base_ops = {
    .name = "ccbp", .start = cb_start, .cycle = cb_cycle, .destroy = cb_destroy,
    .window = cb_window, .load_returned = ccbp_base_load_returned, .hold = ccbp_base_hold,
    .sched_warp = ccbp_base_sched_warp, .load_sent = ccbp_base_load_sent};
/* The same with Warped-Slicer's sampling phase (ccbp_ws.c: each SM's issues per application). */
static const struct hd_hook_ops ccbp_hook_ws_ops = {
    .name = "ccbp", .start = cb_start, .cycle = cb_cycle, .destroy = cb_destroy,
    .window = cb_window, .sched_warp = ccbp_ws_sched_warp};

/* Warped-Slicer online with Dai18's limit (session 31): both follow every warp event, the phase
 * for its SMs' issues per application, the limit for the warp slots' applications. */
static void ws_base_sched_warp(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                               const struct hd_warp_view *v, uint64_t now)
{
    ccbp_ws_sched_warp(impl, sm, slot, ev, v, now);
    ccbp_base_sched_warp(impl, sm, slot, ev, v, now);
}

/* The same with both: the phase's sched_warp and the limit's hold, load_sent, load_returned. */
static const struct hd_hook_ops ccbp_hook_ws_base_ops = {
    .name = "ccbp", .start = cb_start, .cycle = cb_cycle, .destroy = cb_destroy,
    .window = cb_window, .load_returned = ccbp_base_load_returned, .hold = ccbp_base_hold,
    .sched_warp = ws_base_sched_warp, .load_sent = ccbp_base_load_sent};
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
        const struct ccbp_caps caps = caps_of(c);
        if (ccbp_ctl_check(&c->prof, &caps, k->alg1_step_cycles, err, errlen) != 0)
            return -1;
        c->alg1 = true;
        c->napps = c->prof.k > c->napps ? c->prof.k : c->napps;
        c->next_run = k->period; /* (the first run: cb_start) */
    }
    if (!c->napps)
        c->napps = 1;
    for (uint32_t sm = 0; sm < c->nsm; sm++) /* the IRCs' quotas and LS bits, at the first edge */
        c->cfg_pend[sm] = (uint8_t)((1u << CCBP_APPS) - 1u);
    if (k->period && c->alg1 && ccbp_loop_reads(c->napps) + 2 >= k->monitor_window) {
        snprintf(err, errlen, "[ccbp] monitor_window %" PRIu64 " is too short for the "
                 "firmware's %u snapshot reads before the next window closes", k->monitor_window,
                 ccbp_loop_reads(c->napps));
        return -1;
    }
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
        !(c->irc = calloc(nsm, sizeof *c->irc)) || !(c->cfg_pend = calloc(nsm, 1)) ||
        !(c->win = calloc(nsm, sizeof *c->win))) {
        if (c) {
            free(c->res);
            free(c->irc);
            free(c->cfg_pend);
        }
        free(c);
        snprintf(err, errlen, "host out of memory creating CCBP");
        return -1;
    }
    c->p = env->p;
    c->cfg = env->p->ccbp;
    c->nsm = nsm;
    c->mon = env->mon;
    c->sub1 = -1;
    for (uint32_t sm = 0; sm < nsm; sm++)
        hd_ccbp_irc_ref_reset(&c->irc[sm]);
    c->mach = (struct ccbp_machine){nsm, c->cfg.l2_slices, c->cfg.dram_channels, env->p->core_mhz,
                                    c->cfg.icnt_mhz, c->cfg.dram_mhz};
    if (configure(c, err, errlen) != 0 ||
        ccbp_base_make(c, &c->cfg, env->p->sm.max_warps, err, errlen) != 0 ||
        ccbp_ws_make(c, env->p->sm.max_warps, err, errlen) != 0 ||
        (c->sub = hd_monitor_subscribe(env->mon, c->cfg.monitor_window, err, errlen)) < 0) {
        c->cfg.log[0] = 0; /* (no log of a run that did not start) */
        cb_destroy(c);
        return -1;
    }
    hd_ccbp_monitor_ref_reset(&c->mw.s);
    c->mw.rd_next = ~0u;
    if ((c->cfg.blocks &&
         !(c->loop = ccbp_loop_create(env->p, c->napps, env->hw, err, errlen))) ||
        ((c->loop || (c->alg1 && c->cfg.period)) &&
         (c->sub1 = hd_monitor_subscribe(env->mon, 1, err, errlen)) < 0)) {
        c->cfg.log[0] = 0;
        cb_destroy(c);
        return -1;
    }
    hd_mem_full_set_mq_policy(env->mem, &ccbp_irc_ops, c);
    *env->admit = (struct hd_cta_admit){&ccbp_admit_ops, c};
    /* (ccbp_ws_make refused SMK's quotas with ws_online: with it only Dai18's limit) */
    *out = (struct hd_hook){c->ws && c->base.lim         ? &ccbp_hook_ws_base_ops
                            : c->ws                      ? &ccbp_hook_ws_ops
                            : c->base.smk || c->base.lim ? &ccbp_hook_base_ops
                                                         : &ccbp_hook_ops,
                            c};
    return 0;
}

const struct hd_mech hd_mech_ccbp = {
    "ccbp",
    "Lin thesis ch.4 (CCBP): CTA combination, issue-rate controllers, bandwidth monitors, "
    "Algorithm 1",
    NULL, 0, NULL, 0, ccbp_attach,
};
