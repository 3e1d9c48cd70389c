/* SPDX-License-Identifier: MIT
 * cfg.c - basic blocks, edges, dominator and post-dominator trees, and the reconvergence PC of
 * every branch (the first instruction of the branch block's immediate post-dominator).
 *
 * Design: blocks are found from leaders (instruction 0, branch targets, and the instruction after
 * a bra/brx/exit/ret/trap). A guarded exit/ret/trap ends its block but also falls through; an
 * unguarded one only reaches the virtual EXIT node, as does falling off the end of the function.
 * For a branch block, succ[0] is the taken target and succ[1] (if any) the fall-through.
 * Dominators and post-dominators both use Cooper, Harvey and Kennedy's iterative algorithm ("A
 * Simple, Fast Dominance Algorithm", 2001) over a compact (CSR) graph: the forward CFG rooted at
 * block 0, and the reverse CFG rooted at EXIT (node id nblocks). Blocks that cannot reach EXIT
 * (infinite loops) get a virtual edge to EXIT from the highest-numbered such block, repeatedly,
 * so every block has a post-dominator. Blocks unreachable from the entry have idom -1 but still
 * get post-dominators (they are computed on the reverse graph). Dominance queries are O(1) using
 * pre/post DFS numbers of each tree.
 */
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

#define UNDEF UINT32_MAX

struct cfg_impl {
    struct hd_cfg pub;            /* first: the public pointer is this struct's address */
    uint32_t *edge_pool;          /* succ/pred lists of every block */
    uint32_t *dom_in, *dom_out;   /* [nblocks]: DFS interval in the dominator tree */
    uint32_t *pdom_in, *pdom_out; /* [nblocks + 1]: same in the post-dominator tree (EXIT last) */
};

/* {==== Block discovery ==== */
static bool ends_block(const struct hd_instr *in)
{
    switch (in->op) {
    case HD_OP_BRA:
    case HD_OP_BRX:
    case HD_OP_EXIT:
    case HD_OP_RET:
    case HD_OP_TRAP:
        return true;
    default:
        return false;
    }
}

static bool is_branch(const struct hd_instr *in)
{
    return in->op == HD_OP_BRA || in->op == HD_OP_BRX;
}

/* Label targets of a branch, in operand order. Returns the count (at most `cap`); out-of-range
 * targets are reported as ninstrs (i.e. "leaves the function"). */
static uint32_t branch_targets(const struct hd_instr *in, uint32_t ninstrs, uint32_t *out,
                               uint32_t cap)
{
    uint32_t n = 0;
    for (unsigned k = 0; k < in->nopnds && k < HD_MAX_OPERANDS && n < cap; k++) {
        const struct hd_operand *o = &in->opnd[k];
        if (o->kind != HD_OPND_LABEL)
            continue;
        out[n++] = (o->imm >= 0 && o->imm < (int64_t)ninstrs) ? (uint32_t)o->imm : ninstrs;
    }
    return n;
}

static int find_blocks(struct hd_cfg *cfg)
{
    const struct hd_func *f = cfg->func;
    uint32_t n = f->ninstrs;
    bool *leader = calloc(n, sizeof *leader);
    if (!leader)
        return -1;
    leader[0] = true;
    for (uint32_t i = 0; i < n; i++) {
        const struct hd_instr *in = &f->instrs[i];
        if (is_branch(in)) {
            uint32_t t[HD_MAX_OPERANDS];
            uint32_t nt = branch_targets(in, n, t, HD_MAX_OPERANDS);
            for (uint32_t k = 0; k < nt; k++)
                if (t[k] < n)
                    leader[t[k]] = true;
        }
        if (ends_block(in) && i + 1 < n)
            leader[i + 1] = true;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    cfg->blocks = calloc(nb, sizeof *cfg->blocks);
    if (!cfg->blocks) {
        free(leader);
        return -1;
    }
    cfg->nblocks = nb;
    uint32_t b = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i]) {
            b++;
            cfg->blocks[b].first = i;
            cfg->blocks[b].idom = -1;
            cfg->blocks[b].ipdom = -1;
        }
        cfg->blocks[b].last = i;
        cfg->block_of[i] = b;
    }
    free(leader);
    return 0;
}
/* }==== */

