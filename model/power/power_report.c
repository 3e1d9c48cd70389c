/* SPDX-License-Identifier: MIT
 * power_report.c - the energy report: building it from the statistics and writing it as text
 * and JSON (power_report.h).
 */
#include "power_report.h"

#include "power_blocks.h"

#include <stdlib.h>
#include <string.h>

int hd_power_report_build(struct hd_power_report *r, const struct hd_timing_stats *ts,
                          const struct hd_mem_stats *mem, const struct hd_config *cfg, char *err,
                          size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (hd_power_params_init(&r->p, cfg, err, errlen) != 0)
        return -1;
    r->memory = mem != NULL;
    const double f = r->p.core_hz;
    hd_power_events_run(&r->run_ev, ts, mem, cfg);
    hd_power_energy_compute(&r->p, &r->run_ev, (double)ts->cycles / f, &r->run);
    r->nlaunch = ts->nlaunch;
    r->nsm = ts->num_sms;
    r->launch = calloc(r->nlaunch ? r->nlaunch : 1, sizeof *r->launch);
    r->sm = calloc(r->nsm ? r->nsm : 1, sizeof *r->sm);
    if (!r->launch || !r->sm) {
        hd_power_report_free(r);
        snprintf(err, errlen, "energy report: out of memory");
        return -1;
    }
    struct hd_power_launch_ctx lc;
    if (hd_power_launch_ctx_init(&lc, ts, mem, &r->run_ev) != 0) {
        hd_power_launch_ctx_free(&lc);
        hd_power_report_free(r);
        snprintf(err, errlen, "energy report: out of memory");
        return -1;
    }
    struct hd_power_energy kernels;
    memset(&kernels, 0, sizeof kernels);
    for (uint32_t i = 0; i < r->nlaunch; i++) {
        struct hd_power_events ev;
        hd_power_events_launch(&ev, ts, &lc, i);
        hd_power_energy_compute(&r->p, &ev, (double)ts->launch[i].c.cycles / f, &r->launch[i]);
        hd_power_energy_add(&kernels, &r->launch[i]);
    }
    hd_power_launch_ctx_free(&lc);
    hd_power_energy_sub(&r->run, &kernels, &r->other);
    r->other.seconds = r->run.seconds;
    for (uint32_t i = 0; i < r->nsm; i++) {
        struct hd_power_events ev;
        hd_power_events_sm(&ev, ts, mem, i);
        hd_power_energy_compute(&r->p, &ev, (double)ts->cycles / f, &r->sm[i]);
    }
    return 0;
}

void hd_power_report_free(struct hd_power_report *r)
{
    free(r->launch);
    free(r->sm);
    r->launch = r->sm = NULL;
    r->nlaunch = r->nsm = 0;
}

/* {==== Text ==== */
static double pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

void hd_power_report_text(const struct hd_power_report *r, const struct hd_timing_stats *ts,
                          FILE *out)
{
    const struct hd_power_energy *e = &r->run;
    fprintf(out, "power: %.6f ms simulated, %.4f mJ, average %.2f W (dynamic %.2f W, static "
                 "%.2f W)%s\n",
            e->seconds * 1e3, e->total_j * 1e3, hd_power_watts(e, HD_PC_COUNT),
            e->seconds > 0 ? e->dynamic_j / e->seconds : 0.0,
            e->seconds > 0 ? e->static_j / e->seconds : 0.0,
            r->memory ? ""
                      : " [fixed-latency memory: no memory-system events, static power only]");
    fprintf(out, "power:   %-14s %12s %10s %7s %10s\n", "component", "energy mJ", "power W",
            "share", "static W");
    for (unsigned c = 0; c < HD_PC_COUNT; c++)
        fprintf(out, "power:   %-14s %12.5f %10.3f %6.1f%% %10.3f\n",
                hd_pcomp_label((enum hd_pcomp)c), e->comp[c] * 1e3, hd_power_watts(e, c),
                pct(e->comp[c], e->total_j),
                e->seconds > 0 ? e->comp_static[c] / e->seconds : 0.0);
    for (uint32_t i = 0; i < r->nlaunch; i++) {
        const struct hd_power_energy *k = &r->launch[i];
        fprintf(out, "power: kernel %u %-24s %10.5f mJ over %llu cycles, %8.2f W\n", i,
                ts->launch[i].kernel, k->total_j * 1e3,
                (unsigned long long)ts->launch[i].c.cycles, hd_power_watts(k, HD_PC_COUNT));
    }
    if (r->nlaunch)
        fprintf(out, "power: not in a kernel %25.5f mJ\n", r->other.total_j * 1e3);
    unsigned idle = 0;
    for (uint32_t i = 0; i < r->nsm; i++)
        idle += r->sm[i].dynamic_j == 0;
    fprintf(out, "power: SMs without dynamic energy (static only): %u of %u\n", idle, r->nsm);
}
/* }==== */

