/* SPDX-License-Identifier: MIT
 * expars_pref.c - the C reference of EXPARS's register prefetcher (expars_pref.h; Yu et al.
 * §3.3.4; digest §2.5, §2.8): the BVT, the prefetching queue, the set probe and the fetch in
 * flight. The model's prefetcher (model/mech/expars/expars_rp.c) applies its requests here.
 */
#include "expars_pref.h"

#include <string.h>

#define HD_PORTS_DEF "expars_pref_ports.def"
#define HD_PORTS_IN_T struct hd_expars_pref_in
#define HD_PORTS_OUT_T struct hd_expars_pref_out
#define HD_PORTS_BLOCK_VAR hd_expars_pref_block
#include "hd_ports_table.h"

#define NMASK ((uint32_t)((1ull << EXPARS_PREF_NW) - 1u))
#define LS (2 + EXPARS_PREF_WW + EXPARS_PREF_RW) /* bits of one line's status in lines_i */

void hd_expars_pref_init(struct hd_expars_pref *p, uint32_t nwarps, uint32_t nlines,
                         uint32_t ways, uint32_t words, uint32_t need, uint32_t limit)
{
    memset(p, 0, sizeof *p);
    p->nwarps = nwarps < HD_EXPARS_PREF_MAX_WARPS ? nwarps : HD_EXPARS_PREF_MAX_WARPS;
    p->nlines = nlines < HD_EXPARS_PREF_MAX_LINES ? nlines : HD_EXPARS_PREF_MAX_LINES;
    p->ways = ways >= 1 && ways <= p->nlines ? ways : 1;
    p->words = words >= 1 && words <= HD_EXPARS_PREF_MAX_WORDS ? words : 1;
    p->need = need >= 1 && need <= HD_EXPARS_PREF_MAX_NEED ? need : HD_EXPARS_PREF_MAX_NEED;
    p->limit = limit;
}

/* Is stamp a after stamp b (a - b a positive signed NW-bit number)? */
static bool after(uint32_t a, uint32_t b)
{
    const uint32_t d = (a - b) & NMASK;
    return d != 0 && !(d >> (EXPARS_PREF_NW - 1));
}

/* Warp w's scratchpad registers: the first p->need registers r >= start set in its vector. */
static uint32_t need_of(const struct hd_expars_pref *p, uint32_t w, uint32_t start,
                        uint16_t *need)
{
    uint32_t n = 0;
    for (uint32_t r = start; r < 64 * p->words && n < p->need; r++)
        if (p->bvt[w][r / 64] >> (r % 64) & 1u)
            need[n++] = (uint16_t)r;
    return n;
}

/* The set probe: does every register of need[n] fit its set in the lines that are free,
 * unpinned or w's own? */
static bool room(const struct hd_expars_pref *p, uint32_t w, const uint16_t *need, uint32_t n,
                 const struct hd_expars_pref_line *lines)
{
    const uint32_t nsets = p->nlines / p->ways;
    for (uint32_t s = 0; s < nsets; s++) {
        uint32_t want = 0, usable = 0;
        for (uint32_t i = 0; i < n; i++)
            want += need[i] % nsets == s;
        for (uint32_t j = s * p->ways; j < (s + 1) * p->ways; j++)
            usable += !(lines[j].valid && lines[j].pinned && lines[j].warp != w);
        if (want > usable)
            return false;
    }
    return true;
}

/* The head leaves (a start or a drop): the next entry's list, made at its PUSH, becomes the
 * head's (the block's register of the head's list; unchanged when no entry follows). */
static void next_head(struct hd_expars_pref *p)
{
    if (p->qn < 2)
        return;
    const uint32_t w = p->q[1];
    p->hd_n = p->tk_n[w];
    memcpy(p->hd_need, p->tk_need[w], p->tk_n[w] * sizeof p->hd_need[0]);
}

static uint32_t find(const struct hd_expars_pref *p, uint32_t w)
{
    for (uint32_t i = 0; i < p->qn; i++)
        if (p->q[i] == w)
            return i;
    return UINT32_MAX;
}

