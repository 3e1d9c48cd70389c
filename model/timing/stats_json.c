/* SPDX-License-Identifier: MIT
 * stats_json.c - the statistics report as JSON (and the time series as CSV).
 *
 * Design: one object with the configuration echo (sections of "key": value, rule C12), the run
 * status, totals, per-scheduler totals, launches, SMs with their schedulers, per-PTX-line
 * counters per kernel and the samples. Every counter table is written by walking its X-macro
 * descriptor, so the report never lags behind the counters. Numbers are integers except the
 * derived ratios; strings are escaped.
 */
#include "timing_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* {==== Helpers ==== */
void hd_stats_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void jtable(FILE *f, const void *table, const struct hd_stat_desc *d, unsigned n,
                   bool lead_comma)
{
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s\"%s\": %" PRIu64, i || lead_comma ? ", " : "", d[i].name,
                hd_stat_get(table, &d[i]));
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static void jconfig(FILE *f, const struct hd_config *cfg)
{
    unsigned n;
    const struct hd_cfg_param *p = hd_config_params(&n);
    fprintf(f, "  \"config\": {");
    const char *sec = NULL;
    for (unsigned i = 0; i < n; i++) {
        if (!sec || strcmp(sec, p[i].section) != 0) {
            fprintf(f, "%s\n    \"%s\": {", sec ? "}," : "", p[i].section);
            sec = p[i].section;
        } else {
            fprintf(f, ", ");
        }
        char v[128];
        hd_config_format_value(cfg, &p[i], v, sizeof v);
        fprintf(f, "\"%s\": ", p[i].key);
        if (p[i].type == HD_CFG_STR)
            fputs(v, f); /* already quoted; names hold no quotes */
        else if (p[i].type == HD_CFG_ENUM)
            hd_stats_json_str(f, v);
        else
            fputs(v, f);
    }
    fprintf(f, "%s\n  },\n", sec ? "}" : "");
}
/* }==== */

/* {==== Per-line aggregation ==== */
struct line_row {
    uint32_t line;
    uint64_t issued, stall;
};

