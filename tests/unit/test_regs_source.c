/* SPDX-License-Identifier: MIT
 * test_regs_source.c - registers per thread as the real compiler allocates them (issue 15):
 * [sm] regs_source parsing and the choice between given, ptxas, configuration and our allocator
 * (model/config/regs_source.h), the bank fold, the ptxas summary parser
 * (model/compiler/ptxas_summary.h), and the runtime API (hd_module_set_ptxas, hd_kernel_set_regs)
 * carrying a count to the timing model's occupancy: a kernel launched with ptxas's 40 registers
 * instead of our allocator's count gets the CTAs per SM a hand calculation gives, and the source
 * is reported.
 */
#include "heddle.h"
#include "ptxas_summary.h"
#include "regs_source.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static void test_parse(struct hd_test_state *t)
{
    hd_test_begin(t, "regs_source: ptxas, regalloc, a count; errors name the key and the limit");
    struct hd_regs_source s;
    char err[256];
    HD_CHECK(t, hd_regs_source_parse("ptxas", 63, &s, err, sizeof err) == 0 &&
                    s.mode == HD_REGS_PTXAS);
    HD_CHECK(t, hd_regs_source_parse(" RegAlloc ", 63, &s, err, sizeof err) == 0 &&
                    s.mode == HD_REGS_REGALLOC);
    HD_CHECK(t, hd_regs_source_parse("40", 63, &s, err, sizeof err) == 0 &&
                    s.mode == HD_REGS_FIXED && s.fixed == 40);
    HD_CHECK(t, hd_regs_source_parse("63", 63, &s, err, sizeof err) == 0 && s.fixed == 63);
    HD_CHECK(t, hd_regs_source_parse("64", 63, &s, err, sizeof err) == -1 &&
                    strstr(err, "regs_source") && strstr(err, "63 registers per thread") &&
                    strstr(err, "max_regs_per_thread"));
    HD_CHECK(t, hd_regs_source_parse("300", 255, &s, err, sizeof err) == -1 &&
                    strstr(err, "255 registers per thread"));
    HD_CHECK(t, hd_regs_source_parse("0", 63, &s, err, sizeof err) == -1 &&
                    strstr(err, "at least 1 register per thread (1 .. 63 on this configuration"));
    HD_CHECK(t, hd_regs_source_parse("ptx", 63, &s, err, sizeof err) == -1 &&
                    strstr(err, "'ptx' is not ptxas, regalloc or a register count (1..63"));
    HD_CHECK(t, hd_regs_source_parse("", 63, &s, err, sizeof err) == -1);
    HD_CHECK(t, hd_regs_source_parse("4x", 63, &s, err, sizeof err) == -1);
    HD_CHECK(t, hd_regs_check_count(-3, 63, "fermi-gtx480", "--regs", err, sizeof err) == -1 &&
                    strstr(err, "--regs -3"));
    HD_CHECK(t, hd_regs_check_count(300, 63, "fermi-gtx480", "--regs", err, sizeof err) == -1 &&
                    strstr(err, "--regs 300: more than the 63 registers per thread one thread "
                                "may use on fermi-gtx480"));
}

