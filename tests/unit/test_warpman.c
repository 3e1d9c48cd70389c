/* SPDX-License-Identifier: MIT
 * test_warpman.c - Warpman ([sm] allocator = warpman; model/mech/warpman, EXPARS digest §2.10):
 * the admission rule worked by hand (a partial CTA gets floor(rem / (regs x 32)) warps), the
 * allocator's grants (whole CTAs, one partial CTA, a waiting warp granted when a warp's
 * registers free, shared memory per whole CTA), and whole runs on one SM: the partial CTA's
 * waiting warps start without a context move, its barrier waits for them (every warp reads the
 * value a warp two places on wrote before the barrier: correct output), the counts worked by
 * hand, and the same cycles twice and with idle-cycle skipping off (determinism).
 */
#include "timing_testkit.h"
#include "warpman_alloc.h"

/* {==== The rule and the allocator ==== */
static void test_rule(struct hd_test_state *t)
{
    hd_test_begin(t, "the admission rule: whole, partial floor(rem / (regs x 32)), refused");
    /* Fermi SM (32,768 registers, 48 warp slots): CTAs of 8 warps at 36 registers per thread
     * hold 36 x 32 = 1,152 per warp, 9,216 per CTA; three whole CTAs leave 32,768 - 27,648 =
     * 5,120 registers: floor(5,120 / 1,152) = 4 warps of the fourth CTA start */
    HD_CHECK_U64(t, 8, hd_warpman_start_warps(8, 1152, 32768, 48, false));
    HD_CHECK_U64(t, 4, hd_warpman_start_warps(8, 1152, 5120, 24, false));
    HD_CHECK_U64(t, 0, hd_warpman_start_warps(8, 1152, 5120, 24, true)); /* one partial CTA */
    HD_CHECK_U64(t, 0, hd_warpman_start_warps(8, 1152, 1151, 24, false)); /* no warp fits */
    /* EXPARS Fig. 5's CTA (10 warps, 10K registers): 3 whole leave 2,048, 2 warps of 1,024 */
    HD_CHECK_U64(t, 2, hd_warpman_start_warps(10, 1024, 32768 - 3 * 10240, 18, false));
    /* warp slots bind: 3 slots left of a 4-warp CTA with registers to spare */
    HD_CHECK_U64(t, 3, hd_warpman_start_warps(4, 512, 30000, 3, false));
    /* never all the warps as a partial CTA: a CTA that fits is whole */
    HD_CHECK_U64(t, 4, hd_warpman_start_warps(4, 512, 2048, 4, false));
}

static struct hd_cta_demand demand(uint32_t warps, uint32_t rpw, uint64_t smem)
{
    return (struct hd_cta_demand){.warps = warps, .threads = warps * 32, .regs = warps * rpw,
                                  .smem = smem, .regs_per_warp = rpw, .all_warps = warps};
}

static uint32_t absent(const struct hd_cta_grant *g)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->nwarps; i++)
        n += g->warp_slot[i] == HD_ALLOC_NO_SLOT;
    return n;
}

