/* SPDX-License-Identifier: MIT
 * sm.c - the SM: creation, CTA placement and retirement, the cycle, reports (warp states:
 * sm_warp.c).
 *
 * Design: see sm.h and sm_impl.h. A warp's state (enum hd_wstate) is recomputed by
 * hd_sm_warp_eval() whenever something about it changes (a fetch arrives, it issues, a result it
 * waits for is written back, its barrier releases, a load returns), never by scanning all warps
 * each cycle; per scheduler the SM keeps the count of warps in each state and the bitset of READY
 * warps, so a scheduler's work and its stall classification cost O(ready warps). The tick runs
 * the stages from last to first: writeback events, memory responses, load/store sends, dispatch,
 * operand reads, issue, fetch.
 */
#include "sm_impl.h"
#include "hd_textbuf.h"
#include "sm_ahead.h"

#include "ctx_vres.h"
#include "sm_policy.h"

#include "func_status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Point w->stall_ctr at the per-line stall counter of its next PC. */
static void hd_sm_warp_stall_ctr(struct hd_sm *sm, struct hd_twarp *w);

/* {==== Creation ==== */
static bool alloc_arrays(struct hd_sm *sm)
{
    const struct hd_sm_params *p = sm->p;
    sm->words = (p->max_warps + 63) / 64;
    sm->w = calloc(p->max_warps, sizeof *sm->w);
    sm->cta = calloc(p->max_ctas, sizeof *sm->cta);
    sm->ready = calloc(sm->words, sizeof *sm->ready);
    sm->sched_mask = calloc((size_t)p->num_sched * sm->words, sizeof *sm->sched_mask);
    sm->need_fetch = calloc(sm->words, sizeof *sm->need_fetch);
    sm->sched = calloc(p->num_sched, sizeof *sm->sched);
    sm->nstate = calloc(p->num_sched, sizeof *sm->nstate);
    sm->oldest = calloc(p->num_sched, sizeof *sm->oldest);
    sm->last_stall = calloc(p->num_sched, sizeof *sm->last_stall);
    sm->order_buf = calloc(p->max_warps, sizeof *sm->order_buf);
    sm->ready_buf = calloc(p->max_warps, sizeof *sm->ready_buf);
    sm->res_la = calloc(p->max_ctas, sizeof *sm->res_la);
    sm->res_n = calloc(p->max_ctas, sizeof *sm->res_n);
    sm->retired = calloc(p->max_ctas, sizeof *sm->retired);
    sm->rx = calloc(64, sizeof *sm->rx);
    if (!sm->w || !sm->cta || !sm->ready || !sm->sched_mask || !sm->need_fetch || !sm->sched ||
        !sm->nstate || !sm->oldest || !sm->last_stall || !sm->order_buf || !sm->ready_buf ||
        !sm->res_la || !sm->res_n || !sm->retired || !sm->rx)
        return false;
    for (uint32_t i = 0; i < p->max_warps; i++) {
        sm->w[i].slot = i;
        sm->w[i].sched = i % p->num_sched;
        sm->sched_mask[(size_t)sm->w[i].sched * sm->words + i / 64] |= 1ull << (i % 64);
    }
    for (uint32_t s = 0; s < p->num_sched; s++) {
        sm->oldest[s] = HD_SM_NONE;
        sm->nstate[s][HD_WS_EMPTY] = 0;
        if (hd_sched_create(p, &sm->sched[s]) != 0)
            return false;
    }
    return true;
}

/* The hooks of an SM until its GPU sets its own (hd_sm_set_hooks). */
static const struct hd_hooks no_hooks;

struct hd_sm *hd_sm_create(const struct hd_sm_params *p, uint32_t id, const struct hd_sm_env *env,
                           char *err, size_t errlen)
{
    struct hd_sm *sm = calloc(1, sizeof *sm);
    if (!sm) {
        snprintf(err, errlen, "host out of memory creating SM %u", id);
        return NULL;
    }
    sm->p = p;
    sm->id = id;
    sm->hooks = &no_hooks;
    sm->mem = env->mem;
    sm->st = env->stats;
    sm->sst = env->sched_stats;
    sm->pool = env->pool;
    sm->cp = env->ctx;
    sm->hw = env->hw;
    if (!alloc_arrays(sm) || hd_sm_ctx_init(sm) != 0 || hd_sm_alloc_create(p, &sm->alloc) != 0 ||
        (p->residency && hd_sm_res_init(sm) != 0) ||
        hd_sm_icache_init(sm) != 0 || hd_sm_opcoll_init(sm) != 0 || hd_sm_ldst_init(sm) != 0) {
        hd_sm_destroy(sm);
        snprintf(err, errlen, "host out of memory creating SM %u", id);
        return NULL;
    }
    if (sm->alloc.ops->attach) /* an allocator with blocks in the loop (sm_alloc.h) */
        sm->alloc.ops->attach(sm->alloc.impl, id, env->hw);
    return sm;
}

