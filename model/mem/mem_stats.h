/* SPDX-License-Identifier: MIT
 * mem_stats.h - accounting of the memory system: counter records per SM, kernel, L2 slice and
 * DRAM channel (mem_stats.def), latency histograms per level, and the cross-SM duplicate-MSHR
 * monitor (Gong ch.6).
 *
 * Design: a counter record is a struct generated from mem_stats.def; events add to the records
 * they concern. Kernels (launch ids, any 32-bit value) get dense indices on first sight through
 * a small hash, so per-kernel records are an array. Histograms are log-linear: exact below 8,
 * then 4 buckets per power of two (relative resolution 25 %), with count, sum, min and max
 * exact. The duplicate-MSHR monitor keeps per line the two most recent allocating SMs with
 * their cycles: an allocation by SM s at t is a duplicate when another SM allocated the same
 * line in [t - window, t); the table drops entries older than the window when it grows.
 */
#ifndef HD_MEM_STATS_H
#define HD_MEM_STATS_H

#include "mem_iface.h"
#include "mem_txn.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_mem_acct {
#define HD_MEMSTAT(name, doc) uint64_t name;
#include "mem_stats.def"
#undef HD_MEMSTAT
};

struct hd_memstat_desc {
    const char *name, *doc;
    size_t offset;
};
const struct hd_memstat_desc *hd_mem_acct_desc(unsigned *n);

#define HD_HIST_BUCKETS 160
struct hd_hist {
    uint64_t n, sum, min, max;
    uint64_t b[HD_HIST_BUCKETS];
};
void hd_hist_add(struct hd_hist *h, uint64_t v);
/* Bucket i covers [lo, hi]. */
void hd_hist_bounds(unsigned i, uint64_t *lo, uint64_t *hi);
/* The value below which a fraction q of the samples lie (bucket upper bound). */
uint64_t hd_hist_quantile(const struct hd_hist *h, double q);

/* Histograms of the end-to-end latency of SM requests (core cycles, send to completion). */
enum hd_mem_hist {
    HD_HIST_L1,      /* reads served by the L1 data or constant cache */
    HD_HIST_L2,      /* reads served by the L2 */
    HD_HIST_DRAM,    /* reads that needed DRAM */
    HD_HIST_WRITE,   /* stores (write-through acknowledged by the L2, or local write hits) */
    HD_HIST_ICNT_REQ,/* request packets, input buffer to arrival (interconnect cycles) */
    HD_HIST_ICNT_REP,/* reply packets */
    HD_HIST_DRAM_SVC,/* DRAM reads, controller queue to data (DRAM cycles) */
    HD_HIST_COUNT
};
const char *hd_mem_hist_name(enum hd_mem_hist h);

struct hd_dup_entry {
    uint64_t line;  /* + 1; 0 = empty */
    uint64_t t_a, t_b;
    uint32_t sm_a, sm_b;
};

struct hd_mem_stats {
    uint32_t num_sms, nslices, nchannels;
    struct hd_mem_acct *sm, *slice, *channel;
    struct hd_mem_acct cls[HD_MCLASS_COUNT]; /* per traffic class (demand, context, swap) */
    /* kernels */
    struct hd_mem_acct *kernel;
    uint32_t *kernel_id;
    uint32_t nkernels, cap_kernels;
    uint32_t *kmap; /* hash: kernel index + 1, 0 = empty */
    uint32_t kmap_cap;
    uint32_t last_kernel, last_kidx;
    struct hd_hist hist[HD_HIST_COUNT];
    /* unit utilisation */
    uint64_t *xbar_req_busy, *xbar_rep_busy; /* [nslices], [num_sms]: output busy cycles */
    uint64_t *dram_data_cycles;              /* [nchannels]: data-bus busy DRAM cycles */
    uint64_t *dram_acts, *dram_pres, *dram_refs;
    uint64_t icnt_cycles, l2_cycles, dram_cycles, core_cycles;
    /* duplicate-MSHR monitor */
    uint32_t dup_window;
    struct hd_dup_entry *dup;
    uint32_t dup_cap, dup_used;
    uint64_t dup_allocs, dup_dups;
};

int hd_mem_stats_init(struct hd_mem_stats *s, uint32_t num_sms, uint32_t nslices,
                      uint32_t nchannels, uint32_t dup_window);
void hd_mem_stats_free(struct hd_mem_stats *s);
/* Zero every counter and histogram (kernel indices stay valid). */
void hd_mem_stats_reset(struct hd_mem_stats *s);
/* Dense index of kernel (launch id), creating its record. On host out-of-memory it returns 0,
 * the record that init reserves for requests that cannot be attributed. */
uint32_t hd_mem_stats_kernel(struct hd_mem_stats *s, uint32_t kernel);
/* Record an L1 MSHR allocation of `line` by SM sm at core cycle now; true if duplicate. */
bool hd_mem_stats_dup(struct hd_mem_stats *s, uint64_t line, uint32_t sm, uint64_t now);
/* Add v to counter `field` of the records of t's SM, kernel and traffic class. */
#define HD_ACCT(st, t, field, v)                                                                   \
    do {                                                                                           \
        (st)->sm[(t)->sm].field += (v);                                                            \
        (st)->kernel[(t)->kidx].field += (v);                                                      \
        (st)->cls[(t)->cls].field += (v);                                                          \
    } while (0)

/* The sum of the per-SM records. */
void hd_mem_stats_total(const struct hd_mem_stats *s, struct hd_mem_acct *out);

#endif
