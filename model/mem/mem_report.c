/* SPDX-License-Identifier: MIT
 * mem_report.c - JSON and text reports of the memory system's statistics (see mem_report.h).
 */
#include "mem_report.h"

#include "mem_full.h"

#include <inttypes.h>
#include <string.h>

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static bool acct_empty(const struct hd_mem_acct *a)
{
    static const struct hd_mem_acct zero;
    return memcmp(a, &zero, sizeof zero) == 0;
}

static void jacct(FILE *f, const struct hd_mem_acct *a)
{
    unsigned n;
    const struct hd_memstat_desc *d = hd_mem_acct_desc(&n);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s\"%s\": %" PRIu64, i ? ", " : "", d[i].name,
                *(const uint64_t *)(const void *)((const char *)a + d[i].offset));
}

/* An array of records, one object per line; `key`/`ids` name each one. */
static void jrecords(FILE *f, const char *ind, const char *name, const char *key,
                     const struct hd_mem_acct *r, const uint32_t *ids, uint32_t n, bool skip_empty)
{
    fprintf(f, ",\n%s  \"%s\": [", ind, name);
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        if (skip_empty && acct_empty(&r[i]))
            continue;
        fprintf(f, "%s\n%s    {\"%s\": %" PRIu32 ", ", first ? "" : ",", ind, key,
                ids ? ids[i] : i);
        jacct(f, &r[i]);
        fputc('}', f);
        first = false;
    }
    fprintf(f, "%s]", first ? "" : "\n  ");
    if (!first)
        fprintf(f, "%s", ind);
}

static void jhist(FILE *f, const struct hd_hist *h)
{
    fprintf(f, "{\"count\": %" PRIu64 ", \"mean\": %.3f, \"min\": %" PRIu64 ", \"max\": %" PRIu64
               ", \"p50\": %" PRIu64 ", \"p90\": %" PRIu64 ", \"p99\": %" PRIu64
               ", \"buckets\": [",
            h->n, ratio(h->sum, h->n), h->n ? h->min : 0, h->max, hd_hist_quantile(h, 0.5),
            hd_hist_quantile(h, 0.9), hd_hist_quantile(h, 0.99));
    bool first = true;
    for (unsigned i = 0; i < HD_HIST_BUCKETS; i++) {
        if (!h->b[i])
            continue;
        uint64_t lo, hi;
        hd_hist_bounds(i, &lo, &hi);
        fprintf(f, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", first ? "" : ", ", lo, hi,
                h->b[i]);
        first = false;
    }
    fprintf(f, "]}");
}

void hd_mem_report_json(FILE *f, const struct hd_mem *m, const char *ind)
{
    const struct hd_mem_stats *s = hd_mem_full_stats(m);
    const struct hd_mem_params *p = hd_mem_full_params(m);
    if (!s || !p) {
        fprintf(f, "null");
        return;
    }
    struct hd_mem_acct tot;
    hd_mem_stats_total(s, &tot);
    fprintf(f, "{\n%s  \"model\": \"full\",\n", ind);
    fprintf(f,
            "%s  \"cycles\": {\"core\": %" PRIu64 ", \"icnt\": %" PRIu64 ", \"l2\": %" PRIu64
            ", \"dram\": %" PRIu64 "},\n",
            ind, s->core_cycles, s->icnt_cycles, s->l2_cycles, s->dram_cycles);
    fprintf(f, "%s  \"total\": {", ind);
    jacct(f, &tot);
    fprintf(f, "},\n");
    uint64_t data = 0, busy_req = 0, busy_rep = 0;
    for (uint32_t c = 0; c < s->nchannels; c++)
        data += s->dram_data_cycles[c];
    for (uint32_t i = 0; i < s->nslices; i++)
        busy_req += s->xbar_req_busy[i];
    for (uint32_t i = 0; i < s->num_sms; i++)
        busy_rep += s->xbar_rep_busy[i];
    const double peak = (double)p->dram.burst_bytes / p->dram.burst_cycles * p->dram.channels;
    fprintf(f,
            "%s  \"derived\": {\"l1d_hit_rate\": %.6f, \"l1c_hit_rate\": %.6f, \"l2_hit_rate\": "
            "%.6f, \"dram_row_hit_rate\": %.6f, \"dram_bus_utilization\": %.6f, "
            "\"dram_bytes_per_dram_cycle\": %.3f, \"dram_peak_bytes_per_dram_cycle\": %.3f, "
            "\"icnt_request_utilization\": %.6f, \"icnt_reply_utilization\": %.6f, "
            "\"dup_mshr_fraction\": %.6f, \"requests_per_mshr_entry\": %.4f},\n",
            ind, ratio(tot.l1d_read_hits, tot.l1d_reads), ratio(tot.l1c_hits, tot.l1c_reads),
            ratio(tot.l2_read_hits, tot.l2_reads),
            ratio(tot.dram_row_hits, tot.dram_row_hits + tot.dram_row_misses),
            ratio(data, s->dram_cycles * s->nchannels),
            ratio(tot.dram_read_bytes + tot.dram_write_bytes, s->dram_cycles), peak,
            ratio(busy_req, s->icnt_cycles * s->nslices),
            ratio(busy_rep, s->icnt_cycles * s->num_sms),
            ratio(tot.l1d_dup_mshr, tot.l1d_mshr_allocs),
            ratio(tot.l1d_mshr_allocs + tot.l1d_mshr_merges, tot.l1d_mshr_allocs));
    fprintf(f, "%s  \"latency_histograms\": {", ind);
    for (unsigned h = 0; h < HD_HIST_COUNT; h++) {
        fprintf(f, "%s\n%s    \"%s\": ", h ? "," : "", ind, hd_mem_hist_name(h));
        jhist(f, &s->hist[h]);
    }
    fprintf(f, "\n%s  }", ind);
    jrecords(f, ind, "per_sm", "sm", s->sm, NULL, s->num_sms, false);
    jrecords(f, ind, "per_kernel", "launch", s->kernel, s->kernel_id, s->nkernels, true);
    static const char *const class_names[HD_MCLASS_COUNT] = {"demand", "context", "swap"};
    fprintf(f, ",\n%s  \"per_class\": {", ind);
    for (unsigned c = 0; c < HD_MCLASS_COUNT; c++) {
        fprintf(f, "%s\n%s    \"%s\": {", c ? "," : "", ind, class_names[c]);
        jacct(f, &s->cls[c]);
        fputc('}', f);
    }
    fprintf(f, "\n%s  }", ind);
    jrecords(f, ind, "l2_slices", "slice", s->slice, NULL, s->nslices, false);
    jrecords(f, ind, "dram_channels", "channel", s->channel, NULL, s->nchannels, false);
    fprintf(f, ",\n%s  \"dram_commands\": [", ind);
    for (uint32_t c = 0; c < s->nchannels; c++)
        fprintf(f, "%s{\"channel\": %" PRIu32 ", \"act\": %" PRIu64 ", \"pre\": %" PRIu64
                   ", \"ref\": %" PRIu64 ", \"data_cycles\": %" PRIu64 "}",
                c ? ", " : "", c, s->dram_acts[c], s->dram_pres[c], s->dram_refs[c],
                s->dram_data_cycles[c]);
    fprintf(f, "]\n%s}", ind);
}

