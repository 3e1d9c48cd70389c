/* SPDX-License-Identifier: MIT
 * regalloc_color.c - interference graph and greedy coloring of one register class.
 *
 * Edges: one pass over the PCs collects, for each PC, the whole-range registers live after it;
 * every register the PC writes interferes with all of them (and with the others it writes), and
 * every constant it reads in a register interferes with the registers live before it (and with
 * the other constants it reads there). At a join (a block with two or more predecessors) the
 * registers live on entry interfere pairwise: two values written on different incoming paths
 * may both be live there without either being live at the other's write (a register read on a
 * path that never wrote it), and the checker's rule is "no two live registers share" at every
 * PC. With these, any two registers live together at some PC interfere. Pairs go to one array, then become adjacency arrays
 * (counting sort; duplicates dropped with a stamp per node). The same pass measures the register
 * pressure (the lower bound reported as max_live_words).
 *
 * Coloring: greedy, lowest free position aligned to the value's size (1, 2 or 4 words), in two
 * orders: dominance (reverse post-order of blocks, first write; optimal for SSA-like code) and
 * smallest-last by weighted degree (Matula-Beck bucket queue). The smaller span wins, ties to the
 * dominance order. Cost: linear in PCs x live registers plus edges.
 *
 * Bound: the edges grow with the square of the registers live at once (20,000 live registers
 * made 200 M pairs, 6.4 GB). Past HD_RA_MAX_PAIRS collected pairs (64 MiB of pairs, as much
 * again for the adjacency arrays) the graph is dropped and the class is colored as an interval
 * graph instead: each register's hull (first to last PC where it is live, written or read in a
 * register) is swept in PC order, lowest free aligned position first. Hulls that share no PC
 * never share a position and any two registers live together share a PC, so the result is as
 * safe as the graph's (the checker verifies both); it is exact for straight-line code and may
 * use more positions across loops. Memory O(registers + PCs), time O(PCs x live words).
 */
#include <stdlib.h>
#include <string.h>

#include "regalloc_impl.h"

static inline void bit_set64(uint64_t *r, uint32_t i) { r[i >> 6] |= 1ull << (i & 63); }
static inline bool bit_test64(const uint64_t *r, uint32_t i) { return (r[i >> 6] >> (i & 63)) & 1u; }

/* {==== Interference graph ==== */
#ifndef HD_RA_MAX_PAIRS /* (a test build may lower it to exercise the fallback) */
#define HD_RA_MAX_PAIRS ((size_t)8 << 20) /* pairs collected before the interval fallback */
#endif

struct pairs {
    uint32_t *v;
    size_t n, cap;
    bool oom, over; /* over: more than HD_RA_MAX_PAIRS pairs (no graph) */
};

static void pair_add(struct pairs *p, uint32_t a, uint32_t b)
{
    if (a == b || p->oom || p->over)
        return;
    if (p->n >= 2 * HD_RA_MAX_PAIRS) {
        p->over = true;
        return;
    }
    if (p->n + 2 > p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        uint32_t *nv = realloc(p->v, cap * sizeof(uint32_t));
        if (!nv) {
            p->oom = true;
            return;
        }
        p->v = nv, p->cap = cap;
    }
    p->v[p->n++] = a;
    p->v[p->n++] = b;
}

/* Whole-range registers of class c in a row, into buf; returns how many, adds their words. */
static uint32_t row_regs(const struct hd_ra_ctx *x, enum hd_rclass c, const uint64_t *row,
                         uint32_t *buf, uint32_t *words)
{
    const struct hd_liveness *lv = x->lv;
    uint32_t n = 0;
    for (uint32_t w = 0; w < lv->stride[c]; w++)
        for (uint64_t b = row[w]; b; b &= b - 1) {
            uint32_t r = lv->reg_of[c][(w << 6) | (uint32_t)__builtin_ctzll(b)];
            if (x->kind[r] == HD_RA_REG)
                buf[n++] = r, *words += lv->words[r];
        }
    return n;
}

