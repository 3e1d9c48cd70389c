/* SPDX-License-Identifier: MIT
 * test_timing_units.c - the timing model's small units driven alone (rule T1): the fixed-latency
 * memory model, the warp-scheduling policies, the allocation layer, the CTA distribution and
 * kernel-selection policies, and instruction classification.
 */
#include "config.h"
#include "cta_dist.h"
#include "kernel_sel.h"
#include "mem_fixed.h"
#include "sm_alloc.h"
#include "sm_sched.h"
#include "testutil.h"
#include "timing_params.h"
#include "tkernel.h"

#include <stdio.h>
#include <string.h>

static void params(struct hd_gpu_timing_params *p, const char *ini)
{
    struct hd_config c;
    char err[256];
    hd_config_defaults(&c);
    if (ini && hd_config_parse(&c, ini, strlen(ini), "test", err, sizeof err) != 0)
        fprintf(stderr, "config: %s\n", err);
    if (hd_timing_params_init(&c, p, err, sizeof err) != 0)
        fprintf(stderr, "params: %s\n", err);
}

static void test_mem_fixed(struct hd_test_state *t)
{
    hd_test_begin(t, "fixed-latency memory: latency, per-SM bandwidth, capacity, order");
    struct hd_mem_fixed_params p = {2, 100, 32, 3};
    struct hd_mem m;
    char err[128];
    HD_CHECK(t, hd_mem_fixed_create(&p, &m, err, sizeof err) == 0);
    struct hd_mem_req r = {0}, out[8];
    r.bytes = 128; /* 4 flits of 32 bytes: the link is busy 4 cycles */
    r.sm = 0;
    r.tag = 1;
    HD_CHECK(t, m.ops->send(m.impl, &r, 10));
    HD_CHECK(t, !m.ops->can_send(m.impl, &r, 13));
    HD_CHECK(t, !m.ops->send(m.impl, &r, 13));
    r.tag = 2;
    HD_CHECK(t, m.ops->send(m.impl, &r, 14));
    r.sm = 1; /* another SM has its own link */
    r.tag = 3;
    HD_CHECK(t, m.ops->send(m.impl, &r, 14));
    HD_CHECK_U64(t, 2, m.ops->pending(m.impl, 0));
    HD_CHECK_U64(t, 110, m.ops->next_event(m.impl, 11)); /* the first completion */
    HD_CHECK_U64(t, 0, m.ops->recv(m.impl, 0, out, 8, 109));
    HD_CHECK_U64(t, 1, m.ops->recv(m.impl, 0, out, 8, 110));
    HD_CHECK_U64(t, 1, out[0].tag);
    HD_CHECK_U64(t, 10, out[0].issue_cycle);
    HD_CHECK_U64(t, 110, out[0].done_cycle);
    HD_CHECK_U64(t, 0, m.ops->recv(m.impl, 0, out, 8, 113));
    HD_CHECK_U64(t, 1, m.ops->recv(m.impl, 0, out, 8, 200));
    HD_CHECK_U64(t, 2, out[0].tag);
    HD_CHECK(t, !m.ops->idle(m.impl));
    HD_CHECK_U64(t, 1, m.ops->recv(m.impl, 1, out, 8, 114));
    HD_CHECK(t, m.ops->idle(m.impl));
    /* at most max_inflight per SM; a 1-byte request still takes a cycle of the link */
    r.sm = 0;
    r.bytes = 1;
    for (uint64_t c = 300; c < 303; c++)
        HD_CHECK(t, m.ops->send(m.impl, &r, c));
    HD_CHECK(t, !m.ops->can_send(m.impl, &r, 303));
    HD_CHECK_U64(t, 3, m.ops->recv(m.impl, 0, out, 8, 1000));
    HD_CHECK(t, m.ops->can_send(m.impl, &r, 1000));
    m.ops->destroy(m.impl);
}

