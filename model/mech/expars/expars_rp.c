/* SPDX-License-Identifier: MIT
 * expars_rp.c - EXPARS's register prefetcher and warp pool (Yu et al. TACO 2018 §3.3.4, §3.3.6,
 * L93-L95, L210-L212, L220; digest §2.5, §2.8): a warp of a mix CTA may issue the instructions of
 * a bundle only once the bundle's scratchpad registers are in the operand cache.
 *
 * Warp pool. At each issue attempt the hook (expars_mech.c) asks hd_expars_pool_hold with the
 * warp's bundle (model/compiler/bundles.h, the PREF vector) and its scratchpad registers
 * (Reg >= Start_Reg). A warp that enters a bundle whose registers are not prefetched for it is
 * held and put in the prefetching queue: at the front if it has completed a bundle before
 * (L210), at the back if it is new. A warp whose bundle needs no scratchpad register is
 * schedulable at once. When the bundle's last instruction may issue, the bundle is complete
 * ("all of its instructions scheduled", L95): its lines are unpinned (evictable, kept until
 * the prefetcher needs them: lazy eviction, §8 item 13). A jump back to the bundle's first
 * instruction (a loop) enters it again. The pending queue of the paper (schedulable warps over
 * the active maximum) is the two-level / LTLWS scheduler's pool (sm_sched*.c).
 * Prefetcher. One warp at a time (§8 item 16), the head of the queue: if its registers cannot
 * all be in the cache without evicting lines another warp has pinned (per set, expars_oc.h) it
 * waits (head-of-line blocking, as the paper), at most
 * HD_EXPARS_RP_STALL_LIMIT cycles, after which those lines are unpinned by force (their warp will fill them
 * on demand): without it a warp pinned and parked by the two-level scheduler's pending pool, or
 * waiting at a barrier for a held warp, would deadlock the SM (§8 item 15). Otherwise each
 * needed register that is not in its line is filled (a dirty victim is written back first), one
 * scratchpad line per cycle; the warp becomes schedulable fill_latency cycles after the last
 * transfer (1 cycle when every register hit). Its lines are pinned.
 * The prefetcher's transfers are timed on its own (one line per cycle), not through the SM's
 * scratchpad-bank arbiter: demand fills and write-backs (expars_oloc.c) do contend with
 * ld/st.shared there; the prefetcher's do not (a limit of the operand-location hook: a policy
 * cannot take scratchpad passes at cycles of its own).
 * The block. The BVT, the prefetching queue, the set probe and the fetch in flight are the
 * block expars_pref (tables/expars_pref.h, rtl/expars_pref/): this file applies the block's
 * requests to its C reference (s->pref) and acts on the answers; with the blocks in the loop
 * each request is also stepped into the SM's instance (expars_loop_pref.c), whose answer is
 * compared and used. What stays here is the warp pool's bookkeeping (which bundle a warp has
 * and wants, re-entry, completion) and the operand cache's operations the answers ask for.
 */
#include "expars_sm.h"

#include "expars_loop.h"

#include <string.h>

#define NONE UINT32_MAX

_Static_assert(EXPARS_PREF_NW == 32, "expars_rp.c: the landing stamp is 32 bits (hd_expars_rp_next)");

static void unpin(struct hd_expars_sm *s, uint32_t w)
{
    hd_expars_oc_unpin_warp(&s->oc, w);
}

/* One request to the prefetcher block: its C reference (the model's state), then the instance
 * in the loop, whose answer replaces *a. */
static void pref(struct hd_expars_sm *s, const struct hd_expars_pref_req *r,
                 struct hd_expars_pref_ans *a, uint64_t now)
{
    hd_expars_pref_apply(&s->pref, r, a);
    if (s->loop)
        hd_expars_loop_pref(s->loop, s, r, a, now);
}

static void drop(struct hd_expars_sm *s, uint32_t w, uint64_t now)
{
    struct hd_expars_pref_req r;
    struct hd_expars_pref_ans a;
    memset(&r, 0, sizeof r);
    r.op = HD_EXPARS_PREF_DROP;
    r.warp = w;
    pref(s, &r, &a, now);
    if (a.dropped & 2u) /* its fetch cancelled: no transfers left */
        s->pref_pend = 0;
}

