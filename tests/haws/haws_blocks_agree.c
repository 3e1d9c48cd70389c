/* SPDX-License-Identifier: MIT
 * haws_blocks_agree.c - the HAWS blocks' C references (tables/haws_shadow_stack.c,
 * tables/haws_warp_ctl.c) driven by the model's own run-ahead events on real workload kernels
 * (issue 30 item 4; docs/blocks/haws.md "Shadow stack and warp controller blocks").
 *
 * Each kernel (sgemm_tiled, mvt_rows, bsearch_keys from workloads/, a divergent kernel and a
 * loop kernel) runs
 * functionally three times: once plainly in order, once with a HAWS episode at every stall point
 * that has a hint window (model/mech/haws/haws_hints.c), once the same with back-edge windows
 * ([haws] back_edges: the walk crosses the innermost loop's back edge into the next iteration). An episode is model/timing/sm_ahead.c's,
 * made of the functional model's own steps (model/func/exec_ahead.c): the trigger snapshots the
 * warp's stack and skips the stall point, each walk cycle skips the unselected instructions and
 * runs one selected one ahead on the model's shadow stack (hd_func_ahead_skip/_step) until the
 * chain ends or a random number of cycles passes (the load returned); then in-order execution
 * returns through the fetch filter. Per walk cycle the same events are the blocks' inputs (the
 * copy and the advances and branch for the shadow stack; trigger, skips, issue and park for the
 * warp controller), and after each:
 *   - every entry of the shadow-stack reference equals the model's shadow entry base + i, its
 *     depth equals the model's sp - base (0 when the model's top fell below the stall point's
 *     entry), and the model parks its walk when the block's stack is empty;
 *   - the warp controller accepts the trigger, records each issue with the model's walk step,
 *     the hint's rename bit and the load tag, and says the window selects it.
 * At the return, the warp controller's filter decides every in-order step; the test applies its
 * answer with the model's functions (skip/copy: hd_func_ahead_commit, which must succeed; none:
 * hd_func_warp_step) and checks it against the model's rule (commit exactly the non-branch entry
 * whose step is the in-order step, never a mismatch). Finally every output buffer equals the
 * plain run's, bit for bit. Prints "haws_blocks_agree: ... 0 disagreements".
 */
#include "devmem.h"
#include "exec.h"
#include "exec_ahead.h"
#include "func_status.h"
#include "haws_hints.h"
#include "haws_shadow_stack.h"
#include "haws_warp_ctl.h"
#include "launch.h"
#include "module.h"
#include "ptx_parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checks, bad;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(c)) {                                                                                \
            if (bad++ < 10) {                                                                      \
                fprintf(stderr, "haws_blocks_agree: DISAGREE: " __VA_ARGS__);                      \
                fputc('\n', stderr);                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)
#define FATAL(...)                                                                                 \
    do {                                                                                           \
        fprintf(stderr, "haws_blocks_agree: FAILED: " __VA_ARGS__);                                \
        fputc('\n', stderr);                                                                       \
        exit(1);                                                                                   \
    } while (0)

#define DEPTH 8 /* the RCU (configs/kepler-gk110.ini [haws] rcu_depth) */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t below(uint32_t n)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ull) >> 32) % n;
}

/* Totals over every kernel. */
static struct {
    unsigned long episodes, walk_cycles, issued, branches, diverged, skips, commits, copies,
        branch_pops, parks_empty, fetch_hits, steps_compared, shadow_deeper;
    unsigned long back_windows, back_issued; /* back-edge windows' episodes, issues before S */
} tot;

/* One warp's HAWS state: the model's side and the two blocks. */
struct hw {
    /* the model (sm_ahead.c's struct ah_warp, functional part) */
    const struct hd_ahead_hints *h;
    struct hd_func_ahead_stack sh;
    uint32_t base, step, n, head;
    struct hd_func_ahead_result r[DEPTH];
    uint32_t rstep[DEPTH];
    bool rren[DEPTH];
    uint32_t io; /* the model's in-order step since the stall point */
    bool deeper; /* the model's shadow stack outgrew the block's this episode */
    /* the blocks */
    struct hd_haws_shadow_stack_state ss;
    struct hd_haws_warp_ctl_state wc;
};