void hd_sm_destroy(struct hd_sm *sm)
{
    if (!sm)
        return;
    const struct hd_sm_params *p = sm->p;
    hd_sm_ctx_free(sm);
    hd_sm_res_free(sm);
    hd_sm_ahead_free(sm);
    if (sm->w)
        for (uint32_t i = 0; i < p->max_warps; i++)
            free(sm->w[i].sb);
    if (sm->sched)
        for (uint32_t s = 0; s < p->num_sched; s++)
            if (sm->sched[s].ops)
                sm->sched[s].ops->destroy(sm->sched[s].impl);
    if (sm->alloc.ops)
        sm->alloc.ops->destroy(sm->alloc.impl);
    free(sm->w);
    free(sm->cta);
    free(sm->ready);
    free(sm->sched_mask);
    free(sm->need_fetch);
    free(sm->sched);
    free(sm->nstate);
    free(sm->oldest);
    free(sm->last_stall);
    free(sm->order_buf);
    free(sm->ready_buf);
    free(sm->res_la);
    free(sm->res_n);
    free(sm->retired);
    free(sm->rx);
    free(sm->sh_word);
    free(sm->sh_cnt);
    free(sm->sh_stamp);
    free(sm->ic_tag);
    free(sm->ic_lru);
    free(sm->fills);
    free(sm->cu);
    free(sm->cu_order);
    free(sm->memops);
    hd_sm_oloc_free(sm);
    free(sm->bank_stamp);
    free(sm->bank_cnt);
    for (int u = 0; u < HD_TU_COUNT; u++)
        free(sm->unit_free[u]);
    free(sm->wb_stamp);
    free(sm->wb_cnt);
    free(sm->wheel_head);
    free(sm->wheel_tail);
    free(sm->ev);
    free(sm->ldst);
    free(sm->lt);
    free(sm);
}
/* }==== */

/* {==== CTA placement and retirement ==== */
static bool mixing_ok(const struct hd_sm *sm, const struct hd_sm_launch *la)
{
    if (sm->p->concurrent_kernels || sm->nres == 0)
        return true;
    return sm->nres == 1 && sm->res_la[0] == la;
}

bool hd_sm_can_accept(const struct hd_sm *sm, const struct hd_sm_launch *la)
{
    return mixing_ok(sm, la) && (sm->wr ? hd_sm_res_can_accept(sm, &la->demand)
                                        : sm->alloc.ops->can_accept(sm->alloc.impl, &la->demand));
}

bool hd_sm_can_resume(const struct hd_sm *sm, const struct hd_ctx *x)
{
    if (!x->smem_parked)
        return hd_sm_can_accept(sm, x->la);
    return x->park_sm == sm->id && !sm->wr && mixing_ok(sm, x->la) && sm->alloc.ops->can_unpark &&
           sm->alloc.ops->can_unpark(sm->alloc.impl, &x->la->demand, x->park_h);
}

static void res_add(struct hd_sm *sm, struct hd_sm_launch *la)
{
    for (uint32_t i = 0; i < sm->nres; i++)
        if (sm->res_la[i] == la) {
            sm->res_n[i]++;
            return;
        }
    sm->res_la[sm->nres] = la;
    sm->res_n[sm->nres++] = 1;
    if (la->info->c.max_coresident_launches < sm->nres)
        la->info->c.max_coresident_launches = sm->nres;
    for (uint32_t i = 0; i < sm->nres; i++) /* the others now share the SM with it too */
        if (sm->res_la[i]->info->c.max_coresident_launches < sm->nres)
            sm->res_la[i]->info->c.max_coresident_launches = sm->nres;
}

static void res_remove(struct hd_sm *sm, const struct hd_sm_launch *la)
{
    for (uint32_t i = 0; i < sm->nres; i++)
        if (sm->res_la[i] == la) {
            if (--sm->res_n[i] == 0) {
                sm->res_la[i] = sm->res_la[sm->nres - 1];
                sm->res_n[i] = sm->res_n[sm->nres - 1];
                sm->nres--;
            }
            return;
        }
}

