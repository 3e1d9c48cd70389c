/* SPDX-License-Identifier: MIT
 * gpu_timing.c - the GPU top: creation, policies and the cycle loop (sleeping SMs: gpu_sleep.c)
 * (docs/timing.md "The GPU top").
 *
 * Design: see gpu_timing.h. The launches of a batch and their bookkeeping are in gpu_launch.c,
 * the CTA scheduler in cta_sched.c, reports (watchdog, sampling) in gpu_report.c; all share
 * gpu_impl.h.
 */
#include "gpu_impl.h"
#include "ctx_wmove.h"

#include "func_status.h"
#include "gpu_limits.h"
#include "hw_ref.h"
#include "mem_fixed.h"
#include "mem_full.h"
#include "monitor_core.h"
#include "sm_policy.h"
#include "cta_dist_locality.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLL_CYCLES 4096u
#define PROGRESS_CYCLES 65536u

/* {==== Creation ==== */
/* Every mechanism's hardware the run uses, as hooks (mech.h), in registry order. */
static int attach_mechanisms(struct hd_gpu_timing *g, char *err, size_t errlen)
{
    for (uint32_t m = 0; m < hd_nmechs; m++) {
        if (!hd_mechs[m]->attach)
            continue;
        const struct hd_mech_env env = {&g->p, &g->hw,
                                        m == g->ppol_mech ? g->ppol.ops->tables : 0, g->mon,
                                        &g->mem, &g->admit, hd_gpu_mech_act(g)};
        struct hd_hook k = {NULL, NULL};
        hd_monitor_set_owner(g->mon, (int)g->hooks.n); /* its subscriptions' windows go to it */
        const int st = hd_mechs[m]->attach(&env, &k, err, errlen);
        hd_monitor_set_owner(g->mon, -1);
        if (st != 0)
            return -1;
        if (hd_hooks_add(&g->hooks, k, err, errlen) != 0) {
            if (k.ops->destroy)
                k.ops->destroy(k.impl);
            return -1;
        }
        if (m == g->ppol_mech && k.ops && k.ops->tables)
            g->ppol_tables = k.ops->tables(k.impl);
    }
    g->mon_next = hd_monitor_next(g->mon);
    if (g->hooks.any_stalled && g->mem.l1_notices_on) /* the L1D misses of loads reach the SMs */
        g->mem.l1_notices_on(g->mem.impl);
    return 0;
}

/* Tell the hooks that take it that SM i was made; one may answer its operand-location policy
 * (mech.h sm_made: Zorua's mapping tables). */
static int hooks_sm_made(struct hd_gpu_timing *g, uint32_t i, char *err, size_t errlen)
{
    for (unsigned k = 0; k < g->hooks.n; k++) {
        const struct hd_hook *h = &g->hooks.h[k];
        if (!h->ops->sm_made)
            continue;
        const struct hd_oloc_ops *ops = NULL;
        void *impl = NULL;
        if (h->ops->sm_made(h->impl, i, hd_sm_alloc_of(g->sm[i]), &g->stats, &ops, &impl, err,
                            errlen) != 0)
            return -1;
        if (ops && !hd_sm_set_oloc(g->sm[i], ops, impl)) {
            snprintf(err, errlen, "%s: SM %u: the operand-location policy was refused",
                     h->ops->name, i);
            return -1;
        }
    }
    return 0;
}

/* [oloc] stress_period > 0: SM i gets the operand-location stress policy (oloc_stress.h). */
static int install_oloc_stress(struct hd_gpu_timing *g, uint32_t i)
{
    const struct hd_oloc_ops *ops;
    void *impl;
    if (hd_oloc_stress_create(&g->p.oloc_stress, i, g->p.sm.reg_banks, &ops, &impl) != 0)
        return -1;
    if (!hd_sm_own_oloc(g->sm[i], ops, impl)) {
        ops->destroy(impl);
        return -1;
    }
    return 0;
}

