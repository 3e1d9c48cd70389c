/* SPDX-License-Identifier: MIT
 * test_func_state.c - the functional model's own API, as the timing model will use it: device
 * memory regions and pages, kernel images (register lists per instruction), stepping one warp
 * with the trace record (memory addresses/space/size, branch divergence, barrier wait/release,
 * exit), peeking at the next instruction, and saving/restoring a warp's whole context.
 */
#include "testutil.h"

#include "cta.h"
#include "devmem.h"
#include "exec.h"
#include "func_status.h"
#include "launch.h"
#include "module.h"
#include "ptx_parse.h"
#include "warp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_devmem(struct hd_test_state *t)
{
    hd_test_begin(t, "devmem: exact region bounds, pages across boundaries, free, capacity, many pages");
    struct hd_devmem m;
    char err[256];
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_init(&m, 64u << 20));
    uint64_t a = 0, b = 0, c = 0;
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_alloc(&m, 100, HD_DEVMEM_USER, NULL, &a, err, sizeof err));
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_alloc(&m, 10000, HD_DEVMEM_USER, NULL, &b, err, sizeof err));
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_alloc(&m, 0, HD_DEVMEM_USER, NULL, &c, err, sizeof err));
    HD_CHECK(t, a >= HD_ADDR_GLOBAL_BASE && b > a + 100 && c > b + 10000);
    HD_CHECK_U64(t, 0, a % HD_DEVMEM_ALIGN);
    HD_CHECK(t, hd_devmem_valid(&m, a, 100));
    HD_CHECK(t, hd_devmem_valid(&m, a + 96, 4));
    HD_CHECK(t, !hd_devmem_valid(&m, a + 97, 4));
    HD_CHECK(t, !hd_devmem_valid(&m, a - 1, 1));
    HD_CHECK(t, !hd_devmem_valid(&m, a + 100, 1));
    HD_CHECK(t, !hd_devmem_valid(&m, c, 1));
    HD_CHECK(t, hd_devmem_valid(&m, b + 4095, 2)); /* crosses a page, inside the region */
    uint8_t buf[10000], back[10000];
    for (unsigned i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_write(&m, b, buf, sizeof buf, err, sizeof err));
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_read(&m, b, back, sizeof back, err, sizeof err));
    HD_CHECK(t, memcmp(buf, back, sizeof buf) == 0);
    HD_CHECK_U64(t, HD_FUNC_ERR_MEMORY, hd_devmem_read(&m, b + 1, back, sizeof back, err, sizeof err));
    HD_CHECK(t, strstr(err, "is not inside one device allocation") != NULL);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_fill(&m, b + 10, 0x5a, 3, err, sizeof err));
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_read(&m, b + 9, back, 5, err, sizeof err));
    HD_CHECK_U64(t, buf[9], back[0]);
    HD_CHECK_U64(t, 0x5a, back[1]);
    HD_CHECK_U64(t, 0x5a, back[3]);
    HD_CHECK_U64(t, buf[13], back[4]);
    HD_CHECK_U64(t, HD_FUNC_ERR_MEMORY, hd_devmem_free(&m, b + 1, HD_DEVMEM_USER, err, sizeof err));
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_free(&m, b, HD_DEVMEM_USER, err, sizeof err));
    HD_CHECK(t, !hd_devmem_valid(&m, b, 1));
    HD_CHECK_U64(t, HD_FUNC_ERR_MEMORY, hd_devmem_free(&m, b, HD_DEVMEM_USER, err, sizeof err));
    uint64_t big = 0;
    HD_CHECK_U64(t, HD_FUNC_ERR_MEMORY, hd_devmem_alloc(&m, 65u << 20, HD_DEVMEM_USER, NULL, &big, err, sizeof err));
    HD_CHECK(t, strstr(err, "out of device memory") != NULL);
    /* many pages: map growth, then release them all (backward-shift deletion) */
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_alloc(&m, 16u << 20, HD_DEVMEM_USER, NULL, &big, err, sizeof err));
    size_t before = m.count;
    for (uint64_t off = 0; off < (16u << 20); off += HD_DEVMEM_PAGE_BYTES) {
        uint64_t v = off;
        hd_devmem_write(&m, big + off, &v, 8, err, sizeof err);
    }
    HD_CHECK_U64(t, before + 4096, m.count);
    unsigned bad = 0;
    for (uint64_t off = 0; off < (16u << 20); off += 3 * HD_DEVMEM_PAGE_BYTES) {
        uint64_t v = 0;
        hd_devmem_read(&m, big + off, &v, 8, err, sizeof err);
        bad += v != off;
    }
    HD_CHECK_U64(t, 0, bad);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_free(&m, big, HD_DEVMEM_USER, err, sizeof err));
    HD_CHECK_U64(t, before, m.count);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_devmem_read(&m, a, back, 100, err, sizeof err));
    hd_devmem_destroy(&m);
}

