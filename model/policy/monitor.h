/* SPDX-License-Identifier: MIT
 * monitor.h - the windowed utilisation monitor (issue 25 item 6): per SM and per kernel, what
 * the pipeline and the memory system did in the last complete window of a length a policy
 * chose, so that a policy reads one window instead of differencing cumulative counters itself
 * (CCBP's windowed bandwidth and issue-rate signals, Lin ch.4; GPUDuet's and Zorua's
 * utilisation triggers). docs/monitor.md has a worked example.
 *
 * Design. A policy (a mechanism's hook in attach(), through hd_mech_env.mon, or any policy that
 * holds the monitor) subscribes with a window length of L cycles; its windows are aligned to
 * multiples of L: a window closes at the end of cycle k*L and covers cycles (k*L - L, k*L] (the
 * first one cycle 0 too).
 * At the close the GPU reads the cumulative counters (the SMs' statistics, the launches'
 * records, the memory system's per-SM, per-kernel and per-class records) and keeps, per
 * subscription, the difference from the previous close: the last complete window, readable
 * until the next one closes (hd_monitor_last), and handed to the subscribing hook's `window`
 * callback (mech.h) at the close. The GPU does not skip idle cycles past a close. Nobody
 * subscribed: the monitor costs one comparison per simulated cycle and nothing else.
 * Measures (struct hd_mon_counts; the memory ones are 0 with [mem] model = fixed):
 *   issue      warp instructions issued (issue slots used)
 *   requests   global and local memory requests sent (coalesced segments or sectors)
 *   l1d_port   L1D data-array accesses, one data-port cycle each: read hits, stores looked up,
 *              line fills (MSHR allocations)
 *   l2_port    L2 data-array accesses: reads, writes, atomics
 *   flits_req, flits_rep  interconnect flits toward the L2 and back
 *   dram_data  DRAM data-bus cycles of the column commands (DRAM clock)
 *   l1d_hit, l2_hit  data-port cycles of cache hits, each hit ceil(bytes / data port width)
 *              ([l1d] / [l2] data_port_bytes; L2 clock): Lin Sec. 3.4.1's port utilisation
 *              ("the data port is utilized when there is a cache hit"), GPUDuet's monitor
 * Per kernel means per launch (launch id, as memory requests carry it); per class means the
 * memory traffic classes (mem_iface.h): requests that left the L1 miss queues.
 */
#ifndef HD_MONITOR_H
#define HD_MONITOR_H

#include "mem_iface.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_MON_MAX_SUBS 8

struct hd_mon_counts {
    uint64_t issue, requests, l1d_port, l2_port, flits_req, flits_rep, dram_data;
    uint64_t l1d_hit, l2_hit;
};

struct hd_mon_window {
    uint64_t start, end;               /* it covers cycles (start, end] */
    uint32_t nsm;
    const struct hd_mon_counts *sm;    /* [nsm] */
    uint32_t nkernel;
    const uint32_t *kernel;            /* [nkernel] launch ids (those with a record so far) */
    const struct hd_mon_counts *kern;  /* [nkernel] */
    struct hd_mon_counts total;        /* the sum over the SMs */
    uint64_t cls_requests[HD_MCLASS_COUNT];
};

struct hd_monitor;

/* Subscribe to windows of `cycles` cycles. Returns the subscription (>= 0), or -1 with a
 * message (cycles 0, or HD_MON_MAX_SUBS subscriptions already). */
int hd_monitor_subscribe(struct hd_monitor *m, uint64_t cycles, char *err, size_t errlen);
/* The last complete window of subscription `sub`, or NULL before its first one closed. */
const struct hd_mon_window *hd_monitor_last(const struct hd_monitor *m, int sub);
/* The counts of launch id `launch` in window w (NULL: it had no record). */
const struct hd_mon_counts *hd_mon_window_kernel(const struct hd_mon_window *w, uint32_t launch);

#endif