static void test_alloc(struct hd_test_state *t)
{
    hd_test_begin(t, "the allocator: 3 whole CTAs + 1 partial of 4 warps, per-warp grants");
    struct hd_sm_params p = {0};
    p.max_warps = 48;
    p.max_threads = 1536;
    p.max_ctas = 8;
    p.phys_ctas = 8;
    p.registers = 32768;
    p.shared_bytes = 49152;
    struct hd_sm_alloc a;
    HD_CHECK_U64(t, 0, (uint64_t)hd_warpman_alloc_create(&p, &a));
    const struct hd_alloc_ops *o = a.ops;
    const struct hd_cta_demand d = demand(8, 1152, 4096);
    struct hd_cta_grant g[5];
    for (int i = 0; i < 3; i++) {
        HD_CHECK(t, o->accept(a.impl, &d, &g[i]));
        HD_CHECK_U64(t, 0, absent(&g[i]));
    }
    HD_CHECK(t, o->accept(a.impl, &d, &g[3]));
    HD_CHECK_U64(t, 4, absent(&g[3])); /* warps 4..7 wait */
    HD_CHECK_U64(t, 0, g[3].warp_slot[0] == HD_ALLOC_NO_SLOT);
    HD_CHECK_U64(t, HD_ALLOC_NO_SLOT, g[3].warp_slot[4]);
    struct hd_alloc_usage u;
    o->usage(a.impl, &u);
    HD_CHECK_U64(t, 4, u.ctas);
    HD_CHECK_U64(t, 28, u.warps);
    HD_CHECK_U64(t, 28 * 1152, u.regs); /* 32,256: 512 free */
    HD_CHECK(t, !o->can_accept(a.impl, &d)); /* a second partial CTA: no */
    const struct hd_alloc_part w4 = {4, 0, 0}, w5 = {5, 0, 0}, w0 = {0, 0, 0};
    HD_CHECK(t, !o->acquire(a.impl, &g[3], &w4)); /* 512 < 1,152 */
    o->release_part(a.impl, &g[0], &w0);          /* a warp of CTA 0 exits: 1,664 free */
    HD_CHECK_U64(t, HD_ALLOC_NO_SLOT, g[0].warp_slot[0]);
    HD_CHECK(t, o->acquire(a.impl, &g[3], &w4));
    HD_CHECK(t, g[3].warp_slot[4] != HD_ALLOC_NO_SLOT);
    HD_CHECK(t, !o->acquire(a.impl, &g[3], &w5)); /* 512 free again */
    o->release(a.impl, &g[0]);                    /* CTA 0's other 7 warps: 8,576 free */
    for (uint32_t i = 5; i < 8; i++) {
        const struct hd_alloc_part w = {i, 0, 0};
        HD_CHECK(t, o->acquire(a.impl, &g[3], &w));
    }
    o->usage(a.impl, &u);
    HD_CHECK_U64(t, 3, u.ctas);
    HD_CHECK_U64(t, 24, u.warps);
    /* shared memory is per CTA and whole: 20,000 B CTAs, two fit 49,152 B, a third does not,
     * not even as a partial CTA */
    o->release(a.impl, &g[1]);
    o->release(a.impl, &g[2]);
    o->release(a.impl, &g[3]);
    HD_CHECK(t, o->is_idle(a.impl));
    const struct hd_cta_demand s = demand(2, 512, 20000);
    HD_CHECK(t, o->accept(a.impl, &s, &g[0]));
    HD_CHECK(t, o->accept(a.impl, &s, &g[1]));
    HD_CHECK_U64(t, 20000, g[1].smem_base);
    HD_CHECK(t, !o->can_accept(a.impl, &s));
    o->destroy(a.impl);
}
/* }==== */

/* {==== Whole runs ==== */
/* barx(out): each thread writes ctaid x 1000 + tid to shared memory, waits at the barrier and
 * stores the value of thread (tid + 64) % 128: warps 0 and 1 read what warps 2 and 3 wrote. */
static const char barx_ptx[] = TKIT_HEAD
    ".visible .entry barx(.param .u64 out)\n{\n"
    "\t.shared .align 4 .b8 sh[512];\n"
    "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n"
    "\tmul.lo.u32 %r3, %r2, 1000;\n\tadd.u32 %r4, %r3, %r1;\n"
    "\tmov.u32 %r5, sh;\n\tshl.b32 %r6, %r1, 2;\n\tadd.u32 %r7, %r5, %r6;\n"
    "\tst.shared.u32 [%r7], %r4;\n\tbar.sync 0;\n"
    "\tadd.u32 %r8, %r1, 64;\n\tand.b32 %r9, %r8, 127;\n\tshl.b32 %r10, %r9, 2;\n"
    "\tadd.u32 %r11, %r5, %r10;\n\tld.shared.u32 %r12, [%r11];\n"
    "\tshl.b32 %r13, %r2, 7;\n\tadd.u32 %r14, %r13, %r1;\n\tmul.wide.u32 %rd3, %r14, 4;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r12;\n\tret;\n}\n";

struct barx_run {
    uint64_t cycles, placed_absent, fresh, switch_ins, move_cycles, absent_bar, stall_bar;
    bool correct;
};