static void collect(const struct hd_ra_ctx *x, enum hd_rclass c, struct pairs *p, uint32_t *buf,
                    uint32_t *max_words)
{
    const struct hd_liveness *lv = x->lv;
    *max_words = 0;
    for (uint32_t pc = 0; pc < lv->ninstrs && !p->over && !p->oom; pc++) {
        uint32_t nd, wo = 0, wi = 0;
        const int32_t *d = hd_liveness_defs(lv, pc, &nd);
        uint32_t n = row_regs(x, c, hd_liveness_out_row(lv, pc, c), buf, &wo);
        for (uint32_t k = 0; k < nd; k++) {
            uint32_t v = (uint32_t)d[k];
            bool dup = false;
            for (uint32_t j = 0; j < k; j++)
                dup |= d[j] == d[k];
            if (dup || lv->rclass[v] != c || x->kind[v] != HD_RA_REG)
                continue;
            if (!hd_liveness_live_out(lv, pc, v))
                wo += lv->words[v]; /* a dead write still lands somewhere */
            for (uint32_t j = 0; j < n; j++)
                pair_add(p, v, buf[j]);
            for (uint32_t j = 0; j < k; j++)
                if (x->kind[d[j]] == HD_RA_REG && lv->rclass[d[j]] == c)
                    pair_add(p, v, (uint32_t)d[j]);
        }
        if (wo > *max_words)
            *max_words = wo;
        const uint32_t *rd = x->rr_regs + x->rr_off[pc];
        uint32_t nr = x->rr_off[pc + 1] - x->rr_off[pc], nrc = 0;
        for (uint32_t k = 0; k < nr; k++)
            nrc += lv->rclass[rd[k]] == c;
        const struct hd_block *blk = &lv->cfg->blocks[lv->cfg->block_of[pc]];
        bool block_start = pc == blk->first;
        if (!nrc && !block_start) /* live-in = live-out of pc - 1, already measured */
            continue;
        n = row_regs(x, c, hd_liveness_in_row(lv, pc, c), buf, &wi);
        if (wi > *max_words)
            *max_words = wi;
        if (block_start && blk->npred >= 2) /* join: values defined on different paths */
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t j = 0; j < i; j++)
                    pair_add(p, buf[i], buf[j]);
        for (uint32_t k = 0; k < nr; k++) {
            if (lv->rclass[rd[k]] != c)
                continue;
            for (uint32_t j = 0; j < n; j++)
                pair_add(p, rd[k], buf[j]);
            for (uint32_t j = 0; j < k; j++)
                if (lv->rclass[rd[j]] == c)
                    pair_add(p, rd[k], rd[j]);
        }
    }
}

struct graph {
    uint32_t *off; /* [nregs + 1] */
    uint32_t *adj;
};

static void graph_free(struct graph *g)
{
    free(g->off), free(g->adj);
}

/* 0, 1 when the graph would exceed HD_RA_MAX_PAIRS (nothing built), -1 out of memory */
static int graph_build(const struct hd_ra_ctx *x, enum hd_rclass c, struct graph *g,
                       uint32_t *max_words)
{
    const struct hd_liveness *lv = x->lv;
    uint32_t n = lv->nregs;
    struct pairs p = { 0 };
    uint32_t *buf = malloc((lv->n[c] ? lv->n[c] : 1) * sizeof(uint32_t));
    uint32_t *cur = calloc(n ? n : 1, sizeof(uint32_t));
    g->off = calloc((size_t)n + 1, sizeof(uint32_t));
    g->adj = NULL;
    int rc = -1;
    if (!buf || !cur || !g->off)
        goto done;
    collect(x, c, &p, buf, max_words);
    if (p.over)
        rc = 1;
    if (p.oom || p.over)
        goto done;
    for (size_t k = 0; k < p.n; k++)
        g->off[p.v[k] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        g->off[i + 1] += g->off[i];
    g->adj = malloc((p.n ? p.n : 1) * sizeof(uint32_t));
    if (!g->adj)
        goto done;
    memcpy(cur, g->off, n * sizeof(uint32_t));
    for (size_t k = 0; k < p.n; k += 2) {
        g->adj[cur[p.v[k]]++] = p.v[k + 1];
        g->adj[cur[p.v[k + 1]]++] = p.v[k];
    }
    /* drop duplicate neighbours (first kept), compacting in place; cur[] becomes a stamp */
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++)
        cur[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = g->off[i], e = g->off[i + 1];
        g->off[i] = at;
        for (uint32_t k = b; k < e; k++)
            if (cur[g->adj[k]] != i)
                cur[g->adj[k]] = i, g->adj[at++] = g->adj[k];
    }
    g->off[n] = at;
    rc = 0;
done:
    free(p.v), free(buf), free(cur);
    return rc;
}
/* }==== */

