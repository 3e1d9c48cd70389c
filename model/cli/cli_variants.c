/* SPDX-License-Identifier: MIT
 * cli_variants.c - `heddle list --variants`: the resource-specification variants of the
 * workloads (Zorua-style studies), grouped under their base workload, each kernel with the
 * resources ptxas recorded for its PTX (registers per thread, static shared memory per CTA,
 * stack bytes per thread).
 *
 * A variant is a registered workload whose `variant_of` names its base (workload.h); its PTX is
 * generated from the base's .cu with the flags in `variant_flags` (the folder's ptx.flags line).
 */
#include "cli_mix.h"
#include "cli_util.h"
#include "workload.h"

#include <stdio.h>
#include <string.h>

/* Print one row per kernel of `name`'s ptxas summary. */
static void print_kernels(const char *name, const char *of, const char *flags, int wname,
                          int wflags)
{
    size_t len = 0;
    const char *text = hd_workload_ptxas(name, &len), *p = text, *end = text ? text + len : NULL;
    bool any = false;
    while (p && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[512], kernel[256];
        unsigned regs, shared, local;
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        p += n + (nl ? 1 : 0);
        if (line[0] == '#' ||
            sscanf(line, "kernel=%255s registers=%u shared=%u local=%u", kernel, &regs, &shared,
                   &local) != 4)
            continue;
        printf("%-*s  %-*s  %-*s  %-24s  %4u  %6u  %5u\n", wname, any ? "" : name, 10,
               any ? "" : of, wflags, any ? "" : flags, kernel, regs, shared, local);
        any = true;
    }
    if (!any)
        printf("%-*s  %-*s  %-*s  %-24s  %4s  %6s  %5s\n", wname, name, 10, of, wflags, flags,
               "(no ptxas summary)", "-", "-", "-");
}

int hd_cli_list_variants(int argc, char **argv)
{
    bool names_only = false;
    for (int i = 1; i < argc; i++) {
        if (hd_cli_is_help(argv[i])) {
            printf("Usage: heddle list --variants [--names]\n\n"
                   "List the resource-specification variants (threads per CTA, registers per\n"
                   "thread, scratchpad per CTA) under their base workload: the nvcc flags of each\n"
                   "variant's PTX and, per kernel, the registers, static shared memory and stack\n"
                   "that ptxas reports. Each variant is a workload: `heddle run NAME`.\n\n"
                   "Options:\n"
                   "  --names   print only the variant names, one per line\n");
            return HD_CLI_OK;
        }
        if (strcmp(argv[i], "--variants") == 0)
            continue;
        if (strcmp(argv[i], "--names") == 0)
            names_only = true;
        else
            return hd_cli_usage("list", "unknown argument '%s' with --variants", argv[i]);
    }
    int wname = 7, wflags = 5;
    unsigned nvar = 0, nbase = 0;
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        if (!w->variant_of)
            continue;
        nvar++;
        wname = (int)strlen(w->name) > wname ? (int)strlen(w->name) : wname;
        int lf = w->variant_flags ? (int)strlen(w->variant_flags) : 0;
        wflags = lf > wflags ? lf : wflags;
    }
    if (names_only) {
        for (unsigned i = 0; i < hd_workload_registry_count; i++)
            if (hd_workload_registry[i]->variant_of)
                printf("%s\n", hd_workload_registry[i]->name);
        return HD_CLI_OK;
    }
    printf("%-*s  %-10s  %-*s  %-24s  %4s  %6s  %5s\n", wname, "VARIANT", "OF", wflags, "FLAGS",
           "KERNEL", "REGS", "SHARED", "LOCAL");
    for (unsigned b = 0; b < hd_workload_registry_count; b++) {
        const struct hd_workload *base = hd_workload_registry[b];
        if (base->variant_of)
            continue;
        bool has = false;
        for (unsigned i = 0; i < hd_workload_registry_count && !has; i++) {
            const char *of = hd_workload_registry[i]->variant_of;
            has = of && strcmp(of, base->name) == 0;
        }
        if (!has)
            continue;
        nbase++;
        print_kernels(base->name, "(base)", "", wname, wflags);
        for (unsigned i = 0; i < hd_workload_registry_count; i++) {
            const struct hd_workload *w = hd_workload_registry[i];
            if (w->variant_of && strcmp(w->variant_of, base->name) == 0)
                print_kernels(w->name, base->name, w->variant_flags ? w->variant_flags : "",
                              wname, wflags);
        }
    }
    printf("(%u variants of %u workloads; REGS, SHARED (bytes per CTA, static) and LOCAL (stack\n"
           " bytes per thread) as ptxas -arch=sm_75 reports them; run one with `heddle run NAME`)\n",
           nvar, nbase);
    return HD_CLI_OK;
}
