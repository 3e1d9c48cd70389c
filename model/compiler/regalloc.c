/* SPDX-License-Identifier: MIT
 * regalloc.c - register allocation of PTX virtual registers (see regalloc.h for the model).
 *
 * Per register class (data, predicate): classify every register (none / whole-range register /
 * constant read in place), build the interference graph as adjacency arrays (two passes over the
 * per-PC live rows: count, then fill; duplicates removed per node), then color it greedily in two
 * orders (dominance order, smallest-last) and keep the result with the smaller span; ties keep
 * the dominance order. Data colors are physical register numbers (the stack pointer is never
 * handed out), so no renumbering follows.
 */
#include "regalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"

static inline void bit_set64(uint64_t *r, uint32_t i) { r[i >> 6] |= 1ull << (i & 63); }
static inline bool bit_test64(const uint64_t *r, uint32_t i) { return (r[i >> 6] >> (i & 63)) & 1u; }

/* {==== Parameters ==== */
void hd_regalloc_params_default(struct hd_regalloc_params *p)
{
    p->max_regs = 255;
    p->sp_reg = 1;
    p->abi_regs = 2;
    p->pred_regs = 7;
    p->remat = true;
}
/* }==== */

/* {==== Classification ==== */
static bool constant_sreg(uint8_t s)
{
    return s == HD_SREG_NTID || s == HD_SREG_NCTAID || s == HD_SREG_DYNAMIC_SMEM_SIZE ||
           s == HD_SREG_TOTAL_SMEM_SIZE;
}

