/* SPDX-License-Identifier: MIT
 * test_ppoints.c - Lin's selective preemption points (model/compiler/ppoints.h) and the decoder
 * of their instructions (tables/pp_decode.h): the barrier of an innermost loop is its point
 * (bar.pp, no added instruction); a loop without a barrier gets the body's instruction with the
 * fewest live words (checked against every PC of the body); of nested loops only the inner one;
 * the K-instruction rule outside loops (no point below K without a barrier, one per full window
 * of K, K out of range refused); the vectors are the live physical registers; and the decoder
 * against hand-worked words (digest §2.1/§3.2: BP_1's 13 registers, a 5-register live set, the
 * R53+ bit), one cycle late, registered.
 */
#include <stdlib.h>
#include <string.h>

#include "annot.h"
#include "pp_decode.h"
#include "ppoints.h"
#include "ptx_parse.h"
#include "testutil.h"

#define HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

/* Parse text, build the store of its first function as a one-function image (PC 0). */
static struct hd_annot *store_of(struct hd_test_state *t, const char *text, struct hd_module **m)
{
    char err[512] = "";
    *m = hd_ptx_parse(text, strlen(text), "pp.ptx", err, sizeof err);
    if (!HD_CHECK(t, *m != NULL)) {
        fprintf(stderr, "  %s\n", err);
        return NULL;
    }
    const struct hd_func *f = &(*m)->funcs[0];
    struct hd_annot_func af = {f, 0, 0, 0};
    struct hd_annot_params ap = {63};
    struct hd_annot *a = NULL;
    HD_CHECK(t, hd_annot_build(*m, &af, 1, 0, f->ninstrs, f->nregs, &ap, &a, err, sizeof err) == 0);
    return a;
}

static const char k_barrier_loop[] = HEAD
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"            /* 0 */
    "  mov.u32 %r1, %tid.x;\n"               /* 1 */
    "  mov.u32 %r2, 0;\n"                    /* 2 */
    "LOOP:\n"
    "  add.s32 %r2, %r2, %r1;\n"             /* 3: loop header */
    "  setp.lt.u32 %p1, %r1, 16;\n"          /* 4 */
    "  @%p1 bra SKIP;\n"                     /* 5: divergent branch */
    "  add.s32 %r2, %r2, 1;\n"               /* 6 */
    "SKIP:\n"
    "  bar.sync 0;\n"                        /* 7 */
    "  add.s32 %r1, %r1, 32;\n"              /* 8 */
    "  setp.lt.u32 %p2, %r1, 256;\n"         /* 9 */
    "  @%p2 bra.uni LOOP;\n"                 /* 10: back edge */
    "  st.global.u32 [%rd1], %r2;\n"         /* 11 */
    "  ret;\n"                               /* 12 */
    "}\n";

static void test_barrier_loop(struct hd_test_state *t)
{
    hd_test_begin(t, "the barrier of an innermost loop is its point (bar.pp)");
    struct hd_module *m;
    struct hd_annot *a = store_of(t, k_barrier_loop, &m);
    if (!a)
        return;
    struct hd_ppoints *pp = NULL;
    char err[256];
    HD_CHECK(t, hd_ppoints_build(a, 99, &pp, err, sizeof err) != 0); /* K below 100 */
    HD_CHECK(t, hd_ppoints_build(a, 1001, &pp, err, sizeof err) != 0);
    HD_CHECK(t, hd_ppoints_build(a, 100, &pp, err, sizeof err) == 0);
    if (pp) {
        HD_CHECK_U64(t, 1, pp->n);
        HD_CHECK_U64(t, 1, pp->loops);
        HD_CHECK_U64(t, 7, pp->pt[0].pc);
        HD_CHECK_U64(t, HD_PP_BARPP, pp->pt[0].kind);
        HD_CHECK_U64(t, HD_PP_LOOP_BARRIER, pp->pt[0].why);
        HD_CHECK_U64(t, 3, pp->pt[0].loop_head);
        HD_CHECK_U64(t, 0, pp->extra);
        HD_CHECK(t, hd_ppoints_at(pp, a, 7) == &pp->pt[0]);
        HD_CHECK(t, hd_ppoints_at(pp, a, 6) == NULL);
        HD_CHECK_U64(t, 1, hd_annot_get(a, hd_annot_find_column(a, HD_PP_COLUMN), 7));
        /* the vector: exactly the physical registers of the held live values at PC 7 */
        uint32_t regs[16];
        unsigned n = hd_annot_live_regs(a, 7, false, true, regs, 16);
        uint64_t want = 0;
        for (unsigned i = 0; i < n; i++)
            want |= 1ull << hd_annot_phys(a, regs[i]);
        HD_CHECK(t, n >= 2);
        HD_CHECK_U64(t, want, pp->pt[0].vec);
        HD_CHECK_U64(t, pp->pt[0].vec, pp->pt[0].vec_div); /* bar.pp: one vector */
        HD_CHECK_U64(t, n, hd_ppoints_vec_regs(pp->pt[0].vec));
        HD_CHECK_U64(t, hd_annot_live_words(a, 7, false, true), pp->pt[0].live_words);
    }
    hd_ppoints_free(pp);
    hd_annot_free(a);
    hd_ptx_module_free(m);
}

