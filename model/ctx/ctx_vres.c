/* SPDX-License-Identifier: MIT
 * ctx_vres.c - an SM's virtual-resource substrate (issue 25 items 3, 4; ctx_vres.h;
 * docs/mover.md): made on first use; each tick it finds which arrays the pipeline used (the
 * SM's own counters between hd_sm_vres_begin and hd_sm_vres_end) and steps the mover on what
 * is left, then the swap engine and the stress operations; it reserves L1D ways for the
 * context region.
 *
 * Which accesses take an array's port in a cycle (array-level arbitration, one port each):
 *   register file  any operand-collector read or issue-time write (reg_reads, reg_writes)
 *                  in the cycle;
 *   shared memory  a shared-memory instruction holds the banks for 1 + its conflict cycles
 *                  (smem_instrs, smem_conflict_cycles), back to back;
 *   L1D            each global/local request sent takes one lookup cycle (gmem_requests).
 */
#include "sm_impl.h"

#include "ctx_vres.h"
#include "ctx_wmove.h"
#include "mem_full.h"
#include "l1_reserve.h"

#include <stdlib.h>

static void moved(void *arg, uint64_t tag, uint64_t now)
{
    struct hd_sm *sm = arg;
    struct hd_sm_vres *v = sm->ce->vr;
    if (tag & HD_VSTRESS_TAG)
        hd_sm_vstress_moved(sm, tag & ~HD_VSTRESS_TAG, now);
    else if (v->mover_done)
        v->mover_done(v->mover_arg, tag, now);
}

/* The swap engine's completions (ctx_swap.h), routed by the record's tag. */
static void swapped(void *arg, struct hd_sm *sm, uint32_t rec, bool in, uint64_t now)
{
    (void)arg;
    struct hd_sm_vres *v = sm->ce->vr;
    const struct hd_swap_rec *x = hd_sm_swap_rec(sm, rec);
    if (x && (x->tag & HD_VSTRESS_TAG))
        hd_sm_vstress_swapped(NULL, sm, rec, in, now);
    else if (v->swap_done)
        v->swap_done(v->swap_arg, sm, rec, in, now);
}

struct hd_sm_vres *hd_sm_vres(struct hd_sm *sm)
{
    if (sm->ce->vr)
        return sm->ce->vr;
    struct hd_sm_vres *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    uint32_t l1_units = 0;
    struct hd_l1 *l1 = hd_mem_full_l1(sm->mem, sm->id);
    if (l1) /* at most every way but one */
        l1_units = (l1->d.ways - 1) * l1->d.sets * (l1->d.line / HD_UADDR_UNIT);
    const uint32_t max[HD_UA_COUNT] = {sm->p->registers / 32,
                                       (uint32_t)(sm->p->shared_bytes / HD_UADDR_UNIT), l1_units};
    v->op = calloc(sm->p->max_ctas, sizeof *v->op);
    if (!v->op || hd_uspace_init(&v->us, max) != 0 ||
        hd_ctx_mover_init(&v->mv, sm->cp->mover_bytes_per_cycle, moved, sm) != 0) {
        free(v->op);
        hd_uspace_free(&v->us);
        free(v);
        return NULL;
    }
    hd_uspace_set_cap(&v->us, HD_UA_L1D, 0); /* no ways reserved yet */
    v->rf0 = sm->st->reg_reads + sm->st->reg_writes;
    v->smem0 = sm->st->smem_instrs;
    v->smemc0 = sm->st->smem_conflict_cycles;
    v->l1_0 = sm->st->gmem_requests;
    sm->ce->vr = v;
    return v;
}

hd_swap_done_fn hd_sm_vres_swap_done(void)
{
    return swapped;
}

void hd_sm_vres_free(struct hd_sm *sm)
{
    struct hd_sm_vres *v = sm->ce->vr;
    if (!v)
        return;
    for (uint32_t i = 0; i < sm->p->max_ctas; i++)
        free(v->op[i].keep);
    free(v->op);
    free(v->swap);
    hd_sm_wmove_free(v);
    hd_ctx_mover_free(&v->mv);
    hd_uspace_free(&v->us);
    free(v);
    sm->ce->vr = NULL;
}

void hd_sm_vres_abort(struct hd_sm *sm)
{
    struct hd_sm_vres *v = sm->ce->vr;
    struct hd_l1 *l1 = hd_mem_full_l1(sm->mem, sm->id);
    if (v && v->l1d_ways && l1) /* the cache gets its ways back; the rest is forgotten */
        hd_l1_reserve_ways(l1, 0, 0, 0, NULL);
    hd_sm_vres_free(sm);
}

void hd_sm_vres_begin(struct hd_sm *sm)
{
    struct hd_sm_vres *v = sm->ce->vr;
    v->rf0 = sm->st->reg_reads + sm->st->reg_writes;
    v->smem0 = sm->st->smem_instrs;
    v->smemc0 = sm->st->smem_conflict_cycles;
    v->l1_0 = sm->st->gmem_requests;
}

