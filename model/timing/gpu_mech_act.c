/* SPDX-License-Identifier: MIT
 * gpu_mech_act.c - what a mechanism may ask of the GPU (mech.h struct hd_mech_act, issue 28):
 * GPUDuet's context switching logic (Lin thesis §3.6.5) switches warps out and back in through
 * the warp-granular residency (sm_residency.h), finds its allocators (its unified on-chip
 * storage lives there) and reads a kernel's analyses (its reduced register allocation).
 *
 * Design: thin wrappers over the core's own calls, so that the mechanism includes no core
 * header (scripts/check-layering.sh). Called only from hooks' start and cycle callbacks. A
 * mechanism's warp mover (issue 28 item 4: GPUDuet's CSL block) plugs into the residency's
 * mover seam through an adapter, and the pipeline's port use per cycle is the SM's substrate's
 * (ctx_vres.h hd_sm_port_busy: what the on-chip context mover yields to).
 */
#include "gpu_impl.h"
#include "sm_impl.h"
#include "sm_residency.h"
#include "ctx_vres.h"
#include "mem_full.h"
#include "regpat_comp.h"

static struct hd_sm_alloc act_sm_alloc(void *gpu, uint32_t sm)
{
    const struct hd_gpu_timing *g = gpu;
    const struct hd_sm_alloc none = {NULL, NULL};
    return sm < g->p.num_sms ? g->sm[sm]->alloc : none;
}

static const struct hd_func_kernel *act_kernel(void *gpu, uint32_t kernel,
                                               const struct hd_annot **an)
{
    const struct hd_gpu_timing *g = gpu;
    *an = NULL;
    for (uint32_t i = 0; i < g->ntk; i++)
        if (g->tk[i].tk && g->tk[i].tk->id == kernel) {
            *an = g->tk[i].tk->an;
            return g->tk[i].k;
        }
    return NULL;
}

static bool act_warp_out(void *gpu, uint32_t sm, uint32_t slot, uint64_t return_at, uint64_t now)
{
    struct hd_gpu_timing *g = gpu;
    return sm < g->p.num_sms && slot < g->p.sm.max_warps &&
           hd_sm_warp_switch_out(g->sm[sm], slot, return_at, now);
}

static bool act_warp_in(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp, uint64_t now)
{
    struct hd_gpu_timing *g = gpu;
    if (sm >= g->p.num_sms)
        return false;
    struct hd_ctx *x = hd_ctx_get(&g->pool, ctx);
    return x && hd_sm_warp_switch_in(g->sm[sm], x, warp, now);
}

static uint32_t act_warp_waiting(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp)
{
    struct hd_gpu_timing *g = gpu;
    const struct hd_ctx *x = hd_ctx_get(&g->pool, ctx);
    if (!x || x->sm != sm || x->state != HD_CTX_RESIDENT || !hd_sm_warp_absent(x, warp) ||
        warp >= x->fc.nwarps)
        return 0;
    return (x->saved[warp].lt_out > 0 ? HD_MECH_WAIT_LOADS : 0u) |
           (x->fc.warps[warp].at_barrier ? HD_MECH_WAIT_BARRIER : 0u) |
           ((x->wmoving >> warp & 1u) ? HD_MECH_WAIT_MOVING : 0u);
}

static bool act_warp_lanes(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp, uint32_t kreg,
                           unsigned word, uint32_t lanes[32], unsigned *pag)
{
    struct hd_gpu_timing *g = gpu;
    const struct hd_ctx *x = hd_ctx_get(&g->pool, ctx);
    if (!x || x->sm != sm || !x->has_fc || warp >= x->fc.nwarps || word > 1 ||
        kreg >= x->fc.warps[warp].nregs)
        return false;
    const uint64_t *r = x->fc.warps[warp].regs + (size_t)kreg * HD_FUNC_WARP_SIZE;
    for (unsigned l = 0; l < 32; l++)
        lanes[l] = (uint32_t)(r[l] >> (32u * word));
    *pag = hd_regpat_pag_for_block(x->la->l->block);
    return true;
}

