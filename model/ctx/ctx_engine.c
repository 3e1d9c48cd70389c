/* SPDX-License-Identifier: MIT
 * ctx_engine.c - the SM's part of the context lifecycle: suspend a CTA, wait until none of its
 * instructions is in flight, save it through the context engine (or drop it for a restart),
 * restore it on any SM, and deliver memory responses to warps that moved meanwhile. Issue 11;
 * Lin thesis §2.6-2.7 (save path, context control block), Shieh §2.1 (switch, drain, flush).
 *
 * Design. Suspend sets each warp's `susp`: it neither issues nor fetches, and its state becomes
 * SUSPENDED. The CTA is quiet when every warp's in-flight work is only loads waiting in load
 * trackers (inflight == lt_out), no decode is pending and no load/store unit still sends for it;
 * those loads are not waited for: their trackers stay on this SM and name the warp by its
 * logical reference (mem_tags.h), so their data reaches the warp wherever it is when it returns
 * (a slot here, another SM's inbox, or its saved timing state). With [context] quiesce =
 * writeback the CTA is quiet only when nothing of it is in flight at all, loads included (Lin
 * L930-L938's drained warp: no pending register-file update). At quiescence:
 *   switch  the warps' timing state moves into the context (ctx_pool.h), the warp slots are free
 *           at once, and the context engine writes the context out as `segment_bytes` stores of
 *           traffic class CONTEXT into the context's window (addr_map.h): the CTA's whole
 *           register allocation, its shared memory and per live warp its SIMT stack, call frames
 *           and barrier word (Lin's "Occup": every occupied byte). The CTA slot and its register
 *           and shared-memory allocation are given back when the last write has been sent (the
 *           register file has been read out); the context may be placed again once every write
 *           is acknowledged. Flushing drops the CTA instead: nothing is written, its epoch moves
 *           on (late responses are dropped) and it restarts from its first instruction, which
 *           the flush bit (no global store or atomic yet) guarantees is safe.
 *   resume  takes a grant on any SM; the engine reads the same bytes back (loads of class
 *           CONTEXT, around the L1) and only then do the warps fetch again from their next PC
 *           (the instruction buffer is not saved).
 * One engine per SM serves its operations in arrival order, `requests_per_cycle` requests per
 * cycle while the memory interface accepts them. Latencies are measured, not assumed: signal to
 * quiescence, quiescence to the last write acknowledged, placement to the last read returned.
 */
#include "sm_impl.h"

#include "addr_map.h"
#include "ctx_codec.h"
#include "ctx_ctl.h"
#include "ctx_image.h"
#include "ctx_vres.h"
#include "ctx_wsave.h"
#include "func_status.h"

#include <inttypes.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CTX_DIR_RESTORE (1ull << 48)

/* {==== Creation ==== */
int hd_sm_ctx_init(struct hd_sm *sm)
{
    const uint32_t n = sm->p->max_ctas;
    struct hd_ctx_engine *ce = sm->ce = calloc(1, sizeof *sm->ce);
    if (!ce)
        return -1;
    ce->engq = calloc(n, sizeof *ce->engq);
    ce->cap_evicted = 2 * n;
    ce->evicted = calloc(ce->cap_evicted, sizeof *ce->evicted);
    ce->cap_inbox = 16;
    ce->inbox = calloc(ce->cap_inbox, sizeof *ce->inbox);
    return ce->engq && ce->evicted && ce->inbox ? 0 : -1;
}

void hd_sm_ctx_free(struct hd_sm *sm)
{
    struct hd_ctx_engine *ce = sm->ce;
    if (!ce)
        return;
    hd_ctx_codec_destroy(ce->codec);
    hd_sm_pp_free(sm);
    hd_sm_vres_free(sm);
    free(ce->live_buf);
    free(ce->engq);
    free(ce->evicted);
    free(ce->inbox);
    free(ce->stall_q);
    free(ce->wq);
    free(ce);
    sm->ce = NULL;
}
/* }==== */

/* {==== Queries ==== */
void hd_sm_engq_push(struct hd_sm *sm, uint32_t slot)
{
    sm->ce->engq[(sm->ce->engq_head + sm->ce->nengq++) % sm->p->max_ctas] = slot;
}

