/* SPDX-License-Identifier: MIT
 * runner.c - functional-only execution of a launch: CTA by CTA, warps round-robin.
 *
 * Design: see runner.h. %clock reads the launch's warp-instruction count, which is deterministic.
 */
#include "runner.h"

#include "cta.h"
#include "exec.h"
#include "func_status.h"
#include "observer.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int deadlock(struct hd_func_launch *l, const struct hd_func_cta *c)
{
    const struct hd_func_kernel *k = l->k;
    uint32_t waiting = 0, first = UINT32_MAX;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (c->warps[i].at_barrier) {
            waiting++;
            if (first == UINT32_MAX)
                first = i;
        }
    }
    if (first == UINT32_MAX) {
        snprintf(l->err, sizeof l->err, "%s: internal: block (%u,%u,%u) cannot progress", k->entry->name,
                 c->ctaid[0], c->ctaid[1], c->ctaid[2]);
        return HD_FUNC_ERR_INTERNAL;
    }
    const struct hd_func_warp *w = &c->warps[first];
    const struct hd_func_barrier *b = &c->bar[w->bar_id];
    const struct hd_func_instr *d = &k->code[w->bar_pc];
    uint32_t expected = b->expected_warps ? b->expected_warps : c->live_warps;
    snprintf(l->err, sizeof l->err,
             "%s: barrier deadlock in block (%u,%u,%u): barrier %u at PC %u, %s:%u, has %u of %u "
             "warps arrived and no other warp can run (%u waiting, %u finished)",
             k->entry->name, c->ctaid[0], c->ctaid[1], c->ctaid[2], w->bar_id, w->bar_pc,
             k->mod->ir->filename ? k->mod->ir->filename : "<ptx>", d->ir->line, b->arrived,
             expected, waiting, c->nwarps - c->live_warps);
    return HD_FUNC_ERR_FAULT;
}

/* The observer's points (observer.h): a sample every obs->every warp instructions of the launch,
 * and a TB-wide point after each barrier release. */
static int observe(struct hd_func_launch *l, struct hd_func_cta *c, uint64_t *next_sample,
                   uint64_t *releases)
{
    const struct hd_func_observer *obs = l->observer;
    int st = HD_FUNC_OK;
    if (c->bar_releases != *releases) {
        *releases = c->bar_releases;
        if (obs->barrier)
            st = obs->barrier(obs->ctx, l, c, l->warp_instrs);
    }
    if (st == HD_FUNC_OK && obs->every && l->warp_instrs >= *next_sample) {
        *next_sample = (l->warp_instrs / obs->every + 1) * obs->every;
        if (obs->sample)
            st = obs->sample(obs->ctx, l, c, l->warp_instrs);
    }
    return st;
}

/* [timing] max_instructions reached (counted over the run, as in cycle mode): where the warp
 * that crossed it is, and where every warp of its block is (one block runs at a time here). */
static void warp_where(const struct hd_func_kernel *k, const struct hd_func_warp *w, char *out,
                       size_t len)
{
    const uint32_t pc = !w->done && w->sp ? (uint32_t)w->stack[w->sp - 1].pc : k->ncode;
    if (w->done || pc >= k->ncode)
        snprintf(out, len, "finished");
    else
        snprintf(out, len, "%sat PC %u, %s:%u", w->at_barrier ? "waiting at a barrier " : "", pc,
                 k->mod->ir->filename ? k->mod->ir->filename : "<ptx>", k->code[pc].ir->line);
}

static int limit_reached(struct hd_func_launch *l, const struct hd_func_cta *c,
                         const struct hd_func_warp *w)
{
    const struct hd_func_kernel *k = l->k;
    char where[256];
    warp_where(k, w, where, sizeof where);
    int n = snprintf(l->err, sizeof l->err, "%s: stopped at the limit [timing] max_instructions = "
                     "%" PRIu64 " after %" PRIu64 " warp instructions of the run (%" PRIu64
                     " of this launch), in block (%u,%u,%u), warp %u %s; the block's warps:",
                     k->entry->name, l->max_instrs, l->instrs_before + l->warp_instrs,
                     l->warp_instrs, c->ctaid[0], c->ctaid[1], c->ctaid[2], w->id, where);
    for (uint32_t i = 0; i < c->nwarps && n > 0 && (size_t)n < sizeof l->err; i++) {
        warp_where(k, &c->warps[i], where, sizeof where);
        const bool last = i + 1 == c->nwarps;
        if ((size_t)n + strlen(where) + 40 >= sizeof l->err && !last) {
            snprintf(l->err + n, sizeof l->err - (size_t)n, " ... (%u more)", c->nwarps - i);
            break;
        }
        n += snprintf(l->err + n, sizeof l->err - (size_t)n, " %u %s%s", i, where,
                      last ? "" : ";");
    }
    return HD_FUNC_ERR_INTERNAL;
}

static int run_cta(struct hd_func_launch *l, struct hd_func_cta *c, uint64_t *poll)
{
    uint64_t next_sample = 0, releases = c->bar_releases;
    if (l->observer && l->observer->every)
        next_sample = (l->warp_instrs / l->observer->every + 1) * l->observer->every;
    while (!hd_func_cta_done(c)) {
        bool progress = false;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            struct hd_func_warp *w = &c->warps[i];
            for (unsigned q = 0; q < HD_FUNC_RUN_QUANTUM && hd_func_warp_ready(w); q++) {
                int st = hd_func_warp_step(l, c, w, l->warp_instrs, NULL);
                if (st == HD_FUNC_OK && l->observer)
                    st = observe(l, c, &next_sample, &releases);
                if (st == HD_FUNC_OK && l->max_instrs &&
                    l->instrs_before + l->warp_instrs > l->max_instrs)
                    st = limit_reached(l, c, w); /* more than the limit: a run of exactly
                                                    max_instructions completes */
                if (st != HD_FUNC_OK)
                    return st;
                progress = true;
            }
            if (l->warp_instrs >= *poll) {
                *poll = l->warp_instrs + HD_FUNC_RUN_POLL;
                if (l->interrupt && *l->interrupt) {
                    snprintf(l->err, sizeof l->err, "%s: interrupted in block (%u,%u,%u) after %" PRIu64
                             " warp instructions",
                             l->k->entry->name, c->ctaid[0], c->ctaid[1], c->ctaid[2], l->warp_instrs);
                    return HD_FUNC_ERR_INTERRUPTED;
                }
            }
        }
        if (!progress && !hd_func_cta_done(c))
            return deadlock(l, c);
    }
    return HD_FUNC_OK;
}

int hd_func_run(struct hd_func_launch *l)
{
    uint64_t poll = l->warp_instrs + HD_FUNC_RUN_POLL;
    struct hd_func_cta c;
    if (l->nctas == 0)
        return HD_FUNC_OK;
    int st = hd_func_cta_init(&c, l, 0, 0, l->err, sizeof l->err);
    for (uint64_t i = 0; i < l->nctas && st == HD_FUNC_OK; i++) {
        uint32_t smid = l->gpu.num_sms ? (uint32_t)(i % l->gpu.num_sms) : 0;
        if (i > 0)
            hd_func_cta_reset(&c, i, smid);
        st = run_cta(l, &c, &poll);
    }
    if (c.warps)
        hd_func_cta_destroy(&c);
    return st;
}
