/* SPDX-License-Identifier: MIT
 * test_timing_runs.c - whole runs of the timing model: determinism (two runs, and skipping idle
 * cycles or not, give identical statistics), statistics that add up, the JSON/CSV reports, the
 * watchdog's located report, barrier deadlocks, faults and Ctrl-C with statistics kept.
 */
#include "timing_testkit.h"

#include <signal.h>

/* A kernel that uses most of the pipeline: global loads and stores, shared memory with a
 * barrier, divergence, an atomic, a loop. mix(in, out, counter, n) */
static const char mix_ptx[] = TKIT_HEAD
    ".visible .entry mix(.param .u64 in, .param .u64 out, .param .u64 cnt, .param .u32 n)\n{\n"
    "\t.shared .align 4 .b8 tile[1024];\n"
    "\t.reg .f32 %f<8>;\n\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<16>;\n\t.reg .pred %p<4>;\n"
    "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n\tld.param.u64 %rd3, [cnt];\n"
    "\tld.param.u32 %r1, [n];\n\tcvta.to.global.u64 %rd4, %rd1;\n"
    "\tcvta.to.global.u64 %rd5, %rd2;\n\tcvta.to.global.u64 %rd6, %rd3;\n"
    "\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n"
    "\tmad.lo.u32 %r5, %r3, %r4, %r2;\n\tmul.wide.u32 %rd7, %r5, 4;\n"
    "\tadd.s64 %rd8, %rd4, %rd7;\n\tld.global.f32 %f1, [%rd8];\n"
    "\tmov.u32 %r6, tile;\n\tshl.b32 %r7, %r2, 2;\n\tadd.u32 %r8, %r6, %r7;\n"
    "\tst.shared.f32 [%r8], %f1;\n\tbar.sync 0;\n"
    "\txor.b32 %r9, %r2, 1;\n\tshl.b32 %r10, %r9, 2;\n\tadd.u32 %r11, %r6, %r10;\n"
    "\tld.shared.f32 %f2, [%r11];\n\tadd.f32 %f3, %f1, %f2;\n"
    "\tmov.u32 %r12, 0;\n"
    "$L_loop:\n\tfma.rn.f32 %f3, %f3, 0f3F000000, %f1;\n\tadd.u32 %r12, %r12, 1;\n"
    "\tand.b32 %r13, %r2, 3;\n\tsetp.le.u32 %p1, %r12, %r13;\n\t@%p1 bra $L_loop;\n"
    "\tsetp.lt.u32 %p2, %r2, 16;\n\t@%p2 bra $L_skip;\n"
    "\tatom.global.add.u32 %r14, [%rd6], 1;\n"
    "$L_skip:\n\tadd.s64 %rd9, %rd5, %rd7;\n\tst.global.f32 [%rd9], %f3;\n\tret;\n}\n";

struct mixrun {
    struct hd_gpu *g;
    int st;
};

static struct mixrun run_mix(const char *ini, uint32_t ctas, uint64_t sample)
{
    struct mixrun r;
    r.g = tkit_gpu(ini);
    hd_gpu_set_sampling(r.g, sample);
    struct hd_module *m = tkit_module(r.g, mix_ptx);
    uint32_t n = ctas * 256;
    hd_devptr in, out, cnt;
    hd_malloc(r.g, &in, n * 4);
    hd_malloc(r.g, &out, n * 4);
    hd_malloc(r.g, &cnt, 4);
    hd_memset(r.g, cnt, 0, 4);
    float *h = malloc(n * sizeof *h);
    for (uint32_t i = 0; i < n; i++)
        h[i] = (float)(i % 97);
    hd_memcpy_h2d(r.g, in, h, n * 4);
    free(h);
    struct hd_arg a[4] = {HD_ARG(in), HD_ARG(out), HD_ARG(cnt), HD_ARG(n)};
    int s1;
    hd_stream_create(r.g, &s1);
    tkit_launch(r.g, m, "mix", ctas, 256, 0, a, 4);
    tkit_launch(r.g, m, "mix", ctas / 2, 256, s1, a, 4);
    tkit_launch(r.g, m, "mix", ctas, 128, 0, a, 4);
    r.st = hd_synchronize(r.g);
    return r;
}

