/* SPDX-License-Identifier: MIT
 * test_alloc_tables_policy.c - the lin_tables allocator (model/mech/lin/lin_alloc_tables.c, Lin
 * thesis §2.3.1 Fig 2.4): Fig 2.4 through the allocator (three K1 CTAs of 300 vector registers
 * and 8 KB; each K2 CTA of 200 registers and 10 KB, placed one at a time, spills exactly one
 * register-file neighbour, bottom up: two K1 CTAs for two K2 CTAs, as the thesis draws it, and
 * no shared memory; the whole-kernel minimum, one CTA, is tests/unit/test_alloc_table.c's), minimality when slots bind, the 16-entry limit, the same-launch and
 * priority rules, and the tables in the loop: every request stepped through block instances
 * (one per cycle per table, answers one cycle later), and an instance that answers otherwise
 * fails the allocator with the instance, cycle and request named.
 */
#include "alloc_table.h"
#include "hw_ref.h"
#include "sm_alloc.h"
#include "testutil.h"
#include "timing_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct hd_sm_params gtx480_sm(void)
{
    struct hd_sm_params p;
    memset(&p, 0, sizeof p);
    p.max_warps = 48;
    p.max_threads = 1536;
    p.max_ctas = 8;
    p.registers = 32768; /* 1024 vector registers */
    p.shared_bytes = 49152;
    p.alloc = HD_ALLOC_LIN_TABLES;
    return p;
}

static struct hd_cta_demand dem(uint32_t warps, uint32_t vregs, uint64_t smem, uint32_t launch,
                                int32_t prio)
{
    return (struct hd_cta_demand){warps, warps * 32, vregs * 32, smem, launch, prio, 0, 0};
}

/* A factory whose alloc_table instances are the C reference, except for their alloc answers:
 * mode 1 places every block one unit above the reference's first fit (a legal answer: the
 * allocator must act on it), mode 2 names entry 0 always (illegal from the second alloc on). */
struct bad_inst {
    struct hd_alloc_table_state s;
    int mode;
};
static void bi_reset(void *impl) { hd_alloc_table_ref_reset(&((struct bad_inst *)impl)->s); }
static int bi_step(void *impl, const void *in, void *out, uint64_t now)
{
    struct bad_inst *b = impl;
    (void)now;
    hd_alloc_table_ref_step(&b->s, in, out);
    struct hd_alloc_table_out *o = out;
    if ((o->valid_o & 1u) && o->op_o == HD_ATAB_ALLOC && (o->ok_o & 1u)) {
        if (b->mode == 1)
            o->start_o += 1u;
        else if (b->mode == 2)
            o->entry_o = 0;
    }
    return 0;
}
static bool bi_idle(const void *impl, const void *in)
{
    return hd_alloc_table_ref_idle(&((const struct bad_inst *)impl)->s, in);
}
static const char *bi_error(const void *impl) { (void)impl; return ""; }
static void bi_destroy(void *impl) { free(impl); }
static const struct hd_hw_inst_ops bi_ops = {bi_reset, bi_step, bi_idle, bi_error, NULL, bi_destroy};
struct counts {
    int mode;
    unsigned made;
    char names[4][64];
};
static int bi_make(void *ctx, const char *block, const char *inst, struct hd_hw_inst *out,
                   char *err, size_t errlen)
{
    struct counts *c = ctx;
    if (strcmp(block, "alloc_table") != 0) {
        snprintf(err, errlen, "no block %s", block);
        return -1;
    }
    struct bad_inst *b = calloc(1, sizeof *b);
    b->mode = c->mode;
    hd_alloc_table_ref_reset(&b->s);
    if (c->made < 4)
        snprintf(c->names[c->made], sizeof c->names[0], "%s", inst);
    c->made++;
    *out = (struct hd_hw_inst){&hd_alloc_table_block, &bi_ops, b};
    return 0;
}

