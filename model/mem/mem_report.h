/* SPDX-License-Identifier: MIT
 * mem_report.h - the memory system's statistics as a JSON object and as a human summary.
 *
 * Design: both walk the counter descriptor of mem_stats.def, so they never lag behind the
 * counters. JSON: {"model": "full", "cycles": {...}, "total": {...}, "derived": {...},
 * "per_sm": [...], "per_kernel": [...], "l2_slices": [...], "dram_channels": [...],
 * "latency_histograms": {name: {"count", "mean", "min", "max", "p50", "p90", "p99",
 * "buckets": [[lo, hi, count], ...]}}}. Kernels appear by launch id; records that never counted
 * anything are left out. The statistics owner (the timing model's JSON writer) calls
 * hd_mem_report_json() inside its own object.
 */
#ifndef HD_MEM_REPORT_H
#define HD_MEM_REPORT_H

#include "mem_iface.h"

#include <stdio.h>

/* Write the memory section as a JSON value (an object), every line after the first starting
 * with `indent`. Writes "null" if m is not the full model. */
void hd_mem_report_json(FILE *f, const struct hd_mem *m, const char *indent);
/* A few lines of text: hit rates, bandwidths and utilisations, mean latencies per level. Each
 * line starts with `prefix`. Nothing if m is not the full model. */
void hd_mem_report_text(FILE *f, const struct hd_mem *m, const char *prefix);

#endif
