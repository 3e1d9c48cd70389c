/* SPDX-License-Identifier: MIT
 * cli_mix_report.c - the summary and the --stats report of `heddle run --mix` (cli_mix.c).
 *
 * Per workload: result, kernels, CTAs, warp instructions, batches (and how many of them it
 * shared with another workload) and, in cycle mode, its turnaround in the mix (the cycle its
 * last launch finished; every workload starts at cycle 0). With --alone also its cycles alone
 * and the slowdown (turnaround / alone). Mix metrics from the multiprogramming literature
 * (Eyerman and Eeckhout, "System-level performance metrics for multiprogram workloads", IEEE
 * Micro 2008): STP = sum over workloads of alone / turnaround (weighted speedup; n when nothing
 * slows down), ANTT = mean of turnaround / alone (1 when nothing slows down), and the speedup of
 * the concurrent run over running the workloads one after another (sum of alone / makespan).
 * Per kernel: launches, CTAs, warp instructions, the batches that ran it and, in cycle mode,
 * the sum of its launches' cycles. Wall-clock lines are the only ones that vary between runs.
 * The --stats report is INI, or JSON when the file name ends in .json (the same fields, with
 * the configuration as "section.key": "value" strings), written atomically (cli_out.h).
 */
#include "cli_mix_run.h"
#include "cli_out.h"
#include "cli_util.h"
#include "config.h"
#include "timing_stats.h"

#include <stdio.h>
#include <string.h>

const char *hd_cli_mix_verdict(int status)
{
    return status == HD_OK                ? "VERIFIED"
           : status == HD_WL_MISMATCH     ? "WRONG RESULT"
           : status == HD_ERR_INTERRUPTED ? "INTERRUPTED"
                                          : "FAILED";
}

static void print_logs(const struct mix_client *cl, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const char *p = cl[i].log_text, *end = p ? p + cl[i].log_len : NULL;
        while (p && p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
            printf("[%s] %.*s\n", cl[i].label, (int)len, p);
            p += len + (nl ? 1 : 0);
        }
    }
}

/* STP, ANTT and the speedup over serial runs; false when any cycle count is missing. */
static bool mix_metrics(const struct mix_run *r, const struct mix_client *cl, unsigned n,
                        double *stp, double *antt, double *serial_speedup)
{
    double sum_alone = 0.0;
    *stp = *antt = 0.0;
    for (unsigned i = 0; i < n; i++) {
        const double turn = hd_cli_mix_repeat_turnaround(&cl[i]);
        if (cl[i].alone_cycles == 0 || turn == 0)
            return false;
        *stp += (double)cl[i].alone_cycles / turn;
        *antt += turn / (double)cl[i].alone_cycles / n;
        sum_alone += (double)cl[i].alone_cycles * (cl[i].rep.on ? cl[i].rep.n : 1); /* each run */
    }
    *serial_speedup = r->cycles ? sum_alone / (double)r->cycles : 0.0;
    return r->cycles > 0;
}

static void print_workloads(const struct mix_opts *o, const struct mix_client *cl, unsigned n,
                            const struct mix_run *r, int wl)
{
    printf("  %-*s  %-12s  %7s  %9s  %15s  %-*s", wl, "WORKLOAD", "RESULT", "KERNELS", "CTAS",
           "WARP INSTRS", r->timed ? 16 : 0, "BATCHES (SHARED)");
    if (r->timed)
        printf("  %13s", "CYCLES");
    if (r->timed && o->alone)
        printf("  %13s  %8s", "ALONE", "SLOWDOWN");
    printf("\n");
    for (unsigned i = 0; i < n; i++) {
        char k[32], c[32], w[32], b[32];
        hd_cli_group(cl[i].totals.kernels, k, sizeof k);
        hd_cli_group(cl[i].totals.ctas, c, sizeof c);
        hd_cli_group(cl[i].totals.warp_instrs, w, sizeof w);
        snprintf(b, sizeof b, "%u (%u)", cl[i].batches, cl[i].shared_batches);
        printf("  %-*s  %-12s  %7s  %9s  %15s  %-*s", wl, cl[i].label,
               hd_cli_mix_verdict(cl[i].status), k, c, w, r->timed ? 16 : 0, b);
        if (r->timed) {
            hd_cli_group(cl[i].end_cycle, c, sizeof c);
            printf("  %13s", c);
        }
        if (r->timed && o->alone) {
            hd_cli_group(cl[i].alone_cycles, c, sizeof c);
            printf("  %13s  %8.3f%s", c,
                   cl[i].alone_cycles
                       ? hd_cli_mix_repeat_turnaround(&cl[i]) / (double)cl[i].alone_cycles
                       : 0.0,
                   cl[i].rep.on ? "  (mean instance)" : "");
        }
        printf("\n");
        if (cl[i].status != HD_OK && cl[i].ctx.err[0])
            printf("  %-*s  %s\n", wl, "", cl[i].ctx.err);
        if (o->alone && cl[i].alone_status != HD_OK)
            printf("  %-*s  alone: %s\n", wl, "", hd_cli_mix_verdict(cl[i].alone_status));
    }
}

