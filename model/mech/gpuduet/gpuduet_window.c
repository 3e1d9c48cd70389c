/* SPDX-License-Identifier: MIT
 * gpuduet_window.c - GPUDuet's throughput monitor window (Lin thesis ch.3 §3.6.4, digest §2.10):
 * at the end of every window of the GPU's monitor ([gpuduet] window cycles, after [gpuduet]
 * warmup cycles from a launch's first placement) the utilisation sample of Table 3.3's five
 * resources (scheduler issue slots, L1D and L2 data ports on hits, interconnect flits against
 * its 60 % sustainable bandwidth, DRAM data bus), the class and ME update of each resident
 * launch's controller (gpuduet_me.c), and §2.10's rule that turns the L1D into context storage.
 * With the monitor blocks in the loop ([gpuduet] blocks) the window only feeds their counts
 * (gpuduet_tmloop.h). Log lines ([gpuduet] log): util END sched l1 icnt l2 dram class (per
 * mille), me LAUNCH END class ME, l1d LAUNCH bypass units me_ub.
 * Moved out of gpuduet_mech.c (session 28), unchanged; the hook's `window` callback.
 */
#include "gpuduet.h"
#include "gpuduet_tmloop.h"

#include "monitor.h"

#include <inttypes.h>

/* §2.10: an unsaturated kernel whose ME has reached what the register file and shared memory
 * hold, with TBs left to place and an L1D nearly idle (< 3 %), bypasses the L1D, which then holds
 * contexts: its units join the allocators, the ME bound is computed again with them and the
 * controller goes on to it (gd_me_wants_l1d, gpuduet_me.c). */
static void l1d_rule(struct gd *g, struct gd_launch *L, const struct gd_util *u)
{
    if (L->l1d || !g->p->gduet.l1d_units)
        return;
    struct gd_caps c = {0};
    for (uint32_t i = 0; i < g->nsm && !c.rf_units; i++)
        if (g->sm[i].alloc)
            gd_alloc_caps(g->sm[i].alloc, &c);
    c.l1_units = g->p->gduet.l1d_units;
    /* (the plan's leaving contexts kept: decided once per launch, session 27) */
    uint32_t ub = gd_plan_ub(&c, g->mode, &L->plan);
    const bool left = !g->act->ctas_waiting || g->act->ctas_waiting(g->act->gpu, L->launch);
    if (!gd_me_wants_l1d(&L->ctl, ub, u, left) ||
        !g->act->l1d_bypass(g->act->gpu, L->launch, true))
        return;
    L->l1d = true;
    c = (struct gd_caps){0};
    for (uint32_t i = 0; i < g->nsm; i++)
        if (g->sm[i].alloc) {
            gd_alloc_set_l1(g->sm[i].alloc, g->p->gduet.l1d_units);
            gd_alloc_caps(g->sm[i].alloc, &c);
        }
    ub = gd_plan_ub(&c, g->mode, &L->plan);
    L->plan.me_ub = ub;
    gd_me_raise_ub(&L->ctl, ub);
    if (g->log)
        fprintf(g->log, "l1d %u bypass units=%u me_ub=%u\n", L->launch, c.l1_units, ub);
}

static uint64_t permille(uint64_t busy, uint64_t cap)
{
    return cap ? busy * 1000u / cap : 0;
}

static const char *class_name(uint8_t c)
{
    return c == GD_CLASS_UNDER      ? "under"
           : c == GD_CLASS_MODERATE ? "moderate"
           : c == GD_CLASS_SATURATED ? "saturated"
                                     : "none";
}

void gd_window(void *impl, const struct hd_mon_window *win, uint64_t now)
{
    struct gd *g = impl;
    (void)now;
    if (g->tm && win == hd_monitor_last(g->mon, g->tm_sub)) {
        gd_tm_counts(g->tm, win); /* (the monitor blocks' per-cycle inputs) */
        return;
    }
    if (!g->p->gduet.dynamic)
        return;
    const uint64_t cyc = win->end - win->start;
    const double nsm = g->p->num_sms;
    const struct hd_mon_counts *t = &win->total;
    struct gd_util u = {0};
    u.sched = t->issue;
    u.sched_cap = (uint64_t)(cyc * nsm * g->p->sm.num_sched);
    u.l1 = t->l1d_hit; /* Lin Sec. 3.4.1: the data port busy on hits (session 19) */
    u.l1_cap = (uint64_t)(cyc * nsm);
    u.icnt = t->flits_req > t->flits_rep ? t->flits_req : t->flits_rep;
    u.icnt_cap = (uint64_t)(cyc * g->p->gduet.icnt_ratio * nsm * 0.6); /* sustainable: 60 % */
    u.l2 = t->l2_hit;
    u.l2_cap = (uint64_t)(cyc * g->p->gduet.l2_ratio * g->p->gduet.l2_slices);
    u.dram = t->dram_data;
    u.dram_cap = (uint64_t)(cyc * g->p->gduet.dram_ratio * g->p->gduet.dram_channels);
    if (g->log) /* the controller's sample (per mille of each capacity) and its class */
        fprintf(g->log,
                "util %" PRIu64 " sched=%" PRIu64 " l1=%" PRIu64 " icnt=%" PRIu64 " l2=%" PRIu64
                " dram=%" PRIu64 " class=%s\n",
                win->end, permille(u.sched, u.sched_cap), permille(u.l1, u.l1_cap),
                permille(u.icnt, u.icnt_cap), permille(u.l2, u.l2_cap),
                permille(u.dram, u.dram_cap), class_name(gd_classify(&u)));
    for (uint32_t i = 0; i < g->nl; i++) {
        struct gd_launch *L = &g->L[i];
        /* (a launch none of whose TBs is on an SM has nothing to control: the window lists
         * every launch seen so far, so without the `resident` test a finished launch's L1D
         * rule fired again after its L1D had been given back, handing the L1D region to the
         * allocators under the next launch) */
        if (!L->planned || L->start == UINT64_MAX || win->start < L->start + g->p->gduet.warmup ||
            L->plan.level == GD_LEVEL_OFF || !L->resident ||
            hd_mon_window_kernel(win, L->launch) == NULL)
            continue;
        if (L->ctl.done && L->ctl.cls != GD_CLASS_NONE) {
            if (!L->l1d && L->ctl.cls != GD_CLASS_SATURATED) {
                l1d_rule(g, L, &u); /* (checked every window while it runs) */
                if (L->l1d && g->log)
                    fprintf(g->log, "me %u %" PRIu64 " %s %u\n", L->launch, win->end,
                            L->ctl.cls == GD_CLASS_UNDER ? "under" : "moderate", L->ctl.me);
            }
            continue;
        }
        uint32_t me = gd_me_window(&L->ctl, &u);
        l1d_rule(g, L, &u);
        me = L->ctl.me;
        if (g->log)
            fprintf(g->log, "me %u %" PRIu64 " %s %u\n", L->launch, win->end,
                    L->ctl.cls == GD_CLASS_UNDER      ? "under"
                    : L->ctl.cls == GD_CLASS_MODERATE ? "moderate"
                                                      : "saturated",
                    me);
    }
}
