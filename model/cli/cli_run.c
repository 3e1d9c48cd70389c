/* SPDX-License-Identifier: MIT
 * cli_run.c - `heddle run WORKLOAD`: create a GPU from a configuration, run the workload's host
 * driver (which verifies its output against a CPU reference), and print a summary: verified or
 * not, kernels, CTAs, warp and thread instructions, wall time, warp instructions per second.
 *
 * Exit 0 only when the output verified. Ctrl-C stops the kernels (the runtime polls the flag),
 * prints the totals gathered so far and exits 130. `--stats FILE` writes the same summary as an
 * INI report that starts with the configuration used (rule C12), or with FILE.json the timing
 * model's full JSON report (docs/timing.md). `--window W` measures the first W cycles the way
 * Lin's thesis does (§3.7: "run each benchmark for 4 million cycles unless it finishes within
 * 4 million cycles"; docs/gpuduet.md "Session 21"): [timing] max_cycles = W, and a run stopped
 * there is a window measurement, exit 0, labelled `measured = window` and never `verified`; a
 * run that ends within W is verified as any other. Launches run on the timing model unless
 * --functional (or [timing] mode = functional); its summary follows the run's. Statistics are
 * written after an error or Ctrl-C too.
 */
#include "cli_attr.h"
#include "cli_cmd.h"
#include "cli_gpu.h"
#include "cli_mix.h"
#include "cli_out.h"
#include "cli_util.h"
#include "config.h"
#include "workload.h"

#include <stdlib.h>
#include <string.h>

struct run_opts {
    const char *workload;
    struct hd_cli_config cfg; /* --config, --set */
    const char *stats;
    enum hd_wl_size size;
    bool quiet;
    bool functional;          /* --functional: no timing model */
    bool progress;            /* --progress: progress line even if stderr is not a terminal */
    bool power;               /* --power: print the energy table (model/power) */
    uint64_t sample;          /* --sample N: time series every N cycles */
    const char *series;       /* --series FILE: the time series as CSV */
    const char *profile;      /* --profile-out FILE: the Oracle's per-CTA profile */
    uint32_t hint;            /* --hint N: every launch's hint (docs/admission.md) */
    bool hint_given;          /* --hint was given (else [timing] workload_hint may give one) */
    bool paper;               /* --size paper: large, or the driver's own paper input */
    bool waves;               /* --size waves: small, or the driver's own several-waves input */
    bool waves3;              /* --size waves3: waves, or the driver's own >= 3 Kepler waves */
    const char *window;       /* --window W: the first W cycles ([timing] max_cycles = W) */
    uint64_t window_cycles;   /* W */
};

/* The size as given: "paper" for --size paper (which runs HD_WL_LARGE or the driver's own
 * paper input), "waves" / "waves3" likewise (HD_WL_SMALL), else the size's name. */
static const char *run_size_name(const struct run_opts *o)
{
    if (o->paper || o->waves3)
        return o->paper ? "paper" : "waves3";
    return o->waves ? "waves" : hd_wl_size_name(o->size);
}

