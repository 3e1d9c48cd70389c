/* SPDX-License-Identifier: MIT
 * sm_ldst.c - the load/store unit: address generation results turned into timing, shared-memory
 * bank conflicts, coalescing into memory requests, and the responses.
 *
 * Design. At issue the functional step has produced every lane's address; hd_sm_memop_build()
 * reduces them to what the pipeline needs:
 *   shared  bank = (address / 4) mod shared_banks; lanes reading the same word share it
 *           (broadcast; not for atomics, whose lanes each do their own read-modify-write); the
 *           access takes as many cycles as the most accesses any bank must serve (the degree);
 *           the result is written back shared_latency + degree - 1 cycles after dispatch;
 *           a mechanism's smem_access hook (mech.h) may add cycles, or keep some lanes' bytes
 *           in global memory: those lanes are then a SWAP-class global access (start_swap);
 *   const   .const and .param loads. If the memory model has a constant cache (const_line
 *           != 0, the full model) one CONST/PARAM request per distinct constant-cache line the
 *           lanes touch, the unit busy one cycle per distinct address (Fermi's constant cache
 *           serializes them); kernel parameters are addressed per launch (PARAM_BASE) so that
 *           launches never share lines. Otherwise one cycle of the unit, written back after
 *           const_latency (the fixed model);
 *   global  and local: the distinct segments (ldst_segment_bytes) or 32-byte sectors the lanes
 *           touch, each one request through the memory interface, sent one per cycle while the
 *           interface accepts, with the mask of the 32-byte sectors touched (coalesce.h: the
 *           memory model cuts uncached accesses to them) and, for ld.cg/ld.cv, the L1-bypass
 *           flag. Local memory is interleaved per thread in 4-byte words, as the hardware lays
 *           it out, so equal offsets of the 32 lanes fall into one 128-byte line.
 * A load (or atomic with a result) takes an in-flight-load entry (ldst_max_loads per SM) that
 * counts its outstanding requests; its destination registers stay pending in the scoreboard
 * until the last one returns. Stores and reductions are fire-and-forget for the warp but occupy
 * the unit while their requests are sent, and their completions are counted so that a fence
 * (and a finishing warp) waits for them. Request tags (mem_tags.h) name the load tracker or the
 * storing warp's logical reference, so responses find a warp that moved (ctx_engine.c); local and
 * parameter addresses lie in the reserved windows of addr_map.h.
 */
#include "sm_impl.h"

#include "addr_map.h"
#include "coalesce.h"
#include "func_status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hd_sm_ldst_init(struct hd_sm *sm)
{
    const struct hd_sm_params *p = sm->p;
    sm->ldst = calloc(p->units[HD_TU_MEM] + 1, sizeof *sm->ldst);
    sm->lt = calloc(p->max_loads + 1, sizeof *sm->lt);
    sm->sh_word = calloc(p->shared_banks, sizeof *sm->sh_word);
    sm->sh_cnt = calloc(p->shared_banks, sizeof *sm->sh_cnt);
    sm->sh_stamp = calloc(p->shared_banks, sizeof *sm->sh_stamp);
    if (!sm->ldst || !sm->lt || !sm->sh_word || !sm->sh_cnt || !sm->sh_stamp)
        return -1;
    sm->lt_free = HD_SM_NONE;
    for (uint32_t t = p->max_loads; t-- > 0;) {
        sm->lt[t].next_free = sm->lt_free;
        sm->lt_free = t;
    }
    return 0;
}

/* {==== Address analysis ==== */
struct bank_overflow {
    uint32_t bank, word;
};

/* Count one shared word; returns the bank's distinct words so far. An atomic never shares a
 * word between lanes (each lane's read-modify-write is its own access) unless [sm]
 * shared_atomic_conflicts = broadcast (GPGPU-Sim's rule): then the caller passes false. */