static const uint64_t *lookup(void *ctx, int32_t reg)
{
    const struct hw *a = ctx;
    for (uint32_t k = a->n; k-- > 0;)
        for (uint32_t j = 0; j < a->r[k].ndst; j++)
            if (a->r[k].reg[j] == reg)
                return a->r[k].v[j];
    return NULL;
}

static struct hd_haws_shadow_stack_in ss_zero(void)
{
    struct hd_haws_shadow_stack_in in;
    memset(&in, 0, sizeof in);
    return in;
}

static struct hd_haws_warp_ctl_in wc_zero(const struct hw *a)
{
    struct hd_haws_warp_ctl_in in;
    memset(&in, 0, sizeof in);
    in.rcu_n_i = a->n;
    if (a->n) {
        in.head_step_i = a->rstep[a->head];
        in.head_pc_i = a->r[a->head].pc;
        in.head_br_i = a->r[a->head].branch;
        in.head_ready_i = 1; /* functional: written back at once */
        in.head_ren_i = a->rren[a->head];
    }
    return in;
}

/* The shadow-stack reference equals the model's shadow entries from base up. */
static void compare_shadow(struct hw *a, const char *kname, uint32_t pc)
{
    const uint32_t msp = a->sh.sp > a->base ? a->sh.sp - a->base : 0;
    if (a->deeper || msp > HD_HAWS_SHADOW_DEPTH) {
        /* the block's ovf case (its chain ends there, the model's 64-deep one goes on):
         * counted, not compared for the rest of the episode */
        tot.shadow_deeper += !a->deeper;
        a->deeper = true;
        return;
    }
    tot.steps_compared++;
    CHECK(a->ss.cnt == msp, "%s stall PC %u: shadow depth %u, the model's %u", kname, pc,
          a->ss.cnt, msp);
    for (uint32_t i = 0; i < msp && i < a->ss.cnt; i++) {
        const struct hd_func_simt_entry *m = &a->sh.e[a->base + i];
        const struct hd_haws_shadow_entry *b = &a->ss.e[i];
        CHECK(b->pc == (uint32_t)m->pc && b->rpc == (uint32_t)m->rpc && b->mask == m->mask,
              "%s stall PC %u: shadow entry %u {%" PRIu64 ", %" PRIu64 ", %08" PRIx64
              "}, the model's {%d, %d, %08x}",
              kname, pc, i, b->pc, b->rpc, b->mask, m->pc, m->rpc, m->mask);
    }
}

/* One walk cycle of warp w (sm_ahead.c try_issue), with the trigger first when `trig`. Returns
 * false when the chain ended. */