static bool sb_fit(struct hd_twarp *w, uint32_t nregs)
{
    if (w->sb_cap < nregs) {
        uint8_t *p = realloc(w->sb, nregs);
        if (!p)
            return false;
        w->sb = p;
        w->sb_cap = nregs;
    }
    if (nregs) /* a kernel without registers may have no scoreboard storage yet */
        memset(w->sb, 0, nregs);
    return true;
}

/* Bind warp i of CTA slot c to its slot: fresh (saved == NULL) it starts at its first
 * instruction; coming back it gets its saved timing state (scoreboard, loads and stores still in
 * flight) and refetches from its next PC. `susp` keeps it from issuing. */
int hd_sm_warp_bind(struct hd_sm *sm, struct hd_tcta *c, uint32_t i, const struct hd_twarp *saved,
                    bool susp, uint64_t now, char *err, size_t errlen)
{
    const uint32_t nregs = c->la->l->k->nregs;
    const struct hd_cta_grant *g = &c->grant;
    struct hd_twarp *w = &sm->w[g->warp_slot[i]];
    uint8_t *sb = w->sb;
    uint32_t cap = w->sb_cap, slot = w->slot, sch = w->sched;
    if (saved)
        *w = *saved;
    else
        memset(w, 0, sizeof *w);
    w->sb = sb;
    w->sb_cap = cap;
    w->slot = slot;
    w->sched = sch;
    if (!sb_fit(w, nregs)) {
        snprintf(err, errlen, "host out of memory for a scoreboard");
        return HD_FUNC_ERR_MEMORY;
    }
    if (saved)
        memcpy(w->sb, saved->sb, nregs);
    w->fw = &c->fc->warps[i];
    w->cta = g->cta_slot;
    if (sm->ah) /* HAWS: no episode carries over a (re)binding (sm_ahead.c) */
        hd_sm_ahead_reset(sm, slot);
    w->age = sm->next_age++;
    w->susp = susp;
    w->fetch_busy = false;
    w->fetch_line = HD_SM_NONE;
    w->fetch_after = 0;
    w->state = HD_WS_EMPTY;
    sm->nstate[w->sched][HD_WS_EMPTY]++; /* hd_sm_warp_set_state moves it out of EMPTY */
    hd_sm_warp_set_state(sm, w, HD_WS_FETCH);
    sm->sched[w->sched].ops->add(sm->sched[w->sched].impl, w->slot, w->age);
    if (sm->hooks && sm->hooks->any_sched) { /* issue 31: the group table's write */
        struct hd_warp_view v;
        hd_sm_warp_view(sm, w->slot, &v);
        hd_hooks_sched_warp(sm->hooks, sm->id, w->slot, HD_HSCHED_ADD, &v, now);
    }
    uint32_t pc = 0;
    uint32_t active;
    if (!hd_func_warp_next(w->fw, &pc, &active))
        w->done = true;
    hd_sm_fetch_reset(sm, w, pc);
    hd_sm_warp_stall_ctr(sm, w);
    hd_sm_warp_eval(sm, w, now);
    return HD_FUNC_OK;
}

/* Bind CTA slot c's warps (hd_sm_warp_bind); with residency state a warp without a slot starts
 * absent (sm_residency.c). */
