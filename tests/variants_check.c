/* SPDX-License-Identifier: MIT
 * variants_check.c - consistency of the resource-specification variants (workloads/README.md,
 * "Variants"), without running a kernel (the variants run as workload_<NAME> tests).
 *
 * For every registered variant: its base is a registered base workload with the same class and
 * idempotence (unless the variant defines a kernel entry the base does not: another kernel, with
 * its own); its PTX lives in the base's folder; its variant_flags equal its line in that
 * folder's ptx.flags and the flags recorded in its ptxas summary header (so the driver, which
 * reads its parameters back from variant_flags, launches what the PTX was compiled for); a
 * MAXREG=N variant caps at least one kernel with .maxnreg N and ptxas kept it within N registers
 * (24 when N < 24: ptxas's lower bound for sm_75); and every
 * ptx.flags output of a folder other than the main one is a registered variant of it. Also the
 * helpers hd_wl_flag and hd_wl_variant_flags. Run from the source directory (reads ptx.flags).
 */
#include "ptx_parse.h"
#include "testutil.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Collapse runs of blanks to one space, trim both ends. */
static void squeeze(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    bool blank = false;
    for (const char *p = in; *p && n + 1 < cap; p++) {
        if (*p == ' ' || *p == '\t') {
            blank = n > 0;
            continue;
        }
        if (blank && n + 2 < cap)
            out[n++] = ' ';
        blank = false;
        out[n++] = *p;
    }
    out[n] = '\0';
}

/* The folder of a PTX path "workloads/DIR/NAME.ptx" into dir. */
static void folder_of(const char *path, char *dir, size_t cap)
{
    dir[0] = '\0';
    const char *a = path ? strchr(path, '/') : NULL, *b = a ? strchr(a + 1, '/') : NULL;
    if (a && b && (size_t)(b - a - 1) < cap) {
        memcpy(dir, a + 1, (size_t)(b - a - 1));
        dir[b - a - 1] = '\0';
    }
}

/* The flags of `output` in workloads/DIR/ptx.flags (comments removed, blanks squeezed); false
 * if the file or the line is missing. With output NULL, calls `each` for every output instead. */
static bool ptx_flags_line(const char *dir, const char *output, char *flags, size_t cap,
                           void (*each)(void *, const char *), void *arg)
{
    char path[512], line[1024];
    snprintf(path, sizeof path, "workloads/%s/ptx.flags", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        line[strcspn(line, "\r\n")] = '\0';
        char sq[1024];
        squeeze(line, sq, sizeof sq);
        if (!sq[0])
            continue;
        size_t n = strcspn(sq, " ");
        if (!output) {
            sq[n] = '\0';
            each(arg, sq);
        } else if (strlen(output) == n && strncmp(sq, output, n) == 0) {
            snprintf(flags, cap, "%s", sq[n] ? sq + n + 1 : "");
            found = true;
        }
    }
    fclose(f);
    return found;
}

/* The flags in the ptxas header "(nvcc -arch=compute_75 -ptx -O3 -std=c++17 FLAGS; release". */
static bool ptxas_header_flags(const char *name, char *flags, size_t cap)
{
    size_t len = 0;
    const char *t = hd_workload_ptxas(name, &len);
    const char *key = "-std=c++17";
    const char *a = t ? strstr(t, key) : NULL, *b = a ? strchr(a, ';') : NULL;
    const char *nl = t ? strchr(t, '\n') : NULL;
    if (!a || !b || (nl && b > nl))
        return false;
    a += strlen(key);
    char raw[512];
    size_t n = (size_t)(b - a) < sizeof raw - 1 ? (size_t)(b - a) : sizeof raw - 1;
    memcpy(raw, a, n);
    raw[n] = '\0';
    squeeze(raw, flags, cap);
    return true;
}

/* A MAXREG=N variant: the capped kernels (at least one; a variant may cap only its main kernel)
 * declare .maxnreg N and ptxas kept each of them within N registers. */