/* {==== Coloring orders ==== */
/* Dominance order: blocks in reverse post-order, registers at their first write, constants at
 * their first read in a register (a constant never read in one is not a node). */
static uint32_t order_dominance(const struct hd_ra_ctx *x, enum hd_rclass c, uint32_t *order,
                                uint8_t *placed)
{
    const struct hd_liveness *lv = x->lv;
    uint32_t n = 0;
    memset(placed, 0, lv->nregs);
    for (uint32_t i = 0; i < lv->nblocks; i++) {
        const struct hd_block *blk = &lv->cfg->blocks[lv->rpo[i]];
        for (uint32_t pc = blk->first; pc <= blk->last; pc++) {
            uint32_t nd, nr = x->rr_off[pc + 1] - x->rr_off[pc];
            const int32_t *d = hd_liveness_defs(lv, pc, &nd);
            const uint32_t *rd = x->rr_regs + x->rr_off[pc];
            for (uint32_t k = 0; k < nd + nr; k++) {
                uint32_t v = k < nd ? (uint32_t)d[k] : rd[k - nd];
                uint8_t want = k < nd ? HD_RA_REG : HD_RA_REMAT;
                if (lv->rclass[v] == c && x->kind[v] == want && !placed[v])
                    placed[v] = 1, order[n++] = v;
            }
        }
    }
    return n;
}
/* Smallest-last (Matula-Beck): repeatedly remove a node of least weighted degree (words of its
 * remaining neighbours), color in reverse removal order. Bucket queue: O(nodes + edges + words). */
struct buckets {
    int32_t *head, *next, *prev;
    uint32_t *key;
};

static void bucket_insert(struct buckets *q, uint32_t v)
{
    int32_t h = q->head[q->key[v]];
    q->next[v] = h;
    q->prev[v] = -1;
    if (h >= 0)
        q->prev[h] = (int32_t)v;
    q->head[q->key[v]] = (int32_t)v;
}

static void bucket_remove(struct buckets *q, uint32_t v)
{
    if (q->prev[v] >= 0)
        q->next[q->prev[v]] = q->next[v];
    else
        q->head[q->key[v]] = q->next[v];
    if (q->next[v] >= 0)
        q->prev[q->next[v]] = q->prev[v];
}

static int order_smallest_last(const struct graph *g, const struct hd_liveness *lv,
                               const uint32_t *nodes, uint32_t n, uint32_t *order, uint8_t *placed)
{
    size_t nr = lv->nregs ? lv->nregs : 1;
    uint32_t maxkey = 0;
    struct buckets q = { NULL, malloc(nr * sizeof(int32_t)), malloc(nr * sizeof(int32_t)),
                         calloc(nr, sizeof(uint32_t)) };
    if (!q.next || !q.prev || !q.key)
        goto fail;
    memset(placed, 1, lv->nregs); /* 1 = not a node of this graph, or removed */
    for (uint32_t i = 0; i < n; i++)
        placed[nodes[i]] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = nodes[i];
        for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++)
            q.key[v] += lv->words[g->adj[k]];
        if (q.key[v] > maxkey)
            maxkey = q.key[v];
    }
    q.head = malloc(((size_t)maxkey + 1) * sizeof(int32_t));
    if (!q.head)
        goto fail;
    for (uint32_t k = 0; k <= maxkey; k++)
        q.head[k] = -1;
    for (uint32_t i = n; i-- > 0;)
        bucket_insert(&q, nodes[i]);
    uint32_t cur = 0;
    for (uint32_t removed = 0; removed < n; removed++) {
        while (q.head[cur] < 0)
            cur++;
        uint32_t v = (uint32_t)q.head[cur];
        bucket_remove(&q, v);
        placed[v] = 1;
        order[n - 1 - removed] = v;
        for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++) {
            uint32_t x = g->adj[k];
            if (placed[x])
                continue;
            bucket_remove(&q, x);
            q.key[x] -= lv->words[v];
            bucket_insert(&q, x);
            if (q.key[x] < cur)
                cur = q.key[x];
        }
    }
    free(q.head), free(q.next), free(q.prev), free(q.key);
    return 0;
