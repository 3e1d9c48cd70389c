/* SPDX-License-Identifier: MIT
 * test_cfg.c - the CFG pass on hand-built IR: blocks, edges, dominators, post-dominators and the
 * reconvergence PC of each branch, for if/else, nested loops, a loop with a break, early exits,
 * unreachable code, infinite loops, bra.uni and fall-off-the-end; then a randomized comparison of
 * both trees against brute-force dominance (remove a node, see who is still reachable).
 *
 * Functions are built directly as struct hd_func (no parser): each instruction is an opcode, a
 * guard (or none) and, for a branch, its target instruction index.
 */
#include "cfg.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOG (-1) /* no guard */
#define MAXI 64

struct fb {
    struct hd_instr ins[MAXI];
    uint32_t n;
    struct hd_func f;
};

static void emit(struct fb *b, enum hd_op op, int guard, int64_t target, uint32_t flags)
{
    struct hd_instr *in = &b->ins[b->n];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->guard = guard;
    in->flags = flags;
    in->line = 10 + b->n;
    for (int k = 0; k < HD_MAX_OPERANDS; k++)
        in->opnd[k].reg = in->opnd[k].symbol = -1;
    if (op == HD_OP_BRA) {
        in->nopnds = 1;
        in->opnd[0].kind = HD_OPND_LABEL;
        in->opnd[0].imm = target;
    }
    b->n++;
}

static void alu(struct fb *b) { emit(b, HD_OP_ADD, NOG, 0, 0); }
static void bra(struct fb *b, int guard, int64_t t) { emit(b, HD_OP_BRA, guard, t, 0); }
static void op(struct fb *b, enum hd_op o, int guard) { emit(b, o, guard, 0, 0); }

static struct hd_cfg *build(struct fb *b)
{
    memset(&b->f, 0, sizeof b->f);
    static char name[] = "k";
    b->f.name = name;
    b->f.is_entry = true;
    b->f.instrs = b->ins;
    b->f.ninstrs = b->n;
    b->f.has_body = true;
    return hd_cfg_build(&b->f);
}

/* blocks given as (first,last) pairs */
static void check_blocks(struct hd_test_state *t, const struct hd_cfg *c, const uint32_t *fl,
                         uint32_t nb)
{
    if (!HD_CHECK_U64(t, nb, c->nblocks))
        return;
    for (uint32_t b = 0; b < nb; b++) {
        HD_CHECK_U64(t, fl[2 * b], c->blocks[b].first);
        HD_CHECK_U64(t, fl[2 * b + 1], c->blocks[b].last);
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
            HD_CHECK_U64(t, b, c->block_of[i]);
    }
}

static void check_trees(struct hd_test_state *t, const struct hd_cfg *c, const int32_t *idom,
                        const int32_t *ipdom)
{
    for (uint32_t b = 0; b < c->nblocks; b++) {
        HD_CHECK_U64(t, idom[b], c->blocks[b].idom);
        HD_CHECK_U64(t, ipdom[b], c->blocks[b].ipdom);
    }
}

static bool has_succ(const struct hd_cfg *c, uint32_t b, uint32_t s)
{
    for (uint32_t k = 0; k < c->blocks[b].nsucc; k++)
        if (c->blocks[b].succ[k] == s)
            return true;
    return false;
}

