/* SPDX-License-Identifier: MIT
 * rt_exec_timing.c - the timing executor (model/timing) and the heddle.h calls that select it
 * and read its statistics.
 *
 * Design: the GPU's timing model (struct hd_gpu_timing) is created at the first timed batch and
 * lives as long as the GPU, so cycles and statistics accumulate over every synchronization.
 * The executor hands each batch to hd_gpu_timing_run() (launches of different streams overlap).
 * While clients of a mix run, the timing model reports each finished launch: the mix resumes
 * that launch's client at once if it waits for nothing else, and the launches the client queued
 * then join the running batch (every client of a mix runs on, issue 24 item 1).
 * Which executor runs is the configuration's [timing] mode, overridable with
 * hd_gpu_set_exec_mode(). The progress line is the only place that reads the wall clock, and it
 * only prints: simulated results never depend on it.
 */
#include "rt_client.h"
#include "rt_internal.h"

#include "func_status.h"
#include "drain_profile.h"
#include "gpu_timing.h"
#include "mem_full.h"
#include "mem_report.h"
#include "timing_stats.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* {==== Progress line ==== */
static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every 2 s of wall time, once the GPU has been simulating for 3 s (over all batches). The
 * line is redrawn in place and erased at the end of each batch, so normal output follows on
 * a clean line. */
static void progress_line(void *ctx, const struct hd_timing_stats *st, uint64_t cycle,
                          unsigned done, unsigned total)
{
    struct hd_gpu *gpu = ctx;
    (void)done;
    (void)total;
    double now = wall_now(), t = now - gpu->progress_t0;
    if (gpu->progress_mode == HD_PROGRESS_OFF || t < 3.0 || now - gpu->progress_last < 2.0)
        return;
    if (gpu->progress_mode == HD_PROGRESS_AUTO && !isatty(STDERR_FILENO))
        return;
    unsigned finished = 0;
    for (uint32_t i = 0; i < st->nlaunch; i++)
        finished += st->launch[i].finished;
    gpu->progress_last = now;
    gpu->progress_shown = true;
    fprintf(stderr,
            "\r[heddle] %.0f s: cycle %" PRIu64 ", %.2f M warp instrs (IPC %.2f), %u of %u "
            "launches done, %.0f KIPS  ",
            t, cycle, (double)st->warp_instrs / 1e6,
            st->cycles ? (double)st->warp_instrs / (double)st->cycles : 0.0, finished,
            st->nlaunch, t > 0 ? (double)(st->warp_instrs - gpu->progress_instrs0) / t / 1e3 : 0.0);
    fflush(stderr);
}
/* }==== */