/* Does instruction `in` produce a constant? *src is set to the one register it copies, or -1. */
static bool makes_constant(const struct hd_func *f, const struct hd_instr *in, int32_t *src)
{
    *src = -1;
    if (in->guard >= 0 || in->nopnds != 2)
        return false;
    const struct hd_operand *s = &in->opnd[1];
    switch ((enum hd_op)in->op) {
    case HD_OP_MOV:
        if (in->opnd[0].kind != HD_OPND_REG)
            return false;
        if (s->kind == HD_OPND_IMM_INT || s->kind == HD_OPND_IMM_F32 ||
            s->kind == HD_OPND_IMM_F64 || s->kind == HD_OPND_SYMBOL)
            return true;
        if (s->kind == HD_OPND_SPECIAL)
            return constant_sreg(s->sreg);
        if (s->kind == HD_OPND_REG) {
            *src = s->reg;
            return true;
        }
        return false;
    case HD_OP_LD:
        /* a kernel's parameters sit in the constant bank; a .func's do not */
        return f->is_entry && in->space == HD_SPACE_PARAM && s->kind == HD_OPND_ADDR && s->reg < 0;
    case HD_OP_CVTA:
        /* generic and global addresses coincide: cvta(.to).global is a copy */
        if (in->space != HD_SPACE_GLOBAL || in->opnd[0].kind != HD_OPND_REG)
            return false;
        if (s->kind == HD_OPND_SYMBOL)
            return true;
        if (s->kind == HD_OPND_REG) {
            *src = s->reg;
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* kinds[] from the def/use lists; returns -1 on allocation failure. */
static int classify(const struct hd_func *f, const struct hd_liveness *lv, bool remat,
                    uint8_t *kind)
{
    uint32_t n = lv->nregs;
    uint8_t *used = calloc(n ? n : 1, 1), *cand = calloc(n ? n : 1, 1);
    uint32_t *ndef = calloc(n ? n : 1, sizeof(uint32_t));
    if (!used || !cand || !ndef) {
        free(used), free(cand), free(ndef);
        return -1;
    }
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
        uint32_t nd, nu;
        const int32_t *d = hd_liveness_defs(lv, pc, &nd), *u = hd_liveness_uses(lv, pc, &nu);
        for (uint32_t k = 0; k < nu; k++)
            used[u[k]] = 1;
        for (uint32_t k = 0; k < nd; k++)
            ndef[d[k]]++, cand[d[k]] = remat && lv->rclass[d[k]] == HD_RC_DATA;
    }
    for (uint32_t r = 0; r < n; r++) /* written once: one constant (two writes may differ) */
        if (ndef[r] != 1)
            cand[r] = 0;
    for (bool changed = true; changed;) { /* drop candidates with a non-constant write */
        changed = false;
        for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
            uint32_t nd;
            const int32_t *d = hd_liveness_defs(lv, pc, &nd);
            for (uint32_t k = 0; k < nd; k++) {
                int32_t src;
                if (!cand[d[k]])
                    continue;
                if (!makes_constant(f, &f->instrs[pc], &src) || (src >= 0 && !cand[src]) ||
                    src == d[k]) {
                    cand[d[k]] = 0;
                    changed = true;
                }
            }
        }
    }
    for (uint32_t r = 0; r < n; r++) {
        if (!hd_liveness_tracked(lv, r) || !used[r])
            kind[r] = HD_RA_NONE;
        else if (ndef[r] == 0 || cand[r])
            kind[r] = HD_RA_REMAT;
        else
            kind[r] = HD_RA_REG;
    }
    free(used), free(cand), free(ndef);
    return 0;
}
/* }==== */

/* {==== Where constants need a register ==== */
_Static_assert(HD_RA_MAX_READS >= HD_DEFUSE_MAX_USES, "room for every read of one instruction");
static bool memory_op(uint16_t op)
{
    return op == HD_OP_LD || op == HD_OP_LDU || op == HD_OP_ST || op == HD_OP_ATOM ||
           op == HD_OP_RED || op == HD_OP_PREFETCH || op == HD_OP_CALL;
}

unsigned hd_regalloc_remat_reads(const struct hd_func *f, const struct hd_liveness *lv,
                                 const uint8_t *kind, uint32_t pc, uint32_t *regs)
{
    struct hd_defuse du;
    hd_defuse_get(f, pc, &du);
    bool slot = !memory_op(f->instrs[pc].op); /* one constant operand is free */
    unsigned n = 0;
    for (unsigned k = 0; k < du.nuses; k++) {
        uint32_t v = (uint32_t)du.uses[k];
        bool seen = false;
        for (unsigned j = 0; j < k; j++)
            seen |= du.uses[j] == du.uses[k];
        if (seen || kind[v] != HD_RA_REMAT)
            continue;
        if (slot && lv->rclass[v] == HD_RC_DATA && du.use_opnd[k] != HD_DEFUSE_GUARD &&
            f->instrs[pc].opnd[du.use_opnd[k]].kind != HD_OPND_ADDR) {
            slot = false;
            continue;
        }
        regs[n++] = v;
    }
    return n;
}
/* }==== */

/* {==== Interference graph ==== */
struct graph {
    uint32_t n;       /* nodes = register indices */
    uint32_t *off;    /* [n + 1] */
    uint32_t *adj;
    uint32_t *fill;   /* [n] fill cursor (pass 2), then duplicate stamps */
    bool counting;
    const struct hd_func *f;
};

static void edge(struct graph *g, uint32_t a, uint32_t b)
{
    if (a == b)
        return;
    if (g->counting) {
        g->off[a + 1]++, g->off[b + 1]++;
    } else {
        g->adj[g->fill[a]++] = b;
        g->adj[g->fill[b]++] = a;
    }
}

/* One pass over every PC of class c: writes vs live-after, constants read together vs live-before. */
static void edges_pass(struct graph *g, const struct hd_liveness *lv, const uint8_t *kind,
                       enum hd_rclass c)
{
    uint32_t st = lv->stride[c];
    uint32_t rd[HD_RA_MAX_READS];
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
        uint32_t nd, nr = 0;
        const int32_t *d = hd_liveness_defs(lv, pc, &nd);
        const uint64_t *out = hd_liveness_out_row(lv, pc, c);
        for (uint32_t k = 0; k < nd; k++) {
            uint32_t v = (uint32_t)d[k];
            if (lv->rclass[v] != c || kind[v] != HD_RA_REG)
                continue;
            for (uint32_t w = 0; w < st; w++)
                for (uint64_t x = out[w]; x; x &= x - 1) {
                    uint32_t r = lv->reg_of[c][(w << 6) | (uint32_t)__builtin_ctzll(x)];
                    if (kind[r] == HD_RA_REG)
                        edge(g, v, r);
                }
            for (uint32_t j = 0; j < k; j++)
                if (kind[d[j]] == HD_RA_REG && lv->rclass[d[j]] == c)
                    edge(g, v, (uint32_t)d[j]);
        }
        uint32_t all[HD_RA_MAX_READS];
        uint32_t na = hd_regalloc_remat_reads(g->f, lv, kind, pc, all);
        for (uint32_t k = 0; k < na; k++)
            if (lv->rclass[all[k]] == c)
                rd[nr++] = all[k];
        if (!nr)
            continue;
        const uint64_t *in = hd_liveness_in_row(lv, pc, c);
        for (uint32_t k = 0; k < nr; k++) {
            for (uint32_t w = 0; w < st; w++)
                for (uint64_t x = in[w]; x; x &= x - 1) {
                    uint32_t r = lv->reg_of[c][(w << 6) | (uint32_t)__builtin_ctzll(x)];
                    if (kind[r] == HD_RA_REG)
                        edge(g, rd[k], r);
                }
            for (uint32_t j = 0; j < k; j++)
                edge(g, rd[k], rd[j]);
        }
    }
}