static bool walk_cycle(struct hd_func_launch *l, struct hd_func_cta *c, struct hd_func_warp *w,
                       struct hw *a, bool trig, const char *kname)
{
    const struct hd_func_kernel *k = l->k;
    const struct hd_ahead_hints *h = a->h;
    struct hd_haws_shadow_stack_in si = ss_zero();
    struct hd_haws_warp_ctl_in ci = wc_zero(a);
    struct hd_haws_shadow_stack_out so;
    struct hd_haws_warp_ctl_out co;
    if (trig) {
        const struct hd_func_simt_entry *t = &w->stack[w->sp - 1];
        si.copy_v_i = 1;
        si.copy_pc_i = (uint32_t)t->pc;
        si.copy_rpc_i = (uint32_t)t->rpc;
        si.copy_mask_i = t->mask;
        si.adv_n_i = 1; /* the stall point stays for in-order execution */
        ci.trig_v_i = 1;
        ci.trig_pc_i = (uint32_t)t->pc;
        ci.trig_len_i = h->len;
        ci.trig_first_i = h->first;
        ci.trig_sel_i = h->sel;
        ci.trig_ren_i = h->ren;
        ci.trig_reach_i = h->reach;
        hd_func_ahead_snapshot(w, &a->sh);
        a->base = a->sh.sp - 1;
        hd_func_ahead_skip(w, &a->sh);
        a->step = 1;
        a->n = a->head = 0;
        a->io = 0;
        a->deeper = false;
        tot.episodes++;
        tot.back_windows += h->first < h->stall_pc;
    }
    const uint64_t fetch_v = a->wc.q.fetch_v_o, fetch_pc = a->wc.q.fetch_pc_o;
    bool live = true, issued = false, branch = false;
    struct hd_func_ahead_result *res = NULL;
    uint32_t ipc = 0, skips = 0;
    for (;;) {
        uint32_t pc, mask;
        if (!hd_func_ahead_top(&a->sh, &pc, &mask) || a->sh.sp - 1 < a->base || pc < h->first ||
            pc >= h->first + h->len || !(h->reach >> (pc - h->first) & 1u)) {
            live = false;
            break;
        }
        const uint32_t i = pc - h->first;
        const struct hd_func_instr *d = &k->code[pc];
        if (!(h->sel >> i & 1u)) {
            if (hd_func_ahead_is_control(d)) {
                live = false;
                break;
            }
            hd_func_ahead_skip(w, &a->sh);
            a->step++;
            skips++;
            continue;
        }
        if (a->n == DEPTH) {
            live = false;
            break;
        }
        res = &a->r[a->n];
        if (hd_func_ahead_step(l, c, w, &a->sh, lookup, a, res, NULL) != HD_FUNC_OK) {
            live = false;
            break;
        }
        a->rstep[a->n] = a->step++;
        a->rren[a->n] = h->ren >> i & 1u;
        issued = true;
        branch = res->branch;
        ipc = pc;
        break;
    }
    si.adv_n_i += skips + (issued && !branch);
    if (issued && branch) {
        const struct hd_func_instr *d = &k->code[ipc];
        si.br_v_i = 1;
        si.br_taken_i = res->exec;
        si.br_target_i = (uint32_t)d->target;
        si.br_reconv_i = (uint32_t)d->reconv;
        tot.branches++;
        tot.diverged += res->exec && (res->active & ~res->exec);
    }
    ci.wk_skip_n_i = skips;
    ci.wk_iss_v_i = issued;
    ci.wk_iss_pc_i = ipc;
    ci.wk_park_i = !live;
    hd_haws_shadow_stack_ref_step(&a->ss, &si, &so);
    hd_haws_warp_ctl_ref_step(&a->wc, &ci, &co);
    tot.walk_cycles++;
    tot.skips += skips;
    if (trig)
        CHECK(a->wc.q.trig_ok_o && a->wc.mode == HD_HAWS_HINT, "%s: trigger at PC %u refused",
              kname, h->stall_pc);
    if (issued) {
        tot.issued++;
        tot.back_issued += ipc < h->stall_pc; /* through the back edge: the next iteration */
        tot.fetch_hits += fetch_v && fetch_pc == ipc && !trig;
        CHECK(a->wc.q.iss_v_o && a->wc.q.iss_ok_o, "%s stall PC %u: issue of PC %u not selected",
              kname, h->stall_pc, ipc);
        CHECK(a->wc.q.iss_step_o == a->rstep[a->n], "%s PC %u: issue step %" PRIu64 ", model %u",
              kname, ipc, a->wc.q.iss_step_o, a->rstep[a->n]);
        CHECK(a->wc.q.iss_ren_o == a->rren[a->n], "%s PC %u: rename bit", kname, ipc);
        CHECK(a->wc.q.iss_tag_o == ((uint64_t)a->wc.gen << 8 | a->n), "%s PC %u: load tag", kname,
              ipc);
        a->n++;
    }
    CHECK(a->wc.step == a->step, "%s stall PC %u: walk step %u, model %u", kname, h->stall_pc,
          a->wc.step, a->step);
    if (!a->ss.cnt && !a->deeper) { /* the block's empty stack is one of the model's reasons to park */
        /* (or the instruction just issued left the stall point's entries, e.g. a loop's back
         * edge taken by no lane: the model parks at its next walk cycle; compare_shadow checks
         * that its stack is empty too) */
        CHECK(!live || issued, "%s stall PC %u: shadow stack empty, the model's walk goes on",
              kname, h->stall_pc);
        tot.parks_empty++;
    }
    compare_shadow(a, kname, h->stall_pc);
    return live;
}

