/* SPDX-License-Identifier: MIT
 * ppoints.c - choosing Lin's selective preemption points over an annotation store (ppoints.h;
 * thesis §2.5).
 *
 * Design: natural loops are found as annot.c finds them (an edge b -> h is a back edge when h
 * dominates b; the loop of h is h plus every block reaching a back-edge source without passing
 * h), here per header with its body kept, since the pass needs the bodies and the store keeps
 * only per-PC flags. The live counts and vectors come from the store's rows (no liveness of its
 * own). One pass over the entry function; the table is sorted by PC.
 */
#include "ppoints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cand { /* the best candidate so far of a loop or window */
    bool any, barrier;
    uint32_t pc, words, div;
};

/* Is pc better than the candidate c (barriers first, then fewer live words, fewer divergent
 * words, lower PC)? */
static void consider(const struct hd_annot *a, struct cand *c, uint32_t pc)
{
    const bool bar = (hd_annot_flags(a, pc) & HD_AN_BARRIER) != 0;
    const uint32_t words = hd_annot_live_words(a, pc, false, true);
    const uint32_t div = hd_annot_live_words(a, pc, true, true);
    bool better = !c->any || (bar && !c->barrier);
    if (!better && bar == c->barrier)
        better = words < c->words || (words == c->words && div < c->div) ||
                 (words == c->words && div == c->div && pc < c->pc);
    if (better)
        *c = (struct cand){true, bar, pc, words, div};
}

uint64_t hd_ppoints_vector(const struct hd_annot *a, uint32_t pc, bool divergent)
{
    const uint64_t high = 1ull << HD_PP_VEC_HIGH;
    if (!a->ra_ok)
        return high;
    unsigned n = hd_annot_live_regs(a, pc, divergent, true, NULL, 0);
    uint32_t *regs = malloc((n ? n : 1) * sizeof *regs);
    if (!regs)
        return high;
    hd_annot_live_regs(a, pc, divergent, true, regs, n);
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        int32_t p = hd_annot_phys(a, regs[i]);
        if (p < 0) /* a spilled value (local memory) or one the allocator keeps as an operand */
            continue;
        uint32_t words = hd_annot_reg_words(a, regs[i]);
        for (uint32_t w = 0; w < words; w++)
            v |= (uint32_t)p + w >= HD_PP_VEC_HIGH ? high : 1ull << ((uint32_t)p + w);
    }
    free(regs);
    return v;
}

unsigned hd_ppoints_vec_regs(uint64_t vec)
{
    const uint64_t low = (1ull << HD_PP_VEC_HIGH) - 1;
    return (unsigned)__builtin_popcountll(vec & low) + ((vec >> HD_PP_VEC_HIGH & 1u) ? 11u : 0u);
}

const char *hd_ppoints_why_name(unsigned why)
{
    static const char *const n[] = {"innermost loop, its barrier",
                                    "innermost loop, fewest live words",
                                    "K window, its barrier", "K window, fewest live words"};
    return why < 4 ? n[why] : "?";
}

static int add_point(struct hd_ppoints *pp, uint32_t *cap, const struct hd_annot *a,
                     const struct cand *c, uint8_t why, uint32_t loop_head)
{
    if (pp->n == *cap) {
        uint32_t nc = *cap ? 2 * *cap : 16;
        struct hd_ppoint *n = realloc(pp->pt, nc * sizeof *n);
        if (!n)
            return -1;
        pp->pt = n;
        *cap = nc;
    }
    struct hd_ppoint *p = &pp->pt[pp->n++];
    p->pc = c->pc;
    p->kind = c->barrier ? HD_PP_BARPP : HD_PP_PP;
    p->why = why;
    p->extra = c->barrier ? 0 : 2;
    p->loop_head = loop_head;
    p->live_words = c->words;
    p->div_words = c->div;
    p->vec = hd_ppoints_vector(a, c->pc, false);
    p->vec_div = c->barrier ? p->vec : hd_ppoints_vector(a, c->pc, true);
    pp->extra += p->extra;
    return 0;
}

/* Does every iteration of the loop headed by h run block b (b dominates each back-edge
 * source of h)? */
static bool every_iteration(const struct hd_cfg *cfg, uint32_t h, uint32_t b)
{
    for (uint32_t k = 0; k < cfg->blocks[h].npred; k++) {
        const uint32_t src = cfg->blocks[h].pred[k];
        if (hd_cfg_dominates(cfg, h, src, false) && !hd_cfg_dominates(cfg, b, src, false))
            return false;
    }
    return true;
}

