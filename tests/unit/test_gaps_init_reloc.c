/* SPDX-License-Identifier: MIT
 * test_gaps_init_reloc.c - addresses in variable initializers (`.u64 p = generic(v)+8`, what
 * nvcc writes for `__device__ int *p = &v[2];`) are filled in when a module is loaded.
 *
 * The kernels are real nvcc 13 output (tests/ptx/good/initptr.cu/.ptx): pointers to __device__
 * and __constant__ data in .global and .const variables, an array of pointers in constant memory
 * indexed per thread, a pointer to a pointer, and a linked list of structs whose `next` fields are
 * addresses; the expected values follow from the C source. Hand-written fragments cover the plain
 * `sym + N` form, a .const pointer variable's bytes as seen by the host, and the errors: a 32-bit
 * address variable (addresses do not fit 32 bits) and the address of a .shared variable.
 * Runs on the functional executor (func_testkit.h).
 */
#include "func_testkit.h"

#define CORPUS "tests/ptx/good/initptr.ptx"

static uint64_t sym_addr(struct kit *k, struct hd_module *mod, const char *name)
{
    hd_devptr a = 0;
    size_t bytes = 0;
    if (!HD_CHECK(k->t, hd_module_symbol(k->gpu, mod, name, &a, &bytes) == HD_OK))
        fprintf(stderr, "    symbol %s: %s\n", name, hd_last_error(k->gpu));
    return a;
}

static uint64_t read_u64(struct kit *k, uint64_t addr)
{
    uint64_t v = 0;
    if (!HD_CHECK(k->t, hd_memcpy_d2h(k->gpu, &v, addr, 8) == HD_OK))
        fprintf(stderr, "    read 0x%llx: %s\n", (unsigned long long)addr, hd_last_error(k->gpu));
    return v;
}

static int launch1(struct kit *k, struct hd_module *mod, const char *kernel, unsigned threads,
                   const struct hd_arg *args, unsigned nargs)
{
    struct hd_dim3 g = {1, 1, 1}, b = {threads, 1, 1};
    int st = hd_launch(k->gpu, mod, kernel, g, b, 0, 0, args, nargs);
    if (st == HD_OK)
        st = hd_synchronize(k->gpu);
    if (st != HD_OK)
        snprintf(k->err, sizeof k->err, "%s", hd_last_error(k->gpu));
    return st;
}

static void test_nvcc_pointers(struct kit *k)
{
    hd_test_begin(k->t, "nvcc pointer initializers: generic(v)+N in .global and .const variables");
    struct hd_module *mod = NULL;
    int st = hd_module_load_file(k->gpu, CORPUS, &mod);
    if (!HD_CHECK(k->t, st == HD_OK)) {
        fprintf(stderr, "    %s: %s\n", CORPUS, hd_last_error(k->gpu));
        return;
    }
    /* the stored words themselves */
    uint64_t v = sym_addr(k, mod, "g_v"), p = sym_addr(k, mod, "g_p");
    uint64_t c_tab = sym_addr(k, mod, "c_tab"), c_ptrs = sym_addr(k, mod, "c_ptrs");
    HD_CHECK_U64(k->t, v + 8, read_u64(k, p));
    HD_CHECK_U64(k->t, p, read_u64(k, sym_addr(k, mod, "g_pp")));
    HD_CHECK_U64(k->t, sym_addr(k, mod, "g_d"), read_u64(k, sym_addr(k, mod, "g_dp")));
    HD_CHECK_U64(k->t, c_tab + 4, read_u64(k, sym_addr(k, mod, "g_cp")));
    HD_CHECK_U64(k->t, c_tab + 8, read_u64(k, c_ptrs));
    HD_CHECK_U64(k->t, c_tab, read_u64(k, c_ptrs + 8));
    HD_CHECK_U64(k->t, v + 12, read_u64(k, c_ptrs + 16));
    uint64_t n1 = sym_addr(k, mod, "g_n1"), heads = sym_addr(k, mod, "g_heads");
    HD_CHECK_U64(k->t, 200, read_u64(k, n1));          /* plain values around the addresses */
    HD_CHECK_U64(k->t, sym_addr(k, mod, "g_n2"), read_u64(k, n1 + 8));
    HD_CHECK_U64(k->t, 250, read_u64(k, n1 + 16));
    HD_CHECK_U64(k->t, n1 + 16, read_u64(k, heads + 8));

    /* kernels reading through them */
    hd_devptr dout = 0;
    uint64_t out[8];
    KIT_OK(k, hd_malloc(k->gpu, &dout, sizeof out));
    KIT_OK(k, hd_memset(k->gpu, dout, 0xff, sizeof out));
    struct hd_arg a1[1] = {HD_ARG(dout)};
    KIT_OK(k, launch1(k, mod, "read_ptrs", 32, a1, 1));
    KIT_OK(k, hd_memcpy_d2h(k->gpu, out, dout, sizeof out));
    static const uint64_t want[8] = {30, 40, 30, 10, 8, 9, 7, 40};
    for (int i = 0; i < 8; i++)
        if (!HD_CHECK_U64(k->t, want[i], out[i]))
            fprintf(stderr, "    read_ptrs out[%d]\n", i);

    static const uint64_t sum[3] = {600, 550, 300}, len[3] = {3, 2, 1};
    for (int32_t start = 0; start < 3; start++) {
        struct hd_arg a2[2] = {HD_ARG(dout), HD_ARG(start)};
        KIT_OK(k, launch1(k, mod, "walk_list", 1, a2, 2));
        KIT_OK(k, hd_memcpy_d2h(k->gpu, out, dout, 16));
        HD_CHECK_U64(k->t, sum[start], out[0]);
        HD_CHECK_U64(k->t, len[start], out[1]);
    }
    /* each walk_list incremented g_v[2] through g_p */
    uint32_t g_v2 = 0;
    KIT_OK(k, hd_memcpy_d2h(k->gpu, &g_v2, v + 8, 4));
    HD_CHECK_U64(k->t, 33, g_v2);
    hd_free(k->gpu, dout);
}