/* {==== A small harness over the functional API ==== */
struct rig {
    struct hd_devmem mem;
    struct hd_module *ir;
    struct hd_func_module *mod;
    struct hd_func_launch l;
    struct hd_func_cta cta;
    uint64_t out;
};

static int rig_open(struct rig *r, const char *ptx, uint32_t threads, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (hd_devmem_init(&r->mem, 1u << 30) != HD_FUNC_OK)
        return -1;
    r->ir = hd_ptx_parse(ptx, strlen(ptx), "rig.ptx", err, errlen);
    if (!r->ir)
        return -1;
    if (hd_func_module_load(&r->mem, r->ir, 65536, &r->mod, err, errlen) != HD_FUNC_OK)
        return -1;
    if (hd_devmem_alloc(&r->mem, 1024, HD_DEVMEM_USER, NULL, &r->out, err, errlen) != HD_FUNC_OK)
        return -1;
    struct hd_func_gpu_params gp = {15, 48, 49152};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    struct hd_func_arg args[1] = {{&r->out, 8}};
    if (hd_func_launch_init(&r->l, hd_func_module_kernel(r->mod, "k"), &r->mem, &gp, grid, block,
                            0, args, 1, 1, err, errlen) != HD_FUNC_OK)
        return -1;
    return hd_func_cta_init(&r->cta, &r->l, 0, 3, err, errlen);
}

static void rig_close(struct rig *r)
{
    hd_func_cta_destroy(&r->cta);
    hd_func_launch_destroy(&r->l);
    hd_func_module_unload(r->mod);
    hd_ptx_module_free(r->ir);
    hd_devmem_destroy(&r->mem);
}

/* Step warp w until it is done or waits; returns steps taken or -1 on error. */
static int run_warp(struct rig *r, struct hd_func_warp *w)
{
    int n = 0;
    while (hd_func_warp_ready(w)) {
        if (hd_func_warp_step(&r->l, &r->cta, w, 0, NULL) != HD_FUNC_OK)
            return -1;
        n++;
    }
    return n;
}
/* }==== */

static const char trace_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<6>;\n\t.reg .pred %p<3>;\n"
    "\t.shared .align 4 .b8 sm[512];\n"
    "\tld.param.u64 %rd1, [out];\n"                 /* 0 */
    "\tmov.u32 %r1, %tid.x;\n"                      /* 1 */
    "\tmul.wide.u32 %rd2, %r1, 4;\n"                /* 2 */
    "\tadd.s64 %rd3, %rd1, %rd2;\n"                 /* 3 */
    "\tst.global.u32 [%rd3], %r1;\n"                /* 4 */
    "\tshl.b32 %r2, %r1, 2;\n"                      /* 5 */
    "\tst.shared.u32 [%r2+16], %r1;\n"              /* 6 */
    "\tand.b32 %r3, %r1, 1;\n"                      /* 7 */
    "\tsetp.eq.u32 %p1, %r3, 0;\n"                  /* 8 */
    "\t@%p1 bra $Leven;\n"                          /* 9 */
    "\tadd.u32 %r4, %r1, %r3;\n"                    /* 10 */
    "$Leven:\n"
    "\tbar.sync 0;\n"                               /* 11 */
    "\tret;\n}\n";                                  /* 12 */