/* The hooks' operand-location policies for SM i (mech.h's oloc; at most one installs). */
static int install_mech_oloc(struct hd_gpu_timing *g, uint32_t i, char *err, size_t errlen)
{
    for (unsigned k = 0; k < g->hooks.n; k++) {
        const struct hd_hook *h = &g->hooks.h[k];
        if (!h->ops->oloc)
            continue;
        const struct hd_oloc_ops *ops = NULL;
        void *impl = NULL;
        if (h->ops->oloc(h->impl, i, hd_sm_alloc_of(g->sm[i]), &ops, &impl, err, errlen) != 0)
            return -1;
        if (ops && !hd_sm_own_oloc(g->sm[i], ops, impl)) {
            if (ops->destroy)
                ops->destroy(impl);
            snprintf(err, errlen, "hook %s: SM %u has an operand-location policy already",
                     h->ops->name, i);
            return -1;
        }
    }
    return 0;
}

/* Issue 33: the hooks that want the SM's warp schedulers (mech.h's sched_made). */
static int install_mech_sched(struct hd_gpu_timing *g, uint32_t i, char *err, size_t errlen)
{
    for (unsigned k = 0; k < g->hooks.n; k++) {
        const struct hd_hook *h = &g->hooks.h[k];
        for (uint32_t s = 0; h->ops->sched_made && s < g->p.sm.num_sched; s++)
            if (h->ops->sched_made(h->impl, i, s, hd_sm_sched_of(g->sm[i], s), err, errlen) != 0)
                return -1;
    }
    return 0;
}

