/* SPDX-License-Identifier: MIT
 * ctx_points.c - Lin's selective preemption in the SM (thesis §2.5, §2.7 steps 1-3; digest §3.2):
 * with [context] points = selective, a warp told to switch out keeps issuing until it reaches
 * its next preemption point (a `pp` or `bar.pp` of the compiler pass, model/compiler/ppoints.h)
 * and only then goes inactive; the points' instructions are decoded by the SM's pp_decode block
 * (tables/pp_decode.h, RTL in the loop under `heddle cosim --in-loop`), stepped on the model
 * clock.
 *
 * Design.
 *   decode  Whenever a fetch brings a point's PC into a warp's instruction buffer, its words
 *           (pp then dummy, or bar.pp) join a per-SM queue; the block takes one word per cycle
 *           (issue stage) and its registered outputs come back one cycle later, tagged with the
 *           warp slot, its bind age and the PC. The result is checked against the word the
 *           compiler encoded (kind, vector, register count: a wrong block stops the run with a
 *           located error; with --drive rtl these are the RTL's outputs) and recorded in the warp
 *           (`pp_at`: 1 + the PC of the decoded point, set by its last word). A full queue
 *           defers the fetch (a structural hazard, counted).
 *   stop    At the signal, each warp of a CTA that is switched out gets `to_pp` instead of
 *           `susp`, unless it is at a decoded point already. At issue, a `to_pp` warp whose next
 *           instruction is a decoded point stops there (susp; its SIMT stack and liveness are
 *           those of the point); if that instruction is a point whose decode is still queued
 *           or in the block, it waits for it (counted). Warps waiting at a barrier or finished
 *           count as stopped (a barrier is Lin's bar.pp or a warp that cannot move anyway). A
 *           flush does not wait for points (nothing is saved).
 *   issue   A `pp` point's two instructions (pp, dummy) are in the instruction stream: besides
 *           their fetch cycles (annot.h fetch_extra, sm_fetch.c) each takes an issue slot of
 *           the warp's scheduler before the instruction at the point issues (no functional
 *           effect, no operand collector; counted in pp_issue_slots and in the scheduler's
 *           issued cycles, not in warp_instrs). A `bar.pp` is the barrier itself: no slot. A
 *           warp that stops at its point stops before them (they issue when it resumes).
 *   bound   A CTA whose warps are not all stopped `pp_wait_limit` cycles after the signal (a
 *           warp spinning forever, a kernel with no point ahead) has its remaining warps stopped
 *           where they are; counted as ctx_pp_timeouts with the cycles waited.
 * Deterministic: queue order is fetch order; the block's outputs decide nothing else.
 */
#include "sm_impl.h"

#include "func_status.h"
#include "hw_ref.h"
#include "pp_decode.h"
#include "ppoints.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pp_word {
    uint64_t word, age;
    uint32_t slot, pc;
    bool last;          /* the point's last word (dummy of a pp, or the bar.pp) */
};

struct hd_sm_pp {
    struct hd_hw_inst dec;
    struct pp_word *q;       /* [cap] ring: waiting for the block */
    uint32_t head, n, cap;
    struct pp_word flight;   /* the word the block took last cycle */
    bool in_flight;
    uint64_t last_step;      /* cycle of the last step + 1 (0: never) */
};

/* {==== The block ==== */
static int ensure(struct hd_sm *sm, char *err, size_t errlen)
{
    if (sm->ce->pp)
        return HD_FUNC_OK;
    struct hd_sm_pp *s = calloc(1, sizeof *s);
    if (!s || !(s->q = calloc(2 * sm->p->max_warps + 2, sizeof *s->q))) {
        free(s);
        snprintf(err, errlen, "host out of memory for the pp_decode queue of SM %u", sm->id);
        return HD_FUNC_ERR_MEMORY;
    }
    s->cap = 2 * sm->p->max_warps + 2;
    const struct hd_hw_factory *f = sm->hw && *sm->hw ? *sm->hw : hd_hw_ref_factory();
    char name[48];
    snprintf(name, sizeof name, "sm%u.pp_decode", sm->id);
    if (hd_hw_make_sized(f, "pp_decode", name, &s->dec, sizeof(struct hd_pp_decode_in),
                         sizeof(struct hd_pp_decode_out), err, errlen) != 0) {
        free(s->q);
        free(s);
        return HD_FUNC_ERR_CONFIG;
    }
    sm->ce->pp = s;
    return HD_FUNC_OK;
}