/* One in-order step of warp w through the warp controller's fetch filter. Returns an error
 * status of the model, or HD_FUNC_OK. */
static int inorder_step(struct hd_func_launch *l, struct hd_func_cta *c, struct hd_func_warp *w,
                        struct hw *a, const char *kname)
{
    uint32_t pc, mask;
    if (!hd_func_warp_next(w, &pc, &mask))
        return HD_FUNC_OK;
    struct hd_haws_warp_ctl_in ci = wc_zero(a);
    ci.flt_v_i = 1;
    ci.flt_pc_i = pc;
    ci.flt_mask_ok_i = !a->n || a->r[a->head].active == mask;
    struct hd_haws_warp_ctl_state t = a->wc; /* what will the filter say (for stepped_i) */
    struct hd_haws_warp_ctl_out co;
    hd_haws_warp_ctl_ref_step(&t, &ci, &co);
    const uint32_t ans = (uint32_t)t.q.flt_o;
    ci.stepped_i = ans == HD_HAWS_FLT_NONE;
    /* the model's rule (docs/blocks/haws.md §4.3), from the model's own counters */
    const bool active = a->wc.mode != HD_HAWS_IDLE;
    const bool at_head = active && a->n && a->rstep[a->head] == a->io;
    const bool want_commit = at_head && !a->r[a->head].branch;
    hd_haws_warp_ctl_ref_step(&a->wc, &ci, &co);
    CHECK(!a->wc.q.mism_o, "%s PC %u: the filter discarded an episode (in-order step %u)", kname,
          pc, a->io);
    CHECK(ans != HD_HAWS_FLT_WAIT, "%s PC %u: wait on a written-back result", kname, pc);
    CHECK((ans == HD_HAWS_FLT_SKIP || ans == HD_HAWS_FLT_COPY) == want_commit,
          "%s PC %u: filter says %u, the model %s", kname, pc, ans,
          want_commit ? "commits" : "executes");
    if (want_commit)
        CHECK((ans == HD_HAWS_FLT_COPY) == a->rren[a->head], "%s PC %u: skip vs copy", kname, pc);
    int st = HD_FUNC_OK;
    if (ans == HD_HAWS_FLT_SKIP || ans == HD_HAWS_FLT_COPY) {
        struct hd_func_trace tr;
        CHECK(hd_func_ahead_commit(l, w, &a->r[a->head], &tr),
              "%s PC %u: the model refuses the commit", kname, pc);
        tot.commits++;
        tot.copies += ans == HD_HAWS_FLT_COPY;
    } else {
        if (a->wc.q.pop_o)
            tot.branch_pops++;
        st = hd_func_warp_step(l, c, w, 0, NULL);
    }
    if (active)
        a->io++;
    if (a->wc.q.clear_o) {
        a->n = a->head = 0;
        struct hd_haws_shadow_stack_in si = ss_zero();
        struct hd_haws_shadow_stack_out so;
        si.clear_i = 1;
        hd_haws_shadow_stack_ref_step(&a->ss, &si, &so);
        CHECK(a->ss.cnt == 0, "%s: shadow stack not discarded", kname);
    } else if (a->wc.q.pop_o) {
        a->head++;
        a->n--;
    }
    return st;
}

/* Run every CTA of l; with hk, HAWS episodes at the stall points (back_only: only at those with a
 * back-edge window). */