static uint32_t shared_word(struct hd_sm *sm, uint32_t word, bool atomic, struct bank_overflow *ov,
                            unsigned *nov)
{
    const uint32_t b = word % sm->p->shared_banks;
    if (sm->sh_stamp[b] != sm->sh_serial) {
        sm->sh_stamp[b] = sm->sh_serial;
        sm->sh_word[b] = word;
        sm->sh_cnt[b] = 1;
        return 1;
    }
    if (atomic)
        return ++sm->sh_cnt[b];
    if (sm->sh_word[b] == word)
        return sm->sh_cnt[b];
    for (unsigned i = 0; i < *nov; i++)
        if (ov[i].bank == b && ov[i].word == word)
            return sm->sh_cnt[b];
    if (*nov < HD_MEMOP_MAX_REQ)
        ov[(*nov)++] = (struct bank_overflow){b, word};
    return ++sm->sh_cnt[b];
}

/* Record that [a, a + bytes) inside request `seg` (gran bytes) was touched: the request is
 * added once, its sector mask (coalesce.h) accumulates. */
static void add_req(struct hd_memop *op, uint64_t seg, uint64_t gran, uint64_t a, uint32_t bytes)
{
    /* (segments of more than 64 sectors carry no mask: 0 = every byte) */
    const uint64_t m = gran <= 64 * HD_SECTOR_BYTES
                           ? hd_mem_sector_mask(seg, (uint32_t)gran, a, bytes) : 0;
    for (uint32_t i = op->nreq; i-- > 0;)
        if (op->req[i] == seg) {
            op->sectors[i] |= m;
            return;
        }
    if (op->nreq < HD_MEMOP_MAX_REQ) {
        op->sectors[op->nreq] = m;
        op->req[op->nreq++] = seg;
    }
}

static void add_range(struct hd_memop *op, uint64_t a, uint32_t bytes, uint64_t gran)
{
    uint64_t first = a & ~(gran - 1), last = (a + bytes - 1) & ~(gran - 1);
    for (uint64_t s = first; s <= last; s += gran)
        add_req(op, s, gran, a, bytes);
}

/* Do global loads with this cache operator skip the L1? .cg (cache global: L2 only) and .cv
 * (volatile: fetch again) do, as on Fermi; .ca, .cs, .lu, .nc and the default are cached. */
static bool bypass_op(const struct hd_func_trace *tr)
{
    const uint8_t c = tr->in && tr->in->ir ? tr->in->ir->cache : HD_CACHE_DEFAULT;
    return !(tr->flags & (HD_TR_STORE | HD_TR_ATOMIC)) && (c == HD_CACHE_CG || c == HD_CACHE_CV);
}

/* The constant-cache requests of a .const/.param load when the memory model has a constant
 * cache (line bytes `cline`): one per distinct line the lanes touch; degree = the distinct
 * addresses (the constant cache serves one per cycle). Kernel parameters live in a window of
 * its own window per launch (addr_map.h), so launches never share lines; .func parameters
 * (local frames) keep the fixed latency. */
static void const_requests(struct hd_sm *sm, const struct hd_twarp *w,
                           const struct hd_func_trace *tr, struct hd_memop *op, uint32_t cline)
{
    const uint32_t bytes = tr->bytes ? tr->bytes : 1;
    const bool mixed = tr->flags & HD_TR_MIXED_SPACE;
    const uint64_t launch = sm->cta[w->cta].la->id;
    uint64_t addrs[32];
    uint32_t naddr = 0;
    op->nreq = 0;
    op->req_bytes = cline;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(tr->exec >> l & 1u))
            continue;
        const uint8_t sp = mixed ? tr->lane_space[l] : tr->space;
        uint64_t a = tr->addr[l];
        if (sp == HD_SPACE_PARAM) {
            if (tr->in && tr->in->as == HD_AS_LOCAL)
                return; /* a .func parameter frame: no constant-cache access */
            a += hd_win_param(launch);
            op->space = HD_SPACE_PARAM;
        } else if (sp == HD_SPACE_CONST) {
            op->space = HD_SPACE_CONST;
        } else {
            continue;
        }
        uint32_t k = 0;
        while (k < naddr && addrs[k] != a)
            k++;
        if (k == naddr)
            addrs[naddr++] = a;
        add_range(op, a, bytes, cline);
    }
    op->degree = naddr;
}