static void run_help(FILE *out)
{
    fprintf(out,
            "Usage: heddle run WORKLOAD [--size small|medium|large|paper|waves|waves3]\n"
            "                           [--config FILE]\n"
            "                           [--set SECTION.KEY=VALUE]... [--stats FILE] [--quiet]\n"
            "                           [--functional] [--sample N [--series FILE]] [--progress]\n"
            "                           [--power] [--hint N]\n"
            "       heddle run --mix NAME [...]   workloads of a mix, concurrently (--mix --help)\n"
            "\n"
            "Run a built-in workload (see `heddle list`): the host driver makes its inputs,\n"
            "launches its kernels on the simulated GPU and checks the results against a CPU\n"
            "reference. Prints a summary; the exit status is 0 only if the output verified.\n"
            "\n"
            "Options:\n"
            "  --size S        input size: small (default; well under a second), medium, large;\n"
            "                  paper = large (the papers' length, workloads/README.md);\n"
            "                  waves = small's kernels on an input of several CTA waves at every\n"
            "                  resource specification (Zorua's grid; small where none);\n"
            "                  waves3 = >= 3 Kepler CTA waves (barneshut, mst, sssp; else waves)\n"
            "  --config FILE   GPU configuration (default: built-in fermi-gtx480; see configs/)\n"
            "  --set S.K=V     override one configuration parameter (repeatable), e.g.\n"
            "                  --set sm.num_schedulers=4 (see heddle --help-config)\n"
            "  --max-cycles N, --max-instructions N\n"
            "                  stop there with a located report and the statistics (exit 1)\n"
            "  --window W      measure the first W cycles (Lin's thesis: 4 M cycles unless the\n"
            "                  run ends sooner): stopped at W, the run is a window measurement,\n"
            "                  exit 0 with its statistics, marked measured = window and not\n"
            "                  verified; a run that ends within W is verified as usual\n"
            "  --stats FILE    also write the summary as an INI report, configuration first;\n"
            "                  FILE.json: the timing model's full report (docs/timing.md)\n"
            "  --quiet         do not print the driver's progress messages\n"
            "  --functional    functional execution only: no cycles, no timing statistics\n"
            "  --hint N        give every launch the hint N (a word for mechanisms and policies,\n"
            "                  e.g. [timing] cta_dist = sm_mask: the SMs it may use; 0: none)\n"
            "  --sample N      sample IPC, resident warps and per-kernel progress every N cycles\n"
            "                  (into the JSON report)\n"
            "  --series FILE   also write those samples as CSV (for gnuplot)\n"
            "  --progress      show the progress line of long runs even if stderr is no terminal\n"
            "  --power         print energy and average power per component and per kernel\n"
            "                  (GPUWattch-style event energies, [power]; docs/power.md); the\n"
            "                  JSON report (--stats FILE.json) has them as \"power\"\n"
            "  --profile-out FILE\n"
            "                  write each finished CTA's warp instructions and cycles: the profile\n"
            "                  of [context] preempt_policy = oracle (oracle_profile = FILE)\n"
            "\nCtrl-C stops the run and prints what was gathered so far (exit status 130).\n"
            "\nExample:\n"
            "  heddle run sgemm --size medium --config configs/fermi-gtx480.ini\n");
}