static void run(struct hd_func_launch *l, const struct hd_haws_kernel_hints *hk, const char *kname,
                bool back_only)
{
    char err[256];
    for (uint64_t cta = 0; cta < l->nctas; cta++) {
        struct hd_func_cta c;
        if (hd_func_cta_init(&c, l, cta, 0, err, sizeof err) != 0)
            FATAL("%s: CTA: %s", kname, err);
        struct hw *hs = calloc(c.nwarps, sizeof *hs);
        if (!hs)
            FATAL("host memory");
        for (uint32_t i = 0; i < c.nwarps; i++) {
            hd_haws_shadow_stack_ref_reset(&hs[i].ss);
            hd_haws_warp_ctl_ref_reset(&hs[i].wc);
        }
        while (!hd_func_cta_done(&c)) {
            bool moved = false;
            for (uint32_t i = 0; i < c.nwarps; i++) {
                struct hd_func_warp *w = &c.warps[i];
                struct hw *a = &hs[i];
                for (uint32_t n = 1 + below(6); n > 0 && hd_func_warp_ready(w); n--) {
                    uint32_t pc, mask;
                    if (!hd_func_warp_next(w, &pc, &mask))
                        break;
                    const struct hd_ahead_hints *h = hk ? hd_haws_hints_at(hk, pc) : NULL;
                    if (h && (!back_only || h->first < h->stall_pc) &&
                        a->wc.mode == HD_HAWS_IDLE && a->n == 0) {
                        /* the head stalls on its load: hint mode for a few cycles */
                        a->h = h;
                        bool live = walk_cycle(l, &c, w, a, true, kname);
                        for (uint32_t k = below(14); live && k > 0; k--)
                            live = walk_cycle(l, &c, w, a, false, kname);
                    }
                    int st = hk ? inorder_step(l, &c, w, a, kname)
                                : hd_func_warp_step(l, &c, w, 0, NULL);
                    if (st != HD_FUNC_OK)
                        FATAL("%s: step: %s", kname, l->err);
                    moved = true;
                }
            }
            if (!moved)
                FATAL("%s: no warp can move (barrier deadlock)", kname);
        }
        free(hs);
        hd_func_cta_destroy(&c);
    }
}

/* {==== The kernels and their data ==== */
struct buf {
    uint64_t addr, bytes;
    bool out; /* compared after the runs */
};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        FATAL("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
        FATAL("cannot read %s", path);
    fclose(f);
    s[n] = 0;
    *len = (size_t)n;
    return s;
}

