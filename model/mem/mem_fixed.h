/* SPDX-License-Identifier: MIT
 * mem_fixed.h - a fixed-latency memory model behind the memory interface (mem_iface.h).
 *
 * Design: every request completes `latency` cycles after it was sent. Each SM has one link that
 * carries `bytes_per_cycle`: after sending a request of B bytes the SM may send again after
 * ceil(B / bytes_per_cycle) cycles. At most `max_inflight` requests per SM are outstanding.
 * Because the latency is constant, completion order is send order, so each SM's requests sit in
 * one ring buffer (allocated once; no allocation per request). Stand-in until the memory-system
 * issue puts caches, crossbar and DRAM behind the same interface.
 */
#ifndef HD_MEM_FIXED_H
#define HD_MEM_FIXED_H

#include "mem_iface.h"

#include <stddef.h>
#include <stdint.h>

/* [mem] model = fixed: its parameters (taken from the configuration by timing_params.c). */
struct hd_mem_fixed_params {
    uint32_t num_sms, latency, bytes_per_cycle, max_inflight;
};

/* Create the model. Returns 0, or -1 with a message (allocation failure). */
int hd_mem_fixed_create(const struct hd_mem_fixed_params *p, struct hd_mem *out, char *err,
                        size_t errlen);

#endif
