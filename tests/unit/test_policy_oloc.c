/* SPDX-License-Identifier: MIT
 * test_policy_oloc.c - the operand-location hook (sm_oloc.h): a policy that leaves every word
 * in its bank with no latency changes no cycle; a mapping-table latency (Zorua's +2 per access)
 * lengthens a dependent chain by exactly 2 cycles per instruction with register operands; one
 * narrow extra port (a scratchpad port) serialises the reads; the shared-memory path adds the
 * policy's cycles to each shared access; a lookup stage (hd_oloc.stage, session 21) lengthens the
 * chain as the latency does but holds no collector: a burst of independent ld.shared of 8 warps
 * (two memory collectors) takes fewer cycles under a 2-cycle stage than under a 2-cycle latency.
 */
#include "gpu_impl.h"
#include "rt_internal.h"
#include "sm_policy.h"
#include "timing_testkit.h"

/* {==== Policies ==== */
struct loc {
    uint16_t latency, stage;
    bool to_port;        /* every word to extra port 0 */
    uint32_t shared;     /* extra cycles per shared access */
    uint64_t located, shared_calls;
};

static const uint8_t one_read[1] = {1};

static void loc_locate(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct loc *l = impl;
    l->located++;
    out->latency = l->latency;
    out->stage = l->stage;
    if (l->to_port) {
        out->kind = HD_OLOC_SCRATCHPAD;
        out->port = 16; /* after the 16 banks of the default configuration */
    }
    (void)q;
}

static uint32_t loc_shared(void *impl, uint32_t warp, uint32_t degree, uint64_t now)
{
    struct loc *l = impl;
    (void)warp;
    (void)degree;
    (void)now;
    l->shared_calls++;
    return l->shared;
}

static const struct hd_oloc_ops loc_ops = {.name = "test", .nports = 1, .port_reads = one_read,
                                           .locate = loc_locate, .shared = loc_shared};
/* }==== */

/* A chain of 8 dependent adds of two registers each (r2 = r2 + r1), then a shared round trip. */
static const char k_ptx[] = TKIT_HEAD
    ".visible .entry chain(.param .u64 out)\n{\n"
    "\t.shared .align 4 .b8 buf[128];\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 1;\n"
    "\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n"
    "\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n"
    "\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n"
    "\tmov.u32 %r3, buf;\n\tshl.b32 %r4, %r1, 2;\n\tadd.u32 %r5, %r3, %r4;\n"
    "\tst.shared.u32 [%r5], %r2;\n\tld.shared.u32 %r6, [%r5];\n"
    "\tst.global.u32 [%rd1], %r6;\n\tret;\n}\n";

/* 16 independent ld.shared per thread (one address register, 16 destinations), then a sum. */
static const char b_ptx[] = TKIT_HEAD
    ".visible .entry burst(.param .u64 out)\n{\n"
    "\t.shared .align 4 .b8 buf[1024];\n"
    "\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tand.b32 %r1, %r1, 31;\n"
    "\tshl.b32 %r1, %r1, 2;\n\tmov.u32 %r2, buf;\n\tadd.u32 %r2, %r2, %r1;\n"
    "\tst.shared.u32 [%r2], %r1;\n\tbar.sync 0;\n"
    "\tld.shared.u32 %r3, [%r2];\n\tld.shared.u32 %r4, [%r2];\n"
    "\tld.shared.u32 %r5, [%r2];\n\tld.shared.u32 %r6, [%r2];\n"
    "\tld.shared.u32 %r7, [%r2];\n\tld.shared.u32 %r8, [%r2];\n"
    "\tld.shared.u32 %r9, [%r2];\n\tld.shared.u32 %r10, [%r2];\n"
    "\tld.shared.u32 %r11, [%r2];\n\tld.shared.u32 %r12, [%r2];\n"
    "\tld.shared.u32 %r13, [%r2];\n\tld.shared.u32 %r14, [%r2];\n"
    "\tld.shared.u32 %r15, [%r2];\n\tld.shared.u32 %r16, [%r2];\n"
    "\tld.shared.u32 %r17, [%r2];\n\tld.shared.u32 %r18, [%r2];\n"
    "\tadd.u32 %r3, %r3, %r18;\n"
    "\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";