/* {==== The executor ==== */
static int ensure_timing(struct hd_gpu *gpu, char *err, size_t errlen)
{
    if (gpu->timing)
        return HD_FUNC_OK;
    int st = hd_gpu_timing_create(&gpu->cfg, &gpu->timing, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    hd_gpu_timing_set_sampling(gpu->timing, gpu->sample_every);
    hd_gpu_timing_set_progress(gpu->timing, progress_line, gpu);
    hd_gpu_timing_set_hw_factory(gpu->timing, gpu->hw_factory);
    return HD_FUNC_OK;
}

int hd_rt_timing_copied_h2d(struct hd_gpu *gpu, hd_devptr dst, size_t bytes)
{
    if (!gpu->cfg.mem_l2_preload_copies || gpu->mode != HD_EXEC_CYCLE || !bytes)
        return HD_OK;
    char err[512];
    if (ensure_timing(gpu, err, sizeof err) != HD_FUNC_OK)
        return hd_rt_fail(gpu, HD_ERR_CONFIG, "%s", err);
    hd_gpu_timing_copied_h2d(gpu->timing, dst, bytes);
    return HD_OK;
}

int hd_rt_timing_copied_d2h(struct hd_gpu *gpu, hd_devptr src, size_t bytes)
{
    if (!gpu->cfg.mem_l2_preload_d2h)
        return HD_OK;
    return hd_rt_timing_copied_h2d(gpu, src, bytes); /* the same tag update */
}

/* The finish hook while clients of a mix run: resume the launch's client if it may, then hand the
 * launches it queued to the running batch. */
static int launch_finished(void *ctx, struct hd_func_launch *l, int stream, char *err,
                           size_t errlen)
{
    struct hd_gpu *gpu = ctx;
    hd_rt_mix_launch_finished(gpu, l, stream);
    for (; gpu->nrun < gpu->nqueue; gpu->nrun++) {
        int st = hd_gpu_timing_add(gpu->timing, gpu->queue[gpu->nrun].launch,
                                   gpu->queue[gpu->nrun].stream, err, errlen);
        if (st != HD_FUNC_OK)
            return st;
    }
    return HD_FUNC_OK;
}

static int run_timing(void *impl, struct hd_func_launch *const *launches, const int *streams,
                      unsigned n, volatile sig_atomic_t *interrupt, char *err, size_t errlen)
{
    struct hd_gpu *gpu = impl;
    int st = ensure_timing(gpu, err, errlen);
    if (st != HD_FUNC_OK)
        return st;
    if (gpu->progress_t0 == 0) { /* the first timed batch */
        gpu->progress_t0 = gpu->progress_last = wall_now();
        gpu->progress_instrs0 = hd_gpu_timing_stats(gpu->timing)->warp_instrs;
    }
    const bool open = gpu->mix && gpu->nrun == gpu->nqueue && hd_rt_mix_live(gpu);
    hd_gpu_timing_set_finish(gpu->timing, open ? launch_finished : NULL, gpu);
    st = hd_gpu_timing_run(gpu->timing, launches, streams, n, interrupt, err, errlen);
    hd_gpu_timing_set_finish(gpu->timing, NULL, NULL);
    if (gpu->progress_shown) /* erase the line */
        fprintf(stderr, "\r%100s\r", "");
    gpu->progress_shown = false;
    gpu->timing_status = st;
    snprintf(gpu->timing_msg, sizeof gpu->timing_msg, "%s", st == HD_FUNC_OK ? "" : err);
    return st;
}

static void destroy_timing(void *impl)
{
    (void)impl; /* the timing model belongs to the GPU (hd_rt_timing_free) */
}

/* The timing executor (impl is the GPU). */
static const struct hd_rt_exec_ops hd_rt_exec_timing = {"timing", run_timing, destroy_timing};

void hd_rt_timing_free(struct hd_gpu *gpu)
{
    hd_gpu_timing_destroy(gpu->timing);
    gpu->timing = NULL;
}
/* }==== */

/* {==== heddle.h ==== */
void hd_gpu_set_exec_mode(struct hd_gpu *gpu, enum hd_exec_mode mode)
{
    gpu->mode = mode;
    gpu->exec = mode == HD_EXEC_FUNCTIONAL ? &hd_rt_exec_functional : &hd_rt_exec_timing;
    gpu->exec_impl = gpu; /* the functional executor reads its limit from the configuration */
}

enum hd_exec_mode hd_gpu_exec_mode(const struct hd_gpu *gpu)
{
    return gpu->mode;
}

void hd_gpu_set_sampling(struct hd_gpu *gpu, uint64_t cycles)
{
    gpu->sample_every = cycles;
    if (gpu->timing)
        hd_gpu_timing_set_sampling(gpu->timing, cycles);
}

void hd_gpu_set_progress(struct hd_gpu *gpu, enum hd_progress mode)
{
    gpu->progress_mode = mode;
}

void hd_gpu_timing_totals(const struct hd_gpu *gpu, struct hd_timing_totals *out)
{
    memset(out, 0, sizeof *out);
    if (!gpu->timing)
        return;
    const struct hd_timing_stats *s = hd_gpu_timing_stats(gpu->timing);
    out->cycles = s->cycles;
    out->warp_instrs = s->warp_instrs;
    out->thread_instrs = s->thread_instrs;
    out->launches = s->nlaunch;
    out->limit_stop = s->limit_stop;
    for (uint32_t i = s->nlaunch; i-- > 0;)
        if (s->launch[i].finished) {
            out->last_launch_cycles = s->launch[i].c.cycles;
            break;
        }
}

unsigned hd_gpu_launch_timing_count(const struct hd_gpu *gpu)
{
    return gpu->timing ? hd_gpu_timing_stats(gpu->timing)->nlaunch : 0;
}

int hd_gpu_launch_timing(const struct hd_gpu *gpu, unsigned index, struct hd_launch_timing *out)
{
    memset(out, 0, sizeof *out);
    if (!gpu->timing || index >= hd_gpu_timing_stats(gpu->timing)->nlaunch)
        return HD_ERR_NOT_FOUND;
    const struct hd_launch_info *li = &hd_gpu_timing_stats(gpu->timing)->launch[index];
    snprintf(out->kernel, sizeof out->kernel, "%s", li->kernel);
    out->stream = li->stream;
    out->finished = li->finished;
    out->start_cycle = li->c.start_cycle;
    out->end_cycle = li->c.end_cycle;
    out->cycles = li->c.cycles;
    out->warp_instrs = li->c.warp_instrs;
    out->ctas = li->c.ctas;
    out->sms_used = (uint32_t)li->c.sms_used;
    out->max_coresident = (uint32_t)li->c.max_coresident_launches;
    out->regs_per_thread = li->regs_per_thread;
    snprintf(out->regs_source, sizeof out->regs_source, "%s", li->regs_source);
    out->regs_regalloc = li->regs_regalloc;
    out->ctas_per_sm = li->ctas_per_sm;
    return HD_OK;
}

int hd_gpu_stat(const struct hd_gpu *gpu, const char *name, uint64_t *value)
{
    *value = 0;
    if (!name)
        return HD_ERR_NOT_FOUND;
    const struct hd_timing_stats *s = gpu->timing ? hd_gpu_timing_stats(gpu->timing) : NULL;
    unsigned n;
    const struct hd_stat_desc *d;
    if (strncmp(name, "sm.", 3) == 0) {
        d = hd_sm_stats_desc(&n);
        for (unsigned k = 0; k < n; k++)
            if (strcmp(d[k].name, name + 3) == 0) {
                for (uint32_t i = 0; s && i < s->num_sms; i++)
                    *value += hd_stat_get(&s->sm[i], &d[k]);
                return HD_OK;
            }
    } else if (strncmp(name, "sched.", 6) == 0) {
        d = hd_sched_stats_desc(&n);
        struct hd_sched_stats t;
        memset(&t, 0, sizeof t);
        if (s)
            hd_timing_stats_sched_total(s, &t);
        for (unsigned k = 0; k < n; k++)
            if (strcmp(d[k].name, name + 6) == 0) {
                *value = hd_stat_get(&t, &d[k]);
                return HD_OK;
            }
    }
    return hd_rt_fail((struct hd_gpu *)gpu, HD_ERR_NOT_FOUND,
                      "hd_gpu_stat: no counter '%s' (sm.<counter> from model/timing/sm_stats.def "
                      "or sched.<counter> from sched_stats.def)",
                      name);
}

/* The memory system's section of the JSON statistics (full model only). */
static void memory_json(FILE *out, void *ctx)
{
    hd_mem_report_json(out, ctx, "  ");
}

int hd_gpu_write_stats_json(const struct hd_gpu *gpu, FILE *out)
{
    static const struct hd_timing_stats empty;
    const struct hd_timing_stats *s = gpu->timing ? hd_gpu_timing_stats(gpu->timing) : &empty;
    const struct hd_mem *mem = gpu->timing ? hd_gpu_timing_mem(gpu->timing) : NULL;
    if (mem && hd_mem_is_full(mem))
        hd_timing_stats_json_ex(s, &gpu->cfg, gpu->timing_status, gpu->timing_msg, out,
                                memory_json, (void *)mem);
    else
        hd_timing_stats_json(s, &gpu->cfg, gpu->timing_status, gpu->timing_msg, out);
    return ferror(out) ? HD_ERR_INTERNAL : HD_OK;
}

int hd_gpu_write_drain_profile(const struct hd_gpu *gpu, FILE *out)
{
    static const struct hd_timing_stats empty;
    const struct hd_timing_stats *s = gpu->timing ? hd_gpu_timing_stats(gpu->timing) : &empty;
    return hd_drain_profile_write(s, out) == 0 ? HD_OK : HD_ERR_INTERNAL;
}

int hd_gpu_write_stats_csv(const struct hd_gpu *gpu, FILE *out)
{
    if (gpu->timing)
        hd_timing_stats_csv(hd_gpu_timing_stats(gpu->timing), out);
    return ferror(out) ? HD_ERR_INTERNAL : HD_OK;
}

int hd_gpu_print_stats(const struct hd_gpu *gpu, FILE *out)
{
    if (gpu->timing) {
        hd_timing_stats_summary(hd_gpu_timing_stats(gpu->timing), out);
        hd_mem_report_text(out, hd_gpu_timing_mem(gpu->timing), "memory: ");
    }
    return ferror(out) ? HD_ERR_INTERNAL : HD_OK;
}
/* }==== */