static void graph_free(struct graph *g)
{
    free(g->off), free(g->adj), free(g->fill);
}

static int graph_build(struct graph *g, const struct hd_liveness *lv, const uint8_t *kind,
                       enum hd_rclass c)
{
    memset(g, 0, sizeof(*g));
    g->n = lv->nregs;
    g->f = lv->func;
    g->off = calloc(g->n + 1, sizeof(uint32_t));
    g->fill = calloc(g->n ? g->n : 1, sizeof(uint32_t));
    if (!g->off || !g->fill)
        return -1;
    g->counting = true;
    edges_pass(g, lv, kind, c);
    for (uint32_t i = 0; i < g->n; i++)
        g->off[i + 1] += g->off[i];
    g->adj = malloc((g->off[g->n] ? g->off[g->n] : 1) * sizeof(uint32_t));
    if (!g->adj)
        return -1;
    memcpy(g->fill, g->off, g->n * sizeof(uint32_t));
    g->counting = false;
    edges_pass(g, lv, kind, c);
    /* drop duplicate neighbours (first occurrence kept), compacting in place; fill[] is reused
     * as the "last seen from node" stamp */
    uint32_t at = 0;
    for (uint32_t i = 0; i < g->n; i++)
        g->fill[i] = UINT32_MAX;
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t b = g->off[i], e = g->off[i + 1];
        g->off[i] = at;
        for (uint32_t k = b; k < e; k++) {
            uint32_t x = g->adj[k];
            if (g->fill[x] != i)
                g->fill[x] = i, g->adj[at++] = x;
        }
    }
    g->off[g->n] = at;
    return 0;
}
/* }==== */

/* {==== Coloring orders ==== */
/* Dominance order: blocks in reverse post-order, registers at their first write (constants at
 * their first read into a register; a constant never read into one gets no register). */