static void test_choose(struct hd_test_state *t)
{
    hd_test_begin(t, "regs_source: given > ptxas > ours (fallback flagged); regalloc; a count");
    struct hd_regs_source ptxas = {HD_REGS_PTXAS, 0}, ours = {HD_REGS_REGALLOC, 0},
                          fixed = {HD_REGS_FIXED, 33};
    struct hd_regs_choice c;
    hd_regs_choose(&ptxas, &(struct hd_regs_known){0, 40, 20, false}, &c);
    HD_CHECK(t, c.regs == 40 && strcmp(c.source, "ptxas") == 0 && !c.fallback);
    hd_regs_choose(&ptxas, &(struct hd_regs_known){0, 0, 20, false}, &c);
    HD_CHECK(t, c.regs == 20 && strcmp(c.source, "regalloc-fallback") == 0 && c.fallback);
    hd_regs_choose(&ptxas, &(struct hd_regs_known){0, 0, 7, true}, &c);
    HD_CHECK(t, c.regs == 7 && strcmp(c.source, "ptx") == 0 && c.fallback);
    hd_regs_choose(&ptxas, &(struct hd_regs_known){24, 40, 20, false}, &c);
    HD_CHECK(t, c.regs == 24 && strcmp(c.source, "given") == 0);
    hd_regs_choose(&ours, &(struct hd_regs_known){0, 40, 20, false}, &c);
    HD_CHECK(t, c.regs == 20 && strcmp(c.source, "regalloc") == 0 && !c.fallback);
    hd_regs_choose(&ours, &(struct hd_regs_known){12, 40, 20, false}, &c);
    HD_CHECK(t, c.regs == 12 && strcmp(c.source, "given") == 0);
    hd_regs_choose(&fixed, &(struct hd_regs_known){0, 40, 20, false}, &c);
    HD_CHECK(t, c.regs == 33 && strcmp(c.source, "config") == 0);
    /* the bank model: our physical registers as they are, folded into a smaller budget */
    HD_CHECK_U64(t, 19, hd_regs_bank_fold(19, 40));
    HD_CHECK_U64(t, 5, hd_regs_bank_fold(21, 16));
    HD_CHECK_U64(t, 0, hd_regs_bank_fold(16, 16));
    HD_CHECK_U64(t, 21, hd_regs_bank_fold(21, 0));
}

static void test_summary(struct hd_test_state *t)
{
    hd_test_begin(t, "ptxas summary: fields, comments; errors name file and line");
    static const char good[] = "# ptxas -v\n\nkernel=a registers=40 shared=2048 local=8\n"
                               "  kernel=b registers=255\n";
    struct hd_ptxas_kernel *k = NULL;
    unsigned n = 0;
    char err[256];
    HD_CHECK(t, hd_ptxas_parse(good, sizeof good - 1, "x.ptxas.txt", &k, &n, err, sizeof err) == 0);
    HD_CHECK_U64(t, 2, n);
    if (k && n == 2) {
        HD_CHECK(t, strcmp(k[0].name, "a") == 0 && k[0].registers == 40 && k[0].shared == 2048 &&
                        k[0].local == 8);
        HD_CHECK(t, strcmp(k[1].name, "b") == 0 && k[1].registers == 255);
    }
    free(k);
    HD_CHECK_U64(t, 40, (uint64_t)hd_ptxas_regs_of(good, sizeof good - 1, "a"));
    HD_CHECK(t, hd_ptxas_regs_of(good, sizeof good - 1, "c") == -1);
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"kernel=a registers=40\nkernel=b registers=forty\n", "s.txt:2: not a number: 'registers=forty'"},
        {"kernel=a registers=0\n", "s.txt:1: registers must be 1..255"},
        {"kernel=a registers=256\n", "s.txt:1: registers must be 1..255"},
        {"kernel=a\n", "s.txt:1: no registers= in"},
        {"registers=3\n", "s.txt:1: no kernel= in"},
        {"kernel=a registers=3 spills=2\n", "s.txt:1: unknown field 'spills=2'"},
        {"# c\nkernel=a registers=3\nkernel=a registers=4\n", "s.txt:3: kernel a is listed twice"},
        {"kernel=a registers 3\n", "s.txt:1: expected FIELD=VALUE"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        int rc = hd_ptxas_parse(bad[i].text, strlen(bad[i].text), "s.txt", &k, &n, err, sizeof err);
        HD_CHECK(t, rc == -1 && k == NULL && strstr(err, bad[i].msg) != NULL);
        if (rc == 0)
            free(k);
    }
}

/* sgemm-shaped occupancy on fermi: 256 threads, no shared memory */
static const char ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, %tid.x;\n"
    " add.s32 %r2, %r1, 1;\n st.global.u32 [%rd2], %r2;\n ret;\n}\n";

/* Launch k once (256 threads, 2 CTAs) and read the timing model's record of it. */
static int run_once(struct hd_gpu *gpu, struct hd_module *mod, struct hd_launch_timing *lt)
{
    hd_devptr buf = 0;
    int st = hd_malloc(gpu, &buf, 64);
    struct hd_arg a[1] = {HD_ARG(buf)};
    if (st == HD_OK)
        st = hd_launch(gpu, mod, "k", (struct hd_dim3){2, 1, 1}, (struct hd_dim3){256, 1, 1}, 0, 0,
                       a, 1);
    if (st == HD_OK)
        st = hd_synchronize(gpu);
    unsigned n = hd_gpu_launch_timing_count(gpu);
    if (st == HD_OK && n)
        st = hd_gpu_launch_timing(gpu, n - 1, lt);
    hd_free(gpu, buf);
    return st;
}

