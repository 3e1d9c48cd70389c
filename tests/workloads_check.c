/* SPDX-License-Identifier: MIT
 * workloads_check.c - consistency test of the generated workload registry and embedded PTX.
 *
 * Runs without executing any kernel, so it also guards the build plumbing while the functional
 * model cannot run a workload: the registry is sorted by name with no duplicates and a NULL
 * after the last entry; every workload has a name equal to its registry lookup, a one-line
 * description, a known class and a run function; its PTX is embedded (NUL-terminated, with a
 * source path), parses with Heddle's front end, and holds at least one kernel; every kernel that
 * the recorded ptxas summary names is a kernel of the module, every kernel of the module has a
 * summary line, and every summary line has the documented form.
 */
#include "ptx_parse.h"
#include "testutil.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wc_classes[] = {"compute",     "memory",    "latency-bound",
                                         "barrier-heavy", "divergent", "irregular"};

static bool wc_known_class(const char *k)
{
    for (size_t i = 0; k && i < sizeof wc_classes / sizeof wc_classes[0]; i++)
        if (strcmp(k, wc_classes[i]) == 0)
            return true;
    return false;
}

/* Check each "kernel=..." line against the parsed module; returns the number of kernel lines. */
static unsigned wc_check_ptxas(struct hd_test_state *t, const char *text, size_t len,
                               const struct hd_module *m)
{
    unsigned nk = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[512];
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        p += n + (nl ? 1 : 0);
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char kernel[256];
        unsigned regs, shared, local;
        int used = 0;
        int got = sscanf(line, "kernel=%255s registers=%u shared=%u local=%u%n", kernel, &regs,
                         &shared, &local, &used);
        if (!HD_CHECK(t, got == 4 && line[used] == '\0')) {
            fprintf(stderr, "  bad ptxas summary line: '%s'\n", line);
            continue;
        }
        nk++;
        int fi = hd_ptx_find_func(m, kernel);
        if (!HD_CHECK(t, fi >= 0 && m->funcs[fi].is_entry))
            fprintf(stderr, "  ptxas names kernel '%s', not an entry of the module\n", kernel);
        HD_CHECK(t, regs > 0 && regs <= 255);
    }
    return nk;
}

static void wc_check_workload(struct hd_test_state *t, const struct hd_workload *w)
{
    HD_CHECK(t, w->description && w->description[0] && !strchr(w->description, '\n'));
    if (!HD_CHECK(t, wc_known_class(w->klass)))
        fprintf(stderr, "  %s: unknown class '%s'\n", w->name, w->klass ? w->klass : "(null)");
    HD_CHECK(t, w->run != NULL);
    HD_CHECK(t, hd_workload_find(w->name) == w);

    size_t len = 0;
    const char *ptx = hd_workload_ptx(w->name, &len);
    const char *path = hd_workload_ptx_path(w->name);
    if (!HD_CHECK(t, ptx != NULL && len > 0 && path != NULL))
        return;
    HD_CHECK(t, ptx[len] == '\0' && strlen(ptx) == len);

    char err[512] = "";
    struct hd_module *m = hd_ptx_parse(ptx, len, path, err, sizeof err);
    if (!HD_CHECK(t, m != NULL)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    unsigned entries = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        entries += m->funcs[i].is_entry;
    HD_CHECK(t, entries > 0);

    size_t slen = 0;
    const char *summary = hd_workload_ptxas(w->name, &slen);
    if (summary) {
        unsigned nk = wc_check_ptxas(t, summary, slen, m);
        if (!HD_CHECK_U64(t, entries, nk))
            fprintf(stderr, "  %s: %u kernels in the PTX, %u in the ptxas summary (stale? run "
                            "scripts/regen-ptx.sh)\n", w->name, entries, nk);
    } else {
        fprintf(stderr, "note: %s has no ptxas summary (%s.ptxas.txt)\n", w->name, w->name);
    }
    hd_ptx_module_free(m);
}

int main(void)
{
    struct hd_test_state t = {0};

    hd_test_begin(&t, "registry order and termination");
    HD_CHECK(&t, hd_workload_registry_count > 0);
    HD_CHECK(&t, hd_workload_registry[hd_workload_registry_count] == NULL);
    for (unsigned i = 1; i < hd_workload_registry_count; i++)
        HD_CHECK(&t, strcmp(hd_workload_registry[i - 1]->name, hd_workload_registry[i]->name) < 0);
    HD_CHECK(&t, hd_workload_find("no-such-workload") == NULL);
    HD_CHECK(&t, hd_workload_ptx("no-such-workload", NULL) == NULL);

    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        if (!HD_CHECK(&t, w != NULL && w->name != NULL))
            continue;
        hd_test_begin(&t, w->name);
        wc_check_workload(&t, w);
    }

    hd_test_begin(&t, "helpers");
    struct hd_wl_rng a, b;
    hd_wl_rng_seed(&a, 42);
    hd_wl_rng_seed(&b, 42);
    bool same = true, in_range = true;
    for (int i = 0; i < 1000; i++) {
        same = same && hd_wl_rng_u32(&a) == hd_wl_rng_u32(&b);
        float f = hd_wl_rng_float(&a, -2.0f, 3.0f);
        in_range = in_range && f >= -2.0f && f < 3.0f;
        (void)hd_wl_rng_float(&b, -2.0f, 3.0f);
    }
    HD_CHECK(&t, same);
    HD_CHECK(&t, in_range);
    hd_wl_rng_seed(&b, 43);
    HD_CHECK(&t, hd_wl_rng_u32(&a) != hd_wl_rng_u32(&b));

    struct hd_wl_ctx ctx = {.size = HD_WL_SMALL, .log = stderr};
    const float e[3] = {1.0f, 2.0f, 3.0f}, g[3] = {1.0f, 2.0f, 3.5f};
    HD_CHECK(&t, hd_wl_compare_f32(&ctx, "x", e, g, 2, 0.0f, 0.0f) == HD_OK);
    HD_CHECK(&t, hd_wl_compare_f32(&ctx, "x", e, g, 3, 0.1f, 0.0f) == HD_WL_MISMATCH);
    HD_CHECK(&t, strstr(ctx.err, "x[2]") != NULL && strstr(ctx.err, "expected 3") != NULL);
    HD_CHECK(&t, hd_wl_compare_f32(&ctx, "x", e, g, 3, 0.2f, 0.0f) == HD_OK);
    const uint32_t ue[2] = {7, 8}, ug[2] = {7, 9};
    HD_CHECK(&t, hd_wl_compare_u32(&ctx, "bin", ue, ug, 2) == HD_WL_MISMATCH);
    HD_CHECK(&t, strstr(ctx.err, "bin[1]: expected 8") != NULL);
    const int32_t ie[2] = {-1, 3}, ig[2] = {-1, 3};
    HD_CHECK(&t, hd_wl_compare_i32(&ctx, "level", ie, ig, 2) == HD_OK);
    HD_CHECK(&t, strcmp(hd_wl_size_name(HD_WL_LARGE), "large") == 0);

    return hd_test_finish(&t);
}
