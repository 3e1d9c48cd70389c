/* SPDX-License-Identifier: MIT
 * ctx_gpu.c - the GPU top's part of the context lifecycle: contexts that SMs saved or flushed go
 * to their launch's queue (the CTA scheduler places them before fresh CTAs, on any SM), and
 * stress mode, the correctness net of every mechanism built on the lifecycle: every
 * [context] stress_period cycles each resident CTA is context-switched out with probability
 * stress_fraction (a seeded generator: the same seed gives the same cycles), and it resumes on
 * another SM when one can take it; with stress_flush a CTA whose flush bit allows it is flushed
 * (restarted from its beginning) instead (docs/context.md).
 */
#include "gpu_impl.h"

#include "ctx_vres.h"

#include "ctx_image.h"

/* xorshift64*: a small, fast, deterministic generator (no global state). */
static uint64_t next_random(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

bool hd_gpu_ctx_collect(struct hd_gpu_timing *g, uint32_t s)
{
    bool any = false;
    unsigned n;
    if (!g->pool.evicted) /* (the common case: checked without a call per SM and cycle) */
        return false;
    while ((n = hd_sm_evicted(g->sm[s], g->evicted, 64)) > 0) {
        g->pool.evicted -= n;
        for (unsigned i = 0; i < n; i++) {
            struct hd_ctx *x = hd_ctx_get(&g->pool, g->evicted[i]);
            if (x->preq != HD_CTX_NONE && x->preq < g->stats.npreempt) { /* latency split */
                struct hd_preempt_rec *r = &g->stats.preempt[x->preq];
                r->quiet = x->t_quiet > r->quiet ? x->t_quiet : r->quiet;
                r->saved = g->now > r->saved ? g->now : r->saved;
                r->bytes += x->bytes;
                r->warp_spill_cycles += x->wspill_sum; /* Lin's accumulated per-warp latency */
                r->warp_spill_warps += x->wspill_warps;
                if (x->smem_parked) {
                    r->smem_kept++;
                    r->smem_kept_bytes += x->la->demand.smem;
                }
                r->regs_kept += x->regs_parked; /* stopped in place (Lin 2.5.5) */
                r->cycles_engine += x->pc_busy; /* the save pipeline busy (Fig 2.15) */
                if (x->img) { /* Fig 2.14's parts (ctx_image.h) */
                    const uint64_t *pb = x->img->part_bytes;
                    r->bytes_regs += pb[HD_CTXP_REGS] + pb[HD_CTXP_PV];
                    r->bytes_smem += pb[HD_CTXP_SMEM];
                    r->bytes_stack += pb[HD_CTXP_STACK] + pb[HD_CTXP_CCB];
                }
                r->cycles_regs += x->pc_cycles[0]; /* Fig 2.14 as time (ctx_wsave.h) */
                r->cycles_smem += x->pc_cycles[1];
                r->cycles_stack += x->pc_cycles[2];
                r->warp_service_cycles += x->wservice_sum; /* first to last request per warp */
                x->preq = HD_CTX_NONE;
            }
            hd_ctx_queue_push(&g->pool, &x->la->ctxs, x);
            if (g->admit.ops->left) { /* its context left the SM (cta_admit.h) */
                struct hd_admit_query q;
                hd_gpu_admit_query(g, s, x->la, x->fc.linear, &q);
                g->admit.ops->left(g->admit.impl, &q, false, g->now);
            }
        }
        any = true;
    }
    return any;
}

void hd_gpu_ctx_stress(struct hd_gpu_timing *g)
{
    /* a fraction f as a threshold on 53 random bits, so 1.0 always and 0.0 never evicts */
    const uint64_t limit = (uint64_t)(g->p.ctx.stress_fraction * (double)(1ull << 53));
    for (uint32_t s = 0; s < g->p.num_sms; s++) {
        bool any = false;
        for (uint32_t i = 0; i < g->p.sm.max_ctas; i++) {
            const struct hd_ctx *x = hd_sm_cta_ctx(g->sm[s], i);
            if (!x)
                continue;
            if ((next_random(&g->rng) >> 11) >= limit)
                continue;
            if (!any)
                hd_gpu_wake_sm(g, s);
            /* a CTA is flushed at most once: restarts must not starve it (forward progress) */
            bool ok = g->p.ctx.stress_flush && x->flushes == 0 &&
                      hd_sm_cta_suspend(g->sm[s], i, HD_CTXOP_FLUSH, g->now);
            any |= ok || hd_sm_cta_suspend(g->sm[s], i, HD_CTXOP_SWITCH, g->now);
        }
    }
}

void hd_gpu_vstress(struct hd_gpu_timing *g, bool move)
{
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        if (hd_sm_vstress_point(g->sm[s], move, g->p.ctx.vstress_fraction, &g->vrng, g->now))
            hd_gpu_wake_sm(g, s);
}

static uint64_t next_point(uint64_t now, uint64_t p)
{
    return p ? (now / p + 1) * p : UINT64_MAX;
}

uint64_t hd_gpu_ctx_next_event(const struct hd_gpu_timing *g)
{
    uint64_t t = next_point(g->now, g->p.ctx.stress_period);
    const uint64_t signal = hd_gpu_preempt_next_signal(g);
    const uint64_t sw = next_point(g->now, g->p.ctx.swap_stress_period);
    const uint64_t mv = next_point(g->now, g->p.ctx.move_stress_period);
    t = signal < t ? signal : t;
    t = sw < t ? sw : t;
    return mv < t ? mv : t;
}
