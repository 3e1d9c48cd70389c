/* SPDX-License-Identifier: MIT
 * sm_policy.c - the GPU's access to an SM's policy state (sm_policy.h).
 */
#include "sm_policy.h"
#include "sm_ahead.h"
#include "func_status.h"

#include "sm_impl.h"
#include <stdio.h>
#include <string.h>

bool hd_sm_alloc_timed(const struct hd_sm *sm)
{
    return sm->alloc.ops->tick || sm->alloc.ops->next_event;
}

bool hd_sm_alloc_tick(struct hd_sm *sm, uint64_t now)
{
    return sm->alloc.ops->tick ? sm->alloc.ops->tick(sm->alloc.impl, now) : false;
}

uint64_t hd_sm_alloc_next_event(const struct hd_sm *sm, uint64_t now)
{
    return sm->alloc.ops->next_event ? sm->alloc.ops->next_event(sm->alloc.impl, now)
                                     : UINT64_MAX;
}

void hd_sm_alloc_usage(const struct hd_sm *sm, struct hd_alloc_usage *u)
{
    sm->alloc.ops->usage(sm->alloc.impl, u);
}

int hd_sm_alloc_fault(const struct hd_sm *sm, char *err, size_t errlen)
{
    return sm->alloc.ops->fault ? sm->alloc.ops->fault(sm->alloc.impl, err, errlen) : 0;
}

int hd_sm_plan_victims(struct hd_sm *sm, const struct hd_cta_demand *d, uint32_t *slots)
{
    return sm->alloc.ops->plan_victims ? sm->alloc.ops->plan_victims(sm->alloc.impl, d, slots)
                                       : -1;
}

int hd_sm_plan_room(struct hd_sm *sm, const struct hd_cta_demand *d, uint32_t n, uint32_t *slots,
                    uint8_t *parts)
{
    return sm->alloc.ops->plan_room ? sm->alloc.ops->plan_room(sm->alloc.impl, d, n, slots, parts)
                                    : -1;
}

bool hd_sm_alloc_replace(struct hd_sm *sm, const struct hd_sm_alloc *a, struct hd_sm_alloc *old)
{
    if (sm->nctas)
        return false;
    *old = sm->alloc;
    sm->alloc = *a;
    return true;
}

bool hd_sm_set_oloc(struct hd_sm *sm, const struct hd_oloc_ops *ops, void *impl)
{
    if (sm->nctas || (ops && (ops->nports > HD_OLOC_MAX_PORTS || !ops->locate)))
        return false;
    return hd_sm_oloc_install(sm, ops, impl, false); /* (sm_oloc_port.c) */
}

bool hd_sm_own_oloc(struct hd_sm *sm, const struct hd_oloc_ops *ops, void *impl)
{
    if (sm->nctas || !ops || ops->nports > HD_OLOC_MAX_PORTS || !ops->locate)
        return false;
    return hd_sm_oloc_install(sm, ops, impl, true);
}

void hd_sm_set_hooks(struct hd_sm *sm, const struct hd_hooks *hooks)
{
    sm->hooks = hooks;
    if (hd_sm_ahead_setup(sm) != 0 && sm->fault == HD_FUNC_OK) { /* HAWS (sm_ahead.c) */
        sm->fault = HD_FUNC_ERR_MEMORY;
        snprintf(sm->fault_msg, sizeof sm->fault_msg, "SM %u: host out of memory for the HAWS "
                 "result collection units", sm->id);
    }
}

static uint8_t view_state(uint8_t st)
{
    switch (st) {
    case HD_WS_READY: return HD_WV_READY;
    case HD_WS_FETCH: return HD_WV_FETCH;
    case HD_WS_BARRIER: return HD_WV_BARRIER;
    case HD_WS_MEMBAR: return HD_WV_MEMBAR;
    case HD_WS_SB_MEM: return HD_WV_WAIT_MEM;
    case HD_WS_SB_ALU: return HD_WV_WAIT_ALU;
    case HD_WS_DRAIN: return HD_WV_DRAIN;
    default: return HD_WV_OTHER;
    }
}

