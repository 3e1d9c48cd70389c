/* SPDX-License-Identifier: MIT
 * test_oloc_miss.c - operand locations that can miss (sm_oloc.h, sm_oloc_port.c; issue 25
 * item 5; docs/oloc.md):
 *   - a source that is "not here yet" is filled from the port the policy names, the collector
 *     retries the read in the cycle the fill lands, and the instruction dispatches exactly
 *     fill_latency cycles later than without the miss (two latencies, so not a coincidence); a
 *     swapped source is filled by a memory request (a SWAP-class load, counted) and dispatches
 *     exactly the fixed memory's latency later, as docs/oloc.md computes by hand;
 *   - destination writes to a policy port take its write slots: every writeback is counted once,
 *     a one-slot port shared by 8 warps delays writebacks (cycles rise), a port with a slot per
 *     warp delays none and changes no cycle;
 *   - collector reads of scratchpad-resident registers and ld.shared contend for the same banks:
 *     cycles rise against the same policy whose port is a separate resource.
 */
#include "gpu_impl.h"
#include "rt_internal.h"
#include "sm_policy.h"
#include "timing_testkit.h"

/* {==== Policies ==== */
struct pol {
    uint32_t miss_pc;      /* a word of this PC misses once per (warp, register) (UINT32_MAX: none) */
    uint8_t miss_mem;      /* ... filled by memory, else from port 16 */
    uint16_t fill_lat;
    bool dst_to_port;      /* destinations written to port 16 */
    bool src_to_port;      /* sources read from port 16 */
    uint64_t missed[64];   /* bit r of [warp]: register r has missed */
    uint32_t words_at_pc, fills_seen, bad_fill;
    uint64_t wrote[64];    /* bit pc of [warp]: locate_dst was asked for that writeback */
};

static const uint8_t two_reads[1] = {2};
static const uint8_t one_read[1] = {1};
static const uint8_t one_write[1] = {1}, eight_writes[1] = {8};

static void pol_locate(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct pol *p = impl;
    if (p->src_to_port) {
        out->kind = HD_OLOC_SCRATCHPAD;
        out->port = 16;
    }
    if (q->pc != p->miss_pc || q->reg >= 64 || q->warp >= 64)
        return;
    p->words_at_pc++;
    if (p->missed[q->warp] >> q->reg & 1u)
        return; /* filled: present in its bank now */
    out->kind = p->miss_mem ? HD_OLOC_SWAPPED : HD_OLOC_OPCACHE;
    out->miss = p->miss_mem ? HD_OLOC_FILL_MEM : HD_OLOC_FILL_PORT;
    out->fill_port = 16;
    out->fill_latency = p->fill_lat;
    out->fill_addr = 0x5A9A0000000000ull + q->reg * 128u;
    out->fill_bytes = 128;
}

static void pol_filled(void *impl, const struct hd_oloc_query *q)
{
    struct pol *p = impl;
    if (q->pc != p->miss_pc || q->warp >= 64 || q->reg >= 64) {
        p->bad_fill++;
        return;
    }
    p->missed[q->warp] |= 1ull << q->reg;
    p->fills_seen++;
}

static void pol_dst(void *impl, const struct hd_oloc_query *q, struct hd_oloc *out)
{
    struct pol *p = impl;
    if (q->warp < 64 && q->pc < 64)
        p->wrote[q->warp] |= 1ull << q->pc;
    if (p->dst_to_port) {
        out->kind = HD_OLOC_OPCACHE;
        out->port = 16;
    }
}

static struct hd_oloc_ops ops_with(const uint8_t *reads, const uint8_t *writes, uint64_t spad)
{
    return (struct hd_oloc_ops){.name = "test", .nports = 1, .port_reads = reads,
                                .locate = pol_locate, .port_writes = writes,
                                .spad_ports = spad, .locate_dst = pol_dst,
                                .filled = pol_filled};
}
/* }==== */

/* A chain of 8 dependent adds (r2 = r2 + r1), then a shared round trip and a store. */
static const char k_chain[] = TKIT_HEAD
    ".visible .entry chain(.param .u64 out)\n{\n"
    "\t.shared .align 4 .b8 buf[1024];\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 1;\n"
    "\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n"
    "\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n"
    "\tadd.u32 %r2, %r2, %r1;\n\tadd.u32 %r2, %r2, %r1;\n"
    "\tmov.u32 %r3, buf;\n\tshl.b32 %r4, %r1, 2;\n\tadd.u32 %r5, %r3, %r4;\n"
    "\tst.shared.u32 [%r5], %r2;\n\tld.shared.u32 %r6, [%r5];\n"
    "\tst.global.u32 [%rd1], %r6;\n\tret;\n}\n";