fail:
    free(q.head), free(q.next), free(q.prev), free(q.key);
    return -1;
}
/* }==== */

/* {==== Coloring ==== */
static uint32_t color_greedy(const struct graph *g, const uint8_t *words, const uint32_t *order,
                             uint32_t n, int32_t reserved, int32_t *color, uint64_t *forb)
{
    uint32_t span = reserved >= 0 ? (uint32_t)reserved + 1 : 0;
    for (uint32_t i = 0; i < n; i++)
        color[order[i]] = -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = order[i], w = words[v];
        for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++) {
            int32_t c = color[g->adj[k]];
            for (uint32_t j = 0; c >= 0 && j < words[g->adj[k]]; j++)
                bit_set64(forb, (uint32_t)c + j);
        }
        if (reserved >= 0)
            bit_set64(forb, (uint32_t)reserved);
        uint32_t base = 0;
        for (;; base += w) {
            uint32_t j = 0;
            while (j < w && !bit_test64(forb, base + j))
                j++;
            if (j == w)
                break;
        }
        color[v] = (int32_t)base;
        if (base + w > span)
            span = base + w;
        for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++) { /* clear what was set */
            int32_t c = color[g->adj[k]];
            for (uint32_t j = 0; c >= 0 && j < words[g->adj[k]]; j++)
                forb[((uint32_t)c + j) >> 6] = 0;
        }
        if (reserved >= 0)
            forb[(uint32_t)reserved >> 6] = 0;
    }
    return span;
}

/* Interval coloring, for graphs above HD_RA_MAX_PAIRS. */
static void hull_one(uint32_t r, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    lo[r] = pc < lo[r] ? pc : lo[r];
    hi[r] = pc > hi[r] || hi[r] == UINT32_MAX ? pc : hi[r];
}

/* One live row at pc, against the previous row of the same kind (prev, updated): the words of
 * whole-range registers it holds (*words, kept incrementally from the bits that changed) and
 * the first PC of each register not seen before (`seen`, updated). Word operations plus the
 * changed bits: O(stride) per PC for code whose live set changes little per instruction. */
static void hull_row(const struct hd_ra_ctx *x, enum hd_rclass c, const uint64_t *row,
                     uint64_t *prev, uint64_t *seen, uint32_t pc, uint32_t *lo, int64_t *words)
{
    const struct hd_liveness *lv = x->lv;
    for (uint32_t w = 0; w < lv->stride[c]; w++) {
        for (uint64_t b = row[w] ^ prev[w]; b; b &= b - 1) {
            uint32_t bit = (uint32_t)__builtin_ctzll(b);
            uint32_t r = lv->reg_of[c][(w << 6) | bit];
            if (x->kind[r] == HD_RA_REG)
                *words += (row[w] >> bit & 1) ? lv->words[r] : -(int64_t)lv->words[r];
        }
        prev[w] = row[w];
        for (uint64_t b = row[w] & ~seen[w]; b; b &= b - 1) {
            uint32_t r = lv->reg_of[c][(w << 6) | (uint32_t)__builtin_ctzll(b)];
            if (x->kind[r] == HD_RA_REG && pc < lo[r]) /* hi: from the backward pass */
                lo[r] = pc;
        }
        seen[w] |= row[w];
    }
}

/* The last PC of each register in a row not seen yet in the backward pass. */
static void hull_row_back(const struct hd_ra_ctx *x, enum hd_rclass c, const uint64_t *row,
                          uint64_t *seen, uint32_t pc, uint32_t *hi)
{
    const struct hd_liveness *lv = x->lv;
    for (uint32_t w = 0; w < lv->stride[c]; w++) {
        for (uint64_t b = row[w] & ~seen[w]; b; b &= b - 1) {
            uint32_t r = lv->reg_of[c][(w << 6) | (uint32_t)__builtin_ctzll(b)];
            if (x->kind[r] == HD_RA_REG && (hi[r] == UINT32_MAX || pc > hi[r]))
                hi[r] = pc;
        }
        seen[w] |= row[w];
    }
}

