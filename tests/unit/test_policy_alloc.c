/* SPDX-License-Identifier: MIT
 * test_policy_alloc.c - the allocator interface (sm_alloc.h): the demand's launch and priority
 * reach the grant; per-warp and partial acquire/release; the victim plan (rule and minimality);
 * the configuration key ([sm] allocator; an unknown name is a located error); and allocator
 * timers that fire in the same cycles whether or not the GPU skips idle cycles (sm_policy.h,
 * hd_gpu_timing_set_alloc).
 */
#include "config.h"
#include "gpu_timing.h"
#include "rt_internal.h"
#include "sm_alloc.h"
#include "timing_params.h"
#include "timing_testkit.h"

/* {==== The partitioned allocator alone ==== */
static struct hd_sm_params small_sm(void)
{
    struct hd_sm_params p;
    memset(&p, 0, sizeof p);
    p.max_warps = 16;
    p.max_threads = 512;
    p.max_ctas = 4;
    p.registers = 1000;
    p.shared_bytes = 1000;
    p.alloc = HD_ALLOC_PARTITIONED;
    return p;
}

static struct hd_cta_demand dem(uint32_t warps, uint32_t regs, uint64_t smem, uint32_t launch,
                                int32_t prio)
{
    return (struct hd_cta_demand){warps, warps * 32, regs, smem, launch, prio, 0, 0};
}

static void test_partial(struct hd_test_state *t)
{
    hd_test_begin(t, "launch and priority in the grant; per-warp and partial acquire/release");
    struct hd_sm_params p = small_sm();
    struct hd_sm_alloc a;
    HD_CHECK(t, hd_sm_alloc_create(&p, &a) == 0);
    HD_CHECK(t, strcmp(a.ops->name, "partitioned") == 0);
    struct hd_cta_grant g0, g1;
    struct hd_cta_demand d0 = dem(2, 200, 100, 7, 3), d1 = dem(2, 200, 100, 8, 0);
    HD_CHECK(t, a.ops->accept(a.impl, &d0, &g0));
    HD_CHECK(t, a.ops->accept(a.impl, &d1, &g1));
    HD_CHECK_U64(t, 7, g0.launch);
    HD_CHECK_U64(t, 3, g0.priority);
    HD_CHECK_U64(t, 200, g1.reg_base); /* first fit above g0 */
    struct hd_alloc_usage u;
    /* a warp of g0 leaves its slot with 50 registers, then comes back */
    struct hd_alloc_part w1 = {1, 50, 0};
    a.ops->release_part(a.impl, &g0, &w1);
    HD_CHECK_U64(t, HD_ALLOC_NO_SLOT, g0.warp_slot[1]);
    HD_CHECK_U64(t, 150, g0.regs);
    a.ops->usage(a.impl, &u);
    HD_CHECK_U64(t, 3, u.warps);
    HD_CHECK_U64(t, 350, u.regs);
    /* growing g0 by 60 registers fails: g1 sits right above it; 50 fit again */
    struct hd_alloc_part big = {1, 60, 0}, back = {1, 50, 0};
    HD_CHECK(t, !a.ops->acquire(a.impl, &g0, &big));
    HD_CHECK_U64(t, HD_ALLOC_NO_SLOT, g0.warp_slot[1]);
    HD_CHECK(t, a.ops->acquire(a.impl, &g0, &back));
    HD_CHECK(t, g0.warp_slot[1] != HD_ALLOC_NO_SLOT);
    HD_CHECK_U64(t, 200, g0.regs);
    /* shared memory only, no warp */
    struct hd_alloc_part sm_only = {HD_ALLOC_NO_WARP, 0, 300};
    HD_CHECK(t, a.ops->acquire(a.impl, &g1, &sm_only));
    HD_CHECK_U64(t, 400, g1.smem);
    a.ops->usage(a.impl, &u);
    HD_CHECK_U64(t, 4, u.warps);
    HD_CHECK_U64(t, 500, u.smem);
    /* a warp released alone stays out of the whole-CTA release's count */
    a.ops->release_part(a.impl, &g1, &(struct hd_alloc_part){0, 0, 0});
    a.ops->release(a.impl, &g1);
    a.ops->release(a.impl, &g0);
    HD_CHECK(t, a.ops->is_idle(a.impl));
    a.ops->usage(a.impl, &u);
    HD_CHECK_U64(t, 0, u.warps);
    HD_CHECK_U64(t, 0, u.regs);
    HD_CHECK_U64(t, 0, u.smem);
    HD_CHECK(t, a.ops->tick == NULL && a.ops->next_event == NULL);
    a.ops->destroy(a.impl);
}

