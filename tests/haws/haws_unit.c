/* SPDX-License-Identifier: MIT
 * haws_unit.c - HAWS hazards on a hand-written kernel (issue 30; docs/blocks/haws.md §2-3):
 *   1. a run-ahead candidate whose source is written by a skipped older instruction (the stall
 *      point, or a dependent instruction after it) is not selected, and one with a WAR on a
 *      skipped older reader is renamed;
 *   2. run ahead on the shadow SIMT stack through a divergent branch: the shadow stack grows,
 *      the warp's real stack, registers and counters stay byte for byte the same;
 *   3. the in-order return commits every renamed result exactly once (a second commit of the
 *      same result is refused), and the warp's registers afterwards equal those of a twin warp
 *      that ran everything in order, bit for bit, in every lane.
 * Prints "haws_unit: N checks passed"; exits 1 at the first failed check.
 */
#include "devmem.h"
#include "exec.h"
#include "exec_ahead.h"
#include "func_status.h"
#include "haws_hints.h"
#include "launch.h"
#include "module.h"
#include "ptx_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .u32 %r<20>;\n  .reg .u64 %rd<4>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"          /* 0 */
    "  mov.u32 %r1, %tid.x;\n"             /* 1 */
    "  ld.global.u32 %r2, [%rd1];\n"       /* 2  long-latency load */
    "  add.u32 %r3, %r2, 1;\n"             /* 3  S: the stall point */
    "  add.u32 %r4, %r1, 5;\n"             /* 4  independent: runs ahead */
    "  add.u32 %r5, %r3, %r4;\n"           /* 5  reads r3 (skipped S): not selected */
    "  mul.lo.u32 %r6, %r4, 3;\n"          /* 6  reads r4 (run ahead): runs ahead */
    "  mov.u32 %r7, %r5;\n"                /* 7  reads r5 (skipped 5): not selected */
    "  add.u32 %r5, %r1, 1;\n"             /* 8  WAR/WAW on r5 with skipped 5, 7: renamed */
    "  setp.lt.u32 %p1, %r1, 16;\n"        /* 9  runs ahead */
    "  @%p1 bra L1;\n"                     /* 10 divergent, independent: runs ahead */
    "  add.u32 %r8, %r1, 100;\n"           /* 11 fall-through lanes */
    "  bra.uni L2;\n"                      /* 12 */
    "L1:\n"
    "  add.u32 %r8, %r1, 200;\n"           /* 13 taken lanes */
    "L2:\n"
    "  add.u32 %r9, %r8, %r6;\n"           /* 14 after reconvergence */
    "  add.u32 %r10, %r9, %r5;\n"          /* 15 reads r5: written by 8 (run ahead) and 5 (skipped) */
    "  exit;\n"                            /* 16 */
    "}\n";

#define HAWS_TEST_NAME "haws_unit"
#define NRES 16
#include "haws_episode.h"

static void step_to(struct hd_func_launch *l, struct hd_func_cta *c, struct hd_func_warp *w,
                    uint32_t pc)
{
    uint32_t at, m;
    while (hd_func_warp_next(w, &at, &m) && at != pc)
        CHECK(hd_func_warp_step(l, c, w, 0, NULL) == HD_FUNC_OK, "step: %s", l->err);
}