int hd_gpu_timing_create(const struct hd_config *cfg, struct hd_gpu_timing **out, char *err,
                         size_t errlen)
{
    *out = NULL;
    struct hd_gpu_timing *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "host out of memory creating the timing model");
        return HD_FUNC_ERR_MEMORY;
    }
    g->cfg = *cfg;
    hd_ctx_pool_init(&g->pool);
    hd_occ_params_from_config(cfg, &g->occ);
    if (hd_regs_source_parse(cfg->sm_regs_source.s, cfg->sm_max_regs_per_thread, &g->regs_src,
                             err, errlen) != 0 ||
        hd_timing_params_init(cfg, &g->p, err, errlen) != 0) {
        free(g);
        return HD_FUNC_ERR_CONFIG;
    }
    const uint32_t nsms = g->p.num_sms;
    if (cfg->mem_model == HD_MEMMODEL_FULL && hd_mem_full_create(cfg, &g->mem, err, errlen) != 0) {
        free(g); /* [mem] model = full: the memory system of model/mem (docs/memory.md) */
        return HD_FUNC_ERR_CONFIG;
    }
    if (hd_timing_stats_init(&g->stats, nsms, g->p.sm.num_sched, g->p.core_mhz) != 0 ||
        (!g->mem.ops && hd_mem_fixed_create(&g->p.mem, &g->mem, err, errlen) != 0) ||
        (g->p.cta_dist == HD_CTADIST_LOCALITY
             ? hd_cta_dist_locality_create(nsms, g->p.cta_dist_chunk, g->p.cta_dist_order,
                                           &g->dist)
             : hd_cta_dist_create(g->p.cta_dist, nsms, &g->dist)) != 0 ||
        hd_ksel_create(g->p.kernel_select, &g->ksel) != 0 ||
        !(g->sm = calloc(nsms, sizeof *g->sm)) || !(g->ok = calloc(nsms, sizeof *g->ok)) ||
        !(g->got = calloc(nsms, sizeof *g->got)) ||
        !(g->sleep_until = calloc(nsms, sizeof *g->sleep_until)) ||
        !(g->acct = calloc(nsms, sizeof *g->acct)) ||
        !(g->evicted = calloc(64, sizeof *g->evicted)) ||
        !(g->reserved = calloc(nsms, sizeof *g->reserved))) {
        hd_gpu_timing_destroy(g);
        snprintf(err, errlen, "host out of memory creating the timing model");
        return HD_FUNC_ERR_MEMORY;
    }
    if (!(g->mon = hd_monitor_create(&g->stats, &g->mem, &g->hooks))) {
        hd_gpu_timing_destroy(g);
        snprintf(err, errlen, "host out of memory creating the timing model");
        return HD_FUNC_ERR_MEMORY;
    }
    g->stats.sm_bytes_per_cycle = g->p.ctx.sm_bytes_per_cycle; /* (the JSON's totals) */
    if (hd_gpu_preempt_init(g, err, errlen) != 0 || attach_mechanisms(g, err, errlen) != 0) {
        hd_gpu_timing_destroy(g);
        return HD_FUNC_ERR_MEMORY;
    }
    if (!g->admit.ops) { /* (a mechanism may have installed its own in attach(): mech.h) */
        g->admit = (struct hd_cta_admit){&hd_cta_admit_all, NULL}; /* [timing] admit */
        if (g->p.admit == HD_ADMIT_LAUNCH_QUOTA)
            g->admit = (struct hd_cta_admit){&hd_cta_admit_launch_quota, &g->p.admit_quota};
        else if (g->p.admit == HD_ADMIT_KERNEL_QUOTA)
            g->admit = (struct hd_cta_admit){&hd_cta_admit_kernel_quota, &g->p.admit_quota};
    }
    for (uint32_t i = 0; i < nsms; i++) {
        struct hd_sm_env env = {&g->mem, &g->stats.sm[i], &g->stats.sched[i * g->p.sm.num_sched],
                                &g->pool, &g->p.ctx, &g->hw};
        g->sm[i] = hd_sm_create(&g->p.sm, i, &env, err, errlen);
        if (!g->sm[i]) {
            hd_gpu_timing_destroy(g);
            return HD_FUNC_ERR_MEMORY;
        }
        g->alloc_timed |= hd_sm_alloc_timed(g->sm[i]);
        hd_sm_set_hooks(g->sm[i], &g->hooks);
        if (g->p.oloc_stress.period && install_oloc_stress(g, i) != 0) {
            hd_gpu_timing_destroy(g);
            snprintf(err, errlen, "host out of memory creating the operand-location stress");
            return HD_FUNC_ERR_MEMORY;
        }
        if (hooks_sm_made(g, i, err, errlen) != 0) {
            hd_gpu_timing_destroy(g);
            return HD_FUNC_ERR_CONFIG;
        }
        if (install_mech_oloc(g, i, err, errlen) != 0 ||
            install_mech_sched(g, i, err, errlen) != 0) {
            hd_gpu_timing_destroy(g);
            return HD_FUNC_ERR_CONFIG;
        }
        if (g->p.sm.warp_mover != HD_WMOVER_FIXED && !hd_sm_wmove_install(g->sm[i])) {
            hd_gpu_timing_destroy(g); /* [sm] warp_mover: the mover's side (ctx_wmove.h) */
            snprintf(err, errlen, "host out of memory installing the warp mover");
            return HD_FUNC_ERR_MEMORY;
        }
    }
    g->pool.sms = g->sm;
    g->pool.nsms = nsms;
    g->rng = g->p.ctx.stress_seed * 0x9E3779B97F4A7C15ull + 1;
    g->vrng = g->p.ctx.stress_seed * 0xD1B54A32D192ED03ull + 7;
    *out = g;
    return HD_FUNC_OK;
}