void hd_mem_report_text(FILE *f, const struct hd_mem *m, const char *pre)
{
    const struct hd_mem_stats *s = hd_mem_full_stats(m);
    const struct hd_mem_params *p = hd_mem_full_params(m);
    if (!s || !p)
        return;
    struct hd_mem_acct t;
    hd_mem_stats_total(s, &t);
    uint64_t data = 0;
    for (uint32_t c = 0; c < s->nchannels; c++)
        data += s->dram_data_cycles[c];
    const double dram_s = (double)s->dram_cycles / ((double)p->dram_khz * 1e3);
    fprintf(f, "%sL1D: %" PRIu64 " reads, %.1f%% hits, %" PRIu64 " MSHR allocations (+%" PRIu64
               " merged, %.1f%% duplicates), %" PRIu64 " writes, %" PRIu64 " bypassed\n",
            pre, t.l1d_reads, 100 * ratio(t.l1d_read_hits, t.l1d_reads), t.l1d_mshr_allocs,
            t.l1d_mshr_merges, 100 * ratio(t.l1d_dup_mshr, t.l1d_mshr_allocs), t.l1d_writes,
            t.l1d_bypass);
    fprintf(f, "%sL2: %" PRIu64 " reads, %.1f%% hits, %" PRIu64 " writes, %" PRIu64
               " atomics; miss queues: %" PRIu64 " requests, mean wait %.1f cycles\n",
            pre, t.l2_reads, 100 * ratio(t.l2_read_hits, t.l2_reads), t.l2_writes, t.l2_atomics,
            t.mq_requests, ratio(t.mq_wait, t.mq_requests));
    const double peak = (double)p->dram.burst_bytes / p->dram.burst_cycles * p->dram.channels;
    const uint64_t moved = t.dram_read_bytes + t.dram_write_bytes;
    fprintf(f, "%sDRAM: %.2f MB read, %.2f MB written (%.1f GB/s, %.1f%% of peak), bus %.1f%% busy, "
               "row hits %.1f%%\n",
            pre, (double)t.dram_read_bytes / 1e6, (double)t.dram_write_bytes / 1e6,
            dram_s > 0 ? (double)moved / dram_s / 1e9 : 0.0,
            100 * ratio(moved, s->dram_cycles) / (peak > 0 ? peak : 1),
            100 * ratio(data, s->dram_cycles * s->nchannels),
            100 * ratio(t.dram_row_hits, t.dram_row_hits + t.dram_row_misses));
    fprintf(f, "%smean read latency (core cycles): L1 %.1f, L2 %.1f, DRAM %.1f; writes %.1f\n", pre,
            ratio(s->hist[HD_HIST_L1].sum, s->hist[HD_HIST_L1].n),
            ratio(s->hist[HD_HIST_L2].sum, s->hist[HD_HIST_L2].n),
            ratio(s->hist[HD_HIST_DRAM].sum, s->hist[HD_HIST_DRAM].n),
            ratio(s->hist[HD_HIST_WRITE].sum, s->hist[HD_HIST_WRITE].n));
    const struct hd_mem_acct *cx = &s->cls[HD_MCLASS_CONTEXT], *dm = &s->cls[HD_MCLASS_DEMAND];
    if (cx->mq_requests == 0)
        return;
    fprintf(f, "%straffic classes: demand %" PRIu64 " requests (mean read latency %.1f), context %"
               PRIu64 " requests, %.2f MB (mean read latency %.1f); per launch, its own loads:",
            pre, dm->mq_requests, ratio(dm->read_latency, dm->reads_done), cx->mq_requests,
            (double)cx->mq_bytes / 1e6, ratio(cx->read_latency, cx->reads_done));
    for (uint32_t k = 0; k < s->nkernels; k++)
        if (s->kernel[k].reads_done)
            fprintf(f, " %" PRIu32 ": %.1f", s->kernel_id[k],
                    ratio(s->kernel[k].read_latency, s->kernel[k].reads_done));
    fputc('\n', f);
}
