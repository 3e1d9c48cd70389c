/* SPDX-License-Identifier: MIT
 * test_timing_context.c - a warp's timing state is save/restorable (preemption studies): one SM
 * driven alone (rule T1) runs a CTA; at a cycle where a warp has nothing in flight its timing
 * state and functional state are saved; in a second identical run the warp's state is
 * scrambled at that cycle and restored from the saved bytes; both runs must then finish in the
 * same cycle with the same results. A warp with work in flight cannot be saved.
 */
#include "cta.h"
#include "devmem.h"
#include "func_status.h"
#include "mem_fixed.h"
#include "module.h"
#include "ptx_parse.h"
#include "sm_impl.h"
#include "testutil.h"
#include "timing_params.h"
#include "timing_stats.h"
#include "tkernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* warp 0 runs a 40-iteration loop; warp 1 waits at the barrier meanwhile (nothing in flight:
 * where a preemption would save it) */
static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "\t.reg .f32 %f<8>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<4>;\n"
    "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tcvt.rn.f32.u32 %f1, %r1;\n"
    "\tmov.u32 %r2, 0;\n\tsetp.ge.u32 %p2, %r1, 32;\n\t@%p2 bra $W;\n"
    "$L:\n\tfma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;\n\tadd.u32 %r2, %r2, 1;\n"
    "\tsetp.lt.u32 %p1, %r2, 40;\n\t@%p1 bra $L;\n"
    "$W:\n\tbar.sync 0;\n\tfma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.f32 [%rd3], %f1;\n"
    "\tret;\n}\n";

struct rig {
    struct hd_config cfg;
    struct hd_gpu_timing_params p;
    struct hd_mem mem;
    struct hd_timing_stats st;
    struct hd_devmem dm;
    struct hd_module *ir;
    struct hd_func_module *fm;
    struct hd_func_launch l;
    struct hd_tkernel *tk;
    struct hd_sm_launch la;
    struct hd_sm *sm;
    uint64_t out;
};