/* {==== Edges ==== */
/* Successor instruction indices of block b (ninstrs = EXIT); returns the count. */
static uint32_t block_exits(const struct hd_cfg *cfg, uint32_t b, uint32_t *out, uint32_t cap)
{
    const struct hd_func *f = cfg->func;
    const struct hd_block *blk = &cfg->blocks[b];
    const struct hd_instr *in = &f->instrs[blk->last];
    uint32_t n = 0, fall = blk->last + 1; /* == ninstrs when falling off the end */
    if (is_branch(in)) {
        n = branch_targets(in, f->ninstrs, out, cap - 1);
        if (n == 0)                   /* an indirect branch without a label list: */
            out[n++] = f->ninstrs;    /* nothing is known, so it leaves the function */
        if (in->guard >= 0)
            out[n++] = fall;
    } else if (in->op == HD_OP_EXIT || in->op == HD_OP_RET || in->op == HD_OP_TRAP) {
        out[n++] = f->ninstrs;
        if (in->guard >= 0)
            out[n++] = fall;
    } else {
        out[n++] = fall;
    }
    return n;
}

static int build_edges(struct cfg_impl *c)
{
    struct hd_cfg *cfg = &c->pub;
    uint32_t nb = cfg->nblocks, total = 0;
    uint32_t tgt[HD_MAX_OPERANDS + 1];
    for (uint32_t b = 0; b < nb; b++)
        total += block_exits(cfg, b, tgt, HD_MAX_OPERANDS + 1);
    c->edge_pool = calloc((size_t)total * 2 + 1, sizeof *c->edge_pool);
    if (!c->edge_pool)
        return -1;
    uint32_t *pool = c->edge_pool;
    /* successors, deduplicated; EXIT becomes the `exits` flag */
    for (uint32_t b = 0; b < nb; b++) {
        struct hd_block *blk = &cfg->blocks[b];
        uint32_t nt = block_exits(cfg, b, tgt, HD_MAX_OPERANDS + 1);
        blk->succ = pool;
        for (uint32_t k = 0; k < nt; k++) {
            if (tgt[k] >= cfg->func->ninstrs) {
                blk->exits = true;
                continue;
            }
            uint32_t s = cfg->block_of[tgt[k]];
            bool dup = false;
            for (uint32_t j = 0; j < blk->nsucc; j++)
                dup = dup || blk->succ[j] == s;
            if (!dup)
                blk->succ[blk->nsucc++] = s;
        }
        pool += blk->nsucc;
    }
    /* predecessors: count, then fill */
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < cfg->blocks[b].nsucc; k++)
            cfg->blocks[cfg->blocks[b].succ[k]].npred++;
    for (uint32_t b = 0; b < nb; b++) {
        cfg->blocks[b].pred = pool;
        pool += cfg->blocks[b].npred;
        cfg->blocks[b].npred = 0;
    }
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < cfg->blocks[b].nsucc; k++) {
            struct hd_block *s = &cfg->blocks[cfg->blocks[b].succ[k]];
            s->pred[s->npred++] = b;
        }
    return 0;
}
/* }==== */

/* {==== Cooper-Harvey-Kennedy over a CSR graph ==== */
/* A graph of n nodes: `fwd` edges are walked from the root to order the nodes; `back` edges are
 * the ones the dominance equations intersect over (the predecessors along `fwd`). */
struct graph {
    uint32_t n, root;
    uint32_t *fwd_off, *fwd; /* fwd_off[n + 1] */
    uint32_t *back_off, *back;
};

/* Post-order numbers from an iterative DFS along fwd; UNDEF for unreachable nodes. Fills
 * order[0..count) with the nodes in post-order and returns count. */
static uint32_t postorder(const struct graph *g, uint32_t *po, uint32_t *order, uint32_t *stack,
                          uint32_t *next_edge)
{
    for (uint32_t v = 0; v < g->n; v++) {
        po[v] = UNDEF;
        next_edge[v] = g->fwd_off[v];
    }
    uint32_t sp = 0, count = 0;
    stack[sp++] = g->root;
    po[g->root] = UNDEF - 1; /* "on the stack" */
    while (sp > 0) {
        uint32_t v = stack[sp - 1];
        if (next_edge[v] < g->fwd_off[v + 1]) {
            uint32_t w = g->fwd[next_edge[v]++];
            if (po[w] == UNDEF) {
                po[w] = UNDEF - 1;
                stack[sp++] = w;
            }
        } else {
            sp--;
            po[v] = count;
            order[count++] = v;
        }
    }
    return count;
}

