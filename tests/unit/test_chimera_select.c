/* SPDX-License-Identifier: MIT
 * test_chimera_select.c - the Chimera baseline's decision (model/mech/shieh/chimera_select.h):
 * every TB of the SM leaves; draining is charged the idle slots' instructions while the slowest
 * TB drains, so a TB that Shieh's rule drains for free is flushed when that is cheaper; the
 * SM's latency is its slowest TB's; SMs are ordered by overhead among those meeting the budget,
 * then by latency. Chimera and Chimera+ differ only in the drain latency they are given
 * (Chimera's residency-based estimate against the thesis's CPI predictor).
 */
#include "chimera_select.h"
#include "shieh_select.h"
#include "testutil.h"

static void test_plan_sm(struct hd_test_state *t)
{
    hd_test_begin(t, "Chimera per SM: drain charged the idle slots, the slowest TB sets L_SM");
    /* A drains in 500 (100 executed, flushable), B in 2000 (900, not), C in 5000 (300, yes). */
    struct hd_shieh_cost c[3] = {
        {{500, 0, 2182}, {0, 100, 873}, {true, true, true}},
        {{2000, 0, 2182}, {0, 900, 873}, {true, false, true}},
        {{5000, 0, 2182}, {0, 300, 873}, {true, true, true}},
    };
    const bool present[3] = {true, true, true};
    unsigned tech[3], shieh[3];
    for (unsigned i = 0; i < 3; i++)
        shieh[i] = hd_shieh_choose_tech(&c[i], 2800);
    HD_CHECK_U64(t, HD_SHIEH_DRAIN, shieh[0]); /* free under the dual-kernel assumption */
    struct hd_chimera_sm sm;
    hd_chimera_plan_sm(c, present, 3, 0.2, 2800, tech, &sm);
    /* L_SM = 2000 (B's drain); A's drain costs 0.2 x 1500 = 300 > its flush (100). */
    HD_CHECK_U64(t, HD_SHIEH_FLUSH, tech[0]);
    HD_CHECK_U64(t, HD_SHIEH_DRAIN, tech[1]);
    HD_CHECK_U64(t, HD_SHIEH_FLUSH, tech[2]);
    HD_CHECK_U64(t, 2000, sm.lat);
    HD_CHECK_U64(t, 400, sm.ovh);
    HD_CHECK(t, sm.meets);
    /* With a slot empty the slowest remaining TB sets the latency. */
    const bool two[3] = {true, false, true};
    hd_chimera_plan_sm(c, two, 3, 0.2, 2800, tech, &sm);
    HD_CHECK_U64(t, 500, sm.lat); /* A drains (0.2 x 0 idle), C flushes */
    HD_CHECK_U64(t, HD_SHIEH_DRAIN, tech[0]);
    HD_CHECK_U64(t, 300, sm.ovh);
    /* A budget nothing meets: B's least latency is its drain, the SM misses. */
    hd_chimera_plan_sm(c, present, 3, 0.2, 1000, tech, &sm);
    HD_CHECK(t, !sm.meets);
    HD_CHECK_U64(t, 2000, sm.lat);
}

static void test_order(struct hd_test_state *t)
{
    hd_test_begin(t, "Chimera SM order: meeting by overhead, then missing by latency");
    const struct hd_chimera_sm sms[5] = {
        {2000, 400, true}, {2500, 100, true}, {3000, 0, false}, {2900, 50, false}, {1000, 100, true}};
    unsigned order[5];
    hd_chimera_order_sms(sms, 5, order);
    const unsigned want[5] = {4, 1, 0, 3, 2}; /* 100/1000 before 100/2500 */
    for (unsigned i = 0; i < 5; i++)
        HD_CHECK_U64(t, want[i], order[i]);
}

static void test_estimators(struct hd_test_state *t)
{
    hd_test_begin(t, "Chimera vs Chimera+: the drain estimate they are given");
    /* Finished TBs: 1000 instructions in 4000 cycles. A TB 3000 cycles old with 900 done is
     * nearly finished by its progress (Chimera+: 100 x 4 = 400) but, by residency, has 1000
     * cycles left (Chimera); one 3000 cycles old with 100 done is the other way round. */
    struct hd_shieh_kstats k = {0};
    hd_shieh_kstats_add(&k, 1000, 4000);
    hd_shieh_kstats_add(&k, 1000, 4000);
    struct hd_shieh_tb tbs[2] = {{true, true, 900, 1000}, {true, true, 100, 1000}};
    struct hd_shieh_pred p;
    hd_shieh_predict(&k, tbs, 2, 4000, &p);
    HD_CHECK_U64(t, 400, hd_shieh_drain_latency(&p, &tbs[0], 4000));
    HD_CHECK_U64(t, 3600, hd_shieh_drain_latency(&p, &tbs[1], 4000));
    HD_CHECK_U64(t, 1000, hd_chimera_drain_latency(&p, &tbs[0], 4000));
    HD_CHECK_U64(t, 1000, hd_chimera_drain_latency(&p, &tbs[1], 4000));
}

int main(void)
{
    struct hd_test_state t = {0};
    test_plan_sm(&t);
    test_order(&t);
    test_estimators(&t);
    return hd_test_finish(&t);
}
