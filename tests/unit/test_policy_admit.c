/* SPDX-License-Identifier: MIT
 * test_policy_admit.c - the CTA scheduler's admission veto (cta_admit.h) and what CTA
 * distribution sees (cta_dist.h): a veto keeps a launch off chosen SMs, a quota bounds its
 * resident CTAs per SM, the default admits all, and the placements name the launch and the CTA
 * index in order; the query's per-launch and per-kernel residency and the CTA-left callback
 * (issue 25 item 7); the distributor sees the CTA coordinates and the hint (sm_mask).
 */
#include "cta_admit.h"
#include "cta_dist.h"
#include "gpu_timing.h"
#include "rt_internal.h"
#include "timing_testkit.h"

static const char k_ptx[] = TKIT_HEAD
    ".visible .entry ld1(.param .u64 in, .param .u64 out)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
    "\tmov.u32 %r3, %ctaid.x;\n\tmul.wide.u32 %rd3, %r3, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
    "\tld.global.u32 %r1, [%rd1];\n\tadd.u32 %r2, %r1, %r3;\n\tst.global.u32 [%rd4], %r2;\n"
    "\tret;\n}\n";

/* {==== A recording policy: veto, quota ==== */
struct rec {
    bool odd_only;          /* veto even SMs */
    uint32_t quota;         /* resident CTAs per SM (0: none) */
    uint32_t launch;        /* the launch it applies to */
    unsigned nplaced, asked;
    uint32_t sm[256];
    uint64_t cta[256];
    uint32_t resident_max;
    uint32_t launch_res_max;  /* largest launch_resident seen at a placement */
    bool kernel_ge_launch;    /* kernel_resident >= launch_resident at every placement */
    uint32_t kernel_id;       /* the kernel id of the placements (UINT32_MAX: they differed) */
    unsigned nleft, nleft_finished;
    uint32_t left_res_max;    /* largest launch_resident after a CTA left */
};

static bool rec_admit(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    struct rec *r = impl;
    (void)now;
    r->asked++;
    if (q->launch != r->launch)
        return true;
    if (r->odd_only && q->sm % 2 == 0)
        return false;
    return r->quota == 0 || q->resident < r->quota;
}

static void rec_placed(void *impl, const struct hd_admit_query *q, uint64_t now)
{
    struct rec *r = impl;
    (void)now;
    if (q->launch != r->launch || r->nplaced >= 256)
        return;
    r->sm[r->nplaced] = q->sm;
    r->cta[r->nplaced++] = q->cta;
    if (q->resident > r->resident_max)
        r->resident_max = q->resident;
    if (q->launch_resident > r->launch_res_max)
        r->launch_res_max = q->launch_resident;
    if (q->kernel_resident < q->launch_resident || q->launch_resident == 0)
        r->kernel_ge_launch = false;
    if (r->nplaced == 1)
        r->kernel_id = q->kernel;
    else if (r->kernel_id != q->kernel)
        r->kernel_id = UINT32_MAX;
}

static void rec_left(void *impl, const struct hd_admit_query *q, bool finished, uint64_t now)
{
    struct rec *r = impl;
    (void)now;
    if (q->launch != r->launch)
        return;
    r->nleft++;
    r->nleft_finished += finished;
    if (q->launch_resident > r->left_res_max)
        r->left_res_max = q->launch_resident;
}

static const struct hd_cta_admit_ops rec_ops = {.name = "record", .admit = rec_admit,
                                                 .placed = rec_placed, .left = rec_left};
/* }==== */

/* Run 16 CTAs of ld1 on 4 SMs with policy r (NULL: default); returns the cycles and checks the
 * output. */
