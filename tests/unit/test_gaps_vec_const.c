/* SPDX-License-Identifier: MIT
 * test_gaps_vec_const.c - constants inside the source vector of a packing mov, as cuda_bf16.h's
 * inline PTX writes them (`mov.b32 %f2, {0, %rs42};` turns a bfloat16 into a float): the front end
 * accepts integer and 0f constants there, rejects them elsewhere (other opcodes, destinations,
 * values wider than the element), prints them back, and the functional model packs them. Also
 * the predicate constants of mov.pred: 0, 1 and -1 (true, as nvcc -G writes it).
 */
#include "func_testkit.h"
#include "ptx_parse.h"

#define E(code, res, a, b, want) KIT_EXPECT(k, code, res, a, b, 0, want)

static void test_execute(struct kit *k)
{
    hd_test_begin(k->t, "mov packing with constant elements");
    E("mov.b32 %d32, {0, %a16};", "d32", 0xbf80, 0, 0xbf800000u); /* bf16 -1.0 -> f32 */
    E("mov.b32 %fd, {0, %a16};", "fd", 0x3fc0, 0, 0x3fc00000u);    /* into an f32 register */
    E("mov.b32 %d32, {%a16, 0x3c00};", "d32", 0x1234, 0, 0x3c001234u);
    E("mov.b64 %d64, {%a32, 0f3F800000};", "d64", 0xdeadbeefu, 0, 0x3f800000deadbeefull);
    E("mov.b64 %d64, {1, 2, 3, -1};", "d64", 0, 0, 0xffff000300020001ull);
    E("mov.b64 %d64, {-2, %b32};", "d64", 0, 7, 0x00000007fffffffeull);
    hd_test_begin(k->t, "mov.pred with the constants 0, 1 and -1");
    E("mov.pred %p, -1;", "p", 0, 0, 1);
    E("mov.pred %p, 1;", "p", 0, 0, 1);
    E("mov.pred %p, -1;\n\tmov.pred %p, 0;", "p", 0, 0, 0);
}

static const char *parse_one(const char *code, char *out, size_t outlen)
{
    static char err[1024];
    char text[1024];
    snprintf(text, sizeof text,
             "%s.visible .entry k(.param .u64 p)\n{\n\t.reg .b16 %%h<3>;\n\t.reg .b32 %%r<3>;\n"
             "\t.reg .b64 %%rd<3>;\n\t.reg .f32 %%f<3>;\n\t.reg .pred %%p<2>;\n"
             "\t.reg .b128 %%q<2>;\n"
             "\t%s\n\tret;\n}\n",
             KIT_HEADER, code);
    struct hd_module *m = hd_ptx_parse(text, strlen(text), "v.ptx", err, sizeof err);
    if (!m)
        return err;
    hd_ptx_format_instr(&m->funcs[0], &m->funcs[0].instrs[0], out, outlen);
    hd_ptx_module_free(m);
    return NULL;
}

static void expect_print(struct hd_test_state *t, const char *code, const char *want)
{
    char out[256] = "";
    const char *err = parse_one(code, out, sizeof out);
    if (!HD_CHECK(t, err == NULL && strcmp(out, want) == 0))
        fprintf(stderr, "    '%s': %s (want '%s')\n", code, err ? err : out, want);
}

static void expect_error(struct hd_test_state *t, const char *code, const char *where,
                         const char *what)
{
    char out[256];
    const char *err = parse_one(code, out, sizeof out);
    if (!HD_CHECK(t, err != NULL && strstr(err, where) && strstr(err, what)))
        fprintf(stderr, "    '%s': %s (want %s ... %s)\n", code, err ? err : "parsed", where, what);
}

static void test_front_end(struct hd_test_state *t)
{
    hd_test_begin(t, "vector constants: printed back, and rejected where PTX has none");
    expect_print(t, "mov.b32 %f1, {0, %h1};", "mov.b32 %f1, {0, %h1};");
    expect_print(t, "mov.b64 %rd1, {%r1, 0f3F800000};", "mov.b64 %rd1, {%r1, 1065353216};");
    expect_print(t, "mov.b64 %rd1, {1, 2, 3, -1};", "mov.b64 %rd1, {1, 2, 3, 65535};");
    /* the instruction starts at line 12, column 2 of the generated text */
    expect_error(t, "st.global.v2.u32 [%rd1], {%r1, 0};", "v.ptx:12:27:",
                 "only allowed in a packing mov");
    expect_error(t, "mov.b32 {%h1, 0}, %r1;", "v.ptx:12:10:", "cannot be a destination");
    expect_error(t, "mov.b32 %r1, {70000, %h1};", "v.ptx:12:15:", "does not fit a 16-bit element");
    expect_error(t, "mov.b32 %r1, {0f3F800000, %h1};", "v.ptx:12:15:",
                 "does not fit a 16-bit element");
    expect_error(t, "mov.b64 %rd1, {0x100000000, %r1};", "v.ptx:12:17:", "must fit 32 bits");
    expect_error(t, "mov.b128 %q1, {1, %rd2};", "v.ptx:12:16:", "128-bit vector");
    expect_error(t, "mov.pred %p1, 2;", "v.ptx:12:16:", "expected a predicate register");
    expect_error(t, "mov.b64 %rd1, {1.5, %r1};", "v.ptx:12:17:",
                 "expected a register or constant in the vector");
}

int main(void)
{
    struct hd_test_state t = {0};
    struct kit k;
    kit_open(&k, &t);
    test_execute(&k);
    test_front_end(&t);
    kit_close(&k);
    return hd_test_finish(&t);
}