struct hd_ctx *hd_sm_cta_ctx(const struct hd_sm *sm, uint32_t slot)
{
    if (slot >= sm->p->max_ctas || !sm->cta[slot].used)
        return NULL;
    struct hd_ctx *x = sm->cta[slot].ctx;
    return x && x->state == HD_CTX_RESIDENT ? x : NULL;
}

unsigned hd_sm_evicted(struct hd_sm *sm, uint32_t *out, unsigned max)
{
    unsigned n = sm->ce->nevicted < max ? sm->ce->nevicted : max;
    memcpy(out, sm->ce->evicted, n * sizeof *out);
    memmove(sm->ce->evicted, sm->ce->evicted + n, (sm->ce->nevicted - n) * sizeof *sm->ce->evicted);
    sm->ce->nevicted -= n;
    return n;
}

bool hd_sm_has_inbox(const struct hd_sm *sm)
{
    return sm->ce->ninbox > 0;
}

bool hd_sm_holds_launch(const struct hd_sm *sm, const struct hd_sm_launch *la)
{
    for (uint32_t i = 0; i < sm->p->max_ctas; i++)
        if (sm->cta[i].used && sm->cta[i].la == la)
            return true;
    return false;
}

static bool push_evicted(struct hd_sm *sm, uint32_t id)
{
    if (sm->ce->nevicted == sm->ce->cap_evicted) {
        uint32_t *e = realloc(sm->ce->evicted, 2 * sm->ce->cap_evicted * sizeof *e);
        if (!e)
            return false;
        sm->ce->evicted = e;
        sm->ce->cap_evicted *= 2;
    }
    sm->ce->evicted[sm->ce->nevicted++] = id;
    sm->pool->evicted++;
    return true;
}
/* }==== */

/* {==== Responses for warps that moved ==== */
static bool inbox_push(struct hd_sm *to, struct hd_fwd f)
{
    if (to->ce->ninbox == to->ce->cap_inbox) {
        struct hd_fwd *n = realloc(to->ce->inbox, 2 * to->ce->cap_inbox * sizeof *n);
        if (!n)
            return false;
        to->ce->inbox = n;
        to->ce->cap_inbox *= 2;
    }
    to->ce->inbox[to->ce->ninbox++] = f;
    return true;
}

void hd_sm_ctx_deliver(struct hd_sm *sm, struct hd_wref ref, uint8_t kind, uint32_t pc,
                       uint64_t now)
{
    struct hd_ctx *x = hd_ctx_get(sm->pool, ref.ctx);
    if (!x || x->epoch != ref.epoch || x->state == HD_CTX_FREE) {
        sm->st->ctx_stale_responses++; /* its CTA was flushed: the restart does not wait */
        return;
    }
    if (x->absent >> ref.warp & 1u) { /* switched out alone: its state is in the context */
        hd_sm_res_deliver_absent(sm, x, ref, kind, pc, now);
        return;
    }
    sm->st->ctx_loads_late += kind == HD_FWD_LOAD;
    if (!x->off_slots) { /* in warp slots of another SM (or of this one, after a restore) */
        struct hd_sm *to = x->sm < sm->pool->nsms ? sm->pool->sms[x->sm] : NULL;
        if (to && to != sm && inbox_push(to, (struct hd_fwd){hd_wref_pack(ref), pc, kind})) {
            sm->st->ctx_forwarded++;
            return;
        }
        sm->st->ctx_stale_responses++; /* cannot happen: the context says it is here */
        return;
    }
    /* off the slots: its timing state is in the context */
    sm->st->ctx_to_saved++;
    struct hd_twarp *w = &x->saved[ref.warp];
    if (hd_sm_warp_uncount(sm, w, ref, kind == HD_FWD_LOAD, true, now) && kind == HD_FWD_LOAD)
        hd_twarp_sb_release(x->la->l->k, w, pc);
}

static bool drain_inbox(struct hd_sm *sm, uint64_t now)
{
    if (!sm->ce->ninbox)
        return false;
    /* a delivery may append to the inbox (a warp that moved on again goes elsewhere) */
    uint32_t n = sm->ce->ninbox;
    for (uint32_t i = 0; i < n; i++) {
        const struct hd_fwd f = sm->ce->inbox[i];
        hd_sm_warp_response(sm, hd_wref_unpack(f.ref), f.kind == HD_FWD_LOAD ? f.pc : HD_SM_NONE,
                            now);
    }
    memmove(sm->ce->inbox, sm->ce->inbox + n, (sm->ce->ninbox - n) * sizeof *sm->ce->inbox);
    sm->ce->ninbox -= n;
    return true;
}
/* }==== */

