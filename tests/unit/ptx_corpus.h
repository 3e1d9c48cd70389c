/* SPDX-License-Identifier: MIT
 * ptx_corpus.h - walks every PTX file of the tree (tests/ptx/good/ *.ptx, then
 * workloads/NAME/ *.ptx, each set in name order) and calls back once per function with a body;
 * also reads the register count ptxas recorded beside a workload's PTX (NAME.ptxas.txt lines
 * `kernel=<name> registers=<n> ...`). Header-only (static inline) for the compiler-pass tests,
 * which run from the source directory. A file that does not parse is reported and counted as
 * a failure.
 */
#ifndef HD_PTX_CORPUS_H
#define HD_PTX_CORPUS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse.h"

typedef int (*hd_ptx_corpus_fn)(void *ctx, const char *path, const struct hd_func *f);

static inline int hd_ptx_corpus_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending in `suffix` (NULL: subdirectories only); returns count, -1 if none. */
static inline int hd_ptx_corpus_list(const char *dir, const char *suffix, char ***out)
{
    DIR *d = opendir(dir);
    *out = NULL;
    if (!d)
        return -1;
    int n = 0, cap = 0;
    char **v = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name), sl = suffix ? strlen(suffix) : 0;
        if (e->d_name[0] == '.')
            continue;
        if (suffix && (len <= sl || strcmp(e->d_name + len - sl, suffix) != 0))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nv = realloc(v, (size_t)cap * sizeof(char *));
            if (!nv)
                break;
            v = nv;
        }
        v[n] = malloc(len + 1);
        if (v[n])
            memcpy(v[n++], e->d_name, len + 1);
    }
    closedir(d);
    if (n)
        qsort(v, (size_t)n, sizeof(char *), hd_ptx_corpus_cmp);
    *out = v;
    return n;
}

static inline void hd_ptx_corpus_free_list(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static inline int hd_ptx_corpus_file(const char *path, hd_ptx_corpus_fn fn, void *ctx,
                                     unsigned *nfuncs)
{
    char err[512];
    struct hd_module *m = hd_ptx_parse_file(path, err, sizeof(err));
    if (!m) {
        fprintf(stderr, "  corpus: %s\n", err);
        return -1;
    }
    int rc = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (!m->funcs[i].has_body)
            continue;
        ++*nfuncs;
        if (fn(ctx, path, &m->funcs[i]))
            rc = -1;
    }
    hd_ptx_module_free(m);
    return rc;
}

/* Calls fn for every function of every PTX file; returns 0, or -1 if a file failed to parse or a
 * callback returned nonzero (the walk continues). */
static inline int hd_ptx_corpus_each(hd_ptx_corpus_fn fn, void *ctx, unsigned *nfuncs)
{
    char path[1024], **v;
    int rc = 0;
    *nfuncs = 0;
    int n = hd_ptx_corpus_list("tests/ptx/good", ".ptx", &v);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "tests/ptx/good/%s", v[i]);
        rc |= hd_ptx_corpus_file(path, fn, ctx, nfuncs);
    }
    hd_ptx_corpus_free_list(v, n);
    char **w;
    int nw = hd_ptx_corpus_list("workloads", NULL, &w);
    for (int i = 0; i < nw; i++) {
        char dir[512], **f;
        snprintf(dir, sizeof(dir), "workloads/%s", w[i]);
        int nf = hd_ptx_corpus_list(dir, ".ptx", &f);
        for (int j = 0; j < nf; j++) {
            snprintf(path, sizeof(path), "%s/%s", dir, f[j]);
            rc |= hd_ptx_corpus_file(path, fn, ctx, nfuncs);
        }
        hd_ptx_corpus_free_list(f, nf);
    }
    hd_ptx_corpus_free_list(w, nw);
    return rc;
}

/* Register count ptxas recorded for `kernel` beside `ptx_path` (X.ptx -> X.ptxas.txt), or -1. */
static inline int hd_ptx_corpus_ptxas_regs(const char *ptx_path, const char *kernel)
{
    char path[1024], line[512], want[300];
    size_t len = strlen(ptx_path);
    if (len < 4 || len + 16 > sizeof(path) || strcmp(ptx_path + len - 4, ".ptx") != 0)
        return -1;
    memcpy(path, ptx_path, len - 4);
    memcpy(path + len - 4, ".ptxas.txt", 11);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    snprintf(want, sizeof(want), "kernel=%s ", kernel);
    int regs = -1;
    while (regs < 0 && fgets(line, sizeof(line), fp)) {
        const char *r;
        if (strncmp(line, want, strlen(want)) == 0 && (r = strstr(line, " registers=")))
            regs = atoi(r + 11);
    }
    fclose(fp);
    return regs;
}

#endif
