/* SPDX-License-Identifier: MIT
 * cli_mix.c - `heddle run --mix NAME`: run the workloads of a mix (workloads/mixes.ini)
 * concurrently on one GPU, each host driver verifying its own output, and summarize per
 * workload, per kernel and for the GPU.
 *
 * Design: every driver becomes a client of one GPU through hd_gpu_run_clients
 * (model/runtime/heddle_mix.h): it runs unchanged, with its own streams, errors and totals,
 * while the runtime interleaves the drivers deterministically and runs their queued launches
 * together as batches. Each driver's progress messages go to a memory stream and are printed
 * afterwards, each line prefixed with the workload's name, so the output does not depend on the
 * interleaving. A kernel observer aggregates the completed launches per workload and kernel.
 * Exit 0 only when every workload verified; 130 after Ctrl-C; 1 otherwise.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "cli_gpu.h"
#include "cli_mix.h"
#include "cli_util.h"
#include "config.h"
#include "heddle_mix.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mix_opts {
    const char *mix, *mixes_file, *stats;
    struct hd_cli_config cfg;
    enum hd_wl_size size;
    bool quiet;
};

struct mix_client {
    const struct hd_workload *w;
    char label[80];            /* the workload's name, "#k" added when it repeats in the mix */
    struct hd_wl_ctx ctx;
    char *log_text;
    size_t log_len;
};

struct kernel_stat {
    int client;
    char kernel[96];
    uint64_t launches, ctas, warp_instrs, thread_instrs;
    unsigned first_batch, last_batch;
};

struct kernel_stats {
    struct kernel_stat *k;
    unsigned n, cap;
    bool oom;
};

static void mix_help(FILE *out)
{
    fprintf(out,
            "Usage: heddle run --mix NAME [--size small|medium|large] [--config FILE]\n"
            "                  [--set SECTION.KEY=VALUE]... [--mixes-file FILE] [--stats FILE]\n"
            "                  [--quiet]\n"
            "\n"
            "Run the workloads of a multi-kernel mix (see `heddle list --mixes`) concurrently on\n"
            "one simulated GPU. Each host driver is a client with its own streams; the drivers\n"
            "run as cooperative coroutines in a fixed order, and whenever all of them wait, the\n"
            "GPU runs every queued launch of every client as one batch (launches of different\n"
            "clients overlap on the SMs in the timing model). Each workload checks its own\n"
            "output; the exit status is 0 only if all of them verified.\n"
            "\n"
            "Options:\n"
            "  --mix NAME         the mix (a [section] of workloads/mixes.ini)\n"
            "  --size S           input size of every workload: small (default), medium, large\n"
            "  --config FILE      GPU configuration (default: built-in fermi-gtx480)\n"
            "  --set S.K=V        override one configuration parameter (repeatable)\n"
            "  --mixes-file FILE  read the mixes from FILE instead of the built-in mixes.ini\n"
            "  --stats FILE       also write the summary as an INI report, configuration first\n"
            "  --quiet            do not print the drivers' progress messages\n"
            "\nExample:\n"
            "  heddle run --mix sgemm+vecadd --size medium\n");
}

bool hd_cli_mix_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--mix") == 0 || strncmp(argv[i], "--mix=", 6) == 0)
            return true;
    return false;
}

static int parse_size(const char *s, enum hd_wl_size *out)
{
    static const char *const names[] = {"small", "medium", "large"};
    for (int k = 0; k < 3; k++)
        if (strcmp(s, names[k]) == 0) {
            *out = (enum hd_wl_size)k;
            return 0;
        }
    return -1;
}

