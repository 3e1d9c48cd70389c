/* SPDX-License-Identifier: MIT
 * test_runtime.c - the runtime API (heddle.h) over the functional model: a real nvcc kernel
 * (vecadd) end to end, and the located errors: unknown kernel, wrong argument count and size,
 * out-of-bounds access, bad copy ranges, malformed PTX, module symbols, streams.
 */
#include "func_testkit.h"

#include <stdio.h>
#include <string.h>

static const char vecadd_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry vecadd(\n"
    "\t.param .u64 vecadd_param_0,\n\t.param .u64 vecadd_param_1,\n"
    "\t.param .u64 vecadd_param_2,\n\t.param .u32 vecadd_param_3\n)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .f32 %f<4>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<11>;\n"
    "\tld.param.u64 %rd1, [vecadd_param_0];\n"
    "\tld.param.u64 %rd2, [vecadd_param_1];\n"
    "\tld.param.u64 %rd3, [vecadd_param_2];\n"
    "\tld.param.u32 %r2, [vecadd_param_3];\n"
    "\tmov.u32 %r3, %ctaid.x;\n"
    "\tmov.u32 %r4, %ntid.x;\n"
    "\tmov.u32 %r5, %tid.x;\n"
    "\tmad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "\tsetp.ge.s32 %p1, %r1, %r2;\n"
    "\t@%p1 bra $L__BB0_2;\n"
    "\tcvta.to.global.u64 %rd4, %rd1;\n"
    "\tmul.wide.s32 %rd5, %r1, 4;\n"
    "\tadd.s64 %rd6, %rd4, %rd5;\n"
    "\tcvta.to.global.u64 %rd7, %rd2;\n"
    "\tadd.s64 %rd8, %rd7, %rd5;\n"
    "\tld.global.nc.f32 %f1, [%rd8];\n" /* line 30 */
    "\tld.global.nc.f32 %f2, [%rd6];\n"
    "\tadd.f32 %f3, %f2, %f1;\n"
    "\tcvta.to.global.u64 %rd9, %rd3;\n"
    "\tadd.s64 %rd10, %rd9, %rd5;\n"
    "\tst.global.f32 [%rd10], %f3;\n"
    "$L__BB0_2:\n"
    "\tret;\n"
    "}\n";

struct vecadd {
    struct hd_module *mod;
    hd_devptr a, b, c;
};

static int vecadd_setup(struct hd_gpu *gpu, struct vecadd *v, unsigned n)
{
    float ha[1000], hb[1000];
    for (unsigned i = 0; i < n; i++) {
        ha[i] = (float)i;
        hb[i] = 2.0f * (float)i + 0.5f;
    }
    int st = hd_module_load_text(gpu, vecadd_ptx, sizeof vecadd_ptx - 1, "vecadd.ptx", &v->mod);
    if (st == HD_OK)
        st = hd_malloc(gpu, &v->a, n * 4);
    if (st == HD_OK)
        st = hd_malloc(gpu, &v->b, n * 4);
    if (st == HD_OK)
        st = hd_malloc(gpu, &v->c, n * 4);
    if (st == HD_OK)
        st = hd_memcpy_h2d(gpu, v->a, ha, n * 4);
    if (st == HD_OK)
        st = hd_memcpy_h2d(gpu, v->b, hb, n * 4);
    return st;
}

static void test_vecadd(struct hd_test_state *t)
{
    hd_test_begin(t, "vecadd runs and verifies; streams and totals");
    struct hd_gpu *gpu = kit_gpu();
    struct vecadd v;
    unsigned n = 1000;
    HD_CHECK_U64(t, HD_OK, vecadd_setup(gpu, &v, n));
    int s1 = -1;
    HD_CHECK_U64(t, HD_OK, hd_stream_create(gpu, &s1));
    HD_CHECK_U64(t, 1, s1);
    struct hd_arg args[4] = {HD_ARG(v.a), HD_ARG(v.b), HD_ARG(v.c), HD_ARG(n)};
    struct hd_dim3 grid = {(n + 127) / 128, 1, 1}, block = {128, 1, 1};
    HD_CHECK_U64(t, HD_OK, hd_launch(gpu, v.mod, "vecadd", grid, block, 0, s1, args, 4));
    HD_CHECK_U64(t, HD_OK, hd_stream_synchronize(gpu, s1));
    float hc[1000];
    HD_CHECK_U64(t, HD_OK, hd_memcpy_d2h(gpu, hc, v.c, n * 4));
    unsigned bad = 0;
    for (unsigned i = 0; i < n; i++)
        bad += hc[i] != (float)i + (2.0f * (float)i + 0.5f);
    HD_CHECK_U64(t, 0, bad);
    struct hd_run_totals tot;
    hd_gpu_totals(gpu, &tot);
    HD_CHECK_U64(t, 1, tot.kernels);
    HD_CHECK_U64(t, 8, tot.ctas);
    HD_CHECK(t, tot.warp_instrs > 0 && tot.thread_instrs > tot.warp_instrs);
    hd_gpu_destroy(gpu);
}

static void test_not_found_and_args(struct hd_test_state *t)
{
    hd_test_begin(t, "unknown kernel -> NOT_FOUND naming it; wrong arguments -> ARGS");
    struct hd_gpu *gpu = kit_gpu();
    struct vecadd v;
    unsigned n = 64;
    HD_CHECK_U64(t, HD_OK, vecadd_setup(gpu, &v, n));
    struct hd_arg args[4] = {HD_ARG(v.a), HD_ARG(v.b), HD_ARG(v.c), HD_ARG(n)};
    struct hd_dim3 g = {1, 1, 1}, b = {64, 1, 1};
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_NOT_FOUND,
                 (uint64_t)(int64_t)hd_launch(gpu, v.mod, "vecad", g, b, 0, 0, args, 4));
    HD_CHECK(t, strstr(hd_last_error(gpu), "'vecad'") != NULL);
    HD_CHECK(t, strstr(hd_last_error(gpu), "vecadd") != NULL); /* lists the kernels */
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS,
                 (uint64_t)(int64_t)hd_launch(gpu, v.mod, "vecadd", g, b, 0, 0, args, 3));
    HD_CHECK(t, strstr(hd_last_error(gpu), "vecadd: expects 4 arguments, got 3") != NULL);
    uint64_t wide_n = n;
    struct hd_arg bad[4] = {HD_ARG(v.a), HD_ARG(v.b), HD_ARG(v.c), HD_ARG(wide_n)};
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS,
                 (uint64_t)(int64_t)hd_launch(gpu, v.mod, "vecadd", g, b, 0, 0, bad, 4));
    HD_CHECK(t, strstr(hd_last_error(gpu), "argument 3 (vecadd_param_3) is 8 bytes") != NULL);
    struct hd_dim3 huge = {2048, 1, 1};
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS,
                 (uint64_t)(int64_t)hd_launch(gpu, v.mod, "vecadd", g, huge, 0, 0, args, 4));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS,
                 (uint64_t)(int64_t)hd_launch(gpu, v.mod, "vecadd", g, b, 0, 7, args, 4));
    HD_CHECK(t, strstr(hd_last_error(gpu), "stream 7") != NULL);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_ARGS,
                 (uint64_t)(int64_t)hd_launch(gpu, v.mod, "vecadd", g, b, 1u << 20, 0, args, 4));
    HD_CHECK(t, strstr(hd_last_error(gpu), "shared memory") != NULL);
    hd_gpu_destroy(gpu);
}