static void test_trace(struct hd_test_state *t)
{
    hd_test_begin(t, "step + trace: memory record, registers, divergence, barrier, exit, peek");
    struct rig r;
    char err[512] = "";
    if (!HD_CHECK(t, rig_open(&r, trace_ptx, 64, err, sizeof err) == 0)) {
        fprintf(stderr, "    %s\n", err);
        return;
    }
    const struct hd_func_kernel *k = r.l.k;
    HD_CHECK_U64(t, 13, k->ncode);
    HD_CHECK_U64(t, 2, r.cta.nwarps);
    /* static register lists */
    const struct hd_func_instr *add = &k->code[10];
    HD_CHECK_U64(t, 2, add->nread);
    HD_CHECK_U64(t, 1, add->nwrite);
    HD_CHECK_U64(t, 4, add->write[0]);    /* %r4: registers are numbered in declaration order */
    HD_CHECK(t, (add->read[0] == 1 && add->read[1] == 3) || (add->read[0] == 3 && add->read[1] == 1));
    const struct hd_func_instr *st = &k->code[4];
    HD_CHECK_U64(t, 2, st->nread); /* the address base and the value */
    HD_CHECK_U64(t, 0, st->nwrite);
    HD_CHECK_U64(t, 11, k->code[9].reconv);
    HD_CHECK_U64(t, 11, k->code[9].target);

    struct hd_func_warp *w0 = &r.cta.warps[0], *w1 = &r.cta.warps[1];
    struct hd_func_trace tr;
    uint32_t active = 0;
    for (int i = 0; i < 4; i++)
        HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 100, &tr));
    const struct hd_func_instr *next = hd_func_warp_peek(&r.l, w0, &active);
    HD_CHECK(t, next == &k->code[4]);
    HD_CHECK_U64(t, 0xffffffffu, active);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 101, &tr));
    HD_CHECK_U64(t, 4, tr.pc);
    HD_CHECK_U64(t, 5, tr.next_pc);
    HD_CHECK(t, tr.in == &k->code[4]);
    HD_CHECK_U64(t, HD_TR_MEM | HD_TR_STORE, tr.flags);
    HD_CHECK_U64(t, HD_SPACE_GLOBAL, tr.space);
    HD_CHECK_U64(t, 4, tr.bytes);
    HD_CHECK_U64(t, r.out, tr.addr[0]);
    HD_CHECK_U64(t, r.out + 31 * 4, tr.addr[31]);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 102, &tr));
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 103, &tr));
    HD_CHECK_U64(t, HD_SPACE_SHARED, tr.space);
    HD_CHECK_U64(t, 16, tr.addr[0]);
    HD_CHECK_U64(t, 16 + 4 * 31, tr.addr[31]);
    for (int i = 0; i < 2; i++)
        hd_func_warp_step(&r.l, &r.cta, w0, 104, &tr);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 105, &tr));
    HD_CHECK_U64(t, 9, tr.pc);
    HD_CHECK_U64(t, HD_TR_BRANCH | HD_TR_DIVERGED, tr.flags);
    HD_CHECK_U64(t, 0x55555555u, tr.taken);
    HD_CHECK_U64(t, 0x55555555u, tr.exec);
    /* the taken (even) lanes branch to the reconvergence PC itself, so they simply wait in the
     * reconvergence entry; only the odd lanes' path is pushed */
    HD_CHECK_U64(t, 10, tr.next_pc);
    next = hd_func_warp_peek(&r.l, w0, &active);
    HD_CHECK(t, next == &k->code[10]);
    HD_CHECK_U64(t, 0xaaaaaaaau, active);
    HD_CHECK_U64(t, 2, w0->sp);
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 106, &tr));
    HD_CHECK_U64(t, 10, tr.pc);
    HD_CHECK_U64(t, 0xaaaaaaaau, tr.exec);
    HD_CHECK_U64(t, 11, tr.next_pc);
    HD_CHECK_U64(t, 1, w0->sp); /* reconverged */
    /* the whole warp reaches the barrier and waits for warp 1 */
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 107, &tr));
    HD_CHECK_U64(t, 11, tr.pc);
    HD_CHECK_U64(t, 0xffffffffu, tr.active);
    HD_CHECK_U64(t, HD_TR_BARRIER | HD_TR_BAR_WAIT, tr.flags);
    HD_CHECK_U64(t, 0, tr.bar_id);
    HD_CHECK(t, !hd_func_warp_ready(w0));
    HD_CHECK_U64(t, HD_FUNC_ERR_INTERNAL, hd_func_warp_step(&r.l, &r.cta, w0, 108, &tr));
    /* warp 1 runs up to the barrier and releases warp 0 */
    int guard = 0;
    while (hd_func_warp_ready(w1) && guard++ < 100) {
        HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w1, 109, &tr));
        if (tr.flags & HD_TR_BARRIER)
            break;
    }
    HD_CHECK_U64(t, HD_TR_BARRIER | HD_TR_BAR_RELEASE, tr.flags);
    HD_CHECK(t, hd_func_warp_ready(w0) && hd_func_warp_ready(w1));
    next = hd_func_warp_peek(&r.l, w0, &active);
    HD_CHECK(t, next == &k->code[12]);
    HD_CHECK_U64(t, 0xffffffffu, active);
    HD_CHECK(t, run_warp(&r, w1) == 1 && w1->done);
    HD_CHECK(t, !hd_func_cta_done(&r.cta));
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_warp_step(&r.l, &r.cta, w0, 110, &tr));
    HD_CHECK_U64(t, HD_TR_EXIT | HD_TR_WARP_DONE, tr.flags);
    HD_CHECK_U64(t, 0xffffffffu, tr.next_pc);
    HD_CHECK(t, hd_func_cta_done(&r.cta));
    HD_CHECK(t, hd_func_warp_peek(&r.l, w0, &active) == NULL);
    HD_CHECK_U64(t, 13, w0->instrs);
    uint32_t vals[64];
    hd_devmem_read(&r.mem, r.out, vals, sizeof vals, err, sizeof err);
    HD_CHECK_U64(t, 63, vals[63]);
    rig_close(&r);
}

