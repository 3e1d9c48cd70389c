/* SPDX-License-Identifier: MIT
 * func_testkit.h - helpers shared by the functional-model tests (test_func_*.c, test_runtime*.c):
 * wrap a kernel body in a PTX module, run it through the runtime API with an input and an output
 * buffer of 64-bit words, and compare results.
 *
 * A fragment is a whole .entry named `k` taking (.param .u64 out, .param .u64 in); kit_ptx()
 * prepends the module header. Header-only (static functions), so each test stays one file.
 */
#ifndef HD_FUNC_TESTKIT_H
#define HD_FUNC_TESTKIT_H

#include "heddle.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KIT_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

struct kit {
    struct hd_gpu *gpu;
    struct hd_test_state *t;
    int status;          /* of the last run */
    char err[2048];      /* hd_last_error() of the last failing run */
};

/* A GPU with the default configuration that runs launches on the functional model only (these
 * tests pin down functional semantics; the timing model has its own tests). The configuration
 * key [timing] mode selects the executor. */
static inline struct hd_gpu *kit_gpu(void)
{
    char err[512], path[] = "/tmp/hd_func_test_XXXXXX";
    static const char cfg[] = "[timing]\nmode = functional\n";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fwrite(cfg, 1, sizeof cfg - 1, f) != sizeof cfg - 1 || fclose(f) != 0) {
        fprintf(stderr, "kit_gpu: cannot write %s\n", path);
        exit(1);
    }
    struct hd_gpu *gpu = hd_gpu_create(path, err, sizeof err);
    remove(path);
    if (!gpu) {
        fprintf(stderr, "hd_gpu_create: %s\n", err);
        exit(1);
    }
    return gpu;
}

static inline void kit_open(struct kit *k, struct hd_test_state *t)
{
    memset(k, 0, sizeof *k);
    k->t = t;
    k->gpu = kit_gpu();
}

static inline void kit_close(struct kit *k)
{
    hd_gpu_destroy(k->gpu);
}

/* Run kernel `kernel` of `ptx` (a module body without header) with out/in buffers of
 * nout/nin 64-bit words (in may be NULL), grid/block x-sizes; out is copied back.
 * Returns the runtime status (message in k->err). */
static inline int kit_run_dims(struct kit *k, const char *body, const char *kernel,
                               struct hd_dim3 grid, struct hd_dim3 block, uint32_t dyn,
                               const uint64_t *in, size_t nin, uint64_t *out, size_t nout)
{
    size_t len = strlen(KIT_HEADER) + strlen(body);
    char *text = malloc(len + 1);
    strcpy(text, KIT_HEADER);
    strcat(text, body);
    struct hd_module *mod = NULL;
    hd_devptr dout = 0, din = 0;
    int st = hd_module_load_text(k->gpu, text, len, "frag.ptx", &mod);
    free(text);
    if (st == HD_OK)
        st = hd_malloc(k->gpu, &dout, (nout ? nout : 1) * 8);
    if (st == HD_OK)
        st = hd_malloc(k->gpu, &din, (nin ? nin : 1) * 8);
    if (st == HD_OK && nout)
        st = hd_memcpy_h2d(k->gpu, dout, out, nout * 8);
    if (st == HD_OK && nin)
        st = hd_memcpy_h2d(k->gpu, din, in, nin * 8);
    if (st == HD_OK) {
        struct hd_arg args[2] = {HD_ARG(dout), HD_ARG(din)};
        st = hd_launch(k->gpu, mod, kernel, grid, block, dyn, 0, args, 2);
    }
    if (st == HD_OK)
        st = hd_synchronize(k->gpu);
    if (st == HD_OK && nout)
        st = hd_memcpy_d2h(k->gpu, out, dout, nout * 8);
    k->status = st;
    if (st != HD_OK)
        snprintf(k->err, sizeof k->err, "%s", hd_last_error(k->gpu));
    hd_free(k->gpu, dout);
    hd_free(k->gpu, din);
    return st;
}

static inline int kit_run(struct kit *k, const char *body, unsigned threads, const uint64_t *in,
                          size_t nin, uint64_t *out, size_t nout)
{
    struct hd_dim3 g = {1, 1, 1}, b = {threads, 1, 1};
    return kit_run_dims(k, body, "k", g, b, 0, in, nin, out, nout);
}

/* {==== One thread, one instruction ==== */
/* kit_op() runs `code` in one thread of a kernel where the operands a, b, c are available in
 * every width: %a16/%a32/%a64 (integers), %fa (f32 bits = low 32 of a), %da (f64 bits = a),
 * %pa (a != 0), likewise b and c; destinations %d16 %d32 %d64 %fd %dd %p %q start at zero.
 * `result` names the register whose value is returned (zero-extended): one of
 * "d16" "d32" "d64" "fd" "dd" "p" "q". On a run failure returns 0xdeadbeefdeadbeef. */