/* The first address of warp w's local block: one block per warp slot, of the thread's .local
 * frames and spill slots (tkernel.h) in 4-byte words, each word a 128-byte row of 32 lanes. */
static uint64_t local_base(const struct hd_sm *sm, const struct hd_twarp *w, uint64_t *frame_words)
{
    const struct hd_tkernel *tk = sm->cta[w->cta].la->tk;
    *frame_words = (w->fw->local_bytes + 3) / 4;
    const uint64_t lbytes = (*frame_words + (tk ? tk->spill_words : 0)) * 128;
    return HD_WIN_LOCAL_BASE + ((uint64_t)sm->id * sm->p->max_warps + w->slot) * lbytes;
}

void hd_sm_memop_spill(struct hd_sm *sm, const struct hd_twarp *w, uint32_t mask, uint32_t word,
                       uint32_t words, bool store, struct hd_memop *op)
{
    uint64_t fw;
    const uint64_t lbase = local_base(sm, w, &fw);
    *op = (struct hd_memop){.kind = HD_MO_GLOBAL, .req_kind = store ? HD_MEM_STORE : HD_MEM_LOAD,
                            .space = HD_SPACE_LOCAL, .has_dst = !store,
                            .req_bytes = sm->p->seg_bytes};
    for (uint32_t j = 0; j < words; j++)
        for (uint32_t l = 0; l < 32; l++)
            if (mask >> l & 1u)
                add_range(op, lbase + (fw + word + j) * 128 + l * 4, 4, sm->p->seg_bytes);
}

void hd_sm_memop_build(struct hd_sm *sm, const struct hd_twarp *w,
                       const struct hd_func_trace *tr, struct hd_memop *op)
{
    const struct hd_sm_params *p = sm->p;
    op->kind = HD_MO_NONE;
    op->nreq = 0;
    op->degree = 0;
    op->flags = 0;
    op->req_bytes = p->seg_bytes;
    op->space = HD_SPACE_GLOBAL;
    op->cls = HD_MCLASS_DEMAND;
    op->sh_exec = 0;
    op->req_kind = tr->flags & HD_TR_ATOMIC ? HD_MEM_ATOMIC
                   : tr->flags & HD_TR_STORE ? HD_MEM_STORE
                                             : HD_MEM_LOAD;
    if (!(tr->flags & HD_TR_MEM) || tr->exec == 0)
        return;
    const bool mixed = tr->flags & HD_TR_MIXED_SPACE;
    const uint32_t bytes = tr->bytes ? tr->bytes : 1;
    const uint64_t gran = p->seg_bytes;
    struct bank_overflow ov[HD_MEMOP_MAX_REQ];
    unsigned nov = 0;
    bool any_shared = false, any_const = false, any_global = false;
    sm->sh_serial++;
    uint64_t frame_words;
    const uint64_t lbase = local_base(sm, w, &frame_words); /* a warp's local block */
    const bool tell = sm->hooks && sm->hooks->any_smem; /* (the smem_access hook's lanes) */
    op->sh_bytes = bytes;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(tr->exec >> l & 1u))
            continue;
        const uint8_t sp = mixed ? tr->lane_space[l] : tr->space;
        const uint64_t a = tr->addr[l];
        switch (sp) {
        case HD_SPACE_SHARED:
            any_shared = true;
            if (tell) {
                op->sh_exec |= 1u << l;
                op->sh_addr[l] = (uint32_t)a;
            }
            for (uint64_t wd = a / 4; wd <= (a + bytes - 1) / 4; wd++) {
                uint32_t c = shared_word(sm, (uint32_t)wd,
                                         op->req_kind == HD_MEM_ATOMIC &&
                                             p->shared_atomic_serialize,
                                         ov, &nov);
                op->degree = c > op->degree ? c : op->degree;
            }
            break;
        case HD_SPACE_PARAM:
        case HD_SPACE_CONST:
            any_const = true;
            break;
        case HD_SPACE_LOCAL:
            any_global = true;
            op->space = HD_SPACE_LOCAL;
            for (uint64_t wd = a / 4; wd <= (a + bytes - 1) / 4; wd++)
                add_range(op, lbase + wd * 128 + l * 4, 4, gran);
            break;
        default:
            any_global = true;
            add_range(op, a, bytes, gran);
            break;
        }
    }
    op->kind = any_global ? HD_MO_GLOBAL : any_shared ? HD_MO_SHARED
                                   : any_const ? HD_MO_CONST
                                               : HD_MO_NONE;
    if (op->kind == HD_MO_GLOBAL && op->space == HD_SPACE_GLOBAL && bypass_op(tr))
        op->flags |= HD_MEMF_BYPASS_L1;
    if (op->kind == HD_MO_CONST && sm->mem->const_line)
        const_requests(sm, w, tr, op, sm->mem->const_line);
}
/* }==== */