/* {==== Suspend ==== */
bool hd_sm_cta_suspend(struct hd_sm *sm, uint32_t slot, enum hd_ctx_op op, uint64_t now)
{
    struct hd_ctx *x = hd_sm_cta_ctx(sm, slot);
    if (!x || op == HD_CTXOP_NONE)
        return false;
    if (sm->wr && hd_sm_res_holds_cta(sm, slot)) { /* a warp off its slot (sm_residency.c) */
        sm->st->ctx_suspend_absent_refused++;
        return false;
    }
    if (op == HD_CTXOP_FLUSH && !x->idempotent) {
        sm->st->ctx_flush_refused++;
        return false;
    }
    struct hd_tcta *c = &sm->cta[slot];
    x->state = HD_CTX_SUSPENDING;
    x->op = (uint8_t)op;
    x->t_signal = now;
    x->eng_done = x->acks_done = false; /* (switch_model = stall_req) */
    x->wsave = x->wall = false; /* (save_order = warp: ctx_wsave.c) */
    x->wqueued = x->wpending = 0;
    memset(x->pc_cycles, 0, sizeof x->pc_cycles);
    memset(x->pc_last, 0, sizeof x->pc_last);
    x->pc_busy = 0;
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        if (w->state == HD_WS_EMPTY)
            continue;
        hd_sm_pp_suspend_warp(sm, w, op, now); /* at once, or at its next point (ctx_points.c) */
    }
    sm->ce->nsusp++;
    sm->st->ctx_suspends++;
    return true;
}

void hd_sm_ctx_retired(struct hd_sm *sm, struct hd_tcta *c, uint64_t now)
{
    hd_launch_info_note_cta(c->la->info, c->fc->linear, c->ctx->insts,
                            now + 1 - c->ctx->t_first); /* the Oracle's profile */
    if (c->ctx->state == HD_CTX_SUSPENDING) { /* it finished meanwhile: nothing to save */
        if (c->ctx->wsave && sm->ce->nwq) /* (a queued warp never finishes: ctx_wsave.c) */
            hd_sm_wsave_forget(sm, c->grant.cta_slot);
        sm->ce->nsusp--;
        sm->st->ctx_finished_suspending++;
    }
}

/* Nothing of CTA c in flight but loads waiting for memory ([context] quiesce = pipeline)? With
 * quiesce = writeback, nothing in flight at all: each warp drained as Lin L930-L938 defines it
 * (no issued instruction in the pipeline, no pending register-file update, loads included). */
bool hd_sm_warp_quiet(const struct hd_sm *sm, const struct hd_twarp *w)
{
    const bool writeback = sm->cp->quiesce == HD_QUIESCE_WRITEBACK;
    if (w->inflight != (writeback ? 0 : w->lt_out) ||
        (w->fetch_busy && w->fetch_line == HD_SM_NONE))
        return false;
    for (uint32_t u = 0; u < sm->p->units[HD_TU_MEM]; u++)
        if (sm->ldst[u].warp == w->slot && sm->ldst[u].next < sm->ldst[u].op.nreq)
            return false;
    return true;
}

static bool quiet(const struct hd_sm *sm, const struct hd_tcta *c)
{
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        const struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        if (w->state != HD_WS_EMPTY && !hd_sm_warp_quiet(sm, w))
            return false;
    }
    return true;
}

bool hd_sm_ctx_saved_storage(struct hd_ctx *x, uint32_t nwarps, uint32_t nregs)
{
    if (!x->saved) {
        x->saved = calloc(nwarps, sizeof *x->saved);
        if (!x->saved)
            return false;
    }
    if (x->saved_regs < nregs || !x->saved_sb) {
        uint8_t *sb = realloc(x->saved_sb, (size_t)nwarps * (nregs ? nregs : 1));
        if (!sb)
            return false;
        x->saved_sb = sb;
        x->saved_regs = nregs;
    }
    return true;
}

static void flush_now(struct hd_sm *sm, struct hd_tcta *c, uint64_t now)
{
    struct hd_ctx *x = c->ctx;
    x->t_quiet = now;
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        if (w->state != HD_WS_EMPTY)
            hd_sm_warp_unbind(sm, w);
        w->susp = w->to_pp = false;
    }
    hd_sm_cta_vacate(sm, c, now);
    c->ctx = NULL;
    c->fc = NULL;
    hd_ctx_reset_for_restart(x);
    x->flushes++;
    x->state = HD_CTX_SAVED;
    x->off_slots = true;
    sm->st->ctx_flushes++;
    push_evicted(sm, x->id);
}

