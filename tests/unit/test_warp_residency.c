/* SPDX-License-Identifier: MIT
 * test_warp_residency.c - warp-granular residency (model/timing/sm_residency.h) driven step by
 * step through its API from a test hook's end-of-cycle callback, on one SM with fixed-latency
 * memory (400 cycles): one CTA of two warps, each thread loads in[tid], adds 1, writes it to
 * shared memory, waits at a barrier and stores its partner's value (out[t] = in[t ^ 32] + 1).
 *   1. warp 1, waiting for its load, is switched out: its state is in its context with the load
 *      still counted; the load completes while it is absent and is applied to the saved state
 *      (counts at 0, warp_absent_loads); it is switched back in and uses the value.
 *   2. warp 0, waiting at the barrier, is switched out; warp 1 arrives and the barrier completes
 *      with warp 0 absent (warp_absent_bar_releases); warp 0 comes back and goes on.
 *   3. the mover seam: a test mover sees every move (bytes = the warp's allocated registers x 4
 *      + 128) and times the outs itself, the ins by calling hd_sm_warp_moved; the hooks hear
 *      warp_left and warp_returned twice each; the output verifies.
 * Rules: a warp that may not leave (nothing eligible: an empty slot) is refused, and a switch-in
 * of a warp still moving out is refused.
 *   4. the swap (hd_sm_warp_swap, GPUDuet's "switch the context spaces of them"): warp 1 out at
 *      its load; once the load is back, warp 0 at the barrier and warp 1 swap in ONE call and
 *      ONE move of a mover that takes swaps (struct hd_warp_move .swap, both warps' bytes);
 *      one hd_sm_warp_moved of the leaving warp completes both, warp 1 runs and completes the
 *      barrier, warp 0 comes back; the output verifies.
 */
#include "gpu_impl.h"
#include "rt_internal.h"
#include "sm_impl.h"
#include "timing_testkit.h"

static const char k_ptx[] = TKIT_HEAD
    ".visible .entry pair(.param .u64 in, .param .u64 out)\n{\n"
    "\t.shared .align 4 .b8 s[256];\n"
    "\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
    "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.u64 %rd4, %rd1, %rd3;\n"
    "\tld.global.u32 %r2, [%rd4];\n\tadd.u32 %r3, %r2, 1;\n"
    "\tmov.u32 %r5, s;\n\tshl.b32 %r4, %r1, 2;\n\tadd.u32 %r6, %r5, %r4;\n"
    "\tst.shared.u32 [%r6], %r3;\n\tbar.sync 0;\n"
    "\txor.b32 %r7, %r1, 32;\n\tshl.b32 %r8, %r7, 2;\n\tadd.u32 %r9, %r5, %r8;\n"
    "\tld.shared.u32 %r10, [%r9];\n\tadd.u64 %rd5, %rd2, %rd3;\n"
    "\tst.global.u32 [%rd5], %r10;\n\tret;\n}\n";

struct drv {
    struct hd_test_state *t;
    struct hd_sm *sm;
    int phase;
    struct hd_ctx *x;
    uint64_t in_due;         /* the pending in-move the test completes itself (0: none) */
    uint32_t in_warp;
    unsigned moves, bad_bytes, left, returned, swaps;
    bool saw_load_absent, saw_release_absent, refused_ok;
};

static uint64_t mv_start(void *impl, const struct hd_warp_move *m, uint64_t now)
{
    struct drv *d = impl;
    d->moves++;
    if (m->swap) { /* (test_swap) both warps in one move: the test completes it */
        d->swaps++;
        if (m->in || m->ctx2 != m->ctx || m->warp2 == m->warp ||
            m->bytes2 != (uint64_t)m->regs2 * 4u + HD_WARP_STATE_BYTES)
            d->bad_bytes++;
        d->in_due = now + 9;
        d->in_warp = m->warp; /* (the leaving warp names the swap) */
        return HD_WARP_MOVE_CALLBACK;
    }
    if (m->bytes != (uint64_t)m->regs * 4u + HD_WARP_STATE_BYTES || m->regs % 32u != 0 ||
        m->sm != 0)
        d->bad_bytes++;
    if (!m->in)
        return now + 5;
    d->in_due = now + 9; /* completed by the test hook below */
    d->in_warp = m->warp;
    return HD_WARP_MOVE_CALLBACK;
}

