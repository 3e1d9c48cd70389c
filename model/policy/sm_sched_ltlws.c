/* SPDX-License-Identifier: MIT
 * sm_sched_ltlws.c - EXPARS's Lazy Two-Level Warp Scheduler (Yu et al. TACO 2018 §3.3.6, eq. 14;
 * digest §2.9): [sm] scheduler = ltlws_lrr or ltlws_gto.
 *
 * Algorithm. Phase 1: no limit on active warps; the inner policy (LRR or GTO, as sm_sched.c's)
 * orders every ready warp, and each warp's issued instructions are counted (the paper's 32-bit
 * counter per warp). When the first warp of the scheduler finishes (its slot is released: the
 * SM's remove()), W_Opt = floor(sum of Inst_i over the warps of the scheduler / Inst_Max)
 * (eq. 14; Inst_Max = the finished warp's count; at least 1), and the scheduler becomes a
 * two-level one with W_Opt active warps for the rest of the kernel: the resident warps enter the
 * pending pool oldest first and the pool's head fills the active set; a warp that starts a long
 * wait goes to the pool's tail when the pool is not empty (the two-level rule of sm_sched.c);
 * the inner policy orders the ready active warps. Before each pick in phase 2, an active warp
 * that still waits at a barrier, a fence or a long load is exchanged for the oldest pending warp
 * that does not (as the two-level scheduler's refresh, sm_sched.c): the pool may hand back a
 * warp that still waits at a barrier, and an active set full of them, whose CTAs' other warps
 * are pending, would never issue again (btree and fwt on a register-bound SM stopped with the
 * watchdog before; test expars_rb_ltlws_*_btree).
 * Choices where the paper is silent (digest §8 item 20): one W_Opt per scheduler (each of the
 * SM's schedulers owns its own warps and counts them), taken once per kernel: when the
 * scheduler holds no warp any more the counters reset and the next warps start a new phase 1.
 * Deterministic: slots and ages decide.
 * The counters, the trigger and W_Opt are the block expars_ltlws's C reference
 * (tables/expars_ltlws.h), run at this scheduler's geometry (its warps, slot / schedulers, are
 * the counters; W_Opt is clamped to them, which caps nothing more than the SM's warp count did):
 * the model's counter decisions are the block's answers. With EXPARS's blocks in the loop a tap
 * (sm_sched_ltlws.h) steps the block beside it and may replace the answer (--drive rtl).
 */
#include "sm_sched.h"
#include "sm_sched_ltlws.h"

#include "expars_ltlws.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct ltlws {
    bool gto;             /* inner policy: GTO (else LRR) */
    uint32_t max;
    uint32_t nsched;      /* the SM's schedulers: a slot's counter is slot / nsched */
    uint64_t *age;        /* [max]; UINT64_MAX: not resident */
    struct hd_expars_ltlws_unit u; /* the counters (tables/expars_ltlws.h) */
    uint32_t *cnt;        /* [u.nw] issued instructions (phase 1) */
    bool *res;            /* [u.nw] */
    hd_sched_ltlws_tap_fn tap;
    void *tap_ctx;
    uint32_t last;
    bool lazy_done;       /* phase 2: the cap is set (the counters' answer) */
    uint32_t wopt;
    uint32_t *active, nactive; /* [max] */
    uint32_t *pend, phead, npend; /* FIFO ring [max] */
    bool *in_active;      /* [max] */
};

static void pend_push(struct ltlws *s, uint32_t w)
{
    s->pend[(s->phead + s->npend) % s->max] = w;
    s->npend++;
}

static void fill_active(struct ltlws *s)
{
    while (s->nactive < s->wopt && s->npend) {
        const uint32_t w = s->pend[s->phead];
        s->phead = (s->phead + 1) % s->max;
        s->npend--;
        s->active[s->nactive++] = w;
        s->in_active[w] = true;
    }
}

static void drop(struct ltlws *s, uint32_t w)
{
    if (s->in_active[w]) {
        for (uint32_t i = 0; i < s->nactive; i++)
            if (s->active[i] == w) {
                memmove(&s->active[i], &s->active[i + 1],
                        (s->nactive - i - 1) * sizeof *s->active);
                s->nactive--;
                break;
            }
        s->in_active[w] = false;
        return;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->npend; i++) {
        const uint32_t v = s->pend[(s->phead + i) % s->max];
        if (v != w)
            s->pend[(s->phead + k++) % s->max] = v;
    }
    s->npend = k;
}