static uint32_t intersect(const uint32_t *idom, const uint32_t *po, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (po[a] < po[b])
            a = idom[a];
        while (po[b] < po[a])
            b = idom[b];
    }
    return a;
}

/* idom[v] for every node (idom[root] = root; UNDEF if unreachable). */
static int dominators(const struct graph *g, uint32_t *idom)
{
    uint32_t *tmp = malloc(sizeof(uint32_t) * 4 * (size_t)g->n);
    if (!tmp)
        return -1;
    uint32_t *po = tmp, *order = tmp + g->n, *stack = tmp + 2 * g->n, *next = tmp + 3 * g->n;
    uint32_t count = postorder(g, po, order, stack, next);
    for (uint32_t v = 0; v < g->n; v++)
        idom[v] = UNDEF;
    idom[g->root] = g->root;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = count - 1; i-- > 0;) { /* reverse post-order, root (last) excluded */
            uint32_t v = order[i], nd = UNDEF;
            for (uint32_t k = g->back_off[v]; k < g->back_off[v + 1]; k++) {
                uint32_t p = g->back[k];
                if (idom[p] == UNDEF)
                    continue;
                nd = nd == UNDEF ? p : intersect(idom, po, p, nd);
            }
            if (idom[v] != nd) {
                idom[v] = nd;
                changed = true;
            }
        }
    }
    free(tmp);
    return 0;
}

/* DFS intervals of the tree given by idom (root's idom is itself) for O(1) ancestor tests. */
static int tree_intervals(const uint32_t *idom, uint32_t n, uint32_t root, uint32_t *in,
                          uint32_t *out)
{
    uint32_t *tmp = malloc(sizeof(uint32_t) * (3 * (size_t)n + 1));
    if (!tmp)
        return -1;
    uint32_t *child_off = tmp, *child = tmp + n + 1, *stack = tmp + 2 * n + 1;
    memset(child_off, 0, sizeof(uint32_t) * (n + 1));
    for (uint32_t v = 0; v < n; v++)
        if (v != root && idom[v] != UNDEF)
            child_off[idom[v] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        child_off[v + 1] += child_off[v];
    for (uint32_t v = 0; v < n; v++) {
        in[v] = out[v] = UNDEF;
        stack[v] = child_off[v]; /* fill cursor, reused below as the DFS stack */
    }
    for (uint32_t v = 0; v < n; v++)
        if (v != root && idom[v] != UNDEF)
            child[stack[idom[v]]++] = v;
    uint32_t clock = 0, sp = 0;
    uint32_t *cursor = out; /* out[] doubles as each node's next-child cursor until it closes */
    stack[sp++] = root;
    in[root] = clock++;
    cursor[root] = child_off[root];
    while (sp > 0) {
        uint32_t v = stack[sp - 1];
        if (cursor[v] < child_off[v + 1]) {
            uint32_t w = child[cursor[v]++];
            in[w] = clock++;
            cursor[w] = child_off[w];
            stack[sp++] = w;
        } else {
            sp--;
            out[v] = clock++;
        }
    }
    free(tmp);
    return 0;
}
/* }==== */

/* {==== Dominator and post-dominator trees ==== */
static int forward_dominators(struct cfg_impl *c, uint32_t *scratch_idom)
{
    struct hd_cfg *cfg = &c->pub;
    uint32_t nb = cfg->nblocks, ne = 0;
    for (uint32_t b = 0; b < nb; b++)
        ne += cfg->blocks[b].nsucc;
    struct graph g = {.n = nb, .root = 0};
    uint32_t *mem = malloc(sizeof(uint32_t) * (2 * ((size_t)nb + 1) + 2 * (size_t)ne + 1));
    if (!mem)
        return -1;
    g.fwd_off = mem;
    g.back_off = mem + nb + 1;
    g.fwd = mem + 2 * (nb + 1);
    g.back = g.fwd + ne;
    uint32_t fe = 0, be = 0;
    for (uint32_t b = 0; b < nb; b++) {
        g.fwd_off[b] = fe;
        g.back_off[b] = be;
        for (uint32_t k = 0; k < cfg->blocks[b].nsucc; k++)
            g.fwd[fe++] = cfg->blocks[b].succ[k];
        for (uint32_t k = 0; k < cfg->blocks[b].npred; k++)
            g.back[be++] = cfg->blocks[b].pred[k];
    }
    g.fwd_off[nb] = fe;
    g.back_off[nb] = be;
    int rc = dominators(&g, scratch_idom);
    if (rc == 0)
        rc = tree_intervals(scratch_idom, nb, 0, c->dom_in, c->dom_out);
    for (uint32_t b = 0; rc == 0 && b < nb; b++)
        cfg->blocks[b].idom = (b == 0 || scratch_idom[b] == UNDEF) ? -1 : (int32_t)scratch_idom[b];
    free(mem);
    return rc;
}

/* Which blocks reach EXIT along forward edges (plus the virtual ones in `to_exit`)? */
static void reaches_exit(const struct hd_cfg *cfg, const bool *to_exit, bool *reach,
                         uint32_t *stack)
{
    uint32_t sp = 0;
    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        reach[b] = to_exit[b];
        if (reach[b])
            stack[sp++] = b;
    }
    while (sp > 0) {
        uint32_t v = stack[--sp];
        for (uint32_t k = 0; k < cfg->blocks[v].npred; k++) {
            uint32_t p = cfg->blocks[v].pred[k];
            if (!reach[p]) {
                reach[p] = true;
                stack[sp++] = p;
            }
        }
    }
}

