/* SPDX-License-Identifier: MIT
 * gpuduet_mech.c - Lin thesis ch.3 GPUDuet, GPUDuet_TB and Virtual Thread: the registry entry
 * ([sm] allocator = gpuduet | gpuduet_tb | vt; model/policy/mech.h), the hook that writes the
 * SMs' events into the warp and TB context table blocks (gpuduet_tab.h, whose view it reads),
 * runs the context switching logic every cycle and the throughput monitor's ME controller every
 * window (gpuduet_window.c), and the log ([gpuduet] log).
 * Issue 28; digest §2.8-2.13, §3.7-3.13; docs/gpuduet.md.
 *
 * Events -> WCT (Fig 3.9):
 *   placed          the TB's warps enter the WCT: running when they got a slot, else ready
 *   stalled         LOAD_MISS (the first use of a register whose load missed the L1D) or
 *                   BARRIER: running -> stalled, into the stalled queue (warp level) or, when
 *                   every warp of its TB is stalled, the TB into the stalled-TB queue
 *   issued          a stalled warp issued after all (the switch-out did not happen): running
 *   warp_left       -> absent (its Regaddr/Metaaddr from the allocator)
 *   warp_returned   -> running
 *   load_returned   a load that landed while its warp was absent is counted
 *   left            the TB leaves the tables
 * ME (§2.10): per launch, dynamic ([gpuduet] dynamic: the monitor's windows of [gpuduet] window
 * cycles after [gpuduet] warmup cycles from the launch's first placement) or fixed ([gpuduet]
 * me, capped by the upper bound). The monitor measures the GPU's totals (one kernel at a time in
 * the thesis's runs).
 * Statistics (session 27): each launch's plan, R, the live and the reduced register units per
 * warp and the switch-out points, goes into its gpuduet_* counters (launch_stats.def; the run's
 * statistics as the sm_made hook gives them), so `--stats` carries §3.6.6's allocation size.
 * Log lines ([gpuduet] log):
 *   plan LAUNCH KERNEL NAME n R r points S mc lim level me_ub
 *   me LAUNCH END class ME           (each window the controller used)
 *   sm I stalls_miss stalls_bar outs outs_bar ins swaps tb_outs absent_loads ready refused no_room
 *        xswaps outs_tb out_cycles xout_cycles unpaired (the over-switching trace, gpuduet.h)
 *   total (the same counts over the SMs)
 */
#include "gpuduet.h"
#include "gpuduet_bmap.h"
#include "gpuduet_loop.h"
#include "gpuduet_mover.h"
#include "gpuduet_tab.h"
#include "gpuduet_tmloop.h"

#include "annot.h"
#include "func_status.h"
#include "module.h"
#include "timing_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* {==== launches, plans, ME ==== */
static struct gd_launch *add_launch(struct gd *g, uint32_t launch)
{
    if (g->nl == g->capl) {
        const uint32_t cap = g->capl ? 2 * g->capl : 8;
        struct gd_launch *L = realloc(g->L, cap * sizeof *L);
        if (!L)
            return NULL;
        g->L = L;
        g->capl = cap;
    }
    struct gd_launch *L = &g->L[g->nl++];
    *L = (struct gd_launch){0};
    L->launch = launch;
    L->start = UINT64_MAX;
    return L;
}

struct gd_launch *gd_launch_of(struct gd *g, uint32_t launch)
{
    for (uint32_t i = g->nl; i-- > 0;)
        if (g->L[i].launch == launch)
            return &g->L[i];
    return NULL;
}

static const char *level_name(uint8_t l)
{
    return l == GD_LEVEL_WARP ? "warp" : l == GD_LEVEL_TB ? "tb" : "off";
}

/* The log's name of the contexts an absent warp (TB) of plan p leaves its arrays with: meta
 * (the warp's meta-data unit alone), regs (+ its reduced registers, because they limit MC),
 * regs-room (the same, because the RF has no room for the extra TBs' registers, session 27),
 * smem (+ the TB's shared memory), slots (Virtual Thread: nothing leaves), - (off). */
static const char *leave_name(const struct gd_plan *p, uint8_t mode)
{
    if (p->level == GD_LEVEL_OFF)
        return "-";
    if (mode == GD_MODE_VT)
        return "slots";
    if (p->spill_smem)
        return p->spill_regs ? "smem+regs" : "smem";
    return p->spill_regs ? (p->regs_room ? "regs-room" : "regs") : "meta";
}