void hd_gpu_timing_destroy(struct hd_gpu_timing *g)
{
    if (!g)
        return;
    if (g->sm)
        for (uint32_t i = 0; i < g->p.num_sms; i++)
            hd_sm_destroy(g->sm[i]);
    free(g->sm);
    free(g->ok);
    free(g->got);
    free(g->sleep_until);
    free(g->acct);
    free(g->evicted);
    free(g->reserved);
    hd_gpu_preempt_free(g);
    hd_hooks_destroy(&g->hooks);
    hd_monitor_destroy(g->mon);
    hd_ctx_pool_free(&g->pool);
    if (g->mem.ops)
        g->mem.ops->destroy(g->mem.impl);
    if (g->dist.ops)
        g->dist.ops->destroy(g->dist.impl);
    if (g->ksel.ops)
        g->ksel.ops->destroy(g->ksel.impl);
    if (g->admit.ops && g->admit.ops->destroy)
        g->admit.ops->destroy(g->admit.impl);
    for (uint32_t i = 0; i < g->ntk; i++) {
        hd_tkernel_free(g->tk[i].tk);
        free(g->tk[i].done);
    }
    free(g->tk);
    hd_gpu_launches_clear(g);
    free(g->L);
    free(g->cand);
    free(g->cand_index);
    free(g->order);
    free(g->fin);
    hd_timing_stats_free(&g->stats);
    free(g);
}

const struct hd_timing_stats *hd_gpu_timing_stats(const struct hd_gpu_timing *g)
{
    return &g->stats;
}

const struct hd_mem *hd_gpu_timing_mem(const struct hd_gpu_timing *g)
{
    return &g->mem;
}

void hd_gpu_timing_copied_h2d(struct hd_gpu_timing *g, uint64_t addr, uint64_t bytes)
{
    hd_mem_full_preload(&g->mem, addr, bytes);
}

void hd_gpu_timing_set_sampling(struct hd_gpu_timing *g, uint64_t cycles)
{
    g->stats.sample_every = cycles;
}

void hd_gpu_timing_set_progress(struct hd_gpu_timing *g, hd_gpu_timing_progress_fn fn, void *ctx)
{
    g->progress = fn;
    g->progress_ctx = ctx;
}

void hd_gpu_timing_set_hw_factory(struct hd_gpu_timing *g, const struct hd_hw_factory *f)
{
    g->hw = f;
}

/* }==== */

/* {==== Policies ==== */
void hd_gpu_timing_set_admit(struct hd_gpu_timing *g, const struct hd_cta_admit_ops *ops,
                             void *impl)
{
    if (g->admit.ops && g->admit.ops->destroy)
        g->admit.ops->destroy(g->admit.impl);
    g->admit.ops = ops ? ops : &hd_cta_admit_all;
    g->admit.impl = ops ? impl : NULL;
}

int hd_gpu_timing_set_alloc(struct hd_gpu_timing *g, hd_sm_alloc_make_fn make, void *ctx)
{
    bool timed = false;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        struct hd_sm_alloc a, old;
        if (make(&g->p.sm, s, ctx, &a) != 0)
            return -1;
        if (!hd_sm_alloc_replace(g->sm[s], &a, &old)) {
            a.ops->destroy(a.impl);
            return -1;
        }
        old.ops->destroy(old.impl);
        timed |= hd_sm_alloc_timed(g->sm[s]);
    }
    g->alloc_timed = timed;
    return 0;
}
/* }==== */

/* {==== The cycle loop ==== */
/* Totals and the idle stalls, with sleeping SMs accounted up to cycle `upto`. */
static void finalize_stats(struct hd_gpu_timing *g, uint64_t upto)
{
    hd_gpu_account_all(g, upto);
    struct hd_timing_stats *s = &g->stats;
    s->warp_instrs = s->thread_instrs = 0;
    for (uint32_t i = 0; i < s->num_sms; i++) {
        s->warp_instrs += s->sm[i].warp_instrs;
        s->thread_instrs += s->sm[i].thread_instrs;
    }
    for (uint32_t i = 0; i < s->num_sms * s->num_sched; i++) {
        struct hd_sched_stats *q = &s->sched[i];
        uint64_t used = q->issue_cycles + q->stall_pipeline + q->stall_memory +
                        q->stall_scoreboard + q->stall_barrier + q->stall_ibuffer;
        q->stall_idle = s->cycles > used ? s->cycles - used : 0;
    }
}

