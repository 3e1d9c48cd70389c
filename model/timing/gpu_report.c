/* SPDX-License-Identifier: MIT
 * gpu_report.c - what the GPU top reports while it runs: time-series samples and the watchdog's
 * deadlock report.
 *
 * Design: a sample records cumulative warp instructions, resident warps and CTAs over all SMs
 * and the finished CTAs of every launch that is running. The watchdog report lists the launches
 * with their progress, the first two busy SMs' waiting warps (state, PC, PTX line) with their
 * allocator's own state (a mechanism's queues and tables, sm_alloc.h describe), then the memory
 * model's queues, so that a hang is located without a debugger.
 */
#include "gpu_impl.h"
#include "hd_textbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void hd_gpu_sample(struct hd_gpu_timing *g)
{
    unsigned nprog = 0;
    for (unsigned i = 0; i < g->nl; i++)
        nprog += g->L[i]->started && !g->L[i]->finished;
    struct hd_sample_prog *prog;
    struct hd_sample *s = hd_timing_stats_new_sample(&g->stats, nprog, &prog);
    if (!s)
        return; /* out of memory: the series stops, the run goes on */
    s->cycle = g->now;
    for (uint32_t i = 0; i < g->p.num_sms; i++) {
        uint32_t w, c;
        hd_sm_occupancy(g->sm[i], &w, &c);
        s->active_warps += w;
        s->active_ctas += c;
        s->warp_instrs += g->stats.sm[i].warp_instrs;
    }
    unsigned k = 0;
    for (unsigned i = 0; i < g->nl && k < nprog; i++)
        if (g->L[i]->started && !g->L[i]->finished)
            prog[k++] = (struct hd_sample_prog){g->L[i]->sl.id, 0, g->L[i]->done_ctas};
}

void hd_gpu_watchdog_report(const struct hd_gpu_timing *g, char *err, size_t errlen)
{
    size_t n = 0;
#define PUT(...) (n = hd_textbuf_put(err, errlen, n, __VA_ARGS__))
    PUT("timing model: no progress for %" PRIu64 " cycles at cycle %" PRIu64
        " while work is pending ([timing] watchdog_cycles)",
        g->idle, g->now);
    for (unsigned i = 0; i < g->nl; i++) {
        const struct tlaunch *t = g->L[i];
        if (t->finished)
            continue;
        PUT("\n launch %u %s (stream %d): %" PRIu64 " of %" PRIu64 " CTAs placed, %" PRIu64
            " finished",
            t->sl.id, t->sl.l->k->entry->name, t->stream, t->next_cta, t->nctas, t->done_ctas);
    }
    char buf[2048];
    /* SMs reserved by the preemption layer (ctx_preempt.c), in runs of one owner */
    for (uint32_t s = 0, first = 0; s < g->p.num_sms; s++) {
        const unsigned li = g->reserved[s];
        if (s + 1 < g->p.num_sms && g->reserved[s + 1] == li)
            continue;
        if (li != HD_RESERVED_NONE) {
            PUT("\n SMs %u-%u reserved for ", first, s);
            if (li < g->nl)
                PUT("launch %u%s", g->L[li]->sl.id,
                    g->L[li]->finished ? " (finished: nothing released them)" : "");
            else
                PUT("a preemption signal");
        }
        first = s + 1;
    }
    /* the first busy SMs (their warps and their allocator's own state), then the memory system,
     * whose per-SM list is the longest part: what a stuck SM waits for comes first */
    unsigned shown = 0, busy = 0;
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        if (!hd_sm_busy(g->sm[s]))
            continue;
        busy++;
        if (shown == 2)
            continue;
        hd_sm_describe(g->sm[s], g->now, buf, sizeof buf);
        PUT("\n %s", buf);
        shown++;
    }
    if (busy > shown)
        PUT("\n ... and %u more busy SMs", busy - shown);
    g->mem.ops->describe(g->mem.impl, buf, sizeof buf);
    PUT("\n %s", buf);
#undef PUT
}