static void fig_2_4(struct hd_test_state *t)
{
    hd_test_begin(t, "Fig 2.4 through the allocator: K2's CTAs one at a time");
    struct hd_sm_params p = gtx480_sm();
    struct hd_sm_alloc a;
    HD_CHECK(t, hd_sm_alloc_create(&p, &a) == 0);
    HD_CHECK(t, strcmp(a.ops->name, "lin_tables") == 0);
    struct hd_cta_grant k1[3], k2[2];
    const struct hd_cta_demand d1 = dem(8, 300, 8192, 1, 0), d2 = dem(8, 200, 10240, 2, 5);
    for (int i = 0; i < 3; i++) {
        HD_CHECK(t, a.ops->accept(a.impl, &d1, &k1[i]));
        HD_CHECK_U64(t, 300u * 32u * (unsigned)i, k1[i].reg_base);
        HD_CHECK_U64(t, 8192u * (unsigned)i, k1[i].smem_base);
    }
    HD_CHECK(t, !a.ops->can_accept(a.impl, &d2)); /* 124 vector registers free */
    uint32_t v[8];
    for (int j = 0; j < 2; j++) {
        /* the lowest window of 200 that overlaps one K1 CTA: [0, 200) then [200, 400) */
        HD_CHECK_U64(t, 1, a.ops->plan_victims(a.impl, &d2, v));
        HD_CHECK_U64(t, k1[j].cta_slot, v[0]);
        a.ops->release(a.impl, &k1[j]);
        HD_CHECK(t, a.ops->accept(a.impl, &d2, &k2[j]));
        HD_CHECK_U64(t, 200u * 32u * (unsigned)j, k2[j].reg_base);
    }
    /* shared memory (10 KB = 80 units): the first K2 CTA does not fit in K1 CTA 0's 8 KB
     * hole and goes above the K1 CTAs; the second takes the 16 KB the two holes make; none
     * spilled for shared memory */
    HD_CHECK_U64(t, 3u * 8192u, k2[0].smem_base);
    HD_CHECK_U64(t, 0, k2[1].smem_base);
    /* a third K2 CTA fits in [400, 600) with nothing spilled; a fourth spills K1's last */
    struct hd_cta_grant k2c;
    HD_CHECK_U64(t, 0, a.ops->plan_victims(a.impl, &d2, v));
    HD_CHECK(t, a.ops->accept(a.impl, &d2, &k2c));
    HD_CHECK_U64(t, 400u * 32u, k2c.reg_base);
    HD_CHECK_U64(t, 1, a.ops->plan_victims(a.impl, &d2, v));
    HD_CHECK_U64(t, k1[2].cta_slot, v[0]);
    /* the same launch and equal or higher priority are never victims */
    struct hd_cta_demand d4 = dem(8, 700, 0, 3, 0);
    HD_CHECK_U64(t, (uint64_t)-1, (uint64_t)(int64_t)a.ops->plan_victims(a.impl, &d4, v));
    a.ops->destroy(a.impl);
}

static void slots_and_entries(struct hd_test_state *t)
{
    hd_test_begin(t, "victims for slots, minimality, the 16-entry limit");
    struct hd_sm_params p = gtx480_sm();
    struct hd_sm_alloc a;
    HD_CHECK(t, hd_sm_alloc_create(&p, &a) == 0);
    struct hd_cta_grant g[8];
    /* 8 small CTAs of launch 1 fill the CTA slots; the registers have room */
    const struct hd_cta_demand s1 = dem(1, 10, 128, 1, 0), s2 = dem(1, 10, 128, 2, 1);
    for (int i = 0; i < 8; i++)
        HD_CHECK(t, a.ops->accept(a.impl, &s1, &g[i]));
    uint32_t v[8];
    HD_CHECK_U64(t, 1, a.ops->plan_victims(a.impl, &s2, v)); /* one slot: the latest placed */
    HD_CHECK_U64(t, g[7].cta_slot, v[0]);
    a.ops->destroy(a.impl);
    /* 16 entries: with 32 CTA slots, the 17th CTA is refused by the tables */
    p.max_ctas = 32;
    p.max_warps = 64;
    p.max_threads = 2048;
    HD_CHECK(t, hd_sm_alloc_create(&p, &a) == 0);
    struct hd_cta_grant h[17];
    for (int i = 0; i < 16; i++)
        HD_CHECK(t, a.ops->accept(a.impl, &s1, &h[i]));
    HD_CHECK(t, !a.ops->accept(a.impl, &s1, &h[16]));
    HD_CHECK_U64(t, 1, a.ops->plan_victims(a.impl, &s2, v));
    a.ops->release(a.impl, &h[3]);
    HD_CHECK(t, a.ops->accept(a.impl, &s1, &h[16]));
    HD_CHECK_U64(t, h[3].reg_base, h[16].reg_base); /* entry and block reused */
    a.ops->destroy(a.impl);
}