const struct gd_plan *gd_plan_for(struct gd *g, uint32_t launch, uint32_t warps, uint32_t regs,
                                  uint64_t smem, const struct gd_caps *c)
{
    struct gd_launch *L = gd_launch_of(g, launch);
    if (!L && !(L = add_launch(g, launch)))
        return NULL;
    if (L->planned)
        return &L->plan;
    const uint32_t n = warps ? warps : 1;
    const uint32_t R = (regs / n + 31u) / 32u;
    const uint32_t r = L->points ? L->r : R;
    gd_plan_make(c, g->mode, n, R, r, (uint32_t)((smem + 127u) / 128u), &L->plan);
    gd_me_init(&L->ctl, L->plan.me_ub);
    L->planned = true;
    if (g->tst && launch < g->tst->nlaunch) { /* the plan in the run's statistics (session 27) */
        struct hd_launch_stats *st = &g->tst->launch[launch].c;
        st->gpuduet_reg_units = L->plan.R;
        st->gpuduet_reg_units_live = L->live;
        st->gpuduet_reg_units_reduced = L->plan.r;
        st->gpuduet_switch_points = L->points;
    }
    if (g->log)
        fprintf(g->log,
                "plan %u %u n=%u R=%u r=%u points=%u S=%u mc=%u lim=%u level=%s me_ub=%u"
                " leave=%s\n",
                launch, L->kernel, L->plan.n, L->plan.R, L->plan.r, L->points, L->plan.S,
                L->plan.mc, L->plan.lim, level_name(L->plan.level), L->plan.me_ub,
                leave_name(&L->plan, g->mode));
    return &L->plan;
}

static uint32_t me_now(const struct gd *g, const struct gd_launch *L)
{
    if (!L->planned || L->plan.level == GD_LEVEL_OFF)
        return 0;
    if (g->p->gduet.dynamic)
        return L->ctl.me;
    return g->p->gduet.me < L->plan.me_ub ? g->p->gduet.me : L->plan.me_ub;
}

/* The number of TBs an SM may hold for launch id now (MC + current ME). */
static uint32_t gd_tb_limit(const struct gd *g, uint32_t launch)
{
    for (uint32_t i = g->nl; i-- > 0;)
        if (g->L[i].launch == launch)
            return g->L[i].planned ? g->L[i].plan.mc + me_now(g, &g->L[i]) : UINT32_MAX;
    return UINT32_MAX;
}

uint32_t gd_tb_limit_sm(const struct gd *g, uint32_t launch, uint32_t sm)
{
    if (!g->tm || !g->p->gduet.dynamic)
        return gd_tb_limit(g, launch);
    for (uint32_t i = g->nl; i-- > 0;) {
        const struct gd_launch *L = &g->L[i];
        if (L->launch != launch)
            continue;
        if (!L->planned)
            return UINT32_MAX;
        if (L->plan.level == GD_LEVEL_OFF)
            return L->plan.mc;
        const uint32_t me = gd_tm_me(g->tm, sm, launch);
        return L->plan.mc + (me < L->plan.me_ub ? me : L->plan.me_ub);
    }
    return UINT32_MAX;
}
/* }==== */

/* {==== the hook ==== */
static int gd_start(void *impl, char *err, size_t errlen)
{
    struct gd *g = impl;
    for (uint32_t i = 0; i < g->nsm; i++) {
        const struct hd_sm_alloc a = g->act->sm_alloc(g->act->gpu, i);
        if (a.ops != &gd_alloc_ops) {
            snprintf(err, errlen, "gpuduet: SM %u's allocator is %s, not gpuduet's", i,
                     a.ops ? a.ops->name : "none");
            return -1;
        }
        g->sm[i].alloc = a.impl;
        gd_alloc_bind(a.impl, g, i);
    }
    for (uint32_t i = 0; i < g->nsm; i++) /* the WCT and TBCT blocks: the CSL's tables */
        if (!(g->sm[i].wct.tab = gd_tab_create(g->p->gduet.blocks && g->hw ? *g->hw : NULL, i,
                                               g->p->gduet.blocks_fault, err, errlen)))
            return -1;
    for (uint32_t i = 0; i < g->nsm; i++) /* the queues: the GPU's factory with the blocks */
        if (gd_queues_make(&g->sm[i].q, g->p->gduet.blocks && g->hw ? *g->hw : NULL, i, err,
                           errlen) != 0)
            return -1;
    for (uint32_t i = 0; i < g->nsm; i++) { /* the allocation bitmaps: the allocators' map */
        if (!(g->sm[i].bm = calloc(1, sizeof *g->sm[i].bm))) {
            snprintf(err, errlen, "host out of memory (gpuduet bitmaps)");
            return -1;
        }
        if (gd_alloc_make_bitmap(g->sm[i].alloc, g->sm[i].bm,
                                 g->p->gduet.blocks && g->hw ? *g->hw : NULL,
                                 g->p->gduet.l1d_units, err, errlen) != 0)
            return -1;
    }
    g->started = true;
    if (g->tm && gd_tm_make(g->tm, err, errlen) != 0)
        return -1;
    if (g->mv && gd_mover_start(g->mv, err, errlen) != 0)
        return -1;
    return 0;
}