/* A module with the given declarations and a kernel storing the u64 at `src` into out[0]. */
static int run_decl(struct kit *k, const char *decls, const char *load, uint64_t *got)
{
    char body[2048];
    snprintf(body, sizeof body,
             "%s\n.visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
             "\t.reg .b64 %%rd<4>;\n\tld.param.u64 %%rd1, [out];\n\t%s\n"
             "\tst.global.u64 [%%rd1], %%rd2;\n\tret;\n}\n",
             decls, load);
    uint64_t out[1] = {0};
    int st = kit_run(k, body, 1, NULL, 0, out, 1);
    *got = out[0];
    return st;
}

static void test_plain_forms(struct kit *k)
{
    uint64_t got = 0;
    hd_test_begin(k->t, "plain `sym + N`, negative offsets, .const pointers, loads through them");
    /* p = v + 4: load p, then the word it points at (v[1]) */
    KIT_OK(k, run_decl(k,
                       ".global .align 4 .u32 v[4] = {5, 6, 7, 8};\n"
                       ".global .align 8 .u64 p[2] = {v + 4, v + 12};",
                       "ld.global.u64 %rd2, [p+8];\n\tld.global.u32 %rd2, [%rd2];", &got));
    HD_CHECK_U64(k->t, 8, got);
    /* generic(v) - 4 + 8 walks back and forth: p = generic(v)+8 read at -4 */
    KIT_OK(k, run_decl(k,
                       ".global .align 4 .u32 v[4] = {5, 6, 7, 8};\n"
                       ".const .align 8 .u64 q = generic(v)+8;",
                       "ld.const.u64 %rd2, [q];\n\tld.u32 %rd2, [%rd2+-4];", &got));
    HD_CHECK_U64(k->t, 6, got);
    KIT_OK(k, run_decl(k,
                       ".const .align 4 .u32 c[3] = {11, 12, 13};\n"
                       ".global .align 8 .u64 r = c - 4;",
                       "ld.global.u64 %rd2, [r];\n\tld.const.u32 %rd2, [%rd2+12];", &got));
    HD_CHECK_U64(k->t, 13, got);
}

static void test_errors(struct kit *k)
{
    uint64_t got = 0;
    hd_test_begin(k->t, "addresses that cannot be stored: 32-bit variables, .shared variables");
    int st = run_decl(k, ".global .align 4 .u32 v = 1;\n.global .align 4 .u32 p32 = v;",
                      "mov.u64 %rd2, 0;", &got);
    HD_CHECK(k->t, st == HD_ERR_UNSUPPORTED);
    if (!HD_CHECK(k->t, strstr(k->err, "frag.ptx:5:") && strstr(k->err, "'p32'") &&
                            strstr(k->err, "32 bits")))
        fprintf(stderr, "    got: %s\n", k->err);
    st = run_decl(k, ".shared .align 4 .u32 s[4];\n.global .align 8 .u64 ps = generic(s);",
                  "mov.u64 %rd2, 0;", &got);
    HD_CHECK(k->t, st == HD_ERR_UNSUPPORTED);
    if (!HD_CHECK(k->t, strstr(k->err, "frag.ptx:5:") && strstr(k->err, "'ps'") &&
                            strstr(k->err, ".shared")))
        fprintf(stderr, "    got: %s\n", k->err);
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_nvcc_pointers(&k);
    test_plain_forms(&k);
    test_errors(&k);
    kit_close(&k);
    return hd_test_finish(&t);
}