static int row_cmp(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Rows of one kernel with any counts, by line. Returns the count (rows malloc'ed). */
static unsigned line_rows(const struct hd_line_stats *ls, struct line_row **out)
{
    struct line_row *r = calloc(ls->npc + 1, sizeof *r);
    unsigned n = 0;
    if (!r) {
        *out = NULL;
        return 0;
    }
    for (uint32_t pc = 0; pc < ls->npc; pc++)
        if (ls->issued[pc] || ls->stall[pc])
            r[n++] = (struct line_row){ls->line[pc], ls->issued[pc], ls->stall[pc]};
    qsort(r, n, sizeof *r, row_cmp);
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        if (m && r[m - 1].line == r[i].line) {
            r[m - 1].issued += r[i].issued;
            r[m - 1].stall += r[i].stall;
        } else {
            r[m++] = r[i];
        }
    }
    *out = r;
    return m;
}
/* }==== */

static void jlaunches(FILE *f, const struct hd_timing_stats *s)
{
    unsigned nd;
    const struct hd_stat_desc *d = hd_launch_stats_desc(&nd);
    fprintf(f, "  \"launches\": [");
    for (uint32_t i = 0; i < s->nlaunch; i++) {
        const struct hd_launch_info *li = &s->launch[i];
        fprintf(f, "%s\n    {\"id\": %u, \"kernel\": ", i ? "," : "", li->id);
        hd_stats_json_str(f, li->kernel);
        fprintf(f, ", \"stream\": %d, \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]",
                li->stream, li->grid[0], li->grid[1], li->grid[2], li->block[0], li->block[1],
                li->block[2]);
        fprintf(f, ", \"shared_bytes\": %" PRIu64 ", \"regs_per_thread\": %u, \"regs_source\": ",
                li->smem, li->regs_per_thread);
        hd_stats_json_str(f, li->regs_source);
        fprintf(f, ", \"regs_regalloc\": %u", li->regs_regalloc);
        fprintf(f, ", \"ctas_per_sm\": %u, \"limiter\": ", li->ctas_per_sm);
        hd_stats_json_str(f, li->limiter);
        fprintf(f, ", \"finished\": %s, \"ipc\": %.4f", li->finished ? "true" : "false",
                ratio(li->c.warp_instrs, li->c.cycles));
        jtable(f, &li->c, d, nd, true);
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n");
}

/* Preemption requests (ctx_preempt.c): cycles of signal, SM freed, victims quiet, saved. */
static void jpreempt(FILE *f, const struct hd_timing_stats *s)
{
    static const char *const prim[] = {"none", "switch", "drain", "flush", "mixed"};
    fprintf(f, "  \"preemptions\": [");
    for (uint32_t i = 0; i < s->npreempt; i++) {
        const struct hd_preempt_rec *r = &s->preempt[i];
        if (r->launch == HD_PREEMPT_SIGNAL)
            fprintf(f, "%s\n    {\"launch\": \"signal\"", i ? "," : "");
        else
            fprintf(f, "%s\n    {\"launch\": %u", i ? "," : "", r->launch);
        fprintf(f, ", \"victim\": %u, \"sm\": %u, \"primitive\": \"%s\", "
                   "\"signal\": %" PRIu64 ", \"met\": %s, \"freed\": %" PRIu64
                   ", \"quiet\": %" PRIu64 ", \"saved\": %" PRIu64 ", \"refused\": %u, \"bound\": %"
                   PRIu64 ", \"missed\": %s, \"switched\": %u, \"drained\": %u, \"flushed\": %u"
                   ", \"bytes\": %" PRIu64 ", \"victim_instrs\": %" PRIu64
                   ", \"flushed_instrs\": %" PRIu64 ", \"switch_ipc\": %.6f",
                r->victim, r->sm, prim[r->primitive < 5 ? r->primitive : 0], r->signal,
                r->met ? "true" : "false", r->freed, r->quiet, r->saved, r->refused, r->bound,
                r->missed ? "true" : "false", r->switched, r->drained, r->flushed, r->bytes,
                r->victim_instrs, r->flushed_instrs, r->switch_ipc);
        fprintf(f, ", \"bytes_regs\": %" PRIu64 ", \"bytes_smem\": %" PRIu64
                   ", \"bytes_stack\": %" PRIu64, r->bytes_regs, r->bytes_smem, r->bytes_stack);
        fprintf(f, ", \"warp_spill_cycles\": %" PRIu64 ", \"warp_spill_warps\": %u"
                   ", \"smem_kept\": %u, \"smem_kept_bytes\": %" PRIu64,
                r->warp_spill_cycles, r->warp_spill_warps, r->smem_kept, r->smem_kept_bytes);
        fprintf(f, ", \"cycles_regs\": %" PRIu64 ", \"cycles_smem\": %" PRIu64
                   ", \"cycles_stack\": %" PRIu64, r->cycles_regs, r->cycles_smem, r->cycles_stack);
        fprintf(f, ", \"warp_service_cycles\": %" PRIu64, r->warp_service_cycles);
        fprintf(f, ", \"regs_kept\": %u, \"cycles_engine\": %" PRIu64, r->regs_kept,
                r->cycles_engine);
        const double uc = r->util_cycles ? (double)r->util_cycles : 1.0;
        fprintf(f, ", \"util_cycles\": %" PRIu64 ", \"util_regs\": %.6f, \"util_threads\": %.6f"
                   ", \"regs_at_signal\": %.6f, \"threads_at_signal\": %.6f"
                   ", \"ctas_at_signal\": %u, \"asked\": %u, \"asked_estimated\": %u, \"drains\": [",
                r->util_cycles, r->util_regs / uc, r->util_threads / uc, r->regs_at_signal,
                r->threads_at_signal, r->ctas_at_signal, r->asked, r->asked_estimated);
        unsigned nd = 0;
        for (uint32_t k = 0; k < s->ndobs; k++) {
            const struct hd_drain_obs *d = &s->dobs[k];
            if (d->rec != i)
                continue;
            fprintf(f, "%s[", nd++ ? ", " : "");
            const uint64_t v[3] = {d->est_shieh, d->est_chimera, d->actual};
            for (unsigned j = 0; j < 3; j++) { /* null: no estimate (or not timed) */
                const bool none = v[j] == HD_DRAIN_EST_NONE || (j < 2 && v[j] >= HD_DRAIN_EST_MAX) ||
                                  (j == 2 && v[j] == HD_DRAIN_LOST);
                if (none)
                    fprintf(f, "%snull", j ? ", " : "");
                else
                    fprintf(f, "%s%" PRIu64, j ? ", " : "", v[j]);
            }
            fputc(']', f);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "%s],\n", s->npreempt ? "\n  " : "");
}

static void jsms(FILE *f, const struct hd_timing_stats *s)
{
    unsigned nsm, nsc;
    const struct hd_stat_desc *dsm = hd_sm_stats_desc(&nsm), *dsc = hd_sched_stats_desc(&nsc);
    fprintf(f, "  \"sms\": [");
    for (uint32_t i = 0; i < s->num_sms; i++) {
        const struct hd_sm_stats *m = &s->sm[i];
        fprintf(f, "%s\n    {\"id\": %u, \"ipc\": %.4f, \"avg_warps\": %.3f", i ? "," : "", i,
                ratio(m->warp_instrs, s->cycles), ratio(m->resident_warps, m->active_cycles));
        jtable(f, m, dsm, nsm, true);
        fprintf(f, ",\n     \"schedulers\": [");
        for (uint32_t k = 0; k < s->num_sched; k++) {
            fprintf(f, "%s{", k ? ", " : "");
            jtable(f, &s->sched[i * s->num_sched + k], dsc, nsc, false);
            fputc('}', f);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n");
}

static void jlines(FILE *f, const struct hd_timing_stats *s)
{
    fprintf(f, "  \"lines\": [");
    for (uint32_t i = 0; i < s->nlines; i++) {
        const struct hd_line_stats *ls = &s->lines[i];
        fprintf(f, "%s\n    {\"kernel\": ", i ? "," : "");
        hd_stats_json_str(f, ls->kernel);
        fprintf(f, ", \"file\": ");
        hd_stats_json_str(f, ls->file);
        fprintf(f, ", \"columns\": [\"line\", \"warp_instrs\", \"stall_cycles\"], \"rows\": [");
        struct line_row *r;
        unsigned n = line_rows(ls, &r);
        for (unsigned k = 0; k < n; k++)
            fprintf(f, "%s[%u, %" PRIu64 ", %" PRIu64 "]", k ? ", " : "", r[k].line, r[k].issued,
                    r[k].stall);
        free(r);
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n");
}

static void jsamples(FILE *f, const struct hd_timing_stats *s)
{
    fprintf(f, "  \"samples\": {\"every\": %" PRIu64
               ", \"columns\": [\"cycle\", \"warp_instrs\", \"ipc\", \"active_warps\", "
               "\"active_ctas\", \"progress\"], \"rows\": [",
            s->sample_every);
    for (uint32_t i = 0; i < s->nsamples; i++) {
        const struct hd_sample *x = &s->samples[i];
        uint64_t pc = i ? s->samples[i - 1].cycle : 0, pi = i ? s->samples[i - 1].warp_instrs : 0;
        fprintf(f, "%s\n    [%" PRIu64 ", %" PRIu64 ", %.4f, %u, %u, {", i ? "," : "", x->cycle,
                x->warp_instrs, ratio(x->warp_instrs - pi, x->cycle - pc), x->active_warps,
                x->active_ctas);
        for (uint32_t k = 0; k < x->prog_n; k++) {
            const struct hd_sample_prog *p = &s->prog[x->prog_off + k];
            fprintf(f, "%s\"%u\": %" PRIu64, k ? ", " : "", p->launch, p->ctas_done);
        }
        fprintf(f, "}]");
    }
    fprintf(f, "\n  ]}\n");
}

void hd_timing_stats_json(const struct hd_timing_stats *s, const struct hd_config *cfg,
                          int status, const char *message, FILE *f)
{
    hd_timing_stats_json_ex(s, cfg, status, message, f, NULL, NULL);
}

void hd_timing_stats_json_ex(const struct hd_timing_stats *s, const struct hd_config *cfg,
                             int status, const char *message, FILE *f,
                             void (*memory)(FILE *f, void *ctx), void *ctx)
{
    fprintf(f, "{\n  \"format\": \"heddle-timing-stats-1\",\n  \"status\": %d,\n  \"message\": ",
            status);
    hd_stats_json_str(f, message ? message : "");
    fprintf(f, ",\n");
    if (cfg)
        jconfig(f, cfg);
    fprintf(f, "  \"totals\": {\"cycles\": %" PRIu64 ", \"skipped_cycles\": %" PRIu64
               ", \"warp_instrs\": %" PRIu64 ", \"thread_instrs\": %" PRIu64
               ", \"ipc\": %.4f, \"core_mhz\": %.1f, \"simulated_us\": %.3f, \"launches\": %u"
               ", \"sm_bytes_per_cycle\": %.4f},\n",
            s->cycles, s->skipped_cycles, s->warp_instrs, s->thread_instrs,
            ratio(s->warp_instrs, s->cycles), s->core_mhz,
            s->core_mhz > 0 ? (double)s->cycles / s->core_mhz : 0.0, s->nlaunch,
            s->sm_bytes_per_cycle);
    struct hd_sched_stats tot;
    hd_timing_stats_sched_total(s, &tot);
    unsigned nsc;
    const struct hd_stat_desc *dsc = hd_sched_stats_desc(&nsc);
    fprintf(f, "  \"schedulers_total\": {");
    jtable(f, &tot, dsc, nsc, false);
    fprintf(f, "},\n");
    jlaunches(f, s);
    jpreempt(f, s);
    jsms(f, s);
    jlines(f, s);
    if (memory) { /* the memory system's section (model/mem/mem_report.h) */
        fprintf(f, "  \"memory\": ");
        memory(f, ctx);
        fprintf(f, ",\n");
    }
    jsamples(f, s);
    fprintf(f, "}\n");
}

void hd_timing_stats_csv(const struct hd_timing_stats *s, FILE *f)
{
    fprintf(f, "# Heddle time series: one row every %" PRIu64 " cycles\n", s->sample_every);
    fprintf(f, "cycle,ipc,warp_instrs,active_warps,active_ctas,running_launches,ctas_done\n");
    for (uint32_t i = 0; i < s->nsamples; i++) {
        const struct hd_sample *x = &s->samples[i];
        uint64_t pc = i ? s->samples[i - 1].cycle : 0, pi = i ? s->samples[i - 1].warp_instrs : 0;
        uint64_t done = 0;
        for (uint32_t k = 0; k < x->prog_n; k++)
            done += s->prog[x->prog_off + k].ctas_done;
        fprintf(f, "%" PRIu64 ",%.4f,%" PRIu64 ",%u,%u,%u,%" PRIu64 "\n", x->cycle,
                ratio(x->warp_instrs - pi, x->cycle - pc), x->warp_instrs, x->active_warps,
                x->active_ctas, x->prog_n, done);
    }
}