/* One point per innermost loop of function f. */
static int loop_points(struct hd_ppoints *pp, uint32_t *cap, const struct hd_annot *a,
                       const struct hd_annot_fn *f)
{
    const struct hd_cfg *cfg = f->cfg;
    const uint32_t nb = cfg->nblocks;
    bool *head = calloc(nb + 1, sizeof *head), *body = calloc(nb + 1, sizeof *body);
    uint32_t *stack = calloc(nb + 1, sizeof *stack);
    int rc = -1;
    if (!head || !body || !stack)
        goto out;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t s = 0; s < cfg->blocks[b].nsucc; s++)
            if (hd_cfg_dominates(cfg, cfg->blocks[b].succ[s], b, false))
                head[cfg->blocks[b].succ[s]] = true;
    for (uint32_t h = 0; h < nb; h++) {
        if (!head[h])
            continue;
        memset(body, 0, nb * sizeof *body);
        uint32_t sp = 0;
        body[h] = true;
        for (uint32_t k = 0; k < cfg->blocks[h].npred; k++) { /* back-edge sources */
            uint32_t b = cfg->blocks[h].pred[k];
            if (hd_cfg_dominates(cfg, h, b, false) && !body[b]) {
                body[b] = true;
                stack[sp++] = b;
            }
        }
        while (sp) {
            const struct hd_block *blk = &cfg->blocks[stack[--sp]];
            for (uint32_t k = 0; k < blk->npred; k++)
                if (!body[blk->pred[k]]) {
                    body[blk->pred[k]] = true;
                    stack[sp++] = blk->pred[k];
                }
        }
        bool innermost = true;
        for (uint32_t b = 0; b < nb && innermost; b++)
            innermost = !(body[b] && head[b] && b != h);
        if (!innermost)
            continue;
        /* A barrier anywhere in the body is the point (Lin L828-L832: any other point could
         * deadlock). Else the fewest-live instruction among those every iteration runs: the
         * blocks dominating each back-edge source. (Session 14: the whole body let bfs's point
         * sit in its `visited == -1` branch, which later levels rarely take, so a signalled warp
         * ran on through its whole edge list: issue 24.) */
        struct cand c = {0};
        for (uint32_t b = 0; b < nb; b++) {
            if (!body[b])
                continue;
            for (uint32_t i = cfg->blocks[b].first; i <= cfg->blocks[b].last; i++)
                if (hd_annot_flags(a, f->f.pc_base + i) & HD_AN_BARRIER)
                    consider(a, &c, f->f.pc_base + i);
        }
        for (uint32_t b = 0; b < nb && !c.barrier; b++) {
            if (!body[b] || !every_iteration(cfg, h, b))
                continue;
            for (uint32_t i = cfg->blocks[b].first; i <= cfg->blocks[b].last; i++)
                consider(a, &c, f->f.pc_base + i);
        }
        if (!c.any)
            continue;
        pp->loops++;
        if (add_point(pp, cap, a, &c, c.barrier ? HD_PP_LOOP_BARRIER : HD_PP_LOOP_MIN,
                      f->f.pc_base + cfg->blocks[h].first) != 0)
            goto out;
    }
    rc = 0;
out:
    free(head);
    free(body);
    free(stack);
    return rc;
}

/* One point per K instructions outside every loop of function f. */
static int window_points(struct hd_ppoints *pp, uint32_t *cap, const struct hd_annot *a,
                         const struct hd_annot_fn *f)
{
    struct cand c = {0};
    uint32_t in_window = 0;
    for (uint32_t i = 0; i < f->f.ir->ninstrs; i++) {
        const uint32_t pc = f->f.pc_base + i;
        if (hd_annot_flags(a, pc) & HD_AN_IN_LOOP)
            continue;
        consider(a, &c, pc);
        if (++in_window < pp->k)
            continue;
        if (add_point(pp, cap, a, &c, c.barrier ? HD_PP_WINDOW_BARRIER : HD_PP_WINDOW_MIN,
                      UINT32_MAX) != 0)
            return -1;
        c = (struct cand){0};
        in_window = 0;
    }
    if (c.any && c.barrier) /* the last, partial window: a barrier is still a point */
        return add_point(pp, cap, a, &c, HD_PP_WINDOW_BARRIER, UINT32_MAX);
    return 0;
}

static int by_pc(const void *x, const void *y)
{
    const struct hd_ppoint *a = x, *b = y;
    return (a->pc > b->pc) - (a->pc < b->pc);
}

int hd_ppoints_build(struct hd_annot *a, uint32_t k, struct hd_ppoints **out, char *err,
                     size_t errlen)
{
    *out = NULL;
    if (k < HD_PP_K_MIN || k > HD_PP_K_MAX) {
        snprintf(err, errlen, "preemption points: K = %u is outside %u..%u", k, HD_PP_K_MIN,
                 HD_PP_K_MAX);
        return -1;
    }
    struct hd_ppoints *pp = calloc(1, sizeof *pp);
    if (!pp)
        goto oom;
    pp->k = k;
    pp->col = hd_annot_column(a, HD_PP_COLUMN);
    if (pp->col < 0)
        goto oom;
    uint32_t cap = 0;
    const struct hd_annot_fn *f = a->entry_fn < a->nfn ? &a->fn[a->entry_fn] : NULL;
    if (f && f->cfg && f->lv) {
        if (loop_points(pp, &cap, a, f) != 0 || window_points(pp, &cap, a, f) != 0)
            goto oom;
    }
    if (pp->n)
        qsort(pp->pt, pp->n, sizeof *pp->pt, by_pc);
    uint32_t kept = 0; /* two rules may pick the same PC (a barrier): one point */
    for (uint32_t i = 0; i < pp->n; i++) {
        if (kept && pp->pt[kept - 1].pc == pp->pt[i].pc) {
            pp->extra -= pp->pt[i].extra;
            continue;
        }
        pp->pt[kept++] = pp->pt[i];
    }
    pp->n = kept;
    for (uint32_t i = 0; i < pp->n; i++)
        hd_annot_set(a, pp->col, pp->pt[i].pc, i + 1);
    *out = pp;
    return 0;
oom:
    hd_ppoints_free(pp);
    snprintf(err, errlen, "preemption points: host out of memory");
    return -1;
}

void hd_ppoints_free(struct hd_ppoints *pp)
{
    if (!pp)
        return;
    free(pp->pt);
    free(pp);
}

const struct hd_ppoint *hd_ppoints_at(const struct hd_ppoints *pp, const struct hd_annot *a,
                                      uint32_t pc)
{
    if (!pp)
        return NULL;
    uint32_t v = hd_annot_get(a, pp->col, pc);
    return v && v <= pp->n ? &pp->pt[v - 1] : NULL;
}