static int gd_launch(void *impl, uint32_t launch, uint32_t kernel, const char *name, char *err,
                     size_t errlen)
{
    struct gd *g = impl;
    (void)name;
    struct gd_launch *L = gd_launch_of(g, launch);
    if (!L && !(L = add_launch(g, launch))) {
        snprintf(err, errlen, "host out of memory (gpuduet launch records)");
        return HD_FUNC_ERR_MEMORY;
    }
    L->kernel = kernel;
    const struct hd_annot *an = NULL;
    const struct hd_func_kernel *k = g->act->kernel(g->act->gpu, kernel, &an);
    L->an = an;
    L->nregs = k ? k->nregs : 0;
    free(L->cls);
    L->cls = gd_regpat_classes(k, an);
    L->r = gd_reduced_units(k, an, L->cls, &L->points, &L->live);
    if (g->log)
        fprintf(g->log, "launch %u %u %s live_units=%u compressed_units=%u points=%u\n", launch,
                kernel, name, L->live, L->r, L->points);
    return 0;
}

static void gd_placed(void *impl, const struct hd_hook_cta *c, bool resumed, uint64_t now)
{
    struct gd *g = impl;
    (void)resumed;
    if (c->sm >= g->nsm || !c->grant)
        return;
    struct gd_sm *s = &g->sm[c->sm];
    uint32_t slot[32] = {0};
    const uint32_t n = c->grant->nwarps < 32 ? c->grant->nwarps : 32;
    for (uint32_t i = 0; i < n; i++)
        slot[i] = c->grant->warp_slot[i] == HD_ALLOC_NO_SLOT ? GD_NONE : c->grant->warp_slot[i];
    uint32_t reg[32], meta[32], smem = GD_NONE; /* the contexts' addresses in the unified space */
    for (uint32_t i = 0; i < n; i++)
        gd_alloc_where(s->alloc, c->grant->cta_slot, i, &reg[i], &meta[i], &smem);
    const uint32_t tb =
        gd_wct_add_tb(&s->wct, c->ctx, c->grant->cta_slot, n, slot, reg, meta, smem);
    if (tb == GD_NONE)
        return;
    s->wct.t[tb].launch = c->launch;
    struct gd_launch *L = gd_launch_of(g, c->launch);
    if (L) {
        if (L->start == UINT64_MAX)
            L->start = now;
        s->level = L->plan.level;
        if (L->planned && L->plan.level != GD_LEVEL_OFF)
            gd_tm_placed(g->tm, c->sm, L->launch, L->plan.me_ub);
        L->resident++;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (slot[i] != GD_NONE)
            continue;
        s->absent++; /* (ready: the CSL's ready scan pushes it) */
    }
}

/* sm_made: only the run's statistics are kept: each launch's plan goes into its gpuduet_*
 * counters (launch_stats.def), and the SMs' table events into the counters the energy model
 * reads (model/power, docs/power.md "Added structures"); no operand-location policy. */
static int gd_sm_made(void *impl, uint32_t sm, const struct hd_sm_alloc *alloc,
                      struct hd_timing_stats *stats, const struct hd_oloc_ops **ops, void **oimpl,
                      char *err, size_t errlen)
{
    (void)sm, (void)alloc, (void)ops, (void)oimpl, (void)err, (void)errlen;
    ((struct gd *)impl)->tst = stats;
    return 0;
}

static void gd_left(void *impl, const struct hd_hook_cta *c, bool finished, uint64_t now)
{
    struct gd *g = impl;
    (void)finished;
    (void)now;
    if (c->sm >= g->nsm)
        return;
    struct gd_sm *s = &g->sm[c->sm];
    if (g->tst && c->sm < g->tst->num_sms) { /* the SM's table events, final at its last CTA */
        struct hd_sm_stats *t = &g->tst->sm[c->sm];
        t->gpuduet_stalls = s->st.stalls_miss + s->st.stalls_bar;
        t->gpuduet_readies = s->st.ready;
        t->gpuduet_tb_switches = s->st.tb_outs + s->st.tb_ins;
    }
    const uint32_t tb = gd_wct_tb_of_ctx(&s->wct, c->ctx);
    if (tb == GD_NONE)
        return;
    const struct gd_tbct_entry *t = &s->wct.t[tb];
    /* (its ids left in the queues are stale: the CSL discards them as they come out) */
    for (uint32_t i = 0; i < t->nwarps; i++)
        s->absent -= s->wct.w[t->first + i].slot == GD_NONE && s->absent;
    gd_wct_remove_tb(&s->wct, c->ctx);
    struct gd_launch *L = gd_launch_of(g, c->launch);
    if (L && L->resident)
        L->resident--;
    if (L && L->l1d && !L->resident && g->nl && g->L[g->nl - 1].launch != L->launch) {
        L->l1d = false; /* done: the L1D is a cache again once its contexts left */
        for (uint32_t i = 0; i < g->nsm; i++)
            if (g->sm[i].alloc)
                gd_alloc_set_l1(g->sm[i].alloc, 0);
    }
}