/* The bound warp `i` of the only CTA, or NULL. */
static struct hd_twarp *warp(struct hd_sm *sm, uint32_t i)
{
    for (uint32_t s = 0; s < sm->p->max_warps; s++)
        if (sm->w[s].state != HD_WS_EMPTY && sm->w[s].fw->id == i)
            return &sm->w[s];
    return NULL;
}

/* Both drivers' start of a cycle: never ready, busy until phase `done`, and the switch-in the
 * test's mover owes completed when due. */
static void drv_tick(struct drv *d, uint64_t now, bool *ready, bool *busy, int done)
{
    *ready = false;
    *busy = d->phase < done;
    if (d->in_due && now >= d->in_due) {
        d->in_due = 0;
        hd_sm_warp_moved(d->sm, d->x->id, d->in_warp, now);
    }
}

static int hk_cycle(void *impl, uint64_t now, bool *ready, bool *busy, char *err, size_t errlen)
{
    struct drv *d = impl;
    struct hd_sm *sm = d->sm;
    (void)err;
    (void)errlen;
    drv_tick(d, now, ready, busy, 4);
    struct hd_twarp *w;
    switch (d->phase) {
    case 0: /* warp 1 waits for its global load */
        w = warp(sm, 1);
        d->refused_ok |= !hd_sm_warp_switch_out(sm, sm->p->max_warps - 1, UINT64_MAX, now);
        /* (it may leave once its load/store unit has sent every request of the load) */
        if (w && w->state == HD_WS_SB_MEM && w->lt_out == 1 &&
            hd_sm_warp_switch_out(sm, w->slot, UINT64_MAX, now)) {
            d->x = sm->cta[w->cta].ctx;
            HD_CHECK(d->t, hd_sm_warp_absent(d->x, 1) && d->x->saved[1].lt_out == 1 &&
                               d->x->saved[1].state == HD_WS_LEAVING);
            /* still moving out: it may not come back yet */
            HD_CHECK(d->t, !hd_sm_warp_switch_in(sm, d->x, 1, now));
            d->phase = 1;
        }
        break;
    case 1: /* warp 0 at the barrier (it got its own load) */
        w = warp(sm, 0);
        if (w && w->state == HD_WS_BARRIER && hd_sm_warp_switch_out(sm, w->slot, UINT64_MAX, now))
            d->phase = 2;
        break;
    case 2: /* warp 1's load came back while it was out: bring it back */
        if (d->x->saved[1].state == HD_WS_ABSENT && d->x->saved[1].lt_out == 0 &&
            d->x->saved[0].state == HD_WS_ABSENT) {
            d->saw_load_absent = d->x->saved[1].inflight == 0 && d->x->saved[1].mem_out == 0 &&
                                 sm->st->warp_absent_loads == 1;
            HD_CHECK(d->t, hd_sm_warp_switch_in(sm, d->x, 1, now));
            d->phase = 3;
        }
        break;
    case 3: /* the barrier completed with warp 0 absent: bring it back */
        if (!d->x->fc.warps[0].at_barrier && !d->in_due) {
            d->saw_release_absent = sm->st->warp_absent_bar_releases == 1;
            HD_CHECK(d->t, hd_sm_warp_switch_in(sm, d->x, 0, now));
            d->phase = 4;
        }
        break;
    default:
        break;
    }
    return 0;
}

static void hk_left(void *impl, uint32_t sm, uint32_t ctx, uint32_t w, uint32_t slot, uint64_t now)
{
    struct drv *d = impl;
    (void)sm, (void)ctx, (void)w, (void)slot, (void)now;
    d->left++;
}

