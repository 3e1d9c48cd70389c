/* SPDX-License-Identifier: MIT
 * wl_mutant_26b.c - the CPU references of new workloads catch a wrong kernel (issue 26,
 * acceptance: "a deliberately wrong PTX instruction (one operand changed) is reported as WRONG
 * RESULT with the first differing element").
 *
 * Cases: fwt, mvt, quasirandom (part B) and histo1024, sradv1 (issue 26's last Lin Table 2.2 rows).
 * For each case: the workload's embedded PTX runs unchanged through its driver (functional
 * model) and must verify; then one source operand of one instruction is replaced by another
 * register of the same kernel (the instruction text must occur exactly once in that kernel), the
 * driver runs on the mutated PTX and must return HD_WL_MISMATCH (what `heddle run` prints as
 * WRONG RESULT) with a message that locates the first differing element ("NAME[INDEX]:
 * expected X, got Y"). The mutations sit on paths every size executes.
 */
#include "testutil.h"
#include "workload.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mutant {
    const char *workload;
    const char *kernel; /* the entry whose body is mutated */
    const char *from;   /* one PTX instruction, exactly once in that body */
    const char *to;   /* the same with one source operand changed */
    const char *why;
};

static const struct mutant mutants[] = {
    {"fwt", "fwt_radix4_global", "sub.f32 \t%f4, %f2, %f1;", "sub.f32 \t%f4, %f2, %f2;",
     "fwt_radix4_global: a butterfly difference becomes 0"},
    {"mvt", "mvt_cols", "fma.rn.f32 \t%f15, %f14, %f13, %f12;",
     "fma.rn.f32 \t%f15, %f14, %f14, %f12;",
     "mvt_cols: one term of the chain multiplies A by A instead of y"},
    {"quasirandom", "qrng_generate", "xor.b32  \t%r52, %r51, %r48;", "xor.b32  \t%r52, %r51, %r51;",
     "qrng_generate: the XOR of direction numbers drops the bits so far"},
    {"histo1024", "histo1024_block", "sub.f32 \t%f4, %f3, %f1;", "sub.f32 \t%f4, %f3, %f3;",
     "histo1024_block: key - lo becomes 0, every key lands in bin 0"},
    {"sradv1", "sradv1_srad2", "fma.rn.f32 \t%f9, %f3, %f8, %f7;",
     "fma.rn.f32 \t%f9, %f3, %f3, %f7;",
     "sradv1_srad2: the west term multiplies c by c instead of the west difference"},
};

static int run_with(const struct hd_workload *w, const char *ptx, size_t len, char *err,
                    size_t errlen)
{
    char gerr[256];
    struct hd_gpu *gpu = hd_gpu_create(NULL, gerr, sizeof gerr);
    if (!gpu) {
        snprintf(err, errlen, "hd_gpu_create: %s", gerr);
        return -1;
    }
    hd_gpu_set_exec_mode(gpu, HD_EXEC_FUNCTIONAL);
    struct hd_wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = HD_WL_SMALL;
    ctx.ptx_text = ptx;
    ctx.ptx_len = len;
    ctx.ptx_name = hd_workload_ptx_path(w->name); /* same kernels: its ptxas summary applies */
    ctx.log = fopen("/dev/null", "w");
    if (!ctx.log)
        ctx.log = stderr;
    int rc = w->run(gpu, &ctx);
    if (ctx.log != stderr)
        fclose(ctx.log);
    snprintf(err, errlen, "%s", ctx.err);
    hd_gpu_destroy(gpu);
    return rc;
}

int main(void)
{
    struct hd_test_state t = {0};
    regex_t located;
    if (regcomp(&located, "[A-Za-z0-9_ ]+\\[[0-9]+\\]: expected [-0-9.e+naif]+( \\(0x[0-9a-f]+\\))?, got ",
                REG_EXTENDED))
        return 2;
    for (size_t i = 0; i < sizeof mutants / sizeof mutants[0]; i++) {
        const struct mutant *m = &mutants[i];
        hd_test_begin(&t, m->workload);
        const struct hd_workload *w = hd_workload_find(m->workload);
        size_t len = 0;
        const char *ptx = w ? hd_workload_ptx(w->name, &len) : NULL;
        if (!HD_CHECK(&t, w != NULL && ptx != NULL))
            continue;
        char entry[128];
        snprintf(entry, sizeof entry, ".entry %s(", m->kernel);
        const char *body = strstr(ptx, entry);
        const char *end = body ? strstr(body + 1, ".entry ") : NULL;
        const char *at = body ? strstr(body, m->from) : NULL;
        const char *again = at ? strstr(at + 1, m->from) : NULL;
        if (!HD_CHECK(&t, at != NULL && (end == NULL || at < end) &&
                              (again == NULL || (end != NULL && again > end)))) {
            fprintf(stderr, "  '%s' must occur exactly once in %s of %s (regenerated? update the "
                            "mutation)\n", m->from, m->kernel, m->workload);
            continue;
        }
        char err[4096]; /* a run's message (struct hd_wl_ctx err) */
        int rc = run_with(w, ptx, len, err, sizeof err);
        if (!HD_CHECK(&t, rc == HD_OK))
            fprintf(stderr, "  unmutated %s: rc %d: %s\n", m->workload, rc, err);

        size_t flen = strlen(m->from), tlen = strlen(m->to), pre = (size_t)(at - ptx);
        char *mut = malloc(len - flen + tlen + 1);
        if (!HD_CHECK(&t, mut != NULL))
            continue;
        memcpy(mut, ptx, pre);
        memcpy(mut + pre, m->to, tlen);
        memcpy(mut + pre + tlen, at + flen, len - pre - flen);
        mut[len - flen + tlen] = '\0';
        rc = run_with(w, mut, len - flen + tlen, err, sizeof err);
        HD_CHECK_U64(&t, (uint64_t)(int64_t)HD_WL_MISMATCH, (uint64_t)(int64_t)rc);
        if (!HD_CHECK(&t, regexec(&located, err, 0, NULL, 0) == 0))
            fprintf(stderr, "  %s mutant: message does not locate an element: '%s'\n",
                    m->workload, err);
        printf("%s (%s): %s\n", m->workload, m->why, err);
        free(mut);
    }
    regfree(&located);
    return hd_test_finish(&t);
}