static void check_maxreg(struct hd_test_state *t, const struct hd_workload *w)
{
    long cap = hd_wl_flag(w->variant_flags, "MAXREG", 0);
    if (cap == 0)
        return;
    /* ptxas -arch=sm_75 raises a .maxnreg below 24 to 24 (with a warning) */
    long ptxas_cap = cap < 24 ? 24 : cap;
    size_t len = 0, slen = 0;
    const char *ptx = hd_workload_ptx(w->name, &len), *sum = hd_workload_ptxas(w->name, &slen);
    char err[256];
    struct hd_module *m = ptx ? hd_ptx_parse(ptx, len, w->name, err, sizeof err) : NULL;
    if (!HD_CHECK(t, m != NULL))
        return;
    unsigned capped = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct hd_func *f = &m->funcs[i];
        if (!f->is_entry || f->maxnreg == 0)
            continue;
        capped++;
        HD_CHECK_U64(t, (uint64_t)cap, f->maxnreg);
        char key[300];
        snprintf(key, sizeof key, "kernel=%s registers=", f->name);
        const char *p = sum ? strstr(sum, key) : NULL;
        if (HD_CHECK(t, p != NULL))
            HD_CHECK(t, atol(p + strlen(key)) <= ptxas_cap);
    }
    HD_CHECK(t, capped > 0);
    hd_ptx_module_free(m);
}

/* Does w's PTX define a kernel entry its base's PTX does not (a variant that is another kernel,
 * e.g. lavamd_rod: Rodinia's lavaMD kernel beside the base's own form)? Such a variant states
 * its own class and idempotence (lavamd_rod adds into global memory: not idempotent, where the
 * base stores once); a resource-specification variant runs the base's kernels and keeps them. */
static bool own_kernel(struct hd_test_state *t, const struct hd_workload *w,
                       const struct hd_workload *base)
{
    size_t len = 0, blen = 0;
    const char *ptx = hd_workload_ptx(w->name, &len), *bptx = hd_workload_ptx(base->name, &blen);
    char err[256];
    struct hd_module *m = ptx ? hd_ptx_parse(ptx, len, w->name, err, sizeof err) : NULL;
    struct hd_module *b = bptx ? hd_ptx_parse(bptx, blen, base->name, err, sizeof err) : NULL;
    bool own = false;
    if (HD_CHECK(t, m != NULL && b != NULL))
        for (uint32_t i = 0; i < m->nfuncs && !own; i++) {
            if (!m->funcs[i].is_entry)
                continue;
            bool found = false;
            for (uint32_t j = 0; j < b->nfuncs && !found; j++)
                found = b->funcs[j].is_entry && strcmp(b->funcs[j].name, m->funcs[i].name) == 0;
            own = !found;
        }
    if (m)
        hd_ptx_module_free(m);
    if (b)
        hd_ptx_module_free(b);
    return own;
}

static void check_variant(struct hd_test_state *t, const struct hd_workload *w)
{
    const struct hd_workload *base = hd_workload_find(w->variant_of);
    if (!HD_CHECK(t, base != NULL && base->variant_of == NULL)) {
        fprintf(stderr, "  %s: variant_of '%s' is not a registered base workload\n", w->name,
                w->variant_of);
        return;
    }
    if (!own_kernel(t, w, base)) {
        HD_CHECK(t, strcmp(w->klass, base->klass) == 0);
        HD_CHECK(t, w->idempotent == base->idempotent);
    }
    HD_CHECK(t, w->run != NULL);
    HD_CHECK(t, w->variant_flags != NULL && strstr(w->variant_flags, "-D") == w->variant_flags);
    char dir[128], bdir[128];
    folder_of(hd_workload_ptx_path(w->name), dir, sizeof dir);
    folder_of(hd_workload_ptx_path(base->name), bdir, sizeof bdir);
    if (!HD_CHECK(t, dir[0] && strcmp(dir, bdir) == 0))
        fprintf(stderr, "  %s: PTX in workloads/%s, base %s in workloads/%s\n", w->name, dir,
                base->name, bdir);

    char want[512], got[512];
    squeeze(w->variant_flags ? w->variant_flags : "", want, sizeof want);
    if (!HD_CHECK(t, ptx_flags_line(dir, w->name, got, sizeof got, NULL, NULL)) ||
        !HD_CHECK(t, strcmp(want, got) == 0))
        fprintf(stderr, "  %s: variant_flags '%s', workloads/%s/ptx.flags says '%s'\n", w->name,
                want, dir, got);
    got[0] = '\0';
    if (!HD_CHECK(t, ptxas_header_flags(w->name, got, sizeof got)) ||
        !HD_CHECK(t, strcmp(want, got) == 0))
        fprintf(stderr, "  %s: variant_flags '%s', its ptxas summary was made with '%s' (run "
                        "scripts/regen-ptx.sh %s)\n", w->name, want, got, dir);
    check_maxreg(t, w);
}

