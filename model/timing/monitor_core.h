/* SPDX-License-Identifier: MIT
 * monitor_core.h - the GPU's side of the windowed monitor (model/policy/monitor.h): creation,
 * the per-cycle close check and the bound it puts on skipping idle cycles.
 */
#ifndef HD_MONITOR_CORE_H
#define HD_MONITOR_CORE_H

#include "mech.h"
#include "monitor.h"
#include "timing_stats.h"

#include <stdint.h>

/* A monitor over the statistics ts (its SMs' and launches' records) and the memory system mem
 * (its per-SM, per-kernel and per-class records when it is the full model); `hooks` receive the
 * windows of their subscriptions. NULL: host out of memory. */
struct hd_monitor *hd_monitor_create(const struct hd_timing_stats *ts, const struct hd_mem *mem,
                                     const struct hd_hooks *hooks);
void hd_monitor_destroy(struct hd_monitor *m);
/* The hook index subscriptions made from now on belong to (-1: none; set around attach()). */
void hd_monitor_set_owner(struct hd_monitor *m, int hook);
/* The first cycle at whose end a window closes (UINT64_MAX: nobody subscribed). */
uint64_t hd_monitor_next(const struct hd_monitor *m);
/* The end of cycle `now` (>= hd_monitor_next): close the windows that end here. */
void hd_monitor_close(struct hd_monitor *m, uint64_t now);

#endif
