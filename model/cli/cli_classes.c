/* SPDX-License-Identifier: MIT
 * cli_classes.c - `heddle list --classes`: the kernel classes the papers use, as Heddle's timing
 * model measured them (issue 26 item 5): GPUDuet's categories (Lin thesis ch.3, Fig 3.4) and
 * CCBP's LS / NBI / DBI (Lin thesis ch.4) on
 * configs/maxwell-gpuduet.ini and Gong's memory-intensive (M) / not (N) on
 * configs/kepler-gk110.ini, with the utilisations and stall shares they come from.
 *
 * The numbers are recorded in workloads/classes.ini by scripts/measure-classes.py (which states the
 * rules) and embedded at build time (hd_cli_classes_ini); nothing here is typed in. A workload
 * without a section is shown as not measured; a section naming no registered workload is reported.
 */
#include "cli_mix.h"
#include "cli_util.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char hd_cli_classes_ini[];
extern const size_t hd_cli_classes_ini_len;

struct cls_row {
    char duet[40], ccbp[8], noc[16], dram[16], thro[16], gong[8], stall[16];
    bool found;
};

/* The value of `key` in section `name` of the embedded file, copied into out (or "-"). */
static bool cls_value(const char *name, const char *key, char *out, size_t outlen)
{
    const char *p = (const char *)hd_cli_classes_ini, *end = p + hd_cli_classes_ini_len;
    bool in = false;
    snprintf(out, outlen, "-");
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[256];
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        p += n + (nl ? 1 : 0);
        if (line[0] == '[') {
            char *close = strchr(line, ']');
            if (close)
                *close = '\0';
            in = strcmp(line + 1, name) == 0;
            continue;
        }
        size_t kl = strlen(key);
        if (in && strncmp(line, key, kl) == 0 && strncmp(line + kl, " = ", 3) == 0) {
            snprintf(out, outlen, "%s", line + kl + 3);
            return true;
        }
    }
    return false;
}

int hd_cli_list_classes(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (hd_cli_is_help(argv[i])) {
            printf("Usage: heddle list --classes\n\n"
                   "The kernel classes of the papers, measured by the timing model and recorded\n"
                   "in workloads/classes.ini by scripts/measure-classes.py (its header gives the\n"
                   "rules): GPUDuet (Lin ch.3 Fig 3.4) compute, l2sm, sml2 and dram intensity\n"
                   "(or underutilized) and CCBP (Lin ch.4) LS, NBI or DBI, both on\n"
                   "configs/maxwell-gpuduet.ini from the scheduler, NoC and DRAM utilisation\n"
                   "(THRO: IPC / peak IPC);\n"
                   "Gong (ch.5, on configs/kepler-gk110.ini) M (memory-intensive) or N from the\n"
                   "share of scheduler cycles stalled on long-latency memory. Variants share\n"
                   "their base's kernels and are not measured separately.\n");
            return HD_CLI_OK;
        }
        if (strcmp(argv[i], "--classes") != 0)
            return hd_cli_usage("list", "unknown argument '%s' with --classes", argv[i]);
    }
    /* The file's comment lines first: where and how the numbers were measured. */
    const char *p = (const char *)hd_cli_classes_ini, *end = p + hd_cli_classes_ini_len;
    while (p < end && *p == '#') {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        printf("%.*s\n", (int)n, p);
        p += n + (nl ? 1 : 0);
    }
    printf("%-18s %-22s %-5s %6s %6s %6s   %-4s %6s\n", "WORKLOAD", "GPUDUET", "CCBP", "NOC",
           "DRAM", "THRO", "GONG", "LLSTALL");
    unsigned measured = 0, bases = 0;
    for (unsigned i = 0; i < hd_workload_registry_count; i++) {
        const struct hd_workload *w = hd_workload_registry[i];
        if (w->variant_of)
            continue;
        bases++;
        struct cls_row r;
        memset(&r, 0, sizeof r);
        r.found = cls_value(w->name, "ccbp", r.ccbp, sizeof r.ccbp);
        cls_value(w->name, "gpuduet", r.duet, sizeof r.duet);
        cls_value(w->name, "ccbp_noc", r.noc, sizeof r.noc);
        cls_value(w->name, "ccbp_dram", r.dram, sizeof r.dram);
        cls_value(w->name, "ccbp_throughput", r.thro, sizeof r.thro);
        cls_value(w->name, "gong", r.gong, sizeof r.gong);
        cls_value(w->name, "gong_long_latency_stall", r.stall, sizeof r.stall);
        measured += r.found;
        if (!r.found) {
            printf("%-18s (not measured)\n", w->name);
            continue;
        }
        printf("%-18s %-22s %-5s %6s %6s %6s   %-4s %6s\n", w->name, r.duet, r.ccbp, r.noc,
               r.dram, r.thro, r.gong, r.stall);
    }
    /* Sections that name no registered workload: a stale file. */
    p = (const char *)hd_cli_classes_ini;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n > 2 && p[0] == '[' && p[n - 1] == ']') {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(n - 2), p + 1);
            if (!hd_workload_find(name))
                fprintf(stderr, "heddle list --classes: workloads/classes.ini names '%s', not a "
                                "registered workload (rerun scripts/measure-classes.py)\n", name);
        }
        p += n + (nl ? 1 : 0);
    }
    printf("(%u of %u workloads measured; NOC, DRAM: bandwidth utilisation, THRO: IPC / peak IPC\n"
           " on maxwell-gpuduet; LLSTALL: long-latency stall share on kepler-gk110)\n",
           measured, bases);
    return HD_CLI_OK;
}