static void in_loop(struct hd_test_state *t)
{
    hd_test_begin(t, "the tables decide: the block's answers place CTAs, an illegal one located");
    for (int mode = 0; mode < 3; mode++) {
        struct hd_sm_params p = gtx480_sm();
        struct hd_sm_alloc a;
        HD_CHECK(t, hd_sm_alloc_create(&p, &a) == 0);
        struct counts c = {mode, 0, {{0}}};
        const struct hd_hw_factory f = {&c, bi_make};
        const struct hd_hw_factory *fp = &f;
        a.ops->attach(a.impl, 5, &fp);
        a.ops->tick(a.impl, 10);
        char err[1024] = "";
        HD_CHECK_U64(t, UINT64_MAX, a.ops->next_event(a.impl, 10)); /* answered at once */
        struct hd_cta_grant g[3];
        const struct hd_cta_demand d1 = dem(8, 300, 8192, 1, 0);
        for (int i = 0; i < 3; i++)
            HD_CHECK(t, a.ops->accept(a.impl, &d1, &g[i]));
        HD_CHECK_U64(t, 2, c.made);
        HD_CHECK(t, strcmp(c.names[0], "sm5.rf_alloc_table") == 0);
        HD_CHECK(t, strcmp(c.names[1], "sm5.smem_alloc_table") == 0);
        if (mode < 2) {
            HD_CHECK_U64(t, 0, a.ops->fault(a.impl, err, sizeof err));
            for (unsigned i = 0; i < 3; i++) { /* mode 1: the block's start, not first fit */
                HD_CHECK_U64(t, (300u * i + (unsigned)mode) * 32u, g[i].reg_base);
                HD_CHECK_U64(t, (64u * i + (unsigned)mode) * 128u, g[i].smem_base);
            }
            /* a free and a re-alloc go through the blocks too: the hole is taken again */
            a.ops->release(a.impl, &g[1]);
            HD_CHECK(t, a.ops->accept(a.impl, &d1, &g[1]));
            HD_CHECK_U64(t, (300u + (unsigned)mode) * 32u, g[1].reg_base);
            HD_CHECK_U64(t, 0, a.ops->fault(a.impl, err, sizeof err));
        } else {
            HD_CHECK_U64(t, (uint64_t)-1, (uint64_t)(int64_t)a.ops->fault(a.impl, err, sizeof err));
            /* the second alloc, block cycles 12-13 (10-11 the first alloc of this table) */
            HD_CHECK(t, strstr(err, "sm5.rf_alloc_table at block cycle 13 (SM cycle 10): an "
                                    "entry already in use") != NULL);
            HD_CHECK(t, strstr(err, "alloc request (size 300") != NULL);
            printf("  located: %s\n", err);
        }
        a.ops->destroy(a.impl);
    }
}

int main(void)
{
    struct hd_test_state t = {0};
    fig_2_4(&t);
    slots_and_entries(&t);
    in_loop(&t);
    return hd_test_finish(&t);
}
