/* SPDX-License-Identifier: MIT
 * haws_backedge.c - HAWS windows across a loop back edge (issue 30; Gong thesis Fig. 5.1, L952:
 * while the warp waits on iteration k's load, the loop control and iteration k+1's independent
 * address arithmetic run ahead; docs/blocks/haws.md §3 "Back-edge windows"). On a hand-written
 * loop shaped like Fig. 5.1:
 *   1. with [haws] back_edges the stall point's window holds the loop's PCs before it; the loop
 *      control, the back edge and the next iteration's address arithmetic and load are selected
 *      (the load renamed: the stall point reads its destination); an instruction of the next
 *      iteration whose source a skipped instruction of this iteration wrote is not; the stall
 *      point itself ends the window; without back_edges no PC before the stall point is in it;
 *   2. an episode at every arrival at the stall point (the loop's exit diverges per lane, so the
 *      back edge splits the shadow stack in the last iterations): every result is committed
 *      exactly once at its in-order step, the real stack and registers are untouched by hint
 *      mode, and at the end the registers equal those of an in-order twin warp, every lane.
 * Prints "haws_backedge: N checks passed"; exits 1 at the first failed check.
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
    "  .reg .u32 %r<20>;\n  .reg .u64 %rd<8>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"          /* 0 */
    "  mov.u32 %r1, %tid.x;\n"             /* 1 */
    "  and.b32 %r11, %r1, 3;\n"            /* 2 */
    "  add.u32 %r11, %r11, 2;\n"           /* 3  trip count 2..5 per lane: the exit diverges */
    "  mov.u32 %r7, 0;\n"                  /* 4  k */
    "  mov.u32 %r8, 0;\n"                  /* 5  acc */
    "  mov.u32 %r9, 0;\n"                  /* 6 */
    "L1:\n"
    "  add.u32 %r10, %r9, %r1;\n"          /* 7  reads r9 (skipped PC 14 writes it): not selected */
    "  add.u32 %r12, %r7, %r1;\n"          /* 8  next iteration's address arithmetic: runs ahead */
    "  mul.wide.u32 %rd2, %r12, 4;\n"      /* 9  runs ahead */
    "  add.u64 %rd3, %rd1, %rd2;\n"        /* 10 runs ahead */
    "  ld.global.u32 %r2, [%rd3];\n"       /* 11 the long-latency load (next iteration: runs ahead,
                                                 renamed: the stall point reads r2) */
    "  add.u32 %r8, %r8, %r2;\n"           /* 12 S: the stall point */
    "  add.u32 %r8, %r8, %r10;\n"          /* 13 reads r8 (S): skipped */
    "  mul.lo.u32 %r9, %r8, 3;\n"          /* 14 reads r8: skipped */
    "  add.u32 %r7, %r7, 1;\n"             /* 15 loop control: runs ahead */
    "  setp.lt.u32 %p1, %r7, %r11;\n"      /* 16 runs ahead */
    "  @%p1 bra L1;\n"                     /* 17 the back edge: runs ahead */
    "  add.u32 %r13, %r8, %r9;\n"          /* 18 after the loop */
    "  exit;\n"                            /* 19 */
    "}\n";

#define S_PC 12u
#define HAWS_TEST_NAME "haws_backedge"
#define NRES 8 /* the RCU depth */
#include "haws_episode.h"

static bool in_window(const struct hd_ahead_hints *h, uint32_t pc)
{
    return pc >= h->first && pc < h->first + h->len && (h->reach >> (pc - h->first) & 1u);
}

