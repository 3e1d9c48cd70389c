/* SPDX-License-Identifier: MIT
 * test_shieh_alloc.c - Shieh's dual-kernel allocator with allocation alignment
 * (model/mech/shieh/shieh_alloc_aligned.h; thesis §3.2, Fig 3.2):
 *   - Fig 3.2 through the allocator: four running CTAs fill the registers, the preempting CTA
 *     needs two of their spaces; after TB1 and TB2 leave nothing is placed (the baseline's first
 *     fit takes the hole), after TB0 one CTA at position 0, after TB3 a second at position 1
 *     (the baseline ends with one);
 *   - victim planning names one candidate victim set of lower-priority CTAs (pathfinder's
 *     footprint on the Fermi SM: the thread limit blocks the free positions 6 and 7, so one
 *     running CTA must leave: the lowest position's);
 *   - at most two launches per SM; CTAs of equal or higher priority are never victims.
 */
#include "sm_alloc.h"
#include "shieh_alloc_aligned.h"
#include "testutil.h"

#include <string.h>

static struct hd_sm_params sm_params(uint32_t regs, uint64_t smem, uint32_t threads)
{
    struct hd_sm_params p;
    memset(&p, 0, sizeof p);
    p.max_warps = 48;
    p.max_ctas = 8;
    p.max_threads = threads;
    p.registers = regs;
    p.shared_bytes = smem;
    return p;
}

static struct hd_cta_demand demand(uint32_t launch, int32_t prio, uint32_t threads, uint32_t regs,
                                   uint64_t smem)
{
    return (struct hd_cta_demand){(threads + 31) / 32, threads, regs, smem, launch, prio, 0, 0};
}

static void test_fig32(struct hd_test_state *t)
{
    hd_test_begin(t, "Fig 3.2 through the allocator: two aligned TBs, the baseline one");
    struct hd_sm_params p = sm_params(4096, 0, 1536);
    struct hd_sm_alloc al, base;
    HD_CHECK(t, hd_sm_alloc_aligned(&p, &al) == 0);
    HD_CHECK(t, hd_sm_alloc_partitioned(&p, &base) == 0);
    struct hd_cta_demand run = demand(1, 0, 64, 1024, 0), pre = demand(2, 1, 64, 2048, 0);
    struct hd_cta_grant ga[4], gb[4], x;
    for (unsigned j = 0; j < 4; j++) {
        HD_CHECK(t, al.ops->accept(al.impl, &run, &ga[j]));
        HD_CHECK(t, base.ops->accept(base.impl, &run, &gb[j]));
        HD_CHECK_U64(t, j * 1024u, ga[j].reg_base); /* the running kernel: first fit */
    }
    HD_CHECK(t, !al.ops->can_accept(al.impl, &pre));
    unsigned placed_al = 0, placed_base = 0;
    const unsigned order[4] = {1, 2, 0, 3};
    for (unsigned s = 0; s < 4; s++) {
        al.ops->release(al.impl, &ga[order[s]]);
        base.ops->release(base.impl, &gb[order[s]]);
        while (base.ops->accept(base.impl, &pre, &x))
            placed_base++;
        if (s < 2)
            HD_CHECK(t, !al.ops->can_accept(al.impl, &pre)); /* no position wholly free */
        while (al.ops->accept(al.impl, &pre, &x)) {
            HD_CHECK_U64(t, s == 2 ? 0 : 2048, x.reg_base);
            placed_al++;
        }
    }
    HD_CHECK_U64(t, 2, placed_al);
    HD_CHECK_U64(t, 1, placed_base);
    al.ops->destroy(al.impl);
    base.ops->destroy(base.impl);
}

static void test_victims(struct hd_test_state *t)
{
    hd_test_begin(t, "victim planning: one candidate set of lower-priority CTAs");
    struct hd_sm_params p = sm_params(32768, 49152, 1536);
    struct hd_sm_alloc al;
    HD_CHECK(t, hd_sm_alloc_aligned(&p, &al) == 0);
    struct hd_cta_demand path = demand(1, 0, 256, 4096, 2048), syn = demand(2, 1, 256, 4096, 2048);
    struct hd_cta_grant g[6];
    for (unsigned j = 0; j < 6; j++)
        HD_CHECK(t, al.ops->accept(al.impl, &path, &g[j]));
    HD_CHECK(t, !al.ops->can_accept(al.impl, &syn)); /* 1536 threads in use */
    uint32_t v[8];
    HD_CHECK_U64(t, 1, al.ops->plan_victims(al.impl, &syn, v));
    HD_CHECK_U64(t, 0, v[0]);
    /* A launch of the same priority may not evict them. */
    struct hd_cta_demand peer = demand(3, 0, 256, 4096, 2048);
    HD_CHECK(t, al.ops->plan_victims(al.impl, &peer, v) < 0);
    /* After slot 0 leaves, the preempting CTA goes to position 0 and a third launch waits. */
    al.ops->release(al.impl, &g[0]);
    struct hd_cta_grant x;
    HD_CHECK(t, al.ops->accept(al.impl, &syn, &x));
    HD_CHECK_U64(t, 0, x.reg_base);
    HD_CHECK_U64(t, 0, x.smem_base);
    al.ops->release(al.impl, &g[1]);
    struct hd_cta_demand third = demand(4, 2, 32, 64, 0);
    HD_CHECK(t, !al.ops->can_accept(al.impl, &third)); /* two launches already */
    HD_CHECK(t, al.ops->accept(al.impl, &syn, &x));     /* the second preempting CTA */
    HD_CHECK_U64(t, 4096, x.reg_base);
    struct hd_alloc_usage u;
    al.ops->usage(al.impl, &u);
    HD_CHECK_U64(t, 6, u.ctas);
    HD_CHECK_U64(t, 6 * 256, u.threads);
    al.ops->destroy(al.impl);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_fig32(&t);
    test_victims(&t);
    return hd_test_finish(&t);
}