/* Nested loops without barriers: only the inner one gets a point, at its fewest live words. */
static const char k_nested[] = HEAD
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"            /* 0 */
    "  mov.u32 %r1, %tid.x;\n"               /* 1 */
    "  mov.u32 %r2, 0;\n"                    /* 2 */
    "  mov.u32 %r3, 0;\n"                    /* 3 */
    "OUTER:\n"
    "  mov.u32 %r4, 0;\n"                    /* 4: outer header */
    "INNER:\n"
    "  mul.lo.u32 %r5, %r4, %r1;\n"          /* 5: inner header */
    "  add.u32 %r6, %r5, %r3;\n"             /* 6 */
    "  xor.b32 %r7, %r6, %r5;\n"             /* 7 */
    "  add.u32 %r2, %r2, %r7;\n"             /* 8 */
    "  add.u32 %r4, %r4, 1;\n"               /* 9 */
    "  setp.lt.u32 %p1, %r4, 8;\n"           /* 10 */
    "  @%p1 bra.uni INNER;\n"                /* 11 */
    "  add.u32 %r3, %r3, 1;\n"               /* 12 */
    "  setp.lt.u32 %p2, %r3, 4;\n"           /* 13 */
    "  @%p2 bra.uni OUTER;\n"                /* 14 */
    "  st.global.u32 [%rd1], %r2;\n"         /* 15 */
    "  ret;\n"                               /* 16 */
    "}\n";

static void test_nested(struct hd_test_state *t)
{
    hd_test_begin(t, "nested loops: the inner loop's fewest-live instruction, a pp + dummy");
    struct hd_module *m;
    struct hd_annot *a = store_of(t, k_nested, &m);
    if (!a)
        return;
    struct hd_ppoints *pp = NULL;
    char err[256];
    HD_CHECK(t, hd_ppoints_build(a, 1000, &pp, err, sizeof err) == 0);
    if (pp && HD_CHECK_U64(t, 1, pp->n)) {
        const struct hd_ppoint *p = &pp->pt[0];
        HD_CHECK(t, p->pc >= 5 && p->pc <= 11);
        HD_CHECK_U64(t, HD_PP_PP, p->kind);
        HD_CHECK_U64(t, HD_PP_LOOP_MIN, p->why);
        HD_CHECK_U64(t, 5, p->loop_head);
        HD_CHECK_U64(t, 2, p->extra);
        HD_CHECK_U64(t, 2, pp->extra);
        for (uint32_t pc = 5; pc <= 11; pc++) /* nothing in the body has fewer live words */
            HD_CHECK(t, hd_annot_live_words(a, pc, false, true) >= p->live_words);
        HD_CHECK_U64(t, hd_ppoints_vector(a, p->pc, true), p->vec_div);
        HD_CHECK_U64(t, p->vec, p->vec & p->vec_div); /* the union contains the plain row */
    }
    hd_ppoints_free(pp);
    hd_annot_free(a);
    hd_ptx_module_free(m);
}

/* A loop whose fewest-live instruction sits in a branch only some iterations take (%r8 is
 * redefined there, so not live into it): the point must be an instruction every iteration runs
 * (issue 24, session 14: bfs's point in its `visited == -1` branch). */
static const char k_branch[] = HEAD
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"            /* 0 */
    "  mov.u32 %r1, %tid.x;\n"               /* 1 */
    "  mov.u32 %r2, 0;\n"                    /* 2 */
    "  mov.u32 %r3, 0;\n"                    /* 3 */
    "  mov.u32 %r8, 3;\n"                    /* 4 */
    "LOOP:\n"
    "  add.u32 %r3, %r3, 1;\n"               /* 5: header */
    "  and.b32 %r4, %r3, %r1;\n"             /* 6 */
    "  setp.eq.u32 %p1, %r4, 0;\n"           /* 7 */
    "  @%p1 bra JOIN;\n"                     /* 8 */
    "  mov.u32 %r8, %r1;\n"                  /* 9: only when %r3 & tid != 0 */
    "JOIN:\n"
    "  add.u32 %r2, %r2, %r8;\n"             /* 10 */
    "  setp.lt.u32 %p2, %r3, 8;\n"           /* 11 */
    "  @%p2 bra.uni LOOP;\n"                 /* 12: back edge */
    "  st.global.u32 [%rd1], %r2;\n"         /* 13 */
    "  ret;\n"                               /* 14 */
    "}\n";