static void test_if_else(struct hd_test_state *t)
{
    hd_test_begin(t, "if/else");
    struct fb b = {0};
    alu(&b);        /* 0 */
    bra(&b, 1, 4);  /* 1 @p bra ELSE */
    alu(&b);        /* 2 */
    bra(&b, NOG, 5); /* 3 bra END */
    alu(&b);        /* 4 ELSE */
    alu(&b);        /* 5 END */
    op(&b, HD_OP_EXIT, NOG);
    struct hd_cfg *c = build(&b);
    static const uint32_t fl[] = {0, 1, 2, 3, 4, 4, 5, 6};
    check_blocks(t, c, fl, 4);
    static const int32_t idom[] = {-1, 0, 0, 0}, ipdom[] = {3, 3, 3, -1};
    check_trees(t, c, idom, ipdom);
    HD_CHECK_U64(t, 2, c->blocks[0].nsucc);
    HD_CHECK_U64(t, 2, c->blocks[0].succ[0]); /* taken first */
    HD_CHECK_U64(t, 1, c->blocks[0].succ[1]);
    HD_CHECK_U64(t, 2, c->blocks[3].npred);
    HD_CHECK(t, c->blocks[3].exits && !c->blocks[0].exits);
    HD_CHECK_U64(t, 5, c->reconv_pc[1]);
    HD_CHECK_U64(t, 5, c->reconv_pc[3]);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_PC_EXIT, c->reconv_pc[0]);
    HD_CHECK_U64(t, 1, c->nbranches);
    HD_CHECK(t, hd_cfg_dominates(c, 0, 3, false));
    HD_CHECK(t, !hd_cfg_dominates(c, 1, 3, false));
    HD_CHECK(t, hd_cfg_dominates(c, 3, 1, true));
    HD_CHECK(t, !hd_cfg_dominates(c, 1, 0, true));
    HD_CHECK(t, hd_cfg_dominates(c, 4, 0, true)); /* EXIT post-dominates all */
    HD_CHECK(t, !hd_cfg_dominates(c, 4, 0, false));
    hd_cfg_free(c);
}

static void test_nested_loops(struct hd_test_state *t)
{
    hd_test_begin(t, "nested loops");
    struct fb b = {0};
    alu(&b);       /* 0 */
    alu(&b);       /* 1 OUTER */
    alu(&b);       /* 2 INNER */
    bra(&b, 1, 2); /* 3 @p bra INNER */
    alu(&b);       /* 4 */
    bra(&b, 2, 1); /* 5 @q bra OUTER */
    op(&b, HD_OP_EXIT, NOG); /* 6 */
    struct hd_cfg *c = build(&b);
    static const uint32_t fl[] = {0, 0, 1, 1, 2, 3, 4, 5, 6, 6};
    check_blocks(t, c, fl, 5);
    static const int32_t idom[] = {-1, 0, 1, 2, 3}, ipdom[] = {1, 2, 3, 4, -1};
    check_trees(t, c, idom, ipdom);
    HD_CHECK(t, has_succ(c, 2, 2) && has_succ(c, 2, 3));
    HD_CHECK(t, has_succ(c, 3, 1) && has_succ(c, 3, 4));
    HD_CHECK_U64(t, 2, c->blocks[1].npred);
    HD_CHECK_U64(t, 4, c->reconv_pc[3]);
    HD_CHECK_U64(t, 6, c->reconv_pc[5]);
    HD_CHECK_U64(t, 2, c->nbranches);
    HD_CHECK(t, hd_cfg_dominates(c, 1, 3, false));
    HD_CHECK(t, hd_cfg_dominates(c, 3, 1, true));
    hd_cfg_free(c);
}

static void test_loop_break(struct hd_test_state *t)
{
    hd_test_begin(t, "loop with break");
    struct fb b = {0};
    alu(&b);       /* 0 */
    alu(&b);       /* 1 HEAD */
    bra(&b, 1, 6); /* 2 @p bra AFTER (break) */
    alu(&b);       /* 3 */
    bra(&b, 2, 1); /* 4 @q bra HEAD */
    alu(&b);       /* 5 */
    alu(&b);       /* 6 AFTER */
    op(&b, HD_OP_EXIT, NOG); /* 7 */
    struct hd_cfg *c = build(&b);
    static const uint32_t fl[] = {0, 0, 1, 2, 3, 4, 5, 5, 6, 7};
    check_blocks(t, c, fl, 5);
    static const int32_t idom[] = {-1, 0, 1, 2, 1}, ipdom[] = {1, 4, 4, 4, -1};
    check_trees(t, c, idom, ipdom);
    HD_CHECK_U64(t, 6, c->reconv_pc[2]);
    HD_CHECK_U64(t, 6, c->reconv_pc[4]);
    hd_cfg_free(c);
}

