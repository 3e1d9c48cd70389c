/* SPDX-License-Identifier: MIT
 * power_report.h - the energy report of a timed run: energy and average power per component for
 * the run, per kernel launch (with what no kernel accounts for) and per SM, as a text table
 * (`heddle run --power`) and as the statistics JSON's "power" member (docs/power.md).
 *
 * Design: built after (or during a pause of) a run from the statistics alone, so that the
 * simulation pays nothing for it; owns its arrays. The run's energy comes from the run's counts,
 * each kernel's from its own (power_events.h), and "other" is the run less the kernels: events
 * no kernel is charged for (context-save traffic of a CTA that was flushed, requests without a
 * kernel) and rounding.
 */
#ifndef HD_POWER_REPORT_H
#define HD_POWER_REPORT_H

#include "mem_stats.h"
#include "power_model.h"
#include "timing_stats.h"

#include <stdbool.h>
#include <stdio.h>

struct hd_power_report {
    struct hd_power_params p;
    struct hd_power_events run_ev;
    struct hd_power_energy run, other;
    uint32_t nlaunch, nsm;
    struct hd_power_energy *launch;     /* [nlaunch] */
    struct hd_power_energy *sm;         /* [nsm]: SM-side energy of each SM */
    bool memory;                        /* the full memory system's events are in it */
};

/* Build r from the statistics; mem NULL: fixed-latency memory (no memory-system events).
 * 0, or -1 with a message in err. */
int hd_power_report_build(struct hd_power_report *r, const struct hd_timing_stats *ts,
                          const struct hd_mem_stats *mem, const struct hd_config *cfg, char *err,
                          size_t errlen);
void hd_power_report_free(struct hd_power_report *r);
/* The table for a person. */
void hd_power_report_text(const struct hd_power_report *r, const struct hd_timing_stats *ts,
                          FILE *out);
/* One JSON object (no trailing newline); `ind` prefixes its inner lines. */
void hd_power_report_json(const struct hd_power_report *r, const struct hd_timing_stats *ts,
                          FILE *out, const char *ind);

#endif