static void print_kernels(const struct mix_client *cl, const struct mix_run *r, int wl)
{
    printf("  per kernel:\n  %-*s  %-24s  %8s  %9s  %15s  %-*s", wl, "WORKLOAD", "KERNEL",
           "LAUNCHES", "CTAS", "WARP INSTRS", r->timed ? 9 : 0, "BATCHES");
    if (r->timed)
        printf("  %13s", "CYCLES");
    printf("\n");
    for (unsigned i = 0; i < r->nk; i++) {
        const struct kernel_stat *s = &r->k[i];
        char l[32], c[32], w[32], b[32];
        hd_cli_group(s->launches, l, sizeof l);
        hd_cli_group(s->ctas, c, sizeof c);
        hd_cli_group(s->warp_instrs, w, sizeof w);
        snprintf(b, sizeof b, "%u..%u", s->first_batch, s->last_batch);
        const char *who = s->client >= 0 ? cl[s->client].label : "-";
        printf("  %-*s  %-24s  %8s  %9s  %15s  %-*s", wl, who, s->kernel, l, c, w,
               r->timed ? 9 : 0, b);
        if (r->timed) {
            hd_cli_group(s->cycles, c, sizeof c);
            printf("  %13s", c);
        }
        printf("\n");
    }
}

void hd_cli_mix_print(const struct mix_opts *o, const struct hd_cli_mix *m,
                      const struct mix_client *cl, const struct mix_run *r)
{
    unsigned n = m->nworkloads, ok = 0;
    print_logs(cl, n);
    for (unsigned i = 0; i < n; i++)
        ok += cl[i].status == HD_OK;
    char cfgname[256];
    hd_cli_config_describe(&o->cfg, cfgname, sizeof cfgname);
    printf("mix %s (%s, %s%s): %s (%u of %u workloads verified)\n", m->name,
           hd_wl_size_name(o->size), cfgname, r->timed ? "" : ", functional",
           ok == n ? "VERIFIED" : "NOT VERIFIED", ok, n);
    printf("  %s: %s\n", m->kind, m->why);
    int wl = 8;
    for (unsigned i = 0; i < n; i++)
        wl = (int)strlen(cl[i].label) > wl ? (int)strlen(cl[i].label) : wl;
    print_workloads(o, cl, n, r, wl);
    hd_cli_mix_repeat_print(cl, n, r->timed);
    print_kernels(cl, r, wl);

    char k[32], c[32], w[32], t[32], rate[32];
    hd_cli_group(r->all.kernels, k, sizeof k);
    hd_cli_group(r->all.ctas, c, sizeof c);
    hd_cli_group(r->all.warp_instrs, w, sizeof w);
    hd_cli_group(r->all.thread_instrs, t, sizeof t);
    hd_cli_rate(r->seconds > 0 ? (double)r->all.warp_instrs / r->seconds : 0.0, rate,
                sizeof rate);
    printf("  GPU totals\n");
    printf("    kernels            %s\n", k);
    printf("    CTAs               %s\n", c);
    printf("    warp instructions  %s\n", w);
    printf("    thread instrs      %s\n", t);
    printf("    batches            %u\n", r->batches);
    if (r->timed) {
        hd_cli_group(r->cycles, c, sizeof c);
        printf("    cycles             %s\n", c);
        printf("    IPC                %.3f\n",
               r->cycles ? (double)r->all.warp_instrs / (double)r->cycles : 0.0);
    }
    double stp, antt, serial;
    if (r->timed && o->alone && mix_metrics(r, cl, n, &stp, &antt, &serial)) {
        printf("    STP                %.3f  (sum of alone/turnaround; %u = no slowdown)\n", stp,
               n);
        printf("    ANTT               %.3f  (mean turnaround/alone; 1 = no slowdown)\n", antt);
        printf("    vs one by one      %.3fx (sum of alone cycles / cycles)\n", serial);
    }
    printf("    wall time          %.3f s\n", r->seconds);
    printf("    warp instrs/s      %s\n", rate);
}