/* The arrays the pipeline used this cycle (bits 1 << enum hd_uarray). */
static unsigned pipeline_busy(struct hd_sm *sm, struct hd_sm_vres *v, uint64_t now)
{
    const struct hd_sm_stats *st = sm->st;
    const uint64_t smem = st->smem_instrs - v->smem0 + st->smem_conflict_cycles - v->smemc0;
    const uint64_t l1 = st->gmem_requests - v->l1_0;
    if (smem)
        v->smem_until = (v->smem_until > now ? v->smem_until : now) + smem;
    if (l1)
        v->l1_until = (v->l1_until > now ? v->l1_until : now) + l1;
    unsigned busy = 0;
    if (st->reg_reads + st->reg_writes != v->rf0) {
        busy |= 1u << HD_UA_RF;
        v->rf_busy_at = now + 1;
    }
    if (v->smem_until > now)
        busy |= 1u << HD_UA_SMEM;
    if (v->l1_until > now)
        busy |= 1u << HD_UA_L1D;
    return busy;
}

static bool mover_tick(struct hd_sm *sm, struct hd_sm_vres *v, unsigned busy, uint64_t now)
{
    const struct hd_mover_stats a = v->mv.st;
    const bool progress = hd_ctx_mover_step(&v->mv, busy, now);
    const struct hd_mover_stats *b = &v->mv.st;
    struct hd_sm_stats *st = sm->st;
    st->mover_jobs += b->jobs - a.jobs;
    st->mover_bytes += b->bytes - a.bytes;
    st->mover_move_cycles += b->move_cycles - a.move_cycles;
    st->mover_wait_cycles += b->wait_cycles - a.wait_cycles;
    st->mover_wait_rf += b->wait_by[HD_UA_RF] - a.wait_by[HD_UA_RF];
    st->mover_wait_smem += b->wait_by[HD_UA_SMEM] - a.wait_by[HD_UA_SMEM];
    st->mover_wait_l1d += b->wait_by[HD_UA_L1D] - a.wait_by[HD_UA_L1D];
    st->mover_latency += b->latency - a.latency;
    st->mover_queue_cycles += b->queue_cycles - a.queue_cycles;
    return progress;
}

bool hd_sm_vres_end(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen)
{
    struct hd_sm_vres *v = sm->ce->vr;
    const unsigned busy = pipeline_busy(sm, v, now);
    bool progress = false;
    if (v->mv.n)
        progress |= mover_tick(sm, v, busy, now);
    if (v->swap && v->swap->sq_head != HD_SWAP_NONE)
        progress |= hd_sm_swap_step(sm, now);
    if (v->nops)
        progress |= hd_sm_vstress_tick(sm, now, status, err, errlen);
    return progress;
}

unsigned hd_sm_port_busy(struct hd_sm *sm, uint64_t now)
{
    const struct hd_sm_vres *v = hd_sm_vres(sm);
    if (!v)
        return 0;
    /* (a cycle the SM slept in used no register; shared memory and the L1D stay busy until) */
    return (v->rf_busy_at == now + 1 ? 1u << HD_UA_RF : 0u) |
           (v->smem_until > now ? 1u << HD_UA_SMEM : 0u) |
           (v->l1_until > now ? 1u << HD_UA_L1D : 0u);
}

bool hd_sm_vres_pending(const struct hd_sm_vres *v)
{
    return v && (v->mv.n || hd_ctx_swap_busy(v->swap) || v->nops);
}

int hd_sm_mover_submit(struct hd_sm *sm, uint32_t src, uint32_t dst, uint64_t bytes,
                       uint64_t tag, uint64_t now)
{
    struct hd_sm_vres *v = hd_sm_vres(sm);
    return v ? hd_ctx_mover_submit(&v->mv, src, dst, bytes, tag, now) : -1;
}

int hd_sm_l1d_reserve(struct hd_sm *sm, uint32_t ways, uint64_t now)
{
    struct hd_sm_vres *v = hd_sm_vres(sm);
    struct hd_l1 *l1 = hd_mem_full_l1(sm->mem, sm->id);
    if (!v || !l1)
        return -1;
    if (ways >= l1->d.ways)
        ways = l1->d.ways - 1;
    const uint32_t units = ways * l1->d.sets * (l1->d.line / HD_UADDR_UNIT);
    if (hd_uspace_set_cap(&v->us, HD_UA_L1D, units) != 0)
        return -1; /* pieces still live beyond the smaller region */
    uint32_t wb = 0;
    const struct hd_tcta *c = NULL;
    for (uint32_t i = 0; i < sm->p->max_ctas && !c; i++)
        c = sm->cta[i].used ? &sm->cta[i] : NULL;
    v->l1d_ways = hd_l1_reserve_ways(l1, ways, c ? c->la->id : 0, now, &wb);
    sm->st->l1d_reserve_writebacks += wb;
    if (ways)
        sm->st->l1d_reserves++;
    return 0;
}