/* The JSON report as a string (malloc'ed). */
static char *json_of(struct hd_gpu *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hd_gpu_write_stats_json(g, f);
    fclose(f);
    return buf;
}

/* Remove the value of "key": V (so that two reports can differ only there). */
static void blank(char *s, const char *key)
{
    char *p = strstr(s, key);
    if (!p)
        return;
    p += strlen(key);
    char *q = p;
    while (*q && *q != ',' && *q != '}')
        q++;
    memmove(p, q, strlen(q) + 1);
}

static void test_determinism(struct hd_test_state *t)
{
    hd_test_begin(t, "two runs give identical statistics; skipping idle cycles changes nothing");
    struct mixrun a = run_mix("[gpu]\nnum_sms = 4\n", 24, 500);
    struct mixrun b = run_mix("[gpu]\nnum_sms = 4\n", 24, 500);
    struct mixrun c = run_mix("[gpu]\nnum_sms = 4\n[timing]\nskip_idle = false\n", 24, 500);
    HD_CHECK_U64(t, HD_OK, a.st);
    HD_CHECK_U64(t, HD_OK, b.st);
    HD_CHECK_U64(t, HD_OK, c.st);
    char *ja = json_of(a.g), *jb = json_of(b.g), *jc = json_of(c.g);
    HD_CHECK(t, strcmp(ja, jb) == 0);
    struct hd_timing_totals ta, tc;
    hd_gpu_timing_totals(a.g, &ta);
    hd_gpu_timing_totals(c.g, &tc);
    HD_CHECK(t, ta.cycles > 1000);
    HD_CHECK_U64(t, ta.cycles, tc.cycles);
    /* the configuration echo and the skipped-cycle count differ; nothing else may */
    blank(ja, "\"skip_idle\":");
    blank(jc, "\"skip_idle\":");
    blank(ja, "\"skipped_cycles\":");
    blank(jc, "\"skipped_cycles\":");
    HD_CHECK(t, strcmp(ja, jc) == 0);
    free(ja);
    free(jb);
    free(jc);
    hd_gpu_destroy(a.g);
    hd_gpu_destroy(b.g);
    hd_gpu_destroy(c.g);
}

static void test_stats_add_up(struct hd_test_state *t)
{
    hd_test_begin(t, "statistics add up: stalls + issue = cycles, per-launch and per-SM sums");
    struct mixrun r = run_mix("[gpu]\nnum_sms = 4\n", 24, 0);
    HD_CHECK_U64(t, HD_OK, r.st);
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(r.g, &tt);
    const char *parts[] = {"sched.issue_cycles",   "sched.stall_pipeline", "sched.stall_memory",
                           "sched.stall_scoreboard", "sched.stall_barrier", "sched.stall_ibuffer",
                           "sched.stall_idle"};
    uint64_t sum = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        sum += tkit_stat(r.g, parts[i]);
    HD_CHECK_U64(t, tt.cycles * 4 * 2, sum); /* 4 SMs x 2 schedulers */
    HD_CHECK_U64(t, tt.warp_instrs, tkit_stat(r.g, "sched.issued"));
    HD_CHECK_U64(t, tt.warp_instrs, tkit_stat(r.g, "sm.warp_instrs"));
    uint64_t li = 0;
    for (unsigned i = 0; i < hd_gpu_launch_timing_count(r.g); i++) {
        struct hd_launch_timing lt;
        hd_gpu_launch_timing(r.g, i, &lt);
        li += lt.warp_instrs;
        HD_CHECK(t, lt.finished && lt.cycles > 0 && lt.end_cycle >= lt.start_cycle);
        HD_CHECK(t, lt.regs_per_thread > 0 && lt.ctas_per_sm > 0);
    }
    HD_CHECK_U64(t, 3, hd_gpu_launch_timing_count(r.g));
    HD_CHECK_U64(t, tt.warp_instrs, li);
    HD_CHECK_U64(t, 24 + 12 + 24, tkit_stat(r.g, "sm.ctas_done"));
    HD_CHECK(t, tkit_stat(r.g, "sm.smem_instrs") > 0 && tkit_stat(r.g, "sm.gmem_requests") > 0);
    HD_CHECK(t, tkit_stat(r.g, "sm.atomic_requests") > 0);
    HD_CHECK(t, tkit_stat(r.g, "sm.divergent_branches") > 0);
    uint64_t v;
    HD_CHECK(t, hd_gpu_stat(r.g, "sm.no_such_counter", &v) == HD_ERR_NOT_FOUND);
    hd_gpu_destroy(r.g);
}