/* 0 ok, 1 help printed, or an exit code + 2 */
static int parse_args(int argc, char **argv, struct run_opts *o)
{
    const char *cmd = "run";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int r;
        if (hd_cli_is_help(a)) {
            run_help(stdout);
            return 1;
        }
        if ((r = hd_cli_config_option(cmd, argc, argv, &i, &o->cfg)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--size", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (hd_wl_size_parse(v, &o->size) != 0)
                return hd_cli_usage(cmd, "--size must be small, medium or large (or paper, waves, "
                                         "waves3), "
                                         "not '%s'", v) + 2;
            o->paper = strcmp(v, "paper") == 0;
            o->waves3 = strcmp(v, "waves3") == 0;
            o->waves = o->waves3 || strcmp(v, "waves") == 0;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--window", &v)) != 0) {
            uint64_t n;
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (hd_cli_parse_uint(v, 1, UINT64_MAX, &n) != 0)
                return hd_cli_usage(cmd, "--window wants a positive cycle count, not '%s'", v) + 2;
            o->window = v;
            o->window_cycles = n;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--stats", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->stats = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--sample", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            char *end;
            unsigned long long n = strtoull(v, &end, 10);
            if (!*v || *end || n == 0 || v[0] == '-')
                return hd_cli_usage(cmd, "--sample wants a positive cycle count, not '%s'", v) + 2;
            o->sample = n;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--hint", &v)) != 0) {
            uint64_t n;
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (hd_cli_parse_uint(v, 0, UINT32_MAX, &n) != 0)
                return hd_cli_usage(cmd, "--hint '%s': wants an integer from 0 to %u", v,
                                    UINT32_MAX) +
                       2;
            o->hint = (uint32_t)n;
            o->hint_given = true;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--series", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->series = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--profile-out", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->profile = v;
        } else if (strcmp(a, "--functional") == 0) {
            o->functional = true;
        } else if (strcmp(a, "--progress") == 0) {
            o->progress = true;
        } else if (strcmp(a, "--power") == 0) {
            o->power = true;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (a[0] == '-') {
            return hd_cli_usage(cmd, "unknown option '%s'", a) + 2;
        } else if (o->workload) {
            return hd_cli_usage(cmd, "one workload at a time ('%s' and '%s')", o->workload, a) + 2;
        } else {
            o->workload = a;
        }
    }
    if (!o->workload)
        return hd_cli_usage(cmd, "which workload? (see heddle list)") + 2;
    if (o->window && (o->cfg.max_cycles || o->functional))
        return hd_cli_usage(cmd, "--window sets [timing] max_cycles and needs the timing model: "
                                 "not with --max-cycles or --functional") +
               2;
    if (o->window)
        o->cfg.max_cycles = o->window; /* the limit it is; the run's end decides what it means */
    if (o->series && !o->sample)
        return hd_cli_usage(cmd, "--series needs --sample N") + 2;
    if (o->functional && (o->sample || o->progress || o->profile || o->power))
        return hd_cli_usage(cmd, "--sample, --progress, --profile-out and --power need the "
                                 "timing model, not --functional") +
               2;
    const struct hd_cli_path paths[] = {{"--config", o->cfg.path, false},
                                        {"--stats", o->stats, true},
                                        {"--series", o->series, true},
                                        {"--profile-out", o->profile, true}};
    struct hd_cli_path use[4];
    unsigned n = 0;
    for (unsigned k = 0; k < 4; k++)
        if (paths[k].path)
            use[n++] = paths[k];
    hd_cli_config_outputs(&o->cfg, use, n);
    if (hd_cli_paths_check(cmd, use, n) != HD_CLI_OK)
        return HD_CLI_USAGE + 2;
    return 0;
}

struct run_result {
    int status; /* HD_OK, HD_ERR_*, HD_WL_MISMATCH */
    bool window; /* --window W and the run stopped at W: a window measurement, not verified */
    double seconds;
    struct hd_run_totals totals;
};

static void print_summary(FILE *out, const struct run_opts *o, const struct hd_wl_ctx *ctx,
                          const struct run_result *r, const char *prefix)
{
    char k[32], c[32], w[32], t[32], rate[32];
    hd_cli_group(r->totals.kernels, k, sizeof k);
    hd_cli_group(r->totals.ctas, c, sizeof c);
    hd_cli_group(r->totals.warp_instrs, w, sizeof w);
    hd_cli_group(r->totals.thread_instrs, t, sizeof t);
    hd_cli_rate(r->seconds > 0 ? (double)r->totals.warp_instrs / r->seconds : 0.0, rate,
                sizeof rate);
    const char *verdict = r->window                      ? "WINDOW MEASURED (not verified)"
                          : r->status == HD_OK             ? "VERIFIED"
                          : r->status == HD_WL_MISMATCH  ? "WRONG RESULT"
                          : r->status == HD_ERR_INTERRUPTED ? "INTERRUPTED"
                                                         : "FAILED";
    char cfgname[256];
    hd_cli_config_describe(&o->cfg, cfgname, sizeof cfgname);
    fprintf(out, "%s%s (%s, %s): %s\n", prefix, o->workload, run_size_name(o), cfgname,
            verdict);
    if (r->window)
        fprintf(out, "%s  the first %s cycles measured (--window): the run stops before its end, "
                     "so its output is not checked\n", prefix, o->window);
    else if (r->status != HD_OK && ctx->err[0])
        fprintf(out, "%s  %s\n", prefix, ctx->err);
    fprintf(out, "%s  kernels            %s\n", prefix, k);
    fprintf(out, "%s  CTAs               %s\n", prefix, c);
    fprintf(out, "%s  warp instructions  %s\n", prefix, w);
    fprintf(out, "%s  thread instrs      %s\n", prefix, t);
    fprintf(out, "%s  wall time          %.3f s\n", prefix, r->seconds);
    fprintf(out, "%s  warp instrs/s      %s\n", prefix, rate);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* --stats FILE.json: the run's outcome around the timing model's report. */
static void write_json(FILE *f, const struct run_opts *o, struct hd_gpu *gpu,
                       const struct hd_wl_ctx *ctx, const struct run_result *r)
{
    fprintf(f, "{\n\"run\": {\"workload\": \"%s\", \"size\": \"%s\", \"verified\": %s, "
               "\"status\": %d, \"error\": \"",
            o->workload, run_size_name(o), r->status == HD_OK ? "true" : "false",
            r->status);
    for (const char *p = r->status != HD_OK && !r->window ? ctx->err : ""; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        if ((unsigned char)*p >= 0x20)
            fputc(*p, f);
    }
    fputc('"', f);
    if (o->window) /* what the statistics cover: the first W cycles, or the whole run */
        fprintf(f, ", \"measured\": \"%s\", \"window_cycles\": %s", r->window ? "window" : "whole",
                o->window);
    fprintf(f, ", \"mode\": \"%s\", \"wall_seconds\": %.6f, \"kernels\": %llu, \"ctas\": %llu, "
               "\"warp_instrs\": %llu, \"thread_instrs\": %llu},\n\"timing\": ",
            o->functional ? "functional" : "cycle", r->seconds,
            (unsigned long long)r->totals.kernels, (unsigned long long)r->totals.ctas,
            (unsigned long long)r->totals.warp_instrs,
            (unsigned long long)r->totals.thread_instrs);
    hd_gpu_write_stats_json(gpu, f);
    fprintf(f, ",\n\"power\": ");
    hd_gpu_write_power_json(gpu, f); /* null without a timed run or with [power] off */
    fprintf(f, "\n}\n");
}

static int write_stats(const char *path, const struct run_opts *o, const struct hd_config *cfg,
                       struct hd_gpu *gpu, const struct hd_wl_ctx *ctx, const struct run_result *r)
{
    struct hd_cli_out out;
    if (hd_cli_out_open(&out, "run", "--stats", path) != HD_CLI_OK)
        return HD_CLI_FAIL;
    FILE *f = out.f;
    if (ends_with(path, ".json")) {
        write_json(f, o, gpu, ctx, r);
        return hd_cli_out_commit(&out);
    }
    fprintf(f, "# Heddle statistics report: heddle run %s --size %s\n", o->workload,
            run_size_name(o));
    char cfgname[256];
    hd_cli_config_describe(&o->cfg, cfgname, sizeof cfgname);
    fprintf(f, "# Configuration used (%s):\n", cfgname);
    hd_config_write(cfg, f, "");
    fprintf(f, "\n[run]\nworkload = %s\nsize = %s\nverified = %s\nstatus = %d\n", o->workload,
            run_size_name(o), r->status == HD_OK ? "true" : "false", r->status);
    if (o->window) /* what the statistics cover: the first W cycles (not checked) or the run */
        fprintf(f, "measured = %s\nwindow_cycles = %s\n", r->window ? "window" : "whole",
                o->window);
    if (r->status != HD_OK && !r->window)
        fprintf(f, "# error: %s\n", ctx->err);
    fprintf(f, "wall_seconds = %.6f\n", r->seconds);
    fprintf(f, "\n[totals]\nkernels = %llu\nctas = %llu\nwarp_instrs = %llu\nthread_instrs = %llu\n",
            (unsigned long long)r->totals.kernels, (unsigned long long)r->totals.ctas,
            (unsigned long long)r->totals.warp_instrs,
            (unsigned long long)r->totals.thread_instrs);
    if (!o->functional) {
        struct hd_timing_totals tt;
        hd_gpu_timing_totals(gpu, &tt);
        fprintf(f, "\n[timing]\ncycles = %llu\nwarp_instrs = %llu\nipc = %.4f\nlaunches = %llu\n",
                (unsigned long long)tt.cycles, (unsigned long long)tt.warp_instrs,
                tt.cycles ? (double)tt.warp_instrs / (double)tt.cycles : 0.0,
                (unsigned long long)tt.launches);
    }
    return hd_cli_out_commit(&out);
}

static int run_workload(struct run_opts *o)
{
    const struct hd_workload *w = hd_workload_find(o->workload);
    if (!w)
        return hd_cli_usage("run", "unknown workload '%s' (see heddle list)", o->workload);
    struct hd_config cfg;
    int rc = hd_cli_config_resolve("run", &o->cfg, &cfg);
    if (rc != HD_CLI_OK)
        return rc;

    struct hd_wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = o->size;
    ctx.paper = o->paper;
    ctx.waves = o->waves;
    ctx.waves3 = o->waves3;
    ctx.ptx_text = hd_workload_ptx(w->name, &ctx.ptx_len);
    ctx.ptx_name = hd_workload_ptx_path(w->name);
    FILE *devnull = o->quiet ? fopen("/dev/null", "w") : NULL;
    ctx.log = devnull ? devnull : stdout;

    struct hd_gpu *gpu = hd_cli_gpu_create("run", &o->cfg, &cfg);
    if (!gpu) {
        if (devnull)
            fclose(devnull);
        return HD_CLI_FAIL;
    }
    hd_gpu_set_interrupt(gpu, hd_cli_interrupt_install());
    if (o->functional)
        hd_gpu_set_exec_mode(gpu, HD_EXEC_FUNCTIONAL);
    else if (hd_gpu_exec_mode(gpu) == HD_EXEC_FUNCTIONAL) /* [timing] mode = functional */
        o->functional = true;
    hd_gpu_set_sampling(gpu, o->sample);
    if (!o->hint_given && cfg.timing_workload_hint) /* Gong Table 6.1 (docs/locality.md) */
        o->hint = w->locality_hint;
    if (o->hint) {
        const struct hd_launch_attr attr = {0, 0, 0, o->hint};
        hd_set_launch_attr(gpu, &attr);
    }
    hd_gpu_set_progress(gpu, o->progress ? HD_PROGRESS_ON : HD_PROGRESS_AUTO);

    struct run_result r = {0};
    double t0 = hd_cli_now();
    r.status = w->run(gpu, &ctx);
    r.seconds = hd_cli_now() - t0;
    hd_gpu_totals(gpu, &r.totals);
    if (r.status != HD_OK && r.status != HD_WL_MISMATCH && !ctx.err[0])
        snprintf(ctx.err, sizeof ctx.err, "%s", hd_last_error(gpu));
    if (o->window && r.status != HD_OK && r.status != HD_WL_MISMATCH &&
        r.status != HD_ERR_INTERRUPTED) { /* stopped by the window's limit, not by an error? */
        struct hd_timing_totals tt;
        hd_gpu_timing_totals(gpu, &tt);
        r.window = tt.limit_stop == o->window_cycles && tt.cycles == o->window_cycles;
    }
    fflush(ctx.log);
    print_summary(stdout, o, &ctx, &r, "");
    if (r.status != HD_OK && !r.window && ctx.err[0]) /* every run-time error reaches stderr too */
        fprintf(stderr, "heddle run: %s: %s\n", o->workload, ctx.err);
    if (!o->functional)
        hd_gpu_print_stats(gpu, stdout);
    if (o->power && !o->functional)
        hd_gpu_print_power(gpu, stdout);
    rc = r.status == HD_OK || r.window    ? HD_CLI_OK
         : r.status == HD_ERR_INTERRUPTED ? HD_CLI_INTERRUPTED
                                          : HD_CLI_FAIL;
    if (o->stats) {
        int s = write_stats(o->stats, o, &cfg, gpu, &ctx, &r);
        if (s != HD_CLI_OK && rc == HD_CLI_OK)
            rc = s;
    }
    if (o->series) {
        int s = hd_cli_gpu_write("run", "--series", o->series, "series", gpu,
                                 hd_gpu_write_stats_csv);
        if (s != HD_CLI_OK && rc == HD_CLI_OK)
            rc = s;
    }
    if (o->profile && !o->functional) {
        int s = hd_cli_gpu_write("run", "--profile-out", o->profile, "profile", gpu,
                                 hd_gpu_write_drain_profile);
        if (s != HD_CLI_OK && rc == HD_CLI_OK)
            rc = s;
    }
    hd_gpu_destroy(gpu);
    if (devnull)
        fclose(devnull);
    return rc;
}

int hd_cli_run(int argc, char **argv)
{
    if (hd_cli_mix_requested(argc, argv))
        return hd_cli_run_mix(argc, argv); /* cli_mix.c */
    struct run_opts o = {.size = HD_WL_SMALL};
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets)
        return hd_cli_fail("run", "out of memory");
    o.cfg.sets = sets;
    int rc = parse_args(argc, argv, &o);
    if (rc == 1)
        rc = HD_CLI_OK;
    else if (rc != 0)
        rc -= 2;
    else
        rc = run_workload(&o);
    free(sets);
    return rc;
}