void hd_sm_pp_free(struct hd_sm *sm)
{
    if (!sm->ce->pp)
        return;
    hd_hw_destroy(&sm->ce->pp->dec);
    free(sm->ce->pp->q);
    free(sm->ce->pp);
    sm->ce->pp = NULL;
}

/* The decoded word w came back as out: check it against the compiler's word, record it. */
static int apply(struct hd_sm *sm, const struct pp_word *w, const struct hd_pp_decode_out *out,
                 uint64_t now, char *err, size_t errlen)
{
    const unsigned op = (unsigned)(w->word >> HD_PPDEC_OP_SHIFT) & 0x3FFu;
    const uint64_t vec = w->word & HD_PPDEC_VEC_MASK;
    const bool ok = out->is_pp_o == (op == HD_PPDEC_OP_PP) &&
                    out->is_dummy_o == (op == HD_PPDEC_OP_DUMMY) &&
                    out->is_barpp_o == (op == HD_PPDEC_OP_BARPP) && out->live_o == vec &&
                    out->nregs_o == hd_ppoints_vec_regs(vec);
    if (!ok) {
        snprintf(err, errlen,
                 "SM %u cycle %" PRIu64 ": pp_decode decoded the word 0x%016" PRIx64
                 " of warp slot %u, PC %u as pp=%u dummy=%u bar.pp=%u live=0x%014" PRIx64
                 " nregs=%u (the compiler encoded opcode 0x%03x, vector 0x%014" PRIx64
                 ", %u registers)",
                 sm->id, now, w->word, w->slot, w->pc, (unsigned)out->is_pp_o,
                 (unsigned)out->is_dummy_o, (unsigned)out->is_barpp_o, (uint64_t)out->live_o,
                 (unsigned)out->nregs_o, op, vec, hd_ppoints_vec_regs(vec));
        return HD_FUNC_ERR_INTERNAL;
    }
    sm->st->pp_decodes++;
    struct hd_twarp *tw = &sm->w[w->slot];
    if (w->last && tw->state != HD_WS_EMPTY && tw->age == w->age)
        tw->pp_at = w->pc + 1;
    return HD_FUNC_OK;
}

int hd_sm_pp_cycle(struct hd_sm *sm, uint64_t now, char *err, size_t errlen)
{
    int st = ensure(sm, err, errlen); /* at the SM's first cycle: waveforms declare it early */
    if (st != HD_FUNC_OK)
        return st;
    struct hd_sm_pp *s = sm->ce->pp;
    if ((!s->n && !s->in_flight) || s->last_step > now)
        return HD_FUNC_OK;
    struct hd_pp_decode_in in;
    struct hd_pp_decode_out out;
    memset(&in, 0, sizeof in);
    struct pp_word took = {0};
    if (s->n) {
        took = s->q[s->head];
        s->head = (s->head + 1) % s->cap;
        s->n--;
        in.valid_i = 1;
        in.inst_i = took.word;
        const uint64_t tag[2] = {took.slot, took.pc};
        hd_hw_set_tag(&s->dec, tag, 2);
    }
    s->last_step = now + 1;
    if (hd_hw_step(&s->dec, &in, &out, now) != 0) {
        snprintf(err, errlen, "%s", s->dec.ops->error(s->dec.impl));
        return HD_FUNC_ERR_INTERNAL;
    }
    const struct pp_word flight = s->flight;
    const bool had = s->in_flight;
    s->flight = took;
    s->in_flight = in.valid_i != 0;
    if (had != ((out.valid_o & 1u) != 0)) {
        snprintf(err, errlen, "SM %u cycle %" PRIu64 ": pp_decode %s a result one cycle after "
                 "its word (latency 1)", sm->id, now, had ? "did not give" : "gave unasked");
        return HD_FUNC_ERR_INTERNAL;
    }
    return had ? apply(sm, &flight, &out, now, err, errlen) : HD_FUNC_OK;
}
/* }==== */