static void test_reports(struct hd_test_state *t)
{
    hd_test_begin(t, "JSON report, CSV time series and the human summary");
    struct mixrun r = run_mix("[gpu]\nnum_sms = 2\n", 8, 200);
    char *j = json_of(r.g);
    HD_CHECK(t, strstr(j, "\"config\": {") && strstr(j, "\"name\": \"fermi-gtx480\""));
    /* loaded from text with no ptxas summary: our allocator's count, flagged (issue 15) */
    HD_CHECK(t, strstr(j, "\"kernel\": \"mix\"") &&
                    strstr(j, "\"regs_source\": \"regalloc-fallback\""));
    HD_CHECK(t, strstr(j, "\"lines\": [") && strstr(j, "\"file\": \"tkit.ptx\""));
    HD_CHECK(t, strstr(j, "\"schedulers\": [") && strstr(j, "\"stall_memory\""));
    HD_CHECK(t, strstr(j, "\"samples\": {\"every\": 200"));
    long depth = 0, min = 0;
    for (const char *p = j; *p; p++) {
        depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
        min = depth < min ? depth : min;
    }
    HD_CHECK(t, depth == 0 && min == 0);
    free(j);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hd_gpu_write_stats_csv(r.g, f);
    fclose(f);
    HD_CHECK(t, strstr(buf, "cycle,ipc,warp_instrs,active_warps") != NULL);
    unsigned rows = 0;
    for (const char *p = buf; *p; p++)
        rows += *p == '\n';
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(r.g, &tt);
    HD_CHECK(t, rows >= 2 + tt.cycles / 200);
    free(buf);
    f = open_memstream(&buf, &len);
    hd_gpu_print_stats(r.g, f);
    fclose(f);
    HD_CHECK(t, strstr(buf, "IPC") && strstr(buf, "scheduler cycles") && strstr(buf, "mix"));
    free(buf);
    hd_gpu_destroy(r.g);
}

static const char load_ptx[] = TKIT_HEAD
    ".visible .entry ld1(.param .u64 in, .param .u64 out)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
    "\tld.global.u32 %r1, [%rd1];\n\tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd2], %r2;\n"
    "\tret;\n}\n";

static void test_watchdog(struct hd_test_state *t)
{
    hd_test_begin(t, "the watchdog stops a run without progress and locates the waiting warps");
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n[mem_fixed]\nlatency = 5000\n"
                                "[timing]\nwatchdog_cycles = 1000\n");
    struct hd_module *m = tkit_module(g, load_ptx);
    hd_devptr in, out;
    hd_malloc(g, &in, 64);
    hd_malloc(g, &out, 64);
    struct hd_arg a[2] = {HD_ARG(in), HD_ARG(out)};
    tkit_launch(g, m, "ld1", 1, 32, 0, a, 2);
    int st = hd_synchronize(g);
    const char *e = hd_last_error(g);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_INTERNAL, (uint64_t)(int64_t)st);
    HD_CHECK(t, strstr(e, "no progress for 1000 cycles") != NULL);
    HD_CHECK(t, strstr(e, "launch 0 ld1") != NULL);
    /* the first miss is the instruction fetch; the warp waits for its code */
    HD_CHECK(t, strstr(e, "requests in flight") != NULL);
    HD_CHECK(t, strstr(e, "warp 0 (ld1, CTA (0,0,0) warp 0)") != NULL);
    HD_CHECK(t, strstr(e, "tkit.ptx:") != NULL);
    if (t->failures)
        fprintf(stderr, "    %s\n", e);
    /* the statistics gathered so far stay, and the GPU runs the next launch */
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(g, &tt);
    HD_CHECK(t, tt.cycles >= 1000);
    hd_gpu_destroy(g);

    g = tkit_gpu("[gpu]\nnum_sms = 1\n[mem]\nmodel = fixed\n[mem_fixed]\nlatency = 500\n"
                 "[timing]\nwatchdog_cycles = 400\n");
    m = tkit_module(g, load_ptx);
    hd_malloc(g, &in, 64);
    hd_malloc(g, &out, 64);
    struct hd_arg b[2] = {HD_ARG(in), HD_ARG(out)};
    tkit_launch(g, m, "ld1", 1, 32, 0, b, 2);
    st = hd_synchronize(g);
    e = hd_last_error(g);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_INTERNAL, (uint64_t)(int64_t)st);
    HD_CHECK(t, strstr(e, "no progress for 400 cycles") != NULL);
    hd_gpu_destroy(g);
}