static void hk_returned(void *impl, uint32_t sm, uint32_t ctx, uint32_t w, uint32_t slot,
                        uint64_t now)
{
    struct drv *d = impl;
    (void)sm, (void)ctx, (void)w, (void)slot, (void)now;
    d->returned++;
}

/* test_swap's driver: warp 1 out at its load, then warp 0 (at the barrier) and warp 1 swapped. */
static int hk_cycle_swap(void *impl, uint64_t now, bool *ready, bool *busy, char *err,
                         size_t errlen)
{
    struct drv *d = impl;
    struct hd_sm *sm = d->sm;
    (void)err;
    (void)errlen;
    drv_tick(d, now, ready, busy, 3);
    struct hd_twarp *w;
    switch (d->phase) {
    case 0: /* warp 1 waits for its global load */
        w = warp(sm, 1);
        if (w && w->state == HD_WS_SB_MEM && w->lt_out == 1 &&
            hd_sm_warp_switch_out(sm, w->slot, UINT64_MAX, now)) {
            d->x = sm->cta[w->cta].ctx;
            d->phase = 1;
        }
        break;
    case 1: /* its load is back and warp 0 waits at the barrier: swap them */
        w = warp(sm, 0);
        if (w && w->state == HD_WS_BARRIER && d->x->saved[1].state == HD_WS_ABSENT &&
            d->x->saved[1].lt_out == 0) {
            /* (warp 0 may leave once nothing of it is in flight: asked again next cycle) */
            const int got = hd_sm_warp_swap(sm, w->slot, d->x, 1, now);
            if (got == 0)
                break;
            HD_CHECK(d->t, got == 2);
            HD_CHECK(d->t, hd_sm_warp_absent(d->x, 0) && !hd_sm_warp_absent(d->x, 1) &&
                               d->x->saved[0].state == HD_WS_LEAVING && warp(sm, 1) != NULL);
            /* both move until the one completion: neither may be moved again */
            HD_CHECK(d->t, !hd_sm_warp_switch_in(sm, d->x, 0, now));
            d->phase = 2;
        }
        break;
    case 2: /* the swap completed and warp 1 released the barrier: warp 0 comes back */
        if (!d->in_due && d->x->saved[0].state == HD_WS_ABSENT &&
            !d->x->fc.warps[0].at_barrier) {
            HD_CHECK(d->t, d->returned == 1);
            HD_CHECK(d->t, hd_sm_warp_switch_in(sm, d->x, 0, now));
            d->phase = 3;
        }
        break;
    default:
        break;
    }
    return 0;
}

static const struct hd_hook_ops drv_swap_ops = {
    .name = "test_warp_residency_swap",
    .cycle = hk_cycle_swap,
    .warp_left = hk_left,
    .warp_returned = hk_returned,
};

static const struct hd_hook_ops drv_ops = {
    .name = "test_warp_residency",
    .cycle = hk_cycle,
    .warp_left = hk_left,
    .warp_returned = hk_returned,
};

/* Both tests' run: kernel "pair" on one SM, once for the baseline (and the timing model), then
 * with the driver's hooks and a mover (`swaps`: it takes swaps) installed. *base and *c: the two
 * runs' cycles; *ok: the output equals the CPU reference. NULL (checked) without a timing model. */