/* {==== Dispatch, send, receive ==== */
static void done_without_result(struct hd_sm *sm, struct hd_twarp *w, uint64_t now)
{
    w->inflight--;
    hd_sm_warp_eval(sm, w, now);
    hd_sm_warp_check_drained(sm, w, now);
}

static bool start_global(struct hd_sm *sm, struct hd_ldst *u, const struct hd_cu *cu,
                         const struct hd_memop *op, struct hd_twarp *w, uint64_t now)
{
    uint32_t t = HD_SM_NONE;
    if (op->has_dst && op->nreq > 0) {
        if (sm->lt_free == HD_SM_NONE) {
            sm->st->load_slot_stalls++;
            return false;
        }
        t = sm->lt_free;
        sm->lt_free = sm->lt[t].next_free;
        sm->lt[t] = (struct hd_load_tracker){hd_wref_pack(hd_sm_wref(sm, w)), cu->pc, op->nreq,
                                             HD_SM_NONE, HD_SB_LONG, false};
        sm->nlt++;
        w->lt_out++;
        if (sm->hooks && sm->hooks->any_load_sent && op->kind == HD_MO_GLOBAL &&
            op->cls == HD_MCLASS_DEMAND) { /* issue 29 */
            const struct hd_wref ref = hd_sm_wref(sm, w);
            const struct hd_hook_warp hw = {sm->id, w->slot, sm->cta[w->cta].la->id, ref.ctx,
                                            ref.warp, cu->pc};
            hd_hooks_load_sent(sm->hooks, &hw, now);
        }
    }
    if (op->kind == HD_MO_CONST) {
        sm->st->const_instrs++;
        sm->cta[w->cta].la->info->c.const_instrs++; /* energy model (model/power) */
    } else if (op->cls == HD_MCLASS_DEMAND)
        sm->st->gmem_instrs++;
    u->op.kind = op->kind;
    u->op.cls = op->cls;
    u->send_at = 0;
    u->op.req_kind = op->req_kind;
    u->op.space = op->space;
    u->op.req_bytes = op->req_bytes;
    u->op.flags = op->flags;
    u->op.nreq = op->nreq;
    memcpy(u->op.req, op->req, op->nreq * sizeof *op->req);
    memcpy(u->op.sectors, op->sectors, op->nreq * sizeof *op->sectors);
    u->next = 0;
    u->warp = w->slot;
    u->tracker = t;
    u->launch_id = sm->cta[w->cta].la->id;
    u->busy_until = now + (op->degree > 1 ? op->degree : 1);
    w->mem_out += op->nreq;
    u->send_at = now + cu->stage; /* an operand lookup stage (sm_oloc.h): the address later */
    if (op->has_dst && op->nreq == 0)
        return hd_sm_event(sm, now, 1 + cu->stage, HD_EV_WB, w->slot, cu->pc, 0);
    if (!op->has_dst)
        done_without_result(sm, w, now);
    return true;
}