static void test_runtime(struct hd_test_state *t)
{
    hd_test_begin(t, "runtime: a ptxas summary and a count given by hand reach occupancy");
    char err[512];
    struct hd_gpu *gpu = hd_gpu_create(NULL, err, sizeof err);
    HD_CHECK(t, gpu != NULL);
    if (!gpu)
        return;
    struct hd_module *mod = NULL;
    HD_CHECK_U64(t, HD_OK, hd_module_load_text(gpu, ptx, sizeof ptx - 1, "k.ptx", &mod));
    struct hd_launch_timing lt;
    /* no count recorded: our allocator's, flagged */
    HD_CHECK_U64(t, HD_OK, run_once(gpu, mod, &lt));
    HD_CHECK(t, strcmp(lt.regs_source, "regalloc-fallback") == 0);
    HD_CHECK(t, lt.regs_per_thread == lt.regs_regalloc && lt.regs_regalloc > 0);
    /* ptxas's 40: 40 x 32 = 1280 per warp, 8 warps = 10240 per CTA; 32768 / 10240 = 3 CTAs */
    static const char sum[] = "kernel=k registers=40 shared=0 local=0\n";
    HD_CHECK_U64(t, HD_OK, hd_module_set_ptxas(gpu, mod, sum, sizeof sum - 1, "k.ptxas.txt"));
    HD_CHECK_U64(t, HD_OK, run_once(gpu, mod, &lt));
    HD_CHECK(t, strcmp(lt.regs_source, "ptxas") == 0 && lt.regs_per_thread == 40);
    HD_CHECK_U64(t, 3, lt.ctas_per_sm);
    /* given by hand: 63 -> roundup(63 x 32, 128) = 2048 per warp, 16384 per CTA: 2 CTAs */
    HD_CHECK_U64(t, HD_OK, hd_kernel_set_regs(gpu, mod, "k", 63));
    HD_CHECK_U64(t, HD_OK, run_once(gpu, mod, &lt));
    HD_CHECK(t, strcmp(lt.regs_source, "given") == 0 && lt.regs_per_thread == 63);
    HD_CHECK_U64(t, 2, lt.ctas_per_sm);
    /* bad input: errors name the limit, the kernel or the file and line */
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS, (uint64_t)(int64_t)hd_kernel_set_regs(gpu, mod, "k", 0));
    HD_CHECK(t, strstr(hd_last_error(gpu), "at least 1 register per thread (1 .. 63 on "
                                           "fermi-gtx480") != NULL);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS, (uint64_t)(int64_t)hd_kernel_set_regs(gpu, mod, "k", 64));
    HD_CHECK(t, strstr(hd_last_error(gpu), "more than the 63 registers per thread one thread may "
                                           "use on fermi-gtx480 ([sm] max_regs_per_thread)"));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS, (uint64_t)(int64_t)hd_kernel_set_regs(gpu, mod, "k", 300));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_NOT_FOUND,
                 (uint64_t)(int64_t)hd_kernel_set_regs(gpu, mod, "nope", 20));
    static const char other[] = "kernel=k registers=20\nkernel=zz registers=20\n";
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_NOT_FOUND,
                 (uint64_t)(int64_t)hd_module_set_ptxas(gpu, mod, other, sizeof other - 1, "o.txt"));
    HD_CHECK(t, strstr(hd_last_error(gpu), "o.txt: kernel zz is not in k.ptx") != NULL);
    static const char broken[] = "kernel=k registers=x\n";
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS,
                 (uint64_t)(int64_t)hd_module_set_ptxas(gpu, mod, broken, sizeof broken - 1, "b.txt"));
    HD_CHECK(t, strstr(hd_last_error(gpu), "b.txt:1:") != NULL);
    hd_gpu_destroy(gpu);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_parse(&t);
    test_choose(&t);
    test_summary(&t);
    test_runtime(&t);
    return hd_test_finish(&t);
}