/* --stats FILE (any name but *.json): the INI report. */
static void write_ini(FILE *f, const struct mix_opts *o, const struct hd_config *cfg,
                      const struct hd_cli_mix *m, const struct mix_client *cl,
                      const struct mix_run *r)
{
    unsigned n = m->nworkloads;
    fprintf(f, "# Heddle statistics report: heddle run --mix %s --size %s%s%s\n", m->name,
            hd_wl_size_name(o->size), o->functional ? " --functional" : "",
            o->alone ? " --alone" : "");
    char cfgname[256];
    hd_cli_config_describe(&o->cfg, cfgname, sizeof cfgname);
    fprintf(f, "# Configuration used (%s):\n", cfgname);
    hd_config_write(cfg, f, "");
    bool all_ok = true;
    for (unsigned i = 0; i < n; i++)
        all_ok = all_ok && cl[i].status == HD_OK;
    fprintf(f, "\n[mix]\nname = %s\nsize = %s\nmode = %s\nworkloads =", m->name,
            hd_wl_size_name(o->size), r->timed ? "cycle" : "functional");
    for (unsigned i = 0; i < n; i++)
        fprintf(f, " %s", m->workloads[i]);
    fprintf(f, "\nverified = %s\nwall_seconds = %.6f\n", all_ok ? "true" : "false", r->seconds);
    for (unsigned i = 0; i < n; i++) {
        const struct hd_run_totals *t = &cl[i].totals;
        fprintf(f, "\n[workload.%u]\nname = %s\nverified = %s\nstatus = %d\n", i, cl[i].w->name,
                cl[i].status == HD_OK ? "true" : "false", cl[i].status);
        if (cl[i].status != HD_OK)
            fprintf(f, "# error: %s\n", cl[i].ctx.err);
        fprintf(f, "kernels = %llu\nctas = %llu\nwarp_instrs = %llu\nthread_instrs = %llu\n"
                   "batches = %u\nshared_batches = %u\n",
                (unsigned long long)t->kernels, (unsigned long long)t->ctas,
                (unsigned long long)t->warp_instrs, (unsigned long long)t->thread_instrs,
                cl[i].batches, cl[i].shared_batches);
        if (r->timed)
            fprintf(f, "turnaround_cycles = %llu\n", (unsigned long long)cl[i].end_cycle);
        if (r->timed && o->alone)
            fprintf(f, "alone_verified = %s\nalone_cycles = %llu\n",
                    cl[i].alone_status == HD_OK ? "true" : "false",
                    (unsigned long long)cl[i].alone_cycles);
    }
    for (unsigned i = 0; i < r->nk; i++) {
        const struct kernel_stat *s = &r->k[i];
        fprintf(f, "\n[kernel.%u]\nworkload = %d\nkernel = %s\nlaunches = %llu\nctas = %llu\n"
                   "warp_instrs = %llu\nthread_instrs = %llu\nfirst_batch = %u\nlast_batch = %u\n",
                i, s->client, s->kernel, (unsigned long long)s->launches,
                (unsigned long long)s->ctas, (unsigned long long)s->warp_instrs,
                (unsigned long long)s->thread_instrs, s->first_batch, s->last_batch);
        if (r->timed)
            fprintf(f, "cycles = %llu\n", (unsigned long long)s->cycles);
    }
    hd_cli_mix_repeat_ini(f, cl, n, r->timed);
    fprintf(f, "\n[totals]\nkernels = %llu\nctas = %llu\nwarp_instrs = %llu\nthread_instrs = %llu\n"
               "batches = %u\n",
            (unsigned long long)r->all.kernels, (unsigned long long)r->all.ctas,
            (unsigned long long)r->all.warp_instrs, (unsigned long long)r->all.thread_instrs,
            r->batches);
    if (r->timed)
        fprintf(f, "cycles = %llu\n", (unsigned long long)r->cycles);
    double stp, antt, serial;
    if (r->timed && o->alone && mix_metrics(r, cl, n, &stp, &antt, &serial))
        fprintf(f, "stp = %.6f\nantt = %.6f\nspeedup_vs_serial = %.6f\n", stp, antt, serial);
}


static void json_totals(FILE *f, const struct hd_run_totals *t)
{
    fprintf(f, "\"kernels\": %llu, \"ctas\": %llu, \"warp_instrs\": %llu, \"thread_instrs\": %llu",
            (unsigned long long)t->kernels, (unsigned long long)t->ctas,
            (unsigned long long)t->warp_instrs, (unsigned long long)t->thread_instrs);
}