/* A warp issued (the scheduler's HD_HSCHED_ISSUE: it names the warp slot; the `issued` event
 * names only the CTA slot). A stalled warp that issues in a later cycle than it began to wait
 * was not stalled after all (the switching-out condition was not met); the instruction that made
 * it wait reaches here after its stall event, in the same cycle, and changes nothing. */
static void gd_sched_warp(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                          const struct hd_warp_view *v, uint64_t now)
{
    struct gd *g = impl;
    (void)v;
    if (ev != HD_HSCHED_ISSUE || sm >= g->nsm || slot >= 256)
        return;
    struct gd_sm *s = &g->sm[sm];
    const uint32_t e = s->wct.slot_entry[slot];
    if (e == GD_NONE)
        return;
    const uint32_t tb = s->wct.w[e].tb;
    if (gd_t_abs(&s->wct, tb) && gd_tb_partial(g, sm, tb))
        s->st.tb_part++; /* (the check's trace: a TB-level TB runs partly present) */
    if (s->wct.w[e].stalled_at == now || gd_w_state(&s->wct, e) != GD_WS_STALLED)
        return;
    gd_w_set_state(&s->wct, e, GD_WS_RUNNING); /* (the memory response port; its queue entries
                                                  are stale now) */
    s->wct.w[e].barrier = false;
}

static void gd_stalled(void *impl, const struct hd_hook_warp *w, uint8_t why, uint64_t now)
{
    struct gd *g = impl;
    if (why == HD_HSTALL_LOAD || w->sm >= g->nsm || w->slot == HD_HOOK_NO_SLOT)
        return;
    struct gd_sm *s = &g->sm[w->sm];
    const uint32_t e = gd_wct_find(&s->wct, w->ctx, w->warp);
    if (e == GD_NONE)
        return;
    struct gd_wct_entry *x = &s->wct.w[e];
    const uint8_t st = gd_w_state(&s->wct, e);
    if (st != GD_WS_RUNNING && !(st == GD_WS_STALLED && why == HD_HSTALL_BARRIER))
        return;
    if (st == GD_WS_RUNNING) {
        if (why == HD_HSTALL_BARRIER)
            s->st.stalls_bar++;
        else
            s->st.stalls_miss++;
    }
    gd_w_set_state(&s->wct, e, GD_WS_STALLED); /* (the stall detector port) */
    x->stalled_at = now;
    x->barrier = why == HD_HSTALL_BARRIER;
    x->slot = w->slot;
    x->pc = w->pc;
    /* (the CSL's stall scan pushes the warp, or its TB once all its warps stalled) */
}

static void gd_load_returned(void *impl, const struct hd_hook_warp *w, bool l1_hit, uint64_t now)
{
    struct gd *g = impl;
    (void)l1_hit;
    (void)now;
    if (w->sm < g->nsm && w->slot == HD_HOOK_NO_SLOT && w->pc < HD_HOOK_PC_SPILL)
        g->sm[w->sm].st.absent_loads++;
}

static void gd_warp_left(void *impl, uint32_t sm, uint32_t ctx, uint32_t warp, uint32_t slot,
                         uint64_t now)
{
    struct gd *g = impl;
    (void)slot;
    (void)now;
    if (sm >= g->nsm)
        return;
    struct gd_sm *s = &g->sm[sm];
    const uint32_t e = gd_wct_find(&s->wct, ctx, warp);
    if (e == GD_NONE)
        return;
    uint32_t reg, meta, smem;
    gd_alloc_where_out(s->alloc, s->wct.t[s->wct.w[e].tb].cta_slot, warp, &reg, &meta, &smem);
    gd_wct_left(&s->wct, e, reg, meta); /* (its barrier flag stays) */
    s->absent++;
}

static void gd_warp_returned(void *impl, uint32_t sm, uint32_t ctx, uint32_t warp, uint32_t slot,
                             uint64_t now)
{
    struct gd *g = impl;
    (void)now;
    if (sm >= g->nsm)
        return;
    struct gd_sm *s = &g->sm[sm];
    const uint32_t e = gd_wct_find(&s->wct, ctx, warp);
    if (e == GD_NONE)
        return;
    uint32_t reg, meta, smem;
    gd_alloc_where(s->alloc, s->wct.t[s->wct.w[e].tb].cta_slot, warp, &reg, &meta, &smem);
    gd_wct_back(&s->wct, e, slot, reg); /* (a ready-queue entry of it is stale now) */

    s->absent -= s->absent > 0;
    s->st.ins++;
}

