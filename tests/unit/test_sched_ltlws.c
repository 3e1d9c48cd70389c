/* SPDX-License-Identifier: MIT
 * test_sched_ltlws.c - EXPARS's lazy two-level scheduler (model/policy/sm_sched_ltlws.c; Yu et al.
 * §3.3.6, eq. 14; digest §2.9):
 *   - before the first warp finishes every ready warp may issue (no cap), ordered by the inner
 *     policy (GTO: the last issuer first, then by age; LRR: after the last issuer);
 *   - at the first exit W_Opt = floor(sum Inst_i / Inst_Max): a greedy warp that ran ahead gives
 *     a small cap (GTO's case), equal progress gives no cap (LRR's case, ~ W_Max);
 *   - then a two-level scheduler with W_Opt active warps: the oldest are active, a long wait
 *     sends a warp to the pool's tail and the pool's head takes its place, an exit refills;
 *   - when the scheduler empties, the next kernel starts a new uncapped phase;
 *   - a warp in a mechanism's prefetching queue (hd_warp_view.pooled: EXPARS's warp pool, L226)
 *     is not schedulable: the two-level refresh (two_level, and LTLWS's phase 2) exchanges it
 *     for the oldest pending warp that does not wait, as a warp that waits for a long load.
 */
#include "sm_sched.h"
#include "testutil.h"

#include <string.h>

static struct hd_sched make(enum hd_cfg_sched kind)
{
    struct hd_sm_params p;
    memset(&p, 0, sizeof p);
    p.max_warps = 16;
    p.sched = kind;
    struct hd_sched s = {0};
    if (hd_sched_create(&p, &s) != 0)
        s.ops = NULL;
    return s;
}

static unsigned order(struct hd_sched *s, const uint32_t *ready, unsigned n, uint32_t *out)
{
    const struct hd_sched_env env = {NULL, NULL};
    return s->ops->order(s->impl, &env, ready, n, out);
}

/* A view where the warps in the mask are in a prefetching queue (pooled), the others ready. */
static void pooled_view(const void *sm, uint32_t slot, struct hd_warp_view *out)
{
    const uint32_t mask = *(const uint32_t *)sm;
    memset(out, 0, sizeof *out);
    out->slot = slot;
    out->state = HD_WV_READY;
    out->pooled = (mask >> slot) & 1u;
}

static unsigned order_pooled(struct hd_sched *s, uint32_t mask, const uint32_t *ready, unsigned n,
                             uint32_t *out)
{
    const struct hd_sched_env env = {&mask, pooled_view};
    return s->ops->order(s->impl, &env, ready, n, out);
}

static void issue(struct hd_sched *s, uint32_t w, unsigned times)
{
    for (unsigned i = 0; i < times; i++)
        s->ops->issued(s->impl, w);
}