/* --stats FILE.json: the same report as JSON; "config" holds every parameter as text. */
static void write_json(FILE *f, const struct mix_opts *o, const struct hd_config *cfg,
                       const struct hd_cli_mix *m, const struct mix_client *cl,
                       const struct mix_run *r)
{
    unsigned n = m->nworkloads, np;
    const struct hd_cfg_param *params = hd_config_params(&np);
    char name[256], value[256];
    hd_cli_config_describe(&o->cfg, name, sizeof name);
    fprintf(f, "{\n\"config_name\": ");
    hd_stats_json_str(f, name);
    fprintf(f, ",\n\"config\": {");
    for (unsigned k = 0; k < np; k++) {
        snprintf(name, sizeof name, "%s.%s", params[k].section, params[k].key);
        hd_config_format_value(cfg, &params[k], value, sizeof value);
        fprintf(f, "%s\n  ", k ? "," : "");
        hd_stats_json_str(f, name);
        fprintf(f, ": ");
        hd_stats_json_str(f, value);
    }
    bool all_ok = true;
    for (unsigned i = 0; i < n; i++)
        all_ok = all_ok && cl[i].status == HD_OK;
    fprintf(f, "},\n\"mix\": {\"name\": ");
    hd_stats_json_str(f, m->name);
    fprintf(f, ", \"size\": \"%s\", \"mode\": \"%s\", \"alone\": %s, \"verified\": %s, "
               "\"wall_seconds\": %.6f},\n\"workloads\": [",
            hd_wl_size_name(o->size), r->timed ? "cycle" : "functional",
            o->alone ? "true" : "false", all_ok ? "true" : "false", r->seconds);
    for (unsigned i = 0; i < n; i++) {
        fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
        hd_stats_json_str(f, cl[i].w->name);
        fprintf(f, ", \"verified\": %s, \"status\": %d, \"error\": ",
                cl[i].status == HD_OK ? "true" : "false", cl[i].status);
        hd_stats_json_str(f, cl[i].status == HD_OK ? "" : cl[i].ctx.err);
        fprintf(f, ", ");
        json_totals(f, &cl[i].totals);
        fprintf(f, ", \"batches\": %u, \"shared_batches\": %u", cl[i].batches,
                cl[i].shared_batches);
        if (r->timed)
            fprintf(f, ", \"turnaround_cycles\": %llu", (unsigned long long)cl[i].end_cycle);
        if (r->timed && o->alone)
            fprintf(f, ", \"alone_verified\": %s, \"alone_cycles\": %llu",
                    cl[i].alone_status == HD_OK ? "true" : "false",
                    (unsigned long long)cl[i].alone_cycles);
        fprintf(f, "}");
    }
    fprintf(f, "],\n\"kernels\": [");
    for (unsigned i = 0; i < r->nk; i++) {
        const struct kernel_stat *s = &r->k[i];
        fprintf(f, "%s\n  {\"workload\": %d, \"kernel\": ", i ? "," : "", s->client);
        hd_stats_json_str(f, s->kernel);
        fprintf(f, ", \"launches\": %llu, \"ctas\": %llu, \"warp_instrs\": %llu, "
                   "\"thread_instrs\": %llu, \"first_batch\": %u, \"last_batch\": %u",
                (unsigned long long)s->launches, (unsigned long long)s->ctas,
                (unsigned long long)s->warp_instrs, (unsigned long long)s->thread_instrs,
                s->first_batch, s->last_batch);
        if (r->timed)
            fprintf(f, ", \"cycles\": %llu", (unsigned long long)s->cycles);
        fprintf(f, "}");
    }
    fprintf(f, "],\n\"instances\": [");
    hd_cli_mix_repeat_json(f, cl, n, r->timed);
    fprintf(f, "],\n\"totals\": {");
    json_totals(f, &r->all);
    fprintf(f, ", \"batches\": %u", r->batches);
    if (r->timed)
        fprintf(f, ", \"cycles\": %llu", (unsigned long long)r->cycles);
    double stp, antt, serial;
    if (r->timed && o->alone && mix_metrics(r, cl, n, &stp, &antt, &serial))
        fprintf(f, ", \"stp\": %.6f, \"antt\": %.6f, \"speedup_vs_serial\": %.6f", stp, antt,
                serial);
    fprintf(f, "}");
    if (r->timing_json) { /* the GPU's own statistics, as `heddle run W --stats` writes them */
        size_t len = strlen(r->timing_json);
        while (len && (r->timing_json[len - 1] == '\n' || r->timing_json[len - 1] == ' '))
            len--;
        fprintf(f, ",\n\"timing\": %.*s", (int)len, r->timing_json);
    }
    if (r->power_json) /* the energy report (model/power, docs/power.md), null when off */
        fprintf(f, ",\n\"power\": %s", r->power_json);
    fprintf(f, "\n}\n");
}

int hd_cli_mix_write_stats(const struct mix_opts *o, const struct hd_config *cfg,
                           const struct hd_cli_mix *m, const struct mix_client *cl,
                           const struct mix_run *r)
{
    struct hd_cli_out out;
    if (hd_cli_out_open(&out, "run", "--stats", o->stats) != HD_CLI_OK)
        return HD_CLI_FAIL;
    size_t len = strlen(o->stats);
    if (len >= 5 && strcmp(o->stats + len - 5, ".json") == 0)
        write_json(out.f, o, cfg, m, cl, r);
    else
        write_ini(out.f, o, cfg, m, cl, r);
    return hd_cli_out_commit(&out);
}