/* Shared loads and adds interleaved: r2 += buf[tid] eight times. */
static const char k_shared[] = TKIT_HEAD
    ".visible .entry sh(.param .u64 out)\n{\n"
    "\t.shared .align 4 .b8 buf[1024];\n"
    "\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 1;\n"
    "\tmov.u32 %r3, buf;\n\tshl.b32 %r4, %r1, 2;\n\tadd.u32 %r5, %r3, %r4;\n"
    "\tst.shared.u32 [%r5], %r1;\n"
    "\tld.shared.u32 %r6, [%r5];\n\tadd.u32 %r2, %r2, %r6;\n"
    "\tld.shared.u32 %r7, [%r5];\n\tadd.u32 %r2, %r2, %r7;\n"
    "\tld.shared.u32 %r8, [%r5];\n\tadd.u32 %r2, %r2, %r8;\n"
    "\tld.shared.u32 %r9, [%r5];\n\tadd.u32 %r2, %r2, %r9;\n"
    "\tld.shared.u32 %r6, [%r5];\n\tadd.u32 %r2, %r2, %r6;\n"
    "\tld.shared.u32 %r7, [%r5];\n\tadd.u32 %r2, %r2, %r7;\n"
    "\tld.shared.u32 %r8, [%r5];\n\tadd.u32 %r2, %r2, %r8;\n"
    "\tld.shared.u32 %r9, [%r5];\n\tadd.u32 %r2, %r2, %r9;\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n";

struct result {
    uint64_t cycles, fills, fills_mem, writes, write_conflicts, spad_conflicts, reg_writes;
    uint32_t out0;
    bool sums_ok;       /* k_shared: out[tid] = 1 + 8 tid for every thread */
};

static uint64_t stat(struct hd_gpu *g, const char *name)
{
    uint64_t v = 0;
    hd_gpu_stat(g, name, &v);
    return v;
}

/* Cycles and counters of `kernel` (block threads, one CTA) with ops/impl (NULL: none) on the
 * only SM, after a first launch that warms the instruction cache. */
static struct result run(struct hd_test_state *t, const char *ptx, const char *kernel,
                         uint32_t block, const struct hd_oloc_ops *ops, void *impl)
{
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n"
                                "[mem_fixed]\nlatency = 100\n");
    struct hd_module *m = tkit_module(g, ptx);
    hd_devptr out;
    hd_malloc(g, &out, 1024);
    struct hd_arg a[1] = {HD_ARG(out)};
    tkit_launch(g, m, kernel, 1, block, 0, a, 1);
    tkit_cycles(g, 0);
    if (ops)
        HD_CHECK(t, g->timing && hd_sm_set_oloc(g->timing->sm[0], ops, impl));
    const char *names[] = {"sm.oloc_fills", "sm.oloc_fills_mem", "sm.oloc_writes",
                           "sm.oloc_write_conflicts", "sm.oloc_spad_conflicts",
                           "sm.reg_writes"};
    uint64_t before[6];
    for (int i = 0; i < 6; i++)
        before[i] = stat(g, names[i]);
    tkit_launch(g, m, kernel, 1, block, 0, a, 1);
    struct result r = {0};
    r.cycles = tkit_cycles(g, 1);
    uint64_t *dst[] = {&r.fills, &r.fills_mem, &r.writes, &r.write_conflicts,
                       &r.spad_conflicts, &r.reg_writes};
    for (int i = 0; i < 6; i++)
        *dst[i] = stat(g, names[i]) - before[i];
    uint32_t v[256];
    hd_memcpy_d2h(g, v, out, block * 4);
    r.out0 = v[0];
    r.sums_ok = true;
    for (uint32_t i = 0; i < block; i++)
        r.sums_ok &= v[i] == 1 + 8 * i;
    hd_gpu_destroy(g);
    return r;
}

/* PC of the first add of `chain` (ld.param, mov, mov, add). */
#define FIRST_ADD 3

