/* SPDX-License-Identifier: MIT
 * cli_variants.c - `heddle list --variants`: the resource-specification variants of the
 * workloads (Zorua-style studies), grouped under their base workload, each kernel with the
 * resources of its PTX: registers per thread (ours from the register allocator, as `heddle list`
 * counts them, beside ptxas's), static shared memory per CTA and ptxas's stack bytes per thread.
 *
 * A variant is a registered workload whose `variant_of` names its base (workload.h); its PTX is
 * generated from the base's .cu with the flags in `variant_flags` (the folder's ptx.flags line).
 * PAPER ROW: the paper table row the variant (or base) stands for (`paper_row`, issue 26 item 2).
 * The 283 Zorua grid points (zorua_spec.h) are shown only with --zorua.
 */
#include "cli_kres.h"
#include "cli_mix.h"
#include "cli_util.h"
#include "config.h"
#include "ptx_parse.h"
#include "workload.h"
#include "zorua_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print one row per kernel of `name`: registers (ours with the default configuration's budget,
 * and ptxas's), static shared memory and stack bytes per thread. */
static void print_kernels(const char *name, const char *of, const char *flags, int wname,
                          int wflags, uint32_t max_regs, const char *row)
{
    size_t len = 0, plen = 0;
    const char *ptx = hd_workload_ptx(name, &len), *ptxas = hd_workload_ptxas(name, &plen);
    char err[256];
    struct hd_module *m = ptx ? hd_ptx_parse(ptx, len, name, err, sizeof err) : NULL;
    unsigned n = 0;
    struct hd_cli_kres *k = m ? hd_cli_kres_collect(m, max_regs, ptxas, plen, &n) : NULL;
    bool any = false;
    for (unsigned i = 0; i < n; i++) {
        if (!k[i].is_entry)
            continue;
        char regs[32], local[32];
        snprintf(regs, sizeof regs, "%u/%d", k[i].regs_ours, k[i].regs_ptxas);
        uint64_t stack = 0;
        const char *at = ptxas ? strstr(ptxas, k[i].name) : NULL;
        const char *lp = at ? strstr(at, "local=") : NULL;
        if (lp)
            stack = strtoull(lp + 6, NULL, 10);
        snprintf(local, sizeof local, "%llu", (unsigned long long)stack);
        printf("%-*s  %-10s  %-*s  %-24s  %7s  %6llu  %5s", wname, any ? "" : name,
               any ? "" : of, wflags, any ? "" : flags, k[i].name, regs,
               (unsigned long long)k[i].smem_static, local);
        if (!any && row)
            printf("  %s", row);
        printf("\n");
        any = true;
    }
    if (!any)
        printf("%-*s  %-10s  %-*s  %s\n", wname, name, of, wflags, flags,
               m ? "(no kernels)" : err);
    free(k);
    if (m)
        hd_ptx_module_free(m);
}

int hd_cli_list_variants(int argc, char **argv)
{
    bool names_only = false, zgrid = false;
    for (int i = 1; i < argc; i++) {
        if (hd_cli_is_help(argv[i])) {
            printf("Usage: heddle list --variants [--names]\n\n"
                   "List the resource-specification variants (threads per CTA, registers per\n"
                   "thread, scratchpad per CTA) under their base workload: the nvcc flags of each\n"
                   "variant's PTX and, per kernel, the registers, static shared memory and stack\n"
                   "that ptxas reports. Each variant is a workload: `heddle run NAME`.\n\n"
                   "Options:\n"
                   "  --names   print only the variant names, one per line\n"
                   "  --zorua   also the Zorua specification-grid points (BASE_z_...,\n"
                   "            workloads/zorua-grid.toml)\n");
            return HD_CLI_OK;
        }
        if (strcmp(argv[i], "--variants") == 0)
            continue;
        if (strcmp(argv[i], "--names") == 0)
            names_only = true;
        else if (strcmp(argv[i], "--zorua") == 0)
            zgrid = true;
        else
            return hd_cli_usage("list", "unknown argument '%s' with --variants", argv[i]);
    }
    int wname = 7, wflags = 5;
    unsigned nvar = 0, nbase = 0;
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        if (!w->variant_of || (!zgrid && hd_wl_is_zgrid(w)))
            continue;
        nvar++;
        wname = (int)strlen(w->name) > wname ? (int)strlen(w->name) : wname;
        int lf = w->variant_flags ? (int)strlen(w->variant_flags) : 0;
        wflags = lf > wflags ? lf : wflags;
    }
    if (names_only) {
        for (unsigned i = 0; i < hd_workload_registry_count; i++)
            if (hd_workload_registry[i]->variant_of &&
                (zgrid || !hd_wl_is_zgrid(hd_workload_registry[i])))
                printf("%s\n", hd_workload_registry[i]->name);
        return HD_CLI_OK;
    }
    struct hd_config cfg;
    hd_config_defaults(&cfg);
    printf("%-*s  %-10s  %-*s  %-24s  %7s  %6s  %5s  %s\n", wname, "VARIANT", "OF", wflags,
           "FLAGS", "KERNEL", "REGS", "SHARED", "LOCAL", "PAPER ROW");
    for (unsigned b = 0; b < hd_workload_registry_count; b++) {
        const struct hd_workload *base = hd_workload_registry[b];
        if (base->variant_of)
            continue;
        bool has = false;
        for (unsigned i = 0; i < hd_workload_registry_count && !has; i++) {
            const char *of = hd_workload_registry[i]->variant_of;
            has = of && strcmp(of, base->name) == 0 &&
                  (zgrid || !hd_wl_is_zgrid(hd_workload_registry[i]));
        }
        if (!has)
            continue;
        nbase++;
        print_kernels(base->name, "(base)", "", wname, wflags, cfg.sm_max_regs_per_thread,
                      base->paper_row);
        for (unsigned i = 0; i < hd_workload_registry_count; i++) {
            const struct hd_workload *w = hd_workload_registry[i];
            if (w->variant_of && strcmp(w->variant_of, base->name) == 0 &&
                (zgrid || !hd_wl_is_zgrid(w)))
                print_kernels(w->name, base->name, w->variant_flags ? w->variant_flags : "",
                              wname, wflags, cfg.sm_max_regs_per_thread, w->paper_row);
        }
    }
    printf("(%u variants of %u workloads; REGS per thread: ours (register allocator, default\n"
           " configuration's budget) / ptxas -arch=sm_75; SHARED: static bytes per CTA; LOCAL: ptxas's\n"
           " stack bytes per thread; PAPER ROW: the paper table row it stands for; run one with\n"
           " `heddle run NAME`%s)\n",
           nvar, nbase, zgrid ? "" : "; --zorua adds the 283 Zorua grid points");
    return HD_CLI_OK;
}