static void test_victims(struct hd_test_state *t)
{
    hd_test_begin(t, "victim plan: lower priority only, lowest then newest first, minimal");
    struct hd_sm_params p = small_sm();
    struct hd_sm_alloc a;
    HD_CHECK(t, hd_sm_alloc_create(&p, &a) == 0);
    struct hd_cta_grant g[4];
    /* slots 0..3: launch 1 prio 0 (300 regs), launch 2 prio 1 (300), launch 1 prio 0 (300),
     * launch 3 prio 5 (100) */
    struct hd_cta_demand d[4] = {dem(2, 300, 0, 1, 0), dem(2, 300, 0, 2, 1), dem(2, 300, 0, 1, 0),
                                 dem(2, 100, 0, 3, 5)};
    for (int i = 0; i < 4; i++)
        HD_CHECK(t, a.ops->accept(a.impl, &d[i], &g[i]));
    uint32_t v[4];
    /* no CTA slot is free: anything needs one victim */
    struct hd_cta_demand want = dem(1, 100, 0, 9, 2);
    HD_CHECK_U64(t, 1, a.ops->plan_victims(a.impl, &want, v));
    HD_CHECK_U64(t, 2, v[0]); /* priority 0, placed after slot 0 */
    /* 600 contiguous registers: the rule takes 2, then 0 (both priority 0: not adjacent), then
     * 1 (priority 1): 0..900 free; the minimality pass gives 0 back (1 and 2 are adjacent) */
    want = dem(1, 600, 0, 9, 2);
    int n = a.ops->plan_victims(a.impl, &want, v);
    HD_CHECK_U64(t, 2, (uint64_t)n);
    HD_CHECK(t, n == 2 && v[0] == 2 && v[1] == 1);
    /* a launch never evicts its own CTAs, nor equal or higher priorities */
    want = dem(1, 100, 0, 1, 1);
    HD_CHECK(t, a.ops->plan_victims(a.impl, &want, v) == -1);
    want = dem(1, 100, 0, 9, 0);
    HD_CHECK(t, a.ops->plan_victims(a.impl, &want, v) == -1);
    /* the plan leaves the allocation as it was */
    struct hd_alloc_usage u;
    a.ops->usage(a.impl, &u);
    HD_CHECK_U64(t, 4, u.ctas);
    HD_CHECK_U64(t, 1000, u.regs);
    HD_CHECK(t, !a.ops->can_accept(a.impl, &want));
    a.ops->release(a.impl, &g[3]);
    HD_CHECK_U64(t, 0, a.ops->plan_victims(a.impl, &want, v)); /* fits now */
    for (int i = 0; i < 3; i++)
        a.ops->release(a.impl, &g[i]);
    a.ops->destroy(a.impl);
}

static void test_config_key(struct hd_test_state *t)
{
    hd_test_begin(t, "[sm] allocator: partitioned by default, unknown names a located error");
    struct hd_config c;
    hd_config_defaults(&c);
    HD_CHECK_U64(t, HD_ALLOC_PARTITIONED, c.sm_allocator);
    char path[] = "/tmp/hd-policy-alloc-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!HD_CHECK(t, f != NULL))
        return;
    fputs("[sm]\n\nallocator = zz_unknown\n", f);
    fclose(f);
    char err[512] = "";
    HD_CHECK(t, hd_config_load(path, &c, err, sizeof err) != 0);
    HD_CHECK(t, strstr(err, ":3:") != NULL && strstr(err, "allocator") != NULL &&
                    strstr(err, "partitioned") != NULL);
    if (t->failures)
        fprintf(stderr, "  %s\n", err);
    unlink(path);
}
/* }==== */

/* {==== Timers across idle-cycle skipping ==== */
/* A partitioned allocator with a timer every `period` cycles that records when it fired. */
struct timed {
    struct hd_sm_alloc base;
    uint64_t period, next;
    uint64_t *log;       /* shared by every SM's instance: fire cycles of SM 0 */
    unsigned *nlog, late;
    uint32_t sm;
};