/* The fetch's transfers end: the last one at cycle now + n - 1, landing fill_latency later. */
static void done(struct hd_expars_sm *s, uint64_t now, uint32_t n)
{
    struct hd_expars_pref_req r;
    struct hd_expars_pref_ans a;
    memset(&r, 0, sizeof r);
    r.op = HD_EXPARS_PREF_DONE;
    r.now = (uint32_t)now;
    r.n = n;
    r.lat = s->p->expars_fill_latency;
    pref(s, &r, &a, now);
}

bool hd_expars_pool_hold(struct hd_expars_sm *s, uint32_t w, const void *an, uint32_t b,
                         uint32_t b_pc, uint32_t b_last, uint32_t pc, const uint64_t *vec,
                         uint64_t now)
{
    if (w >= s->nwarps)
        return false;
    const bool same = s->have_an[w] == an && s->have_b[w] == b;
    const bool reenter = same && pc == b_pc && s->last_pc[w] != pc;
    if (same && !reenter) { /* inside its prefetched bundle */
        s->last_pc[w] = pc;
        if (pc == b_last) /* its last instruction: the bundle completes */
            unpin(s, w);
        return false;
    }
    if (hd_expars_pref_in_flight(&s->pref, w))
        return true; /* its fetch is in flight */
    const bool queued = hd_expars_pref_queued(&s->pref, w);
    if (queued && s->want_an[w] == an && s->want_b[w] == b) {
        s->st.holds++;
        return true;
    }
    /* a new bundle: the old one is complete */
    unpin(s, w);
    if (queued)
        drop(s, w, now);
    s->have_an[w] = NULL;
    s->have_b[w] = NONE;
    /* the decoder hands the bundle's PREF vector to the prefetcher (the BVT), which queues the
     * warp if the bundle has scratchpad registers */
    struct hd_expars_pref_req r;
    struct hd_expars_pref_ans a;
    memset(&r, 0, sizeof r);
    r.warp = w;
    r.op = HD_EXPARS_PREF_BVT;
    for (uint32_t k = 0; k < HD_EXPARS_PREF_MAX_WORDS; k++) {
        r.idx = k;
        r.word = vec[k];
        pref(s, &r, &a, now);
    }
    r.op = HD_EXPARS_PREF_PUSH;
    r.start = s->rat.start_reg;
    r.front = s->completed[w];
    pref(s, &r, &a, now);
    if (a.n == 0) { /* no scratchpad register: schedulable */
        s->have_an[w] = an;
        s->have_b[w] = b;
        s->last_pc[w] = pc;
        if (pc == b_last)
            unpin(s, w);
        return false;
    }
    s->want_an[w] = an;
    s->want_b[w] = b;
    s->last_pc[w] = b_pc; /* (entering at its first PC is not a re-entry) */
    s->completed[w] = true;
    s->st.holds++;
    return true;
}