static const char loop_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "\t.local .align 4 .b8 depot[16];\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<6>;\n\t.reg .pred %p<3>;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tmov.u32 %r2, 0;\n"
    "\tmov.u32 %r3, 0;\n"
    "$Lloop:\n"
    "\tmad.lo.u32 %r2, %r3, %r1, %r2;\n"
    "\tst.local.u32 [depot], %r2;\n"
    "\tadd.u32 %r3, %r3, 1;\n"
    "\tsetp.le.u32 %p1, %r3, %r1;\n"
    "\t@%p1 bra $Lloop;\n"
    "\tld.local.u32 %r4, [depot];\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n"
    "\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r4;\n"
    "\tret;\n}\n";

static void test_save_restore(struct hd_test_state *t)
{
    hd_test_begin(t, "warp context save/restore in the middle of a divergent loop");
    struct rig r;
    char err[512] = "";
    if (!HD_CHECK(t, rig_open(&r, loop_ptx, 32, err, sizeof err) == 0)) {
        fprintf(stderr, "    %s\n", err);
        return;
    }
    struct hd_func_warp *w = &r.cta.warps[0];
    for (int i = 0; i < 40; i++)
        hd_func_warp_step(&r.l, &r.cta, w, 0, NULL);
    HD_CHECK(t, !w->done && w->sp >= 2); /* diverged: some lanes left the loop */
    size_t bytes = hd_func_warp_context_bytes(w);
    void *ctx = malloc(bytes);
    hd_func_warp_save(w, ctx);
    HD_CHECK(t, run_warp(&r, w) > 0 && w->done);
    uint32_t first[32], second[32];
    hd_devmem_read(&r.mem, r.out, first, sizeof first, err, sizeof err);
    hd_devmem_fill(&r.mem, r.out, 0, sizeof first, err, sizeof err);
    /* restore into the same slot, and into a fresh CTA slot of the same shape */
    HD_CHECK(t, hd_func_warp_restore(w, ctx));
    HD_CHECK(t, !w->done);
    HD_CHECK(t, run_warp(&r, w) > 0 && w->done);
    hd_devmem_read(&r.mem, r.out, second, sizeof second, err, sizeof err);
    HD_CHECK(t, memcmp(first, second, sizeof first) == 0);
    unsigned bad = 0;
    for (uint32_t l = 0; l < 32; l++)
        bad += first[l] != l * (l * (l + 1) / 2);
    HD_CHECK_U64(t, 0, bad);
    struct hd_func_cta other;
    HD_CHECK_U64(t, HD_FUNC_OK, hd_func_cta_init(&other, &r.l, 0, 0, err, sizeof err));
    hd_devmem_fill(&r.mem, r.out, 0, sizeof first, err, sizeof err);
    HD_CHECK(t, hd_func_warp_restore(&other.warps[0], ctx));
    int n = 0;
    while (hd_func_warp_ready(&other.warps[0]) && n < 100000) {
        hd_func_warp_step(&r.l, &other, &other.warps[0], 0, NULL);
        n++;
    }
    hd_devmem_read(&r.mem, r.out, second, sizeof second, err, sizeof err);
    HD_CHECK(t, memcmp(first, second, sizeof first) == 0);
    hd_func_cta_destroy(&other);
    free(ctx);
    rig_close(&r);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_devmem(&t);
    test_trace(&t);
    test_save_restore(&t);
    return hd_test_finish(&t);
}