/* The mechanisms' view of shared access op of warp w and their answer (mech.h smem_access). */
static void smem_hook(struct hd_sm *sm, const struct hd_twarp *w, const struct hd_cu *cu,
                      const struct hd_memop *op, struct hd_hook_smem_ans *ans, uint64_t now)
{
    const struct hd_hook_smem acc = {sm->id,      w->slot,     w->cta, sm->cta[w->cta].la->id,
                                     cu->pc,      op->req_kind, op->sh_exec, op->sh_bytes,
                                     op->sh_addr};
    ans->extra = 0;
    ans->swap = 0;
    ans->swap_cached = 0;
    hd_hooks_smem_access(sm->hooks, &acc, ans, now);
    ans->swap &= op->sh_exec;
}

/* A shared access some of whose lanes' bytes a mechanism keeps in global memory (a scratchpad
 * set in its swap space): those lanes become a SWAP-class access (L1 bypassed unless the
 * mechanism says swap_cached; the lanes on
 * chip are served by the banks meanwhile, never later than the memory), sent after the
 * mechanism's extra cycles; a load's destinations are written when its last request returns. */
static bool start_swap(struct hd_sm *sm, struct hd_ldst *u, const struct hd_cu *cu,
                       const struct hd_memop *op, struct hd_twarp *w,
                       const struct hd_hook_smem_ans *ans, uint64_t now)
{
    struct hd_memop g;
    g.kind = HD_MO_GLOBAL;
    g.req_kind = op->req_kind;
    g.space = HD_SPACE_GLOBAL;
    g.has_dst = op->has_dst;
    g.flags = ans->swap_cached ? 0u : HD_MEMF_BYPASS_L1;
    g.cls = HD_MCLASS_SWAP;
    g.degree = 1;
    g.nreq = 0;
    g.req_bytes = sm->p->seg_bytes;
    g.sh_exec = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (ans->swap >> l & 1u)
            add_range(&g, ans->swap_addr[l], op->sh_bytes ? op->sh_bytes : 1, sm->p->seg_bytes);
    if (!start_global(sm, u, cu, &g, w, now))
        return false;
    u->send_at = now + cu->stage + ans->extra;
    sm->st->smem_instrs++;
    sm->st->smem_swap_instrs++;
    return true;
}

bool hd_sm_ldst_dispatch(struct hd_sm *sm, uint32_t c, uint64_t now)
{
    const struct hd_sm_params *p = sm->p;
    const struct hd_cu *cu = &sm->cu[c];
    const struct hd_memop *op = &sm->memops[cu->memop];
    struct hd_twarp *w = &sm->w[cu->warp];
    struct hd_ldst *u = NULL;
    for (uint32_t i = 0; i < p->units[HD_TU_MEM]; i++)
        if (sm->ldst[i].busy_until <= now && sm->ldst[i].next >= sm->ldst[i].op.nreq) {
            u = &sm->ldst[i];
            break;
        }
    if (!u)
        return false;
    uint32_t delay;
    switch (op->kind) {
    case HD_MO_GLOBAL:
        return start_global(sm, u, cu, op, w, now);
    case HD_MO_SHARED: {
        uint32_t extra = 0;
        /* a mechanism's mapping table (mech.h); a swapped access refused for want of a load
           tracker is retried next cycle and looked up again, as the unit would */
        if (sm->hooks && sm->hooks->any_smem) {
            struct hd_hook_smem_ans ans;
            smem_hook(sm, w, cu, op, &ans, now);
            if (ans.swap)
                return start_swap(sm, u, cu, op, w, &ans, now);
            extra = ans.extra;
        }
        uint32_t d = op->degree ? op->degree : 1;
        /* the scratchpad banks, shared with an operand-location policy's (sm_oloc_port.c) */
        const uint32_t wait = sm->oloc.ops ? hd_sm_oloc_shared_wait(sm, d, now) : 0;
        sm->st->smem_instrs++;
        sm->st->smem_conflict_cycles += d - 1;
        sm->cta[w->cta].la->info->c.smem_passes += d; /* energy model (model/power) */
        u->busy_until = now + wait + d;
        delay = p->shared_latency + wait + d - 1 + hd_oloc_shared(&sm->oloc, w->slot, d, now) +
                extra;
        break;
    }
    case HD_MO_CONST:
        if (op->nreq > 0) /* through the memory model's constant cache */
            return start_global(sm, u, cu, op, w, now);
        sm->st->const_instrs++;
        sm->cta[w->cta].la->info->c.const_instrs++; /* energy model (model/power) */
        u->busy_until = now + 1;
        delay = p->const_latency;
        break;
    default: /* no lane accessed memory */
        u->busy_until = now + 1;
        delay = 1;
        break;
    }
    u->op.nreq = u->next = 0;
    if (!op->has_dst) {
        done_without_result(sm, w, now);
        return true;
    }
    return hd_sm_event(sm, now, delay + cu->stage, HD_EV_WB, w->slot, cu->pc, 0);
}

