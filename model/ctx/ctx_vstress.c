/* SPDX-License-Identifier: MIT
 * ctx_vstress.c - the stress mode of the mover and the swap engine (issue 25 item 8;
 * docs/mover.md): every [context] swap_stress_period (move_stress_period) cycles each resident
 * CTA is, with probability vstress_fraction (seeded, as the lifecycle's stress mode), held -
 * its warps stop issuing - and when none of its instructions is in flight one random piece of
 * it (a warp's registers, a warp's whole context, or a random 128-byte-aligned range of its
 * shared memory) is swapped to the SM's swap window (or moved by the on-chip mover into the L1D
 * context region), stays away for a random number of cycles below vstress_away, and comes back;
 * then the CTA runs on.
 *
 * Real, not toy: while a piece is away its functional bytes are replaced by a poison pattern
 * (registers) or 0xA5 (shared memory) and kept aside; when it is back, a poison byte that
 * changed (something wrote the piece while it was away) stops the run with a located error,
 * and the kept bytes are put back. A piece that did not come back, or came back into the wrong
 * place, makes the workload fail its CPU reference check.
 *
 * A CTA with a warp off its slot (warp-granular residency, sm_residency.h) is not chosen
 * (vstress_skipped); while held, none of its warps may leave (they are suspended).
 *
 * A held CTA may be told to switch or flush meanwhile: the context engine waits until its piece
 * is back (check_suspending in ctx_engine.c), and the release leaves its warps stopped.
 */
#include "sm_impl.h"

#include "ctx_vres.h"
#include "func_status.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_NONE, P_HOLD, P_OUT, P_AWAY, P_IN, P_BACK };

#define POISON_REG 0xDEADBEEF5A5A5A5Aull
#define POISON_SMEM 0xA5u

static uint64_t next_random(uint64_t *s) /* xorshift64* (as ctx_gpu.c) */
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

bool hd_sm_vstress_holds(const struct hd_sm *sm, uint32_t slot)
{
    const struct hd_sm_vres *v = sm->ce->vr;
    return v && v->nops && v->op[slot].phase != P_NONE;
}

/* A warp's share of its CTA's register allocation in bytes (as ctx_pack.c's Occup save). */
static uint64_t reg_share(const struct hd_tcta *c, uint32_t w, uint64_t *first)
{
    const uint64_t rb = (uint64_t)c->la->demand.regs * 4, n = c->fc->nwarps ? c->fc->nwarps : 1;
    *first = rb * w / n;
    return rb * (w + 1) / n - *first;
}

static void set_hold(struct hd_sm *sm, struct hd_tcta *c, bool hold, uint64_t now)
{
    /* released while the lifecycle suspends the CTA (a switch or flush asked meanwhile): the
     * warps stay stopped, but those told to run on to their preemption point may (ctx_points.c) */
    const bool suspending = !hold && c->ctx->state != HD_CTX_RESIDENT;
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        if (c->grant.warp_slot[i] == HD_ALLOC_NO_SLOT) /* (drained: its slot given back) */
            continue;
        struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        if (w->state == HD_WS_EMPTY || w->done || (suspending && !w->to_pp))
            continue;
        w->susp = hold;
        hd_bit_set(sm->need_fetch, w->slot, !hold && w->ib_n == 0 && !w->fetch_busy && !w->done);
        hd_sm_warp_eval(sm, w, now);
    }
}