static bool tm_can_accept(const void *impl, const struct hd_cta_demand *d)
{
    const struct timed *s = impl;
    return s->base.ops->can_accept(s->base.impl, d);
}
static bool tm_accept(void *impl, const struct hd_cta_demand *d, struct hd_cta_grant *g)
{
    struct timed *s = impl;
    return s->base.ops->accept(s->base.impl, d, g);
}
static void tm_release(void *impl, const struct hd_cta_grant *g)
{
    struct timed *s = impl;
    s->base.ops->release(s->base.impl, g);
}
static bool tm_idle(const void *impl)
{
    const struct timed *s = impl;
    return s->base.ops->is_idle(s->base.impl);
}
static void tm_usage(const void *impl, struct hd_alloc_usage *u)
{
    const struct timed *s = impl;
    s->base.ops->usage(s->base.impl, u);
}
static bool tm_tick(void *impl, uint64_t now)
{
    struct timed *s = impl;
    if (s->next == 0) { /* armed at the first cycle it sees */
        s->next = (now / s->period + 1) * s->period;
        return false;
    }
    if (now < s->next)
        return false;
    if (now != s->next)
        s->late++;
    if (s->sm == 0 && *s->nlog < 4096)
        s->log[(*s->nlog)++] = now;
    s->next = (now / s->period + 1) * s->period;
    return false;
}
static uint64_t tm_next(const void *impl, uint64_t now)
{
    const struct timed *s = impl;
    return s->next ? s->next : now + 1;
}
static void tm_destroy(void *impl)
{
    struct timed *s = impl;
    s->base.ops->destroy(s->base.impl);
    free(s);
}
static const struct hd_alloc_ops timed_ops = {"timed", tm_can_accept, tm_accept, tm_release,
                                              NULL,    NULL,          NULL,      tm_tick,
                                              tm_next, tm_idle,       tm_usage,  tm_destroy,
                                              NULL,    NULL,          NULL,      NULL,
                                              NULL,    NULL,          NULL,      NULL};

struct timed_ctx {
    uint64_t log[4096];
    unsigned nlog, late;
    struct timed *made[64];
};

static int make_timed(const struct hd_sm_params *p, uint32_t sm, void *vctx,
                      struct hd_sm_alloc *out)
{
    struct timed_ctx *c = vctx;
    struct timed *s = calloc(1, sizeof *s);
    if (!s || hd_sm_alloc_partitioned(p, &s->base) != 0) {
        free(s);
        return -1;
    }
    s->period = 777;
    s->log = c->log;
    s->nlog = &c->nlog;
    s->sm = sm;
    if (sm < 64)
        c->made[sm] = s;
    *out = (struct hd_sm_alloc){&timed_ops, s};
    return 0;
}

/* Run the load kernel with a timed allocator; returns the launch's cycles. */
static uint64_t timed_run(struct hd_test_state *t, const char *ini, struct timed_ctx *c)
{
    struct hd_gpu *g = tkit_gpu(ini);
    struct hd_module *m = tkit_module(g, "" TKIT_HEAD
        ".visible .entry ld1(.param .u64 in, .param .u64 out)\n{\n"
        "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
        "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
        "\tld.global.u32 %r1, [%rd1];\n\tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd2], %r2;\n"
        "\tret;\n}\n");
    hd_devptr in, out;
    hd_malloc(g, &in, 4096);
    hd_malloc(g, &out, 4096);
    struct hd_arg a[2] = {HD_ARG(in), HD_ARG(out)};
    tkit_launch(g, m, "ld1", 1, 32, 0, a, 2); /* creates the timing model */
    tkit_cycles(g, 0);
    HD_CHECK(t, g->timing != NULL);
    if (!g->timing || hd_gpu_timing_set_alloc(g->timing, make_timed, c) != 0) {
        hd_gpu_destroy(g);
        return 0;
    }
    tkit_launch(g, m, "ld1", 4, 64, 0, a, 2);
    uint64_t cyc = tkit_cycles(g, 1);
    for (int i = 0; i < 64; i++)
        if (c->made[i])
            c->late += c->made[i]->late;
    hd_gpu_destroy(g);
    return cyc;
}

static void test_timers(struct hd_test_state *t)
{
    hd_test_begin(t, "allocator timers fire in their cycle with and without idle skipping");
    static struct timed_ctx a, b;
    const char *base = "[gpu]\nnum_sms = 2\n[mem]\nmodel = fixed\n[mem_fixed]\nlatency = 3000\n"
                       "[timing]\nskip_idle = %s\n";
    char ia[256], ib[256];
    snprintf(ia, sizeof ia, base, "true");
    snprintf(ib, sizeof ib, base, "false");
    uint64_t ca = timed_run(t, ia, &a), cb = timed_run(t, ib, &b);
    HD_CHECK(t, ca > 3000);
    HD_CHECK_U64(t, cb, ca);
    HD_CHECK_U64(t, 0, a.late);
    HD_CHECK_U64(t, 0, b.late);
    HD_CHECK(t, a.nlog > 3);
    HD_CHECK_U64(t, b.nlog, a.nlog);
    for (unsigned i = 0; i < a.nlog && i < b.nlog; i++)
        if (!HD_CHECK_U64(t, b.log[i], a.log[i]))
            break;
}
/* }==== */

int main(void)
{
    struct hd_test_state t = {0};
    test_partial(&t);
    test_victims(&t);
    test_config_key(&t);
    test_timers(&t);
    return hd_test_finish(&t);
}