bool hd_sm_ldst_send(struct hd_sm *sm, uint64_t now)
{
    bool progress = false;
    for (uint32_t i = 0; i < sm->p->units[HD_TU_MEM]; i++) {
        struct hd_ldst *u = &sm->ldst[i];
        if (u->next >= u->op.nreq || u->send_at > now)
            continue;
        struct hd_mem_req r = {0};
        r.addr = u->op.req[u->next];
        r.bytes = u->op.req_bytes;
        r.kind = u->op.req_kind;
        r.space = u->op.space;
        r.flags = u->op.flags;
        r.sectors = u->op.sectors[u->next];
        r.cls = u->op.cls;
        r.sm = (uint16_t)sm->id;
        r.kernel = u->launch_id;
        r.tag = u->tracker != HD_SM_NONE
                    ? hd_tag_make(HD_TAG_LOAD, u->tracker)
                    : hd_tag_make(HD_TAG_STORE, hd_wref_pack(hd_sm_wref(sm, &sm->w[u->warp])));
        if (!sm->mem->ops->send(sm->mem->impl, &r, now)) {
            sm->st->mem_send_stalls++;
            continue;
        }
        u->next++;
        progress = true;
        struct hd_sm_stats *st = sm->st;
        if (u->op.kind == HD_MO_CONST) /* counted by the memory model (l1c_reads) */
            continue;
        if (u->op.cls == HD_MCLASS_SWAP) { /* a swapped scratchpad set's (start_swap) */
            st->smem_swap_requests++;
            st->smem_swap_bytes += r.bytes;
            continue;
        }
        st->gmem_requests++;
        st->gmem_bytes += r.bytes;
        st->lmem_requests += r.space == HD_SPACE_LOCAL;
        st->store_requests += r.kind == HD_MEM_STORE;
        st->atomic_requests += r.kind == HD_MEM_ATOMIC;
        struct hd_tcta *c = &sm->cta[sm->w[u->warp].cta];
        c->la->info->c.gmem_requests++;
    }
    return progress;
}

bool hd_sm_warp_uncount(struct hd_sm *sm, struct hd_twarp *w, struct hd_wref ref, bool load,
                        bool saved, uint64_t now)
{
    if (w->mem_out > 0 && (!load || (w->inflight > 0 && w->lt_out > 0))) {
        w->mem_out--;
        if (load) {
            w->inflight--;
            w->lt_out--;
        }
        return true;
    }
    if (sm->fault == HD_FUNC_OK) { /* the first one is reported */
        sm->fault = HD_FUNC_ERR_INTERNAL;
        snprintf(sm->fault_msg, sizeof sm->fault_msg,
                 "internal: SM %u cycle %" PRIu64 ": a %s response for warp %u of context %u "
                 "(epoch %u, %s) finds its counts at in flight %u, memory requests %u, "
                 "loads %u",
                 sm->id, now, load ? "load" : "store", (unsigned)ref.warp, ref.ctx,
                 (unsigned)ref.epoch, saved ? "saved" : "in a warp slot", w->inflight,
                 w->mem_out, w->lt_out);
    }
    return false;
}