/* Eq. 3.1-3.3: a warp's move is its limiting context: ST + LR x 128 B at warp level when
 * registers limit (LR: its live registers at the point it stalled), ST when warp slots limit
 * (its registers stay), ST + SS / N per warp at TB level when shared memory limits; Virtual
 * Thread moves only the slot's state. */
static uint64_t gd_move_bytes(void *impl, uint32_t sm, uint32_t ctx, uint32_t warp, bool in,
                              uint64_t bytes)
{
    struct gd *g = impl;
    if (sm >= g->nsm)
        return bytes;
    struct gd_sm *s = &g->sm[sm];
    const uint32_t e = gd_wct_find(&s->wct, ctx, warp);
    const struct gd_launch *L =
        e == GD_NONE ? NULL : gd_launch_of(g, s->wct.t[s->wct.w[e].tb].launch);
    if (!L || !L->planned)
        return bytes;
    struct gd_wct_entry *w = &s->wct.w[e];
    const struct gd_plan *pl = &L->plan;
    uint64_t b = (uint64_t)GD_ST_UNITS * GD_UNIT;
    if (g->mode == GD_MODE_VT)
        return b;
    if (pl->spill_regs) {
        if (!in || !w->lr)
            w->lr = L->an && w->pc ? hd_annot_live_words(L->an, w->pc, true, true) : L->live;
        b += (uint64_t)(w->lr < pl->R ? w->lr : pl->R) * GD_UNIT;
    }
    if (pl->spill_smem && pl->n)
        b += (uint64_t)pl->S * GD_UNIT / pl->n;
    if (!in) { /* (the over-switching trace: the default mover's cycles) */
        const uint64_t pw = g->p->sm.warp_move_bytes ? g->p->sm.warp_move_bytes : GD_UNIT;
        s->st.out_cycles += (b + pw - 1) / pw;
        s->st.xout_cycles += w->xout ? (b + pw - 1) / pw : 0;
    }
    return b;
}

/* Has the TB limit (MC + ME) of a launch with TBs still to place risen on some SM since the
 * last cycle? The CTA scheduler looks only when something changed (a TB finished, an
 * allocation answered), and an ME update is such a change: without this, the extra TBs the
 * controller (or an SM's monitor block) allows at a window's end waited for the next TB to
 * finish (histo1024, whose TBs last ~100,000 cycles: none placed until the first wave ended,
 * session 19). The thesis's TB dispatcher launches TBs up to MC + ME as soon as ME allows. */
static bool limit_rose(struct gd *g)
{
    bool rose = false;
    for (uint32_t l = 0; l < g->nl; l++) {
        struct gd_launch *L = &g->L[l];
        if (!L->planned || L->plan.level == GD_LEVEL_OFF ||
            (g->act->ctas_waiting && !g->act->ctas_waiting(g->act->gpu, L->launch)))
            continue; /* (every TB of it placed: nothing to wake the scheduler for) */
        if (!L->lim_seen && !(L->lim_seen = calloc(g->nsm, sizeof *L->lim_seen)))
            continue; /* (out of memory: the scheduler looks at the next event as before) */
        for (uint32_t i = 0; i < g->nsm; i++) {
            const uint32_t lim = gd_tb_limit_sm(g, L->launch, i);
            rose |= lim > L->lim_seen[i];
            L->lim_seen[i] = lim;
        }
    }
    return rose;
}

static int gd_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen)
{
    struct gd *g = impl;
    *ready = *busy = false;
    for (uint32_t i = 0; i < g->nsm; i++) {
        if (gd_csl_cycle(g, i, now, err, errlen) != 0)
            return -1;
        *busy |= gd_queues_busy(&g->sm[i].q);
        if (g->sm[i].alloc && gd_alloc_step(g->sm[i].alloc, now, err, errlen) != 0)
            return -1;
        *busy |= g->sm[i].alloc && gd_alloc_busy(g->sm[i].alloc);
        *ready |= g->sm[i].alloc && gd_alloc_poke(g->sm[i].alloc); /* (the CTA scheduler) */
    }
    if (g->mv && gd_mover_cycle(g->mv, now, busy, err, errlen) != 0)
        return -1; /* (the CSL blocks complete the warps' moves: gpuduet_mover.h) */
    for (uint32_t i = 0; i < g->nsm; i++) /* the tables' writes and reads (gpuduet_tab.h) */
        if (g->sm[i].wct.tab && gd_tab_cycle(g->sm[i].wct.tab, now, busy, err, errlen) != 0)
            return -1;
    if (g->tm && gd_tm_cycle(g->tm, now, g->log, err, errlen) != 0)
        return -1;
    *ready |= limit_rose(g);
    return 0;
}