static int post_dominators(struct cfg_impl *c, uint32_t *scratch_idom)
{
    struct hd_cfg *cfg = &c->pub;
    uint32_t nb = cfg->nblocks, exit_id = nb, ne = 0;
    bool *to_exit = calloc(2 * (size_t)nb + 1, sizeof(bool));
    uint32_t *stack = malloc(sizeof(uint32_t) * ((size_t)nb + 1));
    if (!to_exit || !stack) {
        free(to_exit);
        free(stack);
        return -1;
    }
    bool *reach = to_exit + nb;
    for (uint32_t b = 0; b < nb; b++)
        to_exit[b] = cfg->blocks[b].exits;
    /* Infinite loops: connect the highest-numbered block that cannot reach EXIT, repeatedly. */
    for (;;) {
        reaches_exit(cfg, to_exit, reach, stack);
        uint32_t pick = UNDEF;
        for (uint32_t b = nb; b-- > 0;)
            if (!reach[b]) {
                pick = b;
                break;
            }
        if (pick == UNDEF)
            break;
        to_exit[pick] = true;
    }
    for (uint32_t b = 0; b < nb; b++)
        ne += cfg->blocks[b].nsucc + (to_exit[b] ? 1u : 0u);
    /* Reverse graph: fwd = predecessors (EXIT -> exiting blocks), back = successors (+EXIT). */
    uint32_t n = nb + 1;
    struct graph g = {.n = n, .root = exit_id};
    uint32_t *mem = malloc(sizeof(uint32_t) * (2 * ((size_t)n + 1) + 2 * (size_t)ne + 1));
    int rc = -1;
    if (mem) {
        g.fwd_off = mem;
        g.back_off = mem + n + 1;
        g.fwd = mem + 2 * (n + 1);
        g.back = g.fwd + ne;
        uint32_t fe = 0, be = 0;
        for (uint32_t b = 0; b < nb; b++) {
            g.fwd_off[b] = fe;
            g.back_off[b] = be;
            for (uint32_t k = 0; k < cfg->blocks[b].npred; k++)
                g.fwd[fe++] = cfg->blocks[b].pred[k];
            for (uint32_t k = 0; k < cfg->blocks[b].nsucc; k++)
                g.back[be++] = cfg->blocks[b].succ[k];
            if (to_exit[b])
                g.back[be++] = exit_id;
        }
        g.fwd_off[exit_id] = fe;
        g.back_off[exit_id] = be;
        for (uint32_t b = 0; b < nb; b++)
            if (to_exit[b])
                g.fwd[fe++] = b;
        g.fwd_off[n] = fe;
        g.back_off[n] = be;
        rc = dominators(&g, scratch_idom);
        if (rc == 0)
            rc = tree_intervals(scratch_idom, n, exit_id, c->pdom_in, c->pdom_out);
        for (uint32_t b = 0; rc == 0 && b < nb; b++) {
            uint32_t d = scratch_idom[b];
            cfg->blocks[b].ipdom = (d == UNDEF || d == exit_id) ? -1 : (int32_t)d;
        }
    }
    free(mem);
    free(stack);
    free(to_exit);
    return rc;
}
/* }==== */