static void test_fault(struct hd_test_state *t)
{
    hd_test_begin(t, "out-of-bounds load -> FAULT with kernel, thread, block, address, PTX line");
    struct hd_gpu *gpu = kit_gpu();
    struct vecadd v;
    unsigned n = 100;
    HD_CHECK_U64(t, HD_OK, vecadd_setup(gpu, &v, n));
    unsigned lie = 200; /* more elements than allocated */
    struct hd_arg args[4] = {HD_ARG(v.a), HD_ARG(v.b), HD_ARG(v.c), HD_ARG(lie)};
    struct hd_dim3 g = {2, 1, 1}, b = {128, 1, 1};
    HD_CHECK_U64(t, HD_OK, hd_launch(gpu, v.mod, "vecadd", g, b, 0, 0, args, 4));
    int st = hd_synchronize(gpu);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_FAULT, (uint64_t)(int64_t)st);
    const char *msg = hd_last_error(gpu);
    char want[128];
    /* thread 100 of block 0 is the first to read b[100], just past the 400-byte allocation */
    snprintf(want, sizeof want, "at 0x%llx", (unsigned long long)(v.b + 400));
    HD_CHECK(t, strstr(msg, "vecadd: out-of-bounds global load of 4 bytes") == msg);
    HD_CHECK(t, strstr(msg, want) != NULL);
    HD_CHECK(t, strstr(msg, "by thread (100,0,0) of block (0,0,0)") != NULL);
    HD_CHECK(t, strstr(msg, "vecadd.ptx:30") != NULL);
    HD_CHECK(t, strstr(msg, "PC 15") != NULL);
    if (t->failures)
        fprintf(stderr, "    message: %s\n", msg);
    /* the queue was dropped: the GPU is usable again */
    HD_CHECK_U64(t, HD_OK, hd_synchronize(gpu));
    hd_gpu_destroy(gpu);
}

