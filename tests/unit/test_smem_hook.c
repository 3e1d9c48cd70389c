/* SPDX-License-Identifier: MIT
 * test_smem_hook.c - the shared-memory path's mechanism hook (issue 32, session 16; mech.h
 * smem_access, docs/hooks.md "Shared-memory accesses"): one warp stores its lane number to two
 * 1 KB halves of a shared array, loads the second half back and writes it + 1 to global memory.
 *   - the hook sees the three accesses with each lane's byte offset, size and kind;
 *   - extra cycles E delay the shared load's write-back by exactly E (the kernel ends E later);
 *   - lanes named in swap (the second 1 KB) make the store and the load SWAP-class global
 *     accesses (one 128-byte request each, L1 bypassed, counted apart from the demand traffic):
 *     the load's value returns after the memory's 100 cycles (instead of the banks' 24), and the
 *     output still verifies
 *     (values are the functional model's);
 *   - without the hook the cycles are unchanged.
 */
#include "gpu_impl.h"
#include "rt_internal.h"
#include "timing_testkit.h"

static const char k_ptx[] = TKIT_HEAD
    ".visible .entry k(.param .u64 y)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\t.shared .align 4 .b8 buf[2048];\n"
    "\tld.param.u64 %rd1, [y];\n"
    "\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n"
    "\tmov.u32 %r3, buf;\n\tadd.u32 %r4, %r3, %r2;\n"
    "\tst.shared.u32 [%r4], %r1;\n"
    "\tadd.u32 %r5, %r4, 1024;\n\tst.shared.u32 [%r5], %r1;\n"
    "\tld.shared.u32 %r6, [%r5];\n\tadd.u32 %r7, %r6, 1;\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r7;\n\tret;\n}\n";

struct hk {
    uint32_t extra;   /* cycles to add */
    bool swap_hi;     /* lanes at offsets >= 1024 are in swap */
    unsigned calls, loads, stores, bad_lanes;
    uint32_t lo_min, hi_max;
};

static void on_smem(void *impl, const struct hd_hook_smem *acc, struct hd_hook_smem_ans *ans,
                    uint64_t now)
{
    (void)now;
    struct hk *h = impl;
    h->calls++;
    h->loads += acc->kind == HD_MEM_LOAD;
    h->stores += acc->kind == HD_MEM_STORE;
    const uint32_t base = acc->addr[0] & ~1023u; /* (the half this access touches) */
    for (uint32_t l = 0; l < 32; l++) {
        const bool on = acc->exec >> l & 1u;
        h->bad_lanes += !on || acc->bytes != 4 || acc->addr[l] != base + 4 * l;
        h->lo_min = acc->addr[l] < h->lo_min ? acc->addr[l] : h->lo_min;
        h->hi_max = acc->addr[l] > h->hi_max ? acc->addr[l] : h->hi_max;
        if (on && h->swap_hi && acc->addr[l] >= 1024) {
            ans->swap |= 1u << l;
            ans->swap_addr[l] = (0x5A9Aull << 40) + acc->addr[l];
        }
    }
    ans->extra += h->extra;
}

static const struct hd_hook_ops hk_ops = {.name = "test", .smem_access = on_smem};

struct res {
    uint64_t cycles, swap_instrs, swap_reqs, swap_bytes, gmem_reqs, smem_instrs;
    bool ok;
};

static uint64_t stat(struct hd_gpu *g, const char *name)
{
    uint64_t v = 0;
    hd_gpu_stat(g, name, &v);
    return v;
}