#define KIT_OP_REGS                                                                                \
    "\t.reg .b16 %a16, %b16, %c16, %d16;\n"                                                          \
    "\t.reg .b32 %a32, %b32, %c32, %d32, %e32;\n"                                                    \
    "\t.reg .b64 %a64, %b64, %c64, %d64, %e64, %ro, %ri;\n"                                          \
    "\t.reg .f32 %fa, %fb, %fc, %fd;\n"                                                              \
    "\t.reg .f64 %da, %db, %dc, %dd;\n"                                                              \
    "\t.reg .pred %p, %q, %pa, %pb, %pc;\n"

static inline uint64_t kit_op(struct kit *k, const char *code, const char *result, uint64_t a,
                              uint64_t b, uint64_t c)
{
    static const char head[] =
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n" KIT_OP_REGS
        "\tld.param.u64 %ro, [out];\n\tld.param.u64 %ri, [in];\n"
        "\tld.global.u64 %a64, [%ri];\n\tld.global.u64 %b64, [%ri+8];\n"
        "\tld.global.u64 %c64, [%ri+16];\n"
        "\tcvt.u32.u64 %a32, %a64;\n\tcvt.u32.u64 %b32, %b64;\n\tcvt.u32.u64 %c32, %c64;\n"
        "\tcvt.u16.u64 %a16, %a64;\n\tcvt.u16.u64 %b16, %b64;\n\tcvt.u16.u64 %c16, %c64;\n"
        "\tmov.b32 %fa, %a32;\n\tmov.b32 %fb, %b32;\n\tmov.b32 %fc, %c32;\n"
        "\tmov.b64 %da, %a64;\n\tmov.b64 %db, %b64;\n\tmov.b64 %dc, %c64;\n"
        "\tsetp.ne.u64 %pa, %a64, 0;\n\tsetp.ne.u64 %pb, %b64, 0;\n\tsetp.ne.u64 %pc, %c64, 0;\n"
        "\tmov.u16 %d16, 0;\n\tmov.u32 %d32, 0;\n\tmov.u64 %d64, 0;\n"
        "\tmov.f32 %fd, 0f00000000;\n\tmov.f64 %dd, 0d0000000000000000;\n"
        "\tsetp.ne.u32 %p, 0, 0;\n\tsetp.ne.u32 %q, 0, 0;\n";
    const char *store;
    if (strcmp(result, "d16") == 0)
        store = "\tcvt.u64.u16 %e64, %d16;\n";
    else if (strcmp(result, "d32") == 0)
        store = "\tcvt.u64.u32 %e64, %d32;\n";
    else if (strcmp(result, "d64") == 0)
        store = "\tmov.b64 %e64, %d64;\n";
    else if (strcmp(result, "fd") == 0)
        store = "\tmov.b32 %e32, %fd;\n\tcvt.u64.u32 %e64, %e32;\n";
    else if (strcmp(result, "dd") == 0)
        store = "\tmov.b64 %e64, %dd;\n";
    else if (strcmp(result, "p") == 0)
        store = "\tselp.u64 %e64, 1, 0, %p;\n";
    else
        store = "\tselp.u64 %e64, 1, 0, %q;\n";
    size_t n = strlen(head) + strlen(code) + strlen(store) + 64;
    char *body = malloc(n);
    snprintf(body, n, "%s\t%s\n%s\tst.global.u64 [%%ro], %%e64;\n\tret;\n}\n", head, code, store);
    uint64_t in[3] = {a, b, c}, out[1] = {0};
    int st = kit_run(k, body, 1, in, 3, out, 1);
    free(body);
    if (st != HD_OK) {
        fprintf(stderr, "    kit_op '%s': status %d: %s\n", code, st, k->err);
        return 0xdeadbeefdeadbeefull;
    }
    return out[0];
}

/* Check one instruction's result, printing the instruction on failure. */
#define KIT_EXPECT(k, code, result, a, b, c, expected)                                             \
    do {                                                                                           \
        uint64_t kit_got_ = kit_op((k), (code), (result), (uint64_t)(a), (uint64_t)(b),            \
                                   (uint64_t)(c));                                                 \
        if (!HD_CHECK_U64((k)->t, (uint64_t)(expected), kit_got_))                                 \
            fprintf(stderr, "    in: %s  (a=0x%llx b=0x%llx c=0x%llx)\n", (code),                  \
                    (unsigned long long)(uint64_t)(a), (unsigned long long)(uint64_t)(b),          \
                    (unsigned long long)(uint64_t)(c));                                            \
    } while (0)
/* }==== */

/* Check that a run succeeded; print the runtime's message if not. */
#define KIT_OK(k, call)                                                                            \
    do {                                                                                           \
        int kit_st_ = (call);                                                                      \
        if (!HD_CHECK((k)->t, kit_st_ == HD_OK))                                                   \
            fprintf(stderr, "    status %d: %s\n", kit_st_, (k)->err);                            \
    } while (0)

static inline float kit_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t kit_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double kit_f64(uint64_t v)
{
    double f;
    memcpy(&f, &v, 8);
    return f;
}
static inline uint64_t kit_f64_bits(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

#endif