/* {==== Public API ==== */
static void set_reconvergence(struct hd_cfg *cfg)
{
    const struct hd_func *f = cfg->func;
    for (uint32_t i = 0; i < f->ninstrs; i++)
        cfg->reconv_pc[i] = HD_PC_EXIT;
    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        const struct hd_block *blk = &cfg->blocks[b];
        const struct hd_instr *in = &f->instrs[blk->last];
        if (!is_branch(in))
            continue;
        cfg->reconv_pc[blk->last] =
            blk->ipdom >= 0 ? (int32_t)cfg->blocks[blk->ipdom].first : HD_PC_EXIT;
        if (in->op == HD_OP_BRA && in->guard >= 0 && !(in->flags & HD_F_UNI))
            cfg->nbranches++;
    }
}

struct hd_cfg *hd_cfg_build(const struct hd_func *f)
{
    struct cfg_impl *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    struct hd_cfg *cfg = &c->pub;
    cfg->func = f;
    uint32_t n = f->ninstrs;
    cfg->block_of = calloc((size_t)n + 1, sizeof *cfg->block_of);
    cfg->reconv_pc = calloc((size_t)n + 1, sizeof *cfg->reconv_pc);
    if (!cfg->block_of || !cfg->reconv_pc)
        goto fail;
    if (n == 0)
        return cfg;
    if (find_blocks(cfg) != 0 || build_edges(c) != 0)
        goto fail;
    size_t nb = cfg->nblocks;
    c->dom_in = malloc(sizeof(uint32_t) * (4 * (nb + 1)));
    uint32_t *scratch = malloc(sizeof(uint32_t) * (nb + 1));
    if (!c->dom_in || !scratch) {
        free(scratch);
        goto fail;
    }
    c->dom_out = c->dom_in + nb;
    c->pdom_in = c->dom_in + 2 * nb;
    c->pdom_out = c->pdom_in + nb + 1;
    int rc = forward_dominators(c, scratch);
    if (rc == 0)
        rc = post_dominators(c, scratch);
    free(scratch);
    if (rc != 0)
        goto fail;
    set_reconvergence(cfg);
    return cfg;
fail:
    hd_cfg_free(cfg);
    return NULL;
}

void hd_cfg_free(struct hd_cfg *cfg)
{
    if (!cfg)
        return;
    struct cfg_impl *c = (struct cfg_impl *)cfg;
    free(c->edge_pool);
    free(c->dom_in);
    free(cfg->blocks);
    free(cfg->block_of);
    free(cfg->reconv_pc);
    free(c);
}

/* Block ids are < nblocks; for post = true, nblocks names the virtual EXIT node, which
 * post-dominates every block. A block unreachable from the entry is dominated only by itself. */
bool hd_cfg_dominates(const struct hd_cfg *cfg, uint32_t a, uint32_t b, bool post)
{
    const struct cfg_impl *c = (const struct cfg_impl *)cfg;
    uint32_t limit = cfg->nblocks + (post ? 1u : 0u);
    if (a >= limit || b >= limit)
        return false;
    if (a == b)
        return true;
    const uint32_t *in = post ? c->pdom_in : c->dom_in;
    const uint32_t *out = post ? c->pdom_out : c->dom_out;
    if (in[a] == UNDEF || in[b] == UNDEF)
        return false;
    return in[a] <= in[b] && out[b] <= out[a];
}
/* }==== */
