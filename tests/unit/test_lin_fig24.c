/* SPDX-License-Identifier: MIT
 * test_lin_fig24.c - Lin's in-place context switching end to end in the GPU as the thesis's Fig
 * 2.4 draws it (thesis §2.3.1, digest §2.2, issue 24 item 8): on one SM of 1024 vector registers
 * and 48 KB (tests/lin/fig24.ini), K1 runs 3 TBs of 300 vector registers (480 threads x 20
 * registers) and 8 KB of shared memory; K2 arrives at a higher priority needing 2 TBs of 200
 * vector registers (320 threads x 20) and 10 KB. The register-file table is short, the
 * shared-memory table is not (3 x 8 + 2 x 10 = 44 KB), so one plan spills the registers of two
 * K1 TBs (the spill query's bottom-up windows, as the figure shows) and no shared memory: the
 * test asserts one preemption request, 2 CTAs switched, their register bytes written, 0 shared-
 * memory bytes written and 2 blocks kept in place, K2's 2 CTAs placed on the SM after that one
 * plan, both K1 contexts resumed on the same SM with the same shared-memory block (the
 * allocator's located error otherwise), every restored register equal to the saved one (save =
 * compressed checks it bit for bit), and both kernels' outputs equal to the CPU's - each thread
 * sums words of its CTA's shared memory over many iterations, so a block that moved or was
 * overwritten while its TB was away gives a wrong sum. With Lin's stop in place
 * (tests/lin/fig24_stop.ini, [context] inplace_stop, thesis 2.5.5) the same plan stops all three
 * K1 TBs: the same two spill the same register bytes, the third keeps registers and shared
 * memory (regs_kept 1, 3 blocks kept, no shared memory written) and saves its SIMT stacks, K2's
 * 2 CTAs are placed after that one plan, all three K1 TBs resume on their blocks (the allocator
 * and sm.c stop the run if a block moved) and both outputs verify. HD_FIG24_JSON=1 prints the
 * runs' statistics JSON (the preemption record) after the checks.
 */
#include "heddle.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each thread writes word tid of the CTA's dynamic shared memory (ctaid * 1000 + 7 * tid +
 * tag), waits at a barrier, then for iters iterations adds word (tid + i) % ntid; out[gid] = the
 * sum. Two entries with the same body: K1 and K2. */
#define BODY(NAME)                                                                           \
    ".visible .entry " NAME "(.param .u64 out, .param .u32 iters, .param .u32 tag)\n"        \
    "{\n"                                                                                    \
    "  .reg .pred %p<2>;\n"                                                                  \
    "  .reg .b32 %r<20>;\n"                                                                  \
    "  .reg .b64 %rd<6>;\n"                                                                  \
    "  ld.param.u64 %rd1, [out];\n"                                                          \
    "  ld.param.u32 %r1, [iters];\n"                                                         \
    "  ld.param.u32 %r17, [tag];\n"                                                          \
    "  mov.u32 %r2, %tid.x;\n"                                                               \
    "  mov.u32 %r3, %ntid.x;\n"                                                              \
    "  mov.u32 %r4, %ctaid.x;\n"                                                             \
    "  mov.u32 %r5, dsm;\n"                                                                  \
    "  shl.b32 %r6, %r2, 2;\n"                                                               \
    "  add.s32 %r7, %r5, %r6;\n"                                                             \
    "  mul.lo.s32 %r8, %r4, 1000;\n"                                                         \
    "  mad.lo.s32 %r8, %r2, 7, %r8;\n"                                                       \
    "  add.s32 %r8, %r8, %r17;\n"                                                            \
    "  st.shared.u32 [%r7], %r8;\n"                                                          \
    "  bar.sync 0;\n"                                                                        \
    "  mov.u32 %r9, 0;\n"                                                                    \
    "  mov.u32 %r10, 0;\n"                                                                   \
    NAME "_loop:\n"                                                                          \
    "  add.s32 %r11, %r2, %r10;\n"                                                           \
    "  rem.u32 %r12, %r11, %r3;\n"                                                           \
    "  shl.b32 %r13, %r12, 2;\n"                                                             \
    "  add.s32 %r14, %r5, %r13;\n"                                                           \
    "  ld.shared.u32 %r15, [%r14];\n"                                                        \
    "  add.s32 %r9, %r9, %r15;\n"                                                            \
    "  add.s32 %r10, %r10, 1;\n"                                                             \
    "  setp.lt.u32 %p1, %r10, %r1;\n"                                                        \
    "  @%p1 bra " NAME "_loop;\n"                                                            \
    "  mad.lo.s32 %r16, %r4, %r3, %r2;\n"                                                    \
    "  mul.wide.u32 %rd2, %r16, 4;\n"                                                        \
    "  cvta.to.global.u64 %rd3, %rd1;\n"                                                     \
    "  add.s64 %rd4, %rd3, %rd2;\n"                                                          \
    "  st.global.u32 [%rd4], %r9;\n"                                                         \
    "  ret;\n"                                                                               \
    "}\n"