/* Launch 1 of k (launch 0 warms the instruction cache), with hook h when not NULL. */
static struct res run(struct hd_test_state *t, struct hk *h)
{
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n[pipeline]\nshared_latency = 24\n"
                                "[mem]\nmodel = fixed\n[mem_fixed]\nlatency = 100\n"
                                "bytes_per_cycle = 32\n");
    struct hd_module *m = tkit_module(g, k_ptx);
    hd_devptr dy;
    hd_malloc(g, &dy, 128);
    struct hd_arg a[1] = {HD_ARG(dy)};
    tkit_launch(g, m, "k", 1, 32, 0, a, 1);
    tkit_cycles(g, 0);
    struct hd_gpu_timing *gt = g->timing;
    HD_CHECK(t, gt != NULL);
    if (h && gt) {
        char err[128];
        HD_CHECK(t, hd_hooks_add(&gt->hooks, (struct hd_hook){&hk_ops, h}, err, sizeof err) == 0);
        HD_CHECK(t, gt->hooks.any_smem);
    }
    const char *names[6] = {"sm.smem_swap_instrs", "sm.smem_swap_requests", "sm.smem_swap_bytes",
                            "sm.gmem_requests", "sm.smem_instrs", NULL};
    uint64_t before[5];
    for (int i = 0; i < 5; i++)
        before[i] = stat(g, names[i]);
    hd_memset(g, dy, 0, 128);
    tkit_launch(g, m, "k", 1, 32, 0, a, 1);
    struct res r = {0};
    r.cycles = tkit_cycles(g, 1);
    uint64_t *dst[5] = {&r.swap_instrs, &r.swap_reqs, &r.swap_bytes, &r.gmem_reqs,
                        &r.smem_instrs};
    for (int i = 0; i < 5; i++)
        *dst[i] = stat(g, names[i]) - before[i];
    uint32_t y[32];
    hd_memcpy_d2h(g, y, dy, sizeof y);
    r.ok = true;
    for (uint32_t i = 0; i < 32; i++)
        r.ok &= y[i] == i + 1;
    hd_gpu_destroy(g);
    return r;
}

static void test_smem_hook(struct hd_test_state *t)
{
    hd_test_begin(t, "the smem_access hook: lanes seen, extra cycles, lanes in swap");
    const struct res base = run(t, NULL);
    HD_CHECK(t, base.ok);
    HD_CHECK_U64(t, 3, base.smem_instrs);
    HD_CHECK_U64(t, 0, base.swap_instrs);

    struct hk h0 = {.lo_min = UINT32_MAX};
    const struct res r0 = run(t, &h0);
    HD_CHECK(t, r0.ok);
    HD_CHECK_U64(t, base.cycles, r0.cycles); /* a hook that answers nothing changes nothing */
    HD_CHECK_U64(t, 3, h0.calls);
    HD_CHECK_U64(t, 1, h0.loads);
    HD_CHECK_U64(t, 2, h0.stores);
    HD_CHECK_U64(t, 0, h0.bad_lanes); /* every lane, 4 bytes, its own word */
    HD_CHECK_U64(t, 0, h0.lo_min);
    HD_CHECK_U64(t, 1024 + 31 * 4, h0.hi_max);

    for (uint32_t e = 3; e <= 7; e += 4) {
        struct hk h = {.extra = e, .lo_min = UINT32_MAX};
        const struct res r = run(t, &h);
        HD_CHECK(t, r.ok);
        HD_CHECK_U64(t, base.cycles + e, r.cycles); /* the load's write-back, E later */
    }

    struct hk hs = {.extra = 2, .swap_hi = true, .lo_min = UINT32_MAX};
    const struct res rs = run(t, &hs);
    HD_CHECK(t, rs.ok); /* the values are the functional model's */
    HD_CHECK_U64(t, 3, rs.smem_instrs);
    HD_CHECK_U64(t, 2, rs.swap_instrs);       /* the second store and the load */
    HD_CHECK_U64(t, 2, rs.swap_reqs);         /* one 128-byte segment each */
    HD_CHECK_U64(t, 256, rs.swap_bytes);
    HD_CHECK_U64(t, base.gmem_reqs, rs.gmem_reqs); /* not demand traffic */
    /* the load's value comes from memory: 2 (extra) + 100 (latency) cycles instead of the
     * banks' 24, and its request may wait up to 4 cycles for the SM's link behind the store's
     * 128 bytes (32 bytes per cycle) */
    HD_CHECK(t, rs.cycles >= base.cycles + 2 + 100 - 24);
    HD_CHECK(t, rs.cycles <= base.cycles + 2 + 100 - 24 + 4);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_smem_hook(&t);
    return hd_test_finish(&t);
}