bool hd_expars_pref_queued(const struct hd_expars_pref *p, uint32_t w)
{
    return find(p, w) != UINT32_MAX;
}

static void tick(struct hd_expars_pref *p, const struct hd_expars_pref_req *r,
                 struct hd_expars_pref_ans *a)
{
    const uint32_t now = r->now & NMASK;
    if (p->busy) {
        if (after(p->done, now)) {
            a->busy = true;
            return;
        }
        a->rel = true;
        a->rel_warp = p->warp;
        p->busy = false;
    }
    if (p->qn == 0)
        return;
    const uint32_t w = p->q[0];
    if (!room(p, w, p->hd_need, p->hd_n, r->lines)) {
        if (!p->stall || after(p->since, now)) {
            p->stall = true;
            p->since = now;
        }
        a->conflict = true;
        if (((now - p->since) & NMASK) < p->limit)
            return;
        a->steal = true;
    }
    p->stall = false;
    a->start = true;
    a->warp = w;
    a->n = p->hd_n;
    memcpy(a->need, p->hd_need, p->hd_n * sizeof p->hd_need[0]);
    next_head(p);
    memmove(&p->q[0], &p->q[1], (p->qn - 1) * sizeof p->q[0]);
    p->qn--;
    p->busy = true;
    p->warp = w;
    p->done = (now + 1u) & NMASK;
}

void hd_expars_pref_apply(struct hd_expars_pref *p, const struct hd_expars_pref_req *r,
                          struct hd_expars_pref_ans *a)
{
    memset(a, 0, sizeof *a);
    const uint32_t w = r->warp;
    switch (r->op) {
    case HD_EXPARS_PREF_BVT:
        if (w < p->nwarps && r->idx < p->words)
            p->bvt[w][r->idx] = r->word;
        break;
    case HD_EXPARS_PREF_PUSH: {
        if (w >= p->nwarps)
            break;
        uint16_t need[HD_EXPARS_PREF_MAX_NEED];
        a->n = need_of(p, w, r->start, need);
        if (a->n == 0 || p->qn == p->nwarps)
            break;
        p->tk_n[w] = a->n; /* its list, kept for when it becomes the head */
        memcpy(p->tk_need[w], need, a->n * sizeof need[0]);
        if (r->front || p->qn == 0) { /* it becomes the head */
            p->hd_n = a->n;
            memcpy(p->hd_need, need, a->n * sizeof need[0]);
        }
        if (r->front) {
            memmove(&p->q[1], &p->q[0], p->qn * sizeof p->q[0]);
            p->q[0] = w;
        } else {
            p->q[p->qn] = w;
        }
        p->qn++;
        break;
    }
    case HD_EXPARS_PREF_DROP: {
        const uint32_t i = find(p, w);
        if (i != UINT32_MAX) {
            if (i == 0)
                next_head(p);
            memmove(&p->q[i], &p->q[i + 1], (p->qn - i - 1) * sizeof p->q[0]);
            p->qn--;
            a->dropped |= 1u;
        }
        if (p->busy && p->warp == w) {
            p->busy = false;
            a->dropped |= 2u;
        }
        break;
    }
    case HD_EXPARS_PREF_TICK:
        tick(p, r, a);
        break;
    case HD_EXPARS_PREF_DONE:
        if (p->busy)
            p->done = (r->now + (r->n ? r->n + r->lat : 1u)) & NMASK;
        break;
    default:
        break;
    }
    a->qn = p->qn;
}

/* {==== The block ==== */
static uint64_t get_bits(const uint32_t *v, uint32_t at, uint32_t w)
{
    uint64_t x = 0;
    for (uint32_t i = 0; i < w; i++)
        x |= (uint64_t)(v[(at + i) / 32] >> ((at + i) % 32) & 1u) << i;
    return x;
}