static const char dl_ptx[] = TKIT_HEAD
    ".visible .entry dl(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra $Lw1;\n"
    "\tbar.sync 1, 64;\n\tret;\n$Lw1:\n\tbar.sync 2, 64;\n\tret;\n}\n";

static const char oob_ptx[] = TKIT_HEAD
    ".visible .entry oob(.param .u64 in)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
    "\tld.param.u64 %rd1, [in];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 64;\n"
    "\tadd.s64 %rd3, %rd1, %rd2;\n\tld.global.u32 %r2, [%rd3];\n\tret;\n}\n";

static const char spin_ptx[] = TKIT_HEAD
    ".visible .entry spin()\n{\n$Lspin:\n\tbra.uni $Lspin;\n}\n";

static void test_errors(struct hd_test_state *t)
{
    hd_test_begin(t, "barrier deadlock, fault and Ctrl-C in timing mode; statistics are kept");
    struct hd_gpu *g = tkit_gpu("[gpu]\nnum_sms = 2\n");
    struct hd_module *m = tkit_module(g, dl_ptx);
    hd_devptr out;
    hd_malloc(g, &out, 4096);
    struct hd_arg a[1] = {HD_ARG(out)};
    tkit_launch(g, m, "dl", 1, 64, 0, a, 1);
    int st = hd_synchronize(g);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_FAULT, (uint64_t)(int64_t)st);
    HD_CHECK(t, strstr(hd_last_error(g), "dl: barrier deadlock in block (0,0,0): barrier") != NULL);
    /* out of bounds: located fault, GPU usable afterwards */
    struct hd_module *mo = tkit_module(g, oob_ptx);
    hd_devptr small;
    hd_malloc(g, &small, 256);
    struct hd_arg b[1] = {HD_ARG(small)};
    tkit_launch(g, mo, "oob", 1, 32, 0, b, 1);
    st = hd_synchronize(g);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_FAULT, (uint64_t)(int64_t)st);
    HD_CHECK(t, strstr(hd_last_error(g), "oob: out-of-bounds global load") != NULL);
    tkit_launch(g, mo, "oob", 1, 4, 0, b, 1);
    HD_CHECK_U64(t, HD_OK, hd_synchronize(g));
    /* Ctrl-C stops an endless kernel; totals stay valid */
    struct hd_module *ms = tkit_module(g, spin_ptx);
    volatile sig_atomic_t flag = 1;
    hd_gpu_set_interrupt(g, &flag);
    tkit_launch(g, ms, "spin", 2, 32, 0, NULL, 0);
    st = hd_synchronize(g);
    hd_gpu_set_interrupt(g, NULL);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_INTERRUPTED, (uint64_t)(int64_t)st);
    HD_CHECK(t, strstr(hd_last_error(g), "spin: interrupted in block (0,0,0) at cycle") != NULL);
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(g, &tt);
    HD_CHECK(t, tt.cycles > 0 && tt.launches == 4);
    struct hd_launch_timing lt;
    hd_gpu_launch_timing(g, 3, &lt);
    HD_CHECK(t, !lt.finished && lt.warp_instrs > 0);
    char *j = json_of(g);
    HD_CHECK(t, strstr(j, "\"status\": -8") && strstr(j, "interrupted"));
    free(j);
    /* still usable */
    tkit_launch(g, mo, "oob", 1, 4, 0, b, 1);
    HD_CHECK_U64(t, HD_OK, hd_synchronize(g));
    hd_gpu_destroy(g);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_determinism(&t);
    test_stats_add_up(&t);
    test_reports(&t);
    test_watchdog(&t);
    test_errors(&t);
    return hd_test_finish(&t);
}