/* One counter event: the block's reference answers (then the tap, which may replace it). */
static void counters(struct ltlws *s, unsigned op, uint32_t w, struct hd_expars_ltlws_ans *a)
{
    const uint32_t local = w / s->nsched;
    hd_expars_ltlws_apply(&s->u, s->cnt, s->res, op, local, s->u.nw, a);
    if (s->tap)
        s->tap(s->tap_ctx, op, local, s->u.nw, a);
    s->lazy_done = a->lazy;
    s->wopt = a->wopt;
}

static void lt_add(void *impl, uint32_t w, uint64_t age)
{
    struct ltlws *s = impl;
    if (w >= s->max)
        return;
    s->age[w] = age;
    struct hd_expars_ltlws_ans a;
    counters(s, HD_EXPARS_LTLWS_ADD, w, &a);
    if (s->lazy_done) {
        pend_push(s, w);
        fill_active(s);
    }
}

/* The first warp finished (the counters computed W_Opt, eq. 14): every other resident warp into
 * the pool by age. */
static void trigger(struct ltlws *s, uint32_t gone)
{
    s->nactive = s->npend = s->phead = 0;
    for (;;) { /* oldest first */
        uint32_t best = NONE;
        for (uint32_t i = 0; i < s->max; i++)
            if (i != gone && s->age[i] != UINT64_MAX && !s->in_active[i] &&
                (best == NONE || s->age[i] < s->age[best])) {
                bool queued = false;
                for (uint32_t k = 0; k < s->npend && !queued; k++)
                    queued = s->pend[(s->phead + k) % s->max] == i;
                if (!queued)
                    best = i;
            }
        if (best == NONE)
            break;
        pend_push(s, best);
    }
    fill_active(s);
}

static void lt_remove(void *impl, uint32_t w)
{
    struct ltlws *s = impl;
    if (w >= s->max || s->age[w] == UINT64_MAX)
        return;
    const bool was_lazy = s->lazy_done;
    struct hd_expars_ltlws_ans a;
    counters(s, HD_EXPARS_LTLWS_REMOVE, w, &a);
    if (a.trig)
        trigger(s, w);
    else if (was_lazy)
        drop(s, w);
    s->age[w] = UINT64_MAX;
    if (s->last == w)
        s->last = NONE;
    fill_active(s);
    if (a.nres == 0) { /* the kernel left this scheduler: a new phase 1 next time */
        s->lazy_done = false;
        s->nactive = s->npend = s->phead = 0;
        memset(s->in_active, 0, s->max * sizeof *s->in_active);
    }
}

static void lt_issued(void *impl, uint32_t w)
{
    struct ltlws *s = impl;
    s->last = w;
    if (w < s->max) {
        struct hd_expars_ltlws_ans a;
        counters(s, HD_EXPARS_LTLWS_ISSUE, w, &a);
    }
}

static void lt_long_wait(void *impl, uint32_t w)
{
    struct ltlws *s = impl;
    if (!s->lazy_done || w >= s->max || !s->in_active[w] || s->npend == 0)
        return;
    drop(s, w);
    pend_push(s, w);
    fill_active(s);
}

static void reverse(uint32_t *v, unsigned a, unsigned b) /* [a, b) */
{
    while (a + 1 < b) {
        const uint32_t t = v[a];
        v[a++] = v[--b];
        v[b] = t;
    }
}

/* Phase 2: exchange each waiting active warp for the oldest pending one that does not wait (it
 * takes its place; the waiting one goes to the pool's tail). */
static void refresh(struct ltlws *s, const struct hd_sched_env *env)
{
    if (!s->lazy_done || !env || !env->view) /* (no SM to ask: a policy driven on its own) */
        return;
    for (uint32_t i = 0; i < s->nactive && s->npend; i++) {
        const uint32_t w = s->active[i];
        if (!hd_sched_warp_waits(env, w))
            continue;
        uint32_t j = 0;
        while (j < s->npend && hd_sched_warp_waits(env, s->pend[(s->phead + j) % s->max]))
            j++;
        if (j == s->npend)
            return; /* every pending warp waits too */
        const uint32_t v = s->pend[(s->phead + j) % s->max];
        drop(s, v); /* (from the pool: v is not active) */
        pend_push(s, w);
        s->in_active[w] = false;
        s->active[i] = v;
        s->in_active[v] = true;
    }
}