bool hd_sm_ctx_wspill_storage(struct hd_ctx *x, uint32_t nwarps)
{
    if (x->cap_wspill < nwarps) { /* [0, cap): last register request; [cap, 2 cap): first */
        uint64_t *ws = realloc(x->wspill, 2 * (size_t)nwarps * sizeof *ws);
        if (!ws)
            return false;
        x->wspill = ws;
        x->cap_wspill = nwarps;
    }
    memset(x->wspill, 0, 2 * (size_t)x->cap_wspill * sizeof *x->wspill);
    return true;
}

/* The CTA is quiet: its warps' timing state moves into the context and their slots are free;
 * the engine writes the bytes out (ctx_pack.c says which). Returns a status. */
static int start_save(struct hd_sm *sm, struct hd_tcta *c, uint64_t now, char *err,
                      size_t errlen)
{
    struct hd_ctx *x = c->ctx;
    const uint32_t nwarps = c->grant.nwarps, nregs = c->la->l->k->nregs;
    if (!hd_sm_ctx_saved_storage(x, nwarps, nregs)) {
        snprintf(err, errlen, "host out of memory saving a context on SM %u", sm->id);
        return HD_FUNC_ERR_MEMORY;
    }
    const bool early = x->wsave; /* save_order = warp: records already on their way */
    if (!early && !hd_sm_ctx_wspill_storage(x, nwarps)) {
        snprintf(err, errlen, "host out of memory saving a context on SM %u", sm->id);
        return HD_FUNC_ERR_MEMORY;
    }
    /* before the warps leave: reads their PCs */
    int st = hd_sm_wsave_on(sm) ? hd_sm_wsave_all(sm, c, err, errlen)
                                : hd_sm_ctx_plan(sm, c, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    for (uint32_t i = 0; i < nwarps; i++) {
        struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        struct hd_twarp *s = &x->saved[i];
        uint8_t *sb = x->saved_sb + (size_t)i * nregs;
        if (w->state == HD_WS_EMPTY) { /* drained: nothing left of it */
            memset(s, 0, sizeof *s);
            s->done = true;
        } else {
            *s = *w;
            memcpy(sb, w->sb, nregs);
            hd_sm_warp_unbind(sm, w);
        }
        s->sb = sb;
        s->sb_cap = nregs;
        s->susp = s->to_pp = false;
        w->susp = w->to_pp = false;
    }
    x->off_slots = true;
    x->state = HD_CTX_SAVING;
    if (!x->wsave) /* (warp order: the queue has been sending since the first warp drained) */
        x->sent = x->acked = 0; /* hd_sm_ctx_plan set reqs (UINT32_MAX until the packer is done) */
    x->t_quiet = now;
    sm->st->ctx_quiesce_cycles += now - x->t_signal;
    hd_sm_engq_push(sm, c->grant.cta_slot);
    return HD_FUNC_OK;
}

static bool check_suspending(struct hd_sm *sm, uint64_t now, int *status, char *err,
                             size_t errlen)
{
    bool progress = false;
    for (uint32_t i = 0; i < sm->p->max_ctas && sm->ce->nsusp; i++) {
        struct hd_tcta *c = &sm->cta[i];
        if (c->used && c->ctx->state == HD_CTX_SUSPENDING && hd_sm_wsave_on(sm) &&
            (*status = hd_sm_wsave_scan(sm, c, now, err, errlen)) != HD_FUNC_OK)
            return true;
        if (!c->used || c->ctx->state != HD_CTX_SUSPENDING || hd_sm_pp_waiting(sm, c, now) ||
            !quiet(sm, c) || hd_sm_vstress_holds(sm, i)) /* (a piece of it away: ctx_vstress.c) */
            continue;
        sm->ce->nsusp--;
        progress = true;
        if (c->ctx->op == HD_CTXOP_FLUSH) {
            sm->st->ctx_quiesce_cycles += now - c->ctx->t_signal;
            flush_now(sm, c, now);
        } else if ((*status = start_save(sm, c, now, err, errlen)) != HD_FUNC_OK) {
            return true;
        }
    }
    return progress;
}
/* }==== */

/* {==== The context engine ==== */
/* switch_model = stall (Shieh §4.1: "stalling TBs for estimated context switch time ... the
 * memory bandwidth is assumed fairly shared among each SM"): a request occupies the SM's port
 * for its bytes over [context]'s sm_bytes_per_cycle (fractional cycles, so a whole save or
 * restore takes ceil(Ctx / (B / N_SM))), with no memory traffic, and is acknowledged when its
 * time is over. switch_model = stall_tb: each context has a port of its own at that rate, which
 * does not hold the engine (its requests queue on it), so the SM's CTAs stall in parallel and an SM's switch takes its largest CTA's L_CS, as the
 * thesis's simulation with its Eq 3.1 (the latency of a candidate is the max over its TBs;
 * digest §8.1 item 8); the acknowledgements then come out of order (stall_acks scans). */
static bool stall_send(struct hd_sm *sm, struct hd_ctx *x, bool restore, uint32_t bytes,
                       uint64_t now)
{
    struct hd_ctx_engine *ce = sm->ce;
    const bool from_req = sm->cp->switch_model == HD_SWITCHMODEL_STALL_REQ;
    const bool per_tb = sm->cp->switch_model == HD_SWITCHMODEL_STALL_TB || from_req;
    double *port = per_tb ? &x->stall_free : &ce->stall_free;
    if (!per_tb && (double)now + 1.0 <= *port)
        return false; /* (the port is busy for the whole of this cycle) */
    /* (stall_tb: the engine is not held; the context's requests queue on its own port, each
     * acknowledged when the port's time reaches it, so the next CTA's save starts at once) */
    if (ce->nstall == ce->cap_stall) {
        const uint32_t n = ce->cap_stall ? 2 * ce->cap_stall : 64;
        struct hd_ctx_stall_ack *q = malloc(n * sizeof *q);
        if (!q)
            return false;
        for (uint32_t i = 0; i < ce->nstall; i++)
            q[i] = ce->stall_q[(ce->stall_head + i) % ce->cap_stall];
        free(ce->stall_q);
        ce->stall_q = q;
        ce->cap_stall = n;
        ce->stall_head = 0;
    }
    const double bpc = sm->cp->sm_bytes_per_cycle > 0.0 ? sm->cp->sm_bytes_per_cycle : 1.0;
    if (from_req && !restore) { /* stall_req: the save's stall runs from the request, so the
                                   drain (quiesce) overlaps it; its later requests follow on the
                                   port whenever they are sent */
        if (x->sent == 0)
            *port = *port > (double)x->t_signal ? *port : (double)x->t_signal;
        *port += (double)bytes / bpc;
    } else {
        *port = (*port > (double)now ? *port : (double)now) + (double)bytes / bpc;
    }
    const uint64_t at = (uint64_t)ceil(*port);
    ce->stall_q[(ce->stall_head + ce->nstall++) % ce->cap_stall] = (struct hd_ctx_stall_ack){
        at > now ? at : now + 1,
        (uint64_t)x->id | (uint64_t)x->epoch << 32 | (restore ? CTX_DIR_RESTORE : 0)};
    x->sent++;
    if (restore)
        sm->st->ctx_restore_bytes += bytes;
    else
        sm->st->ctx_save_bytes += bytes;
    return true;
}

/* The stalls whose time is over are acknowledged (as the memory's responses would be). */
static bool stall_acks(struct hd_sm *sm, uint64_t now)
{
    struct hd_ctx_engine *ce = sm->ce;
    bool any = ce->nstall > 0; /* (waiting is progress: the GPU must not sleep through it) */
    if (sm->cp->switch_model == HD_SWITCHMODEL_STALL_TB ||
        sm->cp->switch_model == HD_SWITCHMODEL_STALL_REQ) {
        /* per-context ports: any entry may be due; each context's own entries stay in order
         * (its port's times rise), so a stable partition (due first, in queue order) keeps them
         * in order. The due ones are taken out before their responses (which may queue more). */
        const uint32_t n = ce->nstall;
        uint32_t due = 0;
        for (uint32_t i = 0; i < n; i++)
            due += ce->stall_q[(ce->stall_head + i) % ce->cap_stall].at <= now;
        if (!due)
            return any;
        struct hd_ctx_stall_ack *tmp = malloc(n * sizeof *tmp);
        if (!tmp)
            return any; /* (retried next cycle) */
        uint32_t d = 0, k = due;
        for (uint32_t i = 0; i < n; i++) {
            const struct hd_ctx_stall_ack e = ce->stall_q[(ce->stall_head + i) % ce->cap_stall];
            tmp[e.at <= now ? d++ : k++] = e;
        }
        for (uint32_t i = 0; i < n; i++)
            ce->stall_q[(ce->stall_head + i) % ce->cap_stall] = tmp[i];
        free(tmp);
        for (uint32_t i = 0; i < due; i++) {
            const uint64_t payload = ce->stall_q[ce->stall_head].payload;
            ce->stall_head = (ce->stall_head + 1) % ce->cap_stall;
            ce->nstall--;
            hd_sm_ctx_response(sm, payload, now);
        }
        return any;
    }
    while (ce->nstall && ce->stall_q[ce->stall_head].at <= now) {
        const uint64_t payload = ce->stall_q[ce->stall_head].payload;
        ce->stall_head = (ce->stall_head + 1) % ce->cap_stall;
        ce->nstall--;
        hd_sm_ctx_response(sm, payload, now);
    }
    return any;
}

bool hd_sm_ctx_send(struct hd_sm *sm, struct hd_tcta *c, uint64_t now)
{
    struct hd_ctx *x = c->ctx;
    const bool restore = x->state == HD_CTX_RESTORING;
    struct hd_ctx_req q; /* the next part of the context in Lin's layout (ctx_image.h) */
    if (!hd_ctx_image_req(x->img, restore, x->sent, &q))
        return false;
    if (!restore && (q.part == HD_CTXP_REGS || q.part == HD_CTXP_PV)) { /* Lin's per-warp spill */
        const uint32_t w = hd_ctx_image_req_warp(x->img, &q);
        if (w < c->grant.nwarps && w < x->cap_wspill) {
            x->wspill[w] = now;
            if (!x->wspill[x->cap_wspill + w]) /* its service starts (ctx_pool.h) */
                x->wspill[x->cap_wspill + w] = now;
        }
    }
    if (sm->cp->switch_model != HD_SWITCHMODEL_TRAFFIC) /* no traffic: the port's time */
        return stall_send(sm, x, restore, q.bytes, now);
    struct hd_mem_req r = {0};
    r.addr = q.addr;
    r.bytes = q.bytes;
    r.kind = restore ? HD_MEM_LOAD : HD_MEM_STORE;
    r.space = HD_SPACE_GLOBAL;
    r.flags = restore ? HD_MEMF_BYPASS_L1 : 0;
    r.cls = HD_MCLASS_CONTEXT;
    r.sm = (uint16_t)sm->id;
    r.kernel = c->la->id;
    r.tag = hd_tag_make(HD_TAG_CONTEXT, (uint64_t)x->id | (uint64_t)x->epoch << 32 |
                                            (restore ? CTX_DIR_RESTORE : 0));
    if (!sm->mem->ops->send(sm->mem->impl, &r, now))
        return false;
    x->sent++;
    if (restore)
        sm->st->ctx_restore_bytes += q.bytes;
    else
        sm->st->ctx_save_bytes += q.bytes;
    return true;
}

/* Send up to requests_per_cycle requests of the oldest operation, of the part the preemption
 * controller allows this cycle (ctx_ctl.h: registers, shared memory, stacks, the CCB entry in
 * that order on a save; the CCB entry, then the rest on a restore). */
static bool engine_step(struct hd_sm *sm, const struct hd_ctx_ctl_out *co, uint32_t budget,
                        uint64_t now)
{
    bool progress = false;
    struct hd_tcta *c = &sm->cta[sm->ce->engq[sm->ce->engq_head]];
    struct hd_ctx *x = c->ctx;
    const bool restore = x->state == HD_CTX_RESTORING;
    for (; budget && x->sent < x->reqs; budget--) {
        struct hd_ctx_req q;
        if (!hd_ctx_image_req(x->img, restore, x->sent, &q)) {
            if (!restore && co->part_o == HD_CTXCTL_PART_REGS) {
                hd_ctx_part_cycle(x, HD_CTXP_REGS, now); /* waiting for the packer */
                hd_ctx_busy_cycle(&sm->ce->busy_last, x, now);
            }
            break; /* the packer has not filled the next segment yet */
        }
        if (x->wsave && !restore && (q.part == HD_CTXP_REGS || q.part == HD_CTXP_PV))
            break; /* warp order: the records leave through the queue (ctx_wsave.c) */
        const bool ok = co->part_o == HD_CTXCTL_PART_ANY
                            ? q.part != HD_CTXP_CCB
                            : co->part_o == (q.part == HD_CTXP_PV     ? HD_CTXCTL_PART_REGS
                                             : q.part == HD_CTXP_REGS ? HD_CTXCTL_PART_REGS
                                             : q.part == HD_CTXP_SMEM ? HD_CTXCTL_PART_SMEM
                                             : q.part == HD_CTXP_STACK ? HD_CTXCTL_PART_STACK
                                                                       : HD_CTXCTL_PART_CCB);
        if (!ok)
            break;
        if (!restore) {
            hd_ctx_part_cycle(x, q.part, now);
            hd_ctx_busy_cycle(&sm->ce->busy_last, x, now);
        }
        if (!hd_sm_ctx_send(sm, c, now)) {
            if (sm->cp->switch_model == HD_SWITCHMODEL_TRAFFIC)
                sm->st->mem_send_stalls++;
            break;
        }
        progress = true;
    }
    return progress;
}

/* The controller says the oldest operation is complete. */
static void engine_done(struct hd_sm *sm, uint64_t now);

static void restored(struct hd_sm *sm, struct hd_ctx *x, uint64_t now)
{
    struct hd_tcta *c = &sm->cta[x->slot];
    x->state = HD_CTX_RESIDENT;
    sm->st->ctx_restores++;
    sm->st->ctx_restore_cycles += now - x->t_place;
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        if (w->state == HD_WS_EMPTY)
            continue;
        w->susp = false;
        uint32_t pc = 0, active;
        if (hd_func_warp_next(w->fw, &pc, &active))
            hd_sm_fetch_reset(sm, w, pc);
        hd_sm_warp_eval(sm, w, now);
    }
    for (uint32_t i = 0; i < c->grant.nwarps; i++) /* warps that had finished before the save */
        hd_sm_warp_check_drained(sm, &sm->w[c->grant.warp_slot[i]], now);
}