static const char divergent_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry divk(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .u32 %r<24>;\n  .reg .u64 %rd<8>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n  add.u64 %rd5, %rd2, %rd3;\n"
    "  ld.global.u32 %r2, [%rd4];\n"
    "  add.u32 %r3, %r2, 1;\n"          /* the stall point */
    "  and.b32 %r4, %r1, 7;\n"
    "  setp.lt.u32 %p1, %r4, 3;\n"
    "  @%p1 bra A;\n"                    /* divergent, independent */
    "  mul.lo.u32 %r5, %r1, 9;\n"
    "  setp.gt.u32 %p2, %r1, 20;\n"
    "  @%p2 bra B;\n"                    /* nested divergence */
    "  add.u32 %r5, %r5, 2;\n"
    "B:\n  add.u32 %r6, %r5, %r1;\n"
    "  bra.uni C;\n"
    "A:\n  add.u32 %r6, %r1, 300;\n"
    "C:\n  add.u32 %r7, %r6, %r3;\n"     /* reads the stall point's result: skipped */
    "  mul.lo.u32 %r8, %r6, 5;\n"
    "  add.u32 %r9, %r8, %r7;\n"
    "  st.global.u32 [%rd5], %r9;\n"
    /* a stall point inside a divergent region: the copied entry reconverges at D */
    "  setp.lt.u32 %p3, %r4, 5;\n"
    "  @%p3 bra D;\n"
    "  ld.global.u32 %r10, [%rd4+4];\n"
    "  add.u32 %r11, %r10, %r9;\n"      /* the stall point */
    "  add.u32 %r12, %r1, 17;\n"
    "  mul.lo.u32 %r13, %r12, 3;\n"
    "  add.u32 %r14, %r11, %r13;\n"
    "  st.global.u32 [%rd5], %r14;\n"
    "D:\n  add.u32 %r15, %r1, 1;\n"
    "  add.u32 %r16, %r15, %r2;\n"
    "  st.global.u32 [%rd5+1024], %r16;\n"
    "  exit;\n}\n";

/* A Fig. 5.1-shaped loop for back-edge windows: the stall point reads the iteration's load; the
 * loop control, the next address and an independent sum run ahead, through the divergent back
 * edge (2 or 3 iterations per thread) into the next iteration's load (renamed: the stall point
 * has not read its destination yet). */
static const char loop_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry loopk(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .u32 %r<16>;\n  .reg .u64 %rd<8>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n  add.u64 %rd5, %rd2, %rd3;\n"
    "  and.b32 %r8, %r1, 1;\n  add.u32 %r8, %r8, 2;\n"
    "  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n  mov.u32 %r6, 7;\n"
    "L:\n  ld.global.u32 %r4, [%rd4];\n"
    "  add.u32 %r2, %r2, %r4;\n"       /* the stall point */
    "  add.u32 %r6, %r6, %r3;\n"
    "  add.u64 %rd4, %rd4, 4;\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p1, %r3, %r8;\n"
    "  @%p1 bra L;\n"                  /* the back edge, divergent */
    "  st.global.u32 [%rd5], %r2;\n"
    "  st.global.u32 [%rd5+1024], %r6;\n"
    "  exit;\n}\n";

struct kspec {
    const char *name, *file, *kernel;
    uint32_t grid[3], block[3];
    const char *inline_ptx; /* without a file */
    bool back_only; /* episodes only at back-edge windows' stall points (below) */
};

static void fill(struct hd_devmem *mem, struct buf *b, uint64_t bytes, bool out, int kind)
{
    char err[256];
    b->bytes = bytes;
    b->out = out;
    if (hd_devmem_alloc(mem, bytes, HD_DEVMEM_USER, "buf", &b->addr, err, sizeof err) != 0)
        FATAL("alloc: %s", err);
    uint32_t *v = malloc(bytes);
    if (!v)
        FATAL("host memory");
    for (uint64_t i = 0; i < bytes / 4; i++) {
        if (kind == 0) { /* floats in [0, 4) */
            float f = (float)below(4096) / 1024.0f;
            memcpy(&v[i], &f, 4);
        } else if (kind == 1) { /* sorted words */
            v[i] = (uint32_t)(i * 3 + (i % 2));
        } else { /* search keys: half present */
            v[i] = below(2) ? (uint32_t)(below(1024) * 3) : below(4000);
        }
    }
    if (hd_devmem_write(mem, b->addr, v, bytes, err, sizeof err) != 0)
        FATAL("write: %s", err);
    free(v);
}

/* Set up kernel `which`'s buffers and arguments in mem; returns the number of arguments. */
static unsigned setup(struct hd_devmem *mem, int which, struct buf *b, unsigned *nb,
                      struct hd_func_arg *arg, uint64_t *ptr, int32_t *ival, float *fval)
{
    unsigned na = 0;
    switch (which) {
    case 0: /* sgemm_tiled(A, B, C0, C, m, n, k, alpha, beta), 32 x 32 x 32 */
        for (int i = 0; i < 4; i++)
            fill(mem, &b[i], 32 * 32 * 4, i == 3, 0);
        *nb = 4;
        for (int i = 0; i < 4; i++) {
            ptr[i] = b[i].addr;
            arg[na++] = (struct hd_func_arg){&ptr[i], 8};
        }
        for (int i = 0; i < 3; i++) {
            ival[i] = 32;
            arg[na++] = (struct hd_func_arg){&ival[i], 4};
        }
        fval[0] = 1.0f;
        fval[1] = 0.5f;
        arg[na++] = (struct hd_func_arg){&fval[0], 4};
        arg[na++] = (struct hd_func_arg){&fval[1], 4};
        return na;
    case 1: /* mvt_rows(a, y1, x1_in, x1, n), n = 256 */
        fill(mem, &b[0], 256 * 256 * 4, false, 0);
        fill(mem, &b[1], 256 * 4, false, 0);
        fill(mem, &b[2], 256 * 4, false, 0);
        fill(mem, &b[3], 256 * 4, true, 0);
        *nb = 4;
        for (int i = 0; i < 4; i++) {
            ptr[i] = b[i].addr;
            arg[na++] = (struct hd_func_arg){&ptr[i], 8};
        }
        ival[0] = 256;
        arg[na++] = (struct hd_func_arg){&ival[0], 4};
        return na;
    case 2: /* bsearch_keys(sorted, n, keys, m, out), n = 1024, m = 256 */
        fill(mem, &b[0], 1024 * 4, false, 1);
        fill(mem, &b[1], 256 * 4, false, 2);
        fill(mem, &b[2], 256 * 4, true, 0);
        *nb = 3;
        ptr[0] = b[0].addr;
        ptr[1] = b[1].addr;
        ptr[2] = b[2].addr;
        ival[0] = 1024;
        ival[1] = 256;
        arg[na++] = (struct hd_func_arg){&ptr[0], 8};
        arg[na++] = (struct hd_func_arg){&ival[0], 4};
        arg[na++] = (struct hd_func_arg){&ptr[1], 8};
        arg[na++] = (struct hd_func_arg){&ival[1], 4};
        arg[na++] = (struct hd_func_arg){&ptr[2], 8};
        return na;
    default: /* divk(in, out), two CTAs of 256 threads (each CTA reads and writes the same);
              * loopk(in, out), one CTA */
        fill(mem, &b[0], 260 * 4, false, 2);
        fill(mem, &b[1], 512 * 4, true, 0);
        *nb = 2;
        ptr[0] = b[0].addr;
        ptr[1] = b[1].addr;
        arg[na++] = (struct hd_func_arg){&ptr[0], 8};
        arg[na++] = (struct hd_func_arg){&ptr[1], 8};
        return na;
    }
}
/* }==== */

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    static const struct kspec ks[] = {
        {"sgemm", "workloads/sgemm/sgemm.ptx", "sgemm_tiled", {2, 2, 1}, {16, 16, 1}, NULL, false},
        {"mvt", "workloads/mvt/mvt.ptx", "mvt_rows", {1, 1, 1}, {256, 1, 1}, NULL, false},
        {"bsearch", "workloads/bsearch/bsearch.ptx", "bsearch_keys", {1, 1, 1}, {256, 1, 1}, NULL, false},
        {"divergent", NULL, "divk", {2, 1, 1}, {256, 1, 1}, divergent_ptx, false},
        /* (its load is a stall point too, a WAW on the loaded register, whose episode would
         * hold the RCU past the back-edge stall point that follows it) */
        {"loop", NULL, "loopk", {1, 1, 1}, {256, 1, 1}, loop_ptx, true},
    };
    char err[1024] = "";
    for (unsigned q = 0; q < sizeof ks / sizeof ks[0]; q++) {
        size_t len = ks[q].inline_ptx ? strlen(ks[q].inline_ptx) : 0;
        char *text = NULL, path[1024];
        if (ks[q].file) {
            snprintf(path, sizeof path, "%s/%s", root, ks[q].file);
            text = slurp(path, &len);
        }
        struct hd_module *ir = hd_ptx_parse(text ? text : ks[q].inline_ptx, len, ks[q].name, err,
                                            sizeof err);
        if (!ir)
            FATAL("%s: parse: %s", ks[q].name, err);
        unsigned long before = tot.issued, ep = tot.episodes;
        uint8_t *plain[8] = {NULL};
        /* 0: in order, 1: with HAWS episodes, 2: the same with back-edge windows */
        for (int pass = 0; pass < 3; pass++) {
            struct hd_devmem mem;
            if (hd_devmem_init(&mem, 16u << 20) != 0)
                FATAL("device memory");
            struct hd_func_module *img = NULL;
            if (hd_func_module_load(&mem, ir, 64 * 1024, &img, err, sizeof err) != 0)
                FATAL("%s: load: %s", ks[q].name, err);
            const struct hd_func_kernel *k = hd_func_module_kernel(img, ks[q].kernel);
            if (!k || k->unsupported[0])
                FATAL("%s: kernel %s", ks[q].name, ks[q].kernel);
            rng = 0x9e3779b97f4a7c15ull + q; /* the same data in both passes */
            struct buf b[8];
            unsigned nb = 0;
            struct hd_func_arg arg[12];
            uint64_t ptr[8];
            int32_t ival[4];
            float fval[2];
            const unsigned na = setup(&mem, (int)q, b, &nb, arg, ptr, ival, fval);
            const struct hd_haws_hint_params hp = {64, DEPTH, 8, true, pass == 2};
            struct hd_haws_kernel_hints *kh = pass ? hd_haws_hints_build(k, &hp) : NULL;
            if (pass && !kh)
                FATAL("hints");
            const struct hd_func_gpu_params gp = {1, 64, 48 * 1024};
            struct hd_func_launch l;
            memset(&l, 0, sizeof l);
            if (hd_func_launch_init(&l, k, &mem, &gp, ks[q].grid, ks[q].block, 0, arg, na, 1, err,
                                    sizeof err) != 0)
                FATAL("%s: launch: %s", ks[q].name, err);
            run(&l, kh, ks[q].name, ks[q].back_only);
            for (unsigned i = 0; i < nb; i++) {
                if (!b[i].out)
                    continue;
                uint8_t *v = malloc(b[i].bytes);
                if (!v || hd_devmem_read(&mem, b[i].addr, v, b[i].bytes, err, sizeof err) != 0)
                    FATAL("read: %s", err);
                if (!pass) {
                    plain[i] = v;
                } else {
                    CHECK(memcmp(v, plain[i], b[i].bytes) == 0,
                          "%s: output buffer %u differs from the in-order run", ks[q].name, i);
                    free(v);
                    if (pass == 2)
                        free(plain[i]);
                }
            }
            hd_func_launch_destroy(&l);
            hd_haws_hints_free(kh);
            hd_devmem_destroy(&mem);
        }
        printf("haws_blocks_agree: %-9s %6lu episodes, %6lu instructions run ahead\n", ks[q].name,
               tot.episodes - ep, tot.issued - before);
        free(text);
    }
    printf("haws_blocks_agree: %lu episodes, %lu walk cycles, %lu run ahead (%lu branches, %lu "
           "divergent), %lu skipped, %lu committed (%lu by a copy), %lu branch entries popped, "
           "%lu parks on an empty shadow stack, %lu of %lu issues at the fetch-PC generator's PC, "
           "%lu shadow stacks compared (%lu episodes deeper than the block)\n",
           tot.episodes, tot.walk_cycles, tot.issued, tot.branches, tot.diverged, tot.skips,
           tot.commits, tot.copies, tot.branch_pops, tot.parks_empty, tot.fetch_hits, tot.issued,
           tot.steps_compared, tot.shadow_deeper);
    printf("haws_blocks_agree: back-edge windows ([haws] back_edges): %lu episodes, %lu "
           "instructions run ahead through the back edge\n", tot.back_windows, tot.back_issued);
    if (!tot.diverged || !tot.commits || !tot.episodes || !tot.back_issued)
        FATAL("the run exercised no divergent branch, commit, episode or back-edge issue");
    printf("haws_blocks_agree: %lu checks, %lu disagreements\n", checks, bad);
    return bad ? 1 : 0;
}
