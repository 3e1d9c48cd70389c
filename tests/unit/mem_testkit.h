/* SPDX-License-Identifier: MIT
 * mem_testkit.h - helpers for the memory-system tests: a fake SM that sends requests through the
 * memory interface and ticks the model the way the GPU does (tick(now), then the SMs receive and
 * send at now), and the unloaded latencies the model documents (docs/memory.md), computed from
 * the configuration.
 */
#ifndef HD_MEM_TESTKIT_H
#define HD_MEM_TESTKIT_H

#include "config.h"
#include "mem_full.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct tk {
    struct hd_config cfg;
    struct hd_mem m;
    uint64_t now;
    bool skip; /* jump over idle cycles with next_event(), as the GPU does */
};

/* Create the full model from cfg (defaults if NULL). Returns 0 or -1 (message printed). */
static inline int tk_init(struct tk *k, const struct hd_config *cfg)
{
    memset(k, 0, sizeof *k);
    if (cfg)
        k->cfg = *cfg;
    else
        hd_config_defaults(&k->cfg);
    char err[256];
    if (hd_mem_full_create(&k->cfg, &k->m, err, sizeof err) != 0) {
        fprintf(stderr, "hd_mem_full_create: %s\n", err);
        return -1;
    }
    return 0;
}

static inline void tk_done(struct tk *k)
{
    k->m.ops->destroy(k->m.impl);
}

/* Advance to the next cycle and tick the memory system. */
static inline void tk_tick(struct tk *k)
{
    if (k->skip) {
        uint64_t t = k->m.ops->next_event(k->m.impl, k->now + 1);
        if (t != UINT64_MAX && t > k->now + 2)
            k->now = t - 2; /* the next tick is at t - 1, as gpu_timing.c's skip_idle */
    }
    k->now++;
    k->m.ops->tick(k->m.impl, k->now);
}

static inline struct hd_mem_req tk_req(unsigned sm, uint8_t kind, uint8_t space, uint64_t addr,
                                       uint32_t bytes, uint32_t kernel, uint64_t tag)
{
    struct hd_mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.bytes = bytes;
    r.kind = kind;
    r.space = space;
    r.sm = (uint16_t)sm;
    r.kernel = kernel;
    r.tag = tag;
    return r;
}

/* Send r now (ticking until accepted) and wait for it; returns done - issue cycles, or
 * UINT64_MAX after `limit` cycles. */
static inline uint64_t tk_access(struct tk *k, struct hd_mem_req r, uint64_t limit)
{
    while (!k->m.ops->send(k->m.impl, &r, k->now))
        tk_tick(k);
    const uint64_t t0 = k->now;
    while (k->now - t0 < limit) {
        tk_tick(k);
        struct hd_mem_req out;
        if (k->m.ops->recv(k->m.impl, r.sm, &out, 1, k->now) == 1)
            return out.done_cycle - out.issue_cycle;
    }
    return UINT64_MAX;
}

/* Tick until nothing is in flight (or limit cycles). Returns true if it drained. */
static inline bool tk_drain(struct tk *k, uint64_t limit)
{
    struct hd_mem_req out[64];
    for (uint64_t i = 0; i < limit; i++) {
        if (k->m.ops->idle(k->m.impl))
            return true;
        tk_tick(k);
        for (unsigned s = 0; s < k->cfg.gpu_num_sms; s++)
            while (k->m.ops->recv(k->m.impl, s, out, 64, k->now))
                ;
    }
    return k->m.ops->idle(k->m.impl);
}

static inline uint32_t tk_ceil(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

/* Unloaded latency of an L1 miss served by the L2 (docs/memory.md, "Unloaded latencies"). */
static inline double tk_l2_hit_latency(const struct hd_config *c)
{
    const double ri = c->clock_core_mhz / c->clock_icnt_mhz;
    const double r2 = c->clock_core_mhz / c->clock_l2_mhz;
    const uint32_t port_flits = c->icnt_port_bytes / c->icnt_flit_bytes;
    const uint32_t dreq = tk_ceil(tk_ceil(c->icnt_header_bytes, c->icnt_flit_bytes), port_flits);
    const uint32_t drep =
        tk_ceil(tk_ceil(c->icnt_header_bytes + c->l1d_line, c->icnt_flit_bytes), port_flits);
    return 2.0 + (2.0 * c->icnt_latency + dreq + drep) * ri + (c->l2_latency - 1.0) * r2;
}

/* Unloaded latency of an L1 miss that misses in the L2 and finds its DRAM bank closed. */
static inline double tk_dram_latency(const struct hd_config *c)
{
    const double r2 = c->clock_core_mhz / c->clock_l2_mhz;
    const double rd = c->clock_core_mhz / c->clock_dram_mhz;
    const uint32_t burst = c->dram_bus_bytes * c->dram_burst_length;
    const uint32_t nb = tk_ceil(c->l2_line, burst);
    const uint32_t bc = c->dram_burst_length / c->dram_data_rate;
    const double d = c->dram_latency + c->dram_trcd + (nb - 1.0) * c->dram_tccdl + c->dram_tcl + bc;
    return tk_l2_hit_latency(c) + d * rd + r2;
}

#endif
