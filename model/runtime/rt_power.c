/* SPDX-License-Identifier: MIT
 * rt_power.c - the heddle.h calls of the energy report (model/power, docs/power.md): it is
 * built from the timing model's and the memory system's statistics when asked for, so a run
 * pays nothing for it while it simulates.
 */
#include "rt_internal.h"

#include "gpu_timing.h"
#include "mem_full.h"
#include "power_report.h"

#include <stdio.h>

/* Build the report of gpu's statistics; false (nothing to report) without a timing model or
 * with [power] enabled = false, or on an error (its message in gpu's last error). */
static bool build(const struct hd_gpu *gpu, struct hd_power_report *r, int *status)
{
    *status = HD_OK;
    if (!gpu->timing || !gpu->cfg.power_enabled)
        return false;
    const struct hd_mem *mem = hd_gpu_timing_mem(gpu->timing);
    const struct hd_mem_stats *ms = mem && hd_mem_is_full(mem) ? hd_mem_full_stats(mem) : NULL;
    char err[256];
    if (hd_power_report_build(r, hd_gpu_timing_stats(gpu->timing), ms, &gpu->cfg, err,
                              sizeof err) != 0) {
        *status = hd_rt_fail((struct hd_gpu *)gpu, HD_ERR_INTERNAL, "%s", err);
        return false;
    }
    return true;
}

int hd_gpu_write_power_json(const struct hd_gpu *gpu, FILE *out)
{
    struct hd_power_report r;
    int st;
    if (!build(gpu, &r, &st)) {
        fputs("null", out);
        return st != HD_OK ? st : ferror(out) ? HD_ERR_INTERNAL : HD_OK;
    }
    hd_power_report_json(&r, hd_gpu_timing_stats(gpu->timing), out, "");
    hd_power_report_free(&r);
    return ferror(out) ? HD_ERR_INTERNAL : HD_OK;
}

int hd_gpu_print_power(const struct hd_gpu *gpu, FILE *out)
{
    struct hd_power_report r;
    int st;
    if (!build(gpu, &r, &st)) {
        if (st == HD_OK)
            fprintf(out, "power: no energy report (%s)\n",
                    gpu->timing ? "[power] enabled = false" : "no timed run");
        return st != HD_OK ? st : ferror(out) ? HD_ERR_INTERNAL : HD_OK;
    }
    hd_power_report_text(&r, hd_gpu_timing_stats(gpu->timing), out);
    hd_power_report_free(&r);
    return ferror(out) ? HD_ERR_INTERNAL : HD_OK;
}

int hd_gpu_power_totals(const struct hd_gpu *gpu, double *joules, double *watts)
{
    *joules = *watts = 0;
    struct hd_power_report r;
    int st;
    if (!build(gpu, &r, &st))
        return st != HD_OK ? st : HD_ERR_NOT_FOUND;
    *joules = r.run.total_j;
    *watts = hd_power_watts(&r.run, HD_PC_COUNT);
    hd_power_report_free(&r);
    return HD_OK;
}