static void test_memory_errors(struct hd_test_state *t)
{
    hd_test_begin(t, "bad memcpy/memset/free ranges -> MEMORY");
    struct hd_gpu *gpu = kit_gpu();
    hd_devptr p = 0, q = 0;
    uint8_t buf[512] = {0};
    HD_CHECK_U64(t, HD_OK, hd_malloc(gpu, &p, 300));
    HD_CHECK_U64(t, HD_OK, hd_malloc(gpu, &q, 300));
    HD_CHECK_U64(t, 0, p % 256);
    HD_CHECK(t, p != 0 && q != p);
    HD_CHECK_U64(t, HD_OK, hd_memcpy_h2d(gpu, p, buf, 300));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_memcpy_h2d(gpu, p, buf, 301));
    HD_CHECK(t, strstr(hd_last_error(gpu), "hd_memcpy_h2d") != NULL);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_memcpy_d2h(gpu, buf, p + 200, 101));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_memcpy_d2h(gpu, buf, 12345, 4));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_memset(gpu, q - 1, 0, 4));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_free(gpu, p + 4));
    HD_CHECK_U64(t, HD_OK, hd_memset(gpu, q, 0xab, 300));
    HD_CHECK_U64(t, HD_OK, hd_memcpy_d2h(gpu, buf, q + 299, 1));
    HD_CHECK_U64(t, 0xab, buf[0]);
    HD_CHECK_U64(t, HD_OK, hd_free(gpu, p));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_free(gpu, p)); /* double free */
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_memcpy_h2d(gpu, p, buf, 4)); /* freed */
    HD_CHECK_U64(t, HD_OK, hd_free(gpu, 0));
    hd_devptr big = 0;
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_malloc(gpu, &big, (size_t)1 << 40));
    hd_gpu_destroy(gpu);
}

static void test_ptx_error_and_symbols(struct hd_test_state *t)
{
    hd_test_begin(t, "malformed PTX -> PTX error with file:line; module symbols and const data");
    struct hd_gpu *gpu = kit_gpu();
    struct hd_module *mod = NULL;
    static const char bad[] = KIT_HEADER ".visible .entry k()\n{\n\tfoo.bar %r1;\n}\n";
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_PTX,
                 (uint64_t)(int64_t)hd_module_load_text(gpu, bad, sizeof bad - 1, "bad.ptx", &mod));
    HD_CHECK(t, strstr(hd_last_error(gpu), "bad.ptx:6:") != NULL);
    static const char good[] = KIT_HEADER
        ".const .align 4 .b8 table[8] = {1, 0, 0, 0, 2, 0, 0, 0};\n"
        ".global .align 8 .u64 counter = 5;\n"
        ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
        "\tld.param.u64 %rd1, [out];\n"
        "\tld.const.u32 %r1, [table+4];\n"
        "\tld.global.u64 %rd2, [counter];\n"
        "\tcvt.u32.u64 %r2, %rd2;\n"
        "\tadd.s32 %r1, %r1, %r2;\n"
        "\tst.global.u32 [%rd1], %r1;\n"
        "\tret;\n}\n";
    HD_CHECK_U64(t, HD_OK, hd_module_load_text(gpu, good, sizeof good - 1, "good.ptx", &mod));
    hd_devptr a = 0, out = 0;
    size_t bytes = 0;
    HD_CHECK_U64(t, HD_OK, hd_module_symbol(gpu, mod, "counter", &a, &bytes));
    HD_CHECK_U64(t, 8, bytes);
    uint64_t seven = 7;
    HD_CHECK_U64(t, HD_OK, hd_memcpy_h2d(gpu, a, &seven, 8));
    HD_CHECK_U64(t, HD_OK, hd_module_symbol(gpu, mod, "table", &a, &bytes));
    HD_CHECK_U64(t, 8, bytes);
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_NOT_FOUND,
                 (uint64_t)(int64_t)hd_module_symbol(gpu, mod, "nope", &a, &bytes));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_MEMORY, (uint64_t)(int64_t)hd_free(gpu, a));
    HD_CHECK_U64(t, HD_OK, hd_malloc(gpu, &out, 4));
    struct hd_arg args[1] = {HD_ARG(out)};
    struct hd_dim3 one = {1, 1, 1};
    HD_CHECK_U64(t, HD_OK, hd_launch(gpu, mod, "k", one, one, 0, 0, args, 1));
    uint32_t r = 0;
    HD_CHECK_U64(t, HD_OK, hd_memcpy_d2h(gpu, &r, out, 4));
    HD_CHECK_U64(t, 9, r);
    hd_gpu_destroy(gpu);
}