bool hd_expars_rp_tick(struct hd_expars_sm *s, uint64_t now)
{
    if (!s->pref.busy && s->pref.qn == 0)
        return false; /* nothing queued, nothing in flight: no request */
    if (s->pref_pend) { /* [expars] pref_spad: its transfers wait for scratchpad passes */
        s->st.rp_busy_cycles++;
        return false;
    }
    struct hd_expars_pref_line lines[HD_EXPARS_PREF_MAX_LINES];
    const uint32_t nl = s->oc.t.nlines < HD_EXPARS_PREF_MAX_LINES ? s->oc.t.nlines
                                                                  : HD_EXPARS_PREF_MAX_LINES;
    for (uint32_t j = 0; j < nl; j++) {
        const struct hd_expars_oc_line *l = &s->oc.t.line[j];
        lines[j] = (struct hd_expars_pref_line){l->valid, l->pinned, l->warp, l->reg};
    }
    struct hd_expars_pref_req r;
    struct hd_expars_pref_ans a;
    memset(&r, 0, sizeof r);
    r.op = HD_EXPARS_PREF_TICK;
    r.start = s->rat.start_reg;
    r.now = (uint32_t)now;
    r.lines = lines;
    pref(s, &r, &a, now);
    bool progress = false;
    if (a.busy || a.rel)
        s->st.rp_busy_cycles++;
    if (a.rel && a.rel_warp < s->nwarps) { /* the fetch landed: schedulable */
        const uint32_t w = a.rel_warp;
        s->have_an[w] = s->want_an[w];
        s->have_b[w] = s->want_b[w];
        progress = true;
    }
    if (a.conflict)
        s->st.rp_conflict_cycles++;
    if (!a.start || a.warp >= s->nwarps)
        return progress;
    const uint32_t w = a.warp;
    if (a.steal) /* deadlock breaker: steal the sets' lines */
        for (uint32_t i = 0; i < a.n; i++)
            s->st.forced_unpins += hd_expars_oc_steal(&s->oc, w, a.need[i]);
    uint32_t transfers = 0;
    for (uint32_t i = 0; i < a.n; i++) {
        const uint32_t reg = a.need[i];
        const int line = hd_expars_oc_find(&s->oc, w, reg);
        if (line < 0) {
            const struct hd_expars_oc_line *v =
                &s->oc.t.line[hd_expars_oc_victim(&s->oc, w, reg)];
            if (v->valid && v->dirty) {
                transfers++;
                s->st.pref_writebacks++;
            }
            if (s->loop) /* its scratchpad address: the RAT's SBR and eq. 13 (expars_rat) */
                (void)hd_expars_loop_rat(s->loop, s, w, reg, true, now);
            hd_expars_fill_line(s, w, reg);
            transfers++;
            s->st.pref_fills++;
        } else {
            s->st.pref_hits++;
        }
        hd_expars_oc_pin(&s->oc, w, reg);
    }
    s->st.prefetches++;
    if (transfers && s->p->expars_pref_spad && s->p->expars_spad_shared) {
        s->pref_pend = transfers; /* one scratchpad pass each (hd_expars_rp_took) */
        return progress;
    }
    done(s, now, transfers); /* timed on its own: one line per cycle from now */
    return progress;
}

bool hd_expars_rp_want(const struct hd_expars_sm *s, uint64_t now)
{
    (void)now;
    return s->pref_pend != 0;
}

void hd_expars_rp_took(struct hd_expars_sm *s, uint64_t now, bool granted)
{
    if (!s->pref_pend)
        return;
    if (!granted) {
        s->st.pref_pass_waits++;
        return;
    }
    s->st.pref_passes++;
    if (--s->pref_pend == 0)
        done(s, now, 1); /* the last transfer is this pass */
}

uint64_t hd_expars_rp_next(const struct hd_expars_sm *s, uint64_t now)
{
    if (s->pref_pend)
        return now + 1; /* a transfer waits for its scratchpad pass */
    if (s->pref.busy) { /* the landing cycle, a 32-bit stamp ahead of now (or passed) */
        const int32_t d = (int32_t)(s->pref.done - (uint32_t)now);
        return d > 0 ? now + (uint64_t)d : now + 1;
    }
    return s->pref.qn ? now + 1 : UINT64_MAX;
}

bool hd_expars_pool_pooled(const struct hd_expars_sm *s, uint32_t w)
{
    if (w >= s->nwarps || !s->prefetch || !s->have_b)
        return false;
    return hd_expars_pref_queued(&s->pref, w) || hd_expars_pref_in_flight(&s->pref, w);
}

void hd_expars_pool_wait(struct hd_expars_sm *s, uint32_t w)
{
    if (w >= s->nwarps || !s->have_b || !s->prefetch || s->have_b[w] == NONE)
        return;
    if (!s->p->expars_unpin_wait)
        return;
    s->st.wait_unpins += hd_expars_oc_unpin_warp(&s->oc, w) != 0;
    s->have_an[w] = NULL; /* its bundle's registers are asked for again when it may issue */
    s->have_b[w] = NONE;
}

void hd_expars_pool_drop(struct hd_expars_sm *s, uint32_t w)
{
    if (w >= s->nwarps || !s->have_b)
        return;
    if (s->prefetch)
        drop(s, w, 0);
    s->have_an[w] = s->want_an[w] = NULL;
    s->have_b[w] = s->want_b[w] = NONE;
    s->last_pc[w] = NONE;
    s->completed[w] = false;
}
