/* SPDX-License-Identifier: MIT
 * bench_sim.c - simulation speed of one workload run: warp instructions per second of simulation
 * time, cycles, and peak memory, printed as one JSON object (bench/run-bench.sh runs the matrix).
 *
 * Design: the workload's host driver runs as under `heddle run`, but only the time the runtime
 * spends executing launches is counted as simulation time: the harness is linked with
 * -Wl,--wrap=hd_synchronize,--wrap=hd_stream_synchronize (bench/sim-speed.cmake), the two calls
 * through which every queued launch is executed (the copies and frees of heddle.h synchronize by
 * calling them), so input generation and the CPU reference check are excluded. Nested calls are
 * timed once. Wall time is CLOCK_MONOTONIC; CPU time is the process's user+system time over the
 * same intervals (the machine may be shared, so both are reported); peak memory is getrusage's
 * ru_maxrss for the whole process, which runs exactly one workload.
 *
 * Usage: bench_sim WORKLOAD SIZE CONFIG MODE    (MODE: cycle | functional)
 */
#include "heddle.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* {==== Timing the synchronizing calls ==== */
struct sim_clock {
    int depth;
    double wall, cpu;       /* accumulated */
    double wall0, cpu0;     /* at the outermost entry */
};

static struct sim_clock *bench_clock(void)
{
    static struct sim_clock c; /* the harness's only mutable static: the wrapper has no context */
    return &c;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void enter(void)
{
    struct sim_clock *c = bench_clock();
    if (c->depth++ == 0) {
        c->wall0 = wall_now();
        c->cpu0 = cpu_now();
    }
}

static void leave(void)
{
    struct sim_clock *c = bench_clock();
    if (--c->depth == 0) {
        c->wall += wall_now() - c->wall0;
        c->cpu += cpu_now() - c->cpu0;
    }
}

int __real_hd_synchronize(struct hd_gpu *gpu);
int __real_hd_stream_synchronize(struct hd_gpu *gpu, int stream);
int __wrap_hd_synchronize(struct hd_gpu *gpu);
int __wrap_hd_stream_synchronize(struct hd_gpu *gpu, int stream);

int __wrap_hd_synchronize(struct hd_gpu *gpu)
{
    enter();
    int st = __real_hd_synchronize(gpu);
    leave();
    return st;
}

int __wrap_hd_stream_synchronize(struct hd_gpu *gpu, int stream)
{
    enter();
    int st = __real_hd_stream_synchronize(gpu, stream);
    leave();
    return st;
}
/* }==== */

static int usage(void)
{
    fprintf(stderr, "usage: bench_sim WORKLOAD small|medium|large CONFIG.ini cycle|functional\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return usage();
    const struct hd_workload *w = hd_workload_find(argv[1]);
    if (!w) {
        fprintf(stderr, "bench_sim: unknown workload '%s'\n", argv[1]);
        return 2;
    }
    enum hd_wl_size size;
    if (strcmp(argv[2], "small") == 0)
        size = HD_WL_SMALL;
    else if (strcmp(argv[2], "medium") == 0)
        size = HD_WL_MEDIUM;
    else if (strcmp(argv[2], "large") == 0)
        size = HD_WL_LARGE;
    else
        return usage();
    enum hd_exec_mode mode;
    if (strcmp(argv[4], "cycle") == 0)
        mode = HD_EXEC_CYCLE;
    else if (strcmp(argv[4], "functional") == 0)
        mode = HD_EXEC_FUNCTIONAL;
    else
        return usage();

    char err[512] = "";
    struct hd_gpu *gpu = hd_gpu_create(argv[3], err, sizeof err);
    if (!gpu) {
        fprintf(stderr, "bench_sim: %s\n", err);
        return 1;
    }
    hd_gpu_set_exec_mode(gpu, mode);
    struct hd_wl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.size = size;
    ctx.ptx_text = hd_workload_ptx(w->name, &ctx.ptx_len);
    ctx.ptx_name = hd_workload_ptx_path(w->name);
    FILE *devnull = fopen("/dev/null", "w");
    ctx.log = devnull ? devnull : stderr;

    double t0 = wall_now();
    int st = w->run(gpu, &ctx);
    double total = wall_now() - t0;
    struct hd_run_totals tot;
    hd_gpu_totals(gpu, &tot);
    struct hd_timing_totals tt;
    memset(&tt, 0, sizeof tt);
    hd_gpu_timing_totals(gpu, &tt);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const struct sim_clock *c = bench_clock();

    printf("{\"workload\": \"%s\", \"size\": \"%s\", \"config\": \"%s\", \"mode\": \"%s\", "
           "\"verified\": %s, \"warp_instrs\": %llu, \"cycles\": %llu, \"sim_wall_s\": %.6f, "
           "\"sim_cpu_s\": %.6f, \"run_wall_s\": %.6f, \"kips_wall\": %.3f, \"kips_cpu\": %.3f, "
           "\"maxrss_kb\": %ld}\n",
           w->name, argv[2], argv[3], argv[4], st == HD_OK ? "true" : "false",
           (unsigned long long)tot.warp_instrs,
           (unsigned long long)(mode == HD_EXEC_CYCLE ? tt.cycles : 0), c->wall, c->cpu, total,
           c->wall > 0 ? (double)tot.warp_instrs / c->wall / 1e3 : 0.0,
           c->cpu > 0 ? (double)tot.warp_instrs / c->cpu / 1e3 : 0.0, ru.ru_maxrss);
    if (st != HD_OK)
        fprintf(stderr, "bench_sim: %s did not verify: %s\n", w->name, ctx.err);
    hd_gpu_destroy(gpu);
    if (devnull)
        fclose(devnull);
    return st == HD_OK ? 0 : 1;
}