/* Each register's hull [lo, hi] (UINT32_MAX: none) and the pressure bound *max_words.
 * Returns 0, or -1 when out of memory. */
static int hulls(const struct hd_ra_ctx *x, enum hd_rclass c, uint32_t *lo, uint32_t *hi,
                 uint32_t *max_words)
{
    const struct hd_liveness *lv = x->lv;
    size_t st = lv->stride[c] ? lv->stride[c] : 1;
    uint64_t *buf = calloc(3 * st, sizeof(uint64_t));
    if (!buf)
        return -1;
    uint64_t *prev_in = buf, *prev_out = buf + st, *seen = buf + 2 * st;
    int64_t win = 0, wout = 0;
    *max_words = 0;
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
        uint32_t nd;
        hull_row(x, c, hd_liveness_out_row(lv, pc, c), prev_out, seen, pc, lo, &wout);
        hull_row(x, c, hd_liveness_in_row(lv, pc, c), prev_in, seen, pc, lo, &win);
        int64_t wo = wout;
        const int32_t *d = hd_liveness_defs(lv, pc, &nd);
        for (uint32_t k = 0; k < nd; k++) {
            uint32_t v = (uint32_t)d[k];
            if (lv->rclass[v] != c || x->kind[v] != HD_RA_REG)
                continue;
            bool dup = false;
            for (uint32_t j = 0; j < k; j++)
                dup |= d[j] == d[k];
            if (!dup && !hd_liveness_live_out(lv, pc, v))
                wo += lv->words[v]; /* a dead write still lands somewhere */
            hull_one(v, pc, lo, hi);
        }
        const uint32_t *rd = x->rr_regs + x->rr_off[pc];
        for (uint32_t k = 0; k < x->rr_off[pc + 1] - x->rr_off[pc]; k++)
            if (lv->rclass[rd[k]] == c)
                hull_one(rd[k], pc, lo, hi);
        *max_words = wo > (int64_t)*max_words ? (uint32_t)wo : *max_words;
        *max_words = win > (int64_t)*max_words ? (uint32_t)win : *max_words;
    }
    memset(seen, 0, st * sizeof(uint64_t));
    for (uint32_t pc = lv->ninstrs; pc-- > 0;) {
        hull_row_back(x, c, hd_liveness_out_row(lv, pc, c), seen, pc, hi);
        hull_row_back(x, c, hd_liveness_in_row(lv, pc, c), seen, pc, hi);
    }
    free(buf);
    return 0;
}