static void test_every_iteration(struct hd_test_state *t)
{
    hd_test_begin(t, "a loop's point is an instruction every iteration runs, not a branch's");
    struct hd_module *m;
    struct hd_annot *a = store_of(t, k_branch, &m);
    if (!a)
        return;
    struct hd_ppoints *pp = NULL;
    char err[256];
    HD_CHECK(t, hd_ppoints_build(a, 1000, &pp, err, sizeof err) == 0);
    if (pp && HD_CHECK_U64(t, 1, pp->n)) {
        const struct hd_ppoint *p = &pp->pt[0];
        HD_CHECK_U64(t, HD_PP_LOOP_MIN, p->why);
        HD_CHECK_U64(t, 5, p->loop_head);
        HD_CHECK(t, p->pc >= 5 && p->pc <= 12 && p->pc != 9);
        /* the branch does hold fewer live words (else this would test nothing) */
        HD_CHECK(t, hd_annot_live_words(a, 9, false, true) < p->live_words);
        for (uint32_t pc = 5; pc <= 12; pc++) /* the fewest among the every-iteration PCs */
            if (pc != 9)
                HD_CHECK(t, hd_annot_live_words(a, pc, false, true) >= p->live_words);
    }
    hd_ppoints_free(pp);
    hd_annot_free(a);
    hd_ptx_module_free(m);
}

/* A straight-line kernel of about n instructions, with a barrier after instruction `bar` (or
 * none when bar < 0). */
static char *straight(unsigned n, int bar)
{
    size_t cap = 256 + 48ull * n;
    char *s = malloc(cap);
    size_t at = (size_t)snprintf(s, cap, HEAD ".visible .entry k(.param .u64 p)\n{\n"
                                 "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<2>;\n"
                                 "  ld.param.u64 %%rd1, [p];\n  mov.u32 %%r1, %%tid.x;\n");
    for (unsigned i = 0; i < n; i++) {
        at += (size_t)snprintf(s + at, cap - at, "  add.u32 %%r1, %%r1, %u;\n", i + 1);
        if ((int)i == bar)
            at += (size_t)snprintf(s + at, cap - at, "  bar.sync 0;\n");
    }
    snprintf(s + at, cap - at, "  st.global.u32 [%%rd1], %%r1;\n  ret;\n}\n");
    return s;
}

static unsigned points_of(struct hd_test_state *t, unsigned n, int bar, unsigned k,
                          unsigned *barpp)
{
    char *text = straight(n, bar);
    struct hd_module *m;
    struct hd_annot *a = store_of(t, text, &m);
    free(text);
    unsigned got = 0;
    *barpp = 0;
    if (!a)
        return 0;
    struct hd_ppoints *pp = NULL;
    char err[256];
    HD_CHECK(t, hd_ppoints_build(a, k, &pp, err, sizeof err) == 0);
    if (pp) {
        got = pp->n;
        HD_CHECK_U64(t, 0, pp->loops);
        for (uint32_t i = 0; i < pp->n; i++) {
            *barpp += pp->pt[i].kind == HD_PP_BARPP;
            HD_CHECK_U64(t, UINT32_MAX, pp->pt[i].loop_head);
        }
    }
    hd_ppoints_free(pp);
    hd_annot_free(a);
    hd_ptx_module_free(m);
    return got;
}

static void test_k_rule(struct hd_test_state *t)
{
    hd_test_begin(t, "outside loops: one point per K instructions, a barrier always");
    unsigned barpp;
    /* 2 + 90 + 2 = 94 instructions, no loop, no barrier, K = 100: none (SM-draining) */
    HD_CHECK_U64(t, 0, points_of(t, 90, -1, 100, &barpp));
    /* the same with a barrier: the barrier */
    HD_CHECK_U64(t, 1, points_of(t, 90, 40, 100, &barpp));
    HD_CHECK_U64(t, 1, barpp);
    /* 2 + 450 + 2 = 454: 4 full windows of 100, the partial one without a barrier: 4 */
    HD_CHECK_U64(t, 4, points_of(t, 450, -1, 100, &barpp));
    HD_CHECK_U64(t, 0, barpp);
    /* K = 200: 2; K = 1000: none */
    HD_CHECK_U64(t, 2, points_of(t, 450, -1, 200, &barpp));
    HD_CHECK_U64(t, 0, points_of(t, 450, -1, 1000, &barpp));
    /* a barrier inside the second window of 100 is that window's point */
    HD_CHECK_U64(t, 4, points_of(t, 450, 150, 100, &barpp));
    HD_CHECK_U64(t, 1, barpp);
}