struct orphan_ctx {
    struct hd_test_state *t;
    const char *dir;
};

static void check_output(void *arg, const char *output)
{
    struct orphan_ctx *o = arg;
    if (strcmp(output, o->dir) == 0)
        return;
    const struct hd_workload *w = hd_workload_find(output);
    if (!HD_CHECK(o->t, w != NULL && w->variant_of && strcmp(w->variant_of, o->dir) == 0))
        fprintf(stderr, "  workloads/%s/ptx.flags makes %s.ptx, which is not a registered "
                        "variant of %s\n", o->dir, output, o->dir);
}

int main(void)
{
    struct hd_test_state t = {0};

    hd_test_begin(&t, "hd_wl_flag");
    HD_CHECK_U64(&t, 8, hd_wl_flag("-DTILE=8", "TILE", 16));
    HD_CHECK_U64(&t, 16, hd_wl_flag(NULL, "TILE", 16));
    HD_CHECK_U64(&t, 4, hd_wl_flag("-DTILE=32  -DRPT=4", "RPT", 1));
    HD_CHECK_U64(&t, 1, hd_wl_flag("-DTILE=32 -DRPT=4", "TIL", 1));
    HD_CHECK_U64(&t, 7, hd_wl_flag("-DTILE=32 -DRPT=4", "TILEX", 7));
    HD_CHECK_U64(&t, 1, hd_wl_flag("-DFAST -DX=2", "FAST", 0));
    HD_CHECK_U64(&t, 64, hd_wl_flag("-DTB=0x40", "TB", 0));
    HD_CHECK_U64(&t, 5, hd_wl_flag("-DTB=abc", "TB", 5));
    HD_CHECK_U64(&t, 5, hd_wl_flag("-DTB=", "TB", 5));

    hd_test_begin(&t, "hd_wl_variant_flags");
    struct hd_wl_ctx ctx = {.size = HD_WL_SMALL, .log = stderr};
    HD_CHECK(&t, hd_wl_variant_flags(&ctx) == NULL);
    ctx.ptx_name = "workloads/vecadd/vecadd.ptx";
    HD_CHECK(&t, hd_wl_variant_flags(&ctx) == NULL);
    ctx.ptx_name = "workloads/x/no_such_thing.ptx";
    HD_CHECK(&t, hd_wl_variant_flags(&ctx) == NULL);

    unsigned nvar = 0;
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        if (!w->variant_of) {
            HD_CHECK(&t, w->variant_flags == NULL);
            continue;
        }
        nvar++;
        hd_test_begin(&t, w->name);
        check_variant(&t, w);
        ctx.ptx_name = hd_workload_ptx_path(w->name);
        HD_CHECK(&t, hd_wl_variant_flags(&ctx) == w->variant_flags);
    }

    hd_test_begin(&t, "every ptx.flags output is a registered variant");
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        if (w->variant_of)
            continue;
        char dir[128], dummy[8];
        folder_of(hd_workload_ptx_path(w->name), dir, sizeof dir);
        struct orphan_ctx o = {&t, dir};
        ptx_flags_line(dir, NULL, dummy, sizeof dummy, check_output, &o);
    }
    fprintf(stderr, "%u variants checked\n", nvar);
    return hd_test_finish(&t);
}