/* Two CTAs of 128 threads (4 warps, 16 registers per thread: 512 per warp) on one SM. */
static struct barx_run run_barx(const char *ini)
{
    struct barx_run r = {0};
    struct hd_gpu *g = tkit_gpu(ini);
    struct hd_module *m = tkit_module(g, barx_ptx);
    hd_devptr out;
    uint32_t v[256];
    struct hd_arg a[1] = {HD_ARG(out)};
    if (hd_malloc(g, &out, sizeof v) == HD_OK) {
        if (tkit_launch(g, m, "barx", 2, 128, 0, a, 1) == HD_OK) {
            r.cycles = tkit_cycles(g, 0);
            r.correct = hd_memcpy_d2h(g, v, out, sizeof v) == HD_OK;
            for (uint32_t i = 0; i < 256 && r.correct; i++)
                r.correct = v[i] == (i / 128) * 1000 + (i % 128 + 64) % 128;
        }
    }
    r.placed_absent = tkit_stat(g, "sm.warp_placed_absent");
    r.fresh = tkit_stat(g, "sm.warp_fresh_starts");
    r.switch_ins = tkit_stat(g, "sm.warp_switch_ins");
    r.move_cycles = tkit_stat(g, "sm.warp_move_cycles");
    r.absent_bar = tkit_stat(g, "sm.warp_absent_bar_releases");
    r.stall_bar = tkit_stat(g, "sched.stall_barrier");
    hd_gpu_destroy(g);
    return r;
}

#define WM_SM "[gpu]\nnum_sms = 1\n[sm]\nallocator = warpman\nregs_source = 16\n"

static void test_partial_run(struct hd_test_state *t)
{
    hd_test_begin(t, "a run: the partial CTA's 2 waiting warps start fresh, its barrier waits");
    /* 3,328 registers: CTA 0 whole (4 x 512 = 2,048), 1,280 left: floor(1,280 / 512) = 2 warps
     * of CTA 1 start, 2 wait until CTA 0's warps exit */
    const struct barx_run r = run_barx(WM_SM "registers = 3328\n");
    HD_CHECK(t, r.correct);
    HD_CHECK(t, r.cycles > 0);
    HD_CHECK_U64(t, 2, r.placed_absent);
    HD_CHECK_U64(t, 2, r.fresh);
    HD_CHECK_U64(t, 0, r.switch_ins);  /* no context move for a warp that never ran */
    HD_CHECK_U64(t, 0, r.move_cycles);
    HD_CHECK_U64(t, 0, r.absent_bar);  /* no barrier released while a warp had not started */
    HD_CHECK(t, r.stall_bar > 0);      /* CTA 1's first warps waited for them */
    /* the same SM with warp slots binding (6 slots, registers to spare): 2 warps wait too */
    const struct barx_run s = run_barx(WM_SM "max_threads = 192\n");
    HD_CHECK(t, s.correct);
    HD_CHECK_U64(t, 2, s.placed_absent);
    HD_CHECK_U64(t, 2, s.fresh);
    /* registers for both whole CTAs: nothing waits */
    const struct barx_run w = run_barx(WM_SM "registers = 4096\n");
    HD_CHECK(t, w.correct);
    HD_CHECK_U64(t, 0, w.placed_absent);
    if (t->failures)
        fprintf(stderr, "    absent %llu fresh %llu switch-ins %llu bar %llu/%llu cycles %llu\n",
                (unsigned long long)r.placed_absent, (unsigned long long)r.fresh,
                (unsigned long long)r.switch_ins, (unsigned long long)r.absent_bar,
                (unsigned long long)r.stall_bar, (unsigned long long)r.cycles);
}

static void test_determinism(struct hd_test_state *t)
{
    hd_test_begin(t, "Warpman runs are deterministic (same cycles twice, skipping idle or not)");
    const struct barx_run a = run_barx(WM_SM "registers = 3328\n");
    const struct barx_run b = run_barx(WM_SM "registers = 3328\n");
    const struct barx_run c = run_barx(WM_SM "registers = 3328\n[timing]\nskip_idle = false\n");
    HD_CHECK(t, a.cycles > 0);
    HD_CHECK_U64(t, a.cycles, b.cycles);
    HD_CHECK_U64(t, a.stall_bar, b.stall_bar);
    HD_CHECK_U64(t, a.cycles, c.cycles);
    HD_CHECK_U64(t, a.fresh, c.fresh);
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_rule(&t);
    test_alloc(&t);
    test_partial_run(&t);
    test_determinism(&t);
    return hd_test_finish(&t);
}