static struct hd_gpu *run_with_driver(struct hd_test_state *t, const struct hd_hook_ops *ops,
                                      bool swaps, struct drv *d, uint64_t *base, uint64_t *c,
                                      bool *ok)
{
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n");
    struct hd_module *m = tkit_module(g, k_ptx);
    hd_devptr in, out;
    uint32_t hin[64], hout[64];
    for (uint32_t i = 0; i < 64; i++)
        hin[i] = 1000 + 7 * i;
    hd_malloc(g, &in, sizeof hin);
    hd_malloc(g, &out, sizeof hout);
    hd_memcpy_h2d(g, in, hin, sizeof hin);
    struct hd_arg a[2] = {HD_ARG(in), HD_ARG(out)};
    tkit_launch(g, m, "pair", 1, 64, 0, a, 2); /* creates the timing model, warms the icache */
    tkit_cycles(g, 0);
    tkit_launch(g, m, "pair", 1, 64, 0, a, 2);
    *base = tkit_cycles(g, 1);
    HD_CHECK(t, g->timing != NULL);
    if (!g->timing) {
        hd_gpu_destroy(g);
        return NULL;
    }
    d->t = t;
    d->sm = g->timing->sm[0];
    char err[256];
    HD_CHECK(t, hd_hooks_add(&g->timing->hooks, (struct hd_hook){ops, d}, err, sizeof err) == 0);
    HD_CHECK(t, hd_sm_set_warp_mover(d->sm, &(struct hd_warp_mover){mv_start, d, swaps}));
    hd_memcpy_h2d(g, out, hin, sizeof hin); /* (overwritten by the kernel) */
    tkit_launch(g, m, "pair", 1, 64, 0, a, 2);
    *c = tkit_cycles(g, 2);
    hd_memcpy_d2h(g, hout, out, sizeof hout);
    *ok = true;
    for (uint32_t i = 0; i < 64; i++)
        *ok &= hout[i] == hin[i ^ 32] + 1;
    return g;
}

static void test_switch(struct hd_test_state *t)
{
    hd_test_begin(t, "warp switched out with a load in flight and at a barrier, and back");
    struct drv d = {0};
    uint64_t base = 0, c = 0;
    bool ok = false;
    struct hd_gpu *g = run_with_driver(t, &drv_ops, false, &d, &base, &c, &ok);
    if (!g)
        return;
    HD_CHECK(t, ok);
    HD_CHECK(t, d.phase == 4);
    HD_CHECK(t, d.refused_ok);
    HD_CHECK(t, d.saw_load_absent);
    HD_CHECK(t, d.saw_release_absent);
    HD_CHECK(t, d.moves == 4 && d.bad_bytes == 0);
    HD_CHECK(t, d.left == 2 && d.returned == 2);
    HD_CHECK(t, tkit_stat(g, "sm.warp_switch_outs") == 2);
    HD_CHECK(t, tkit_stat(g, "sm.warp_switch_ins") == 2);
    HD_CHECK(t, tkit_stat(g, "sm.warp_absent_loads") == 1);
    HD_CHECK(t, tkit_stat(g, "sm.warp_absent_bar_releases") == 1);
    HD_CHECK(t, c > base); /* (the moves and the held warps cost cycles) */
    printf("  baseline %llu cycles, with two warps switched out and back %llu\n",
           (unsigned long long)base, (unsigned long long)c);
    hd_gpu_destroy(g);
}

static void test_swap(struct hd_test_state *t)
{
    hd_test_begin(t, "a swap: one call, one move of both warps, one completion");
    struct drv d = {0};
    uint64_t base = 0, c = 0;
    bool ok = false;
    struct hd_gpu *g = run_with_driver(t, &drv_swap_ops, true, &d, &base, &c, &ok);
    if (!g)
        return;
    HD_CHECK(t, ok);
    HD_CHECK(t, d.phase == 3);
    HD_CHECK(t, d.swaps == 1 && d.moves == 3 && d.bad_bytes == 0); /* out, swap, in */
    HD_CHECK(t, d.left == 2 && d.returned == 2);
    HD_CHECK(t, tkit_stat(g, "sm.warp_switch_outs") == 2);
    HD_CHECK(t, tkit_stat(g, "sm.warp_switch_ins") == 2);
    HD_CHECK(t, c > base);
    printf("  baseline %llu cycles, with a switch-out, a swap and a switch-in %llu\n",
           (unsigned long long)base, (unsigned long long)c);
    hd_gpu_destroy(g);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_switch(&t);
    test_swap(&t);
    return hd_test_finish(&t);
}