int main(void)
{
    char err[1024] = "";
    struct hd_module *ir = hd_ptx_parse(ptx, sizeof ptx - 1, "haws_unit.ptx", err, sizeof err);
    CHECK(ir, "parse: %s", err);
    struct hd_devmem mem;
    CHECK(hd_devmem_init(&mem, 4u << 20) == 0, "device memory");
    struct hd_func_module *img = NULL;
    CHECK(hd_func_module_load(&mem, ir, 64 * 1024, &img, err, sizeof err) == 0, "load: %s", err);
    const struct hd_func_kernel *k = hd_func_module_kernel(img, "k");
    CHECK(k && !k->unsupported[0], "kernel image");

    /* 1. the hint pass */
    const struct hd_haws_hint_params hp = {64, 16, 8, true, false};
    struct hd_haws_kernel_hints *kh = hd_haws_hints_build(k, &hp);
    CHECK(kh, "hints");
    const struct hd_ahead_hints *h = hd_haws_hints_at(kh, 3);
    CHECK(h && h->first == 4, "stall point PC 3 has a window");
    CHECK(!hd_haws_hints_at(kh, 4), "PC 4 reads no long-latency register: not a stall point");
#define SEL(pc) ((h->sel >> ((pc) - h->first)) & 1u)
#define REN(pc) ((h->ren >> ((pc) - h->first)) & 1u)
    CHECK(SEL(4) && !REN(4), "PC 4 (independent) runs ahead, not renamed");
    CHECK(!SEL(5), "PC 5 reads r3, written by the skipped stall point: not selected");
    CHECK(SEL(6), "PC 6 reads only r4 (run ahead): selected");
    CHECK(!SEL(7), "PC 7 reads r5, written by skipped PC 5: not selected");
    CHECK(SEL(8) && REN(8), "PC 8 writes r5, read/written by skipped PCs 5 and 7: renamed");
    CHECK(SEL(10) && SEL(11) && SEL(12) && SEL(13) && SEL(14), "the branch and both paths run ahead");
    CHECK(!SEL(15), "PC 15 reads r5, which skipped PC 5 may have written on a path to it");
    CHECK(!(h->reach >> (16 - h->first) & 1u) || !SEL(16), "exit never runs ahead");
    hd_haws_hints_print(kh, stdout);

    /* two CTAs of one warp each: the HAWS warp and its in-order twin */
    uint64_t buf = 0;
    CHECK(hd_devmem_alloc(&mem, 4096, HD_DEVMEM_USER, "buf", &buf, err, sizeof err) == 0, "buf");
    const struct hd_func_gpu_params gp = {1, 48, 48 * 1024};
    const uint32_t grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
    const struct hd_func_arg arg = {&buf, 8};
    struct hd_func_launch l;
    memset(&l, 0, sizeof l);
    CHECK(hd_func_launch_init(&l, k, &mem, &gp, grid, block, 0, &arg, 1, 1, err, sizeof err) == 0,
          "launch: %s", err);
    struct hd_func_cta ca, cb;
    CHECK(hd_func_cta_init(&ca, &l, 0, 0, err, sizeof err) == 0, "cta a");
    CHECK(hd_func_cta_init(&cb, &l, 1, 0, err, sizeof err) == 0, "cta b");
    struct hd_func_warp *wa = &ca.warps[0], *wb = &cb.warps[0];
    step_to(&l, &ca, wa, 3);
    step_to(&l, &cb, wb, 3);
    const size_t rbytes = (size_t)wa->nregs * 32 * sizeof(uint64_t);

    /* 2. run ahead from the stall point on the shadow stack */
    uint64_t *regs_before = malloc(rbytes);
    CHECK(regs_before, "host memory");
    memcpy(regs_before, wa->regs, rbytes);
    struct hd_func_warp real_before = *wa;
    const uint64_t li = l.warp_instrs;
    struct hd_func_ahead_stack sh;
    hd_func_ahead_snapshot(wa, &sh);
    const uint32_t base = sh.sp - 1;
    hd_func_ahead_skip(wa, &sh); /* the stall point */
    struct episode ep = {.n = 0};
    uint32_t step = 1, max_sp = sh.sp, pc, mask;
    while (hd_func_ahead_top(&sh, &pc, &mask) && sh.sp - 1 >= base && pc >= h->first &&
           pc < h->first + h->len && (h->reach >> (pc - h->first) & 1u)) {
        if (SEL(pc)) {
            CHECK(ep.n < NRES, "episode fits");
            CHECK(hd_func_ahead_step(&l, &ca, wa, &sh, lookup, &ep, &ep.r[ep.n], NULL) ==
                      HD_FUNC_OK,
                  "run-ahead step at PC %u: %s", pc, l.err);
            ep.step[ep.n++] = step++;
        } else if (k->code[pc].op == HD_OP_EXIT) {
            break;
        } else {
            hd_func_ahead_skip(wa, &sh);
            step++;
        }
        max_sp = sh.sp > max_sp ? sh.sp : max_sp;
    }
    CHECK(ep.n == 9, "9 instructions ran ahead (got %u)", ep.n);
    CHECK(max_sp > real_before.sp, "divergence pushed the shadow stack (%u > %u)", max_sp,
          real_before.sp);
    CHECK(wa->sp == real_before.sp &&
              memcmp(wa->stack, real_before.stack, sizeof wa->stack) == 0,
          "the real SIMT stack is unchanged by hint mode");
    CHECK(memcmp(wa->regs, regs_before, rbytes) == 0, "the architectural registers are unchanged");
    CHECK(wa->instrs == real_before.instrs && l.warp_instrs == li, "no instruction counted");

    /* 3. in order: commit at the matching step, execute the rest */
    uint32_t io = 0, next = 0, commits = 0;
    while (!wa->done) {
        if (next < ep.n && ep.step[next] == io && !ep.r[next].branch) {
            struct hd_func_trace tr;
            CHECK(hd_func_ahead_commit(&l, wa, &ep.r[next], &tr), "commit at step %u", io);
            CHECK(!hd_func_ahead_commit(&l, wa, &ep.r[next], &tr),
                  "a result cannot be committed twice (step %u)", io);
            commits++;
            next++;
        } else {
            if (next < ep.n && ep.step[next] == io) /* a branch entry: executed again in order */
                next++;
            CHECK(hd_func_warp_step(&l, &ca, wa, 0, NULL) == HD_FUNC_OK, "step: %s", l.err);
        }
        io++;
    }
    CHECK(next == ep.n, "every RCU entry was reached in order (%u of %u)", next, ep.n);
    CHECK(commits == 7, "7 non-branch results committed once each (got %u)", commits);
    while (!wb->done)
        CHECK(hd_func_warp_step(&l, &cb, wb, 0, NULL) == HD_FUNC_OK, "twin: %s", l.err);
    CHECK(wa->instrs == wb->instrs, "same instruction count as in order");
    CHECK(memcmp(wa->regs, wb->regs, rbytes) == 0,
          "registers after the return equal the in-order twin's, every lane");
    printf("haws_unit: %u checks passed\n", checks);
    free(regs_before);
    hd_func_cta_destroy(&ca);
    hd_func_cta_destroy(&cb);
    hd_func_launch_destroy(&l);
    hd_haws_hints_free(kh);
    hd_func_module_unload(img);
    hd_devmem_destroy(&mem);
    hd_ptx_module_free(ir);
    return 0;
}