/* One completed request of logical warp ref; `last_of` is the load whose last request it was
 * (HD_SM_NONE for a store or a load still waiting for others). */
void hd_sm_warp_response(struct hd_sm *sm, struct hd_wref ref, uint32_t last_of, uint64_t now)
{
    struct hd_twarp *w = hd_sm_wref_local(sm, ref);
    if (!w) { /* the warp moved (another slot or SM, or its saved context), or was flushed */
        hd_sm_ctx_deliver(sm, ref, last_of == HD_SM_NONE ? HD_FWD_MEM : HD_FWD_LOAD, last_of,
                          now);
        return;
    }
    if (!hd_sm_warp_uncount(sm, w, ref, last_of != HD_SM_NONE, false, now))
        return;
    if (last_of != HD_SM_NONE && sm->oloc.ops) /* its writes (sm_oloc_port.c) */
        hd_sm_oloc_load_written(sm, w, last_of, now);
    if (last_of != HD_SM_NONE)
        hd_sm_sb_release(sm, w, last_of);
    hd_sm_warp_eval(sm, w, now);
    hd_sm_warp_check_drained(sm, w, now);
}

static void receive_one(struct hd_sm *sm, const struct hd_mem_req *r, uint64_t now)
{
    const uint64_t payload = hd_tag_payload(r->tag);
    switch (hd_tag_type(r->tag)) {
    case HD_TAG_LOAD: {
        const uint32_t idx = (uint32_t)payload;
        struct hd_load_tracker *t = &sm->lt[idx];
        const struct hd_wref ref = hd_wref_unpack(t->ref);
        uint32_t last_of = HD_SM_NONE;
        const bool sig = sm->hooks->any_load_returned; /* load events (sm_signals.c) */
        if (sig && r->served != HD_SERVED_L1)
            t->l1_miss = true;
        const bool l1_miss = t->l1_miss;
        if (--t->remaining == 0) {
            last_of = t->pc;
            t->next_free = sm->lt_free;
            sm->lt_free = idx;
            sm->nlt--;
        }
        hd_sm_warp_response(sm, ref, last_of, now);
        if (sig && last_of != HD_SM_NONE &&
            (r->space == HD_SPACE_GLOBAL || r->space == HD_SPACE_LOCAL))
            hd_sm_sig_load_returned(sm, ref, last_of, l1_miss, now);
        break;
    }
    case HD_TAG_STORE:
        hd_sm_warp_response(sm, hd_wref_unpack(payload), HD_SM_NONE, now);
        break;
    case HD_TAG_IFETCH:
        hd_sm_icache_fill(sm, (uint32_t)payload, now);
        break;
    case HD_TAG_CONTEXT:
        hd_sm_ctx_response(sm, payload, now);
        break;
    case HD_TAG_OLOC: /* an operand's fill (sm_oloc_port.c) */
        hd_sm_oloc_response(sm, payload, now);
        break;
    default:
        break;
    }
}

bool hd_sm_mem_receive(struct hd_sm *sm, uint64_t now)
{
    bool progress = false;
    unsigned n;
    if (sm->hooks->any_stalled && sm->mem->l1_miss_notices) /* before the responses */
        hd_sm_sig_notices(sm, now);
    while ((n = sm->mem->ops->recv(sm->mem->impl, sm->id, sm->rx, 64, now)) > 0) {
        for (unsigned i = 0; i < n; i++)
            receive_one(sm, &sm->rx[i], now);
        progress = true;
    }
    return progress;
}
/* }==== */