bool hd_sm_vstress_point(struct hd_sm *sm, bool move, double fraction, uint64_t *rnd,
                         uint64_t now)
{
    const uint64_t limit = (uint64_t)(fraction * (double)(1ull << 53));
    bool any = false;
    for (uint32_t i = 0; i < sm->p->max_ctas; i++) {
        struct hd_tcta *c = &sm->cta[i];
        if (!c->used || !c->ctx || c->ctx->state != HD_CTX_RESIDENT)
            continue;
        if ((next_random(rnd) >> 11) >= limit)
            continue;
        /* a warp of it off its slot (warp-granular residency: absent, moving, placed absent):
         * not this CTA (its warps are held by their slots; a load may land in an absent warp) */
        if (sm->wr && hd_sm_res_holds_cta(sm, i)) {
            sm->st->vstress_skipped++;
            continue;
        }
        const uint64_t r = next_random(rnd);
        struct hd_sm_vres *v = hd_sm_vres(sm);
        if (!v || v->op[i].phase != P_NONE)
            continue;
        /* live warps, none stopped by the lifecycle */
        uint32_t live = 0;
        bool stopped = false;
        for (uint32_t k = 0; k < c->grant.nwarps; k++) {
            const struct hd_twarp *w = &sm->w[c->grant.warp_slot[k]];
            if (w->state == HD_WS_EMPTY || w->done)
                continue;
            live++;
            stopped |= w->susp || w->to_pp;
        }
        if (!live || stopped)
            continue;
        struct hd_vstress_op *op = &v->op[i];
        const uint64_t smem = c->fc->l->smem_bytes;
        const enum hd_cfg_vpiece want = sm->cp->vstress_piece;
        const unsigned pick = want == HD_VPIECE_REGS   ? 0
                              : want == HD_VPIECE_WARP ? 1
                              : want == HD_VPIECE_SMEM ? 2
                                                       : (unsigned)(r % 3);
        op->kind = pick == 2 && smem >= HD_UADDR_UNIT ? HD_SWAP_SMEM
                   : pick == 1                        ? HD_SWAP_WARP
                                                      : HD_SWAP_REGS;
        op->move = move;
        op->ctx = c->ctx->id;
        op->epoch = c->ctx->epoch;
        op->warp = (uint32_t)((r >> 8) % c->fc->nwarps);
        while (c->fc->warps[op->warp].done) /* a live warp (there is one) */
            op->warp = (op->warp + 1) % c->fc->nwarps;
        if (op->kind == HD_SWAP_SMEM) {
            const uint64_t units = smem / HD_UADDR_UNIT;
            const uint64_t u0 = (r >> 24) % units;
            uint64_t n = 1 + (r >> 40) % (units - u0);
            if (n * HD_UADDR_UNIT > HD_SWAP_SLOT_BYTES)
                n = HD_SWAP_SLOT_BYTES / HD_UADDR_UNIT;
            op->off = u0 * HD_UADDR_UNIT;
            op->bytes = op->tbytes = n * HD_UADDR_UNIT;
        } else {
            const struct hd_func_warp *fw = &c->fc->warps[op->warp];
            uint64_t first;
            op->off = 0;
            op->bytes = (uint64_t)fw->nregs * HD_FUNC_WARP_SIZE * sizeof *fw->regs;
            op->tbytes = reg_share(c, op->warp, &first);
            if (op->kind == HD_SWAP_WARP)
                op->tbytes += 16 + 12ull * fw->sp + 8ull * fw->nframes;
        }
        if (op->tbytes == 0 || op->bytes == 0) /* (a kernel without registers) */
            continue;
        op->back_at = sm->cp->vstress_away ? next_random(rnd) % sm->cp->vstress_away : 0;
        op->rec = HD_SWAP_NONE;
        op->ua = HD_UADDR_NONE;
        op->phase = P_HOLD;
        op->t_hold = now;
        v->nops++;
        set_hold(sm, c, true, now);
        any = true;
    }
    return any;
}

/* Nothing of CTA c in flight but loads waiting for memory (as the context engine's quiet()). */
static bool quiet(const struct hd_sm *sm, const struct hd_tcta *c)
{
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        if (c->grant.warp_slot[i] == HD_ALLOC_NO_SLOT) /* (drained: its slot given back) */
            continue;
        const struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        if (w->state == HD_WS_EMPTY)
            continue;
        if (w->inflight != w->lt_out || (w->fetch_busy && w->fetch_line == HD_SM_NONE))
            return false;
        for (uint32_t u = 0; u < sm->p->units[HD_TU_MEM]; u++)
            if (sm->ldst[u].warp == w->slot && sm->ldst[u].next < sm->ldst[u].op.nreq)
                return false;
    }
    return true;
}

static uint8_t *piece(struct hd_tcta *c, const struct hd_vstress_op *op)
{
    return op->kind == HD_SWAP_SMEM ? c->fc->smem + op->off
                                    : (uint8_t *)c->fc->warps[op->warp].regs;
}