static void test_schedulers(struct hd_test_state *t)
{
    hd_test_begin(t, "warp schedulers: LRR rotates, GTO stays greedy then oldest, two-level");
    struct hd_gpu_timing_params gp;
    uint32_t out[8];
    const uint32_t ready[4] = {1, 3, 5, 7};
    /* LRR */
    params(&gp, "[sm]\nscheduler = lrr\n");
    struct hd_sched s;
    HD_CHECK(t, hd_sched_create(&gp.sm, &s) == 0);
    for (uint32_t w = 1; w < 8; w += 2)
        s.ops->add(s.impl, w, w);
    HD_CHECK_U64(t, 4, s.ops->order(s.impl, NULL, ready, 4, out));
    HD_CHECK_U64(t, 1, out[0]);
    s.ops->issued(s.impl, 3);
    s.ops->order(s.impl, NULL, ready, 4, out);
    HD_CHECK(t, out[0] == 5 && out[1] == 7 && out[2] == 1 && out[3] == 3);
    s.ops->destroy(s.impl);
    /* GTO: ages 7 (slot 1), 5 (3), 3 (5), 1 (7): oldest = slot 7 */
    params(&gp, "[sm]\nscheduler = gto\n");
    HD_CHECK(t, hd_sched_create(&gp.sm, &s) == 0);
    for (uint32_t w = 1; w < 8; w += 2)
        s.ops->add(s.impl, w, 8 - w);
    s.ops->order(s.impl, NULL, ready, 4, out);
    HD_CHECK(t, out[0] == 7 && out[1] == 5 && out[2] == 3 && out[3] == 1);
    s.ops->issued(s.impl, 3); /* greedy: 3 first while ready */
    s.ops->order(s.impl, NULL, ready, 4, out);
    HD_CHECK(t, out[0] == 3 && out[1] == 7 && out[2] == 5 && out[3] == 1);
    const uint32_t ready2[2] = {1, 5}; /* 3 stalled: back to the oldest */
    HD_CHECK_U64(t, 2, s.ops->order(s.impl, NULL, ready2, 2, out));
    HD_CHECK(t, out[0] == 5 && out[1] == 1);
    s.ops->remove(s.impl, 3);
    s.ops->order(s.impl, NULL, ready2, 2, out);
    HD_CHECK(t, out[0] == 5);
    s.ops->destroy(s.impl);
    /* two-level with an active set of 2: warps 1 and 3 active, 5 and 7 pending */
    params(&gp, "[sm]\nscheduler = two_level\nsched_active_warps = 2\n");
    HD_CHECK(t, hd_sched_create(&gp.sm, &s) == 0);
    for (uint32_t w = 1; w < 8; w += 2)
        s.ops->add(s.impl, w, w);
    HD_CHECK_U64(t, 2, s.ops->order(s.impl, NULL, ready, 4, out));
    HD_CHECK(t, out[0] == 1 && out[1] == 3);
    s.ops->long_wait(s.impl, 1); /* 1 waits for a load: 5 takes its place */
    HD_CHECK_U64(t, 2, s.ops->order(s.impl, NULL, ready, 4, out));
    HD_CHECK(t, out[0] == 3 && out[1] == 5);
    s.ops->issued(s.impl, 3);
    s.ops->order(s.impl, NULL, ready, 4, out);
    HD_CHECK(t, out[0] == 5 && out[1] == 3);
    s.ops->remove(s.impl, 5); /* 7 comes next from the pending pool */
    HD_CHECK_U64(t, 2, s.ops->order(s.impl, NULL, ready, 4, out));
    HD_CHECK(t, (out[0] == 7 && out[1] == 3) || (out[0] == 3 && out[1] == 7));
    s.ops->destroy(s.impl);
}

static void test_alloc(struct hd_test_state *t)
{
    hd_test_begin(t, "allocation layer: slots, registers and shared memory, first fit, release");
    struct hd_gpu_timing_params gp;
    params(&gp, NULL); /* 48 warps, 8 CTAs, 1536 threads, 32768 registers, 48 KB */
    struct hd_sm_alloc a;
    HD_CHECK(t, hd_sm_alloc_partitioned(&gp.sm, &a) == 0);
    struct hd_cta_demand d = {8, 256, 8 * 32 * 20, 16384, 0, 0, 0, 0};
    struct hd_cta_grant g[4];
    HD_CHECK(t, a.ops->accept(a.impl, &d, &g[0]));
    HD_CHECK(t, a.ops->accept(a.impl, &d, &g[1]));
    HD_CHECK(t, a.ops->accept(a.impl, &d, &g[2]));
    HD_CHECK(t, !a.ops->can_accept(a.impl, &d)); /* shared memory is full (3 x 16 KB) */
    HD_CHECK_U64(t, 0, g[0].cta_slot);
    HD_CHECK_U64(t, 2, g[2].cta_slot);
    HD_CHECK_U64(t, 16, g[2].warp_slot[0]);
    HD_CHECK_U64(t, 2 * 5120, g[2].reg_base);
    HD_CHECK_U64(t, 32768, g[2].smem_base);
    a.ops->release(a.impl, &g[1]); /* a hole in the middle is reused */
    struct hd_cta_demand small = {2, 64, 2 * 32 * 8, 1024, 0, 0, 0, 0};
    HD_CHECK(t, a.ops->accept(a.impl, &small, &g[3]));
    HD_CHECK_U64(t, 1, g[3].cta_slot);
    HD_CHECK_U64(t, 8, g[3].warp_slot[0]);
    HD_CHECK_U64(t, 5120, g[3].reg_base);
    HD_CHECK_U64(t, 16384, g[3].smem_base);
    struct hd_alloc_usage u;
    a.ops->usage(a.impl, &u);
    HD_CHECK(t, u.ctas == 3 && u.warps == 18 && u.threads == 576 && u.smem == 33792);
    /* warps: a CTA of 32 warps does not fit beside 18 */
    struct hd_cta_demand big = {32, 1024, 0, 0, 0, 0, 0, 0};
    HD_CHECK(t, !a.ops->can_accept(a.impl, &big));
    a.ops->release(a.impl, &g[0]);
    a.ops->release(a.impl, &g[2]);
    a.ops->release(a.impl, &g[3]);
    HD_CHECK(t, a.ops->is_idle(a.impl));
    HD_CHECK(t, a.ops->can_accept(a.impl, &big));
    a.ops->destroy(a.impl);
}