static bool rig_init(struct rig *r)
{
    char err[512];
    memset(r, 0, sizeof *r);
    hd_config_defaults(&r->cfg);
    r->cfg.gpu_num_sms = 1;
    if (hd_timing_params_init(&r->cfg, &r->p, err, sizeof err) != 0 ||
        hd_mem_fixed_create(&r->p.mem, &r->mem, err, sizeof err) != 0 ||
        hd_timing_stats_init(&r->st, 1, r->p.sm.num_sched, 700.0) != 0 ||
        hd_devmem_init(&r->dm, 1u << 24) != HD_FUNC_OK)
        return false;
    r->ir = hd_ptx_parse(ptx, sizeof ptx - 1, "ctx.ptx", err, sizeof err);
    if (!r->ir || hd_func_module_load(&r->dm, r->ir, 65536, &r->fm, err, sizeof err) != 0 ||
        hd_devmem_alloc(&r->dm, 4096, HD_DEVMEM_USER, NULL, &r->out, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return false;
    }
    const struct hd_func_kernel *k = hd_func_module_kernel(r->fm, "k");
    struct hd_func_gpu_params gp = {1, 48, 49152};
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    struct hd_func_arg a[1] = {{&r->out, 8}};
    if (hd_func_launch_init(&r->l, k, &r->dm, &gp, grid, block, 0, a, 1, 1, err, sizeof err))
        return false;
    r->tk = hd_tkernel_build(k, &r->p.sm, 0, err, sizeof err);
    int lines = hd_timing_stats_new_lines(&r->st, "k", "ctx.ptx", k->ncode);
    struct hd_launch_info *li = hd_timing_stats_new_launch(&r->st);
    if (!r->tk || lines < 0 || !li)
        return false;
    const struct hd_cta_demand d = {2, 64, 2 * 32 * 12, 0};
    r->la = (struct hd_sm_launch){&r->l, r->tk, li, &r->st.lines[lines], 0, d};
    struct hd_sm_env env = {&r->mem, &r->st.sm[0], r->st.sched};
    r->sm = hd_sm_create(&r->p.sm, 0, &env, err, sizeof err);
    return r->sm && hd_sm_place_cta(r->sm, &r->la, 0, 0, err, sizeof err) == HD_FUNC_OK;
}

static void rig_free(struct rig *r)
{
    hd_sm_destroy(r->sm);
    hd_tkernel_free(r->tk);
    hd_func_launch_destroy(&r->l);
    hd_func_module_unload(r->fm);
    hd_ptx_module_free(r->ir);
    hd_devmem_destroy(&r->dm);
    hd_timing_stats_free(&r->st);
    r->mem.ops->destroy(r->mem.impl);
}

/* Tick from cycle `from` until the CTA retires; returns the cycle after the last one. */
static uint64_t run_to_end(struct rig *r, uint64_t from)
{
    char err[512];
    int st;
    struct hd_sm_launch *done[4];
    for (uint64_t c = from; c < 100000; c++) {
        r->mem.ops->tick(r->mem.impl, c);
        hd_sm_tick(r->sm, c, &st, err, sizeof err);
        if (st != HD_FUNC_OK || hd_sm_retired(r->sm, done, 4))
            return st != HD_FUNC_OK ? 0 : c + 1;
    }
    return 0;
}

int main(void)
{
    struct hd_test_state t = {0};
    hd_test_begin(&t, "a warp's timing state saves and restores exactly");
    struct rig a, b;
    if (!HD_CHECK(&t, rig_init(&a) && rig_init(&b)))
        return hd_test_finish(&t);
    /* advance both runs until warp slot 1 waits at the barrier with nothing in flight */
    char err[512];
    int st;
    uint64_t c = 0;
    bool busy_seen = false;
    for (; c < 20000; c++) {
        a.mem.ops->tick(a.mem.impl, c);
        b.mem.ops->tick(b.mem.impl, c);
        hd_sm_tick(a.sm, c, &st, err, sizeof err);
        hd_sm_tick(b.sm, c, &st, err, sizeof err);
        bool free_ = hd_sm_warp_context_bytes(a.sm, 1) > 0;
        busy_seen |= !free_;
        if (busy_seen && free_ && b.sm->w[1].state == HD_WS_BARRIER && c > 600)
            break;
    }
    HD_CHECK(&t, busy_seen && c < 20000);
    /* save warp 1 of run b (timing and functional state) and scramble it */
    struct hd_twarp *w = &b.sm->w[1];
    size_t tb = hd_sm_warp_context_bytes(b.sm, 1), fb = hd_func_warp_context_bytes(w->fw);
    char *tbuf = malloc(tb), *fbuf = malloc(fb);
    HD_CHECK(&t, hd_sm_warp_save(b.sm, 1, tbuf, tb));
    hd_func_warp_save(w->fw, fbuf);
    w->ib_pc = 3;
    w->ib_n = 0;
    w->fetch_pc = 7;
    w->fetch_after = 999999;
    w->age = 77;
    memset(w->sb, HD_SB_ALU, w->sb_cap);
    w->sb_pending = w->sb_cap;
    memset(w->fw->regs, 0x5a, w->fw->nregs * 32 * sizeof *w->fw->regs);
    w->fw->stack[w->fw->sp - 1].pc = 0;
    w->fw->at_barrier = false;
    /* restore */
    HD_CHECK(&t, !hd_sm_warp_restore(b.sm, 1, tbuf, tb - 1)); /* truncated: refused */
    HD_CHECK(&t, hd_func_warp_restore(w->fw, fbuf));
    HD_CHECK(&t, hd_sm_warp_restore(b.sm, 1, tbuf, tb));
    free(tbuf);
    free(fbuf);
    /* both runs finish in the same cycle with the same results */
    uint64_t ea = run_to_end(&a, c + 1), eb = run_to_end(&b, c + 1);
    HD_CHECK(&t, ea > c + 1);
    HD_CHECK_U64(&t, ea, eb);
    float ra[64], rb[64];
    HD_CHECK(&t, hd_devmem_read(&a.dm, a.out, ra, sizeof ra, err, sizeof err) == HD_FUNC_OK);
    HD_CHECK(&t, hd_devmem_read(&b.dm, b.out, rb, sizeof rb, err, sizeof err) == HD_FUNC_OK);
    HD_CHECK(&t, memcmp(ra, rb, sizeof ra) == 0);
    HD_CHECK(&t, ra[1] > 1.9f && ra[1] < 2.1f); /* x <- x/2 + 1 converges to 2 */
    HD_CHECK(&t, rb[33] == 17.5f);              /* warp 1: once, after the barrier */
    /* a warp with work in flight cannot be saved: the first cycles of a fresh run */
    struct rig c2;
    HD_CHECK(&t, rig_init(&c2));
    bool refused = false;
    for (uint64_t k = 0; k < 3000 && !refused; k++) {
        c2.mem.ops->tick(c2.mem.impl, k);
        hd_sm_tick(c2.sm, k, &st, err, sizeof err);
        refused = c2.sm->w[0].inflight && hd_sm_warp_context_bytes(c2.sm, 0) == 0;
    }
    HD_CHECK(&t, refused);
    rig_free(&c2);
    rig_free(&a);
    rig_free(&b);
    return hd_test_finish(&t);
}