/* Keep the piece's bytes aside and poison them. */
static bool poison(struct hd_tcta *c, struct hd_vstress_op *op)
{
    if (op->cap_keep < op->bytes) {
        uint8_t *k = realloc(op->keep, op->bytes);
        if (!k)
            return false;
        op->keep = k;
        op->cap_keep = op->bytes;
    }
    uint8_t *p = piece(c, op);
    memcpy(op->keep, p, op->bytes);
    if (op->kind == HD_SWAP_SMEM) {
        memset(p, POISON_SMEM, op->bytes);
    } else {
        uint64_t *r = (uint64_t *)p;
        for (uint64_t i = 0; i < op->bytes / sizeof *r; i++)
            r[i] = POISON_REG ^ i;
    }
    return true;
}

/* The piece is back: check that nothing wrote it meanwhile, then put its bytes back. */
static int unpoison(struct hd_sm *sm, struct hd_tcta *c, struct hd_vstress_op *op, uint64_t now,
                    char *err, size_t errlen)
{
    uint8_t *p = piece(c, op);
    for (uint64_t i = 0; i < op->bytes; i++) {
        const uint8_t want = op->kind == HD_SWAP_SMEM
                                 ? (uint8_t)POISON_SMEM
                                 : (uint8_t)((POISON_REG ^ (i / 8)) >> (8 * (i % 8)));
        if (p[i] != want) {
            snprintf(err, errlen,
                     "internal: SM %u cycle %" PRIu64 ": %s byte %" PRIu64 " of context %u "
                     "(warp %u) was written while it was %s",
                     sm->id, now, op->kind == HD_SWAP_SMEM ? "shared-memory" : "register",
                     op->off + i, op->ctx, op->warp, op->move ? "moved off chip" : "swapped out");
            return HD_FUNC_ERR_INTERNAL;
        }
    }
    memcpy(p, op->keep, op->bytes);
    return HD_FUNC_OK;
}

static void finish(struct hd_sm *sm, uint32_t slot, uint64_t now)
{
    struct hd_sm_vres *v = sm->ce->vr;
    struct hd_vstress_op *op = &v->op[slot];
    if (op->move)
        sm->st->vstress_moves++;
    else
        sm->st->vstress_swaps++;
    sm->st->vstress_hold_cycles += now + 1 - op->t_hold;
    op->phase = P_NONE;
    v->nops--;
    set_hold(sm, &sm->cta[slot], false, now);
}

static void abandon(struct hd_sm *sm, uint32_t slot, struct hd_vstress_op *op, uint64_t now)
{
    memcpy(piece(&sm->cta[slot], op), op->keep, op->bytes);
    sm->st->vstress_skipped++;
    op->phase = P_NONE;
    sm->ce->vr->nops--;
    set_hold(sm, &sm->cta[slot], false, now);
}

/* The CTA is quiet: send its piece away. */
static void go_out(struct hd_sm *sm, uint32_t slot, struct hd_vstress_op *op, uint64_t now)
{
    struct hd_sm_vres *v = sm->ce->vr;
    struct hd_tcta *c = &sm->cta[slot];
    if (!poison(c, op)) { /* host OOM: leave the CTA alone */
        sm->st->vstress_skipped++;
        op->phase = P_NONE;
        v->nops--;
        set_hold(sm, c, false, now);
        return;
    }
    op->phase = P_OUT;
    if (!op->move) {
        const struct hd_swap_piece pc = {op->kind, op->ctx, op->warp, c->la->id, op->off,
                                         op->tbytes};
        op->rec = hd_sm_swap_out(sm, &pc, HD_VSTRESS_TAG | slot, now);
        if (op->rec == HD_SWAP_NONE)
            abandon(sm, slot, op, now);
        return;
    }
    if (v->l1d_users == 0)
        hd_sm_l1d_reserve(sm, sm->cp->mover_l1d_ways, now);
    op->ua = hd_uspace_alloc(&v->us, HD_UA_L1D, op->tbytes);
    if (op->ua == HD_UADDR_NONE) { /* the region is full (or there is none) */
        if (v->l1d_users == 0)
            hd_sm_l1d_reserve(sm, 0, now);
        abandon(sm, slot, op, now);
        return;
    }
    v->l1d_users++;
    uint64_t first = 0;
    uint32_t src;
    if (op->kind == HD_SWAP_SMEM)
        src = hd_uaddr_make(HD_UA_SMEM, (uint32_t)((c->grant.smem_base + op->off) /
                                                   HD_UADDR_UNIT));
    else {
        reg_share(c, op->warp, &first);
        src = hd_uaddr_make(HD_UA_RF, (uint32_t)(((uint64_t)c->grant.reg_base * 4 + first) /
                                                 HD_UADDR_UNIT));
    }
    op->src = src;
    if (hd_ctx_mover_submit(&v->mv, src, op->ua, op->tbytes, HD_VSTRESS_TAG | slot, now) != 0) {
        hd_uspace_release(&v->us, op->ua, op->tbytes); /* (host OOM) */
        if (--v->l1d_users == 0)
            hd_sm_l1d_reserve(sm, 0, now);
        abandon(sm, slot, op, now);
    }
}