static const char ptx[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                          ".extern .shared .align 16 .b8 dsm[];\n" BODY("fig24_k1") BODY("fig24_k2");

struct kspec {
    const char *name;
    uint32_t ctas, threads, smem, iters, tag;
    int32_t priority;
    uint64_t arrive;
};

static uint32_t expect(const struct kspec *k, uint32_t cta, uint32_t tid)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < k->iters; i++)
        acc += cta * 1000u + 7u * ((tid + i) % k->threads) + k->tag;
    return acc;
}

/* The number after `key` in the first preemption record, or UINT64_MAX. */
static uint64_t rec_field(const char *json, const char *key)
{
    const char *p = strstr(json, "\"preemptions\": [");
    if (!p || !(p = strstr(p, key)))
        return UINT64_MAX;
    return strtoull(p + strlen(key), NULL, 10);
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Run K1 then K2 (arriving at a higher priority) on the Fig 2.4 SM; the stats JSON in *json
 * (caller frees). Returns 0 when both outputs verified. */
static int run(struct hd_test_state *t, const char *ini, uint64_t kept, char **json)
{
    const struct kspec ks[2] = {{"fig24_k1", 3, 480, 8192, 120, 11, 0, 0},
                                {"fig24_k2", 2, 320, 10240, 40, 5, 1, 3000}};
    char err[512];
    *json = NULL;
    struct hd_gpu *gpu = hd_gpu_create(ini, err, sizeof err);
    if (!HD_CHECK(t, gpu != NULL)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    int rc = -1;
    struct hd_module *mod = NULL;
    hd_devptr out[2] = {0, 0};
    int stream[2] = {0, 0};
    if (!HD_CHECK_U64(t, HD_OK, hd_module_load_text(gpu, ptx, sizeof ptx - 1, "fig24", &mod)))
        goto done;
    for (int k = 0; k < 2; k++) {
        if (!HD_CHECK_U64(t, HD_OK, hd_kernel_set_regs(gpu, mod, ks[k].name, 20)) ||
            !HD_CHECK_U64(t, HD_OK, hd_malloc(gpu, &out[k], (size_t)ks[k].ctas * ks[k].threads * 4)) ||
            !HD_CHECK_U64(t, HD_OK, hd_stream_create(gpu, &stream[k])))
            goto done;
    }
    for (int k = 0; k < 2; k++) {
        const struct hd_launch_attr a = {ks[k].priority, ks[k].arrive, 0, 0};
        hd_set_launch_attr(gpu, &a);
        const struct hd_arg args[3] = {HD_ARG(out[k]), HD_ARG(ks[k].iters), HD_ARG(ks[k].tag)};
        if (!HD_CHECK_U64(t, HD_OK, hd_launch(gpu, mod, ks[k].name, (struct hd_dim3){ks[k].ctas, 1, 1},
                                              (struct hd_dim3){ks[k].threads, 1, 1}, ks[k].smem,
                                              stream[k], args, 3)))
            goto done;
    }
    if (!HD_CHECK_U64(t, HD_OK, hd_synchronize(gpu))) {
        fprintf(stderr, "%s\n", hd_last_error(gpu));
        goto done;
    }
    rc = 0;
    for (int k = 0; k < 2; k++) {
        const size_t n = (size_t)ks[k].ctas * ks[k].threads;
        uint32_t *h = malloc(n * 4);
        if (!h || hd_memcpy_d2h(gpu, h, out[k], n * 4) != HD_OK) {
            free(h);
            rc = -1;
            break;
        }
        size_t bad = 0;
        for (uint32_t c = 0; c < ks[k].ctas; c++)
            for (uint32_t i = 0; i < ks[k].threads; i++)
                bad += h[(size_t)c * ks[k].threads + i] != expect(&ks[k], c, i);
        free(h);
        if (!HD_CHECK_U64(t, 0, bad))
            rc = -1;
    }
    FILE *f = tmpfile();
    if (f && hd_gpu_write_stats_json(gpu, f) == HD_OK) {
        long len = ftell(f);
        *json = calloc((size_t)len + 1, 1);
        rewind(f);
        if (*json && fread(*json, 1, (size_t)len, f) != (size_t)len) {
            free(*json);
            *json = NULL;
        }
    }
    if (f)
        fclose(f);
    HD_CHECK(t, *json != NULL);
    uint64_t v = 0;
    if (HD_CHECK_U64(t, HD_OK, hd_gpu_stat(gpu, "sm.ctx_smem_inplace_saves", &v)))
        HD_CHECK_U64(t, kept, v); /* the victims' (and stopped TBs') shared memory stayed */
    if (HD_CHECK_U64(t, HD_OK, hd_gpu_stat(gpu, "sm.ctx_smem_inplace_resumes", &v)))
        HD_CHECK_U64(t, kept, v); /* and all came back to it */
done:
    hd_gpu_destroy(gpu);
    return rc;
}

int main(void)
{
    struct hd_test_state t = {0, 0, NULL};
    char *json = NULL;

    uint64_t regs = UINT64_MAX, stack = UINT64_MAX;
    hd_test_begin(&t, "Fig 2.4: one plan, registers of two K1 TBs out, no shared memory");
    if (HD_CHECK_U64(&t, 0, run(&t, "tests/lin/fig24.ini", 2, &json)) && json) {
        HD_CHECK_U64(&t, 1, count(json, "\"switched\": ")); /* one request: one plan */
        HD_CHECK_U64(&t, 2, rec_field(json, "\"switched\": "));
        HD_CHECK_U64(&t, 0, rec_field(json, "\"bytes_smem\": "));
        HD_CHECK_U64(&t, 2, rec_field(json, "\"smem_kept\": "));
        HD_CHECK_U64(&t, 2 * 8192, rec_field(json, "\"smem_kept_bytes\": "));
        regs = rec_field(json, "\"bytes_regs\": ");
        stack = rec_field(json, "\"bytes_stack\": ");
        HD_CHECK(&t, regs > 0 && regs != UINT64_MAX);
        HD_CHECK_U64(&t, 0, rec_field(json, "\"regs_kept\": "));
        HD_CHECK_U64(&t, 30, rec_field(json, "\"warp_spill_warps\": ")); /* 2 TBs x 15 warps */
        HD_CHECK(&t, strstr(json, "\"met\": true") != NULL);
    }
    if (getenv("HD_FIG24_JSON") && json)
        fputs(json, stdout);
    free(json);
    json = NULL;

    hd_test_begin(&t, "Fig 2.4, stop in place (2.5.5): all K1 TBs stop, the same two spill");
    if (HD_CHECK_U64(&t, 0, run(&t, "tests/lin/fig24_stop.ini", 3, &json)) && json) {
        HD_CHECK_U64(&t, 1, count(json, "\"switched\": ")); /* one request: one plan */
        HD_CHECK_U64(&t, 3, rec_field(json, "\"switched\": "));
        HD_CHECK_U64(&t, 1, rec_field(json, "\"regs_kept\": "));
        HD_CHECK_U64(&t, 0, rec_field(json, "\"bytes_smem\": "));
        HD_CHECK_U64(&t, 3, rec_field(json, "\"smem_kept\": "));
        /* the same two TBs' 2 x 15 warps save registers, the third's none; their bytes differ a
         * little (the warps reach their points at other iterations, other values compress) */
        HD_CHECK_U64(&t, 30, rec_field(json, "\"warp_spill_warps\": "));
        const uint64_t r2 = rec_field(json, "\"bytes_regs\": ");
        HD_CHECK(&t, regs != UINT64_MAX && r2 > 0 && r2 * 10 >= regs * 9 && r2 * 10 <= regs * 11);
        const uint64_t st = rec_field(json, "\"bytes_stack\": ");
        HD_CHECK(&t, stack != UINT64_MAX && st > stack); /* the third TB's stacks too */
        HD_CHECK(&t, strstr(json, "\"met\": true") != NULL);
    }
    if (getenv("HD_FIG24_JSON") && json)
        fputs(json, stdout);
    free(json);
    return hd_test_finish(&t);
}