static void put_stats(FILE *f, const struct gd_sm_stats *s)
{
    fprintf(f,
            " stalls_miss=%" PRIu64 " stalls_bar=%" PRIu64 " outs=%" PRIu64 " outs_bar=%" PRIu64
            " ins=%" PRIu64 " swaps=%" PRIu64 " tb_outs=%" PRIu64 " absent_loads=%" PRIu64
            " ready=%" PRIu64 " refused=%" PRIu64 " no_room=%" PRIu64 " xswaps=%" PRIu64
            " outs_tb=%" PRIu64 " out_cycles=%" PRIu64 " xout_cycles=%" PRIu64
            " unpaired=%" PRIu64 " tb_sq=%" PRIu64 " tb_stale=%" PRIu64 " tb_nopart=%" PRIu64
            " tb_run_wait=%" PRIu64 " tb_wres_wait=%" PRIu64 " tb_out_wait=%" PRIu64
            " tb_ins=%" PRIu64 " tb_in_wait=%" PRIu64 " tb_abs_cycles=%" PRIu64
            " tb_in_noslot=%" PRIu64 " swap_jobs=%" PRIu64 " tb_blind=%" PRIu64
            " tb_arriving=%" PRIu64 " tb_reouts=%" PRIu64 " tb_back_cycles=%" PRIu64
            " tb_back_short=%" PRIu64 " tb_part=%" PRIu64 " tb_in_room=%" PRIu64 "\n",
            s->stalls_miss, s->stalls_bar, s->outs, s->outs_bar, s->ins, s->swaps, s->tb_outs,
            s->absent_loads, s->ready, s->refused, s->no_room, s->xswaps, s->outs_tb,
            s->out_cycles, s->xout_cycles, s->unpaired, s->tb_sq, s->tb_stale, s->tb_nopart,
            s->tb_run_wait, s->tb_wres_wait, s->tb_out_wait, s->tb_ins, s->tb_in_wait,
            s->tb_abs_cycles, s->tb_in_noslot, s->swap_jobs, s->tb_blind, s->tb_arriving,
            s->tb_reouts, s->tb_back_cycles, s->tb_back_short, s->tb_part, s->tb_in_room);
}