static uint64_t run(struct hd_test_state *t, struct rec *r)
{
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 4\n[mem]\nmodel = fixed\n");
    struct hd_module *m = tkit_module(g, k_ptx);
    hd_devptr in, out;
    hd_malloc(g, &in, 64);
    hd_malloc(g, &out, 16 * 4);
    uint32_t seven = 7;
    hd_memcpy_h2d(g, in, &seven, 4);
    struct hd_arg a[2] = {HD_ARG(in), HD_ARG(out)};
    tkit_launch(g, m, "ld1", 1, 32, 0, a, 2); /* creates the timing model: launch 0 */
    tkit_cycles(g, 0);
    if (r) {
        r->launch = 1;
        hd_gpu_timing_set_admit(g->timing, &rec_ops, r);
    }
    tkit_launch(g, m, "ld1", 16, 64, 0, a, 2);
    uint64_t cyc = tkit_cycles(g, 1);
    uint32_t o[16];
    hd_memcpy_d2h(g, o, out, sizeof o);
    for (uint32_t i = 0; i < 16; i++)
        HD_CHECK_U64(t, 7 + i, o[i]);
    hd_gpu_destroy(g);
    return cyc;
}

static void test_veto_and_quota(struct hd_test_state *t)
{
    hd_test_begin(t, "admission: allow-all is the default; a veto and a quota are obeyed");
    uint64_t base = run(t, NULL);
    static struct rec all, odd, quota;
    uint64_t c_all = run(t, &all);
    HD_CHECK_U64(t, base, c_all); /* a policy that admits everything changes nothing */
    HD_CHECK_U64(t, 16, all.nplaced);
    HD_CHECK(t, all.asked >= 16);
    for (unsigned i = 0; i < all.nplaced; i++) /* CTA indices in order, SMs round robin */
        HD_CHECK_U64(t, i, all.cta[i]);
    odd.odd_only = true;
    uint64_t c_odd = run(t, &odd);
    HD_CHECK_U64(t, 16, odd.nplaced);
    for (unsigned i = 0; i < odd.nplaced; i++)
        HD_CHECK(t, odd.sm[i] % 2 == 1);
    HD_CHECK(t, c_odd > base); /* half the SMs */
    quota.quota = 1;
    run(t, &quota);
    HD_CHECK_U64(t, 16, quota.nplaced);
    HD_CHECK_U64(t, 1, quota.resident_max); /* each placed CTA was alone on its SM */
}

static void test_residency_and_left(struct hd_test_state *t)
{
    hd_test_begin(t, "admission: per-launch and per-kernel residency, the CTA-left callback");
    static struct rec r = {.kernel_ge_launch = true};
    run(t, &r);
    HD_CHECK_U64(t, 16, r.nplaced);
    HD_CHECK(t, r.launch_res_max >= 2); /* 16 CTAs on 4 SMs: several share an SM */
    HD_CHECK(t, r.kernel_ge_launch);
    HD_CHECK(t, r.kernel_id != UINT32_MAX); /* one kernel id for every CTA of the launch */
    HD_CHECK_U64(t, 16, r.nleft);           /* every CTA left once, finished */
    HD_CHECK_U64(t, 16, r.nleft_finished);
    HD_CHECK(t, r.left_res_max < r.launch_res_max); /* counted after it left */
}

static void test_dist_request(struct hd_test_state *t)
{
    hd_test_begin(t, "distribution policies receive the launch and the CTA index");
    struct hd_cta_dist d;
    HD_CHECK(t, hd_cta_dist_create(HD_CTADIST_ROUND_ROBIN, 3, &d) == 0);
    bool ok[3] = {true, true, true}, busy[3] = {false, false, false};
    struct hd_cta_dist_req r = {5, 41, 64, {8, 8, 1}, {1, 5, 0}, 0, 0, false};
    HD_CHECK_U64(t, 0, d.ops->pick(d.impl, &r, ok, busy, 3));
    d.ops->destroy(d.impl);
    /* sm_mask: the hint's bits name the SMs (0: all) */
    HD_CHECK(t, hd_cta_dist_create(HD_CTADIST_SM_MASK, 3, &d) == 0);
    r.hint = 0x4;
    HD_CHECK_U64(t, 2, d.ops->pick(d.impl, &r, ok, busy, 3));
    busy[2] = true;
    HD_CHECK(t, d.ops->pick(d.impl, &r, ok, busy, 3) < 0);
    r.hint = 0;
    HD_CHECK_U64(t, 0, d.ops->pick(d.impl, &r, ok, busy, 3));
    d.ops->destroy(d.impl);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_veto_and_quota(&t);
    test_residency_and_left(&t);
    test_dist_request(&t);
    return hd_test_finish(&t);
}
