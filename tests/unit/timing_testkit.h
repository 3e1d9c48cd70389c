/* SPDX-License-Identifier: MIT
 * timing_testkit.h - helpers for the timing-model tests: a GPU from a few configuration
 * overrides, PTX kernels given as C strings, launches and their cycle counts.
 *
 * Design: heddle.h only takes configuration files, so tkit_gpu() writes the overrides (INI text;
 * every other key keeps its default) to a private temporary file, creates the GPU from it and
 * removes the file. Kernels are loaded from text; tkit_launch() queues one launch with up to 8
 * pointer/u32 arguments; tkit_cycles() runs everything queued and returns the cycles of launch
 * `index` (first CTA placed to last CTA finished).
 */
#ifndef HD_TIMING_TESTKIT_H
#define HD_TIMING_TESTKIT_H

#include "heddle.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A GPU with INI overrides (NULL: defaults). Exits the test on failure (nothing else can run). */
static inline struct hd_gpu *tkit_gpu(const char *ini)
{
    char err[1024] = "";
    char path[] = "/tmp/hd-timing-test-XXXXXX";
    const char *cfg = NULL;
    if (ini) {
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            fprintf(stderr, "cannot write a temporary configuration\n");
            exit(1);
        }
        fputs(ini, f);
        fclose(f);
        cfg = path;
    }
    struct hd_gpu *g = hd_gpu_create(cfg, err, sizeof err);
    if (cfg)
        unlink(path);
    if (!g) {
        fprintf(stderr, "hd_gpu_create: %s\n", err);
        exit(1);
    }
    return g;
}

static inline struct hd_module *tkit_module(struct hd_gpu *g, const char *ptx)
{
    struct hd_module *m = NULL;
    if (hd_module_load_text(g, ptx, strlen(ptx), "tkit.ptx", &m) != HD_OK) {
        fprintf(stderr, "module: %s\n", hd_last_error(g));
        exit(1);
    }
    return m;
}

/* Launch `kernel` with grid x block (1-D) on `stream`; args are u64 device pointers or u32
 * values as given by the kernel (sizes 8 or 4). */
static inline int tkit_launch(struct hd_gpu *g, struct hd_module *m, const char *kernel,
                              uint32_t grid, uint32_t block, int stream, const struct hd_arg *args,
                              unsigned nargs)
{
    struct hd_dim3 gd = {grid, 1, 1}, bd = {block, 1, 1};
    int st = hd_launch(g, m, kernel, gd, bd, 0, stream, args, nargs);
    if (st != HD_OK)
        fprintf(stderr, "launch %s: %s\n", kernel, hd_last_error(g));
    return st;
}

/* Synchronize, then the cycles of launch `index` (0 on failure). */
static inline uint64_t tkit_cycles(struct hd_gpu *g, unsigned index)
{
    if (hd_synchronize(g) != HD_OK) {
        fprintf(stderr, "synchronize: %s\n", hd_last_error(g));
        return 0;
    }
    struct hd_launch_timing lt;
    if (hd_gpu_launch_timing(g, index, &lt) != HD_OK)
        return 0;
    return lt.cycles;
}

static inline uint64_t tkit_stat(struct hd_gpu *g, const char *name)
{
    uint64_t v = 0;
    if (hd_gpu_stat(g, name, &v) != HD_OK)
        fprintf(stderr, "stat %s: %s\n", name, hd_last_error(g));
    return v;
}

/* The GPU's JSON statistics report as a string (the caller frees it; "" if it could not be
 * read back). */
static inline char *tkit_stats_json(struct hd_gpu *g)
{
    FILE *f = tmpfile();
    if (!f)
        return calloc(1, 1);
    hd_gpu_write_stats_json(g, f);
    long n = ftell(f);
    rewind(f);
    char *s = calloc(1, n > 0 ? (size_t)n + 1 : 1);
    if (s && n > 0 && fread(s, 1, (size_t)n, f) != (size_t)n)
        s[0] = 0;
    fclose(f);
    return s;
}

/* PTX header of the test kernels. */
#define TKIT_HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

#endif