/* {==== Fetch ==== */
static bool push(struct hd_sm_pp *s, struct pp_word w)
{
    if (s->n == s->cap)
        return false;
    s->q[(s->head + s->n++) % s->cap] = w;
    return true;
}

bool hd_sm_pp_fetch(struct hd_sm *sm, struct hd_twarp *w, const struct hd_tkernel *tk,
                    uint32_t pc, uint32_t n)
{
    const struct hd_ppoints *pp = tk->pp;
    uint32_t words = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct hd_ppoint *p = hd_ppoints_at(pp, tk->an, pc + i);
        words += p ? (p->kind == HD_PP_PP ? 2u : 1u) : 0u;
    }
    if (!words)
        return true;
    char err[160];
    if (ensure(sm, err, sizeof err) != HD_FUNC_OK || sm->ce->pp->cap - sm->ce->pp->n < words) {
        sm->st->pp_fetch_stalls++; /* (no memory: the fetch waits; the run ends at the watchdog) */
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        const struct hd_ppoint *p = hd_ppoints_at(pp, tk->an, pc + i);
        if (!p)
            continue;
        struct pp_word x = {0, w->age, w->slot, pc + i, p->kind != HD_PP_PP};
        x.word = hd_pp_encode(p->kind == HD_PP_PP ? HD_PPDEC_OP_PP : HD_PPDEC_OP_BARPP, p->vec);
        push(sm->ce->pp, x);
        if (p->kind == HD_PP_PP) {
            x.word = hd_pp_encode(HD_PPDEC_OP_DUMMY, p->vec_div);
            x.last = true;
            push(sm->ce->pp, x);
        }
    }
    return true;
}
/* }==== */

/* {==== Stopping at points ==== */
static void stop(struct hd_sm *sm, struct hd_twarp *w, uint64_t now)
{
    w->to_pp = false;
    w->susp = true;
    w->t_stop = now;
    hd_bit_set(sm->need_fetch, w->slot, false);
    hd_sm_warp_eval(sm, w, now);
}

static bool at_point(const struct hd_twarp *w)
{
    return w->ib_n > 0 && w->pp_at == w->ib_pc + 1;
}

void hd_sm_pp_suspend_warp(struct hd_sm *sm, struct hd_twarp *w, enum hd_ctx_op op, uint64_t now)
{
    const struct hd_tkernel *tk = sm->cta[w->cta].la->tk;
    if (!sm->p->pp_selective || op != HD_CTXOP_SWITCH || !tk->pp) {
        w->susp = true; /* any instruction: at once */
        w->t_stop = now;
        hd_bit_set(sm->need_fetch, w->slot, false);
        hd_sm_warp_eval(sm, w, now);
        return;
    }
    if (at_point(w)) {
        sm->st->ctx_pp_stops++;
        stop(sm, w, now);
        return;
    }
    w->to_pp = true; /* runs on to its next point */
}

/* Is a word of warp w for pc still waiting for the block or inside it? */
static bool decoding(const struct hd_sm_pp *s, const struct hd_twarp *w, uint32_t pc)
{
    if (!s)
        return false;
    if (s->in_flight && s->flight.slot == w->slot && s->flight.age == w->age && s->flight.pc == pc)
        return true;
    for (uint32_t i = 0; i < s->n; i++) {
        const struct pp_word *x = &s->q[(s->head + i) % s->cap];
        if (x->slot == w->slot && x->age == w->age && x->pc == pc)
            return true;
    }
    return false;
}

