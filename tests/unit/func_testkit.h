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

#define KIT_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

struct kit {
    struct hd_gpu *gpu;
    struct hd_test_state *t;
    int status;          /* of the last run */
    char err[2048];      /* hd_last_error() of the last failing run */
};

static inline void kit_open(struct kit *k, struct hd_test_state *t)
{
    char err[512];
    memset(k, 0, sizeof *k);
    k->t = t;
    k->gpu = hd_gpu_create(NULL, err, sizeof err);
    if (!k->gpu) {
        fprintf(stderr, "hd_gpu_create: %s\n", err);
        exit(1);
    }
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