static void vacate_saved(struct hd_sm *sm, struct hd_tcta *c, uint64_t now);
static void saved_acked(struct hd_sm *sm, struct hd_ctx *x, uint64_t now);

void hd_sm_ctx_response(struct hd_sm *sm, uint64_t payload, uint64_t now)
{
    if (payload & HD_SWAP_TAG_BIT) { /* the swap engine's (ctx_swap.c) */
        hd_sm_swap_response(sm, payload, now);
        return;
    }
    struct hd_ctx *x = hd_ctx_get(sm->pool, (uint32_t)payload);
    const bool restore = payload & CTX_DIR_RESTORE;
    if (!x || x->epoch != (uint16_t)(payload >> 32)) {
        sm->st->ctx_stale_responses++;
        return;
    }
    x->acked++;
    if (x->acked < x->reqs)
        return;
    if (restore) { /* the controller completes it (after the unpacker and decompressor) */
        if (x->state == HD_CTX_RESTORING && x->sent == x->reqs && x->img &&
            (x->nitems || x->tb) && (sm->cp->save == HD_CTXSAVE_COMPRESSED ||
                                     sm->cp->save == HD_CTXSAVE_COMPRESSED_TB)) {
            x->decoding = true;
            x->dec_next = x->dec_done = x->dec_seg = 0;
        }
        return;
    }
    if (sm->cp->switch_model == HD_SWITCHMODEL_STALL_REQ && !x->eng_done) {
        x->acks_done = true; /* stall_req: it leaves when the engine has sent it all */
        return;
    }
    if (x->eng_done) { /* stall_req: the engine was done; its stall is over now */
        x->eng_done = false;
        vacate_saved(sm, &sm->cta[x->slot], now);
    }
    saved_acked(sm, x, now);
}