static void test_policies(struct hd_test_state *t)
{
    hd_test_begin(t, "CTA distribution and kernel selection policies");
    struct hd_cta_dist rr, ff;
    HD_CHECK(t, hd_cta_dist_create(HD_CTADIST_ROUND_ROBIN, 4, &rr) == 0);
    HD_CHECK(t, hd_cta_dist_create(HD_CTADIST_FILL_FIRST, 4, &ff) == 0);
    bool ok[4] = {true, true, false, true}, busy[4] = {false, false, false, false};
    const struct hd_cta_dist_req req = {1, 0, 8, {8, 1, 1}, {0, 0, 0}, 0, 0, false};
    HD_CHECK_U64(t, 0, rr.ops->pick(rr.impl, &req, ok, busy, 4));
    rr.ops->placed(rr.impl, 0);
    HD_CHECK_U64(t, 1, rr.ops->pick(rr.impl, &req, ok, busy, 4));
    rr.ops->placed(rr.impl, 1);
    HD_CHECK_U64(t, 3, rr.ops->pick(rr.impl, &req, ok, busy, 4)); /* SM 2 has no room */
    rr.ops->reset(rr.impl);
    HD_CHECK_U64(t, 0, rr.ops->pick(rr.impl, &req, ok, busy, 4));
    busy[0] = true;
    HD_CHECK_U64(t, 1, rr.ops->pick(rr.impl, &req, ok, busy, 4));
    HD_CHECK(t, ff.ops->pick(ff.impl, &req, ok, busy, 4) == -1); /* waits for SM 0 */
    busy[0] = false;
    HD_CHECK_U64(t, 0, ff.ops->pick(ff.impl, &req, ok, busy, 4));
    rr.ops->destroy(rr.impl);
    ff.ops->destroy(ff.impl);

    struct hd_ksel old, rot;
    HD_CHECK(t, hd_ksel_create(HD_KSEL_OLDEST, &old) == 0);
    HD_CHECK(t, hd_ksel_create(HD_KSEL_ROUND_ROBIN, &rot) == 0);
    const struct hd_ksel_cand c[3] = {{2, true}, {5, true}, {9, false}};
    uint32_t o[3];
    HD_CHECK_U64(t, 3, old.ops->rank(old.impl, c, 3, o));
    HD_CHECK(t, o[0] == 0 && o[1] == 1 && o[2] == 2);
    old.ops->served(old.impl, 2);
    old.ops->rank(old.impl, c, 3, o);
    HD_CHECK_U64(t, 0, o[0]);
    rot.ops->served(rot.impl, 2);
    rot.ops->rank(rot.impl, c, 3, o);
    HD_CHECK(t, o[0] == 1 && o[1] == 2 && o[2] == 0);
    rot.ops->served(rot.impl, 9);
    rot.ops->rank(rot.impl, c, 3, o);
    HD_CHECK_U64(t, 0, o[0]);
    old.ops->destroy(old.impl);
    rot.ops->destroy(rot.impl);
}