static bool act_l1d_bypass(void *gpu, uint32_t launch, bool on)
{
    struct hd_gpu_timing *g = gpu;
    if (!hd_mem_is_full(&g->mem))
        return false;
    hd_mem_full_set_bypass(&g->mem, launch, on);
    return true;
}

/* The residency's mover seam calling a mechanism's mover (impl: its struct hd_mech_wmover). */
_Static_assert(HD_MECH_WMOVE_CALLBACK == HD_WARP_MOVE_CALLBACK, "one callback marker");
static uint64_t mech_mover_start(void *impl, const struct hd_warp_move *m, uint64_t now)
{
    const struct hd_mech_wmover *w = impl;
    const struct hd_mech_wmove x = {m->sm,   m->ctx,  m->warp,  m->slot,  m->in,    m->regs,
                                    m->bytes, m->swap, m->ctx2, m->warp2, m->regs2, m->bytes2};
    return w->start(w->impl, &x, now);
}

static bool act_warp_mover(void *gpu, uint32_t sm, struct hd_mech_wmover *m)
{
    struct hd_gpu_timing *g = gpu;
    if (sm >= g->p.num_sms)
        return false;
    if (!m)
        return hd_sm_set_warp_mover(g->sm[sm], NULL);
    const struct hd_warp_mover w = {mech_mover_start, m, m->swaps};
    /* (the SM's substrate measures the pipeline's port use from its next tick: port_busy) */
    return hd_sm_vres(g->sm[sm]) != NULL && hd_sm_set_warp_mover(g->sm[sm], &w);
}

static void act_warp_moved(void *gpu, uint32_t sm, uint32_t ctx, uint32_t warp, uint64_t now)
{
    struct hd_gpu_timing *g = gpu;
    if (sm < g->p.num_sms)
        hd_sm_warp_moved(g->sm[sm], ctx, warp, now);
}

static int act_warp_swap(void *gpu, uint32_t sm, uint32_t slot, uint32_t ctx, uint32_t warp,
                         uint64_t now)
{
    struct hd_gpu_timing *g = gpu;
    if (sm >= g->p.num_sms)
        return 0;
    struct hd_ctx *x = hd_ctx_get(&g->pool, ctx);
    return x ? hd_sm_warp_swap(g->sm[sm], slot, x, warp, now) : 0;
}

static bool act_warp_may_leave(void *gpu, uint32_t sm, uint32_t slot)
{
    struct hd_gpu_timing *g = gpu;
    return sm < g->p.num_sms && hd_sm_warp_may_leave(g->sm[sm], slot);
}

static uint32_t act_port_busy(void *gpu, uint32_t sm, uint64_t now)
{
    struct hd_gpu_timing *g = gpu;
    return sm < g->p.num_sms ? hd_sm_port_busy(g->sm[sm], now) : 0;
}

static bool act_ctas_waiting(void *gpu, uint32_t launch)
{
    const struct hd_gpu_timing *g = gpu;
    for (unsigned i = g->first_unfinished; i < g->nl; i++) {
        const struct tlaunch *t = g->L[i];
        if (t->sl.id == launch)
            return !t->finished && (t->next_cta < t->nctas || t->sl.ctxs.q_len > 0);
    }
    return false;
}

const struct hd_mech_act *hd_gpu_mech_act(struct hd_gpu_timing *g)
{
    g->act = (struct hd_mech_act){g, act_sm_alloc, act_kernel, act_warp_out, act_warp_in,
                                  act_warp_waiting, act_warp_lanes, act_l1d_bypass,
                                  act_warp_mover, act_warp_moved, act_port_busy,
                                  act_ctas_waiting, act_warp_swap,
                                  act_warp_may_leave};
    return &g->act;
}