/* Color the n nodes (of `nodes`) by a sweep over their hulls; returns the span or -1. */
static int64_t color_intervals(const struct hd_ra_ctx *x, enum hd_rclass c, const uint32_t *nodes,
                               uint32_t n, uint32_t total, int32_t reserved, int32_t *color,
                               uint32_t *max_words)
{
    const struct hd_liveness *lv = x->lv;
    size_t nr = lv->nregs ? lv->nregs : 1, ni = (size_t)lv->ninstrs + 1;
    uint32_t *lo = malloc(nr * sizeof(uint32_t)), *hi = malloc(nr * sizeof(uint32_t));
    uint32_t *start = calloc(ni + 1, sizeof(uint32_t)), *by_start = malloc((n ? n : 1) * 4u);
    uint32_t *end = calloc(ni + 1, sizeof(uint32_t)), *by_end = malloc((n ? n : 1) * 4u);
    size_t nw = ((size_t)4 * total + (reserved >= 0 ? (size_t)reserved : 0) + 72) / 64;
    uint64_t *used = calloc(nw, sizeof(uint64_t));
    int64_t span = -1;
    if (!lo || !hi || !start || !by_start || !end || !by_end || !used)
        goto done;
    for (size_t r = 0; r < nr; r++)
        lo[r] = hi[r] = UINT32_MAX;
    if (hulls(x, c, lo, hi, max_words) != 0)
        goto done;
    for (uint32_t i = 0; i < n; i++) { /* a node never live (no PC) gets PC 0 */
        uint32_t v = nodes[i];
        if (lo[v] == UINT32_MAX)
            lo[v] = hi[v] = 0;
        start[lo[v] + 1]++, end[hi[v] + 1]++;
    }
    for (size_t k = 0; k < ni; k++)
        start[k + 1] += start[k], end[k + 1] += end[k];
    for (uint32_t i = 0; i < n; i++) { /* counting sort by start and by end */
        by_start[start[lo[nodes[i]]]++] = nodes[i];
        by_end[end[hi[nodes[i]]]++] = nodes[i];
    }
    if (reserved >= 0)
        bit_set64(used, (uint32_t)reserved);
    uint32_t s = 0, e = 0, top = reserved >= 0 ? (uint32_t)reserved + 1 : 0;
    for (uint32_t pc = 0; pc < lv->ninstrs && s < n; pc++) {
        for (; e < n && hi[by_end[e]] < pc; e++) { /* release hulls that ended */
            uint32_t v = by_end[e];
            for (uint32_t j = 0; j < lv->words[v]; j++)
                used[((uint32_t)color[v] + j) >> 6] &= ~(1ull << (((uint32_t)color[v] + j) & 63));
        }
        for (; s < n && lo[by_start[s]] == pc; s++) {
            uint32_t v = by_start[s], w = lv->words[v], base = 0;
            for (;; base += w) {
                if (used[base >> 6] == ~0ull && w <= 64) { /* a full word: skip it */
                    base = ((base >> 6) + 1) * 64 - w;
                    continue;
                }
                uint32_t j = 0;
                while (j < w && !bit_test64(used, base + j))
                    j++;
                if (j == w)
                    break;
            }
            color[v] = (int32_t)base;
            for (uint32_t j = 0; j < w; j++)
                bit_set64(used, base + j);
            top = base + w > top ? base + w : top;
        }
    }
    span = top;
done:
    free(lo), free(hi), free(start), free(by_start), free(end), free(by_end), free(used);
    return span;
}

int64_t hd_ra_color_class(const struct hd_ra_ctx *x, enum hd_rclass c, int32_t reserved,
                          int32_t *color, uint32_t *max_words)
{
    const struct hd_liveness *lv = x->lv;
    struct graph g = { 0 };
    uint32_t nr = lv->nregs ? lv->nregs : 1, n = 0, total = 0;
    uint32_t *oa = malloc(nr * sizeof(uint32_t)), *ob = calloc(nr, sizeof(uint32_t));
    int32_t *cb = malloc(nr * sizeof(int32_t));
    uint8_t *placed = malloc(nr);
    uint64_t *forb = NULL;
    int64_t span = -1;
    int built = -1;
    if (!oa || !ob || !cb || !placed || (built = graph_build(x, c, &g, max_words)) < 0)
        goto done;
    n = order_dominance(x, c, oa, placed);
    for (uint32_t i = 0; i < n; i++)
        total += lv->words[oa[i]];
    if (built == 1) { /* too many edges: interval coloring, linear memory */
        span = color_intervals(x, c, oa, n, total, reserved, color, max_words);
        goto done;
    }
    /* a free aligned slot always exists below 4 x (all words + 1) + the reserved register */
    forb = calloc(((size_t)4 * total + (reserved >= 0 ? (size_t)reserved : 0) + 72) / 64,
                  sizeof(uint64_t));
    if (!forb || order_smallest_last(&g, lv, oa, n, ob, placed))
        goto done;
    uint32_t sa = color_greedy(&g, lv->words, oa, n, reserved, color, forb);
    uint32_t sb = color_greedy(&g, lv->words, ob, n, reserved, cb, forb);
    if (sb < sa)
        for (uint32_t i = 0; i < n; i++)
            color[oa[i]] = cb[oa[i]];
    span = sb < sa ? sb : sa;
done:
    graph_free(&g);
    free(oa), free(ob), free(cb), free(placed), free(forb);
    return span;
}
/* }==== */
