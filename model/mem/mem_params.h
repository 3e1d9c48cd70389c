/* SPDX-License-Identifier: MIT
 * mem_params.h - the immutable parameters of the memory system, taken once from the GPU
 * configuration ([clock], [l1d], [l1c], [icnt], [l2], [dram], [addrmap], [mem]).
 *
 * Design: every unit of model/mem gets a const pointer to one of these structs (style rule C4)
 * and never reads the configuration. hd_mem_params_init() also performs the checks that involve
 * several keys (powers of two, bit-field widths against bank and slice counts, port width a
 * multiple of the flit) and names the offending key in its message. Clocks are kept as integer
 * kHz so that clock crossing (clock_domain.h) is exact.
 */
#ifndef HD_MEM_PARAMS_H
#define HD_MEM_PARAMS_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_ADDRMAP_MAX_BITS 64

/* A list of address bit numbers, least significant field bit first. */
struct hd_bitlist {
    uint8_t n;
    uint8_t bit[HD_ADDRMAP_MAX_BITS];
};

struct hd_cache_params {
    uint32_t sets, ways, line, latency;
    uint32_t mshr_entries, mshr_merge;
    bool xor_index;
};

struct hd_icnt_params {
    bool islip;
    bool voq;              /* islip: virtual output queues (else the head packet only) */
    uint32_t iters, flit_bytes, port_flits, header_bytes, latency, input_flits, eject_packets;
};

struct hd_l2_params {
    uint32_t per_channel, nslices;
    struct hd_cache_params c;
    uint32_t input_queue, output_queue, port_bytes;
    uint32_t dram_queue;  /* L2-to-DRAM queue entries (0: unbounded) */
    bool dram_per_sector; /* one DRAM request per missing sector (GPGPU-Sim 4) */
    bool sector_replies;  /* one reply packet per sector (GPGPU-Sim 4) */
    bool fetch_whole_line; /* a read miss fetches its whole line (line cache) */
    bool write_miss_fetch; /* write miss: through to DRAM + line fetch (GPGPU-Sim 3.x) */
};

struct hd_dram_params {
    uint32_t channels, banks, groups;
    uint32_t burst_bytes, burst_cycles; /* bytes and command cycles of one column command */
    uint32_t tccd, tccdl, trrd, trcd, tras, trp, trc, tcl, twl, twr, twtr, trtp;
    uint32_t queue, latency;
    uint32_t write_queue, write_high, write_low; /* write batching (write_queue 0: off) */
    bool frfcfs, refresh;
    uint32_t trefi, trfc;
};

struct hd_addrmap_params {
    uint32_t channels, channel_lsb;
    struct hd_bitlist sub, bank, row, col;
};

struct hd_mem_params {
    uint32_t num_sms;
    uint64_t core_khz, icnt_khz, l2_khz, dram_khz;
    struct {
        struct hd_cache_params c;
        uint32_t ports, queue, miss_queue;
        uint32_t port_bytes; /* data port width: the monitor's hit cycles only */
        bool bypass_global, flush_at_launch, lookup_after_latency, allocate_on_miss;
        bool miss_writeback; /* completions below the L1 through one register (GPGPU-Sim) */
        char bypass_kernels[HD_CFG_STR_MAX];
    } l1d;
    struct hd_cache_params l1c;
    struct hd_icnt_params icnt;
    struct hd_l2_params l2;
    struct hd_dram_params dram;
    struct hd_addrmap_params map;
    uint32_t dup_window;
    bool l2_preload_copies; /* [mem] l2_preload_copies (hd_mem_full_preload) */
    bool context_low;  /* [context] priority = low: demand traffic leaves the miss queue first */
};

/* Fill p from cfg. Returns 0, or -1 with "key 'X': message" in err. */
int hd_mem_params_init(const struct hd_config *cfg, struct hd_mem_params *p, char *err,
                       size_t errlen);

/* Does the kernel `name` match the list `list` (names separated by spaces or commas; a name
 * ending in '*' matches every kernel that starts with what precedes it)? */
bool hd_mem_params_kernel_listed(const char *list, const char *name);

#endif