bool hd_sm_pp_hold(struct hd_sm *sm, struct hd_twarp *w, uint64_t now)
{
    if (at_point(w)) {
        const struct hd_ctx *x = sm->cta[w->cta].ctx;
        sm->st->ctx_pp_stops++;
        sm->st->ctx_pp_wait_cycles += x ? now - x->t_signal : 0;
        stop(sm, w, now);
        return true;
    }
    if (w->ib_n > 0 && decoding(sm->ce->pp, w, w->ib_pc)) {
        sm->st->pp_decode_waits++;
        return true;
    }
    return false;
}

bool hd_sm_pp_virtual(struct hd_sm *sm, struct hd_twarp *w)
{
    if (w->ib_n == 0)
        return false;
    const uint32_t pc = w->ib_pc;
    if (w->pp_virt_pc != pc + 1) {
        const struct hd_annot *an = sm->cta[w->cta].la->tk->an;
        const uint32_t extra = an ? hd_annot_fetch_extra(an, pc) : 0;
        if (!extra)
            return false;
        w->pp_virt_pc = pc + 1;
        w->pp_virt_left = (uint8_t)extra;
    }
    if (!w->pp_virt_left)
        return false;
    w->pp_virt_left--;
    sm->st->pp_issue_slots++;
    return true;
}

bool hd_sm_pp_waiting(struct hd_sm *sm, struct hd_tcta *c, uint64_t now)
{
    bool waiting = false;
    for (uint32_t i = 0; i < c->grant.nwarps && !waiting; i++) {
        const struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        waiting = w->state != HD_WS_EMPTY && w->to_pp && !w->done && !w->fw->at_barrier;
    }
    if (!waiting || now - c->ctx->t_signal < sm->cp->pp_wait_limit)
        return waiting;
    sm->st->ctx_pp_timeouts++; /* a warp that cannot reach a point: stop it where it is */
    sm->st->ctx_pp_timeout_cycles += now - c->ctx->t_signal;
    for (uint32_t i = 0; i < c->grant.nwarps; i++) {
        struct hd_twarp *w = &sm->w[c->grant.warp_slot[i]];
        if (w->state != HD_WS_EMPTY && w->to_pp)
            stop(sm, w, now);
    }
    return false;
}
/* }==== */

/* {==== Liveness at the points (Lin L630-L636) ==== */
void hd_sm_pp_arrival(struct hd_sm *sm, const struct hd_twarp *w, uint32_t pc)
{
    const struct hd_tcta *c = &sm->cta[w->cta];
    const struct hd_tkernel *tk = c->la->tk;
    const struct hd_annot *an = tk->an;
    if (w->to_pp || w->susp || !an || !an->ra_ok || !hd_ppoints_at(tk->pp, an, pc))
        return;
    /* numerator and denominator from the same allocation: the physical registers the point's
     * vector names (the dummy's divergence-aware vector when the warp is diverged; bit 53 = the
     * allocation's registers from R53 up), over the registers per thread our allocator gave.
     * (Counting PTX registers instead overcounts a diverged warp: the union of the live sets
     * at three PCs may name more PTX registers than share the physical ones.) */
    const uint64_t vec = hd_ppoints_vector(an, pc, w->fw->sp > 1);
    const uint32_t regs = an->regs_per_thread;
    uint32_t live = (uint32_t)__builtin_popcountll(vec & ((1ull << HD_PP_VEC_HIGH) - 1));
    if ((vec >> HD_PP_VEC_HIGH) & 1)
        live += regs > HD_PP_VEC_HIGH ? regs - HD_PP_VEC_HIGH : 0;
    struct hd_launch_stats *lc = &c->la->info->c;
    lc->pp_arrivals++;
    lc->pp_live_words += live;
    lc->pp_occupied_words += regs;
    lc->pp_live_over += live > regs;
}
/* }==== */