static void test_early_exit(struct hd_test_state *t)
{
    hd_test_begin(t, "guarded exit falls through");
    struct fb b = {0};
    alu(&b);                 /* 0 */
    op(&b, HD_OP_EXIT, 1);   /* 1 @p exit */
    alu(&b);                 /* 2 */
    bra(&b, 2, 5);           /* 3 @q bra L */
    alu(&b);                 /* 4 */
    alu(&b);                 /* 5 L */
    op(&b, HD_OP_RET, NOG);  /* 6 */
    struct hd_cfg *c = build(&b);
    static const uint32_t fl[] = {0, 1, 2, 3, 4, 4, 5, 6};
    check_blocks(t, c, fl, 4);
    static const int32_t idom[] = {-1, 0, 1, 1}, ipdom[] = {-1, 3, 3, -1};
    check_trees(t, c, idom, ipdom);
    HD_CHECK(t, c->blocks[0].exits && c->blocks[0].nsucc == 1 && c->blocks[0].succ[0] == 1);
    HD_CHECK_U64(t, 5, c->reconv_pc[3]);

    hd_test_begin(t, "branch whose sides exit separately reconverges at EXIT");
    struct fb e = {0};
    bra(&e, 1, 3);           /* 0 @p bra X */
    alu(&e);                 /* 1 */
    op(&e, HD_OP_EXIT, NOG); /* 2 */
    alu(&e);                 /* 3 X */
    op(&e, HD_OP_RET, NOG);  /* 4 */
    struct hd_cfg *c2 = build(&e);
    static const uint32_t fl2[] = {0, 0, 1, 2, 3, 4};
    check_blocks(t, c2, fl2, 3);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_PC_EXIT, c2->reconv_pc[0]);
    HD_CHECK_U64(t, (uint64_t)(int64_t)-1, c2->blocks[0].ipdom);
    hd_cfg_free(c2);
    hd_cfg_free(c);

    hd_test_begin(t, "guarded trap and fall off the end");
    struct fb g = {0};
    op(&g, HD_OP_TRAP, 3); /* 0 @p trap */
    alu(&g);               /* 1, last: falls off the end */
    struct hd_cfg *c3 = build(&g);
    static const uint32_t fl3[] = {0, 0, 1, 1};
    check_blocks(t, c3, fl3, 2);
    HD_CHECK(t, c3->blocks[0].exits && c3->blocks[1].exits);
    HD_CHECK(t, c3->blocks[0].ipdom == -1 && c3->blocks[1].ipdom == -1);
    hd_cfg_free(c3);
}

static void test_unreachable(struct hd_test_state *t)
{
    hd_test_begin(t, "unreachable code");
    struct fb b = {0};
    alu(&b);         /* 0 */
    bra(&b, NOG, 4); /* 1 bra L */
    alu(&b);         /* 2 (unreachable) */
    bra(&b, NOG, 4); /* 3 */
    alu(&b);         /* 4 L */
    op(&b, HD_OP_EXIT, NOG); /* 5 */
    alu(&b);         /* 6 U: unreachable infinite loop */
    bra(&b, NOG, 6); /* 7 bra U */
    struct hd_cfg *c = build(&b);
    static const uint32_t fl[] = {0, 1, 2, 3, 4, 5, 6, 7};
    check_blocks(t, c, fl, 4);
    static const int32_t idom[] = {-1, -1, 0, -1}, ipdom[] = {2, 2, -1, -1};
    check_trees(t, c, idom, ipdom);
    HD_CHECK(t, !hd_cfg_dominates(c, 0, 1, false));
    HD_CHECK(t, hd_cfg_dominates(c, 1, 1, false));
    HD_CHECK(t, hd_cfg_dominates(c, 2, 1, true));
    HD_CHECK_U64(t, 2, c->blocks[2].npred);
    HD_CHECK_U64(t, 0, c->nbranches);
    hd_cfg_free(c);
}