static unsigned lt_order(void *impl, const struct hd_sched_env *env, const uint32_t *ready,
                         unsigned n, uint32_t *out)
{
    struct ltlws *s = impl;
    refresh(s, env);
    uint32_t *cand = out; /* the allowed ready warps, slot order, then ordered in place */
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (!s->lazy_done || s->in_active[ready[i]])
            cand[k++] = ready[i];
    if (s->gto) { /* the last issuer first while ready, then by age */
        unsigned first = 0;
        for (unsigned i = 0; i < k; i++)
            if (cand[i] == s->last) {
                cand[i] = cand[0];
                cand[0] = s->last;
                first = 1;
                break;
            }
        for (unsigned i = first + 1; i < k; i++) {
            const uint32_t w = cand[i];
            unsigned j = i;
            while (j > first && s->age[cand[j - 1]] > s->age[w]) {
                cand[j] = cand[j - 1];
                j--;
            }
            cand[j] = w;
        }
        return k;
    }
    /* LRR: rotate to start after the last issuer */
    unsigned start = 0;
    if (s->last != NONE)
        while (start < k && cand[start] <= s->last)
            start++;
    if (start > 0 && start < k) { /* rotate left by start: three reversals */
        reverse(cand, 0, start);
        reverse(cand, start, k);
        reverse(cand, 0, k);
    }
    return k;
}

static void lt_destroy(void *impl)
{
    struct ltlws *s = impl;
    if (!s)
        return;
    free(s->age);
    free(s->cnt);
    free(s->res);
    free(s->active);
    free(s->pend);
    free(s->in_active);
    free(s);
}

static const struct hd_sched_ops ltlws_lrr_ops = {"ltlws_lrr", false, lt_add, lt_remove,
                                                  lt_order, lt_issued, lt_long_wait, lt_destroy};
static const struct hd_sched_ops ltlws_gto_ops = {"ltlws_gto", false, lt_add, lt_remove,
                                                  lt_order, lt_issued, lt_long_wait, lt_destroy};

int hd_sched_ltlws_create(const struct hd_sm_params *p, struct hd_sched *out)
{
    struct ltlws *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->gto = p->sched == HD_SCHED_LTLWS_GTO;
    s->max = p->max_warps;
    s->nsched = p->num_sched ? p->num_sched : 1;
    s->last = NONE;
    /* one counter per warp the scheduler can own (32-bit counters, the paper's) */
    const uint32_t nw = (s->max + s->nsched - 1) / s->nsched;
    hd_expars_ltlws_unit_init(&s->u, nw ? nw : 1, 32);
    s->age = malloc(s->max * sizeof *s->age);
    s->cnt = calloc(s->u.nw, sizeof *s->cnt);
    s->res = calloc(s->u.nw, sizeof *s->res);
    s->active = calloc(s->max, sizeof *s->active);
    s->pend = calloc(s->max, sizeof *s->pend);
    s->in_active = calloc(s->max, sizeof *s->in_active);
    if (!s->age || !s->cnt || !s->res || !s->active || !s->pend || !s->in_active) {
        lt_destroy(s);
        return -1;
    }
    for (uint32_t i = 0; i < s->max; i++)
        s->age[i] = UINT64_MAX;
    out->ops = s->gto ? &ltlws_gto_ops : &ltlws_lrr_ops;
    out->impl = s;
    return 0;
}

bool hd_sched_ltlws_tap(const struct hd_sched *sc, hd_sched_ltlws_tap_fn fn, void *ctx)
{
    if (!sc || (sc->ops != &ltlws_lrr_ops && sc->ops != &ltlws_gto_ops))
        return false;
    struct ltlws *s = sc->impl;
    s->tap = fn;
    s->tap_ctx = ctx;
    return true;
}

uint32_t hd_sched_ltlws_counters(const struct hd_sched *sc)
{
    if (!sc || (sc->ops != &ltlws_lrr_ops && sc->ops != &ltlws_gto_ops))
        return 0;
    return ((const struct ltlws *)sc->impl)->u.nw;
}
