/* SPDX-License-Identifier: MIT
 * cli_list.c - `heddle list`: the built-in workloads as a table (name, class, idempotent,
 * description), from the registry that the build generates from workloads/.
 */
#include "cli_cmd.h"
#include "cli_mix.h"
#include "cli_util.h"
#include "workload.h"

#include <string.h>

int hd_cli_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) { /* cli_mixes.c, cli_variants.c */
        if (strcmp(argv[i], "--mixes") == 0)
            return hd_cli_list_mixes(argc, argv);
        if (strcmp(argv[i], "--variants") == 0)
            return hd_cli_list_variants(argc, argv);
    }
    bool names_only = false;
    for (int i = 1; i < argc; i++) {
        if (hd_cli_is_help(argv[i])) {
            printf("Usage: heddle list [--names]\n\n"
                   "List the built-in workloads: name, class (compute, memory, latency-bound,\n"
                   "barrier-heavy, divergent, irregular), whether re-running a CTA from its start\n"
                   "gives the same result (idempotent: flush-based preemption needs it), and a\n"
                   "description. Run one with `heddle run NAME`.\n\n"
                   "Options:\n"
                   "  --names   print only the names, one per line (for scripts)\n"
                   "  --variants  the resource-specification variants (heddle list --variants --help)\n"
                   "  --mixes   the multi-kernel mixes for `heddle run --mix` (heddle list --mixes --help)\n");
            return HD_CLI_OK;
        }
        if (strcmp(argv[i], "--names") == 0)
            names_only = true;
        else
            return hd_cli_usage("list", "unknown argument '%s'", argv[i]);
    }
    int wname = 4, wclass = 5;
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        int ln = (int)strlen(w->name), lc = (int)strlen(w->klass ? w->klass : "-");
        wname = ln > wname ? ln : wname;
        wclass = lc > wclass ? lc : wclass;
    }
    if (names_only) {
        for (unsigned i = 0; i < hd_workload_registry_count; i++)
            printf("%s\n", hd_workload_registry[i]->name);
        return HD_CLI_OK;
    }
    printf("%-*s  %-*s  %-10s  %s\n", wname, "NAME", wclass, "CLASS", "IDEMPOTENT", "DESCRIPTION");
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        printf("%-*s  %-*s  %-10s  %s\n", wname, w->name, wclass, w->klass ? w->klass : "-",
               w->idempotent ? "yes" : "no", w->description ? w->description : "");
    }
    printf("(%u workloads)\n", hd_workload_registry_count);
    return HD_CLI_OK;
}