static void abort_run(struct hd_gpu_timing *g)
{
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        g->sleep_until[s] = 0;
        hd_sm_abort(g->sm[s]);
    }
    hd_ctx_pool_reset(&g->pool);
    for (unsigned i = 0; i < g->nl; i++)
        g->L[i]->sl.ctxs = (struct hd_ctx_list){HD_CTX_NONE, HD_CTX_NONE, HD_CTX_NONE, 0};
    g->mem.ops->flush(g->mem.impl);
    g->running = 0;
}

/* Tick every busy SM. Returns progress; a fault sets *st. */
static bool tick_sms(struct hd_gpu_timing *g, int *st, char *err, size_t errlen)
{
    bool progress = false;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        struct hd_sm *sm = g->sm[s];
        if (g->sleep_until[s]) {
            if (g->sleep_until[s] > g->now && !hd_sm_has_inbox(sm))
                continue; /* (a response forwarded to it this cycle wakes it, as if awake) */
            hd_gpu_sm_wake(g, s, g->now - 1);
        }
        if (g->alloc_timed && hd_sm_alloc_tick(sm, g->now)) {
            g->dirty = true;
            progress = true;
        }
        if (g->alloc_timed && hd_sm_alloc_fault(sm, err, errlen) != 0) {
            *st = HD_FUNC_ERR_INTERNAL;
            return true;
        }
        if (!hd_sm_busy(sm))
            continue;
        bool moved = hd_sm_tick(sm, g->now, st, err, errlen);
        if (*st != HD_FUNC_OK)
            return true;
        if (hd_gpu_collect(g, s) | (g->pool.evicted && hd_gpu_ctx_collect(g, s))) {
            g->dirty = true;
            moved = true;
        }
        if (!moved && g->p.skip_idle && g->mem.next_event_sm) {
            uint64_t t = hd_gpu_sm_wake_time(g, s);
            if (t > g->now + 1)
                hd_gpu_sm_sleep(g, s, t);
        }
        progress |= moved;
    }
    for (uint32_t s = 0; s < g->p.num_sms; s++) /* responses forwarded to a sleeping SM */
        if (g->sleep_until[s] && hd_sm_has_inbox(g->sm[s]))
            hd_gpu_wake_sm(g, s);
    return progress;
}

/* After a cycle without progress: skip ahead to the next cycle where something can happen,
 * accounting the skipped cycles as the stalls of the last one. `waiting`: no work has arrived
 * (hd_gpu_work_arrived), so the jump may reach the next arrival at once: neither the watchdog
 * nor the poll bounds it (the run loop polls every waiting cycle), [timing] max_cycles does. */
static void skip_idle(struct hd_gpu_timing *g, bool waiting)
{
    uint64_t next = g->mem.ops->next_event ? g->mem.ops->next_event(g->mem.impl, g->now)
                                           : g->now + 1;
    for (uint32_t s = 0; s < g->p.num_sms && next > g->now + 1; s++) {
        uint64_t t = g->sleep_until[s] ? g->sleep_until[s]
                     : hd_sm_busy(g->sm[s]) ? hd_sm_next_event(g->sm[s], g->now)
                                            : UINT64_MAX;
        if (g->alloc_timed && !g->sleep_until[s]) { /* the allocator's timers (sm_policy.h) */
            uint64_t at = hd_sm_alloc_next_event(g->sm[s], g->now);
            t = at < t ? at : t;
        }
        next = t < next ? t : next;
    }
    if (g->stats.sample_every) {
        uint64_t t = (g->now / g->stats.sample_every + 1) * g->stats.sample_every;
        next = t < next ? t : next;
    }
    next = g->mon_next < next ? g->mon_next : next; /* a monitor window's close */
    uint64_t poll = (g->now / POLL_CYCLES + 1) * POLL_CYCLES;
    if (!waiting)
        next = poll < next ? poll : next;
    else if (g->p.max_cycles && g->p.max_cycles > g->now && g->p.max_cycles < next)
        next = g->p.max_cycles;
    uint64_t tc = hd_gpu_ctx_next_event(g);
    next = tc < next ? tc : next;
    if (g->next_arrival <= next) { /* waiting for a launch to arrive is not a hang */
        next = g->next_arrival;
        g->idle = 0;
    }
    if (next == UINT64_MAX || next <= g->now + 1)
        return;
    uint64_t n = next - g->now - 1; /* cycles now+1 .. next-1 */
    if (!waiting && g->idle + n >= g->p.watchdog)
        n = g->p.watchdog > g->idle + 1 ? g->p.watchdog - g->idle - 1 : 0;
    if (n == 0)
        return;
    for (uint32_t s = 0; s < g->p.num_sms; s++) /* they wake at the end of the jump */
        if (!g->sleep_until[s] && hd_sm_busy(g->sm[s]))
            hd_gpu_sm_sleep(g, s, g->now + n + 1);
    g->now += n;
    g->stats.cycles += n;
    g->stats.skipped_cycles += n;
    g->idle = waiting ? 0 : g->idle + n;
    if (waiting) /* nor does the instruction watchdog count the wait (gpu_limits.h) */
        g->instr_cycle = g->now;
}