static void gd_destroy(void *impl)
{
    struct gd *g = impl;
    if (!g)
        return;
    if (g->log) {
        struct gd_sm_stats tot = {0};
        for (uint32_t i = 0; i < g->nsm; i++) {
            const struct gd_sm_stats *s = &g->sm[i].st;
            fprintf(g->log, "sm %u", i);
            put_stats(g->log, s);
            tot.stalls_miss += s->stalls_miss;
            tot.stalls_bar += s->stalls_bar;
            tot.outs += s->outs;
            tot.outs_bar += s->outs_bar;
            tot.ins += s->ins;
            tot.swaps += s->swaps;
            tot.tb_outs += s->tb_outs;
            tot.absent_loads += s->absent_loads;
            tot.ready += s->ready;
            tot.refused += s->refused;
            tot.no_room += s->no_room;
            tot.xswaps += s->xswaps;
            tot.outs_tb += s->outs_tb;
            tot.out_cycles += s->out_cycles;
            tot.xout_cycles += s->xout_cycles;
            tot.unpaired += s->unpaired;
            tot.tb_sq += s->tb_sq;
            tot.tb_stale += s->tb_stale;
            tot.tb_nopart += s->tb_nopart;
            tot.tb_blind += s->tb_blind;
            tot.tb_arriving += s->tb_arriving;
            tot.tb_reouts += s->tb_reouts;
            tot.tb_back_cycles += s->tb_back_cycles;
            tot.tb_back_short += s->tb_back_short;
            tot.tb_part += s->tb_part;
            tot.tb_in_room += s->tb_in_room;
            tot.tb_run_wait += s->tb_run_wait;
            tot.tb_wres_wait += s->tb_wres_wait;
            tot.tb_out_wait += s->tb_out_wait;
            tot.tb_ins += s->tb_ins;
            tot.tb_in_wait += s->tb_in_wait;
            tot.tb_abs_cycles += s->tb_abs_cycles;
            tot.tb_in_noslot += s->tb_in_noslot;
            tot.swap_jobs += s->swap_jobs;
        }
        for (uint32_t i = 0; i < g->nsm; i++) /* what is still out at the end (none after a
                                                  completed run) */
            for (uint32_t e = 0; e < GD_WCT_ENTRIES; e++) {
                const struct gd_wct_entry *w = &g->sm[i].wct.w[e];
                if (gd_w_valid(&g->sm[i].wct, e) && w->slot == GD_NONE)
                    fprintf(g->log, "out sm=%u entry=%u ctx=%u warp=%u state=%u barrier=%d "
                            "queued=%d waiting=%u pair=%d\n", i, e, w->ctx, w->warp,
                            gd_w_state(&g->sm[i].wct, e),
                            w->barrier, w->queued,
                            g->act->warp_waiting(g->act->gpu, i, w->ctx, w->warp),
                            w->pair == GD_NONE ? -1 : (int)w->pair);
            }
        for (uint32_t i = 0; i < g->nsm; i++)
            if (g->sm[i].absent)
                fprintf(g->log, "queues sm=%u absent=%u stalled=%u ready=%u stalled_tb=%u "
                        "ready_tb=%u heads=%d/%d\n", i, g->sm[i].absent,
                        gd_queues_count(&g->sm[i].q, GD_QS), gd_queues_count(&g->sm[i].q, GD_QR),
                        gd_queues_count(&g->sm[i].q, GD_QST), gd_queues_count(&g->sm[i].q, GD_QRT),
                        (int)gd_queues_head(&g->sm[i].q, GD_QS),
                        (int)gd_queues_head(&g->sm[i].q, GD_QR));
        uint64_t qs = 0, qp = 0, qu = 0, qd = 0;
        for (uint32_t i = 0; i < g->nsm; i++) {
            qs += g->sm[i].q.steps;
            qp += g->sm[i].q.pops;
            qu += g->sm[i].q.pushes;
            qd += g->sm[i].q.drops;
        }
        fprintf(g->log, "queue_block steps=%" PRIu64 " pops=%" PRIu64 " pushes=%" PRIu64
                " drops=%" PRIu64 "\n", qs, qp, qu, qd);
        fprintf(g->log, "total");
        put_stats(g->log, &tot);
        uint64_t bc[8] = {0}; /* (the allocators are gone by now: the blocks' counts) */
        for (uint32_t i = 0; i < g->nsm; i++)
            if (g->sm[i].bm) {
                bc[0] += g->sm[i].bm->allocs;
                bc[1] += g->sm[i].bm->frees;
                bc[2] += g->sm[i].bm->nospace;
                bc[3] += g->sm[i].bm->busy_cycles;
                bc[4] += g->sm[i].bm->wait_cycles;
                bc[5] += g->sm[i].bm->xchg_sp;
                bc[6] += g->sm[i].bm->xchg_rf;
                bc[7] += g->sm[i].bm->tb_one;
            }
        fprintf(g->log, "bitmap allocs=%" PRIu64 " frees=%" PRIu64 " no_room=%" PRIu64
                " busy_cycles=%" PRIu64 " wait_cycles=%" PRIu64 " swap_sp=%" PRIu64
                " swap_rf=%" PRIu64 " tb_one=%" PRIu64 "\n", bc[0], bc[1], bc[2], bc[3], bc[4],
                bc[5], bc[6], bc[7]);
        uint64_t pc[5] = {0, 0, 0, 0, 0}; /* the placements (the allocators' counts) */
        for (uint32_t i = 0; i < g->nsm; i++)
            if (g->sm[i].bm) {
                pc[0] += g->sm[i].bm->stg_runs;
                pc[1] += g->sm[i].bm->stg_fails;
                pc[2] += g->sm[i].bm->stg_drop_acq;
                pc[3] += g->sm[i].bm->stg_drop_dem;
                pc[4] += g->sm[i].bm->stg_placed;
            }
        fprintf(g->log, "place stages=%" PRIu64 " no_room=%" PRIu64 " drop_switch_in=%" PRIu64
                " drop_demand=%" PRIu64 " placed=%" PRIu64 "\n", pc[0], pc[1], pc[2], pc[3],
                pc[4]);
        uint64_t tc[4] = {0, 0, 0, 0}; /* the tables' writes and checked reads */
        for (uint32_t i = 0; i < g->nsm; i++)
            if (g->sm[i].wct.tab)
                gd_tab_counts(g->sm[i].wct.tab, tc);
        fprintf(g->log, "blocks wct_writes=%" PRIu64 " wct_reads=%" PRIu64 " tbct_writes=%" PRIu64
                " tbct_reads=%" PRIu64 " bitmap_ops=%" PRIu64 "\n", tc[0], tc[1], tc[2], tc[3],
                bc[0] + bc[1]);
        if (g->tm)
            gd_tm_log(g->tm, g->log);
        if (g->mv)
            gd_mover_log(g->mv, g->log);
        for (uint32_t i = 0; i < g->nl; i++) {
            const struct gd_launch *L = &g->L[i];
            fprintf(g->log, "final %u class=%u me=%u windows=%u\n", L->launch, L->ctl.cls,
                    me_now(g, L), L->ctl.windows);
            if (L->cp_points)
                fprintf(g->log, "checked %u points=%u compressor_units_max=%u mean=%.2f "
                        "static_units=%u words=%" PRIu64 " underestimated=%" PRIu64 "\n",
                        L->launch, L->cp_points, L->cp_hw_max,
                        (double)L->cp_hw_sum / L->cp_points, L->r, L->cp_words, L->cp_under);
        }
        fclose(g->log);
    }
    gd_loop_destroy(g->loop);
    gd_tm_destroy(g->tm);
    gd_mover_destroy(g->mv);
    for (uint32_t i = 0; g->sm && i < g->nsm; i++) {
        gd_queues_destroy(&g->sm[i].q);
        gd_tab_destroy(g->sm[i].wct.tab);
        if (g->sm[i].bm)
            gd_bmap_destroy(g->sm[i].bm);
        free(g->sm[i].bm);
    }
    for (uint32_t i = 0; i < g->nl; i++) {
        free(g->L[i].cls);
        free(g->L[i].lim_seen);
    }
    free(g->L);
    free(g->sm);
    free(g);
}

