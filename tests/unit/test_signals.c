/* SPDX-License-Identifier: MIT
 * test_signals.c - the SM's signals for policies (issue 25 item 6; docs/hooks.md): one warp
 * loads a word (an L1D miss), then, through a dependence on it, the same word again (an L1D
 * hit); a hook added to the GPU sees exactly one load that missed and one that hit, a stall on
 * the missed load known as a miss, and the output verifies. Without the hook the cycles are the
 * same.
 */
#include "gpu_impl.h"
#include "rt_internal.h"
#include "timing_testkit.h"

/* y[i] = x[i] + 1 + x[i] (the second load's address depends on the first load's value, so it
 * is looked up after the line arrived). */
static const char k_ptx[] = TKIT_HEAD
    ".visible .entry k(.param .u64 x, .param .u64 y)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [x];\n\tld.param.u64 %rd2, [y];\n"
    "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
    "\tld.global.u32 %r2, [%rd4];\n\tadd.u32 %r3, %r2, 1;\n"
    "\tand.b32 %r6, %r2, 0;\n\tcvt.u64.u32 %rd6, %r6;\n\tadd.s64 %rd7, %rd4, %rd6;\n"
    "\tld.global.u32 %r4, [%rd7];\n\tadd.u32 %r5, %r4, %r3;\n"
    "\tst.global.u32 [%rd5], %r5;\n\tret;\n}\n";

struct log {
    unsigned stalls[HD_HSTALL_COUNT];
    unsigned hits, misses, absent;
    uint32_t miss_pc, hit_pc;
};

static void on_stall(void *impl, const struct hd_hook_warp *w, uint8_t why, uint64_t now)
{
    struct log *l = impl;
    (void)w;
    (void)now;
    if (why < HD_HSTALL_COUNT)
        l->stalls[why]++;
}

static void on_load(void *impl, const struct hd_hook_warp *w, bool l1_hit, uint64_t now)
{
    struct log *l = impl;
    (void)now;
    if (l1_hit) {
        l->hits++;
        l->hit_pc = w->pc;
    } else {
        l->misses++;
        l->miss_pc = w->pc;
    }
    l->absent += w->slot == HD_HOOK_NO_SLOT;
}

static const struct hd_hook_ops log_ops = {.name = "test", .stalled = on_stall,
                                           .load_returned = on_load};

/* Run k on one warp; with `l`, a hook with the stall and load events is added first. */
static uint64_t run(struct hd_test_state *t, struct log *l)
{
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n");
    struct hd_module *m = tkit_module(g, k_ptx);
    uint32_t x[32], y[32];
    for (uint32_t i = 0; i < 32; i++)
        x[i] = 3 * i + 1;
    hd_devptr dx, dy;
    hd_malloc(g, &dx, sizeof x);
    hd_malloc(g, &dy, sizeof y);
    hd_memcpy_h2d(g, dx, x, sizeof x);
    struct hd_arg a[2] = {HD_ARG(dx), HD_ARG(dy)};
    tkit_launch(g, m, "k", 1, 32, 0, a, 2); /* creates the timing model: launch 0 */
    tkit_cycles(g, 0);
    struct hd_gpu_timing *gt = g->timing;
    HD_CHECK(t, gt != NULL);
    if (l && gt) {
        char err[128];
        HD_CHECK(t, hd_hooks_add(&gt->hooks, (struct hd_hook){&log_ops, l}, err, sizeof err) == 0);
        HD_CHECK(t, gt->mem.l1_notices_on != NULL);
        if (gt->mem.l1_notices_on) /* (the GPU does this when it attaches such a hook) */
            gt->mem.l1_notices_on(gt->mem.impl);
    }
    hd_devptr dx2; /* a fresh copy of x: launch 1's first load misses the L1D again */
    hd_malloc(g, &dx2, 4096);
    hd_memcpy_h2d(g, dx2, x, sizeof x);
    struct hd_arg a2[2] = {HD_ARG(dx2), HD_ARG(dy)};
    tkit_launch(g, m, "k", 1, 32, 0, a2, 2);
    const uint64_t cyc = tkit_cycles(g, 1);
    hd_memcpy_d2h(g, y, dy, sizeof y);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 32; i++)
        bad += y[i] != 2 * x[i] + 1;
    HD_CHECK_U64(t, 0, bad);
    hd_gpu_destroy(g);
    return cyc;
}

static void test_hit_and_miss(struct hd_test_state *t)
{
    hd_test_begin(t, "a load that missed the L1D and one that hit are told apart at the SM");
    static struct log l;
    const uint64_t with = run(t, &l);
    HD_CHECK_U64(t, 1, l.misses);
    HD_CHECK_U64(t, 1, l.hits);
    HD_CHECK(t, l.miss_pc < l.hit_pc); /* the first load missed, the second hit */
    HD_CHECK_U64(t, 0, l.absent);
    HD_CHECK(t, l.stalls[HD_HSTALL_LOAD_MISS] >= 1); /* waited on the missed load, knowing it */
    HD_CHECK(t, l.stalls[HD_HSTALL_LOAD] >= 1);      /* ... and on the hit */
    HD_CHECK_U64(t, 0, l.stalls[HD_HSTALL_BARRIER]);
    const uint64_t without = run(t, NULL);
    HD_CHECK_U64(t, without, with); /* the signals change no cycle */
}

int main(void)
{
    struct hd_test_state t = {0};
    test_hit_and_miss(&t);
    return hd_test_finish(&t);
}