static int bind_warps(struct hd_sm *sm, struct hd_tcta *c, const struct hd_twarp *saved,
                      bool susp, uint64_t now, char *err, size_t errlen)
{
    const struct hd_cta_grant *g = &c->grant;
    for (uint32_t i = 0; i < g->nwarps; i++) {
        int st = g->warp_slot[i] == HD_ALLOC_NO_SLOT
                     ? hd_sm_res_place_absent(sm, c, i, now, err, errlen)
                     : hd_sm_warp_bind(sm, c, i, saved ? &saved[i] : NULL, susp, now, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
    }
    for (uint32_t s = 0; s < sm->p->num_sched; s++)
        hd_sm_update_oldest(sm, s);
    return HD_FUNC_OK;
}

/* Take a grant for a CTA of la and fill CTA slot bookkeeping for context x. */
static struct hd_tcta *take_slot(struct hd_sm *sm, struct hd_sm_launch *la, struct hd_ctx *x,
                                 bool fresh, uint64_t now, char *err, size_t errlen)
{
    struct hd_cta_grant g;
    const bool parked = !fresh && x->smem_parked; /* its shared memory kept here (Fig 2.4) */
    if (parked && (x->park_sm != sm->id || !sm->alloc.ops->unpark)) {
        snprintf(err, errlen, "internal: SM %u asked to resume context %u of %s, whose shared "
                 "memory stayed on SM %u", sm->id, x->id, la->l->k->entry->name, x->park_sm);
        return NULL;
    }
    if (!mixing_ok(sm, la) ||
        !(parked ? sm->alloc.ops->unpark(sm->alloc.impl, &la->demand, x->park_h, &g)
          : sm->wr && fresh ? hd_sm_res_accept(sm, &la->demand, &g) /* (may leave warps out) */
                            : sm->alloc.ops->accept(sm->alloc.impl, &la->demand, &g))) {
        snprintf(err, errlen, "internal: SM %u cannot take a CTA of %s", sm->id,
                 la->l->k->entry->name);
        return NULL;
    }
    if (parked && x->regs_parked && g.reg_base != x->park_reg_base) { /* (Lin 2.5.5) */
        snprintf(err, errlen, "internal: SM %u: context %u of %s resumed with registers at %u, "
                 "where they stayed in place at %u", sm->id, x->id, la->l->k->entry->name,
                 g.reg_base, x->park_reg_base);
        sm->alloc.ops->release(sm->alloc.impl, &g);
        return NULL;
    }
    if (parked && g.smem_base != x->park_base) { /* the block it left must be the one it finds */
        snprintf(err, errlen, "internal: SM %u: context %u of %s resumed with shared memory at "
                 "%" PRIu64 ", where it stayed in place at %" PRIu64, sm->id, x->id,
                 la->l->k->entry->name, g.smem_base, x->park_base);
        sm->alloc.ops->release(sm->alloc.impl, &g);
        return NULL;
    }
    if (parked) {
        x->smem_parked = x->keep_smem = x->regs_parked = x->keep_regs = false;
        sm->st->ctx_smem_inplace_resumes++;
    }
    struct hd_tcta *c = &sm->cta[g.cta_slot];
    c->used = true;
    c->la = la;
    c->ctx = x;
    c->fc = &x->fc;
    c->grant = g;
    c->live = g.nwarps;
    c->start = now;
    x->sm = sm->id;
    x->slot = g.cta_slot;
    x->fc.smid = sm->id;
    x->off_slots = false;
    sm->nwarps += g.nwarps;
    sm->nctas++;
    la->resident++;
    res_add(sm, la);
    return c;
}

int hd_sm_place_cta(struct hd_sm *sm, struct hd_sm_launch *la, struct hd_ctx *x, uint64_t now,
                    char *err, size_t errlen)
{
    struct hd_tcta *c = take_slot(sm, la, x, true, now, err, errlen);
    if (!c)
        return HD_FUNC_ERR_INTERNAL;
    x->t_first = now;
    x->insts = 0;
    if (sm->hooks->any_placed) {
        const struct hd_hook_cta hc = {sm->id, c->grant.cta_slot, la->id, x->id, 0, now,
                                       x->idempotent, &c->grant};
        hd_hooks_placed(sm->hooks, &hc, false, now);
    }
    int st = bind_warps(sm, c, NULL, false, now, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    sm->st->ctas_launched++;
    /* warps that were done at once (an empty kernel) drain now */
    for (uint32_t i = 0; i < c->grant.nwarps; i++)
        if (c->grant.warp_slot[i] != HD_ALLOC_NO_SLOT) /* (absent: sm_residency.c) */
            hd_sm_warp_check_drained(sm, &sm->w[c->grant.warp_slot[i]], now);
    return HD_FUNC_OK;
}

int hd_sm_resume_cta(struct hd_sm *sm, struct hd_ctx *x, uint64_t now, char *err, size_t errlen)
{
    if (x->restart) { /* flushed: a fresh start, placed like a new CTA */
        x->restart = false;
        x->state = HD_CTX_RESIDENT;
        return hd_sm_place_cta(sm, x->la, x, now, err, errlen);
    }
    const bool moved = x->sm != sm->id; /* (x->sm still names the SM that saved it) */
    struct hd_tcta *c = take_slot(sm, x->la, x, false, now, err, errlen);
    if (!c)
        return HD_FUNC_ERR_INTERNAL;
    if (moved)
        sm->st->ctx_restores_moved++;
    if (x->nitems && sm->cp->save == HD_CTXSAVE_COMPRESSED) {
        int cs = hd_sm_ctx_codec_ensure(sm, err, errlen);
        if (cs != HD_FUNC_OK)
            return cs;
    }
    x->state = HD_CTX_RESTORING;
    x->t_place = now;
    if (sm->hooks->any_placed) { /* (a resumed TB keeps its instructions) */
        const struct hd_hook_cta hc = {sm->id, c->grant.cta_slot, x->la->id, x->id, x->insts,
                                       x->t_first, x->idempotent, &c->grant};
        hd_hooks_placed(sm->hooks, &hc, true, now);
    }
    int st = bind_warps(sm, c, x->saved, true, now, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    x->sent = x->acked = 0;
    hd_sm_engq_push(sm, c->grant.cta_slot);
    return HD_FUNC_OK;
}

/* Give CTA slot c's resources back (it finished, or its context left the SM). */
void hd_sm_cta_vacate(struct hd_sm *sm, struct hd_tcta *c, uint64_t now)
{
    struct hd_sm_launch *la = c->la;
    if (sm->wr)
        hd_sm_res_vacated(sm, c->grant.cta_slot);
    la->info->c.resident_warp_cycles += (uint64_t)c->grant.nwarps * (now + 1 - c->start);
    if (sm->hooks->any_left) { /* (retire_cta marks a finish) */
        const struct hd_hook_cta hc = {sm->id, c->grant.cta_slot, la->id,
                                       c->ctx ? c->ctx->id : 0, c->ctx ? c->ctx->insts : 0,
                                       c->ctx ? c->ctx->t_first : now,
                                       c->ctx ? c->ctx->idempotent : false, &c->grant};
        hd_hooks_left(sm->hooks, &hc, sm->retiring, now);
    }
    if (c->ctx)
        c->ctx->t_left = now;
    struct hd_ctx *x = c->ctx;
    const bool saving = x && x->state == HD_CTX_SAVING;
    const uint32_t h = saving && x->keep_regs && sm->alloc.ops->park_all
                           ? sm->alloc.ops->park_all(sm->alloc.impl, &c->grant)
                       : saving && x->keep_smem && !x->keep_regs && sm->alloc.ops->park
                           ? sm->alloc.ops->park(sm->alloc.impl, &c->grant)
                           : UINT32_MAX;
    if (h != UINT32_MAX) { /* Lin Fig 2.4: its registers left, its shared memory stays here */
        x->regs_parked = x->keep_regs; /* Lin 2.5.5: its registers stay here too */
        x->park_reg_base = c->grant.reg_base;
        x->smem_parked = true;
        x->park_sm = sm->id;
        x->park_h = h;
        x->park_base = c->grant.smem_base;
        sm->st->ctx_smem_inplace_saves++;
    } else {
        if (x)
            x->keep_smem = x->keep_regs = false;
        sm->alloc.ops->release(sm->alloc.impl, &c->grant);
    }
    res_remove(sm, la);
    la->resident--;
    c->used = false;
    sm->nctas--;
}

static void retire_cta(struct hd_sm *sm, struct hd_tcta *c, uint64_t now)
{
    struct hd_sm_launch *la = c->la;
    hd_sm_ctx_retired(sm, c, now);
    struct hd_done_totals *tot[2] = {&la->done, la->kdone};
    for (unsigned i = 0; i < 2 && tot[i]; i++) {
        struct hd_done_totals *d = tot[i];
        d->n++;
        d->instrs += c->ctx->insts;
        d->cycles += now + 1 - c->ctx->t_first;
        if (c->ctx->insts) {
            const double cpi = (double)(now + 1 - c->ctx->t_first) / (double)c->ctx->insts;
            d->cpi_n++;
            d->cpi_sum += cpi;
            d->cpi_sq += cpi * cpi;
        }
    }
    sm->retiring = true;
    hd_sm_cta_vacate(sm, c, now);
    sm->retiring = false;
    hd_ctx_finish(sm->pool, &la->ctxs, c->ctx);
    c->ctx = NULL;
    c->fc = NULL;
    sm->st->ctas_done++;
    sm->retired[sm->nretired++] = la;
}

void hd_sm_warp_check_drained(struct hd_sm *sm, struct hd_twarp *w, uint64_t now)
{
    if (!w->done || w->state == HD_WS_EMPTY || w->inflight || w->mem_out)
        return;
    struct hd_tcta *c = &sm->cta[w->cta];
    /* A context being restored keeps its warps until the engine is done with it (restored()
     * drains the finished ones): a finished warp's last stores may complete meanwhile, and the
     * CTA must not retire (its context freed and reused, its slot given to another CTA) while
     * the restore is still the engine's operation on that slot. */
    if (c->ctx && c->ctx->state == HD_CTX_RESTORING)
        return;
    hd_sm_warp_unbind(sm, w);
    if (--c->live == 0)
        retire_cta(sm, c, now);
    else if (sm->wr) /* its slot goes to an absent warp (sm_residency.c) */
        hd_sm_res_drained(sm, c, w);
}

unsigned hd_sm_retired(struct hd_sm *sm, struct hd_sm_launch **out, unsigned max)
{
    unsigned n = sm->nretired < max ? sm->nretired : max;
    memcpy(out, sm->retired, n * sizeof *out);
    memmove(sm->retired, sm->retired + n, (sm->nretired - n) * sizeof *sm->retired);
    sm->nretired -= n;
    return n;
}
/* }==== */

/* {==== The cycle ==== */
/* Point w->stall_ctr at the per-line stall counter of its next PC. */
static void hd_sm_warp_stall_ctr(struct hd_sm *sm, struct hd_twarp *w)
{
    uint32_t pc, active;
    struct hd_line_stats *ls = sm->cta[w->cta].la->lines;
    w->stall_ctr = hd_func_warp_next(w->fw, &pc, &active) && pc < ls->npc ? &ls->stall[pc]
                                                                           : &sm->stall_sink;
}

static bool report_fault(const struct hd_sm *sm, int *status, char *err, size_t errlen)
{
    *status = sm->fault;
    snprintf(err, errlen, "%s", sm->fault_msg);
    return true;
}

bool hd_sm_tick(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen)
{
    bool progress = false;
    *status = HD_FUNC_OK;
    sm->last_tick = now;
    if (sm->ce->vr) /* the pipeline's accesses this tick (model/ctx/ctx_vres.h) */
        hd_sm_vres_begin(sm);
    if (hd_ctx_engine_due(sm->ce)) { /* the context engine's one tick (model/ctx) */
        progress |= hd_sm_ctx_tick(sm, now, status, err, errlen);
        if (*status != HD_FUNC_OK)
            return true;
        if (sm->fault != HD_FUNC_OK) /* (a forwarded response) */
            return report_fault(sm, status, err, errlen);
    }
    if (sm->wr) /* warp-granular residency: moves, returns, stress (sm_residency.c) */
        progress |= hd_sm_res_tick(sm, now);
    progress |= hd_sm_events(sm, now);
    progress |= hd_sm_mem_receive(sm, now);
    if (sm->fault != HD_FUNC_OK) /* a response found a warp's counts at 0 (sm_ldst.c) */
        return report_fault(sm, status, err, errlen);
    progress |= hd_sm_ldst_send(sm, now);
    progress |= hd_sm_dispatch(sm, now);
    progress |= hd_sm_read_operands(sm, now);
    if (sm->oloc.ops && sm->oloc.ops->spad_want) /* the policy's own pass, lowest priority */
        progress |= hd_sm_oloc_own(sm, now);
    progress |= hd_sm_issue(sm, now, status, err, errlen);
    if (*status != HD_FUNC_OK)
        return true;
    progress |= hd_sm_fetch(sm, now);
    if (sm->ce->vr) { /* the mover takes the arrays' leftover cycles, then the swap engine */
        progress |= hd_sm_vres_end(sm, now, status, err, errlen);
        if (*status != HD_FUNC_OK)
            return true;
    }
    if (sm->nctas) {
        struct hd_sm_stats *st = sm->st;
        st->active_cycles++;
        st->resident_warps += sm->nwarps;
        st->resident_ctas += sm->nctas;
        if (sm->nres > 1)
            st->multi_kernel_cycles++;
    }
    return progress;
}

bool hd_sm_busy(const struct hd_sm *sm)
{
    return sm->nctas || sm->nev || sm->ncu_order || sm->nfills || sm->nretired ||
           sm->ce->ninbox || sm->ce->nevicted || sm->ce->nstall ||
           (sm->mem->ops->pending && sm->mem->ops->pending(sm->mem->impl, sm->id));
}

void hd_sm_occupancy(const struct hd_sm *sm, uint32_t *warps, uint32_t *ctas)
{
    *warps = sm->nwarps;
    *ctas = sm->nctas;
}

uint64_t hd_sm_next_event(const struct hd_sm *sm, uint64_t now)
{
    if (sm->ncu_order || sm->nretired || hd_ctx_engine_pending(sm->ce))
        return now + 1; /* (a suspending CTA is checked for quiescence every cycle) */
    const uint64_t rt = sm->wr ? hd_sm_res_next_event(sm, now) : UINT64_MAX;
    if (rt <= now + 1)
        return now + 1;
    for (uint32_t u = 0; u < sm->p->units[HD_TU_MEM]; u++)
        if (sm->ldst[u].next < sm->ldst[u].op.nreq)
            return now + 1;
    for (uint32_t i = 0; i < sm->words; i++)
        if (sm->ready[i])
            return now + 1;
    for (uint32_t i = 0; i < sm->words; i++) /* a warp that may fetch later */
        for (uint64_t b = sm->need_fetch[i]; b; b &= b - 1) {
            const struct hd_twarp *w = &sm->w[i * 64 + (uint32_t)__builtin_ctzll(b)];
            if (w->fetch_after <= now + 1)
                return now + 1;
        }
    uint64_t t = UINT64_MAX;
    if (sm->nev)
        for (uint32_t d = 1; d <= sm->wheel_mask; d++)
            if (sm->wheel_head[(now + d) & sm->wheel_mask] != HD_SM_NONE) {
                t = now + d;
                break;
            }
    for (uint32_t i = 0; i < sm->words; i++)
        for (uint64_t b = sm->need_fetch[i]; b; b &= b - 1) {
            const struct hd_twarp *w = &sm->w[i * 64 + (uint32_t)__builtin_ctzll(b)];
            t = w->fetch_after < t ? w->fetch_after : t;
        }
    return rt < t ? rt : t;
}

void hd_sm_skip(struct hd_sm *sm, uint64_t n)
{
    for (uint32_t s = 0; s < sm->p->num_sched; s++) {
        struct hd_sched_stats *ss = &sm->sst[s];
        switch (sm->last_stall[s]) {
        case 1: ss->stall_pipeline += n; break;
        case 2: ss->stall_memory += n; break;
        case 3: ss->stall_scoreboard += n; break;
        case 4: ss->stall_barrier += n; break;
        case 5: ss->stall_ibuffer += n; break;
        default: break;
        }
        uint32_t o = sm->oldest[s];
        if (sm->last_stall[s] && o != HD_SM_NONE)
            *sm->w[o].stall_ctr += n;
    }
    if (sm->nctas) {
        struct hd_sm_stats *st = sm->st;
        st->active_cycles += n;
        st->resident_warps += n * sm->nwarps;
        st->resident_ctas += n * sm->nctas;
        if (sm->nres > 1)
            st->multi_kernel_cycles += n;
    }
}
/* }==== */

/* {==== Reports and abort ==== */
static const char *const state_names[HD_WS_COUNT] = {
    "empty", "no instruction", "barrier", "fence", "waiting for a load",
    "waiting for an ALU result", "ready", "draining", "suspended", "leaving", "absent",
    "returning"};

void hd_sm_describe(const struct hd_sm *sm, uint64_t now, char *buf, size_t len)
{
    size_t n = 0;
#define PUT(...) (n = hd_textbuf_put(buf, len, n, __VA_ARGS__))
    PUT("SM %u: %u CTAs, %u warps, %u collector units busy, %u events, %u loads in flight, "
        "%u icache fills",
        sm->id, sm->nctas, sm->nwarps, sm->ncu_order, sm->nev, sm->nlt, sm->nfills);
    if (sm->wr) /* (sm_residency.c) */
        PUT("; %u warps absent", hd_sm_res_absent(sm));
    if (sm->alloc.ops->describe) { /* the allocator's (a mechanism's) own state */
        PUT("\n  %s: ", sm->alloc.ops->name);
        if (n + 1 < len) {
            sm->alloc.ops->describe(sm->alloc.impl, buf + n, len - n);
            n += strlen(buf + n);
        }
    }
    for (uint32_t u = 0; u < sm->p->units[HD_TU_MEM]; u++)
        if (sm->ldst[u].next < sm->ldst[u].op.nreq)
            PUT("; LD/ST %u has %u requests to send", u, sm->ldst[u].op.nreq - sm->ldst[u].next);
    unsigned shown = 0;
    for (uint32_t i = 0; i < sm->p->max_warps && shown < 8; i++) {
        const struct hd_twarp *w = &sm->w[i];
        if (w->state == HD_WS_EMPTY)
            continue;
        const struct hd_tcta *c = &sm->cta[w->cta];
        const struct hd_func_kernel *k = c->la->l->k;
        uint32_t pc = 0, active = 0;
        bool has = hd_func_warp_next(w->fw, &pc, &active);
        PUT("\n  warp %u (%s, CTA (%u,%u,%u) warp %u): %s", i, k->entry->name, c->fc->ctaid[0],
            c->fc->ctaid[1], c->fc->ctaid[2], w->fw->id, state_names[w->state]);
        if (has && pc < k->ncode)
            PUT(" at PC %u, %s:%u", pc, k->mod->ir->filename ? k->mod->ir->filename : "<ptx>",
                k->code[pc].ir->line);
        if (w->state == HD_WS_BARRIER)
            PUT(" (barrier %u)", w->fw->bar_id);
        if (w->inflight || w->mem_out)
            PUT(" [%u in flight, %u memory requests]", w->inflight, w->mem_out);
        shown++;
    }
    if (shown < sm->nwarps)
        PUT("\n  ... and %u more warps", sm->nwarps - shown);
    (void)now;
#undef PUT
}

bool hd_sm_lowest_cta(const struct hd_sm *sm, const struct hd_sm_launch *la, uint64_t *linear,
                      uint32_t ctaid[3])
{
    bool found = false;
    for (uint32_t i = 0; i < sm->p->max_ctas; i++) {
        const struct hd_tcta *c = &sm->cta[i];
        if (c->used && c->la == la && (!found || c->fc->linear < *linear)) {
            *linear = c->fc->linear;
            memcpy(ctaid, c->fc->ctaid, 3 * sizeof *ctaid);
            found = true;
        }
    }
    return found;
}

void hd_sm_abort(struct hd_sm *sm)
{
    const struct hd_sm_params *p = sm->p;
    for (uint32_t i = 0; i < p->max_warps; i++) {
        struct hd_twarp *w = &sm->w[i];
        if (w->state != HD_WS_EMPTY) {
            sm->sched[w->sched].ops->remove(sm->sched[w->sched].impl, w->slot);
            if (sm->hooks && sm->hooks->any_sched)
                hd_hooks_sched_warp(sm->hooks, sm->id, w->slot, HD_HSCHED_REMOVE, NULL,
                                    sm->last_tick);
        }
        w->state = HD_WS_EMPTY;
        w->done = false;
        w->inflight = w->mem_out = w->lt_out = 0;
        w->susp = false;
    }
    for (uint32_t s = 0; s < p->num_sched; s++) {
        memset(sm->nstate[s], 0, sizeof sm->nstate[s]);
        sm->oldest[s] = HD_SM_NONE;
    }
    memset(sm->ready, 0, sm->words * sizeof *sm->ready);
    memset(sm->need_fetch, 0, sm->words * sizeof *sm->need_fetch);
    for (uint32_t i = 0; i < p->max_ctas; i++) {
        struct hd_tcta *c = &sm->cta[i];
        if (c->used)
            sm->alloc.ops->release(sm->alloc.impl, &c->grant);
        c->used = false;
        c->ctx = NULL;
        c->fc = NULL;
    }
    hd_ctx_engine_clear(sm->ce);
    if (sm->ce->vr) /* the mover, swap engine and their stress (ctx_vres.h) */
        hd_sm_vres_abort(sm);
    if (sm->wr)
        hd_sm_res_clear(sm);
    sm->fault = HD_FUNC_OK;
    sm->nwarps = sm->nctas = sm->nres = sm->nretired = 0;
    /* collectors, events, load/store units and trackers */
    for (uint32_t c = 0; c < sm->ncu; c++)
        sm->cu[c].busy = false;
    sm->ncu_order = 0;
    for (int u = 0; u < HD_TU_COUNT; u++)
        sm->cu_free[u] = 0;
    for (uint32_t c = 0; c < sm->ncu; c++)
        sm->cu_free[sm->cu[c].unit]++;
    for (uint32_t b = 0; b <= sm->wheel_mask; b++)
        sm->wheel_head[b] = sm->wheel_tail[b] = HD_SM_NONE;
    sm->ev_free = HD_SM_NONE;
    for (uint32_t e = 0; e < sm->ev_cap; e++) {
        sm->ev[e].next = sm->ev_free;
        sm->ev_free = e;
    }
    sm->nev = 0;
    for (uint32_t u = 0; u < p->units[HD_TU_MEM]; u++) {
        sm->ldst[u].op.nreq = sm->ldst[u].next = 0;
        sm->ldst[u].busy_until = 0;
    }
    sm->lt_free = HD_SM_NONE;
    for (uint32_t t = p->max_loads; t-- > 0;) {
        sm->lt[t].next_free = sm->lt_free;
        sm->lt_free = t;
    }
    sm->nlt = 0;
    sm->nfills = 0;
    for (uint32_t f = 0; f < p->max_warps; f++)
        sm->fills[f].busy = false;
}

/* }==== */
