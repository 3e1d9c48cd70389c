/* SPDX-License-Identifier: MIT
 * test_policy_sched.c - what a warp-scheduling policy sees (sm_sched.h): the read-only warp
 * view (launch, CTA, warp in CTA, next PC, long loads, state, annotations, the CTA's
 * coordinates, the grid and the launch's hint) and, with
 * offer_blocked, the resident warps that cannot issue. A policy installed on every scheduler
 * (hd_sm_sched_replace) records what it is offered and orders by age; the kernel still
 * verifies, blocked warps are offered, and every view is consistent with the launch.
 */
#include "gpu_impl.h"
#include "rt_internal.h"
#include "sm_policy.h"
#include "timing_testkit.h"

/* {==== A recording, oldest-first policy that asks for blocked warps ==== */
struct seen {
    uint64_t offered, blocked, ready, views_bad, long_loads, annotated;
    uint64_t coords_bad;      /* views whose CTA coordinates, grid or hint are wrong */
    uint32_t max_warp_in_cta;
    uint64_t max_cta;
    uint32_t launch_min, launch_max;
};

struct rec_sched {
    struct seen *seen;
    uint64_t age[1024];
};

static void rs_add(void *impl, uint32_t w, uint64_t age)
{
    struct rec_sched *s = impl;
    if (w < 1024)
        s->age[w] = age;
}
static void rs_remove(void *impl, uint32_t w)
{
    (void)impl;
    (void)w;
}
static void rs_issued(void *impl, uint32_t w)
{
    (void)impl;
    (void)w;
}
static void rs_destroy(void *impl)
{
    free(impl);
}

static unsigned rs_order(void *impl, const struct hd_sched_env *env, const uint32_t *w,
                         unsigned n, uint32_t *out)
{
    struct rec_sched *s = impl;
    struct seen *z = s->seen;
    for (unsigned i = 0; i < n; i++) {
        struct hd_warp_view v;
        env->view(env->sm, w[i], &v);
        z->offered++;
        if (v.state == HD_WV_READY)
            z->ready++;
        else
            z->blocked++;
        z->long_loads += v.long_loads > 0;
        bool pc_ok = v.an && (v.next_pc < v.an->ncode || v.state == HD_WV_DRAIN);
        if (v.slot != w[i] || !pc_ok || v.age != s->age[w[i]] ||
            v.flags != hd_annot_flags(v.an, v.next_pc))
            z->views_bad++;
        z->annotated += v.an && hd_annot_flags(v.an, v.next_pc) != 0;
        if (v.grid[0] != 8 || v.grid[1] != 1 || v.grid[2] != 1 || v.ctaid[0] != v.cta ||
            v.ctaid[1] != 0 || v.ctaid[2] != 0 || v.hint != 0x5a)
            z->coords_bad++; /* (issue 25 item 7: grid 8 x 1 x 1, hint 0x5a) */
        z->max_warp_in_cta = v.warp_in_cta > z->max_warp_in_cta ? v.warp_in_cta
                                                                : z->max_warp_in_cta;
        z->max_cta = v.cta > z->max_cta ? v.cta : z->max_cta;
        z->launch_min = v.launch < z->launch_min ? v.launch : z->launch_min;
        z->launch_max = v.launch > z->launch_max ? v.launch : z->launch_max;
        /* oldest first (insertion) */
        unsigned j = i;
        while (j > 0 && s->age[out[j - 1]] > s->age[w[i]]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = w[i];
    }
    return n;
}

static const struct hd_sched_ops rec_ops = {"record", true,     rs_add,   rs_remove, rs_order,
                                            rs_issued, rs_issued, rs_destroy};
/* }==== */

/* y[i] = x[i] * 2 + i over 8 CTAs of 128 threads, with a loop so warps wait on loads. */
static const char k_ptx[] = TKIT_HEAD
    ".visible .entry k(.param .u64 x, .param .u64 y)\n{\n"
    "\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [x];\n\tld.param.u64 %rd2, [y];\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
    "\tmad.lo.u32 %r4, %r2, %r3, %r1;\n\tmul.wide.u32 %rd3, %r4, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
    "\tld.global.u32 %r5, [%rd4];\n\tmov.u32 %r6, 0;\n\tmov.u32 %r7, 0;\n"
    "$L:\n\tadd.u32 %r6, %r6, %r5;\n\tadd.u32 %r7, %r7, 1;\n"
    "\tsetp.lt.u32 %p1, %r7, 2;\n\t@%p1 bra $L;\n"
    "\tadd.u32 %r8, %r6, %r4;\n\tst.global.u32 [%rd5], %r8;\n\tret;\n}\n";

static void test_views(struct hd_test_state *t)
{
    hd_test_begin(t, "warp views and blocked warps offered to a policy that asks");
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 2\n");
    struct hd_module *m = tkit_module(g, k_ptx);
    enum { N = 8 * 128 };
    uint32_t *h = malloc(N * 4);
    for (uint32_t i = 0; i < N; i++)
        h[i] = i % 7;
    hd_devptr x, y;
    hd_malloc(g, &x, N * 4);
    hd_malloc(g, &y, N * 4);
    hd_memcpy_h2d(g, x, h, N * 4);
    struct hd_arg a[2] = {HD_ARG(x), HD_ARG(y)};
    tkit_launch(g, m, "k", 1, 32, 0, a, 2); /* creates the timing model */
    tkit_cycles(g, 0);
    static struct seen z;
    z.launch_min = UINT32_MAX;
    struct hd_gpu_timing *gt = g->timing;
    bool installed = gt != NULL;
    for (uint32_t s = 0; gt && s < gt->p.num_sms; s++)
        for (uint32_t k = 0; k < gt->p.sm.num_sched; k++) {
            struct rec_sched *rs = calloc(1, sizeof *rs);
            rs->seen = &z;
            struct hd_sched p = {&rec_ops, rs}, old;
            if (hd_sm_sched_replace(gt->sm[s], k, &p, &old))
                old.ops->destroy(old.impl);
            else
                installed = false;
        }
    HD_CHECK(t, installed);
    const struct hd_launch_attr attr = {0, 0, 0, 0x5a};
    hd_set_launch_attr(g, &attr);
    tkit_launch(g, m, "k", 8, 128, 0, a, 2);
    HD_CHECK(t, tkit_cycles(g, 1) > 0);
    hd_memcpy_d2h(g, h, y, N * 4);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < N; i++)
        bad += h[i] != 2 * (i % 7) + i;
    HD_CHECK_U64(t, 0, bad);
    HD_CHECK(t, z.ready > 0 && z.blocked > 0);
    HD_CHECK_U64(t, 0, z.views_bad);
    HD_CHECK_U64(t, 0, z.coords_bad);
    HD_CHECK(t, z.long_loads > 0);     /* warps seen waiting for their global load */
    HD_CHECK(t, z.annotated > 0);      /* loop and branch flags of the next PC */
    HD_CHECK_U64(t, 3, z.max_warp_in_cta);
    HD_CHECK_U64(t, 7, z.max_cta);
    HD_CHECK_U64(t, 1, z.launch_min);
    HD_CHECK_U64(t, 1, z.launch_max);
    free(h);
    hd_gpu_destroy(g);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_views(&t);
    return hd_test_finish(&t);
}