static void put_bits(uint32_t *v, uint32_t at, uint32_t w, uint64_t x)
{
    for (uint32_t i = 0; i < w; i++) {
        const uint32_t b = at + i;
        v[b / 32] = (v[b / 32] & ~(1u << (b % 32))) | (uint32_t)((x >> i) & 1u) << (b % 32);
    }
}

void hd_expars_pref_pack_lines(struct hd_expars_pref_in *in,
                               const struct hd_expars_pref_line *lines, uint32_t nlines)
{
    memset(in->lines_i, 0, sizeof in->lines_i);
    for (uint32_t j = 0; j < nlines && j < EXPARS_PREF_Lines; j++) {
        const uint64_t x = (uint64_t)lines[j].valid | (uint64_t)lines[j].pinned << 1 |
                           (uint64_t)(lines[j].warp & ((1u << EXPARS_PREF_WW) - 1u)) << 2 |
                           (uint64_t)(lines[j].reg & ((1u << EXPARS_PREF_RW) - 1u))
                               << (2 + EXPARS_PREF_WW);
        put_bits(in->lines_i, j * LS, LS, x);
    }
}

void hd_expars_pref_pack_ans(struct hd_expars_pref_out *o, const struct hd_expars_pref_ans *a)
{
    memset(o, 0, sizeof *o);
    o->res_v_o = 1;
    o->busy_o = a->busy;
    o->rel_v_o = a->rel;
    o->rel_warp_o = a->rel_warp;
    o->conflict_o = a->conflict;
    o->steal_o = a->steal;
    o->start_v_o = a->start;
    o->warp_o = a->warp;
    o->n_o = a->n;
    for (uint32_t i = 0; i < a->n && i < EXPARS_PREF_Need; i++)
        put_bits(o->need_o, i * EXPARS_PREF_RW, EXPARS_PREF_RW, a->need[i]);
    o->dropped_o = a->dropped;
    o->qn_o = a->qn;
}

void hd_expars_pref_ref_reset(struct hd_expars_pref_state *s)
{
    memset(s, 0, sizeof *s);
    hd_expars_pref_init(&s->p, EXPARS_PREF_Warps, EXPARS_PREF_Lines, EXPARS_PREF_Ways,
                        EXPARS_PREF_NR / 64, EXPARS_PREF_Need, EXPARS_PREF_Limit);
}

void hd_expars_pref_ref_step(struct hd_expars_pref_state *s, const struct hd_expars_pref_in *in,
                             struct hd_expars_pref_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (!(in->op_v_i & 1u))
        return;
    struct hd_expars_pref_line lines[HD_EXPARS_PREF_MAX_LINES];
    for (uint32_t j = 0; j < EXPARS_PREF_Lines; j++) {
        const uint64_t x = get_bits(in->lines_i, j * LS, LS);
        lines[j].valid = x & 1u;
        lines[j].pinned = x >> 1 & 1u;
        lines[j].warp = (uint32_t)(x >> 2 & ((1u << EXPARS_PREF_WW) - 1u));
        lines[j].reg = (uint32_t)(x >> (2 + EXPARS_PREF_WW));
    }
    struct hd_expars_pref_req r;
    memset(&r, 0, sizeof r);
    r.op = (unsigned)(in->op_i & 7u);
    r.warp = (uint32_t)in->warp_i;
    r.idx = (uint32_t)in->idx_i;
    r.word = in->word_i;
    r.front = in->front_i & 1u;
    r.start = (uint32_t)in->start_i;
    r.now = (uint32_t)in->now_i & NMASK;
    r.n = (uint32_t)in->n_i;
    r.lat = (uint32_t)in->lat_i;
    r.lines = lines;
    struct hd_expars_pref_ans a;
    hd_expars_pref_apply(&s->p, &r, &a);
    hd_expars_pref_pack_ans(&s->q, &a);
}

bool hd_expars_pref_ref_idle(const struct hd_expars_pref_state *s,
                             const struct hd_expars_pref_in *in)
{
    return !(in->op_v_i & 1u) && !(s->q.res_v_o & 1u);
}
/* }==== */