static void test_fill(struct hd_test_state *t)
{
    hd_test_begin(t, "a missing source: filled on its port, retried, dispatched fill_latency later");
    const struct result base = run(t, k_chain, "chain", 32, NULL, NULL);
    HD_CHECK(t, base.out0 == 1 || base.out0 == 1 + 8 * 31);
    const struct hd_oloc_ops ops = ops_with(two_reads, eight_writes, 0);
    for (uint16_t lat = 3; lat <= 7; lat += 4) {
        struct pol p = {.miss_pc = FIRST_ADD, .fill_lat = lat};
        const struct result r = run(t, k_chain, "chain", 32, &ops, &p);
        /* both words of the add (r2, r1) miss, fill together on the 2-read port, land `lat`
         * cycles later and are read in that cycle: the chain ends exactly `lat` later */
        HD_CHECK_U64(t, base.cycles + lat, r.cycles);
        HD_CHECK_U64(t, 2, r.fills);
        HD_CHECK_U64(t, 0, r.fills_mem);
        HD_CHECK_U64(t, 2, p.fills_seen);
        HD_CHECK_U64(t, 4, p.words_at_pc); /* located at allocation, again at the retry */
        HD_CHECK_U64(t, 0, p.bad_fill);
        HD_CHECK(t, r.out0 == base.out0);
        fprintf(stderr, "  port fill, latency %u: %llu cycles (without: %llu)\n", lat,
                (unsigned long long)r.cycles, (unsigned long long)base.cycles);
    }
    /* the fills use the port they name: with one read slot on port 16 the second fill waits a
     * cycle for it, and the chain ends fill_latency + 1 later */
    const struct hd_oloc_ops narrow = ops_with(one_read, eight_writes, 0);
    struct pol p1 = {.miss_pc = FIRST_ADD, .fill_lat = 3};
    const struct result r1 = run(t, k_chain, "chain", 32, &narrow, &p1);
    HD_CHECK_U64(t, base.cycles + 3 + 1, r1.cycles);
    HD_CHECK_U64(t, 2, r1.fills);
    /* a swapped source: one 128-byte memory load per word through the fixed memory (latency
     * 100, 32 bytes per cycle on the SM's link): r2's fill is sent in the collector's first
     * read cycle, r1's when the link is free again 128 / 32 = 4 cycles later; the second lands
     * 100 cycles after it was sent and is read then: the chain ends 104 cycles later */
    struct pol pm = {.miss_pc = FIRST_ADD, .miss_mem = 1};
    const struct result rm = run(t, k_chain, "chain", 32, &ops, &pm);
    HD_CHECK_U64(t, 2, rm.fills_mem);
    HD_CHECK_U64(t, 0, rm.fills);
    HD_CHECK_U64(t, 2, pm.fills_seen);
    HD_CHECK_U64(t, base.cycles + 100 + 128 / 32, rm.cycles);
    HD_CHECK(t, rm.out0 == base.out0);
    fprintf(stderr, "  memory fill (fixed latency 100): %llu cycles\n",
            (unsigned long long)rm.cycles);
}

static void test_write_ports(struct hd_test_state *t)
{
    hd_test_begin(t, "destination write ports: counted, contended, neutral when wide enough");
    const struct result base = run(t, k_chain, "chain", 256, NULL, NULL);
    const struct hd_oloc_ops narrow = ops_with(two_reads, one_write, 0);
    const struct hd_oloc_ops wide = ops_with(two_reads, eight_writes, 0);
    struct pol pn = {.miss_pc = UINT32_MAX, .dst_to_port = true};
    struct pol pw = pn;
    const struct result rn = run(t, k_chain, "chain", 256, &narrow, &pn);
    const struct result rw = run(t, k_chain, "chain", 256, &wide, &pw);
    /* one port write per writeback that has a destination register (the rematerialised
     * constants have none: no locate_dst): as many as distinct (warp, PC) the policy saw */
    uint64_t writebacks = 0;
    for (int w = 0; w < 64; w++)
        writebacks += (uint64_t)__builtin_popcountll(pw.wrote[w]);
    HD_CHECK(t, writebacks >= 8 * 12); /* ld.param, the 8 adds, shl, add, ld.shared per warp */
    HD_CHECK(t, writebacks <= base.reg_writes);
    HD_CHECK_U64(t, writebacks, rn.writes);
    HD_CHECK_U64(t, writebacks, rw.writes);
    HD_CHECK(t, rn.write_conflicts > 0);
    HD_CHECK(t, rn.cycles > base.cycles);
    HD_CHECK_U64(t, 0, rw.write_conflicts);
    HD_CHECK_U64(t, base.cycles, rw.cycles);
    fprintf(stderr, "  8 warps: %llu writes; one write slot %llu cycles (%llu delayed), eight "
            "%llu, none %llu\n", (unsigned long long)rn.writes, (unsigned long long)rn.cycles,
            (unsigned long long)rn.write_conflicts, (unsigned long long)rw.cycles,
            (unsigned long long)base.cycles);
}

static void test_spad_banks(struct hd_test_state *t)
{
    hd_test_begin(t, "scratchpad reads and ld.shared share the banks");
    const struct result base = run(t, k_shared, "sh", 256, NULL, NULL);
    const struct hd_oloc_ops shared = ops_with(one_read, eight_writes, 1);
    const struct hd_oloc_ops separate = ops_with(one_read, eight_writes, 0);
    struct pol ps = {.miss_pc = UINT32_MAX, .src_to_port = true};
    struct pol pp = ps;
    const struct result rs = run(t, k_shared, "sh", 256, &shared, &ps);
    const struct result rp = run(t, k_shared, "sh", 256, &separate, &pp);
    HD_CHECK(t, base.sums_ok && rs.sums_ok && rp.sums_ok);
    HD_CHECK(t, rs.spad_conflicts > 0);
    HD_CHECK_U64(t, 0, rp.spad_conflicts);
    HD_CHECK(t, rp.cycles > base.cycles); /* one read port for every source */
    HD_CHECK(t, rs.cycles > rp.cycles);   /* ... that ld.shared also needs */
    fprintf(stderr, "  8 warps: register file %llu cycles, scratchpad port separate %llu, "
            "shared with ld.shared %llu (%llu bank conflicts)\n",
            (unsigned long long)base.cycles, (unsigned long long)rp.cycles,
            (unsigned long long)rs.cycles, (unsigned long long)rs.spad_conflicts);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_fill(&t);
    test_write_ports(&t);
    test_spad_banks(&t);
    return hd_test_finish(&t);
}