static void test_config(struct hd_test_state *t)
{
    hd_test_begin(t, "hd_gpu_create: bad config path, SM count from the config (%smid round-robin)");
    char err[512] = "";
    struct hd_gpu *bad = hd_gpu_create("/nonexistent/heddle.ini", err, sizeof err);
    HD_CHECK(t, bad == NULL);
    HD_CHECK(t, strstr(err, "/nonexistent/heddle.ini") != NULL);
    char path[] = "/tmp/hd_rt_test_XXXXXX";
    static const char cfg[] = "[gpu]\nnum_sms = 4\n[timing]\nmode = functional\n";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    HD_CHECK(t, f != NULL);
    if (!f)
        return;
    fputs(cfg, f);
    fclose(f);
    struct hd_gpu *gpu = hd_gpu_create(path, err, sizeof err);
    remove(path);
    if (!HD_CHECK(t, gpu != NULL)) {
        fprintf(stderr, "    %s\n", err);
        return;
    }
    static const char ptx[] = KIT_HEADER
        ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %smid;\n"
        "\tmov.u32 %r3, %nsmid;\n\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
        "\tst.global.v2.u32 [%rd3], {%r2, %r3};\n\tret;\n}\n";
    struct hd_module *mod = NULL;
    hd_devptr out = 0;
    HD_CHECK_U64(t, HD_OK, hd_module_load_text(gpu, ptx, sizeof ptx - 1, "smid.ptx", &mod));
    HD_CHECK_U64(t, HD_OK, hd_malloc(gpu, &out, 6 * 8));
    struct hd_arg args[1] = {HD_ARG(out)};
    struct hd_dim3 g = {6, 1, 1}, b = {1, 1, 1};
    HD_CHECK_U64(t, HD_OK, hd_launch(gpu, mod, "k", g, b, 0, 0, args, 1));
    uint32_t r[12] = {0};
    HD_CHECK_U64(t, HD_OK, hd_memcpy_d2h(gpu, r, out, sizeof r));
    unsigned bad_sm = 0;
    for (unsigned i = 0; i < 6; i++)
        bad_sm += r[2 * i] != i % 4 || r[2 * i + 1] != 4;
    HD_CHECK_U64(t, 0, bad_sm);
    hd_gpu_destroy(gpu);
}

static void test_unsupported(struct hd_test_state *t)
{
    hd_test_begin(t, "an unmodelled instruction fails only when executed, naming it and its line");
    struct hd_gpu *gpu = kit_gpu();
    static const char ptx[] = KIT_HEADER
        ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
        "\t.reg .b16 %h<3>;\n\t.reg .b32 %r<2>;\n\t.reg .pred %p1;\n"
        "\tld.param.u32 %r1, [n];\n"
        "\tsetp.eq.u32 %p1, %r1, 0;\n"
        "\t@%p1 bra $Ldone;\n"
        "\tex2.approx.f16 %h1, %h2;\n"
        "$Ldone:\n"
        "\tret;\n}\n";
    struct hd_module *mod = NULL;
    HD_CHECK_U64(t, HD_OK, hd_module_load_text(gpu, ptx, sizeof ptx - 1, "f16.ptx", &mod));
    hd_devptr out = 0;
    uint32_t n = 0;
    struct hd_arg args[2] = {HD_ARG(out), HD_ARG(n)};
    struct hd_dim3 one = {1, 1, 1};
    HD_CHECK_U64(t, HD_OK, hd_launch(gpu, mod, "k", one, one, 0, 0, args, 2));
    HD_CHECK_U64(t, HD_OK, hd_synchronize(gpu));
    n = 1;
    HD_CHECK_U64(t, HD_OK, hd_launch(gpu, mod, "k", one, one, 0, 0, args, 2));
    HD_CHECK_U64(t, (uint64_t)(int64_t)HD_ERR_UNSUPPORTED, (uint64_t)(int64_t)hd_synchronize(gpu));
    const char *msg = hd_last_error(gpu);
    if (!HD_CHECK(t, strstr(msg, "unsupported instruction 'ex2.approx.f16") != NULL && strstr(msg, "f16.ptx:12") != NULL))
        fprintf(stderr, "    %s\n", msg);
    hd_gpu_destroy(gpu);
}

int main(void)
{
    struct hd_test_state t = {0};
    test_vecadd(&t);
    test_not_found_and_args(&t);
    test_fault(&t);
    test_memory_errors(&t);
    test_ptx_error_and_symbols(&t);
    test_config(&t);
    test_unsupported(&t);
    return hd_test_finish(&t);
}