/* "kernel: interrupted in block (x,y,z) at cycle N ...": the oldest unfinished launch and its
 * lowest resident CTA (as the functional runner names the block it was in). */
static void interrupted(const struct hd_gpu_timing *g, char *err, size_t errlen)
{
    const struct tlaunch *t = g->first_unfinished < g->nl ? g->L[g->first_unfinished] : NULL;
    uint32_t ctaid[3] = {0, 0, 0};
    uint64_t best = UINT64_MAX;
    for (uint32_t s = 0; t && s < g->p.num_sms; s++) {
        uint64_t linear;
        uint32_t id[3];
        if (hd_sm_lowest_cta(g->sm[s], &t->sl, &linear, id) && linear < best) {
            best = linear;
            memcpy(ctaid, id, sizeof ctaid);
        }
    }
    snprintf(err, errlen,
             "%s: interrupted in block (%u,%u,%u) at cycle %" PRIu64 " (%u of %u launches done, "
             "%" PRIu64 " warp instructions timed)",
             t ? t->sl.l->k->entry->name : "?", ctaid[0], ctaid[1], ctaid[2], g->now, g->done,
             g->nl, t ? t->sl.info->c.warp_instrs : 0);
}

static int run_loop(struct hd_gpu_timing *g, volatile sig_atomic_t *interrupt, char *err,
                    size_t errlen)
{
    int st = HD_FUNC_OK;
    g->dirty = true;
    if (hd_hooks_start(&g->hooks, err, errlen) != 0)
        return HD_FUNC_ERR_CONFIG;
    while (g->done < g->nl) {
        bool progress = g->mem.ops->tick(g->mem.impl, g->now);
        progress |= tick_sms(g, &st, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
        if (g->nfin && (st = hd_gpu_launches_notify(g, err, errlen)) != HD_FUNC_OK)
            return st; /* the finish hook (open-ended co-running) may have added launches */
        if (g->dirty) {
            int placed = hd_gpu_schedule_ctas(g, err, errlen);
            if (placed < 0)
                return placed;
            g->dirty = placed > 0;
            progress |= placed > 0;
        }
        if (g->p.ctx.stress_period && g->now % g->p.ctx.stress_period == 0 && g->now)
            hd_gpu_ctx_stress(g);
        if (g->p.ctx.swap_stress_period && g->now % g->p.ctx.swap_stress_period == 0 && g->now)
            hd_gpu_vstress(g, false);
        if (g->p.ctx.move_stress_period && g->now % g->p.ctx.move_stress_period == 0 && g->now)
            hd_gpu_vstress(g, true);
        while (g->now >= hd_gpu_preempt_next_signal(g))
            hd_gpu_preempt_signal(g);
        if (g->now >= g->next_arrival) { /* a launch arrives: the CTA scheduler looks again */
            g->next_arrival = hd_gpu_next_arrival(g);
            g->dirty = true;
        }
        if (g->stats.npreempt || g->held)
            hd_gpu_preempt_tick(g);
        if (g->hooks.n) { /* the mechanisms' hardware takes this cycle's events (mech.h) */
            bool ready, busy;
            if (hd_hooks_cycle(&g->hooks, g->now, &ready, &busy, err, errlen) != 0)
                return HD_FUNC_ERR_INTERNAL;
            g->dirty |= ready; /* a snapshot is in: the policy may decide now */
            progress |= ready || busy;
        }
        if (g->stats.sample_every && g->now % g->stats.sample_every == 0)
            hd_gpu_sample(g);
        if (g->now >= g->mon_next) { /* monitor windows end with this cycle (monitor.h) */
            hd_monitor_close(g->mon, g->now);
            g->mon_next = hd_monitor_next(g->mon);
        }
        if ((st = hd_gpu_observe(g, err, errlen)) != HD_FUNC_OK)
            return st;
        const bool waiting = !progress && !hd_gpu_work_arrived(g); /* for a launch to arrive */
        g->idle = progress || waiting ? 0 : g->idle + 1;
        if (g->idle >= g->p.watchdog) {
            hd_gpu_watchdog_report(g, err, errlen);
            return HD_FUNC_ERR_INTERNAL;
        }
        if (g->now % POLL_CYCLES == 0 || waiting) {
            if (interrupt && *interrupt) {
                interrupted(g, err, errlen);
                return HD_FUNC_ERR_INTERRUPTED;
            }
            if ((st = hd_gpu_livelock_check(g, waiting, err, errlen)) != HD_FUNC_OK)
                return st;
            if (g->progress && g->now % PROGRESS_CYCLES == 0) {
                finalize_stats(g, g->now);
                g->progress(g->progress_ctx, &g->stats, g->now, g->done, g->nl);
            }
        }
        if (!progress && g->p.skip_idle && g->done < g->nl && !g->dirty)
            skip_idle(g, waiting);
        g->now++;
        g->stats.cycles++;
        if ((st = hd_gpu_limits_check(g, err, errlen)) != HD_FUNC_OK) { /* --max-cycles etc. */
            if (g->p.max_cycles && g->now >= g->p.max_cycles)
                g->stats.limit_stop = g->now;
            return st;
        }
    }
    return HD_FUNC_OK;
}

int hd_gpu_timing_run(struct hd_gpu_timing *g, struct hd_func_launch *const *ls, const int *streams,
                      unsigned n, volatile sig_atomic_t *interrupt, char *err, size_t errlen)
{
    if (n == 0)
        return HD_FUNC_OK;
    hd_gpu_launches_clear(g);
    for (unsigned i = 0; i < n; i++) {
        int st = hd_gpu_launch_add(g, ls[i], streams[i], err, errlen);
        if (st != HD_FUNC_OK)
            return st;
    }
    hd_gpu_launches_bind(g);
    g->done = g->running = g->first_unfinished = 0;
    g->dist.ops->reset(g->dist.impl);
    if (g->hooks.any_dist)
        hd_hooks_dist_reset(&g->hooks, g->now);
    g->idle = 0;
    g->instr_last = UINT64_MAX; /* the first poll starts the instruction watchdog's window */
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        g->reserved[s] = HD_RESERVED_NONE;
    g->held = false;
    g->next_arrival = hd_gpu_next_arrival(g);
    int st = run_loop(g, interrupt, err, errlen);
    /* the cycle in progress counts, unless [timing] max_cycles stopped the run: then cycles
     * 0 .. max_cycles - 1 ran and none is in progress (a --window measures exactly them) */
    if (st != HD_FUNC_OK && !g->stats.limit_stop) {
        g->now++;
        g->stats.cycles++;
    }
    hd_gpu_account_all(g, g->now - 1);
    memset(g->sleep_until, 0, g->p.num_sms * sizeof *g->sleep_until);
    if (st != HD_FUNC_OK)
        abort_run(g);
    finalize_stats(g, g->now - 1);
    return st;
}
/* }==== */
