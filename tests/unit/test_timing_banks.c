/* SPDX-License-Identifier: MIT
 * test_timing_banks.c - register banks from the register allocator ([pipeline] reg_bank_source
 * = physical): the timing model sees a bank conflict exactly when the allocator placed the two
 * source registers of the measured instructions in the same bank.
 *
 * For kernels that keep a growing number of extra values live (so that the physical registers
 * of %f1 and %f2 move apart), the test runs the allocator itself (cfg, liveness, regalloc) to
 * predict whether phys(%f1) and phys(%f2) collide modulo reg_banks, then runs the kernel and
 * checks the conflict counter. Both outcomes must occur among the variants.
 */
#include "cfg.h"
#include "liveness.h"
#include "ptx_parse.h"
#include "regalloc.h"
#include "timing_testkit.h"

#include <stdarg.h>

static char ptx[32768];
static size_t np;

static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(ptx + np, sizeof ptx - np, fmt, ap);
    va_end(ap);
    if (k > 0)
        np += (size_t)k;
}

enum { N = 96 };

/* %f1 and %f2 are read by N adds; `extra` values are live across them. */
static void make_kernel(unsigned extra)
{
    np = 0;
    emit(TKIT_HEAD ".visible .entry banks(.param .u64 out)\n{\n"
                   "\t.reg .f32 %%f<200>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n");
    emit("\tmov.u32 %%r1, %%tid.x;\n\tcvt.rn.f32.u32 %%f1, %%r1;\n");
    for (unsigned i = 0; i < extra; i++)
        emit("\tadd.f32 %%f%u, %%f1, 0f3F800000;\n", 100 + i);
    emit("\tmul.f32 %%f2, %%f1, 0f40000000;\n");
    for (unsigned i = 0; i < N; i++)
        emit("\tadd.f32 %%f%u, %%f1, %%f2;\n", 10 + i % 40);
    emit("\tadd.f32 %%f3, %%f10, %%f49;\n");
    for (unsigned i = 0; i < extra; i++)
        emit("\tadd.f32 %%f3, %%f3, %%f%u;\n", 100 + i);
    emit("\tld.param.u64 %%rd1, [out];\n\tcvta.to.global.u64 %%rd2, %%rd1;\n"
         "\tmul.wide.u32 %%rd3, %%r1, 4;\n\tadd.s64 %%rd4, %%rd2, %%rd3;\n"
         "\tst.global.f32 [%%rd4], %%f3;\n\tret;\n}\n");
}

/* phys(%f1) and phys(%f2) from the allocator; false if it failed. */
static bool predict(int32_t *p1, int32_t *p2)
{
    char err[512];
    struct hd_module *m = hd_ptx_parse(ptx, np, "banks.ptx", err, sizeof err);
    if (!m) {
        fprintf(stderr, "parse: %s\n", err);
        return false;
    }
    const struct hd_func *f = &m->funcs[0];
    struct hd_cfg *cfg = hd_cfg_build(f);
    struct hd_liveness *lv = cfg ? hd_liveness_build(f, cfg, err, sizeof err) : NULL;
    struct hd_regalloc ra;
    bool ok = lv && hd_regalloc_run(f, cfg, lv, NULL, &ra, err, sizeof err) == 0;
    if (ok) {
        *p1 = *p2 = -1;
        for (uint32_t r = 0; r < f->nregs; r++) {
            if (strcmp(f->regs[r].name, "%f1") == 0)
                *p1 = ra.phys_of[r];
            if (strcmp(f->regs[r].name, "%f2") == 0)
                *p2 = ra.phys_of[r];
        }
        ok = *p1 >= 0 && *p2 >= 0;
        hd_regalloc_free(&ra);
    }
    if (lv)
        hd_liveness_free(lv);
    if (cfg)
        hd_cfg_free(cfg);
    hd_ptx_module_free(m);
    return ok;
}

int main(void)
{
    struct hd_test_state t = {0};
    hd_test_begin(&t, "physical register banks: conflicts exactly where the allocator collides");
    unsigned seen[2] = {0, 0};
    for (unsigned extra = 0; extra < 24; extra += 3) {
        make_kernel(extra);
        int32_t p1 = -1, p2 = -1;
        if (!HD_CHECK(&t, predict(&p1, &p2)))
            break;
        bool same = (p1 - p2) % 16 == 0;
        struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n");
        struct hd_module *m = tkit_module(g, ptx);
        hd_devptr out;
        hd_malloc(g, &out, 256);
        struct hd_arg a[1] = {HD_ARG(out)};
        tkit_launch(g, m, "banks", 1, 32, 0, a, 1);
        tkit_cycles(g, 0);
        uint64_t conf = tkit_stat(g, "sm.reg_bank_conflicts");
        struct hd_launch_timing lt;
        hd_gpu_launch_timing(g, 0, &lt);
        hd_gpu_destroy(g);
        /* each of the N adds reads both: a collision delays every one of them */
        if (same)
            HD_CHECK(&t, conf >= N);
        else
            HD_CHECK(&t, conf < N / 4);
        seen[same]++;
        if (t.failures)
            fprintf(stderr, "    extra %u: phys %d %d, conflicts %llu, regs %u\n", extra, p1, p2,
                    (unsigned long long)conf, lt.regs_per_thread);
    }
    HD_CHECK(&t, seen[0] > 0);
    HD_CHECK(&t, seen[1] > 0);
    if (t.failures)
        fprintf(stderr, "    variants without/with a collision: %u/%u\n", seen[0], seen[1]);
    return hd_test_finish(&t);
}