static uint32_t order_dominance(const struct hd_liveness *lv, const uint8_t *kind, enum hd_rclass c,
                                uint32_t *order, uint8_t *placed)
{
    uint32_t n = 0;
    memset(placed, 0, lv->nregs);
    for (uint32_t i = 0; i < lv->nblocks; i++) {
        const struct hd_block *blk = &lv->cfg->blocks[lv->rpo[i]];
        for (uint32_t pc = blk->first; pc <= blk->last; pc++) {
            uint32_t nd, rd[HD_RA_MAX_READS];
            const int32_t *d = hd_liveness_defs(lv, pc, &nd);
            uint32_t nr = hd_regalloc_remat_reads(lv->func, lv, kind, pc, rd);
            for (uint32_t k = 0; k < nd + nr; k++) {
                uint32_t v = k < nd ? (uint32_t)d[k] : rd[k - nd];
                uint8_t want = k < nd ? HD_RA_REG : HD_RA_REMAT;
                if (lv->rclass[v] == c && kind[v] == want && !placed[v])
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

/* Allocate one class: fills color[] for its REG/REMAT registers; returns the span or -1. */
static int64_t allocate_class(const struct hd_liveness *lv, const uint8_t *kind, enum hd_rclass c,
                              int32_t reserved, int32_t *color)
{
    struct graph g = { 0 };
    uint32_t nr = lv->nregs ? lv->nregs : 1, n = 0, total = 0;
    uint32_t *oa = malloc(nr * sizeof(uint32_t)), *ob = calloc(nr, sizeof(uint32_t));
    int32_t *cb = malloc(nr * sizeof(int32_t));
    uint8_t *placed = malloc(nr);
    uint64_t *forb = NULL;
    int64_t span = -1;
    if (!oa || !ob || !cb || !placed || graph_build(&g, lv, kind, c))
        goto done;
    n = order_dominance(lv, kind, c, oa, placed);
    for (uint32_t i = 0; i < n; i++)
        total += lv->words[oa[i]];
    /* a free aligned slot always exists below 4 x (all words) + the reserved register + 4 */
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

/* {==== Result ==== */
static uint32_t max_live(const struct hd_liveness *lv, const uint8_t *kind)
{
    uint32_t best = 0, st = lv->stride[HD_RC_DATA];
    for (uint32_t pc = 0; pc < lv->ninstrs; pc++) {
        for (int side = 0; side < 2; side++) {
            const uint64_t *row = side ? hd_liveness_out_row(lv, pc, HD_RC_DATA)
                                       : hd_liveness_in_row(lv, pc, HD_RC_DATA);
            uint32_t sum = 0;
            for (uint32_t w = 0; w < st; w++)
                for (uint64_t x = row[w]; x; x &= x - 1) {
                    uint32_t r = lv->reg_of[HD_RC_DATA][(w << 6) | (uint32_t)__builtin_ctzll(x)];
                    sum += kind[r] == HD_RA_REG ? lv->words[r] : 0;
                }
            if (side) { /* plus registers written here and dead afterwards */
                uint32_t nd;
                const int32_t *d = hd_liveness_defs(lv, pc, &nd);
                for (uint32_t k = 0; k < nd; k++) {
                    bool dup = false;
                    for (uint32_t j = 0; j < k; j++)
                        dup |= d[j] == d[k];
                    if (!dup && kind[d[k]] == HD_RA_REG && lv->rclass[d[k]] == HD_RC_DATA &&
                        !hd_liveness_live_out(lv, pc, (uint32_t)d[k]))
                        sum += lv->words[d[k]];
                }
            }
            if (sum > best)
                best = sum;
        }
    }
    return best;
}

void hd_regalloc_free(struct hd_regalloc *ra)
{
    if (!ra)
        return;
    free(ra->phys_of), free(ra->kind), free(ra->calls);
    ra->phys_of = NULL, ra->kind = NULL, ra->calls = NULL;
    ra->ncalls = 0;
}

static void finish(const struct hd_func *f, const struct hd_liveness *lv, struct hd_regalloc *ra,
                   const int32_t *color)
{
    const struct hd_regalloc_params *p = &ra->params;
    uint32_t limit = p->max_regs;
    if (f->maxnreg && f->maxnreg < limit)
        limit = f->maxnreg;
    uint32_t budget = limit > p->abi_regs + 1 ? limit - p->abi_regs : 1;
    ra->gpr_span = p->sp_reg >= 0 ? (uint32_t)p->sp_reg + 1 : 0;
    uint32_t pspan = 0;
    for (uint32_t r = 0; r < lv->nregs; r++) {
        ra->phys_of[r] = -1;
        if (ra->kind[r] == HD_RA_NONE || color[r] < 0) /* constants read only as operands */
            continue;
        uint32_t end = (uint32_t)color[r] + lv->words[r];
        if (lv->rclass[r] == HD_RC_PRED) {
            if ((uint32_t)color[r] >= p->pred_regs) {
                ra->kind[r] = HD_RA_SPILLED;
                ra->pred_spills++;
                continue;
            }
            if (end > pspan)
                pspan = end;
        } else if (end > budget) {
            ra->kind[r] = HD_RA_SPILLED;
            ra->spill_words += lv->words[r];
            continue;
        } else if (end > ra->gpr_span) {
            ra->gpr_span = end;
        }
        ra->phys_of[r] = color[r];
    }
    ra->pred_regs = pspan;
    ra->pred_spill_reg = -1;
    if (ra->pred_spills && ra->gpr_span < budget)
        ra->pred_spill_reg = (int32_t)ra->gpr_span++;
    ra->regs_per_thread = ra->gpr_span + p->abi_regs;
}

static int record_calls(const struct hd_func *f, const struct hd_liveness *lv,
                        struct hd_regalloc *ra)
{
    uint32_t n = 0, st = lv->stride[HD_RC_DATA];
    for (uint32_t pc = 0; pc < f->ninstrs; pc++)
        n += f->instrs[pc].op == HD_OP_CALL;
    ra->regs_with_callees = ra->regs_per_thread;
    if (!n)
        return 0;
    ra->calls = calloc(n, sizeof(*ra->calls));
    if (!ra->calls)
        return -1;
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        const struct hd_instr *in = &f->instrs[pc];
        if (in->op != HD_OP_CALL)
            continue;
        struct hd_ra_call *c = &ra->calls[ra->ncalls++];
        c->pc = pc;
        c->callee = in->nopnds >= 1 && in->opnd[0].kind == HD_OPND_FUNC ? in->opnd[0].symbol : -1;
        const uint64_t *li = hd_liveness_in_row(lv, pc, HD_RC_DATA);
        const uint64_t *lo = hd_liveness_out_row(lv, pc, HD_RC_DATA);
        for (uint32_t w = 0; w < st; w++)
            for (uint64_t x = li[w] & lo[w]; x; x &= x - 1) {
                uint32_t r = lv->reg_of[HD_RC_DATA][(w << 6) | (uint32_t)__builtin_ctzll(x)];
                c->live_words += ra->kind[r] == HD_RA_REG ? lv->words[r] : 0;
            }
    }
    return 0;
}

int hd_regalloc_run(const struct hd_func *f, const struct hd_cfg *cfg, const struct hd_liveness *lv,
                    const struct hd_regalloc_params *params, struct hd_regalloc *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (params)
        out->params = *params;
    else
        hd_regalloc_params_default(&out->params);
    if (errlen)
        err[0] = '\0';
    if (lv->func != f || lv->cfg != cfg) {
        snprintf(err, errlen, "%s: regalloc: liveness was built for another function or CFG",
                 f->name ? f->name : "?");
        return -1;
    }
    size_t nr = lv->nregs ? lv->nregs : 1;
    out->nregs = lv->nregs;
    out->phys_of = malloc(nr * sizeof(int32_t));
    out->kind = calloc(nr, 1);
    int32_t *color = malloc(nr * sizeof(int32_t));
    int rc = -1;
    for (size_t r = 0; color && r < nr; r++)
        color[r] = -1;
    if (out->phys_of && out->kind && color &&
        !classify(f, lv, out->params.remat, out->kind) &&
        allocate_class(lv, out->kind, HD_RC_DATA, out->params.sp_reg, color) >= 0 &&
        allocate_class(lv, out->kind, HD_RC_PRED, -1, color) >= 0) {
        out->max_live_words = max_live(lv, out->kind);
        out->max_live_preds = lv->max_preds;
        finish(f, lv, out, color);
        rc = record_calls(f, lv, out);
    }
    free(color);
    if (rc) {
        hd_regalloc_free(out);
        snprintf(err, errlen, "%s: regalloc: out of memory", f->name ? f->name : "?");
    }
    return rc;
}

/* Registers a function needs including its callees (without the ABI extra). state: 0 new,
 * 1 on the current call path (recursion), 2 done (memo). */
static uint32_t demand(const struct hd_module *m, const struct hd_regalloc *ra, uint32_t fi,
                       uint8_t *state, uint32_t *memo)
{
    if (state[fi] == 2)
        return memo[fi];
    if (state[fi] == 1)
        return ra[fi].gpr_span;
    state[fi] = 1;
    uint32_t d = ra[fi].gpr_span;
    for (uint32_t k = 0; k < ra[fi].ncalls; k++) {
        int32_t c = ra[fi].calls[k].callee;
        if (c < 0 || (uint32_t)c >= m->nfuncs || state[c] == 1) /* recursion: frames on stack */
            continue;
        uint32_t x = ra[fi].calls[k].live_words + demand(m, ra, (uint32_t)c, state, memo);
        if (x > d)
            d = x;
    }
    state[fi] = 2;
    memo[fi] = d;
    return d;
}

void hd_regalloc_link(const struct hd_module *m, struct hd_regalloc *ra)
{
    uint8_t *state = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    uint32_t *memo = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(uint32_t));
    for (uint32_t fi = 0; state && memo && fi < m->nfuncs; fi++) {
        const struct hd_regalloc_params *p = &ra[fi].params;
        uint32_t limit = p->max_regs;
        if (m->funcs[fi].maxnreg && m->funcs[fi].maxnreg < limit)
            limit = m->funcs[fi].maxnreg;
        uint32_t total = demand(m, ra, fi, state, memo) + p->abi_regs;
        if (total > limit && limit > ra[fi].regs_per_thread)
            total = limit;
        ra[fi].regs_with_callees = total > ra[fi].regs_per_thread ? total : ra[fi].regs_per_thread;
    }
    free(state), free(memo);
}

void hd_regalloc_phys_live(const struct hd_regalloc *ra, const struct hd_liveness *lv, uint32_t pc,
                           bool divergent, uint64_t out[4])
{
    uint32_t st = lv->stride[HD_RC_DATA];
    uint64_t stackbuf[64], *row = stackbuf;
    const uint64_t *src = hd_liveness_in_row(lv, pc, HD_RC_DATA);
    memset(out, 0, 4 * sizeof(uint64_t));
    if (divergent) {
        if (st > 64 && !(row = malloc(st * sizeof(uint64_t))))
            row = NULL;
        if (row) {
            hd_liveness_divergent_row(lv, pc, HD_RC_DATA, row);
            src = row;
        }
    }
    for (uint32_t w = 0; w < st; w++)
        for (uint64_t x = src[w]; x; x &= x - 1) {
            uint32_t r = lv->reg_of[HD_RC_DATA][(w << 6) | (uint32_t)__builtin_ctzll(x)];
            if (ra->kind[r] != HD_RA_REG)
                continue;
            for (uint32_t j = 0; j < lv->words[r]; j++) {
                uint32_t p = (uint32_t)ra->phys_of[r] + j;
                if (p < 256)
                    out[p >> 6] |= 1ull << (p & 63);
            }
        }
    if (row && row != stackbuf)
        free(row);
}
/* }==== */