static void test_infinite_loop(struct hd_test_state *t)
{
    hd_test_begin(t, "infinite loop still has post-dominators");
    struct fb b = {0};
    bra(&b, 1, 3);   /* 0 @p bra LOOP */
    alu(&b);         /* 1 */
    op(&b, HD_OP_EXIT, NOG); /* 2 */
    alu(&b);         /* 3 LOOP */
    bra(&b, 2, 6);   /* 4 @q bra SKIP */
    alu(&b);         /* 5 */
    alu(&b);         /* 6 SKIP */
    bra(&b, NOG, 3); /* 7 bra LOOP */
    struct hd_cfg *c = build(&b);
    static const uint32_t fl[] = {0, 0, 1, 2, 3, 4, 5, 5, 6, 7};
    check_blocks(t, c, fl, 5);
    static const int32_t idom[] = {-1, 0, 0, 2, 2}, ipdom[] = {-1, -1, 4, 4, -1};
    check_trees(t, c, idom, ipdom);
    HD_CHECK_U64(t, 6, c->reconv_pc[4]);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_PC_EXIT, c->reconv_pc[0]);
    HD_CHECK(t, !c->blocks[4].exits); /* the virtual edge is not a real exit */
    hd_cfg_free(c);
}

static void test_misc(struct hd_test_state *t)
{
    hd_test_begin(t, "bra.uni, branch to the next instruction, empty function");
    struct fb b = {0};
    emit(&b, HD_OP_BRA, NOG, 2, HD_F_UNI); /* 0 bra.uni L */
    alu(&b);                               /* 1 */
    emit(&b, HD_OP_BRA, 1, 4, HD_F_UNI);   /* 2 L: @p bra.uni M (uniform: not counted) */
    bra(&b, 2, 4);                         /* 3 @q bra M (== next instruction) */
    alu(&b);                               /* 4 M */
    bra(&b, NOG, 6);                       /* 5 bra to a label at the end of the body */
    struct hd_cfg *c = build(&b);
    static const uint32_t fl[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 5};
    check_blocks(t, c, fl, 5);
    HD_CHECK_U64(t, 1, c->blocks[0].nsucc);
    HD_CHECK_U64(t, 2, c->blocks[0].succ[0]);
    HD_CHECK_U64(t, 0, c->blocks[1].npred);
    HD_CHECK_U64(t, 2, c->blocks[2].nsucc);
    HD_CHECK_U64(t, 1, c->blocks[3].nsucc); /* both edges go to block 4: deduplicated */
    HD_CHECK(t, c->blocks[4].exits && c->blocks[4].nsucc == 0);
    HD_CHECK_U64(t, 1, c->nbranches);
    HD_CHECK_U64(t, 4, c->reconv_pc[2]);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_PC_EXIT, c->reconv_pc[5]);
    hd_cfg_free(c);

    struct fb e = {0};
    struct hd_cfg *c0 = build(&e);
    HD_CHECK(t, c0 != NULL);
    HD_CHECK_U64(t, 0, c0->nblocks);
    HD_CHECK(t, !hd_cfg_dominates(c0, 0, 0, false));
    hd_cfg_free(c0);
    hd_cfg_free(NULL);
}

/* {==== Randomized check against brute force ==== */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Reachable blocks from `from` (or all exit-reaching, backwards, when exit_side) avoiding `skip`. */
static void reach(const struct hd_cfg *c, uint32_t from, uint32_t skip, bool backwards, bool *seen)
{
    uint32_t stack[MAXI + 1], sp = 0;
    memset(seen, 0, sizeof(bool) * (c->nblocks + 1));
    if (from == skip)
        return;
    seen[from] = true;
    stack[sp++] = from;
    while (sp) {
        uint32_t v = stack[--sp];
        if (backwards && v == c->nblocks) { /* EXIT: its predecessors are the exiting blocks */
            for (uint32_t b = 0; b < c->nblocks; b++)
                if (c->blocks[b].exits && b != skip && !seen[b]) {
                    seen[b] = true;
                    stack[sp++] = b;
                }
            continue;
        }
        const struct hd_block *blk = &c->blocks[v];
        uint32_t n = backwards ? blk->npred : blk->nsucc;
        const uint32_t *adj = backwards ? blk->pred : blk->succ;
        for (uint32_t k = 0; k < n; k++)
            if (adj[k] != skip && !seen[adj[k]]) {
                seen[adj[k]] = true;
                stack[sp++] = adj[k];
            }
    }
}

