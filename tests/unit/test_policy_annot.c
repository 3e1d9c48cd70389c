/* SPDX-License-Identifier: MIT
 * test_policy_annot.c - the annotation store (model/compiler/annot.h): on every PTX function of
 * the tree, its live rows (plain and divergence-aware) and held registers equal what the
 * co-simulation computes today (cosim/cosim_regpat.c fn_info/live_row: its own CFG, liveness and
 * a default-budget allocation), and its register count equals a direct allocation; natural loops,
 * barriers, reconvergence PCs and fetch costs on a small kernel; open columns; a fetch cost on
 * a PC delays the warp by exactly that many cycles in a whole run, and the timing view keeps
 * the store of each kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "annot.h"
#include "cfg.h"
#include "liveness.h"
#include "ptx_corpus.h"
#include "ptx_parse.h"
#include "regalloc.h"
#include "testutil.h"
#include "timing_testkit.h"
#include "gpu_impl.h"
#include "rt_internal.h"

/* {==== The store against the co-simulation's own recomputation ==== */
struct cmp_ctx {
    struct hd_test_state *t;
    unsigned funcs, pcs, mismatches;
    uint32_t *regs;
    uint64_t *row;
};

/* What cosim_regpat.c fn_info() + live_row() + on_sample() compute for f at lpc: live kernel
 * registers (held only) in dense order. */
static unsigned cosim_live(const struct hd_liveness *lv, const uint8_t *held, uint32_t lpc,
                           bool divergent, uint64_t *row, uint32_t *out)
{
    const uint64_t *r = hd_liveness_in_row(lv, lpc, HD_RC_DATA);
    if (divergent) {
        hd_liveness_divergent_row(lv, lpc, HD_RC_DATA, row);
        r = row;
    }
    unsigned n = 0;
    for (uint32_t i = 0; i < lv->n[HD_RC_DATA]; i++) {
        if (!(r[i / 64] >> (i % 64) & 1u))
            continue;
        uint32_t reg = lv->reg_of[HD_RC_DATA][i];
        if (held[reg])
            out[n++] = reg;
    }
    return n;
}

static int compare_func(void *vctx, const char *path, const struct hd_func *f)
{
    struct cmp_ctx *c = vctx;
    struct hd_test_state *t = c->t;
    char err[512] = "";
    /* the co-simulation's recomputation (default allocator parameters, no call linking) */
    struct hd_cfg *cfg = hd_cfg_build(f);
    struct hd_liveness *lv = cfg ? hd_liveness_build(f, cfg, err, sizeof err) : NULL;
    if (!lv) {
        hd_cfg_free(cfg);
        return 0; /* malformed on purpose (tests/ptx/good has none; nothing to compare) */
    }
    struct hd_regalloc ra;
    uint8_t *held = malloc(f->nregs + 1);
    memset(held, 1, f->nregs + 1);
    bool ra_ok = hd_regalloc_run(f, cfg, lv, NULL, &ra, err, sizeof err) == 0;
    if (ra_ok)
        for (uint32_t r = 0; r < f->nregs && r < ra.nregs; r++)
            held[r] = ra.kind[r] == HD_RA_REG || ra.kind[r] == HD_RA_SPILLED;
    /* the store of f as a one-function image, with the same (default) budget */
    const struct hd_module *m = f->module;
    uint32_t index = (uint32_t)(f - m->funcs);
    struct hd_annot_func af = {f, index, 0, 0};
    struct hd_annot_params ap = {0};
    struct hd_annot *a = NULL;
    HD_CHECK(t, hd_annot_build(m, &af, 1, 0, f->ninstrs, f->nregs, &ap, &a, err, sizeof err) == 0);
    if (a) {
        c->funcs++;
        if (ra_ok && f->ncalls == 0 && a->ra_ok)
            HD_CHECK_U64(t, ra.regs_per_thread, a->regs_per_thread);
        uint32_t want[1024];
        for (uint32_t pc = 0; pc < f->ninstrs && pc < lv->ninstrs; pc++) {
            for (int div = 0; div < 2; div++) {
                unsigned n = cosim_live(lv, held, pc, div, c->row, want);
                unsigned got = hd_annot_live_regs(a, pc, div, true, c->regs, 4096);
                bool same = n == got && (n == 0 || memcmp(want, c->regs, n * sizeof *want) == 0);
                c->pcs++;
                if (!same && c->mismatches++ < 5)
                    fprintf(stderr, "  %s: %s PC %u (%s): cosim %u live, store %u\n", path,
                            f->name, pc, div ? "divergent" : "plain", n, got);
            }
        }
        hd_annot_free(a);
    }
    if (ra_ok)
        hd_regalloc_free(&ra);
    free(held);
    hd_liveness_free(lv);
    hd_cfg_free(cfg);
    return 0;
}