/* Every save write acknowledged: the context may be placed again. */
static void saved_acked(struct hd_sm *sm, struct hd_ctx *x, uint64_t now)
{
    x->switches++;
    sm->st->ctx_saves++;
    sm->st->ctx_save_cycles += now - x->t_quiet;
    push_evicted(sm, x->id);
}

bool hd_sm_ctx_tick(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen)
{
    bool progress = drain_inbox(sm, now);
    if (sm->ce->nstall)
        progress |= stall_acks(sm, now);
    if (sm->ce->nsusp)
        progress |= check_suspending(sm, now, status, err, errlen);
    if (*status != HD_FUNC_OK)
        return true;
    struct hd_ctx *head = sm->ce->nengq ? sm->cta[sm->ce->engq[sm->ce->engq_head]].ctx : NULL;
    if (sm->ce->nengq &&
        (!head || (head->state != HD_CTX_SAVING && head->state != HD_CTX_RESTORING))) {
        snprintf(err, errlen,
                 "internal: SM %u cycle %" PRIu64 ": the context engine's operation on CTA "
                 "slot %u has no context being saved or restored (context %u, state %d)",
                 sm->id, now, sm->ce->engq[sm->ce->engq_head], head ? head->id : 0u,
                 head ? (int)head->state : -1);
        *status = HD_FUNC_ERR_INTERNAL;
        return true;
    }
    struct hd_ctx_ctl_out co;
    if ((*status = hd_sm_ctx_ctl_cycle(sm, head, now, &co, err, errlen)) != HD_FUNC_OK)
        return true;
    if (sm->ce->codec) {
        if ((*status = hd_sm_ctx_codec_cycle(sm, head, co.codec_o, now, err, errlen)) !=
            HD_FUNC_OK)
            return true;
        progress |= head && (head->encoding || head->decoding);
    }
    progress |= co.state_o != sm->ce->ctl_state;
    sm->ce->ctl_state = (uint8_t)co.state_o;
    uint32_t budget = sm->cp->requests_per_cycle; /* the queue's warps first (warp order) */
    if (sm->cp->switch_model == HD_SWITCHMODEL_STALL_REQ)
        budget = UINT32_MAX; /* (no traffic, no pacing: the stall alone takes the time) */
    if (sm->ce->nwq)
        budget = hd_sm_wsave_send(sm, budget, now, &progress);
    if (head)
        progress |= engine_step(sm, &co, budget, now);
    if (co.done_o)
        engine_done(sm, now);
    return progress;
}

