/* SPDX-License-Identifier: MIT
 * ctx_engine.h - the per-SM context engine as one object (docs/context.md; Lin thesis §2.6-2.7,
 * Fig 2.13 the save/restore pipeline; Shieh §2.1 switch, drain, flush): its queue of CTAs with
 * save or restore work, the CTAs suspending, the contexts it handed back to the GPU, memory
 * responses forwarded to warps that moved, the preemption controller's state, the register
 * pattern codec and the selective preemption points' decoder. The engine is stepped once per
 * cycle by its tick (hd_sm_ctx_tick, ctx_engine.c) from the SM's tick, before the pipeline
 * stages; its functions live in model/ctx (ctx_engine.c, ctx_pack.c, ctx_tb.c, ctx_points.c).
 *
 * Design: the SM owns one engine (struct hd_sm .ce, made by hd_sm_ctx_init); the engine names
 * CTAs by slot and warps by logical reference (mem_tags.h hd_wref), never by address, so it
 * holds nothing the SM's save/restore would have to fix up.
 */
#ifndef HD_CTX_ENGINE_H
#define HD_CTX_ENGINE_H

#include "ctx_pool.h"

#include <stdbool.h>
#include <stdint.h>

/* A memory response for a warp that is no longer where it sent the request (ctx_engine.c). */
enum hd_fwd_kind { HD_FWD_MEM, HD_FWD_LOAD };
struct hd_fwd {
    uint64_t ref;                /* packed struct hd_wref */
    uint32_t pc;                 /* LOAD: the load whose destinations are now written */
    uint8_t kind;                /* enum hd_fwd_kind: MEM = one request completed; LOAD = the
                                    last request of a load completed */
};

struct hd_ctx_codec;
struct hd_sm_pp;
struct hd_sm_vres;
bool hd_sm_vres_pending(const struct hd_sm_vres *v);

struct hd_ctx_engine {
    struct hd_fwd *inbox;        /* responses forwarded here for warps that moved in */
    uint32_t ninbox, cap_inbox;
    uint32_t *engq;              /* [max_ctas] CTA slots with context-engine work, FIFO */
    uint32_t engq_head, nengq;
    uint32_t nsusp;              /* CTAs suspending (waiting for quiescence) */
    uint32_t *evicted;           /* [max_ctas x 2] contexts saved or flushed, for the GPU */
    uint32_t nevicted, cap_evicted;
    struct hd_ctx_codec *codec;  /* the save/restore path's regpat codec (made when needed) */
    bool ctl_busy;               /* its preemption controller has the engine's oldest operation */
    const struct hd_ctx *ctl_ctx; /* ... namely this context's (an aborted run leaves it) */
    uint8_t ctl_state;           /* the controller's state in the last cycle (progress) */
    struct hd_sm_pp *pp;         /* selective preemption points: pp_decode and its queue
                                    (ctx_points.c) */
    uint32_t *live_buf;          /* scratch: live registers of a warp */
    uint32_t cap_live;
    struct hd_sm_vres *vr;       /* mover, swap engine, their stress (ctx_vres.h), or NULL */
    /* [context] switch_model = stall: the SM's port at its fair share of the DRAM bandwidth is
     * busy until stall_free; each request's acknowledgement waits in stall_q until its cycle */
    double stall_free;           /* (fractional cycles: the bytes' time adds up exactly) */
    struct hd_ctx_stall_ack { uint64_t at, payload; } *stall_q;
    uint32_t stall_head, nstall, cap_stall;
    /* [context] save_order = warp (ctx_wsave.c): warps whose registers the engine saves, in the
     * order they were drained, FIFO; the first wq_fed are fully offered to the codec */
    struct hd_ctx_wentry {
        uint32_t slot, warp;     /* CTA slot, warp in the CTA */
        uint32_t req_end;        /* its context's request count after its record (ready) */
        bool ready;              /* its record's requests are all known */
    } *wq;
    uint32_t wq_head, nwq, cap_wq, wq_fed;
    uint64_t busy_last;          /* the last cycle + 1 its save pipeline was counted busy
                                    (hd_ctx_busy_cycle, Lin's drain = the pipeline idle) */
};

/* Has the engine work for its tick (forwarded responses, suspending CTAs, queued operations)? */
static inline bool hd_ctx_engine_due(const struct hd_ctx_engine *ce)
{
    return ce->ninbox || ce->nsusp || ce->nengq || ce->nstall || ce->nwq;
}
/* Does it hold anything the GPU must not sleep through (its tick's work, contexts to hand
 * back)? */
static inline bool hd_ctx_engine_pending(const struct hd_ctx_engine *ce)
{
    return hd_ctx_engine_due(ce) || ce->nevicted || (ce->vr && hd_sm_vres_pending(ce->vr));
}
/* Forget everything queued (the SM is reset). */
static inline void hd_ctx_engine_clear(struct hd_ctx_engine *ce)
{
    ce->ninbox = ce->nengq = ce->nsusp = ce->nevicted = ce->nstall = ce->nwq = ce->wq_fed = 0;
}

#endif