static void go_in(struct hd_sm *sm, uint32_t slot, struct hd_vstress_op *op, uint64_t now)
{
    op->phase = P_IN;
    const int r = op->move ? hd_ctx_mover_submit(&sm->ce->vr->mv, op->ua, op->src, op->tbytes,
                                                 HD_VSTRESS_TAG | slot, now)
                           : hd_sm_swap_in(sm, op->rec, now);
    if (r != 0) /* (host OOM): the bytes are back without their timing */
        op->phase = P_BACK;
}

/* A direction of op's transfer is complete. */
static void arrived(struct hd_sm *sm, uint32_t slot, uint64_t now)
{
    struct hd_sm_vres *v = sm->ce->vr;
    struct hd_vstress_op *op = &v->op[slot];
    if (op->phase == P_OUT) {
        op->phase = P_AWAY;
        op->back_at += now + 1; /* (held the random stay until now) */
    } else if (op->phase == P_IN) {
        op->phase = P_BACK;
    }
}

void hd_sm_vstress_moved(struct hd_sm *sm, uint64_t tag, uint64_t now)
{
    if (sm->ce->vr && tag < sm->p->max_ctas)
        arrived(sm, (uint32_t)tag, now);
}

void hd_sm_vstress_swapped(void *arg, struct hd_sm *sm, uint32_t rec, bool in, uint64_t now)
{
    (void)arg;
    (void)in;
    const struct hd_swap_rec *x = hd_sm_swap_rec(sm, rec);
    const uint64_t slot = x ? x->tag & ~HD_VSTRESS_TAG : UINT64_MAX;
    if (slot < sm->p->max_ctas && sm->ce->vr->op[slot].rec == rec)
        arrived(sm, (uint32_t)slot, now);
}

bool hd_sm_vstress_tick(struct hd_sm *sm, uint64_t now, int *status, char *err, size_t errlen)
{
    struct hd_sm_vres *v = sm->ce->vr;
    bool progress = false;
    for (uint32_t i = 0; i < sm->p->max_ctas && v->nops; i++) {
        struct hd_vstress_op *op = &v->op[i];
        if (op->phase == P_NONE)
            continue;
        struct hd_tcta *c = &sm->cta[i];
        if (!c->used || !c->ctx || c->ctx->id != op->ctx || c->ctx->epoch != op->epoch) {
            snprintf(err, errlen,
                     "internal: SM %u cycle %" PRIu64 ": CTA slot %u lost context %u while a "
                     "stressed piece of it was away",
                     sm->id, now, i, op->ctx);
            *status = HD_FUNC_ERR_INTERNAL;
            return true;
        }
        if (op->phase == P_HOLD && quiet(sm, c)) {
            go_out(sm, i, op, now);
            progress = true;
        } else if (op->phase == P_AWAY && now >= op->back_at) {
            go_in(sm, i, op, now);
            progress = true;
        } else if (op->phase == P_BACK) {
            if ((*status = unpoison(sm, c, op, now, err, errlen)) != HD_FUNC_OK)
                return true;
            if (op->move) {
                hd_uspace_release(&v->us, op->ua, op->tbytes);
                if (--v->l1d_users == 0)
                    hd_sm_l1d_reserve(sm, 0, now);
            } else {
                hd_sm_swap_drop(sm, op->rec);
            }
            finish(sm, i, now);
            progress = true;
        }
    }
    return progress;
}