static const struct hd_hook_ops gd_ops = {
    .name = "gpuduet",
    .start = gd_start,
    .launch = gd_launch,
    .placed = gd_placed,
    .left = gd_left,
    .sm_made = gd_sm_made,
    .sched_warp = gd_sched_warp,
    .cycle = gd_cycle,
    .destroy = gd_destroy,
    .stalled = gd_stalled,
    .load_returned = gd_load_returned,
    .window = gd_window,
    .warp_left = gd_warp_left,
    .warp_returned = gd_warp_returned,
    .warp_move_bytes = gd_move_bytes,
};

static int gd_attach(const struct hd_mech_env *env, struct hd_hook *out, char *err,
                     size_t errlen)
{
    *out = (struct hd_hook){NULL, NULL};
    const int a = env->p->sm.alloc;
    if (a != HD_ALLOC_GPUDUET && a != HD_ALLOC_GPUDUET_TB && a != HD_ALLOC_VT)
        return 0;
    if (!env->act) {
        snprintf(err, errlen, "gpuduet: the GPU gives no actions (mech.h hd_mech_act)");
        return -1;
    }
    struct gd *g = calloc(1, sizeof *g);
    if (!g || !(g->sm = calloc(env->p->num_sms, sizeof *g->sm))) {
        free(g);
        snprintf(err, errlen, "host out of memory (gpuduet)");
        return -1;
    }
    g->p = env->p;
    g->act = env->act;
    g->nsm = env->p->num_sms;
    g->mode = a == HD_ALLOC_GPUDUET ? GD_MODE_GPUDUET : a == HD_ALLOC_GPUDUET_TB ? GD_MODE_TB
                                                                                : GD_MODE_VT;
    for (uint32_t i = 0; i < g->nsm; i++) {
        gd_wct_clear(&g->sm[i].wct);
    }
    if (env->p->gduet.log[0] && !(g->log = fopen(env->p->gduet.log, "w"))) {
        snprintf(err, errlen, "[gpuduet] log: cannot write '%s'", env->p->gduet.log);
        gd_destroy(g);
        return -1;
    }
    if (env->p->gduet.dynamic &&
        hd_monitor_subscribe(env->mon, env->p->gduet.window, err, errlen) < 0) {
        gd_destroy(g);
        return -1;
    }
    if (env->p->gduet.blocks && !(g->loop = gd_loop_create(env->p, env->hw, err, errlen))) {
        gd_destroy(g);
        return -1;
    }
    g->mon = env->mon;
    g->hw = env->hw;
    g->tm_sub = -1;
    /* the CSL's data mover (gpuduet_mover.h): with the blocks the gpuduet_csl block yielding to
     * the pipeline's ports; without, its C reference with the ports free (Lin's State / BW, one
     * mover per SM: session 21), unless [sm] warp_mover puts the moves on the on-chip mover */
    if ((env->p->gduet.blocks || env->p->sm.warp_mover == HD_WMOVER_FIXED) &&
        !(g->mv = gd_mover_create(g, env->p, env->hw, err, errlen))) {
        gd_destroy(g);
        return -1;
    }
    if (env->p->gduet.blocks && env->p->gduet.monitor_blocks &&
        (!(g->tm = gd_tm_create(env->p, env->hw, err, errlen)) ||
         (g->tm_sub = hd_monitor_subscribe(env->mon, 1, err, errlen)) < 0)) {
        gd_destroy(g);
        return -1;
    }
    *out = (struct hd_hook){&gd_ops, g};
    return 0;
}
/* }==== */

static const struct hd_mech_alloc gd_allocs[] = {
    {HD_ALLOC_GPUDUET, gd_alloc_create},
    {HD_ALLOC_GPUDUET_TB, gd_alloc_create_tb},
    {HD_ALLOC_VT, gd_alloc_create_vt},
};

const struct hd_mech hd_mech_gpuduet = {
    "gpuduet",
    "Lin thesis ch.3: GPUDuet (§3.6: two-level switching, unified on-chip storage, WCT/TBCT, "
    "queues, CSL, throughput monitor and ME controller), GPUDuet_TB, Virtual Thread",
    gd_allocs, sizeof gd_allocs / sizeof gd_allocs[0],
    NULL, 0,
    gd_attach,
};