/* Cycles of `threads` threads of kernel `name` of ptx with policy l (NULL: none) installed on
 * the only SM. */
static uint64_t run_k(struct hd_test_state *t, struct loc *l, const char *ptx, const char *name,
                      uint32_t threads)
{
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n");
    struct hd_module *m = tkit_module(g, ptx);
    hd_devptr out;
    hd_malloc(g, &out, 64);
    struct hd_arg a[1] = {HD_ARG(out)};
    tkit_launch(g, m, name, 1, threads, 0, a, 1); /* creates the timing model, warms the icache */
    tkit_cycles(g, 0);
    if (l)
        HD_CHECK(t, g->timing && hd_sm_set_oloc(g->timing->sm[0], &loc_ops, l));
    tkit_launch(g, m, name, 1, threads, 0, a, 1);
    uint64_t c = tkit_cycles(g, 1);
    uint32_t v = 0;
    hd_memcpy_d2h(g, &v, out, 4);
    if (ptx == k_ptx) /* 1 + 8 * tid of lane 0 or 31 (all write out[0]) */
        HD_CHECK(t, v == 1 || v == 1 + 8 * 31);
    else /* 2 x 4 x lane of some lane */
        HD_CHECK(t, v % 8 == 0 && v <= 8 * 31);
    hd_gpu_destroy(g);
    return c;
}

static uint64_t run(struct hd_test_state *t, struct loc *l)
{
    return run_k(t, l, k_ptx, "chain", 32);
}

static void test_oloc(struct hd_test_state *t)
{
    hd_test_begin(t, "operand locations: neutral, latency, a narrow port, the shared path");
    uint64_t base = run(t, NULL);
    static struct loc neutral, lat2, port, sh;
    HD_CHECK_U64(t, base, run(t, &neutral));
    HD_CHECK(t, neutral.located > 8 && neutral.shared_calls == 2);
    lat2.latency = 2;
    uint64_t c2 = run(t, &lat2);
    HD_CHECK(t, c2 >= base + 2 * 8); /* every add of the chain waits 2 more cycles */
    port.to_port = true;
    uint64_t cp = run(t, &port);
    HD_CHECK(t, cp > base); /* two operands through one read port: a cycle more per add */
    sh.shared = 5;
    uint64_t cs = run(t, &sh);
    HD_CHECK(t, cs >= base + 5); /* the dependent ld.shared comes back 5 cycles later */
    fprintf(stderr, "  cycles: base %llu, +2 latency %llu, one port %llu, shared +5 %llu\n",
            (unsigned long long)base, (unsigned long long)c2, (unsigned long long)cp,
            (unsigned long long)cs);

    hd_test_begin(t, "operand locations: a lookup stage lengthens the chain, holds no collector");
    static struct loc st2, bl2, bs2;
    st2.stage = 2;
    uint64_t cst = run(t, &st2);
    HD_CHECK(t, cst >= base + 2 * 8); /* every add of the chain sees its producer 2 cycles later */
    const uint64_t bb = run_k(t, NULL, b_ptx, "burst", 256);
    bl2.latency = 2;
    const uint64_t bl = run_k(t, &bl2, b_ptx, "burst", 256);
    bs2.stage = 2;
    const uint64_t bs = run_k(t, &bs2, b_ptx, "burst", 256);
    HD_CHECK(t, bl > bb && bs > bb); /* both cost cycles */
    HD_CHECK(t, bs < bl); /* the latency holds the two memory collectors 2 cycles each */
    fprintf(stderr, "  cycles: chain +2 stage %llu; burst base %llu, +2 latency %llu, +2 stage "
            "%llu\n", (unsigned long long)cst, (unsigned long long)bb, (unsigned long long)bl,
            (unsigned long long)bs);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_oloc(&t);
    return hd_test_finish(&t);
}