/* 0 ok, 1 help printed, or an exit code + 2 */
static int parse_args(int argc, char **argv, struct mix_opts *o)
{
    const char *cmd = "run";
    for (int i = 1; i < argc; i++)
        if (hd_cli_is_help(argv[i])) { /* also `--mix --help` */
            mix_help(stdout);
            return 1;
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int r;
        if ((r = hd_cli_config_option(cmd, argc, argv, &i, &o->cfg)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--mix", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (o->mix)
                return hd_cli_usage(cmd, "one mix at a time ('%s' and '%s')", o->mix, v) + 2;
            o->mix = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--mixes-file", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->mixes_file = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--size", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (parse_size(v, &o->size) != 0)
                return hd_cli_usage(cmd, "--size must be small, medium or large, not '%s'", v) + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--stats", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->stats = v;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (a[0] == '-') {
            return hd_cli_usage(cmd, "unknown option '%s' with --mix", a) + 2;
        } else {
            return hd_cli_usage(cmd, "--mix runs the workloads of the mix; '%s' is not expected "
                                     "(see heddle list --mixes)", a) + 2;
        }
    }
    return 0;
}

/* {==== Clients and the kernel observer ==== */
static int mix_body(struct hd_gpu *client, void *arg)
{
    struct mix_client *c = arg;
    int st = c->w->run(client, &c->ctx);
    if (st != HD_OK && st != HD_WL_MISMATCH && !c->ctx.err[0])
        snprintf(c->ctx.err, sizeof c->ctx.err, "%s", hd_last_error(client));
    return st;
}

static void observe(void *arg, const struct hd_kernel_record *r)
{
    struct kernel_stats *ks = arg;
    struct kernel_stat *s = NULL;
    for (unsigned i = 0; i < ks->n && !s; i++)
        if (ks->k[i].client == r->client && strcmp(ks->k[i].kernel, r->kernel) == 0)
            s = &ks->k[i];
    if (!s) {
        if (ks->n == ks->cap) {
            unsigned ncap = ks->cap ? 2 * ks->cap : 16;
            struct kernel_stat *k = realloc(ks->k, ncap * sizeof *k);
            if (!k) {
                ks->oom = true;
                return;
            }
            ks->k = k;
            ks->cap = ncap;
        }
        s = &ks->k[ks->n++];
        memset(s, 0, sizeof *s);
        s->client = r->client;
        snprintf(s->kernel, sizeof s->kernel, "%s", r->kernel);
        s->first_batch = r->batch;
    }
    s->launches++;
    s->ctas += r->ctas;
    s->warp_instrs += r->warp_instrs;
    s->thread_instrs += r->thread_instrs;
    s->last_batch = r->batch;
}
/* }==== */

/* {==== Reports ==== */
static const char *verdict(int status)
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

static void print_summary(const struct mix_opts *o, const struct hd_cli_mix *m,
                          const struct mix_client *cl, const struct hd_client_task *tasks,
                          const struct kernel_stats *ks, const struct hd_run_totals *all,
                          unsigned batches, double seconds)
{
    unsigned ok = 0;
    for (unsigned i = 0; i < m->nworkloads; i++)
        ok += tasks[i].status == HD_OK;
    char cfgname[256];
    hd_cli_config_describe(&o->cfg, cfgname, sizeof cfgname);
    printf("mix %s (%s, %s): %s (%u of %u workloads verified)\n", m->name,
           hd_wl_size_name(o->size), cfgname, ok == m->nworkloads ? "VERIFIED" : "NOT VERIFIED",
           ok, m->nworkloads);
    printf("  %s: %s\n", m->kind, m->why);
    int wl = 8;
    for (unsigned i = 0; i < m->nworkloads; i++)
        wl = (int)strlen(cl[i].label) > wl ? (int)strlen(cl[i].label) : wl;
    printf("  %-*s  %-12s  %7s  %9s  %15s  %s\n", wl, "WORKLOAD", "RESULT", "KERNELS", "CTAS",
           "WARP INSTRS", "BATCHES (SHARED)");
    for (unsigned i = 0; i < m->nworkloads; i++) {
        char k[32], c[32], w[32];
        hd_cli_group(tasks[i].totals.kernels, k, sizeof k);
        hd_cli_group(tasks[i].totals.ctas, c, sizeof c);
        hd_cli_group(tasks[i].totals.warp_instrs, w, sizeof w);
        printf("  %-*s  %-12s  %7s  %9s  %15s  %u (%u)\n", wl, cl[i].label,
               verdict(tasks[i].status), k, c, w, tasks[i].batches, tasks[i].shared_batches);
        if (tasks[i].status != HD_OK && cl[i].ctx.err[0])
            printf("  %-*s  %s\n", wl, "", cl[i].ctx.err);
    }
    printf("  per kernel:\n  %-*s  %-24s  %8s  %9s  %15s  %s\n", wl, "WORKLOAD", "KERNEL",
           "LAUNCHES", "CTAS", "WARP INSTRS", "BATCHES");
    for (unsigned i = 0; i < ks->n; i++) {
        const struct kernel_stat *s = &ks->k[i];
        char l[32], c[32], w[32];
        hd_cli_group(s->launches, l, sizeof l);
        hd_cli_group(s->ctas, c, sizeof c);
        hd_cli_group(s->warp_instrs, w, sizeof w);
        const char *who = s->client >= 0 ? cl[s->client].label : "-";
        printf("  %-*s  %-24s  %8s  %9s  %15s  %u..%u\n", wl, who, s->kernel, l, c, w,
               s->first_batch, s->last_batch);
    }
    char k[32], c[32], w[32], t[32], rate[32];
    hd_cli_group(all->kernels, k, sizeof k);
    hd_cli_group(all->ctas, c, sizeof c);
    hd_cli_group(all->warp_instrs, w, sizeof w);
    hd_cli_group(all->thread_instrs, t, sizeof t);
    hd_cli_rate(seconds > 0 ? (double)all->warp_instrs / seconds : 0.0, rate, sizeof rate);
    printf("  GPU totals\n");
    printf("    kernels            %s\n", k);
    printf("    CTAs               %s\n", c);
    printf("    warp instructions  %s\n", w);
    printf("    thread instrs      %s\n", t);
    printf("    batches            %u\n", batches);
    printf("    wall time          %.3f s\n", seconds);
    printf("    warp instrs/s      %s\n", rate);
}

static int write_stats(const struct mix_opts *o, const struct hd_config *cfg,
                       const struct hd_cli_mix *m, const struct mix_client *cl,
                       const struct hd_client_task *tasks, const struct kernel_stats *ks,
                       const struct hd_run_totals *all, unsigned batches, double seconds)
{
    FILE *f = fopen(o->stats, "w");
    if (!f)
        return hd_cli_fail("run", "--stats %s: cannot write", o->stats);
    fprintf(f, "# Heddle statistics report: heddle run --mix %s --size %s\n", m->name,
            hd_wl_size_name(o->size));
    char cfgname[256];
    hd_cli_config_describe(&o->cfg, cfgname, sizeof cfgname);
    fprintf(f, "# Configuration used (%s):\n", cfgname);
    hd_config_write(cfg, f, "");
    bool all_ok = true;
    for (unsigned i = 0; i < m->nworkloads; i++)
        all_ok = all_ok && tasks[i].status == HD_OK;
    fprintf(f, "\n[mix]\nname = %s\nsize = %s\nworkloads =", m->name, hd_wl_size_name(o->size));
    for (unsigned i = 0; i < m->nworkloads; i++)
        fprintf(f, " %s", m->workloads[i]);
    fprintf(f, "\nverified = %s\nwall_seconds = %.6f\n", all_ok ? "true" : "false", seconds);
    for (unsigned i = 0; i < m->nworkloads; i++) {
        const struct hd_run_totals *t = &tasks[i].totals;
        fprintf(f, "\n[workload.%u]\nname = %s\nverified = %s\nstatus = %d\n", i, cl[i].w->name,
                tasks[i].status == HD_OK ? "true" : "false", tasks[i].status);
        if (tasks[i].status != HD_OK)
            fprintf(f, "# error: %s\n", cl[i].ctx.err);
        fprintf(f, "kernels = %llu\nctas = %llu\nwarp_instrs = %llu\nthread_instrs = %llu\n"
                   "batches = %u\nshared_batches = %u\n",
                (unsigned long long)t->kernels, (unsigned long long)t->ctas,
                (unsigned long long)t->warp_instrs, (unsigned long long)t->thread_instrs,
                tasks[i].batches, tasks[i].shared_batches);
    }
    for (unsigned i = 0; i < ks->n; i++) {
        const struct kernel_stat *s = &ks->k[i];
        fprintf(f, "\n[kernel.%u]\nworkload = %d\nkernel = %s\nlaunches = %llu\nctas = %llu\n"
                   "warp_instrs = %llu\nthread_instrs = %llu\nfirst_batch = %u\nlast_batch = %u\n",
                i, s->client, s->kernel, (unsigned long long)s->launches,
                (unsigned long long)s->ctas, (unsigned long long)s->warp_instrs,
                (unsigned long long)s->thread_instrs, s->first_batch, s->last_batch);
    }
    fprintf(f, "\n[totals]\nkernels = %llu\nctas = %llu\nwarp_instrs = %llu\nthread_instrs = %llu\n"
               "batches = %u\n",
            (unsigned long long)all->kernels, (unsigned long long)all->ctas,
            (unsigned long long)all->warp_instrs, (unsigned long long)all->thread_instrs, batches);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return hd_cli_fail("run", "--stats %s: write error", o->stats);
    return HD_CLI_OK;
}
/* }==== */

static int run_mix(struct mix_opts *o, const struct hd_cli_mix *m)
{
    struct hd_config cfg;
    int rc = hd_cli_config_resolve("run", &o->cfg, &cfg);
    if (rc != HD_CLI_OK)
        return rc;
    struct mix_client cl[HD_CLI_MIX_MAX];
    struct hd_client_task tasks[HD_CLI_MIX_MAX];
    FILE *logs[HD_CLI_MIX_MAX] = {NULL};
    FILE *devnull = o->quiet ? fopen("/dev/null", "w") : NULL;
    memset(cl, 0, sizeof cl);
    memset(tasks, 0, sizeof tasks);
    for (unsigned i = 0; i < m->nworkloads; i++) {
        struct mix_client *c = &cl[i];
        c->w = hd_workload_find(m->workloads[i]);
        unsigned same = 0, before = 0;
        for (unsigned k = 0; k < m->nworkloads; k++)
            if (strcmp(m->workloads[k], m->workloads[i]) == 0) {
                same++;
                before += k < i;
            }
        if (same > 1)
            snprintf(c->label, sizeof c->label, "%s#%u", m->workloads[i], before + 1);
        else
            snprintf(c->label, sizeof c->label, "%s", m->workloads[i]);
        c->ctx.size = o->size;
        c->ctx.ptx_text = hd_workload_ptx(c->w->name, &c->ctx.ptx_len);
        c->ctx.ptx_name = hd_workload_ptx_path(c->w->name);
        logs[i] = o->quiet ? NULL : open_memstream(&c->log_text, &c->log_len);
        c->ctx.log = logs[i] ? logs[i] : devnull ? devnull : stderr;
        tasks[i] = (struct hd_client_task){.name = c->label, .body = mix_body, .arg = c};
    }

    struct hd_gpu *gpu = hd_cli_gpu_create("run", &o->cfg, &cfg);
    struct kernel_stats ks = {0};
    rc = HD_CLI_FAIL;
    if (gpu) {
        hd_gpu_set_interrupt(gpu, hd_cli_interrupt_install());
        hd_gpu_set_kernel_observer(gpu, observe, &ks);
        double t0 = hd_cli_now();
        int st = hd_gpu_run_clients(gpu, tasks, m->nworkloads);
        double seconds = hd_cli_now() - t0;
        for (unsigned i = 0; i < m->nworkloads; i++)
            if (logs[i]) {
                fclose(logs[i]);
                logs[i] = NULL;
            }
        if (st != HD_OK) {
            hd_cli_fail("run", "mix %s: %s", m->name, hd_last_error(gpu));
        } else {
            struct hd_run_totals all;
            hd_gpu_totals(gpu, &all);
            unsigned batches = hd_gpu_batches(gpu);
            print_logs(cl, m->nworkloads);
            print_summary(o, m, cl, tasks, &ks, &all, batches, seconds);
            bool interrupted = false, ok = true;
            for (unsigned i = 0; i < m->nworkloads; i++) {
                interrupted = interrupted || tasks[i].status == HD_ERR_INTERRUPTED;
                ok = ok && tasks[i].status == HD_OK;
            }
            rc = ok ? HD_CLI_OK : interrupted ? HD_CLI_INTERRUPTED : HD_CLI_FAIL;
            if (ks.oom)
                rc = hd_cli_fail("run", "out of memory collecting kernel statistics");
            if (o->stats) {
                int s = write_stats(o, &cfg, m, cl, tasks, &ks, &all, batches, seconds);
                if (s != HD_CLI_OK && rc == HD_CLI_OK)
                    rc = s;
            }
        }
        hd_gpu_destroy(gpu);
    }
    for (unsigned i = 0; i < m->nworkloads; i++) {
        if (logs[i])
            fclose(logs[i]);
        free(cl[i].log_text);
    }
    free(ks.k);
    if (devnull)
        fclose(devnull);
    return rc;
}

int hd_cli_run_mix(int argc, char **argv)
{
    struct mix_opts o = {.size = HD_WL_SMALL};
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets)
        return hd_cli_fail("run", "out of memory");
    o.cfg.sets = sets;
    int rc = parse_args(argc, argv, &o);
    if (rc == 1) {
        rc = HD_CLI_OK;
    } else if (rc != 0) {
        rc -= 2;
    } else {
        struct hd_cli_mixes mixes;
        char err[512];
        if (hd_cli_mixes_load(o.mixes_file, &mixes, err, sizeof err) != 0) {
            rc = hd_cli_fail("run", "%s", err);
        } else {
            const struct hd_cli_mix *m = hd_cli_mixes_find(&mixes, o.mix);
            rc = m ? run_mix(&o, m)
                   : hd_cli_usage("run", "unknown mix '%s' (see heddle list --mixes)", o.mix);
            hd_cli_mixes_free(&mixes);
        }
    }
    free(sets);
    return rc;
}