/* {==== JSON ==== */
static void comps_json(FILE *out, const struct hd_power_energy *e, bool with_power)
{
    fputc('{', out);
    for (unsigned c = 0; c < HD_PC_COUNT; c++) {
        if (with_power)
            fprintf(out, "%s\"%s\": {\"energy_j\": %.9g, \"static_j\": %.9g, \"power_w\": %.6g}",
                    c ? ", " : "", hd_pcomp_name((enum hd_pcomp)c), e->comp[c],
                    e->comp_static[c], hd_power_watts(e, c));
        else
            fprintf(out, "%s\"%s\": %.9g", c ? ", " : "", hd_pcomp_name((enum hd_pcomp)c),
                    e->comp[c]);
    }
    fputc('}', out);
}

static void totals_json(FILE *out, const struct hd_power_energy *e)
{
    fprintf(out, "\"seconds\": %.9g, \"energy_j\": %.9g, \"dynamic_j\": %.9g, \"static_j\": %.9g, "
                 "\"avg_power_w\": %.6g",
            e->seconds, e->total_j, e->dynamic_j, e->static_j, hd_power_watts(e, HD_PC_COUNT));
}

void hd_power_report_json(const struct hd_power_report *r, const struct hd_timing_stats *ts,
                          FILE *out, const char *ind)
{
    fprintf(out, "{\n%s  \"model\": \"event energies x counts + static power x time "
                 "(docs/power.md)\", \"memory_modeled\": %s,\n%s  ",
            ind, r->memory ? "true" : "false", ind);
    totals_json(out, &r->run);
    fprintf(out, ",\n%s  \"components\": ", ind);
    comps_json(out, &r->run, true);
    fprintf(out, ",\n%s  \"kernels\": [", ind);
    for (uint32_t i = 0; i < r->nlaunch; i++) {
        fprintf(out, "%s\n%s    {\"launch\": %u, \"kernel\": ", i ? "," : "", ind, i);
        hd_stats_json_str(out, ts->launch[i].kernel);
        fputs(", ", out);
        totals_json(out, &r->launch[i]);
        fputs(", \"components_j\": ", out);
        comps_json(out, &r->launch[i], false);
        fputc('}', out);
    }
    if (r->nlaunch)
        fprintf(out, "\n%s  ", ind);
    fprintf(out, "],\n%s  \"other\": {", ind);
    totals_json(out, &r->other);
    fputs(", \"components_j\": ", out);
    comps_json(out, &r->other, false);
    fprintf(out, "},\n%s  \"sms\": [", ind);
    for (uint32_t i = 0; i < r->nsm; i++)
        fprintf(out, "%s{\"sm\": %u, \"energy_j\": %.9g, \"dynamic_j\": %.9g, \"static_j\": %.9g}",
                i ? ", " : "", i, r->sm[i].total_j, r->sm[i].dynamic_j, r->sm[i].static_j);
    fprintf(out, "],\n%s  \"events\": {", ind);
    for (unsigned k = 0; k < HD_PEV_COUNT; k++)
        fprintf(out, "%s\"%s\": %.9g", k ? ", " : "", hd_pevent_name((enum hd_pevent)k),
                r->run_ev.n[k]);
    fprintf(out, "},\n%s  \"dram_derived\": {\"act_pre_pair_j\": %.6g, \"read_burst_j\": %.6g, "
                 "\"write_burst_j\": %.6g, \"refresh_j\": %.6g, \"background_w\": %.6g},\n",
            ind, r->p.dram_act_pre_j, r->p.dram_rd_burst_j, r->p.dram_wr_burst_j, r->p.dram_ref_j,
            r->p.dram_bg_w);
    fprintf(out, "%s  \"blocks_leakage_w\": %.6g\n%s}", ind, r->p.blocks_leak_w, ind);
}
/* }==== */
