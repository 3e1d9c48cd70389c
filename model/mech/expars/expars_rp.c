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
 * RP_STALL_LIMIT cycles, after which those lines are unpinned by force (their warp will fill them
 * on demand): without it a warp pinned and parked by the two-level scheduler's pending pool, or
 * waiting at a barrier for a held warp, would deadlock the SM (§8 item 15). Otherwise each
 * needed register that is not in its line is filled (a dirty victim is written back first), one
 * scratchpad line per cycle; the warp becomes schedulable fill_latency cycles after the last
 * transfer (1 cycle when every register hit). Its lines are pinned.
 * The prefetcher's transfers are timed on its own (one line per cycle), not through the SM's
 * scratchpad-bank arbiter: demand fills and write-backs (expars_oloc.c) do contend with
 * ld/st.shared there; the prefetcher's do not (a limit of the operand-location hook: a policy
 * cannot take scratchpad passes at cycles of its own).
 */
#include "expars_sm.h"

#define NONE UINT32_MAX
#define RP_STALL_LIMIT 64

static void unpin(struct hd_expars_sm *s, uint32_t w)
{
    hd_expars_oc_unpin_warp(&s->oc, w);
}

static void q_push(struct hd_expars_sm *s, uint32_t w, bool front)
{
    if (front) {
        s->qhead = (s->qhead + s->nwarps - 1) % s->nwarps;
        s->q[s->qhead] = w;
    } else {
        s->q[(s->qhead + s->qn) % s->nwarps] = w;
    }
    s->qn++;
    s->queued[w] = true;
}

static void q_remove(struct hd_expars_sm *s, uint32_t w)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->qn; i++) {
        const uint32_t v = s->q[(s->qhead + i) % s->nwarps];
        if (v != w)
            s->q[(s->qhead + k++) % s->nwarps] = v;
    }
    s->qn = k;
    s->queued[w] = false;
}

bool hd_expars_pool_hold(struct hd_expars_sm *s, uint32_t w, const void *an, uint32_t b,
                         uint32_t b_pc, uint32_t b_last, uint32_t pc, const uint16_t *need,
                         unsigned n)
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
    if (s->rp_busy && s->rp_warp == w)
        return true; /* its fetch is in flight */
    if (s->queued[w] && s->want_an[w] == an && s->want_b[w] == b) {
        s->st.holds++;
        return true;
    }
    /* a new bundle: the old one is complete */
    unpin(s, w);
    if (s->queued[w])
        q_remove(s, w);
    s->have_an[w] = NULL;
    s->have_b[w] = NONE;
    if (n == 0) { /* no scratchpad register: schedulable */
        s->have_an[w] = an;
        s->have_b[w] = b;
        s->last_pc[w] = pc;
        if (pc == b_last)
            unpin(s, w);
        return false;
    }
    if (n > HD_EXPARS_OC_MAX_LINES)
        n = HD_EXPARS_OC_MAX_LINES;
    for (unsigned i = 0; i < n; i++)
        s->need[(size_t)w * HD_EXPARS_OC_MAX_LINES + i] = need[i];
    s->nneed[w] = (uint8_t)n;
    s->want_an[w] = an;
    s->want_b[w] = b;
    s->last_pc[w] = b_pc; /* (entering at its first PC is not a re-entry) */
    q_push(s, w, s->completed[w]);
    s->completed[w] = true;
    s->st.holds++;
    return true;
}

/* Can every register of need[n] of warp w be in the cache at once without evicting a line
 * another warp has pinned? Per set: the registers to fetch must fit the lines that are free,
 * unpinned, or w's own but not holding one of its needed registers. */
static bool room(struct hd_expars_sm *s, uint32_t w, const uint16_t *need, unsigned n)
{
    uint32_t want[HD_EXPARS_OC_MAX_LINES] = {0}, keep[HD_EXPARS_OC_MAX_LINES] = {0};
    for (unsigned i = 0; i < n; i++) {
        const uint32_t set = hd_expars_oc_set(&s->oc, need[i]);
        if (hd_expars_oc_find(&s->oc, w, need[i]) >= 0)
            keep[set]++;
        else
            want[set]++;
    }
    for (unsigned i = 0; i < n; i++) {
        const uint32_t set = hd_expars_oc_set(&s->oc, need[i]), base = set * s->oc.t.ways;
        uint32_t usable = 0;
        for (uint32_t j = base; j < base + s->oc.t.ways; j++) {
            const struct hd_expars_oc_line *l = &s->oc.t.line[j];
            usable += !(l->valid && l->pinned && l->warp != w);
        }
        if (want[set] + keep[set] > usable)
            return false;
    }
    return true;
}

bool hd_expars_rp_tick(struct hd_expars_sm *s, uint64_t now)
{
    bool progress = false;
    if (s->rp_busy) {
        s->st.rp_busy_cycles++;
        if (now < s->rp_done)
            return false;
        const uint32_t w = s->rp_warp;
        s->have_an[w] = s->want_an[w];
        s->have_b[w] = s->want_b[w];
        s->rp_busy = false;
        progress = true;
    }
    if (s->qn == 0)
        return progress;
    const uint32_t w = s->q[s->qhead];
    const uint16_t *need = &s->need[(size_t)w * HD_EXPARS_OC_MAX_LINES];
    const unsigned n = s->nneed[w];
    const bool conflict = !room(s, w, need, n);
    if (conflict) {
        if (s->rp_stall_since == NONE || s->rp_stall_since > now)
            s->rp_stall_since = now;
        s->st.rp_conflict_cycles++;
        if (now - s->rp_stall_since < RP_STALL_LIMIT)
            return progress;
        for (unsigned i = 0; i < n; i++) /* deadlock breaker: steal the sets' lines */
            s->st.forced_unpins += hd_expars_oc_steal(&s->oc, w, need[i]);
    }
    s->rp_stall_since = NONE;
    unsigned transfers = 0;
    for (unsigned i = 0; i < n; i++) {
        const uint32_t r = need[i];
        const int line = hd_expars_oc_find(&s->oc, w, r);
        if (line < 0) {
            const struct hd_expars_oc_line *v = &s->oc.t.line[hd_expars_oc_victim(&s->oc, w, r)];
            if (v->valid && v->dirty) {
                transfers++;
                s->st.pref_writebacks++;
            }
            hd_expars_fill_line(s, w, r);
            transfers++;
            s->st.pref_fills++;
        } else {
            s->st.pref_hits++;
        }
        hd_expars_oc_pin(&s->oc, w, r);
    }
    s->qhead = (s->qhead + 1) % s->nwarps;
    s->qn--;
    s->queued[w] = false;
    s->rp_busy = true;
    s->rp_warp = w;
    s->rp_done = now + (transfers ? transfers + s->p->expars_fill_latency : 1);
    s->st.prefetches++;
    return progress;
}

uint64_t hd_expars_rp_next(const struct hd_expars_sm *s, uint64_t now)
{
    if (s->rp_busy)
        return s->rp_done > now ? s->rp_done : now + 1;
    return s->qn ? now + 1 : UINT64_MAX;
}

void hd_expars_pool_drop(struct hd_expars_sm *s, uint32_t w)
{
    if (w >= s->nwarps || !s->have_b)
        return;
    if (s->queued[w])
        q_remove(s, w);
    if (s->rp_busy && s->rp_warp == w)
        s->rp_busy = false;
    s->have_an[w] = s->want_an[w] = NULL;
    s->have_b[w] = s->want_b[w] = NONE;
    s->last_pc[w] = NONE;
    s->completed[w] = false;
}