static void test_store_equals_cosim(struct hd_test_state *t)
{
    hd_test_begin(t, "store liveness = the co-simulation's recomputation, every PTX function");
    struct cmp_ctx c = {t, 0, 0, 0, calloc(4096, sizeof(uint32_t)), calloc(4096, sizeof(uint64_t))};
    unsigned nfuncs = 0;
    HD_CHECK(t, hd_ptx_corpus_each(compare_func, &c, &nfuncs) == 0);
    HD_CHECK(t, c.funcs > 50);
    HD_CHECK_U64(t, 0, c.mismatches);
    fprintf(stderr, "  %u functions, %u PC rows compared\n", c.funcs, c.pcs);
    free(c.regs);
    free(c.row);
}
/* }==== */

/* {==== Per-PC facts on a small kernel ==== */
static const char *k_loop =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
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

static void test_flags(struct hd_test_state *t)
{
    hd_test_begin(t, "loops, branches, barriers, reconvergence, fetch cost, columns");
    char err[512] = "";
    struct hd_module *m = hd_ptx_parse(k_loop, strlen(k_loop), "loop.ptx", err, sizeof err);
    if (!HD_CHECK(t, m != NULL)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    const struct hd_func *f = &m->funcs[0];
    /* placed at PC 100 and register 10 of an image, as a called function would be */
    struct hd_annot_func af = {f, 0, 100, 10};
    struct hd_annot_params ap = {63};
    struct hd_annot *a = NULL;
    HD_CHECK(t, hd_annot_build(m, &af, 1, 0, 100 + f->ninstrs, 10 + f->nregs, &ap, &a, err,
                               sizeof err) == 0);
    if (!a) {
        hd_ptx_module_free(m);
        return;
    }
    HD_CHECK(t, a->ra_ok);
    HD_CHECK(t, !(hd_annot_flags(a, 102) & HD_AN_IN_LOOP));
    HD_CHECK(t, hd_annot_flags(a, 103) & HD_AN_LOOP_HEAD);
    for (uint32_t pc = 103; pc <= 110; pc++)
        HD_CHECK(t, hd_annot_flags(a, pc) & HD_AN_IN_LOOP);
    HD_CHECK_U64(t, 1, a->pc[106].loop_depth);
    HD_CHECK(t, !(hd_annot_flags(a, 111) & HD_AN_IN_LOOP));
    HD_CHECK(t, hd_annot_flags(a, 110) & HD_AN_BACK_EDGE);
    HD_CHECK(t, !(hd_annot_flags(a, 110) & HD_AN_DIVERGENT)); /* bra.uni */
    HD_CHECK(t, hd_annot_flags(a, 105) & HD_AN_DIVERGENT);
    HD_CHECK(t, hd_annot_flags(a, 105) & HD_AN_BRANCH);
    HD_CHECK_U64(t, 107, (uint64_t)hd_annot_reconv(a, 105)); /* kernel-wide PC of SKIP */
    HD_CHECK(t, hd_annot_flags(a, 106) & HD_AN_MAY_DIVERGE);
    HD_CHECK(t, hd_annot_flags(a, 107) & HD_AN_BARRIER);
    HD_CHECK(t, hd_annot_flags(a, 112) & HD_AN_EXIT);
    HD_CHECK(t, hd_annot_fn_at(a, 50, NULL) == NULL);
    /* registers: r1, r2 and rd1 live in the loop body; rd1 is a remat constant (not held) */
    uint32_t regs[16];
    unsigned all = hd_annot_live_regs(a, 106, false, false, regs, 16);
    unsigned held = hd_annot_live_regs(a, 106, false, true, regs, 16);
    HD_CHECK(t, all >= held && held >= 2);
    for (unsigned i = 0; i < held && i < 16; i++) {
        HD_CHECK(t, regs[i] >= 10);
        HD_CHECK(t, hd_annot_phys(a, regs[i]) >= 0);
        HD_CHECK_U64(t, 1, hd_annot_reg_words(a, regs[i]));
    }
    HD_CHECK(t, hd_annot_live_words(a, 106, true, true) >=
                    hd_annot_live_words(a, 106, false, true));
    /* fetch cost and columns */
    HD_CHECK_U64(t, 0, hd_annot_fetch_extra(a, 103));
    hd_annot_set_fetch_extra(a, 103, 2);
    HD_CHECK_U64(t, 2, hd_annot_fetch_extra(a, 103));
    HD_CHECK(t, hd_annot_find_column(a, "pp") < 0);
    int c = hd_annot_column(a, "pp");
    HD_CHECK(t, c >= 0 && hd_annot_column(a, "pp") == c);
    HD_CHECK_U64(t, 0, hd_annot_get(a, c, 105));
    hd_annot_set(a, c, 105, 7);
    HD_CHECK_U64(t, 7, hd_annot_get(a, c, 105));
    HD_CHECK_U64(t, 0, hd_annot_get(a, c + 1, 105));
    hd_annot_free(a);
    hd_ptx_module_free(m);
}
/* }==== */

/* {==== The store in a run ==== */
static const char k_line[] = TKIT_HEAD
    ".visible .entry line(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tadd.u32 %r2, %r1, 1;\n"
    "\tmul.lo.u32 %r3, %r2, %r2;\n\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";

static uint64_t line_cycles(struct hd_gpu *g, struct hd_module *m, hd_devptr out, unsigned idx)
{
    struct hd_arg a[1] = {HD_ARG(out)};
    tkit_launch(g, m, "line", 1, 32, 0, a, 1);
    return tkit_cycles(g, idx);
}

static void test_fetch_cost(struct hd_test_state *t)
{
    hd_test_begin(t, "a fetch cost delays a lone warp by at most that much, exactly when exposed");
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n");
    struct hd_module *m = tkit_module(g, k_line);
    hd_devptr out;
    hd_malloc(g, &out, 64);
    line_cycles(g, m, out, 0); /* warms the instruction cache, builds the timing view */
    uint64_t base = line_cycles(g, m, out, 1);
    HD_CHECK(t, g->timing && g->timing->ntk == 1);
    if (!g->timing || g->timing->ntk != 1) {
        hd_gpu_destroy(g);
        return;
    }
    struct hd_annot *an = g->timing->tk[0].tk->an;
    HD_CHECK(t, an != NULL && an->ra_ok);
    HD_CHECK_U64(t, g->timing->tk[0].tk->regs_per_thread, an->regs_per_thread);
    hd_annot_set_fetch_extra(an, 0, 7); /* the first fetch: nothing hides it */
    HD_CHECK_U64(t, base + 7, line_cycles(g, m, out, 2));
    hd_annot_set_fetch_extra(an, 0, 0);
    hd_annot_set_fetch_extra(an, 3, 7); /* partly hidden behind the wait for %r2 */
    uint64_t slow = line_cycles(g, m, out, 3);
    HD_CHECK(t, slow > base && slow <= base + 7);
    hd_annot_set_fetch_extra(an, 3, 0);
    HD_CHECK_U64(t, base, line_cycles(g, m, out, 4));
    hd_gpu_destroy(g);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_store_equals_cosim(&t);
    test_flags(&t);
    test_fetch_cost(&t);
    return hd_test_finish(&t);
}