int main(void)
{
    struct hd_test_state t;
    memset(&t, 0, sizeof t);
    uint32_t out[16];
    const uint32_t all[8] = {0, 1, 2, 3, 4, 5, 6, 7}, rest[7] = {1, 2, 3, 4, 5, 6, 7};

    hd_test_begin(&t, "ltlws_gto: uncapped, then W_Opt = 45 / 10 = 4 after the first exit");
    struct hd_sched s = make(HD_SCHED_LTLWS_GTO);
    HD_CHECK(&t, s.ops != NULL);
    for (uint32_t w = 0; w < 8; w++)
        s.ops->add(s.impl, w, 100 + w);
    for (uint32_t w = 1; w < 8; w++)
        issue(&s, w, 5);
    issue(&s, 0, 10); /* warp 0 runs ahead (greedy) and issues last */
    HD_CHECK_U64(&t, 8, order(&s, all, 8, out));
    HD_CHECK_U64(&t, 0, out[0]); /* the last issuer first */
    HD_CHECK_U64(&t, 1, out[1]); /* then the oldest */
    s.ops->remove(s.impl, 0);    /* the first warp finishes: 10 + 7 x 5 = 45, / 10 = 4 */
    HD_CHECK_U64(&t, 4, order(&s, rest, 7, out));
    HD_CHECK(&t, out[0] == 1 && out[1] == 2 && out[2] == 3 && out[3] == 4);
    s.ops->long_wait(s.impl, 1); /* 1 to the pool's tail, 5 becomes active */
    HD_CHECK_U64(&t, 4, order(&s, rest, 7, out));
    HD_CHECK(&t, out[0] == 2 && out[1] == 3 && out[2] == 4 && out[3] == 5);
    s.ops->remove(s.impl, 2); /* an exit refills from the pool: 6 */
    const uint32_t r2[5] = {3, 4, 5, 6, 7};
    HD_CHECK_U64(&t, 4, order(&s, r2, 5, out));
    HD_CHECK(&t, out[3] == 6);
    for (uint32_t w = 1; w < 8; w++)
        s.ops->remove(s.impl, w);
    hd_test_begin(&t, "an empty scheduler starts a new uncapped phase");
    for (uint32_t w = 0; w < 8; w++)
        s.ops->add(s.impl, w, 200 + w);
    HD_CHECK_U64(&t, 8, order(&s, all, 8, out));
    s.ops->destroy(s.impl);

    hd_test_begin(&t, "ltlws_lrr: equal progress gives no cap (W_Opt = 8 >= 7 left)");
    s = make(HD_SCHED_LTLWS_LRR);
    HD_CHECK(&t, s.ops != NULL);
    for (uint32_t w = 0; w < 8; w++)
        s.ops->add(s.impl, w, 100 + w);
    for (uint32_t w = 0; w < 8; w++)
        issue(&s, w, 5);
    HD_CHECK_U64(&t, 8, order(&s, all, 8, out));
    HD_CHECK_U64(&t, 0, out[0]); /* LRR: after warp 7, the last issuer */
    s.ops->remove(s.impl, 3);
    const uint32_t r3[7] = {0, 1, 2, 4, 5, 6, 7};
    HD_CHECK_U64(&t, 7, order(&s, r3, 7, out));
    s.ops->destroy(s.impl);

    hd_test_begin(&t, "two_level: a pooled active warp is exchanged for the oldest pending one");
    {
        struct hd_sm_params p;
        memset(&p, 0, sizeof p);
        p.max_warps = 16;
        p.sched = HD_SCHED_TWO_LEVEL;
        p.sched_active = 2;
        struct hd_sched tl = {0};
        HD_CHECK(&t, hd_sched_create(&p, &tl) == 0);
        for (uint32_t w = 0; w < 4; w++)
            tl.ops->add(tl.impl, w, 100 + w);
        const uint32_t four[4] = {0, 1, 2, 3};
        HD_CHECK_U64(&t, 2, order_pooled(&tl, 0, four, 4, out)); /* active: 0 and 1 */
        HD_CHECK(&t, out[0] + out[1] == 1);
        /* warp 0 is held for its prefetch: warp 2 takes its place; 1 stays */
        HD_CHECK_U64(&t, 2, order_pooled(&tl, 1u << 0, four, 4, out));
        HD_CHECK(&t, (out[0] == 1 && out[1] == 2) || (out[0] == 2 && out[1] == 1));
        tl.ops->destroy(tl.impl);
    }

    hd_test_begin(&t, "ltlws_gto phase 2: a pooled active warp is exchanged as well");
    s = make(HD_SCHED_LTLWS_GTO);
    HD_CHECK(&t, s.ops != NULL);
    for (uint32_t w = 0; w < 8; w++)
        s.ops->add(s.impl, w, 100 + w);
    for (uint32_t w = 1; w < 8; w++)
        issue(&s, w, 5);
    issue(&s, 0, 10);
    s.ops->remove(s.impl, 0); /* W_Opt 4: active 1, 2, 3, 4 */
    HD_CHECK_U64(&t, 4, order_pooled(&s, 1u << 2, rest, 7, out));
    {
        bool has2 = false, has5 = false;
        for (unsigned i = 0; i < 4; i++) {
            has2 |= out[i] == 2;
            has5 |= out[i] == 5;
        }
        HD_CHECK(&t, !has2 && has5); /* 2 held: 5, the oldest pending, takes its place */
    }
    s.ops->destroy(s.impl);
    return hd_test_finish(&t);
}