static void test_classes(struct hd_test_state *t)
{
    hd_test_begin(t, "instruction timing classes and their units");
    struct hd_func_instr d;
    memset(&d, 0, sizeof d);
    struct {
        uint16_t op;
        uint8_t type, type2, flt;
        enum hd_tclass want;
    } cases[] = {
        {HD_OP_ADD, HD_T_S32, 0, 0, HD_TC_INT_ALU},   {HD_OP_MAD, HD_T_S32, 0, 0, HD_TC_INT_MAD},
        {HD_OP_REM, HD_T_U32, 0, 0, HD_TC_INT_DIV},   {HD_OP_ADD, HD_T_F32, 0, 1, HD_TC_FP},
        {HD_OP_FMA, HD_T_F32, 0, 1, HD_TC_FP_MAD},    {HD_OP_DIV, HD_T_F32, 0, 1, HD_TC_FP_DIV},
        {HD_OP_FMA, HD_T_F64, 0, 1, HD_TC_DP},        {HD_OP_DIV, HD_T_F64, 0, 1, HD_TC_DP_DIV},
        {HD_OP_SQRT, HD_T_F64, 0, 1, HD_TC_DP_DIV},   {HD_OP_EX2, HD_T_F32, 0, 1, HD_TC_SFU},
        {HD_OP_CVT, HD_T_F64, HD_T_S32, 1, HD_TC_UT_DP},
        {HD_OP_CVT, HD_T_S32, HD_T_F32, 0, HD_TC_UT_FP},
        {HD_OP_SETP, HD_T_F32, 0, 1, HD_TC_UT_FP},    {HD_OP_LD, HD_T_U32, 0, 0, HD_TC_MEM},
        {HD_OP_BRA, 0, 0, 0, HD_TC_BRANCH},           {HD_OP_BAR, 0, 0, 0, HD_TC_BARRIER},
        {HD_OP_MEMBAR, 0, 0, 0, HD_TC_MEMBAR},        {HD_OP_SHFL, HD_T_B32, 0, 0, HD_TC_SHFL},
        /* the finer classes of GPGPU-Sim's tables (docs/timing.md) */
        {HD_OP_MUL, HD_T_S32, 0, 0, HD_TC_INT_MUL},   {HD_OP_MAX, HD_T_S32, 0, 0, HD_TC_INT_MAX},
        {HD_OP_MIN, HD_T_F32, 0, 1, HD_TC_FP_MAX},    {HD_OP_MUL, HD_T_F32, 0, 1, HD_TC_FP_MUL},
        {HD_OP_MOV, HD_T_U32, 0, 0, HD_TC_UT_INT},    {HD_OP_SAD, HD_T_U32, 0, 0, HD_TC_UT_MUL},
        {HD_OP_SUB, HD_T_F64, 0, 1, HD_TC_DP},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        d.op = cases[i].op;
        d.type = cases[i].type;
        d.type2 = cases[i].type2;
        d.flt = cases[i].flt;
        if (hd_tkernel_classify(&d) != cases[i].want) {
            HD_CHECK(t, false);
            fprintf(stderr, "    case %zu: %s\n", i, hd_tclass_name(hd_tkernel_classify(&d)));
        }
    }
    struct hd_gpu_timing_params gp;
    params(&gp, NULL);
    /* by default every finer class times like its parent (today's behaviour) */
    static const enum hd_tclass fine[][2] = {
        {HD_TC_INT_MAX, HD_TC_INT_ALU}, {HD_TC_INT_MAD, HD_TC_INT_MUL}, {HD_TC_FP_MAX, HD_TC_FP},
        {HD_TC_FP_MUL, HD_TC_FP},       {HD_TC_FP_MAD, HD_TC_FP},       {HD_TC_SHFL, HD_TC_INT_ALU},
        {HD_TC_UT_INT, HD_TC_INT_ALU},  {HD_TC_UT_MUL, HD_TC_INT_MUL},  {HD_TC_UT_FP, HD_TC_FP},
        {HD_TC_UT_DP, HD_TC_DP}};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
        HD_CHECK(t, gp.sm.lat[fine[i][0]] == gp.sm.lat[fine[i][1]] &&
                        gp.sm.ii[fine[i][0]] == gp.sm.ii[fine[i][1]] &&
                        gp.sm.unit_of[fine[i][0]] == gp.sm.unit_of[fine[i][1]]);
    HD_CHECK_U64(t, 4, gp.sm.lat[HD_TC_BRANCH]);
    /* their own keys when set; lat_untabled also times branches */
    params(&gp, "[pipeline]\nlat_int_max = 13\nii_int_max = 2\nlat_fp_mad = 5\nlat_shfl = 32\n"
                "lat_untabled = 1\nii_untabled = 1\n");
    HD_CHECK_U64(t, 13, gp.sm.lat[HD_TC_INT_MAX]);
    HD_CHECK_U64(t, 2, gp.sm.ii[HD_TC_INT_MAX]);
    HD_CHECK_U64(t, 5, gp.sm.lat[HD_TC_FP_MAD]);
    HD_CHECK_U64(t, 4, gp.sm.lat[HD_TC_FP_MUL]); /* unset: lat_fp */
    HD_CHECK_U64(t, 32, gp.sm.lat[HD_TC_SHFL]);
    HD_CHECK_U64(t, 1, gp.sm.lat[HD_TC_UT_INT]);
    HD_CHECK_U64(t, 1, gp.sm.lat[HD_TC_UT_DP]);
    HD_CHECK_U64(t, HD_TU_SP, gp.sm.unit_of[HD_TC_UT_DP]);
    HD_CHECK_U64(t, 1, gp.sm.lat[HD_TC_BRANCH]);
    HD_CHECK_U64(t, 4, gp.sm.lat[HD_TC_INT_ALU]);
    params(&gp, NULL);
    HD_CHECK_U64(t, HD_TU_SP, gp.sm.unit_of[HD_TC_DP]); /* GTX480: FP64 on the SP pipelines */
    params(&gp, "[pipeline]\ndp_units = 1\n");
    HD_CHECK_U64(t, HD_TU_DP, gp.sm.unit_of[HD_TC_DP]);
    HD_CHECK_U64(t, HD_TU_SFU, gp.sm.unit_of[HD_TC_SFU]);
    HD_CHECK_U64(t, HD_TU_NONE, gp.sm.unit_of[HD_TC_BARRIER]);
    /* [pipeline] unit_*: by default nothing leaves its unit and nothing falls back */
    params(&gp, NULL);
    for (int k = 0; k < HD_TC_COUNT; k++)
        HD_CHECK(t, !gp.sm.sfu_fallback[k]);
    HD_CHECK_U64(t, HD_TU_SP, gp.sm.unit_of[HD_TC_INT_MUL]);
    /* GPGPU-Sim 3.x: integer mul/mad and every div on the SFU (SFU_OP), FP32 mul on either */
    params(&gp, "[pipeline]\ndp_units = 1\nunit_int_mul = sfu\nunit_int_div = sfu\n"
                "unit_fp_mul = sp_or_sfu\nunit_fp_div = sfu\nunit_dp_div = sfu\n");
    HD_CHECK_U64(t, HD_TU_SFU, gp.sm.unit_of[HD_TC_INT_MUL]);
    HD_CHECK_U64(t, HD_TU_SFU, gp.sm.unit_of[HD_TC_INT_MAD]);
    HD_CHECK_U64(t, HD_TU_SFU, gp.sm.unit_of[HD_TC_INT_DIV]);
    HD_CHECK_U64(t, HD_TU_SFU, gp.sm.unit_of[HD_TC_FP_DIV]);
    HD_CHECK_U64(t, HD_TU_SFU, gp.sm.unit_of[HD_TC_DP_DIV]);
    HD_CHECK_U64(t, HD_TU_SP, gp.sm.unit_of[HD_TC_FP_MUL]); /* SP first ... */
    HD_CHECK(t, gp.sm.sfu_fallback[HD_TC_FP_MUL]);          /* ... else the SFU */
    HD_CHECK(t, !gp.sm.sfu_fallback[HD_TC_INT_MUL] && !gp.sm.sfu_fallback[HD_TC_FP]);
    HD_CHECK_U64(t, HD_TU_SP, gp.sm.unit_of[HD_TC_UT_MUL]); /* sad, dp4a: 3.x's ALU_OP */
    HD_CHECK_U64(t, HD_TU_SP, gp.sm.unit_of[HD_TC_FP]);
    HD_CHECK_U64(t, HD_TU_DP, gp.sm.unit_of[HD_TC_DP]);
    HD_CHECK_U64(t, gp.sm.lat[HD_TC_INT_DIV], 145); /* the class's latency stays */
    /* a misspelt pipeline name is refused, naming the key */
    {
        struct hd_config c;
        char err[256];
        hd_config_defaults(&c);
        const char *bad = "[pipeline]\nunit_fp_mul = spu\n";
        HD_CHECK(t, hd_config_parse(&c, bad, strlen(bad), "t.ini", err, sizeof err) != 0 &&
                        strstr(err, "unit_fp_mul") != NULL);
    }
    /* a non-power-of-two segment is refused, naming the key */
    struct hd_config c;
    char err[256];
    hd_config_defaults(&c);
    c.pipeline_ldst_segment_bytes = 96;
    HD_CHECK(t, hd_timing_params_init(&c, &gp, err, sizeof err) != 0);
    HD_CHECK(t, strstr(err, "ldst_segment_bytes") != NULL);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_mem_fixed(&t);
    test_schedulers(&t);
    test_alloc(&t);
    test_policies(&t);
    test_classes(&t);
    return hd_test_finish(&t);
}