static void engine_done(struct hd_sm *sm, uint64_t now)
{
    struct hd_tcta *c = &sm->cta[sm->ce->engq[sm->ce->engq_head]];
    struct hd_ctx *x = c->ctx;
    sm->ce->engq_head = (sm->ce->engq_head + 1) % sm->p->max_ctas;
    sm->ce->nengq--;
    sm->ce->ctl_busy = false;
    if (x->wsave && sm->ce->nwq)
        hd_sm_wsave_forget(sm, c->grant.cta_slot);
    if (x->state == HD_CTX_SAVING) { /* register file and shared memory read out */
        if (sm->cp->switch_model == HD_SWITCHMODEL_STALL_REQ && !x->acks_done) {
            x->eng_done = true; /* stall_req: it stays until its stall is over */
            return;
        }
        vacate_saved(sm, c, now);
        if (x->acks_done) { /* stall_req: its stall was over before the engine was done */
            x->acks_done = false;
            saved_acked(sm, x, now);
        }
    } else if (x->state == HD_CTX_RESTORING) { /* every register back: the warps may run */
        restored(sm, x, now);
    }
}

/* A saved CTA leaves its SM: its resources are free for a placement. */
static void vacate_saved(struct hd_sm *sm, struct hd_tcta *c, uint64_t now)
{
    struct hd_ctx *x = c->ctx;
    x->wspill_sum = 0; /* Lin L1079: each warp from its point to its registers out */
    x->wspill_warps = 0;
    x->wservice_sum = 0; /* and from its first register request to its last */
    for (uint32_t i = 0; i < c->grant.nwarps && i < x->cap_wspill; i++) {
        if (!x->wspill[i])
            continue;
        const uint64_t t0 = x->saved[i].t_stop > x->t_signal ? x->saved[i].t_stop : x->t_signal;
        x->wspill_sum += x->wspill[i] > t0 ? x->wspill[i] - t0 : 0;
        x->wspill_warps++;
        const uint64_t first = x->wspill[x->cap_wspill + i];
        x->wservice_sum += first && x->wspill[i] >= first ? x->wspill[i] - first + 1 : 0;
    }
    hd_sm_cta_vacate(sm, c, now);
    c->ctx = NULL;
    c->fc = NULL;
    x->state = HD_CTX_SAVED;
}
/* }==== */