/* One decoder step with word w (valid) and the next with nothing: the result of w. */
static struct hd_pp_decode_out decode(struct hd_pp_decode_state *s, uint64_t w,
                                      struct hd_pp_decode_out *during)
{
    struct hd_pp_decode_in in = {0}, idle = {0};
    struct hd_pp_decode_out out;
    in.valid_i = 1;
    in.inst_i = w;
    hd_pp_decode_ref_step(s, &in, during);
    hd_pp_decode_ref_step(s, &idle, &out);
    return out;
}

static void test_decode(struct hd_test_state *t)
{
    hd_test_begin(t, "pp_decode: hand-worked words (digest §2.1, §3.2), one cycle late");
    struct hd_pp_decode_state s;
    hd_pp_decode_ref_reset(&s);
    struct hd_pp_decode_out during, o;
    /* BP_1 (digest §2.1): 13 registers, all live: R0..R12 = 0x1FFF; 13 x 128 B = 1664 B/warp */
    const uint64_t bp1 = 0xFC00000000001FFFull; /* 0x3F0 << 54 | 0x1FFF */
    HD_CHECK_U64(t, bp1, hd_pp_encode(HD_PPDEC_OP_PP, 0x1FFF));
    o = decode(&s, bp1, &during);
    HD_CHECK_U64(t, 0, during.valid_o); /* registered: nothing in the cycle of the input */
    HD_CHECK(t, o.valid_o && o.is_pp_o && !o.is_dummy_o && !o.is_barpp_o);
    HD_CHECK_U64(t, 0x1FFF, o.live_o);
    HD_CHECK_U64(t, 13, o.nregs_o);
    HD_CHECK_U64(t, 1664, o.nregs_o * 128);
    /* its dummy with a 5-register set {R0, R1, R2, R5, R12} = 0x1027 (640 B uncompressed) */
    const uint64_t dummy = 0xFC40000000001027ull; /* 0x3F1 << 54 | 0x1027 */
    HD_CHECK_U64(t, dummy, hd_pp_encode(HD_PPDEC_OP_DUMMY, (1u << 0) | (1u << 1) | (1u << 2) |
                                                               (1u << 5) | (1u << 12)));
    o = decode(&s, dummy, &during);
    HD_CHECK(t, o.valid_o && o.is_dummy_o && !o.is_pp_o);
    HD_CHECK_U64(t, 0x1027, o.live_o);
    HD_CHECK_U64(t, 5, o.nregs_o);
    /* bar.pp with R0 and "some register >= R53": R0 + R53..R63 = 12 registers */
    const uint64_t barpp = 0xFCA0000000000001ull; /* 0x3F2 << 54 | 1 << 53 | 1 */
    o = decode(&s, barpp, &during);
    HD_CHECK(t, o.valid_o && o.is_barpp_o && !o.is_pp_o && !o.is_dummy_o);
    HD_CHECK_U64(t, (1ull << 53) | 1, o.live_o);
    HD_CHECK_U64(t, 12, o.nregs_o);
    /* the compiler's count of a vector agrees with the block's */
    HD_CHECK_U64(t, 12, hd_ppoints_vec_regs((1ull << 53) | 1));
    HD_CHECK_U64(t, HD_PP_VEC_BITS, 54);
    /* a neighbouring opcode (0x3F3) is no point: no vector, no count */
    o = decode(&s, 0xFCC0000000001FFFull, &during);
    HD_CHECK(t, o.valid_o && !o.is_pp_o && !o.is_dummy_o && !o.is_barpp_o);
    HD_CHECK_U64(t, 0, o.live_o);
    HD_CHECK_U64(t, 0, o.nregs_o);
    /* idle: idle() holds, outputs zero */
    struct hd_pp_decode_in idle = {0};
    hd_pp_decode_ref_step(&s, &idle, &o);
    HD_CHECK(t, hd_pp_decode_ref_idle(&s, &idle));
    HD_CHECK_U64(t, 0, o.valid_o);
    /* back to back: each result exactly one step after its word */
    struct hd_pp_decode_in a = {1, hd_pp_encode(HD_PPDEC_OP_PP, 3)};
    struct hd_pp_decode_in b = {1, hd_pp_encode(HD_PPDEC_OP_DUMMY, 7)};
    hd_pp_decode_ref_step(&s, &a, &o);
    hd_pp_decode_ref_step(&s, &b, &o);
    HD_CHECK(t, o.is_pp_o && o.live_o == 3 && o.nregs_o == 2);
    hd_pp_decode_ref_step(&s, &idle, &o);
    HD_CHECK(t, o.is_dummy_o && o.live_o == 7 && o.nregs_o == 3);
    HD_CHECK_U64(t, 1, HD_LATENCY_pp_decode);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_barrier_loop(&t);
    test_nested(&t);
    test_every_iteration(&t);
    test_k_rule(&t);
    test_decode(&t);
    return hd_test_finish(&t);
}