/* a (strictly) dominates b, brute force; post: a post-dominates b */
static bool brute_dom(const struct hd_cfg *c, uint32_t a, uint32_t b, bool post)
{
    bool seen[MAXI + 1];
    if (a == b)
        return true;
    reach(c, post ? c->nblocks : 0, a, post, seen);
    return !seen[b];
}

static void random_case(struct hd_test_state *t, uint64_t *s, int iter)
{
    struct fb b = {0};
    uint32_t n = 4 + (uint32_t)(rng_next(s) % 40);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t r = rng_next(s) % 10;
        if (r < 3)
            bra(&b, r == 0 ? NOG : 1, (int64_t)(rng_next(s) % n));
        else if (r == 3)
            op(&b, rng_next(s) % 2 ? HD_OP_EXIT : HD_OP_RET, rng_next(s) % 2 ? 1 : NOG);
        else
            alu(&b);
    }
    op(&b, HD_OP_EXIT, NOG);
    struct hd_cfg *c = build(&b);
    bool from_entry[MAXI + 1], to_exit[MAXI + 1];
    reach(c, 0, UINT32_MAX, false, from_entry);
    reach(c, c->nblocks, UINT32_MAX, true, to_exit);
    bool all_exit = true;
    for (uint32_t v = 0; v < c->nblocks; v++)
        all_exit = all_exit && to_exit[v];
    int bad = 0;
    for (uint32_t v = 0; v < c->nblocks; v++) {
        for (uint32_t a = 0; a < c->nblocks; a++) {
            if (from_entry[v] && from_entry[a])
                bad += brute_dom(c, a, v, false) != hd_cfg_dominates(c, a, v, false);
            if (all_exit)
                bad += brute_dom(c, a, v, true) != hd_cfg_dominates(c, a, v, true);
        }
        /* idom: a strict dominator that every other strict dominator dominates */
        int32_t d = c->blocks[v].idom;
        if (from_entry[v] && v != 0) {
            bad += d < 0 || !brute_dom(c, (uint32_t)d, v, false);
            for (uint32_t a = 0; a < c->nblocks && d >= 0; a++)
                if (a != v && from_entry[a] && brute_dom(c, a, v, false))
                    bad += !brute_dom(c, a, (uint32_t)d, false);
        }
        int32_t p = c->blocks[v].ipdom;
        if (all_exit) {
            uint32_t pp = p < 0 ? c->nblocks : (uint32_t)p;
            bad += !brute_dom(c, pp, v, true) || pp == v;
            for (uint32_t a = 0; a < c->nblocks; a++)
                if (a != v && brute_dom(c, a, v, true))
                    bad += !brute_dom(c, a, pp, true);
        }
        /* every block has a post-dominator (EXIT at worst), even in infinite loops */
        bad += p >= (int32_t)c->nblocks || p == (int32_t)v;
    }
    if (!HD_CHECK_U64(t, 0, bad))
        fprintf(stderr, "  random case %d (n=%u) disagrees with brute force\n", iter, n);
    hd_cfg_free(c);
}

static void test_random(struct hd_test_state *t)
{
    hd_test_begin(t, "random CFGs vs brute-force dominance");
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 400; i++)
        random_case(t, &s, i);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_if_else(&t);
    test_nested_loops(&t);
    test_loop_break(&t);
    test_early_exit(&t);
    test_unreachable(&t);
    test_infinite_loop(&t);
    test_misc(&t);
    test_random(&t);
    return hd_test_finish(&t);
}