int main(void)
{
    char err[1024] = "";
    struct hd_module *ir =
        hd_ptx_parse(ptx, sizeof ptx - 1, "haws_backedge.ptx", err, sizeof err);
    CHECK(ir, "parse: %s", err);
    struct hd_devmem mem;
    CHECK(hd_devmem_init(&mem, 4u << 20) == 0, "device memory");
    struct hd_func_module *img = NULL;
    CHECK(hd_func_module_load(&mem, ir, 64 * 1024, &img, err, sizeof err) == 0, "load: %s", err);
    const struct hd_func_kernel *k = hd_func_module_kernel(img, "k");
    CHECK(k && !k->unsupported[0], "kernel image");
    CHECK(k->code[17].op == HD_OP_BRA && k->code[17].target == 7, "PC 17 branches back to PC 7");

    /* 1. the hint pass, without and with back edges */
    struct hd_haws_hint_params hp = {64, 8, 8, true, false};
    struct hd_haws_kernel_hints *fwd = hd_haws_hints_build(k, &hp);
    CHECK(fwd, "hints");
    const struct hd_ahead_hints *h = hd_haws_hints_at(fwd, S_PC);
    CHECK(h && h->first == S_PC + 1, "forward window: starts after the stall point");
    CHECK(!((h->sel >> (17 - h->first)) & 1u), "forward window: the back edge is not selected");
    hp.back_edges = true;
    struct hd_haws_kernel_hints *kh = hd_haws_hints_build(k, &hp);
    CHECK(kh, "hints");
    h = hd_haws_hints_at(kh, S_PC);
    CHECK(h && h->first == 7 && h->first + h->len > 17,
          "back-edge window: the loop from PC 7 (first %u, len %u)", h ? h->first : 0,
          h ? h->len : 0);
#define SEL(pc) ((h->sel >> ((pc) - h->first)) & 1u)
#define REN(pc) ((h->ren >> ((pc) - h->first)) & 1u)
    CHECK(!in_window(h, S_PC), "the stall point ends the window (never reachable)");
    CHECK(!SEL(13) && !SEL(14), "PCs 13, 14 read the stall point's result: skipped");
    CHECK(SEL(15) && SEL(16) && SEL(17), "the loop control and the back edge run ahead");
    CHECK(!SEL(7), "PC 7 reads r9, written by skipped PC 14 of this iteration: not selected");
    CHECK(SEL(8) && SEL(9) && SEL(10) && !REN(8) && !REN(9) && !REN(10),
          "the next iteration's address arithmetic runs ahead, not renamed");
    CHECK(SEL(11) && REN(11), "the next iteration's load runs ahead, renamed (S reads r2)");
    CHECK(h->nsel == 7, "7 selected (got %u)", h->nsel);
    hd_haws_hints_print(kh, stdout);

    /* 2. episodes at every arrival at the stall point; warp b is the in-order twin */
    uint64_t buf = 0;
    CHECK(hd_devmem_alloc(&mem, 4096, HD_DEVMEM_USER, "buf", &buf, err, sizeof err) == 0, "buf");
    uint32_t init[512];
    for (uint32_t i = 0; i < 512; i++)
        init[i] = 0x9e3779b9u * (i + 1);
    CHECK(hd_devmem_write(&mem, buf, init, sizeof init, err, sizeof err) == 0, "init: %s", err);
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
    const size_t rbytes = (size_t)wa->nregs * 32 * sizeof(uint64_t);
    uint64_t *regs_before = malloc(rbytes);
    CHECK(regs_before, "host memory");
    uint32_t episodes = 0, ahead = 0, wrapped = 0, commits = 0, diverged = 0;
    while (!wa->done) {
        uint32_t pc, mask;
        CHECK(hd_func_warp_next(wa, &pc, &mask), "warp a has a next instruction");
        if (pc != S_PC) {
            CHECK(hd_func_warp_step(&l, &ca, wa, 0, NULL) == HD_FUNC_OK, "step: %s", l.err);
            continue;
        }
        /* hint mode from the stall point, on the shadow stack */
        episodes++;
        memcpy(regs_before, wa->regs, rbytes);
        const struct hd_func_warp real_before = *wa;
        struct hd_func_ahead_stack sh;
        hd_func_ahead_snapshot(wa, &sh);
        const uint32_t base = sh.sp - 1;
        hd_func_ahead_skip(wa, &sh);
        struct episode ep = {.n = 0};
        uint32_t step = 1;
        while (hd_func_ahead_top(&sh, &pc, &mask) && sh.sp - 1 >= base && in_window(h, pc)) {
            if (SEL(pc)) {
                if (ep.n == NRES)
                    break; /* the RCU is full */
                const uint32_t sp0 = sh.sp;
                CHECK(hd_func_ahead_step(&l, &ca, wa, &sh, lookup, &ep, &ep.r[ep.n], NULL) ==
                          HD_FUNC_OK,
                      "run-ahead step at PC %u: %s", pc, l.err);
                diverged += pc == 17 && sh.sp > sp0;
                wrapped += pc < S_PC;
                ep.step[ep.n++] = step++;
            } else {
                if (hd_func_ahead_is_control(&k->code[pc]))
                    break; /* a control instruction not selected ends the walk */
                hd_func_ahead_skip(wa, &sh);
                step++;
            }
        }
        ahead += ep.n;
        CHECK(wa->sp == real_before.sp &&
                  memcmp(wa->stack, real_before.stack, sizeof wa->stack) == 0,
              "episode %u: the real SIMT stack is unchanged by hint mode", episodes);
        CHECK(memcmp(wa->regs, regs_before, rbytes) == 0,
              "episode %u: the architectural registers are unchanged", episodes);
        CHECK(wa->instrs == real_before.instrs, "episode %u: no instruction counted", episodes);
        /* the return: commit each non-branch result at its in-order step, run the rest */
        uint32_t io = 0, next = 0;
        while (next < ep.n) {
            CHECK(!wa->done, "episode %u: the warp ends before entry %u", episodes, next);
            if (ep.step[next] == io && !ep.r[next].branch) {
                struct hd_func_trace tr;
                CHECK(hd_func_ahead_commit(&l, wa, &ep.r[next], &tr), "commit at step %u", io);
                CHECK(!hd_func_ahead_commit(&l, wa, &ep.r[next], &tr),
                      "a result cannot be committed twice (step %u)", io);
                commits++;
                next++;
            } else {
                if (ep.step[next] == io) /* a branch entry: executed again in order */
                    next++;
                CHECK(hd_func_warp_step(&l, &ca, wa, 0, NULL) == HD_FUNC_OK, "step: %s", l.err);
            }
            io++;
        }
    }
    while (!wb->done)
        CHECK(hd_func_warp_step(&l, &cb, wb, 0, NULL) == HD_FUNC_OK, "twin: %s", l.err);
    CHECK(episodes == 5, "an episode per iteration of the longest lane (got %u)", episodes);
    CHECK(wrapped > 0, "instructions of the next iteration ran ahead (%u)", wrapped);
    CHECK(diverged > 0, "a run-ahead back edge diverged (the lanes' exits differ)");
    CHECK(wa->instrs == wb->instrs, "same instruction count as in order (%llu, %llu)",
          (unsigned long long)wa->instrs, (unsigned long long)wb->instrs);
    CHECK(memcmp(wa->regs, wb->regs, rbytes) == 0,
          "registers after the loop equal the in-order twin's, every lane");
    printf("haws_backedge: %u episodes, %u run ahead (%u of the next iteration), %u committed\n",
           episodes, ahead, wrapped, commits);
    printf("haws_backedge: %u checks passed\n", checks);
    free(regs_before);
    hd_func_cta_destroy(&ca);
    hd_func_cta_destroy(&cb);
    hd_func_launch_destroy(&l);
    hd_haws_hints_free(kh);
    hd_haws_hints_free(fwd);
    hd_func_module_unload(img);
    hd_devmem_destroy(&mem);
    hd_ptx_module_free(ir);
    return 0;
}