void hd_sm_warp_view(const void *vsm, uint32_t slot, struct hd_warp_view *out)
{
    const struct hd_sm *sm = vsm;
    const struct hd_twarp *w = &sm->w[slot];
    const struct hd_tcta *c = &sm->cta[w->cta];
    const struct hd_func_cta *fc = c->fc; /* in the context pool (ctx_pool.h) */
    const struct hd_annot *an = c->la ? c->la->tk->an : NULL;
    uint32_t pc = w->ib_n ? w->ib_pc : w->fetch_pc;
    *out = (struct hd_warp_view){slot,
                                 c->la ? c->la->id : 0,
                                 fc ? fc->linear : 0,
                                 w->cta,
                                 w->fw ? w->fw->id : 0,
                                 pc,
                                 w->sb_long,
                                 w->age,
                                 view_state(w->state),
                                 an ? hd_annot_flags(an, pc) : 0,
                                 an,
                                 {0, 0, 0},
                                 {0, 0, 0},
                                 0,
                                 c->grant.nwarps,
                                 false};
    if (fc)
        memcpy(out->ctaid, fc->ctaid, sizeof out->ctaid);
    if (c->la) {
        memcpy(out->grid, c->la->l->grid, sizeof out->grid);
        out->hint = c->la->l->attr.hint;
    }
    out->pooled = sm->hooks && sm->hooks->any_pooled && hd_hooks_pooled(sm->hooks, sm->id, slot);
}

bool hd_sm_sched_replace(struct hd_sm *sm, uint32_t s, const struct hd_sched *p,
                         struct hd_sched *old)
{
    if (s >= sm->p->num_sched || sm->nwarps)
        return false;
    *old = sm->sched[s];
    sm->sched[s] = *p;
    return true;
}

uint32_t hd_sm_resident_ctas(const struct hd_sm *sm)
{
    return sm->nctas;
}

void hd_sm_launch_residency(const struct hd_sm *sm, const struct hd_sm_launch *la,
                            uint32_t *launch_ctas, uint32_t *kernel_ctas)
{
    *launch_ctas = *kernel_ctas = 0;
    for (uint32_t i = 0; i < sm->nres; i++) {
        if (sm->res_la[i] == la)
            *launch_ctas = sm->res_n[i];
        if (sm->res_la[i]->tk == la->tk)
            *kernel_ctas += sm->res_n[i];
    }
}

void hd_sm_working(const struct hd_sm *sm, uint64_t *regs, uint64_t *threads)
{
    *regs = *threads = 0;
    for (uint32_t i = 0; i < sm->p->max_ctas; i++) {
        const struct hd_tcta *c = &sm->cta[i];
        if (!c->used || !c->ctx || c->ctx->state != HD_CTX_RESIDENT)
            continue;
        *regs += c->grant.regs;
        *threads += c->grant.threads;
    }
}

uint32_t hd_sm_preempt_view(const struct hd_sm *sm, struct hd_preempt_cta *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < sm->p->max_ctas; i++) {
        const struct hd_tcta *c = &sm->cta[i];
        if (!c->used)
            continue;
        const struct hd_ctx *x = c->ctx;
        const struct hd_sm_launch *la = c->la;
        /* the finished-TB statistics per kernel (Shieh L236), or per launch ([context]
         * kstats_per_launch) */
        const struct hd_done_totals *d =
            la->kdone && !sm->cp->kstats_per_launch ? la->kdone : &la->done;
        out[n++] = (struct hd_preempt_cta){
            .slot = i,
            .launch = la->id,
            .priority = la->l->attr.priority,
            .cta = x->fc.linear,
            .ctx = x->id,
            .flushable = x->idempotent,
            .in_transit = x->state != HD_CTX_RESIDENT,
            .placed = c->start,
            .warp_instrs = x->insts,
            .done_ctas = d->n,
            .done_instrs = d->instrs,
            .done_cycles = d->cycles,
            .done_cpi_n = d->cpi_n,
            .done_cpi_sum = d->cpi_sum,
            .done_cpi_sq = d->cpi_sq,
            .grant = c->grant,
        };
    }
    return n;
}

const struct hd_sm_alloc *hd_sm_alloc_of(const struct hd_sm *sm)
{
    return &sm->alloc;
}

const struct hd_sched *hd_sm_sched_of(const struct hd_sm *sm, uint32_t s)
{
    return s < sm->p->num_sched ? &sm->sched[s] : NULL;
}
